#include "predicates/bfs_tests.hpp"

#include "expr/eval.hpp"
#include "values/comparison.hpp"

#include <climits>

namespace ufind {
namespace {

class HiddenTest final : public Primary {
public:
    bool evaluate(EvalContext& context) override {
        return is_hidden_name(context.entry->name());
    }
};

class DepthTest final : public Primary {
public:
    explicit DepthTest(Comparison depth) : depth_(depth) {}
    bool evaluate(EvalContext& context) override {
        return depth_.matches(static_cast<std::uint64_t>(context.entry->depth()));
    }

private:
    Comparison depth_;
};

class SparseTest final : public Primary {
public:
    bool evaluate(EvalContext& context) override {
        const struct statx* buf = context.stat();
        return buf && buf->stx_blocks * 512 < buf->stx_size;
    }
    unsigned stat_mask() const override { return STATX_SIZE | STATX_BLOCKS; }
};

} // namespace

bool is_hidden_name(std::string_view name) {
    return name.starts_with('.') && name != "." && name != "..";
}

bool looks_like_depth_argument(std::string_view text) {
    if (text.starts_with('+') || text.starts_with('-')) {
        text.remove_prefix(1);
    }
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

std::unique_ptr<Primary> parse_hidden(ParseContext&) { return std::make_unique<HiddenTest>(); }

std::unique_ptr<Primary> parse_sparse(ParseContext&) { return std::make_unique<SparseTest>(); }

std::unique_ptr<Primary> parse_depth_test(ParseContext& context) {
    const std::string& argument = context.take();
    std::optional<Comparison> depth = parse_comparison(argument);
    if (!depth || depth->value > INT_MAX) {
        context.invalid(argument);
    }
    return std::make_unique<DepthTest>(*depth);
}

} // namespace ufind
