// Diagnostics: how ufind speaks on stderr, and the exit status it earns.
//
// Messages follow GNU find's wording so that scripts grepping for them and
// people used to them are not surprised; only the program name differs.
// Any error, fatal or not, makes the exit status 1, as in find.
#pragma once

#include <string_view>

namespace ufind {

// Prints "ufind: <message>" and records that the run failed.
void report_error(std::string_view message);
// Prints "ufind: '<path>': <strerror(error)>" and records that the run failed.
void report_path_error(std::string_view path, int error);
// Prints "ufind: warning: <message>"; does not change the exit status.
void report_warning(std::string_view message);

// 0 if nothing was reported as an error, else 1.
int exit_status();

// Thrown by the parser, caught in main: a command line that cannot run.  The
// message has been printed already.
struct UsageError {};

} // namespace ufind
