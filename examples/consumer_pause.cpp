// consumer_pause: does a slow consumer stall the walk, and at what memory?
//
//   consumer_pause [--read-ahead N] [--entry-us US] [--pause-us US] [--every K]
//                  [--batch N] PATH
//
// The consumer spends US microseconds on each entry (busy, as parsing or
// hashing would) and PAUSE more on every K-th (a package manager reading a
// manifest now and then).  Printed: total time; the time spent inside
// next() (or next_batch() with --batch), that as a share of the total;
// walk_wait, the part of it the walk spent with no directory ready (the
// consumer truly waiting on I/O), and its share; and the peak resident
// memory.  The rest of the time in next() is the walk loop's own work per
// entry (reading dirents, building paths, handing out requests), which a
// consumer pays however fast the disk is.  With enough read-ahead the
// workers fill the queue during the consumer's pauses and walk_wait stays
// small.
#include <ioq.hpp>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

void spin_for(std::chrono::nanoseconds duration) {
    auto until = Clock::now() + duration;
    while (Clock::now() < until) {
    }
}

} // namespace

int main(int argc, char** argv) {
    long read_ahead = 0;
    long entry_us = 3;
    long pause_us = 150;
    long every = 150;
    long batch_size = 0;  // 0: one entry at a time
    const char* path = nullptr;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&] { return i + 1 < argc ? std::atol(argv[++i]) : 0L; };
        if (arg == "--read-ahead") {
            read_ahead = value();
        } else if (arg == "--entry-us") {
            entry_us = value();
        } else if (arg == "--pause-us") {
            pause_us = value();
        } else if (arg == "--every") {
            every = value();
        } else if (arg == "--batch") {
            batch_size = value();
        } else {
            path = argv[i];
        }
    }
    if (!path || every <= 0) {
        std::fprintf(stderr, "usage: consumer_pause [--read-ahead N] [--entry-us US] "
                             "[--pause-us US] [--every K] [--batch N] PATH\n");
        return 2;
    }
    ioq_walk_options options = ioq::Walk::defaults();
    options.read_ahead = static_cast<size_t>(read_ahead);
    ioq::Walk walk({path}, options);
    if (walk.error()) {
        std::fprintf(stderr, "consumer_pause: %s\n", std::strerror(-walk.error()));
        return 1;
    }
    auto start = Clock::now();
    Clock::duration waiting{};
    long entries = 0;
    auto consume = [&] {
        ++entries;
        spin_for(std::chrono::microseconds(entry_us));
        if (entries % every == 0) {
            spin_for(std::chrono::microseconds(pause_us));
        }
    };
    if (batch_size > 0) {
        ioq::Batch batch(static_cast<std::size_t>(batch_size));
        for (;;) {
            auto before = Clock::now();
            bool more = walk.next_batch(batch);
            waiting += Clock::now() - before;
            if (!more) {
                break;
            }
            for (std::size_t i = 0; i < batch.size(); ++i) {
                consume();
            }
        }
    } else {
        for (;;) {
            auto before = Clock::now();
            const ioq::Entry* entry = walk.next();
            waiting += Clock::now() - before;
            if (!entry) {
                break;
            }
            consume();
        }
    }
    double total_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    double wait_ms = std::chrono::duration<double, std::milli>(waiting).count();
    ioq_walk_stats stats = walk.stats();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    double walk_wait_ms = static_cast<double>(stats.wait_ns) / 1e6;
    std::printf("read_ahead=%ld batch=%ld entries=%ld total_ms=%.1f waiting_ms=%.1f "
                "waiting_share=%.2f%% walk_wait_ms=%.1f walk_wait_share=%.2f%% "
                "peak_rss_kib=%ld\n",
                read_ahead, batch_size, entries, total_ms, wait_ms, 100.0 * wait_ms / total_ms,
                walk_wait_ms, 100.0 * walk_wait_ms / total_ms, usage.ru_maxrss);
    return 0;
}
