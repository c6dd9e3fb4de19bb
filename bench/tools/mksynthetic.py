#!/usr/bin/env python3
"""Build the `synthetic` benchmark corpus: a wide, regular, shallow tree.

Shape: DEST/d{a}/d{b}/d{c} for a, b in 0..29 and c in 0..24, each leaf holding the
empty files f0.rb .. f3.rb. That is 1 + 30 + 900 + 22,500 = 23,431 directories and
90,000 files. Where the Linux tree has a few fat directories and a long tail, this
one has many small directories of identical size, so per-directory overhead
(openat/getdents/close round trips, queue hand-offs) dominates rather than
per-entry work.

Everything is created relative to an open parent descriptor (mkdir/open with
dir_fd) so no path is resolved twice; the whole build takes a second or two
instead of the minutes that 90,000 `touch` processes would.

Usage: mksynthetic.py DEST   (DEST must not exist yet)
"""

import os
import sys

WIDTH_A = 30
WIDTH_B = 30
WIDTH_C = 25
FILES_PER_LEAF = 4


def make_dir(parent_fd: int, name: str) -> int:
    os.mkdir(name, 0o755, dir_fd=parent_fd)
    return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=parent_fd)


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: mksynthetic.py DEST", file=sys.stderr)
        return 2
    dest = sys.argv[1]
    os.mkdir(dest, 0o755)
    root = os.open(dest, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    file_flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    for a in range(WIDTH_A):
        fa = make_dir(root, f"d{a}")
        for b in range(WIDTH_B):
            fb = make_dir(fa, f"d{b}")
            for c in range(WIDTH_C):
                fc = make_dir(fb, f"d{c}")
                for f in range(FILES_PER_LEAF):
                    os.close(os.open(f"f{f}.rb", file_flags, 0o644, dir_fd=fc))
                os.close(fc)
            os.close(fb)
        os.close(fa)
    os.close(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
