#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The checks of tests/qemu/product.sh, run after its boots: one line
"ok|FAIL|skip <what>" per check on stdout (product.sh counts them).

    tests/qemu/product_check.py OUT ROOT GUID DUMPFILE KERNEL_MODE HAVE_STUB

OUT is product.sh's --out directory (one subdirectory per boot: serial.log,
trace.log, rc, status, boot.txt; shell-cases.tsv), ROOT the repository,
GUID the AspmctlSummary variable's GUID, DUMPFILE the config dump read back
from the FS1 image, KERNEL_MODE 1 (a kernel was booted), 0 (none: the Linux
checks fail) or skip (--no-kernel), HAVE_STUB 1 when the efi-stub was built.
Run on the output of an earlier product.sh, it checks those boots again.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import records  # noqa: E402
import testlib  # noqa: E402

out, root, guid, dumpfile, kernel_mode, have_stub = sys.argv[1:7]
have_kernel = kernel_mode == '1'
have_stub = have_stub == '1'
FADT_MSG = "ACPI FADT declares the system doesn't support PCIe ASPM, so disable it"


suite = testlib.Suite(out=print)
say = suite.check
skip = suite.skip


def no_kernel(what):
    """Linux checks without a kernel: skipped only on --no-kernel."""
    if kernel_mode == 'skip':
        skip(what + ': no kernel (--no-kernel)')
    else:
        say(False, what + ': no kernel (make kernel-unpatched, or --no-kernel to skip)')


def read(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read()
    except OSError:
        return None


def serial(name):
    text = read(os.path.join(out, name, 'serial.log'))
    return text.splitlines() if text is not None else []


def boot(name, what):
    """One check: the boot reached its stop marker."""
    rc = read(os.path.join(out, name, 'rc'))
    status = (read(os.path.join(out, name, 'status')) or '').strip()
    wall = re.search(r'wall=([0-9.]+)', status)
    wall = wall.group(1) + ' s' if wall else '?'
    if rc is None:
        return say(False, f'boot {name} ({what}): did not run')
    rc = rc.strip()
    if rc == '0':
        return say(True, f'boot {name} ({what}): stop marker reached in {wall}')
    return say(False, f'boot {name} ({what}): run.sh exit {rc} ({status or "no status"}); '
               f'see {out}/{name}/serial.log')


def after(lines, regex):
    """Lines after the first match of regex (inclusive), or []."""
    for i, l in enumerate(lines):
        if re.search(regex, l):
            return lines[i:]
    return []


def done_status(lines):
    """EFI status of the last 'aspmctl: done' line."""
    st = [l for l in lines if l.startswith('aspmctl: done status=')]
    return int(st[-1].split('=')[1].split()[0], 16) if st else None


def done_ok(lines):
    """Success, or what a boot entry returns after a command that starts
    no next loader: EFI_NOT_FOUND, so that the boot manager moves on."""
    st = done_status(lines)
    return st == 0 or (st == 0x800000000000000E and any(
        re.match(r"^aspmctl: '\w+' from a boot entry starts no next loader", l) for l in lines))


def of_kind(lines, kind):
    """The records of one kind among lines (docs/records.md, tests/lib/records.py)."""
    return records.parse_all(lines, (kind,))


def summary(lines):
    s = of_kind(lines, 'summary')
    return s[-1].rest if s else None


def init_section(lines, name):
    """Lines of '=== aspmctl-init: begin NAME ===' ... end."""
    body, inside = [], False
    for l in lines:
        if l.strip() == f'=== aspmctl-init: begin {name} ===':
            inside, body = True, []
        elif inside and l.startswith(f'=== aspmctl-init: end {name} '):
            return body
        elif inside:
            body.append(l)
    return None


def efivar_text(lines):
    """(attributes, text) of AspmctlSummary from the initramfs efivars section."""
    return testlib.efivar_summary(init_section(lines, 'efivars'), guid)


def linux_checks(name, lines, conf_opts):
    """The app started the kernel with conf_opts; the kernel saw them and the variable."""
    start = [l for l in lines if l.startswith('aspmctl: starting ')]
    say(start == [f'aspmctl: starting \\vmlinuz.efi {conf_opts}'],
        f'{name}: app starts \\vmlinuz.efi with the configured options'
        + ('' if start else ' (no "aspmctl: starting" line)'))
    cmd = init_section(lines, 'cmdline')
    say(cmd is not None and [c.strip() for c in cmd] == [conf_opts],
        f'{name}: kernel command line is exactly next-options: '
        + (f'"{cmd[0].strip()}"' if cmd else 'no cmdline section'))
    s = summary(lines)
    attrs, text = efivar_text(lines)
    say(s is not None and text == s,
        f'{name}: AspmctlSummary in efivarfs equals the app\'s summary: "{text}"'
        + ('' if text == s else f' vs "{s}"'))
    say(attrs == 6, f'{name}: AspmctlSummary attributes 0x{(attrs or 0):08x} '
        '(boot-service + runtime, volatile: 0x00000006)')
    say(any(l.strip() == '=== aspmctl-init: done ===' for l in lines),
        f'{name}: initramfs report complete (aspmctl-init: done)')
    f = (read(os.path.join(out, name, 'boot.txt')) or '').splitlines()
    say(s is not None and ('aspm summary ' + s) in f,
        f'{name}: results\\boot.txt on the boot disk has the same summary line')


# ================================================================ 1. Shell
shell = serial('shell')
boot('shell', 'UEFI Shell startup.nsh' + (' then Linux' if have_kernel else ''))
secs = testlib.shell_sections(shell, 'product')

cases = []
with open(os.path.join(out, 'shell-cases.tsv')) as f:
    for row in f:
        name, expect, must, cmd = row.rstrip('\n').split('\t')
        cases.append((name, expect, must, cmd))

ERRBITS = {'0x0': 0, '0x2': 0x8000000000000002, '0xE': 0x800000000000000E}
for name, expect, must, cmd in cases:
    cmd = cmd.replace('fs0:\\aspmctl.efi', '').replace('fs1:\\aspmctl.efi', '(fs1)').strip() or '(no arguments)'
    s = secs.get(name)
    if s is None or s['lasterror'] is None:
        say(False, f'shell: {cmd}: no output (section {name} missing)')
        continue
    lines, le = s['lines'], s['lasterror']
    st = done_status(lines)
    errs = [l for l in lines if l.startswith('aspmctl: error:')]
    stat_ok = le.lower() == expect.lower() and st == ERRBITS[expect]
    detail = f'lasterror={le} status={hex(st) if st is not None else "none"}'
    if expect == '0x2':
        # exactly: banner, one error line, done line
        one = len(errs) == 1 and len(lines) == 3 and must in errs[0]
        say(stat_ok and one, f'shell: {cmd}: {detail}, one line: '
            + (errs[0] if errs else f'no error line; got {lines[1:2]}'))
    elif name in ('conf-unreadable', 'conf-bad-value', 'conf-too-long', 'missing-next'):
        continue        # boot-mode error cases, below
    else:
        say(stat_ok and not errs, f'shell: {cmd}: {detail}'
            + (f', unexpected: {errs[0]}' if errs else ''))

# content of the good ones
sl = lambda n: secs.get(n, {}).get('lines', [])
plan_w = of_kind(sl('plan'), 'write')
say(plan_w and all(w.words[-1] == 'planned' for w in plan_w)
    and any(d.get('override') == 'force' for d in of_kind(sl('plan'), 'decision')),
    f'shell: plan --policy force: {len(plan_w)} planned writes, none made')
# --disable through the real app: the NVMe drive's link (03:01.0 - 05:00.0)
# loses L0s, which powersupersave enables on every other link that has it
# (QEMU's ports and devices offer L0s); the other rule matches nothing
px = sl('plan-excl')
ex = {e.get('rule'): e for e in of_kind(px, 'exclude')}
lk = {l.get('down'): l for l in of_kind(px, 'link')}
nv, hit, miss = lk.get('0000:05:00.0'), ex.get('L0s@1b36:0010'), ex.get('L1@dead:beef')
others = [l for d, l in lk.items() if d != '0000:05:00.0' and 'L0s' in l.get('capable', '').split(',')]
say(nv is not None and hit is not None and miss is not None
    and 'excluded' in nv.get('reason', '').split(',')
    and 'L0s' not in nv.get('target', '').split(',')
    and hit.get('up') == '0000:03:01.0' and hit.get('down') == '0000:05:00.0'
    and 'L0s' in hit.get('removed', '').split(',')
    and miss.get('up') == '-' and miss.get('note') == 'matches-nothing'
    and others and all('L0s' in l.get('target', '').split(',') for l in others)
    and not [w for w in of_kind(px, 'write') if w.args and w.args[0] in ('0000:03:01.0', '0000:05:00.0')
             and w.get('step', '').startswith('aspm') and int(w.get('new', '0'), 16) & 1],
    'shell: plan --policy powersupersave --disable L0s@1b36:0010: '
    + (nv.line if nv else 'no link record for 05:00.0') + ' | '
    + (hit.line if hit else 'no exclude record') + f' | {len(others)} other L0s links keep L0s')
stats = of_kind(sl('apply'), 'stats')
say(any(d.get('action') == 'clear' for d in of_kind(sl('apply'), 'decision'))
    and stats and stats[0].get('writes') == '0',
    'shell: apply --policy clear: action=clear, nothing to write on QEMU (ASPM already off): '
    + (stats[0].line if stats else 'no stats line'))
td = of_kind(sl('remove'), 'teardown')
say(len(td) == 1 and td[0].get('dev') == '0000:04:00.0' and td[0].get('written') == '0',
    'shell: remove 0000:04:00.0 (no --apply) predicts the teardown: ' + (td[0].line if td else 'no record'))
help_text = '\n'.join(sl('help'))
# the command line's parser and its options table
cli_c = 'app/cli.c'
src = read(os.path.join(root, cli_c)) or ''
cmds = re.findall(r'\{ "([a-z]+)", CLI_', src)
opts = sorted(set(w for row in re.findall(r'^\t\{ "(--?[a-z-]+)", (?:"(--?[a-z-]+)"|NULL), (?:true|false)', src, re.M)
                  for w in row if w))
missing = [w for w in cmds + opts if not re.search(r'(^|[\s,|])' + re.escape(w) + r'($|[\s,|])', help_text)]
say(cmds and opts and not missing,
    f'shell: -h lists all {len(cmds)} commands and {len(opts)} options of {cli_c}'
    + (f'; missing: {" ".join(missing)}' if missing else ''))
wide = [l for l in sl('help') if len(l) > 80]
say(sl('help') and not wide, 'shell: -h fits 80 columns' + (f'; {len(wide)} wider lines' if wide else ''))
# the report is for people on an 80-column serial console; the records
# ("aspm ...", "fn ...") are single long lines by design, one per fact,
# for grep (README "Results, records and output")
for n in ('report', 'report-v', 'plan'):
    human = [l for l in sl(n) if records.parse(l) is None]
    wide = [l for l in human if len(l) > 80]
    recs = len(sl(n)) - len(human)
    say(human and recs and not wide,
        f'shell: {n}: all {len(human)} human-facing lines fit 80 columns ({recs} records are not wrapped)'
        + (f'; {len(wide)} wider: ' + ' | '.join(f'{len(l)}: {l}' for l in wide[:3]) if wide else ''))

# ================================================================ 7. boot-mode errors (Shell)
def stub_saw(lines, opts):
    return f'efi-stub: load-options size={2 * (len(opts) + 1)} text="{opts}"' in lines

s = sl('conf-unreadable')
conf_err = [l for l in s if l.startswith('aspmctl: error:') and 'aspmctl.conf' in l]
say(conf_err and 'cannot read' in conf_err[0] and 'aspmctl: configuration unusable: ASPM left as it is' in s
    and stub_saw(s, 'unreadable conf') and secs.get('conf-unreadable', {}).get('lasterror') == '0x0',
    'shell: boot with an unreadable aspmctl.conf (a folder): reported, policy skipped, '
    '--next from the load options still started: ' + (conf_err[0] if conf_err else 'no message'))
s = sl('conf-bad-value')
conf_err = [l for l in s if l.startswith('aspmctl: error:') and 'aspmctl.conf' in l]
say(conf_err and 'sometimes' in conf_err[0] and 'aspmctl: configuration unusable: ASPM left as it is' in s
    and stub_saw(s, 'after bad value') and secs.get('conf-bad-value', {}).get('lasterror') == '0x0',
    'shell: aspmctl.conf with a bad value (policy = sometimes): reported, policy skipped, '
    'its next loader still started: ' + (conf_err[0] if conf_err else 'no message'))
s = sl('conf-too-long')
conf_err = [l for l in s if l.startswith('aspmctl: error:') and 'aspmctl.conf' in l]
say(conf_err and 'longer than' in conf_err[0] and 'aspmctl: configuration unusable: ASPM left as it is' in s
    and stub_saw(s, 'too long conf') and secs.get('conf-too-long', {}).get('lasterror') == '0x0',
    'shell: aspmctl.conf longer than the app reads: refused rather than cut, --next still started: '
    + (conf_err[0] if conf_err else 'no message'))
s = sl('missing-next')
err = [l for l in s if l.startswith('aspmctl: error: chainload:')]
say(err and '\\nope.efi' in err[0] and 'aspmctl: returning to the boot manager' in s
    and done_status(s) == 0x800000000000000E and secs.get('missing-next', {}).get('lasterror') == '0xE',
    'shell: boot --next \\nope.efi: EFI_NOT_FOUND (lasterror=%s): %s'
    % (secs.get('missing-next', {}).get('lasterror'), err[0] if err else 'no message'))

# ================================================================ 5a. fadt then Linux (Shell)
s = sl('fadt-set')
fl = of_kind(s, 'fadt')
good = bool(fl)
for f in fl:
    good = (good and 'before' in f and 'after' in f and f.get('result') == 'ok'
            and int(f['after'], 16) == int(f['before'], 16) | 0x10)
say(good, f'shell: fadt --set-no-aspm: {len(fl)} FADT(s) patched, bit 4 set, result=ok'
    + (': ' + fl[0].line if fl else ''))
s = sl('report-fadt')
say(any(d.get('fadt-no-aspm') == '1' for d in of_kind(s, 'decision')),
    'shell: report after the patch reads FADT no-ASPM=1 (aspm decision fadt-no-aspm=1)')
if have_kernel:
    k = after(shell, r'^product-end report-fadt ')
    say(any(FADT_MSG in l for l in k),
        'shell: Linux started from the Shell after fadt --set-no-aspm logs "%s"' % FADT_MSG)
    k61 = [l for l in k if 'FADT indicates ASPM is unsupported' in l]
    say(bool(k61), 'shell: ... and 6.1\'s "FADT indicates ASPM is unsupported, using BIOS configuration"')
else:
    no_kernel('shell: Linux after fadt --set-no-aspm')

# ================================================================ 2. trace
def trace_writes(name):
    """The config writes of boot NAME up to its 'aspmctl: done' line, as
    (BB:DD.F, offset, value): after it the boot manager goes on while QEMU is
    being stopped, and what it writes then depends on timing."""
    text = read(os.path.join(out, name, 'trace.log'))
    w = testlib.trace_writes(text, 'aspmctl: done') if text is not None else None
    return None if w is None else [(b[5:], o, v) for b, o, v in w]


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


base = None
if have_stub:
    ok1 = boot('stub-1', 'efi-stub, trace')
    ok2 = boot('stub-2', 'efi-stub again, trace')
    w1, w2 = trace_writes('stub-1'), trace_writes('stub-2')
    if ok1 and ok2 and w1 and w2 is not None:
        det = w1 == w2
        say(det, f'trace: OVMF\'s own config writes up to "aspmctl: done" are deterministic: {len(w1)} and {len(w2)} '
            'pci_cfg_write in two efi-stub boots' + ('' if det else f', first difference at #{first_diff(w1, w2)}'))
        base = w1 if det else None
    else:
        say(False, 'trace: no efi-stub baseline')
else:
    skip('trace: no efi-stub, no baseline')

for name, what in (('report', 'report (aspmctl.conf)'), ('plan', 'plan --policy force (aspmctl.conf)')):
    okb = boot(name, what + ', trace')
    w = trace_writes(name)
    lines = serial(name)
    if base is None or w is None or not okb:
        say(False, f'{name}: zero config writes: no trace or no baseline')
        continue
    extra = len(w) - len(base)
    same = w == base
    planned = len([x for x in of_kind(lines, 'write') if x.words[-1] == 'planned'])
    st = of_kind(lines, 'stats')
    say(same and done_ok(lines) and st and st[0].get('writes') == '0',
        f'{name}: zero config writes: trace has the baseline\'s {len(base)} writes and '
        + ('nothing else' if same else f'{extra:+d} (first difference at #{first_diff(w, base)})')
        + (f'; {planned} writes planned, none made' if name == 'plan' else ''))
    if name == 'plan':
        say(planned > 0, f'plan: the force plan is not empty ({planned} planned writes), so zero writes means something')

okb = boot('apply', 'apply --policy force (aspmctl.conf), trace')
w = trace_writes('apply')
lines = serial('apply')
app_w = []
for x in of_kind(lines, 'write'):
    if x.words[-1] in ('ok', 'ignored'):
        # the trace names functions BB:DD.F (one segment)
        app_w.append((x.words[0][5:], int(x['off'], 16), int(x['new'], 16)))
if base is None or w is None or not okb:
    say(False, 'apply: writes in the trace: no trace or no baseline')
else:
    prefix = w[:len(base)] == base
    tail = w[len(base):]
    say(prefix, f'apply: the trace starts with the baseline\'s {len(base)} OVMF writes')
    say(app_w and tail == app_w,
        f'apply --policy force: the {len(tail)} writes after the baseline are the app\'s '
        f'{len(app_w)} "aspm write" lines, same address/offset/value, same order'
        + ('' if tail == app_w else f'; first difference at #{first_diff(tail, app_w)}: '
           f'trace {tail[first_diff(tail, app_w):][:1]} app {app_w[first_diff(tail, app_w):][:1]}'))
    st = of_kind(lines, 'stats')
    n = st[0].get('writes', '') if st else ''
    say(n.isdigit() and int(n) == len(tail),
        f'apply: the app\'s own count (aspm stats writes={n if n.isdigit() else "?"}) equals the trace\'s')

# ================================================================ 6. dump vs lspci -F
def parse_lspci(text):
    fns = {}
    cur = None
    lines = text.splitlines()
    for i, l in enumerate(lines):
        m = re.match(r'^([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) (.*)$', l)
        if m:
            cur = fns[m.group(1)] = {'title': m.group(2)}
            continue
        if cur is None:
            continue
        c = re.search(r'Capabilities: \[([0-9a-f]+)\] Express', l)
        if c:
            cur['express'] = int(c.group(1), 16)
        nxt = lines[i + 1] if i + 1 < len(lines) else ''
        if 'LnkCap:' in l:
            cur['lnkcap'] = l.strip() + ' ' + nxt.strip()
        if 'LnkCtl:' in l:
            cur['lnkctl'] = l.strip() + ' ' + nxt.strip()
    return fns


def lspci_cap(f):
    m = re.search(r'ASPM (not supported|L0s L1|L0s|L1)[,\s]', f.get('lnkcap', '') + ' ')
    return None if not m else {'not supported': set(), 'L0s L1': {'L0s', 'L1'},
                               'L0s': {'L0s'}, 'L1': {'L1'}}[m.group(1)]


def lspci_ctl(f):
    m = re.search(r'ASPM (Disabled|L0s L1 Enabled|L0s Enabled|L1 Enabled);', f.get('lnkctl', ''))
    if not m:
        return None
    s = {'Disabled': 'off', 'L0s L1 Enabled': 'L0s+L1', 'L0s Enabled': 'L0s', 'L1 Enabled': 'L1'}[m.group(1)]
    if 'CommClk+' in f['lnkctl']:
        s += ' ccc'
    if 'ClockPM+' in f['lnkctl']:
        s += ' clkreq'
    return s


def lat_ns(s):
    m = re.fullmatch(r'([<>])(\d+)(ns|us)', s)
    if not m:
        return None
    v = int(m.group(2)) * (1000 if m.group(3) == 'us' else 1)
    return v if m.group(1) == '<' else {4000: 5000, 64000: 65000}.get(v, v + 1)


def app_ns(s):
    m = re.fullmatch(r'([0-9.]+)(ns|us|ms)', s)
    return None if not m else round(float(m.group(1)) * {'ns': 1, 'us': 1000, 'ms': 1000000}[m.group(2)])


fnrec = {}
for x in of_kind(sl('report'), 'fn'):
    if all(k in x for k in ('id', 'class', 'type', 'parent', 'flags')):
        fnrec[x.words[0]] = {'id': x['id'], 'type': x['type'], 'parent': x['parent'],
                             'flags': x['flags'].split(',')}
wrote = [l for l in sl('dump') if l.startswith('aspmctl: wrote ')]
m = re.search(r'\((\d+) bytes\)', wrote[0]) if wrote else None
data = open(dumpfile, 'rb').read() if os.path.exists(dumpfile) else None
say(m and data is not None and len(data) == int(m.group(1)) and b'\0' not in data,
    f'dump: {len(data) if data is not None else "no"} bytes read back from the FS1 image, '
    f'as the app wrote ({m.group(1) if m else "?"} bytes), no NUL bytes')
lsp = {}
if data is not None:
    r = subprocess.run(['lspci', '-F', dumpfile, '-D', '-vv'], capture_output=True, text=True)
    lsp = parse_lspci(r.stdout)
    # (-vv looks for kernel modules too: libkmod's complaint is not about the dump)
    err = ' '.join(l for l in r.stderr.splitlines() if 'libkmod' not in l).strip()
    say(r.returncode == 0 and not err and lsp,
        f'dump: lspci -F decodes it: {len(lsp)} functions' + (f'; {err}' if err else ''))
    ids_ok = set(lsp) == set(fnrec) and all(
        ('Device ' + fnrec[b]['id']) in lsp[b]['title'] or fnrec[b]['id'].replace(':', ' ') in lsp[b]['title']
        for b in lsp)
    r2 = subprocess.run(['lspci', '-F', dumpfile, '-D', '-n'], capture_output=True, text=True)
    idmap = dict(re.findall(r'^(\S+) \S+: ([0-9a-f]{4}:[0-9a-f]{4})', r2.stdout, re.M))
    ids_ok = set(lsp) == set(fnrec) and all(idmap.get(b) == fnrec[b]['id'] for b in fnrec)
    say(fnrec and ids_ok, f'dump: lspci finds the same {len(fnrec)} functions and vendor:device IDs as the app\'s fn records'
        + ('' if set(lsp) == set(fnrec) else f'; only lspci: {sorted(set(lsp) - set(fnrec))}, only app: {sorted(set(fnrec) - set(lsp))}'))
    pcie = [b for b in fnrec if 'pcie' in fnrec[b]['flags']]
    noexp = [b for b in pcie if 'express' not in lsp.get(b, {})]
    say(pcie and not noexp, f'dump: lspci shows a PCI Express capability on each of the {len(pcie)} functions the app flags pcie'
        + (f'; not on {noexp}' if noexp else ''))

    # every PCIe function: the app's own LNKCAP/LNKCTL decoding (the dump
    # command's "aspm fn-link" records) against lspci's
    fl = {}
    for x in of_kind(sl('dump'), 'fn-link'):
        fl[x.words[0]] = x.fields
    nolink = [b for b in pcie if b not in fl]
    say(pcie and not nolink and set(fl) <= set(pcie),
        f'dump: an "aspm fn-link" record for each of the {len(pcie)} PCIe functions ({len(fl)} records)'
        + (f'; none for {nolink}' if nolink else '') + (f'; extra {sorted(set(fl) - set(pcie))}' if set(fl) - set(pcie) else ''))
    for b in sorted(fl):
        rec, f = fl[b], lsp.get(b, {})
        probs = []
        if rec.get('note') == 'no-link':
            if 'lnkcap' in f or 'lnkctl' in f:
                probs.append('app: no link registers, lspci shows LnkCap/LnkCtl')
            say(not probs, f'dump/lspci: {b}: no link registers (RCiEP/RCEC), lspci shows none either'
                + ('; ' + '; '.join(probs) if probs else ''))
            continue
        caps = lspci_cap(f)
        if caps is None or 'lnkctl' not in f:
            say(False, f'dump/lspci: {b}: lspci shows no LnkCap/LnkCtl, the app decodes {rec}')
            continue
        sup = ','.join(x for x in ('L0s', 'L1') if x in caps) or 'none'
        if sup != rec['support']:
            probs.append(f'ASPM support lspci {sup} app {rec["support"]}')
        m0 = re.search(r'Exit Latency L0s ([<>]\d+[nu]s)', f['lnkcap'])
        m1 = re.search(r'L1 ([<>]\d+[nu]s)', f['lnkcap'])
        if 'L0s' in caps and (not m0 or lat_ns(m0.group(1)) != app_ns(rec['l0s-exit'])):
            probs.append(f'L0s exit lspci {m0.group(1) if m0 else "?"} app {rec["l0s-exit"]}')
        if 'L1' in caps and (not m1 or lat_ns(m1.group(1)) != app_ns(rec['l1-exit'])):
            probs.append(f'L1 exit lspci {m1.group(1) if m1 else "?"} app {rec["l1-exit"]}')
        if ('ClockPM+' in f['lnkcap']) != (rec['clkpm'] == 'yes'):
            probs.append(f'Clock PM capable lspci {"ClockPM+" in f["lnkcap"]} app {rec["clkpm"]}')
        app_ctl = rec['aspm'] + (' ccc' if rec['ccc'] == 'yes' else '') + (' clkreq' if rec['clkreq'] == 'yes' else '')
        if lspci_ctl(f) != app_ctl:
            probs.append(f'LnkCtl lspci {lspci_ctl(f)} app {app_ctl}')
        say(not probs, f'dump/lspci: {b}: LnkCap ASPM {sup}, exit latencies, Clock PM; LnkCtl {app_ctl}: '
            'lspci decodes what the app does' + ('; ' + '; '.join(probs) if probs else ''))

    # the app's verbose link table (report -v)
    links = []
    rv = sl('report-v')
    for i, l in enumerate(rv):
        m = re.match(r'^link (\S+) -> (\S+) \(', l)
        if m and i + 2 < len(rv):
            a = re.match(r'^  ASPM support: (\S+); enabled up: (.*), down: (.*)$', rv[i + 1])
            b = re.match(r'^  exit latency L0s (\S+)/(\S+), L1 (\S+)/(\S+) \(up/down\)$', rv[i + 2])
            c = next((x for x in rv[i + 3:i + 5] if x.startswith('  clock PM capable')), '')
            links.append((m.group(1), m.group(2), a, b, c))
    recs = {}
    for x in of_kind(sl('report-v'), 'link'):
        if all(k in x for k in ('up', 'down', 'support', 'bios')):
            recs[(x['up'], x['down'])] = (x['support'], x['bios'])
    say(links and len(links) == len(recs), f'dump: report -v has {len(links)} links in its table and {len(recs)} aspm link records')
    for up, dn, a, b, c in links:
        U, D = lsp.get(up, {}), lsp.get(dn, {})
        cu, cd = lspci_cap(U), lspci_cap(D)
        probs = []
        if not a or not b or cu is None or cd is None:
            say(False, f'dump/lspci: link {up} -> {dn}: cannot decode (app table or lspci LnkCap missing)')
            continue
        both = cu & cd
        sup = ','.join(s for s in ('L0s', 'L1') if s in both) or 'none'
        if sup != a.group(1):
            probs.append(f'support lspci {sup} app {a.group(1)}')
        if lspci_ctl(U) != a.group(2):
            probs.append(f'up LnkCtl lspci {lspci_ctl(U)} app {a.group(2)}')
        if lspci_ctl(D) != a.group(3):
            probs.append(f'down LnkCtl lspci {lspci_ctl(D)} app {a.group(3)}')
        for fn, f, caps, l0s, l1 in ((up, U, cu, b.group(1), b.group(3)), (dn, D, cd, b.group(2), b.group(4))):
            m0 = re.search(r'Exit Latency L0s (\S+)', f['lnkcap'].rstrip(','))
            m1 = re.search(r'L1 ([<>]\d+[nu]s)', f['lnkcap'])
            if 'L0s' in caps and (not m0 or lat_ns(m0.group(1).rstrip(',')) != app_ns(l0s)):
                probs.append(f'{fn} L0s exit lspci {m0.group(1) if m0 else "?"} app {l0s}')
            if 'L1' in caps and (not m1 or lat_ns(m1.group(1)) != app_ns(l1)):
                probs.append(f'{fn} L1 exit lspci {m1.group(1) if m1 else "?"} app {l1}')
        downs = [x for x in fnrec if fnrec[x]['parent'] == up]
        clk = all('ClockPM+' in lsp.get(x, {}).get('lnkcap', '') for x in downs)
        if c and (('capable yes' in c) != clk):
            probs.append(f'clock PM capable lspci {clk} app {c.strip()}')
        rec = recs.get((up, dn))
        if rec and rec[0] != sup:
            probs.append(f'aspm link support={rec[0]} vs lspci {sup}')
        if rec and (rec[1] == 'none') != all((lspci_ctl(lsp.get(x, {})) or '?').split()[0] == 'off'
                                             for x in [up] + downs):
            probs.append(f'aspm link bios={rec[1]} vs lspci LnkCtl')
        say(not probs, f'dump/lspci: link {up} -> {dn}: LnkCap ASPM {sup}, LnkCtl {lspci_ctl(U)}/{lspci_ctl(D)}, '
            'exit latencies, Clock PM as the app decodes them' + ('; ' + '; '.join(probs) if probs else ''))
    # every function the plan would write: Link Control offset and its old value
    bad = []
    pw = 0
    for x in of_kind(sl('plan'), 'write'):
        if 'off' not in x or 'old' not in x:
            continue
        pw += 1
        f = lsp.get(x.words[0], {})
        old = int(x['old'], 16)
        ctl = lspci_ctl(f)
        exp = {0: 'off', 1: 'L0s', 2: 'L1', 3: 'L0s+L1'}[old & 3]
        if f.get('express') is None or int(x['off'], 16) != f['express'] + 0x10 or not ctl or ctl.split()[0] != exp:
            bad.append(f'{x.words[0]} off={x["off"]} old={exp} lspci Express@{f.get("express")} LnkCtl {ctl}')
    say(pw and not bad, f'dump/lspci: all {pw} planned writes hit Link Control (Express cap + 0x10) and their old= ASPM '
        'state is what lspci decodes' + ('; ' + '; '.join(bad) if bad else ''))
    # the apply trace writes hit Link Control too
    if app_w:
        offs = [(bdf, off) for bdf, off, _ in app_w if lsp.get('0000:' + bdf, {}).get('express', -99) + 0x10 != off]
        say(not offs, 'apply: every written offset is Link Control per lspci\'s capability list' + (f'; not: {offs}' if offs else ''))

# ================================================================ 3. chainload the efi-stub
if have_stub:
    okb = boot('chain-stub', 'BOOTX64 boot mode -> efi-stub')
    lines = serial('chain-stub')
    opts = 'alpha beta=2 "gamma delta" \\x\\y.txt'
    say(f'aspmctl: starting \\stub.efi {opts}' in lines, f'chain-stub: app starts \\stub.efi {opts} '
        '(aspmctl.conf in UTF-16LE with BOM and CRLF, next = /stub.efi, the options in \'...\')')
    say(stub_saw(lines, opts), f'chain-stub: the stub prints exactly the configured options: text="{opts}"')
    ret = [l for l in lines if re.match(r'^aspmctl: \\stub.efi returned', l)]
    say(ret and ret[0].endswith('(EFI status 0x0 EFI_SUCCESS)'), 'chain-stub: the stub returned success to the app'
        + (f': {ret[0]}' if ret else ''))
    res = read(os.path.join(out, 'chain-stub', 'boot.txt'))
    say(res is not None, 'chain-stub: \\EFI\\aspmctl\\results\\boot.txt exists on the boot disk')
    flines = (res or '').replace('\r', '').splitlines()
    con_links = [x.line for x in of_kind(lines, 'link')]
    file_links = [x.line for x in of_kind(flines, 'link')]
    say(con_links and con_links == file_links,
        f'chain-stub: boot.txt has the same {len(file_links)} aspm link records as the console ({len(con_links)})')
    con_rec = [x.line for x in records.parse_all(lines) if x.kind != 'fn']
    file_rec = [x.line for x in records.parse_all(flines) if x.kind != 'fn']
    say(con_rec and con_rec == file_rec,
        f'chain-stub: boot.txt has all {len(con_rec)} "aspm" records of the console, in order (decision, link, write, stats, summary)')

    okb = boot('bad-conf', 'BOOTX64 boot mode, malformed aspmctl.conf')
    lines = serial('bad-conf')
    err = [l for l in lines if l.startswith('aspmctl: error:') and 'aspmctl.conf' in l]
    say(err and 'line 2' in err[0], 'bad-conf: malformed aspmctl.conf reported with its line: '
        + (err[0] if err else 'no message'))
    say('aspmctl: configuration unusable: ASPM left as it is' in lines
        and not of_kind(lines, 'write'),
        'bad-conf: policy skipped, no config write')
    say(stub_saw(lines, 'after bad syntax'), 'bad-conf: the next loader of the file still starts, with its options')
    s = summary(lines) or ''
    say('status=invalid' in s and 'next=\\stub.efi' in s, f'bad-conf: summary records the error: {s}')
else:
    skip('chain-stub, bad-conf: no efi-stub')

# ================================================================ 7. missing next loader (BOOTX64)
okb = boot('missing-next', 'boot mode, next loader missing') if have_stub else skip('missing-next: no efi-stub')
lines = serial('missing-next')
err = [l for l in lines if l.startswith('aspmctl: error: chainload:')]
say(err and '\\EFI\\nope\\missing.efi' in err[0] and 'not found' in err[0].lower(),
    'missing-next: clear message: ' + (err[0] if err else 'none'))
say('aspmctl: returning to the boot manager' in lines and done_status(lines) == 0x800000000000000E,
    f'missing-next: app returns EFI_NOT_FOUND (status={hex(done_status(lines) or 0)})')
rest = after(lines, r'^aspmctl: done status=')
bds_fail = [l for l in rest if re.match(r'^BdsDxe: failed to start Boot\S+ .*: Not Found', l)]
bds_next = [l for l in rest if l.startswith('BdsDxe: starting Boot')]
nxt = [l for l in rest if l.startswith('efi-stub: started') or l.startswith('UEFI Interactive Shell')]
say(bds_fail and bds_next and nxt,
    'missing-next: OVMF fails that boot option and starts the next one: '
    + (re.sub(r' from .*', '', bds_next[0]) + ' -> ' + nxt[0] if bds_next and nxt else 'not seen'))
s = summary(lines) or ''
f = read(os.path.join(out, 'missing-next', 'boot.txt')) or ''
say('next=\\EFI\\nope\\missing.efi' in s and ('aspm summary ' + s) in f.splitlines(),
    'missing-next: summary printed and results file written before the chainload attempt')

# ================================================================ 4/5b. Linux chainloaded in boot mode
if have_kernel and have_stub:
    kopts = f'console=ttyS0 initrd=\\initrd.img aspmctl.guid={guid} panic=-1'
    okb = boot('chain-linux', 'BOOTX64 boot mode -> Linux EFI stub')
    lines = serial('chain-linux')
    linux_checks('chain-linux', lines, kopts + ' aspmctl.product=chain-linux')
    say(not any(FADT_MSG in l for l in lines),
        'chain-linux: without FADT emulation the kernel does not log the no-ASPM FADT message (control)')

    okb = boot('chain-linux-fadt', 'BOOTX64 boot mode, emulate-fadt = set-no-aspm -> Linux')
    lines = serial('chain-linux-fadt')
    fl = of_kind(lines, 'fadt')
    say(fl and all(f.get('result') == 'ok' and int(f.get('after', '0'), 16) & 0x10 for f in fl),
        f'chain-linux-fadt: app patched {len(fl)} FADT(s): ' + (fl[0].line if fl else 'no aspm fadt line'))
    dec = of_kind(lines, 'decision')
    say(dec and dec[0].get('fadt-no-aspm') == '1' and dec[0].get('action') == 'clear',
        'chain-linux-fadt: the app\'s own decision sees it: ' + (dec[0].line if dec else 'none'))
    linux_checks('chain-linux-fadt', lines, kopts + ' aspmctl.product=chain-linux-fadt')
    say(any(FADT_MSG in l for l in after(lines, r'^aspmctl: starting ')),
        f'chain-linux-fadt: the kernel logs "{FADT_MSG}"')
elif not have_kernel:
    no_kernel('chain-linux, chain-linux-fadt (Linux EFI stub chainloaded in boot mode)')
else:
    say(False, 'chain-linux, chain-linux-fadt: no efi-stub to boot the test image from')
