#!/usr/bin/env bash
# Messages name the program as it was invoked (argv[0]'s base name: GNU
# find prints argv[0] whole, which is the same when run through PATH):
# through a link named find, found in PATH, ufind's stderr must read
# exactly as GNU find's, line for line, where both
# say the same thing (a missing starting point, an unrecognised -D flag,
# -D without its argument; only ufind's caret lines, indented, are left
# out).  And under its own name ufind still says "ufind:".
#
#   invoked_name.sh UFIND
set -uo pipefail
ufind=$(realpath "$1")
scratch=$(mktemp -d /tmp/ufind-name-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/bin"
ln -s "$ufind" "$scratch/bin/find"
cd "$scratch" || exit 1

passed=0
failed=0
same_stderr() {  # name, then the arguments
    local name=$1 want got want_status got_status
    shift
    want=$(LC_ALL=C PATH=/usr/bin:/bin find "$@" 2>&1 >/dev/null | grep -v '^  ' | grep -v "^Try '")
    want_status=${PIPESTATUS[0]}
    got=$(LC_ALL=C PATH="$scratch/bin:/usr/bin:/bin" find "$@" 2>&1 >/dev/null | grep -v '^  ')
    got_status=${PIPESTATUS[0]}
    if [ "$want" = "$got" ] && [ "$want_status" = "$got_status" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL $name: find says '$want' ($want_status), ufind as find '$got' ($got_status)" >&2
        failed=$((failed + 1))
    fi
}
same_stderr "missing starting point" missing -maxdepth 0
same_stderr "unrecognised -D flag" -D bogus . -maxdepth 0
same_stderr "-D without its argument" -D
same_stderr "no such file in an -exec" . -maxdepth 0 -exec /nonexistent \;

err=$(LC_ALL=C "$ufind" missing 2>&1 >/dev/null)
if [ "$err" = "ufind: 'missing': No such file or directory" ]; then
    passed=$((passed + 1))
else
    echo "FAIL own name: '$err'" >&2
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
