// bfs's actions that find lacks: -limit N, -exit [STATUS] and -printx.
//
//   -limit N      true; the Nth time it is reached the walk ends, as -quit
//   -exit STATUS  ends the walk at once; ufind then exits with STATUS (0)
//   -printx       -print with blanks, quotes and backslashes escaped by a
//                 backslash, so that xargs reads each path back whole
//
// -limit counts results but prints nothing, so the parser asks for an
// explicit action beside it (limit_needs_action).
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_limit(ParseContext& context);
std::unique_ptr<Primary> parse_exit(ParseContext& context);
std::unique_ptr<Primary> parse_printx(ParseContext& context);

} // namespace ufind
