// Dates in words and dates relative to now, for -newerXt: the part of GNU's
// date grammar past the plain ISO dates date_parse.cpp reads directly.
//
//   "yesterday", "2 days ago", "next week", "last friday", "31 Jan 2024",
//   "Jan 31, 2024 1:30pm", "2024-01-31 +1 month", "Mon Jul  1 12:00:00 CEST 2024"
//
// relative_date.cpp explains the grammar and its quirks; parse_date
// (date_parse.hpp) is the entry point the rest of ufind uses.
#pragma once

#include <time.h>

#include <optional>
#include <string_view>

namespace ufind {

// The instant `text` names under the grammar of GNU parse_datetime (what
// find -newermt and date -d accept), in the local time zone of TZ, counting
// from `now` for whatever the text leaves out (the date of "13:00", the
// clock time of "yesterday").  nullopt for a text GNU refuses, and for the
// few forms GNU accepts that this does not implement (a leading TZ="...").
std::optional<struct timespec> parse_relative_date(std::string_view text,
                                                   const struct timespec& now);

} // namespace ufind
