// Fuzz target: the dates of -newerXt (cli/values/date_parse.cpp and what it
// hands on to).
//
//   input bytes --> parse_date --> nullopt, or a timespec whose invariants
//                                  are checked below
//
// Invariants checked beyond "no crash":
//   - nanoseconds are in [0, 1e9);
//   - whatever the input, the instant it names comes back unchanged when
//     printed in the two absolute forms scripts write, "@SECONDS.NANOS" and
//     "YYYY-MM-DD HH:MM:SS.NANOS UTC" (for four-digit years), and parsed
//     again: the parser and its own output agree.
// The zone is fixed to UTC+1 with European summer time, so that local
// times go through mktime's daylight saving code too (a machine's zone is
// often plain UTC).
#include "fuzz_support.hpp"

#include "values/date_parse.hpp"

#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void check(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_date: invariant broken: %s\n", what);
        std::abort();
    }
}

// Parses text, which the parser printed itself, and checks it names when.
void check_round_trip(const char* text, const struct timespec& when) {
    std::optional<struct timespec> again = ufind::parse_date(text);
    check(again.has_value(), "a printed date parses again");
    check(again->tv_sec == when.tv_sec && again->tv_nsec == when.tv_nsec,
          "a printed date parses to the same instant");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    ufind_fuzz::add_default_flags(argc, argv, false);
    ::setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
    ::tzset();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::optional<struct timespec> when = ufind::parse_date(text);
    if (!when) {
        return 0;
    }
    check(when->tv_nsec >= 0 && when->tv_nsec < 1000000000, "nanoseconds in [0, 1e9)");

    char text_again[96];
    // {-2, 500000000} is -1.5 seconds: "@-1.5".
    long long seconds = when->tv_sec;
    long nanoseconds = when->tv_nsec;
    bool negative = seconds < 0;
    if (negative && nanoseconds) {
        seconds += 1;
        nanoseconds = 1000000000 - nanoseconds;
    }
    // The magnitude, computed without overflowing at LLONG_MIN.
    unsigned long long magnitude = negative ? static_cast<unsigned long long>(-(seconds + 1)) + 1
                                            : static_cast<unsigned long long>(seconds);
    std::snprintf(text_again, sizeof text_again, "@%s%llu.%09ld", negative ? "-" : "", magnitude,
                  nanoseconds);
    check_round_trip(text_again, *when);

    struct tm fields;
    if (::gmtime_r(&when->tv_sec, &fields) && fields.tm_year + 1900 >= 1000 &&
        fields.tm_year + 1900 <= 9999) {
        std::size_t n = ::strftime(text_again, sizeof text_again, "%Y-%m-%d %H:%M:%S", &fields);
        std::snprintf(text_again + n, sizeof text_again - n, ".%09ld UTC", when->tv_nsec);
        check_round_trip(text_again, *when);
    }
    return 0;
}
