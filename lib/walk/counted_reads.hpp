// Whether the block reads of a walk show in getrusage's ru_inblock.
//
// The I/O queue adds workers when the walk waits long for a directory
// (io_queue.cpp).  Its proof that a device, not a busy CPU, keeps it
// waiting is that the process read blocks since it last looked.  File
// systems on a block device count those reads; network and FUSE file
// systems count none, so there the queue must guess from slow waits alone.
// On a file system that counts its reads, a slow wait without reads is a
// CPU the walk shares, and guessing only adds workers to contend for it,
// which made a warm ext4 walk slower (measured in 9d982c0).
#pragma once

#include <string>
#include <vector>

namespace ioq::walk {

// True if every starting point lies on a file system known to read
// through a block device the kernel accounts to the reading process
// (ext2/3/4, xfs, btrfs, f2fs, vfat, exfat) or to read nothing at all
// (tmpfs, ramfs), on a kernel that accounts reads to processes at all
// (/proc/self/io exists).  False for any other file system, and for a
// path statfs cannot reach (its error is reported by the walk itself).
bool block_reads_are_counted(const std::vector<std::string>& roots);

} // namespace ioq::walk
