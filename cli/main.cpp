// ufind: find on libioq.
//
// argv -> parse_command_line -> Command -> walk each entry -> evaluate ->
// buffered output.  The walk is reached only through libioq's public API
// (lib/include/ioq.hpp); nothing here reads a directory itself.
//
// Where each piece of the find language lives, by what it is:
//
//   main.cpp      this file: the walk loop, -files0-from, the exit status
//   command/      the command line: parse.cpp (the grammar, options),
//                 flags.cpp (-H -L -P -D -O -S -j and bfs's flag groups),
//                 primary_names.cpp (every word, its arguments and help),
//                 optimise.cpp (cheap tests first), expression_lint.cpp
//                 (-warn's warnings), help.cpp (--help, --version)
//   expr/         the parsed expression: expr.hpp (the tree), primary.hpp
//                 (a test or action with state of its own), eval.cpp (one
//                 entry through the tree), visit_filter.cpp (bfs's -exclude,
//                 -unique, -X: entries never visited)
//   predicates/   find's tests: metadata.cpp (-size, -empty, -links, -inum,
//                 -samefile, -readable...), owner.cpp (-user, -group, -uid),
//                 path.cpp (-path, -wholename, -lname), time.cpp (-newer,
//                 -mtime...), regex.cpp (-regex), perm.cpp (-perm),
//                 reference_file.cpp (the files -newer and -samefile name),
//                 bfs_tests.cpp (bfs's -hidden and -depth N)
//   actions/      what is done with an entry: print_actions.cpp, printf.cpp,
//                 ls_format.cpp (-ls), json_output.cpp (-json), exec.cpp and
//                 spawn_command.cpp (-exec, -ok), delete.cpp, bfs_actions.cpp
//                 (bfs's -limit, -exit, -printx)
//   values/       the arguments' little languages: comparison.cpp (+N -N N),
//                 date_parse.cpp and relative_date.cpp (-newerXt dates),
//                 glob_pattern.cpp, regex_size.cpp, path_parts.hpp
//   output/       where results go: output.cpp (buffered writes),
//                 output_files.cpp (-fprint...), path_display.cpp and
//                 ls_colors.cpp (a terminal's view), terminal_text.cpp,
//                 status_line.cpp (-status), walk_report.cpp (--stats)
//   system/       the process's surroundings: diagnostics.cpp (messages and
//                 the exit status), fstype.cpp, user_cache.cpp, user_locale.cpp
#include "command/parse.hpp"
#include "expr/eval.hpp"
#include "expr/visit_filter.hpp"
#include "output/ls_colors.hpp"
#include "output/output.hpp"
#include "output/path_display.hpp"
#include "output/status_line.hpp"
#include "output/walk_report.hpp"
#include "system/diagnostics.hpp"
#include "system/process_limit.hpp"
#include "system/user_locale.hpp"

#include <ioq.hpp>

#include <sys/uio.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace {

// -files0-from: the starting points, NUL-separated, from a file or stdin.
// An empty name is reported and skipped, as find does.  false when the file
// cannot be opened or a read fails: the list is read whole before anything
// is walked, so that a read cut short can never make a partial name (a
// parent of what was listed) a starting point for -delete or -exec.
bool read_files0_from(const std::string& source, std::vector<std::string>& roots) {
    bool from_stdin = source == "-";
    // find's name for standard input in these messages.
    std::string name = ufind::quote_path(from_stdin ? "(standard input)" : source);
    int fd = from_stdin ? STDIN_FILENO : ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        ufind::report_error("cannot open " + name + " for reading: " + std::strerror(errno));
        return false;
    }
    std::string data;
    char buffer[65536];
    int read_error = 0;
    for (;;) {
        ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            data.append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0) {
            break;
        } else if (errno != EINTR) {
            read_error = errno;
            break;
        }
    }
    if (fd != STDIN_FILENO) {
        ::close(fd);
    }
    if (read_error != 0) {
        ufind::report_error(name + ": read error: " + std::strerror(read_error));
        return false;
    }
    std::size_t start = 0;
    std::size_t index = 0;
    while (start < data.size()) {
        std::size_t end = data.find('\0', start);
        if (end == std::string::npos) {
            end = data.size();
        }
        ++index;
        if (end == start) {
            ufind::report_error(name + ":" + std::to_string(index) +
                                ": invalid zero-length file name");
        } else {
            roots.emplace_back(data, start, end - start);
        }
        start = end + 1;
    }
    return true;
}

// "PROGRAM: memory exhausted", GNU find's words, written without
// allocating: it must get out when memory has run out.
void report_memory_exhausted() {
    static constexpr char message[] = ": memory exhausted\n";
    std::string_view name = ufind::program_name();
    iovec parts[2] = {{const_cast<char*>(name.data()), name.size()},
                      {const_cast<char*>(message), sizeof message - 1}};
    ssize_t written = ::writev(STDERR_FILENO, parts, 2);
    (void)written;
}

void report_walk_error(const ufind::Command& command, const ioq::Entry& entry) {
    if (entry.loop_ancestor() && command.ignore_errors) {
        ufind::report_path_error(entry.path(), ELOOP);  // only counted, under -noerror
        return;
    }
    if (entry.loop_ancestor()) {
        ufind::report_error("File system loop detected; " + ufind::quote_path(entry.path()) +
                            " is part of the same file system loop as " +
                            ufind::quote_path(entry.loop_ancestor()) + ".");
        return;
    }
    // A file that vanished between being listed and being looked at is not
    // an error under -ignore_readdir_race; a missing starting point still is.
    if (command.ignore_readdir_race && entry.error() == ENOENT && entry.depth() > 0) {
        return;
    }
    ufind::report_path_error(entry.path(), entry.error());
}

// A link the walk could not follow under -H or -L comes as the link itself.
// find says why unless it is simply broken (ENOENT): a target through a
// regular file (ENOTDIR) is an error.  Below the starting points the link
// is still evaluated, as find does; a starting point is left out.  Whether
// to evaluate the entry.
bool check_unfollowed_link(ufind::EvalContext& context) {
    int error = context.link_target_error();
    if (error == 0 || error == ENOENT) {
        return true;
    }
    ufind::report_path_error(context.entry->path(), error);
    return context.entry->depth() > 0;
}

// How -print shows paths: null when as raw bytes (a pipe or a file).
// unreadable: set when LS_COLORS cannot be read, which bfs refuses to run with.
std::unique_ptr<ufind::PathDisplay> make_display(const ufind::Command& command, bool& unreadable) {
    using ColorMode = ufind::Command::ColorMode;
    bool colors = command.color == ColorMode::always ||
                  (command.color == ColorMode::automatic && ufind::colors_wanted_by_default());
    bool escape = ::isatty(STDOUT_FILENO) == 1;
    if (!colors && !escape) {
        return nullptr;
    }
    std::unique_ptr<ufind::LsColors> ls_colors;
    if (colors) {
        // bfs reads BFS_COLORS after LS_COLORS, for its own overrides.
        const char* spec = std::getenv("LS_COLORS");
        const char* more = std::getenv("BFS_COLORS");
        ls_colors = std::make_unique<ufind::LsColors>(spec ? spec : "", more ? more : "");
        if (!ls_colors->valid()) {
            ufind::report_error("Error parsing $LS_COLORS: Invalid argument.");
            unreadable = true;
            return nullptr;
        }
    }
    return std::make_unique<ufind::PathDisplay>(escape, std::move(ls_colors));
}

int run(ufind::Command& command, ufind::PhaseTimes& times) {
    ioq_walk_options options = ioq::Walk::defaults();
    options.strategy = command.strategy;
    ufind::VisitFilter filter(command.exclude.get(), command.unique, command.post_order);
    if (command.xargs_safe) {
        filter.refuse_xargs_unsafe();
    }
    // What the filter refuses above -mindepth is not descended either, so
    // the filter must see those levels too; the loop skips them after it.
    options.min_depth = filter.active() ? 0 : command.min_depth;
    options.max_depth = command.max_depth;
    options.post_order = command.post_order;
    options.symlinks = command.symlinks;
    options.same_device = command.same_device;
    options.sort_names = command.sort_names;
    options.hold_directories = command.acts_in_place;
    bool unreadable_colors = false;
    std::unique_ptr<ufind::PathDisplay> display = make_display(command, unreadable_colors);
    if (unreadable_colors) {
        return 1;
    }
    // Nothing will ask for metadata (colors would): let the workers close
    // leaf directories without a statx each (one per leaf saved, and most
    // directories are leaves: measured in c5ee6a4).
    bool display_stats = display && display->needs_metadata();
    options.names_only = command.stat_mask == 0 && filter.stat_mask() == 0 &&
                         !command.acts_in_place && !display_stats;
    // Depth-first, subdirectories open before their entries are returned,
    // unless a command or -delete may change them first (find would then
    // read them as changed).
    options.look_ahead = !command.changes_tree;
    if (ufind::reads_metadata_of_every_entry(*command.expr)) {
        options.stat_mask = command.stat_mask;
    }
    // Colors by mode need a statx per file: the workers fetch them in
    // batches instead of the walk loop asking one at a time.
    if (display_stats) {
        options.stat_mask |= STATX_TYPE | STATX_MODE | STATX_NLINK;
    }
    // -jN counts every thread, the walk loop's included, as bfs does.
    if (command.threads >= 0) {
        options.workers = command.threads > 1 ? command.threads - 1 : 0;
    }
    if (command.runs_commands) {
        options.workers = ufind::workers_within_process_limit(options.workers);
    }
    std::vector<std::string> root_names = command.roots;
    if (!command.files0_from.empty() && !read_files0_from(command.files0_from, root_names)) {
        return 1;
    }
    std::vector<const char*> roots;
    for (const std::string& root : root_names) {
        roots.push_back(root.c_str());
    }
    if (roots.empty()) {
        return ufind::exit_status();  // -files0-from an empty list: nothing to walk
    }
    ioq::Walk walk(roots, options);
    if (walk.error() == -ENOMEM) {
        report_memory_exhausted();
        return 1;
    }
    if (walk.error()) {
        ufind::report_path_error(".", -walk.error());
        return 1;
    }

    ufind::EvalContext context(walk, *command.outputs);
    context.display = display.get();
    ufind::StatusLine status(command.status && ::isatty(STDERR_FILENO) == 1,
                             command.outputs->standard());
    context.symlinks = command.symlinks;
    context.ignore_readdir_race = command.ignore_readdir_race;
    context.post_order = command.post_order;
    context.stat_mask |= command.stat_mask | filter.stat_mask();
    if (command.ignore_errors) {
        ufind::ignore_path_errors();
    }
    context.start_time = command.start_time;
    while (const ioq::Entry* entry = walk.next()) {
        status.on_entry(*entry);
        if (entry->error()) {
            if (!(filter.absorbs_loop() && entry->loop_ancestor())) {
                report_walk_error(command, *entry);
            }
            continue;
        }
        context.begin_entry(*entry);
        if (entry->type() == IOQ_TYPE_SYMLINK && context.follows_links() &&
            !check_unfollowed_link(context)) {
            continue;
        }
        context.root = root_names[entry->root()];
        if (filter.active() && (!filter.admits(context) || entry->depth() < command.min_depth)) {
            continue;
        }
        ufind::evaluate(*command.expr, context);
        if (context.quit) {
            walk.stop();
            break;
        }
    }
    times.walked = ufind::monotonic_ns();
    status.finish();
    if (walk.error()) {
        // The walk could not go on (memory ran out): what was printed is
        // right, but entries are missing.  Say so and fail, as find does.
        command.outputs->flush_all();
        if (walk.error() == -ENOMEM) {
            report_memory_exhausted();
        } else {
            ufind::report_error(std::strerror(-walk.error()));
        }
        return 1;
    }
    // Pending -exec ... {} + batches run even after -quit, as in find.
    context.entry = nullptr;
    ufind::for_each_primary(*command.expr,
                            [&](ufind::Primary& primary) { primary.finish(context); });
    command.outputs->flush_all();
    times.finished = ufind::monotonic_ns();
    if (command.debug_stats) {
        ufind::print_walk_report(walk, times);
    }
    if (command.ignore_errors && command.warnings && ufind::suppressed_path_errors() > 0) {
        ufind::report_warning("suppressed errors: " +
                              std::to_string(ufind::suppressed_path_errors()));
    }
    if (context.exit_status >= 0) {
        return context.exit_status;
    }
    return ufind::exit_status();
}

} // namespace

int main(int argc, char** argv) {
    ufind::PhaseTimes times;
    times.start = ufind::monotonic_ns();
    ufind::set_program_name(argc > 0 ? argv[0] : nullptr);
    ufind::use_the_users_locale();
    try {
        std::vector<std::string> args(argv + 1, argv + argc);
        ufind::Command command = ufind::parse_command_line(args);
        times.parsed = ufind::monotonic_ns();
        return run(command, times);
    } catch (const ufind::UsageError&) {
        return 1;
    } catch (const ufind::EarlyExit& early) {
        return early.status;
    } catch (const std::bad_alloc&) {
        report_memory_exhausted();
        return 1;
    }
}
