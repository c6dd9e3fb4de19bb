#include "command/flags.hpp"

#include "command/help.hpp"
#include "predicates/regex.hpp"
#include "system/diagnostics.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string>

namespace ufind {
namespace {

using std::string_view;

constexpr string_view plain_flags = "HLPEXsx";     // no argument
constexpr string_view argument_flags = "DOSjf";    // the rest of the word, or the next

void parse_debug_flags(Command& command, string_view flags) {
    while (!flags.empty()) {
        std::size_t comma = flags.find(',');
        string_view flag = flags.substr(0, comma);
        if (flag == "stats" || flag == "all") {
            command.debug_stats = true;
        } else if (flag == "help") {
            // As find: the list on standard output, and no search.
            throw EarlyExit{print_debug_flags()};
        } else if (flag != "cost" && flag != "exec" && flag != "opt" && flag != "rates" &&
                   flag != "search" && flag != "stat" && flag != "time" && flag != "tree") {
            report_note("Ignoring unrecognised debug flag " + quote_path(flag));
        }
        flags = comma == string_view::npos ? string_view() : flags.substr(comma + 1);
    }
}

// -O: find's levels 0 to 3 and bfs's 4 (-Ofast); ufind's top level is 3,
// so 4 and beyond do what 3 does.  Above 4, bfs warns and goes on.
void parse_optimisation_level(Command& command, string_view level) {
    if (level == "fast") {
        command.optimisation_level = 3;
        return;
    }
    if (level.empty()) {
        fail_usage("The -O option must be immediately followed by a decimal integer");
    }
    if (level[0] < '0' || level[0] > '9') {
        fail_usage("Please specify a decimal number immediately after -O");
    }
    if (level.find_first_not_of("0123456789") != string_view::npos) {
        fail_usage("Invalid optimisation level " + std::string(level));
    }
    std::size_t digits = level.find_first_not_of('0');
    bool above_four = digits != string_view::npos &&
                      (level.size() - digits > 1 || level.back() > '4');
    if (above_four && command.warnings) {
        report_warning("-O" + std::string(level) + " is the same as -O4");
    }
    int value = above_four ? 4 : level.back() - '0';
    command.optimisation_level = value > 3 ? 3 : value;
}

int parse_thread_count(string_view text) {
    std::string digits(text);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
        fail_usage("Expected a positive decimal integer argument to -j, but got " +
                   quote_path(digits));
    }
    errno = 0;
    long value = std::strtol(digits.c_str(), nullptr, 10);
    if (errno == ERANGE || value > INT_MAX) {
        fail_usage(digits + ": Numerical result out of range");
    }
    if (value < 1) {
        // bfs's rule: the walk's own thread counts, so there is always one.
        fail_usage("-j needs at least one thread, not " + digits);
    }
    return static_cast<int>(value);
}

void parse_strategy(Command& command, string_view value) {
    if (value == "bfs") {
        command.strategy = IOQ_STRATEGY_BFS;
    } else if (value == "dfs") {
        command.strategy = IOQ_STRATEGY_DFS;
    } else if (value == "ids") {
        command.strategy = IOQ_STRATEGY_IDS;
    } else if (value == "eds") {
        command.strategy = IOQ_STRATEGY_EDS;
    } else if (value == "hybrid") {
        command.strategy = IOQ_STRATEGY_HYBRID;
    } else {
        fail_usage("unknown search strategy `" + std::string(value) +
                   "' (expected hybrid, bfs, dfs, ids or eds)");
    }
}

} // namespace

bool is_flag_group(string_view word) {
    if (word.size() < 2 || word[0] != '-') {
        return false;
    }
    for (char c : word.substr(1)) {
        if (argument_flags.find(c) != string_view::npos) {
            return true;
        }
        if (plain_flags.find(c) == string_view::npos) {
            return false;
        }
    }
    return true;
}

void parse_flags(ParseContext& context, string_view word) {
    Command& command = context.command;
    for (std::size_t i = 1; i < word.size(); ++i) {
        char flag = word[i];
        switch (flag) {
        case 'H': command.symlinks = IOQ_SYMLINKS_ROOTS; continue;
        case 'L': command.symlinks = IOQ_SYMLINKS_LOGICAL; continue;
        case 'P': command.symlinks = IOQ_SYMLINKS_PHYSICAL; continue;
        case 'E':
            context.state.regex_syntax = regex_syntax_by_name("posix-extended");
            context.state.regex_type_set = true;
            continue;
        case 'X': command.xargs_safe = true; continue;
        case 's': command.sort_names = true; continue;
        case 'x': command.same_device = true; continue;
        default: break;
        }
        // The last flag of the group: its argument follows.  -O takes only
        // the rest of the word, as in find.
        string_view rest = word.substr(i + 1);
        std::string argument(rest);
        if (rest.empty() && flag == 'D' && context.at_end()) {
            fail_usage("Missing argument after the -D option.");  // find's words
        }
        if (rest.empty() && flag != 'O') {
            argument = context.take();
        }
        switch (flag) {
        case 'D': parse_debug_flags(command, argument); break;
        case 'O': parse_optimisation_level(command, argument); break;
        case 'S': parse_strategy(command, argument); break;
        case 'j': command.threads = parse_thread_count(argument); break;
        case 'f': command.roots.push_back(argument); break;
        default: break;
        }
        return;
    }
}

} // namespace ufind
