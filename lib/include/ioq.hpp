// libioq for C++: RAII handles and a range over ioq.h.
//
//     ioq::Walk walk({"/usr"});
//     for (const ioq::Entry& entry : walk) {
//         if (!entry.error()) std::cout << entry.path() << '\n';
//     }
//
// Every call is defined in every state, as in ioq.h: a Walk whose open
// failed is inert (next() nullptr; stat() and entry_at() -EINVAL; prune()
// and stop() nothing).  Dereferencing an iterator at end() is the caller's
// bug, as for any range.
//
// Nothing here throws on the hot path; construction, and a walk that cannot
// go on (out of memory), report failure through error() instead of
// exceptions, so callers built without exceptions can use it too:
//
//     for (const ioq::Entry& entry : walk) { ... }
//     if (walk.error()) { /* incomplete: say so, fail */ }
#ifndef IOQ_HPP
#define IOQ_HPP

#include "ioq.h"

#include <sys/stat.h>

#include <initializer_list>
#include <string_view>
#include <vector>

namespace ioq {

// A view of struct ioq_entry; valid until the walk moves on.
class Entry {
public:
    Entry() = default;
    explicit Entry(const ioq_entry& raw) : raw_(raw) {}
    std::string_view path() const { return {raw_.path, raw_.path_len}; }
    std::string_view name() const { return {raw_.name, raw_.name_len}; }
    const char* c_path() const { return raw_.path; }
    int depth() const { return raw_.depth; }
    ioq_type type() const { return raw_.type; }
    int error() const { return raw_.error; }
    const char* loop_ancestor() const { return raw_.loop_ancestor; }
    std::size_t root() const { return raw_.root; }
    const ioq_entry& raw() const { return raw_; }

private:
    friend class Walk;
    ioq_entry raw_{};
};

// Entries read a batch at a time (Walk::next_batch), with their metadata
// when the walk's options fetch it (stat_mask); the storage is reused from
// batch to batch.  Valid until the next call.
class Batch {
public:
    explicit Batch(std::size_t capacity, bool with_metadata = false)
        : entries_(capacity), stats_(with_metadata ? capacity : 0) {}
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Entry operator[](std::size_t i) const { return Entry(entries_[i]); }
    // Entry i's metadata, or nullptr (none asked for, or none to be had).
    const struct statx* stat(std::size_t i) const {
        return !stats_.empty() && stats_[i].stx_mask != 0 ? &stats_[i] : nullptr;
    }

private:
    friend class Walk;
    std::vector<ioq_entry> entries_;
    std::vector<struct statx> stats_;
    std::size_t size_ = 0;
};

class Walk {
public:
    // Starts a walk with options whose roots are replaced by `roots`.
    explicit Walk(const std::vector<const char*>& roots, ioq_walk_options options = defaults()) {
        options.roots = roots.data();
        options.root_count = roots.size();
        error_ = ioq_walk_open(&walk_, &options);
    }
    Walk(std::initializer_list<const char*> roots) : Walk(std::vector<const char*>(roots)) {}
    ~Walk() {
        if (walk_) {
            ioq_walk_close(walk_);
        }
    }
    Walk(const Walk&) = delete;
    Walk& operator=(const Walk&) = delete;

    static ioq_walk_options defaults() {
        ioq_walk_options options;
        ioq_walk_options_init(&options);
        return options;
    }

    // 0, or the negative errno that made the walk impossible to start, or
    // that ended it early (-ENOMEM: see ioq_walk_next()).  After a loop over
    // the walk, non-zero means the entries seen were correct but not all.
    int error() const { return error_; }

    // The next entry, or nullptr at the end of the walk or when it failed
    // (error() tells which).
    const Entry* next() {
        if (!walk_) {
            return nullptr;
        }
        int result = ioq_walk_next(walk_, &entry_.raw_);
        if (result > 0) {
            return &entry_;
        }
        error_ = result;
        return nullptr;
    }
    // Fills batch with the next entries; false at the end of the walk or
    // when it failed (error() tells which).
    bool next_batch(Batch& batch) {
        batch.size_ = 0;
        if (!walk_) {
            return false;
        }
        int result = ioq_walk_next_batch(walk_, batch.entries_.data(),
                                         batch.stats_.empty() ? nullptr : batch.stats_.data(),
                                         batch.entries_.size());
        if (result > 0) {
            batch.size_ = static_cast<std::size_t>(result);
            return true;
        }
        error_ = result;
        return false;
    }
    void prune() { ioq_walk_prune(walk_); }
    int stat(unsigned mask, bool follow, struct statx& out) {
        return ioq_walk_stat(walk_, mask, follow ? 1 : 0, &out);
    }
    // A directory descriptor and name for the entry (see ioq_walk_entry_at).
    int entry_at(int& dirfd, const char*& name) { return ioq_walk_entry_at(walk_, &dirfd, &name); }
    void stop() {
        if (walk_) {
            ioq_walk_stop(walk_);
        }
    }
    ioq_walk_stats stats() const {
        ioq_walk_stats stats{};
        if (walk_) {
            ioq_walk_get_stats(walk_, &stats);
        }
        return stats;
    }

    class iterator {
    public:
        using value_type = Entry;
        using difference_type = std::ptrdiff_t;
        const Entry& operator*() const { return *current_; }
        const Entry* operator->() const { return current_; }
        iterator& operator++() {
            current_ = walk_->next();
            return *this;
        }
        void operator++(int) { ++*this; }
        bool operator==(std::default_sentinel_t) const { return current_ == nullptr; }

    private:
        friend class Walk;
        explicit iterator(Walk* walk) : walk_(walk), current_(walk->next()) {}
        Walk* walk_;
        const Entry* current_;
    };

    iterator begin() { return iterator(this); }
    std::default_sentinel_t end() { return {}; }

private:
    ioq_walk* walk_ = nullptr;
    int error_ = 0;
    Entry entry_;
};

} // namespace ioq

#endif // IOQ_HPP
