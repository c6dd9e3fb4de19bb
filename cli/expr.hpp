// Expr: a parsed find expression, as a tree the evaluator walks per entry.
//
//   find . -name '*.c' -o -type d -prune
//
//   or ─┬─ name "*.c"
//        └─ and ─┬─ type d
//                └─ prune
//
// Operators hold their operands in left/right (not: left only); primaries
// hold their argument in the field their kind uses.  Options such as
// -maxdepth are not in the tree: the parser takes them out.
#pragma once

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
};

struct Expr {
    explicit Expr(ExprKind kind) : kind(kind) {}

    ExprKind kind;
    std::unique_ptr<Expr> left;
    std::unique_ptr<Expr> right;
    std::string pattern;    // test_name, test_iname, test_path
    unsigned type_mask = 0; // test_type, test_xtype: bit n set for ioq_type n
};

// Whether evaluating expr can have an effect beyond true/false, which decides
// whether find adds an implicit -print.  -prune does not count, as in find.
bool has_action(const Expr& expr);

} // namespace ufind
