#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run one QEMU instance headless and stop it when its serial console says so.

Used by tests/qemu/run.sh (see tests/qemu/README.md).  QEMU runs in OUT (so
socket paths stay short) and must be started with:

    -chardev file,id=ser0,path=serial.raw -serial chardev:ser0
    -qmp unix:qmp-ctl.sock,server=on,wait=off

A file chardev, because QEMU's 16550 drops bytes when a socket chardev
pushes back.  This script follows OUT/serial.raw and writes it, with ANSI
escape sequences and carriage returns removed, line by line to
OUT/serial.log (and to stdout unless --quiet).  When a line matches --until,
QEMU is asked to quit over its private QMP socket (then SIGTERM, SIGKILL).
With --skip-countdown, the UEFI Shell's "Press ESC in 5 seconds" prompt is
answered with an Enter key press (QMP send-key, PS/2 keyboard).

Exit status: 0 stop marker seen (or, with --exit-ok, QEMU exited by itself
with status 0, e.g. guest power-off), 124 TIMEOUT, 3 QEMU exited before the
marker, 125 QEMU could not be started, 130 interrupted.  OUT/status gets one
line of key=value facts, including wall times; OUT/serial.times has, for
each line of serial.log, the seconds since QEMU started when it was read
(to within the 50 ms poll).
"""
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

ANSI = re.compile(rb'\x1b(\[[0-9;=?]*[ -/]*[@-~]|[()][A-Za-z0-9]|[@-Z\\-_])')


def clean(raw):
    return ANSI.sub(b'', raw).replace(b'\r', b'').decode('utf-8', 'replace')


class Qmp:
    """Minimal QMP client on a unix socket (commands are synchronous)."""

    def __init__(self, path, qemu, deadline):
        self.f = None
        while time.monotonic() < deadline and qemu.poll() is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
            except OSError:
                s.close()
                time.sleep(0.02)
                continue
            s.settimeout(max(1.0, deadline - time.monotonic()))
            self.sock = s
            self.f = s.makefile('rwb', buffering=0)
            try:
                self.f.readline()                      # greeting
                s.settimeout(10)
                if self.cmd('qmp_capabilities') is None:
                    self.f = None
            except (OSError, ValueError):
                self.f = None
            return

    def cmd(self, name, **args):
        msg = {'execute': name}
        if args:
            msg['arguments'] = args
        return self.send(msg)

    def send(self, msg):
        if self.f is None:
            return None
        try:
            self.f.write(json.dumps(msg).encode() + b'\n')
            while True:
                line = self.f.readline()
                if not line:
                    return None
                rep = json.loads(line)
                if 'return' in rep or 'error' in rep:
                    return rep
        except (OSError, ValueError):
            return None


def stop_qemu(qemu, qmp):
    how = 'qmp-quit'
    if qemu.poll() is None and (qmp is None or qmp.cmd('quit') is None):
        how = 'sigterm'
        qemu.terminate()
    try:
        qemu.wait(timeout=10)
    except subprocess.TimeoutExpired:
        how = 'sigkill'
        qemu.kill()
        qemu.wait()
    return how


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--timeout', type=float, default=180)
    ap.add_argument('--until', action='append', default=[],
                    help='regex on a cleaned serial line that ends the run')
    ap.add_argument('--app-regex', default=r'^(aspmctl|efi-stub)[: ]',
                    help='first matching line = "app reached"')
    ap.add_argument('--skip-countdown', action='store_true',
                    help='press Enter when the UEFI Shell counts down')
    ap.add_argument('--exit-ok', action='store_true',
                    help='QEMU exiting by itself with status 0 is success')
    ap.add_argument('--grace', type=float, default=0.0,
                    help='seconds of serial to keep reading after the marker')
    ap.add_argument('--qmp-on', nargs=2, action='append', default=[],
                    metavar=('REGEX', 'JSON'),
                    help='when a serial line matches REGEX, send the QMP command '
                         'JSON (once), e.g. {"execute":"device_del","arguments":{"id":"x"}}')
    ap.add_argument('--quiet', action='store_true')
    ap.add_argument('qemu', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    argv = a.qemu[1:] if a.qemu and a.qemu[0] == '--' else a.qemu
    until = [re.compile(u) for u in a.until]
    app_re = re.compile(a.app_regex)
    qmp_on = [[re.compile(r), json.loads(j), False] for r, j in a.qmp_on]

    os.chdir(a.out)
    for f in ('serial.raw', 'serial.times', 'qmp.sock', 'qmp-ctl.sock', 'qmp.log'):
        if os.path.exists(f):
            os.unlink(f)
    t0 = time.monotonic()
    deadline = t0 + a.timeout
    try:
        qemu = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                stdout=open('qemu.log', 'wb'),
                                stderr=subprocess.STDOUT)
    except OSError as e:
        print(f'run: cannot start QEMU: {e}', file=sys.stderr)
        return 125
    qmp = Qmp('qmp-ctl.sock', qemu, min(deadline, t0 + 30))
    if qmp.f is None:
        if qemu.poll() is None:
            stop_qemu(qemu, None)
        sys.stderr.write(open('qemu.log', errors='replace').read())
        print(f'run: QEMU did not start (see {a.out}/qemu.log)', file=sys.stderr)
        return 125

    while not os.path.exists('serial.raw') and qemu.poll() is None:
        time.sleep(0.02)                  # normally created before QMP
    ser = open('serial.raw', 'rb') if os.path.exists('serial.raw') else open(os.devnull, 'rb')
    log = open('serial.log', 'w')
    times = open('serial.times', 'w')
    pending = b''
    t_app = t_marker = None
    marker = None
    countdown_skipped = False
    result = None

    def emit(line):
        nonlocal t_app, t_marker, marker
        log.write(line + '\n')
        log.flush()
        now = time.monotonic()
        times.write(f'{now - t0:.3f}\n')
        times.flush()
        if not a.quiet and marker is None:      # not what follows the marker
            sys.stdout.write(line + '\n')
            sys.stdout.flush()
        if t_app is None and app_re.search(line):
            t_app = now - t0
        if marker is None:
            for u in until:
                if u.search(line):
                    marker, t_marker = line, now - t0
                    break
        for ev in qmp_on:
            if not ev[2] and ev[0].search(line):
                ev[2] = True
                rep = qmp.send(ev[1])
                with open('qmp.log', 'a') as q:
                    q.write(f'{now - t0:.1f} {json.dumps(ev[1])} -> {json.dumps(rep)}\n')

    def on_sigterm(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_sigterm)

    grace_end = None
    try:
        while True:
            exited = qemu.poll() is not None      # check before the last read
            data = ser.read()
            if data:
                pending += data
                *lines, pending = pending.split(b'\n')
                for ln in lines:
                    emit(clean(ln))
                if (a.skip_countdown and not countdown_skipped
                        and b'any other key to continue' in pending):
                    qmp.cmd('send-key', keys=[{'type': 'qcode', 'data': 'ret'}])
                    countdown_skipped = True
            now = time.monotonic()
            if marker is not None and grace_end is None:
                grace_end = now + a.grace
            if grace_end is not None and now >= grace_end:
                result = 'done'
                break
            if exited:
                result = 'exited'
                break
            if now >= deadline:
                result = 'timeout'
                break
            if not data:
                time.sleep(0.05)
    except KeyboardInterrupt:
        result = 'interrupted'
    if pending:
        emit(clean(pending))
    how = stop_qemu(qemu, qmp) if qemu.poll() is None else 'self'
    wall = time.monotonic() - t0
    ser.close()
    log.close()
    times.close()

    if result == 'exited' and (marker is not None or
                               (a.exit_ok and qemu.returncode == 0)):
        result = 'done'
    rc = {'done': 0, 'timeout': 124, 'exited': 3, 'interrupted': 130}[result]
    fmt = lambda t: '-' if t is None else f'{t:.1f}'
    status = (f'status={result.upper()} rc={rc} wall={wall:.1f} '
              f'app={fmt(t_app)} marker_at={fmt(t_marker)} stop={how} '
              f'qemu_rc={qemu.returncode}')
    with open('status', 'w') as f:
        f.write(status + '\n')
    out = sys.stdout if rc == 0 else sys.stderr
    if rc == 0 and a.quiet:
        return 0                      # OUT/status has the facts
    if result == 'done':
        print(f'run: done in {wall:.1f} s (app reached at {fmt(t_app)} s, '
              f'stop marker at {fmt(t_marker)} s, QEMU stopped by {how})', file=out)
    elif result == 'timeout':
        print(f'run: TIMEOUT after {a.timeout:g} s: no stop marker seen '
              f'(app reached at {fmt(t_app)} s); QEMU stopped by {how}', file=out)
    elif result == 'exited':
        print(f'run: QEMU exited (rc={qemu.returncode}) before the stop marker; '
              f'see {a.out}/qemu.log', file=out)
    elif result == 'interrupted':
        print('run: interrupted', file=out)
    print(f'run: {status}', file=out)
    return rc


if __name__ == '__main__':
    sys.exit(main())
