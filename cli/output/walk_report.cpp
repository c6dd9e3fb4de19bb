#include "output/walk_report.hpp"

#include "system/diagnostics.hpp"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace ufind {
namespace {

double milliseconds(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

void write_line(const std::string& line) {
    write_fully(STDERR_FILENO, std::string(program_name()) + ": stats: " + line + "\n");
}

} // namespace

std::string grouped(std::uint64_t value) {
    std::string digits = std::to_string(value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out.push_back(',');
        }
        out.push_back(digits[i]);
    }
    return out;
}

std::int64_t monotonic_ns() {
    struct timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void print_walk_report(const ioq::Walk& walk, const PhaseTimes& times) {
    ioq_walk_stats stats = walk.stats();
    write_line(std::string("backend ") + ioq_backend_name(stats.backend) +
               (stats.workers_started
                    ? ", " + grouped(stats.workers) + " worker threads running at the end"
                    : std::string(", no worker thread started")));

    std::string errors;
    std::uint64_t error_total = 0;
    std::span<const unsigned> by_errno = path_errors_by_errno();
    for (std::size_t value = 0; value < by_errno.size(); ++value) {
        if (by_errno[value] == 0) {
            continue;
        }
        error_total += by_errno[value];
        errors += errors.empty() ? " (" : ", ";
        errors += grouped(by_errno[value]) + " " + std::strerror(static_cast<int>(value));
    }
    if (!errors.empty()) {
        errors += ")";
    }
    write_line(grouped(stats.entries) + " entries, " + grouped(stats.directories) +
               " directories read, " + grouped(error_total) + " errors" + errors);
    write_line("requests: " + grouped(stats.directories) + " directories opened, " +
               grouped(stats.reads) + " getdents64 reading " + grouped(stats.read_bytes) +
               " bytes of entries, " + grouped(stats.stats) + " statx; " +
               grouped(stats.ran_here) + " run by the walking thread while waiting" +
               (stats.listings_reused ? "; " + grouped(stats.listings_reused) +
                                            " listings kept from an earlier round"
                                      : std::string()));
    write_line("waiting: " + grouped(stats.waits) + " times a directory was not ready, " +
               grouped(stats.sleeps) + " sleeps, " + grouped(stats.cache_misses) + " opens not done from the caches");
    char timing[200];
    std::snprintf(timing, sizeof timing,
                  "time %.1f ms: parse %.1f, walk %.1f (waiting for directories %.1f), "
                  "finish %.1f",
                  milliseconds(times.finished - times.start),
                  milliseconds(times.parsed - times.start),
                  milliseconds(times.walked - times.parsed),
                  milliseconds(static_cast<std::int64_t>(stats.wait_ns)),
                  milliseconds(times.finished - times.walked));
    write_line(timing);
    char machine[512];
    std::snprintf(machine, sizeof machine,
                  "backend=%s workers_started=%d entries=%llu directories=%llu errors=%llu "
                  "statx=%llu reads=%llu read_bytes=%llu waits=%llu ran_here=%llu sleeps=%llu "
                  "wait_ms=%.1f wall_ms=%.1f workers=%llu cache_misses=%llu "
                  "listings_reused=%llu",
                  ioq_backend_name(stats.backend), stats.workers_started,
                  static_cast<unsigned long long>(stats.entries),
                  static_cast<unsigned long long>(stats.directories),
                  static_cast<unsigned long long>(stats.errors),
                  static_cast<unsigned long long>(stats.stats),
                  static_cast<unsigned long long>(stats.reads),
                  static_cast<unsigned long long>(stats.read_bytes),
                  static_cast<unsigned long long>(stats.waits),
                  static_cast<unsigned long long>(stats.ran_here),
                  static_cast<unsigned long long>(stats.sleeps),
                  milliseconds(static_cast<std::int64_t>(stats.wait_ns)),
                  milliseconds(times.finished - times.start),
                  static_cast<unsigned long long>(stats.workers),
                  static_cast<unsigned long long>(stats.cache_misses),
                  static_cast<unsigned long long>(stats.listings_reused));
    write_line(machine);
}

} // namespace ufind
