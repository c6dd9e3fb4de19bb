#include "output/path_display.hpp"

#include "expr/eval.hpp"
#include "output/terminal_text.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace ufind {
namespace {

// Where the name starts in a path: after the last '/' that is not trailing
// ("a/b/" names "b/"); 0 for a path without one.
std::size_t name_start(std::string_view path) {
    std::size_t end = path.size();
    while (end > 1 && path[end - 1] == '/') {
        --end;
    }
    std::size_t slash = path.rfind('/', end == 0 ? 0 : end - 1);
    return slash == std::string_view::npos ? 0 : slash + 1;
}

ColorFacts color_facts(EvalContext& context, const LsColors& colors, ioq_type type) {
    ColorFacts facts;
    if (!colors.needs_facts(type)) {
        return facts;
    }
    struct statx buf;
    bool follow = context.follows_links();
    if (context.walk.stat(STATX_MODE | STATX_NLINK | STATX_TYPE, follow, buf) == 0) {
        facts.mode = buf.stx_mode;
        facts.links = buf.stx_nlink;
    }
    if (type == IOQ_TYPE_SYMLINK) {
        if (context.walk.stat(STATX_MODE | STATX_TYPE, true, buf) == 0) {
            facts.target_mode = buf.stx_mode;
        } else {
            facts.broken_link = true;
        }
    }
    return facts;
}

} // namespace

void PathDisplay::append_text(std::string& out, std::string_view text) const {
    if (escape_) {
        append_printable(out, text);
    } else {
        out.append(text);
    }
}

void PathDisplay::append_path(std::string& out, EvalContext& context) const {
    std::string_view path = context.entry->path();
    if (!colors_) {
        append_text(out, path);
        return;
    }
    std::size_t start = name_start(path);
    if (start > 0) {
        scratch_.clear();
        append_text(scratch_, path.substr(0, start));
        colors_->append_colored(out, colors_->value(LsColors::directory), scratch_);
    }
    ioq_type type = context.entry->type();
    std::string_view name = path.substr(start);
    std::string_view sequence = colors_->sequence_for(type, color_facts(context, *colors_, type), name);
    scratch_.clear();
    append_text(scratch_, name);
    colors_->append_colored(out, sequence, scratch_);
}

bool colors_wanted_by_default() {
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    return ::isatty(STDOUT_FILENO) == 1 && (!no_color || !*no_color) && term &&
           std::strcmp(term, "dumb") != 0;
}

} // namespace ufind
