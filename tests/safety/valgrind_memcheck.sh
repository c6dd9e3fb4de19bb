#!/usr/bin/env bash
# valgrind_memcheck.sh UFIND: ufind under valgrind's memcheck, every backend.
#
# Protects: no invalid read or write, no use of uninitialised memory and no
# definite leak on a representative command line, whichever backend carries
# out the walk.  The sanitizer build catches most of this too, but not in
# the release build (-O3, static libstdc++) that users run, and ASan does not
# see uninitialised reads at all.
#
# Each backend runs, with -j2 so that worker threads (and io_uring rings)
# start:
#   1. -newer, -regex, -printf (sizes, modes, times, owners), -ls,
#      -exec ... {} + and -exec ... ; on a small tree;
#   2. -type f -newer F -printf: the workers fetch metadata with the
#      directories (statx through io_uring under the uring backend);
#   3. -L -S dfs with a dangling link, -xtype, %Y;
#   4. -delete (with -print) on a copy of the tree.
# valgrind's own checks: --error-exitcode=1 makes any error (definite leaks
# included, by --errors-for-leak-kinds=definite) fail the run.  Children of
# -exec are not traced.
#
# valgrind 3.19 does not know openat2, which libioq tries first for opens
# that must not follow links: the run notes it and the fallback is checked.
# valgrind 3.19 knows io_uring_setup/enter/register; it cannot see what the
# kernel writes through the ring into buffers, so a false report there would
# show as an uninitialised read: none happens today.  The run checks that the
# uring backend really ran (-D stats says io_uring) when this machine allows
# io_uring, and says so when it fell back.
#
# Skipped (exit 77) when valgrind is not installed.
set -u

ufind=${1:?usage: valgrind_memcheck.sh UFIND}
if ! command -v valgrind >/dev/null 2>&1; then
    echo "skip: valgrind is not installed"
    exit 77
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/ufind-valgrind-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export LC_ALL=C TZ=UTC

tree=$scratch/tree
for d in 0 1 2 3 4 5 6 7 8 9 10 11; do
    for s in a b c; do
        mkdir -p "$tree/d$d/$s"
        printf 'x%.0s' $(seq 1 $((d * 50))) > "$tree/d$d/$s/file$d.c"
        : > "$tree/d$d/$s/empty.tmp"
    done
done
ln -s d0 "$tree/link"
ln -s nowhere "$tree/dangling"
touch -d '2001-02-03 04:05:06' "$tree/d1/a/file1.c"
reference=$tree/d1/a/file1.c

passed=0
failed=0
run() {
    local name=$1 backend=$2
    shift 2
    local log=$scratch/valgrind.log
    IOQ_BACKEND=$backend valgrind -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite --log-file="$log" \
        "$ufind" -j2 -D stats "$@" >"$scratch/out" 2>"$scratch/err"
    local status=$?
    # valgrind 3.19 does not know openat2 (syscall 437, Linux 5.6): it warns
    # and fails the call with ENOSYS, and libioq opens component by
    # component instead (run_blocking.cpp).  Not an error of ufind's.
    if grep -q 'unhandled .* syscall: 437' "$log"; then
        echo "note: $name: valgrind does not know openat2; its fallback ran instead"
        sed -i '/unhandled .* syscall: 437/,/valgrind.org\/support\/bug_reports/d' "$log"
    fi
    local problem=""
    if [ "$status" -eq 99 ] || [ -s "$log" ]; then
        problem="valgrind reported errors (status $status)"
    elif [ "$status" -ne 0 ]; then
        problem="exit status $status"
    fi
    local backend_ran
    backend_ran=$(sed -n 's/.*stats: backend=\([a-z_]*\).*/\1/p' "$scratch/err")
    if [ "$backend" = uring ] && [ "$backend_ran" != io_uring ]; then
        echo "note: $name: the uring backend fell back to $backend_ran under valgrind"
    fi
    if [ -n "$problem" ]; then
        failed=$((failed + 1))
        echo "FAIL $name [$backend]: $problem"
        sed 's/^/    /' "$log" "$scratch/err" | head -60
    else
        passed=$((passed + 1))
        echo "pass $name [$backend] (backend=$backend_ran)"
    fi
}

for backend in uring threads inline; do
    run memcheck_clean_on_printf_ls_exec_newer_regex "$backend" "$tree" \
        \( -newer "$reference" -regex '.*/d[0-9]+/[ab]/.*' -printf '%p %s %m %M %TY-%Tm %u %g %y %l\n' \) \
        -o \( -name 'file1*' -ls \) -o \( -type l -exec true {} \; \) \
        -o \( -type f -exec true {} + \)
    run memcheck_clean_with_metadata_from_workers "$backend" "$tree" \
        -type f -newer "$reference" -printf '%s %T@ %p\n'
    run memcheck_clean_following_links_depth_first "$backend" -L -S dfs "$tree" \
        \( -xtype l -o -name 'file1*' \) -printf '%p %Y\n'
    rm -rf "$scratch/copy"
    cp -a "$tree" "$scratch/copy"
    run memcheck_clean_on_delete "$backend" "$scratch/copy" \
        \( -name '*.tmp' -o -path '*/c/*' -o -name c -o -type l \) -delete -print
    if [ -e "$scratch/copy/d3/c" ] || [ ! -e "$scratch/copy/d3/a/file3.c" ]; then
        failed=$((failed + 1))
        echo "FAIL memcheck_clean_on_delete [$backend]: the copy was not left as expected"
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
