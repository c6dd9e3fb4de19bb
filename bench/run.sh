#!/usr/bin/env bash
# run.sh: time ufind against GNU find, bfs, fd and the floor walkers with hyperfine.
#
# Usage: bench/run.sh [--suite NAME] [--runs N] [--warmup N] [--ufind PATH]
#                     [--corpora DIR] [--out DIR]
#   --suite    complete | print | early | startup | deep | cold | large | all
#              (default all = every suite but cold and large)
#   --runs     timed runs per command (default $RUNS, else 10); startup runs ten
#              times as many because each run is about a millisecond
#   --warmup   untimed runs first, to warm the page and dentry caches (default 2)
#   --ufind    the binary to measure (default build/cli/ufind in this repository;
#              any program taking find's command lines works, e.g. find itself);
#              when it is missing its rows are left out, with a warning
#   --corpora  where bench/corpora.sh built the trees (default $UFIND_CORPORA,
#              else /work/corpora)
#   --out      where results go (default $UFIND_BENCH_OUT, else /tmp/ufind-bench):
#              a directory per run with hyperfine's JSON and markdown per group,
#              its report.md, and a copy of the latest report in OUT/latest.md
#
# The report (a markdown table per group: median, mean ± σ, min, user, system,
# and each median divided by the reference's, bfs 2.6.1 unless said otherwise) is
# printed on stdout; hyperfine's progress goes to stderr.
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
DROP_CACHES="sh -c 'sync; echo 3 > /proc/sys/vm/drop_caches'"

die() { echo "run.sh: $*" >&2; exit 1; }
say() { echo "run.sh: $*" >&2; }

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
}

suite=all
runs=${RUNS:-10}
warmup=2
ufind=$REPO_ROOT/build/cli/ufind
corpora=${UFIND_CORPORA:-/work/corpora}
out=${UFIND_BENCH_OUT:-/tmp/ufind-bench}
while (($#)); do
    case $1 in
        --suite) suite=${2:?--suite needs a NAME} ; shift ;;
        --runs) runs=${2:?--runs needs N} ; shift ;;
        --warmup) warmup=${2:?--warmup needs N} ; shift ;;
        --ufind) ufind=${2:?--ufind needs a PATH} ; shift ;;
        --corpora) corpora=${2:?--corpora needs a DIR} ; shift ;;
        --out) out=${2:?--out needs a DIR} ; shift ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument: $1 (try --help)" ;;
    esac
    shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive integer, not '$runs'"
[[ $warmup =~ ^[0-9]+$ ]] || die "--warmup must be a non-negative integer, not '$warmup'"
case $suite in
    complete | print | early | startup | deep | cold | large) suites=("$suite") ;;
    all) suites=(complete print early startup deep) ;;
    *) die "unknown suite '$suite': complete, print, early, startup, deep, cold, large or all" ;;
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

# The floor walker is rebuilt whenever its source is newer than the binary, so a
# stale floor cannot be measured by mistake. It lives in bench/.build (ignored by
# git), not in the meson build, to keep bench/ independent of the library's build.
FLOOR=$BENCH_DIR/.build/floor_walk
if [[ ! -x $FLOOR || $BENCH_DIR/floor/floor_walk.c -nt $FLOOR ]]; then
    say "compiling $FLOOR"
    mkdir -p "$BENCH_DIR/.build"
    "${CC:-cc}" -O2 -pthread -Wall -Wextra -o "$FLOOR.tmp" "$BENCH_DIR/floor/floor_walk.c"
    mv "$FLOOR.tmp" "$FLOOR"
fi

# need_corpus NAME [CORPORA_SH_FLAG]: stop unless corpora.sh finished NAME. Called
# directly, never inside $(...), where its exit would go unnoticed.
need_corpus() {
    [[ -e $corpora/.stamp-$1 ]] || die "corpus $1 is not built in $corpora: run bench/corpora.sh${2:+ $2}"
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

add_ufind() {
    if ((have_ufind)); then
        add ufind "$(printf '%q' "$ufind") $1"
    fi
}

add_floor() {
    add "floor -t$1" "$(printf '%q' "$FLOOR") -t $1 $2"
}

# run_group SLUG TITLE REFERENCE RUNS WARMUP [HYPERFINE_ARGS...]: time the group
# assembled with add*, append its table to the report, and start a new group.
run_group() {
    local slug=$1 title=$2 reference=$3 group_runs=$4 group_warmup=$5
    shift 5
    local args=(--shell=none --output=null --runs "$group_runs" --warmup "$group_warmup"
        --export-json "$run_dir/$slug.json" --export-markdown "$run_dir/$slug.md" "$@")
    local i
    for i in "${!names[@]}"; do
        args+=(--command-name "${names[i]}")
    done
    say "== $title"
    hyperfine "${args[@]}" "${commands[@]}" >&2
    python3 "$BENCH_DIR/tools/report.py" --title "$title" --reference "$reference" \
        "$run_dir/$slug.json" >>"$report"
    names=()
    commands=()
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
# shallow names sooner, a depth-first one may reach deep ones sooner.
suite_early() {
    local root r name found
    need_corpus linux
    root=$corpora/linux
    r=$(printf '%q' "$root")
    for name in "${EARLY_NAMES[@]}"; do
        found=$(find "$root" -name "$name" | wc -l)
        ((found == 1)) || say "warning: $name occurs $found times in linux, not once"
        add_ufind "$r -name $name -print -quit"
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
- $(tool_version hyperfine), ${runs} runs after ${warmup} warm-up runs (startup: $((runs * 10)); cold: ${COLD_RUNS}, no warm-up)
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
