#include "predicates/time.hpp"

#include "expr/eval.hpp"
#include "predicates/reference_file.hpp"
#include "values/date_parse.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace ufind {
namespace {

constexpr long double day_seconds = 86400;

long double seconds_of(const struct statx_timestamp& ts) {
    return static_cast<long double>(ts.tv_sec) + static_cast<long double>(ts.tv_nsec) / 1e9L;
}

long double seconds_of(const struct timespec& ts) {
    return static_cast<long double>(ts.tv_sec) + static_cast<long double>(ts.tv_nsec) / 1e9L;
}

unsigned mask_of(char letter) {
    switch (letter) {
    case 'a': return STATX_ATIME;
    case 'B': return STATX_BTIME;
    case 'c': return STATX_CTIME;
    default: return STATX_MTIME;
    }
}

// The timestamp a letter names; nullptr for a birth time the file system
// does not record.
const struct statx_timestamp* timestamp_of(const struct statx& buf, char letter) {
    switch (letter) {
    case 'a': return &buf.stx_atime;
    case 'B': return (buf.stx_mask & STATX_BTIME) ? &buf.stx_btime : nullptr;
    case 'c': return &buf.stx_ctime;
    default: return &buf.stx_mtime;
    }
}

bool later(const struct statx_timestamp& ts, const struct timespec& reference) {
    return ts.tv_sec > reference.tv_sec ||
           (ts.tv_sec == reference.tv_sec && ts.tv_nsec > reference.tv_nsec);
}

class NewerTest final : public Primary {
public:
    NewerTest(char letter, struct timespec reference) : letter_(letter), reference_(reference) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        if (!buf) {
            return false;
        }
        const struct statx_timestamp* ts = timestamp_of(*buf, letter_);
        return ts && later(*ts, reference_);
    }
    unsigned stat_mask() const override { return mask_of(letter_); }

private:
    char letter_;
    struct timespec reference_;
};

class AgeTest final : public Primary {
public:
    AgeTest(char letter, AgeSign sign, long double amount, long double unit,
            struct timespec origin)
        : letter_(letter), sign_(sign), amount_(amount), unit_(unit), origin_(seconds_of(origin)) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        return buf &&
               age_matches(origin_ - seconds_of(*timestamp_of(*buf, letter_)), sign_, amount_, unit_);
    }
    unsigned stat_mask() const override { return mask_of(letter_); }

private:
    char letter_;
    AgeSign sign_;
    long double amount_;
    long double unit_;
    long double origin_;
};

class UsedTest final : public Primary {
public:
    UsedTest(AgeSign sign, long double days) : sign_(sign), days_(days) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        return buf && used_matches(seconds_of(buf->stx_atime) - seconds_of(buf->stx_ctime), sign_,
                                   days_);
    }
    unsigned stat_mask() const override { return STATX_ATIME | STATX_CTIME; }

private:
    AgeSign sign_;
    long double days_;
};

// "+1.5" -> greater, 1.5.  false when the rest is not a whole number of
// strtod's making.
bool parse_amount(const std::string& text, AgeSign& sign, long double& amount) {
    std::size_t start = 0;
    sign = AgeSign::equal;
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
        sign = text[0] == '+' ? AgeSign::greater : AgeSign::less;
        start = 1;
    }
    const char* begin = text.c_str() + start;
    char* end = nullptr;
    errno = 0;
    double value = std::strtod(begin, &end);
    // find takes inf and -inf (every file is younger than forever); NaN it
    // cannot compare, and neither can we.
    if (end == begin || *end != '\0' || errno == ERANGE || std::isnan(value)) {
        return false;
    }
    amount = value;
    return true;
}

// The reference file's timestamp `letter` (reference_file.hpp).
struct timespec reference_time(ParseContext& context, const std::string& path, char letter) {
    struct statx buf = stat_reference(context, path, mask_of(letter));
    const struct statx_timestamp* ts = timestamp_of(buf, letter);
    if (!ts) {
        fail_usage("This system does not provide a way to find the birth time of a file.");
    }
    struct timespec result {};
    result.tv_sec = ts->tv_sec;
    result.tv_nsec = ts->tv_nsec;
    return result;
}

bool is_time_letter(char c) { return c == 'a' || c == 'B' || c == 'c' || c == 'm'; }

} // namespace

bool age_matches(long double age_seconds, AgeSign sign, long double amount,
                 long double unit_seconds) {
    long double beyond = age_seconds - amount * unit_seconds;
    if (unit_seconds < day_seconds) {
        // Minutes round the other way in find: -mmin N is the minute that
        // ends N minutes ago, (N-1, N].
        switch (sign) {
        case AgeSign::greater: return beyond > 0;
        case AgeSign::less: return beyond < 0;
        case AgeSign::equal: break;
        }
        return beyond <= 0 && beyond > -unit_seconds;
    }
    switch (sign) {
    case AgeSign::greater: return beyond > unit_seconds;
    case AgeSign::less: return beyond < 0;
    case AgeSign::equal: break;
    }
    return beyond >= 0 && beyond < unit_seconds;
}

bool used_matches(long double access_after_change, AgeSign sign, long double days) {
    long double limit = days * day_seconds;
    switch (sign) {
    case AgeSign::greater: return access_after_change > limit;
    case AgeSign::less: return access_after_change >= 0 && access_after_change < limit;
    case AgeSign::equal: break;
    }
    if (access_after_change < 0) {
        return false;
    }
    // Whole days rounded up, an access in the same instant counting as day 1.
    long double whole_days = std::ceil(access_after_change / day_seconds);
    return std::max(whole_days, 1.0L) == days;
}

void set_daystart(ParseState& state) {
    if (state.daystart) {
        return;  // find moves the origin only once
    }
    state.daystart = true;
    time_t tomorrow = state.time_origin.tv_sec + 86400;
    struct tm local;
    if (::localtime_r(&tomorrow, &local)) {
        tomorrow -= local.tm_sec + local.tm_min * 60 + local.tm_hour * 3600;
    } else {
        tomorrow -= tomorrow % 86400;
    }
    state.time_origin.tv_sec = tomorrow;
    state.time_origin.tv_nsec = 0;
}

std::unique_ptr<Primary> parse_newer(ParseContext& context) {
    const std::string& name = context.name();
    char file_letter = 'm';
    char reference_letter = 'm';
    if (name == "-anewer") {
        file_letter = 'a';
    } else if (name == "-cnewer") {
        file_letter = 'c';
    } else if (name == "-Bnewer" || name == "-mnewer") {
        file_letter = name[1];  // bfs's spellings of -newerBm and -newer
    } else if (name.ends_with("since")) {
        // bfs's -since DATE and -Xsince DATE: -newermt and -newerXt.
        file_letter = name == "-since" ? 'm' : name[1];
        reference_letter = 't';
    } else if (name != "-newer") {
        file_letter = name[6];
        reference_letter = name[7];
        if (!is_time_letter(file_letter) ||
            !(is_time_letter(reference_letter) || reference_letter == 't')) {
            fail_usage("invalid predicate `" + name + "'");
        }
    }
    const std::string& argument = context.take();
    struct timespec reference {};
    if (reference_letter == 't') {
        std::optional<struct timespec> date = parse_date(argument, context.command.start_time);
        if (!date) {
            fail_usage("I cannot figure out how to interpret " + quote_path(argument) +
                       " as a date or time");
        }
        reference = *date;
    } else {
        reference = reference_time(context, argument, reference_letter);
    }
    return std::make_unique<NewerTest>(file_letter, reference);
}

std::unique_ptr<Primary> parse_time_test(ParseContext& context) {
    const std::string& name = context.name();  // -amin, -atime, -cmin, ...
    const std::string& argument = context.take();
    AgeSign sign;
    long double amount;
    if (!parse_amount(argument, sign, amount)) {
        context.invalid(argument);
    }
    long double unit = name.ends_with("min") ? 60 : day_seconds;
    return std::make_unique<AgeTest>(name[1], sign, amount, unit, context.state.time_origin);
}

std::unique_ptr<Primary> parse_used(ParseContext& context) {
    const std::string& argument = context.take();
    AgeSign sign;
    long double amount;
    if (!parse_amount(argument, sign, amount)) {
        fail_usage("Invalid argument " + argument + " to -used");
    }
    return std::make_unique<UsedTest>(sign, amount);
}

} // namespace ufind
