// VisitFilter: bfs's -exclude, -nohidden and -unique, which decide before
// the expression whether an entry is visited at all.
//
//   walk.next() --> VisitFilter::admits()? --yes--> evaluate(expression)
//                          |no
//                          +--> walk.prune(): neither evaluated nor descended
//
// An excluded entry is not an answer that is false: it is as if it were
// not there, so -mindepth and -depth do not shield it, and nothing below it
// is walked.  -unique admits each file (device and inode) once, which under
// -L also ends every loop at the ancestor it leads back to.
//
// Under -depth a directory comes after its contents, too late to keep them
// out; so the filter asks for each directory, when its first entry comes,
// whether it or an ancestor would be excluded.  Those ancestors are seen by
// name, path, depth and type only, which is why the parser refuses -exclude
// with tests of metadata under -depth.
#pragma once

#include "expr/eval.hpp"
#include "expr/expr.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace ufind {

class VisitFilter {
public:
    // exclude: the -exclude expressions or-ed together, or null for none.
    VisitFilter(const Expr* exclude, bool unique, bool post_order)
        : exclude_(exclude), unique_(unique), post_order_(post_order) {}

    // bfs's -X: a path with a blank, quote or backslash is an error, skipped.
    void refuse_xargs_unsafe() { xargs_safe_ = true; }

    bool active() const { return exclude_ || unique_ || xargs_safe_; }
    // STATX_* fields admits() reads.
    unsigned stat_mask() const { return unique_ ? STATX_INO : 0; }

    // Whether the entry in context is visited; prunes it when not.
    bool admits(EvalContext& context);

    // Whether an ELOOP entry is one -unique ends silently: its ancestor was
    // admitted already, so nothing of it is missing.
    bool absorbs_loop() const { return unique_; }

private:
    // Under -depth: whether the directory the entry is in, or one above it
    // up to its starting point, matches the exclusion.
    bool under_excluded_directory(EvalContext& context);
    bool excludes_directory(EvalContext& context, std::string_view path, std::string_view name,
                            int depth);

    const Expr* exclude_;
    bool unique_;
    bool post_order_;
    bool xargs_safe_ = false;
    std::string checked_parent_;  // the directory under_excluded_directory() last answered for
    bool parent_excluded_ = false;
    std::string ancestor_path_;   // reused: an ancestor's path, NUL-terminated
    std::set<std::pair<std::uint64_t, std::uint64_t>> seen_;  // device, inode
};

} // namespace ufind
