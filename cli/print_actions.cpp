#include "print_actions.hpp"

#include "eval.hpp"

namespace ufind {
namespace {

class FilePrintAction final : public Primary {
public:
    FilePrintAction(Output& output, char terminator) : output_(output), terminator_(terminator) {}
    bool evaluate(EvalContext& context) override {
        output_.write(context.entry->path());
        output_.put(terminator_);
        return true;
    }
    bool is_action() const override { return true; }

private:
    Output& output_;
    char terminator_;
};

} // namespace

std::unique_ptr<Primary> parse_fprint(ParseContext& context) {
    char terminator = context.name() == "-fprint0" ? '\0' : '\n';
    return std::make_unique<FilePrintAction>(context.command.outputs->open(context.take()),
                                             terminator);
}

} // namespace ufind
