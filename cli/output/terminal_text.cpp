#include "output/terminal_text.hpp"

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

} // namespace ufind
