// Unit tests of the -printf formatter (cli/actions/printf.cpp).
//
// Each test compiles a format and renders it for a fake file whose facts are
// fixed here, so the expected text is exact.  The expectations were taken
// from GNU find 4.9 (the oracle) on a file with the same metadata: numeric
// directives %d, %m, %S honour printf's flags; every other directive is a
// string, padded or truncated but never zero-filled; times print ten digits
// of fraction.
#include "actions/printf.hpp"

#include <criterion/criterion.h>

#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <string>

using ufind::FileFacts;
using ufind::Format;

namespace {

class FakeFacts final : public FileFacts {
public:
    FakeFacts() {
        std::memset(&buf_, 0, sizeof buf_);
        buf_.stx_mask = STATX_BASIC_STATS;
        buf_.stx_mode = S_IFREG | 0644;
        buf_.stx_size = 6;
        buf_.stx_blocks = 8;
        buf_.stx_nlink = 1;
        buf_.stx_ino = 4242;
        buf_.stx_mtime.tv_sec = 981173106;  // 2001-02-03 04:05:06 UTC
        buf_.stx_mtime.tv_nsec = 987654321;
        buf_.stx_atime.tv_sec = 1000000000;
    }
    std::string_view path() const override { return path_; }
    std::string_view root() const override { return root_; }
    int depth() const override { return depth_; }
    const struct statx* stat() override {
        ++stat_calls_;
        return stat_fails_ ? nullptr : &buf_;
    }
    char listed_type() override { return listed_; }
    char followed_type() override { return 'f'; }
    bool link_target(std::string& out) override {
        out.clear();
        return false;
    }

    std::string path_ = "./dir/file.txt";
    std::string root_ = ".";
    int depth_ = 2;
    char listed_ = 'f';
    bool stat_fails_ = false;
    int stat_calls_ = 0;
    struct statx buf_;
};

std::string render(const char* text, FakeFacts& facts) {
    std::string error;
    auto format = Format::compile(text, error);
    cr_assert(format.has_value(), "`%s' did not compile: %s", text, error.c_str());
    std::string out;
    format->render(facts, out);
    return out;
}

std::string render(const char* text) {
    FakeFacts facts;
    return render(text, facts);
}

void expect_render(const char* text, const char* expected) {
    std::string out = render(text);
    cr_expect(out == expected, "`%s' rendered `%s', want `%s'", text, out.c_str(), expected);
}

void setup_utc() {
    ::setenv("TZ", "UTC", 1);
    ::tzset();
}

} // namespace

Test(printf, printf_prints_path_name_dir_and_relative_path) {
    expect_render("%p|%f|%h|%P|%H|%d", "./dir/file.txt|file.txt|./dir|dir/file.txt|.|2");
}

Test(printf, printf_pads_left_aligned_size) {
    expect_render("[%-5s]", "[6    ]");
    expect_render("[%5s]", "[    6]");
}

Test(printf, printf_ignores_zero_flag_on_string_directives) {
    expect_render("[%05s|%+5s|% 5s]", "[    6|    6|    6]");
}

Test(printf, printf_precision_truncates_strings) {
    expect_render("[%.3p|%.1i]", "[./d|4]");
}

Test(printf, printf_depth_takes_numeric_flags) {
    expect_render("[%05d|%+3d|%.3d|%-4d]", "[00002| +2|002|2   ]");
}

Test(printf, printf_mode_is_octal_with_alternate_form) {
    expect_render("[%m|%#m|%05m|%#6m]", "[644|0644|00644|  0644]");
}

Test(printf, printf_symbolic_mode_and_type) {
    expect_render("%M %y %Y", "-rw-r--r-- f f");
}

// %y is the type the directory listed, as -type's: no metadata needed (find
// prints it in a directory it may read but not search); only a type the
// listing did not give is asked of stat.
Test(printf, printf_type_comes_from_the_listing_without_metadata) {
    FakeFacts facts;
    facts.listed_ = 'd';
    facts.stat_fails_ = true;
    cr_expect_eq(render("[%y]", facts), "[d]");
    cr_expect_eq(facts.stat_calls_, 0, "%%y asked for metadata");
    facts.listed_ = 0;
    facts.stat_fails_ = false;
    cr_expect_eq(render("[%y]", facts), "[f]");
    cr_expect_eq(facts.stat_calls_, 1);
}

// %Y and %l need the entry's metadata first, as in find: a file that cannot
// be looked at prints nothing (the caller reports why).
Test(printf, printf_followed_type_and_link_target_need_metadata) {
    for (const char* text : {"[%Y]", "[%l]"}) {
        std::string error;
        auto format = Format::compile(text, error);
        cr_assert(format.has_value());
        cr_expect_neq(format->stat_mask(), 0u, "%s needs no metadata", text);
    }
    std::string error;
    cr_expect_eq(Format::compile("[%y %p]", error)->stat_mask(), 0u);
}

Test(printf, printf_blocks_kilobytes_and_sparseness) {
    expect_render("%b %k %S", "8 4 682.667");
}

Test(printf, printf_escapes_and_octal) {
    std::string out = render("\\a\\b\\f\\r\\v\\t\\\\\\101\\0x%%");
    std::string want("\a\b\f\r\v\t\\A\0x%", 11);
    cr_expect(out == want);
}

Test(printf, printf_backslash_c_ends_the_output) {
    expect_render("before\\cafter %p", "before");
}

Test(printf, printf_times_have_ten_fraction_digits, .init = setup_utc) {
    expect_render("%T@", "981173106.9876543210");
    expect_render("%T+", "2001-02-03+04:05:06.9876543210");
    expect_render("%TS|%TT", "06.9876543210|04:05:06.9876543210");
    expect_render("%t", "Sat Feb  3 04:05:06.9876543210 2001");
    expect_render("%TY-%Tm-%Td %TH:%TM", "2001-02-03 04:05");
    expect_render("%Tc", "Sat Feb  3 04:05:06 2001");
}

Test(printf, printf_starting_point_has_empty_relative_path) {
    FakeFacts facts;
    facts.path_ = "top";
    facts.root_ = "top";
    facts.depth_ = 0;
    cr_expect(render("[%P|%H|%h|%f]", facts) == "[|top|.|top]");
}

Test(printf, printf_base_name_keeps_trailing_slashes_like_find) {
    FakeFacts facts;
    facts.path_ = "./";
    facts.root_ = "./";
    facts.depth_ = 0;
    cr_expect(render("%h|%f", facts) == ".|./");
    facts.path_ = "/";
    cr_expect(render("%h|%f", facts) == "|/");
}

Test(printf, printf_refuses_reserved_directives_and_lone_percent) {
    std::string error;
    cr_expect(!Format::compile("%{", error).has_value());
    cr_expect(error.find("reserved") != std::string::npos);
    cr_expect(!Format::compile("%[", error).has_value());
    cr_expect(!Format::compile("abc%", error).has_value());
    cr_expect(error.find("% at end") != std::string::npos);
}

Test(printf, printf_keeps_unknown_directives_literally) {
    expect_render("%q|%%", "%q|%");
}

// As GNU find 4.9 prints them: the directive as written, less its last
// '%', and no warning.
Test(printf, printf_percent_with_flags_keeps_them_as_written) {
    expect_render("[%5%|%-5%|%05%|%.3%|%#+%]", "[%5|%-5|%05|%.3|%#+]");
}

Test(printf, printf_asks_for_only_the_fields_it_prints) {
    std::string error;
    auto names_only = Format::compile("%p %f %h %d\\n", error);
    cr_assert(names_only.has_value());
    cr_expect(!names_only->needs_stat());
    auto size = Format::compile("%s", error);
    cr_assert(size.has_value());
    cr_expect((size->stat_mask() & STATX_SIZE) != 0);
    cr_expect((size->stat_mask() & STATX_MTIME) == 0);
}

Test(printf, mode_string_shows_special_bits) {
    char out[11];
    ufind::mode_string(S_IFDIR | 01777, out);
    cr_expect_str_eq(out, "drwxrwxrwt");
    ufind::mode_string(S_IFREG | 04644, out);
    cr_expect_str_eq(out, "-rwSr--r--");
    ufind::mode_string(S_IFLNK | 0777, out);
    cr_expect_str_eq(out, "lrwxrwxrwx");
}
