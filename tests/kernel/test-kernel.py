#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot-time cells of tests/kernel/test-kernel.sh: boots the patched and the
# unpatched kernel of the current series in QEMU (linux/boot-test.sh) on
# tests/qemu/topologies/default.topo under each policy, with QEMU's
# pci_cfg_write trace, removes devices through sysfs, and checks:
#   - the patched kernel's decision records (docs/records.md) against the
#     decision table (docs/policy.md),
#   - the KUnit results (every pcie_aspm_decide case passes),
#   - the Link Control writes in the trace: the ASPM, Clock PM, Common
#     Clock and Retrain writes, i.e. every Link Control write except the
#     one Read Completion Boundary write pci_configure_rcb() makes to each
#     endpoint and bridge at probe time (its first Link Control write),
#   - the unpatched kernel on the same cells, its differences listed as
#     expected results.
# Prints one "ok NAME" or "FAIL NAME: why" line per check.
#
# Usage: tests/kernel/test-kernel.py --out DIR

import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import records  # noqa: E402
import testlib  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINUX = os.path.join(REPO, "linux")
TOPO = os.path.join(REPO, "tests/qemu/topologies/default.topo")
# a link with a conventional PCI function (blacklisted by 6.1's sanity check)
TOPO_BL = os.path.join(REPO, "tests/qemu/topologies/pci-below-rp.topo")
MARK_DEV_BL = "0000:00:1f.3"    # ICH9 SMBus: the marker on that topology
REMOVE_BL = ["0000:01:00.0", "0000:03:00.0"]    # the e1000 on the blacklisted link, the e1000e
DYNDBG = 'dyndbg="file aspm.c +p"'
MARK_DEV = "0000:00:03.0"       # RCiEP: a 1-byte write to 0x0c marks the removals
REMOVE = ["0000:02:00.0", "0000:01:00.0"]   # switch (takes its links along), an endpoint
FADT_MSG = "ACPI FADT declares the system doesn't support PCIe ASPM"

# cell: (name, command line, FADT bit set, action the table gives)
CELLS = [
    ("default", "", False, "keep"),
    ("fadt-clear", "pcie_aspm.fadt=clear", True, "clear"),
    ("fadt-notouch", "", True, "notouch"),
    ("clear", "pcie_aspm=clear", False, "clear"),
    ("off", "pcie_aspm=off", False, "notouch"),
    ("force", "pcie_aspm=force pcie_aspm.policy=powersave", False, "force"),
]

suite = testlib.Suite()


def report(name, ok, why=""):
    """One check: "ok   NAME" or "FAIL NAME: WHY"."""
    suite.check(ok, name, why)


def topo_args(topo=TOPO):
    args = []
    for line in open(topo):
        line = line.split("#", 1)[0].strip()
        if line.startswith("device "):
            args += ["-device", line.split(None, 1)[1]]
        elif line.startswith("machine "):
            raise SystemExit("topology with machine lines not supported here")
    return args


def boot(kernel, initrd, append, out, runs, topo=TOPO, dyndbg=DYNDBG):
    os.makedirs(out, exist_ok=True)
    trace = os.path.join(out, "trace")
    if os.path.exists(trace):
        os.unlink(trace)
    line = "%s %s %s" % (dyndbg, append, " ".join('aspmctl.run="%s"' % r for r in runs))
    cmd = [os.path.join(LINUX, "boot-test.sh"), "--kernel", kernel, "--initrd", initrd,
           "--out", out, "--timeout", "150", "--check-runs", "--append", line.strip(),
           "--"] + topo_args(topo) + ["-trace", "pci_cfg_write", "-D", trace]
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(out, "boot-test.log"), "w") as f:
        f.write(r.stdout + r.stderr)
    serial = open(os.path.join(out, "serial.log"), errors="replace").read() \
        if os.path.exists(os.path.join(out, "serial.log")) else ""
    tr = open(trace, errors="replace").read() if os.path.exists(trace) else ""
    return r.returncode == 0, serial, tr, time.time() - t0


def section(serial, name):
    return testlib.init_section(serial, name) or ""


pci_map = testlib.pci_map


def kernel_records(serial):
    """The kernel's records in the init's dmesg section: [(kind, {field: value})]."""
    return [(r.kind, r.fields) for r in records.kernel_records(section(serial, "dmesg"))]


def lnkctl_writes(trace, fns, mark_dev=MARK_DEV):
    """(boot, after-marker) lists of (bdf, value) ASPM-related Link Control writes."""
    lnk = {}
    for bdf, kv in fns.items():
        if "pciecap" in kv:
            lnk[bdf] = int(kv["pciecap"], 16) + 0x10
    rcb_types = ("endpoint", "legacy_endpoint", "pcie_to_pci_bridge")
    rcb_pending = {b for b, kv in fns.items()
                   if kv.get("type") in rcb_types and kv.get("parent", "-") != "-"}
    events = testlib.trace_writes(trace)
    mark = max([i for i, (b, o, v) in enumerate(events) if b == mark_dev and o == 0xc and v == 0x10],
               default=None)
    boot, after = [], []
    for i, (bdf, off, val) in enumerate(events):
        if lnk.get(bdf) != off:
            continue
        if bdf in rcb_pending:
            rcb_pending.discard(bdf)        # pci_configure_rcb()
            continue
        (after if mark is not None and i > mark else boot).append((bdf, val))
    return boot, after, mark is not None


def ports_with_links(fns):
    return sorted(b for b, kv in fns.items()
                  if kv.get("type") in ("root_port", "downstream_port")
                  and any(k2.get("parent") == b for k2 in fns.values()))


def fadt_initrd(facp_hex, gen, base, out):
    data = bytearray(int(x, 16) for x in facp_hex.split())
    if len(data) < 111 or data[:4] != b"FACP" or int.from_bytes(data[4:8], "little") != len(data):
        raise RuntimeError("bad FACP dump (%d bytes)" % len(data))
    data[109] |= 0x10                   # IAPC_BOOT_ARCH bit 4: PCIe ASPM Controls
    # The kernel takes an initrd table only with a higher OEM revision.
    rev = int.from_bytes(data[24:28], "little") + 1
    data[24:28] = rev.to_bytes(4, "little")
    data[9] = 0
    data[9] = (-sum(data)) & 0xff
    aml = os.path.join(out, "facp.aml")
    open(aml, "wb").write(data)
    return testlib.cpio_initrd(gen, [("/kernel/firmware/acpi/facp.aml", aml)], base,
                               os.path.join(out, "initrd-fadt.img"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    e = testlib.kernel_env()
    kern = {"patched": e["KERNEL_PATCHED"], "unpatched": e["KERNEL_UNPATCHED"]}
    marker = ("printf '\\020' | dd of=/sys/bus/pci/devices/%s/config bs=1 seek=12 count=1 "
              "conv=notrunc 2>/dev/null" % MARK_DEV)
    runs = [marker] + ["echo 1 > /sys/bus/pci/devices/%s/remove" % d for d in REMOVE]
    data = {}
    fadt_img = None
    times = []
    for name, append, fadt, action in CELLS:
        for v in ("patched", "unpatched"):
            tag = "%s-%s" % (v, name)
            initrd = e["INITRAMFS"]
            if fadt:
                if fadt_img is None:
                    report(tag + "-boot", False, "no FADT image (default cell failed)")
                    continue
                initrd = fadt_img
            cell_runs = list(runs)
            if tag == "patched-default":
                cell_runs = ["od -An -tx1 -v /sys/firmware/acpi/tables/FACP"] + cell_runs
            ok, serial, trace, secs = boot(kern[v], initrd, append, os.path.join(a.out, tag), cell_runs)
            times.append(secs)
            report(tag + "-boot", ok, "boot failed, see %s/boot-test.log" % os.path.join(a.out, tag))
            if not ok:
                continue
            fns = pci_map(serial)
            boot_w, after_w, marked = lnkctl_writes(trace, fns)
            data[tag] = dict(serial=serial, fns=fns, recs=kernel_records(serial), boot=boot_w,
                             after=after_w, marked=marked)
            if tag == "patched-default":
                dump = section(serial, "run.1").split("\n", 1)[1] if section(serial, "run.1") else ""
                try:
                    fadt_img = fadt_initrd(dump, os.path.join(e["KERNEL_BUILD_PATCHED"], "usr/gen_init_cpio"),
                                           e["INITRAMFS"], a.out)
                except Exception as ex:        # reported through the FADT cells
                    print("FADT image: %s" % ex, file=sys.stderr)
    # Records are quiet by default: the patched kernel without dyndbg=.
    ok, serial, trace, secs = boot(kern["patched"], e["INITRAMFS"], "", os.path.join(a.out, "patched-quiet"),
                                   runs, dyndbg="")
    times.append(secs)
    report("patched-quiet-boot", ok, "boot failed, see %s" % os.path.join(a.out, "patched-quiet"))
    if ok:
        loud = [l for l in section(serial, "dmesg").splitlines() if records.parse_kernel(l) is not None]
        report("patched-quiet-no-records", not loud and "=== aspmctl-init: done ===" in serial,
               "records printed without dyndbg: %s" % loud[:2])
    # A blacklisted link (conventional PCI function below a root port) with
    # the FADT bit (notouch) and with pcie_aspm=off, removals included.
    bl_runs = [marker.replace(MARK_DEV, MARK_DEV_BL)] + \
        ["echo 1 > /sys/bus/pci/devices/%s/remove" % d for d in REMOVE_BL]
    for name, append, fadt in (("bl-fadt-notouch", "", True), ("bl-off", "pcie_aspm=off", False)):
        for v in ("patched", "unpatched"):
            tag = "%s-%s" % (v, name)
            if fadt and fadt_img is None:
                report(tag + "-boot", False, "no FADT image (default cell failed)")
                continue
            ok, serial, trace, secs = boot(kern[v], fadt_img if fadt else e["INITRAMFS"], append,
                                           os.path.join(a.out, tag), bl_runs, topo=TOPO_BL)
            times.append(secs)
            report(tag + "-boot", ok, "boot failed, see %s/boot-test.log" % os.path.join(a.out, tag))
            if ok:
                fns = pci_map(serial)
                boot_w, after_w, marked = lnkctl_writes(trace, fns, MARK_DEV_BL)
                data[tag] = dict(serial=serial, fns=fns, recs=kernel_records(serial), boot=boot_w,
                                 after=after_w, marked=marked)
    print("# boots: %d, %.0fs in all, %.1fs each on average" %
          (len(times), sum(times), sum(times) / max(len(times), 1)))

    def have(*tags):
        return all(t in data for t in tags)

    # KUnit: every pcie_aspm_decide case passes (console KTAP of the patched kernel).
    if have("patched-default"):
        k = section(data["patched-default"]["serial"], "dmesg")
        rows_ok = len(re.findall(r"^\[[^]]*\]\s+ok \d+ row \d+:", k, re.M))
        bad = re.findall(r"^\[[^]]*\]\s+not ok \d+ .*", k, re.M)
        summ = re.search(r"# pcie_aspm_decide: pass:(\d+) fail:(\d+)", k)
        tsv_rows = sum(1 for l in open(os.path.join(REPO, "tests/vectors/decision.tsv"))
                       if l.strip() and not l.startswith("#"))
        report("patched-kunit", rows_ok == tsv_rows and not bad and summ and summ.group(2) == "0",
               "rows ok %d/%d, not ok: %s, summary %s" % (rows_ok, tsv_rows, bad[:3],
                                                       summ.group(0) if summ else None))

    for name, append, fadt, action in CELLS:
        p, u = "patched-" + name, "unpatched-" + name
        if fadt:
            for t in (p, u):
                if have(t):
                    report(t + "-fadt-bit", FADT_MSG in data[t]["serial"],
                           "the upgraded FADT was not taken (no '%s')" % FADT_MSG)
        if have(p):
            d = data[p]
            links = ports_with_links(d["fns"])
            dec = [kv for k, kv in d["recs"] if k == "decision"]
            lk = {kv.get("up"): kv for k, kv in d["recs"] if k == "link"}
            td = [kv for k, kv in d["recs"] if k == "teardown"]
            report(p + "-decision", bool(dec) and all(x.get("action") == action for x in dec),
                   "decision records %s, want action=%s" % (dec, action))
            if name == "off":
                # pcie_aspm=off as upstream: no link state, so no link or
                # teardown records, only the decision record
                report(p + "-no-link-state", not lk and not td and len(dec) == 1
                       and dec[0].get("override") == "notouch"
                       and not any(kv.get("aspm", "-") != "-" for kv in d["fns"].values()),
                       "link records %s, teardown %s, decision %s, sysfs aspm %s" %
                       (sorted(lk), td, dec, {b: kv.get("aspm") for b, kv in d["fns"].items()
                                                if kv.get("aspm", "-") != "-"}))
                report(p + "-marker", d["marked"], "the removal marker is not in the trace")
            why = []
            if name == "off":
                pass
            elif sorted(lk) != links:
                why.append("links %s, want %s" % (sorted(lk), links))
            for up, kv in lk.items():
                want_t = {"keep": kv.get("bios"), "notouch": kv.get("bios"), "clear": "none",
                          "force": kv.get("capable")}[action]
                if kv.get("action") != action or kv.get("target") != want_t:
                    why.append("%s: action=%s target=%s, want %s/%s" %
                               (up, kv.get("action"), kv.get("target"), action, want_t))
            if name != "off":
                report(p + "-link-records", not why, "; ".join(why))
            want_td = {"0000:04:00.0", "0000:05:00.0", "0000:02:00.0", "0000:01:00.0"}
            got_td = {kv.get("dev") for kv in td}
            why = []
            if got_td != want_td:
                why.append("teardown of %s, want %s" % (sorted(got_td), sorted(want_td)))
            for kv in td:
                if kv.get("action") != action or (action == "notouch" and kv.get("written") != "0"):
                    why.append("teardown %s" % kv)
            if name != "off":
                report(p + "-teardown-records", not why, "; ".join(why))
                report(p + "-marker", d["marked"], "the removal marker is not in the trace")
        # Link Control writes
        if not have(p, u):
            continue
        P, U = data[p], data[u]
        nlinks = len(ports_with_links(P["fns"]))
        retrains = lambda w: sum(1 for b, v in w if v & 0x20)
        if action == "keep":
            report(p + "-writes", P["boot"] == U["boot"] and retrains(P["boot"]) == nlinks
                   and not P["after"],
                   "patched %s / after removal %s, unpatched %s" % (P["boot"], P["after"], U["boot"]))
        elif action in ("clear", "notouch"):
            report(p + "-writes", not P["boot"] and not P["after"],
                   "want no ASPM/CCC/retrain write, got %s then %s" % (P["boot"], P["after"]))
        else:   # force
            en = [(b, v) for b, v in P["boot"] if v & 3]
            ok = (P["boot"] == U["boot"] and en and all(v & 3 == 1 for b, v in en)
                  and any(b == "0000:00:02.1" and v & 3 == 0 for b, v in P["after"]))
            report(p + "-writes", ok, "L0s enables %s; after removal %s; unpatched %s" %
                   (en, P["after"], U["boot"]))
        # The unpatched kernel on the same cell: expected differences.
        D = data.get("unpatched-default")
        if name == "default":
            report(u + "-writes", retrains(U["boot"]) == nlinks and not U["after"],
                   "want CCC + retrain on %d links: %s" % (nlinks, U["boot"]))
        elif name in ("fadt-clear", "fadt-notouch", "clear") and D:
            # 6.1 ignores pcie_aspm=clear and pcie_aspm.fadt=, and under the FADT bit
            # still rewrites Common Clock and retrains every link (patched: nothing).
            report(u + "-writes-differ", U["boot"] == D["boot"] and retrains(U["boot"]) == nlinks,
                   "want the default's CCC + retrain writes, got %s" % U["boot"])
            # and on removal it writes what it writes by default (nothing on these links)
            report(u + "-after-removal", U["after"] == D["after"] and U["marked"],
                   "after removal %s, default %s" % (U["after"], D["after"]))
        elif name == "off":
            report(u + "-writes", not U["boot"] and not U["after"],
                   "want none, got %s / %s" % (U["boot"], U["after"]))
        elif name == "force":
            report(u + "-writes", any(v & 3 == 1 for b, v in U["boot"]),
                   "want L0s enables, got %s" % U["boot"])
        report(u + "-no-records", not any(k == "link" for k, kv in U["recs"]),
               "the unpatched kernel printed aspm link records")
    # Blacklisted link: the patched kernel writes nothing under notouch,
    # neither at boot nor on removal; 6.1 under the FADT bit configures the
    # blacklisted link's ASPM off, Common Clock + retrain on the other link,
    # and tears down on removal (expected differences, listed).
    for name in ("bl-fadt-notouch", "bl-off"):
        p, u = "patched-" + name, "unpatched-" + name
        if have(p):
            d = data[p]
            dec = [kv for k, kv in d["recs"] if k == "decision"]
            report(p + "-decision", bool(dec) and all(x.get("action") == "notouch" for x in dec),
                   "decision records %s" % dec)
            if name == "bl-fadt-notouch":
                report(p + "-fadt-bit", FADT_MSG in d["serial"], "the upgraded FADT was not taken")
                lk = sorted(kv.get("up") for k, kv in d["recs"] if k == "link")
                report(p + "-link-records", lk == ["0000:00:02.0", "0000:00:03.0", "0000:00:04.0"],
                       "link records for %s" % lk)
            report(p + "-writes", d["marked"] and not d["boot"] and not d["after"],
                   "marker %s; want no Link Control write, got %s then %s" % (d["marked"], d["boot"], d["after"]))
        if have(u):
            U = data[u]
            print("# %s: Link Control writes at boot %s, after removal %s" % (u, U["boot"], U["after"]))
            if name == "bl-fadt-notouch":
                # ASPM off on both blacklisted links (pcie_aspm_cap_init()
                # marks them enabled so that they get disabled), Common Clock
                # then retrain on the e1000e's link; nothing on removal
                want = [("0000:00:02.0", 0), ("0000:00:03.0", 0), ("0000:00:04.0", 0), ("0000:00:04.0", 0x20)]
                report(u + "-writes-differ", U["marked"] and U["boot"] == want and not U["after"],
                       "want %s then nothing, got %s / %s" % (want, U["boot"], U["after"]))
            else:
                report(u + "-writes", U["marked"] and not U["boot"] and not U["after"],
                       "pcie_aspm=off: want none, got %s / %s" % (U["boot"], U["after"]))
    return suite.status()


if __name__ == "__main__":
    sys.exit(main())
