// The files named on the command line as references (-newer F, -anewer F,
// -cnewer F, -newerXY F, -samefile F) are looked at the way the walk looks
// at its starting points, as find does: through a symbolic link under -H
// and -L, and a broken one as the link itself.
#pragma once

#include "command/parse_context.hpp"

#include <sys/stat.h>

#include <string>

namespace ufind {

// The reference's metadata (at least `mask`).  Reports the failure and
// throws UsageError for a file that cannot be looked at.
struct statx stat_reference(const ParseContext& context, const std::string& path, unsigned mask);

} // namespace ufind
