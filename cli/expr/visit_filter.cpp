#include "expr/visit_filter.hpp"

#include "system/diagnostics.hpp"

#include <sys/sysmacros.h>

#include <algorithm>

namespace ufind {

bool VisitFilter::admits(EvalContext& context) {
    if (exclude_ && post_order_ && under_excluded_directory(context)) {
        return false;  // its directory comes later: nothing to prune
    }
    if (unique_) {
        const struct statx* buf = context.stat();
        if (!buf) {
            context.walk.prune();
            return false;
        }
        std::uint64_t device = makedev(buf->stx_dev_major, buf->stx_dev_minor);
        if (!seen_.emplace(device, buf->stx_ino).second) {
            context.walk.prune();
            return false;
        }
    }
    if (exclude_ && evaluate(*exclude_, context)) {
        context.walk.prune();
        return false;
    }
    if (xargs_safe_ &&
        context.entry->path().find_first_of(" \t\n'\"\\") != std::string_view::npos) {
        report_error(quote_path(context.entry->path()) + ": Path is not safe for xargs.");
        context.walk.prune();
        return false;
    }
    return true;
}

bool VisitFilter::under_excluded_directory(EvalContext& context) {
    const ioq::Entry& entry = *context.entry;
    std::string_view path = entry.path();
    if (entry.depth() == 0) {
        return false;
    }
    std::string_view parent = path.substr(0, path.rfind('/'));
    if (parent == checked_parent_) {
        return parent_excluded_;
    }
    checked_parent_.assign(parent);
    parent_excluded_ = false;
    // The starting point as given, then each name between it and the entry.
    std::string_view root = context.root;
    std::string_view root_name = root.substr(0, root.find_last_not_of('/') + 1);
    root_name = root_name.empty() ? root.substr(0, 1)
                                  : root_name.substr(root_name.rfind('/') + 1);
    bool excluded = excludes_directory(context, root, root_name, 0);
    std::size_t end = std::min(root.size(), path.size());
    for (int depth = 1; !excluded && depth < entry.depth(); ++depth) {
        std::size_t start = path.find_first_not_of('/', end);
        end = path.find('/', start);
        excluded = excludes_directory(context, path.substr(0, end),
                                      path.substr(start, end - start), depth);
    }
    parent_excluded_ = excluded;
    return excluded;
}

bool VisitFilter::excludes_directory(EvalContext& context, std::string_view path,
                                     std::string_view name, int depth) {
    ancestor_path_.assign(path);
    ancestor_path_.push_back('\0');
    ioq_entry raw{};
    raw.path = ancestor_path_.data();
    raw.path_len = path.size();
    raw.name = raw.path + (name.data() - path.data());
    raw.name_len = name.size();
    raw.depth = depth;
    raw.type = IOQ_TYPE_DIRECTORY;
    raw.root = context.entry->root();
    const ioq::Entry ancestor(raw);
    const ioq::Entry* current = context.entry;
    context.begin_entry(ancestor);
    bool excluded = evaluate(*exclude_, context);
    context.begin_entry(*current);
    return excluded;
}

} // namespace ufind
