// Dates in words and dates relative to now: GNU's date grammar for -newerXt.
//
// find -newermt and date -d share one parser (gnulib's parse_datetime), and
// people paste into find what date accepts: "yesterday", "2 days ago", "last
// friday", "Jan 31 2024 13:00", the output of date itself.  So this follows
// that grammar to the letter, quirks included, and the unit tests compare it
// with date(1) (tests/unit/time_test.cpp).  A text is "@SECONDS" alone, or
// items in any order, case-insensitive:
//   date      2024-01-31, 1/31[/2024], 2024/1/31, 31 Jan [2024], Jan 31[, 2024],
//             31-Jan-2024, 20240131
//   time      13:45[:10[.25]], 1:30pm, 5pm, each with an offset "+01:00";
//             2024-01-31T13:45 joins a date and a time
//   weekday   monday, mon, last friday, next tue, 2 monday
//   zone      UTC, GMT, Z, EST, CEST, the local zone's names, UTC+2, EST DST
//   relative  [+|-]N unit [ago], last/this/next unit, yesterday, today, now,
//             tomorrow; units year, month, fortnight, week, day, hour,
//             minute/min, second/sec, plural or not
//   number    2024 (the year after a date, else a time: HH or HHMM)
// The quirks a reader may trip on:
//   - a signed number right after a time of day is a zone offset:
//     "13:00 -1 day" is 13:00 at UTC-1, plus one day ("day" alone is +1);
//   - "ago" negates only the item it follows: "1 day 2 hours ago" is one day
//     ahead, less two hours;
//   - "31 Jan 13:00" is refused: the 13 is taken for the year, then ":00"
//     cannot follow;
//   - a bare number is a time or a year by context: "2024" alone is 20:24
//     today, "Jan 31 2024" has 2024 as the year; "" is today's midnight.
// Not implemented, and refused: a leading TZ="Zone" (it would mean switching
// the process's time zone while parsing).
//
//   text --Lexer--> tokens --ItemParser--> DateItems --resolve(now)--> timespec
//
// The lexer turns words into tokens through GNU's tables: month and day
// names (or their first three letters), units, "ago", ordinals, zone names
// (among them the local zone's own abbreviations, CET and CEST in Berlin).
// The parser reads items in any order, each recording what it gave: a date,
// a time of day, a weekday, a zone, relative amounts; a second date or time
// is refused.  Where GNU's LALR parser must choose between two readings it
// shifts, and so does ItemParser, taking the longer item; comments mark
// these places.  resolve() starts from now's local date and time, replaces
// what the items gave, and then, in GNU's order:
//   1. mktime of that date and time.  The clock time of now stays only when
//      there are relative items and no date or weekday: "yesterday" keeps it,
//      "monday" and "2024-01-31" mean midnight.  A date or time that mktime
//      has to move (February 30, 02:30 on the night summer time starts) is
//      refused, as GNU does;
//   2. a weekday moves forward to that day, "last"/"next" by weeks;
//   3. relative years, months and days are added to the broken-down date and
//      mktime renormalises it: "+1 day" keeps the clock time across a change
//      of summer time instead of adding 86400 s, "2024-01-31 +1 month" is
//      March 2;
//   4. an explicit zone moves the result by its offset from local time;
//   5. relative hours, minutes and seconds are added as seconds.
#include "values/relative_date.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ufind {
namespace {

using Int = std::int64_t;

constexpr Int billion = 1000000000;
constexpr Int hour_seconds = 3600;

// ASCII classes, as GNU's lexer uses them, whatever the locale.
bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char to_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

enum class Kind {
    end,
    unsigned_number,   // "31"
    signed_number,     // "-01", "+ 2": the sign makes it one
    unsigned_decimal,  // "10.25" (or "10,25")
    signed_decimal,    // "-1.5"
    meridian,          // AM, PM: value Meridian
    month,             // value 1..12
    weekday,           // value 0 (Sunday)..6
    unit,              // YEAR, WEEK, ...: value how many of `unit` (a week is 7 days)
    day_shift,         // TOMORROW +1, YESTERDAY -1, TODAY and NOW 0
    ordinal,           // LAST -1, THIS 0, NEXT and FIRST 1, THIRD 3 .. TWELFTH 12
    ago,               // AGO -1, HENCE +1
    zone,              // UTC, EST, military letters: value seconds east of UTC
    daylight_zone,     // EDT, CEST: value the standard time's seconds east of UTC
    local_zone,        // an abbreviation of the local zone: value its tm_isdst
    dst,               // DST
    letter_t,          // T: the ISO date-time separator, or the military zone UTC-7
    punctuation,       // ':', ',', '/', '@' and anything else: value the character
};

enum class Unit { year, month, day, hour, minute, second };
enum Meridian : int { am, pm, h24 };

struct Token {
    Kind kind = Kind::end;
    Int value = 0;
    int digits = 0;            // numbers: how many digits were written
    bool negative = false;     // numbers: written with '-'
    struct timespec decimal {};  // decimals, nanoseconds in [0, 1e9)
    Unit unit = Unit::second;
};

struct Word {
    std::string_view name;
    Kind kind;
    Int value;
    Unit unit = Unit::second;
};

// Months and weekdays match in full or by their first three letters.
constexpr auto month_and_day_names = std::to_array<Word>({
    {"JANUARY", Kind::month, 1}, {"FEBRUARY", Kind::month, 2}, {"MARCH", Kind::month, 3},
    {"APRIL", Kind::month, 4}, {"MAY", Kind::month, 5}, {"JUNE", Kind::month, 6},
    {"JULY", Kind::month, 7}, {"AUGUST", Kind::month, 8}, {"SEPTEMBER", Kind::month, 9},
    {"SEPT", Kind::month, 9}, {"OCTOBER", Kind::month, 10}, {"NOVEMBER", Kind::month, 11},
    {"DECEMBER", Kind::month, 12}, {"SUNDAY", Kind::weekday, 0}, {"MONDAY", Kind::weekday, 1},
    {"TUESDAY", Kind::weekday, 2}, {"TUES", Kind::weekday, 2}, {"WEDNESDAY", Kind::weekday, 3},
    {"WEDNES", Kind::weekday, 3}, {"THURSDAY", Kind::weekday, 4}, {"THUR", Kind::weekday, 4},
    {"THURS", Kind::weekday, 4}, {"FRIDAY", Kind::weekday, 5}, {"SATURDAY", Kind::weekday, 6},
});

// Units also match with a plural 's'.
constexpr auto unit_names = std::to_array<Word>({
    {"YEAR", Kind::unit, 1, Unit::year}, {"MONTH", Kind::unit, 1, Unit::month},
    {"FORTNIGHT", Kind::unit, 14, Unit::day}, {"WEEK", Kind::unit, 7, Unit::day},
    {"DAY", Kind::unit, 1, Unit::day}, {"HOUR", Kind::unit, 1, Unit::hour},
    {"MINUTE", Kind::unit, 1, Unit::minute}, {"MIN", Kind::unit, 1, Unit::minute},
    {"SECOND", Kind::unit, 1, Unit::second}, {"SEC", Kind::unit, 1, Unit::second},
});

// "SECOND" is a unit, never the ordinal.
constexpr auto relative_words = std::to_array<Word>({
    {"TOMORROW", Kind::day_shift, 1}, {"YESTERDAY", Kind::day_shift, -1},
    {"TODAY", Kind::day_shift, 0}, {"NOW", Kind::day_shift, 0},
    {"LAST", Kind::ordinal, -1}, {"THIS", Kind::ordinal, 0}, {"NEXT", Kind::ordinal, 1},
    {"FIRST", Kind::ordinal, 1}, {"THIRD", Kind::ordinal, 3}, {"FOURTH", Kind::ordinal, 4},
    {"FIFTH", Kind::ordinal, 5}, {"SIXTH", Kind::ordinal, 6}, {"SEVENTH", Kind::ordinal, 7},
    {"EIGHTH", Kind::ordinal, 8}, {"NINTH", Kind::ordinal, 9}, {"TENTH", Kind::ordinal, 10},
    {"ELEVENTH", Kind::ordinal, 11}, {"TWELFTH", Kind::ordinal, 12},
    {"AGO", Kind::ago, -1}, {"HENCE", Kind::ago, 1},
});

// Valid even where they contradict the local zone ("GMT" in a London summer).
constexpr auto universal_zones = std::to_array<Word>({
    {"GMT", Kind::zone, 0}, {"UT", Kind::zone, 0}, {"UTC", Kind::zone, 0},
});

// GNU's table, ambiguities and all ("IST" is India's); the local zone's own
// abbreviations take precedence over it.
constexpr auto named_zones = std::to_array<Word>({
    {"WET", Kind::zone, 0}, {"WEST", Kind::daylight_zone, 0},
    {"BST", Kind::daylight_zone, 0}, {"ART", Kind::zone, -3 * hour_seconds},
    {"BRT", Kind::zone, -3 * hour_seconds}, {"BRST", Kind::daylight_zone, -3 * hour_seconds},
    {"NST", Kind::zone, -(3 * hour_seconds + 1800)},
    {"NDT", Kind::daylight_zone, -(3 * hour_seconds + 1800)},
    {"AST", Kind::zone, -4 * hour_seconds}, {"ADT", Kind::daylight_zone, -4 * hour_seconds},
    {"CLT", Kind::zone, -4 * hour_seconds}, {"CLST", Kind::daylight_zone, -4 * hour_seconds},
    {"EST", Kind::zone, -5 * hour_seconds}, {"EDT", Kind::daylight_zone, -5 * hour_seconds},
    {"CST", Kind::zone, -6 * hour_seconds}, {"CDT", Kind::daylight_zone, -6 * hour_seconds},
    {"MST", Kind::zone, -7 * hour_seconds}, {"MDT", Kind::daylight_zone, -7 * hour_seconds},
    {"PST", Kind::zone, -8 * hour_seconds}, {"PDT", Kind::daylight_zone, -8 * hour_seconds},
    {"AKST", Kind::zone, -9 * hour_seconds}, {"AKDT", Kind::daylight_zone, -9 * hour_seconds},
    {"HST", Kind::zone, -10 * hour_seconds}, {"HAST", Kind::zone, -10 * hour_seconds},
    {"HADT", Kind::daylight_zone, -10 * hour_seconds}, {"SST", Kind::zone, -12 * hour_seconds},
    {"WAT", Kind::zone, 1 * hour_seconds}, {"CET", Kind::zone, 1 * hour_seconds},
    {"CEST", Kind::daylight_zone, 1 * hour_seconds}, {"MET", Kind::zone, 1 * hour_seconds},
    {"MEZ", Kind::zone, 1 * hour_seconds}, {"MEST", Kind::daylight_zone, 1 * hour_seconds},
    {"MESZ", Kind::daylight_zone, 1 * hour_seconds}, {"EET", Kind::zone, 2 * hour_seconds},
    {"EEST", Kind::daylight_zone, 2 * hour_seconds}, {"CAT", Kind::zone, 2 * hour_seconds},
    {"SAST", Kind::zone, 2 * hour_seconds}, {"EAT", Kind::zone, 3 * hour_seconds},
    {"MSK", Kind::zone, 3 * hour_seconds}, {"MSD", Kind::daylight_zone, 3 * hour_seconds},
    {"IST", Kind::zone, 5 * hour_seconds + 1800}, {"SGT", Kind::zone, 8 * hour_seconds},
    {"KST", Kind::zone, 9 * hour_seconds}, {"JST", Kind::zone, 9 * hour_seconds},
    {"GST", Kind::zone, 10 * hour_seconds}, {"NZST", Kind::zone, 12 * hour_seconds},
    {"NZDT", Kind::daylight_zone, 12 * hour_seconds},
});

// The local zone's abbreviations: now's, and the first different one of the
// next three quarters (CET in winter finds CEST).  tm_isdst -1 when both
// halves of the year use the same name.
struct LocalZoneName {
    std::string name;
    int isdst;
};

std::vector<LocalZoneName> local_zone_names(time_t now) {
    std::vector<LocalZoneName> names;
    struct tm local;
    if (!::localtime_r(&now, &local) || !local.tm_zone) {
        return names;
    }
    names.push_back({local.tm_zone, local.tm_isdst});
    for (Int quarter = 1; quarter <= 3; ++quarter) {
        time_t probe;
        if (__builtin_add_overflow(now, quarter * 90 * 86400, &probe)) {
            break;
        }
        if (::localtime_r(&probe, &local) && local.tm_zone && local.tm_isdst != names[0].isdst) {
            names.push_back({local.tm_zone, local.tm_isdst});
            break;
        }
    }
    if (names.size() == 2 && names[0].name == names[1].name) {
        names[0].isdst = -1;
        names.pop_back();
    }
    return names;
}

// Military zones, one letter: A..I are UTC+1..+9, K..M +10..+12, N..Y
// -1..-12, Z is UTC; J means nothing to GNU find 4.9, T is handled apart.
std::optional<Int> military_zone(char letter) {
    if (letter >= 'A' && letter <= 'I') {
        return (letter - 'A' + 1) * hour_seconds;
    }
    if (letter >= 'K' && letter <= 'M') {
        return (letter - 'K' + 10) * hour_seconds;
    }
    if (letter >= 'N' && letter <= 'Y') {
        return -(letter - 'N' + 1) * hour_seconds;
    }
    if (letter == 'Z') {
        return 0;
    }
    return std::nullopt;
}

class Lexer {
public:
    Lexer(std::string_view text, const std::vector<LocalZoneName>& local_zones)
        : text_(text), local_zones_(local_zones) {}

    // The next token; nullopt for an unknown word or a number out of range,
    // which no reading of the text can use.
    std::optional<Token> next() {
        for (;;) {
            while (pos_ < text_.size() && is_space(text_[pos_])) {
                ++pos_;
            }
            if (pos_ == text_.size()) {
                return Token{};
            }
            char c = text_[pos_];
            if (is_digit(c)) {
                return number(0);
            }
            if (c == '-' || c == '+') {
                int sign = c == '-' ? -1 : 1;
                ++pos_;
                while (pos_ < text_.size() && is_space(text_[pos_])) {
                    ++pos_;
                }
                if (pos_ < text_.size() && is_digit(text_[pos_])) {
                    return number(sign);
                }
                continue;  // a sign without digits is dropped, as GNU does
            }
            if (is_alpha(c)) {
                return word();
            }
            ++pos_;
            if (c != '(') {
                Token token;
                token.kind = Kind::punctuation;
                token.value = static_cast<unsigned char>(c);
                return token;
            }
            // A comment in parentheses, nested; unclosed, it runs to the end.
            for (int depth = 1; depth > 0 && pos_ < text_.size(); ++pos_) {
                depth += text_[pos_] == '(' ? 1 : text_[pos_] == ')' ? -1 : 0;
            }
        }
    }

private:
    // Digits at pos_, after a sign if `sign` is not 0.
    std::optional<Token> number(int sign) {
        std::size_t start = pos_;
        Int value = 0;
        while (pos_ < text_.size() && is_digit(text_[pos_])) {
            Int digit = text_[pos_] - '0';
            if (__builtin_mul_overflow(value, 10, &value) ||
                __builtin_add_overflow(value, sign < 0 ? -digit : digit, &value)) {
                return std::nullopt;
            }
            ++pos_;
        }
        Token token;
        token.digits = static_cast<int>(pos_ - start);
        token.value = value;
        token.negative = sign < 0;
        token.kind = sign ? Kind::signed_number : Kind::unsigned_number;
        bool fraction = pos_ + 1 < text_.size() && (text_[pos_] == '.' || text_[pos_] == ',') &&
                        is_digit(text_[pos_ + 1]);
        if (!fraction) {
            return token;
        }
        ++pos_;
        Int nanoseconds = 0;
        for (int digits = 0; digits < 9; ++digits) {
            nanoseconds *= 10;
            if (pos_ < text_.size() && is_digit(text_[pos_])) {
                nanoseconds += text_[pos_++] - '0';
            }
        }
        // Digits past the ninth: truncated toward minus infinity.
        bool more = false;
        for (; pos_ < text_.size() && is_digit(text_[pos_]); ++pos_) {
            more |= text_[pos_] != '0';
        }
        if (sign < 0 && more) {
            ++nanoseconds;
        }
        if (sign < 0 && nanoseconds) {
            if (__builtin_sub_overflow(value, 1, &value)) {
                return std::nullopt;
            }
            nanoseconds = billion - nanoseconds;
        }
        token.kind = sign ? Kind::signed_decimal : Kind::unsigned_decimal;
        token.decimal.tv_sec = value;
        token.decimal.tv_nsec = nanoseconds;
        return token;
    }

    // Letters and periods at pos_, looked up in GNU's order.
    std::optional<Token> word() {
        std::string upper;
        for (; pos_ < text_.size() && (is_alpha(text_[pos_]) || text_[pos_] == '.'); ++pos_) {
            if (upper.size() < 19) {  // GNU's buffer: longer words are unknown anyway
                upper += to_upper(text_[pos_]);
            }
        }
        if (upper == "AM" || upper == "A.M.") {
            return Token{Kind::meridian, am};
        }
        if (upper == "PM" || upper == "P.M.") {
            return Token{Kind::meridian, pm};
        }
        bool abbreviated = upper.size() == 3 || (upper.size() == 4 && upper[3] == '.');
        for (const Word& entry : month_and_day_names) {
            if (abbreviated ? entry.name.substr(0, 3) == std::string_view(upper).substr(0, 3)
                            : entry.name == upper) {
                return token_of(entry);
            }
        }
        if (std::optional<Token> zone = lookup_zone(upper)) {
            return zone;
        }
        if (upper == "DST") {
            return Token{Kind::dst};
        }
        std::string_view singular = upper;
        if (upper.back() == 'S') {
            singular.remove_suffix(1);
        }
        for (const Word& entry : unit_names) {
            if (entry.name == upper || entry.name == singular) {
                return token_of(entry);
            }
        }
        for (const Word& entry : relative_words) {
            if (entry.name == upper) {
                return token_of(entry);
            }
        }
        if (upper == "T") {
            return Token{Kind::letter_t};
        }
        if (upper.size() == 1) {
            if (std::optional<Int> offset = military_zone(upper[0])) {
                return Token{Kind::zone, *offset};
            }
        }
        // "U.T.C.": a zone name with periods.
        std::string bare;
        for (char c : upper) {
            if (c != '.') {
                bare += c;
            }
        }
        if (bare.size() != upper.size()) {
            return lookup_zone(bare);
        }
        return std::nullopt;
    }

    std::optional<Token> lookup_zone(const std::string& upper) const {
        for (const Word& entry : universal_zones) {
            if (entry.name == upper) {
                return token_of(entry);
            }
        }
        for (const LocalZoneName& local : local_zones_) {
            if (local.name == upper) {
                return Token{Kind::local_zone, local.isdst};
            }
        }
        for (const Word& entry : named_zones) {
            if (entry.name == upper) {
                return token_of(entry);
            }
        }
        return std::nullopt;
    }

    static Token token_of(const Word& entry) {
        Token token{entry.kind, entry.value};
        token.unit = entry.unit;
        return token;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    const std::vector<LocalZoneName>& local_zones_;
};

// Relative amounts, summed over all the relative items.
struct Relative {
    Int year = 0;
    Int month = 0;
    Int day = 0;
    Int hour = 0;
    Int minutes = 0;
    Int seconds = 0;
    int nanoseconds = 0;  // an int in GNU: five "1.5 sec" overflow it and are refused
};

// What the items said.  The date and time fields start as now's local ones;
// the counts refuse a second date, time, weekday or zone.
struct DateItems {
    Int year = 0;
    int year_digits = 0;  // 0: now's year; 2: a year of the 1900s or 2000s
    Int month = 0;
    Int day = 0;
    Int hour = 0;
    Int minutes = 0;
    struct timespec seconds {};
    Int meridian = h24;
    Int day_ordinal = 0;  // "last" -1, "next" 1, "third" 3
    Int day_number = 0;   // weekday, Sunday 0
    Int time_zone = 0;    // seconds east of UTC
    int local_isdst = 0;
    Relative relative;
    bool epoch_seen = false;
    bool relative_seen = false;
    int dates_seen = 0;
    int times_seen = 0;
    int days_seen = 0;
    int zones_seen = 0;
    int local_zones_seen = 0;
    int dsts_seen = 0;
};

class ItemParser {
public:
    ItemParser(std::vector<Token> tokens, DateItems& items)
        : tokens_(std::move(tokens)), items_(items) {}

    // "@SECONDS" alone, or any number of items.
    bool parse() {
        if (at_punctuation('@')) {
            take();
            Token seconds = take();
            if (seconds.kind == Kind::unsigned_number || seconds.kind == Kind::signed_number) {
                items_.seconds = {static_cast<time_t>(seconds.value), 0};
            } else if (seconds.kind == Kind::unsigned_decimal ||
                       seconds.kind == Kind::signed_decimal) {
                items_.seconds = seconds.decimal;
            } else {
                return false;
            }
            items_.epoch_seen = true;
            return at(Kind::end);
        }
        while (!at(Kind::end)) {
            if (!item()) {
                return false;
            }
        }
        return true;
    }

private:
    bool at(Kind kind) const { return tokens_[pos_].kind == kind; }
    bool at_punctuation(char c) const {
        return at(Kind::punctuation) && tokens_[pos_].value == static_cast<unsigned char>(c);
    }
    bool at_unit() const { return at(Kind::unit); }
    const Token& peek() const { return tokens_[pos_]; }
    // The tokens end with an end token, which take() never passes.
    Token take() { return at(Kind::end) ? tokens_[pos_] : tokens_[pos_++]; }

    bool item() {
        Token first = take();
        switch (first.kind) {
        case Kind::unsigned_number:
            return after_unsigned_number(first);
        case Kind::signed_number:  // "-2 days"; alone, a signed number is nothing
            return at_unit() && relative_item(amount(first.value, take()));
        case Kind::unsigned_decimal:
        case Kind::signed_decimal: {  // "1.5 seconds": the only unit with a fraction
            if (!at_unit() || peek().unit != Unit::second) {
                return false;
            }
            take();
            Relative seconds;
            seconds.seconds = first.decimal.tv_sec;
            seconds.nanoseconds = static_cast<int>(first.decimal.tv_nsec);
            return relative_item(seconds);
        }
        case Kind::month:
            return after_month(first);
        case Kind::weekday:  // "monday", "Mon," (as date prints it)
            if (at_punctuation(',')) {
                take();
            }
            return weekday(0, first.value);
        case Kind::ordinal:  // "last friday", "next week"
            if (at(Kind::weekday)) {
                return weekday(first.value, take().value);
            }
            return at_unit() && relative_item(amount(first.value, take()));
        case Kind::unit:  // "week ago", and the "day" of "13:00 -1 day"
            return relative_item(amount(1, first));
        case Kind::day_shift: {
            Relative days;
            days.day = first.value;
            return add_relative(days, 1);
        }
        case Kind::zone:
            return after_zone(first.value, true);
        case Kind::letter_t:  // T, away from a date, is the military zone UTC-7
            return after_zone(-7 * hour_seconds, false);
        case Kind::daylight_zone:
            items_.time_zone = first.value + hour_seconds;
            ++items_.zones_seen;
            return true;
        case Kind::local_zone:
            items_.local_isdst = static_cast<int>(first.value);
            if (at(Kind::dst)) {
                take();
                items_.local_isdst = 1;
                ++items_.dsts_seen;
            }
            ++items_.local_zones_seen;
            return true;
        default:
            return false;
        }
    }

    bool after_unsigned_number(const Token& number) {
        if (at(Kind::meridian)) {  // "5pm"
            set_time(number.value, 0, {});
            items_.meridian = take().value;
            ++items_.times_seen;
            return true;
        }
        if (at_punctuation(':')) {
            ++items_.times_seen;
            return clock_time(number, true);
        }
        if (at(Kind::signed_number)) {
            Token second = take();
            if (at(Kind::signed_number)) {  // "2024-01-31", maybe "T13:00" after it
                Token third = take();
                items_.year = number.value;
                items_.year_digits = number.digits;
                if (__builtin_sub_overflow(0, second.value, &items_.month) ||
                    __builtin_sub_overflow(0, third.value, &items_.day)) {
                    return false;
                }
                ++items_.dates_seen;
                if (at(Kind::letter_t)) {  // GNU shifts: "2024-01-31 T" is refused
                    take();
                    ++items_.times_seen;
                    return iso_time();
                }
                return true;
            }
            if (at_unit()) {  // "20240131 +1 day": no "ago" may follow
                digits_to_date_time(number);
                return add_relative(amount(second.value, take()), 1);
            }
            // "13 -5": an hour at a zone offset.
            set_time(number.value, 0, {});
            items_.meridian = h24;
            ++items_.times_seen;
            return time_zone_offset(second);
        }
        if (at(Kind::month)) {  // "31 Jan", "31 Jan 2024", "31-Jan-2024"
            items_.day = number.value;
            items_.month = take().value;
            ++items_.dates_seen;
            if (at(Kind::signed_number)) {
                Token year = take();
                items_.year_digits = year.digits;
                return !__builtin_sub_overflow(0, year.value, &items_.year);
            }
            if (at(Kind::unsigned_number)) {  // GNU shifts: "31 Jan 13:00" is refused
                Token year = take();
                items_.year = year.value;
                items_.year_digits = year.digits;
            }
            return true;
        }
        if (at(Kind::weekday)) {  // "2 monday": the second Monday after today
            return weekday(number.value, take().value);
        }
        if (at_punctuation('/')) {  // "1/31", "1/31/2024", "2024/1/31"
            take();
            if (!at(Kind::unsigned_number)) {
                return false;
            }
            Token second = take();
            ++items_.dates_seen;
            if (!at_punctuation('/')) {
                items_.month = number.value;
                items_.day = second.value;
                return true;
            }
            take();
            if (!at(Kind::unsigned_number)) {
                return false;
            }
            Token third = take();
            const Token& year = number.digits >= 4 ? number : third;
            items_.year = year.value;
            items_.year_digits = year.digits;
            items_.month = number.digits >= 4 ? second.value : number.value;
            items_.day = number.digits >= 4 ? third.value : second.value;
            return true;
        }
        if (at_unit()) {  // "2 days", "2 days ago"
            return relative_item(amount(number.value, take()));
        }
        digits_to_date_time(number);
        return true;
    }

    // After HOUR, at ':': "MM", "MM:SS[.frac]", then AM/PM (if allowed) or
    // a zone offset.
    bool clock_time(const Token& hour, bool meridian_allowed) {
        take();
        if (!at(Kind::unsigned_number)) {
            return false;
        }
        Int minutes = take().value;
        struct timespec seconds {};
        if (at_punctuation(':')) {
            take();
            Token token = take();
            if (token.kind == Kind::unsigned_number) {
                seconds.tv_sec = static_cast<time_t>(token.value);
            } else if (token.kind == Kind::unsigned_decimal) {
                seconds = token.decimal;
            } else {
                return false;
            }
        }
        set_time(hour.value, minutes, seconds);
        if (meridian_allowed && at(Kind::meridian)) {
            items_.meridian = take().value;
            return true;
        }
        items_.meridian = h24;
        // GNU shifts: "13:00 -1 day" is 13:00 at UTC-1, then "day".
        return !at(Kind::signed_number) || time_zone_offset(take());
    }

    // After "DATE T": "13:00[:00]" or "13+01", zone offsets allowed, no AM/PM.
    bool iso_time() {
        if (!at(Kind::unsigned_number)) {
            return false;
        }
        Token hour = take();
        if (at_punctuation(':')) {
            return clock_time(hour, false);
        }
        if (!at(Kind::signed_number)) {
            return false;
        }
        set_time(hour.value, 0, {});
        items_.meridian = h24;
        return time_zone_offset(take());
    }

    // "Jan 31", "Jan 31, 2024", "Jan-31-2024"; a month alone is nothing.
    bool after_month(const Token& month) {
        items_.month = month.value;
        ++items_.dates_seen;
        if (at(Kind::signed_number)) {
            Token day = take();
            if (!at(Kind::signed_number)) {
                return false;
            }
            Token year = take();
            items_.year_digits = year.digits;
            return !__builtin_sub_overflow(0, day.value, &items_.day) &&
                   !__builtin_sub_overflow(0, year.value, &items_.year);
        }
        if (!at(Kind::unsigned_number)) {
            return false;
        }
        items_.day = take().value;
        if (at_punctuation(',')) {
            take();
            if (!at(Kind::unsigned_number)) {
                return false;
            }
            Token year = take();
            items_.year = year.value;
            items_.year_digits = year.digits;
        }
        return true;
    }

    // "UTC", "UTC+2", "UTC +1 day", "EST DST"; `zone` its offset.  `named`
    // is false for the letter T, which takes neither DST nor an offset.
    bool after_zone(Int zone, bool named) {
        ++items_.zones_seen;
        items_.time_zone = zone;
        if (named && at(Kind::dst)) {
            take();
            items_.time_zone = zone + hour_seconds;
            return true;
        }
        if (!at(Kind::signed_number)) {
            return true;
        }
        Token number = take();
        if (at_unit()) {  // no "ago" may follow
            return add_relative(amount(number.value, take()), 1);
        }
        std::optional<Int> offset = named ? offset_of(number) : std::nullopt;
        return offset && !__builtin_add_overflow(*offset, zone, &items_.time_zone);
    }

    // A zone offset after a time of day: "13:00 +01:00", "13 -5".
    bool time_zone_offset(const Token& number) {
        ++items_.zones_seen;
        std::optional<Int> offset = offset_of(number);
        items_.time_zone = offset.value_or(0);
        return offset.has_value();
    }

    // "+01", "+0100", "+01:00", "-5" (then ":MM" is read here): seconds east
    // of UTC, at most a day either way.
    std::optional<Int> offset_of(const Token& number) {
        Int minutes_given = -1;
        if (at_punctuation(':')) {
            take();
            if (!at(Kind::unsigned_number)) {
                return std::nullopt;
            }
            minutes_given = take().value;
        }
        Int value = number.value;
        Int minutes;
        if (minutes_given < 0) {
            if (number.digits <= 2) {
                value *= 100;  // "+1" and "+01" are hours
            }
            minutes = value / 100 * 60 + value % 100;
        } else if (__builtin_mul_overflow(value, 60, &minutes) ||
                   __builtin_add_overflow(minutes, number.negative ? -minutes_given : minutes_given,
                                          &minutes)) {
            return std::nullopt;
        }
        if (minutes < -24 * 60 || minutes > 24 * 60) {
            return std::nullopt;
        }
        return minutes * 60;
    }

    bool weekday(Int ordinal, Int number) {
        items_.day_ordinal = ordinal;
        items_.day_number = number;
        ++items_.days_seen;
        return true;
    }

    // A bare number: a year after a date, YYYYMMDD, or HH / HHMM.
    void digits_to_date_time(const Token& number) {
        if (items_.dates_seen && !items_.year_digits && !items_.relative_seen &&
            (items_.times_seen || number.digits > 2)) {
            items_.year = number.value;
            items_.year_digits = number.digits;
        } else if (number.digits > 4) {
            ++items_.dates_seen;
            items_.day = number.value % 100;
            items_.month = number.value / 100 % 100;
            items_.year = number.value / 10000;
            items_.year_digits = number.digits - 4;
        } else {
            ++items_.times_seen;
            if (number.digits <= 2) {
                set_time(number.value, 0, {});
            } else {
                set_time(number.value / 100, number.value % 100, {});
            }
            items_.meridian = h24;
        }
    }

    void set_time(Int hour, Int minutes, struct timespec seconds) {
        items_.hour = hour;
        items_.minutes = minutes;
        items_.seconds = seconds;
    }

    // `count` of a unit token (a week is 7 days); nullopt on overflow.
    static std::optional<Relative> amount(Int count, const Token& unit) {
        Relative result;
        switch (unit.unit) {
        case Unit::year: result.year = count; break;
        case Unit::month: result.month = count; break;
        case Unit::day:
            if (__builtin_mul_overflow(count, unit.value, &result.day)) {
                return std::nullopt;
            }
            break;
        case Unit::hour: result.hour = count; break;
        case Unit::minute: result.minutes = count; break;
        case Unit::second: result.seconds = count; break;
        }
        return result;
    }

    // A relative amount, negated by a following "ago".
    bool relative_item(std::optional<Relative> relative) {
        int factor = 1;
        if (at(Kind::ago)) {
            factor = static_cast<int>(take().value);
        }
        return relative && add_relative(*relative, factor);
    }

    bool add_relative(std::optional<Relative> relative, int factor) {
        if (!relative) {
            return false;
        }
        Relative& sum = items_.relative;
        auto add = [factor](auto& total, auto amount) {
            return factor < 0 ? __builtin_sub_overflow(total, amount, &total)
                              : __builtin_add_overflow(total, amount, &total);
        };
        if (add(sum.nanoseconds, relative->nanoseconds) || add(sum.seconds, relative->seconds) ||
            add(sum.minutes, relative->minutes) || add(sum.hour, relative->hour) ||
            add(sum.day, relative->day) || add(sum.month, relative->month) ||
            add(sum.year, relative->year)) {
            return false;
        }
        items_.relative_seen = true;
        return true;
    }

    std::vector<Token> tokens_;
    std::size_t pos_ = 0;
    DateItems& items_;
};

// A year as written to tm_year: two digits are 1969..2068.
std::optional<int> tm_year_of(Int year, int digits) {
    if (year >= 0 && digits == 2) {
        year += year < 69 ? 2000 : 1900;
    }
    int tm_year;
    if (year < 0 ? __builtin_sub_overflow(-1900, year, &tm_year)
                 : __builtin_sub_overflow(year, 1900, &tm_year)) {
        return std::nullopt;
    }
    return tm_year;
}

// 0..23, or -1 for an hour AM/PM cannot have ("0am", "13pm").
int hour_of(Int hour, Int meridian) {
    switch (meridian) {
    case am: return hour > 0 && hour < 12 ? static_cast<int>(hour) : hour == 12 ? 0 : -1;
    case pm: return hour > 0 && hour < 12 ? static_cast<int>(hour) + 12 : hour == 12 ? 12 : -1;
    default: return hour >= 0 && hour < 24 ? static_cast<int>(hour) : -1;
    }
}

// Whether mktime or timegm kept the fields it was given: it moves those of
// a date or time that does not exist (February 30, 13:59:60, 02:30 on the
// night summer time starts), and GNU refuses them.  tm_wday stays negative
// when it failed.
bool kept_fields(const struct tm& requested, const struct tm& result) {
    return result.tm_wday >= 0 && result.tm_sec == requested.tm_sec &&
           result.tm_min == requested.tm_min && result.tm_hour == requested.tm_hour &&
           result.tm_mday == requested.tm_mday && result.tm_mon == requested.tm_mon &&
           result.tm_year == requested.tm_year;
}

// The fields mktime would get for the items; false if they do not fit a tm.
bool initial_fields(DateItems& items, int now_isdst, struct tm& fields) {
    std::optional<int> year = tm_year_of(items.year, items.year_digits);
    if (!year || __builtin_add_overflow(items.month, -1, &fields.tm_mon) ||
        __builtin_add_overflow(items.day, 0, &fields.tm_mday)) {
        return false;
    }
    fields.tm_year = *year;
    if (items.times_seen || (items.relative_seen && !items.dates_seen && !items.days_seen)) {
        fields.tm_hour = hour_of(items.hour, items.meridian);
        if (fields.tm_hour < 0) {
            return false;
        }
        // Truncated as in GNU, whose mktime check then sees nothing wrong.
        fields.tm_min = static_cast<int>(items.minutes);
        fields.tm_sec = static_cast<int>(items.seconds.tv_sec);
    } else {
        fields.tm_hour = fields.tm_min = fields.tm_sec = 0;
        items.seconds.tv_nsec = 0;
    }
    // Now's daylight saving flag for a date that is only relative to now:
    // "yesterday" at noon on the day summer time starts is 11:00 the day
    // before, as in GNU.
    fields.tm_isdst = items.dates_seen || items.days_seen || items.times_seen ? -1 : now_isdst;
    if (items.local_zones_seen) {
        fields.tm_isdst = items.local_isdst;
    }
    return true;
}

std::optional<struct timespec> resolve(DateItems& items, int now_isdst) {
    if (items.epoch_seen) {
        return items.seconds;
    }
    if (items.times_seen > 1 || items.dates_seen > 1 || items.days_seen > 1 ||
        items.dsts_seen > 1 || items.zones_seen + items.local_zones_seen > 1) {
        return std::nullopt;
    }
    struct tm fields {};
    if (!initial_fields(items, now_isdst, fields)) {
        return std::nullopt;
    }
    const struct tm requested = fields;
    fields.tm_wday = -1;
    time_t start = ::mktime(&fields);
    if (!kept_fields(requested, fields)) {
        // With an explicit zone the local zone's gaps do not matter: GNU
        // tries again in a fixed-offset zone, where the result is the same as
        // universal time less the offset.
        if (!items.zones_seen) {
            return std::nullopt;
        }
        fields = requested;
        fields.tm_wday = -1;
        start = ::timegm(&fields);
        if (!kept_fields(requested, fields) ||
            __builtin_sub_overflow(start, items.time_zone, &start)) {
            return std::nullopt;
        }
        fields.tm_gmtoff = items.time_zone;  // so that step 4 adds nothing more
    }

    if (items.days_seen && !items.dates_seen) {
        Int ordinal = items.day_ordinal -
                      (items.day_ordinal > 0 && fields.tm_wday != items.day_number ? 1 : 0);
        Int increment;
        int day;
        if (__builtin_mul_overflow(ordinal, 7, &increment) ||
            __builtin_add_overflow(increment, (items.day_number - fields.tm_wday + 7) % 7,
                                   &increment) ||
            __builtin_add_overflow(increment, fields.tm_mday, &day)) {
            return std::nullopt;
        }
        fields.tm_mday = day;
        fields.tm_isdst = -1;
        fields.tm_wday = -1;
        start = ::mktime(&fields);
        if (fields.tm_wday < 0) {
            return std::nullopt;
        }
    }

    const Relative& relative = items.relative;
    if (relative.year || relative.month || relative.day) {
        int year, month, day;
        if (__builtin_add_overflow(fields.tm_year, relative.year, &year) ||
            __builtin_add_overflow(fields.tm_mon, relative.month, &month) ||
            __builtin_add_overflow(fields.tm_mday, relative.day, &day)) {
            return std::nullopt;
        }
        fields.tm_year = year;
        fields.tm_mon = month;
        fields.tm_mday = day;
        fields.tm_hour = requested.tm_hour;
        fields.tm_min = requested.tm_min;
        fields.tm_sec = requested.tm_sec;
        fields.tm_isdst = requested.tm_isdst;
        fields.tm_wday = -1;
        start = ::mktime(&fields);
        if (fields.tm_wday < 0) {
            return std::nullopt;
        }
    }

    if (items.zones_seen) {
        Int delta;
        if (__builtin_sub_overflow(items.time_zone, fields.tm_gmtoff, &delta) ||
            __builtin_sub_overflow(start, delta, &start)) {
            return std::nullopt;
        }
    }

    Int nanoseconds = items.seconds.tv_nsec + relative.nanoseconds;
    Int normalised = (nanoseconds % billion + billion) % billion;
    Int carry = (nanoseconds - normalised) / billion;
    Int hours, minutes;
    time_t seconds;
    if (__builtin_mul_overflow(relative.hour, hour_seconds, &hours) ||
        __builtin_mul_overflow(relative.minutes, 60, &minutes) ||
        __builtin_add_overflow(start, hours, &seconds) ||
        __builtin_add_overflow(seconds, minutes, &seconds) ||
        __builtin_add_overflow(seconds, relative.seconds, &seconds) ||
        __builtin_add_overflow(seconds, carry, &seconds)) {
        return std::nullopt;
    }
    struct timespec result {};
    result.tv_sec = seconds;
    result.tv_nsec = static_cast<long>(normalised);
    return result;
}

} // namespace

std::optional<struct timespec> parse_relative_date(std::string_view text,
                                                   const struct timespec& now) {
    if (text.find('\0') != std::string_view::npos) {
        return std::nullopt;  // find's arguments cannot hold one; GNU would stop there
    }
    while (!text.empty() && is_space(text.front())) {
        text.remove_prefix(1);
    }
    if (text.empty()) {
        text = "0";  // GNU: an empty date is "0", midnight today
    }
    struct tm local;
    if (!::localtime_r(&now.tv_sec, &local)) {
        return std::nullopt;
    }
    std::vector<LocalZoneName> local_zones = local_zone_names(now.tv_sec);
    Lexer lexer(text, local_zones);
    std::vector<Token> tokens;
    do {
        std::optional<Token> token = lexer.next();
        if (!token) {
            return std::nullopt;
        }
        tokens.push_back(*token);
    } while (tokens.back().kind != Kind::end);

    DateItems items;
    items.year = Int{local.tm_year} + 1900;
    items.month = local.tm_mon + 1;
    items.day = local.tm_mday;
    items.hour = local.tm_hour;
    items.minutes = local.tm_min;
    items.seconds = {local.tm_sec, now.tv_nsec};
    if (!ItemParser(std::move(tokens), items).parse()) {
        return std::nullopt;
    }
    return resolve(items, local.tm_isdst);
}

} // namespace ufind
