// bfs's tests that find lacks: -hidden, -depth N and -sparse.
//
//   -hidden     the entry's name starts with '.', other than "." and ".."
//   -depth N    the entry's depth compares with N as -links does (+N, -N, N)
//   -sparse     fewer bytes allocated than its size: holes in it
//
// The first two need only what the walk returns with every entry.
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <memory>
#include <string_view>

namespace ufind {

std::unique_ptr<Primary> parse_hidden(ParseContext& context);
std::unique_ptr<Primary> parse_depth_test(ParseContext& context);
std::unique_ptr<Primary> parse_sparse(ParseContext& context);

// Whether a file of this name is hidden: -hidden and -nohidden.
bool is_hidden_name(std::string_view name);

// Whether -depth's next argument is a number, which makes -depth bfs's
// test rather than find's option.
bool looks_like_depth_argument(std::string_view text);

} // namespace ufind
