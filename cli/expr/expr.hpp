// Expr: a parsed find expression, as a tree the evaluator walks per entry.
//
//   find . -name '*.c' -o -type d -prune
//
//   or ─┬─ name "*.c"
//        └─ and ─┬─ type d
//                └─ prune
//
// Operators hold their operands in left/right (not: left only); primaries
// hold their argument in the field their kind uses; a Primary object when
// they carry more than a pattern or a type mask.  Options such as
// -maxdepth are not in the tree: the parser takes them out.
#pragma once

#include "expr/primary.hpp"
#include "values/glob_pattern.hpp"

#include <ioq.h>

#include <memory>
#include <string>

namespace ufind {

enum class ExprKind : unsigned char {
    // operators
    op_and, op_or, op_not, op_comma,
    // tests
    test_true, test_false, test_name, test_iname, test_path, test_type, test_xtype,
    // actions
    act_print, act_print0, act_prune, act_quit,
    // everything with state of its own: see primary.hpp
    primary,
};

// The letters of -type and -xtype, and the ioq_type each stands for: the
// parser reads them, the warnings (expression_lint.cpp) write them back.
struct TypeLetter {
    char letter;
    ioq_type type;
};
inline constexpr TypeLetter type_letters[] = {
    {'f', IOQ_TYPE_REGULAR}, {'d', IOQ_TYPE_DIRECTORY}, {'l', IOQ_TYPE_SYMLINK},
    {'b', IOQ_TYPE_BLOCK},   {'c', IOQ_TYPE_CHAR},      {'p', IOQ_TYPE_FIFO},
    {'s', IOQ_TYPE_SOCKET},
};

struct Expr {
    explicit Expr(ExprKind kind) : kind(kind) {}
    // Out of line: inlined, the recursive destructor (an Expr owns Exprs)
    // unrolls into every function that drops a subtree, and under the
    // sanitizers one small file took GCC 100 s to compile.
    ~Expr();

    ExprKind kind;
    std::unique_ptr<Expr> left;
    std::unique_ptr<Expr> right;
    GlobPattern pattern;    // test_name, test_iname, test_path
    unsigned type_mask = 0; // test_type, test_xtype: bit n set for ioq_type n
    std::unique_ptr<Primary> object;  // primary
};

// Calls fn(primary) for every Primary object in the tree.
template <typename Fn>
void for_each_primary(const Expr& expr, Fn&& fn) {
    if (expr.object) {
        fn(*expr.object);
    }
    if (expr.left) {
        for_each_primary(*expr.left, fn);
    }
    if (expr.right) {
        for_each_primary(*expr.right, fn);
    }
}

// Whether evaluating expr can have an effect beyond true/false, which decides
// whether find adds an implicit -print.  -prune does not count, as in find.
bool has_action(const Expr& expr);

// Whether evaluating expr reads metadata for (nearly) every entry: then the
// walk's workers fetch it while reading each directory, in parallel, rather
// than the evaluator one statx at a time.  A -type test in front counts as
// passing (it passes most entries it is used with: -type f -size +1M).
bool reads_metadata_of_every_entry(const Expr& expr);

} // namespace ufind
