// Walker, paths: the text of a directory's path, written from its nodes.
//
// No node holds its whole path: most hold a name, and every anchor_every-th
// level (a holder, dir_node.hpp) holds its path from the holder above.  A
// path is joined upward, a name a level to the nearest holder and then a
// holder's path a step.  Where the walk moves on to a sibling or an uncle,
// the entry path's prefix is cut back to their ancestor instead
// (rewind_prefix, in walker.cpp, beside the directory queue it serves).
#include "walker.hpp"

#include <cstring>
#include <string>
#include <string_view>

namespace ioq::walk {

void Walker::write_child_path(const DirNode* parent, std::string_view name, std::string& out) {
    write_path(nullptr, parent, out);
    if (out.empty() || out.back() != '/') {
        out.push_back('/');
    }
    out.append(name);
}

void Walker::write_open_path(const DirNode* base, const DirNode* node, std::string& out) {
    // A directory is mostly opened while its parent's slot is still there
    // (its entries being read, or scanned to open ahead), relative to the
    // same ancestor: the parent's path and one name, rather than every
    // name from base down (up to anchor_every of them).
    const DirNode* parent = node->parent;
    if (!parent || parent == base || !parent->slot || parent->slot->path_base != base) {
        write_path(base, node, out);
        return;
    }
    const std::string& from = parent->slot->path;
    std::string_view name = component(node);
    bool slash = from.empty() || from.back() != '/';
    out.resize(from.size() + slash + name.size());  // may throw, before anything is written
    std::memcpy(out.data(), from.data(), from.size());
    if (slash) {
        out[from.size()] = '/';
    }
    std::memcpy(out.data() + from.size() + slash, name.data(), name.size());
}

void Walker::name_node(DirNode* node, std::string_view name) {
    if (!node->parent || !holds_path(node)) {
        node->name.assign(name);
        return;
    }
    const DirNode* above = holder_above(node);
    if (above == node->parent) {
        node->name.assign(name);
    } else {
        write_path(above, node->parent, name_scratch_);
        name_scratch_.push_back('/');
        name_scratch_.append(name);
        node->name.assign(name_scratch_);
    }
    node->anchor_above = above;
}

namespace {

// The path from the node just below stop down to node, one piece a level
// (above(at) the next level up), joined with '/' but after a first piece
// that ends in one (a starting point given as "/" or "dir/").  May throw
// std::bad_alloc, before anything is written.
template <class Above, class Piece>
void join_upward(const DirNode* node, const DirNode* stop, Above above, Piece piece,
                 std::string& out) {
    const DirNode* top = node;
    std::size_t length = piece(node).size();
    while (above(top) != stop) {
        top = above(top);
        length += piece(top).size() + 1;
    }
    std::string_view head = piece(top);
    bool head_has_slash = top != node && !head.empty() && head.back() == '/';
    length -= head_has_slash ? 1 : 0;
    out.resize(length);
    std::size_t end = length;
    for (const DirNode* at = node; at != top; at = above(at)) {
        std::string_view part = piece(at);
        end -= part.size();
        std::memcpy(out.data() + end, part.data(), part.size());
        if (!(head_has_slash && above(at) == top)) {
            out[--end] = '/';
        }
    }
    std::memcpy(out.data(), head.data(), head.size());
}

} // namespace

void Walker::write_path(const DirNode* base, const DirNode* node, std::string& out) {
    if (!base) {
        write_full_path(node, out);
        return;
    }
    // Below base one name a level: a holder's path may start above base.
    join_upward(node, base, [](const DirNode* at) { return at->parent; }, component, out);
}

void Walker::write_path_near_prefix(const DirNode* node, std::string& out) const {
    // A directory visited after its contents is mostly the one the entry
    // path's prefix names, or one just above it: its path is the prefix cut
    // back, where written from the nodes it takes a step per holder above,
    // which made -depth on very deep chains slower (bc6e14f).
    if (node->parent && prefix_node_) {
        std::size_t size = entry_path_.prefix_size();
        const DirNode* at = prefix_node_;
        for (int steps = 0; at != node && at->parent && steps < anchor_every; ++steps) {
            size -= component(at).size() + 1;
            at = at->parent;
        }
        if (at == node) {
            out.assign(entry_path_.prefix().substr(0, size - 1));  // without its '/'
            return;
        }
    }
    write_path(nullptr, node, out);
}

void Walker::write_full_path(const DirNode* node, std::string& out) {
    // One name a level up to the nearest node that holds a path (at most
    // anchor_every levels), then one path a holder, each relative to the
    // holder above it, up to the starting point: a 20,000-deep chain is
    // walked 2,500 steps up, not 20,000, and no level holds its whole path.
    auto above = [](const DirNode* at) { return holds_path(at) ? at->anchor_above : at->parent; };
    auto piece = [](const DirNode* at) {
        return holds_path(at) ? std::string_view(at->name) : component(at);
    };
    join_upward(node, nullptr, above, piece, out);
}

} // namespace ioq::walk
