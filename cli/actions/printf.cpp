#include "actions/printf.hpp"

#include "output/output.hpp"
#include "output/terminal_text.hpp"

#include "expr/eval.hpp"
#include "predicates/path.hpp"
#include "system/diagnostics.hpp"
#include "system/fstype.hpp"
#include "system/user_cache.hpp"
#include "values/path_parts.hpp"

#include <sys/sysmacros.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

namespace ufind {
namespace {

// Which statx fields a directive reads.
unsigned mask_of_directive(char letter) {
    switch (letter) {
    case 's': return STATX_SIZE;
    case 'b':
    case 'k': return STATX_BLOCKS;
    case 'S': return STATX_BLOCKS | STATX_SIZE;
    case 'm':
    case 'M': return STATX_MODE | STATX_TYPE;
    case 'n': return STATX_NLINK;
    case 'i': return STATX_INO;
    case 'u':
    case 'U': return STATX_UID;
    case 'g':
    case 'G': return STATX_GID;
    case 'a':
    case 'A': return STATX_ATIME;
    case 'c':
    case 'C': return STATX_CTIME;
    case 't':
    case 'T': return STATX_MTIME;
    case 'B': return STATX_BTIME;
    // %Y and %l as in find: the entry's own metadata first, so that one
    // that cannot be had is reported (and the line not printed) even if it
    // is no link.
    case 'Y':
    case 'l':
    case 'D':
    case 'F': return STATX_TYPE;
    default: return 0;
    }
}

bool is_directive(char c) { return std::strchr("abcdfghiklmnpstuyDFGHMPSUYZ", c) != nullptr; }
bool is_time_directive(char c) { return c == 'A' || c == 'B' || c == 'C' || c == 'T'; }

// A backslash escape at text[i] (just after the backslash).  Returns the
// bytes it stands for; sets stop for \c.
void compile_escape(std::string_view text, std::size_t& i, std::string& literal, bool& stop) {
    if (i >= text.size()) {
        report_warning("escape `\\' followed by nothing at all");
        literal += '\\';
        return;
    }
    char c = text[i];
    if (c >= '0' && c <= '7') {
        unsigned value = 0;
        for (int digits = 0; digits < 3 && i < text.size() && text[i] >= '0' && text[i] <= '7';
             ++digits, ++i) {
            value = value * 8 + static_cast<unsigned>(text[i] - '0');
        }
        literal += static_cast<char>(value & 0xff);
        return;
    }
    ++i;
    switch (c) {
    case 'a': literal += '\a'; return;
    case 'b': literal += '\b'; return;
    case 'f': literal += '\f'; return;
    case 'n': literal += '\n'; return;
    case 'r': literal += '\r'; return;
    case 't': literal += '\t'; return;
    case 'v': literal += '\v'; return;
    case '\\': literal += '\\'; return;
    case 'c': stop = true; return;
    default:
        report_warning(std::string("unrecognized escape `\\") + c + "'");
        literal += '\\';
        literal += c;
        return;
    }
}

// Pads or truncates value as printf's %s would with spec.
void append_string(std::string& out, std::string_view value, const FormatSpec& spec) {
    if (spec.precision >= 0 && value.size() > static_cast<std::size_t>(spec.precision)) {
        value = value.substr(0, static_cast<std::size_t>(spec.precision));
    }
    std::size_t pad = spec.width > 0 && static_cast<std::size_t>(spec.width) > value.size()
                          ? static_cast<std::size_t>(spec.width) - value.size()
                          : 0;
    if (!spec.left) {
        out.append(pad, ' ');
    }
    out.append(value);
    if (spec.left) {
        out.append(pad, ' ');
    }
}

// Writes out[..start] to spill, then out[start..] padded to spec.width
// with spaces written a piece at a time; out is left empty.  Memory stays
// bounded by the piece, whatever the width.
void write_padded(Output& spill, std::string& out, std::size_t start, const FormatSpec& spec) {
    static constexpr std::string_view spaces = "                                                                ";
    std::string_view line(out);
    std::string_view value = line.substr(start);
    spill.write(line.substr(0, start));
    std::size_t pad = static_cast<std::size_t>(spec.width) > value.size()
                          ? static_cast<std::size_t>(spec.width) - value.size()
                          : 0;
    auto write_spaces = [&] {
        for (std::size_t left = pad; left > 0;) {
            std::size_t piece = std::min(left, spaces.size());
            spill.write(spaces.substr(0, piece));
            left -= piece;
        }
    };
    if (!spec.left) {
        write_spaces();
    }
    spill.write(value);
    if (spec.left) {
        write_spaces();
    }
    out.clear();
}

// printf's own formatting for the numeric directives (%d, %m, %S).
template <typename Number>
void append_number(std::string& out, const FormatSpec& spec, char conversion, Number value) {
    char format[32];
    char* f = format;
    *f++ = '%';
    if (spec.left) *f++ = '-';
    if (spec.zero) *f++ = '0';
    if (spec.plus) *f++ = '+';
    if (spec.space) *f++ = ' ';
    if (spec.alternate) *f++ = '#';
    *f++ = '*';
    *f++ = '.';
    *f++ = '*';
    if (conversion != 'g') {
        *f++ = 'l';
        *f++ = 'l';
    }
    *f++ = conversion;
    *f = '\0';
    char buffer[128];
    int width = spec.width < 0 ? 0 : spec.width;
    int precision = spec.precision;
    // Builds the format at run time by design; the pieces are all checked
    // above.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    int n = std::snprintf(buffer, sizeof buffer, format, width, precision, value);
    if (n >= static_cast<int>(sizeof buffer)) {
        std::string big(static_cast<std::size_t>(n) + 1, '\0');
        std::snprintf(big.data(), big.size(), format, width, precision, value);
        out.append(big.data(), static_cast<std::size_t>(n));
        return;
    }
#pragma GCC diagnostic pop
    if (n > 0) {
        out.append(buffer, static_cast<std::size_t>(n));
    }
}

void append_decimal(std::string& out, unsigned long long value, const FormatSpec& spec) {
    char digits[24];
    int n = std::snprintf(digits, sizeof digits, "%llu", value);
    append_string(out, std::string_view(digits, static_cast<std::size_t>(n)), spec);
}

// The time "letter" of %a, %c and %t, which have none of their own.
constexpr char ctime_layout = '\x01';

// Nanoseconds as find prints them: nine digits and a 0.
void append_fraction(std::string& out, long nanoseconds) {
    char digits[16];
    std::snprintf(digits, sizeof digits, ".%09ld0", nanoseconds);
    out += digits;
}

void append_time(std::string& out, const struct statx_timestamp& ts, char letter) {
    time_t seconds = static_cast<time_t>(ts.tv_sec);
    if (letter == '@') {
        char digits[32];
        std::snprintf(digits, sizeof digits, "%lld", static_cast<long long>(seconds));
        out += digits;
        append_fraction(out, ts.tv_nsec);
        return;
    }
    struct tm local;
    if (!::localtime_r(&seconds, &local)) {
        return;
    }
    char buffer[256];
    auto put = [&](const char* format) {
        std::size_t n = ::strftime(buffer, sizeof buffer, format, &local);
        out.append(buffer, n);
    };
    switch (letter) {
    case '+':
        put("%Y-%m-%d+%H:%M:%S");
        append_fraction(out, ts.tv_nsec);
        return;
    case 'S':
        put("%S");
        append_fraction(out, ts.tv_nsec);
        return;
    case 'T':
    case 'X':
        put("%H:%M:%S");
        append_fraction(out, ts.tv_nsec);
        return;
    case ctime_layout:  // %a %c %t: ctime's layout, with the fraction
        put("%a %b %e %H:%M:%S");
        append_fraction(out, ts.tv_nsec);
        put(" %Y");
        return;
    default: {
        char format[3] = {'%', letter, '\0'};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        std::size_t n = ::strftime(buffer, sizeof buffer, format, &local);
#pragma GCC diagnostic pop
        out.append(buffer, n);
        return;
    }
    }
}

char type_letter(unsigned mode) {
    switch (mode & S_IFMT) {
    case S_IFREG: return 'f';
    case S_IFDIR: return 'd';
    case S_IFLNK: return 'l';
    case S_IFBLK: return 'b';
    case S_IFCHR: return 'c';
    case S_IFIFO: return 'p';
    case S_IFSOCK: return 's';
    default: return 'U';
    }
}

// %h: the path without its trailing slashes and last component ("." when
// none), except that a path of one character and slashes (".//", "a//",
// "//") loses only its last slash, as find 4.9 prints it ("./", "a/", "/").
std::string_view dir_name(std::string_view path) {
    std::string_view trimmed = path;
    while (!trimmed.empty() && trimmed.back() == '/') {
        trimmed.remove_suffix(1);
    }
    if (trimmed.size() > 1) {
        path = trimmed;
    }
    std::size_t slash = path.rfind('/');
    if (slash == std::string_view::npos) {
        return ".";
    }
    return path.substr(0, slash);
}

const struct statx_timestamp* timestamp_of(const struct statx& buf, char directive) {
    switch (directive) {
    case 'a':
    case 'A': return &buf.stx_atime;
    case 'c':
    case 'C': return &buf.stx_ctime;
    case 'B': return (buf.stx_mask & STATX_BTIME) ? &buf.stx_btime : nullptr;
    default: return &buf.stx_mtime;
    }
}

} // namespace

void mode_string(unsigned mode, char out[11]) {
    out[0] = "?pc?d?b?-?l?s???"[(mode & S_IFMT) >> 12];
    const char* rwx = "rwxrwxrwx";
    for (int i = 0; i < 9; ++i) {
        out[1 + i] = (mode & (0400u >> i)) ? rwx[i] : '-';
    }
    if (mode & S_ISUID) out[3] = (mode & S_IXUSR) ? 's' : 'S';
    if (mode & S_ISGID) out[6] = (mode & S_IXGRP) ? 's' : 'S';
    if (mode & S_ISVTX) out[9] = (mode & S_IXOTH) ? 't' : 'T';
    out[10] = '\0';
}

std::optional<Format> Format::compile(std::string_view text, std::string& error) {
    Format format;
    std::string literal;
    auto flush_literal = [&] {
        if (!literal.empty()) {
            FormatSegment segment;
            segment.text = std::move(literal);
            format.segments_.push_back(std::move(segment));
            literal.clear();
        }
    };
    std::size_t i = 0;
    while (i < text.size()) {
        char c = text[i];
        if (c == '\\') {
            ++i;
            bool stop = false;
            compile_escape(text, i, literal, stop);
            if (stop) {
                flush_literal();
                FormatSegment segment;
                segment.kind = FormatSegment::stop;
                format.segments_.push_back(std::move(segment));
                return format;  // nothing after \c is ever printed
            }
            continue;
        }
        if (c != '%') {
            literal += c;
            ++i;
            continue;
        }
        std::size_t start = i++;
        if (i >= text.size()) {
            error = "error: % at end of format string";
            return std::nullopt;
        }
        if (text[i] == '%') {
            literal += '%';
            ++i;
            continue;
        }
        FormatSegment segment;
        segment.kind = FormatSegment::directive;
        FormatSpec& spec = segment.spec;
        for (; i < text.size() && std::strchr("-+ #", text[i]); ++i) {
            switch (text[i]) {
            case '-': spec.left = true; break;
            case '+': spec.plus = true; break;
            case ' ': spec.space = true; break;
            default: spec.alternate = true; break;
            }
        }
        // find's flags are "-+ #": a 0 is where its width's digits begin
        // (printf then reads it as the flag), so "%0+10s" is the unknown
        // directive "%0+" followed by "10s".
        for (; i < text.size() && text[i] == '0'; ++i) {
            spec.zero = true;
        }
        // A width or precision above INT_MAX makes find's printf fail with
        // EOVERFLOW: the directive prints nothing, and the error is reported
        // for every file, naming the output (PrintfAction).
        bool too_large = false;
        auto add_digit = [&](int& number, char digit) {
            int value = number < 0 ? 0 : number;
            if (value > (INT_MAX - (digit - '0')) / 10) {
                too_large = true;
            } else {
                number = value * 10 + (digit - '0');
            }
        };
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            add_digit(spec.width, text[i]);
        }
        if (i < text.size() && text[i] == '.') {
            spec.precision = 0;
            for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
                add_digit(spec.precision, text[i]);
            }
        }
        if (i >= text.size()) {
            error = "error: the format directive `% ' is reserved for future use";
            return std::nullopt;
        }
        char letter = text[i++];
        if (letter == '%') {
            // find prints a `%%' with flags, width or precision as written,
            // less its last '%': "%5%" gives "%5".
            literal.append(text.substr(start, i - 1 - start));
            continue;
        }
        if (letter == '{' || letter == '[' || letter == '(') {
            error = std::string("error: the format directive `%") + letter +
                    "' is reserved for future use";
            return std::nullopt;
        }
        if (is_time_directive(letter)) {
            if (i >= text.size()) {
                report_warning(std::string("format directive `%") + letter +
                               "' should be followed by another character");
                literal.append(text.substr(start, i - start));
                continue;
            }
            segment.time_letter = text[i++];
        } else if (!is_directive(letter)) {
            report_warning(std::string("unrecognized format directive `%") + letter + "'");
            literal.append(text.substr(start, i - start));
            continue;
        }
        if (too_large) {
            format.overflows_ = true;
            continue;
        }
        segment.directive_letter = letter;
        segment.text = std::string(text.substr(start, i - start));
        format.stat_mask_ |= mask_of_directive(letter);
        flush_literal();
        format.segments_.push_back(std::move(segment));
    }
    flush_literal();
    return format;
}

void Format::render(FileFacts& facts, std::string& out, NameQuoting quoting, Output* spill) const {
    const struct statx* buf = stat_mask_ ? facts.stat() : nullptr;
    if (stat_mask_ && !buf) {
        return;
    }
    char scratch[16];
    for (const FormatSegment& segment : segments_) {
        if (segment.kind == FormatSegment::literal) {
            out += segment.text;
            continue;
        }
        if (segment.kind == FormatSegment::stop) {
            return;
        }
        // A width too wide to build (%999999999p): the directive is rendered
        // unpadded and its padding written to spill in pieces below.  Zeros
        // go between a number's sign and digits, so %0N keeps the old way.
        FormatSpec spec = segment.spec;
        bool pad_in_pieces = spill && spec.width > spill_width && !spec.zero;
        std::size_t directive_start = out.size();
        if (pad_in_pieces) {
            spec.width = -1;
        }
        std::string_view path = facts.path();
        // Names a file's owner chose: on a terminal, what it must not see
        // becomes '?', under -color $'...' (terminal_text.hpp); other
        // directives print as-is.
        auto append_name = [&](std::string_view name) {
            if (quoting != NameQuoting::raw && !is_printable(name)) {
                std::string shown;
                ufind::append_name(shown, name, quoting);
                append_string(out, shown, spec);
            } else {
                append_string(out, name, spec);
            }
        };
        switch (segment.directive_letter) {
        case 'p': append_name(path); break;
        case 'f': append_name(base_name(path)); break;
        case 'h': append_name(dir_name(path)); break;
        case 'H': append_string(out, facts.root(), spec); break;
        case 'P': {
            std::string_view rest = path.substr(std::min(path.size(), facts.root().size()));
            if (!rest.empty() && rest[0] == '/') {
                rest.remove_prefix(1);
            }
            append_name(facts.depth() == 0 ? std::string_view() : rest);
            break;
        }
        case 'd': append_number(out, spec, 'd', static_cast<long long>(facts.depth())); break;
        case 'D': append_decimal(out, makedev(buf->stx_dev_major, buf->stx_dev_minor), spec); break;
        case 's': append_decimal(out, buf->stx_size, spec); break;
        case 'b': append_decimal(out, buf->stx_blocks, spec); break;
        case 'k': append_decimal(out, (buf->stx_blocks + 1) / 2, spec); break;
        case 'S': {
            double sparseness = buf->stx_size == 0
                                    ? 1.0
                                    : static_cast<double>(buf->stx_blocks) * 512.0 /
                                          static_cast<double>(buf->stx_size);
            append_number(out, spec, 'g', sparseness);
            break;
        }
        case 'm': append_number(out, spec, 'o', static_cast<unsigned long long>(buf->stx_mode & 07777)); break;
        case 'M': {
            char mode[11];
            mode_string(buf->stx_mode, mode);
            append_string(out, mode, spec);
            break;
        }
        case 'n': append_decimal(out, buf->stx_nlink, spec); break;
        case 'i': append_decimal(out, buf->stx_ino, spec); break;
        case 'U': append_decimal(out, buf->stx_uid, spec); break;
        case 'G': append_decimal(out, buf->stx_gid, spec); break;
        case 'u':
            if (const std::string* name = user_name(buf->stx_uid)) {
                append_string(out, *name, spec);
            } else {
                append_decimal(out, buf->stx_uid, spec);
            }
            break;
        case 'g':
            if (const std::string* name = group_name(buf->stx_gid)) {
                append_string(out, *name, spec);
            } else {
                append_decimal(out, buf->stx_gid, spec);
            }
            break;
        case 'y':
            scratch[0] = facts.listed_type();
            if (scratch[0] == 0) {
                const struct statx* metadata = facts.stat();
                scratch[0] = metadata ? type_letter(metadata->stx_mode) : '?';
            }
            append_string(out, std::string_view(scratch, 1), spec);
            break;
        case 'Y':
            scratch[0] = facts.followed_type();
            append_string(out, std::string_view(scratch, 1), spec);
            break;
        case 'l':
            facts.link_target(scratch_);
            append_name(scratch_);
            break;
        case 'F':
            append_string(out, filesystem_type(buf->stx_dev_major, buf->stx_dev_minor),
                          spec);
            break;
        case 'Z':
            // No SELinux: find reports the failed lookup and prints nothing.
            report_error("getfilecon failed: '" + std::string(path) + "': No data available");
            append_string(out, "", spec);
            break;
        case 'a':
        case 'c':
        case 't':
        case 'A':
        case 'B':
        case 'C':
        case 'T': {
            const struct statx_timestamp* ts = timestamp_of(*buf, segment.directive_letter);
            scratch_.clear();
            if (ts) {
                char letter = segment.time_letter ? segment.time_letter : ctime_layout;
                append_time(scratch_, *ts, letter);
            }
            append_string(out, scratch_, spec);
            break;
        }
        default: break;
        }
        if (pad_in_pieces) {
            write_padded(*spill, out, directive_start, segment.spec);
        }
    }
}

namespace {

// FileFacts over the walk's current entry.
class WalkFacts final : public FileFacts {
public:
    explicit WalkFacts(EvalContext& context) : context_(context) {}
    std::string_view path() const override { return context_.entry->path(); }
    std::string_view root() const override { return context_.root; }
    int depth() const override { return context_.entry->depth(); }
    const struct statx* stat() override { return context_.stat(); }
    char listed_type() override {
        // In ioq_type's order, from IOQ_TYPE_UNKNOWN (0: not known).
        constexpr char letters[] = {0, 'f', 'd', 'l', 'b', 'c', 'p', 's'};
        unsigned type = context_.entry->type();
        return type < sizeof letters ? letters[type] : 0;
    }
    char followed_type() override {
        struct statx buf;
        int result = context_.walk.stat(STATX_TYPE, true, buf);
        if (result == 0 && S_ISLNK(buf.stx_mode)) {
            // Under -H/-L libioq answers a dangling link's followed stat
            // with the link itself; ask the kernel to be sure.
            result = -context_.link_target_error();
        }
        // A target through a regular file is as missing as no target.
        if (result == -ENOENT || result == -ENOTDIR) return 'N';
        if (result == -ELOOP) return 'L';
        if (result < 0) return '?';
        return type_letter(buf.stx_mode);
    }
    bool link_target(std::string& out) override {
        if (context_.entry->type() != IOQ_TYPE_SYMLINK) {
            out.clear();
            return false;
        }
        if (!read_link(context_, out)) {
            out.clear();
            return false;
        }
        return true;
    }

private:
    EvalContext& context_;
};

class PrintfAction final : public Primary {
public:
    PrintfAction(Format format, Output& output) : format_(std::move(format)), output_(output) {}
    bool evaluate(EvalContext& context) override {
        WalkFacts facts(context);
        line_.clear();
        // -color covers standard output only, as -print's colors do.
        NameQuoting quoting = &output_ == &context.out && context.display &&
                                      context.display->colors()
                                  ? NameQuoting::quoted
                              : output_.terminal() ? NameQuoting::printable
                                                   : NameQuoting::raw;
        format_.render(facts, line_, quoting, &output_);
        output_.write(line_);
        if (format_.overflows()) {
            report_error(quote_path(output_.name()) + ": " + std::strerror(EOVERFLOW));
            mark_failed();
        }
        return true;
    }
    unsigned stat_mask() const override { return format_.stat_mask(); }
    bool is_action() const override { return true; }

private:
    Format format_;
    Output& output_;
    std::string line_;  // reused for every entry
};

} // namespace

std::unique_ptr<Primary> parse_printf(ParseContext& context) {
    Output* output = &context.command.outputs->standard();
    if (context.name() == "-fprintf") {
        output = &context.command.outputs->open(context.take());
    }
    std::string error;
    std::optional<Format> format = Format::compile(context.take(), error);
    if (!format) {
        fail_usage(error);
    }
    return std::make_unique<PrintfAction>(std::move(*format), *output);
}

} // namespace ufind
