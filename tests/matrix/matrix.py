#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# The QEMU matrix, the app against the kernels: boots every cell of
# tests/matrix/cells.tsv (topology x FADT flag x policy x OS stage x event)
# in parallel, each with
# its own output directory (run.sh: OVMF vars copy, ESP, serial log,
# pci_cfg trace, QMP socket, hard timeout), then cross-checks the app's
# records, the kernel's records and the Link Control writes in QEMU's trace.
# See tests/matrix/README.md.
#
#   tests/matrix/matrix.py [--set test|all] [--only REGEX] [-j N]
#       [--out DIR] [--results DIR] [--app EFI] [--stub EFI]
#       [--kernel BZIMAGE] [--timeout S] [--check-only] [--list]
#
# --kernel: a user's own kernel; it replaces both the patched and the
# unpatched kernel and is treated as "unknown": only the checks that hold for
# any kernel are made (topology, FADT message, the app's writes, no writes
# in notouch cells where the kernel prints our records).

import argparse
import concurrent.futures as cf
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import records  # noqa: E402
import testlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RUN = os.path.join(REPO, "tests/qemu/run.sh")
TOPODIR = os.path.join(REPO, "tests/qemu/topologies")
FADT_MSG = "ACPI FADT declares the system doesn't support PCIe ASPM"
MARK_DEV = "0000:00:1f.3"        # ICH9 SMBus, on every q35 machine
MARK_OFF, MARK_VAL = 0x0C, 0x5A  # a 1-byte write to Cache Line Size: the event delimiter
MARK_CMD = ("printf '\\132' | dd of=/sys/bus/pci/devices/%s/config bs=1 seek=12 count=1 "
            "conv=notrunc 2>/dev/null" % MARK_DEV)
NATIVE_HP = "ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off"

# policy -> (app conf lines, kernel command line, override, fadt_mode)
POLICIES = {
    "auto":       (["policy = auto"], "", "none", "notouch"),
    "fadt-clear": (["policy = auto", "fadt-mode = clear"], "pcie_aspm.fadt=clear", "none", "clear"),
    "clear":      (["policy = clear"], "pcie_aspm=clear", "clear", "notouch"),
    "notouch":    (["policy = notouch"], "pcie_aspm=off", "notouch", "notouch"),
    "force":      (["policy = force"], "pcie_aspm=force pcie_aspm.policy=powersave", "force", "notouch"),
    "keep":       (["policy = keep"], None, "keep", "notouch"),      # app only
}


def app_opts(policy):
    """The same policy as Shell options."""
    return " ".join("--" + l.replace(" = ", " ") for l in POLICIES[policy][0])


def action_of(policy, fadt, osc="granted"):
    """docs/policy.md's table. os_control: QEMU's own _OSC grants ASPM; a
    topology whose SSDT adds a host bridge that refuses it says osc=denied
    (topo_osc)."""
    _, _, override, mode = POLICIES[policy]
    if override != "none":
        return override
    if fadt:
        return "clear" if mode == "clear" else "notouch"
    return "keep" if osc == "granted" else "notouch"


def topo_osc(path):
    """'denied' when an acpitable line of the topology says osc=denied."""
    with open(path) as f:
        for line in f:
            w = line.split("#", 1)[0].split()
            if w and w[0] == "acpitable" and "osc=denied" in w[2:]:
                return "denied"
    return "granted"


# ------------------------------------------------------------------ cells
def load_cells(path):
    cells = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].rstrip()
            if not line.strip():
                continue
            f_ = line.split()
            if f_[0] == "name":
                continue
            if len(f_) != 7:
                raise SystemExit("%s:%d: want 7 columns, got %d" % (path, n, len(f_)))
            name, topo, fadt, policy, stage, event, sets = f_
            if policy not in POLICIES or stage not in ("app", "patched", "unpatched") \
                    or fadt not in ("0", "1") or not re.match(r"^(-|remove=\S+|qmp=\S+@\S+)$", event):
                raise SystemExit("%s:%d: bad cell %s" % (path, n, line))
            if policy == "keep" and stage != "app":
                raise SystemExit("%s:%d: keep has no kernel equivalent (app stage only)" % (path, n))
            if not os.path.exists(os.path.join(TOPODIR, topo + ".topo")):
                raise SystemExit("%s:%d: no topology %s" % (path, n, topo))
            ev = {"kind": "none"}
            if event.startswith("remove="):
                ev = {"kind": "remove", "bdf": event[7:]}
            elif event.startswith("qmp="):
                qid, bdf = event[4:].split("@")
                ev = {"kind": "qmp", "id": qid, "bdf": bdf}
            cells.append(dict(name=name, topo=topo, fadt=fadt == "1", policy=policy, stage=stage,
                              event=ev, event_s=event, sets=sets.split(","),
                              action=action_of(policy, fadt == "1",
                                               topo_osc(os.path.join(TOPODIR, topo + ".topo")))))
    names = [c["name"] for c in cells]
    dup = {x for x in names if names.count(x) > 1}
    if dup:
        raise SystemExit("duplicate cell names: %s" % sorted(dup))
    return cells


def kernel_cmdline(cell, custom):
    k = ["console=ttyS0", "initrd=\\initrd.img", "panic=-1", 'dyndbg="file aspm.c +p"']
    if POLICIES[cell["policy"]][1]:
        k.append(POLICIES[cell["policy"]][1])
    ev = cell["event"]
    if ev["kind"] != "none":
        k.append('aspmctl.run="%s"' % MARK_CMD)
    if ev["kind"] == "remove":
        k.append('aspmctl.run="echo 1 > /sys/bus/pci/devices/%s/remove"' % ev["bdf"])
    elif ev["kind"] == "qmp":
        k.append('aspmctl.run="echo matrix-event: device_del"')
        k.append('aspmctl.run="for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do '
                 '[ -e /sys/bus/pci/devices/%s ] || break; sleep 1; done; ls /sys/bus/pci/devices"'
                 % ev["bdf"])
    return " ".join(k)


# ------------------------------------------------------------------ running
def prepare_and_run(cell, a, kern):
    d = os.path.join(a.out, "cells", cell["name"])
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    topo = os.path.join(TOPODIR, cell["topo"] + ".topo")
    cmd = [RUN, "--topology", topo, "--out", d, "--quiet", "--trace", "--timeout", str(a.timeout)]
    ev = cell["event"]
    if ev["kind"] == "qmp":
        cmd += ["--qemu-arg", "-global", "--qemu-arg", NATIVE_HP]
    if cell["stage"] == "app":
        A = "fs0:\\aspmctl.efi"
        opts = app_opts(cell["policy"])
        nsh = []
        if cell["fadt"]:
            nsh.append("%s fadt --set-no-aspm" % A)
        sec = lambda n, c: nsh.extend(['echo "matrix-begin %s"' % n, c,
                                       'echo "matrix-end %s lasterror=%%lasterror%%"' % n])
        sec("apply", "%s apply %s" % (A, opts))
        if ev["kind"] != "none":
            sec("remove", "%s remove %s %s" % (A, ev["bdf"], opts))
        with open(os.path.join(d, "startup.nsh"), "w") as f:
            f.write("\n".join(nsh) + "\n")
        cmd += ["--app", a.app, "--nsh", os.path.join(d, "startup.nsh")]
    else:
        conf = ["command = boot"] + POLICIES[cell["policy"]][0]
        if cell["fadt"]:
            conf.append("emulate-fadt = set-no-aspm")
        conf += ["next = \\vmlinuz.efi", "next-options = " + kernel_cmdline(cell, a.kernel)]
        with open(os.path.join(d, "aspmctl.conf"), "w") as f:
            f.write("\n".join(conf) + "\n")
        # A FAT image, not run.sh's vvfat ESP: the app writes its results there
        # and QEMU 7.2's vvfat does not keep guest writes (see product.sh).
        img = os.path.join(d, "boot.img")
        sh = ("mkfs.vfat -C -n MATRIX %s 16384 >/dev/null && mmd -i %s ::/EFI ::/EFI/BOOT ::/EFI/aspmctl && "
              "mcopy -i %s %s ::/EFI/BOOT/BOOTX64.EFI && mcopy -i %s %s ::/EFI/aspmctl/aspmctl.conf && "
              "mcopy -i %s %s ::/vmlinuz.efi && mcopy -i %s %s ::/initrd.img") % tuple(
            shlex.quote(x) for x in (img, img, img, a.app, img, os.path.join(d, "aspmctl.conf"),
                                     img, kern[cell["stage"]], img, kern["initrd"]))
        r = subprocess.run(sh, shell=True, capture_output=True, text=True)
        if r.returncode:
            return dict(verdict="FAIL", why="FAT image: " + r.stderr.strip(), wall=0)
        cmd += ["--app", a.stub, "--until", "^=== aspmctl-init: done ===",
                "--qemu-arg", "-drive", "--qemu-arg", "file=%s,format=raw,if=none,id=mximg" % img,
                "--qemu-arg", "-device", "--qemu-arg", "ide-hd,drive=mximg,bus=ide.1,bootindex=0"]
        if ev["kind"] == "qmp":
            cmd += ["--qmp-on", "^matrix-event: device_del$",
                    json.dumps({"execute": "device_del", "arguments": {"id": ev["id"]}})]
    with open(os.path.join(d, "matrix.cmd"), "w") as f:
        f.write(" ".join(shlex.quote(x) for x in cmd) + "\n")
    t0 = time.time()
    try:
        r = subprocess.run(cmd, stdout=open(os.path.join(d, "run.out"), "w"), stderr=subprocess.STDOUT,
                           timeout=a.timeout + 60)
        rc = r.returncode
    except subprocess.TimeoutExpired:
        rc = 124
    wall = time.time() - t0
    if rc == 124:
        return dict(verdict="TIMEOUT", why="no stop marker within %d s (run.sh: %s)" %
                    (a.timeout, read(os.path.join(d, "status")).strip()), wall=wall)
    if rc != 0:
        return dict(verdict="FAIL", why="run.sh exit %d: %s" % (rc, read(os.path.join(d, "status")).strip()),
                    wall=wall)
    return dict(verdict="RAN", why="", wall=wall)


read = testlib.read_text


# ------------------------------------------------------------------ parsing
TYPES = {"root-port": "root_port", "endpoint": "endpoint", "legacy-endpoint": "legacy_endpoint",
         "upstream-port": "upstream_port", "downstream-port": "downstream_port",
         "pcie-pci-bridge": "pcie_to_pci_bridge", "pci-pcie-bridge": "pci_to_pcie_bridge",
         "rc-endpoint": "rc_integrated", "rc-event-collector": "rc_event_collector",
         "pci": "pci", "pci-bridge": "pci"}


section = testlib.init_section
pci_map = testlib.pci_map


def kernel_records(serial):
    recs = dict(links=[], decision=[], teardown=[])
    for r in records.kernel_records(section(serial, "dmesg") or ""):
        recs[{"link": "links"}.get(r.kind, r.kind)].append(r.fields)
    return recs


def trace_writes(path):
    return testlib.trace_writes(read(path))


def app_part(serial, stage):
    """The app's lines: before 'aspmctl: starting' (boot mode), or per Shell section."""
    lines = serial.splitlines()
    if stage != "app":
        end = next((i for i, l in enumerate(lines) if l.startswith("aspmctl: starting ")), len(lines))
        return {"apply": lines[:end]}
    secs = {}
    for name, sec in testlib.shell_sections(lines, "matrix").items():
        secs[name] = sec["lines"]
        if sec["lasterror"] is not None:
            secs[name + ".lasterror"] = sec["lasterror"]
    return secs


def app_records(lines):
    r = dict(fn={}, links=[], writes=[], decision=None, teardown=[], stats=None)
    for rec in records.parse_all(lines):
        if rec.kind == "fn":
            r["fn"][rec.words[0]] = rec.fields
        elif rec.kind == "link":
            r["links"].append(rec.fields)
        elif rec.kind == "write":
            w = dict(rec.fields)
            w["bdf"] = rec.words[0]
            w["end"] = rec.words[-1]
            r["writes"].append(w)
        elif rec.kind == "decision":
            r["decision"] = rec.fields
        elif rec.kind == "teardown":
            r["teardown"].append(rec.fields)
        elif rec.kind == "stats":
            r["stats"] = rec.fields
    return r


def kernel_links(fns):
    """(up, down) pairs from sysfs: a port and the first function on its secondary bus."""
    kids = {}
    for b, x in fns.items():
        if x.get("parent", "-") != "-":
            kids.setdefault(x["parent"], []).append(b)
    pairs = []
    for up, ch in kids.items():
        if fns[up].get("type") in ("root_port", "downstream_port", "pci_to_pcie_bridge"):
            pairs.append((up, min(ch)))
    return sorted(pairs)


def bits(states):
    s = set((states or "none").split(","))
    return (1 if s & {"L0s", "L0s-up", "L0s-dw"} else 0) | (2 if "L1" in s else 0)


# ------------------------------------------------------------------ checks
# Fields of an "aspm link" record compared between the app and the patched
# kernel.  All fields are meaningful for both; none is left out.
LINK_FIELDS = ("up", "down", "nfn", "hops", "support", "bios", "capable", "action", "target",
               "clkpm", "l1ss", "reason")


class Checker:
    def __init__(self, cell, d, unknown_kernel):
        self.cell, self.d, self.unknown = cell, d, unknown_kernel
        self.checks = []        # (name, ok|FAIL|skip|expected, detail)

    def say(self, name, ok, detail=""):
        self.checks.append((name, "ok" if ok else "FAIL", detail))
        return ok

    def known(self, name, detail):
        self.checks.append((name, "known", detail))

    def note(self, name, detail):
        self.checks.append((name, "skip", detail))


def lnkctl_map(fns):
    return {b: int(x["pciecap"], 16) + 0x10 for b, x in fns.items() if "pciecap" in x}


def ccc_diff(got, want):
    """' (retrained X, expected Y)' when the sets of ports differ, else ''."""
    if got == want:
        return ""
    return " (retrained %s, expected %s)" % (",".join(got) or "none", ",".join(want) or "none")


def kernel_enabled(K, tkern):
    """ASPM Control bits the kernel believes enabled per upstream port after
    boot (its link->aspm_enabled): the last value it wrote; where it wrote
    nothing, ALL for a blacklisted link (non-PCIe or pre-1.1 function, see
    pcie_aspm_cap_init()), else what the BIOS enabled."""
    en = {}
    for l in K["links"]:
        why = set((l.get("reason") or "-").split(","))
        en[l.get("up")] = 3 if why & {"non-pcie-fn", "pre-1.1"} else bits(l.get("bios"))
    for b, v in tkern:
        en[b] = v & 3
    return en


def writes_match(expect, got):
    """Equal lists of (bdf, value); an expected value None matches any value
    with ASPM Control (bits 1:0) zero."""
    return len(expect) == len(got) and all(
        eb == gb and (ev == gv if ev is not None else not gv & 3)
        for (eb, ev), (gb, gv) in zip(expect, got))


def split_trace(writes, lnk, app_writes, fns):
    """Link Control writes of the trace in three phases: app, kernel, event.
    OVMF makes no Link Control write before the app (checked by the app phase
    matching exactly), so the app's phase is the first len(app_writes) Link
    Control writes; the kernel's phase runs to the marker write /init makes
    before the event; the event phase is what follows it."""
    mark = max([i for i, (b, o, v) in enumerate(writes) if b == MARK_DEV and o == MARK_OFF and v == MARK_VAL],
               default=None)
    ctl = [(i, b, v) for i, (b, o, v) in enumerate(writes) if lnk.get(b) == o]
    n = len(app_writes)
    app = [(b, v) for _, b, v in ctl[:n]]
    # pci_configure_rcb(): the kernel's first Link Control write to each
    # endpoint/bridge below a port sets Read Completion Boundary only
    rcb_pending = {b for b, x in fns.items()
                   if x.get("type") in ("endpoint", "legacy_endpoint", "pcie_to_pci_bridge")
                   and x.get("parent", "-") != "-"}
    kern, ev = [], []
    for i, b, v in ctl[n:]:
        if b in rcb_pending:
            rcb_pending.discard(b)
            continue
        (ev if mark is not None and i > mark else kern).append((b, v))
    return app, kern, ev, mark is not None


def check_cell(cell, d, res, allres, unknown):
    C = Checker(cell, d, unknown)
    serial = read(os.path.join(d, "serial.log"))
    st = cell["stage"]
    app = app_part(serial, st)
    A = app_records(app.get("apply", []))
    writes = trace_writes(os.path.join(d, "trace.log"))
    want = cell["action"]
    ev = cell["event"]

    # the app's own result
    dec = A["decision"] or {}
    C.say("app-decision", dec.get("action") == want and dec.get("fadt-no-aspm") == ("1" if cell["fadt"] else "0"),
          "app: %s; want action=%s fadt-no-aspm=%d" % (dec or "no decision record", want, cell["fadt"]))
    aw = [w for w in A["writes"] if w.get("end") in ("ok", "ignored")]
    if want in ("notouch", "keep") and cell["policy"] != "keep":
        C.say("app-notouch-no-writes" if want == "notouch" else "app-keep-writes",
              want != "notouch" or (not A["writes"] and (A["stats"] or {}).get("writes") == "0"),
              "app write records %d, stats writes=%s" % (len(A["writes"]), (A["stats"] or {}).get("writes")))

    if st == "app":
        fns = sibling_fns(cell, allres)
        lnk = lnkctl_map(fns) if fns else {}
        if not lnk:     # no kernel cell on this topology: the offsets the app wrote
            lnk = {w["bdf"]: int(w["off"], 16) for w in A["writes"]}
        ctl = [(b, v) for b, o, v in writes if lnk.get(b) == o]
        exp = [(w["bdf"], int(w["new"], 16)) for w in aw]
        C.say("writes-app", ctl == exp, first_diff("trace", ctl, "app records", exp) +
              ("" if fns else " (Link Control offsets from the app's records: no kernel cell on this topology)"))
        if ev["kind"] != "none":
            R = app_records(app.get("remove", []))
            C.say("app-remove-predicts", bool(R["teardown"]) and app.get("remove.lasterror") == "0x0",
                  "remove %s: %d teardown records, lasterror %s" %
                  (ev["bdf"], len(R["teardown"]), app.get("remove.lasterror")))
        return C

    # ---------------- kernel stages
    fns = pci_map(serial)
    K = kernel_records(serial)
    if not C.say("kernel-report", bool(fns) and "=== aspmctl-init: done ===" in serial,
                 "pci section %s, init done %s" % (bool(fns), "=== aspmctl-init: done ===" in serial)):
        return C
    start = [l for l in serial.splitlines() if l.startswith("aspmctl: starting ")]
    C.say("app-chainloads", bool(start), start[0] if start else "no 'aspmctl: starting' line")

    # 1. topology
    afn = {b: (x.get("id"), x.get("class"), TYPES.get(x.get("type"), x.get("type")), x.get("parent"))
           for b, x in A["fn"].items()}
    kfn = {b: ("%s:%s" % (x.get("vendor", "")[2:], x.get("device", "")[2:]), x.get("class", "")[2:],
               x.get("type"), x.get("parent")) for b, x in fns.items()}
    diff = ["%s: app %s kernel %s" % (b, afn.get(b), kfn.get(b))
            for b in sorted(set(afn) | set(kfn)) if afn.get(b) != kfn.get(b)]
    C.say("1-topology-functions", not diff and afn,
          "%d functions equal" % len(afn) if not diff else "; ".join(diff[:4]))
    apairs = sorted((l.get("up"), l.get("down")) for l in A["links"])
    kpairs = kernel_links(fns)
    C.say("1-topology-links", apairs == kpairs,
          "%d links equal" % len(apairs) if apairs == kpairs else first_diff("app", apairs, "sysfs", kpairs))

    # 2. FADT flag
    kmsg = FADT_MSG in serial
    C.say("2-fadt", kmsg == cell["fadt"],
          "app fadt-no-aspm=%s, kernel %s" % (dec.get("fadt-no-aspm"),
                                             "logs '%s'" % FADT_MSG if kmsg else "does not log the FADT message"))
    # a user's kernel that prints our records (it carries the series) gets the
    # patched kernel's checks 3 to 5; any other unknown kernel only 1, 2 and the app's writes
    patched = (st == "patched" and not unknown) or (unknown and bool(K["links"] or K["decision"]))
    if unknown:
        C.note("kernel", "unknown kernel %s: %s" % (
            "with aspm records (checked as patched)" if patched else "without aspm records",
            (section(serial, "version") or "?").splitlines()[0][:100]))
    if patched:
        kd = K["decision"][-1] if K["decision"] else {}
        C.say("2-fadt-record", kd.get("fadt-no-aspm") == dec.get("fadt-no-aspm"),
              "kernel decision %s" % (kd or "missing"))

    # 3. decisions
    if patched:
        kd = K["decision"][-1] if K["decision"] else {}
        fields = ("fadt-no-aspm", "osc", "override", "fadt-mode", "action")
        dd = ["%s app=%s kernel=%s" % (f, dec.get(f), kd.get(f)) for f in fields if dec.get(f) != kd.get(f)]
        C.say("3-decision", not dd and kd, "; ".join(dd) or "equal: " + " ".join("%s=%s" % (f, kd.get(f)) for f in fields))
        al = {(l.get("up")): l for l in A["links"]}
        kl = {(l.get("up")): l for l in K["links"]}
        dd = []
        if cell["policy"] == "notouch" and not unknown:
            # pcie_aspm=off keeps upstream's semantics: the kernel builds no
            # link state, so it prints the decision record only (an intended
            # difference: the app records every link it leaves alone)
            C.say("3-link-records", not kl and al,
                  "pcie_aspm=off: no kernel link record (app: %d links)" % len(al) if not kl else
                  "pcie_aspm=off: kernel printed link records for %s" % sorted(kl))
            al = kl = {}
        for up in sorted(set(al) | set(kl)):
            x, y = al.get(up), kl.get(up)
            if not x or not y:
                dd.append("link %s: only in %s" % (up, "app" if x else "kernel"))
                continue
            for f in LINK_FIELDS:
                if x.get(f) != y.get(f):
                    dd.append("%s %s: app %s kernel %s" % (up, f, x.get(f), y.get(f)))
        if al or kl or cell["policy"] != "notouch" or unknown:
            C.say("3-link-records", not dd and al, "%d links, all %d fields equal" % (len(al), len(LINK_FIELDS))
                  if not dd else "; ".join(dd[:4]) + (" (+%d)" % (len(dd) - 4) if len(dd) > 4 else ""))
    elif st == "unpatched" or unknown:
        if not unknown:
            C.say("6-no-records", not K["links"] and not K["decision"],
                  "unpatched kernel printed %d link records" % len(K["links"]))

    # 4. writes
    lnk = lnkctl_map(fns)
    tapp, tkern, tev, marked = split_trace(writes, lnk, aw, fns)
    exp = [(w["bdf"], int(w["new"], 16)) for w in aw]
    C.say("4-writes-app", tapp == exp,
          "%d app writes in the trace as recorded" % len(exp) if tapp == exp else
          first_diff("trace", tapp, "app records", exp))
    # pcie_aspm_cap_init() configures Common Clock (and retrains) only on a
    # link that is not blacklisted (pcie_aspm_sanity_check(): a non-PCIe or a
    # pre-1.1 function on it) and where both ends support some ASPM state:
    # exactly the links the app reports with support other than none.
    ccc_ports = sorted({l.get("up") for l in A["links"] if l.get("support", "none") != "none"})
    retrained = sorted({b for b, v in tkern if v & 0x20})
    nlinks = len(ccc_ports)
    retrains = len(retrained)
    ccc_ok = retrained == ccc_ports
    links_by_fn = {}
    for l in (K["links"] if patched else []):
        for b, x in fns.items():
            if b == l.get("up") or x.get("parent") == l.get("up"):
                links_by_fn[b] = l
    if unknown and not patched:
        C.note("4-writes-kernel", "unknown kernel: %d Link Control writes at boot (%d retrains) %s" %
               (len(tkern), retrains, fmtw(tkern)))
    elif patched:
        over = [(b, v) for b, v in tkern if b in links_by_fn and (v & 3) & ~bits(links_by_fn[b].get("target"))]
        if want in ("clear", "notouch"):
            C.say("4-writes-kernel", not tkern, "want no Link Control write, got %s" % fmtw(tkern))
        elif want == "keep":
            C.say("4-writes-kernel", ccc_ok and not over,
                  "CCC + retrain on %d/%d links with ASPM support%s; ASPM bits beyond target: %s" %
                  (retrains, nlinks, ccc_diff(retrained, ccc_ports), fmtw(over)))
        else:
            en = [(b, v) for b, v in tkern if v & 3]
            C.say("4-writes-kernel", not over,
                  "ASPM enables within target (powersave applies only where a driver binds): %s; beyond: %s"
                  % (fmtw(en), fmtw(over)))
    else:
        # 6. unpatched: the known differences, asserted
        if cell["policy"] == "notouch":
            C.say("6-unpatched-writes", not tkern, "pcie_aspm=off: no write expected, got %s" % fmtw(tkern))
        elif cell["policy"] == "force":
            C.say("6-unpatched-writes", ccc_ok, "force: CCC + retrain on %d/%d links with ASPM support%s, enables %s" %
                  (retrains, nlinks, ccc_diff(retrained, ccc_ports), fmtw([(b, v) for b, v in tkern if v & 3])))
        else:
            why = {"auto": "FADT no-ASPM: 6.1 keeps BIOS config but still writes CCC + retrain"
                   if cell["fadt"] else "default",
                   "fadt-clear": "pcie_aspm.fadt= unknown to 6.1" + (": FADT bit only keeps BIOS config, CCC + retrain written"
                                                                     if cell["fadt"] else ""),
                   "clear": "pcie_aspm=clear unknown to 6.1: default writes"}[cell["policy"]]
            C.say("6-unpatched-writes", ccc_ok and not any(v & 3 for b, v in tkern),
                  "%s: CCC + retrain on %d/%d links with ASPM support%s, ASPM enables %s" %
                  (why, retrains, nlinks, ccc_diff(retrained, ccc_ports), fmtw([(b, v) for b, v in tkern if v & 3])))
        if cell["fadt"]:
            C.say("6-unpatched-fadt", "FADT indicates ASPM is unsupported, using BIOS configuration" in serial,
                  "6.1 logs 'FADT indicates ASPM is unsupported, using BIOS configuration'")
    # cross-check with the same cell on the other kernel: identical kernel writes where no difference is intended
    if not unknown and st == "unpatched" and (cell["policy"] in ("force",) or
                                             (cell["policy"] == "auto" and not cell["fadt"])):
        sib = find(allres, cell, stage="patched")
        if sib and sib.get("tkern") is not None:
            C.say("6-same-as-patched", sib["tkern"] == tkern,
                  "identical boot writes" if sib["tkern"] == tkern else
                  first_diff("unpatched", tkern, "patched", sib["tkern"]))

    # 5. teardown
    if ev["kind"] != "none":
        after = section(serial, "run.3" if ev["kind"] == "qmp" else "run.2")
        gone = after is not None and (ev["bdf"] not in after.split("\n", 1)[-1] if ev["kind"] == "qmp"
                                      else "end run.2 rc=0" in serial)
        C.say("5-event", marked and gone, "marker write in the trace: %s; %s gone after %s: %s" %
              (marked, ev["bdf"], "QMP device_del" if ev["kind"] == "qmp" else "sysfs remove", gone))
        if patched:
            pred = find(allres, cell, stage="app")
            kt = K["teardown"]
            if want == "notouch":
                C.say("5-teardown-writes", not tev, "notouch: no write on removal, got %s" % fmtw(tev))
            if cell["policy"] == "notouch" and not unknown:
                # pcie_aspm=off: no link state, so nothing to tear down
                C.say("5-teardown-records", not kt, "pcie_aspm=off: want no kernel teardown record, got %d" % len(kt))
            elif not pred or pred.get("remove") is None:
                C.note("5-teardown", "no app-alone cell with the same topology/FADT/policy/event to predict it")
            else:
                P = pred["remove"]
                f = ("dev", "link-up", "action", "dropped", "reconfigured")
                pt = [tuple(x.get(k) for k in f) for x in P["teardown"]]
                ktt = [tuple(x.get(k) for k in f) for x in kt]
                # in order: the app follows pci_remove_bus_device()'s
                # depth-first, bus-list order, as Linux does
                C.say("5-teardown-records", pt == ktt,
                      "%d records equal, in order (%s)" % (len(pt), ",".join(f)) if pt == ktt else
                      first_diff("app remove", pt, "kernel", ktt))
                pw = [(w["bdf"], int(w["new"], 16)) for w in P["writes"] if w.get("step") == "teardown"]
                # Intended divergences (linux/README.md, docs/policy.md): the kernel
                # clears the upstream port only (pci_destroy_dev() has taken the
                # removed function off the bus list), and only on links it had
                # enabled itself (pcie_config_aspm_link() skips a link already in
                # the requested state; under force, powersave was applied only
                # where a driver bound).  So: the app's prediction restricted to
                # the link-up ports of its teardown records whose link the kernel
                # had enabled at boot, in the same order.
                ups = [x.get("link-up") for x in P["teardown"]]
                expect = [(b, v) for b, v in pw if b in ups and kernel_enabled(K, tkern).get(b)]
                # One more intended divergence: pcie_aspm_cap_init() marks a
                # blacklisted link enabled=ALL "so that we will disable ASPM
                # later"; under powersave nothing configured it at boot (no
                # driver bound), so the kernel's teardown writes ASPM off to a
                # port the app had already left off (nothing for the app to
                # write).  Expected: one write with ASPM Control 0 (value None).
                predicted = {b for b, _ in pw}
                for up in dict.fromkeys(ups):
                    if up not in predicted and kernel_enabled(K, tkern).get(up):
                        expect.append((up, None))
                C.say("5-teardown-writes", writes_match(expect, tev),
                      "app predicts %s; restricted to ports the kernel had enabled %s; kernel wrote %s" %
                      (fmtw(pw), fmtw(expect), fmtw(tev)))
        elif not unknown and st == "unpatched":
            C.note("5-teardown", "unpatched: teardown writes after the event %s" % fmtw(tev))
    C.tkern = tkern
    return C


def fmtw(w):
    return "[" + " ".join("%s<-%s" % (b[5:], "aspm-off" if v is None else "%#06x" % v) for b, v in w[:8]) + (" ...+%d" % (len(w) - 8) if len(w) > 8 else "") + "]"


def first_diff(an, a, bn, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "first difference at #%d: %s %s, %s %s" % (i, an, x, bn, y)
    if len(a) != len(b):
        return "%s has %d, %s has %d (next: %s)" % (an, len(a), bn, len(b),
                                                    (a[len(b)] if len(a) > len(b) else b[len(a)]))
    return "equal"


def find(allres, cell, stage):
    for c in allres:
        x = c["cell"]
        if x["stage"] == stage and x["topo"] == cell["topo"] and x["fadt"] == cell["fadt"] \
                and x["policy"] == cell["policy"] and x["event_s"] == cell["event_s"]:
            return c
    return None


def sibling_fns(cell, allres):
    for c in allres:
        if c["cell"]["topo"] == cell["topo"] and c.get("fns"):
            return c["fns"]
    return None


# ------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description="QEMU matrix: app vs kernel, cell by cell")
    ap.add_argument("--cells", default=os.path.join(HERE, "cells.tsv"))
    ap.add_argument("--set", default="all", help="cells whose sets column has this (test), or all")
    ap.add_argument("--only", default=None, help="regex on cell names")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", default=os.path.join(REPO, "build/matrix"))
    ap.add_argument("--results", default=os.path.join(REPO, "build/results"))
    ap.add_argument("--app", default=os.path.join(REPO, "build/aspmctl.efi"))
    ap.add_argument("--stub", default=os.path.join(REPO, "build/efi-stub.efi"))
    ap.add_argument("--kernel", default=None, help="your own bzImage (both kernel stages, unknown-kernel checks)")
    ap.add_argument("--initrd", default=None)
    ap.add_argument("--timeout", type=int, default=int(os.environ.get("ASPMCTL_TIMEOUT", 240)))
    ap.add_argument("--check-only", action="store_true", help="re-check the logs of the last run, no boot")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    suite = testlib.Suite()        # one count per cell
    cells = load_cells(a.cells)
    if a.set != "all":
        cells = [c for c in cells if a.set in c["sets"]]
    if a.only:
        cells = [c for c in cells if re.search(a.only, c["name"])]
    if a.list:
        for c in cells:
            print(c["name"], c["topo"], int(c["fadt"]), c["policy"], c["stage"], c["event_s"], c["action"])
        return 0
    a.app = os.path.abspath(a.app)
    a.out = os.path.abspath(a.out)
    a.results = os.path.abspath(a.results)
    a.stub = os.path.abspath(a.stub)
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(a.results, exist_ok=True)
    e = testlib.kernel_env(strict=False)
    unknown = a.kernel is not None
    kern = {"patched": a.kernel or e.get("KERNEL_PATCHED", ""),
            "unpatched": a.kernel or e.get("KERNEL_UNPATCHED", ""),
            "initrd": a.initrd or e.get("INITRAMFS", "")}
    if unknown:     # one kernel: the unpatched cells would repeat the patched ones
        cells = [c for c in cells if c["stage"] != "unpatched"]
    if not os.path.isfile(a.stub) and any(c["stage"] != "app" for c in cells):
        a.stub = os.path.join(a.out, "efi-stub.efi")
        subprocess.run([os.path.join(REPO, "tests/efi-stub/build.sh"), a.stub],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    missing = [p for p in [a.app] + ([a.stub, kern["patched"], kern["unpatched"], kern["initrd"]]
                                     if any(c["stage"] != "app" for c in cells) else []) if not os.path.isfile(p)]
    if missing:
        print("matrix: missing %s (make, make kernel, make build/efi-stub.efi)" % " ".join(missing))
        suite.add(0, 1)
        return suite.end(a.results, "matrix")
    t0 = time.time()
    print("matrix: %d cells, %d at a time, output in %s%s" % (len(cells), a.jobs, a.out,
          ", kernel %s (unknown-kernel checks)" % a.kernel if unknown else ""), flush=True)
    runs = {}
    # kernel cells first (longest), app cells last
    order = sorted(cells, key=lambda c: (c["stage"] == "app", c["topo"] != "large"))
    if not a.check_only:
        with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            futs = {ex.submit(prepare_and_run, c, a, kern): c for c in order}
            for fu in cf.as_completed(futs):
                c = futs[fu]
                try:
                    runs[c["name"]] = fu.result()
                except Exception as ex_:      # the runner itself
                    runs[c["name"]] = dict(verdict="FAIL", why="runner: %r" % ex_, wall=0)
                r = runs[c["name"]]
                print("  %-7s %-48s %5.1f s %s" % (r["verdict"] if r["verdict"] != "RAN" else "booted",
                                                  c["name"], r["wall"], r["why"][:100]), flush=True)
                json.dump(r, open(os.path.join(a.out, "cells", c["name"], "run.json"), "w"))
    else:
        for c in cells:
            try:
                runs[c["name"]] = json.load(open(os.path.join(a.out, "cells", c["name"], "run.json")))
            except OSError:
                runs[c["name"]] = dict(verdict="FAIL", why="not run", wall=0)
    t1 = time.time()
    # checks: kernel cells first (app cells borrow their Link Control offsets; kernel
    # cells borrow the app cells' removal predictions, which need no checks)
    allres = []
    for c in cells:
        d = os.path.join(a.out, "cells", c["name"])
        entry = dict(cell=c, run=runs[c["name"]], dir=d)
        serial = read(os.path.join(d, "serial.log"))
        if c["stage"] == "app":
            secs = app_part(serial, "app")
            entry["remove"] = app_records(secs["remove"]) if "remove" in secs else None
        else:
            entry["fns"] = pci_map(serial)
        allres.append(entry)
    for ent in sorted(allres, key=lambda x: (x["cell"]["stage"] == "app", x["cell"]["stage"] == "unpatched")):
        c, r = ent["cell"], ent["run"]
        if r["verdict"] != "RAN":
            ent.update(verdict=r["verdict"], checks=[], first=r["why"])
            continue
        try:
            C = check_cell(c, ent["dir"], r, allres, unknown)
            ent["tkern"] = getattr(C, "tkern", None)
            fails = [x for x in C.checks if x[1] == "FAIL"]
            ent.update(verdict="FAIL" if fails else "PASS", checks=C.checks,
                       first=("%s: %s" % (fails[0][0], fails[0][2])) if fails else "")
        except Exception as ex_:
            import traceback
            ent.update(verdict="FAIL", checks=[], first="checker crashed: %r" % ex_)
            traceback.print_exc()
        with open(os.path.join(ent["dir"], "checks.txt"), "w") as f:
            for n, v, det in ent["checks"]:
                f.write("%-4s %s: %s\n" % (v, n, det))
    t2 = time.time()
    report(allres, a, t0, t1, t2, unknown)
    passed = sum(1 for x in allres if x["verdict"] == "PASS")
    suite.add(passed, len(allres) - passed)      # one cell, one count
    return suite.end(a.results, "matrix")


def report(allres, a, t0, t1, t2, unknown):
    order = {"app": 0, "patched": 1, "unpatched": 2}
    allres.sort(key=lambda x: (x["cell"]["topo"], x["cell"]["policy"], x["cell"]["fadt"],
                               x["cell"]["event_s"], order[x["cell"]["stage"]]))
    rows = []
    for x in allres:
        c = x["cell"]
        nok = sum(1 for k in x["checks"] if k[1] == "ok")
        rows.append(dict(name=c["name"], topology=c["topo"], fadt=int(c["fadt"]), policy=c["policy"],
                         stage=c["stage"], event=c["event_s"], action=c["action"], verdict=x["verdict"],
                         time=round(x["run"]["wall"], 1), checks_ok=nok,
                         checks=[dict(name=n, result=v, detail=d) for n, v, d in x["checks"]],
                         first_difference=x["first"], dir=os.path.relpath(x["dir"], REPO)))
    w = max([len(r["name"]) for r in rows] + [4])
    print()
    print("%-*s %-7s %6s %6s  %s" % (w, "cell", "verdict", "time", "checks", "first difference"))
    for r in rows:
        print("%-*s %-7s %5.1fs %6s  %s" % (w, r["name"], r["verdict"], r["time"],
                                            "%d/%d" % (r["checks_ok"], len(r["checks"])), r["first_difference"][:140]))
    summ = dict(cells=rows, boot_wall=round(t1 - t0, 1), check_wall=round(t2 - t1, 1), jobs=a.jobs,
                kernel=a.kernel or "series", passed=sum(r["verdict"] == "PASS" for r in rows),
                failed=sum(r["verdict"] != "PASS" for r in rows))
    json.dump(summ, open(os.path.join(a.out, "matrix.json"), "w"), indent=1)
    with open(os.path.join(a.out, "matrix.md"), "w") as f:
        f.write("# QEMU matrix: %d cells, %d passed, %d failed\n\n" % (len(rows), summ["passed"], summ["failed"]))
        f.write("Boots %.0f s (%d at a time), checks %.1f s; kernel: %s.\n\n" %
                (t1 - t0, a.jobs, t2 - t1, a.kernel or "the series (patched and unpatched)"))
        f.write("| cell | topology | FADT | policy | stage | event | action | verdict | time | checks | first difference |\n")
        f.write("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
        for r in rows:
            f.write("| %s | %s | %d | %s | %s | %s | %s | **%s** | %.1f s | %d/%d | %s |\n" % (
                r["name"], r["topology"], r["fadt"], r["policy"], r["stage"], r["event"], r["action"],
                r["verdict"], r["time"], r["checks_ok"], len(r["checks"]),
                r["first_difference"].replace("|", "\\|")[:200]))
        f.write("\n## Checks per cell\n")
        for r in rows:
            f.write("\n### %s: %s (`%s`)\n\n" % (r["name"], r["verdict"], r["dir"]))
            for k in r["checks"]:
                f.write("- %s `%s`: %s\n" % (k["result"], k["name"], k["detail"].replace("|", "\\|")))
    print("\nmatrix: boots %.0f s, checks %.1f s; summary %s/matrix.md, %s/matrix.json, logs %s/cells/NAME/" %
          (t1 - t0, t2 - t1, a.out, a.out, a.out))


if __name__ == "__main__":
    sys.exit(main())
