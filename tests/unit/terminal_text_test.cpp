// Unit tests of the terminal quoting of names (cli/output/terminal_text.cpp):
// under colors a name that could drive the terminal is shown in $'...'
// form, as bfs shows it; one that cannot passes as it is.
#include "output/terminal_text.hpp"

#include <criterion/criterion.h>

#include <clocale>
#include <string>

namespace {

std::string quoted(std::string_view name) {
    std::string out;
    ufind::append_quoted_for_terminal(out, name);
    return out;
}

void utf8_locale() { std::setlocale(LC_CTYPE, "C.UTF-8"); }

} // namespace

TestSuite(terminal_text, .init = utf8_locale);

Test(terminal_text, printable_name_passes_as_it_is) {
    cr_expect_eq(quoted("file.txt"), "file.txt");
    cr_expect_eq(quoted("it's a \\ b"), "it's a \\ b");  // no quoting unless needed
    cr_expect_eq(quoted("caf\xc3\xa9"), "caf\xc3\xa9");
}

Test(terminal_text, white_space_counts_as_printable) {
    cr_expect_eq(quoted("tab\there"), "tab\there");
    cr_expect_eq(quoted("new\nline"), "new\nline");
}

Test(terminal_text, escape_sequence_is_dollar_quoted) {
    cr_expect_eq(quoted("rainbow/\033[1m"), "$'rainbow/\\e[1m'");
    cr_expect_eq(quoted("\033]0;title\a"), "$'\\e]0;title\\a'");
}

Test(terminal_text, quotes_and_backslashes_are_escaped_inside_dollar_quotes) {
    cr_expect_eq(quoted("q'\033"), "$'q\\'\\e'");
    cr_expect_eq(quoted("b\\\033"), "$'b\\\\\\e'");
}

Test(terminal_text, white_space_stays_raw_inside_dollar_quotes) {
    cr_expect_eq(quoted("e\033\nn\tt\r"), "$'e\\e\nn\tt\r'");
}

Test(terminal_text, invalid_bytes_and_unprintable_characters_are_hex) {
    cr_expect_eq(quoted("\xff\xfe"), "$'\\xFF\\xFE'");
    cr_expect_eq(quoted("\x7f"), "$'\\x7F'");
    cr_expect_eq(quoted("\xc2\x85x"), "$'\\xC2\\x85x'");  // U+0085, a C1 control
}
