#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# check-corpus.sh - describe the real-machine lspci dumps in tests/twin/dumps/
#
# A helper for the table in tests/twin/SOURCES.md, not a test of aspmctl.
# For every dump it checks that "lspci -F" parses it and names as many
# functions as the file has headers, then prints:
#   fn      functions lspci names
#   4096    functions with a full 4096-byte dump (an "ff0:" line present)
#   256     functions with 256 bytes (an "f0:" line, no "ff0:")
#   64      functions with less (the standard header only)
#   l1ss    functions whose "lspci -F FILE -vv" decode has "L1 PM Substates"
#   up      functions decoded as "Upstream Port" (a PCIe switch)
#   doms    PCI domains seen (0 when headers carry no domain)
# and ends with a one-line summary.
#
# Usage: tests/twin/check-corpus.sh [DUMP...]
#        (default: every tests/twin/dumps/*.txt)
# Needs: lspci (pciutils), awk, grep.

LC_ALL=C
export LC_ALL

here=$(dirname "$0")

if ! command -v lspci >/dev/null 2>&1; then
	echo "check-corpus: lspci not found (install pciutils)" >&2
	exit 2
fi

if [ $# -eq 0 ]; then
	set -- "$here"/dumps/*.txt
fi

total=0
bad=0
sum_fn=0
n_full=0
n_l1ss=0
n_switch=0

printf '%-42s %5s %5s %5s %5s %5s %4s %4s %s\n' \
	file fn 4096 256 64 l1ss up doms status

for f in "$@"; do
	if [ ! -f "$f" ]; then
		echo "check-corpus: $f: no such file" >&2
		bad=$((bad + 1))
		continue
	fi
	total=$((total + 1))
	name=$(basename "$f")
	status=ok

	# Headers and per-function dump size, straight from the text.
	sizes=$(awk '
		/^([0-9a-f][0-9a-f][0-9a-f][0-9a-f]:)?[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]\.[0-7] / {
			if (n) { if (max >= 4080) full++; else if (max >= 240) std++; else hdr++ }
			n++; max = 0
			if ($1 ~ /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:/) dom[substr($1, 1, 4)] = 1
			next
		}
		/^[0-9a-f][0-9a-f][0-9a-f]?: [0-9a-f][0-9a-f] / {
			off = 0; s = $1; sub(/:$/, "", s)
			for (i = 1; i <= length(s); i++)
				off = off * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			if (off > max) max = off
		}
		END {
			if (n) { if (max >= 4080) full++; else if (max >= 240) std++; else hdr++ }
			d = 0; for (k in dom) d++
			printf "%d %d %d %d %d\n", n, full, std, hdr, d
		}' "$f")
	read -r hdrs full std small doms <<EOF
$sizes
EOF

	# lspci must parse the file and name every function.
	if ! out=$(lspci -F "$f" 2>/dev/null); then
		status="lspci-F-failed"
		fn=0
	else
		fn=$(printf '%s\n' "$out" | grep -c .)
		[ "$fn" -eq "$hdrs" ] || status="names-$fn-of-$hdrs"
	fi

	vv=$(lspci -F "$f" -vv 2>/dev/null)
	l1ss=$(printf '%s\n' "$vv" | grep -c 'L1 PM Substates')
	up=$(printf '%s\n' "$vv" | grep -c 'Upstream Port')
	if printf '%s\n' "$vv" | grep -q 'access denied'; then
		status="$status,access-denied"
	fi

	[ "$status" = ok ] || bad=$((bad + 1))
	sum_fn=$((sum_fn + fn))
	[ "$full" -gt 0 ] && n_full=$((n_full + 1))
	[ "$l1ss" -gt 0 ] && n_l1ss=$((n_l1ss + 1))
	[ "$up" -gt 0 ] && n_switch=$((n_switch + 1))

	printf '%-42s %5d %5d %5d %5d %5d %4d %4d %s\n' \
		"$name" "$fn" "$full" "$std" "$small" "$l1ss" "$up" "$doms" "$status"
done

echo "summary: $total dumps, $sum_fn functions, $n_full with 4096-byte functions," \
	"$n_l1ss with L1 PM Substates, $n_switch with a switch upstream port," \
	"$bad with problems"

[ "$bad" -eq 0 ]
