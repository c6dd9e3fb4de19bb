// Growing the process's descriptor table while it is still ours alone.
//
// The kernel keeps a process's open files in a table that starts with 64
// slots and doubles (to 128, 256, ...) when a descriptor past its end is
// installed.  While another thread shares the table (a worker, or one of
// io_uring's io-wq threads, which share it too), each growth waits for an
// RCU grace period so that no thread still reads the old one (fs/file.c,
// expand_fdtable: synchronize_rcu).  A grace period can take longer than a
// whole short search, and a walk holds enough directory descriptors at once
// to grow the table past 64 (measured in 5898624).
//
// Grown by one descriptor placed past the end before the first thread
// starts, the table needs no grace period, and it stays grown: closing
// descriptors never shrinks it.  A shell that holds a high descriptor
// (bash's 255) hands its children a table grown already, which is why the
// cost showed under `sh -c` (hyperfine's way to run a command) and not from
// an interactive bash.
#pragma once

#include <cstddef>

namespace ioq {

// The table size the queue grows to before starting threads: twice the
// deepest need measured (258 descriptors), in 8 KiB of kernel memory.
inline constexpr std::size_t descriptor_table_slots = 1024;

// Makes the descriptor table hold at least `slots` descriptors (fewer if
// RLIMIT_NOFILE is lower), by duplicating an O_PATH descriptor of / to the
// last of them and closing both (never one of the caller's descriptors,
// whose close would drop the process's record locks on its file; the copy
// is close-on-exec, for a program that forks in another thread).  Nearly
// free on a table that is large enough already.  In a program that has
// threads already, this growth waits for its grace period once, where a
// walk would have waited once per doubling.  Best effort: on failure the
// table grows later, as it would have.
void grow_descriptor_table(std::size_t slots) noexcept;

} // namespace ioq
