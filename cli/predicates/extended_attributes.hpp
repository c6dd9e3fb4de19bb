// bfs's tests of extended attributes: -xattr, -xattrname NAME, -acl and
// -capable, through the kernel's listxattr and getxattr (no library).
//
//   -xattr           the file has any extended attribute
//   -xattrname NAME  the file has the attribute NAME ("user.note")
//   -acl             a POSIX ACL beyond the mode bits: system.posix_acl_access
//                    (or _default on a directory), which the kernel keeps only
//                    for ACLs the mode cannot express
//   -capable         file capabilities: security.capability
//
// A link is looked at itself unless links are followed (-L, -H on a
// starting point), as the other tests do.
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_xattr(ParseContext& context);
std::unique_ptr<Primary> parse_xattrname(ParseContext& context);
std::unique_ptr<Primary> parse_acl(ParseContext& context);
std::unique_ptr<Primary> parse_capable(ParseContext& context);

} // namespace ufind
