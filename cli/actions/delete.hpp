// -delete: remove the file found, directories after their contents.
//
//   parse: -delete --> post-order walk (-depth) turned on for the command;
//          refused together with -prune unless -depth was given explicitly,
//          because -prune does nothing in post-order (find's rule)
//   walk:  unlinkat(path), or with AT_REMOVEDIR for a directory; a failure
//          is reported ("cannot delete"), makes -delete false and the exit
//          status 1, as find 4.9 does
//
// The starting point "." is never removed: it is the working directory.
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_delete(ParseContext& context);

} // namespace ufind
