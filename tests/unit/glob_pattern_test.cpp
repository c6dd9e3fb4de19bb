// Unit tests of GlobPattern (cli/values/glob_pattern.cpp): whatever way it takes,
// its answer is fnmatch(3)'s, the function GNU find calls, in the C locale
// and in C.UTF-8, for case-sensitive and case-blind patterns, on names that
// are valid UTF-8 and names that are not.
#include "values/glob_pattern.hpp"

#include <criterion/criterion.h>

#include <fnmatch.h>

#include <clocale>
#include <cstdint>
#include <string>
#include <vector>

using ufind::GlobPattern;

namespace {

bool fnmatch_says(const std::string& pattern, const std::string& subject, bool fold_case) {
    return ::fnmatch(pattern.c_str(), subject.c_str(), fold_case ? FNM_CASEFOLD : 0) == 0;
}

void expect_as_fnmatch(const std::string& pattern, const std::string& subject, bool fold_case) {
    GlobPattern glob(pattern, fold_case);
    cr_expect_eq(glob.matches(subject), fnmatch_says(pattern, subject, fold_case),
                 "pattern `%s' on `%s' (fold %d, locale %s): fnmatch says %d", pattern.c_str(),
                 subject.c_str(), fold_case, std::setlocale(LC_CTYPE, nullptr),
                 fnmatch_says(pattern, subject, fold_case));
}

// Deterministic pseudo-random numbers (xorshift), so a failure repeats.
struct Random {
    std::uint64_t state;
    std::size_t below(std::size_t n) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return static_cast<std::size_t>(state % n);
    }
};

// Pieces from which patterns and names are built: the bytes a star must
// step over (a two-byte character, a lone lead byte, a stray continuation
// byte, 0xff), letters in both cases, and the Kelvin sign, which towlower
// folds to 'k'.
const std::vector<std::string> name_pieces = {
    "a", "b", "k", "A", "K", ".", "c", "/", "\xc3\xa9", "\xc3", "\xa9", "\xff", "\xe2\x84\xaa",
};
const std::vector<std::string> pattern_pieces = {
    "a", "b", "k", "A", "K", ".", "c", "/", "\xc3\xa9", "\xc3", "\xa9", "\xff",
    "*", "*", "*", "\\*", "\\a", "?", "?", "[ab]", "\\",
    "[!a]", "[^b.]", "[a-c]", "[]a]", "[!]]", "[[:upper:]]", "[[:digit:]k]", "[a-]",
    "[-b]", "[", "]", "[\\]a]", "[z-a]", "[[:nope:]]", "[[=a=]]", "[a\\-c]", "[[]",
    "[[:alpha:]-z]", "[!/]",
};

std::string random_text(Random& random, const std::vector<std::string>& pieces,
                        std::size_t max_pieces) {
    std::string text;
    std::size_t count = random.below(max_pieces + 1);
    for (std::size_t i = 0; i < count; ++i) {
        text.append(pieces[random.below(pieces.size())]);
    }
    return text;
}

void agree_with_fnmatch_on_random_pairs(const char* locale) {
    cr_assert_not_null(std::setlocale(LC_ALL, locale), "locale %s is not installed", locale);
    Random random{0x9e3779b97f4a7c15u};
    for (int i = 0; i < 40000; ++i) {
        std::string pattern = random_text(random, pattern_pieces, 5);
        std::string subject = random_text(random, name_pieces, 6);
        expect_as_fnmatch(pattern, subject, i % 2 == 1);
    }
}

void agree_with_fnmatch_on_chosen_pairs(const char* locale) {
    cr_assert_not_null(std::setlocale(LC_ALL, locale), "locale %s is not installed", locale);
    const std::vector<std::string> patterns = {
        "", "*", "**", "Makefile", "*.c", "*.C", "lib*", "*fs*", "a*b*c", "*a*a*", "a*a",
        "\\*.c", "a\\*", "\\a\\b", "*/test/*", "caf\xc3\xa9", "*\xc3\xa9", "*\xa9", "\xc3*",
        "KCONFIG", "kconfig*", "ab\\", "?akefile", "[Mm]akefile", "*.[ch]", "*.[!ch]",
        "[!.]*", "file[[:digit:]]", "[a-c]*", "??", "*?", "?*?", "[]x]*", "[unclosed",
        "*[[:upper:]]*", "\\[a\\]", "*\\?",
    };
    const std::vector<std::string> subjects = {
        "", "a", "aa", "aba", "abc", "aXbYc", "acb", "Makefile", "makefile", "MAKEFILE",
        "main.c", "main.C", ".c", "c", "libfoo", "lib", "procfs", "fs", "*.c", "a*", "ab",
        "ab\\", "src/test/x", "test/x", "caf\xc3\xa9", "CAF\xc3\xa9", "\xc3\xa9", "\xa9", "\xc3",
        "a\xff" "b.c", "Kconfig", "\xe2\x84\xaa" "config", "main.h", "main.o", "file7",
        "file", "[a]", "[unclosed", "]x", "x?", "\xc3\xa9.c",
    };
    for (const std::string& pattern : patterns) {
        for (const std::string& subject : subjects) {
            expect_as_fnmatch(pattern, subject, false);
            expect_as_fnmatch(pattern, subject, true);
        }
    }
}

} // namespace

Test(glob_pattern, agrees_with_fnmatch_in_utf8_on_chosen_names) {
    agree_with_fnmatch_on_chosen_pairs("C.UTF-8");
}

Test(glob_pattern, agrees_with_fnmatch_in_the_c_locale_on_chosen_names) {
    agree_with_fnmatch_on_chosen_pairs("C");
}

Test(glob_pattern, agrees_with_fnmatch_in_utf8_on_random_names) {
    agree_with_fnmatch_on_random_pairs("C.UTF-8");
}

Test(glob_pattern, agrees_with_fnmatch_in_the_c_locale_on_random_names) {
    agree_with_fnmatch_on_random_pairs("C");
}

// The speed comes from not calling fnmatch: literals and stars compare
// bytes, and so do '?' and sets on ASCII names; what only fnmatch knows
// (folding beyond ASCII, case-blind sets, [=a=]) goes to it.
Test(glob_pattern, literals_and_stars_compare_bytes) {
    cr_assert_not_null(std::setlocale(LC_ALL, "C.UTF-8"));
    for (const char* text : {"procfs-i8k", "*.c", "lib*", "*fs*", "a*b*c", "\\*x", "caf\xc3\xa9"}) {
        cr_expect(GlobPattern(text, false).compares_bytes(), "`%s'", text);
    }
    cr_expect(GlobPattern("*.C", true).compares_bytes());
    for (const char* text : {"?akefile", "[Mm]akefile", "ab\\"}) {
        cr_expect(!GlobPattern(text, false).compares_bytes(), "`%s'", text);
    }
    // One character and sets: byte by byte for ASCII names.
    for (const char* text : {"?akefile", "[Mm]akefile", "*.[ch]", "[!.]*", "f[[:digit:]]"}) {
        cr_expect(GlobPattern(text, false).compares_ascii_names(), "`%s'", text);
    }
    for (const char* text : {"[unclosed", "[[=a=]]", "caf\xc3\xa9?"}) {
        cr_expect(!GlobPattern(text, false).compares_ascii_names(), "`%s'", text);
    }
    cr_expect(!GlobPattern("*.[ch]", true).compares_ascii_names());
    // Case folding of a non-ASCII pattern is the locale's business.
    cr_expect(!GlobPattern("caf\xc3\xa9", true).compares_bytes());
}
