// Unit tests of BatchQueue (lib/ioq/batch_queue.hpp), the bounded queue
// that carries requests to the workers and completions back: order, bounds,
// closing, and many producers and consumers at once.
#include "ioq/batch_queue.hpp"

#include <criterion/criterion.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <span>
#include <thread>
#include <vector>

Test(batch_queue, keeps_fifo_order_across_batches_and_wraparound) {
    ioq::BatchQueue<int> queue(7);
    int next_in = 0, next_out = 0;
    std::mt19937 random(1);
    std::vector<int> items, out(7);
    // Sizes that do not divide the capacity make the ring wrap at every offset.
    for (int step = 0; step < 500; ++step) {
        std::size_t pushed = random() % 5;
        items.clear();
        for (std::size_t i = 0; i < pushed; ++i) {
            items.push_back(next_in + static_cast<int>(i));
        }
        if (queue.push(std::span<const int>(items))) {
            next_in += static_cast<int>(pushed);
        }
        std::size_t want = random() % 6;
        std::size_t got = queue.pop(std::span<int>(out.data(), want), false);
        cr_assert(got <= want);
        for (std::size_t i = 0; i < got; ++i) {
            cr_assert_eq(out[i], next_out, "step %d: popped %d, want %d", step, out[i], next_out);
            ++next_out;
        }
    }
    std::size_t got;
    while ((got = queue.pop(out, false)) > 0) {
        for (std::size_t i = 0; i < got; ++i) {
            cr_assert_eq(out[i], next_out++);
        }
    }
    cr_expect_eq(next_out, next_in, "items lost: %d pushed, %d popped", next_in, next_out);
    cr_expect(next_in > 500, "the test pushed too little to mean anything");
}

Test(batch_queue, refuses_a_push_that_does_not_fit_and_keeps_contents) {
    ioq::BatchQueue<int> queue(4);
    cr_expect_eq(queue.capacity(), 4u);
    const int three[] = {1, 2, 3};
    const int two[] = {4, 5};
    const int five[] = {6, 7, 8, 9, 10};
    cr_expect(queue.push(std::span<const int>()), "an empty push always succeeds");
    cr_assert(queue.push(three));
    cr_expect(!queue.push(two), "3 + 2 items do not fit in 4");
    int out[8];
    cr_assert_eq(queue.pop(out, false), 3u, "a refused push must append nothing");
    cr_expect(out[0] == 1 && out[1] == 2 && out[2] == 3);
    cr_expect(!queue.push(five), "5 items never fit in 4");
    cr_expect_eq(queue.pop(out, false), 0u);
    cr_expect(queue.push(std::span<const int>(five, 4)), "exactly the capacity fits");
    cr_expect_eq(queue.pop(out, false), 4u);
    queue.close();
    cr_expect(!queue.push(two), "a closed queue refuses pushes");
    cr_expect_eq(queue.pop(out, true), 0u, "pop on a closed empty queue returns 0 at once");
}

Test(batch_queue, close_drains_what_is_left_then_returns_zero) {
    ioq::BatchQueue<int> queue(8);
    const int items[] = {1, 2, 3};
    cr_assert(queue.push(items));
    queue.close();
    int out[2];
    cr_expect_eq(queue.pop(out, true), 2u);
    cr_expect_eq(queue.pop(out, true), 1u);
    cr_expect_eq(out[0], 3);
    cr_expect_eq(queue.pop(out, true), 0u);
}

Test(batch_queue, pop_wait_wakes_on_close) {
    ioq::BatchQueue<int> queue(8);
    constexpr int sleepers = 3;
    std::atomic<int> returned{0};
    std::atomic<std::size_t> items_seen{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < sleepers; ++i) {
        threads.emplace_back([&] {
            int out[4];
            items_seen += queue.pop(out, true);
            ++returned;
        });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cr_expect_eq(returned.load(), 0, "pop(wait) returned from an empty open queue");
    auto start = std::chrono::steady_clock::now();
    queue.close();
    for (std::thread& thread : threads) {
        thread.join();
    }
    auto took = std::chrono::steady_clock::now() - start;
    cr_expect_eq(returned.load(), sleepers);
    cr_expect_eq(items_seen.load(), 0u);
    cr_expect(took < std::chrono::seconds(2), "close took %lld ms to wake the sleepers",
              static_cast<long long>(
                  std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));
}

Test(batch_queue, pop_wait_wakes_on_push) {
    ioq::BatchQueue<int> queue(8);
    std::atomic<int> got{-1};
    std::thread consumer([&] {
        int out[4];
        std::size_t n = queue.pop(out, true);
        got = n == 1 ? out[0] : -2;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const int item[] = {42};
    cr_assert(queue.push(item));
    consumer.join();
    cr_expect_eq(got.load(), 42);
}

Test(batch_queue, producers_and_consumers_move_every_item_exactly_once) {
    // Small capacity and small pops keep producers bouncing off a full queue
    // and consumers off an empty one.
    ioq::BatchQueue<std::uint32_t> queue(16);
    constexpr std::uint32_t producers = 2, consumers = 3, per_producer = 20000;
    std::vector<std::vector<std::uint32_t>> received(consumers);
    std::vector<std::thread> consumer_threads;
    for (std::uint32_t c = 0; c < consumers; ++c) {
        consumer_threads.emplace_back([&, c] {
            std::uint32_t out[5];
            while (std::size_t n = queue.pop(std::span<std::uint32_t>(out, 1 + c * 2), true)) {
                received[c].insert(received[c].end(), out, out + n);
            }
        });
    }
    std::vector<std::thread> producer_threads;
    for (std::uint32_t p = 0; p < producers; ++p) {
        producer_threads.emplace_back([&, p] {
            std::mt19937 random(p);
            std::uint32_t next = 0;
            std::vector<std::uint32_t> batch;
            while (next < per_producer) {
                std::uint32_t size = std::min<std::uint32_t>(1 + random() % 8, per_producer - next);
                batch.clear();
                for (std::uint32_t i = 0; i < size; ++i) {
                    batch.push_back(p * per_producer + next + i);
                }
                if (queue.push(std::span<const std::uint32_t>(batch))) {
                    next += size;
                } else {
                    std::this_thread::yield();
                }
            }
        });
    }
    for (std::thread& thread : producer_threads) {
        thread.join();
    }
    queue.close();
    for (std::thread& thread : consumer_threads) {
        thread.join();
    }
    std::vector<std::uint32_t> all;
    for (std::uint32_t c = 0; c < consumers; ++c) {
        // Each consumer sees each producer's items in the order pushed.
        std::vector<std::uint32_t> last(producers, 0);
        std::vector<bool> any(producers, false);
        for (std::uint32_t value : received[c]) {
            std::uint32_t p = value / per_producer;
            cr_assert(p < producers);
            cr_assert(!any[p] || value > last[p], "consumer %u saw %u after %u", c, value, last[p]);
            any[p] = true;
            last[p] = value;
        }
        all.insert(all.end(), received[c].begin(), received[c].end());
    }
    cr_assert_eq(all.size(), std::size_t{producers} * per_producer, "%zu items arrived, %u sent",
                 all.size(), producers * per_producer);
    std::sort(all.begin(), all.end());
    for (std::uint32_t i = 0; i < all.size(); ++i) {
        cr_assert_eq(all[i], i, "item %u lost or duplicated", i);
    }
}
