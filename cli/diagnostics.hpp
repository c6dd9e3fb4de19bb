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
// Prints "ufind: <message>" without changing the exit status (find's notes
// about children killed by signals).
void report_note(std::string_view message);
// Prints "ufind: warning: <message>"; does not change the exit status.
void report_warning(std::string_view message);

// Records a failure that has been reported elsewhere (a child process's own
// message, say) or that must change the status without a message
// (-exec ... {} + whose command failed).
void mark_failed();

// 0 if nothing was reported as an error, else 1.
int exit_status();

// Thrown by the parser, caught in main: a command line that cannot run.  The
// message has been printed already.
struct UsageError {};

// Thrown by the parser after --help or --version: the run ends with status.
struct EarlyExit {
    int status;
};

// Reports message as an error and throws UsageError: for the parser and the
// parse functions of every primary family.
[[noreturn]] void fail_usage(std::string_view message);

} // namespace ufind
