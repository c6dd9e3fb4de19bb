#include "system/user_locale.hpp"

#include <clocale>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <tuple>

namespace ufind {
namespace {

struct Category {
    int category;
    const char* variable;
};

// LC_CTYPE first: loaded whatever it names.
constexpr Category read_categories[] = {
    {LC_CTYPE, "LC_CTYPE"},   {LC_COLLATE, "LC_COLLATE"}, {LC_MESSAGES, "LC_MESSAGES"},
    {LC_TIME, "LC_TIME"},     {LC_NUMERIC, "LC_NUMERIC"},
};

static_assert(std::size(read_categories) == std::tuple_size_v<decltype(LocaleCategories::list)>);

bool is_set(const char* value) { return value && *value; }

// What setlocale(category, "") looks at, in POSIX's order: LC_ALL, the
// category's own variable, LANG; none set is the C locale.
const char* requested_name(const char* variable, EnvironmentLookup lookup) {
    for (const char* name : {"LC_ALL", variable, "LANG"}) {
        if (const char* value = lookup(name); is_set(value)) {
            return value;
        }
    }
    return "C";
}

} // namespace

bool names_a_c_locale(const char* name) {
    for (const char* same : {"C", "POSIX", "C.UTF-8", "C.utf8"}) {
        if (std::strcmp(name, same) == 0) {
            return true;
        }
    }
    return false;
}

LocaleCategories locale_categories_to_load(EnvironmentLookup lookup) {
    LocaleCategories load;
    for (const Category& category : read_categories) {
        const char* name = requested_name(category.variable, lookup);
        bool plain_c = std::strcmp(name, "C") == 0 || std::strcmp(name, "POSIX") == 0;
        bool needed = category.category == LC_CTYPE || !names_a_c_locale(name) ||
                      (category.category == LC_MESSAGES && !plain_c && is_set(lookup("LANGUAGE")));
        if (needed) {
            load.list[load.count++] = category.category;
        }
    }
    return load;
}

void use_the_users_locale() {
    auto getenv = [](const char* name) -> const char* { return std::getenv(name); };
    for (int category : locale_categories_to_load(getenv)) {
        if (!std::setlocale(category, "")) {
            std::setlocale(LC_ALL, "C");
            return;
        }
    }
}

} // namespace ufind
