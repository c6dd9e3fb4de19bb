#include "values/comparison.hpp"

#include <cctype>
#include <limits>

namespace ufind {

Comparison::Kind take_comparison_sign(std::string_view& text) {
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
        Comparison::Kind kind = text[0] == '+' ? Comparison::greater : Comparison::less;
        text.remove_prefix(1);
        return kind;
    }
    return Comparison::equal;
}

std::optional<Comparison> parse_comparison(std::string_view text, char* suffix) {
    Comparison result;
    result.kind = take_comparison_sign(text);
    // What strtoumax would skip before the digits.
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text[0]))) {
        text.remove_prefix(1);
    }
    if (!text.empty() && text[0] == '+') {
        text.remove_prefix(1);
    }
    std::size_t digits = 0;
    std::uint64_t value = 0;
    constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
        unsigned digit = static_cast<unsigned>(text[digits] - '0');
        if (value > (max - digit) / 10) {
            return std::nullopt;
        }
        value = value * 10 + digit;
        ++digits;
    }
    if (digits == 0) {
        return std::nullopt;
    }
    text.remove_prefix(digits);
    if (suffix) {
        *suffix = '\0';
        if (text.size() == 1) {
            *suffix = text[0];
            text.remove_prefix(1);
        }
    }
    if (!text.empty()) {
        return std::nullopt;
    }
    result.value = value;
    return result;
}

} // namespace ufind
