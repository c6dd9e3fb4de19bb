// Every word the expression grammar knows: options, tests and actions, with
// their arguments and a line of help each.
//
// One table, three readers: the parser refuses any word not in it (and
// suggests the nearest one that is), --help prints it grouped, and the tests
// compare it with the man page and the shell completions so none of them
// drifts from what ufind accepts.  -newerXY stands for its 20 spellings.
#pragma once

#include <span>
#include <string_view>

namespace ufind {

enum class WordGroup : unsigned char {
    positional_option,  // affects the primaries after it (-daystart, -regextype)
    global_option,      // affects the whole run wherever it stands (-maxdepth)
    test,
    action,
    ufind_option,       // ufind's own, not GNU find's (-S, -j, -color, -status)
};

struct WordInfo {
    std::string_view name;      // "-name"
    std::string_view argument;  // "PATTERN", or empty
    WordGroup group;
    std::string_view summary;   // one line for --help
};

std::span<const WordInfo> expression_words();

// The table's entry for name, or nullptr.  "-newerXY" spellings
// ("-newermt") match the -newerXY entry.
const WordInfo* find_word(std::string_view name);

// The known word nearest to a mistyped one ("-nmae" -> "-name"), or empty
// when none is close enough to be a likely intent.
std::string_view suggest_word(std::string_view mistyped);

} // namespace ufind
