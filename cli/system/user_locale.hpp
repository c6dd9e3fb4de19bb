// The user's locale, as find takes it from the environment, loaded only
// where it can change what ufind does.
//
// ufind reads five categories: characters (globs, regexes, escaping for a
// terminal), collation (ranges in globs and regexes), messages (strerror),
// time (-ls, -printf %c) and numbers (strtod of -mtime 1.5).  LC_ALL would
// load seven more, about 35 system calls and 0.3 ms of a 2.5 ms run on an
// empty directory.  Of the five, a category whose variable names the C
// locale, POSIX or C.UTF-8 is not loaded at all: the process starts in C,
// and C.UTF-8 differs from C there only in the codeset it records, which
// only LC_CTYPE's is read for.  LC_CTYPE itself is always loaded: it is
// what makes C.UTF-8 UTF-8.  Messages are loaded for C.UTF-8 too when
// LANGUAGE is set, which gettext (and so strerror) obeys outside "C".
// With LANG=C.UTF-8, loading one category instead of five shortens every
// run (measured in 7691bdb).
//
// As with LC_ALL, a locale that cannot be loaded leaves the whole program
// in "C".
#pragma once

#include <array>
#include <cstddef>

namespace ufind {

// Looks an environment variable up: std::getenv, or a test's own.
using EnvironmentLookup = const char* (*)(const char* name);

// The categories (LC_*) that setlocale(category, "") would set to
// something other than C, of the five ufind reads, LC_CTYPE first.  A
// fixed array: this runs before main's handlers, where running out of
// memory could not be reported.
struct LocaleCategories {
    std::array<int, 5> list{};
    std::size_t count = 0;
    const int* begin() const { return list.data(); }
    const int* end() const { return list.data() + count; }
};
LocaleCategories locale_categories_to_load(EnvironmentLookup lookup);

// Whether a locale name is one of those that behave as C in every
// category but LC_CTYPE: C, POSIX, C.UTF-8 (and its spelling C.utf8).
bool names_a_c_locale(const char* name);

// Loads them from the environment.
void use_the_users_locale();

} // namespace ufind
