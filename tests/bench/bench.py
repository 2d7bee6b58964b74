#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make bench: config accesses and pre-boot time of aspmctl.efi against the
computed minimum, a brute-force scan, the UEFI Shell's `pci` and Linux, on
QEMU q35 + OVMF under TCG; plus the matrix's per-cell time split.

    tests/bench/bench.py [--out build/bench] [--sizes 8,32,64,128,256] [-j 2]
        [--app EFI] [--stub EFI] [--kernel BZ --initrd IMG] [--matrix-only REGEX]
        [--matrix-jobs N] [--full-matrix] [--no-kernel] [--no-matrix] [--keep-traces]
    tests/bench/bench.py --analyze-only --out build/bench   (re-read the logs)

See tests/bench/README.md for what is measured and how.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, 'tests', 'qemu'))
sys.path.insert(0, os.path.join(REPO, 'tests', 'lib'))
sys.path.insert(0, HERE)
import expect            # noqa: E402  (tests/qemu/expect.py)
import records           # noqa: E402  (tests/lib/records.py)
import testlib           # noqa: E402  (tests/lib/testlib.py)
import minreads          # noqa: E402
import plot              # noqa: E402

RUN = os.path.join(REPO, 'tests', 'qemu', 'run.sh')
GEN = os.path.join(HERE, 'gen-topo.py')
MATRIX = os.path.join(REPO, 'tests', 'matrix', 'matrix.py')
# Shell phases, in boot order; `apply` writes, so it comes last.
PHASES = ('report', 'full', 'pci', 'dump', 'apply')
MRO = 'memory_region_ops_*'
STALL_US = 500000        # after a phase marker, so that QMP turns tracing on in time
# `pci B D F` of every function (the Shell's way to the same facts as the
# app's report) up to this size; above it only one function per device model
# (for the minimum's capability layouts): a 4 KiB dump per function is about
# 17 KB of serial output and 4096 config reads.
DUMP_ALL_MAX = 64
# memory_region_ops tracing in the dump phase only up to this size (it logs
# every serial register access too); the phase reads existing functions only,
# which QEMU's pci_cfg_* trace counts exactly (checked at this size)
DUMP_MRO_MAX = 8
MATRIX_CELLS = r'^(default|one-rp|switch3|switch-chain|multifunction|pxb|empty-rp|hotplug)\.force\.patched$'


def qmp_trace(enable):
    return json.dumps({'execute': 'trace-event-set-state',
                       'arguments': {'name': MRO, 'enable': enable}})


def common_qemu_args():
    # run.sh --trace traces serial_write too: the console's bytes, in order
    # with the config accesses (the phase delimiters); timestamps: host time
    # per trace line.
    args = []
    for x in ('-msg', 'timestamp=on'):
        args += ['--qemu-arg', x]
    return args


# ------------------------------------------------------------------ running
def run(cmd, d, timeout):
    with open(os.path.join(d, 'bench.cmd'), 'w') as f:
        f.write(' '.join(shlex.quote(x) for x in cmd) + '\n')
    t0 = time.time()
    try:
        rc = subprocess.run(cmd, stdout=open(os.path.join(d, 'run.out'), 'w'),
                            stderr=subprocess.STDOUT, timeout=timeout + 60).returncode
    except subprocess.TimeoutExpired:
        rc = 124
    return rc, time.time() - t0


def shell_job(n, topo, a):
    """One Shell boot: report, --scan full, pci, pci B D F (all), apply --policy force."""
    d = os.path.join(a.out, 'runs', 'shell-%d' % n)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    fns, _ = expect.expectation(topo)
    A = 'fs0:\\aspmctl.efi'
    dump = fns if n <= DUMP_ALL_MAX else list({(f['model'], f['type']): f for f in fns}.values())
    body = {
        'report': [A + ' report'],
        'full': [A + ' report --scan full'],
        'pci': ['pci'],
        'dump': ['pci %s %s %s' % (f['addr'][5:7], f['addr'][8:10], f['addr'][11]) for f in dump],
        'apply': [A + ' apply --policy force'],
    }
    nsh, qmp = [], []
    for p in PHASES:
        mro = p != 'dump' or n <= DUMP_MRO_MAX
        nsh += ['echo "bench-begin %s"' % p, 'stall %d' % STALL_US, 'echo "bench-go %s"' % p]
        nsh += body[p]
        nsh += ['echo "bench-end %s lasterror=%%lasterror%%"' % p]
        if mro:
            nsh += ['stall %d' % (STALL_US // 2)]
            qmp += ['--qmp-on', '^bench-begin %s$' % p, qmp_trace(True),
                    '--qmp-on', '^bench-end %s ' % p, qmp_trace(False)]
    with open(os.path.join(d, 'bench.nsh'), 'w') as f:
        f.write('\n'.join(nsh) + '\n')
    cmd = [RUN, '--topology', topo, '--out', d, '--quiet', '--trace', '--timeout', str(a.timeout),
           '--app', a.app, '--nsh', os.path.join(d, 'bench.nsh')] + common_qemu_args() + qmp
    rc, wall = run(cmd, d, a.timeout)
    return dict(rc=rc, wall=wall)


def linux_job(n, topo, a):
    """aspmctl.efi in boot mode (policy force) chainloads the patched kernel; stop at /init.

    As tests/matrix does and as installed on a machine: a FAT image whose
    BOOTX64.EFI is the app, on its own disk first in the boot order (QEMU's
    vvfat ESP is slow to write, and the app writes its results file)."""
    d = os.path.join(a.out, 'runs', 'linux-%d' % n)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    conf = os.path.join(d, 'aspmctl.conf')
    with open(conf, 'w') as f:
        f.write('command = boot\npolicy = force\nnext = \\vmlinuz.efi\n'
                'next-options = console=ttyS0 initrd=\\initrd.img panic=-1\n')
    img = os.path.join(d, 'boot.img')
    q = shlex.quote
    sh = ('mkfs.vfat -C -n BENCH {i} 16384 >/dev/null && mmd -i {i} ::/EFI ::/EFI/BOOT ::/EFI/aspmctl && '
          'mcopy -i {i} {app} ::/EFI/BOOT/BOOTX64.EFI && mcopy -i {i} {conf} ::/EFI/aspmctl/aspmctl.conf && '
          'mcopy -i {i} {k} ::/vmlinuz.efi && mcopy -i {i} {r} ::/initrd.img').format(
              i=q(img), app=q(a.app), conf=q(conf), k=q(a.kernel), r=q(a.initrd))
    r = subprocess.run(sh, shell=True, capture_output=True, text=True)
    if r.returncode:
        with open(os.path.join(d, 'run.out'), 'w') as f:
            f.write('FAT image: ' + r.stderr)
        return dict(rc=2, wall=0)
    cmd = [RUN, '--topology', topo, '--out', d, '--quiet', '--trace', '--timeout', str(a.timeout),
           '--app', a.stub,
           '--qemu-arg', '-drive', '--qemu-arg', 'file=%s,format=raw,if=none,id=benchimg' % img,
           '--qemu-arg', '-device', '--qemu-arg', 'ide-hd,drive=benchimg,bus=ide.1,bootindex=0',
           '--until', r'^(\[ *[0-9.]*\] )?Run /init as init process',
           '--qmp-on', '^aspmctl: starting ', qmp_trace(True)] + common_qemu_args()
    rc, wall = run(cmd, d, a.timeout)
    return dict(rc=rc, wall=wall)


def matrix_job(a, name='matrix', vars_file=None):
    """The matrix's own runner on a few cells; vars_file: start every cell
    from this OVMF variable store (ASPMCTL_OVMF_VARS) instead of the pristine one."""
    d = os.path.join(a.out, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    jobs = a.jobs if a.full_matrix else a.matrix_jobs      # the whole matrix: as make matrix
    cmd = ['python3', MATRIX, '-j', str(jobs), '--out', d,
           '--results', os.path.join(d, 'results'), '--app', a.app, '--stub', a.stub]
    if not a.full_matrix:
        cmd += ['--only', a.matrix_only]
    if a.kernel_custom:
        cmd += ['--kernel', a.kernel]
    with open(os.path.join(d, 'bench.cmd'), 'w') as f:
        f.write(' '.join(shlex.quote(x) for x in cmd) + '\n')
    env = dict(os.environ)
    if vars_file:
        env['ASPMCTL_OVMF_VARS'] = vars_file
    t0 = time.time()
    rc = subprocess.run(cmd, stdout=open(os.path.join(d, 'run.out'), 'w'),
                        stderr=subprocess.STDOUT, env=env).returncode
    return dict(rc=rc, wall=time.time() - t0)


# ------------------------------------------------------------------ traces
TRACE_RE = re.compile(r'^\d+@(\d+\.\d+):(\S+) (.*)$')
SER_RE = re.compile(r'addr 0x([0-9a-f]+) val 0x([0-9a-f]+)')
MRO_RE = re.compile(r"addr 0x([0-9a-f]+) value 0x([0-9a-f]+) size (\d+) name '([^']*)'")
ANSI = re.compile(r'\x1b(\[[0-9;=?]*[ -/]*[@-~]|[()][A-Za-z0-9]|[@-Z\\-_])')
KEYS = ('ecam_r', 'ecam_w', 'ecam_r_absent', 'cf8_r', 'cf8_w', 'cfg_r', 'cfg_w', 'mro')


def scan_trace(path, interesting):
    """Stream QEMU's trace.  Return the serial lines matching `interesting`,
    each with the trace time and the cumulative counters at the line's first
    byte (start) and at its newline (end).

    Counters: ECAM (pcie-mmcfg-mmio) reads/writes, reads that found no
    function (all ones), CF8/CFC data accesses (pci-conf-data): every config
    access the guest made, whatever the function, when memory_region_ops_*
    tracing was on; cfg_r/cfg_w: QEMU's pci_cfg_read/write (functions that
    exist only); mro: memory_region_ops lines seen at all (tracing was on)."""
    c = dict.fromkeys(KEYS, 0)
    out = []
    buf, start, t_start, dlab = [], None, None, False
    with open(path, errors='replace') as f:
        for line in f:
            m = TRACE_RE.match(line)
            if not m:
                continue
            ev, rest = m.group(2), m.group(3)
            if ev == 'serial_write':
                s = SER_RE.search(rest)
                if not s:
                    continue
                addr, val = int(s.group(1), 16), int(s.group(2), 16)
                if addr == 3:
                    dlab = bool(val & 0x80)
                    continue
                if addr != 0 or dlab:
                    continue
                if not buf and start is None:
                    start, t_start = dict(c), float(m.group(1))
                if val == 0x0a:
                    text = ANSI.sub('', ''.join(buf)).replace('\r', '')
                    if interesting.search(text):
                        out.append(dict(text=text, t0=t_start, t1=float(m.group(1)),
                                        start=start, end=dict(c)))
                    buf, start = [], None
                else:
                    buf.append(chr(val))
            elif ev.startswith('memory_region_ops_'):
                c['mro'] += 1
                s = MRO_RE.search(rest)
                if not s:
                    continue
                name, size = s.group(4), int(s.group(3))
                rd = ev.endswith('read')
                if name == 'pcie-mmcfg-mmio':
                    if rd:
                        c['ecam_r'] += 1
                        if int(s.group(2), 16) == (1 << (8 * size)) - 1:
                            c['ecam_r_absent'] += 1
                    else:
                        c['ecam_w'] += 1
                elif name == 'pci-conf-data':
                    c['cf8_r' if rd else 'cf8_w'] += 1
            elif ev == 'pci_cfg_read':
                c['cfg_r'] += 1
            elif ev == 'pci_cfg_write':
                c['cfg_w'] += 1
    return out


def diff(a, b):
    return {k: b[k] - a[k] for k in KEYS}


read = testlib.read_text


def ms(s):
    m = re.match(r'^([0-9.]+)(ns|us|ms|s)$', s)
    if not m:
        return None
    return float(m.group(1)) * {'ns': 1e-6, 'us': 1e-3, 'ms': 1.0, 's': 1e3}[m.group(2)]


def serial_sections(serial):
    secs, cur = {}, None
    for l in serial.splitlines():
        m = re.match(r'^bench-go (\S+)$', l)
        e = re.match(r'^bench-end (\S+) lasterror=(\S*)', l)
        if m:
            cur = m.group(1)
            secs[cur] = []
        elif e:
            secs[e.group(1) + '.lasterror'] = e.group(2)
            cur = None
        elif cur:
            secs[cur].append(l)
    return secs


def app_stats(lines):
    """The first complete `aspm stats` record (docs/records.md)."""
    for r in records.parse_all(lines, ('stats',)):
        if all(k in r for k in ('reads', 'writes', 'time', 'enum-time')):
            return dict(reads=int(r['reads']), writes=int(r['writes']),
                        time_ms=ms(r['time']), enum_ms=ms(r['enum-time']))
    return None


def analyze_shell(n, topo, a, problems):
    d = os.path.join(a.out, 'runs', 'shell-%d' % n)
    res = dict(status=read(os.path.join(d, 'status')).strip())
    serial = read(os.path.join(d, 'serial.log'))
    secs = serial_sections(serial)
    tr = os.path.join(d, 'trace.log')
    if not os.path.exists(tr):
        if os.path.exists(tr + '.summary.json'):
            marks = json.load(open(tr + '.summary.json'))
        else:
            problems.append('shell-%d: no trace.log' % n)
            return res
    else:
        marks = scan_trace(tr, re.compile(r'^bench-(begin|go|end) '))
        if not a.keep_traces:
            with open(tr + '.summary.json', 'w') as f:
                json.dump(marks, f)
            os.unlink(tr)
    go = {re.match(r'bench-go (\S+)', m['text']).group(1): m for m in marks if m['text'].startswith('bench-go ')}
    end = {m['text'].split()[1]: m for m in marks if m['text'].startswith('bench-end ')}
    begin = {m['text'].split()[1]: m for m in marks if m['text'].startswith('bench-begin ')}
    for p in PHASES:
        if p not in go or p not in end:
            problems.append('shell-%d: phase %s not found in the trace' % (n, p))
            continue
        c = diff(go[p]['end'], end[p]['start'])
        ph = dict(trace=c, wall_ms=round((end[p]['t0'] - go[p]['t1']) * 1000, 1),
                  lasterror=secs.get(p + '.lasterror'))
        # memory_region_ops tracing (turned on over QMP when the Shell printed
        # "bench-begin P") must be on before "bench-go P": the stall between
        # the two polls the ACPI timer, so its reads show up once it is on
        b = begin.get(p)
        ph['mro'] = p != 'dump' or n <= DUMP_MRO_MAX
        ph['dump_all'] = n <= DUMP_ALL_MAX
        if ph['mro'] and (b is None or go[p]['start']['mro'] <= b['end']['mro']):
            problems.append('shell-%d %s: memory_region_ops tracing was not on in time '
                            '(raise STALL_US)' % (n, p))
        if p == 'dump' and ph['mro'] and c['ecam_r'] + c['cf8_r'] != c['cfg_r']:
            problems.append('shell-%d dump: %d config reads, %d of them to existing functions: '
                            'the pci_cfg_* count is not the whole count' % (n, c['ecam_r'] + c['cf8_r'], c['cfg_r']))
        if p in ('report', 'full', 'apply'):
            st = app_stats(secs.get(p, []))
            ph['app'] = st
            if st is None:
                problems.append('shell-%d %s: no aspm stats line' % (n, p))
            else:
                # the cross-check: the app's own counters vs QEMU's trace
                tot = c['ecam_r'] + c['cf8_r']
                ph['check_reads'] = tot == st['reads']
                ph['check_writes'] = c['ecam_w'] + c['cf8_w'] == st['writes']
                if not ph['check_reads']:
                    problems.append('shell-%d %s: app says reads=%d, the trace has %d' %
                                    (n, p, st['reads'], tot))
                if not ph['check_writes']:
                    problems.append('shell-%d %s: app says writes=%d, the trace has %d' %
                                    (n, p, st['writes'], c['ecam_w'] + c['cf8_w']))
        res[p] = ph
    # --scan full must find what bridge-following found, and every expected function
    fnset = lambda p: {r.words[0] for r in records.parse_all(secs.get(p, []), ('fn',)) if r.words}
    want = {f['addr'] for f in expect.expectation(topo)[0]}
    for p in ('report', 'full', 'apply'):
        if p in secs and fnset(p) != want:
            problems.append('shell-%d %s: fn records differ from the topology (%d reported, %d expected)'
                            % (n, p, len(fnset(p)), len(want)))
    # the Shell's config dumps are the device models' facts for the minimum
    res['dumps'] = minreads.parse_dumps('\n'.join(secs.get('dump', [])))
    return res


def analyze_linux(n, a, problems):
    d = os.path.join(a.out, 'runs', 'linux-%d' % n)
    res = dict(status=read(os.path.join(d, 'status')).strip())
    tr = os.path.join(d, 'trace.log')
    pat = re.compile(r'^(aspmctl [^:]|aspmctl: starting |aspmctl: time from entry|aspm stats |'
                     r'aspm summary |aspmctl: wrote |'
                     r'(\[ *[0-9.]*\] )?Run /init as init process|EFI stub: )')
    if os.path.exists(tr):
        marks = scan_trace(tr, pat)
        if not a.keep_traces:
            with open(tr + '.summary.json', 'w') as f:
                json.dump(marks, f)
            os.unlink(tr)
    elif os.path.exists(tr + '.summary.json'):
        marks = json.load(open(tr + '.summary.json'))
    else:
        problems.append('linux-%d: no trace.log' % n)
        return res
    first = lambda rx: next((m for m in marks if re.search(rx, m['text'])), None)
    ver, start, init = first(r'^aspmctl [^:]'), first(r'^aspmctl: starting '), first(r'Run /init as init')
    serial = read(os.path.join(d, 'serial.log'))
    m = re.search(r'^aspmctl: time from entry to StartImage (\S+)', serial, re.M)
    res['entry_to_start_ms'] = ms(m.group(1)) if m else None
    st = app_stats(serial.splitlines())
    res['app'] = st
    if ver and start:
        res['app_trace_ms'] = round((start['t1'] - ver['t0']) * 1000, 1)
        # where the chainloader's time goes (trace timestamps)
        # boot mode: version, config-before.txt written, policy run (aspm
        # stats), config-after.txt, aspm summary, boot.txt, starting
        stats, summ = first(r'^aspm stats '), first(r'^aspm summary ')
        wrote = [m for m in marks if m['text'].startswith('aspmctl: wrote ')]
        if stats and summ:
            before = next((m for m in wrote if m['t1'] <= stats['t0']), None)
            after = [m for m in wrote if stats['t1'] <= m['t0'] and m['t1'] <= start['t0']]
            last = after[-1] if after else summ
            policy_from = before['t1'] if before else ver['t0']
            res['split_ms'] = dict(
                dump_before=round((policy_from - ver['t0']) * 1000, 1),
                to_stats=round((stats['t1'] - policy_from) * 1000, 1),
                results_file=round((last['t1'] - stats['t1']) * 1000, 1),
                load_next=round((start['t0'] - last['t1']) * 1000, 1))
    if start and init:
        c = diff(start['end'], init['start'])
        res['trace'] = c
        res['kernel_ms'] = round((init['t0'] - start['t1']) * 1000, 1)
        if c['mro'] == 0:
            problems.append('linux-%d: memory_region_ops tracing was not on' % n)
    else:
        problems.append('linux-%d: no "aspmctl: starting" or "Run /init" line (status: %s)' %
                        (n, res['status']))
    if res['entry_to_start_ms'] is None:
        problems.append('linux-%d: no "time from entry to StartImage" line' % n)
    return res


def analyze_matrix(a, problems, name='matrix'):
    d = os.path.join(a.out, name)
    mj = os.path.join(d, 'matrix.json')
    if not os.path.exists(mj):
        problems.append('matrix: no matrix.json')
        return None
    m = json.load(open(mj))
    cells = []
    for c in m.get('cells', []):
        cd = os.path.join(d, 'cells', c['name'])
        lines = read(os.path.join(cd, 'serial.log')).splitlines()
        times = [float(x) for x in read(os.path.join(cd, 'serial.times')).split()]
        st = dict(x.split('=', 1) for x in read(os.path.join(cd, 'status')).split() if '=' in x)
        if len(times) != len(lines):
            problems.append('matrix %s: serial.times does not match serial.log' % c['name'])
            continue

        def t_of(rx):
            i = next((i for i, l in enumerate(lines) if re.search(rx, l)), None)
            return None if i is None else times[i]
        t_app = t_of(r'^aspmctl [^:]')
        t_start = t_of(r'^aspmctl: starting ')
        t_init = t_of(r'Run /init as init process')
        t_done = t_of(r'^=== aspmctl-init: done ===')
        wall = float(st.get('wall', 'nan'))
        row = dict(name=c['name'], verdict=c['verdict'], wall=wall, cell_time=c['time'])
        if None in (t_app, t_start, t_init, t_done):
            if '.patched' in c['name'] or '.unpatched' in c['name']:
                problems.append('matrix %s: a phase line is missing' % c['name'])
            # app cells (UEFI Shell, no kernel): wall time only
        else:
            row.update(ovmf=t_app, app=t_start - t_app, kernel=t_init - t_start,
                       guest_checks=t_done - t_init, stop=max(0.0, wall - t_done))
        cells.append(row)
    # the time split and the target are about app -> kernel cells
    if a.full_matrix:
        cells = [c for c in cells if c.get('ovmf') is not None and '.patched' in c['name']]
    nc = max(1, len(cells))
    out = dict(cells=cells, boot_wall=m.get('boot_wall'), check_wall=m.get('check_wall'),
               jobs=m.get('jobs'), host_checks_per_cell=round((m.get('check_wall') or 0) / nc, 2))
    # the whole matrix: measured with --full-matrix, else projected from
    # these cells (stated as such)
    try:
        ncells = len([l for l in subprocess.run(['python3', MATRIX, '--list'], capture_output=True,
                                                text=True).stdout.splitlines() if l.strip()])
    except OSError:
        ncells = None
    out['all_cells'] = ncells
    out['full_run'] = bool(a.full_matrix)
    if a.full_matrix:
        out['whole_wall'] = m.get('boot_wall')
    elif ncells and cells:
        walls = [c['wall'] for c in cells if c['wall'] == c['wall']]
        out['whole_projection'] = round(ncells * statistics.mean(walls) / max(1, a.jobs), 0)
    return out


# ------------------------------------------------------------------ tables
def fmt_ratio(x):
    return '-' if x is None else '%.2f' % x


def build_rows(sizes, shells, linuxes, mins):
    rows = []
    for n in sizes:
        s, l, mn = shells.get(n, {}), linuxes.get(n, {}), mins.get(n)
        g = lambda p, k: ((s.get(p) or {}).get('app') or {}).get(k)
        t = lambda p, k: ((s.get(p) or {}).get('trace') or {}).get(k)
        row = dict(functions=n)
        row['links'] = mn['links'] if mn else None
        row['min_reads'] = mn['total'] if mn else None
        row['report_reads'] = g('report', 'reads')
        row['report_trace_reads'] = (t('report', 'ecam_r') or 0) + (t('report', 'cf8_r') or 0) if s.get('report') else None
        row['report_trace_present'] = t('report', 'cfg_r')
        row['report_ms'] = g('report', 'time_ms')
        row['report_enum_ms'] = g('report', 'enum_ms')
        row['apply_reads'] = g('apply', 'reads')
        row['apply_writes'] = g('apply', 'writes')
        row['apply_trace_reads'] = (t('apply', 'ecam_r') or 0) + (t('apply', 'cf8_r') or 0) if s.get('apply') else None
        row['apply_trace_writes'] = (t('apply', 'ecam_w') or 0) + (t('apply', 'cf8_w') or 0) if s.get('apply') else None
        row['apply_ms'] = g('apply', 'time_ms')
        row['full_reads'] = g('full', 'reads')
        row['full_trace_reads'] = (t('full', 'ecam_r') or 0) + (t('full', 'cf8_r') or 0) if s.get('full') else None
        row['full_ms'] = g('full', 'time_ms')
        if s.get('pci'):
            row['shell_pci_accesses'] = sum(t('pci', k) for k in ('ecam_r', 'ecam_w', 'cf8_r', 'cf8_w'))
            row['shell_pci_ms'] = s['pci']['wall_ms']
        if s.get('dump') and s['dump']['dump_all']:
            # config reads of existing functions (pci_cfg_*), see DUMP_MRO_MAX
            row['shell_dump_accesses'] = t('dump', 'cfg_r') + t('dump', 'cfg_w')
            row['shell_dump_ms'] = s['dump']['wall_ms']
        if 'shell_pci_accesses' in row and 'shell_dump_accesses' in row:
            row['shell_facts_accesses'] = row['shell_pci_accesses'] + row['shell_dump_accesses']
            row['shell_facts_ms'] = round(row['shell_pci_ms'] + row['shell_dump_ms'], 1)
        if l.get('trace'):
            c = l['trace']
            row['linux_accesses'] = c['ecam_r'] + c['ecam_w'] + c['cf8_r'] + c['cf8_w']
            row['linux_present'] = c['cfg_r'] + c['cfg_w']
            row['linux_ms'] = l.get('kernel_ms')
        row['boot_reads'] = (l.get('app') or {}).get('reads')
        row['entry_to_start_ms'] = l.get('entry_to_start_ms')
        row['app_trace_ms'] = l.get('app_trace_ms')
        row['split'] = l.get('split_ms')
        if row['min_reads'] and row['report_reads']:
            row['ratio'] = row['report_reads'] / row['min_reads']
            row['reads_per_fn'] = row['report_reads'] / n
            row['min_per_fn'] = row['min_reads'] / n
        if mn:
            row['apply_min_reads'] = mn['total'] + (row['apply_writes'] or 0)
            if row['apply_reads']:
                row['apply_ratio'] = row['apply_reads'] / row['apply_min_reads']
        rows.append(row)
    return rows


def markdown(rows, mx, targets, meta):  # noqa: C901
    o = []
    o.append('Measured %s on %s (%s), QEMU %s under TCG, %d jobs; load average before / after: %s / %s.\n' %
             (meta['date'], meta['host'], meta['cpus'], meta['qemu'], meta['jobs'],
              meta['load_before'], meta['load_after']))
    o.append('### Config accesses and time per topology\n')
    o.append('| functions | links | minimum reads | report reads (trace) | ratio | reads/fn (min/fn) '
             '| report time (enum) | apply --policy force reads / writes (ratio) | `--scan full` reads '
             '| Shell `pci` accesses, time | Shell `pci` + `pci B D F` accesses, time '
             '| Linux to /init accesses (present fns) | entry → StartImage |')
    o.append('| ' + ' | '.join(['---:'] * 13) + ' |')
    for r in rows:
        f = lambda k, fmt='%s': '-' if r.get(k) is None else fmt % r[k]
        o.append('| %d | %s | %s | %s (%s) | %s | %s (%s) | %s (%s) ms | %s / %s (%s) | %s | %s, %s ms | %s, %s ms | %s (%s) | %s ms |' % (
            r['functions'], f('links'), f('min_reads'), f('report_reads'), f('report_trace_reads'),
            fmt_ratio(r.get('ratio')), f('reads_per_fn', '%.1f'), f('min_per_fn', '%.1f'),
            f('report_ms', '%.1f'), f('report_enum_ms', '%.1f'),
            f('apply_reads'), f('apply_writes'), fmt_ratio(r.get('apply_ratio')), f('full_reads'),
            f('shell_pci_accesses'), f('shell_pci_ms', '%.0f'),
            f('shell_facts_accesses'), f('shell_facts_ms', '%.0f'),
            f('linux_accesses'), f('linux_present'), f('entry_to_start_ms', '%.1f')))
    o.append('')
    if any(r.get('split') for r in rows):
        o.append('### Chainloader: from the app\'s entry to StartImage of the kernel\n')
        o.append('| functions | entry → StartImage (app, TSC) | same, trace | enumeration + `config-before.txt` '
                 '| policy run (to `aspm stats`) | `config-after.txt`, `boot.txt` | LoadImage of the kernel '
                 '| kernel: StartImage → /init |')
        o.append('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
        for r in rows:
            sp = r.get('split') or {}
            f = lambda v: '-' if v is None else '%.0f ms' % v
            o.append('| %d | %s | %s | %s | %s | %s | %s | %s |' % (
                r['functions'], f(r.get('entry_to_start_ms')), f(r.get('app_trace_ms')),
                f(sp.get('dump_before')), f(sp.get('to_stats')), f(sp.get('results_file')),
                f(sp.get('load_next')), f(r.get('linux_ms'))))
        o.append('')
    if mx:
        o.append('### Matrix cells (app → patched kernel), seconds since QEMU started\n')
        o.append('| cell | verdict | OVMF start | app | kernel to /init | checks in the guest | QEMU stop | wall |')
        o.append('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
        for c in mx['cells']:
            f = lambda k: '-' if c.get(k) is None else '%.1f' % c[k]
            o.append('| %s | %s | %s | %s | %s | %s | %s | %s |' % (
                c['name'], c['verdict'], f('ovmf'), f('app'), f('kernel'), f('guest_checks'),
                f('stop'), f('wall')))
        o.append('')
        o.append('%d cells, %s at a time: boots %.0f s, host-side checks %.1f s (%.2f s per cell); '
                 'median cell wall %.1f s.' % (
                     len(mx['cells']), mx['jobs'], mx['boot_wall'] or 0, mx['check_wall'] or 0,
                     mx['host_checks_per_cell'], mx.get('median_wall') or 0))
        w = mx.get('warm')
        if w and w.get('cells'):
            med = lambda cs, k: statistics.median(c[k] for c in cs if c.get(k) is not None)
            o.append('')
            o.append('The same cells, each started from an OVMF variable store that OVMF has already '
                     'initialised (ASPMCTL_OVMF_VARS = a copy of one earlier run\'s), medians:\n')
            o.append('| variable store | OVMF start | app | kernel to /init | checks in the guest | wall | verdicts |')
            o.append('| --- | ---: | ---: | ---: | ---: | ---: | --- |')
            for label, cs in (('pristine (as `make matrix`)', mx['cells']), ('initialised', w['cells'])):
                o.append('| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %s |' % (
                    label, med(cs, 'ovmf'), med(cs, 'app'), med(cs, 'kernel'), med(cs, 'guest_checks'),
                    med(cs, 'wall'), ', '.join('%d %s' % (sum(1 for c in cs if c['verdict'] == v), v)
                                               for v in sorted({c['verdict'] for c in cs}))))
            o.append('')
        if mx.get('full_run'):
            o.append('Whole matrix: %s cells, boots %.0f s (%s at a time).' % (
                mx['all_cells'], mx['whole_wall'] or 0, mx['jobs']))
        elif mx.get('whole_projection'):
            o.append('Whole matrix (%s cells, not run here: `BENCH_ARGS=--full-matrix`): about %.0f s '
                     'at %d at a time, projected from the mean cell wall above (cells on the large '
                     'topology take longer).' % (mx['all_cells'], mx['whole_projection'], meta['jobs']))
        o.append('')
    o.append('### Targets\n')
    o.append('| target | measured | met |')
    o.append('| --- | --- | --- |')
    for t in targets:
        o.append('| %s | %s | %s |' % (t['target'], t['measured'], 'yes' if t['met'] else '**no**'))
    o.append('')
    return '\n'.join(o)


def targets_of(rows, mx):
    out = []
    ratios = [r['ratio'] for r in rows if r.get('ratio') is not None]
    if ratios:
        out.append(dict(target='app reads (report) ≤ 1.10 × computed minimum, every size',
                        measured='ratio %s' % ', '.join('%.2f' % x for x in ratios),
                        met=max(ratios) <= 1.10))
    per = [r['reads_per_fn'] for r in rows if r.get('reads_per_fn') is not None]
    if per:
        spread = (max(per) - min(per)) / min(per)
        out.append(dict(target='reads per function flat (±10%) from smallest to largest',
                        measured='%s reads/fn (spread %.0f%%)' % (
                            ', '.join('%.1f' % x for x in per), spread * 100),
                        met=spread <= 0.10))     # (max - min) / min: stricter than ±10%
    sh = [(r['functions'], r['report_reads'], r.get('shell_pci_accesses'), r.get('shell_facts_accesses'))
          for r in rows if r.get('report_reads') is not None and r.get('shell_pci_accesses')]
    if sh:
        # the same facts: `pci` + `pci B D F` where the bench dumped every
        # function; above DUMP_ALL_MAX the `pci` listing alone (fewer facts)
        out.append(dict(target='fewer config accesses than the UEFI Shell `pci` for the same facts '
                               '(`pci` + `pci B D F` of every function; listing alone above %d functions)'
                               % DUMP_ALL_MAX,
                        measured='; '.join('%d fns: %d vs %s' % (
                            n, a, ('%d (listing alone %d)' % (c, b)) if c is not None else
                            'listing alone %d' % b) for n, a, b, c in sh),
                        met=all(a < (c if c is not None else b) for n, a, b, c in sh)))
    if mx and mx.get('median_wall') is not None:
        out.append(dict(target='median matrix cell (app → patched kernel) < 15 s under TCG',
                        measured='%.1f s (%d cells, %s at a time)' % (mx['median_wall'], len(mx['cells']),
                                                                     mx['jobs']),
                        met=mx['median_wall'] < 15))
    return out


def loadavg():
    try:
        return ' '.join(open('/proc/loadavg').read().split()[:3])
    except OSError:
        return '?'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=os.path.join(REPO, 'build', 'bench'))
    ap.add_argument('--sizes', default='8,32,64,128,256')
    ap.add_argument('-j', '--jobs', type=int, default=2)
    ap.add_argument('--app', default=os.path.join(REPO, 'build', 'aspmctl.efi'))
    ap.add_argument('--stub', default=os.path.join(REPO, 'build', 'efi-stub.efi'))
    ap.add_argument('--kernel')
    ap.add_argument('--initrd')
    ap.add_argument('--timeout', type=int, default=400)
    ap.add_argument('--matrix-only', default=MATRIX_CELLS)
    ap.add_argument('--matrix-jobs', type=int, default=1,
                    help='matrix cells at a time (default 1: per-cell times without self-contention)')
    ap.add_argument('--full-matrix', action='store_true',
                    help='run every cell of the matrix, -j as the boots (about 25 minutes)')
    ap.add_argument('--no-kernel', action='store_true')
    ap.add_argument('--no-matrix', action='store_true')
    ap.add_argument('--keep-traces', action='store_true')
    ap.add_argument('--analyze-only', action='store_true')
    a = ap.parse_args()
    a.out = os.path.abspath(a.out)
    a.app = os.path.abspath(a.app)
    a.stub = os.path.abspath(a.stub)
    a.kernel_custom = False
    sizes = [int(x) for x in a.sizes.split(',')]
    if not a.no_kernel and not a.kernel:
        env = os.path.join(REPO, 'linux', 'kernel-env.sh')
        get = lambda k: subprocess.run([env, '--get', k], capture_output=True, text=True).stdout.strip()
        a.kernel, a.initrd = get('KERNEL_PATCHED'), get('INITRAMFS')
    elif a.kernel:
        a.kernel_custom = True
    if not a.no_kernel and not (a.kernel and os.path.exists(a.kernel) and a.initrd and os.path.exists(a.initrd)):
        print('bench: no kernel (make kernel, or --kernel/--initrd, or --no-kernel)', file=sys.stderr)
        return 2
    os.makedirs(os.path.join(a.out, 'topo'), exist_ok=True)
    meta = dict(date=time.strftime('%Y-%m-%d %H:%M'), host='this machine',
                cpus='%d CPUs' % os.cpu_count(), jobs=a.jobs, load_before=loadavg(),
                qemu=(subprocess.run(['qemu-system-x86_64', '--version'], capture_output=True,
                                     text=True).stdout.split('\n')[0].split('version ')[-1].split()[0]))
    topos = {}
    for n in sizes:
        p = os.path.join(a.out, 'topo', 'bench-%d.topo' % n)
        if not a.analyze_only:
            with open(p, 'w') as f:
                subprocess.run([sys.executable, GEN, str(n)], stdout=f, check=True)
        fns, _ = expect.expectation(p)
        if len(fns) != n:
            print('bench: %s has %d functions, not %d' % (p, len(fns), n), file=sys.stderr)
            return 1
        topos[n] = p
    t0 = time.time()
    runs = {}
    if not a.analyze_only:
        jobs = []
        for n in sorted(sizes, reverse=True):       # longest first
            jobs.append(('shell', n, shell_job, (n, topos[n], a)))
            if not a.no_kernel:
                jobs.append(('linux', n, linux_job, (n, topos[n], a)))
        print('bench: %d boots, %d at a time, output in %s' % (len(jobs), a.jobs, a.out), flush=True)
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            futs = {ex.submit(fn, *args): (kind, n) for kind, n, fn, args in jobs}
            for fu in cf.as_completed(futs):
                kind, n = futs[fu]
                r = fu.result()
                runs['%s-%d' % (kind, n)] = r
                print('bench: %s-%d rc=%d %.1f s' % (kind, n, r['rc'], r['wall']), flush=True)
        if not a.no_matrix:
            print('bench: matrix cells %s' % a.matrix_only, flush=True)
            r = matrix_job(a)
            runs['matrix'] = r
            print('bench: matrix rc=%d %.1f s' % (r['rc'], r['wall']), flush=True)
            # the same cells from a variable store OVMF has already initialised
            # (a copy of the smallest chainloader run's): OVMF then skips most
            # of its first-boot flash writes
            warm = os.path.join(a.out, 'runs', 'linux-%d' % min(sizes), 'OVMF_VARS.fd')
            if not a.no_kernel and not a.full_matrix and os.path.exists(warm):
                shutil.copy(warm, os.path.join(a.out, 'OVMF_VARS.warm.fd'))
                r = matrix_job(a, 'matrix-warm', os.path.join(a.out, 'OVMF_VARS.warm.fd'))
                runs['matrix-warm'] = r
                print('bench: matrix (warm variable store) rc=%d %.1f s' % (r['rc'], r['wall']), flush=True)
    t1 = time.time()
    problems = []
    shells, linuxes, mins = {}, {}, {}
    for n in sizes:
        shells[n] = analyze_shell(n, topos[n], a, problems)
        if shells[n].get('dumps'):
            try:
                mins[n] = minreads.minimum(topos[n], shells[n]['dumps'])
            except minreads.ModelError as e:
                problems.append('minimum %d: %s' % (n, e))
        if not a.no_kernel:
            linuxes[n] = analyze_linux(n, a, problems)
    mx = None if a.no_matrix else analyze_matrix(a, problems)
    if mx and mx['cells']:
        mx['median_wall'] = statistics.median(c['wall'] for c in mx['cells'])
    mxw = None
    if mx and os.path.exists(os.path.join(a.out, 'matrix-warm', 'matrix.json')):
        mxw = analyze_matrix(a, problems, 'matrix-warm')
        if mxw['cells']:
            mxw['median_wall'] = statistics.median(c['wall'] for c in mxw['cells'])
        if mx:
            mx['warm'] = mxw
    rows = build_rows(sizes, shells, linuxes, mins)
    targets = targets_of(rows, mx)
    meta['load_after'] = loadavg()
    meta['bench_wall'] = round(time.time() - t0, 1)
    meta['boot_wall'] = round(t1 - t0, 1)
    old = os.path.join(a.out, 'bench.json')
    if a.analyze_only and os.path.exists(old):
        # the figures are the run's: keep when and under which load it ran
        meta = json.load(open(old)).get('meta', meta)
    for n in sizes:
        shells[n].pop('dumps', None)
    result = dict(meta=meta, rows=rows, targets=targets, matrix=mx, problems=problems,
                  minimum={n: mins[n] for n in mins}, shell=shells, linux=linuxes, runs=runs)
    with open(os.path.join(a.out, 'bench.json'), 'w') as f:
        json.dump(result, f, indent=1, sort_keys=True)
    cols = ['functions', 'links', 'min_reads', 'report_reads', 'report_trace_reads',
            'report_trace_present', 'ratio', 'reads_per_fn', 'min_per_fn', 'report_ms',
            'report_enum_ms', 'apply_reads', 'apply_writes', 'apply_trace_reads', 'apply_trace_writes',
            'apply_min_reads', 'apply_ratio', 'apply_ms', 'full_reads', 'full_trace_reads', 'full_ms',
            'shell_pci_accesses', 'shell_pci_ms', 'shell_dump_accesses', 'shell_dump_ms',
            'shell_facts_accesses', 'shell_facts_ms', 'linux_accesses', 'linux_present', 'linux_ms',
            'boot_reads', 'entry_to_start_ms', 'app_trace_ms']
    with open(os.path.join(a.out, 'bench.csv'), 'w') as f:
        f.write(','.join(cols) + '\n')
        for r in rows:
            f.write(','.join('' if r.get(c) is None else
                             ('%.3f' % r[c] if isinstance(r[c], float) else str(r[c])) for c in cols) + '\n')
    md = markdown(rows, mx, targets, meta)
    if problems:
        md += '\n### Problems\n\n' + '\n'.join('- ' + p for p in problems) + '\n'
    with open(os.path.join(a.out, 'bench.md'), 'w') as f:
        f.write(md)
    with open(os.path.join(a.out, 'bench.svg'), 'w') as f:
        f.write(plot.svg(rows))
    print(md)
    print('bench: %s/bench.md, bench.csv, bench.json, bench.svg (%.0f s)' % (
        os.path.relpath(a.out, REPO) if a.out.startswith(REPO) else a.out, meta['bench_wall']))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
