// ufind: find on libioq.
//
// argv -> parse_command_line -> Command -> walk each entry -> evaluate ->
// buffered output.  The walk is reached only through libioq's public API.
#include "diagnostics.hpp"
#include "eval.hpp"
#include "output.hpp"
#include "parse.hpp"

#include <ioq.hpp>

#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

// -files0-from: the starting points, NUL-separated, from a file or stdin.
// An empty name is reported and skipped, as find does.  false when the file
// cannot be read at all.
bool read_files0_from(const std::string& source, std::vector<std::string>& roots) {
    int fd = source == "-" ? STDIN_FILENO : ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        ufind::report_error("cannot open `" + source + "' for reading: " + std::strerror(errno));
        return false;
    }
    std::string data;
    char buffer[65536];
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR)) {
        if (n > 0) {
            data.append(buffer, static_cast<std::size_t>(n));
        }
    }
    if (fd != STDIN_FILENO) {
        ::close(fd);
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
            ufind::report_error("`" + source + "':" + std::to_string(index) +
                                ": invalid zero-length file name");
        } else {
            roots.emplace_back(data, start, end - start);
        }
        start = end + 1;
    }
    return true;
}

void print_stats(const ioq::Walk& walk) {
    ioq_walk_stats stats = walk.stats();
    std::fprintf(stderr,
                 "ufind: stats: backend=%s workers_started=%d entries=%llu directories=%llu "
                 "errors=%llu statx=%llu waits=%llu ran_here=%llu sleeps=%llu wait_ms=%.1f\n",
                 ioq_backend_name(stats.backend), stats.workers_started,
                 static_cast<unsigned long long>(stats.entries),
                 static_cast<unsigned long long>(stats.directories),
                 static_cast<unsigned long long>(stats.errors),
                 static_cast<unsigned long long>(stats.stats),
                 static_cast<unsigned long long>(stats.waits),
                 static_cast<unsigned long long>(stats.ran_here),
                 static_cast<unsigned long long>(stats.sleeps),
                 static_cast<double>(stats.wait_ns) / 1e6);
}

void report_walk_error(const ufind::Command& command, const ioq::Entry& entry) {
    if (entry.loop_ancestor()) {
        ufind::report_error("File system loop detected; '" + std::string(entry.path()) +
                            "' is part of the same file system loop as '" +
                            entry.loop_ancestor() + "'.");
        return;
    }
    // A file that vanished between being listed and being looked at is not
    // an error under -ignore_readdir_race; a missing starting point still is.
    if (command.ignore_readdir_race && entry.error() == ENOENT && entry.depth() > 0) {
        return;
    }
    ufind::report_path_error(entry.path(), entry.error());
}

int run(ufind::Command& command) {
    ioq_walk_options options = ioq::Walk::defaults();
    options.strategy = command.strategy;
    options.min_depth = command.min_depth;
    options.max_depth = command.max_depth;
    options.post_order = command.post_order;
    options.symlinks = command.symlinks;
    options.same_device = command.same_device;
    options.sort_names = command.sort_names;
    if (ufind::reads_metadata_of_every_entry(*command.expr)) {
        options.stat_mask = command.stat_mask;
    }
    // -jN counts every thread, the walk loop's included, as bfs does.
    if (command.threads >= 0) {
        options.workers = command.threads > 1 ? command.threads - 1 : 0;
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
    if (walk.error()) {
        ufind::report_path_error(".", -walk.error());
        return 1;
    }

    ufind::EvalContext context(walk, *command.outputs);
    context.symlinks = command.symlinks;
    context.stat_mask |= command.stat_mask;
    context.start_time = command.start_time;
    while (const ioq::Entry* entry = walk.next()) {
        if (entry->error()) {
            report_walk_error(command, *entry);
            continue;
        }
        context.begin_entry(*entry);
        context.root = root_names[entry->root()];
        ufind::evaluate(*command.expr, context);
        if (context.quit) {
            walk.stop();
            break;
        }
    }
    // Pending -exec ... {} + batches run even after -quit, as in find.
    context.entry = nullptr;
    ufind::for_each_primary(*command.expr,
                            [&](ufind::Primary& primary) { primary.finish(context); });
    command.outputs->flush_all();
    if (command.debug_stats) {
        print_stats(walk);
    }
    return ufind::exit_status();
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        ufind::Command command = ufind::parse_command_line(args);
        return run(command);
    } catch (const ufind::UsageError&) {
        return 1;
    } catch (const ufind::EarlyExit& early) {
        return early.status;
    }
}
