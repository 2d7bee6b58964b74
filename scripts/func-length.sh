#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# List C functions longer than a limit (default 80 lines, opening line of
# the definition to closing brace), outside tests/.
#   scripts/func-length.sh [--max N] [FILE...]
# Without FILEs: every tracked .c file of the project. Prints
# "FILE:LINE: NAME N lines" for each long one, then a summary line, and
# exits 1 when any function is over the limit. A function definition is
# taken to start at a line that begins in column 0 with a name and "(",
# and to end at the first "}" in column 0 after it (kernel style); the
# last such line before the brace wins, so a prototype split over lines
# does not count.
set -u
cd "$(dirname "$0")/.."
max=80
if [ "${1:-}" = --max ]; then
	max=$2
	shift 2
fi
if [ $# -eq 0 ]; then
	set -- $(git ls-files '*.c' | grep -v '^tests/')
fi
awk -v max="$max" '
FNR == 1 { start = 0 }
/^[A-Za-z_][A-Za-z0-9_ \t\*]*[ \t\*][A-Za-z_][A-Za-z0-9_]*\(/ && !/;[ \t]*$/ {
	# a prototype split over lines looks the same: the last one wins
	name = $0
	sub(/\(.*/, "", name)
	sub(/.*[ \t\*]/, "", name)
	start = FNR
	next
}
/^}/ {
	if (start) {
		n = FNR - start + 1
		total++
		if (n > max) {
			printf "%s:%d: %s %d lines\n", FILENAME, start, name, n
			long++
		}
		if (n > longest) {
			longest = n
			lname = FILENAME ":" name
		}
	}
	start = 0
}
END {
	printf "func-length: %d function(s), %d longer than %d lines; longest %d (%s)\n",
	       total, long, max, longest, lname
	exit long > 0
}' "$@"
