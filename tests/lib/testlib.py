# SPDX-License-Identifier: GPL-2.0-only
"""Helpers shared by the Python test drivers (tests/kernel/test-kernel.py,
tests/matrix/matrix.py, tests/qemu/product_check.py, tests/bench/bench.py,
...): the one pass/fail counter (Suite), kernel paths, Shell and init
sections, the sysfs map, QEMU trace writes, the initrd builder.
Record lines (docs/records.md) are parsed by records.py, beside this file.

    sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
    import testlib
"""
import os
import re
import shlex
import subprocess

import records

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class Suite:
    """The pass/fail count of one suite, printed as the shell suites print
    it (tests/qemu/lib.sh): "ok   WHAT" or "FAIL WHAT" per check, at the
    end "P passed, F failed" and "NAME P F" in RESULTS/NAME.count.

    out: where the lines go (default: stdout, flushed)."""

    def __init__(self, out=None):
        self.passed = 0
        self.failed = 0
        self.out = out or (lambda line: print(line, flush=True))

    def check(self, ok, what, why=None):
        """Count one check and print its line; a failure gets ": WHY"
        appended when WHY is not None.  Returns ok, unchanged."""
        if ok:
            self.passed += 1
            self.out("ok   " + what)
        else:
            self.failed += 1
            self.out("FAIL " + what + ("" if why is None else ": " + why))
        return ok

    def skip(self, what):
        """A check that did not run: "skip WHAT", counted neither way."""
        self.out("skip " + what)

    def add(self, passed, failed):
        """Counts made elsewhere (a unittest run, a matrix of cells)."""
        self.passed += passed
        self.failed += failed

    def status(self):
        """The exit status: 0 when nothing failed, else 1."""
        return 1 if self.failed else 0

    def end(self, results_dir, name):
        """Write "NAME P F" to RESULTS_DIR/NAME.count (RESULTS_DIR None:
        no file), print "P passed, F failed", return the exit status."""
        if results_dir is not None:
            os.makedirs(results_dir, exist_ok=True)
            with open(os.path.join(results_dir, name + ".count"), "w") as f:
                f.write("%s %d %d\n" % (name, self.passed, self.failed))
        self.out("%d passed, %d failed" % (self.passed, self.failed))
        return self.status()


def kernel_env(strict=True):
    """linux/kernel-env.sh's NAME=value lines as a dict (KERNEL_PATCHED,
    INITRAMFS, ...).  strict: a failure raises; otherwise {} is returned."""
    try:
        out = subprocess.run([os.path.join(REPO, "linux", "kernel-env.sh")], check=True,
                             capture_output=True, text=True).stdout
    except (subprocess.CalledProcessError, OSError):
        if strict:
            raise
        return {}
    env = {}
    for line in out.splitlines():
        k, _, val = line.partition("=")
        env[k] = shlex.split(val)[0] if val else ""
    return env


def cpio_initrd(gen, files, base, path):
    """Write the initrd PATH: a newc cpio archive of FILES, [(name in the
    archive, source file)] (their folders first, mode 0755, files 0644,
    owner 0:0), made by the kernel's usr/gen_init_cpio GEN from a list
    written beside PATH (NAME.list), then the archive BASE appended: the
    kernel unpacks concatenated archives in order (the initramfs of
    linux/build-initramfs.sh, with the files in front).  Returns PATH."""
    lines, dirs = [], []
    for name, _ in files:
        parts = name.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/" + "/".join(parts[:i])
            if d not in dirs:
                dirs.append(d)
                lines.append("dir %s 0755 0 0" % d)
    lines += ["file %s %s 0644 0 0" % (name, src) for name, src in files]
    lst = os.path.splitext(path)[0] + ".list"
    with open(lst, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    archive = subprocess.run([gen, "-t", "0", lst], check=True, capture_output=True).stdout
    with open(path, "wb") as f, open(base, "rb") as b:
        f.write(archive)
        f.write(b.read())
    return path


def shell_sections(lines, tag):
    """Split a UEFI Shell serial log into the sections a startup.nsh marked
    with "TAG-begin NAME" ... "TAG-end NAME lasterror=X":
    {NAME: {"lines": [...], "lasterror": "X" or None}}.  An end line without
    its begin line is ignored; lines outside sections are dropped."""
    begin = re.compile(r"^%s-begin (\S+)$" % re.escape(tag))
    end = re.compile(r"^%s-end (\S+) lasterror=(\S*)$" % re.escape(tag))
    secs, cur = {}, None
    for line in lines:
        m, e = begin.match(line), end.match(line)
        if m:
            cur = m.group(1)
            secs[cur] = {"lines": [], "lasterror": None}
        elif e:
            if e.group(1) in secs:
                secs[e.group(1)]["lasterror"] = e.group(2)
            cur = None
        elif cur:
            secs[cur]["lines"].append(line)
    return secs


def read_text(path):
    """A log file's text ('' when it is missing or unreadable)."""
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def init_result(serial, name):
    """(text, rc) of a section as linux/initramfs/init prints it: the text
    between "=== aspmctl-init: begin NAME ===" and its end line "===
    aspmctl-init: end NAME rc=RC", RC an int (None when not a number);
    (None, None) when the section is missing."""
    m = re.search(r"^=== aspmctl-init: begin %s ===\n(.*?)^=== aspmctl-init: end %s rc=(\S*)" %
                  (re.escape(name), re.escape(name)), serial, re.S | re.M)
    if not m:
        return None, None
    return m.group(1), int(m.group(2)) if re.fullmatch(r"-?\d+", m.group(2)) else None


def init_section(serial, name):
    """The text of the init's section NAME (init_result()); None when the
    section is missing."""
    return init_result(serial, name)[0]


def efivar_summary(section, guid):
    """(attributes, text) of the AspmctlSummary-GUID variable in the lines
    of the init's "efivars" section (hex rows after "variable NAME"), or
    (None, why)."""
    if section is None:
        return None, 'no efivars section'
    hexbytes, inside = [], False
    for line in section:
        if line.startswith('variable '):
            inside = line.strip() == 'variable AspmctlSummary-%s' % guid
            continue
        if inside and re.fullmatch(r'[0-9a-f ]+', line.strip() or 'x'):
            hexbytes += [int(b, 16) for b in line.split()]
    if len(hexbytes) < 4:
        return None, 'no AspmctlSummary-%s variable in efivarfs' % guid
    data = bytes(hexbytes)
    return int.from_bytes(data[:4], 'little'), data[4:].decode('ascii', 'replace')


def pci_map(serial):
    """The guest's functions from the init's "pci" section: {bdf: {key: value}}
    (vendor, device, class, type, parent, pciecap, ...)."""
    fns = {}
    for line in (init_section(serial, "pci") or "").splitlines():
        f = line.split()
        if len(f) >= 2 and f[0] == "pci":
            fns[f[1]] = records.fields(f[2:])
    return fns


TRACE_WRITE = re.compile(r"pci_cfg_write \S+ ([0-9a-f]+):([0-9a-f]+)\.([0-7]) @0x([0-9a-f]+) <- 0x([0-9a-f]+)")
# run.sh --trace also traces the serial port: transmitted bytes are writes to
# the 16550's register 0 while the Line Control register's DLAB (bit 7,
# register 3) is clear; with it set, register 0 is the divisor latch
TRACE_SERIAL = re.compile(r"serial_write write addr 0x0([03]) val 0x([0-9a-f]+)")


def trace_writes(text, until=None):
    """Config writes in a QEMU `-trace pci_cfg_*` log, in order:
    [(seg:bus:dev.fn, offset, value)] (q35 has one segment, 0000).

    With UNTIL (a string), only the writes made before the guest finished
    printing the line that contains UNTIL on the serial port: what the
    firmware does after that (the boot manager goes on while the supervisor
    stops QEMU) depends on timing.  None if UNTIL never appears."""
    out = []
    tx = bytearray()
    dlab = False
    seen = until is None
    for line in text.splitlines():
        m = TRACE_WRITE.search(line)
        if m:
            out.append(("0000:%02x:%02x.%s" % (int(m.group(1), 16), int(m.group(2), 16), m.group(3)),
                        int(m.group(4), 16), int(m.group(5), 16)))
            continue
        if seen:
            continue
        m = TRACE_SERIAL.search(line)
        if m and m.group(1) == "3":
            dlab = bool(int(m.group(2), 16) & 0x80)
        elif m and not dlab:
            tx.append(int(m.group(2), 16))
            if tx.endswith(b"\n") and until.encode() in tx:
                return out
    return out if seen else None
