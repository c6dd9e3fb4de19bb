#include "actions/print_actions.hpp"

#include "expr/eval.hpp"
#include "output/terminal_text.hpp"

namespace ufind {
namespace {

class FilePrintAction final : public Primary {
public:
    FilePrintAction(Output& output, char terminator) : output_(output), terminator_(terminator) {}
    bool evaluate(EvalContext& context) override {
        std::string_view path = context.entry->path();
        if (terminator_ == '\n' && output_.terminal() && !is_printable(path)) {
            // -fprint to a terminal escapes as -print does; -fprint0 never.
            shown_.clear();
            append_printable(shown_, path);
            path = shown_;
        }
        output_.write(path);
        output_.put(terminator_);
        return true;
    }
    bool is_action() const override { return true; }

private:
    Output& output_;
    char terminator_;
    std::string shown_;  // reused: an escaped path
};

} // namespace

std::unique_ptr<Primary> parse_fprint(ParseContext& context) {
    char terminator = context.name() == "-fprint0" ? '\0' : '\n';
    return std::make_unique<FilePrintAction>(context.command.outputs->open(context.take()),
                                             terminator);
}

} // namespace ufind
