// -flags [-+]LETTERS: Linux inode flags, in chattr's letters.
//
//   -flags -ia   immutable and append-only both set (all of, as -perm -MODE)
//   -flags +ia   either set (any of)
//   -flags e     exactly the extents flag and no other
//
// bfs takes BSD's flag names where the system has strtofflags(3); Linux
// has none, so ufind reads FS_IOC_GETFLAGS and speaks lsattr's letters.
// Only regular files and directories are opened: opening a device could
// have effects of its own (a tape rewinds).
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_inode_flags(ParseContext& context);

} // namespace ufind
