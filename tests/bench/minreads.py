#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The fewest config reads a correct ASPM tool needs on a topology.

    tests/bench/minreads.py TOPO SHELL_SERIAL_LOG     print the breakdown

Computed from the topology file (tests/qemu/expect.py: which functions
exist, on which buses, behind which bridges) and from the UEFI Shell's
`pci B D F` config dumps of the same machine (each device model's
capability lists and PCI Express registers), never from aspmctl's output.
The model is in tests/bench/README.md; in short, one read per item:

discovery (what bridge-following enumeration cannot avoid)
  probe      Vendor ID of function 0 of every device slot of every bus
             scanned: 32 on a root bus and below an upstream port or a PCI
             bridge, 1 below a Root Port or Downstream Port (device 0 only,
             PCIe r5.0 7.3.1; none of QEMU's ports enables ARI), plus
             functions 1-7 of every multi-function device
  header     Header Type (multi-function bit, type 1 = bridge), every function
  busnum     Primary/Secondary/Subordinate Bus Number, every bridge
policy inputs (what docs/policy.md's decisions read)
  status     Status: is there a capability list
  capptr     Capabilities Pointer
  capwalk    each standard capability entry up to the PCI Express one (a
             dword: ID, next and PCI Express Capabilities together), the
             whole list on a function without one
  devcap     Device Capabilities (acceptable latencies, Role-Based Error
             Reporting), PCI Express functions
  lnkcap     Link Capabilities, functions with a link (not RC-integrated)
  lnkctl     Link Control + Link Status (one dword), the same functions
  devctl2    Device Control 2 (ARI Forwarding: which devices to probe
             below), Root and Downstream Ports with capability version 2
  extwalk    extended capability entries from 0x100 until L1 PM Substates
             and LTR are both found or the list ends, functions with a link
             whose Link Capabilities advertise any ASPM (as Linux reads
             L1SS for such links)
  l1ss       L1SS Capabilities and Control 1, where that capability exists

Not in the minimum (the app reads them for its records, not for the
policy): the Class Code, Slot Capabilities (hot-plug flag).
"""
import collections
import os
import re
import sys

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'qemu'))
import expect            # noqa: E402

DUMP_HDR_RE = re.compile(r'PCI Segment ([0-9A-F]{2}) Bus ([0-9A-F]{2}) Device ([0-9A-F]{2}) Func ([0-9A-F]{2})')
DUMP_RE = re.compile(r'^\s+([0-9A-F]{8}): ((?:[0-9A-F]{2}[ -]){15}[0-9A-F]{2})')
PORTS = ('root-port', 'downstream-port')
NO_LINK = ('rc-endpoint', 'rc-event-collector')
ITEMS = ('probe', 'header', 'busnum', 'status', 'capptr', 'capwalk', 'devcap', 'lnkcap',
         'lnkctl', 'devctl2', 'extwalk', 'l1ss')


class ModelError(Exception):
    pass


def parse_dumps(text):
    """The Shell's `pci B D F` output: {addr: bytearray(4096)} (0x100 and up
    only where the Shell dumped extended space; zeros otherwise)."""
    dumps, cur = {}, None
    for line in text.splitlines():
        m = DUMP_HDR_RE.search(line)
        if m:
            s, b, d, f = (int(x, 16) for x in m.groups())
            cur = '%04x:%02x:%02x.%d' % (s, b, d, f)
            dumps[cur] = bytearray(4096)
            continue
        m = DUMP_RE.match(line)
        if m and cur:
            off = int(m.group(1), 16)
            if off < 4096:
                dumps[cur][off:off + 16] = bytes(int(x, 16) for x in re.split('[ -]', m.group(2)))
    return dumps


def u16(c, o):
    return c[o] | c[o + 1] << 8


def u32(c, o):
    return u16(c, o) | u16(c, o + 2) << 16


def fn_reads(f, c, items):
    """Policy-input reads of one present function with config image c."""
    items['header'] += 1
    if 'bus' in f:
        items['busnum'] += 1
    items['status'] += 1
    if not u16(c, 0x06) & 0x10:
        return
    items['capptr'] += 1
    p, seen, pcie = c[0x34] & 0xfc, set(), None
    while p >= 0x40 and p not in seen:
        seen.add(p)
        items['capwalk'] += 1
        if c[p] == 0x10:
            pcie = p
            break
        p = c[p + 1] & 0xfc
    if pcie is None:
        return
    flags = u16(c, pcie + 2)
    ptype = (flags >> 4) & 0xf
    items['devcap'] += 1
    if f['type'] in NO_LINK or ptype in (9, 10):
        return
    items['lnkcap'] += 1
    items['lnkctl'] += 1
    if f['type'] in PORTS and (flags & 0xf) >= 2:
        items['devctl2'] += 1
    lnkcap = u32(c, pcie + 0x0c)
    if not lnkcap & 0xc00:                     # no ASPM support at all
        return
    p, seen, want = 0x100, set(), {0x1e, 0x18}  # L1 PM Substates, LTR
    while p and p not in seen and p >= 0x100:
        seen.add(p)
        items['extwalk'] += 1
        h = u32(c, p)
        if h in (0, 0xffffffff):
            break
        if h & 0xffff == 0x1e:
            items['l1ss'] += 2
        want.discard(h & 0xffff)
        if not want:
            break
        p = (h >> 20) & 0xffc


def minimum(topo, dumps):
    fns, links = expect.expectation(topo)
    items = collections.Counter({k: 0 for k in ITEMS})
    roots = {f['addr'][5:7] for f in fns if f['parent'] == '-'}
    items['probe'] += 32 * len(roots)
    per_fn = {}
    # a function not dumped takes the capability layout of a dumped one of
    # the same QEMU model and type (the bench dumps one per model on large
    # topologies); its multi-function bit then comes from the topology
    reps = {(f['model'], f['type']): dumps[f['addr']] for f in fns if f['addr'] in dumps}
    slots = collections.Counter(f['addr'][:10] for f in fns)
    for f in fns:
        c = dumps.get(f['addr'])
        if c is not None:
            mf = bool(c[0x0e] & 0x80)
        else:
            c = reps.get((f['model'], f['type']))
            if c is None:
                raise ModelError('no Shell dump of %s (%s) or of another %s' % (
                    f['addr'], f['model'], f['model']))
            mf = slots[f['addr'][:10]] > 1
        if 'bus' in f:
            items['probe'] += 1 if f['type'] in PORTS else 32
        if f['addr'].endswith('.0') and mf:
            items['probe'] += 7
        before = sum(items.values())
        fn_reads(f, c, items)
        per_fn[f['addr']] = sum(items.values()) - before
    return dict(total=sum(items.values()), items=dict(items), functions=len(fns),
                links=len(links), per_fn=per_fn)


def main():
    if len(sys.argv) != 3:
        raise SystemExit('usage: minreads.py TOPO SHELL_SERIAL_LOG')
    m = minimum(sys.argv[1], parse_dumps(open(sys.argv[2], errors='replace').read()))
    for k in ITEMS:
        print('%-8s %6d' % (k, m['items'][k]))
    print('%-8s %6d  (%d functions, %d links, %.2f per function)' % (
        'total', m['total'], m['functions'], m['links'], m['total'] / m['functions']))


if __name__ == '__main__':
    main()
