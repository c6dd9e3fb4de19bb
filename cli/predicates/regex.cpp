#include "predicates/regex.hpp"

#include "expr/eval.hpp"
#include "values/regex_size.hpp"

#include <regex.h>

#include <cstring>
#include <string_view>

namespace ufind {
namespace {

struct RegexType {
    std::string_view name;
    int syntax;
};

// findutils' table, in its order (its error message lists them so).
const RegexType regex_types[] = {
    {"findutils-default", RE_SYNTAX_EMACS | RE_DOT_NEWLINE},
    {"ed", RE_SYNTAX_ED},
    {"emacs", RE_SYNTAX_EMACS},
    {"gnu-awk", RE_SYNTAX_GNU_AWK},
    {"grep", RE_SYNTAX_GREP},
    {"posix-awk", RE_SYNTAX_POSIX_AWK},
    {"awk", RE_SYNTAX_AWK},
    {"posix-basic", RE_SYNTAX_POSIX_BASIC},
    {"posix-egrep", RE_SYNTAX_POSIX_EGREP},
    {"egrep", RE_SYNTAX_EGREP},
    {"posix-extended", RE_SYNTAX_POSIX_EXTENDED},
    {"posix-minimal-basic", RE_SYNTAX_POSIX_MINIMAL_BASIC},
    {"sed", RE_SYNTAX_SED},
};

class RegexTest final : public Primary {
public:
    RegexTest() { std::memset(&pattern_, 0, sizeof pattern_); }
    ~RegexTest() override { ::regfree(&pattern_); }

    // nullptr, or glibc's message about what is wrong with the pattern.
    const char* compile(const std::string& text, int syntax) {
        if (!fits_regex_compiler(estimate_regex_size(text, syntax))) {
            return "Regular expression too big";  // glibc's words for REG_ESIZE
        }
        ::re_set_syntax(static_cast<reg_syntax_t>(syntax));
        pattern_.no_sub = 1;
        return ::re_compile_pattern(text.data(), text.size(), &pattern_);
    }

    bool evaluate(EvalContext& context) override {
        std::string_view path = context.entry->path();
        auto length = static_cast<regoff_t>(path.size());
        return ::re_match(&pattern_, path.data(), length, 0, nullptr) == length;
    }

private:
    struct re_pattern_buffer pattern_;
};

} // namespace

int regex_syntax_by_name(const std::string& name) {
    std::string valid;
    for (const RegexType& type : regex_types) {
        if (type.name == name) {
            return type.syntax;
        }
        valid += valid.empty() ? "" : ", ";
        valid += quote_path(type.name);
    }
    fail_usage("Unknown regular expression type " + quote_path(name) + "; valid types are " +
               valid + ".");
}

std::unique_ptr<Primary> parse_regex(ParseContext& context) {
    const std::string& text = context.take();
    int syntax = context.state.regex_syntax;
    if (context.name() == "-iregex") {
        syntax |= RE_ICASE;
    }
    auto test = std::make_unique<RegexTest>();
    if (const char* error = test->compile(text, syntax)) {
        fail_usage("failed to compile regular expression '" + text + "': " + error);
    }
    return test;
}

} // namespace ufind
