// Unit tests of the command-line parser (cli/command/parse.cpp).
//
// A parsed expression is checked through its shape, written as an
// s-expression: `ufind . -name x -o -type d` must give
// "(or (name x) (and (type d) print))"-like trees with the grammar's
// precedence, loosest first: ',' then -o then -a (explicit or implied), then
// '!' binding tightest.
//
// Every command line the parser must refuse is also given to GNU find (the
// oracle), which must refuse it too, with status 1; ufind-only syntax (-S,
// -j) is checked against the parser alone.  Messages go to stderr through
// write(2); the tests capture descriptor 2 to check that each refusal says
// something and names what is wrong.
#include "command/parse.hpp"
#include "system/diagnostics.hpp"

#include <criterion/criterion.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

using ufind::Command;
using ufind::Expr;
using ufind::ExprKind;

namespace {

void append_shape(const Expr& expr, std::string& out) {
    auto binary = [&](const char* name) {
        out += '(';
        out += name;
        out += ' ';
        append_shape(*expr.left, out);
        out += ' ';
        append_shape(*expr.right, out);
        out += ')';
    };
    auto with_argument = [&](const char* name, const std::string& argument) {
        out += '(';
        out += name;
        out += ' ';
        out += argument;
        out += ')';
    };
    switch (expr.kind) {
    case ExprKind::op_and: binary("and"); return;
    case ExprKind::op_or: binary("or"); return;
    case ExprKind::op_comma: binary(","); return;
    case ExprKind::op_not:
        out += "(not ";
        append_shape(*expr.left, out);
        out += ')';
        return;
    case ExprKind::test_true: out += "true"; return;
    case ExprKind::test_false: out += "false"; return;
    case ExprKind::test_name: with_argument("name", expr.pattern.text()); return;
    case ExprKind::test_iname: with_argument("iname", expr.pattern.text()); return;
    case ExprKind::test_path: with_argument("path", expr.pattern.text()); return;
    case ExprKind::test_type: with_argument("type", std::to_string(expr.type_mask)); return;
    case ExprKind::act_print: out += "print"; return;
    case ExprKind::act_print0: out += "print0"; return;
    case ExprKind::act_prune: out += "prune"; return;
    case ExprKind::act_quit: out += "quit"; return;
    case ExprKind::primary:
        out += expr.object->is_action() ? "action"
               : expr.object->stat_mask() ? "stat-test"
                                          : "test";
        return;
    default:
        // A kind these tests do not know yet (the grammar grows): shown by
        // number, so that a test meeting it fails with a readable shape.
        out += "kind";
        out += std::to_string(static_cast<unsigned>(expr.kind));
        return;
    }
}

std::string shape(const Command& command) {
    std::string out;
    cr_assert(command.expr, "no expression");
    append_shape(*command.expr, out);
    return out;
}

// Captures what is written to descriptor 2 while it lives.
class StderrCapture {
public:
    StderrCapture() : file_(::memfd_create("stderr", MFD_CLOEXEC)), saved_(::dup(STDERR_FILENO)) {
        cr_assert(file_ >= 0 && saved_ >= 0);
        cr_assert(::dup2(file_, STDERR_FILENO) == STDERR_FILENO);
    }
    ~StderrCapture() { restore(); }
    StderrCapture(const StderrCapture&) = delete;
    StderrCapture& operator=(const StderrCapture&) = delete;

    // Stops capturing and returns what was written.
    std::string text() {
        restore();
        std::string out;
        char buffer[4096];
        off_t offset = 0;
        for (ssize_t n; (n = ::pread(file_, buffer, sizeof buffer, offset)) > 0; offset += n) {
            out.append(buffer, static_cast<std::size_t>(n));
        }
        return out;
    }

private:
    void restore() {
        if (saved_ >= 0) {
            ::dup2(saved_, STDERR_FILENO);
            ::close(saved_);
            saved_ = -1;
        }
    }
    int file_;
    int saved_;
};

Command parse(const std::vector<std::string>& args) { return ufind::parse_command_line(args); }

std::string joined(const std::vector<std::string>& args) {
    std::string text;
    for (const std::string& arg : args) {
        text += text.empty() ? "" : " ";
        text += arg.empty() ? "''" : arg;
    }
    return text;
}

// Parses a valid command line, with stderr captured so that a warning does
// not pass unnoticed; returns its shape.
std::string shape_of(const std::vector<std::string>& args) {
    StderrCapture capture;
    try {
        Command command = parse(args);
        std::string printed = capture.text();
        cr_expect(printed.empty(), "`%s' printed: %s", joined(args).c_str(), printed.c_str());
        return shape(command);
    } catch (const ufind::UsageError&) {
        std::string printed = capture.text();
        cr_assert_fail("`%s' was refused: %s", joined(args).c_str(), printed.c_str());
    }
    return {};
}

// Criterion's string assertions keep a pointer past the end of the full
// expression that made the string, so shapes are compared as std::string.
void expect_shape(const std::vector<std::string>& args, const std::string& want,
                  const char* why = "") {
    std::string got = shape_of(args);
    cr_expect(got == want, "`%s' parses as %s, want %s %s", joined(args).c_str(), got.c_str(),
              want.c_str(), why);
}

// The tree as parsed, before the optimiser (-O0) folds -true and -false.
void expect_grammar(std::vector<std::string> args, const std::string& want, const char* why = "") {
    args.insert(args.begin(), "-O0");
    expect_shape(args, want, why);
}

// GNU find's exit status for these arguments, run in an empty directory with
// nothing on stdin; -1 if it could not be run.
int gnu_find_status(const std::vector<std::string>& args) {
    char directory[] = "/tmp/ioq-parse-XXXXXX";
    if (!::mkdtemp(directory)) {
        return -1;
    }
    pid_t child = ::fork();
    if (child == 0) {
        int null = ::open("/dev/null", O_RDWR);
        if (null < 0 || ::chdir(directory) != 0) {
            ::_exit(127);
        }
        ::dup2(null, STDIN_FILENO);
        ::dup2(null, STDOUT_FILENO);
        ::dup2(null, STDERR_FILENO);
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>("find"));
        for (const std::string& arg : args) {
            argv.push_back(const_cast<char*>(arg.c_str()));
        }
        argv.push_back(nullptr);
        ::setenv("LC_ALL", "C", 1);
        ::unsetenv("POSIXLY_CORRECT");
        ::execvp("find", argv.data());
        ::_exit(127);
    }
    int status = 0;
    bool waited = child > 0 && ::waitpid(child, &status, 0) == child;
    ::rmdir(directory);
    return waited && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Refusal {
    std::vector<std::string> args;
    const char* must_mention;  // a piece of the offending argument, or ""
    bool gnu;                  // GNU find syntax: find must refuse it too
};

void expect_refused(const Refusal& refusal) {
    std::string line = joined(refusal.args);
    StderrCapture capture;
    bool thrown = false;
    try {
        parse(refusal.args);
    } catch (const ufind::UsageError&) {
        thrown = true;
    }
    std::string printed = capture.text();
    cr_expect(thrown, "`%s' was accepted", line.c_str());
    if (!thrown) {
        return;
    }
    cr_expect(printed.starts_with("ufind: "), "`%s': message `%s'", line.c_str(), printed.c_str());
    cr_expect(printed.find(refusal.must_mention) != std::string::npos,
              "`%s': message `%s' does not mention `%s'", line.c_str(), printed.c_str(),
              refusal.must_mention);
    if (refusal.gnu) {
        int status = gnu_find_status(refusal.args);
        cr_expect(status == 1, "`%s': GNU find exits with %d, so the refusal is in doubt",
                  line.c_str(), status);
    }
}

constexpr unsigned bit(ioq_type type) { return 1u << type; }

} // namespace

// --------------------------------------------------------------------------
// Starting points and leading options
// --------------------------------------------------------------------------

Test(parse, starting_points_come_before_the_expression_and_default_to_dot) {
    struct Case {
        std::vector<std::string> args;
        std::vector<std::string> roots;
    };
    const Case cases[] = {
        {{}, {"."}},
        {{"a"}, {"a"}},
        {{"a", "b/c", "/d"}, {"a", "b/c", "/d"}},
        {{"-name", "x"}, {"."}},
        {{"a", "-name", "x"}, {"a"}},
        {{"a", "(", "-true", ")"}, {"a"}},
        {{"a", "!", "-true"}, {"a"}},
        {{"-", "-true"}, {"-"}},          // a lone dash is a path
        {{"a", ")"}, {"a", ")"}},         // find decides by the first character:
        {{"a", ","}, {"a", ","}},         // ')' and ',' do not start an expression
        {{"--", "a", "-true"}, {"a"}},
        {{"", "a"}, {"", "a"}},           // an empty path is the walk's problem
    };
    for (const Case& c : cases) {
        StderrCapture capture;
        Command command = parse(c.args);
        capture.text();
        cr_expect(command.roots == c.roots, "`%s': wrong starting points (%zu)",
                  joined(c.args).c_str(), command.roots.size());
        cr_expect(command.expr != nullptr);
    }
}

Test(parse, leading_options_are_taken_before_the_paths) {
    Command command = parse({"-P", "-O2", "-D", "stats", "-S", "dfs", "-j4", "a", "-true"});
    cr_expect(command.roots == std::vector<std::string>{"a"});
    cr_expect(command.debug_stats);
    cr_expect_eq(command.strategy, IOQ_STRATEGY_DFS);
    cr_expect_eq(command.threads, 4);

    Command spaced = parse({"-j", "3", "-Sbfs"});
    cr_expect_eq(spaced.threads, 3);
    cr_expect_eq(spaced.strategy, IOQ_STRATEGY_BFS);
    cr_expect(spaced.roots == std::vector<std::string>{"."});

    // -S and -j are accepted inside the expression too, as bfs does.
    Command inside = parse({"a", "-true", "-j2", "-S", "dfs"});
    cr_expect_eq(inside.threads, 2);
    cr_expect_eq(inside.strategy, IOQ_STRATEGY_DFS);

    Command defaults = parse({});
    cr_expect_eq(defaults.min_depth, 0);
    cr_expect_eq(defaults.max_depth, -1);
    cr_expect_eq(defaults.threads, -1);
    cr_expect_eq(defaults.strategy, IOQ_STRATEGY_HYBRID);
    cr_expect(!defaults.debug_stats);
    cr_expect_eq(ufind::exit_status(), 0, "nothing was refused");
}

Test(parse, optimisation_levels_above_three_are_taken_as_three_as_in_find) {
    cr_expect_eq(parse({"-O0"}).optimisation_level, 0);
    cr_expect_eq(parse({"-O00"}).optimisation_level, 0);
    cr_expect_eq(parse({"-O2"}).optimisation_level, 2);
    cr_expect_eq(parse({"-O03"}).optimisation_level, 3);
    cr_expect_eq(parse({"-O4"}).optimisation_level, 3);
    cr_expect_eq(parse({"-O10"}).optimisation_level, 3);
    cr_expect_eq(parse({"-O99999999999999999999"}).optimisation_level, 3);
    cr_expect_eq(ufind::exit_status(), 0, "no level was refused");
}

// --------------------------------------------------------------------------
// The implicit -print
// --------------------------------------------------------------------------

Test(parse, implicit_print_is_added_only_without_an_action) {
    expect_shape({"a"}, "print");
    expect_shape({"a", "-name", "x"}, "(and (name x) print)");
    expect_shape({"a", "-name", "x", "-o", "-type", "d"}, "(and (or (name x) (type 4)) print)",
                 "the implicit -print applies to the whole expression");
    expect_shape({"a", "-name", "x", "-prune"}, "(and (and (name x) prune) print)",
                 "-prune is not an action here");
    expect_shape({"a", "-print"}, "print");
    expect_shape({"a", "-print0"}, "print0");
    expect_shape({"a", "-quit"}, "quit");
    expect_shape({"a", "-name", "x", "-o", "-print"}, "(or (name x) print)");
    expect_grammar({"a", "(", "-false", "-o", "-print0", ")"}, "(or false print0)");
    expect_shape({"a", "!", "-print"}, "(not print)",
                 "an action anywhere, even negated, suppresses the implicit -print");
    expect_grammar({"a", "-maxdepth", "1"}, "(and true print)",
                   "a global option is not an action");
}

Test(parse, has_action_looks_through_every_operator) {
    auto leaf = [](ExprKind kind) { return std::make_unique<Expr>(kind); };
    auto node = [](ExprKind kind, std::unique_ptr<Expr> left, std::unique_ptr<Expr> right) {
        auto made = std::make_unique<Expr>(kind);
        made->left = std::move(left);
        made->right = std::move(right);
        return made;
    };
    cr_expect(!ufind::has_action(*leaf(ExprKind::test_true)));
    cr_expect(!ufind::has_action(*leaf(ExprKind::act_prune)));
    cr_expect(ufind::has_action(*leaf(ExprKind::act_quit)));
    cr_expect(ufind::has_action(*node(ExprKind::op_or, leaf(ExprKind::test_false),
                                      node(ExprKind::op_not, leaf(ExprKind::act_print0), nullptr))));
    cr_expect(!ufind::has_action(*node(ExprKind::op_comma, leaf(ExprKind::test_name),
                                       leaf(ExprKind::act_prune))));
}

// --------------------------------------------------------------------------
// Precedence
// --------------------------------------------------------------------------

Test(parse, or_binds_looser_than_implicit_and) {
    expect_grammar({"-true", "-false", "-o", "-print"}, "(or (and true false) print)");
    expect_grammar({"-print", "-o", "-false", "-true"}, "(or print (and false true))");
    expect_grammar({"-true", "-a", "-false", "-or", "-print", "-and", "-true"}, "(or (and true false) (and print true))");
}

Test(parse, not_binds_tightest) {
    expect_grammar({"!", "-true", "-false"}, "(and (and (not true) false) print)");
    expect_grammar({"-not", "-true", "-o", "-print"}, "(or (not true) print)");
    expect_grammar({"!", "!", "-print"}, "(not (not print))");
    expect_grammar({"!", "(", "-true", "-o", "-false", ")", "-print"}, "(and (not (or true false)) print)");
}

Test(parse, comma_binds_loosest) {
    expect_grammar({"-true", "-o", "-false", ",", "-print"}, "(, (or true false) print)");
    expect_grammar({"-print", ",", "-false", "-o", "-true", "-print0"}, "(, print (or false (and true print0)))");
    expect_grammar({"(", "-print", ",", "-true", ")", "-false"}, "(and (, print true) false)",
                 "parentheses hold a comma list");
}

Test(parse, operators_of_equal_strength_group_left_to_right) {
    expect_grammar({"-print", "-o", "-false", "-o", "-true"}, "(or (or print false) true)");
    expect_grammar({"-print", "-false", "-a", "-true"}, "(and (and print false) true)");
    expect_grammar({"-print", ",", "-false", ",", "-true"}, "(, (, print false) true)");
}

Test(parse, global_options_leave_the_tree_and_set_the_command) {
    StderrCapture capture;
    Command command = parse({"-O0", "a", "-maxdepth", "3", "-name", "x", "-mindepth", "0007"});
    capture.text();
    cr_expect_eq(command.max_depth, 3);
    cr_expect_eq(command.min_depth, 7);
    cr_expect(shape(command) == "(and (and (and true (name x)) true) print)", "%s",
              shape(command).c_str());
    Command zero = parse({"-maxdepth", "0", "-mindepth", "0"});
    cr_expect_eq(zero.max_depth, 0);
    cr_expect_eq(zero.min_depth, 0);
    Command last = parse({"-maxdepth", "5", "-maxdepth", "2"});
    cr_expect_eq(last.max_depth, 2, "the last -maxdepth wins, as in find");
}

Test(parse, global_option_after_a_test_warns_only_when_warnings_are_on) {
    {
        StderrCapture capture;
        Command command = parse({"a", "-warn", "-name", "x", "-maxdepth", "1"});
        std::string printed = capture.text();
        cr_expect(printed.find("warning") != std::string::npos, "no warning: `%s'",
                  printed.c_str());
        cr_expect_eq(command.max_depth, 1);
    }
    {
        StderrCapture capture;
        parse({"a", "-nowarn", "-name", "x", "-maxdepth", "1"});
        std::string printed = capture.text();
        cr_expect(printed.empty(), "-nowarn printed `%s'", printed.c_str());
    }
    cr_expect_eq(ufind::exit_status(), 0, "a warning does not make the run fail");
}

// --------------------------------------------------------------------------
// -type
// --------------------------------------------------------------------------

Test(parse, type_letters_and_comma_lists_become_a_mask) {
    struct Case {
        const char* argument;
        unsigned mask;
    };
    const Case cases[] = {
        {"f", bit(IOQ_TYPE_REGULAR)},
        {"d", bit(IOQ_TYPE_DIRECTORY)},
        {"l", bit(IOQ_TYPE_SYMLINK)},
        {"b", bit(IOQ_TYPE_BLOCK)},
        {"c", bit(IOQ_TYPE_CHAR)},
        {"p", bit(IOQ_TYPE_FIFO)},
        {"s", bit(IOQ_TYPE_SOCKET)},
        {"f,d", bit(IOQ_TYPE_REGULAR) | bit(IOQ_TYPE_DIRECTORY)},
        {"l,f,d", bit(IOQ_TYPE_SYMLINK) | bit(IOQ_TYPE_REGULAR) | bit(IOQ_TYPE_DIRECTORY)},
        {"b,c,d,p,f,l,s", 0xfeu},
    };
    for (const Case& c : cases) {
        Command command = parse({"-type", c.argument});
        const Expr& expr = *command.expr;
        cr_assert(expr.kind == ExprKind::op_and && expr.left->kind == ExprKind::test_type,
                  "-type %s: %s", c.argument, shape(command).c_str());
        cr_expect_eq(expr.left->type_mask, c.mask, "-type %s: mask %#x, want %#x", c.argument,
                     expr.left->type_mask, c.mask);
        cr_expect_eq(expr.left->type_mask & bit(IOQ_TYPE_UNKNOWN), 0u,
                     "-type %s matches unknown types", c.argument);
    }
}

// --------------------------------------------------------------------------
// Refusals
// --------------------------------------------------------------------------

Test(parse, unknown_predicates_and_misplaced_paths_are_refused) {
    const Refusal refusals[] = {
        {{"-bogus"}, "-bogus", true},
        {{".", "-nmae", "x"}, "-nmae", true},
        {{".", "-true", "stray"}, "stray", true},  // paths must precede the expression
        {{".", "(", "-true", ")", "x"}, "x", true},
    };
    for (const Refusal& refusal : refusals) {
        expect_refused(refusal);
    }
    cr_expect_eq(ufind::exit_status(), 1, "a refusal makes the run fail");
}

Test(parse, missing_arguments_are_refused) {
    const Refusal refusals[] = {
        {{"-name"}, "-name", true},
        {{".", "-iname"}, "-iname", true},
        {{".", "-path"}, "-path", true},
        {{".", "-type"}, "-type", true},
        {{".", "-maxdepth"}, "-maxdepth", true},
        {{".", "-mindepth"}, "-mindepth", true},
        {{"-D"}, "-D", true},
        {{"-S"}, "-S", false},
        {{"-j"}, "-j", false},
        {{".", "-true", "-j"}, "-j", false},
    };
    for (const Refusal& refusal : refusals) {
        expect_refused(refusal);
    }
}

Test(parse, bad_type_letters_and_lists_are_refused) {
    const Refusal refusals[] = {
        {{"-type", "x"}, "x", true},
        {{"-type", ""}, "", true},
        {{"-type", "fd"}, "", true},     // letters must be separated by ','
        {{"-type", "f,"}, "", true},     // the list ends on ','
        {{"-type", ",f"}, "", true},
        {{"-type", "f,,d"}, "", true},
        {{"-type", "f,f"}, "f", true},   // duplicate
        {{"-type", "F"}, "F", true},
        {{"-type", "D"}, "D", true},     // Solaris doors
    };
    for (const Refusal& refusal : refusals) {
        expect_refused(refusal);
    }
}

// -xtype's refusals name -xtype, as find's do.
Test(parse, bad_xtype_letters_are_refused_naming_xtype) {
    const Refusal refusals[] = {
        {{"-xtype", "x"}, "Unknown argument to -xtype: x", true},
        {{"-xtype", ""}, "Arguments to -xtype should", true},
        {{"-xtype", "fd"}, "arguments to -xtype using", true},
        {{"-xtype", "f,"}, "argument to -xtype is missing", true},
        {{"-xtype", "f,f"}, "argument list to -xtype.", true},
        {{"-xtype", "D"}, "-xtype D is not supported", true},
    };
    for (const Refusal& refusal : refusals) {
        expect_refused(refusal);
    }
}

// A batch written with "{}" inside a word: find's own message, not a
// missing terminator.
Test(parse, exec_batch_placeholder_inside_a_word_is_refused) {
    const Refusal refusals[] = {
        {{".", "-exec", "echo", "x{}", "+"}, "must appear by itself, but you specified 'x{}'",
         true},
        {{".", "-execdir", "echo", "{}{}", "+"}, "In '-execdir ... {} +'", true},
        {{".", "-exec", "echo", "x{}", "+", ";"}, "must appear by itself", true},
    };
    for (const Refusal& refusal : refusals) {
        expect_refused(refusal);
    }
}

// -D help lists the flags on standard output and ends the run, status 0,
// before any search (find's behaviour).
Test(parse, debug_help_ends_the_run_successfully) {
    int status = -1;
    try {
        parse({"-D", "stats,help", ".", "-print"});
    } catch (const ufind::EarlyExit& exit) {
        status = exit.status;
    }
    cr_expect_eq(status, 0, "-D help did not end the run with status 0 (%d)", status);
}

Test(parse, non_numeric_depths_are_refused) {
    const Refusal refusals[] = {
        {{"-maxdepth", "x"}, "x", true},
        {{"-maxdepth", "-1"}, "-1", true},
        {{"-maxdepth", ""}, "", true},
        {{"-maxdepth", "1x"}, "1x", true},
        {{"-maxdepth", "1.5"}, "1.5", true},
        {{"-mindepth", "abc"}, "abc", true},
        {{"-maxdepth", "99999999999999999999"}, "99999999999999999999", true},
        {{"-j", "many"}, "many", false},
        {{"-S", "zigzag"}, "zigzag", false},
        {{"-Ox"}, "x", true},
        {{"-O"}, "", true},
        {{"-O3x"}, "3x", true},
    };
    for (const Refusal& refusal : refusals) {
        expect_refused(refusal);
    }
}

// GNU find hands these to glibc as they are, and runs for minutes, takes
// gigabytes or overflows its stack (cli/values/regex_size.hpp has the figures).
Test(parse, regexes_that_would_exhaust_the_compiler_are_refused) {
    std::string nested(30000, '(');
    nested += 'a' + std::string(30000, ')');
    const Refusal refusals[] = {
        {{".", "-regextype", "posix-extended", "-regex", "((a*){1,100}){1,100}"},
         "Regular expression too big", false},
        {{".", "-regextype", "posix-extended", "-iregex", nested}, "Regular expression too big",
         false},
    };
    for (const Refusal& refusal : refusals) {
        expect_refused(refusal);
    }
    cr_expect(shape_of({".", "-regextype", "posix-extended", "-regex", ".{1,2800}"}) != "",
              "a long optional run within the bounds is taken");
}

Test(parse, unbalanced_and_empty_parentheses_are_refused) {
    const Refusal refusals[] = {
        {{"(", "-true"}, "", true},
        {{"(", "(", "-true", ")"}, "", true},
        {{".", "-true", ")"}, ")", true},
        {{".", "(", "-true", ")", ")"}, ")", true},
        {{".", "(", ")"}, "", true},
        {{".", "-true", "(", ")"}, "", true},
        {{"(", "!", ")"}, "", true},
    };
    for (const Refusal& refusal : refusals) {
        expect_refused(refusal);
    }
}

Test(parse, operators_without_operands_are_refused) {
    const Refusal refusals[] = {
        {{".", "!"}, "!", true},
        {{".", "-true", "!"}, "!", true},
        {{".", "-not"}, "-not", true},
        {{".", "-o", "-true"}, "-o", true},
        {{".", "-a", "-true"}, "-a", true},
        {{".", "-true", "-o"}, "-o", true},
        {{".", "-true", "-or"}, "-or", true},
        {{".", "-true", "-a"}, "-a", true},
        {{".", "-true", ","}, ",", true},
        {{".", "-true", "-o", "-a", "-false"}, "-a", true},
        {{".", "(", "-o", "-true", ")"}, "-o", true},
        {{".", "!", "-o", "-true"}, "-o", true},
    };
    for (const Refusal& refusal : refusals) {
        expect_refused(refusal);
    }
}

Test(parse, constants_fold_into_their_operators_without_losing_an_effect) {
    expect_shape({"a", "-false"}, "false", "the implicit -print never runs");
    expect_shape({"a", "-maxdepth", "1", "-name", "x"}, "(and (name x) print)",
                 "a positional option leaves no -true behind");
    expect_shape({"a", "-true", "-o", "-print"}, "true", "-print never runs");
    expect_shape({"a", "-false", "-o", "-print"}, "print");
    expect_shape({"a", "!", "-true", "-o", "-print"}, "print");
    expect_shape({"a", "!", "(", "-true", "-o", "-false", ")", "-print"}, "false");
    expect_shape({"a", "-name", "x", "-false"}, "false", "a name test does nothing");
    expect_shape({"a", "-name", "x", "-o", "-true"}, "print", "always true: -print always runs");
    expect_shape({"a", "-name", "x", ",", "-print"}, "print");
    expect_shape({"a", "-size", "+1k", ",", "-print"}, "(, stat-test print)",
                 "a metadata test may report a failure: it stays");
    expect_shape({"a", "-size", "+1k", "-false"}, "false",
                 "cheap tests first: -false, and -size never ran even before folding");
    expect_shape({"a", "-print", "-false"}, "(and print false)", "an action stays");
    expect_shape({"a", "-prune", "-o", "-true"}, "(and (or prune true) print)", "-prune stays");
    expect_shape({"a", "-print", ",", "-false", "-o", "-print0"}, "(, print print0)");
    expect_grammar({"a", "-false"}, "(and false print)", "-O0 folds nothing");
}

Test(parse, cheap_tests_move_before_tests_needing_metadata_but_never_across_actions) {
    expect_shape({"a", "-size", "+1k", "-name", "x"}, "(and (and (name x) stat-test) print)",
                 "-name costs nothing, -size a statx: -name goes first");
    expect_shape({"a", "-newer", "/", "-type", "f", "-regex", ".*c", "-name", "x"},
                 "(and (and (and (and (type 2) (name x)) test) stat-test) print)",
                 "names and types, then other tests, then metadata; stable within each");
    expect_shape({"a", "-size", "+1k", "-print", "-name", "x"},
                 "(and (and stat-test print) (name x))",
                 "nothing crosses an action");
    expect_shape({"a", "(", "-size", "+1k", "-name", "x", ")", "-o", "-name", "y"},
                 "(and (or (and (name x) stat-test) (name y)) print)",
                 "chains inside operators are sorted on their own");
    expect_shape({"-O0", "a", "-size", "+1k", "-name", "x"}, "(and (and stat-test (name x)) print)",
                 "-O0 keeps the order given");
}
