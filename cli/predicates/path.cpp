#include "predicates/path.hpp"

#include "expr/eval.hpp"
#include "system/diagnostics.hpp"
#include "values/glob_pattern.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

namespace ufind {
namespace {

class PathPatternTest final : public Primary {
public:
    explicit PathPatternTest(GlobPattern pattern) : pattern_(std::move(pattern)) {}
    bool evaluate(EvalContext& context) override { return pattern_.matches(context.entry->path()); }

private:
    GlobPattern pattern_;
};

class LinkNameTest final : public Primary {
public:
    explicit LinkNameTest(GlobPattern pattern) : pattern_(std::move(pattern)) {}
    bool evaluate(EvalContext& context) override {
        // Under -L a link that resolves is what it points to; only broken
        // links are still links, as in find.
        if (context.entry->type() != IOQ_TYPE_SYMLINK) {
            return false;
        }
        if (!read_link(context, target_)) {
            report_path_error(context.entry->path(), errno);
            return false;
        }
        return pattern_.matches(target_);
    }

private:
    GlobPattern pattern_;
    std::string target_;  // reused: no allocation per link once grown
};

} // namespace

void warn_if_pattern_ends_with_slash(const std::string& name, const std::string& pattern) {
    if (!pattern.empty() && pattern.back() == '/') {
        report_warning(name + " " + pattern + " will not match anything because it ends with /.");
    }
}

std::unique_ptr<Primary> parse_path_test(ParseContext& context) {
    const std::string& name = context.name();
    bool fold_case = name != "-wholename";
    const std::string& pattern = context.take();
    warn_if_pattern_ends_with_slash(name, pattern);
    return std::make_unique<PathPatternTest>(GlobPattern(pattern, fold_case));
}

std::unique_ptr<Primary> parse_lname(ParseContext& context) {
    bool fold_case = context.name() == "-ilname";
    return std::make_unique<LinkNameTest>(GlobPattern(context.take(), fold_case));
}

} // namespace ufind
