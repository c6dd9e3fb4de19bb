// The type of the filesystem a device belongs to, for -fstype and %F.
//
//   /proc/self/mountinfo --read once, on first use--> [(major:minor, type)]
//   filesystem_type(stx_dev) --linear lookup--> "ext4"
//
// Read lazily: a run without -fstype or %F never opens the file.  A device
// mounted more than once has one type; a device the table does not list
// (the file system was mounted after the table was read) is "unknown".
#pragma once

#include <sys/types.h>

#include <string_view>

namespace ufind {

std::string_view filesystem_type(dev_t device);

} // namespace ufind
