// The C API: ioq.h over the walk engine.
//
// This is the only place C types meet the engine's C++ types.  No exception
// crosses it: allocation failures become -ENOMEM.  One that interrupts a
// walk under way ends it (the engine cannot go on without losing or
// repeating entries): the walk is stopped, its descriptors closed, and
// ioq_walk_next() returns the error from then on.  The handlers cost
// nothing until something throws, so the hot path carries none of this.
// Only std::exception is caught: the forced unwinding of a cancelled thread
// must go on through.
//
// The engine answers stat() and entry_location() for the entry it returned
// last and has none before the first or after the last: the walk's state
// (WalkState) is kept here, so that those calls in any other state find no
// entry instead of reaching into a directory that is gone.
#include "../include/ioq.h"

#include "../walk/mount_table.hpp"
#include "../walk/walker.hpp"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

// Where a walk is in its life; only on_entry has an entry to describe.
enum class WalkState : unsigned char {
    before_first,  // opened, next() not called yet
    on_entry,      // next() returned an entry (or next_batch() a full batch)
    ended,         // next() returned 0: the walk is over
    stopped,       // ioq_walk_stop(): next() returns 0 from now on
    failed,        // the engine threw: next() returns `error` from now on
};

struct ioq_walk {
    explicit ioq_walk(ioq::walk::WalkOptions options)
        : symlinks(options.symlinks), stat_mask(options.eager_stat_mask),
          walker(std::move(options)) {}
    ioq::walk::Symlinks symlinks;
    unsigned stat_mask;
    ioq::walk::Walker walker;
    int error = 0;  // negative errno that ended the walk early, or 0
    WalkState state = WalkState::before_first;
    // ioq_walk_next_batch: the batch's paths (and loop ancestors), each
    // NUL-terminated, and where each starts; reused from batch to batch,
    // so a walk allocates for its largest batch only.
    std::string batch_text;
    std::vector<std::size_t> batch_offsets;

    // Ends the walk after the engine threw; returns the error it now reports.
    int fail(int code) noexcept {
        if (error == 0) {
            error = code;
        }
        walker.stop();
        state = WalkState::failed;
        return error;
    }

    bool has_entry() const { return state == WalkState::on_entry; }
    // What next() returns once the walk is past its entries.
    int result_after_end() const { return state == WalkState::failed ? error : 0; }
};

namespace {

ioq::BackendChoice to_choice(ioq_backend backend) {
    switch (backend) {
    case IOQ_BACKEND_URING: return ioq::BackendChoice::uring;
    case IOQ_BACKEND_THREADS: return ioq::BackendChoice::threads;
    case IOQ_BACKEND_INLINE: return ioq::BackendChoice::inline_calls;
    case IOQ_BACKEND_AUTO: break;
    }
    return ioq::BackendChoice::automatic;
}

ioq_backend from_kind(ioq::BackendKind kind) {
    switch (kind) {
    case ioq::BackendKind::uring: return IOQ_BACKEND_URING;
    case ioq::BackendKind::threads: return IOQ_BACKEND_THREADS;
    case ioq::BackendKind::inline_calls: return IOQ_BACKEND_INLINE;
    }
    return IOQ_BACKEND_AUTO;
}

ioq::walk::Strategy to_strategy(ioq_strategy strategy) {
    switch (strategy) {
    case IOQ_STRATEGY_BFS: return ioq::walk::Strategy::bfs;
    case IOQ_STRATEGY_DFS: return ioq::walk::Strategy::dfs;
    case IOQ_STRATEGY_IDS: return ioq::walk::Strategy::ids;
    case IOQ_STRATEGY_EDS: return ioq::walk::Strategy::eds;
    case IOQ_STRATEGY_HYBRID: break;
    }
    return ioq::walk::Strategy::hybrid;
}

ioq::walk::Symlinks to_symlinks(ioq_symlinks symlinks) {
    switch (symlinks) {
    case IOQ_SYMLINKS_ROOTS: return ioq::walk::Symlinks::roots;
    case IOQ_SYMLINKS_LOGICAL: return ioq::walk::Symlinks::logical;
    case IOQ_SYMLINKS_PHYSICAL: break;
    }
    return ioq::walk::Symlinks::physical;
}

// Every entry goes through this one: a cast, checked value by value here,
// rather than a switch on the path of every entry.
using ioq::walk::EntryType;
template <EntryType internal, ioq_type external>
constexpr bool same_type = static_cast<int>(internal) == static_cast<int>(external);
static_assert(same_type<EntryType::unknown, IOQ_TYPE_UNKNOWN>);
static_assert(same_type<EntryType::regular, IOQ_TYPE_REGULAR>);
static_assert(same_type<EntryType::directory, IOQ_TYPE_DIRECTORY>);
static_assert(same_type<EntryType::symlink, IOQ_TYPE_SYMLINK>);
static_assert(same_type<EntryType::block_device, IOQ_TYPE_BLOCK>);
static_assert(same_type<EntryType::char_device, IOQ_TYPE_CHAR>);
static_assert(same_type<EntryType::fifo, IOQ_TYPE_FIFO>);
static_assert(same_type<EntryType::socket, IOQ_TYPE_SOCKET>);

ioq_type to_public(EntryType type) { return static_cast<ioq_type>(type); }

// Everything of an entry but its strings' addresses, which the caller sets.
void copy_entry(const ioq::walk::EntryView& from, ioq_entry& to) {
    to.path_len = from.path.size();
    to.name_len = from.name.size();
    to.depth = from.depth;
    to.type = to_public(from.type);
    to.error = from.error;
    to.root = from.root;
}

ioq_walk_stats to_public(const ioq::walk::WalkStats& s) {
    ioq_walk_stats stats{};
    stats.entries = s.entries;
    stats.directories = s.directories;
    stats.errors = s.errors;
    stats.stats = s.stats;
    stats.waits = s.waits;
    stats.ran_here = s.ran_here;
    stats.sleeps = s.sleeps;
    stats.wait_ns = s.wait_ns;
    stats.backend = from_kind(s.backend);
    stats.workers_started = s.workers_started;
    stats.reads = s.reads;
    stats.read_bytes = s.read_bytes;
    stats.workers = s.workers;
    stats.cache_misses = s.cache_misses;
    stats.listings_reused = s.listings_reused;
    return stats;
}

// A C caller can put any int in an enum field, and loading a value outside
// a C++ enum's range is undefined: read the fields as the ints they are.
template <class Enum>
int enum_value(const Enum& field) {
    static_assert(sizeof(Enum) == sizeof(int));
    int value;
    std::memcpy(&value, &field, sizeof value);
    return value;
}

} // namespace

extern "C" {

void ioq_walk_options_init(struct ioq_walk_options* options) {
    if (!options) {
        return;
    }
    *options = {};
    options->strategy = IOQ_STRATEGY_HYBRID;
    options->backend = IOQ_BACKEND_AUTO;
    options->workers = -1;
    options->min_depth = 0;
    options->max_depth = -1;
}

namespace {

constexpr unsigned max_io_workers = 32;
// Beyond this, more threads only contend (ioq.h documents the cap).
constexpr int most_workers = 1024;
// The walker narrows read_ahead to its descriptors; this only keeps the
// queue's window arithmetic far from overflow.
constexpr std::size_t most_read_ahead = std::size_t{1} << 20;
// statx refuses this bit: refused at open rather than at every entry.
constexpr unsigned reserved_stat_bits = 0x80000000u;

} // namespace

int ioq_default_workers(void) {
    // The CPUs this process may run on, not the machine's: a walk pinned to
    // one CPU by taskset or a container gains nothing from a second worker.
    cpu_set_t set;
    int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    // One CPU goes to the walk loop itself; at least one worker remains so
    // that I/O overlaps with the caller's work even on one CPU.
    return cpus > 2 ? cpus - 1 : 1;
}

int ioq_walk_open(ioq_walk** walk, const struct ioq_walk_options* options) {
    if (!walk) {
        return -EINVAL;
    }
    *walk = nullptr;
    if (!options || (options->root_count > 0 && !options->roots) || options->min_depth < 0 ||
        options->max_depth < -1 || options->workers < -1 ||
        (options->stat_mask & reserved_stat_bits) != 0) {
        return -EINVAL;
    }
    int strategy = enum_value(options->strategy);
    int backend = enum_value(options->backend);
    int symlinks = enum_value(options->symlinks);
    if (strategy < IOQ_STRATEGY_BFS || strategy > IOQ_STRATEGY_HYBRID ||
        backend < IOQ_BACKEND_AUTO || backend > IOQ_BACKEND_INLINE ||
        symlinks < IOQ_SYMLINKS_PHYSICAL || symlinks > IOQ_SYMLINKS_LOGICAL) {
        return -EINVAL;
    }
    try {
        ioq::walk::WalkOptions walk_options;
        for (size_t i = 0; i < options->root_count; ++i) {
            // An empty string is a root like any other: the walk reports
            // it as not found, as find does.
            if (!options->roots[i]) {
                return -EINVAL;
            }
            walk_options.roots.emplace_back(options->roots[i]);
        }
        walk_options.strategy = to_strategy(static_cast<ioq_strategy>(strategy));
        walk_options.post_order = options->post_order != 0;
        walk_options.symlinks = to_symlinks(static_cast<ioq_symlinks>(symlinks));
        walk_options.same_device = options->same_device != 0;
        walk_options.sort_names = options->sort_names != 0;
        walk_options.eager_stat_mask = options->stat_mask;
        walk_options.completion_order = options->completion_order != 0;
        walk_options.hold_directories = options->hold_directories != 0;
        walk_options.names_only = options->names_only != 0;
        walk_options.look_ahead = options->look_ahead != 0;
        walk_options.min_depth = options->min_depth;
        walk_options.max_depth = options->max_depth < 0 ? INT_MAX : options->max_depth;
        walk_options.queue.backend = to_choice(options->backend);
        walk_options.queue.workers = static_cast<unsigned>(
            options->workers < 0 ? ioq_default_workers() : std::min(options->workers, most_workers));
        if (options->workers < 0) {
            // Chosen for the CPUs, the workers may grow for a device that
            // keeps them waiting.
            walk_options.queue.max_workers = max_io_workers;
        }
        if (options->read_ahead > 0) {
            walk_options.read_ahead = std::min(options->read_ahead, most_read_ahead);
        }
        *walk = new ioq_walk(std::move(walk_options));
        return 0;
    } catch (const std::bad_alloc&) {
        return -ENOMEM;
    } catch (const std::exception&) {
        return -EIO;
    }
}

int ioq_walk_next(ioq_walk* walk, struct ioq_entry* entry) {
    if (!walk || !entry) {
        return -EINVAL;
    }
    if (walk->state != WalkState::before_first && walk->state != WalkState::on_entry) {
        return walk->result_after_end();
    }
    const ioq::walk::EntryView* next;
    try {
        next = walk->walker.next();
    } catch (const std::bad_alloc&) {
        return walk->fail(-ENOMEM);
    } catch (const std::exception&) {
        return walk->fail(-EIO);
    }
    if (!next) {
        walk->state = WalkState::ended;
        return 0;
    }
    walk->state = WalkState::on_entry;
    copy_entry(*next, *entry);
    entry->path = next->path.data();
    entry->name = next->name.data();
    entry->loop_ancestor = next->loop_ancestor.empty() ? nullptr : next->loop_ancestor.data();
    return 1;
}

int ioq_walk_next_batch(ioq_walk* walk, struct ioq_entry* entries, struct statx* stats,
                        size_t capacity) {
    if (!walk || !entries || capacity == 0) {
        return -EINVAL;
    }
    if (walk->state != WalkState::before_first && walk->state != WalkState::on_entry) {
        return walk->result_after_end();
    }
    // The count must fit the int returned.
    capacity = std::min<std::size_t>(capacity, INT_MAX);
    std::size_t count = 0;
    try {
        walk->batch_text.clear();
        walk->batch_offsets.clear();
        while (count < capacity) {
            const ioq::walk::EntryView* next = walk->walker.next();
            if (!next) {
                // The engine is past its last entry: none left to describe.
                walk->state = WalkState::ended;
                break;
            }
            walk->state = WalkState::on_entry;
            ioq_entry& entry = entries[count];
            copy_entry(*next, entry);
            walk->batch_offsets.push_back(walk->batch_text.size());
            walk->batch_text.append(next->path).push_back('\0');
            if (next->loop_ancestor.empty()) {
                walk->batch_offsets.push_back(std::string::npos);
            } else {
                walk->batch_offsets.push_back(walk->batch_text.size());
                walk->batch_text.append(next->loop_ancestor).push_back('\0');
            }
            if (stats) {
                // What ioq_walk_stat would give with the walk's own mask:
                // fetched by the workers already when stat_mask is set.
                bool follow = walk->symlinks == ioq::walk::Symlinks::logical ||
                              (walk->symlinks == ioq::walk::Symlinks::roots && next->depth == 0);
                if (next->error || walk->stat_mask == 0 ||
                    walk->walker.stat(walk->stat_mask, follow, stats[count]) != 0) {
                    stats[count].stx_mask = 0;
                }
            }
            ++count;
        }
    } catch (const std::bad_alloc&) {
        walk->fail(-ENOMEM);
    } catch (const std::exception&) {
        walk->fail(-EIO);
    }
    // Pointers only now: the text may have moved while it grew.  An entry
    // whose text did not fit (memory ran out) is not part of the batch.
    count = std::min(count, walk->batch_offsets.size() / 2);
    const char* text = walk->batch_text.data();
    for (std::size_t i = 0; i < count; ++i) {
        ioq_entry& entry = entries[i];
        entry.path = text + walk->batch_offsets[2 * i];
        entry.name = entry.path + entry.path_len - entry.name_len;
        std::size_t ancestor = walk->batch_offsets[2 * i + 1];
        entry.loop_ancestor = ancestor == std::string::npos ? nullptr : text + ancestor;
    }
    if (count > 0) {
        return static_cast<int>(count);
    }
    return walk->result_after_end();
}

void ioq_walk_prune(ioq_walk* walk) {
    if (!walk || !walk->has_entry()) {
        return;
    }
    try {
        walk->walker.prune();
    } catch (const std::bad_alloc&) {
        // Not remembered, the directory would come back in a later round.
        walk->fail(-ENOMEM);
    } catch (const std::exception&) {
        walk->fail(-EIO);
    }
}

int ioq_walk_entry_at(ioq_walk* walk, int* dirfd, const char** name) {
    if (!walk || !dirfd || !name) {
        return -EINVAL;
    }
    if (!walk->has_entry()) {
        return -ENOENT;
    }
    try {
        // Set only on success: a failure leaves the caller's values.
        int fd = -1;
        const char* where = nullptr;
        int result = walk->walker.entry_location(fd, where);
        if (result == 0) {
            *dirfd = fd;
            *name = where;
        }
        return result;
    } catch (const std::bad_alloc&) {
        return -ENOMEM;
    } catch (const std::exception&) {
        return -EIO;
    }
}

int ioq_walk_stat(ioq_walk* walk, unsigned mask, int follow, struct statx* out) {
    if (!walk || !out || (mask & reserved_stat_bits) != 0) {
        return -EINVAL;
    }
    if (!walk->has_entry()) {
        return -ENOENT;
    }
    try {
        return walk->walker.stat(mask, follow != 0, *out);
    } catch (const std::bad_alloc&) {
        return -ENOMEM;  // the walk itself is unchanged
    } catch (const std::exception&) {
        return -EIO;
    }
}

void ioq_walk_stop(ioq_walk* walk) {
    if (!walk) {
        return;
    }
    walk->walker.stop();
    if (walk->state != WalkState::failed) {
        walk->state = WalkState::stopped;
    }
}

void ioq_walk_get_stats(const ioq_walk* walk, struct ioq_walk_stats* stats) {
    if (!stats) {
        return;
    }
    *stats = walk ? to_public(walk->walker.stats()) : ioq_walk_stats{};
}

void ioq_walk_close(ioq_walk* walk) { delete walk; }

const char* ioq_backend_name(enum ioq_backend backend) {
    switch (enum_value(backend)) {
    case IOQ_BACKEND_URING: return "io_uring";
    case IOQ_BACKEND_THREADS: return "threads";
    case IOQ_BACKEND_INLINE: return "inline";
    case IOQ_BACKEND_AUTO: return "auto";
    default: return "unknown";
    }
}

int ioq_backend_available(enum ioq_backend kind) {
    switch (enum_value(kind)) {
    case IOQ_BACKEND_AUTO: return 1;
    case IOQ_BACKEND_URING: return ioq::backend_available(ioq::BackendKind::uring) ? 1 : 0;
    case IOQ_BACKEND_THREADS: return ioq::backend_available(ioq::BackendKind::threads) ? 1 : 0;
    case IOQ_BACKEND_INLINE: return ioq::backend_available(ioq::BackendKind::inline_calls) ? 1 : 0;
    default: return 0;
    }
}

enum ioq_backend ioq_backend_default(void) { return from_kind(ioq::automatic_backend()); }

const char* ioq_filesystem_type(unsigned major, unsigned minor) {
    try {
        return ioq::walk::filesystem_type(major, minor);
    } catch (const std::exception&) {
        return nullptr;  // no memory for the table: not known, as an unlisted device
    }
}

} // extern "C"
