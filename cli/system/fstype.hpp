// The type of the filesystem a device belongs to, for -fstype and %F, as
// libioq reads it from the mount table (ioq_filesystem_type): read on first
// use, so a run without -fstype or %F never opens it.  A device the table
// does not list (mounted after the table was read) is "unknown".
#pragma once

#include <string_view>

namespace ufind {

std::string_view filesystem_type(unsigned major, unsigned minor);

} // namespace ufind
