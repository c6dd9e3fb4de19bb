// Fuzz target: the C API of libioq (lib/include/ioq.h) called in random
// orders with random arguments, NULL pointers included, over a small tree
// the target builds once in a temporary directory.
//
//   input: [options: 8 bytes] [call: 1 byte, argument: 1 byte]...
//            |                   |
//            v                   v
//   ioq_walk_open(random options) -> next / next_batch / stat / entry_at /
//                                    prune / stop / get_stats ... -> close
//
// Invariants checked beyond "no crash, no leak":
//   - every call returns what ioq.h's state table says: stat() and
//     entry_at() -ENOENT exactly when the walk is on no entry, -EINVAL for
//     a NULL pointer; next() 0 again after the end or a stop;
//   - no entry is returned twice, and a walk never returns more entries
//     than the tree holds.
#include "fuzz_support.hpp"

#include <ioq.h>

#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

namespace {

std::string tree_root;
constexpr std::size_t tree_entries = 14;  // the top directory and link included

void check(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_walk_api: invariant broken: %s\n", what);
        std::abort();
    }
}

int remove_one(const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }

void remove_tree() { ::nftw(tree_root.c_str(), remove_one, 16, FTW_DEPTH | FTW_PHYS); }

// A few levels, leaves the workers close once read, an empty directory and
// a link back up (a loop under IOQ_SYMLINKS_LOGICAL).
void build_tree() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ioq-fuzz-XXXXXX";
    check(::mkdtemp(pattern.data()) != nullptr, "mkdtemp");
    tree_root = pattern;
    std::atexit(remove_tree);
    for (const char* dir : {"a", "a/b", "a/b/c", "d", "e"}) {
        check(::mkdir((tree_root + "/" + dir).c_str(), 0755) == 0, "mkdir");
    }
    for (const char* file : {"a/1", "a/b/2", "a/b/c/3", "d/4", "d/5", "f", "g"}) {
        int fd = ::open((tree_root + "/" + file).c_str(), O_CREAT | O_WRONLY, 0644);
        check(fd >= 0, "create");
        ::close(fd);
    }
    check(::symlink("..", (tree_root + "/a/up").c_str()) == 0, "symlink");
}

// The input, byte by byte; 0 once it runs out.
struct Bytes {
    const uint8_t* data;
    std::size_t size;
    uint8_t take() {
        if (size == 0) {
            return 0;
        }
        --size;
        return *data++;
    }
    bool empty() const { return size == 0; }
};

// An int field from one byte, now and then outside the enum's values.
template <class Enum>
void set_enum(Enum& field, uint8_t byte) {
    int value = byte % 8 == 7 ? static_cast<int8_t>(byte) : byte % 6;
    std::memcpy(&field, &value, sizeof value);
}

// What the API must say for a walk on no entry, and for NULL pointers.
void check_no_entry(ioq_walk* walk) {
    struct statx out;
    check(ioq_walk_stat(walk, STATX_TYPE, 0, &out) == -ENOENT, "stat on no entry is -ENOENT");
    int dirfd = -7;
    const char* name = nullptr;
    check(ioq_walk_entry_at(walk, &dirfd, &name) == -ENOENT && dirfd == -7 && !name,
          "entry_at on no entry is -ENOENT and sets nothing");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    ufind_fuzz::add_default_flags(argc, argv, false);
    // The tree has 6 directories: start the workers after 2 of them (the
    // default, 256, would leave every walk inline), unless told otherwise.
    ::setenv("IOQ_INLINE_DIRECTORIES", "2", 0);
    build_tree();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Bytes in{data, size};
    ioq_walk_options options;
    ioq_walk_options_init(&options);
    const char* roots[] = {tree_root.c_str(), "", nullptr};
    uint8_t root_choice = in.take();
    options.roots = root_choice % 16 == 15 ? nullptr : roots;
    options.root_count = root_choice % 4;  // 3 names the NULL root: -EINVAL
    set_enum(options.strategy, in.take());
    uint8_t backend = in.take();
    set_enum(options.backend, backend);
    // Few workers: a fuzzer's thousands of walks a second must not start
    // hundreds of threads each.  A huge count (capped by the API) only
    // where no pool starts.
    options.workers = (backend & 0x80) && backend % 6 == IOQ_BACKEND_INLINE
                          ? INT32_MAX
                          : static_cast<int>(backend >> 4 & 3) - 1;
    uint8_t depths = in.take();
    options.min_depth = static_cast<int>(depths & 7) - 1;
    options.max_depth = static_cast<int>(depths >> 3 & 7) - 2;
    uint8_t flags = in.take();
    options.post_order = flags & 1;
    options.same_device = flags & 2;
    options.sort_names = flags & 4;
    options.completion_order = flags & 8;
    options.hold_directories = flags & 16;
    options.names_only = flags & 32;
    options.look_ahead = flags & 64;
    set_enum(options.symlinks, in.take());
    uint8_t extra = in.take();
    options.stat_mask = extra & 1 ? STATX_BASIC_STATS : extra & 2 ? 0x80000000u : 0;
    options.read_ahead = extra & 4 ? SIZE_MAX : (extra >> 3);

    if (flags & 128) {
        check(ioq_walk_open(nullptr, &options) == -EINVAL, "open without a place: -EINVAL");
    }
    ioq_walk* walk = nullptr;
    int opened = ioq_walk_open(&walk, in.take() == 255 ? nullptr : &options);
    if (opened != 0) {
        check(opened == -EINVAL && walk == nullptr, "a refused open is -EINVAL and sets NULL");
        return 0;
    }

    bool on_entry = false;
    bool over = false;  // ended or stopped
    std::set<std::string> seen;
    ioq_entry entries[4];
    struct statx stats[4];
    while (!in.empty()) {
        uint8_t call = in.take();
        uint8_t arg = in.take();
        switch (call % 10) {
        case 0:
        case 1: {
            int result = ioq_walk_next(walk, arg == 0 ? nullptr : &entries[0]);
            if (arg == 0) {
                check(result == -EINVAL, "next with a NULL entry: -EINVAL");
                break;
            }
            check(result >= 0, "next fails only for want of memory");
            check(!over || result == 0, "next after the end or a stop: 0");
            on_entry = result == 1;
            over = result == 0;
            if (result == 1) {
                check(seen.insert(entries[0].path).second, "no entry twice");
            }
            break;
        }
        case 2: {
            std::size_t capacity = arg % 5;
            int result = ioq_walk_next_batch(walk, arg & 8 ? nullptr : entries,
                                             arg & 16 ? stats : nullptr, capacity);
            if (capacity == 0 || (arg & 8)) {
                check(result == -EINVAL, "next_batch without room: -EINVAL");
                break;
            }
            check(result >= 0 && static_cast<std::size_t>(result) <= capacity, "batch size");
            check(!over || result == 0, "next_batch after the end or a stop: 0");
            for (int i = 0; i < result; ++i) {
                check(seen.insert(entries[i].path).second, "no entry twice in batches");
            }
            on_entry = static_cast<std::size_t>(result) == capacity;
            over = !on_entry;
            break;
        }
        case 3: {
            struct statx out;
            unsigned mask = arg & 1 ? STATX_ALL : arg & 2 ? 0x80000000u : STATX_TYPE;
            int result = ioq_walk_stat(arg & 4 ? nullptr : walk, mask, arg & 8,
                                       arg & 16 ? nullptr : &out);
            if ((arg & 4) || (arg & 16) || mask == 0x80000000u) {
                check(result == -EINVAL, "stat with NULL or a reserved bit: -EINVAL");
            } else if (!on_entry) {
                check(result == -ENOENT, "stat on no entry: -ENOENT");
            }
            break;
        }
        case 4: {
            int dirfd = -7;
            const char* name = nullptr;
            int result = ioq_walk_entry_at(arg & 4 ? nullptr : walk, arg & 1 ? nullptr : &dirfd,
                                           arg & 2 ? nullptr : &name);
            if (arg & 7) {
                check(result == -EINVAL, "entry_at with NULL: -EINVAL");
            } else if (!on_entry) {
                check(result == -ENOENT, "entry_at on no entry: -ENOENT");
            } else if (result == 0) {
                check(name != nullptr, "entry_at gives a name");
            }
            break;
        }
        case 5: ioq_walk_prune(arg & 1 ? nullptr : walk); break;
        case 6:
            if (arg % 4 == 0) {
                ioq_walk_stop(arg & 4 ? nullptr : walk);
                if (!(arg & 4)) {
                    on_entry = false;
                    over = true;
                }
            }
            break;
        case 7: {
            ioq_walk_stats counters;
            ioq_walk_get_stats(arg & 1 ? nullptr : walk, arg & 2 ? nullptr : &counters);
            if (!(arg & 3)) {
                check(counters.entries <= tree_entries * 3, "no more entries than the tree's");
            }
            break;
        }
        case 8: {
            // Within the enum's range: a C++ caller cannot pass another
            // value without undefined behaviour of its own (the unit tests
            // try one beyond it, unsanitized).
            auto kind = static_cast<ioq_backend>(arg % 4);
            check(ioq_backend_name(kind) != nullptr, "every backend has a name");
            check(ioq_backend_available(kind) == 0 || ioq_backend_available(kind) == 1,
                  "available is 0 or 1");
            break;
        }
        default:
            if (!on_entry) {
                check_no_entry(walk);
            }
            break;
        }
    }
    check(seen.size() <= tree_entries * 3, "no more entries than the roots hold");
    ioq_walk_close(walk);
    return 0;
}
