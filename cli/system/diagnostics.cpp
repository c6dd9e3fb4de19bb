#include "system/diagnostics.hpp"

#include <unistd.h>

#include <langinfo.h>

#include <algorithm>
#include <cstdio>
#include <cwchar>
#include <cwctype>
#include <cstdlib>
#include <cstring>
#include <string>

namespace ufind {
namespace {

bool failed = false;
// What messages call the program: argv[0]'s base name once main has set it.
std::string_view invoked_name = "ufind";
bool path_errors_ignored = false;    // bfs's -noerror
unsigned long path_errors_suppressed = 0;
unsigned errors_by_errno[160];  // errno values on Linux stay below 134

// -1: not decided yet; decided on first use from the terminal and the
// environment, as ls and gcc do.
int colors_on_stderr = -1;

std::span<const std::string> usage_args;
std::size_t usage_index = 0;
bool usage_position_set = false;

constexpr std::string_view bold = "\033[1m";
constexpr std::string_view red = "\033[1;31m";
constexpr std::string_view magenta = "\033[1;35m";
constexpr std::string_view green = "\033[1;32m";
constexpr std::string_view reset = "\033[0m";

// "PROGRAM: " + kind + message + "\n", colored on a terminal.
void write_message(std::string_view kind, std::string_view kind_color, std::string_view message,
                   std::string_view extra = {}) {
    std::string line;
    bool colors = stderr_colors();
    if (colors) {
        // An error colors the program name; a warning its "warning:".
        line.append(kind.empty() && !kind_color.empty() ? kind_color : bold)
            .append(invoked_name)
            .append(":")
            .append(reset)
            .append(" ");
        if (!kind.empty()) {
            line.append(kind_color).append(kind).append(reset).append(" ");
        }
    } else {
        line.append(invoked_name).append(": ");
        if (!kind.empty()) {
            line.append(kind).append(" ");
        }
    }
    line.append(message).append("\n").append(extra);
    // One write per message keeps lines whole when stderr is shared with
    // other processes (for instance children of -exec).
    write_fully(STDERR_FILENO, line);
}

bool shell_safe(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::strchr("-_./+=:,%@^", c) != nullptr;
}

// An argument as it would be typed in a shell: bare when nothing in it is
// special, else in single quotes; control characters become '?' so that
// the excerpt stays one line.
std::string quoted_argument(std::string_view arg) {
    bool bare = !arg.empty();
    for (unsigned char c : arg) {
        bare = bare && shell_safe(c);
    }
    std::string out;
    if (!bare) {
        out.push_back('\'');
    }
    for (unsigned char c : arg) {
        if (c == '\'') {
            out.append("'\\''");
        } else if (c < 0x20 || c == 0x7f) {
            out.push_back('?');
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    if (!bare) {
        out.push_back('\'');
    }
    return out;
}

// Columns a UTF-8 string takes, counting each character as one.
std::size_t columns(std::string_view text) {
    std::size_t count = 0;
    for (unsigned char c : text) {
        count += (c & 0xC0) != 0x80;
    }
    return count;
}

} // namespace

bool stderr_colors() {
    if (colors_on_stderr < 0) {
        const char* no_color = std::getenv("NO_COLOR");
        const char* term = std::getenv("TERM");
        colors_on_stderr = ::isatty(STDERR_FILENO) == 1 && (!no_color || !*no_color) && term &&
                           std::strcmp(term, "dumb") != 0;
    }
    return colors_on_stderr == 1;
}

void set_stderr_colors(bool enabled) { colors_on_stderr = enabled && stderr_colors(); }

void report_error(std::string_view message) {
    failed = true;
    write_message({}, red, message);
}

std::string quote_path(std::string_view path) {
    static const bool utf8 = [] {
        const char* codeset = ::nl_langinfo(CODESET);
        return codeset && std::strcmp(codeset, "UTF-8") == 0;
    }();
    std::string out = utf8 ? "\u2018" : "'";
    std::mbstate_t state{};
    while (!path.empty()) {
        unsigned char c = static_cast<unsigned char>(path.front());
        const char* escape = nullptr;
        switch (c) {
        case '\\': escape = "\\\\"; break;
        case '\a': escape = "\\a"; break;
        case '\b': escape = "\\b"; break;
        case '\f': escape = "\\f"; break;
        case '\n': escape = "\\n"; break;
        case '\r': escape = "\\r"; break;
        case '\t': escape = "\\t"; break;
        case '\v': escape = "\\v"; break;
        case '\'': escape = utf8 ? nullptr : "\\'"; break;
        default: break;
        }
        if (escape) {
            out += escape;
            path.remove_prefix(1);
            continue;
        }
        std::size_t length = 1;
        bool printable = c >= 0x20 && c < 0x7f;
        if (c >= 0x80 && utf8) {
            wchar_t wide = 0;
            length = std::mbrtowc(&wide, path.data(), path.size(), &state);
            printable = length != static_cast<std::size_t>(-1) &&
                        length != static_cast<std::size_t>(-2) && length != 0 &&
                        std::iswprint(static_cast<std::wint_t>(wide));
            if (!printable) {
                length = 1;
                state = std::mbstate_t{};
            }
        }
        if (printable) {
            out.append(path.substr(0, length));
        } else {
            char octal[5];
            std::snprintf(octal, sizeof octal, "\\%03o", c);
            out += octal;
        }
        path.remove_prefix(length);
    }
    out += utf8 ? "\u2019" : "'";
    return out;
}

void report_path_error(std::string_view path, int error) {
    std::size_t slot = std::min<std::size_t>(static_cast<unsigned>(error), std::size(errors_by_errno) - 1);
    ++errors_by_errno[slot];
    if (path_errors_ignored) {
        ++path_errors_suppressed;
        return;
    }
    failed = true;
    std::string message = quote_path(path);
    message.append(": ").append(std::strerror(error));
    write_message({}, red, message);
}

void report_note(std::string_view message) { write_message({}, {}, message); }

void report_warning(std::string_view message) { write_message("warning:", magenta, message); }

void mark_failed() { failed = true; }

void write_fully(int fd, std::string_view text) {
    while (!text.empty()) {
        ssize_t n = ::write(fd, text.data(), text.size());
        if (n <= 0) {
            return;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

void set_program_name(const char* argv0) {
    if (!argv0 || !*argv0) {
        return;
    }
    std::string_view name = argv0;
    std::size_t slash = name.rfind('/');
    if (slash != std::string_view::npos && slash + 1 < name.size()) {
        name.remove_prefix(slash + 1);
    }
    invoked_name = name;
}

std::string_view program_name() { return invoked_name; }

int exit_status() { return failed ? 1 : 0; }

void ignore_path_errors() { path_errors_ignored = true; }

unsigned long suppressed_path_errors() { return path_errors_suppressed; }

std::span<const unsigned> path_errors_by_errno() { return errors_by_errno; }

void set_usage_position(std::span<const std::string> args, std::size_t index) {
    usage_args = args;
    usage_index = index;
    usage_position_set = true;
}

void clear_usage_position() { usage_position_set = false; }

std::string usage_excerpt(std::span<const std::string> args, std::size_t index,
                          std::string_view hint, bool colors) {
    // A long command line is cut to a window around the argument, so the
    // caret stays on screen.
    constexpr std::size_t context_words = 4;
    std::size_t first = index > context_words ? index - context_words : 0;
    std::size_t last = std::min(args.size(), index + context_words + 1);
    std::string line = "  " + std::string(invoked_name);
    std::string marks(line.size(), ' ');
    if (first > 0) {
        line.append(" ...");
        marks.append("    ");
    }
    for (std::size_t i = first; i < last; ++i) {
        std::string word = quoted_argument(args[i]);
        line.append(" ").append(word);
        std::size_t width = columns(word);
        if (i == index) {
            marks.append(" ");
            if (colors) {
                marks.append(green);
            }
            marks.append("^").append(width > 0 ? width - 1 : 0, '~');
            if (colors) {
                marks.append(reset);
            }
        } else if (i < index) {
            marks.append(width + 1, ' ');
        }
    }
    if (index >= args.size()) {
        // The argument that is missing: point just past the end.
        marks.append(" ");
        marks.append(colors ? std::string(green) + "^" + std::string(reset) : "^");
    }
    if (last < args.size()) {
        line.append(" ...");
    }
    if (!hint.empty()) {
        marks.append(" ").append(hint);
    }
    return line + "\n" + marks + "\n";
}

void fail_usage(std::string_view message, std::string_view hint) {
    failed = true;
    std::string extra;
    if (usage_position_set) {
        extra = usage_excerpt(usage_args, usage_index, hint, stderr_colors());
    } else if (!hint.empty()) {
        extra = std::string(invoked_name) + ": " + std::string(hint) + "\n";
    }
    write_message({}, red, message, extra);
    throw UsageError{};
}

} // namespace ufind
