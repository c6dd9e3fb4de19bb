// Worker threads and -exec's commands under RLIMIT_NPROC.
//
// The kernel counts threads against the same per-user allowance as
// processes, so under a tight `ulimit -u` a walk's worker pool can take the
// room -exec needs to start its commands (vfork fails with EAGAIN where GNU
// find, which has no threads, succeeds).  A run that starts commands
// therefore sizes its pool to leave room for them; real root is exempt
// from the limit and keeps its pool.
#pragma once

namespace ufind {

// The workers a walk that runs commands may start: `requested` (-1: libioq's
// automatic choice) when RLIMIT_NPROC leaves room for a growing pool, else
// a fixed number that leaves half the allowance to the commands (0 under a
// limit of 3 or less: the walk loop then makes every call itself).
int workers_within_process_limit(int requested);

} // namespace ufind
