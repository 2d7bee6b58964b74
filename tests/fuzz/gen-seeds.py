#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the small seed corpora of the fuzz targets (tests/fuzz/corpus/).

acpi: a mode byte and an RSDP offset, then a memory image: q35-like ones
(RSDP 2.0 -> XSDT + RSDT -> FADT, MCFG) with FADTs of several lengths, and
a hostile one (two FADTs, two MCFGs, an SSDT, RSDT and XSDT with several
entries, bad ones among them), in the modes of fuzz_acpi.c (discover,
patch, boot: patch then discover; setting or clearing the ASPM bit).

pcie: fuzz_pcie.c's header (the command line: command, --policy, --osc,
--fadt-mode, --scan, --root-bus, boot options; the firmware: FADT, MCFG
allocations, root buses, failing services) and records (root ports,
switches, multi-function endpoints, L1SS on both ends of a link, ARI,
PCIe-to-PCI bridges, raw config-space corruption), run as report, plan,
apply (auto, keep, clear, force, FADT), notouch, remove, dump, fadt and
boot.

Usage: gen-seeds.py [OUTDIR]   (default: tests/fuzz/corpus next to this)
"""
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# ------------------------------------------------------------------ acpi

BASE = 0x100000
IAPC_NO_ASPM = 0x10
# fuzz_acpi.c modes
DISCOVER, PATCH, BOOT, DISCOVER_PATCH = 0, 1, 2, 3
SET = 4


def csum_fix(t, off):
    t[off] = 0
    t[off] = (-sum(t)) & 0xff


def header(sig, length, rev):
    h = bytearray(length)
    h[0:4] = sig
    struct.pack_into('<IB', h, 4, length, rev)
    h[10:16] = b'ASPMCT'
    return h


def fadt(length, iapc):
    f = header(b'FACP', length, 6 if length >= 244 else 1)
    if length >= 111:
        struct.pack_into('<H', f, 109, iapc)
    if length >= 132:
        f[131] = 1      # minor revision
    csum_fix(f, 9)
    return f


def mcfg(entries):
    m = header(b'MCFG', 44 + 16 * len(entries), 1)
    for i, (base, seg, start, end) in enumerate(entries):
        struct.pack_into('<QHBB', m, 44 + 16 * i, base, seg, start, end)
    csum_fix(m, 9)
    return m


def root(sig, fmt, addrs):
    size = struct.calcsize(fmt)
    t = header(sig, 36 + size * len(addrs), 1)
    for i, a in enumerate(addrs):
        struct.pack_into(fmt, t, 36 + size * i, a)
    csum_fix(t, 9)
    return t


def rsdp(rsdt, xsdt):
    r = bytearray(36)
    r[0:8] = b'RSD PTR '
    r[9:15] = b'ASPMCT'
    r[15] = 2 if xsdt else 0
    struct.pack_into('<IIQ', r, 16, rsdt, 36, xsdt)
    r[8] = (-sum(r[:20])) & 0xff
    r[32] = (-sum(r)) & 0xff
    return r if xsdt else r[:20]


def image(size, tables, mode, rsdp_off=0):
    img = bytearray(size)
    for off, t in tables:
        img[off:off + len(t)] = t
    return bytes([mode]) + struct.pack('<I', rsdp_off) + bytes(img)


def q35(fadt_len, iapc, xsdt, mode):
    fo, mo = 0x400, 0x800
    m = mcfg([(0xb0000000, 0, 0, 0xff)])
    x = root(b'XSDT', '<Q', [BASE + fo, BASE + mo])
    r = root(b'RSDT', '<I', [BASE + fo, BASE + mo])
    return image(0xa00, [(0, rsdp(BASE + 0x200, BASE + 0x100 if xsdt else 0)),
                         (0x100, x), (0x200, r), (0x400, fadt(fadt_len, iapc)),
                         (0x800, m)], mode)


def hostile(mode):
    """Two FADTs that disagree, two MCFGs (one overlapping the other, one
    reversed, one with a zero base), an SSDT, and root tables with a null
    entry, a duplicate, an entry past the image and one into garbage."""
    f1, f2, m1, m2, ssdt, junk = 0x400, 0x600, 0x800, 0x900, 0xa00, 0xb00
    m_1 = mcfg([(0xb0000000, 0, 0, 0x7f), (0xc0000000, 1, 0x10, 0x1f)])
    m_2 = mcfg([(0xd0000000, 0, 0x40, 0x8f), (0xe0000000, 2, 0x20, 0x10),
                (0, 3, 0, 0xff)])
    s = header(b'SSDT', 0x40, 2)
    csum_fix(s, 9)
    x = root(b'XSDT', '<Q', [BASE + f1, BASE + m1, BASE + ssdt, BASE + f2,
                             BASE + m2, 0, BASE + f1, 0x7fff0000, BASE + junk])
    r = root(b'RSDT', '<I', [BASE + f2, BASE + m2, BASE + ssdt, BASE + f1])
    return image(0xc00, [(0, rsdp(BASE + 0x200, BASE + 0x100)), (0x100, x),
                         (0x200, r), (f1, fadt(276, 0x12)), (f2, fadt(244, 0x03)),
                         (m1, m_1), (m2, m_2), (ssdt, s),
                         (junk, b'FACP\xff\x00\x00\x00garbage')], mode)


def acpi_seeds():
    return {
        'q35-244-discover': q35(244, 0x12, True, DISCOVER),
        'q35-276-patch-set': q35(276, 0x02, True, PATCH | SET),
        'q35-132-boot-clear': q35(132, 0x10, False, BOOT),
        'q35-116-discover-patch': q35(116, 0, False, DISCOVER_PATCH | SET),
        'q35-268-boot-clear': q35(268, 0x10, True, BOOT),
        'hostile-discover': hostile(DISCOVER),
        'hostile-boot-set': hostile(BOOT | SET),
        'hostile-boot-clear': hostile(BOOT),
        'hostile-patch-clear': hostile(PATCH),
    }

# ------------------------------------------------------------------ pcie

REC = 67
HDR = 24
EP, RP, USP, DSP, PCI, BRG, HDR_ONLY, EXP = range(8)
# header byte 0: command, _OSC, --fadt-mode, --policy
REPORT, PLAN, APPLY, REMOVE, DUMP, BOOT, FADT, NO_CMD = range(8)
OSC, FADT_NOTOUCH = 0x08, 0x10
AUTO, KEEP, CLEAR, FORCE, NOTOUCH = range(5)
# byte 1: options, firmware tables
FULL_SCAN, REMOVE_APPLY, VERBOSE, TWO_MCFG = 0x01, 0x02, 0x04, 0x08
FADT_244, FADT_132, FADT_NONE, FADT_276 = 0x00, 0x10, 0x20, 0x30
# byte 4 (above the number of MCFG allocations): boot and firmware
NEXT, CHAIN_FAILS, WRITE_FAILS, CONF_BAD, BOOT_ENTRY, NO_RSDP = \
    0x04, 0x08, 0x10, 0x20, 0x40, 0x80
# byte 23
EMULATE_SET, EMULATE_CLEAR, EMULATE_LEAVE, FADT_SET = 1, 2, 3, 4
# record behaviours
MULTI, L1SS, LTR = 0x01, 0x02, 0x04
ARI, LTR_MECH, HOTPLUG = 0x01, 0x02, 0x80

LNKCAP = 0x3c11 | 0x0c00 | 1 << 18     # L0s + L1, Clock PM
DEVCAP = 0x8000 | (3 << 6) | (3 << 9)
L1SS_CAP = 0x1f
L1SS_ON = 0x0f


def rec(kind, bus, dev, fn=0, seg=0, pri=0, sec=0, sub=0, lnkcap=LNKCAP,
        lnkctl=0, devcap=DEVCAP, lnksta=0x1011, fl=0, fl2=0, l1cap=0,
        l1ctl=0, vanish=0, ari_next=0, htype=0, ptype=0, corrupt=()):
    r = bytearray(REC)
    r[0] = bus
    r[1] = (dev << 3 | fn) & 0xff
    r[2] = kind
    r[3] = seg | htype << 1 | ptype << 4
    r[4], r[5], r[6] = pri, sec, sub
    struct.pack_into('<IHIH', r, 7, lnkcap, lnkctl, devcap, lnksta)
    r[19], r[20] = fl, fl2
    struct.pack_into('<IIBB', r, 21, l1cap, l1ctl, vanish, ari_next)
    for k, (off, width, val) in enumerate(corrupt):
        c = 31 + 6 * k
        r[c] = off & 0xff
        r[c + 1] = 0x80 | (off >> 8) | {1: 0, 2: 1, 4: 2}[width] << 4
        struct.pack_into('<I', r, c + 2, val)
    return bytes(r)


def region(base_sel, seg, start, end, shift=0):
    return bytes([base_sel, seg | shift << 1, start, end])


def hdr(cmd, policy=AUTO, flags=0, opts=0, iapc=0, remove=0, boot=0,
        regions=(region(0x0e, 0, 0, 0xff),), roots=(), fadt=0):
    """roots: (segment, bus, declared by firmware)"""
    h = bytearray(HDR)
    h[0] = cmd | flags | policy << 5
    h[1] = opts | len(roots) << 6
    h[2], h[3] = iapc, remove
    h[4] = (len(regions) - 1) | boot
    for i, g in enumerate(regions):
        h[5 + 4 * i:9 + 4 * i] = g
    for i, (seg, bus, fw) in enumerate(roots):
        h[17 + 2 * i], h[18 + 2 * i] = seg | (2 if fw else 0), bus
    h[23] = fadt
    return bytes(h)


def pcie_seeds():
    # L1SS (all four enables) on both ends, LTR on the path: L1.2 allowed
    simple = (rec(RP, 0, 0x1c, sec=1, sub=1, fl=L1SS | LTR, l1cap=L1SS_CAP,
                  l1ctl=L1SS_ON, lnkctl=0x0142) +
              rec(EP, 1, 0, lnkctl=0x0142, fl=L1SS | LTR, l1cap=L1SS_CAP,
                  l1ctl=L1SS_ON))
    switch = (rec(RP, 0, 1, sec=1, sub=4) + rec(USP, 1, 0, pri=1, sec=2, sub=4) +
              rec(DSP, 2, 0, pri=2, sec=3, sub=3) +
              rec(DSP, 2, 1, pri=2, sec=4, sub=4, fl2=HOTPLUG) +
              rec(EP, 3, 0, fl=MULTI) + rec(EP, 3, 0, fn=1, lnkcap=0x0c11) +
              rec(EP, 4, 0, devcap=0x0000))
    legacy = (rec(RP, 0, 2, sec=5, sub=6) + rec(BRG, 5, 0, pri=5, sec=6, sub=6) +
              rec(PCI, 6, 1) + rec(RP, 0, 3, sec=7, sub=7) + rec(PCI, 7, 0))
    # ARI Forwarding on the Root Port; functions 0, 2 and 9 of device 0
    # chained by ARI Next Function Numbers, L1SS on both ends
    ari = (rec(RP, 0, 1, sec=1, sub=1, fl=L1SS | LTR, fl2=ARI, l1cap=L1SS_CAP,
               l1ctl=0x0c) +
           rec(EP, 1, 0, fl=MULTI | L1SS | LTR, fl2=ARI, ari_next=2,
               l1cap=L1SS_CAP, l1ctl=0x0c) +
           rec(EP, 1, 0, fn=2, fl=L1SS, fl2=ARI, ari_next=9, l1cap=L1SS_CAP) +
           rec(EP, 1, 1, fn=1, fl2=ARI | 0x04))
    # segment 0 buses 0x00-0x3f and segment 1 buses 0x40-0x7f (a second
    # MCFG table), and a pxb-like extra root bus 0x20 on segment 0
    multi = (rec(RP, 0, 1, sec=1, sub=1) + rec(EP, 1, 0, fl=L1SS,
                                               l1cap=L1SS_CAP) +
             rec(RP, 0x20, 0, pri=0x20, sec=0x21, sub=0x21) + rec(EP, 0x21, 0) +
             rec(RP, 0x40, 0, seg=1, pri=0x40, sec=0x41, sub=0x42) +
             rec(EP, 0x41, 0, seg=1, fl=MULTI) + rec(EP, 0x41, 0, fn=3, seg=1))
    multi_regions = (region(0x0e, 0, 0, 0x3f), region(0x0f, 1, 0x40, 0x7f))
    # zero base, a reversed range, an overlap in segment 0 and segment 1
    # aliasing segment 0's addresses 1 MiB up
    bad_regions = (region(0x0e, 0, 0, 0x1f), region(0x0e, 1, 0x00, 0x0f, shift=1),
                   region(0x00, 0, 0x10, 0x30))
    reversed_regions = (region(0x0e, 0, 0x08, 0x01), region(0xff, 0, 0x00, 0x7f),
                        region(0x0d, 1, 0x00, 0x07))
    # capability lists that loop and point into the header, an extended
    # capability that loops on itself, a bridge whose subordinate bus is
    # below its secondary, Link Disable set by firmware, an unknown port
    # type, a function that vanishes and one that never leaves CRS
    broken = (rec(RP, 0, 1, sec=1, sub=1, lnkctl=0x0012) +
              rec(EP, 1, 0, fl=L1SS, l1cap=L1SS_CAP, l1ctl=L1SS_ON,
                  corrupt=((0x102, 2, 0x1001),)) +
              rec(RP, 0, 2, sec=3, sub=2) +
              rec(EXP, 0, 3, htype=1, ptype=0xc, corrupt=((0x19, 1, 4), (0x1a, 1, 4))) +
              rec(EP, 0, 4, corrupt=((0x41, 1, 0x40),)) +
              rec(EP, 0, 5, corrupt=((0x34, 1, 0x20),)) +
              rec(EP, 0, 6, fl=0x40, vanish=9) +
              rec(PCI, 0, 7, fl=0x30) +
              rec(PCI, 0, 8, fl=0x80))
    seeds = {}
    for name, body, variants in (
            ('simple', simple, [
                ('report', hdr(REPORT, flags=OSC, opts=VERBOSE)),
                ('plan', hdr(PLAN, flags=OSC)),
                ('apply-keep', hdr(APPLY, flags=OSC)),
                ('apply-clear', hdr(APPLY, CLEAR)),
                ('apply-force', hdr(APPLY, FORCE)),
                ('apply-fadt', hdr(APPLY, flags=OSC, iapc=IAPC_NO_ASPM)),
                ('apply-notouch', hdr(APPLY, NOTOUCH)),
                ('remove-apply', hdr(REMOVE, flags=OSC, opts=REMOVE_APPLY,
                                     remove=1)),
                ('dump', hdr(DUMP)),
                ('boot-emulate-set', hdr(BOOT, flags=OSC, boot=NEXT,
                                         fadt=EMULATE_SET)),
                ('boot-entry', hdr(NO_CMD, flags=OSC, boot=BOOT_ENTRY | NEXT,
                                   iapc=IAPC_NO_ASPM)),
                ('boot-bad-conf', hdr(BOOT, FORCE, boot=NEXT | CONF_BAD |
                                      CHAIN_FAILS)),
                ('fadt-set', hdr(FADT, fadt=FADT_SET)),
            ]),
            ('switch', switch, [
                ('apply-force', hdr(APPLY, FORCE, opts=FADT_276)),
                ('apply-clear', hdr(APPLY, CLEAR, opts=FADT_132)),
                ('remove', hdr(REMOVE, KEEP, remove=1)),
                ('remove-apply', hdr(REMOVE, flags=OSC, opts=REMOVE_APPLY,
                                     remove=4)),
                ('boot', hdr(BOOT, flags=OSC, boot=NEXT | WRITE_FAILS,
                             fadt=EMULATE_CLEAR, iapc=IAPC_NO_ASPM)),
            ]),
            ('legacy', legacy, [
                ('apply-keep', hdr(APPLY, flags=OSC, opts=FADT_NONE)),
                ('plan-fadt-notouch', hdr(PLAN, flags=OSC | FADT_NOTOUCH,
                                          iapc=IAPC_NO_ASPM)),
            ]),
            ('ari', ari, [
                ('apply-force', hdr(APPLY, FORCE)),
                ('apply-clear', hdr(APPLY, CLEAR)),
                ('report', hdr(REPORT, opts=VERBOSE)),
            ]),
            ('multi', multi, [
                ('apply-keep', hdr(APPLY, flags=OSC, opts=TWO_MCFG,
                                   regions=multi_regions,
                                   roots=((0, 0x20, True),))),
                ('apply-force-full', hdr(APPLY, FORCE, opts=FULL_SCAN,
                                         regions=multi_regions)),
                ('dump', hdr(DUMP, opts=FULL_SCAN, regions=multi_regions,
                             roots=((0, 0x20, False),))),
                ('bad-regions', hdr(APPLY, FORCE, opts=TWO_MCFG,
                                    regions=bad_regions,
                                    roots=((1, 0x41, False), (0, 0x20, True),
                                           (1, 0, False)))),
                ('reversed', hdr(APPLY, CLEAR, opts=FULL_SCAN,
                                 regions=reversed_regions)),
            ]),
            ('broken', broken, [
                ('apply-force', hdr(APPLY, FORCE)),
                ('apply-clear-full', hdr(APPLY, CLEAR, opts=FULL_SCAN)),
                ('dump', hdr(DUMP)),
                ('boot', hdr(BOOT, flags=OSC, boot=NEXT)),
            ])):
        for v, h in variants:
            seeds['%s-%s' % (name, v)] = h + body
    return seeds


def write_dir(path, seeds):
    if os.path.isdir(path):
        shutil.rmtree(path)
    os.makedirs(path)
    for name, data in sorted(seeds.items()):
        assert len(data) < 8192, name
        with open(os.path.join(path, name), 'wb') as f:
            f.write(data)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'corpus')
    write_dir(os.path.join(out, 'acpi'), acpi_seeds())
    write_dir(os.path.join(out, 'pcie'), pcie_seeds())


if __name__ == '__main__':
    main()
