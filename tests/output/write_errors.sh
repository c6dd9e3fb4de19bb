#!/usr/bin/env bash
# Output failures, against GNU find: a full disk on stdout or on -fprint's
# file, a closed stdout, and a reader that goes away (`| head -1`).  ufind
# must say so on stderr and exit 1 as find does, or, for the closed pipe,
# end at once by SIGPIPE without a message, as find does.
#
#   write_errors.sh UFIND
set -uo pipefail
ufind=$1
tree=$(mktemp -d /tmp/ufind-write-XXXXXX)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/a/b"
# 20,000 paths, about 700 KB of output: far more than a pipe holds (64 KiB)
# and head reads before it exits, so the writer always meets the closed
# pipe (with 2,000, about 70 KB, it sometimes finished first and exited 0).
(cd "$tree/a" && seq -f 'file%g' 1 20000 | xargs touch)

passed=0
failed=0
check() {  # name, want status, got status, want stderr (empty|message), stderr text
    local name=$1 want=$2 got=$3 kind=$4 err=$5
    if [ "$got" -ne "$want" ]; then
        echo "FAIL $name: exit status $got, want $want" >&2
        failed=$((failed + 1))
    elif [ "$kind" = message ] && [ -z "$err" ]; then
        echo "FAIL $name: nothing on stderr" >&2
        failed=$((failed + 1))
    elif [ "$kind" = empty ] && [ -n "$err" ]; then
        echo "FAIL $name: unexpected stderr: $err" >&2
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
}

for program in find "$ufind"; do
    label=$(basename "$program")
    err=$("$program" "$tree" 2>&1 >/dev/full); status=$?
    check "$label stdout on a full disk" 1 "$status" message "$err"
    err=$("$program" "$tree" -fprint /dev/full 2>&1 >/dev/null); status=$?
    check "$label -fprint to a full disk" 1 "$status" message "$err"
    err=$("$program" "$tree" 2>&1 >&-); status=$?
    check "$label closed stdout" 1 "$status" message "$err"
    # What the program says of itself fails the same way.
    for option in --help --version; do
        err=$("$program" "$option" 2>&1 >/dev/full); status=$?
        check "$label $option on a full disk" 1 "$status" message "$err"
        err=$("$program" "$option" 2>&1 >&-); status=$?
        check "$label $option to a closed stdout" 1 "$status" message "$err"
    done
    err=$("$program" -D help 2>&1 >/dev/full); status=$?
    check "$label -D help on a full disk" 1 "$status" message "$err"
    # The reader exits after one line: the writer dies of SIGPIPE (141)
    # quietly, and quickly (a bounded wait catches a hang).
    err=$( { timeout 20 "$program" "$tree" 2>&3 | head -1 >/dev/null; } 3>&1; exit "${PIPESTATUS[0]}" ); status=$?
    check "$label reader gone" 141 "$status" empty "$err"
done
# And in find's words, in the C locale and a UTF-8 one (where find quotes
# ‘standard output’): every line of stderr, less the program's name.
same_words() {  # name, then a command line where PROGRAM stands for find or ufind
    local name=$1 locale want got program word
    shift
    for locale in C C.UTF-8; do
        for program in find "$ufind"; do
            local words=()
            for word in "$@"; do
                [ "$word" = PROGRAM ] && word=$program
                words+=("$word")
            done
            got=$(LC_ALL=$locale "${words[@]}" 2>&1 >/dev/null | sed 's/^[^:]*: //')
            [ "$program" = find ] && want=$got
        done
        if [ "$want" = "$got" ]; then
            passed=$((passed + 1))
        else
            echo "FAIL $name ($locale): find says '$want', ufind '$got'" >&2
            failed=$((failed + 1))
        fi
    done
}
same_words "stdout on a full disk" sh -c 'exec "$0" "$1" >/dev/full' PROGRAM "$tree"
same_words "-fprint to a full disk" PROGRAM "$tree" -fprint /dev/full
same_words "closed stdout" sh -c 'exec "$0" "$1" >&-' PROGRAM "$tree"
same_words "--help on a full disk" sh -c 'exec "$0" --help >/dev/full' PROGRAM
same_words "--version to a closed stdout" sh -c 'exec "$0" --version >&-' PROGRAM

# A width of a billion spaces: find writes the padding, it does not build
# it (2.5 MB peak), so it runs within 200 MB of address space; so must
# ufind.  Not under a sanitizer, whose shadow memory no such limit allows.
if ! ldd "$ufind" 2>/dev/null | grep -q -e libasan -e libtsan; then
    for program in find "$ufind"; do
        label=$(basename "$program")
        for format in 'x%999999999py\n' 'x%-999999999py\n' '%999999999d\n'; do
            err=$( (ulimit -v 200000; "$program" "$tree/a/b" -printf "$format") 2>&1 >/dev/null)
            status=$?
            check "$label -printf $format in 200 MB" 0 "$status" empty "$err"
        done
    done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
