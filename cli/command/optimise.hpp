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

#include "expr/expr.hpp"

#include <memory>

namespace ufind {

void reorder_tests(std::unique_ptr<Expr>& expr);

// Folds -true and -false (and the positional options, which parse as
// -true) into the operators around them:
//
//   -false -a X  ->  -false        -true -a X   ->  X     X -a -true  ->  X
//   -true -o X   ->  -true         -false -o X  ->  X     X -o -false ->  X
//   ! -true      ->  -false        P , X        ->  X
//   P -a -false  ->  -false        P -o -true   ->  -true
//
// where P is a subexpression that can have no effect: only name, path and
// type tests (a metadata test may report a failure, so it stays).  What is
// printed, run or deleted never changes: a part dropped would never have
// run, or could not have done anything.  The value of an operator after
// -quit may differ, but every operator stops evaluating once quit is set,
// so nothing more runs either way.  `ufind DIR -false` then evaluates one
// node per entry instead of three (measured in fd801f7).
void fold_constants(std::unique_ptr<Expr>& expr);

} // namespace ufind
