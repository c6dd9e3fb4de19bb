#include "path_tests.hpp"

#include "eval.hpp"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

namespace ufind {
namespace {

class PathPatternTest final : public Primary {
public:
    PathPatternTest(std::string pattern, int flags) : pattern_(std::move(pattern)), flags_(flags) {}
    bool evaluate(EvalContext& context) override {
        return ::fnmatch(pattern_.c_str(), context.entry->c_path(), flags_) == 0;
    }

private:
    std::string pattern_;
    int flags_;
};

class LinkNameTest final : public Primary {
public:
    LinkNameTest(std::string pattern, int flags) : pattern_(std::move(pattern)), flags_(flags) {}
    bool evaluate(EvalContext& context) override {
        // Under -L a link that resolves is what it points to; only broken
        // links are still links, as in find.
        if (context.entry->type() != IOQ_TYPE_SYMLINK) {
            return false;
        }
        if (!read_link(context.entry->c_path(), target_)) {
            report_path_error(context.entry->path(), errno);
            return false;
        }
        return ::fnmatch(pattern_.c_str(), target_.c_str(), flags_) == 0;
    }

private:
    std::string pattern_;
    int flags_;
    std::string target_;  // reused: no allocation per link once grown
};

} // namespace

bool read_link(const char* path, std::string& buffer) {
    // All the capacity a longer target once needed, so no allocation now.
    buffer.resize(std::max<std::size_t>(256, buffer.capacity()));
    while (true) {
        ssize_t n = ::readlink(path, buffer.data(), buffer.size());
        if (n < 0) {
            return false;
        }
        if (static_cast<std::size_t>(n) < buffer.size()) {
            buffer.resize(static_cast<std::size_t>(n));
            return true;
        }
        buffer.resize(buffer.size() * 2);
    }
}

std::unique_ptr<Primary> parse_path_test(ParseContext& context) {
    const std::string& name = context.name();
    int flags = name == "-wholename" ? 0 : FNM_CASEFOLD;
    return std::make_unique<PathPatternTest>(context.take(), flags);
}

std::unique_ptr<Primary> parse_lname(ParseContext& context) {
    int flags = context.name() == "-ilname" ? FNM_CASEFOLD : 0;
    return std::make_unique<LinkNameTest>(context.take(), flags);
}

} // namespace ufind
