#!/bin/sh
# The manual page renders without a warning: groff -ww reports every
# warning troff knows (unknown macros, lines it cannot break, bad escapes),
# and man(1) must format it too.  Skipped (77) where groff is missing:
# Debian's groff-base provides it.
page=$1
command -v groff >/dev/null 2>&1 || { echo "groff is not installed: skipped"; exit 77; }
warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1)
if [ -n "$warnings" ]; then
    printf 'groff warns about %s:\n%s\n' "$page" "$warnings"
    exit 1
fi
text=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -P-cbou "$page" 2>&1) || exit 1
for section in NAME SYNOPSIS DESCRIPTION OPTIONS EXPRESSION ENVIRONMENT 'EXIT STATUS' \
               'UNUSUAL FILENAMES' EXAMPLES 'DIFFERENCES FROM GNU FIND' 'SEE ALSO'; do
    printf '%s\n' "$text" | grep -q "^$section\$" || {
        echo "$page has no $section section"
        exit 1
    }
done
echo "$page renders cleanly"
