// -ls and -fls: one line per file in the layout of `ls -dils`, as GNU find
// prints it (findutils' list_file):
//
//   inode  1K-blocks  mode  links  owner  group  size  date  name [-> target]
//   "%9s %6s %10s %3s %-8s %-8s %8s %s %s"
//
// A device shows "major, minor" where the size would be.  The date is
// "Mon dd HH:MM" within the last six months and "Mon dd  YYYY" otherwise.
// Names and link targets are escaped as find escapes them: backslash escapes
// for \ " space and \n \t \r \b \f, octal for other bytes outside 0x21-0x7e.
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <linux/stat.h>
#include <sys/stat.h>
#include <time.h>

#include <memory>
#include <string>
#include <string_view>

namespace ufind {

// Appends the -ls line for a file (with its newline) to out.  target is the
// link's target, or empty.
void format_ls_line(std::string& out, std::string_view path, const struct statx& buf,
                    std::string_view target, time_t now);

// find's escaping of a name in -ls output.
void append_ls_name(std::string& out, std::string_view name);

std::unique_ptr<Primary> parse_ls(ParseContext& context);

} // namespace ufind
