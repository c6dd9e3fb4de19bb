#!/usr/bin/env python3
"""Build the `deep` benchmark corpus: one long chain of nested directories.

Shape: DEST/d/d/.../d, DEPTH directories named `d` below DEST, each holding one
empty file `f`. It measures what a walker pays per level of depth rather than per
entry: path buffer growth, descriptor caching (a walker that keeps every ancestor
open needs DEPTH descriptors), and the fallback once a full path no longer fits in
PATH_MAX.

The chain is built with mkdirat/openat relative to the previous level, closing each
parent as soon as the child is open, so neither PATH_MAX nor the descriptor limit
matter however deep it goes. (With 1-character names, 2,000 levels make a path of
about 4,000 bytes plus DEST: it crosses PATH_MAX = 4096 only for a DEST longer than
~95 bytes; pass a larger DEPTH to force the long-path case.)

Usage: mkdeep.py DEST [DEPTH]   (DEST must not exist yet; DEPTH defaults to 2000)
"""

import os
import sys

DEFAULT_DEPTH = 2000


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print("usage: mkdeep.py DEST [DEPTH]", file=sys.stderr)
        return 2
    dest = sys.argv[1]
    depth = int(sys.argv[2]) if len(sys.argv) == 3 else DEFAULT_DEPTH
    os.mkdir(dest, 0o755)
    dir_flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
    file_flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    fd = os.open(dest, dir_flags)
    for _ in range(depth):
        os.mkdir("d", 0o755, dir_fd=fd)
        child = os.open("d", dir_flags, dir_fd=fd)
        os.close(fd)
        fd = child
        os.close(os.open("f", file_flags, 0o644, dir_fd=fd))
    os.close(fd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
