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


# With -f, a call another thread interrupts is split in two lines:
# `PID openat(...flags <unfinished ...>` and, later, `PID <... openat resumed>
# ...) = 4</a/b/c>`; the halves are joined per PID before matching.
UNFINISHED = re.compile(r'^(\d+)\s+(.*?)\s*<unfinished \.\.\.>$')
RESUMED = re.compile(r'^(\d+)\s+<\.\.\. \w+ resumed>\s?(.*)$')


def opened_directories(lines):
    pending = {}
    for line in lines:
        line = line.rstrip("\n")
        if match := UNFINISHED.match(line):
            pending[match.group(1)] = match.group(2)
            continue
        if match := RESUMED.match(line):
            line = pending.pop(match.group(1), "") + match.group(2)
        if match := OPEN.search(line):
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
