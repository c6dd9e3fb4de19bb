#!/usr/bin/env bash
# Downstream check: install the build into a temporary prefix, build a C and
# a C++ program against it through pkg-config alone, and run them on a tree
# whose size find tells.  Proves the installed headers, libioq.pc and the
# shared library (its soname and exported symbols) are usable as shipped.
#
#   check.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$(cd "$2" && pwd)
work=$(mktemp -d /tmp/ioq-downstream-XXXXXX)
trap 'rm -rf "$work"' EXIT

prefix=$work/prefix
meson install -C "$build" --no-rebuild --quiet --destdir "$work/stage" >/dev/null
# meson installs under the configured prefix inside the stage; move it so
# that pkg-config's own prefix variable can point at it.
configured=$(meson introspect "$build" --buildoptions |
    python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
mv "$work/stage$configured" "$prefix"
pcfile=$(find "$prefix" -name libioq.pc | head -1)
[ -n "$pcfile" ] || { echo "downstream: libioq.pc was not installed" >&2; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pcfile")
pc() { pkg-config --define-variable=prefix="$prefix" "$@" libioq; }

cc -std=c11 -Wall -Werror $(pc --cflags) "$source/walk_count.c" -o "$work/walk_c" $(pc --libs)
c++ -std=c++20 -Wall -Werror $(pc --cflags) "$source/walk_count.cpp" -o "$work/walk_cpp" $(pc --libs)
libdir=$(pc --variable=libdir)
# The programs must load the installed shared library, not a static copy.
# ldd's output is read whole first: `ldd | grep -q` under pipefail fails
# at random when grep exits on its match while ldd still writes (SIGPIPE).
libraries=$(LD_LIBRARY_PATH=$libdir ldd "$work/walk_c")
grep -q "libioq.so.1 => $libdir" <<<"$libraries" ||
    { echo "downstream: walk_c does not use $libdir/libioq.so.1" >&2; exit 1; }

tree=$work/tree
mkdir -p "$tree/a/b" "$tree/c"
touch "$tree/a/b/needle" "$tree/c/x" "$tree/c/y"
expected=$(find "$tree" | wc -l)
passed=0
failed=0
for program in walk_c walk_cpp; do
    if got=$(LD_LIBRARY_PATH=$libdir "$work/$program" "$tree" needle) && [ "$got" -eq "$expected" ]; then
        passed=$((passed + 1))
    else
        echo "downstream: $program counted '${got:-nothing}', find counts $expected" >&2
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
