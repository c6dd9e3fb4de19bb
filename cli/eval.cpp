#include "eval.hpp"

#include <fnmatch.h>

namespace ufind {

bool evaluate(const Expr& expr, EvalContext& context) {
    switch (expr.kind) {
    case ExprKind::op_and:
        return evaluate(*expr.left, context) && !context.quit && evaluate(*expr.right, context);
    case ExprKind::op_or:
        return (evaluate(*expr.left, context) || (!context.quit && evaluate(*expr.right, context))) &&
               !context.quit;
    case ExprKind::op_comma:
        evaluate(*expr.left, context);
        return !context.quit && evaluate(*expr.right, context);
    case ExprKind::op_not:
        return !evaluate(*expr.left, context);
    case ExprKind::test_true:
        return true;
    case ExprKind::test_false:
        return false;
    case ExprKind::test_name:
        return ::fnmatch(expr.pattern.c_str(), context.entry->raw().name, 0) == 0;
    case ExprKind::test_iname:
        return ::fnmatch(expr.pattern.c_str(), context.entry->raw().name, FNM_CASEFOLD) == 0;
    case ExprKind::test_path:
        return ::fnmatch(expr.pattern.c_str(), context.entry->c_path(), 0) == 0;
    case ExprKind::test_type:
        return (expr.type_mask >> context.entry->type()) & 1u;
    case ExprKind::act_print:
        context.out.write(context.entry->path());
        context.out.put('\n');
        return true;
    case ExprKind::act_print0:
        context.out.write(context.entry->path());
        context.out.put('\0');
        return true;
    case ExprKind::act_prune:
        context.walk.prune();
        return true;
    case ExprKind::act_quit:
        context.quit = true;
        return true;
    }
    return false;
}

} // namespace ufind
