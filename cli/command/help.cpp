// --help and --version.
//
// The usage screen is generated from the table of expression words
// (primary_names.hpp), the same table the parser accepts words from, so a
// word cannot be accepted without being listed here.  The words are printed
// by group, in the order of the man page:
//
//     usage line
//     operators                  fixed text: they are not words of the table
//     positional options   -+
//     global options        |    one aligned row per word of the group:
//     tests                 |      "  -name PATTERN     summary"
//     actions               |    neighbours with the same argument and
//     ufind's own options  -+    summary share a row ("-help, --help")
//     leading options            -H -L -P -D -O -s: parsed before the
//                                starting points, not words of the table
//     environment
//
// Summaries that would run past 79 columns wrap under the summary column.
// The screen is built in one string and written to descriptor 1 with
// write(2), as ufind's other output is, not through stdio.
#include "command/help.hpp"

#include "system/diagnostics.hpp"

#include "command/primary_names.hpp"

#include <ioq.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ufind {
namespace {

constexpr std::size_t screen_width = 79;
constexpr std::string_view indent = "  ";

// One row of the screen: what is typed, and what it does.
struct HelpRow {
    std::string usage;  // "-name PATTERN", "-help, --help"
    std::string_view summary;
};

std::string usage_of(const WordInfo& word) {
    std::string usage(word.name);
    if (!word.argument.empty()) {
        usage += ' ';
        usage += word.argument;
    }
    return usage;
}

// The table's words of one group, neighbours that differ only in their
// spelling sharing a row.
std::vector<HelpRow> rows_of(WordGroup group) {
    std::vector<HelpRow> rows;
    const WordInfo* previous = nullptr;
    for (const WordInfo& word : expression_words()) {
        if (word.group != group) {
            continue;
        }
        if (previous && previous->argument == word.argument &&
            previous->summary == word.summary && !rows.empty()) {
            // "-help, --help": the argument, if any, goes after the last spelling.
            HelpRow& row = rows.back();
            row.usage.resize(row.usage.size() - (previous->argument.empty()
                                                     ? 0
                                                     : previous->argument.size() + 1));
            row.usage += ", ";
            row.usage += usage_of(word);
        } else {
            rows.push_back({usage_of(word), word.summary});
        }
        previous = &word;
    }
    return rows;
}

// Appends text, broken at spaces so that no line passes screen_width, each
// line after the first starting at column `column`.
void append_wrapped(std::string& out, std::string_view text, std::size_t column) {
    std::size_t room = screen_width > column ? screen_width - column : 20;
    while (text.size() > room) {
        std::size_t cut = text.rfind(' ', room);
        if (cut == std::string_view::npos || cut == 0) {
            cut = text.find(' ');
            if (cut == std::string_view::npos) {
                break;
            }
        }
        out.append(text.substr(0, cut));
        out += '\n';
        out.append(column, ' ');
        text.remove_prefix(cut + 1);
    }
    out.append(text);
    out += '\n';
}

void append_section(std::string& out, std::string_view title, std::span<const HelpRow> rows,
                    std::size_t column) {
    out += '\n';
    out += title;
    out += '\n';
    for (const HelpRow& row : rows) {
        out += indent;
        out += row.usage;
        std::size_t used = indent.size() + row.usage.size();
        if (used + 2 > column) {
            // Too long for the column: the summary goes on its own line.
            out += '\n';
            out.append(column, ' ');
        } else {
            out.append(column - used, ' ');
        }
        append_wrapped(out, row.summary, column);
    }
}

// A screen on standard output, as find's close_stdout checks it: a full
// disk or a closed descriptor is an error, not a silent success.
int write_screen(std::string_view text) {
    while (!text.empty()) {
        ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            report_error(std::string("write error: ") + std::strerror(n < 0 ? errno : EIO));
            return 1;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

} // namespace

int print_help() {
    const std::array<std::vector<HelpRow>, 5> groups = {
        rows_of(WordGroup::positional_option), rows_of(WordGroup::global_option),
        rows_of(WordGroup::test), rows_of(WordGroup::action), rows_of(WordGroup::ufind_option)};
    std::size_t column = 0;
    // One summary column for every section, past the longest usage that
    // leaves a summary of 40 columns or more; longer usages wrap.
    for (const auto& rows : groups) {
        for (const HelpRow& row : rows) {
            std::size_t wanted = indent.size() + row.usage.size() + 2;
            if (wanted + 40 <= screen_width) {
                column = std::max(column, wanted);
            }
        }
    }

    std::string out =
        "Usage: ufind [-H|-L|-P] [-D FLAGS] [-O0..4] [-S STRATEGY] [-j N] [-s] [-EXx]\n"
        "             [-f PATH] [PATH...] [EXPRESSION]\n"
        "\n"
        "Walks each PATH (default: the current directory) and evaluates EXPRESSION\n"
        "(default: -print) for every file.  N in a test is +N (more than N), -N (less\n"
        "than N) or N (exactly N).\n"
        "\n"
        "Operators (decreasing precedence; -and is implied between two primaries):\n"
        "  ( EXPR )   ! EXPR   -not EXPR\n"
        "  EXPR1 -a EXPR2   EXPR1 -and EXPR2   EXPR1 EXPR2\n"
        "  EXPR1 -o EXPR2   EXPR1 -or EXPR2\n"
        "  EXPR1 , EXPR2    (both evaluated; the value is EXPR2's)\n";
    append_section(out, "Positional options (always true; affect the primaries after them):",
                   groups[0], column);
    append_section(out, "Global options (always true; affect the whole run):", groups[1],
                   column);
    append_section(out, "Tests:", groups[2], column);
    append_section(out, "Actions (-exec, -execdir: COMMAND {} + runs COMMAND on many paths):",
                   groups[3], column);
    append_section(out, "ufind's own options:", groups[4], column);
    // The options parsed before the starting points: not words of the
    // expression, so not in the table.  Local: built only for --help, not
    // at every start.
    const HelpRow leading_rows[] = {
        {"-H", "follow symbolic links named as starting points"},
        {"-L", "follow every symbolic link (as -follow)"},
        {"-P", "follow no symbolic link (the default)"},
        {"-D FLAGS", "comma-separated debug flags: stats (as --stats), help"},
        {"-O0..4", "optimisation level (default 1: cheap tests first); -Ofast as -O4"},
        {"-s", "sort names in each directory: deterministic output"},
        {"-E", "as -regextype posix-extended (bfs)"},
        {"-X", "report and skip names that xargs would misread (bfs)"},
        {"-x", "as -xdev (bfs)"},
        {"-f PATH", "walk PATH, even if it starts with '-' (bfs)"},
        {"-LDstat", "flags may be grouped, and stand anywhere, as in bfs"},
    };

    const HelpRow environment_rows[] = {
        {"BFS_COLORS", "more colors, read after LS_COLORS, as bfs does"},
        {"IOQ_BACKEND", "uring, threads or inline: force the I/O backend"},
        {"LS_COLORS", "the colors of -color, as for ls"},
        {"NO_COLOR", "set and not empty: no color unless -color"},
        {"TZ", "the time zone of -printf, -ls and -json times"},
    };
    append_section(out, "Options before the starting points:", leading_rows, column);
    append_section(out, "Environment:", environment_rows, column);
    out +=
        "\n"
        "Exit status: 0 when all went well, 1 when any error occurred.\n"
        "See ufind(1) for the details.\n";
    return write_screen(out);
}

int print_version() {
    std::string out = "ufind 0.1.0 (the language of GNU find 4.9, on libioq)\n";
    out += ioq_backend_available(IOQ_BACKEND_URING)
               ? "backends: io_uring compiled in, usable on this kernel; threads; inline\n"
               : "backends: threads; inline (io_uring not compiled in, or refused by this "
                 "kernel: missing, disabled or filtered)\n";
    // What a walk of this process would use: IOQ_BACKEND may force another.
    out += "default backend here: ";
    out += ioq_backend_name(ioq_backend_default());
    out += '\n';
    return write_screen(out);
}

int print_debug_flags() {
    // find's table, with what each flag does here.
    return write_screen(
                "Valid arguments for -D:\n"
                "stats      Show the walk's statistics and backend at exit (as --stats)\n"
                "cost       Accepted for bfs; ignored\n"
                "exec       Accepted for GNU find; ignored\n"
                "opt        Accepted for GNU find; ignored\n"
                "rates      Accepted for GNU find; ignored\n"
                "search     Accepted for GNU find; ignored\n"
                "stat       Accepted for GNU find; ignored\n"
                "time       Accepted for GNU find; ignored\n"
                "tree       Accepted for GNU find; ignored\n"
                "all        Set all of the debug flags (but help)\n"
                "help       Explain the various -D options\n");
}

} // namespace ufind
