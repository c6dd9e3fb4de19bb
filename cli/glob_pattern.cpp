#include "glob_pattern.hpp"

#include <fnmatch.h>
#include <langinfo.h>

#include <algorithm>
#include <cctype>
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

} // namespace

GlobPattern::GlobPattern(std::string text, bool fold_case)
    : text_(std::move(text)), fold_case_(fold_case) {
    std::string literal;
    for (std::size_t i = 0; i < text_.size(); ++i) {
        char c = text_[i];
        if (c == '?' || c == '[') {
            return;  // fnmatch decides
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
        return matches_literals(subject);
    }
    return ::fnmatch(text_.c_str(), subject.data(), fold_case_ ? FNM_CASEFOLD : 0) == 0;
}

bool GlobPattern::matches_literals(std::string_view subject) const {
    if (!has_star_) {
        return equal_bytes(subject, literals_.front(), fold_case_);
    }
    const std::string& prefix = literals_.front();
    const std::string& suffix = literals_.back();
    if (subject.size() < prefix.size() + suffix.size() ||
        !equal_bytes(subject.substr(0, prefix.size()), prefix, fold_case_) ||
        !equal_bytes(subject.substr(subject.size() - suffix.size()), suffix, fold_case_)) {
        return false;
    }
    std::string_view between =
        subject.substr(prefix.size(), subject.size() - prefix.size() - suffix.size());
    for (std::size_t i = 1; i + 1 < literals_.size(); ++i) {
        std::size_t at = find_bytes(between, literals_[i], fold_case_);
        if (at == std::string_view::npos) {
            return false;
        }
        between.remove_prefix(at + literals_[i].size());
    }
    return true;
}

} // namespace ufind
