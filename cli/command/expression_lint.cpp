#include "command/expression_lint.hpp"

#include "system/diagnostics.hpp"

#include <string>
#include <vector>

namespace ufind {
namespace {

// "-type f" for a mask of one letter, "-type f,l" for several.
std::string describe_type_test(unsigned mask) {
    std::string out = "-type ";
    for (const TypeLetter& entry : type_letters) {
        if ((mask >> entry.type) & 1u) {
            if (out.size() > 6) {
                out += ',';
            }
            out += entry.letter;
        }
    }
    return out;
}

// The operands of a chain of -and, left to right.
void flatten_and(const Expr& expr, std::vector<const Expr*>& operands) {
    if (expr.kind == ExprKind::op_and) {
        flatten_and(*expr.left, operands);
        flatten_and(*expr.right, operands);
    } else {
        operands.push_back(&expr);
    }
}

std::string first_action_name(const Expr& expr) {
    switch (expr.kind) {
    case ExprKind::act_print: return "-print";
    case ExprKind::act_print0: return "-print0";
    case ExprKind::act_quit: return "-quit";
    case ExprKind::primary: return expr.object->is_action() ? "the action" : "";
    default: break;
    }
    for (const Expr* child : {expr.left.get(), expr.right.get()}) {
        if (child) {
            std::string name = first_action_name(*child);
            if (!name.empty()) {
                return name;
            }
        }
    }
    return "";
}

void check(const Expr& expr) {
    if (expr.kind == ExprKind::op_and) {
        std::vector<const Expr*> operands;
        flatten_and(expr, operands);
        // Two -type tests in one chain whose letters share nothing: no
        // entry passes both, so nothing after them runs.
        unsigned seen = ~0u;
        const Expr* first_type = nullptr;
        for (std::size_t i = 0; i < operands.size(); ++i) {
            const Expr& operand = *operands[i];
            if (operand.kind != ExprKind::test_type) {
                continue;
            }
            if (first_type && (seen & operand.type_mask) == 0) {
                std::string action;
                for (std::size_t j = i + 1; j < operands.size() && action.empty(); ++j) {
                    action = first_action_name(*operands[j]);
                }
                report_warning(describe_type_test(first_type->type_mask) + " and " +
                               describe_type_test(operand.type_mask) +
                               " are never both true" +
                               (action.empty() ? std::string(": this part is always false")
                                               : ": " + action + " after them never runs"));
                break;
            }
            if (!first_type) {
                first_type = &operand;
            }
            seen &= operand.type_mask;
        }
        for (const Expr* operand : operands) {
            check(*operand);
        }
        return;
    }
    if (expr.left) {
        check(*expr.left);
    }
    if (expr.right) {
        check(*expr.right);
    }
}

} // namespace

void warn_about_expression(const Command& command, bool prune_given, bool depth_given) {
    if (command.max_depth >= 0 && command.min_depth > command.max_depth) {
        report_warning("-mindepth " + std::to_string(command.min_depth) + " is past -maxdepth " +
                       std::to_string(command.max_depth) + ": no entry is visited");
    }
    if (prune_given && depth_given) {
        report_warning("-prune does nothing when -depth is in effect: every directory's "
                       "contents are visited before it");
    }
    if (command.expr) {
        check(*command.expr);
    }
}

} // namespace ufind
