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

// The type a file is colored as, and what its color depends on: its mode
// when a rule asks, and for a symlink whether it leads anywhere.
ioq_type color_type(EvalContext& context, const LsColors& colors, ColorFacts& facts) {
    ioq_type type = context.entry->type();
    struct statx buf;
    if (type == IOQ_TYPE_SYMLINK && (colors.link_as_target() || colors.colors_orphans())) {
        if (context.walk.stat(STATX_MODE | STATX_NLINK | STATX_TYPE, true, buf) != 0) {
            facts.broken_link = true;
            return type;
        }
        if (colors.link_as_target()) {
            facts.mode = buf.stx_mode;
            facts.links = buf.stx_nlink;
            return type_of_mode(buf.stx_mode);
        }
        return type;
    }
    if (type == IOQ_TYPE_UNKNOWN || colors.needs_mode(type)) {
        if (context.walk.stat(STATX_MODE | STATX_NLINK | STATX_TYPE, context.follows_links(), buf) == 0) {
            facts.mode = buf.stx_mode;
            facts.links = buf.stx_nlink;
            type = type_of_mode(buf.stx_mode);
        }
    }
    return type;
}

} // namespace

void PathDisplay::append_path(std::string& out, EvalContext& context) const {
    std::string_view path = context.entry->path();
    if (!colors_) {
        if (escape_) {
            append_printable(out, path);
        } else {
            out.append(path);
        }
        return;
    }
    // The walk knows where the name starts below a starting point.
    const ioq_entry& raw = context.entry->raw();
    std::size_t start = context.entry->depth() > 0 && raw.name >= raw.path &&
                                raw.name <= raw.path + raw.path_len
                            ? static_cast<std::size_t>(raw.name - raw.path)
                            : name_start(path);
    ColorFacts facts;
    ioq_type type = color_type(context, *colors_, facts);
    LsColors::Color directories = colors_->directory_color();
    LsColors::Color name = colors_->color_for(type, facts, path.substr(start));
    if (name == directories) {
        start = path.size();  // one span: "dir/sub" all in "di"
    }
    std::string_view directory = path.substr(0, start);
    if (directory != shown_directory_) {
        shown_directory_.assign(directory);
        shown_directory_text_.clear();
        colors_->append_colored(shown_directory_text_, directories, directory);
    }
    out.append(shown_directory_text_);
    colors_->append_colored(out, name, path.substr(start));
}

bool colors_wanted_by_default() {
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    return ::isatty(STDOUT_FILENO) == 1 && (!no_color || !*no_color) && term &&
           std::strcmp(term, "dumb") != 0;
}

} // namespace ufind
