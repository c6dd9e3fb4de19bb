#include "actions/bfs_actions.hpp"

#include "expr/eval.hpp"
#include "system/diagnostics.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ufind {
namespace {

class LimitAction final : public Primary {
public:
    explicit LimitAction(long long limit) : limit_(limit) {}
    bool evaluate(EvalContext& context) override {
        if (++count_ >= limit_) {
            context.quit = true;
        }
        return true;
    }

private:
    long long limit_;
    long long count_ = 0;
};

class ExitAction final : public Primary {
public:
    explicit ExitAction(int status) : status_(status) {}
    bool evaluate(EvalContext& context) override {
        context.quit = true;
        context.exit_status = status_;
        return true;
    }
    bool is_action() const override { return true; }

private:
    int status_;
};

class PrintxAction final : public Primary {
public:
    bool evaluate(EvalContext& context) override {
        line_.clear();
        for (char c : context.entry->path()) {
            if (std::string_view(" \t\n\\'\"").find(c) != std::string_view::npos) {
                line_ += '\\';
            }
            line_ += c;
        }
        line_ += '\n';
        context.out.write(line_);
        return true;
    }
    bool is_action() const override { return true; }

private:
    std::string line_;  // reused: no allocation per entry once grown
};

// A decimal integer in [minimum, INT_MAX] or LLONG_MAX; false otherwise.
bool parse_integer(const std::string& text, long long maximum, long long& value) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
        return false;
    }
    errno = 0;
    value = std::strtoll(text.c_str(), nullptr, 10);
    return errno != ERANGE && value <= maximum;
}

} // namespace

std::unique_ptr<Primary> parse_limit(ParseContext& context) {
    const std::string& argument = context.take();
    long long limit = 0;
    if (!parse_integer(argument, LLONG_MAX, limit)) {
        context.invalid(argument);
    }
    if (limit < 1) {
        fail_usage("the argument to `-limit' must be at least 1");
    }
    context.state.seen_limit = true;
    return std::make_unique<LimitAction>(limit);
}

std::unique_ptr<Primary> parse_exit(ParseContext& context) {
    // The status is optional: only a number that follows is taken as it.
    long long status = 0;
    if (!context.at_end() && parse_integer(context.peek(), 255, status)) {
        context.take();
    }
    return std::make_unique<ExitAction>(static_cast<int>(status));
}

std::unique_ptr<Primary> parse_printx(ParseContext&) { return std::make_unique<PrintxAction>(); }

} // namespace ufind
