// EntryPath: each entry's path is the directory's prefix and the entry's
// name, NUL-terminated, whatever the name's length.
#include "walk/entry_path.hpp"

#include <criterion/criterion.h>

#include <climits>
#include <memory>
#include <cstring>
#include <string>
#include <string_view>

using ioq::walk::EntryPath;

namespace {

// A name of n bytes, none of them the same as its neighbours', so that a
// copy that drops, repeats or shifts a byte shows.
std::string name_of_length(std::size_t n) {
    std::string name;
    for (std::size_t i = 0; i < n; ++i) {
        name.push_back(static_cast<char>('!' + i % 90));
    }
    return name;
}

// prefix + name, built apart from the code under test (and from operator+,
// whose inlined form GCC 12 misreads as an overlapping copy).
std::string joined(std::string_view prefix, std::string_view name) {
    std::string path(prefix);
    path.append(name);
    return path;
}

void expect_path(std::string_view got, const std::string& want) {
    cr_expect_eq(got.size(), want.size(), "length %zu, want %zu", got.size(), want.size());
    cr_expect(got == want, "path %.*s, want %s", static_cast<int>(got.size()), got.data(),
              want.c_str());
    cr_expect_eq(got.data()[got.size()], '\0', "NUL-terminated");
}

} // namespace

Test(entry_path, every_name_length_up_to_name_max_is_copied_exactly) {
    EntryPath path;
    path.set_prefix("dir/sub/");
    cr_expect_eq(path.prefix_size(), 8u);
    // From the longest down, so that a shorter name after a longer one
    // shows any byte left over from it.
    for (std::size_t n = NAME_MAX + 1; n-- > 0;) {
        std::string name = name_of_length(n);
        expect_path(path.with_name(name), joined("dir/sub/", name));
    }
}

Test(entry_path, a_name_is_read_only_within_its_own_bytes) {
    // A name that ends where a buffer ends: the copy must read no byte
    // past it (ASan reports any that does).
    EntryPath path;
    path.set_prefix("/");
    for (std::size_t n = 1; n <= 64; ++n) {
        auto bytes = std::make_unique<char[]>(n);
        std::memcpy(bytes.get(), name_of_length(n).data(), n);
        expect_path(path.with_name(std::string_view(bytes.get(), n)), joined("/", name_of_length(n)));
    }
}

Test(entry_path, a_new_prefix_replaces_the_old_and_grows_as_needed) {
    EntryPath path;
    path.set_prefix("a/");
    expect_path(path.with_name("x"), "a/x");
    std::string deep(5000, 'd');
    deep.push_back('/');
    path.set_prefix(deep);
    expect_path(path.with_name("leaf"), joined(deep, "leaf"));
    path.set_prefix("b/");
    expect_path(path.with_name("y"), "b/y");
    expect_path(path.with_name(""), "b/");
}

Test(entry_path, a_name_longer_than_name_max_gets_room_first) {
    EntryPath path;
    path.set_prefix("p/");
    std::string name = name_of_length(3 * NAME_MAX);
    expect_path(path.with_name(name), joined("p/", name));
    expect_path(path.with_name("short"), "p/short");
}

Test(entry_path, an_extended_prefix_is_the_subdirectory_s_path_at_any_depth) {
    // As a 2,000-level chain walks down: each level extends the last, and
    // the buffer grows many times on the way, the prefix kept each time.
    EntryPath path;
    path.set_prefix("/");
    std::string want = "/";
    for (std::size_t level = 0; level < 2000; ++level) {
        std::string name = name_of_length(1 + level % 40);
        path.extend_prefix(name);
        want.append(name);
        want.push_back('/');
        cr_assert_eq(path.prefix_size(), want.size(), "level %zu", level);
        expect_path(path.with_name("f"), joined(want, "f"));
    }
    // A name written after a longer one leaves no byte of it behind.
    path.set_prefix("a/");
    path.extend_prefix("b");
    expect_path(path.with_name(""), "a/b/");
}

Test(entry_path, a_shortened_prefix_is_an_ancestor_s_path_and_extends_from_there) {
    // As a depth-first walk goes back up to a sibling or an uncle: the
    // prefix is cut back to an ancestor's path, and what the longer one
    // held beyond it leaves no byte in the next path.
    EntryPath path;
    path.set_prefix("top/");
    path.extend_prefix("a-long-name");
    std::size_t at_a = path.prefix_size();
    path.extend_prefix("bb");
    path.extend_prefix(name_of_length(200));
    expect_path(path.with_name("f"), joined(joined("top/a-long-name/bb/", name_of_length(200)), "/f"));
    path.shorten_prefix(at_a);
    expect_path(path.with_name("g"), "top/a-long-name/g");
    path.extend_prefix("c");
    expect_path(path.with_name("h"), "top/a-long-name/c/h");
    path.shorten_prefix(4);
    path.extend_prefix("x");
    expect_path(path.with_name(""), "top/x/");
    path.shorten_prefix(0);
    expect_path(path.with_name("root-entry"), "root-entry");
}
