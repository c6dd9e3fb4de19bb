// Unit tests of QueuedDirs (lib/walk/queued_dirs.hpp), the FIFO of compact
// records a breadth-first walk keeps its far queue in: every record comes
// back once, in order, with every field as pushed (dev when the identity
// is known), whatever the mix of pushes and pops, chunk boundaries and
// names longer than a chunk.  The oracle is a std::deque of the same
// records.
#include "walk/queued_dirs.hpp"

#include <criterion/criterion.h>

#include <cstdint>
#include <deque>
#include <string>

using ioq::walk::DirNode;
using ioq::walk::QueuedDir;
using ioq::walk::QueuedDirs;

namespace {

struct Model {
    std::uintptr_t parent;
    std::uint64_t dev;
    std::uint64_t ino;
    int depth;
    bool identity_known;
    std::string name;
};

Model model_of(std::uint64_t i, std::size_t name_size) {
    std::string name(name_size, 'a');
    for (std::size_t k = 0; k < name_size; ++k) {
        name[k] = static_cast<char>('a' + (i + k) % 26);
    }
    return {0x1000 + 8 * i, i * 3 + 1, ~i, static_cast<int>(i % 4096), i % 3 == 0, name};
}

void push(QueuedDirs& fifo, std::deque<Model>& model, const Model& m) {
    QueuedDir dir;
    dir.parent = reinterpret_cast<DirNode*>(m.parent);  // never dereferenced
    dir.dev = m.dev;
    dir.ino = m.ino;
    dir.depth = m.depth;
    dir.identity_known = m.identity_known;
    dir.name = m.name;
    fifo.push(dir);
    model.push_back(m);
}

void pop_and_compare(QueuedDirs& fifo, std::deque<Model>& model) {
    cr_assert(!fifo.empty());
    QueuedDir got = fifo.front();
    const Model& want = model.front();
    cr_assert_eq(reinterpret_cast<std::uintptr_t>(got.parent), want.parent);
    if (want.identity_known) {
        cr_assert_eq(got.dev, want.dev);  // kept only for a known identity
    }
    cr_assert_eq(got.ino, want.ino);
    cr_assert_eq(got.depth, want.depth);
    cr_assert_eq(got.identity_known, want.identity_known);
    cr_assert(got.name == want.name, "name of %zu bytes differs", want.name.size());
    fifo.pop();
    model.pop_front();
    cr_assert_eq(fifo.size(), model.size());
}

} // namespace

Test(queued_dirs, records_come_back_in_order_across_chunks_with_pops_between) {
    QueuedDirs fifo;
    std::deque<Model> model;
    std::uint64_t next = 0;
    // Waves of pushes and pops of different lengths, so that the head and
    // the tail cross chunk boundaries at every offset; names 0..300 bytes.
    for (int wave = 0; wave < 40; ++wave) {
        std::size_t pushes = 500 + static_cast<std::size_t>(wave * 37 % 700);
        if (wave % 5 == 0) {
            fifo.reserve(pushes, pushes * 300);
        }
        for (std::size_t i = 0; i < pushes; ++i, ++next) {
            push(fifo, model, model_of(next, next * 7 % 301));
        }
        std::size_t pops = model.size() - (wave % 4 == 3 ? 0 : model.size() / 3);
        for (std::size_t i = 0; i < pops; ++i) {
            pop_and_compare(fifo, model);
        }
    }
    while (!model.empty()) {
        pop_and_compare(fifo, model);
    }
    cr_expect(fifo.empty());
    cr_expect_eq(fifo.size(), 0u);
}

Test(queued_dirs, a_name_longer_than_a_chunk_comes_back_whole) {
    // An anchor's full path below thousands of levels can outgrow 64 KiB.
    QueuedDirs fifo;
    std::deque<Model> model;
    push(fifo, model, model_of(1, 10));
    push(fifo, model, model_of(2, 200 * 1024));
    push(fifo, model, model_of(3, 10));
    fifo.reserve(2, 300 * 1024);
    push(fifo, model, model_of(4, 150 * 1024));
    push(fifo, model, model_of(5, 0));
    while (!model.empty()) {
        pop_and_compare(fifo, model);
    }
    // Emptied, it takes records again from the start.
    push(fifo, model, model_of(6, 40));
    pop_and_compare(fifo, model);
}
