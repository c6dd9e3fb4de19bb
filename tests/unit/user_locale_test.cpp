// Unit tests of which locale categories ufind loads (cli/system/user_locale.cpp):
// every category whose variables name a locale that is not C, and none
// that would only load C again.  The environment is a table here, not the
// process's.
#include "system/user_locale.hpp"

#include <criterion/criterion.h>

#include <clocale>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

std::map<std::string, std::string> environment;

const char* lookup(const char* name) {
    auto found = environment.find(name);
    return found == environment.end() ? nullptr : found->second.c_str();
}

std::vector<int> load_with(std::map<std::string, std::string> variables) {
    environment = std::move(variables);
    ufind::LocaleCategories load = ufind::locale_categories_to_load(&lookup);
    return std::vector<int>(load.begin(), load.end());
}

const std::vector<int> all_five = {LC_CTYPE, LC_COLLATE, LC_MESSAGES, LC_TIME, LC_NUMERIC};

} // namespace

Test(user_locale, nothing_set_loads_only_the_characters) {
    cr_expect(load_with({}) == std::vector<int>{LC_CTYPE});
}

Test(user_locale, c_utf8_loads_only_the_characters) {
    cr_expect(load_with({{"LANG", "C.UTF-8"}}) == std::vector<int>{LC_CTYPE});
    cr_expect(load_with({{"LANG", "C.utf8"}}) == std::vector<int>{LC_CTYPE});
    cr_expect(load_with({{"LC_ALL", "POSIX"}}) == std::vector<int>{LC_CTYPE});
}

Test(user_locale, a_real_locale_loads_all_five) {
    cr_expect(load_with({{"LANG", "de_DE.UTF-8"}}) == all_five);
    cr_expect(load_with({{"LC_ALL", "fr_FR.UTF-8"}, {"LANG", "C.UTF-8"}}) == all_five);
}

Test(user_locale, a_category_variable_overrides_lang) {
    std::vector<int> time_only = {LC_CTYPE, LC_TIME};
    cr_expect(load_with({{"LANG", "C.UTF-8"}, {"LC_TIME", "en_GB.UTF-8"}}) == time_only);
    std::vector<int> all_but_time = {LC_CTYPE, LC_COLLATE, LC_MESSAGES, LC_NUMERIC};
    cr_expect(load_with({{"LANG", "de_DE.UTF-8"}, {"LC_TIME", "C"}}) == all_but_time);
}

Test(user_locale, lc_all_overrides_the_category_variables) {
    cr_expect(load_with({{"LC_ALL", "C.UTF-8"}, {"LC_TIME", "en_GB.UTF-8"}}) ==
              std::vector<int>{LC_CTYPE});
}

Test(user_locale, empty_variables_count_as_unset) {
    cr_expect(load_with({{"LC_ALL", ""}, {"LC_NUMERIC", ""}, {"LANG", "de_DE.UTF-8"}}) ==
              all_five);
    cr_expect(load_with({{"LC_ALL", ""}, {"LANG", ""}}) == std::vector<int>{LC_CTYPE});
}

Test(user_locale, language_loads_messages_outside_plain_c) {
    // gettext, and so strerror, follows LANGUAGE unless messages are "C".
    std::vector<int> messages = {LC_CTYPE, LC_MESSAGES};
    cr_expect(load_with({{"LANG", "C.UTF-8"}, {"LANGUAGE", "de"}}) == messages);
    cr_expect(load_with({{"LANG", "C"}, {"LANGUAGE", "de"}}) == std::vector<int>{LC_CTYPE});
    cr_expect(load_with({{"LANG", "C.UTF-8"}, {"LANGUAGE", ""}}) == std::vector<int>{LC_CTYPE});
}
