// Flags: the one-letter options before the starting points (-H -L -P -D
// -O -S -j -s), and bfs's further ones (-E -X -x -f PATH).
//
//   -L -D stat     one flag a word, an argument in the next word
//   -LDstat        a group: letters that take no argument, then at most one
//                  that does, its argument the rest of the word
//   -LD stat       ... or the next word
//
// As in bfs, a group may also stand after the starting points or in the
// expression, where GNU find knows none of these words.
#pragma once

#include "command/parse_context.hpp"

#include <string_view>

namespace ufind {

// Whether word is a group of flags (parse_flags would take it).
bool is_flag_group(std::string_view word);

// Applies the flags of word (already taken from the command line), taking
// the next argument through context when the last flag needs one.
void parse_flags(ParseContext& context, std::string_view word);

} // namespace ufind
