#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Host-only tests of the QEMU test plumbing (no QEMU boot): every topology
# parses, expect.py rejects broken ones, and smoke.sh gives the right verdicts
# on synthetic serial logs (one that matches the expectation, one with known
# faults).  Writes "qemu-selftest P F" to RESULTS/qemu-selftest.count.
#
#   tests/qemu/selftest.sh [--out DIR] [--results DIR]
# shellcheck disable=SC2016 # the sh -c scripts get their values as $1...
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib/suite.sh
. "$here/../lib/suite.sh"
suite_init qemu-selftest build/qemu-selftest "$@"
check() {	# check DESCRIPTION COMMAND...
	local what=$1 rc=0
	shift
	"$@" >"$out/last.log" 2>&1 || rc=$?
	suite_check $rc "$what"
	[ $rc -eq 0 ] || sed 's/^/    /' "$out/last.log" | tail -20
}
expect() { python3 "$here/expect.py" "$@"; }

for t in "$here"/topologies/*.topo; do
	check "expect.py parses $(basename "$t")" \
		sh -c 'python3 "$1" "$2" | grep -q "^fn 0000:00:1f.0 id=8086:2918"' _ "$here/expect.py" "$t"
done
check "large.topo has >= 64 links" \
	sh -c '[ "$(python3 "$1" --links "$2" | wc -l)" -ge 64 ]' _ "$here/expect.py" "$here/topologies/large.topo"
check "large.topo is what gen-large-topo.sh writes" \
	sh -c '"$1" | cmp -s - "$2"' _ "$here/gen-large-topo.sh" "$here/topologies/large.topo"

bad() {	# bad NAME TOPOLOGY-TEXT: expect.py must refuse it with exit 2
	printf '%s\n' "$2" >"$out/$1.topo"
	check "expect.py rejects $1" sh -c 'python3 "$1" "$2"; [ $? -eq 2 ]' _ "$here/expect.py" "$out/$1.topo"
}
bad unknown-bus 'device e1000e,bus=nope,romfile='
bad unknown-model 'device frobnicator,bus=pcie.0'
bad no-multifunction $'device pcie-root-port,id=rp1,addr=0x2,chassis=1,slot=1\ndevice e1000e,bus=rp1,addr=0x0,romfile=\ndevice e1000e,bus=rp1,addr=0x0.1,romfile='
bad slot-below-port $'device pcie-root-port,id=rp1,addr=0x2,chassis=1,slot=1\ndevice e1000e,bus=rp1,addr=0x1,romfile='
bad same-addr $'device e1000e,addr=0x3,romfile=\ndevice e1000e,addr=0x3,romfile='
bad keyword 'devices e1000e'

# Synthetic app output, in docs/records.md format, from the expectation.
topo=$here/topologies/default.topo
expect "$topo" | awk '
/^fn /   { print $1, $2, $3, $4, $5, $6, $7, "flags=none" }
/^link / { sub(/^link /, "aspm link "); print $0, "hops=0 support=L0s bios=none capable=L0s action=keep target=none clkpm=- l1ss=none reason=-" }
' >"$out/records.txt"
{ echo 'BdsDxe: starting Boot0001'; cat "$out/records.txt"; echo 'aspmctl: done status=0x0'; } >"$out/good.log"
nfn=$(expect --fns "$topo" | wc -l)
nlk=$(expect --links "$topo" | wc -l)
check "smoke.sh passes a matching log ($((nfn + nlk + 4)) checks)" \
	sh -c '"$1" --log "$2" --out "$3" --results "$3" | tail -1 | grep -qx "$4 passed, 0 failed"' \
	_ "$here/smoke.sh" "$out/good.log" "$out/smoke-good" $((nfn + nlk + 4))
# faults: one function missing, one wrong type, one wrong parent, one extra
# link, a duplicate link, a link claiming L1 support, a failing exit status
sed -e '/^fn 0000:05:00.0 /d' \
    -e 's/^\(aspm link up=0000:00:02.1 .*\) support=L0s/\1 support=L0s,L1/' \
    -e 's/^\(fn 0000:04:00.0 .*\) type=endpoint/\1 type=pci/' \
    -e 's/^\(fn 0000:07:00.1 .*\) parent=0000:00:02.2/\1 parent=-/' \
    -e 's/status=0x0/status=0x8000000000000002/' "$out/good.log" >"$out/bad.log"
grep '^aspm link up=0000:00:02.0 ' "$out/good.log" >>"$out/bad.log"
echo 'aspm link up=0000:00:02.4 down=0000:0a:00.0 nfn=1' >>"$out/bad.log"
check "smoke.sh fails a faulty log with exactly 7 failures" \
	sh -c '"$1" --log "$2" --out "$3" --results "$3"; [ $? -ne 0 ] && grep -qx "qemu-smoke $4 7" "$3/qemu-smoke.count"' \
	_ "$here/smoke.sh" "$out/bad.log" "$out/smoke-bad" $((nfn + nlk + 4 - 7))
check "smoke.sh fails an empty log" \
	sh -c '! "$1" --log /dev/null --out "$2" --results "$2"' _ "$here/smoke.sh" "$out/smoke-empty"
check "run.sh refuses a missing --topology (exit 2)" \
	sh -c '"$1" --app /dev/null --out "$2"; [ $? -eq 2 ]' _ "$here/run.sh" "$out/run-usage"

suite_end
