// Tests on who owns an entry: -user, -group (a name, or an id when no such
// name exists), -uid, -gid ("+N", "-N", "N"), -nouser, -nogroup.
//
//   parse: "-user" "alice" --getpwnam--> OwnerTest{uid, equal 1000}
//   walk:  context.stat() (STATX_UID) --> stx_uid compared
//   -nouser: stx_uid --user_cache--> no name?
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_user(ParseContext& context);
std::unique_ptr<Primary> parse_group(ParseContext& context);
std::unique_ptr<Primary> parse_uid(ParseContext& context);
std::unique_ptr<Primary> parse_gid(ParseContext& context);
std::unique_ptr<Primary> parse_nouser(ParseContext& context);
std::unique_ptr<Primary> parse_nogroup(ParseContext& context);

} // namespace ufind
