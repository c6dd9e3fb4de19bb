// Unit tests of estimate_regex_size and fits_regex_compiler
// (cli/values/regex_size.cpp): the syntax bits decide what is an operator, the
// estimate grows as glibc's automaton does, the patterns measured to take
// seconds, gigabytes or the whole stack are refused, and the patterns
// people write, or that sit just inside a bound, are let through and then
// really do compile.
#include "values/regex_size.hpp"

#include <criterion/criterion.h>

#include <regex.h>

#include <cstring>
#include <string>
#include <vector>

using ufind::estimate_regex_size;
using ufind::fits_regex_compiler;
using ufind::RegexSize;

namespace {

// The syntaxes of -regextype (cli/predicates/regex.cpp's table).
constexpr int findutils_default = RE_SYNTAX_EMACS | RE_DOT_NEWLINE;
constexpr int extended = RE_SYNTAX_POSIX_EXTENDED;
constexpr int basic = RE_SYNTAX_POSIX_BASIC;
constexpr int awk = RE_SYNTAX_AWK;
constexpr int minimal_basic = RE_SYNTAX_POSIX_MINIMAL_BASIC;

std::string repeated(const std::string& piece, int times) {
    std::string text;
    for (int i = 0; i < times; ++i) {
        text += piece;
    }
    return text;
}

bool fits(const std::string& pattern, int syntax) {
    return fits_regex_compiler(estimate_regex_size(pattern, syntax));
}

// glibc's verdict, as cli/predicates/regex.cpp asks for it.
const char* glibc_error(const std::string& pattern, int syntax) {
    struct re_pattern_buffer buffer;
    std::memset(&buffer, 0, sizeof buffer);
    buffer.no_sub = 1;
    ::re_set_syntax(static_cast<reg_syntax_t>(syntax));
    const char* error = ::re_compile_pattern(pattern.data(), pattern.size(), &buffer);
    ::regfree(&buffer);
    return error;
}

} // namespace

Test(regex_size, intervals_multiply_their_operand_and_nest) {
    RegexSize once = estimate_regex_size("abc", extended);
    RegexSize counted = estimate_regex_size("(abc){300}", extended);
    cr_expect_geq(counted.nodes, 300 * 3, "nodes %llu", (unsigned long long)counted.nodes);
    cr_expect_lt(once.nodes, 10u);
    cr_expect_eq(counted.epsilons, 0u, "mandatory copies are read, not skipped");

    RegexSize optional = estimate_regex_size("a{1,10}", extended);
    cr_expect_geq(optional.epsilons, 9u, "nine optional copies");
    RegexSize nested = estimate_regex_size("(a{1,10}){1,10}", extended);
    cr_expect_geq(nested.epsilons, 10u * 9 + 9, "epsilons %llu",
                  (unsigned long long)nested.epsilons);
    RegexSize unbounded = estimate_regex_size("(ab){4,}", extended);
    cr_expect_geq(unbounded.nodes, 5u * 2, "four copies and a starred one");
}

Test(regex_size, the_syntax_decides_what_is_an_operator) {
    // Intervals: findutils-default has none, POSIX extended spells them
    // {}, POSIX basic \{\}.
    const std::string braces = "a{1,30000}";
    const std::string backslashed = "a\\{1,30000\\}";
    cr_expect(fits(braces, findutils_default), "literal braces in findutils-default");
    cr_expect(!fits(braces, extended));
    cr_expect(fits(braces, basic), "literal braces in posix-basic");
    cr_expect(!fits(backslashed, basic));
    cr_expect(fits(backslashed, extended), "\\{ is a literal brace in posix-extended");

    // Groups: ( in extended and awk, \( in basic and findutils-default.
    cr_expect_eq(estimate_regex_size("((a))", extended).depth, 2u);
    cr_expect_eq(estimate_regex_size("((a))", awk).depth, 2u);
    cr_expect_eq(estimate_regex_size("((a))", basic).depth, 0u);
    cr_expect_eq(estimate_regex_size("\\(\\(a\\)\\)", basic).depth, 2u);
    cr_expect_eq(estimate_regex_size("\\(\\(a\\)\\)", findutils_default).depth, 2u);
    cr_expect_eq(estimate_regex_size("\\(\\(a\\)\\)", extended).depth, 0u);

    // Alternation: | in extended; \| in findutils-default and (a GNU
    // extension) posix-basic; neither in posix-minimal-basic.
    cr_expect_geq(estimate_regex_size("a|b|c", extended).epsilons, 2u);
    cr_expect_eq(estimate_regex_size("a|b|c", findutils_default).epsilons, 0u);
    cr_expect_geq(estimate_regex_size("a\\|b\\|c", findutils_default).epsilons, 2u);
    cr_expect_geq(estimate_regex_size("a\\|b\\|c", basic).epsilons, 2u);
    cr_expect_eq(estimate_regex_size("a\\|b\\|c", minimal_basic).epsilons, 0u);
    cr_expect_eq(estimate_regex_size("a|b|c", minimal_basic).epsilons, 0u);

    // + and ?: operators in extended, literal in basic.
    cr_expect_eq(estimate_regex_size("a+b?", basic).epsilons, 0u);
    cr_expect_geq(estimate_regex_size("a+b?", extended).epsilons, 2u);
}

Test(regex_size, bracket_expressions_hide_operators) {
    const char* lists[] = {
        "[(|*{]",        // plain members
        "[]()]",         // a leading ] is a member
        "[^]()]",
        "[[:alpha:](]",  // a class, then a member
        "[[.(.]]",       // a collating symbol
        "[[=(=]]",       // an equivalence class
    };
    for (const char* list : lists) {
        RegexSize size = estimate_regex_size(list, extended);
        cr_expect_eq(size.depth, 0u, "%s: depth %llu", list, (unsigned long long)size.depth);
        cr_expect_eq(size.epsilons, 0u, "%s: epsilons %llu", list,
                     (unsigned long long)size.epsilons);
        cr_expect_eq(glibc_error(list, extended), nullptr, "%s is valid", list);
    }
    // After the list, operators are operators again.
    cr_expect_eq(estimate_regex_size("[]*]*", extended).epsilons, 1u);
    cr_expect_eq(estimate_regex_size("[)](a)", extended).depth, 1u);
    // awk lets a backslash escape the closing bracket; POSIX does not.
    cr_expect_eq(estimate_regex_size("[\\]](a)", awk).depth, 1u);
    cr_expect_eq(estimate_regex_size("[\\](a)]", awk).depth, 0u);
}

Test(regex_size, loops_over_what_can_match_nothing_are_counted) {
    cr_expect_eq(estimate_regex_size("(a*)*", extended).empty_loops, 1u);
    cr_expect_eq(estimate_regex_size("(a|)+", extended).empty_loops, 1u);
    cr_expect_eq(estimate_regex_size("a**", extended).empty_loops, 1u);
    cr_expect_geq(estimate_regex_size("(a?){2,}", extended).empty_loops, 1u);
    cr_expect_eq(estimate_regex_size("^*", extended).empty_loops, 1u, "an anchor matches nothing");
    cr_expect_eq(estimate_regex_size("(ab*)*", extended).empty_loops, 0u);
    cr_expect_eq(estimate_regex_size("(a|b)*", extended).empty_loops, 0u);
    cr_expect_eq(estimate_regex_size("a*b*", extended).empty_loops, 0u);
    cr_expect_eq(estimate_regex_size("(a*){3}", extended).empty_loops, 0u,
                 "a bounded count has no loop");
    cr_expect_eq(estimate_regex_size("(a*b)*", extended).empty_loops, 0u);
}

// Each of these took seconds and gigabytes, or crashed, in glibc on this
// machine (regex_size.hpp lists the figures).
Test(regex_size, patterns_that_exhaust_glibc_are_refused) {
    const std::string patterns[] = {
        ".{1,8000}",
        "(((a|){1,14}){1,14}){1,14}",
        "((a*){1,100}){1,100}",
        "((a*){1,200}){1,200}",
        repeated("(a*)*", 1000),
        repeated("(", 30000) + "a" + repeated(")", 30000),
        repeated("a|", 30000) + "a",
        ".{1,32767}",
        "(.{1,1000}){1,1000}",
        "((((((((((a{0,9}){0,9}){0,9}){0,9}){0,9}){0,9}){0,9}){0,9}){0,9}){0,9})",
    };
    for (const std::string& pattern : patterns) {
        RegexSize size = estimate_regex_size(pattern, extended);
        cr_expect(!fits_regex_compiler(size),
                  "%.40s... (%zu bytes): nodes %llu, epsilons %llu, loops %llu, depth %llu",
                  pattern.c_str(), pattern.size(), (unsigned long long)size.nodes,
                  (unsigned long long)size.epsilons, (unsigned long long)size.empty_loops,
                  (unsigned long long)size.depth);
    }
    // The same shapes in the syntaxes that spell them with backslashes.
    cr_expect(!fits("\\(\\(a*\\)\\{1,100\\}\\)\\{1,100\\}", basic));
    cr_expect(!fits(repeated("\\(a*\\)*", 1000), findutils_default));
    cr_expect(!fits(repeated("\\(", 30000) + "a" + repeated("\\)", 30000), findutils_default));
    cr_expect(!fits(repeated("a\\|", 30000) + "a", findutils_default));
}

Test(regex_size, patterns_people_write_fit_and_compile) {
    struct Case {
        std::string pattern;
        int syntax;
    };
    const Case cases[] = {
        {".*\\.c", findutils_default},
        {".*/\\(src\\|include\\)/.*\\.[ch]", findutils_default},
        {".*/[a-z]+/[0-9]{1,3}\\.(txt|log)", extended},
        {"(.*/)?[^/]+\\.(c|h|cpp|hpp|cc)", extended},
        {"^\\./[^/]*/[^/]*$", extended},
        {".*/[0-9]\\{4\\}-[0-9]\\{2\\}-[0-9]\\{2\\}\\.log", basic},
        {"([0-9]{1,3}\\.){3}[0-9]{1,3}", extended},
        {".{0,255}", extended},
        {"(.*/){20,}.*", extended},
        {"./" + repeated("directory/", 409), findutils_default},  // a PATH_MAX-long path
        {repeated("x", 131072), extended},                      // one argument's limit
        {repeated("(a|b)*", 1000), extended},
    };
    for (const Case& c : cases) {
        RegexSize size = estimate_regex_size(c.pattern, c.syntax);
        cr_expect(fits_regex_compiler(size),
                  "%.60s (%zu bytes): nodes %llu, epsilons %llu, loops %llu, depth %llu",
                  c.pattern.c_str(), c.pattern.size(), (unsigned long long)size.nodes,
                  (unsigned long long)size.epsilons, (unsigned long long)size.empty_loops,
                  (unsigned long long)size.depth);
        cr_expect_eq(glibc_error(c.pattern, c.syntax), nullptr, "%.60s compiles",
                     c.pattern.c_str());
    }
}

// Just inside each bound, glibc must still return: a crash or a runaway
// compile here fails the test (the suite's timeout catches the second).
Test(regex_size, patterns_at_the_bounds_fit_and_compile) {
    const std::string patterns[] = {
        repeated("(", 1000) + "a" + repeated(")", 1000),
        repeated("a?", 2800),
        repeated("(a*)*", 120),
        "(abc){30000}",
        ".{1,2800}",
        "(((a|){1,9}){1,9}){1,9}",
    };
    for (const std::string& pattern : patterns) {
        cr_expect(fits(pattern, extended), "%.40s... (%zu bytes) fits", pattern.c_str(),
                  pattern.size());
        cr_expect_eq(glibc_error(pattern, extended), nullptr, "%.40s... compiles",
                     pattern.c_str());
    }
    cr_expect(!fits(repeated("(", 1001) + "a" + repeated(")", 1001), extended),
              "one group deeper is refused");
    cr_expect(!fits(repeated("a?", 2900), extended));
    cr_expect(!fits(repeated("(a*)*", 130), extended));
}

// Malformed patterns are glibc's to report; the estimate only has to come
// back without reading past the end.
Test(regex_size, malformed_patterns_are_measured_without_harm) {
    const char* patterns[] = {
        "", "\\", "a\\", "[", "[^", "[]", "[[:", "[[:alpha:", "(((", ")))", "a{", "a{1",
        "a{1,", "a{,", "a{,}", "a{}", "{1}", "*", "+a", "a{99999999999999999999}",
        "a{3,1}", "(|)", "()", "|",
    };
    for (int syntax : {findutils_default, extended, basic, awk, minimal_basic}) {
        for (const char* pattern : patterns) {
            RegexSize size = estimate_regex_size(pattern, syntax);
            cr_expect_leq(size.depth, 3u, "%s", pattern);
        }
    }
    cr_expect(!fits("a{99999999999999999999}", extended), "a huge count saturates, never wraps");
    cr_expect(!fits("a\\{1,99999999999\\}", basic));
}
