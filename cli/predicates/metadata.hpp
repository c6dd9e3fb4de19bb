// Tests on an entry's metadata that need no table of names or times:
// -size, -empty, -links, -inum, -samefile, -readable/-writable/-executable,
// -fstype, -context.
//
//   parse: "-size" "+3k" -> SizeTest{greater 3, unit 1024}, stat_mask STATX_SIZE
//   walk:  context.stat() (one statx per entry for the whole expression)
//          -> ceil(size / unit) compared with 3
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <cstdint>
#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_size(ParseContext& context);
std::unique_ptr<Primary> parse_empty(ParseContext& context);
std::unique_ptr<Primary> parse_links(ParseContext& context);
std::unique_ptr<Primary> parse_inum(ParseContext& context);
std::unique_ptr<Primary> parse_samefile(ParseContext& context);
std::unique_ptr<Primary> parse_access(ParseContext& context);
std::unique_ptr<Primary> parse_fstype(ParseContext& context);
std::unique_ptr<Primary> parse_context_test(ParseContext& context);

// -size's unit letter as bytes (c 1, w 2, b 512, k 1024, M, G); 0 if not one.
std::uint64_t size_unit(char letter);

// The file size find compares with -size N<unit>: whole units, rounded up.
inline std::uint64_t size_in_units(std::uint64_t bytes, std::uint64_t unit) {
    return bytes / unit + (bytes % unit != 0);
}

} // namespace ufind
