#include "output/terminal_text.hpp"

#include <cstdint>
#include <cstring>
#include <cwchar>
#include <cwctype>

namespace ufind {

bool is_printable(std::string_view text) {
    for (unsigned char c : text) {
        if (c < 0x20 || c >= 0x7f) {
            return false;  // maybe printable (UTF-8), but needs the slow path
        }
    }
    return true;
}

void append_printable(std::string& out, std::string_view text) {
    if (is_printable(text)) {
        out.append(text);
        return;
    }
    std::mbstate_t state{};
    while (!text.empty()) {
        unsigned char c = static_cast<unsigned char>(text.front());
        if (c >= 0x20 && c < 0x7f) {
            out.push_back(static_cast<char>(c));
            text.remove_prefix(1);
            continue;
        }
        wchar_t wide = 0;
        std::size_t length = std::mbrtowc(&wide, text.data(), text.size(), &state);
        if (length == static_cast<std::size_t>(-1) || length == static_cast<std::size_t>(-2) ||
            length == 0) {
            // An invalid or cut-off sequence: one '?' per byte, as find does.
            out.push_back('?');
            text.remove_prefix(1);
            state = std::mbstate_t{};
            continue;
        }
        if (std::iswprint(static_cast<std::wint_t>(wide))) {
            out.append(text.substr(0, length));
        } else {
            out.push_back('?');
        }
        text.remove_prefix(length);
    }
}

namespace {

// A character the terminal shows as itself: printable, or white space
// (a newline or a tab moves the cursor but cannot change the terminal).
bool shows_as_itself(std::wint_t wide) { return std::iswprint(wide) || std::iswspace(wide); }

bool is_plain_ascii(unsigned char c) { return (c >= 0x20 && c < 0x7f) || (c >= '\t' && c <= '\r'); }

// The length of the character at the head of text, or 0 when it is not
// one that shows as itself (an invalid byte counts as one of length 0).
std::size_t shown_length(std::string_view text, std::mbstate_t& state) {
    wchar_t wide = 0;
    std::size_t length = std::mbrtowc(&wide, text.data(), text.size(), &state);
    if (length == static_cast<std::size_t>(-1) || length == static_cast<std::size_t>(-2) ||
        length == 0) {
        state = std::mbstate_t{};
        return 0;
    }
    return shows_as_itself(static_cast<std::wint_t>(wide)) ? length : 0;
}

// Whether none of 8 bytes is below 0x20 or above 0x7e: the bytes that are
// printable ASCII, checked a word at a time since most names are only that.
bool all_printable_ascii(std::uint64_t word) {
    constexpr std::uint64_t ones = 0x0101010101010101;
    constexpr std::uint64_t highs = 0x8080808080808080;
    std::uint64_t below_space = (word - 0x20 * ones) & ~word;
    std::uint64_t del = word ^ (0x7f * ones);
    std::uint64_t is_del = (del - ones) & ~del;
    return ((below_space | is_del | word) & highs) == 0;
}

bool shows_as_itself(std::string_view text) {
    while (text.size() >= 8) {
        std::uint64_t word;
        std::memcpy(&word, text.data(), sizeof word);
        if (!all_printable_ascii(word)) {
            break;
        }
        text.remove_prefix(8);
    }
    if (text.size() < 8) {
        std::uint64_t word = 0x6161616161616161;  // "aaaaaaaa" for the bytes past the end
        std::memcpy(&word, text.data(), text.size());
        if (all_printable_ascii(word)) {
            return true;
        }
    }
    std::mbstate_t state{};
    while (!text.empty()) {
        if (is_plain_ascii(static_cast<unsigned char>(text.front()))) {
            text.remove_prefix(1);
            continue;
        }
        std::size_t length = shown_length(text, state);
        if (length == 0) {
            return false;
        }
        text.remove_prefix(length);
    }
    return true;
}

void append_escaped_byte(std::string& out, unsigned char c) {
    switch (c) {
    case '\a': out.append("\\a"); return;
    case '\b': out.append("\\b"); return;
    case '\033': out.append("\\e"); return;
    case '\f': out.append("\\f"); return;
    case '\n': out.append("\\n"); return;
    case '\r': out.append("\\r"); return;
    case '\t': out.append("\\t"); return;
    case '\v': out.append("\\v"); return;
    case '\'': out.append("\\'"); return;
    case '\\': out.append("\\\\"); return;
    default: break;
    }
    constexpr char digits[] = "0123456789ABCDEF";
    out.append("\\x").push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
}

} // namespace

void append_quoted_for_terminal(std::string& out, std::string_view text) {
    if (shows_as_itself(text)) {
        out.append(text);
        return;
    }
    out.append("$'");
    std::mbstate_t state{};
    while (!text.empty()) {
        unsigned char c = static_cast<unsigned char>(text.front());
        std::size_t length = c < 0x80 ? (std::iswprint(c) || std::iswspace(c) ? 1 : 0)
                                      : shown_length(text, state);
        if (length == 0) {
            // Not shown as itself: each of its bytes escaped.
            std::size_t bytes = 1;
            if (c >= 0x80) {
                std::mbstate_t probe{};
                std::size_t whole = std::mbrtowc(nullptr, text.data(), text.size(), &probe);
                if (whole != static_cast<std::size_t>(-1) && whole != static_cast<std::size_t>(-2) &&
                    whole != 0) {
                    bytes = whole;
                }
            }
            for (std::size_t i = 0; i < bytes; ++i) {
                append_escaped_byte(out, static_cast<unsigned char>(text[i]));
            }
            text.remove_prefix(bytes);
            continue;
        }
        for (std::size_t i = 0; i < length; ++i) {
            char byte = text[i];
            if (byte == '\'' || byte == '\\') {
                append_escaped_byte(out, static_cast<unsigned char>(byte));
            } else {
                out.push_back(byte);
            }
        }
        text.remove_prefix(length);
    }
    out.push_back('\'');
}

void append_name(std::string& out, std::string_view name, NameQuoting quoting) {
    switch (quoting) {
    case NameQuoting::raw: out.append(name); return;
    case NameQuoting::printable: append_printable(out, name); return;
    case NameQuoting::quoted: append_quoted_for_terminal(out, name); return;
    }
}

} // namespace ufind
