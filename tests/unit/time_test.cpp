// Unit tests of -newerXt date parsing (cli/date_parse.cpp), the time-window
// rules of -mtime/-mmin/-used (cli/time_tests.cpp) and "+N"/"-N"/"N"
// arguments (cli/comparison.cpp).  The windows were measured against GNU
// find 4.9 on files aged half a unit from each boundary.
#include "comparison.hpp"
#include "date_parse.hpp"
#include "time_tests.hpp"

#include <criterion/criterion.h>

#include <cstdlib>

using ufind::AgeSign;

namespace {

void setup_utc() {
    ::setenv("TZ", "UTC", 1);
    ::tzset();
}

long long seconds_of(const char* text) {
    auto date = ufind::parse_date(text);
    cr_assert(date.has_value(), "`%s' refused", text);
    return static_cast<long long>(date->tv_sec);
}

constexpr long double day = 86400;

} // namespace

Test(date, date_forms_find_accepts, .init = setup_utc) {
    cr_expect_eq(seconds_of("2001-02-03"), 981158400LL);
    cr_expect_eq(seconds_of("2001-02-03 04:05"), 981173100LL);
    cr_expect_eq(seconds_of("2001-02-03 04:05:06"), 981173106LL);
    cr_expect_eq(seconds_of("2001-02-03T04:05:06"), 981173106LL);
    cr_expect_eq(seconds_of("@981173106"), 981173106LL);
    cr_expect_eq(seconds_of("@0"), 0LL);
    cr_expect_eq(seconds_of("2001-02-03 04:05:06 UTC"), 981173106LL);
}

Test(date, date_keeps_fractions, .init = setup_utc) {
    auto date = ufind::parse_date("2001-02-03 04:05:06.5");
    cr_assert(date.has_value());
    cr_expect_eq(date->tv_nsec, 500000000L);
    date = ufind::parse_date("@981173106.25");
    cr_assert(date.has_value());
    cr_expect_eq(date->tv_nsec, 250000000L);
}

Test(date, date_refuses_garbage_and_impossible_days, .init = setup_utc) {
    for (const char* bad : {"garbage", "2001-02-30", "2001-13-01", "2001-02-03 25:00", "@",
                            "@12x", "01-02-03", ""}) {
        cr_expect(!ufind::parse_date(bad).has_value(), "`%s' accepted", bad);
    }
}

Test(time_window, mtime_drops_the_fraction_of_a_day) {
    cr_expect(ufind::age_matches(0.5L * day, AgeSign::equal, 0, day));
    cr_expect(ufind::age_matches(1.5L * day, AgeSign::equal, 1, day));
    cr_expect(!ufind::age_matches(1.5L * day, AgeSign::greater, 1, day));
    cr_expect(ufind::age_matches(2.5L * day, AgeSign::greater, 1, day));
    cr_expect(ufind::age_matches(0.5L * day, AgeSign::less, 1, day));
    cr_expect(!ufind::age_matches(1.5L * day, AgeSign::less, 1, day));
    cr_expect(!ufind::age_matches(0.5L * day, AgeSign::less, 0, day));
}

Test(time_window, mmin_rounds_up_to_whole_minutes) {
    cr_expect(ufind::age_matches(30, AgeSign::equal, 1, 60));
    cr_expect(!ufind::age_matches(30, AgeSign::equal, 0, 60));
    cr_expect(ufind::age_matches(90, AgeSign::equal, 2, 60));
    cr_expect(ufind::age_matches(30, AgeSign::greater, 0, 60));
    cr_expect(ufind::age_matches(3570, AgeSign::greater, 59, 60));
    cr_expect(ufind::age_matches(30, AgeSign::less, 1, 60));
}

Test(time_window, used_counts_days_from_change_to_access) {
    cr_expect(ufind::used_matches(0, AgeSign::equal, 1));
    cr_expect(!ufind::used_matches(0, AgeSign::equal, 0));
    cr_expect(ufind::used_matches(0.5L * day, AgeSign::equal, 1));
    cr_expect(ufind::used_matches(1.5L * day, AgeSign::equal, 2));
    cr_expect(ufind::used_matches(1.5L * day, AgeSign::greater, 1));
    cr_expect(ufind::used_matches(1.5L * day, AgeSign::less, 2));
    cr_expect(!ufind::used_matches(-0.5L * day, AgeSign::less, 3));
}

Test(comparison, comparison_signs_and_blanks_like_get_num) {
    auto greater = ufind::parse_comparison("+3");
    cr_assert(greater.has_value());
    cr_expect_eq(greater->kind, ufind::Comparison::greater);
    cr_expect_eq(greater->value, 3u);
    auto less = ufind::parse_comparison("-+2");
    cr_assert(less.has_value());
    cr_expect_eq(less->kind, ufind::Comparison::less);
    cr_expect(ufind::parse_comparison("+ 1").has_value());
    for (const char* bad : {"", "+", "x", "1x", "--1", "99999999999999999999"}) {
        cr_expect(!ufind::parse_comparison(bad).has_value(), "`%s' accepted", bad);
    }
    char suffix = 0;
    auto sized = ufind::parse_comparison("-12k", &suffix);
    cr_assert(sized.has_value());
    cr_expect_eq(suffix, 'k');
    cr_expect_eq(sized->value, 12u);
}
