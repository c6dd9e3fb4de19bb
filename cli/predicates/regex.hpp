// -regex and -iregex: the whole path matched by a regular expression of the
// dialect -regextype chose (emacs-like findutils-default unless told).
//
//   parse: -regextype posix-extended -> RE_SYNTAX_POSIX_EXTENDED
//          -regex '.*/[a-c]+\.c' --re_compile_pattern--> re_pattern_buffer
//   walk:  re_match(path) == length of path   (anchored at both ends, as find)
//
// glibc's GNU regex API is used because it takes find's syntax bits
// directly; POSIX regcomp cannot express emacs syntax.  A pattern whose
// compile would run for minutes or overflow the stack in glibc is refused
// first (regex_size.hpp).  TODO: glibc's
// re_match allocates matcher state on each call; a DFA of our own would
// avoid it, not worth it before a profile shows -regex on a hot path.
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>
#include <string>

namespace ufind {

// RE_SYNTAX_* bits of a -regextype name; reports find's error for others.
int regex_syntax_by_name(const std::string& name);

std::unique_ptr<Primary> parse_regex(ParseContext& context);

} // namespace ufind
