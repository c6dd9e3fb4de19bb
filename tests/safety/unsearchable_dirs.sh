#!/usr/bin/env bash
# A directory that can be read but not searched (mode 444): its names are
# listed, nothing in it can be looked at.  Against GNU find: each entry's
# "Permission denied" is reported once, with find's words, by -size, -ls,
# -empty and -prune (which find must stat, so it fails where find fails),
# and stdout and the exit status are find's.  Root may search anything,
# so as root both programs run as nobody (setpriv); skipped (77) without it.
#
#   unsearchable_dirs.sh UFIND
set -uo pipefail
ufind=$(realpath "$1")
as_user=()
if [ "$(id -u)" -eq 0 ]; then
    command -v setpriv >/dev/null || exit 77
    as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
tree=$(mktemp -d /tmp/ufind-unsearchable-XXXXXX)
trap 'chmod -R u+rwx "$tree"; rm -rf "$tree"' EXIT
chmod 755 "$tree"
mkdir "$tree/locked" "$tree/open"
touch "$tree/locked/a" "$tree/locked/b" "$tree/open/a"
chmod 444 "$tree/locked"

passed=0
failed=0
run() {  # program, then its arguments: sorted stdout and stderr, then status
    local program=$1
    shift
    local out err status
    out=$(cd "$tree" && "${as_user[@]}" "$program" "$@" 2>/tmp/ufind-unsearchable-err.$$)
    status=$?
    err=$(sed 's/^[a-z]*find: //' /tmp/ufind-unsearchable-err.$$ | sort)
    rm -f /tmp/ufind-unsearchable-err.$$
    printf '%s\n--\n%s\n-- %s\n' "$(sort <<<"$out")" "$err" "$status"
}
for args in "-size -1" "-ls" "-empty" "-name a -prune" "-name a -prune -o -print" \
            "-depth -name a -prune" "-print"; do
    # shellcheck disable=SC2086
    want=$(run find . $args)
    # shellcheck disable=SC2086
    got=$(run "$ufind" . $args)
    if [ "$want" = "$got" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL find . $args"
        diff <(echo "$want") <(echo "$got") | sed 's/^/    /'
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
