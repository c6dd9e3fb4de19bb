// -fprint and -fprint0: -print and -print0 into a file opened while parsing
// (see output_files.hpp for how files are opened and shared).
#pragma once

#include "parse_context.hpp"
#include "primary.hpp"

#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_fprint(ParseContext& context);

} // namespace ufind
