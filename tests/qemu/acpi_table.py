#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One complete ACPI table (header, checksum) on stdout, for QEMU's
-acpitable in tests/qemu/hostile.sh:

    tests/qemu/acpi_table.py mcfg BASE START END   an MCFG with one region
    tests/qemu/acpi_table.py fadt LENGTH           a FADT with IAPC_BOOT_ARCH
                                                   bit 4 (no ASPM) when it has it
    tests/qemu/acpi_table.py mcfg-odd              an MCFG of 59 bytes
    tests/qemu/acpi_table.py badsum                a table with a bad checksum
"""
import struct, sys
kind, args = sys.argv[1], [int(a, 0) for a in sys.argv[2:]]

def hdr(sig, length, rev):
    t = bytearray(length)
    t[0:4] = sig
    struct.pack_into('<IB', t, 4, length, rev)
    t[10:16] = b'ASPMCT'
    t[16:24] = b'HOSTILE '
    return t

def fix(t):
    t[9] = 0
    t[9] = (-sum(t)) & 0xff

if kind == 'mcfg':
    t = hdr(b'MCFG', 60, 1)
    struct.pack_into('<QHBB', t, 44, args[0], 0, args[1], args[2])
    fix(t)
elif kind == 'fadt':
    n = args[0]
    t = hdr(b'FACP', n, 6 if n >= 244 else 1)
    if n >= 111:
        struct.pack_into('<H', t, 109, 0x10)    # IAPC_BOOT_ARCH: no ASPM
    fix(t)
elif kind == 'mcfg-odd':
    t = hdr(b'MCFG', 59, 1)
    struct.pack_into('<QHBB', t, 44, 0xe0000000, 0, 0, 0xff)
    fix(t)
elif kind == 'badsum':
    t = hdr(b'OEMB', 64, 1)
    fix(t)
    t[9] = (t[9] + 1) & 0xff
sys.stdout.buffer.write(bytes(t))
