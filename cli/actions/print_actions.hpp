// -fprint and -fprint0: -print and -print0 into a file opened while parsing
// (see output_files.hpp for how files are opened and shared).
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_fprint(ParseContext& context);

} // namespace ufind
