// RoundMemory: what a round of ids, eds or hybrid leaves for the next, so
// that a later round walks again only where it can find something new.
//
//   round k:  subtree walked whole (nothing at the bound below it)
//                 -> record_finished(key, k)    [root NUL path -> k]
//             directory the caller pruned     -> prune(path)
//             a directory's failure reported  -> reported_before(key, errno, k)
//   round k+1: the walk skips what walked_whole() or pruned() says, and
//             reports a failure reported_before() knows only once.
//
// Keys are key(): the starting point, a NUL, then the path, since the same
// path lies at other depths below another starting point ("dir" and
// "dir/sub").  Each record keeps its round: the same starting point given
// twice is walked again in that round.  The finished set stays small:
// recording a directory drops its descendants, which it now covers.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace ioq::walk {

class RoundMemory {
public:
    static void key(std::string_view root, std::string_view path, std::string& out) {
        out.assign(root);
        out.push_back('\0');
        out.append(path);
    }

    void clear() noexcept {
        pruned_.clear();
        finished_.clear();
        failures_.clear();
    }

    // Nothing pruned or finished: no later round can skip anything.
    bool skips_nothing() const { return pruned_.empty() && finished_.empty(); }

    // May throw std::bad_alloc.
    void prune(std::string_view path) { pruned_.emplace(path); }
    bool pruned(std::string_view path) const {
        return !pruned_.empty() && pruned_.contains(path);
    }

    // key's subtree was walked whole in round, so its descendants' records
    // go.  May throw std::bad_alloc, leaving key unrecorded.
    void record_finished(std::string& key, int round);
    // Whether a round before this one walked key's subtree whole.
    bool walked_whole(std::string_view key, int round) const {
        if (finished_.empty()) {
            return false;
        }
        auto found = finished_.find(key);
        return found != finished_.end() && found->second < round;
    }

    // Whether a round before this one reported error for key; if not,
    // remembers that this one does (unremembered when memory runs out: a
    // later round then reports it again).  key is extended with the error.
    bool reported_before(std::string& key, int error, int round);

private:
    // Hashes a std::string and a std::string_view alike, so the sets are
    // searched with the entry's path as it is, without a copy of it.
    struct PathHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view path) const noexcept {
            return std::hash<std::string_view>{}(path);
        }
    };
    std::unordered_set<std::string, PathHash, std::equal_to<>> pruned_;
    // Ordered, so that a directory's descendants are one range after it.
    std::map<std::string, int, std::less<>> finished_;
    std::unordered_map<std::string, int, PathHash, std::equal_to<>> failures_;
};

} // namespace ioq::walk
