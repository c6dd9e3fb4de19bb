// Unit tests of -perm's mode parsing (cli/predicates/perm.cpp) and -size's units
// (cli/predicates/metadata.hpp).  Expected bits were checked against GNU find
// 4.9's matches on files of each mode.
#include "predicates/metadata.hpp"
#include "predicates/perm.hpp"

#include <criterion/criterion.h>

#include <sys/stat.h>

using ufind::PermSpec;

namespace {

mode_t file_bits(const char* text) {
    auto spec = ufind::parse_perm_spec(text);
    cr_assert(spec.has_value(), "`%s' refused", text);
    return spec->file_bits;
}

} // namespace

Test(perm, perm_octal_is_exact) {
    auto spec = ufind::parse_perm_spec("644");
    cr_assert(spec.has_value());
    cr_expect_eq(spec->kind, PermSpec::exact);
    cr_expect(spec->matches(S_IFREG | 0644, false));
    cr_expect(!spec->matches(S_IFREG | 0755, false));
    cr_expect(!spec->matches(S_IFREG | 04644, false));
}

Test(perm, perm_dash_means_all_bits_slash_means_any) {
    auto all = ufind::parse_perm_spec("-u+w,g+r");
    cr_assert(all.has_value());
    cr_expect_eq(all->kind, PermSpec::at_least);
    cr_expect(all->matches(0640, false));
    cr_expect(!all->matches(0600, false));
    auto any = ufind::parse_perm_spec("/111");
    cr_assert(any.has_value());
    cr_expect(any->matches(0100, false));
    cr_expect(!any->matches(0644, false));
}

Test(perm, perm_any_of_no_bits_matches_everything) {
    auto any = ufind::parse_perm_spec("/000");
    cr_assert(any.has_value());
    cr_expect(any->matches(0, false));
}

Test(perm, perm_symbolic_modes_apply_to_zero) {
    cr_expect_eq(file_bits("u=rw,g=r,o=r"), 0644u);
    cr_expect_eq(file_bits("a+x"), 0111u);
    cr_expect_eq(file_bits("ug=rw,o="), 0660u);
    cr_expect_eq(file_bits("u+s"), 04000u);
    cr_expect_eq(file_bits("g+s"), 02000u);
    cr_expect_eq(file_bits("+t"), 01000u);
    cr_expect_eq(file_bits("u=rwx,g=u-w"), 0750u);
    cr_expect_eq(file_bits("u+r,g+w,o+x"), 0421u);
    cr_expect_eq(file_bits("ug+rw-x"), 0660u);
}

Test(perm, perm_capital_x_counts_only_for_directories) {
    auto spec = ufind::parse_perm_spec("-a+X");
    cr_assert(spec.has_value());
    cr_expect_eq(spec->file_bits, 0u);
    cr_expect_eq(spec->directory_bits, 0111u);
}

Test(perm, perm_refuses_what_find_refuses) {
    for (const char* bad : {"999", "u+q", "-", "/", "", "8", "u", "a=r,", ",a=r", "07777777",
                            "x+r"}) {
        cr_expect(!ufind::parse_perm_spec(bad).has_value(), "`%s' accepted", bad);
    }
}

Test(perm, apply_mode_copies_a_class) {
    auto mode = ufind::apply_mode("g=u", 0700, false);
    cr_assert(mode.has_value());
    cr_expect_eq(*mode, 0770u);
}

Test(size, size_rounds_up_to_whole_units) {
    cr_expect_eq(ufind::size_in_units(0, 512), 0u);
    cr_expect_eq(ufind::size_in_units(1, 512), 1u);
    cr_expect_eq(ufind::size_in_units(512, 512), 1u);
    cr_expect_eq(ufind::size_in_units(513, 512), 2u);
    cr_expect_eq(ufind::size_in_units(1, 1024 * 1024), 1u);
}

Test(size, size_units_are_gnus) {
    cr_expect_eq(ufind::size_unit('c'), 1u);
    cr_expect_eq(ufind::size_unit('w'), 2u);
    cr_expect_eq(ufind::size_unit('b'), 512u);
    cr_expect_eq(ufind::size_unit('\0'), 512u);
    cr_expect_eq(ufind::size_unit('k'), 1024u);
    cr_expect_eq(ufind::size_unit('M'), 1024u * 1024u);
    cr_expect_eq(ufind::size_unit('G'), 1024u * 1024u * 1024u);
    cr_expect_eq(ufind::size_unit('K'), 0u);
}
