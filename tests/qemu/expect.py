#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What a QEMU q35 + OVMF machine holds, from its topology file alone.

    tests/qemu/expect.py TOPO                 fn/link lines (default)
    tests/qemu/expect.py --json TOPO          the same as JSON
    tests/qemu/expect.py --nsh TOPO           a UEFI Shell script that lists
                                              and dumps every expected function
    tests/qemu/expect.py --check-shell SERIAL_LOG TOPO
                                              compare that script's output with
                                              the expectation (exit 1 on any
                                              difference)
    tests/qemu/expect.py --check-app SERIAL_LOG TOPO
                                              one ok/FAIL line per check of
                                              aspmctl's fn and aspm link
                                              records (used by smoke.sh)

The expectation is derived independently of aspmctl: from QEMU's device
models (IDs, class codes and PCI Express port types read from QEMU 7.2's
source, see MODELS below) and from how OVMF's PciBusDxe numbers buses (depth
first, in device/function order, one bus per bridge, plus the bus-reserve
padding of hot-plug ports; every pxb-pcie root bus starts at its bus_nr).

Output lines (fields in the order of docs/records.md):

    fn 0000:01:00.0 id=8086:10d3 class=020000 type=endpoint parent=0000:00:02.0 depth=1 model=e1000e qid=nic1
    link up=0000:00:02.0 down=0000:01:00.0 nfn=1

A link is a Root Port or Switch Downstream Port (or a PCI-to-PCIe bridge) with
at least one function on its secondary bus; `down` is the first function
there, `nfn` the number of functions there.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import records  # noqa: E402
import testlib  # noqa: E402

# ---------------------------------------------------------------- models
# kind:
#   root-port, upstream-port, downstream-port   PCIe ports (type 1 header)
#   pcie-pci-bridge                             PCIe-to-PCI bridge (type 8)
#   pci-bridge                                  conventional PCI-PCI bridge
#   pxb                                         pxb-pcie: a host bridge function
#                                               on its bus + a new root bus
#   express                                     always has a PCIe capability
#                                               (endpoint, or RC integrated
#                                               endpoint on a root bus)
#   hybrid                                      PCIe capability only on a PCIe
#                                               bus (qemu-xhci)
#   conventional                                never a PCIe capability
#   virtio                                      see virtio_fn()
# Sources (QEMU 7.2): hw/pci-bridge/gen_pcie_root_port.c, ioh3420.c,
# xio3130_upstream.c, xio3130_downstream.c, pcie_pci_bridge.c,
# pci_bridge_dev.c, pci_expander_bridge.c, hw/net/e1000e.c, e1000.c,
# rtl8139.c, hw/nvme/ctrl.c, hw/misc/pci-testdev.c, hw/char/serial-pci.c,
# hw/watchdog/wdt_i6300esb.c, hw/usb/hcd-xhci-pci.c, include/hw/pci/pci_ids.h;
# PCIe port/endpoint types from hw/pci/pcie.c (pcie_endpoint_cap_init:
# RC_END on a root bus) and hw/virtio/virtio-pci.c.
MODELS = {
    'pcie-root-port':     ('1b36', '000c', '060400', 'root-port'),
    'ioh3420':            ('8086', '3420', '060400', 'root-port'),
    'x3130-upstream':     ('104c', '8232', '060400', 'upstream-port'),
    'xio3130-downstream': ('104c', '8233', '060400', 'downstream-port'),
    'pcie-pci-bridge':    ('1b36', '000e', '060400', 'pcie-pci-bridge'),
    'pci-bridge':         ('1b36', '0001', '060400', 'pci-bridge'),
    'pxb-pcie':           ('1b36', '000b', '060000', 'pxb'),
    'e1000e':             ('8086', '10d3', '020000', 'express'),
    'nvme':               ('1b36', '0010', '010802', 'express'),
    'qemu-xhci':          ('1b36', '000d', '0c0330', 'hybrid'),
    'e1000':              ('8086', '100e', '020000', 'conventional'),
    'rtl8139':            ('10ec', '8139', '020000', 'conventional'),
    'pci-testdev':        ('1b36', '0005', '00ff00', 'conventional'),
    'pci-serial':         ('1b36', '0002', '070002', 'conventional'),
    'i6300esb':           ('8086', '25ab', '088000', 'conventional'),
}
# virtio: device type id (modern device id = 0x1040 + id), transitional
# (legacy) device id or None for modern-only models, class code.
VIRTIO = {
    'net':      (1, '1000', '020000'),
    'blk':      (2, '1001', '010000'),
    'serial':   (3, '1003', '078000'),
    'rng':      (4, '1005', '00ff00'),
    'balloon':  (5, '1002', '00ff00'),
    'scsi':     (8, '1004', '010000'),
    'gpu':      (16, None, '038000'),
    'keyboard': (18, None, '098000'),
    'mouse':    (18, None, '098000'),
    'tablet':   (18, None, '098000'),
}
VIRTIO_RE = re.compile(r'^virtio-([a-z]+)-pci(-transitional|-non-transitional)?$')
PORT_KINDS = ('root-port', 'downstream-port')
BRIDGE_KINDS = ('root-port', 'upstream-port', 'downstream-port',
                'pcie-pci-bridge', 'pci-bridge')
# Built into q35 whatever the command line (-nodefaults removes the VGA).
Q35_BUILTIN = [
    # addr, model, id, class, multifunction
    ((0x00, 0), 'mch', '8086:29c0', '060000', False),
    ((0x1f, 0), 'ICH9-LPC', '8086:2918', '060100', True),
    ((0x1f, 2), 'ich9-ahci', '8086:2922', '010601', False),
    ((0x1f, 3), 'ICH9-SMB', '8086:2930', '0c0500', False),
]


class TopoError(Exception):
    pass


class Bus:
    def __init__(self, name, express, root, number=None, kind=None):
        self.name = name
        self.express = express
        self.root = root
        self.number = number          # fixed for root buses
        self.kind = kind              # kind of the bridge that owns it
        self.slots = {}               # devfn -> Dev


class Dev:
    def __init__(self, model, props, lineno):
        self.model = model
        self.props = props
        self.lineno = lineno
        self.qid = props.get('id')
        self.bus = None
        self.devfn = None
        self.vendor_device = None
        self.cls = None
        self.kind = None
        self.multifunction = props.get('multifunction', 'off') in ('on', 'true', 'yes')
        self.secondary = None          # Bus behind a bridge
        self.new_root = None           # Bus created by pxb-pcie


def split_props(text):
    """QEMU option syntax: comma separated, ',,' is a literal comma."""
    parts, cur, i = [], '', 0
    while i < len(text):
        c = text[i]
        if c == ',':
            if i + 1 < len(text) and text[i + 1] == ',':
                cur += ','
                i += 2
                continue
            parts.append(cur)
            cur = ''
        else:
            cur += c
        i += 1
    parts.append(cur)
    return parts


def parse_addr(s, where):
    m = re.match(r'^(?:0x)?([0-9a-fA-F]+)(?:\.(?:0x)?([0-7]))?$', s)
    if not m:
        raise TopoError(f'{where}: bad addr={s}')
    slot = int(m.group(1), 16)
    fn = int(m.group(2) or '0', 16)
    if slot > 31:
        raise TopoError(f'{where}: slot {slot:#x} > 0x1f')
    return slot * 8 + fn


def read_topology(path):
    """Return (machine options, [Dev]) from a .topo file."""
    machine, devs = [], []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            kw, _, rest = line.partition(' ')
            rest = rest.strip()
            if kw == 'machine':
                machine += [p for p in split_props(rest) if p]
            elif kw == 'acpitable':
                pass    # an SSDT: firmware tables, no PCI function
            elif kw == 'device':
                parts = split_props(rest)
                model, props = parts[0], {}
                for p in parts[1:]:
                    k, eq, v = p.partition('=')
                    props[k] = v if eq else 'on'
                devs.append(Dev(model, props, f'{path}:{n}'))
            else:
                raise TopoError(f'{path}:{n}: unknown keyword {kw!r}')
    return machine, devs


def virtio_fn(dev, bus):
    m = VIRTIO_RE.match(dev.model)
    vid, legacy_id, cls = VIRTIO[m.group(1)]
    variant = m.group(2) or ''
    pcie_port = bus.express and not bus.root
    if legacy_id is None or variant == '-non-transitional':
        legacy = False
    elif variant == '-transitional':
        legacy = True
    else:
        dl = dev.props.get('disable-legacy', 'auto')
        legacy = (not pcie_port) if dl == 'auto' else dl in ('off', 'false', 'no')
    modern = dev.props.get('disable-modern', 'off') in ('off', 'false', 'no')
    if not modern and not legacy:
        raise TopoError(f'{dev.lineno}: virtio device with neither legacy nor modern interface')
    devid = legacy_id if legacy else f'{0x1040 + vid:04x}'
    # virtio_pci_dc_realize: PCIe-capable when modern and not x-disable-pcie;
    # virtio_pci_realize adds the capability only on a non-root PCIe bus.
    express = (modern and pcie_port and
               dev.props.get('x-disable-pcie', 'off') in ('off', 'false', 'no'))
    return '1af4:' + devid, cls, ('endpoint' if express else 'pci')


def fn_type(dev, bus):
    k = dev.kind
    if k in ('root-port', 'upstream-port', 'downstream-port', 'pcie-pci-bridge'):
        return k
    if k == 'pci-bridge':
        return 'pci-bridge'
    if k == 'express' or (k == 'hybrid' and bus.express):
        return 'rc-endpoint' if bus.root and bus.express else 'endpoint'
    return 'pci'


def build(path):
    """Parse and place every device; return (root buses, all devs)."""
    machine, devs = read_topology(path)
    for opt in machine:
        if opt.split('=')[0] in ('sata', 'smbus') and opt.endswith(('off', 'false')):
            raise TopoError(f'{path}: machine {opt} not modelled')
    pcie0 = Bus('pcie.0', express=True, root=True, number=0)
    buses = {'pcie.0': pcie0}
    roots = [pcie0]
    for addr, model, vd, cls, mf in Q35_BUILTIN:
        d = Dev(model, {}, 'q35')
        d.vendor_device, d.cls, d.kind, d.multifunction = vd, cls, 'builtin', mf
        d.bus, d.devfn = pcie0, addr[0] * 8 + addr[1]
        pcie0.slots[d.devfn] = d

    # create the buses first, then place (QEMU needs bus= to exist earlier on
    # the command line, but ordering errors are QEMU's to report).
    for d in devs:
        if d.model in MODELS:
            v, dv, cls, kind = MODELS[d.model]
            d.vendor_device, d.cls, d.kind = f'{v}:{dv}', cls, kind
        elif VIRTIO_RE.match(d.model) and VIRTIO_RE.match(d.model).group(1) in VIRTIO:
            d.kind = 'virtio'
        else:
            raise TopoError(f'{d.lineno}: device model {d.model!r} not known to expect.py '
                            f'(add it to MODELS with its IDs from QEMU source)')
        name = d.qid
        if d.kind in BRIDGE_KINDS:
            express = d.kind in ('root-port', 'upstream-port', 'downstream-port')
            b = Bus(name or f'<{d.lineno}>', express=express, root=False, kind=d.kind)
            d.secondary = b
            if name:
                buses[name] = b
        elif d.kind == 'pxb':
            if 'bus_nr' not in d.props:
                raise TopoError(f'{d.lineno}: pxb-pcie needs bus_nr=')
            b = Bus(name or f'<{d.lineno}>', express=True, root=True,
                    number=int(d.props['bus_nr'], 0))
            d.new_root = b
            roots.append(b)
            if name:
                buses[name] = b
    for d in devs:
        bname = d.props.get('bus', 'pcie.0')
        if bname not in buses:
            raise TopoError(f'{d.lineno}: bus={bname} does not exist')
        bus = buses[bname]
        d.bus = bus
        if 'addr' in d.props:
            devfn = parse_addr(d.props['addr'], d.lineno)
        elif bus.kind in PORT_KINDS or bus.kind == 'upstream-port' or bus.root:
            devfn = next(df for df in range(0, 256, 8) if df not in bus.slots)
        else:
            raise TopoError(f'{d.lineno}: give addr= for devices behind a PCI bridge')
        if bus.kind in PORT_KINDS and devfn >= 8:
            raise TopoError(f'{d.lineno}: only slot 0 exists below a {bus.kind}')
        if devfn in bus.slots:
            raise TopoError(f'{d.lineno}: {bname} {devfn >> 3:02x}.{devfn & 7} already used')
        bus.slots[devfn] = d
        d.devfn = devfn
        if d.kind == 'virtio':
            d.vendor_device, d.cls, d.vtype = virtio_fn(d, bus)
    for b in list(buses.values()):
        for df, d in b.slots.items():
            if df & 7 and (df & ~7) in b.slots and not b.slots[df & ~7].multifunction:
                raise TopoError(f'{d.lineno}: function {df & 7} but function 0 of '
                                f'{b.name} slot {df >> 3:#x} lacks multifunction=on')
    roots.sort(key=lambda b: b.number)
    return roots, devs


def bus_padding(d):
    """Extra bus numbers OVMF reserves behind a hot-plug bridge.

    OvmfPkg/PciHotPlugInitDxe reads QEMU's resource-reservation capability
    (pcie-root-port and pci-bridge only); PciBusDxe then makes the
    subordinate bus max(secondary + bus-reserve, highest bus below)."""
    reserve = d.props.get('bus-reserve')
    if reserve is None or d.model not in ('pcie-root-port', 'pci-bridge'):
        return 0
    reserve = int(reserve, 0)
    if reserve in (0, 0xffffffff):
        return 0
    if d.model == 'pcie-root-port' and d.props.get('hotplug', 'on') in ('off', 'false', 'no'):
        return 0
    if d.model == 'pci-bridge' and d.props.get('shpc', 'on') in ('off', 'false', 'no'):
        return 0
    return reserve


def enumerate_(roots):
    """Simulate PciBusDxe's PciScanBus; return the function list in scan order."""
    fns = []
    limits = {}
    for i, r in enumerate(roots):
        limits[r.name] = (roots[i + 1].number - 1) if i + 1 < len(roots) else 255

    def scan(bus, busno, parent, depth, root):
        sub = busno
        for slot in range(32):
            f0 = bus.slots.get(slot * 8)
            if f0 is None:
                continue
            for fn in range(8 if f0.multifunction else 1):
                d = bus.slots.get(slot * 8 + fn)
                if d is None:
                    continue
                rec = {
                    'addr': f'0000:{busno:02x}:{slot:02x}.{fn}',
                    'id': d.vendor_device, 'class': d.cls,
                    'type': d.vtype if d.kind == 'virtio' else fn_type(d, bus),
                    'parent': parent, 'depth': depth,
                    'model': d.model, 'qid': d.qid or '-',
                }
                fns.append(rec)
                if d.secondary is not None:
                    sub += 1
                    sec = sub
                    if sec > limits[root.name]:
                        raise TopoError(f'{d.lineno}: bus {sec:#x} beyond the root bus range')
                    rec['bus'] = (busno, sec)
                    rec['children'] = []
                    start = len(fns)
                    sub = scan(d.secondary, sec, rec['addr'], depth + 1, root)
                    sub = max(sub, sec + bus_padding(d))
                    rec['bus'] = (busno, sec, sub)
                    rec['children'] = [x for x in fns[start:] if x['parent'] == rec['addr']]
        return sub

    for r in roots:
        scan(r, r.number, '-', 0, r)
    return fns


def links(fns):
    out = []
    for f in fns:
        if f['type'] in ('root-port', 'downstream-port', 'pci-pcie-bridge') and f.get('children'):
            kids = f['children']
            # QEMU's PCIe devices all advertise L0s only in Link Capabilities
            # (hw/pci/pcie.c, pcie_cap_fill_lnk()) and hold ASPM Control
            # read-only zero; a link with a conventional PCI function on it
            # has no common ASPM support (Linux and the app: support=none).
            pcie = all(x['type'] not in ('pci', 'pci-bridge') for x in [f] + kids)
            out.append({'up': f['addr'], 'down': kids[0]['addr'], 'nfn': len(kids),
                        'support': 'L0s' if pcie else 'none', 'bios': 'none'})
    return out


def expectation(path):
    roots, _ = build(path)
    fns = enumerate_(roots)
    return fns, links(fns)


def fmt_fn(f):
    s = (f"fn {f['addr']} id={f['id']} class={f['class']} type={f['type']} "
         f"parent={f['parent']} depth={f['depth']}")
    if 'bus' in f:
        s += ' bus=%02x:%02x-%02x' % f['bus']
    return s + f" model={f['model']} qid={f['qid']}"


# ---------------------------------------------------------------- Shell check
def shell_script(fns):
    lines = ['pci']
    for f in fns:
        _, b, df = f['addr'].split(':')
        d, fn = df.split('.')
        lines.append(f'pci {b} {d} {fn}')
    return '\r\n'.join(lines) + '\r\n'


LIST_RE = re.compile(r'^\s+([0-9A-F]{2})\s+([0-9A-F]{2})\s+([0-9A-F]{2})\s+([0-9A-F]{2}) ==>')
VEND_RE = re.compile(r'^\s+Vendor ([0-9A-F]{4}) Device ([0-9A-F]{4})')
DUMP_HDR_RE = re.compile(r'PCI Segment ([0-9A-F]{2}) Bus ([0-9A-F]{2}) Device ([0-9A-F]{2}) Func ([0-9A-F]{2})')
DUMP_RE = re.compile(r'^\s+([0-9A-F]{8}): ((?:[0-9A-F]{2}[ -]){15}[0-9A-F]{2})')


def parse_shell(log):
    """Return (listing {addr: id}, dumps {addr: bytearray(256)})."""
    listing, dumps = {}, {}
    cur = None
    last = None
    for line in log.splitlines():
        m = LIST_RE.match(line)
        if m:
            s, b, d, f = (int(x, 16) for x in m.groups())
            last = f'{s:04x}:{b:02x}:{d:02x}.{f}'
            continue
        m = VEND_RE.match(line)
        if m and last:
            listing[last] = f'{m.group(1)}:{m.group(2)}'.lower()
            last = None
            continue
        m = DUMP_HDR_RE.search(line)
        if m:
            s, b, d, f = (int(x, 16) for x in m.groups())
            cur = f'{s:04x}:{b:02x}:{d:02x}.{f}'
            dumps[cur] = bytearray(256)
            continue
        m = DUMP_RE.match(line)
        if m and cur:
            off = int(m.group(1), 16)
            if off < 256:
                data = bytes(int(x, 16) for x in re.split('[ -]', m.group(2)))
                dumps[cur][off:off + 16] = data
    return listing, dumps


# PCIe r5.0 7.5.3.2 Device/Port Type (0111b PCI Express to PCI/PCI-X Bridge,
# 1000b PCI/PCI-X to PCI Express Bridge), named as in docs/records.md.
PCIE_TYPES = {0: 'endpoint', 1: 'legacy-endpoint', 4: 'root-port', 5: 'upstream-port',
              6: 'downstream-port', 7: 'pcie-pci-bridge', 8: 'pci-pcie-bridge',
              9: 'rc-endpoint', 10: 'rc-event-collector'}


def decode_dump(cfg):
    """Independent reading of a config header: id, class, type, buses."""
    vd = '%02x%02x:%02x%02x' % (cfg[1], cfg[0], cfg[3], cfg[2])
    cls = '%02x%02x%02x' % (cfg[11], cfg[10], cfg[9])
    hdr = cfg[14] & 0x7f
    typ = None
    if cfg[6] & 0x10:                                  # capability list
        ptr, seen = cfg[0x34] & 0xfc, 0
        while ptr >= 0x40 and seen < 48:
            if cfg[ptr] == 0x10:
                typ = PCIE_TYPES.get((cfg[ptr + 2] >> 4) & 0xf, 'unknown')
                break
            ptr, seen = cfg[ptr + 1] & 0xfc, seen + 1
    if typ is None:
        typ = 'pci-bridge' if hdr == 1 else 'pci'
    buses = (cfg[0x18], cfg[0x19], cfg[0x1a]) if hdr == 1 else None
    return vd, cls, typ, buses


def check_shell(log_path, fns):
    listing, dumps = parse_shell(open(log_path, errors='replace').read())
    suite = testlib.Suite(out=print)
    report = suite.check
    exp = {f['addr']: f for f in fns}
    report(set(listing) == set(exp),
           f'shell pci listing: {len(listing)} functions, expected {len(exp)}'
           + ''.join(f'\n       missing {a}' for a in sorted(set(exp) - set(listing)))
           + ''.join(f'\n       extra   {a} {listing[a]}' for a in sorted(set(listing) - set(exp))))
    for a in sorted(exp):
        f = exp[a]
        if a in listing and listing[a] != f['id']:
            report(False, f'{a} listing id {listing[a]} != expected {f["id"]}')
        if a not in dumps:
            report(False, f'{a} no config dump')
            continue
        vd, cls, typ, buses = decode_dump(dumps[a])
        diffs = []
        if vd != f['id']:
            diffs.append(f'id {vd} != {f["id"]}')
        if cls != f['class']:
            diffs.append(f'class {cls} != {f["class"]}')
        if typ != f['type']:
            diffs.append(f'type {typ} != {f["type"]}')
        if 'bus' in f and buses != f['bus']:
            diffs.append(('bus %s != ' % ('%02x:%02x-%02x' % buses if buses else 'none'))
                         + '%02x:%02x-%02x' % f['bus'])
        report(not diffs, f'{a} {f["model"]:<20} {vd} {cls} {typ}'
               + (' buses=%02x:%02x-%02x' % buses if buses else '')
               + ('' if not diffs else '  <-- ' + '; '.join(diffs)))
    print(f'{len(exp)} expected functions, {suite.failed} differences')
    return suite.status()


# ---------------------------------------------------------------- app check
def check_app(log_path, fns, lks):
    """Compare the app's `fn` and `aspm link` records (docs/records.md) with
    the expectation; one `ok`/`FAIL` line per check."""
    app_fns, app_links = {}, {}
    dup_fns, dup_links = [], []
    for line in open(log_path, errors='replace').read().splitlines():
        r = records.parse(line.lstrip())    # (indented records count too)
        if r is None or r.kind not in ('fn', 'link'):
            continue
        f = r.fields
        if r.kind == 'fn':
            addr = (r.args or ['?'])[0]
            (dup_fns if addr in app_fns else []).append(addr)
            app_fns[addr] = f
        else:
            key = (f.get('up', '?'), f.get('down', '?'))
            (dup_links if key in app_links else []).append(key)
            app_links[key] = f

    out = testlib.Suite(out=print).check
    exp = {f['addr']: f for f in fns}
    for f in fns:
        a = f['addr']
        want = f"{f['id']} {f['type']}"
        got = app_fns.get(a)
        if got is None:
            out(False, f'fn {a} {want} ({f["model"]}): not reported')
            continue
        have = f"{got.get('id', '-')} {got.get('type', '-')}"
        out(have == want, f'fn {a} {want} ({f["model"]})'
            + ('' if have == want else f': app says {have}'))
    extra = sorted(set(app_fns) - set(exp))
    out(not extra and not dup_fns,
        f'no unexpected or duplicate fn records ({len(app_fns)} reported, {len(exp)} expected)'
        + ''.join(f'\n       unexpected {a} {app_fns[a].get("id", "-")} {app_fns[a].get("type", "-")}'
                  for a in extra)
        + ''.join(f'\n       duplicate  {a}' for a in dup_fns))
    wrong = [f"{a} parent={app_fns[a].get('parent', '-')} (expected {exp[a]['parent']})"
             for a in sorted(set(app_fns) & set(exp))
             if app_fns[a].get('parent', '-') != exp[a]['parent']]
    out(not wrong, 'fn parents match the topology' + ''.join(f'\n       {w}' for w in wrong))
    want_links = {(l['up'], l['down']): l for l in lks}
    for l in lks:
        key = (l['up'], l['down'])
        got = app_links.get(key)
        what = (f"aspm link up={l['up']} down={l['down']} nfn={l['nfn']} "
                f"support={l['support']} bios={l['bios']}")
        if got is None:
            out(False, what + ': not reported')
        elif got.get('nfn', str(l['nfn'])) != str(l['nfn']):
            out(False, what + f": app says nfn={got.get('nfn')}")
        elif (got.get('support'), got.get('bios')) != (l['support'], l['bios']):
            out(False, what + ": app says "
                f"support={got.get('support')} bios={got.get('bios')}")
        else:
            out(key not in dup_links, what + ('' if key not in dup_links else ': reported twice'))
    extra = sorted(set(app_links) - set(want_links))
    out(not extra, f'no unexpected aspm link records ({len(app_links)} reported, '
        f'{len(lks)} expected)' + ''.join(f'\n       unexpected up={u} down={d}' for u, d in extra))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument('--json', action='store_true')
    g.add_argument('--nsh', action='store_true')
    g.add_argument('--check-shell', metavar='SERIAL_LOG')
    g.add_argument('--check-app', metavar='SERIAL_LOG',
                   help="check aspmctl's fn / aspm link records")
    g.add_argument('--links', action='store_true', help='only link lines')
    g.add_argument('--fns', action='store_true', help='only fn lines')
    ap.add_argument('topology')
    a = ap.parse_args()
    try:
        fns, lk = expectation(a.topology)
    except TopoError as e:
        print(f'expect.py: {e}', file=sys.stderr)
        return 2
    if a.json:
        for f in fns:
            f.pop('children', None)
        json.dump({'functions': fns, 'links': lk}, sys.stdout, indent=1)
        print()
    elif a.nsh:
        sys.stdout.write(shell_script(fns))
    elif a.check_shell:
        return check_shell(a.check_shell, fns)
    elif a.check_app:
        check_app(a.check_app, fns, lk)
    else:
        if not a.links:
            for f in fns:
                print(fmt_fn(f))
        if not a.fns:
            for l in lk:
                print(f"link up={l['up']} down={l['down']} nfn={l['nfn']}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
