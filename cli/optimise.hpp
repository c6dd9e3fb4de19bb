// Optimising the expression: cheap tests before costly ones.
//
//   -size +1M -name '*.c'   becomes   -name '*.c' -size +1M
//
// Within a chain of -and, each run of side-effect-free tests between two
// actions is sorted (stably) by what a test costs: the name or d_type only,
// then other tests without metadata (-regex, -lname, -empty, -readable),
// then tests that need a statx.  Nothing moves across an action (-print,
// -exec, -prune, -quit, ...) or an operator, so what is printed, run or
// deleted, and in which order, never changes; only how many entries pay for
// metadata does.  GNU find reorders name tests to the front at -O1, its
// default, too.  -O0 turns this off.
#pragma once

#include "expr.hpp"

#include <memory>

namespace ufind {

void reorder_tests(std::unique_ptr<Expr>& expr);

} // namespace ufind
