#include "values/date_parse.hpp"

#include "values/relative_date.hpp"

#include <cctype>
#include <cstdint>

namespace ufind {
namespace {

// Reads exactly `width` digits (or at least one and at most width when
// width_is_max); false otherwise.
bool read_number(std::string_view& text, int min_digits, int max_digits, long& out) {
    int digits = 0;
    long value = 0;
    while (digits < max_digits && !text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) {
        value = value * 10 + (text[0] - '0');
        text.remove_prefix(1);
        ++digits;
    }
    out = value;
    return digits >= min_digits;
}

bool skip(std::string_view& text, char c) {
    if (!text.empty() && text[0] == c) {
        text.remove_prefix(1);
        return true;
    }
    return false;
}

// ".25" -> 250000000 nanoseconds; absent: 0.  A separator needs a digit
// after it ("10." is refused, as GNU does); digits past the ninth are left
// unread, for relative_date.cpp to round as GNU does.
long read_fraction(std::string_view& text) {
    long nanoseconds = 0;
    if (text.size() > 1 && std::isdigit(static_cast<unsigned char>(text[1])) &&
        (skip(text, '.') || skip(text, ','))) {
        long scale = 100000000;
        while (scale > 0 && !text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) {
            nanoseconds += (text[0] - '0') * scale;
            scale /= 10;
            text.remove_prefix(1);
        }
    }
    return nanoseconds;
}

std::optional<struct timespec> parse_epoch(std::string_view text) {
    bool negative = skip(text, '-');
    long seconds = 0;
    if (!read_number(text, 1, 18, seconds)) {
        return std::nullopt;
    }
    long nanoseconds = read_fraction(text);
    if (!text.empty()) {
        return std::nullopt;
    }
    struct timespec result {};
    result.tv_sec = negative ? -seconds : seconds;
    result.tv_nsec = nanoseconds;
    if (negative && nanoseconds) {
        result.tv_sec -= 1;
        result.tv_nsec = 1000000000 - nanoseconds;
    }
    return result;
}

void trim(std::string_view& text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
}

// "2024-01-31[ 13:45[:10[.25]]][ UTC]"; nullopt for anything else.
std::optional<struct timespec> parse_iso_date(std::string_view text) {
    long year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, nanoseconds = 0;
    if (!read_number(text, 4, 4, year) || !skip(text, '-') || !read_number(text, 1, 2, month) ||
        !skip(text, '-') || !read_number(text, 1, 2, day)) {
        return std::nullopt;
    }
    if (!text.empty() && (text[0] == ' ' || text[0] == 'T' || text[0] == 't')) {
        text.remove_prefix(1);
        trim(text);
        if (!read_number(text, 1, 2, hour) || !skip(text, ':') || !read_number(text, 2, 2, minute)) {
            return std::nullopt;
        }
        if (skip(text, ':')) {
            if (!read_number(text, 2, 2, second)) {
                return std::nullopt;
            }
            nanoseconds = read_fraction(text);
        }
    }
    trim(text);
    bool utc = false;
    if (text == "Z" || text == "z" || text == "UTC" || text == "GMT" || text == "UT") {
        utc = true;
    } else if (!text.empty()) {
        return std::nullopt;
    }
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 ||
        second > 60) {
        return std::nullopt;
    }
    struct tm fields {};
    fields.tm_year = static_cast<int>(year - 1900);
    fields.tm_mon = static_cast<int>(month - 1);
    fields.tm_mday = static_cast<int>(day);
    fields.tm_hour = static_cast<int>(hour);
    fields.tm_min = static_cast<int>(minute);
    fields.tm_sec = static_cast<int>(second);
    fields.tm_isdst = -1;
    time_t seconds = utc ? ::timegm(&fields) : ::mktime(&fields);
    // mktime normalises 2023-02-31 into March, 13:59:60 into 14:00, and 02:30
    // on the night summer time starts into 03:30; find refuses such dates.
    if (fields.tm_mday != day || fields.tm_mon != month - 1 || fields.tm_hour != hour ||
        fields.tm_min != minute || fields.tm_sec != second) {
        return std::nullopt;
    }
    struct timespec result {};
    result.tv_sec = seconds;
    result.tv_nsec = nanoseconds;
    return result;
}

} // namespace

std::optional<struct timespec> parse_date(std::string_view text,
                                          std::optional<struct timespec> now) {
    trim(text);
    std::optional<struct timespec> result =
        text.starts_with('@') ? parse_epoch(text.substr(1)) : parse_iso_date(text);
    if (result) {
        return result;
    }
    if (!now) {
        now.emplace();
        ::clock_gettime(CLOCK_REALTIME, &*now);
    }
    return parse_relative_date(text, *now);
}

} // namespace ufind
