// Unit tests of LS_COLORS (cli/output/ls_colors.cpp, extension_trie.cpp):
// how a spec is read, which rule colors a file, and the extension rules'
// case and precedence, as bfs 4.1 applies them.
#include "output/ls_colors.hpp"

#include <criterion/criterion.h>

#include <sys/stat.h>

#include <string>

using ufind::ColorFacts;
using ufind::ExtensionTrie;
using ufind::LsColors;

namespace {

std::string color_of(const LsColors& colors, std::string_view name, ioq_type type = IOQ_TYPE_REGULAR,
                     unsigned mode = 0644) {
    ColorFacts facts;
    facts.mode = mode;
    LsColors::Color color = colors.color_for(type, facts, name);
    return color ? *color : std::string("(none)");
}

std::string colored(const LsColors& colors, std::string_view name) {
    std::string out;
    ColorFacts facts;
    facts.mode = 0644;
    colors.append_colored(out, colors.color_for(IOQ_TYPE_REGULAR, facts, name), name);
    return out;
}

} // namespace

Test(ls_colors, extension_matches_in_any_case) {
    LsColors colors("*.gz=01;31:");
    cr_expect_eq(color_of(colors, "a.gz"), "01;31");
    cr_expect_eq(color_of(colors, "a.GZ"), "01;31");
    cr_expect_eq(color_of(colors, "agz"), "(none)");
}

Test(ls_colors, two_cases_with_two_colors_match_each_its_own_case) {
    LsColors colors("*.gz=01;31:*.GZ=01;32:");
    cr_expect_eq(color_of(colors, "a.gz"), "01;31");
    cr_expect_eq(color_of(colors, "a.GZ"), "01;32");
    cr_expect_eq(color_of(colors, "a.Gz"), "(none)");
}

Test(ls_colors, two_cases_with_one_color_stay_case_blind) {
    LsColors colors("*.tar=01;33:*.TAR=01;33:");
    cr_expect_eq(color_of(colors, "a.TaR"), "01;33");
}

Test(ls_colors, last_matching_rule_wins_whatever_its_length) {
    LsColors longer_last("*.gz=01;33:*.tar.gz=01;31:");
    cr_expect_eq(color_of(longer_last, "a.tar.gz"), "01;31");
    cr_expect_eq(color_of(longer_last, "a.gz"), "01;33");
    LsColors shorter_last("*.tar.gz=01;31:*.gz=01;33:");
    cr_expect_eq(color_of(shorter_last, "a.tar.gz"), "01;33");
}

Test(ls_colors, extension_with_nul_is_ignored) {
    LsColors colors("*.gz=01;31:*\\0.GZ=01;32:");
    cr_expect_eq(color_of(colors, "a.GZ"), "01;31");
}

Test(ls_colors, plain_file_falls_back_to_no_when_fi_is_unset) {
    LsColors colors("no=01;92:");
    cr_expect_eq(color_of(colors, "plain"), "01;92");
    LsColors zero_file("fi=0:no=01;92:");
    cr_expect_eq(color_of(zero_file, "plain"), "(none)");
    cr_expect_eq(colored(zero_file, "plain"), "plain");
}

Test(ls_colors, zero_indicator_falls_back_to_the_next_rule) {
    LsColors colors("st=00:");
    ColorFacts facts;
    facts.mode = S_IFDIR | 01755;
    cr_expect_eq(colors.color_for(IOQ_TYPE_DIRECTORY, facts, "sticky"), colors.directory_color());
}

Test(ls_colors, escapes_in_values_are_decoded) {
    LsColors colors("lc=\\e[:rc=\\155\\::ec=^[\\x5B\\x6d:*.txt=01:");
    cr_expect_eq(colored(colors, "a.txt"), "\033[01m:a.txt\033[m");
}

Test(ls_colors, star_without_value_is_refused) {
    cr_expect_not(LsColors("*").valid());
    cr_expect_not(LsColors("di=01;34\\").valid());
    cr_expect(LsColors("*.txt=01").valid());
}

Test(ls_colors, second_spec_overrides_the_first) {
    LsColors colors("*.txt=01:", "*.txt=02:");
    cr_expect_eq(color_of(colors, "a.txt"), "02");
}

Test(ls_colors, name_is_quoted_between_the_color_codes) {
    LsColors colors("*.txt=01:");
    cr_expect_eq(colored(colors, "\033[1m.txt"), "\033[01m$'\\e[1m.txt'\033[0m");
}

Test(extension_trie, empty_extension_matches_every_name) {
    ExtensionTrie trie;
    trie.add("", "01");
    trie.finish();
    cr_assert(trie.find("anything"));
    cr_expect_eq(*trie.find("anything"), "01");
}

Test(extension_trie, no_rules_no_match) {
    ExtensionTrie trie;
    trie.finish();
    cr_expect_null(trie.find("a.c"));
}
