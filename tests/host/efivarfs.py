#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A directory laid out as efivarfs (NAME-GUID files: 4 bytes of attributes,
then the data), for tests/host/test-install.sh.

  efivarfs.py make DIR [--secure-boot]   BootCurrent=0001, Boot0000 (a
        firmware entry, no file path), Boot0001 (HD + \\EFI\\debian\\shimx64.efi),
        BootOrder 0001,0000
  efivarfs.py show DIR                   one line per Boot#### (number,
        attributes, description, HD node in hex, file path, and opt= its
        OptionalData as UCS-2 when it has some) and BootOrder
  efivarfs.py config FILE LNKCTL [SIZE]  a function's config space as sysfs
        gives it (SIZE bytes, default 4096): a PCI Express capability at 0x40
        whose Link Control is LNKCTL (hex)
"""
import os
import struct
import sys

GLOBAL = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
# a Hard Drive node (UEFI 2.10 sec 10.3.5.1): partition 1, start, size,
# GPT signature, MBR type 2 (GPT), signature type 2 (GUID)
HD = (bytes([4, 1]) + struct.pack("<H", 42) + struct.pack("<IQQ", 1, 2048, 409600)
      + bytes(range(16)) + bytes([2, 2]))


def ucs2(s):
    return s.encode("utf-16-le") + b"\0\0"


def node(t, st, body):
    return bytes([t, st]) + struct.pack("<H", 4 + len(body)) + body


def load_option(desc, path_nodes, attrs=1, opt=b""):
    fpl = path_nodes + bytes([0x7f, 0xff, 4, 0])
    return struct.pack("<IH", attrs, len(fpl)) + ucs2(desc) + fpl + opt


def put(d, name, data, attrs=7, guid=GLOBAL):
    with open(os.path.join(d, "%s-%s" % (name, guid)), "wb") as f:
        f.write(struct.pack("<I", attrs) + data)


def make(d, secure_boot):
    os.makedirs(d, exist_ok=True)
    put(d, "BootCurrent", struct.pack("<H", 1), 6)
    # a firmware entry: a PCI device path, no file (the UEFI Shell, PXE)
    put(d, "Boot0000", load_option("UEFI PXEv4", node(1, 1, bytes([0, 3]))))
    put(d, "Boot0001", load_option("debian", HD + node(4, 4, ucs2("\\EFI\\debian\\shimx64.efi"))))
    put(d, "BootOrder", struct.pack("<HH", 1, 0))
    if secure_boot:
        put(d, "SecureBoot", b"\1", 6)


def parse(data):
    attrs, fl = struct.unpack_from("<IH", data)
    i = 6
    while data[i:i + 2] != b"\0\0":
        i += 2
    desc = data[6:i].decode("utf-16-le")
    p, end, hd, path = i + 2, i + 2 + fl, "-", "-"
    while p + 4 <= end:
        t, st, ln = data[p], data[p + 1], struct.unpack_from("<H", data, p + 2)[0]
        if t == 0x7f or ln < 4:
            break
        if (t, st) == (4, 1):
            hd = data[p:p + ln].hex()
        elif (t, st) == (4, 4):
            path = data[p + 4:p + ln].decode("utf-16-le").rstrip("\0")
        p += ln
    opt = data[end:].decode("utf-16-le", "replace").rstrip("\0") if len(data) > end else ""
    return attrs, desc, hd, path, opt


def show(d):
    for f in sorted(os.listdir(d)):
        name = f[:-len(GLOBAL) - 1]
        if not f.endswith(GLOBAL):
            continue
        data = open(os.path.join(d, f), "rb").read()[4:]
        if name.startswith("Boot") and len(name) == 8 and name[4:] != "Next":
            attrs, desc, hd, path, opt = parse(data)
            print("%s attrs=%x desc=%s hd=%s path=%s%s" % (name, attrs, desc, hd, path,
                                                          " opt=" + opt if opt else ""))
        elif name == "BootOrder":
            print("BootOrder " + ",".join("%04X" % v for v in
                                          struct.unpack("<%dH" % (len(data) // 2), data)))


def config(path, lnkctl, size):
    c = bytearray(4096)
    struct.pack_into("<HHH", c, 0, 0x1b36, 0x000c, 0)
    c[6] = 0x10                      # Status: Capabilities List
    c[0x34] = 0x40                   # Capabilities Pointer
    c[0x40], c[0x41] = 0x10, 0       # PCI Express, last
    struct.pack_into("<H", c, 0x42, 0x0042)    # version 2, Root Port
    struct.pack_into("<H", c, 0x50, lnkctl)    # Link Control
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(bytes(c[:size]))


if __name__ == "__main__":
    if len(sys.argv) in (4, 5) and sys.argv[1] == "config":
        config(sys.argv[2], int(sys.argv[3], 16), int(sys.argv[4]) if len(sys.argv) == 5 else 4096)
    elif len(sys.argv) >= 3 and sys.argv[1] == "make":
        make(sys.argv[2], "--secure-boot" in sys.argv[3:])
    elif len(sys.argv) == 3 and sys.argv[1] == "show":
        show(sys.argv[2])
    else:
        sys.exit(__doc__)
