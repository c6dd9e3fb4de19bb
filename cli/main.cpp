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

#include <cerrno>
#include <cstdio>
#include <string>
#include <vector>

namespace {

void print_stats(const ioq::Walk& walk) {
    ioq_walk_stats stats = walk.stats();
    std::fprintf(stderr,
                 "ufind: stats: backend=%s workers_started=%d entries=%llu directories=%llu "
                 "errors=%llu statx=%llu waits=%llu ran_here=%llu sleeps=%llu\n",
                 ioq_backend_name(stats.backend), stats.workers_started,
                 static_cast<unsigned long long>(stats.entries),
                 static_cast<unsigned long long>(stats.directories),
                 static_cast<unsigned long long>(stats.errors),
                 static_cast<unsigned long long>(stats.stats),
                 static_cast<unsigned long long>(stats.waits),
                 static_cast<unsigned long long>(stats.ran_here),
                 static_cast<unsigned long long>(stats.sleeps));
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

int run(const ufind::Command& command) {
    ioq_walk_options options = ioq::Walk::defaults();
    options.strategy = command.strategy;
    options.min_depth = command.min_depth;
    options.max_depth = command.max_depth;
    options.post_order = command.post_order;
    options.symlinks = command.symlinks;
    options.same_device = command.same_device;
    options.sort_names = command.sort_names;
    // -jN counts every thread, the walk loop's included, as bfs does.
    if (command.threads >= 0) {
        options.workers = command.threads > 1 ? command.threads - 1 : 0;
    }
    std::vector<const char*> roots;
    for (const std::string& root : command.roots) {
        roots.push_back(root.c_str());
    }
    ioq::Walk walk(roots, options);
    if (walk.error()) {
        ufind::report_path_error(".", -walk.error());
        return 1;
    }

    ufind::Output out(STDOUT_FILENO);
    ufind::EvalContext context{walk, out};
    context.symlinks = command.symlinks;
    while (const ioq::Entry* entry = walk.next()) {
        if (entry->error()) {
            report_walk_error(command, *entry);
            continue;
        }
        context.entry = entry;
        ufind::evaluate(*command.expr, context);
        if (context.quit) {
            walk.stop();
            break;
        }
    }
    out.flush();
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
    }
}
