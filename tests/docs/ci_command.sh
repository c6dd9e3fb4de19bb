#!/bin/sh
# The README's test command and tests/ci-command, which .ci/run runs, must
# be the same command: the second line of README.md's first ```sh block
# against the one line of tests/ci-command that is neither blank nor a
# comment.
#
#   ci_command.sh README.md tests/ci-command
set -eu
readme=$1
script=$2

if [ ! -x "$script" ]; then
    echo "ci_command: $script is not executable" >&2
    exit 1
fi
from_readme=$(awk '/^```sh$/ {inside = 1; next} inside && /^```$/ {exit} inside' "$readme" | sed -n 2p)
lines=$(grep -c -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$script" || true)
if [ "$lines" -ne 1 ]; then
    echo "ci_command: $script has $lines command lines, not 1" >&2
    exit 1
fi
from_script=$(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$script")
if [ -z "$from_readme" ]; then
    echo "ci_command: no second command in the first sh block of $readme" >&2
    exit 1
fi
if [ "$from_readme" != "$from_script" ]; then
    echo "ci_command: $readme and $script give different test commands:" >&2
    echo "  $readme: $from_readme" >&2
    echo "  $script: $from_script" >&2
    exit 1
fi
echo "ci_command: $readme and $script agree"
