#!/usr/bin/env python3
"""List the directories a command opened, from `strace -f -y` output, for floor_list.

Usage: opened_dirs.py STRACE_FILE
  STRACE_FILE is what `strace -f -y -e trace=open,openat,openat2 -o STRACE_FILE
  CMD` wrote. Prints, one a line and in the order they were opened, the path of
  every successful open with O_DIRECTORY: the kernel's own name for the new
  descriptor (strace -y), so it does not matter which directory the path was
  relative to. A directory opened twice is printed twice.

Opens made through an io_uring are no system calls and strace does not see them:
run the command without worker threads (ufind -j1) to list everything it reads.
Exits 1 if no directory was opened (the command failed, or ran on a ring).
"""

import re
import sys

# `openat(3</a/b>, "c", O_RDONLY|O_DIRECTORY...) = 4</a/b/c>`, possibly after a
# pid; openat2 spells its flags inside a struct, which the search still finds.
OPEN = re.compile(r'\bopen(?:at2?)?\(.*O_DIRECTORY.*\)\s+=\s+\d+<(.*)>$')


def opened_directories(lines):
    for line in lines:
        match = OPEN.search(line.rstrip("\n"))
        if match:
            yield match.group(1)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as trace:
        paths = list(opened_directories(trace))
    if not paths:
        sys.exit(f"opened_dirs.py: no directory opened in {sys.argv[1]}")
    sys.stdout.write("".join(path + "\n" for path in paths))


if __name__ == "__main__":
    main()
