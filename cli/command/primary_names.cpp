#include "command/primary_names.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace ufind {
namespace {

using G = WordGroup;

constexpr WordInfo words[] = {
    // Positional options
    {"-daystart", "", G::positional_option, "measure times from the start of today"},
    {"-follow", "", G::positional_option, "follow symbolic links (as -L)"},
    {"-nowarn", "", G::positional_option, "turn warnings off"},
    {"-regextype", "TYPE", G::positional_option, "regex syntax of later -regex and -iregex"},
    {"-warn", "", G::positional_option, "turn warnings on"},
    // Global options
    {"-d", "", G::global_option, "as -depth (deprecated)"},
    {"-depth", "", G::global_option, "visit a directory after its contents (-depth N: a test of depth)"},
    {"-files0-from", "FILE", G::global_option, "read NUL-separated starting points from FILE"},
    {"-help", "", G::global_option, "print this help and exit"},
    {"--help", "", G::global_option, "print this help and exit"},
    {"-ignore_readdir_race", "", G::global_option, "files vanishing during the walk are no error"},
    {"-maxdepth", "LEVELS", G::global_option, "descend at most LEVELS below the starting points"},
    {"-mindepth", "LEVELS", G::global_option, "ignore entries above depth LEVELS"},
    {"-mount", "", G::global_option, "as -xdev"},
    {"-noignore_readdir_race", "", G::global_option, "files vanishing are errors (the default)"},
    {"-noleaf", "", G::global_option, "accepted for compatibility; changes nothing"},
    {"-version", "", G::global_option, "print the version and exit"},
    {"--version", "", G::global_option, "print the version and exit"},
    {"-xdev", "", G::global_option, "do not descend into other filesystems"},
    {"-exclude", "EXPR", G::global_option, "never visit nor descend into entries matching EXPR"},
    {"-nohidden", "", G::global_option, "as -exclude -hidden"},
    {"-noerror", "", G::global_option, "do not print errors (-warn counts them at exit)"},
    {"-unique", "", G::global_option, "visit each file once, however many paths lead to it"},
    // Tests
    {"-amin", "N", G::test, "accessed N minutes ago"},
    {"-anewer", "FILE", G::test, "accessed more recently than FILE was modified"},
    {"-atime", "N", G::test, "accessed N days ago"},
    {"-cmin", "N", G::test, "status changed N minutes ago"},
    {"-cnewer", "FILE", G::test, "status changed more recently than FILE was modified"},
    {"-context", "CONTEXT", G::test, "SELinux context (unsupported: always an error)"},
    {"-ctime", "N", G::test, "status changed N days ago"},
    {"-empty", "", G::test, "empty file or directory"},
    {"-executable", "", G::test, "executable (or searchable) by this user"},
    {"-false", "", G::test, "always false"},
    {"-fstype", "TYPE", G::test, "on a filesystem of TYPE"},
    {"-gid", "N", G::test, "numeric group id N"},
    {"-group", "NAME", G::test, "owned by group NAME (or number)"},
    {"-ilname", "PATTERN", G::test, "as -lname, ignoring case"},
    {"-iname", "PATTERN", G::test, "as -name, ignoring case"},
    {"-inum", "N", G::test, "inode number N"},
    {"-ipath", "PATTERN", G::test, "as -path, ignoring case"},
    {"-iregex", "PATTERN", G::test, "as -regex, ignoring case"},
    {"-iwholename", "PATTERN", G::test, "as -ipath"},
    {"-links", "N", G::test, "N hard links"},
    {"-lname", "PATTERN", G::test, "symbolic link whose target matches PATTERN"},
    {"-mmin", "N", G::test, "modified N minutes ago"},
    {"-mtime", "N", G::test, "modified N days ago"},
    {"-name", "PATTERN", G::test, "base name matches the shell PATTERN"},
    {"-newer", "FILE", G::test, "modified more recently than FILE"},
    {"-newerXY", "REFERENCE", G::test, "time X newer than time Y of REFERENCE (a, B, c, m, t)"},
    {"-nogroup", "", G::test, "group id without a name"},
    {"-nouser", "", G::test, "user id without a name"},
    {"-path", "PATTERN", G::test, "whole path matches the shell PATTERN"},
    {"-perm", "[-/]MODE", G::test, "permission bits exactly, all of (-) or any of (/) MODE"},
    {"-readable", "", G::test, "readable by this user"},
    {"-regex", "PATTERN", G::test, "whole path matches the regular expression"},
    {"-samefile", "FILE", G::test, "the same inode as FILE"},
    {"-size", "N[bcwkMG]", G::test, "size N units, rounded up"},
    {"-true", "", G::test, "always true"},
    {"-type", "[bcdpfls]", G::test, "of type (comma-separated list)"},
    {"-uid", "N", G::test, "numeric user id N"},
    {"-used", "N", G::test, "accessed N days after its status last changed"},
    {"-user", "NAME", G::test, "owned by user NAME (or number)"},
    {"-wholename", "PATTERN", G::test, "as -path"},
    {"-writable", "", G::test, "writable by this user"},
    {"-xtype", "[bcdpfls]", G::test, "as -type, seen through symbolic links the other way"},
    {"-Bmin", "N", G::test, "born N minutes ago"},
    {"-Bnewer", "FILE", G::test, "born more recently than FILE was modified"},
    {"-Btime", "N", G::test, "born N days ago"},
    {"-asince", "DATE", G::test, "accessed after DATE (as -neweramt)"},
    {"-Bsince", "DATE", G::test, "born after DATE"},
    {"-csince", "DATE", G::test, "status changed after DATE"},
    {"-hidden", "", G::test, "name starts with a dot"},
    {"-mnewer", "FILE", G::test, "as -newer"},
    {"-msince", "DATE", G::test, "modified after DATE"},
    {"-since", "DATE", G::test, "as -msince"},
    {"-sparse", "", G::test, "fewer bytes allocated than its size"},
    {"-xattr", "", G::test, "has extended attributes"},
    {"-xattrname", "NAME", G::test, "has the extended attribute NAME"},
    {"-acl", "", G::test, "has a POSIX ACL beyond its mode"},
    {"-capable", "", G::test, "has file capabilities"},
    {"-flags", "[-+]LETTERS", G::test, "inode flags in chattr's letters: exactly, all (-) or any (+)"},
    // Actions
    {"-delete", "", G::action, "delete the entry (implies -depth)"},
    {"-exec", "COMMAND ;", G::action, "run COMMAND; {} is the path; true if it exits 0"},
    {"-execdir", "COMMAND ;", G::action, "as -exec, run in the entry's directory"},
    {"-fjson", "FILE", G::action, "as -json, into FILE"},
    {"-fls", "FILE", G::action, "as -ls, into FILE"},
    {"-fprint", "FILE", G::action, "as -print, into FILE"},
    {"-fprint0", "FILE", G::action, "as -print0, into FILE"},
    {"-fprintf", "FILE FORMAT", G::action, "as -printf, into FILE"},
    {"-json", "", G::action, "print a JSON object per entry (JSON Lines)"},
    {"-ls", "", G::action, "list in ls -dils format"},
    {"-ok", "COMMAND ;", G::action, "as -exec, asking first"},
    {"-okdir", "COMMAND ;", G::action, "as -execdir, asking first"},
    {"-print", "", G::action, "print the path and a newline"},
    {"-print0", "", G::action, "print the path and a NUL"},
    {"-printf", "FORMAT", G::action, "print FORMAT (%p path, %s size, ...)"},
    {"-prune", "", G::action, "do not descend into this directory"},
    {"-quit", "", G::action, "stop at once"},
    {"-exit", "[STATUS]", G::action, "stop at once and exit with STATUS (0)"},
    {"-limit", "N", G::action, "stop after reaching this N times"},
    {"-printx", "", G::action, "as -print, blanks and quotes escaped for xargs"},
    {"-rm", "", G::action, "as -delete"},
    // ufind's own options
    {"-S", "STRATEGY", G::ufind_option, "search strategy: hybrid (default), bfs, dfs, ids, eds"},
    {"-j", "N", G::ufind_option, "use N threads in all"},
    {"-color", "", G::ufind_option, "color paths as ls does, from LS_COLORS"},
    {"-nocolor", "", G::ufind_option, "never color"},
    {"-status", "", G::ufind_option, "show progress on the terminal's stderr"},
    {"--stats", "", G::ufind_option, "print statistics of the walk on stderr at exit"},
};

// Optimal string alignment distance: edits, with swapping two neighbours
// counted as one (the commonest typo: -nmae).
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) {
        previous[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                current[j] = std::min(current[j], before[j - 2] + 1);
            }
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[b.size()];
}

std::string_view without_dashes(std::string_view word) {
    std::size_t start = word.find_first_not_of('-');
    return start == std::string_view::npos ? std::string_view() : word.substr(start);
}

} // namespace

std::span<const WordInfo> expression_words() { return words; }

const WordInfo* find_word(std::string_view name) {
    if (name.size() == 8 && name.starts_with("-newer")) {
        name = "-newerXY";
    }
    for (const WordInfo& word : words) {
        if (word.name == name) {
            return &word;
        }
    }
    return nullptr;
}

std::string_view suggest_word(std::string_view mistyped) {
    std::string_view bare = without_dashes(mistyped);
    if (bare.empty()) {
        return {};
    }
    std::string_view best;
    std::size_t best_distance = 0;
    for (const WordInfo& word : words) {
        if (word.name == "-newerXY" || word.name.starts_with("--")) {
            continue;
        }
        std::size_t distance = edit_distance(bare, without_dashes(word.name));
        if (best.empty() || distance < best_distance) {
            best = word.name;
            best_distance = distance;
        }
    }
    // One edit in a short word, or up to a third of a long one: beyond that
    // the "nearest" word is a guess, not a likely intent.
    std::size_t allowed = std::max<std::size_t>(1, bare.size() / 3);
    return best_distance <= allowed ? best : std::string_view();
}

} // namespace ufind
