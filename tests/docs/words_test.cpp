// The documentation in step with the parser.
//
// cli/command/primary_names.cpp holds every word the parser accepts.  These tests
// read the table and check that each reader of it says the same:
//
//   table ──> man page      every word is a .TP item, and every .TP item
//                           that looks like a primary is a word
//         ──> --help        every word is printed, in 79 columns
//         ──> completions   bash, zsh and fish offer every word (with the
//                           20 spellings of -newerXY), and nothing else
//
// The options parsed before the starting points (-H -L -P -D -O -s) are not
// words of the expression: the man page and the completions may document
// them, and --help must.  The files are found under UFIND_SOURCE_ROOT,
// which meson sets to the project's source directory.
#include "command/help.hpp"
#include "command/primary_names.hpp"

#include <criterion/criterion.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using ufind::WordInfo;

// Options before the starting points, documented apart from the table.
const std::set<std::string> leading_options = {"-H", "-L", "-P", "-D", "-O", "-s",
                                                "-E", "-X", "-x", "-f"};
// Operators spelled as words; the completions offer them too.
const std::set<std::string> operator_words = {"-not", "-a", "-and", "-o", "-or"};

std::string read_source_file(const std::string& relative) {
    const char* root = std::getenv("UFIND_SOURCE_ROOT");
    cr_assert_not_null(root, "UFIND_SOURCE_ROOT is not set (meson sets it)");
    std::string path = std::string(root) + "/" + relative;
    std::ifstream file(path, std::ios::binary);
    cr_assert(file.good(), "cannot read %s", path.c_str());
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// The words as completions offer them: -newerXY is not typed literally.
std::vector<std::string> typed_words() {
    std::vector<std::string> words;
    for (const WordInfo& word : ufind::expression_words()) {
        if (word.name == "-newerXY") {
            for (char x : std::string_view("aBcm")) {
                for (char y : std::string_view("aBcmt")) {
                    words.push_back(std::string("-newer") + x + y);
                }
            }
        } else {
            words.emplace_back(word.name);
        }
    }
    return words;
}

bool is_word_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

// Whether text holds word as a whole token ("-help" is not in "--help").
bool mentions(std::string_view text, std::string_view word) {
    for (std::size_t at = text.find(word); at != std::string_view::npos;
         at = text.find(word, at + 1)) {
        bool starts = at == 0 || !is_word_character(text[at - 1]);
        std::size_t end = at + word.size();
        bool ends = end == text.size() || !is_word_character(text[end]);
        if (starts && ends) {
            return true;
        }
    }
    return false;
}

bool in_table(const std::string& name) {
    for (const WordInfo& word : ufind::expression_words()) {
        if (word.name == name) {
            return true;
        }
    }
    return false;
}

// --- The man page ----------------------------------------------------------

// The text a man(7) font macro line shows: its arguments joined (the fonts
// alternate, the text runs on), font escapes dropped, \- a dash.
std::string rendered_macro_text(std::string_view line) {
    std::size_t space = line.find(' ');
    std::string_view rest = space == std::string_view::npos ? "" : line.substr(space + 1);
    std::string joined;
    bool quoted = false;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        char c = rest[i];
        if (c == '"') {
            quoted = !quoted;
        } else if (c == ' ' && !quoted) {
            continue;  // separates the arguments, which are joined
        } else if (c == '\\' && i + 1 < rest.size()) {
            char next = rest[++i];
            if (next == '-' || next == ' ') {
                joined += next;
            } else if (next == 'e') {
                joined += '\\';
            } else if (next == 'f' && i + 1 < rest.size()) {
                ++i;  // \fB, \fI, \fR, \fP: a change of font
            }
            // \& and \| print nothing
        } else {
            joined += c;
        }
    }
    return joined;
}

// The words that .TP item tags of the man page start with: "-name" for
// ".BI \-name " pattern"", both of ".BR \-help ", " \-\-help".  -Olevel is
// -O.
std::vector<std::string> man_page_items(const std::string& page) {
    std::vector<std::string> items;
    std::istringstream lines(page);
    std::string line;
    bool after_tp = false;
    while (std::getline(lines, line)) {
        if (after_tp && line.starts_with(".")) {
            std::string tag = rendered_macro_text(line);
            std::size_t start = 0;
            while (start <= tag.size()) {
                std::size_t comma = tag.find(", ", start);
                std::string piece =
                    tag.substr(start, comma == std::string::npos ? std::string::npos
                                                                 : comma - start);
                std::string first = piece.substr(0, piece.find(' '));
                if (first.starts_with("-O")) {
                    first = "-O";
                }
                if (first.starts_with("-")) {
                    items.push_back(first);
                }
                if (comma == std::string::npos) {
                    break;
                }
                start = comma + 2;
            }
        }
        after_tp = line == ".TP";
    }
    return items;
}

} // namespace

Test(man_page, has_an_item_for_every_word_of_the_table) {
    std::vector<std::string> items = man_page_items(read_source_file("cli/doc/ufind.1"));
    std::set<std::string> documented(items.begin(), items.end());
    for (const WordInfo& word : ufind::expression_words()) {
        std::string name(word.name);
        cr_expect(documented.count(name), "ufind.1 has no .TP item for %s", name.c_str());
    }
}

Test(man_page, documents_no_primary_that_the_table_lacks) {
    std::vector<std::string> items = man_page_items(read_source_file("cli/doc/ufind.1"));
    cr_assert(items.size() > 50, "only %zu .TP items found in ufind.1", items.size());
    for (const std::string& item : items) {
        cr_expect(in_table(item) || leading_options.count(item),
                  "ufind.1 documents %s, which the parser's table lacks", item.c_str());
    }
}

Test(man_page, documents_every_option_before_the_starting_points) {
    std::vector<std::string> items = man_page_items(read_source_file("cli/doc/ufind.1"));
    std::set<std::string> documented(items.begin(), items.end());
    for (const std::string& option : leading_options) {
        cr_expect(documented.count(option), "ufind.1 has no .TP item for %s", option.c_str());
    }
}

// --- --help and --version ----------------------------------------------------

namespace {

// What a function writes on file descriptor 1, which it reaches with write(2).
std::string captured_stdout(int (*print)()) {
    std::fflush(stdout);
    FILE* capture = std::tmpfile();
    cr_assert_not_null(capture);
    int saved = ::dup(STDOUT_FILENO);
    cr_assert(saved >= 0);
    cr_assert(::dup2(::fileno(capture), STDOUT_FILENO) >= 0);
    print();
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    std::string text;
    std::rewind(capture);
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, capture)) > 0) {
        text.append(buffer, n);
    }
    std::fclose(capture);
    return text;
}

} // namespace

Test(help, mentions_every_word_of_the_table) {
    std::string help = captured_stdout(ufind::print_help);
    for (const WordInfo& word : ufind::expression_words()) {
        cr_expect(mentions(help, word.name), "--help does not mention %s",
                  std::string(word.name).c_str());
    }
}

Test(help, mentions_every_option_before_the_starting_points) {
    std::string help = captured_stdout(ufind::print_help);
    for (const std::string& option : leading_options) {
        cr_expect(help.find("  " + option) != std::string::npos,
                  "--help has no row for %s", option.c_str());
    }
}

Test(help, fits_in_79_columns) {
    std::istringstream lines(captured_stdout(ufind::print_help));
    std::string line;
    while (std::getline(lines, line)) {
        cr_expect(line.size() <= 79,
                  "--help line of %zu columns: %s", line.size(), line.c_str());
    }
}

Test(help, prints_each_summary_of_the_table) {
    std::string help = captured_stdout(ufind::print_help);
    for (const WordInfo& word : ufind::expression_words()) {
        // Long summaries wrap: look for their first words.
        std::string_view start = word.summary.substr(0, word.summary.find(' ', 20));
        cr_expect(help.find(start) != std::string::npos, "--help lacks the summary of %s",
                  std::string(word.name).c_str());
    }
}

Test(version, names_the_version_and_the_backends) {
    std::string version = captured_stdout(ufind::print_version);
    cr_expect(version.starts_with("ufind 0.1.0"), "--version: %s", version.c_str());
    cr_expect(version.find("threads") != std::string::npos, "--version: %s", version.c_str());
    cr_expect(version.find("inline") != std::string::npos, "--version: %s", version.c_str());
    cr_expect(version.find("io_uring") != std::string::npos, "--version: %s", version.c_str());
}

// --- The shell completions ---------------------------------------------------

namespace {

// The options a completion file offers, each shell parsed its own way.
std::set<std::string> offered_options(const std::string& shell, const std::string& text) {
    std::set<std::string> offered;
    if (shell == "bash") {
        // The words of the _ufind_words=( ... ) and _ufind_leading=( ... ) arrays.
        std::regex array(R"(_ufind_(words|leading)=\(([^)]*)\))");
        for (std::sregex_iterator it(text.begin(), text.end(), array), end; it != end; ++it) {
            std::istringstream lines((*it)[2].str());
            std::string line;
            while (std::getline(lines, line)) {
                std::istringstream words(line.substr(0, line.find('#')));
                std::string word;
                while (words >> word) {
                    offered.insert(word);
                }
            }
        }
    } else if (shell == "zsh") {
        // _arguments specs: '(excluded)*-name[description]:message:action'.
        std::regex spec(R"('(?:\([^)]*\))?\*?(-{1,2}[A-Za-z0-9_]+(?:[-_][A-Za-z0-9]+)*))");
        for (std::sregex_iterator it(text.begin(), text.end(), spec), end; it != end; ++it) {
            offered.insert((*it)[1].str());
        }
    } else {
        // complete -c ufind ... -o name (one dash), -l name (two), -s n (one).
        std::regex option(R"(\s-([ols])\s+([A-Za-z0-9_][-A-Za-z0-9_]*))");
        std::istringstream lines(text);
        std::string line;
        while (std::getline(lines, line)) {
            if (!line.starts_with("complete ")) {
                continue;
            }
            for (std::sregex_iterator it(line.begin(), line.end(), option), end; it != end;
                 ++it) {
                offered.insert(((*it)[1] == "l" ? "--" : "-") + (*it)[2].str());
            }
        }
    }
    return offered;
}

void check_completion_offers_every_word(const std::string& shell, const std::string& file) {
    std::set<std::string> offered = offered_options(shell, read_source_file(file));
    for (const std::string& word : typed_words()) {
        cr_expect(offered.count(word), "%s does not offer %s", file.c_str(), word.c_str());
    }
}

void check_completion_offers_only_known_words(const std::string& shell,
                                              const std::string& file) {
    std::set<std::string> offered = offered_options(shell, read_source_file(file));
    std::vector<std::string> words = typed_words();
    std::set<std::string> known(words.begin(), words.end());
    known.insert(operator_words.begin(), operator_words.end());
    known.insert(leading_options.begin(), leading_options.end());
    for (const char* level : {"-O0", "-O1", "-O2", "-O3", "-O4", "-Ofast"}) {
        known.insert(level);
    }
    cr_assert(offered.size() > 50, "only %zu options found in %s", offered.size(),
              file.c_str());
    for (const std::string& option : offered) {
        cr_expect(known.count(option), "%s offers %s, which ufind does not accept",
                  file.c_str(), option.c_str());
    }
}

} // namespace

Test(completions, bash_offers_every_word_of_the_table) {
    check_completion_offers_every_word("bash", "cli/completions/ufind.bash");
}

Test(completions, zsh_offers_every_word_of_the_table) {
    check_completion_offers_every_word("zsh", "cli/completions/_ufind");
}

Test(completions, fish_offers_every_word_of_the_table) {
    check_completion_offers_every_word("fish", "cli/completions/ufind.fish");
}

Test(completions, bash_offers_no_word_the_parser_refuses) {
    check_completion_offers_only_known_words("bash", "cli/completions/ufind.bash");
}

Test(completions, zsh_offers_no_word_the_parser_refuses) {
    check_completion_offers_only_known_words("zsh", "cli/completions/_ufind");
}

Test(completions, fish_offers_no_word_the_parser_refuses) {
    check_completion_offers_only_known_words("fish", "cli/completions/ufind.fish");
}

Test(completions, offer_the_strategies_and_the_regex_types) {
    const char* values[] = {"hybrid", "bfs", "dfs", "ids", "eds", "findutils-default", "ed",
                            "emacs", "gnu-awk", "grep", "posix-awk", "awk", "posix-basic",
                            "posix-egrep", "egrep", "posix-extended", "posix-minimal-basic",
                            "sed"};
    for (const char* file :
         {"cli/completions/ufind.bash", "cli/completions/_ufind", "cli/completions/ufind.fish"}) {
        std::string text = read_source_file(file);
        for (const char* value : values) {
            cr_expect(mentions(text, value), "%s does not offer %s", file, value);
        }
    }
}
