// Warnings for command lines that run but cannot do what was meant.
//
//   ufind . -type f -type d -print    -> "-type f and -type d are never
//                                         both true: -print never runs"
//   ufind . -maxdepth 1 -mindepth 3   -> "-mindepth 3 is past -maxdepth 1:
//                                         no entry is visited"
//   ufind . -depth -prune             -> "-prune does nothing under -depth"
//
// Only what is certain is reported (an explicit -false is taken as meant:
// `ufind / -false` is how walks are timed).  Like find's own warnings they
// are shown when warnings are on: stdin is a terminal, or -warn.
#pragma once

#include "command/parse.hpp"

namespace ufind {

void warn_about_expression(const Command& command, bool prune_given, bool depth_given);

} // namespace ufind
