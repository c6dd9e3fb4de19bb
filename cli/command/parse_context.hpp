// ParseContext: what the parse function of a primary family sees.
//
//   parse.cpp: "-size" found in the table --> parse_size(context)
//   parse_size: context.take() -> "+3k" --> SizeTest --> back to the parser
//
// Each family (predicates/metadata.cpp, predicates/time.cpp, printf.cpp, exec.cpp,
// ...) parses its own arguments through this, so that parse.cpp holds the
// grammar and a table of names, not the details of every primary.  Options
// that change how later primaries parse (-daystart, -regextype) live in
// ParseState; options of the whole run live in the Command.
#pragma once

#include "command/parse.hpp"
#include "system/diagnostics.hpp"

#include <time.h>

#include <cstddef>
#include <string>
#include <vector>

namespace ufind {

// Positional settings: each affects the primaries after it, as in find.
struct ParseState {
    struct timespec time_origin {};  // "now", or the start of tomorrow after -daystart
    bool daystart = false;
    int regex_syntax = 0;            // RE_SYNTAX_* of -regextype; set by the parser
    bool regex_type_set = false;
    bool seen_delete = false;
    bool seen_prune = false;
    bool seen_depth = false;         // -depth given explicitly
    bool seen_prompt = false;        // -ok or -okdir read answers from stdin
    bool seen_limit = false;         // -limit, which needs an explicit action
};

class ParseContext {
public:
    ParseContext(const std::vector<std::string>& args, std::size_t& pos, Command& command,
                 ParseState& state, const std::string& name)
        : command(command), state(state), args_(args), pos_(pos), name_(name) {}

    Command& command;
    ParseState& state;

    // The primary being parsed, as spelled ("-size").
    const std::string& name() const { return name_; }
    bool at_end() const { return pos_ >= args_.size(); }
    const std::string& peek() const { return args_[pos_]; }
    // The next argument; "missing argument to `NAME'" when there is none.
    const std::string& take() {
        if (at_end()) {
            fail_usage("missing argument to `" + name_ + "'");
        }
        set_usage_position(args_, pos_);
        return args_[pos_++];
    }
    // find's message for an argument it cannot use.
    [[noreturn]] void invalid(const std::string& argument) const {
        fail_usage("invalid argument `" + argument + "' to `" + name_ + "'");
    }

private:
    const std::vector<std::string>& args_;
    std::size_t& pos_;
    const std::string& name_;
};

} // namespace ufind
