// Dates for -newerXt: the subset of GNU's parse_datetime that people type.
//
//   "2024-01-31"                 midnight, local time
//   "2024-01-31 13:45"           local time (also with 'T' for the space)
//   "2024-01-31 13:45:10.25"     seconds and a fraction
//   "2024-01-31 13:45:10 UTC"    "UTC", "GMT" or "Z": universal time
//   "@1706708710"                seconds since the epoch (fraction allowed)
//
// TODO: relative dates ("yesterday", "2 days ago") and month names; GNU's
// grammar is a yacc parser of its own, not worth copying until asked for.
#pragma once

#include <time.h>

#include <optional>
#include <string_view>

namespace ufind {

std::optional<struct timespec> parse_date(std::string_view text);

} // namespace ufind
