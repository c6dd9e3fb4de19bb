#!/bin/sh
# Each completion script parses in its shell (bash -n, zsh -n, fish -n), and
# the bash one offers the words it should when sourced.  zsh and fish are
# checked only where installed; with neither, the bash checks still run.
dir=$1
status=0
bash -n "$dir/ufind.bash" || status=1
for shell in zsh fish; do
    file=$dir/_ufind
    [ "$shell" = fish ] && file=$dir/ufind.fish
    if command -v "$shell" >/dev/null 2>&1; then
        "$shell" -n "$file" || { echo "$file does not parse in $shell"; status=1; }
    else
        echo "$shell is not installed: $file not parsed"
    fi
done
# Complete "ufind -S d", "ufind . -type f," and "ufind . -nam" as bash would.
got=$(bash -c '
    . "$1"
    complete_line() {
        COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
        _ufind
        echo "${COMPREPLY[*]}"
    }
    complete_line ufind -S d
    complete_line ufind . -type f,
    complete_line ufind . -nam
' bash "$dir/ufind.bash")
expected='dfs
f,b f,c f,d f,p f,l f,s
-name'
if [ "$got" != "$expected" ]; then
    printf 'bash completion offered:\n%s\nexpected:\n%s\n' "$got" "$expected"
    status=1
fi
exit $status
