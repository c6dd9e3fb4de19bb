// A find glob (-name, -iname, -path, -wholename, -lname and their case-
// blind forms), prepared once for the thousands of names it is tried on.
//
// fnmatch(3) defines what a pattern matches, as in find; but in a UTF-8
// locale glibc's fnmatch turns the pattern and the name into wide characters
// on every call, which cost about as much as the walk itself (measured in
// 542844c).
// Most patterns are literals, or literals between stars ('Makefile', '*.c',
// 'lib*', '*~', '*/test/*'), and for those comparing bytes gives fnmatch's
// answer:
//
//   "*.c"  ->  literals {"", ".c"}:  prefix "" , suffix ".c", nothing between
//   "a*b*c" -> literals {"a", "b", "c"}: prefix "a", suffix "c", then "b"
//              leftmost in what is between (leftmost is never worse for the
//              literals after it)
//
//  - A star matches any characters.  In UTF-8 no byte of one character is
//    also a whole character or the start of one, so a literal that is valid
//    UTF-8 found at a byte offset of a valid name sits on character
//    boundaries: the byte match and the character match agree.  When the
//    name or the pattern is not valid in the locale, glibc (2.34 and later)
//    matches byte by byte, which is what is done here as well.  Other
//    multibyte encodings (GBK, Shift-JIS) reuse ASCII bytes inside
//    characters, so there fnmatch decides.
//  - Without FNM_PATHNAME and FNM_PERIOD, '/' and a leading '.' are ordinary.
//  - '?' and sets ('*.[ch]', '?akefile') are matched byte by byte too when
//    the pattern and the name are ASCII, where a character is a byte: a
//    set's classes ([:digit:]) are asked of the locale once, for the 128
//    ASCII bytes; its ranges only where collation is code point order (the
//    C locales).  Case-blind sets, a name with any byte over 127, and what
//    is rare ([=a=], [.a.], an unclosed '[') go to fnmatch.
//  - A trailing lone backslash goes to fnmatch, as does case folding for any
//    name with a byte over 127 (the Kelvin sign folds to 'k'), and in a
//    locale that folds an ASCII letter otherwise than ASCII does (Turkish
//    'I').
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ufind {

class GlobPattern {
public:
    GlobPattern() = default;
    GlobPattern(std::string text, bool fold_case);

    // subject.data()[subject.size()] must be '\0': fnmatch may read it.
    bool matches(std::string_view subject) const;

    // The pattern as given on the command line.
    const std::string& text() const { return text_; }
    // Whether matches() compares bytes rather than calling fnmatch (tests):
    // for every name (literals and stars), or for ASCII names (with '?' or
    // sets).
    bool compares_bytes() const { return compares_bytes_; }
    bool compares_ascii_names() const { return compares_ascii_; }

private:
    // One byte of a name, in a pattern with '?' or sets: a given byte, any
    // byte, or a set of ASCII bytes (bit b of the masks for byte b).
    struct Token {
        enum class Kind : unsigned char { byte, any, set } kind;
        char byte = 0;
        std::uint64_t low = 0;   // bytes 0..63
        std::uint64_t high = 0;  // bytes 64..127
        bool accepts(char c) const;
    };

    // tokens_[begin, end): the tokens between two stars.
    struct TokenRun {
        std::size_t begin;
        std::size_t end;
        std::size_t size() const { return end - begin; }
    };
    // Whether run matches the first run.size() bytes.
    bool run_matches(TokenRun run, std::string_view bytes) const;
    bool parse_tokens();
    bool parse_set(std::size_t& at, Token& set) const;

    std::string text_;
    bool fold_case_ = false;
    bool compares_bytes_ = false;
    bool has_star_ = false;  // in the literals or the tokens
    // The unescaped literals between the stars; lower case when folding.
    // Without a star, one literal that must equal the whole subject.
    std::vector<std::string> literals_;
    bool compares_ascii_ = false;
    std::vector<Token> tokens_;
    std::vector<TokenRun> token_runs_;  // one more than the stars
};

} // namespace ufind
