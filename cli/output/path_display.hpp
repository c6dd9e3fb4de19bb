// PathDisplay: how -print shows a path on standard output.
//
//   stdout is a pipe or file  -> the bytes, untouched (no PathDisplay)
//   stdout is a terminal      -> non-printable characters as '?' (as find)
//   colors on (-color, or a terminal without NO_COLOR)
//                             -> directory part in "di", the name in the
//                                color bfs gives it (ls_colors.hpp), one
//                                span when both are the same; each part
//                                $'...'-quoted if it holds what could
//                                drive the terminal, as bfs does
//
// The plain case costs the evaluator one pointer test per printed entry:
// EvalContext::display is null unless something is to be done.
#pragma once

#include "output/ls_colors.hpp"

#include <memory>
#include <string>

namespace ufind {

struct EvalContext;

class PathDisplay {
public:
    // escape: replace non-printable characters; colors: null for none.
    PathDisplay(bool escape, std::unique_ptr<LsColors> colors)
        : escape_(escape), colors_(std::move(colors)) {}

    bool colors() const { return colors_ != nullptr; }
    // Whether showing a path needs the entry's metadata (colors by mode).
    bool needs_metadata() const {
        return colors_ && (colors_->needs_mode(IOQ_TYPE_REGULAR) ||
                           colors_->needs_mode(IOQ_TYPE_DIRECTORY) || colors_->link_as_target() ||
                           colors_->colors_orphans());
    }

    // Appends the current entry's path, as it should be seen, to out.
    void append_path(std::string& out, EvalContext& context) const;

private:
    bool escape_;
    std::unique_ptr<LsColors> colors_;
    // The last directory part shown and how it was shown: the entries of
    // one directory come together, and this saves quoting it each time.
    mutable std::string shown_directory_;
    mutable std::string shown_directory_text_;
};

// Whether standard output should be colored when neither -color nor
// -nocolor was given: a terminal, NO_COLOR unset or empty, TERM not "dumb".
bool colors_wanted_by_default();

} // namespace ufind
