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

#include <cstdio>
#include <string>
#include <vector>

namespace {

void print_stats(const ioq::Walk& walk) {
    ioq_walk_stats stats = walk.stats();
    std::fprintf(stderr,
                 "ufind: stats: backend=%s workers_started=%d entries=%llu directories=%llu "
                 "errors=%llu statx=%llu waits=%llu\n",
                 ioq_backend_name(stats.backend), stats.workers_started,
                 static_cast<unsigned long long>(stats.entries),
                 static_cast<unsigned long long>(stats.directories),
                 static_cast<unsigned long long>(stats.errors),
                 static_cast<unsigned long long>(stats.stats),
                 static_cast<unsigned long long>(stats.waits));
}

int run(const ufind::Command& command) {
    ioq_walk_options options = ioq::Walk::defaults();
    options.strategy = command.strategy;
    options.min_depth = command.min_depth;
    options.max_depth = command.max_depth;
    options.post_order = command.post_order;
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
    while (const ioq::Entry* entry = walk.next()) {
        if (entry->error()) {
            ufind::report_path_error(entry->path(), entry->error());
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
