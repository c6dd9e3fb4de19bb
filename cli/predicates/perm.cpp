#include "predicates/perm.hpp"

#include "expr/eval.hpp"

#include <sys/stat.h>

#include <string>

namespace ufind {
namespace {

constexpr mode_t all_bits = 07777;

// The bits each class letter may touch.
mode_t class_bits(char who) {
    switch (who) {
    case 'u': return S_ISUID | S_IRWXU;
    case 'g': return S_ISGID | S_IRWXG;
    case 'o': return S_ISVTX | S_IRWXO;
    default: return all_bits;  // 'a'
    }
}

// The bits of one class of `mode`, copied to all three classes ("g=u").
mode_t copy_class(mode_t mode, char who) {
    mode_t bits = mode & (who == 'u' ? S_IRWXU : who == 'g' ? S_IRWXG : S_IRWXO);
    mode_t out = 0;
    if (bits & (S_IRUSR | S_IRGRP | S_IROTH)) out |= S_IRUSR | S_IRGRP | S_IROTH;
    if (bits & (S_IWUSR | S_IWGRP | S_IWOTH)) out |= S_IWUSR | S_IWGRP | S_IWOTH;
    if (bits & (S_IXUSR | S_IXGRP | S_IXOTH)) out |= S_IXUSR | S_IXGRP | S_IXOTH;
    return out;
}

std::optional<mode_t> apply_octal(std::string_view text) {
    mode_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '7') {
            return std::nullopt;
        }
        value = value * 8 + static_cast<mode_t>(c - '0');
        if (value > all_bits) {
            return std::nullopt;
        }
    }
    return value;
}

} // namespace

std::optional<mode_t> apply_mode(std::string_view text, mode_t base, bool is_directory) {
    if (!text.empty() && text[0] >= '0' && text[0] <= '9') {
        return apply_octal(text);
    }
    mode_t mode = base;
    std::size_t i = 0;
    while (true) {
        // One clause: who letters, then one or more operations.
        mode_t affected = 0;
        for (; i < text.size() && std::string_view("ugoa").find(text[i]) != std::string_view::npos;
             ++i) {
            affected |= class_bits(text[i]);
        }
        if (affected == 0) {
            affected = all_bits;  // with umask 0, as find applies it
        }
        if (i >= text.size() || std::string_view("=+-").find(text[i]) == std::string_view::npos) {
            return std::nullopt;
        }
        while (i < text.size() && std::string_view("=+-").find(text[i]) != std::string_view::npos) {
            char op = text[i++];
            mode_t value = 0;
            if (i < text.size() && (text[i] == 'u' || text[i] == 'g' || text[i] == 'o')) {
                value = copy_class(mode, text[i++]);
            } else {
                bool x_if_any = false;
                for (; i < text.size(); ++i) {
                    char perm = text[i];
                    if (perm == 'r') value |= S_IRUSR | S_IRGRP | S_IROTH;
                    else if (perm == 'w') value |= S_IWUSR | S_IWGRP | S_IWOTH;
                    else if (perm == 'x') value |= S_IXUSR | S_IXGRP | S_IXOTH;
                    else if (perm == 'X') x_if_any = true;
                    else if (perm == 's') value |= S_ISUID | S_ISGID;
                    else if (perm == 't') value |= S_ISVTX;
                    else break;
                }
                if (x_if_any && (is_directory || (mode & (S_IXUSR | S_IXGRP | S_IXOTH)))) {
                    value |= S_IXUSR | S_IXGRP | S_IXOTH;
                }
            }
            value &= affected;
            if (op == '=') {
                mode = (mode & ~affected) | value;
            } else if (op == '+') {
                mode |= value;
            } else {
                mode &= ~value;
            }
        }
        if (i == text.size()) {
            return mode;
        }
        if (text[i] != ',') {
            return std::nullopt;
        }
        ++i;
    }
}

std::optional<PermSpec> parse_perm_spec(std::string_view text) {
    PermSpec spec;
    if (!text.empty() && (text[0] == '-' || text[0] == '/')) {
        spec.kind = text[0] == '-' ? PermSpec::at_least : PermSpec::any;
        text.remove_prefix(1);
    }
    std::optional<mode_t> file_bits = apply_mode(text, 0, false);
    std::optional<mode_t> directory_bits = apply_mode(text, 0, true);
    if (text.empty() || !file_bits || !directory_bits) {
        return std::nullopt;
    }
    spec.file_bits = *file_bits;
    spec.directory_bits = *directory_bits;
    return spec;
}

namespace {

class PermTest final : public Primary {
public:
    explicit PermTest(PermSpec spec) : spec_(spec) {}
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        return buf && spec_.matches(buf->stx_mode, S_ISDIR(buf->stx_mode));
    }
    unsigned stat_mask() const override { return STATX_MODE | STATX_TYPE; }

private:
    PermSpec spec_;
};

} // namespace

std::unique_ptr<Primary> parse_perm(ParseContext& context) {
    const std::string& argument = context.take();
    std::optional<PermSpec> spec = parse_perm_spec(argument);
    if (!spec) {
        fail_usage("invalid mode " + quote_path(argument));
    }
    if (spec->kind == PermSpec::any && spec->file_bits == 0 && spec->directory_bits == 0) {
        // find says this whether warnings are on or not.
        report_warning("you have specified a mode pattern " + argument +
                       " (which is equivalent to /000). The meaning of -perm /000 has now been "
                       "changed to be consistent with -perm -000; that is, while it used to "
                       "match no files, it now matches all files.");
    }
    return std::make_unique<PermTest>(*spec);
}

} // namespace ufind
