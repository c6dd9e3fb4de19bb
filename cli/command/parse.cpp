#include "command/parse.hpp"

#include "actions/bfs_actions.hpp"
#include "actions/delete.hpp"
#include "actions/exec.hpp"
#include "actions/json_output.hpp"
#include "actions/ls_format.hpp"
#include "actions/print_actions.hpp"
#include "actions/printf.hpp"
#include "command/expression_lint.hpp"
#include "command/flags.hpp"
#include "command/help.hpp"
#include "command/optimise.hpp"
#include "command/parse_context.hpp"
#include "command/primary_names.hpp"
#include "predicates/bfs_tests.hpp"
#include "predicates/extended_attributes.hpp"
#include "predicates/inode_flags.hpp"
#include "predicates/metadata.hpp"
#include "predicates/owner.hpp"
#include "predicates/path.hpp"
#include "predicates/perm.hpp"
#include "predicates/regex.hpp"
#include "predicates/time.hpp"
#include "system/diagnostics.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <time.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string_view>

namespace ufind {
namespace {

using std::string_view;

bool is_or(string_view arg) { return arg == "-o" || arg == "-or"; }
bool is_and(string_view arg) { return arg == "-a" || arg == "-and"; }
bool is_not(string_view arg) { return arg == "!" || arg == "-not"; }
bool is_binary(string_view arg) { return is_or(arg) || is_and(arg) || arg == ","; }

// find decides where the starting points end by the first character alone.
bool starts_expression(string_view arg) {
    return (arg.size() > 1 && arg[0] == '-') || arg == "(" || arg == "!";
}

[[noreturn]] void fail(const std::string& message) { fail_usage(message); }

// Whether arg is a group of flags (flags.hpp) rather than a word of the
// expression: -fstype is a word, -f PATH a flag; -S and -j are both.
bool takes_as_flags(string_view arg) {
    const WordInfo* word = find_word(arg);
    return is_flag_group(arg) && (!word || word->group == WordGroup::ufind_option);
}

// Whether expr holds -xtype, which looks at metadata.
bool has_xtype(const Expr& expr) {
    return expr.kind == ExprKind::test_xtype || (expr.left && has_xtype(*expr.left)) ||
           (expr.right && has_xtype(*expr.right));
}

// The bit of each -type letter in Expr::type_mask, by enum ioq_type; 0 for
// a letter that is none.
unsigned type_bit(char letter) {
    for (const TypeLetter& known : type_letters) {
        if (known.letter == letter) {
            return 1u << known.type;
        }
    }
    return 0;
}

using PrimaryParser = std::unique_ptr<Primary> (*)(ParseContext&);

// Every primary that is a Primary object, by name; each family parses its
// own arguments in its own file.
struct PrimaryEntry {
    string_view name;
    PrimaryParser parse;
};
constexpr PrimaryEntry primary_table[] = {
    // predicates/metadata.cpp
    {"-size", parse_size}, {"-empty", parse_empty}, {"-links", parse_links},
    {"-inum", parse_inum}, {"-samefile", parse_samefile}, {"-readable", parse_access},
    {"-writable", parse_access}, {"-executable", parse_access}, {"-fstype", parse_fstype},
    {"-context", parse_context_test},
    // predicates/owner.cpp
    {"-user", parse_user}, {"-group", parse_group}, {"-uid", parse_uid}, {"-gid", parse_gid},
    {"-nouser", parse_nouser}, {"-nogroup", parse_nogroup},
    // perm.cpp
    {"-perm", parse_perm},
    // predicates/time.cpp
    {"-newer", parse_newer}, {"-anewer", parse_newer}, {"-cnewer", parse_newer},
    {"-amin", parse_time_test}, {"-atime", parse_time_test}, {"-cmin", parse_time_test},
    {"-ctime", parse_time_test}, {"-mmin", parse_time_test}, {"-mtime", parse_time_test},
    {"-used", parse_used},
    // predicates/path.cpp, predicates/regex.cpp
    {"-ipath", parse_path_test}, {"-wholename", parse_path_test},
    {"-iwholename", parse_path_test}, {"-lname", parse_lname}, {"-ilname", parse_lname},
    {"-regex", parse_regex}, {"-iregex", parse_regex},
    // print_actions.cpp, printf.cpp, ls_format.cpp
    {"-fprint", parse_fprint}, {"-fprint0", parse_fprint}, {"-printf", parse_printf},
    {"-fprintf", parse_printf}, {"-ls", parse_ls}, {"-fls", parse_ls},
    // exec.cpp, delete.cpp
    {"-exec", parse_exec}, {"-execdir", parse_exec}, {"-ok", parse_exec},
    {"-okdir", parse_exec}, {"-delete", parse_delete},
    // json_output.cpp
    {"-json", parse_json}, {"-fjson", parse_json},
    // bfs's own: predicates/bfs_tests.cpp, actions/bfs_actions.cpp, time.cpp, delete.cpp
    {"-hidden", parse_hidden}, {"-limit", parse_limit}, {"-exit", parse_exit},
    {"-printx", parse_printx}, {"-rm", parse_delete},
    {"-Bmin", parse_time_test}, {"-Btime", parse_time_test},
    {"-Bnewer", parse_newer}, {"-mnewer", parse_newer},
    {"-since", parse_newer}, {"-asince", parse_newer}, {"-Bsince", parse_newer},
    {"-csince", parse_newer}, {"-msince", parse_newer}, {"-sparse", parse_sparse},
    // predicates/extended_attributes.cpp
    {"-xattr", parse_xattr}, {"-xattrname", parse_xattrname}, {"-acl", parse_acl},
    {"-capable", parse_capable}, {"-flags", parse_inode_flags},
};

PrimaryParser find_primary_parser(string_view name) {
    for (const PrimaryEntry& entry : primary_table) {
        if (entry.name == name) {
            return entry.parse;
        }
    }
    // -newerXY: two letters of the timestamps compared; predicates/time.cpp
    // refuses the combinations find refuses.
    if (name.size() == 8 && name.starts_with("-newer")) {
        return parse_newer;
    }
    return nullptr;
}

class Parser {
public:
    explicit Parser(const std::vector<std::string>& args) : args_(args) {}

    Command parse() {
        command_.warnings = ::isatty(STDIN_FILENO) == 1;
        command_.outputs = std::make_unique<OutputFiles>();
        ::clock_gettime(CLOCK_REALTIME, &command_.start_time);
        state_.time_origin = command_.start_time;
        state_.regex_syntax = regex_syntax_by_name("emacs");  // find's default, measured
        parse_leading_options();
        while (pos_ < args_.size() && !starts_expression(args_[pos_])) {
            command_.roots.push_back(advance());
        }
        command_.roots_given = !command_.roots.empty();
        std::unique_ptr<Expr> expr;
        if (pos_ < args_.size()) {
            expr = parse_comma();
            if (pos_ < args_.size()) {
                // parse_comma stops only at a ')' nobody opened.
                fail("you have too many ')'");
            }
        }
        // Later errors are about the whole command, not one word.
        clear_usage_position();
        check_files0_from();
        if (command_.roots.empty() && command_.files0_from.empty()) {
            command_.roots.emplace_back(".");
        }
        if (state_.seen_limit && (!expr || !has_action(*expr))) {
            fail("with -limit, you must specify an action explicitly; for example, "
                 "-print -limit N");
        }
        if (!expr) {
            expr = std::make_unique<Expr>(ExprKind::act_print);
        } else if (!has_action(*expr)) {
            auto both = std::make_unique<Expr>(ExprKind::op_and);
            both->left = std::move(expr);
            both->right = std::make_unique<Expr>(ExprKind::act_print);
            expr = std::move(both);
        }
        if (command_.optimisation_level > 0) {
            reorder_tests(expr);
            fold_constants(expr);
        }
        command_.expr = std::move(expr);
        if (state_.seen_delete) {
            if (state_.seen_prune && !state_.seen_depth) {
                fail("The -delete action automatically turns on -depth, but -prune does nothing "
                     "when -depth is in effect.  If you want to carry on anyway, just explicitly "
                     "use the -depth option.");
            }
            command_.post_order = true;
        }
        for_each_primary(*command_.expr,
                         [&](const Primary& primary) { command_.stat_mask |= primary.stat_mask(); });
        if (command_.exclude) {
            unsigned exclude_mask = 0;
            for_each_primary(*command_.exclude,
                             [&](const Primary& primary) { exclude_mask |= primary.stat_mask(); });
            // visit_filter.hpp: under -depth, directories are tested
            // before the walk reaches them, by name and path alone.
            if (command_.post_order && (exclude_mask || has_xtype(*command_.exclude))) {
                fail("-exclude with tests of metadata cannot be combined with -depth");
            }
            command_.stat_mask |= exclude_mask;
        }
        if (command_.warnings) {
            warn_about_expression(command_, state_.seen_prune, state_.seen_depth);
        }
        return std::move(command_);
    }

    void check_files0_from() {
        if (command_.files0_from.empty()) {
            return;
        }
        if (command_.roots_given) {
            report_error("extra operand " + quote_path(command_.roots.front()));
            fail("file operands cannot be combined with -files0-from");
        }
        if (command_.files0_from == "-" && state_.seen_prompt) {
            fail("option -files0-from reading from standard input cannot be combined with -ok, "
                 "-okdir");
        }
        // Standard input redirected from the list itself: -ok's answers and
        // the starting points would be read from one file.
        struct stat list;
        struct stat input;
        if (state_.seen_prompt && ::stat(command_.files0_from.c_str(), &list) == 0 &&
            ::fstat(STDIN_FILENO, &input) == 0 && list.st_dev == input.st_dev &&
            list.st_ino == input.st_ino) {
            fail("option -files0-from: standard input must not refer to the same file when "
                 "combined with -ok, -okdir: " + quote_path(command_.files0_from));
        }
    }

private:
    bool at_end() const { return pos_ >= args_.size(); }
    string_view peek() const { return args_[pos_]; }
    // The next word, which errors from now on point at.
    const std::string& advance() {
        set_usage_position(args_, pos_);
        return args_[pos_++];
    }

    // -H -L -P -D -O and ufind's -S -j come before the starting points
    // (flags.hpp), and bfs's flags too.
    void parse_leading_options() {
        while (!at_end()) {
            string_view arg = peek();
            set_usage_position(args_, pos_);
            if (arg == "--stats") {
                command_.debug_stats = true;
                ++pos_;
            } else if (arg == "--") {
                ++pos_;
                return;
            } else if (takes_as_flags(arg)) {
                take_flags();
            } else {
                return;
            }
        }
    }

    void take_flags() {
        const std::string& word = advance();
        ParseContext context(args_, pos_, command_, state_, word);
        parse_flags(context, word);
    }

    // A non-negative decimal integer, as find wants for -maxdepth and -mindepth.
    int parse_count(const std::string& option, const std::string& text) {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
            fail("Expected a positive decimal integer argument to " + option + ", but got " +
                 quote_path(text));
        }
        errno = 0;
        long value = std::strtol(text.c_str(), nullptr, 10);
        if (errno == ERANGE || value > INT_MAX) {
            fail(text + ": Numerical result out of range");
        }
        return static_cast<int>(value);
    }

    const std::string& take_argument(const std::string& primary) {
        if (at_end()) {
            fail("missing argument to `" + primary + "'");
        }
        return advance();
    }

    std::unique_ptr<Expr> binary(ExprKind kind, std::unique_ptr<Expr> left,
                                 std::unique_ptr<Expr> right) {
        auto node = std::make_unique<Expr>(kind);
        node->left = std::move(left);
        node->right = std::move(right);
        return node;
    }

    std::unique_ptr<Expr> parse_comma() {
        auto left = parse_or();
        while (!at_end() && peek() == ",") {
            advance();
            if (at_end()) {
                fail("expected an expression after ','");
            }
            left = binary(ExprKind::op_comma, std::move(left), parse_or());
        }
        return left;
    }

    std::unique_ptr<Expr> parse_or() {
        auto left = parse_and();
        while (!at_end() && is_or(peek())) {
            std::string op = advance();
            if (at_end()) {
                fail("expected an expression after '" + op + "'");
            }
            left = binary(ExprKind::op_or, std::move(left), parse_and());
        }
        return left;
    }

    std::unique_ptr<Expr> parse_and() {
        auto left = parse_unary();
        while (!at_end()) {
            string_view arg = peek();
            if (is_and(arg)) {
                std::string op = advance();
                if (at_end()) {
                    fail("expected an expression after '" + op + "'");
                }
            } else if (arg == ")" || is_or(arg) || arg == ",") {
                break;
            }
            left = binary(ExprKind::op_and, std::move(left), parse_unary());
        }
        return left;
    }

    std::unique_ptr<Expr> parse_unary() {
        string_view arg = peek();
        if (is_not(arg)) {
            std::string op = advance();
            if (at_end()) {
                fail("expected an expression after '" + op + "'");
            }
            auto node = std::make_unique<Expr>(ExprKind::op_not);
            node->left = parse_unary();
            return node;
        }
        if (arg == "(") {
            advance();
            if (!at_end() && peek() == ")") {
                fail("invalid expression; empty parentheses are not allowed.");
            }
            if (at_end()) {
                fail("invalid expression; I was expecting to find a ')' somewhere but did not "
                     "see one.");
            }
            auto inner = parse_comma();
            if (at_end() || peek() != ")") {
                fail("invalid expression; I was expecting to find a ')' somewhere but did not "
                     "see one.");
            }
            advance();
            return inner;
        }
        if (arg == ")") {
            advance();
            fail("invalid expression; you have too many ')'");
        }
        if (arg == "-exclude") {
            return parse_exclude();
        }
        if (is_binary(arg)) {
            advance();
            fail("invalid expression; you have used a binary operator '" + std::string(arg) +
                 "' with nothing before it.");
        }
        return parse_primary();
    }

    // bfs's -exclude FACTOR: the factor leaves the tree for
    // Command::exclude, and -true stands in its place.
    std::unique_ptr<Expr> parse_exclude() {
        advance();
        if (excluding_) {
            fail("-exclude is not supported within -exclude");
        }
        if (at_end()) {
            fail("missing argument to `-exclude'");
        }
        excluding_ = true;
        std::unique_ptr<Expr> factor = parse_unary();
        excluding_ = false;
        if (has_action(*factor)) {
            fail("actions are not supported within -exclude");
        }
        add_exclusion(std::move(factor));
        return std::make_unique<Expr>(ExprKind::test_true);
    }

    void add_exclusion(std::unique_ptr<Expr> factor) {
        command_.exclude = command_.exclude
                               ? binary(ExprKind::op_or, std::move(command_.exclude),
                                        std::move(factor))
                               : std::move(factor);
    }

    // Within -exclude, bfs takes a word that is no primary as one more
    // starting point, and warns that it excludes nothing.
    bool take_path_within_exclude() {
        string_view arg = peek();
        if (!excluding_ || (arg.starts_with('-') && arg != "-") || arg == "(" || arg == "!") {
            return false;
        }
        command_.roots.push_back(advance());
        if (command_.warnings) {
            report_warning("this path will not be excluded.  Use a test like -name or -path "
                           "within -exclude to exclude matching files.");
        }
        return true;
    }

    std::unique_ptr<Expr> primary(ExprKind kind) {
        seen_test_ = true;
        return std::make_unique<Expr>(kind);
    }

    std::unique_ptr<Expr> pattern_test(ExprKind kind, const std::string& name) {
        auto node = primary(kind);
        node->pattern = GlobPattern(take_argument(name), kind == ExprKind::test_iname);
        return node;
    }

    std::unique_ptr<Expr> global_option(const std::string& name) {
        if (seen_test_ && command_.warnings) {
            report_warning("you have specified the global option " + name +
                           " after the argument " + last_test_ +
                           ", but global options are not positional, i.e., " + name +
                           " affects tests specified before it as well as those specified "
                           "after it.  Please specify global options before other arguments.");
        }
        return std::make_unique<Expr>(ExprKind::test_true);
    }

    std::unique_ptr<Expr> parse_primary() {
        while (!at_end() && take_path_within_exclude()) {
        }
        if (at_end()) {
            fail("missing argument to `-exclude'");
        }
        std::string name = advance();
        if (name.empty() || name[0] != '-') {
            fail("paths must precede expression: `" + name + "'");
        }
        if (takes_as_flags(name)) {
            // bfs takes its flags anywhere, as GNU find takes none there.
            --pos_;
            take_flags();
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        if (!find_word(name)) {
            string_view suggestion = suggest_word(name);
            fail_usage("unknown predicate `" + name + "'",
                       suggestion.empty() ? std::string()
                                          : "did you mean `" + std::string(suggestion) + "'?");
        }
        std::unique_ptr<Expr> node;
        if (std::unique_ptr<Expr> option = parse_option(name)) {
            return option;
        }
        if (name == "-name" || name == "-iname") {
            node = pattern_test(name == "-name" ? ExprKind::test_name : ExprKind::test_iname, name);
            if (node->pattern.text().find('/') != std::string::npos && command_.warnings) {
                report_warning(quote_path(name) + " matches against basenames only, but the "
                               "given pattern contains a directory separator (" + quote_path("/") +
                               "), thus the expression will evaluate to false all the time.  "
                               "Did you mean " +
                               quote_path(name == "-name" ? "-wholename" : "-iwholename") + "?");
            }
        } else if (name == "-path") {
            node = pattern_test(ExprKind::test_path, name);
            warn_if_pattern_ends_with_slash(name, node->pattern.text());
        } else if (name == "-type" || name == "-xtype") {
            node = primary(name == "-type" ? ExprKind::test_type : ExprKind::test_xtype);
            node->type_mask = parse_type_list(name, take_argument(name));
        } else if (name == "-true") {
            node = primary(ExprKind::test_true);
        } else if (name == "-false") {
            node = primary(ExprKind::test_false);
        } else if (name == "-print") {
            node = primary(ExprKind::act_print);
        } else if (name == "-print0") {
            node = primary(ExprKind::act_print0);
        } else if (name == "-prune") {
            state_.seen_prune = true;
            node = primary(ExprKind::act_prune);
        } else if (name == "-quit") {
            node = primary(ExprKind::act_quit);
        } else if (PrimaryParser parser = find_primary_parser(name)) {
            if (name == "-ok" || name == "-okdir") {
                state_.seen_prompt = true;
            } else if (name == "-delete" || name == "-rm") {
                state_.seen_delete = true;
            }
            if (name == "-delete" || name == "-rm" || name == "-execdir" || name == "-okdir") {
                command_.acts_in_place = true;
            }
            if (name == "-delete" || name == "-rm" || name == "-exec" || name == "-execdir" || name == "-ok" ||
                name == "-okdir") {
                command_.changes_tree = true;
                command_.runs_commands |= name != "-delete";
            }
            ParseContext context(args_, pos_, command_, state_, name);
            node = primary(ExprKind::primary);
            node->object = parser(context);
        } else {
            // primary_names.cpp lists a word nobody parses: tests/docs
            // catches that before it ships.
            fail("internal error: `" + name + "' is listed but not parsed");
        }
        last_test_ = name;
        return node;
    }

    // Options: they change the run, not the tree, and stand in it as -true.
    // nullptr when name is not an option.
    std::unique_ptr<Expr> parse_option(const std::string& name) {
        if (name == "-maxdepth" || name == "-mindepth") {
            int value = parse_count(name, take_argument(name));
            (name == "-maxdepth" ? command_.max_depth : command_.min_depth) = value;
            return global_option(name);
        }
        if (name == "-depth" && !at_end() && looks_like_depth_argument(peek())) {
            // bfs's -depth N: a test of the entry's depth, not the option.
            ParseContext context(args_, pos_, command_, state_, name);
            auto node = primary(ExprKind::primary);
            node->object = parse_depth_test(context);
            last_test_ = name;
            return node;
        }
        if (name == "-nohidden") {
            ParseContext context(args_, pos_, command_, state_, name);
            auto hidden = std::make_unique<Expr>(ExprKind::primary);
            hidden->object = parse_hidden(context);
            add_exclusion(std::move(hidden));
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        if (name == "-unique") {
            command_.unique = true;
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        if (name == "-noerror") {
            command_.ignore_errors = true;
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        if (name == "-depth" || name == "-d") {
            command_.post_order = true;
            state_.seen_depth = true;
            auto node = global_option(name);
            if (name == "-d" && command_.warnings) {
                report_warning("the -d option is deprecated; please use -depth instead, because "
                               "the latter is a POSIX-compliant feature.");
            }
            return node;
        }
        if (name == "-xdev" || name == "-mount") {
            command_.same_device = true;
            return global_option(name);
        }
        if (name == "-noleaf") {
            // Linux filesystems need no leaf optimisation to turn off.
            return global_option(name);
        }
        if (name == "-ignore_readdir_race" || name == "-noignore_readdir_race") {
            command_.ignore_readdir_race = name == "-ignore_readdir_race";
            return global_option(name);
        }
        if (name == "-files0-from") {
            command_.files0_from = take_argument(name);
            return global_option(name);
        }
        if (name == "-follow") {
            // Positional in find, but it changes the whole walk: as -L.
            command_.symlinks = IOQ_SYMLINKS_LOGICAL;
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        if (name == "-warn" || name == "-nowarn") {
            command_.warnings = name == "-warn";
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        if (name == "-daystart") {
            set_daystart(state_);
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        if (name == "-regextype") {
            const std::string& type = take_argument(name);
            state_.regex_syntax = regex_syntax_by_name(type);
            state_.regex_type_set = true;
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        if (name == "-help" || name == "--help") {
            throw EarlyExit{print_help()};
        }
        if (name == "-version" || name == "--version") {
            throw EarlyExit{print_version()};
        }
        if (name == "-color" || name == "-nocolor") {
            command_.color = name == "-color" ? Command::ColorMode::always : Command::ColorMode::never;
            if (name == "-nocolor") {
                set_stderr_colors(false);
            }
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        if (name == "-status") {
            command_.status = true;
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        if (name == "--stats") {
            command_.debug_stats = true;
            return std::make_unique<Expr>(ExprKind::test_true);
        }
        return nullptr;
    }

    // The letters of -type or -xtype (`test_name`, named in every message).
    unsigned parse_type_list(const std::string& test_name, const std::string& text) {
        unsigned mask = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            char letter = text[i];
            if (letter == 'D') {
                fail(test_name + " D is not supported because Solaris doors are not supported on the "
                     "platform find was compiled on.");
            }
            unsigned bit = type_bit(letter);
            if (!bit) {
                fail("Unknown argument to " + test_name + ": " + std::string(1, letter));
            }
            if (mask & bit) {
                fail("Duplicate file type '" + std::string(1, letter) +
                     "' in the argument list to " + test_name + ".");
            }
            mask |= bit;
            if (i + 1 < text.size()) {
                if (text[i + 1] != ',') {
                    fail("Must separate multiple arguments to " + test_name + " using: ','");
                }
                ++i;
                if (i + 1 == text.size()) {
                    fail("Last file type in list argument to " + test_name +
                         " is missing, i.e., list is ending on: ','");
                }
            }
        }
        if (mask == 0) {
            fail("Arguments to " + test_name + " should contain at least one letter");
        }
        return mask;
    }

    const std::vector<std::string>& args_;
    std::size_t pos_ = 0;
    Command command_;
    ParseState state_;
    bool seen_test_ = false;
    bool excluding_ = false;  // parsing the factor of -exclude
    std::string last_test_;
};

} // namespace

Expr::~Expr() = default;

bool has_action(const Expr& expr) {
    switch (expr.kind) {
    case ExprKind::primary:
        return expr.object->is_action();
    case ExprKind::act_print:
    case ExprKind::act_print0:
    case ExprKind::act_quit:
        return true;
    default:
        return (expr.left && has_action(*expr.left)) || (expr.right && has_action(*expr.right));
    }
}

bool reads_metadata_of_every_entry(const Expr& expr) {
    switch (expr.kind) {
    case ExprKind::primary:
        return expr.object->stat_mask() != 0;
    case ExprKind::op_not:
        return reads_metadata_of_every_entry(*expr.left);
    case ExprKind::op_comma:
        return reads_metadata_of_every_entry(*expr.left) ||
               reads_metadata_of_every_entry(*expr.right);
    case ExprKind::op_and:
        return reads_metadata_of_every_entry(*expr.left) ||
               (expr.left->kind == ExprKind::test_type &&
                reads_metadata_of_every_entry(*expr.right));
    case ExprKind::op_or:
        return reads_metadata_of_every_entry(*expr.left);
    default:
        return false;
    }
}

Command parse_command_line(const std::vector<std::string>& args) {
    return Parser(args).parse();
}

} // namespace ufind
