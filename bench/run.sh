#!/usr/bin/env bash
# run.sh: time ufind against GNU find, bfs, fd and the floor walkers with hyperfine.
#
# Usage: bench/run.sh [--suite NAME] [--runs N] [--warmup N] [--quick] [--ufind PATH]
#                     [--corpora DIR] [--out DIR]
#   --suite    complete | print | early | startup | deep | deep-actions | strategies |
#              parallel | stat | syscalls | memory | cold | large | all
#              (default all = every suite but cold, large and deep-actions)
#   --runs     timed runs per command (default $RUNS, else 10); startup runs ten
#              times as many because each run is about a millisecond
#   --warmup   untimed runs first, to warm the page and dentry caches (default 2)
#   --quick    a smoke test: 3 runs after 1 warm-up (an explicit --runs or
#              --warmup still wins), and one run per command in memory
#   --ufind    the binary to measure (default build/cli/ufind in this repository;
#              any program taking find's command lines works, e.g. find itself);
#              when it is missing its rows are left out, with a warning
#   --corpora  where bench/corpora.sh built the trees (default $UFIND_CORPORA,
#              else /work/corpora)
#   --out      where results go (default $UFIND_BENCH_OUT, else /tmp/ufind-bench):
#              a directory per run with hyperfine's JSON and markdown per group,
#              the raw strace, perf, callgrind and time(1) outputs, its report.md,
#              and a copy of the latest report in OUT/latest.md
#
# Environment: DEEP_ACT_LEVELS, the depth of deep-actions' chains (default
# 10000); STAT_EXPR, the expression of the stat suite (default
# `-size +100M -print`, split like a shell would); RUNS; COLD_RUNS (default 3);
# MEMORY_RUNS (runs per command in memory, whose median is reported; default 3);
# ROUNDS (default 5): each group's runs are split into this many rounds, every
# round running every command (after one warm-up each from the second round
# on), so that each command's runs spread over the whole group instead of one
# command's runs all coming before the next's (tools/merge_rounds.py).
#
# The report (a markdown table per group: median, mean ± σ, min, user, system,
# and each median divided by the reference's, bfs 2.6.1 unless said otherwise) is
# printed on stdout; hyperfine's progress goes to stderr. syscalls and memory time
# nothing: their tables count system calls, instructions and peak memory.
#
# Commands run without a shell (hyperfine -N) so a shell's start-up, a few
# milliseconds, is not added to walks that take tens; output is redirected to
# /dev/null by hyperfine itself (--output=null). No measured program checks
# whether its output is /dev/null (unlike grep), so the print suite still pays
# for formatting and write(2).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO_ROOT=$(cd "$BENCH_DIR/.." && pwd -P)

# Each name is unique in linux-source-6.1 and sits at a different depth
# (2, 4 and 9 levels down), so early exit is measured near, midway and far.
EARLY_NAMES=(CodingStyle procfs-i8k accept.c)
COLD_RUNS=${COLD_RUNS:-3}
MEMORY_RUNS=${MEMORY_RUNS:-3}
ROUNDS=${ROUNDS:-5}
# Finds nothing in linux (its largest file is a few MB), but needs every entry's
# size: a complete walk plus one stat per entry.
STAT_EXPR=${STAT_EXPR:--size +100M -print}
# bfs's -S orders, which ufind shares: breadth-first, depth-first, iterative
# deepening (re-reads the top levels once per depth) and exponential deepening.
STRATEGIES=(bfs dfs ids eds)
# ufind's -jN is threads in all: -j1 starts none.
PARALLEL_JOBS=(1 2 3 4)
DROP_CACHES="sh -c 'sync; echo 3 > /proc/sys/vm/drop_caches'"

die() { echo "run.sh: $*" >&2; exit 1; }
say() { echo "run.sh: $*" >&2; }

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
}

suite=all
runs=${RUNS:-}
warmup=
quick=0
ufind=$REPO_ROOT/build/cli/ufind
corpora=${UFIND_CORPORA:-/work/corpora}
out=${UFIND_BENCH_OUT:-/tmp/ufind-bench}
while (($#)); do
    case $1 in
        --suite) suite=${2:?--suite needs a NAME} ; shift ;;
        --runs) runs=${2:?--runs needs N} ; shift ;;
        --warmup) warmup=${2:?--warmup needs N} ; shift ;;
        --quick) quick=1 ;;
        --ufind) ufind=${2:?--ufind needs a PATH} ; shift ;;
        --corpora) corpora=${2:?--corpora needs a DIR} ; shift ;;
        --out) out=${2:?--out needs a DIR} ; shift ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument: $1 (try --help)" ;;
    esac
    shift
done
if ((quick)); then
    runs=${runs:-3}
    warmup=${warmup:-1}
    MEMORY_RUNS=1
fi
runs=${runs:-10}
warmup=${warmup:-2}
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive integer, not '$runs'"
[[ $warmup =~ ^[0-9]+$ ]] || die "--warmup must be a non-negative integer, not '$warmup'"
[[ $MEMORY_RUNS =~ ^[1-9][0-9]*$ ]] || die "MEMORY_RUNS must be a positive integer, not '$MEMORY_RUNS'"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$ROUNDS'"
case $suite in
    complete | print | early | startup | deep | strategies | parallel | stat | syscalls | memory | cold | large)
        suites=("$suite") ;;
    deep-actions) suites=(deep_actions) ;;
    all) suites=(complete print early startup deep strategies parallel stat syscalls memory) ;;
    *) die "unknown suite '$suite': complete, print, early, startup, deep, deep-actions, strategies, parallel, stat, syscalls, memory, cold, large or all" ;;
esac

command -v hyperfine >/dev/null || die "hyperfine is missing: apt-get install hyperfine"
command -v python3 >/dev/null || die "python3 is missing: apt-get install python3"
corpora=$(cd "$corpora" 2>/dev/null && pwd -P) ||
    die "no corpora in ${corpora}: run bench/corpora.sh first"

have_ufind=0
if [[ -x $ufind && ! -d $ufind ]]; then
    ufind=$(realpath -- "$ufind")
    have_ufind=1
else
    say "warning: no ufind at $ufind; its rows are left out (build it, or pass --ufind)"
fi

# The floors are rebuilt whenever their source is newer than the binary, so a
# stale floor cannot be measured by mistake. They live in bench/.build (ignored by
# git), not in the meson build, to keep bench/ independent of the library's build.
# floor_walk bounds whole walks; floor_list the reading of a given set of
# directories (the strategies suite's early rows).
compile_floor() {
    local binary=$BENCH_DIR/.build/$1 source=$BENCH_DIR/floor/$1.c
    if [[ ! -x $binary || $source -nt $binary ]]; then
        say "compiling $binary"
        mkdir -p "$BENCH_DIR/.build"
        "${CC:-cc}" -O2 -pthread -Wall -Wextra -o "$binary.tmp" "$source"
        mv "$binary.tmp" "$binary"
    fi
}
compile_floor floor_walk
compile_floor floor_list
FLOOR=$BENCH_DIR/.build/floor_walk
FLOOR_LIST=$BENCH_DIR/.build/floor_list

# need_corpus NAME [CORPORA_SH_FLAG]: stop unless corpora.sh finished NAME. Called
# directly, never inside $(...), where its exit would go unnoticed.
need_corpus() {
    [[ -e $corpora/.stamp-$1 ]] || die "corpus $1 is not built in $corpora: run bench/corpora.sh${2:+ $2}"
}

# corpus_entries NAME / corpus_dirs NAME: GNU find's counts, from the stamp.
corpus_entries() {
    local entries dirs
    read -r entries dirs <"$corpora/.stamp-$1"
    echo "$entries"
}

corpus_dirs() {
    local entries dirs
    read -r entries dirs <"$corpora/.stamp-$1"
    echo "$dirs"
}

# check_lines WANT LABEL COMMAND...: run COMMAND once and warn, on stderr and in the
# report, unless it exits with status 0 having printed WANT lines. A wrong count
# means the rows measure a different walk: the timing goes on, the reader is told.
check_lines() {
    local want=$1 label=$2 got rc=0 problem=""
    shift 2
    "$@" >"$run_dir/check.out" 2>/dev/null || rc=$?
    got=$(wc -l <"$run_dir/check.out")
    rm -f "$run_dir/check.out"
    if ((rc != 0)); then
        problem="exits with status $rc"
    elif ((got != want)); then
        problem="prints $got lines, not $want"
    fi
    if [[ -n $problem ]]; then
        say "warning: $label $problem"
        # shellcheck disable=SC2016 # the backquotes are markdown's
        printf '> **Warning:** `%s` %s.\n\n' "$label" "$problem" >>"$report"
    fi
}

# ufind_takes FLAGS...: whether ufind exists and accepts FLAGS (ufind's own, such
# as -S dfs or -j2) on the empty corpus; --ufind may name a program without them
# (GNU find), whose rows that need them are then left out, with a warning.
ufind_takes() {
    ((have_ufind)) || return 1
    local root=$corpora/empty
    [[ -e $corpora/.stamp-empty ]] || root=$corpora/linux
    if ! "$ufind" "$@" "$root" -false >/dev/null 2>&1; then
        say "warning: $ufind rejects $*; its rows with $* are left out"
        return 1
    fi
}

# The commands of the group being assembled: parallel arrays of hyperfine names
# (-n) and command lines (split by hyperfine like a shell would, so arguments are
# quoted with %q).
names=()
commands=()

add() {
    names+=("$1")
    commands+=("$2")
}

# add_tool NAME PROGRAM ARGS: a reference tool; left out, with a warning, if absent.
add_tool() {
    if command -v "$2" >/dev/null; then
        add "$1" "$2 $3"
    else
        say "warning: $2 is not installed; $1 is left out"
    fi
}

# add_ufind ARGS [NAME]: ufind's row, named NAME (default ufind), if ufind exists.
add_ufind() {
    if ((have_ufind)); then
        add "${2:-ufind}" "$(printf '%q' "$ufind") $1"
    fi
}

# add_floor THREADS ROOTS [-s]: the floor walker, statting every entry with -s.
add_floor() {
    add "floor${3:+ $3} -t$1" "$(printf '%q' "$FLOOR")${3:+ $3} -t $1 $2"
}

# time_group SLUG TITLE RUNS WARMUP [HYPERFINE_ARGS...]: time the group assembled
# with add* into $run_dir/SLUG.json, in ROUNDS rounds (SLUG.roundK.json and .md
# each), and start a new group.
time_group() {
    local slug=$1 title=$2 group_runs=$3 group_warmup=$4
    shift 4
    local named=() i
    for i in "${!names[@]}"; do
        named+=(--command-name "${names[i]}")
    done
    say "== $title"
    ((${#names[@]})) || die "$title: nothing to time (are bfs and find installed?)"
    local rounds=$ROUNDS round round_runs round_warmup done_runs=0 jsons=()
    ((rounds > group_runs)) && rounds=$group_runs
    for ((round = 1; round <= rounds; round++)); do
        # The runs left, shared among the rounds left: 20 in 5 rounds is 4 each.
        round_runs=$(((group_runs - done_runs) / (rounds - round + 1)))
        done_runs=$((done_runs + round_runs))
        round_warmup=$group_warmup
        ((round > 1 && round_warmup > 1)) && round_warmup=1
        hyperfine --shell=none --output=null --runs "$round_runs" --warmup "$round_warmup" \
            --export-json "$run_dir/$slug.round$round.json" \
            --export-markdown "$run_dir/$slug.round$round.md" "$@" \
            "${named[@]}" "${commands[@]}" >&2
        jsons+=("$run_dir/$slug.round$round.json")
    done
    python3 "$BENCH_DIR/tools/merge_rounds.py" "$run_dir/$slug.json" "${jsons[@]}"
    names=()
    commands=()
}

# run_group SLUG TITLE REFERENCE RUNS WARMUP [HYPERFINE_ARGS...]: time the group
# and append its table to the report.
run_group() {
    local slug=$1 title=$2 reference=$3
    shift 3
    time_group "$slug" "$title" "$@"
    python3 "$BENCH_DIR/tools/report.py" --title "$title" --reference "$reference" \
        "$run_dir/$slug.json" >>"$report"
}

# A whole walk whose expression never matches: no output, no early exit, and no
# stat needed, so this is traversal speed alone (the floors' exact work).
complete_group() {
    local slug=$1 root=$2 group_runs=$3 group_warmup=$4
    shift 4
    local r
    r=$(printf '%q' "$root")
    add_ufind "$r -false"
    add_tool find find "$r -false"
    add_tool bfs bfs "$r -false"
    # '^$' matches no name; -u turns off fd's hidden and .gitignore filtering so it
    # walks the same entries as the others.
    add_tool fd fdfind "-u '^\$' $r"
    add_floor 1 "$r"
    add_floor 2 "$r"
    run_group "$slug" "$slug: \`-false\` on $(basename "$root")" bfs "$group_runs" "$group_warmup" "$@"
}

suite_complete() {
    need_corpus linux
    need_corpus synthetic
    complete_group complete-linux "$corpora/linux" "$runs" "$warmup"
    complete_group complete-synthetic "$corpora/synthetic" "$runs" "$warmup"
}

suite_large() {
    need_corpus large --large
    complete_group large "$corpora/large" "$runs" "$warmup"
}

# Page cache, dentries and inodes dropped before every run: what the first search
# after boot costs, bounded by the device. Drops caches machine-wide, slowing
# everything else running, hence few runs and never part of `all`.
suite_cold() {
    if ((EUID != 0)) || [[ ! -w /proc/sys/vm/drop_caches ]]; then
        say "warning: cold needs root and a writable /proc/sys/vm/drop_caches; skipped"
        return
    fi
    need_corpus linux
    complete_group cold-linux "$corpora/linux" "$COLD_RUNS" 0 --prepare "$DROP_CACHES"
    # Early termination on a cold cache, medium and deep names (the shallow
    # one reads a handful of directories): against find, which gets them
    # in its readdir order.
    local root r name
    root=$corpora/linux
    r=$(printf '%q' "$root")
    for name in "${EARLY_NAMES[@]:1}"; do
        add_ufind "$r -name $name -print -quit"
        if ufind_takes -S dfs; then
            add_ufind "-S dfs $r -name $name -print -quit" "ufind -S dfs"
        fi
        if ufind_takes -S hybrid; then
            add_ufind "-S bfs $r -name $name -print -quit" "ufind -S bfs"
        fi
        add_tool find find "$r -name $name -print -quit"
        add_tool bfs bfs "$r -name $name -print -quit"
        run_group "cold-early-$name" "cold: \`-name $name -print -quit\` on linux" find \
            "$COLD_RUNS" 0 --prepare "$DROP_CACHES"
    done
}

# Every path printed: adds formatting and buffered writes to the complete walk.
suite_print() {
    local r
    need_corpus linux
    r=$(printf '%q' "$corpora/linux")
    add_ufind "$r"
    add_tool find find "$r"
    add_tool bfs bfs "$r"
    add_tool fd fdfind "-u . $r"
    run_group print-linux "print: every path of linux to /dev/null" bfs "$runs" "$warmup"
}

# -quit after the first match: how soon a walk finds a file and how fast it stops
# with work in flight. Order matters here: a breadth-first walker reaches the
# shallow names sooner, a depth-first one may reach deep ones sooner, so ufind runs
# in its default order (hybrid: depth 2 first, then depth first), with -S dfs and
# with -S bfs.
suite_early() {
    local root r name found
    need_corpus linux
    root=$corpora/linux
    r=$(printf '%q' "$root")
    for name in "${EARLY_NAMES[@]}"; do
        found=$(find "$root" -name "$name" | wc -l)
        ((found == 1)) || say "warning: $name occurs $found times in linux, not once"
        if ((have_ufind)); then
            check_lines 1 "ufind linux -name $name -print -quit" "$ufind" "$root" -name "$name" -print -quit
            add_ufind "$r -name $name -print -quit"
        fi
        if ufind_takes -S dfs; then
            check_lines 1 "ufind -S dfs linux -name $name -print -quit" \
                "$ufind" -S dfs "$root" -name "$name" -print -quit
            add_ufind "-S dfs $r -name $name -print -quit" "ufind -S dfs"
        fi
        # Breadth first was the default before hybrid: kept beside it.
        if ufind_takes -S hybrid; then
            add_ufind "-S bfs $r -name $name -print -quit" "ufind -S bfs"
        fi
        add_tool find find "$r -name $name -print -quit"
        add_tool bfs bfs "$r -name $name -print -quit"
        run_group "early-$name" "early: \`-name $name -print -quit\` on linux" bfs "$runs" "$warmup"
    done
}

# An empty directory: process start-up, argument parsing and teardown only (and
# any thread pool or io_uring set up eagerly).
suite_startup() {
    local r
    need_corpus empty
    r=$(printf '%q' "$corpora/empty")
    add_ufind "$r"
    add_tool find find "$r"
    add_tool bfs bfs "$r"
    add_tool fd fdfind "-u . $r"
    add_floor 1 "$r"
    run_group startup "startup: empty directory" bfs $((runs * 10)) "$warmup"
}

# A 2,000-level chain: per-level costs and descriptor handling, with almost no
# entries per directory to amortise them over.
suite_deep() {
    local r
    need_corpus deep
    r=$(printf '%q' "$corpora/deep")
    add_ufind "$r -false"
    add_floor 1 "$r"
    add_tool find find "$r -false"
    add_tool bfs bfs "$r -false"
    run_group deep "deep: \`-false\` on a 2,000-level chain" bfs "$runs" "$warmup"
}

# Acting on a deep chain, made afresh before every run: -delete and -depth
# -execdir act in each level's parent, which a walker must reach again
# without a path from the top, and -L checks each level for a loop.  Each
# row must stay linear in the depth (issue 39: 11.2 s at 10,000 levels
# where find took 0.83 s); rm -rf is -delete's floor.
suite_deep_actions() {
    local levels=${DEEP_ACT_LEVELS:-10000}
    local chain=$run_dir/chain c make
    c=$(printf '%q' "$chain")
    make="bash -c 'rm -rf $c && python3 $(printf '%q' "$BENCH_DIR/tools/mkdeep.py") $c $levels'"
    add_ufind "$c -delete"
    add_tool find find "$c -delete"
    add_tool bfs bfs "$c -delete"
    add_tool "rm -rf" rm "-rf $c"
    run_group deep-delete "deep-actions: \`-delete\` of a $levels-level chain" find "$runs" 0 \
        --prepare "$make"
    add_ufind "$c -depth -execdir true ;"
    add_tool find find "$c -depth -execdir true ;"
    add_tool bfs bfs "$c -depth -execdir true ;"
    run_group deep-execdir "deep-actions: \`-depth -execdir true \\;\` on a $levels-level chain" \
        find "$runs" 0 --prepare "$make"
    add_ufind "-L $c -false"
    add_tool find find "-L $c -false"
    add_tool bfs bfs "-L $c -false"
    run_group deep-follow "deep-actions: \`-L -false\` on a $levels-level chain" find "$runs" 1 \
        --prepare "$make"
    rm -rf "$chain"
}

# Each of bfs's -S orders (STRATEGIES), ufind's beside bfs's on linux. The complete
# walk shows what an order costs in itself: ids and eds re-read the upper levels
# once per round. The three -quit searches show what it is for. One table per
# search, its ratios against bfs with the same -S; GNU find, which has one order
# (depth-first, as it reads), sits in the -S bfs group. Only linux: bfs -S ids
# re-reads every level above the current depth, which on deep takes minutes.
suite_strategies() {
    local root r s name entries title
    local -a jsons refs
    local -A takes=()
    need_corpus linux
    root=$corpora/linux
    r=$(printf '%q' "$root")
    entries=$(corpus_entries linux)
    for s in "${STRATEGIES[@]}"; do
        if ufind_takes -S "$s"; then
            takes[$s]=1
            check_lines "$entries" "ufind -S $s linux" "$ufind" -S "$s" "$root"
        fi
    done
    jsons=() refs=()
    for s in "${STRATEGIES[@]}"; do
        [[ -n ${takes[$s]:-} ]] && add_ufind "-S $s $r -false" "ufind -S $s"
        add_tool "bfs -S $s" bfs "-S $s $r -false"
        time_group "strategies-complete-$s" "strategies: \`-S $s\`, \`-false\` on linux" "$runs" "$warmup"
        jsons+=("$run_dir/strategies-complete-$s.json")
        refs+=(--reference "bfs -S $s")
    done
    python3 "$BENCH_DIR/tools/report.py" --title "strategies: \`-S X\`, \`-false\` on linux" \
        "${refs[@]}" "${jsons[@]}" >>"$report"

    # Beside each early search, the floor for the directories it reads: what
    # ufind -j1 opens (strace sees no io_uring opens, and -j1 reads nothing
    # ahead), read by floor_list's two threads with no discovery and no order.
    # No walk that has to find those directories can be faster; where this
    # row is near a target, the target is out of reach.
    local list_floors=0
    if ! command -v strace >/dev/null; then
        say "warning: strace is missing (apt-get install strace); the early strategies rows have no floor"
    elif ufind_takes -j1; then
        list_floors=1
    fi
    for name in "${EARLY_NAMES[@]}"; do
        for s in "${!takes[@]}"; do
            check_lines 1 "ufind -S $s linux -name $name -print -quit" \
                "$ufind" -S "$s" "$root" -name "$name" -print -quit
        done
        jsons=() refs=()
        for s in "${STRATEGIES[@]}"; do
            [[ -n ${takes[$s]:-} ]] && add_ufind "-S $s $r -name $name -print -quit" "ufind -S $s"
            if [[ -n ${takes[$s]:-} ]] && ((list_floors)); then
                local list=$run_dir/opened-$name-$s
                strace -f -y -e trace=open,openat,openat2 -o "$list.strace" \
                    "$ufind" -j1 -S "$s" "$root" -name "$name" -print -quit >/dev/null
                python3 "$BENCH_DIR/tools/opened_dirs.py" "$list.strace" >"$list.txt"
                add "floor-list -t2 (ufind -S $s's $(wc -l <"$list.txt") reads)" \
                    "$(printf '%q' "$FLOOR_LIST") -t 2 $r $(printf '%q' "$list.txt")"
            fi
            add_tool "bfs -S $s" bfs "-S $s $r -name $name -print -quit"
            if [[ $s == bfs ]]; then
                add_tool find find "$r -name $name -print -quit"
            fi
            title="strategies: \`-S $s\`, \`-name $name -print -quit\` on linux"
            time_group "strategies-$name-$s" "$title" "$runs" "$warmup"
            jsons+=("$run_dir/strategies-$name-$s.json")
            refs+=(--reference "bfs -S $s")
        done
        python3 "$BENCH_DIR/tools/report.py" \
            --title "strategies: \`-S X\`, \`-name $name -print -quit\` on linux" \
            "${refs[@]}" "${jsons[@]}" >>"$report"
    done
}

# ufind with 1 to 4 threads in all (-j1 starts none) on linux and synthetic,
# beside the floor with as many threads. Ratios are against ufind -j1, so they read
# as speed-ups; on the 2-core machine -j3 and -j4 can only add contention.
suite_parallel() {
    local c root r j entries
    need_corpus linux
    need_corpus synthetic
    for c in linux synthetic; do
        root=$corpora/$c
        r=$(printf '%q' "$root")
        entries=$(corpus_entries "$c")
        for j in "${PARALLEL_JOBS[@]}"; do
            if ufind_takes "-j$j"; then
                check_lines "$entries" "ufind -j$j $c" "$ufind" "-j$j" "$root"
                add_ufind "-j$j $r -false" "ufind -j$j"
            fi
        done
        for j in "${PARALLEL_JOBS[@]}"; do
            add_floor "$j" "$r"
        done
        run_group "parallel-$c" "parallel: \`-jN -false\` on $c" "ufind -j1" "$runs" "$warmup"
    done
}

# An expression that needs every entry's metadata (STAT_EXPR, by default a -size
# that matches nothing in linux): the complete walk plus a stat per entry, beside
# the floor with -s (a statx per entry). ufind's row is left out, with a warning,
# while it does not know a predicate of STAT_EXPR: a probe on the empty corpus
# (which only parses, in effect) finds out.
suite_stat() {
    local root r expr probe_root rc=0 want why
    local -a stat_args
    need_corpus linux
    root=$corpora/linux
    r=$(printf '%q' "$root")
    eval "stat_args=($STAT_EXPR)" || die "STAT_EXPR does not split into words: $STAT_EXPR"
    ((${#stat_args[@]})) || die "STAT_EXPR is empty"
    expr=$(printf ' %q' "${stat_args[@]}")
    probe_root=$corpora/empty
    [[ -e $corpora/.stamp-empty ]] || probe_root=$root
    find "$probe_root" "${stat_args[@]}" >/dev/null ||
        die "GNU find rejects STAT_EXPR=$STAT_EXPR"
    if ((have_ufind)); then
        "$ufind" "$probe_root" "${stat_args[@]}" >/dev/null 2>"$run_dir/stat-probe.err" || rc=$?
        why=$(head -n1 "$run_dir/stat-probe.err")
        if ((rc == 1)) && grep -q 'unknown predicate' "$run_dir/stat-probe.err"; then
            say "warning: ufind does not support \`$STAT_EXPR\` yet ($why); its row is left out"
            # shellcheck disable=SC2016 # the backquotes are markdown's
            printf '> **Warning:** ufind does not support `%s` yet (`` %s ``): its row is left out.\n\n' \
                "$STAT_EXPR" "$why" >>"$report"
        elif ((rc != 0)); then
            say "warning: ufind fails with status $rc on \`$STAT_EXPR\` ($why); its row is left out"
            # shellcheck disable=SC2016 # the backquotes are markdown's
            printf '> **Warning:** ufind fails with status %d on `%s` (`` %s ``): its row is left out.\n\n' \
                "$rc" "$STAT_EXPR" "$why" >>"$report"
        else
            want=$(find "$root" "${stat_args[@]}" | wc -l)
            check_lines "$want" "ufind linux $STAT_EXPR" "$ufind" "$root" "${stat_args[@]}"
            add_ufind "$r$expr"
        fi
    fi
    add_tool find find "$r$expr"
    add_tool bfs bfs "$r$expr"
    add_floor 1 "$r" -s
    add_floor 2 "$r" -s
    run_group stat-linux "stat: \`$STAT_EXPR\` on linux" bfs "$runs" "$warmup"
}

# walk_argv NAME ROOT: the words, one per line, of a complete walk of ROOT that
# prints nothing by the tool NAME, as the syscalls and memory tables name it.
walk_argv() {
    case $1 in
        ufind) printf '%s\n' "$ufind" "$2" -false ;;
        "ufind -j1") printf '%s\n' "$ufind" -j1 "$2" -false ;;
        bfs | find) printf '%s\n' "$1" "$2" -false ;;
        fdfind) printf '%s\n' fdfind -u '^$' "$2" ;;
        "floor -t"*) printf '%s\n' "$FLOOR" -t "${1#floor -t}" "$2" ;;
        *) die "walk_argv: unknown tool $1" ;;
    esac
}

# account LABEL COMMAND...: one run under `strace -f -c`, itself under perf
# counting the requests submitted to io_uring when perf can (one run, so a ring
# walker's direct calls and ring requests add up), as a row of the syscalls
# table. VAR=value before `account` reaches COMMAND's environment.
account() {
    local label=$1 base ring=- rc=0
    local -a wrap=()
    shift
    base=$run_dir/syscalls-$((${#account_rows[@]} / 4))
    say "== strace: $label"
    if ((have_ring_perf)); then
        wrap=(perf record -q -o "$base.perf" -e io_uring:io_uring_submit_req --)
    fi
    "${wrap[@]}" strace -f -c -o "$base.strace" -- "$@" >/dev/null 2>"$base.stderr" || rc=$?
    ((rc == 0)) || say "warning: $label exits with status $rc under strace (see $base.stderr)"
    if ((have_ring_perf)); then
        perf script -i "$base.perf" >"$base.ring" 2>>"$base.stderr" && ring=$base.ring
        rm -f "$base.perf"
    fi
    account_rows+=(--row "$label" "$base.strace" "$ring")
}

# instructions OUT COMMAND...: print the user-space instructions of one run of
# COMMAND under callgrind, whose profile goes to OUT; nothing if it fails.
instructions() {
    local out=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$out" -- "$@" >/dev/null 2>"$out.stderr" ||
        say "warning: $* exits with an error under valgrind (see $out.stderr)"
    awk '/^(summary|totals):/ { print $2; exit }' "$out" 2>/dev/null || true
}

# Not timed: the system calls of one complete walk of linux per tool, per
# directory (strace -f -c, with the io_uring requests strace cannot see counted by
# perf), then, with valgrind, user-space instructions per entry (callgrind).
suite_syscalls() {
    local root dirs entries label slug ir_linux ir_empty
    local -a argv cg_labels
    if ! command -v strace >/dev/null; then
        say "warning: strace is missing (apt-get install strace); syscalls is skipped"
        return
    fi
    need_corpus linux
    root=$corpora/linux
    dirs=$(corpus_dirs linux)
    entries=$(corpus_entries linux)

    have_ring_perf=0
    if command -v perf >/dev/null &&
        perf record -q -o "$run_dir/probe.perf" -e io_uring:io_uring_submit_req -- true >/dev/null 2>&1; then
        have_ring_perf=1
    else
        say "warning: perf cannot count io_uring requests; the table says n/a"
    fi
    rm -f "$run_dir/probe.perf"

    account_rows=()
    if ((have_ufind)); then
        account ufind "$ufind" "$root" -false
        account "ufind -j1" "$ufind" -j1 "$root" -false
        IOQ_BACKEND=threads account "ufind, IOQ_BACKEND=threads" "$ufind" "$root" -false
        "$ufind" -D stats "$root" -false 2>"$run_dir/ufind-stats.txt" || true
    fi
    for label in bfs find; do
        command -v "$label" >/dev/null && account "$label" "$label" "$root" -false
    done
    account "floor -t1" "$FLOOR" -t 1 "$root"
    account "floor -t2" "$FLOOR" -t 2 "$root"
    python3 "$BENCH_DIR/tools/syscalls.py" --title "syscalls: \`-false\` on linux, calls per directory" \
        --dirs "$dirs" "${account_rows[@]}" >>"$report"
    {
        echo "One run each under $(strace -V | head -n1), counts divided by linux's $dirs"
        echo "directories. openat and close count the calls made directly: a ring walker's"
        echo "other opens and closes are in the last column (perf, io_uring_submit_req)."
        if [[ -s $run_dir/ufind-stats.txt ]]; then
            echo "ufind's own count of a walk: \`$(tail -n1 "$run_dir/ufind-stats.txt")\`."
        fi
        echo
    } >>"$report"

    if ! command -v valgrind >/dev/null; then
        say "warning: valgrind is missing (apt-get install valgrind); instruction counts are skipped"
        return
    fi
    need_corpus empty
    cg_labels=()
    ((have_ufind)) && cg_labels+=("ufind -j1")
    for label in bfs find; do
        command -v "$label" >/dev/null && cg_labels+=("$label")
    done
    cg_labels+=("floor -t1")
    {
        echo "### syscalls: user-space instructions of \`-false\` on linux (callgrind)"
        echo
        echo "| Command | Instructions, linux | Instructions, empty | Per entry | Per entry, less start-up |"
        echo "|:---|---:|---:|---:|---:|"
    } >>"$report"
    for label in "${cg_labels[@]}"; do
        say "== callgrind: $label"
        slug=${label//[^A-Za-z0-9]/-}
        mapfile -t argv < <(walk_argv "$label" "$root")
        ir_linux=$(instructions "$run_dir/callgrind-$slug-linux.out" "${argv[@]}")
        mapfile -t argv < <(walk_argv "$label" "$corpora/empty")
        ir_empty=$(instructions "$run_dir/callgrind-$slug-empty.out" "${argv[@]}")
        if [[ $ir_linux =~ ^[0-9]+$ && $ir_empty =~ ^[0-9]+$ ]]; then
            # shellcheck disable=SC2016 # the backquotes are markdown's
            python3 -c 'import sys
l, a, b, n = sys.argv[1], *map(int, sys.argv[2:])
print(f"| `{l}` | {a:,} | {b:,} | {a / n:.0f} | {(a - b) / n:.0f} |")' \
                "$label" "$ir_linux" "$ir_empty" "$entries" >>"$report"
        else
            echo "| \`$label\` | failed | | | |" >>"$report"
        fi
    done
    {
        echo
        echo "Instructions retired in user space only: callgrind does not see the kernel,"
        echo "where a warm walk spends most of its time. Per entry of linux's $entries;"
        echo "\"less start-up\" first subtracts the same command on the empty corpus."
        echo "One run each under $(valgrind --version); ufind with -j1, as valgrind runs"
        echo "threads one at a time."
        echo
    } >>"$report"
}

# rss_kib NAME ROOT: the median, over MEMORY_RUNS runs, of the maximum resident set
# size in KiB of NAME's complete walk of ROOT, as GNU time reports it.
rss_kib() {
    local i out=$run_dir/time.out
    local -a argv samples=()
    mapfile -t argv < <(walk_argv "$1" "$2")
    for ((i = 0; i < MEMORY_RUNS; i++)); do
        /usr/bin/time -v -o "$out" -- "${argv[@]}" >/dev/null 2>&1 || true
        samples+=("$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$out")")
    done
    printf '%s\n' "${samples[@]}" | sort -n |
        awk 'NF { v[++n] = $1 } END { if (n) print v[int((n + 1) / 2)] }'
}

# Not timed: peak memory (maximum resident set size) of a complete walk that
# prints nothing, per tool, on linux and, when corpora.sh --large built it, large.
suite_memory() {
    local c name kib
    local -a trees tools cells
    if [[ ! -x /usr/bin/time ]]; then
        say "warning: /usr/bin/time is missing (apt-get install time); memory is skipped"
        return
    fi
    need_corpus linux
    trees=(linux)
    [[ -e $corpora/.stamp-large ]] && trees+=(large)
    tools=()
    ((have_ufind)) && tools+=(ufind "ufind -j1")
    for name in bfs find fdfind; do
        if command -v "$name" >/dev/null; then
            tools+=("$name")
        else
            say "warning: $name is not installed; left out of memory"
        fi
    done
    tools+=("floor -t1" "floor -t2")
    {
        echo "### memory: maximum resident set size [MiB]"
        echo
        printf '| Command |'
        printf ' %s |' "${trees[@]}"
        echo
        printf '|:---|'
        printf -- '---:|%.0s' "${trees[@]}"
        echo
    } >>"$report"
    # Warm first: a walk the caches cannot serve adds workers (ufind, a
    # cold large: 32 of them, 6.8 MiB against 3.1 warm), and the suite
    # compares warm walks, as every timed suite but cold does.
    for c in "${trees[@]}"; do
        say "== memory: warming $c"
        "$FLOOR" -t 2 "$corpora/$c" >/dev/null 2>&1 || true
    done
    for name in "${tools[@]}"; do
        cells=()
        for c in "${trees[@]}"; do
            say "== memory: $name on $c"
            kib=$(rss_kib "$name" "$corpora/$c")
            cells+=("$(awk -v k="$kib" 'BEGIN { if (k == "") print "failed"; else printf "%.1f", k / 1024 }')")
        done
        # shellcheck disable=SC2016 # the backquotes are markdown's
        { printf '| `%s` |' "$name"; printf ' %s |' "${cells[@]}"; echo; } >>"$report"
    done
    {
        echo
        echo "The median of $MEMORY_RUNS run(s) per cell of GNU time's maximum resident set size"
        echo "(pages of the program, its libraries and its heap that were touched), for the"
        echo "complete walks of the complete suite: \`-false\`, fd with \`-u '^\$'\`; each tree"
        echo "is walked once first, untimed, so that every cell is a warm walk."
        echo
    } >>"$report"
}

cpu_model() {
    local model
    model=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
    echo "${model:-$(uname -m)}"
}

tool_version() {
    if command -v "$1" >/dev/null; then
        "$1" --version 2>/dev/null | head -n1
    else
        echo "$1: not installed"
    fi
}

corpus_line() {
    local stamp=$corpora/.stamp-$1 entries dirs
    [[ -e $stamp ]] || return 0
    read -r entries dirs <"$stamp"
    echo "- corpus $1: $entries entries, $dirs directories"
}

write_header() {
    local ufind_line="not found ($ufind), rows left out"
    if ((have_ufind)); then
        ufind_line="\`$ufind\`"
        case $ufind in
            "$REPO_ROOT"/*)
                ufind_line+=" at $(git -C "$REPO_ROOT" describe --always --dirty 2>/dev/null || echo 'unknown revision')"
                ;;
        esac
    fi
    cat <<EOF
# ufind benchmarks: $suite

- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')
- kernel: $(uname -r)
- cpus: $(nproc) x $(cpu_model)
- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)
- ufind: $ufind_line
- references: $(tool_version find); $(tool_version bfs); $(tool_version fdfind)
- $(tool_version hyperfine), ${runs} runs in ${ROUNDS} rounds after ${warmup} warm-up runs (startup: $((runs * 10)); cold: ${COLD_RUNS}, no warm-up; memory: ${MEMORY_RUNS})$( ((quick)) && echo ', --quick: a smoke test, not a measurement')
- stat suite expression: \`$STAT_EXPR\`
- corpora in \`$corpora\`
$(for c in linux synthetic empty deep large; do corpus_line "$c"; done)

Ratios are medians divided by the reference's median (last column); below 1 is faster.

EOF
}

run_dir=$out/$(date '+%Y%m%d-%H%M%S')-$suite
mkdir -p "$run_dir"
report=$run_dir/report.md
write_header >"$report"
for s in "${suites[@]}"; do
    "suite_$s"
done
cp "$report" "$out/latest.md"
say "report: $report (copied to $out/latest.md)"
cat "$report"
