#include "command/optimise.hpp"

#include <algorithm>
#include <vector>

namespace ufind {
namespace {

constexpr int immovable = -1;

// What evaluating a leaf costs, or immovable for anything that has effects
// or is not a leaf.
int cost(const Expr& expr) {
    switch (expr.kind) {
    case ExprKind::test_true:
    case ExprKind::test_false:
    case ExprKind::test_name:
    case ExprKind::test_iname:
    case ExprKind::test_path:
    case ExprKind::test_type:  // d_type comes with the directory entry
        return 0;
    case ExprKind::test_xtype:
        return 2;
    case ExprKind::primary:
        if (expr.object->is_action()) {
            return immovable;
        }
        return expr.object->stat_mask() ? 2 : 1;
    default:
        return immovable;
    }
}

// The operands of a chain of -and, left to right, whatever its nesting.
void flatten_and(std::unique_ptr<Expr> expr, std::vector<std::unique_ptr<Expr>>& operands) {
    if (expr->kind == ExprKind::op_and) {
        flatten_and(std::move(expr->left), operands);
        flatten_and(std::move(expr->right), operands);
    } else {
        operands.push_back(std::move(expr));
    }
}

bool is_constant(const Expr& expr, ExprKind value) { return expr.kind == value; }

// Whether evaluating expr can have no effect at all: no action, and no
// test that might fetch metadata (and report a failure to) or prune.
// The tests that cost nothing are those that only look at the name, the
// path and d_type.
bool is_pure(const Expr& expr) {
    switch (expr.kind) {
    case ExprKind::op_and:
    case ExprKind::op_or:
    case ExprKind::op_comma:
        return is_pure(*expr.left) && is_pure(*expr.right);
    case ExprKind::op_not:
        return is_pure(*expr.left);
    default:
        return cost(expr) == 0;
    }
}

} // namespace

namespace {

// -a and -o alike: `decisive` is the value that decides the operator
// whatever the other side (false for -a, true for -o), `neutral` the one
// that leaves it to the other side.
void fold_binary(std::unique_ptr<Expr>& expr, ExprKind decisive, ExprKind neutral) {
    if (is_constant(*expr->left, decisive) ||
        (is_constant(*expr->right, decisive) && is_pure(*expr->left))) {
        expr = std::make_unique<Expr>(decisive);  // the right never runs, or the left does nothing
    } else if (is_constant(*expr->left, neutral)) {
        expr = std::move(expr->right);
    } else if (is_constant(*expr->right, neutral)) {
        expr = std::move(expr->left);
    }
}

} // namespace

void fold_constants(std::unique_ptr<Expr>& expr) {
    if (expr->left) {
        fold_constants(expr->left);
    }
    if (expr->right) {
        fold_constants(expr->right);
    }
    const ExprKind t = ExprKind::test_true, f = ExprKind::test_false;
    switch (expr->kind) {
    case ExprKind::op_not:
        if (is_constant(*expr->left, t) || is_constant(*expr->left, f)) {
            expr = std::make_unique<Expr>(is_constant(*expr->left, t) ? f : t);
        }
        return;
    case ExprKind::op_and: fold_binary(expr, f, t); return;
    case ExprKind::op_or: fold_binary(expr, t, f); return;
    case ExprKind::op_comma:
        if (is_pure(*expr->left)) {
            expr = std::move(expr->right);
        }
        return;
    default:
        return;
    }
}

void reorder_tests(std::unique_ptr<Expr>& expr) {
    if (expr->kind != ExprKind::op_and) {
        if (expr->left) {
            reorder_tests(expr->left);
        }
        if (expr->right) {
            reorder_tests(expr->right);
        }
        return;
    }
    std::vector<std::unique_ptr<Expr>> operands;
    flatten_and(std::move(expr), operands);
    for (auto& operand : operands) {
        reorder_tests(operand);
    }
    for (auto run = operands.begin(); run != operands.end();) {
        if (cost(**run) == immovable) {
            ++run;
            continue;
        }
        auto end = std::find_if(run, operands.end(),
                                [](const auto& operand) { return cost(*operand) == immovable; });
        std::stable_sort(run, end, [](const auto& a, const auto& b) { return cost(*a) < cost(*b); });
        run = end;
    }
    expr = std::move(operands.front());
    for (std::size_t i = 1; i < operands.size(); ++i) {
        auto both = std::make_unique<Expr>(ExprKind::op_and);
        both->left = std::move(expr);
        both->right = std::move(operands[i]);
        expr = std::move(both);
    }
}

} // namespace ufind
