// Dates for -newerXt: GNU's parse_datetime grammar, as find and date -d read it.
//
//   "2024-01-31"                 midnight, local time
//   "2024-01-31 13:45"           local time (also with 'T' for the space)
//   "2024-01-31 13:45:10.25"     seconds and a fraction
//   "2024-01-31 13:45:10 UTC"    "UTC", "GMT" or "Z": universal time
//   "@1706708710"                seconds since the epoch (fraction allowed)
//
// Those, the forms machines write, are read here directly.  Everything else
// goes to relative_date.cpp, which implements the rest of GNU's grammar
// (and these forms too, with the same results):
//
//   "yesterday", "2 days ago", "1 week 2 hours ago", "next month",
//   "last friday", "31 Jan 2024", "Jan 31, 2024 1:30pm", "2024-01-31 +1 month"
#pragma once

#include <time.h>

#include <optional>
#include <string_view>

namespace ufind {

// The instant `text` names in the local time zone (TZ), or nullopt where GNU
// find says "I cannot figure out how to interpret `TEXT' as a date or time".
// Relative dates count from `now`: find passes the start of the run, as GNU
// find does; without it, the current time.
std::optional<struct timespec> parse_date(std::string_view text,
                                          std::optional<struct timespec> now = std::nullopt);

} // namespace ufind
