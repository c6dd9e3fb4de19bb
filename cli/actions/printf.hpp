// -printf and -fprintf: GNU find's format language.
//
//   compile (once, while parsing):
//     "%-10p %5s\n" --> [Directive{p, left, width 10}, Literal " ",
//                        Directive{s, width 5}, Literal "\n"]
//   render (per entry, into a reused string):
//     FileFacts (path, depth, statx, ...) --> "./a.c         42\n"
//
// What GNU does with flags, measured against find 4.9: the numeric
// directives %d (decimal), %m (octal) and %S (%g) take printf's flags as
// numbers do; every other directive, sizes and ids included, is formatted as
// a string: width and '-' pad it, a precision truncates it, and '0', '+',
// ' ', '#' change nothing.  Times print nanoseconds as ten digits, the last
// one always 0, as find does.  Unknown escapes and directives are printed
// as given, after a warning; \c ends the output of the whole format.
//
// Rendering asks FileFacts only for what the directives need, and writes
// into a string the caller keeps, so that nothing is allocated per entry
// once the string has grown.
#pragma once

#include "command/parse_context.hpp"
#include "expr/primary.hpp"
#include "output/terminal_text.hpp"

#include <linux/stat.h>
#include <sys/stat.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ufind {

class Output;

// What a format may print about one file.  The walk's version is in
// printf.cpp; unit tests supply their own.
class FileFacts {
public:
    virtual ~FileFacts() = default;
    virtual std::string_view path() const = 0;
    virtual std::string_view root() const = 0;  // the starting point it was found under
    virtual int depth() const = 0;
    // Metadata as -L/-H/-P see it; nullptr when it cannot be had.
    virtual const struct statx* stat() = 0;
    // %y: the type letter as -type sees it: the walk's, from the listing's
    // d_type, with no stat (find's %y in a directory it may read but not
    // search); 0 when the walk does not know it.
    virtual char listed_type() = 0;
    // %Y: the type letter with links followed: 'N' for a dangling link, 'L'
    // for a loop, '?' for another error.
    virtual char followed_type() = 0;
    // %l: the link's target into out; false (and out empty) for a non-link.
    virtual bool link_target(std::string& out) = 0;
};

struct FormatSpec {
    bool left = false, zero = false, plus = false, space = false, alternate = false;
    int width = -1;      // -1: none
    int precision = -1;  // -1: none
};

struct FormatSegment {
    enum Kind : unsigned char { literal, directive, stop };
    Kind kind = literal;
    std::string text;      // literal: the bytes; directive: as written, for unknown ones
    char directive_letter = 0;  // 'p', 's', 'A', ...
    char time_letter = 0;  // for %A %B %C %T: the strftime letter, '@', '+'
    FormatSpec spec;
};

class Format {
public:
    // Compiles text; reports warnings as find does; on an error returns
    // nullopt with the message in error.
    static std::optional<Format> compile(std::string_view text, std::string& error);

    // Appends the output for one file to out; quoting: how the names in
    // it are shown (terminal_text.hpp).  spill: where a directive wider than spill_width is written, with
    // what came before it, instead of building its padding in out.
    void render(FileFacts& facts, std::string& out, NameQuoting quoting = NameQuoting::raw,
                Output* spill = nullptr) const;
    static constexpr int spill_width = 64 * 1024;
    // STATX_* fields the directives need.
    unsigned stat_mask() const { return stat_mask_; }
    bool needs_stat() const { return stat_mask_ != 0; }
    // Whether a directive's width or precision is above INT_MAX, which
    // find's printf fails on (EOVERFLOW) for every file.
    bool overflows() const { return overflows_; }

private:
    std::vector<FormatSegment> segments_;
    unsigned stat_mask_ = 0;
    bool overflows_ = false;
    mutable std::string scratch_;  // a time or link target being formatted; reused
};

// ls -l's mode string: "-rw-r--r--", "drwxr-xr-x", "lrwxrwxrwx", ...
void mode_string(unsigned mode, char out[11]);

std::unique_ptr<Primary> parse_printf(ParseContext& context);

} // namespace ufind
