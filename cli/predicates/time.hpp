// Tests on an entry's timestamps: -newer, -anewer, -cnewer, -newerXY,
// -amin/-atime/-cmin/-ctime/-mmin/-mtime, -used; and -daystart, which moves
// the origin the later ones measure from.
//
//   parse: "-mtime" "+2" --origin (now, or start of tomorrow)--> AgeTest
//   walk:  context.stat() (STATX_MTIME) --> age = origin - mtime
//          +2: age > 3 days;  -2: age < 2 days;  2: 2 days <= age < 3 days
//
// These rules are GNU find's, measured against it: for days the fraction of
// a day is dropped before comparing, so "+1" means at least two whole days;
// for minutes it is rounded up, so "-mmin 1" is anything in the last minute.
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"

#include <time.h>

#include <memory>

namespace ufind {

std::unique_ptr<Primary> parse_newer(ParseContext& context);
std::unique_ptr<Primary> parse_time_test(ParseContext& context);
std::unique_ptr<Primary> parse_used(ParseContext& context);
// -daystart: the origin becomes the start of tomorrow, local time.
void set_daystart(ParseState& state);

enum class AgeSign : unsigned char { less, equal, greater };

// -amin/-atime/...: whether a file `age_seconds` old (from the origin)
// matches "+N", "-N" or "N" units of `unit_seconds`.
bool age_matches(long double age_seconds, AgeSign sign, long double amount,
                 long double unit_seconds);

// -used: whether atime - ctime (seconds) matches "+N", "-N" or "N" days.
bool used_matches(long double access_after_change, AgeSign sign, long double days);

} // namespace ufind
