#!/usr/bin/env bash
# Runs one fuzz target for a while, keeping what it learns between runs.
#
#   tests/fuzz/run.sh TARGET SECONDS [libFuzzer flags...]
#   tests/fuzz/run.sh parse 600
#   tests/fuzz/run.sh printf 60 -jobs=2 -workers=2
#
# TARGET is parse, printf, date, perm or walk_api (or fuzz_parse, ...).
# build-fuzz is set up if missing (clang, address and undefined-behaviour sanitizers,
# -Dfuzzing=true) and the target rebuilt.  The fuzzer reads the committed
# seeds in tests/fuzz/corpus/TARGET/ but never writes there: what it finds
# goes to build-fuzz/fuzz/TARGET/corpus/, which later runs start from, and
# a crashing input to build-fuzz/fuzz/TARGET/.  To keep a crash as a
# regression test, copy it to tests/fuzz/corpus/TARGET/crash-WHAT (CI
# replays every seed).  Replay one input, with the target's own output:
#
#   build-fuzz/tests/fuzz/fuzz_TARGET -close_fd_mask=0 FILE
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ $# -lt 2 ]; then
    echo "usage: tests/fuzz/run.sh TARGET SECONDS [libFuzzer flags...]" >&2
    exit 2
fi
target=${1#fuzz_}
seconds=$2
shift 2
case $target in
parse | printf | date | perm | walk_api) ;;
*)
    echo "run.sh: unknown target '$target' (parse, printf, date, perm, walk_api)" >&2
    exit 2
    ;;
esac

if [ ! -d build-fuzz ]; then
    CC=clang CXX=clang++ meson setup build-fuzz -Dfuzzing=true -Dtests=true \
        -Db_sanitize=address,undefined -Dbuildtype=debugoptimized -Db_lundef=false
fi
ninja -C build-fuzz "tests/fuzz/fuzz_$target"

work=build-fuzz/fuzz/$target
mkdir -p "$work/corpus"
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
"build-fuzz/tests/fuzz/fuzz_$target" "$work/corpus" "tests/fuzz/corpus/$target" \
    -dict="tests/fuzz/dict/$target.dict" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/" "$@" || status=$?
if [ "$status" -ne 0 ]; then
    echo "run.sh: fuzz_$target failed (status $status); the input is in $work/" >&2
fi
exit "$status"
