#include "optimise.hpp"

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

} // namespace

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
