#include "values/glob_pattern.hpp"

#include "system/user_locale.hpp"

#include <fnmatch.h>
#include <langinfo.h>

#include <algorithm>
#include <cctype>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <cwctype>

namespace ufind {
namespace {

char ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool is_ascii(std::string_view text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// Whether a literal found at any byte offset is also a character match:
// single-byte locales, and UTF-8.
bool locale_allows_byte_matching() {
    if (MB_CUR_MAX == 1) {
        return true;
    }
    const char* codeset = ::nl_langinfo(CODESET);
    return std::strcmp(codeset, "UTF-8") == 0;
}

// Whether fnmatch's FNM_CASEFOLD (tolower in single-byte locales, towlower
// in multibyte ones) folds every ASCII letter as ASCII does.
bool locale_folds_ascii_as_ascii() {
    for (char upper = 'A'; upper <= 'Z'; ++upper) {
        char lower = ascii_lower(upper);
        if (std::tolower(upper) != lower || std::tolower(lower) != lower ||
            std::towlower(static_cast<wint_t>(upper)) != static_cast<wint_t>(lower) ||
            std::towlower(static_cast<wint_t>(lower)) != static_cast<wint_t>(lower)) {
            return false;
        }
    }
    return true;
}

// Whether a range in a set ([a-f]) covers the bytes between its ends, as
// fnmatch sees it: in the C locales, where collation is code point order.
bool collation_is_code_point_order() {
    const char* collate = std::setlocale(LC_COLLATE, nullptr);
    return collate && names_a_c_locale(collate);
}

void add_byte(std::uint64_t& low, std::uint64_t& high, unsigned byte) {
    (byte < 64 ? low : high) |= std::uint64_t{1} << (byte % 64);
}

bool equal_bytes(std::string_view subject, std::string_view literal, bool fold_case) {
    if (!fold_case) {
        return subject == literal;
    }
    return std::equal(subject.begin(), subject.end(), literal.begin(), literal.end(),
                      [](char s, char l) { return ascii_lower(s) == l; });
}

// The offset of literal's leftmost occurrence in subject, or npos.
std::size_t find_bytes(std::string_view subject, std::string_view literal, bool fold_case) {
    if (!fold_case) {
        return subject.find(literal);
    }
    if (literal.size() > subject.size()) {
        return std::string_view::npos;
    }
    for (std::size_t at = 0; at + literal.size() <= subject.size(); ++at) {
        if (equal_bytes(subject.substr(at, literal.size()), literal, true)) {
            return at;
        }
    }
    return std::string_view::npos;
}

// The shape both byte matchers share: runs of fixed length between the
// stars.  Without a star the one run is the whole subject; with stars the
// first run is a prefix, the last a suffix, and each run between is found
// leftmost in what is left (leftmost leaves the most room for the runs
// after it).  equal(run, bytes): whether run matches bytes, of its length;
// find(run, text): the offset of its first match in text, or npos.
template <class Runs, class Equal, class Find>
bool match_runs(std::string_view subject, const Runs& runs, bool has_star, Equal equal,
                Find find) {
    const auto& prefix = runs.front();
    if (!has_star) {
        return subject.size() == prefix.size() && equal(prefix, subject);
    }
    const auto& suffix = runs.back();
    if (subject.size() < prefix.size() + suffix.size() ||
        !equal(prefix, subject.substr(0, prefix.size())) ||
        !equal(suffix, subject.substr(subject.size() - suffix.size()))) {
        return false;
    }
    std::string_view between =
        subject.substr(prefix.size(), subject.size() - prefix.size() - suffix.size());
    for (std::size_t i = 1; i + 1 < runs.size(); ++i) {
        std::size_t at = find(runs[i], between);
        if (at == std::string_view::npos) {
            return false;
        }
        between.remove_prefix(at + runs[i].size());
    }
    return true;
}

} // namespace

GlobPattern::GlobPattern(std::string text, bool fold_case)
    : text_(std::move(text)), fold_case_(fold_case) {
    std::string literal;
    for (std::size_t i = 0; i < text_.size(); ++i) {
        char c = text_[i];
        if (c == '?' || c == '[') {
            literals_.clear();
            has_star_ = false;
            compares_ascii_ = !fold_case && is_ascii(text_) && locale_allows_byte_matching() &&
                              parse_tokens();
            if (!compares_ascii_) {
                tokens_.clear();  // fnmatch decides
                token_runs_.clear();
                has_star_ = false;
            }
            return;
        }
        if (c == '*') {
            literals_.push_back(std::move(literal));
            literal.clear();
            has_star_ = true;
            continue;
        }
        if (c == '\\') {
            if (++i == text_.size()) {
                return;  // a trailing backslash: fnmatch matches nothing
            }
            c = text_[i];
        }
        literal.push_back(fold_case ? ascii_lower(c) : c);
    }
    literals_.push_back(std::move(literal));
    if (!locale_allows_byte_matching()) {
        return;
    }
    if (fold_case && (!is_ascii(text_) || !locale_folds_ascii_as_ascii())) {
        return;
    }
    compares_bytes_ = true;
}

bool GlobPattern::matches(std::string_view subject) const {
    if (compares_bytes_ && (!fold_case_ || is_ascii(subject))) {
        return match_runs(
            subject, literals_, has_star_,
            [this](const std::string& literal, std::string_view bytes) {
                return equal_bytes(bytes, literal, fold_case_);
            },
            [this](const std::string& literal, std::string_view text) {
                return find_bytes(text, literal, fold_case_);
            });
    }
    if (compares_ascii_ && is_ascii(subject)) {
        // Each token takes one byte of an ASCII name.
        return match_runs(
            subject, token_runs_, has_star_,
            [this](TokenRun run, std::string_view bytes) { return run_matches(run, bytes); },
            [this](TokenRun run, std::string_view text) {
                for (std::size_t at = 0; at + run.size() <= text.size(); ++at) {
                    if (run_matches(run, text.substr(at))) {
                        return at;
                    }
                }
                return std::string_view::npos;
            });
    }
    return ::fnmatch(text_.c_str(), subject.data(), fold_case_ ? FNM_CASEFOLD : 0) == 0;
}

bool GlobPattern::Token::accepts(char c) const {
    switch (kind) {
    case Kind::byte: return c == byte;
    case Kind::any: return true;
    case Kind::set: {
        auto b = static_cast<unsigned char>(c);
        return ((b < 64 ? low : high) >> (b % 64)) & 1u;
    }
    }
    return false;
}

bool GlobPattern::parse_tokens() {
    // Like the literals: fixed-length runs of tokens between the stars.
    std::size_t run_start = 0;
    for (std::size_t at = 0; at < text_.size();) {
        char c = text_[at];
        Token token{Token::Kind::byte};
        if (c == '*') {
            token_runs_.push_back({run_start, tokens_.size()});
            run_start = tokens_.size();
            has_star_ = true;
            ++at;
            continue;
        }
        if (c == '?') {
            token.kind = Token::Kind::any;
            ++at;
        } else if (c == '[') {
            token.kind = Token::Kind::set;
            if (!parse_set(at, token)) {
                return false;
            }
        } else {
            if (c == '\\') {
                if (++at == text_.size()) {
                    return false;
                }
                c = text_[at];
            }
            token.byte = c;
            ++at;
        }
        tokens_.push_back(token);
    }
    token_runs_.push_back({run_start, tokens_.size()});
    return true;
}

// A set from the '[' at `at` to its ']', as glibc's fnmatch reads one
// without flags: '!' or '^' first negates, a ']' first is a member, a '-'
// first or last is one, a backslash escapes.  false for what fnmatch
// should read itself: [=a=], [.a.], an unknown class, a range outside the
// C locales or backwards, and no closing ']' (then '[' is literal).
bool GlobPattern::parse_set(std::size_t& at, Token& set) const {
    const std::string& p = text_;
    std::size_t i = at + 1;
    bool negate = i < p.size() && (p[i] == '!' || p[i] == '^');
    if (negate) {
        ++i;
    }
    std::uint64_t low = 0;
    std::uint64_t high = 0;
    for (bool first = true;; first = false) {
        if (i >= p.size()) {
            return false;
        }
        char c = p[i];
        if (c == ']' && !first) {
            ++i;
            break;
        }
        if (c == '[' && i + 1 < p.size() && (p[i + 1] == '=' || p[i + 1] == '.')) {
            return false;
        }
        if (c == '[' && i + 1 < p.size() && p[i + 1] == ':') {
            std::size_t end = p.find(":]", i + 2);
            if (end == std::string::npos) {
                return false;
            }
            std::wctype_t type = std::wctype(p.substr(i + 2, end - i - 2).c_str());
            if (type == 0) {
                return false;
            }
            for (unsigned b = 1; b < 128; ++b) {
                if (std::iswctype(static_cast<wint_t>(b), type)) {
                    add_byte(low, high, b);
                }
            }
            i = end + 2;
            continue;
        }
        if (c == '\\') {
            if (++i >= p.size()) {
                return false;
            }
            c = p[i];
        }
        ++i;
        if (i + 1 < p.size() && p[i] == '-' && p[i + 1] != ']') {
            std::size_t last_at = i + 1;
            if (p[last_at] == '\\' && ++last_at >= p.size()) {
                return false;
            }
            char last = p[last_at];
            if (p[last_at] == '[' || !collation_is_code_point_order() || last < c) {
                return false;
            }
            for (auto b = static_cast<unsigned>(c); b <= static_cast<unsigned>(last); ++b) {
                add_byte(low, high, b);
            }
            i = last_at + 1;
            continue;
        }
        add_byte(low, high, static_cast<unsigned char>(c));
    }
    if (negate) {
        low = ~low;
        high = ~high;
    }
    set.low = low;
    set.high = high;
    at = i;
    return true;
}

bool GlobPattern::run_matches(TokenRun run, std::string_view bytes) const {
    for (std::size_t i = 0; i < run.size(); ++i) {
        if (!tokens_[run.begin + i].accepts(bytes[i])) {
            return false;
        }
    }
    return true;
}

} // namespace ufind
