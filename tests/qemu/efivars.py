# SPDX-License-Identifier: GPL-2.0-only
"""Boot entries in a copy of an OVMF variable store, as efibootmgr makes them.

    efivars.py VARS_IN VARS_OUT --disk IMG --entry 'NUM|LABEL|PATH[|OPTIONS[|u]]'...

Each --entry becomes Boot#### (hex NUM): LOAD_OPTION_ACTIVE, the label, the
device path efibootmgr --create --disk IMG --part 1 --loader PATH writes
(HD(1,GPT,<partition GUID>,start,size)/File(PATH)/End, UEFI 2.10 sec
10.3.5.1 and 10.3.5.4), and OPTIONS as 8-bit bytes (efibootmgr without
-u), or as UCS-2 with a final 'u' field (efibootmgr -u, as a Linux EFI stub
needs its command line). BootOrder becomes the entries in the order given. --mok-cert puts a
certificate in shim's MokList, as mokutil --import and MokManager would. A variable replaced
is marked deleted and the new one appended, as the firmware's own variable
driver does (edk2 MdeModulePkg/Universal/Variable, authenticated store of
OvmfPkg: VARIABLE_HEADER of AuthenticatedVariableFormat.h).
"""
import argparse
import struct
import sys
import uuid

GLOBAL = uuid.UUID('8be4df61-93ca-11d2-aa0d-00e098032b8c')
SHIM_LOCK = uuid.UUID('605dab50-e046-4300-abb6-3dd810dd8b23')
CERT_X509 = uuid.UUID('a5c059a1-94e4-4aa7-87b5-ab155c2bf072')
ATTR_NV_BS = 0x3
AUTH_STORE = uuid.UUID('aaf32c78-947b-439a-a180-2e144ec37792')
START_ID = 0x55AA
VAR_ADDED = 0x3F
VAR_DELETED_MASK = 0xFC        # VAR_IN_DELETED_TRANSITION & VAR_DELETED
ATTR_NV_BS_RT = 0x7
HDR = struct.Struct('<HBBIQ16sIII16s')      # 60 bytes


def gpt_partition(img, num):
    """(partition GUID bytes, first LBA, LBA count) of GPT partition num."""
    with open(img, 'rb') as f:
        f.seek(512)
        h = f.read(92)
        if h[:8] != b'EFI PART':
            sys.exit(f'efivars: {img}: no GPT header')
        lba, count, size = struct.unpack_from('<QII', h, 72)
        if not 1 <= num <= count:
            sys.exit(f'efivars: {img}: no partition {num}')
        f.seek(lba * 512 + (num - 1) * size)
        e = f.read(size)
    first, last = struct.unpack_from('<QQ', e, 32)
    if e[:16] == bytes(16):
        sys.exit(f'efivars: {img}: partition {num} is unused')
    return e[16:32], first, last - first + 1


def device_path(part, path):
    guid, first, count = part
    hd = struct.pack('<BBHIQQ16sBB', 4, 1, 42, 1, first, count, guid, 2, 2)
    name = (path + '\0').encode('utf-16-le')
    fp = struct.pack('<BBH', 4, 4, 4 + len(name)) + name
    return hd + fp + struct.pack('<BBH', 0x7F, 0xFF, 4)


def load_option(label, dp, options, ucs2):
    opt = (options + '\0').encode('utf-16-le') if ucs2 else options.encode('latin-1')
    return (struct.pack('<IH', 1, len(dp)) + (label + '\0').encode('utf-16-le') +
            dp + (opt if options else b''))


def store_bounds(d):
    """Offset of the first variable and of the store's end."""
    fv_hdr = struct.unpack_from('<H', d, 0x30)[0]
    if d[0x28:0x2C] != b'_FVH' or uuid.UUID(bytes_le=bytes(d[fv_hdr:fv_hdr + 16])) != AUTH_STORE:
        sys.exit('efivars: not an OVMF authenticated variable store')
    size = struct.unpack_from('<I', d, fv_hdr + 16)[0]
    return fv_hdr + 28, fv_hdr + size


def variables(d, off, end):
    """(offset, state, name, guid) of each variable; the offset after them."""
    out = []
    while off + HDR.size <= end:
        f = HDR.unpack_from(d, off)
        if f[0] != START_ID:
            break
        ns, ds = f[7], f[8]
        name = d[off + HDR.size:off + HDR.size + ns].decode('utf-16-le').rstrip('\0')
        out.append((off, f[1], name, uuid.UUID(bytes_le=bytes(f[9]))))
        off = (off + HDR.size + ns + ds + 3) & ~3
    return out, off


def mok_list(der):
    """MokList with one X.509 certificate: an EFI_SIGNATURE_LIST (UEFI 2.10
    chapter 32, the signature database) of EFI_CERT_X509_GUID, owner
    shim's GUID."""
    data = SHIM_LOCK.bytes_le + der
    return CERT_X509.bytes_le + struct.pack('<III', 28 + len(data), 0, len(data)) + data


def set_variable(d, free, end, name, data, guid=GLOBAL, attrs=ATTR_NV_BS_RT):
    """Delete the live name in that namespace, append the new one."""
    first, _ = store_bounds(d)
    for off, state, n, g in variables(d, first, end)[0]:
        if n == name and g == guid and state == VAR_ADDED:
            d[off + 2] = state & VAR_DELETED_MASK
    nm = (name + '\0').encode('utf-16-le')
    rec = HDR.pack(START_ID, VAR_ADDED, 0, attrs, 0, bytes(16), 0,
                   len(nm), len(data), guid.bytes_le) + nm + data
    if free + len(rec) > end or d[free:free + len(rec)] != b'\xff' * len(rec):
        sys.exit('efivars: no free space in the variable store')
    d[free:free + len(rec)] = rec
    return (free + len(rec) + 3) & ~3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('vars_in')
    ap.add_argument('vars_out')
    ap.add_argument('--disk', required=True, help='GPT image, partition 1 holds the files')
    ap.add_argument('--entry', action='append', required=True,
                    help="'NUM|LABEL|PATH[|OPTIONS[|u]]', NUM in hex, u: UCS-2 options")
    ap.add_argument('--mok-cert', help="DER certificate: shim's MokList holds it "
                    "(boot-service only, as MokManager leaves it after an enrolment)")
    a = ap.parse_args()
    d = bytearray(open(a.vars_in, 'rb').read())
    first, end = store_bounds(d)
    _, free = variables(d, first, end)
    part = gpt_partition(a.disk, 1)
    order = []
    for e in a.entry:
        f = e.split('|', 4)
        if len(f) < 3 or (len(f) == 5 and f[4] != 'u'):
            sys.exit(f'efivars: bad entry {e!r}')
        num = int(f[0], 16)
        opt = load_option(f[1], device_path(part, f[2]), f[3] if len(f) > 3 else '',
                          len(f) == 5)
        free = set_variable(d, free, end, f'Boot{num:04X}', opt)
        order.append(num)
    free = set_variable(d, free, end, 'BootOrder', struct.pack(f'<{len(order)}H', *order))
    if a.mok_cert:
        der = open(a.mok_cert, 'rb').read()
        free = set_variable(d, free, end, 'MokList', mok_list(der), SHIM_LOCK, ATTR_NV_BS)
    open(a.vars_out, 'wb').write(d)


if __name__ == '__main__':
    main()
