#!/usr/bin/env bash
# corpora.sh: build the directory trees that bench/run.sh measures.
#
# Usage: bench/corpora.sh [--large] [DIR]
#   DIR defaults to $UFIND_CORPORA, else /work/corpora. It must lie outside the
#   repository: the trees hold ~200,000 entries (over a million with --large), and
#   git, meson and editors would all crawl them.
#
# Corpora (each is DIR/NAME):
#   linux      Debian's linux-source-6.1 tree: the realistic case, a few fat
#              directories and a long tail (~84k entries, ~5.1k directories).
#   synthetic  30 x 30 x 25 directories of 4 empty files: many small directories,
#              so per-directory costs dominate (23,431 dirs, 113,431 entries).
#   empty      an empty directory: process start-up and teardown only.
#   deep       a chain of 2,000 nested `d` directories with a file `f` in each:
#              per-level costs, descriptor limits, long paths.
#   large      (only with --large) 12 hard-linked copies of linux, DIR/large/0..11:
#              a tree too big for a walker's caches, and long enough that cold runs
#              can keep a device queue full.
#
# Idempotent: a finished corpus leaves DIR/.stamp-NAME holding its counts, and
# reruns skip it. A corpus without a stamp is a leftover of an interrupted build and
# is rebuilt from scratch; trees are built under a temporary name and renamed into
# place, so DIR/NAME exists whole or not at all.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO_ROOT=$(cd "$BENCH_DIR/.." && pwd -P)

# Expected shapes of the generated corpora; a mismatch means a generator bug and
# would silently skew every comparison, so it is fatal. linux varies with the
# Debian point release and is only reported.
SYNTHETIC_ENTRIES=113431
SYNTHETIC_DIRS=23431
DEEP_LEVELS=2000
DEEP_ENTRIES=$((2 * DEEP_LEVELS + 1))
DEEP_DIRS=$((DEEP_LEVELS + 1))
LARGE_COPIES=12

die() { echo "corpora.sh: $*" >&2; exit 1; }
say() { echo "corpora.sh: $*" >&2; }

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
}

build_large=0
dir=""
while (($#)); do
    case $1 in
        --large) build_large=1 ;;
        -h | --help) usage; exit 0 ;;
        -*) die "unknown option: $1 (try --help)" ;;
        *) [[ -z $dir ]] || die "only one DIR may be given"; dir=$1 ;;
    esac
    shift
done
dir=${dir:-${UFIND_CORPORA:-/work/corpora}}

# Resolved before anything is created, so a refused DIR leaves no trace in the repo.
DIR=$(realpath -m -- "$dir")
case "$DIR/" in
    "$REPO_ROOT/"*) die "$DIR is inside the repository $REPO_ROOT; pick a DIR outside it" ;;
esac
mkdir -p "$DIR"

# Two builders racing on one DIR would rename half-built trees over each other.
exec 9>"$DIR/.lock"
flock -n 9 || { say "waiting for another corpora.sh on $DIR"; flock 9; }

stamp_of() { echo "$DIR/.stamp-$1"; }

# count_tree PATH -> "ENTRIES DIRS", counted by GNU find, the oracle every walker
# in bench/ is checked against.
count_tree() {
    local entries dirs
    entries=$(find "$1" | wc -l)
    dirs=$(find "$1" -type d | wc -l)
    echo "$entries $dirs"
}

# check_counts NAME "ENTRIES DIRS" EXPECTED_ENTRIES EXPECTED_DIRS
check_counts() {
    local name=$1 got=$2 want="$3 $4"
    [[ $got == "$want" ]] || die "$name: got entries/dirs $got, expected $want"
}

build_linux() {
    local download=$DIR/.download tmp=$DIR/.linux.tmp deb tarball
    mkdir -p "$download"
    # apt's download sandbox runs as _apt; let it write here so it does not warn.
    chown _apt: "$download" 2>/dev/null || true
    deb=$(compgen -G "$download/linux-source-6.1_*_all.deb" | head -n1 || true)
    if [[ -z $deb ]]; then
        # The package lists are only refreshed when needed: an update is slow and
        # touches state shared with everything else on the machine.
        if ! (cd "$download" && apt-get download linux-source-6.1); then
            say "download failed; running apt-get update and retrying"
            apt-get update
            (cd "$download" && apt-get download linux-source-6.1)
        fi
        deb=$(compgen -G "$download/linux-source-6.1_*_all.deb" | head -n1 || true)
        [[ -n $deb ]] || die "apt-get download left no linux-source-6.1 .deb in $download"
    fi
    rm -rf "$tmp"
    mkdir -p "$tmp"
    dpkg-deb -x "$deb" "$tmp/deb"
    tarball=$tmp/deb/usr/src/linux-source-6.1.tar.xz
    [[ -f $tarball ]] || die "$deb holds no usr/src/linux-source-6.1.tar.xz"
    tar -xf "$tarball" -C "$tmp"
    [[ -d $tmp/linux-source-6.1 ]] || die "the tarball did not unpack to linux-source-6.1/"
    mv "$tmp/linux-source-6.1" "$DIR/linux"
    rm -rf "$tmp" "$download"
}

build_synthetic() {
    local tmp=$DIR/.synthetic.tmp
    rm -rf "$tmp"
    python3 "$BENCH_DIR/tools/mksynthetic.py" "$tmp"
    mv "$tmp" "$DIR/synthetic"
}

build_empty() {
    mkdir "$DIR/empty"
}

build_deep() {
    local tmp=$DIR/.deep.tmp
    rm -rf "$tmp"
    python3 "$BENCH_DIR/tools/mkdeep.py" "$tmp" "$DEEP_LEVELS"
    mv "$tmp" "$DIR/deep"
}

build_large() {
    local tmp=$DIR/.large.tmp i
    [[ -e $(stamp_of linux) ]] || die "large needs linux built first"
    rm -rf "$tmp"
    mkdir -p "$tmp"
    # Hard links share the file inodes, so the copies cost directory blocks only
    # (~0.5 GB), yet each copy's directories are distinct inodes a walker must read.
    for ((i = 0; i < LARGE_COPIES; i++)); do
        cp -al "$DIR/linux" "$tmp/$i"
    done
    mv "$tmp" "$DIR/large"
}

# ensure NAME [EXPECTED_ENTRIES EXPECTED_DIRS]: build NAME unless stamped, then
# print its counts.
ensure() {
    local name=$1 stamp counts
    stamp=$(stamp_of "$name")
    if [[ -e $stamp ]]; then
        counts=$(<"$stamp")
    else
        say "building $name in $DIR/$name"
        rm -rf "${DIR:?}/$name"
        "build_$name"
        counts=$(count_tree "$DIR/$name")
        if (($# == 3)); then
            check_counts "$name" "$counts" "$2" "$3"
        fi
        echo "$counts" >"$stamp"
    fi
    local entries dirs
    read -r entries dirs <<<"$counts"
    printf '%-10s %9d entries %8d dirs   %s\n' "$name" "$entries" "$dirs" "$DIR/$name"
}

ensure linux
ensure synthetic "$SYNTHETIC_ENTRIES" "$SYNTHETIC_DIRS"
ensure empty 1 1
ensure deep "$DEEP_ENTRIES" "$DEEP_DIRS"
if ((build_large)); then
    # Each copy repeats every entry of linux below the one shared root.
    read -r linux_entries linux_dirs <"$(stamp_of linux)"
    ensure large $((LARGE_COPIES * linux_entries + 1)) $((LARGE_COPIES * linux_dirs + 1))
fi
