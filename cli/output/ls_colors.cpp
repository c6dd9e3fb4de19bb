#include "output/ls_colors.hpp"

#include "expr/eval.hpp"

#include <sys/stat.h>

#include <strings.h>

#include <array>

namespace ufind {
namespace {

constexpr std::array<std::string_view, LsColors::count> indicator_keys = {
    "lc", "rc", "ec", "rs", "no", "fi", "di", "ln", "pi", "so", "bd", "cd",
    "mi", "or", "ex", "do", "su", "sg", "st", "ow", "tw", "ca", "mh", "cl",
};

// ls's defaults when LS_COLORS says nothing of an indicator (ls.c,
// coreutils 9.1); empty ones are unset.
constexpr std::array<std::string_view, LsColors::count> default_values = {
    "\033[", "m", "", "0", "", "", "01;34", "01;36", "33", "01;35", "01;33", "01;33",
    "", "", "01;32", "01;35", "37;41", "30;43", "37;44", "34;42", "30;42", "", "", "\033[K",
};

// Decodes one LS_COLORS value as ls does: backslash escapes (\e, \n, \033,
// \x1b, \_ for a space) and caret notation (^[ is ESC, ^? is DEL).
std::string decode_value(std::string_view raw) {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        char c = raw[i];
        if (c == '^' && i + 1 < raw.size()) {
            char next = raw[++i];
            out.push_back(next == '?' ? '\177' : static_cast<char>(next & 037));
        } else if (c == '\\' && i + 1 < raw.size()) {
            char next = raw[++i];
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
            case 'x': {
                int value = 0;
                int digits = 0;
                while (digits < 2 && i + 1 < raw.size() && std::isxdigit(static_cast<unsigned char>(raw[i + 1]))) {
                    char h = raw[++i];
                    value = value * 16 + (h <= '9' ? h - '0' : (h | 040) - 'a' + 10);
                    ++digits;
                }
                out.push_back(static_cast<char>(value));
                break;
            }
            default:
                if (next >= '0' && next <= '7') {
                    int value = next - '0';
                    for (int digits = 1; digits < 3 && i + 1 < raw.size() && raw[i + 1] >= '0' &&
                                         raw[i + 1] <= '7';
                         ++digits) {
                        value = value * 8 + (raw[++i] - '0');
                    }
                    out.push_back(static_cast<char>(value));
                } else {
                    out.push_back(next);  // \\, \^, \: and any other: the character
                }
            }
        } else {
            out.push_back(c);
        }
    }
    return out;
}

bool ends_with_ignoring_case(std::string_view name, std::string_view suffix) {
    return suffix.size() <= name.size() &&
           ::strncasecmp(name.data() + name.size() - suffix.size(), suffix.data(),
                         suffix.size()) == 0;
}

} // namespace

LsColors::LsColors(std::string_view spec) {
    for (std::size_t i = 0; i < count; ++i) {
        values_[i] = std::string(default_values[i]);
        set_[i] = !default_values[i].empty();
    }
    while (!spec.empty()) {
        std::size_t colon = spec.find(':');
        std::string_view rule = spec.substr(0, colon);
        spec = colon == std::string_view::npos ? std::string_view() : spec.substr(colon + 1);
        std::size_t equals = rule.find('=');
        if (equals == std::string_view::npos) {
            continue;
        }
        std::string_view key = rule.substr(0, equals);
        std::string value = decode_value(rule.substr(equals + 1));
        if (key.starts_with('*')) {
            extensions_.insert(extensions_.begin(),
                               Extension{decode_value(key.substr(1)), std::move(value)});
            continue;
        }
        for (std::size_t i = 0; i < count; ++i) {
            if (indicator_keys[i] == key) {
                if (i == link && value == "target") {
                    link_as_target_ = true;
                    value.clear();
                }
                values_[i] = std::move(value);
                set_[i] = true;
                break;
            }
        }
    }
}

bool LsColors::is_colored(Indicator indicator) const {
    const std::string& value = values_[indicator];
    return !value.empty() && value != "0" && value != "00";
}

bool LsColors::needs_facts(ioq_type type) const {
    switch (type) {
    case IOQ_TYPE_REGULAR:
        return is_colored(setuid) || is_colored(setgid) || is_colored(executable) ||
               is_colored(multi_hardlink);
    case IOQ_TYPE_DIRECTORY:
        return is_colored(sticky) || is_colored(other_writable) ||
               is_colored(sticky_other_writable);
    case IOQ_TYPE_SYMLINK:
        return link_as_target_ || is_colored(orphan);
    default:
        return false;
    }
}

std::string_view LsColors::sequence_for_mode(ioq_type type, const ColorFacts& facts) const {
    unsigned mode = facts.mode;
    switch (type) {
    case IOQ_TYPE_REGULAR:
        if ((mode & S_ISUID) && is_colored(setuid)) {
            return values_[setuid];
        }
        if ((mode & S_ISGID) && is_colored(setgid)) {
            return values_[setgid];
        }
        if ((mode & 0111) && is_colored(executable)) {
            return values_[executable];
        }
        if (facts.links > 1 && is_colored(multi_hardlink)) {
            return values_[multi_hardlink];
        }
        return {};  // a plain file: the extension decides, else "fi"
    case IOQ_TYPE_DIRECTORY:
        if ((mode & S_ISVTX) && (mode & S_IWOTH) && is_colored(sticky_other_writable)) {
            return values_[sticky_other_writable];
        }
        if ((mode & S_IWOTH) && is_colored(other_writable)) {
            return values_[other_writable];
        }
        if ((mode & S_ISVTX) && is_colored(sticky)) {
            return values_[sticky];
        }
        return values_[directory];
    case IOQ_TYPE_SYMLINK: return values_[link];
    case IOQ_TYPE_FIFO: return values_[fifo];
    case IOQ_TYPE_SOCKET: return values_[socket];
    case IOQ_TYPE_BLOCK: return values_[block];
    case IOQ_TYPE_CHAR: return values_[character];
    default: return values_[orphan];
    }
}

std::string_view LsColors::sequence_for(ioq_type type, const ColorFacts& facts,
                                        std::string_view name) const {
    if (type == IOQ_TYPE_SYMLINK) {
        if (facts.broken_link && (link_as_target_ || is_colored(orphan))) {
            return values_[orphan];
        }
        if (link_as_target_ && facts.target_mode != 0) {
            ColorFacts target = facts;
            target.mode = facts.target_mode;
            return sequence_for(type_of_mode(target.mode), target, name);
        }
    }
    std::string_view sequence = sequence_for_mode(type, facts);
    if (type == IOQ_TYPE_REGULAR && sequence.empty()) {
        for (const Extension& extension : extensions_) {
            if (ends_with_ignoring_case(name, extension.suffix)) {
                return extension.sequence;
            }
        }
        return values_[file];
    }
    return sequence;
}

void LsColors::append_colored(std::string& out, std::string_view sequence,
                              std::string_view text) const {
    if (sequence.empty()) {
        out.append(text);
        return;
    }
    out.append(values_[left]).append(sequence).append(values_[right]).append(text);
    if (set_[end]) {
        out.append(values_[end]);
    } else {
        out.append(values_[left]).append(values_[reset]).append(values_[right]);
    }
}

} // namespace ufind
