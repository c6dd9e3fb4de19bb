// Unit tests of -newerXt date parsing (cli/values/date_parse.cpp and
// cli/values/relative_date.cpp), the time-window rules of -mtime/-mmin/-used
// (cli/predicates/time.cpp) and "+N"/"-N"/"N" arguments (cli/values/comparison.cpp).
// The windows were measured against GNU find 4.9 on files aged half a unit
// from each boundary.  Dates are compared with GNU date -d, which shares
// find's parser: run between two readings of the clock, date's answer must
// lie between parse_date's answers for those two instants (the same value
// for a date that does not depend on now).
#include "predicates/time.hpp"
#include "values/comparison.hpp"
#include "values/date_parse.hpp"
#include "values/relative_date.hpp"

#include <criterion/criterion.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

using ufind::AgeSign;

namespace {

void set_zone(const char* zone) {
    ::setenv("TZ", zone, 1);
    ::tzset();
}

void setup_utc() { set_zone("UTC"); }

// A zone with summer time: its changes are where relative days and hours
// part ways (2024-03-31 02:00 CET -> 03:00 CEST, 2024-10-27 03:00 CEST ->
// 02:00 CET).
void setup_berlin() { set_zone("Europe/Berlin"); }

std::string shell_quoted(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

// The whole output of a shell command, stderr included.
std::string output_of(const std::string& command) {
    std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    cr_assert(pipe, "popen %s", command.c_str());
    std::string output;
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) {
        output += buffer;
    }
    ::pclose(pipe);
    return output;
}

void require_gnu(const char* program) {
    if (output_of(std::string(program) + " --version").find("GNU") == std::string::npos) {
        cr_skip_test("%s is not GNU's: no oracle", program);
    }
}

// Nanoseconds since the epoch, for comparing instants in one number (enough
// for 292 years either side of 1970).
long long instant(long long seconds, long nanoseconds) {
    return seconds * 1000000000LL + nanoseconds;
}

long long instant(const struct timespec& when) { return instant(when.tv_sec, when.tv_nsec); }

struct timespec clock_now() {
    struct timespec now {};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return now;
}

// `text` read by parse_date and by GNU date -d in the zone of TZ: both
// refuse it, or date's instant lies between parse_date's for the clock
// just before and just after date ran.
void expect_same_as_gnu_date(const std::string& text) {
    struct timespec before = clock_now();
    std::string printed = output_of("date -d " + shell_quoted(text) + " +%s.%N");
    struct timespec after = clock_now();
    long long seconds = 0;
    long nanoseconds = 0;
    // "%s.%N" of -1.5 is "-2.500000000": whole seconds toward minus infinity.
    bool accepted = std::sscanf(printed.c_str(), "%lld.%ld", &seconds, &nanoseconds) == 2;
    auto early = ufind::parse_date(text, before);
    auto late = ufind::parse_date(text, after);
    if (!accepted) {
        cr_expect(!early && !late, "`%s': date refuses it (%s), ufind accepts it", text.c_str(),
                  printed.c_str());
        return;
    }
    if (!early || !late) {
        cr_expect(false, "`%s': date reads %s, ufind refuses it", text.c_str(), printed.c_str());
        return;
    }
    long long gnu = instant(seconds, nanoseconds);
    cr_expect(instant(*early) <= gnu && gnu <= instant(*late),
              "`%s': date reads %lld.%09ld, ufind %lld.%09ld", text.c_str(), seconds, nanoseconds,
              static_cast<long long>(early->tv_sec), early->tv_nsec);
}

// GNU date -d's instant for `text`, which must not depend on the clock.
struct timespec gnu_date(const std::string& text) {
    std::string printed = output_of("date -d " + shell_quoted(text) + " +%s.%N");
    long long seconds = 0;
    long nanoseconds = 0;
    cr_assert(std::sscanf(printed.c_str(), "%lld.%ld", &seconds, &nanoseconds) == 2,
              "date -d `%s': %s", text.c_str(), printed.c_str());
    struct timespec when {};
    when.tv_sec = seconds;
    when.tv_nsec = nanoseconds;
    return when;
}

// Dates of every kind, each also checked in the tests' two zones.
const char* const dates_both_accept_or_refuse[] = {
    // Relative to now, and now's clock time kept.
    "now", "today", "yesterday", "tomorrow", "2 days ago", "+2 days", "-2 days ago",
    "90 minutes ago", "30 secs", "1.5 seconds ago", "last week", "next week", "this month",
    "last year", "fortnight ago", "3 weeks ago", "2 days hence",
    // "ago" negates its own item only: one day ahead, less two hours.
    "1 day 2 hours ago",
    // A time of day or a weekday with them.
    "yesterday 13:00", "13:00 yesterday", "tomorrow 1:30pm", "5pm", "monday", "last friday",
    "next tue", "this sunday", "monday 13:00", "2 monday",
    // A signed number after a time is a zone offset: 13:00 at UTC-1, then "day".
    "13:00 -1 day", "UTC +1 day",
    // Months by name, the date's year omitted or given.
    "Jan 31", "31 Jan", "31 Jan 2024", "Jan 31 2024 13:45:10", "January 31, 2024 1:30pm",
    "31-Jan-2024", "Jan-31-2024", "jan. 31 2024", "Sep 3 2024", "Dec 25",
    // Absolute dates moved by relative items.
    "2024-01-31 +1 month", "2024-03-31 -1 month", "2024-02-29 +1 year",
    "2024-01-31 13:00 +1 day", "+1 day 2024-01-31 13:00", "20240131 +1 day",
    // Numbers alone: 2024 is 20:24 today, "" is midnight, 01-02-03 is 2001.
    "13", "2024", "", "01-02-03", "1/31/2024 13:00", "2024/1/31",
    // Zones, and what date(1) and mail headers print.
    "UTC", "2024-01-31T13:00:00+01:00", "2024-01-31 T 13:00", "2024-01-31 13:45 EST",
    "2024-07-01 12:00 CET DST", "Mon Jul  1 12:00:00 CEST 2024",
    "Wed, 31 Jan 2024 13:45:10 +0100", "2024-12-25 18:00 -0800",
    // Epoch seconds, rounded toward minus infinity past nanoseconds.
    "@ 123", "@-1.0000000001", "2024-01-31 13:45:10,25",
    // Across the changes of summer time (in Berlin): a day is not 24 hours.
    "2024-03-30 12:00 1 day", "2024-03-30 12:00 24 hours", "2024-03-31 12:00 1 day ago",
    "2024-03-31 12:00 24 hours ago", "2024-03-31 02:30 UTC", "2024-03-30 02:30 UTC 1 day",
    "2024-03-30 02:30 1 day", "2024-10-27 02:30", "2024-10-26 02:30 1 day",
    "2024-10-27 12:00 1 day ago", "2024-03-31 01:59:59 1 second", "sunday 2024-03-31",
    // Refused by both.
    "garbage", "31 Jan 13:00", "january", "yesterday ago", "2024-01-31T", "sept. 3",
    "January 31,2024", "0am", "2024-03-31 02:30", "2024-01-31 13:59:60", "@5.",
};

// Refused by GNU find (and date): ufind must refuse them too, so that
// predicates/time.cpp prints find's message.
const char* const dates_find_refuses[] = {
    "garbage", "2001-02-30", "2001-13-01", "2001-02-03 25:00", "@", "@12x", "@5.",
    "2024-01-31 13:45:10.", "2024-01-31 13:59:60", "31 Jan 13:00", "january", "yesterday ago",
    "2024-01-31T", "2024-01-31T1:00pm", "sept. 3", "January 31,2024", "0am", "UTC -1 day ago",
    "20240131 -1 day ago", "13:00 14:00", "monday tuesday", "J", "DST", "3 dayz", "in 2 days",
    "the day before", "1.5 sec 1.5 sec 1.5 sec 1.5 sec 1.5 sec",
    "2024-03-31 02:30",  // does not exist in Berlin: clocks go from 02:00 to 03:00
};

// 2024-03-31 12:00 CEST, the day summer time starts in Berlin.
constexpr time_t berlin_spring_noon = 1711879200;
// Wednesday 2024-01-31 10:00:00.25 UTC.
constexpr struct timespec wednesday_morning = {1706695200, 250000000};

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
                            "@12x", "2001-02-03 04:05:06.", "2001-02-03 13:59:60"}) {
        cr_expect(!ufind::parse_date(bad).has_value(), "`%s' accepted", bad);
    }
}

Test(date, date_matches_gnu_date_in_berlin, .init = setup_berlin) {
    require_gnu("date");
    for (const char* text : dates_both_accept_or_refuse) {
        expect_same_as_gnu_date(text);
    }
}

Test(date, date_matches_gnu_date_in_utc, .init = setup_utc) {
    require_gnu("date");
    for (const char* text : dates_both_accept_or_refuse) {
        expect_same_as_gnu_date(text);
    }
}

Test(date, date_refused_where_gnu_find_refuses, .init = setup_berlin) {
    require_gnu("find");
    char directory[] = "/tmp/ufind-time-test-XXXXXX";
    cr_assert(::mkdtemp(directory));
    for (const char* text : dates_find_refuses) {
        std::string message = output_of(std::string("LC_ALL=C find ") + directory +
                                        " -maxdepth 0 -newermt " + shell_quoted(text));
        // find 4.9 opens the quote with ' in the C locale, ufind with `.
        std::string refusal = std::string(text) + "' as a date or time";
        cr_expect(message.find("I cannot figure out how to interpret ") != std::string::npos &&
                      message.find(refusal) != std::string::npos,
                  "find on `%s': %s", text, message.c_str());
        cr_expect(!ufind::parse_date(text).has_value(), "`%s' accepted", text);
    }
    ::rmdir(directory);
}

Test(date, relative_day_keeps_clock_time_across_dst, .init = setup_berlin) {
    // 2024-03-30 12:00 CET + 1 day is 12:00 CEST: 23 hours later, where
    // 24 hours is 13:00 CEST.
    cr_expect_eq(seconds_of("2024-03-30 12:00 1 day"), 1711879200LL);
    cr_expect_eq(seconds_of("2024-03-30 12:00 24 hours"), 1711882800LL);
    // 2024-10-27 12:00 CET - 1 day is 12:00 CEST: 25 hours earlier.
    cr_expect_eq(seconds_of("2024-10-27 12:00 1 day ago"), 1729936800LL);
    cr_expect_eq(seconds_of("2024-10-27 12:00 24 hours ago"), 1729940400LL);
}

Test(date, yesterday_keeps_the_daylight_flag_of_now, .init = setup_berlin) {
    // GNU adds the day to now's broken-down time, with now's tm_isdst: at
    // noon CEST on the day summer time starts, "yesterday" is 12:00 read as
    // summer time on a winter day, 11:00 CET, 24 hours back where 12:00 CET
    // would be 23.  date -d shows it when told the zone of that noon:
    // "2024-03-31 12:00 CEST yesterday".
    struct timespec now = {berlin_spring_noon, 123};
    auto yesterday = ufind::parse_date("yesterday", now);
    cr_assert(yesterday.has_value());
    cr_expect_eq(yesterday->tv_sec, berlin_spring_noon - 24 * 3600);
    cr_expect_eq(yesterday->tv_nsec, 123L, "the nanoseconds of now stay");
    require_gnu("date");
    cr_expect_eq(yesterday->tv_sec, gnu_date("2024-03-31 12:00 CEST yesterday").tv_sec);
}

Test(date, relative_items_count_from_the_given_now, .init = setup_utc) {
    auto at = [](const char* text) {
        auto when = ufind::parse_date(text, wednesday_morning);
        cr_assert(when.has_value(), "`%s' refused", text);
        return instant(*when);
    };
    const long long now = instant(wednesday_morning);
    const long long day = instant(86400, 0);
    const long long hour = instant(3600, 0);
    cr_expect(at("now") == now);
    cr_expect(at("today") == now);
    cr_expect(at("2 days ago") == now - 2 * day);
    cr_expect(at("1 day 2 hours ago") == now + day - 2 * hour);
    cr_expect(at("1.5 seconds ago") == now - instant(1, 500000000));
    cr_expect(at("yesterday 13:00") == instant(1706706000 - 86400, 0));
    cr_expect(at("2024-01-31 +1 month") == instant(1709337600, 0), "February 31 is March 2");
}

Test(date, weekdays_move_forward_to_that_day, .init = setup_utc) {
    auto day_of = [](const char* text) {
        auto when = ufind::parse_date(text, wednesday_morning);
        cr_assert(when.has_value(), "`%s' refused", text);
        cr_expect_eq(when->tv_sec % 86400, 0, "`%s' is not at midnight", text);
        return (when->tv_sec - 1706659200) / 86400;  // days after 2024-01-31
    };
    cr_expect_eq(day_of("wednesday"), 0, "today, when today is that day");
    cr_expect_eq(day_of("monday"), 5);
    cr_expect_eq(day_of("next monday"), 5);
    cr_expect_eq(day_of("last monday"), -2);
    cr_expect_eq(day_of("next wednesday"), 7);
    cr_expect_eq(day_of("last wednesday"), -7);
    cr_expect_eq(day_of("thu"), 1);
}

Test(date, iso_dates_read_the_same_on_both_paths, .init = setup_berlin) {
    // parse_date reads these directly; relative_date.cpp must agree.
    for (const char* text : {"2024-01-31", "2024-01-31 13:45", "2024-07-01T13:45:10.25",
                             "2024-10-27 02:30", "2024-03-31 02:30 UTC", "@981173106.25",
                             "@-1.5"}) {
        auto direct = ufind::parse_date(text);
        auto general = ufind::parse_relative_date(text, clock_now());
        cr_assert(direct.has_value() && general.has_value(), "`%s' refused", text);
        cr_expect(instant(*direct) == instant(*general), "`%s' read two ways", text);
    }
}

Test(date, tz_prefix_is_refused_knowingly, .init = setup_utc) {
    // GNU accepts TZ="Zone" before a date; reading it would mean switching
    // the process's zone while parsing.  Refused, with find's message.
    cr_expect(!ufind::parse_date("TZ=\"Europe/Berlin\" 2024-01-31").has_value());
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
