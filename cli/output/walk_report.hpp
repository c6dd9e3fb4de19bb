// --stats (and -D stats): what the walk did, on stderr at exit.
//
//   ufind: stats: backend io_uring, 1 worker thread started
//   ufind: stats: 83,731 entries, 5,096 directories, 0 errors
//   ufind: stats: requests: 1,876 run by the walking thread, 0 statx ...
//   ufind: stats: time 40.1 ms: parse 0.1, walk 39.2 (waiting 3.1), finish 0.8
//   ufind: stats: backend=io_uring workers_started=1 entries=83731 ...
//
// The last line carries every counter as key=value for scripts (bench/
// reads it).  Errors are counted by errno from what was reported.
#pragma once

#include <ioq.hpp>

#include <cstdint>
#include <string>

namespace ufind {

// CLOCK_MONOTONIC readings, in nanoseconds, at the ends of the phases.
struct PhaseTimes {
    std::int64_t start = 0;     // main() entered
    std::int64_t parsed = 0;    // command line parsed
    std::int64_t walked = 0;    // the walk loop ended
    std::int64_t finished = 0;  // pending -exec batches run, output flushed
};

std::int64_t monotonic_ns();

// 1234567 -> "1,234,567": counts read at a glance (here and in -status).
std::string grouped(std::uint64_t value);

void print_walk_report(const ioq::Walk& walk, const PhaseTimes& times);

} // namespace ufind
