// Diagnostics: how ufind speaks on stderr, and the exit status it earns.
//
// Messages follow GNU find's wording so that scripts grepping for them and
// people used to them are not surprised; the program name is the one it
// was invoked by.
// Any error, fatal or not, makes the exit status 1, as in find.
//
// Errors in the command line also show where they are, as a compiler does:
//
//   ufind: unknown predicate `-nmae'
//     ufind . -nmae '*.c'
//             ^~~~~ did you mean `-name'?
//
// The parser records which argument it is reading (set_usage_position), so
// that an error raised deep inside one primary's own parser still points at
// the right word.  On a terminal the program name, "warning:" and the caret
// are colored (unless NO_COLOR is set or -nocolor given).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ufind {

// Prints "ufind: <message>" and records that the run failed.
void report_error(std::string_view message);
// A path, or an argument a message names, quoted as GNU find quotes it
// (gnulib's quote(), locale style): 'a\nb' in the C locale, with
// backslash escapes for \ ' and control characters and \ooo for other
// bytes it cannot print; in a UTF-8 locale ‘a\nb’, printable characters
// as they are.  A file
// name in a message can then neither split the line nor drive a terminal.
std::string quote_path(std::string_view path);

// Prints "ufind: '<path>': <strerror(error)>" (path quoted by quote_path)
// and records that the run failed.
void report_path_error(std::string_view path, int error);
// Prints "ufind: <message>" without changing the exit status (find's notes
// about children killed by signals).
void report_note(std::string_view message);
// Prints "ufind: warning: <message>"; does not change the exit status.
void report_warning(std::string_view message);

// Writes all of text to fd, or as much as fd takes: for messages, help and
// status lines, which have nowhere else to go when writing fails.
void write_fully(int fd, std::string_view text);

// Records a failure that has been reported elsewhere (a child process's own
// message, say) or that must change the status without a message
// (-exec ... {} + whose command failed).
void mark_failed();

// Messages name the program as it was invoked (argv[0]'s base name, kept
// as a view: argv outlives every message), so that a link or wrapper named
// find reads as find; "ufind" until main sets it.
void set_program_name(const char* argv0);
std::string_view program_name();

// 0 if nothing was reported as an error, else 1.
int exit_status();

// bfs's -noerror: from now on report_path_error() only counts, neither
// printing nor failing the run; suppressed_path_errors() is that count.
void ignore_path_errors();
unsigned long suppressed_path_errors();

// How many errors report_path_error() reported with each errno value (for
// --stats); indexes past the array's end were counted in its last slot.
std::span<const unsigned> path_errors_by_errno();

// Whether stderr is a terminal that may be colored; set_stderr_colors(false)
// for -nocolor.
bool stderr_colors();
void set_stderr_colors(bool enabled);

// Thrown by the parser, caught in main: a command line that cannot run.  The
// message has been printed already.
struct UsageError {};

// Thrown by the parser after --help or --version: the run ends with status.
struct EarlyExit {
    int status;
};

// The command line being parsed and the argument being read, for the caret
// under usage errors.  clear_usage_position() once parsing is over.
void set_usage_position(std::span<const std::string> args, std::size_t index);
void clear_usage_position();

// Reports message as an error, shows the argument being read with a caret
// under it and hint after it (if any), and throws UsageError: for the parser
// and the parse functions of every primary family.
[[noreturn]] void fail_usage(std::string_view message, std::string_view hint = {});

// The command line shown as a shell would need it typed, with a caret line
// under args[index]: the two lines under a usage error, without colors.
// Exposed for the tests.
std::string usage_excerpt(std::span<const std::string> args, std::size_t index,
                          std::string_view hint, bool colors);

} // namespace ufind
