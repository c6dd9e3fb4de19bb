#include "output/ls_colors.hpp"

#include "output/terminal_text.hpp"

#include <sys/stat.h>

#include <array>

namespace ufind {
namespace {

constexpr std::array<std::string_view, LsColors::count> indicator_keys = {
    "lc", "rc", "ec", "rs", "no", "fi", "di", "ln", "pi", "so", "bd", "cd",
    "mi", "or", "ex", "do", "su", "sg", "st", "ow", "tw", "ca", "mh", "cl",
};

// bfs's defaults (from dir_colors(5)); null ones are unset, and an unset
// "ec" is lc, rs and rc in a row.
constexpr std::array<const char*, LsColors::count> default_values = {
    "\033[", "m", nullptr, "0", nullptr, "", "01;34", "01;36", "33", "01;35", "01;33", "01;33",
    nullptr, nullptr, "01;32", "01;35", "37;41", "30;43", "37;44", "34;42", "30;42", nullptr,
    nullptr, "\033[K",
};

// Decodes one LS_COLORS word up to the byte `end` (or the end of the
// text), as dir_colors(5) escapes: \e, \n and the like, \_ for a space,
// \NNN octal, \xHH hex, ^C for a control character.  Sets `rest` to what
// follows `end`, or to null when the text ran out first.  False for a
// backslash or caret with nothing after it.
bool decode_word(std::string_view text, char end, std::string& out, std::string_view& rest,
                 bool& ended) {
    out.clear();
    std::size_t i = 0;
    auto more = [&] { return i + 1 < text.size(); };
    for (; i < text.size() && text[i] != end; ++i) {
        char c = text[i];
        if (c == '^') {
            if (!more()) {
                return false;
            }
            char next = text[++i];
            out.push_back(next == '?' ? '\177' : static_cast<char>(next & 0x1f));
            continue;
        }
        if (c != '\\') {
            out.push_back(c);
            continue;
        }
        if (!more()) {
            return false;
        }
        char next = text[++i];
        switch (next) {
        case 'a': out.push_back('\a'); break;
        case 'b': out.push_back('\b'); break;
        case 'e': out.push_back('\033'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'v': out.push_back('\v'); break;
        case '?': out.push_back('\177'); break;
        case '_': out.push_back(' '); break;
        case 'x':
        case 'X': {
            unsigned value = 0;
            while (more() && std::isxdigit(static_cast<unsigned char>(text[i + 1]))) {
                char h = text[++i];
                value = value * 16 + static_cast<unsigned>(h <= '9' ? h - '0' : (h | 040) - 'a' + 10);
            }
            out.push_back(static_cast<char>(value));
            break;
        }
        default:
            if (next >= '0' && next <= '7') {
                unsigned value = static_cast<unsigned>(next - '0');
                while (more() && text[i + 1] >= '0' && text[i + 1] <= '7') {
                    value = value * 8 + static_cast<unsigned>(text[++i] - '0');
                }
                out.push_back(static_cast<char>(value));
            } else {
                out.push_back(next);  // \\, \^, \: and any other: the character
            }
        }
    }
    ended = i >= text.size();
    rest = ended ? std::string_view() : text.substr(i + 1);
    return true;
}

bool all_zeros(std::string_view value) { return value.find_first_not_of('0') == std::string_view::npos; }

} // namespace

LsColors::LsColors(std::string_view spec, std::string_view more) {
    for (std::size_t i = 0; i < count; ++i) {
        if (default_values[i]) {
            values_[i] = default_values[i];
        }
    }
    parse(spec);
    parse(more);
    extensions_.finish();
    if (values_[link] && *values_[link] == "target") {
        link_as_target_ = true;
        values_[link]->clear();
    }
    if (!values_[end]) {
        values_[end] = *values_[left] + *values_[reset] + *values_[right];
    }
}

void LsColors::parse(std::string_view spec) {
    std::string key;
    std::string value;
    bool ended = spec.empty();
    while (!ended) {
        if (spec.starts_with('*')) {
            std::string_view rest;
            if (!decode_word(spec.substr(1), '=', key, rest, ended) || ended ||
                !decode_word(rest, ':', value, spec, ended)) {
                valid_ = false;
                return;
            }
            extensions_.add(key, value);
            continue;
        }
        // As bfs: the first '=' of what is left, even past a ':'.
        std::size_t equals = spec.find('=');
        if (equals == std::string_view::npos) {
            return;
        }
        std::string_view name = spec.substr(0, equals);
        if (!decode_word(spec.substr(equals + 1), ':', value, spec, ended)) {
            valid_ = false;
            return;
        }
        for (std::size_t i = 0; i < count; ++i) {
            if (indicator_keys[i] == name) {
                // Zeros unset an indicator, so the next rule applies;
                // the pieces of a sequence are taken as they are.
                bool piece = i == left || i == right || i == end || i == reset;
                if (all_zeros(value) && !piece) {
                    values_[i].reset();
                } else {
                    values_[i] = value;
                }
                break;
            }
        }
    }
}

bool LsColors::needs_mode(ioq_type type) const {
    switch (type) {
    case IOQ_TYPE_REGULAR:
        return color(setuid) || color(setgid) || color(executable) || color(multi_hardlink);
    case IOQ_TYPE_DIRECTORY:
        return color(sticky) || color(other_writable) || color(sticky_other_writable);
    default:
        return false;
    }
}

LsColors::Color LsColors::color_for(ioq_type type, const ColorFacts& facts,
                                    std::string_view name) const {
    unsigned mode = facts.mode;
    Color chosen = nullptr;
    switch (type) {
    case IOQ_TYPE_REGULAR:
        if (color(setuid) && (mode & S_ISUID)) {
            chosen = color(setuid);
        } else if (color(setgid) && (mode & S_ISGID)) {
            chosen = color(setgid);
        } else if (color(executable) && (mode & 0111)) {
            chosen = color(executable);
        } else if (color(multi_hardlink) && facts.links > 1) {
            chosen = color(multi_hardlink);
        } else if (!(chosen = extensions_.find(name))) {
            chosen = color(file);
        }
        break;
    case IOQ_TYPE_DIRECTORY:
        if (color(sticky_other_writable) && (mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH)) {
            chosen = color(sticky_other_writable);
        } else if (color(other_writable) && (mode & S_IWOTH)) {
            chosen = color(other_writable);
        } else if (color(sticky) && (mode & S_ISVTX)) {
            chosen = color(sticky);
        } else {
            chosen = color(directory);
        }
        break;
    case IOQ_TYPE_SYMLINK:
        chosen = facts.broken_link && color(orphan) ? color(orphan) : color(link);
        break;
    case IOQ_TYPE_FIFO: chosen = color(fifo); break;
    case IOQ_TYPE_SOCKET: chosen = color(socket); break;
    case IOQ_TYPE_BLOCK: chosen = color(block); break;
    case IOQ_TYPE_CHAR: chosen = color(character); break;
    default: return missing_color();
    }
    // An empty value ("fi" unset, "ln=target") means "no", the normal color.
    return chosen && chosen->empty() ? color(normal) : chosen;
}

void LsColors::append_colored(std::string& out, Color color, std::string_view text) const {
    if (text.empty()) {
        return;
    }
    if (!color) {
        append_quoted_for_terminal(out, text);
        return;
    }
    out.append(*values_[left]).append(*color).append(*values_[right]);
    append_quoted_for_terminal(out, text);
    out.append(*values_[end]);
}

} // namespace ufind
