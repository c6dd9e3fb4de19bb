// Glob tests on a whole path or a link's target: -ipath, -wholename,
// -iwholename, -lname, -ilname (-name, -iname and -path are plain ExprKinds
// in eval.cpp).
//
//   -iwholename '*/SRC/*' : GlobPattern (fnmatch's meaning) on the entry path,
//                           case blind
//   -lname '*.so'         : readlink(the entry) into a reused buffer,
//                           then the pattern; false for anything but a link
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_path_test(ParseContext& context);
// find's warning for a whole-path pattern (-path, -ipath, -wholename,
// -iwholename) that ends with '/': no path a walk gives ends so.  Given
// whatever -warn says, as find gives it.
void warn_if_pattern_ends_with_slash(const std::string& name, const std::string& pattern);
std::unique_ptr<Primary> parse_lname(ParseContext& context);

} // namespace ufind
