// Comparison: the "+N", "-N" and "N" arguments of find's numeric tests
// (-links, -inum, -uid, -gid, -size, and the time tests in whole units).
//
//   "+3" -> {greater, 3}    matches values > 3
//   "-3" -> {less, 3}       matches values < 3
//   "3"  -> {equal, 3}      matches 3
//
// Parsing follows GNU find's get_num: one sign, then what strtoumax accepts
// for an unsigned number (leading blanks, one more '+'), and nothing after
// it unless the caller takes a suffix (-size's unit letter).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ufind {

struct Comparison {
    enum Kind : unsigned char { less, equal, greater };
    Kind kind = equal;
    std::uint64_t value = 0;

    bool matches(std::uint64_t actual) const {
        switch (kind) {
        case less: return actual < value;
        case greater: return actual > value;
        case equal: break;
        }
        return actual == value;
    }
};

// The sign of text, removed from it: '+' greater, '-' less, else equal.
Comparison::Kind take_comparison_sign(std::string_view& text);

// Parses "[+-]N"; with suffix non-null, one trailing character that is not a
// digit is left in *suffix ('\0' if none).  nullopt when it is not a number.
std::optional<Comparison> parse_comparison(std::string_view text, char* suffix = nullptr);

} // namespace ufind
