#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the small seed corpora of the fuzz targets (tests/fuzz/corpus/).

acpi: q35-like memory images (RSDP 2.0 -> XSDT + RSDT -> FADT, MCFG), with
FADTs of several lengths. pcie: hierarchies in fuzz_pcie.c's record format
(root ports, a switch, multi-function endpoints, L1SS, a PCIe-to-PCI bridge),
each followed by an action byte.
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = 0x100000


def csum_fix(t, off):
    t[off] = 0
    t[off] = (-sum(t)) & 0xff


def header(sig, length, rev):
    h = bytearray(length)
    h[0:4] = sig
    struct.pack_into('<IB', h, 4, length, rev)
    h[10:16] = b'ASPMCT'
    return h


def acpi_image(fadt_len, iapc, xsdt=True):
    img = bytearray(0xa00)
    rsdp_off, xsdt_off, rsdt_off, fadt_off, mcfg_off = 0, 0x100, 0x200, 0x400, 0x800
    fadt = header(b'FACP', fadt_len, 3 if fadt_len >= 244 else 1)
    if fadt_len >= 111:
        struct.pack_into('<H', fadt, 109, iapc)
    csum_fix(fadt, 9)
    mcfg = header(b'MCFG', 60, 1)
    struct.pack_into('<QHBB', mcfg, 44, 0xb0000000, 0, 0, 0xff)
    csum_fix(mcfg, 9)
    x = header(b'XSDT', 36 + 16, 1)
    struct.pack_into('<QQ', x, 36, BASE + fadt_off, BASE + mcfg_off)
    csum_fix(x, 9)
    r = header(b'RSDT', 36 + 8, 1)
    struct.pack_into('<II', r, 36, BASE + fadt_off, BASE + mcfg_off)
    csum_fix(r, 9)
    rsdp = bytearray(36)
    rsdp[0:8] = b'RSD PTR '
    rsdp[9:15] = b'ASPMCT'
    rsdp[15] = 2 if xsdt else 0
    struct.pack_into('<IIQ', rsdp, 16, BASE + rsdt_off, 36, BASE + xsdt_off if xsdt else 0)
    rsdp[8] = (-sum(rsdp[:20])) & 0xff
    rsdp[32] = (-sum(rsdp)) & 0xff
    for off, t in ((rsdp_off, rsdp if xsdt else rsdp[:20]), (xsdt_off, x),
                   (rsdt_off, r), (fadt_off, fadt), (mcfg_off, mcfg)):
        img[off:off + len(t)] = t
    return struct.pack('<I', rsdp_off) + bytes(img)


REC = 48


def rec(kind, bus, dev, fn=0, pri=0, sec=0, sub=0, lnkcap=0x3c11 | 0x0c00,
        lnkctl=0, devcap=0x8000 | (3 << 6) | (3 << 9), lnksta=0x1011, flags=0,
        l1cap=0, l1ctl=0, extra=0):
    r = bytearray(REC)
    r[0] = bus
    r[1] = dev | (fn << 5)
    r[2] = kind
    r[3], r[4], r[5] = pri, sec, sub
    struct.pack_into('<IH', r, 6, lnkcap, lnkctl)
    struct.pack_into('<IHB', r, 12, devcap, lnksta, flags)
    struct.pack_into('<IIB', r, 19, l1cap, l1ctl, extra)
    return bytes(r)


def pcie_seeds():
    ep, rp, usp, dsp, pci, brg = 0, 1, 2, 3, 4, 5
    simple = rec(rp, 0, 1, sec=1, sub=1) + rec(ep, 1, 0, lnkctl=0x0142, flags=0x06,
                                               l1cap=0x1f, l1ctl=0x0f)
    switch = (rec(rp, 0, 1, sec=1, sub=4) + rec(usp, 1, 0, pri=1, sec=2, sub=4) +
              rec(dsp, 2, 0, pri=2, sec=3, sub=3) + rec(dsp, 2, 1, pri=2, sec=4, sub=4) +
              rec(ep, 3, 0, flags=0x01) + rec(ep, 3, 0, fn=1, lnkcap=0x0c11) +
              rec(ep, 4, 0, devcap=0x0000))
    legacy = (rec(rp, 0, 2, sec=5, sub=6) + rec(brg, 5, 0, pri=5, sec=6, sub=6) +
              rec(pci, 6, 1) + rec(rp, 0, 3, sec=7, sub=7) + rec(pci, 7, 0))
    return {'simple': simple, 'switch': switch, 'legacy': legacy}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'corpus')
    for d in ('acpi', 'pcie'):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    for n, (ln, iapc, xs) in enumerate([(244, 0x12, True), (276, 0x02, True),
                                        (132, 0x10, False), (116, 0, False)]):
        with open(os.path.join(out, 'acpi', 'q35-%d-%d' % (n, ln)), 'wb') as f:
            f.write(acpi_image(ln, iapc, xs))
    for name, body in pcie_seeds().items():
        for action in (0x00, 0x0a, 0x31, 0x72, 0x93, 0xd4):
            with open(os.path.join(out, 'pcie', '%s-%02x' % (name, action)), 'wb') as f:
                f.write(body + bytes([action]))


if __name__ == '__main__':
    main()
