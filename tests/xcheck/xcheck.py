#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Register-level cross-check, guest side and comparison (run by
# tests/xcheck/xcheck.sh, which builds everything first).
#
# For each kernel (patched, unpatched) and each group of scenarios (the
# kernel command line: keep, force, fadt) it boots the kernel in QEMU with
# the xcheck initramfs and aspmctl.xcheck=<the group's scenarios>; the
# guest's /init loads aspmsim.ko, scans every scenario as a PCI domain of
# its own, removes the functions the scenarios name and prints the
# module's write log and registers. Then, per scenario, it compares
#   - the final value of every Link Control and L1 PM Substates Control 1
#     register, and
#   - the ordered list of effective changes: a write counts when it
#     changes an ASPM Control, Common Clock Configuration or CLKREQ# bit
#     of Link Control, an enable or a timing field of L1SS Control 1, or
#     L1SS Control 2; and every write with Retrain Link set. Writes that
#     change none of these (Linux rewrites registers with their own value)
#     are not compared (docs/policy.md, "Deliberate differences").
# with the expected outcome of index.tsv (written by tests/xcheck/xcheck):
#   app       the same as the app's engine on the host simulator
#   patched   the same as the patched kernel (for the unpatched kernel)
#   bios      every ASPM Control, CLKREQ# and L1SS enable bit as the BIOS
#             left it (the unpatched kernel under FADT "no ASPM")
#   final     the same final registers as the app (Link Control, L1SS
#             Control 1 and 2, Device Control 2 where exported); the order
#             of the writes is not compared (docs/xcheck.md)
#   div:ID    a documented divergence (docs/xcheck.md), see DIVERGENCES
# Prints "ok   NAME" / "FAIL NAME: why" per check; exit status 1 on a failure.
#
# Usage: xcheck.py --scenarios DIR --out DIR --initrd-patched F
#                  --initrd-unpatched F [--only NAME,...] [--groups G,...]
#                  [--kernels patched,unpatched]

import argparse
import fnmatch
import importlib.util
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LINUX = os.path.join(REPO, "linux")
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
import records  # noqa: E402
import testlib  # noqa: E402
DYNDBG = 'dyndbg="file aspm.c +p"'
FACP_CMD = "od -An -tx1 -v /sys/firmware/acpi/tables/FACP"
FADT_MSG = "ACPI FADT declares the system doesn't support PCIe ASPM"
GROUPS = {
    "keep": "",
    "force": "pcie_aspm=force pcie_aspm.policy=powersave",
    "fadt": "pcie_aspm.fadt=clear",     # + the FADT bit, from an upgraded FACP
    "clear": "pcie_aspm=clear",
    "notouch": "",                      # the FADT bit; pcie_aspm.fadt=notouch is the default
    "supersave": "pcie_aspm.policy=powersupersave",
}
GROUP_ORDER = ["keep", "force", "fadt", "clear", "notouch", "supersave"]   # keep first: it dumps the FACP
# reference boots of the unpatched kernel alone, on a group's keep
# scenarios (the outcome "unpatched:GROUP"): what it does with
# pcie_aspm=force and the default policy (tests/difffuzz/difffuzz.py says
# why that is its behaviour under the FADT bit)
REF_GROUPS = {"force-default": "pcie_aspm=force"}
GROUPS.update(REF_GROUPS)
# groups whose patched-kernel records are not compared: the series has no
# powersupersave action (the kernel's records say keep there)
NO_RECORDS = ("supersave",)
FADT_GROUPS = ("fadt", "notouch")
# what one boot takes (linux/simmod/aspmsim.c): SIM_MAX_HOSTS domains, a
# write log of SIM_LOG_MAX entries (Linux writes a few dozen per function
# while it scans); and the kernel command line is 2048 bytes on x86
BOOT_MAX_SCENARIOS = 32
BOOT_MAX_FUNCTIONS = 480     # about 26 writes per function seen
BOOT_MAX_NAMES = 1200

LNK_TRACK = 0x0143      # ASPM L0s, L1, Common Clock Configuration, CLKREQ#
LNK_RL = 0x0020
# Link Control bits of the final registers compared: all of them for the
# built-in scenarios; for real machines' dumps (--expect) only those of
# LNK_TRACK, since Linux sets Read Completion Boundary on an endpoint to
# its Root Port's (pci_configure_rcb()), which is no ASPM business and
# which real firmware leaves otherwise (docs/twin.md)
LNK_FINAL = [0xffff]
# dumps: a real machine's scan prints far more than the default kernel
# log buffer keeps, and the first domains' records were lost (seen)
EXTRA_APPEND = [""]
L1SS_EN = 0x0000000f
# Device Control 2: only LTR Mechanism Enable is ASPM business (Linux also
# clears ARI Forwarding Enable above a device without ARI, pci_configure_ari())
DEVCTL2_LTR = 0x0400

# the hard limit of one boot (make difffuzz raises it: a hundred
# scenarios per boot on a loaded machine took longer than 150 s)
BOOT_TIMEOUT = [150]
# the guest's firmware (linux/boot-test.sh --firmware): make difffuzz boots
# with SeaBIOS, about 10 s less per boot under TCG; nothing it compares
# needs UEFI
FIRMWARE = ["ovmf"]

# Documented divergences (docs/xcheck.md): what is still required of the
# patched kernel in a scenario whose expected outcome is div:ID.
def div_l1ss_order_timing(sc, got, app, offs):
    """Force on a link whose BIOS enabled L1 PM Substates: the same final
    ASPM Control, CLKREQ# and L1SS enables as the app; the kernel turns
    the substates off while ASPM L1 is still enabled at both ends
    (pcie_config_aspm_l1ss()), the app turns L1 off first; the kernel
    programs the L1.2 timing (aspm_calc_l1ss_info()), the app leaves the
    BIOS values."""
    why = []
    for bdf, regs in got[2].items():
        for n, (_, v) in regs.items():
            a = app[2][bdf][n][1]
            mask = LNK_TRACK if n == "lnkctl" else L1SS_EN
            if (v ^ a) & mask:
                why.append("%s %s 0x%x, app 0x%x" % (bdf, n, v, a))
    kev = raw_events(got[0], offs)
    lnk = {b: r["lnkctl"][1] for b, r in sc.bios.items()}
    seen_off_with_l1 = False
    for e in kev:
        f = e.split()
        if f[1] == "lnkctl":
            lnk[f[0]] = int(f[2][7:], 16)
        if f[1] == "l1ss-enable" and f[2].endswith(">0x0"):
            # ASPM L1 still enabled at both ends of the written function's link
            ends = sc.link_ends(f[0])
            if ends and all(lnk.get(b, 0) & 2 for b in ends):
                seen_off_with_l1 = True
    if events(got[1], offs) != events(app[1], offs):
        why.append("removal writes differ\n%s" % diff_list(events(got[1], offs), events(app[1], offs),
                                                           "kernel", "app"))
    if not seen_off_with_l1:
        why.append("the kernel did not turn L1SS off while L1 was on (ordering difference gone?)")
    if not any(" l1ss-timing " in e for e in kev):
        why.append("the kernel did not program L1.2 timing")
    if any(" l1ss-timing " in e for e in raw_events(app[0], offs)):
        why.append("the app programmed L1.2 timing")
    return "; ".join(why)


def without_l12_timing(writes, offs):
    """Effective events without what aspm_calc_l1ss_info() does: timing
    fields, Control 2, and the L1.2 enables turned off and back on."""
    rest, pending = [], {}
    for e in raw_events(writes, offs):
        f = e.split()
        if f[1] in ("l1ss-timing", "l1ss-ctl2"):
            continue
        if f[1] == "l1ss-enable":
            b, a = int(f[2][:3], 16), int(f[2][4:], 16)
            only_l12 = b ^ a == (b ^ a) & 0x5       # ASPM and PCI-PM L1.2 enables
            if only_l12 and a < b:
                pending[f[0]] = (len(rest), b)      # L1.2 off: dropped if it comes back
            elif only_l12 and pending.get(f[0], (0, -1))[1] == a:
                rest[pending.pop(f[0])[0]] = None
                continue
        rest.append(e)
    rest = [e for e in rest if e is not None]
    norm = []
    for e in rest:      # the retrain rule of events()
        f = e.split()
        if f[1] == "retrain":
            p = norm[-1].split() if norm else []
            if not (p and p[0] == f[0] and p[1] == "lnkctl" and
                    (int(p[2][:6], 16) ^ int(p[2][7:], 16)) & 0x40):
                continue
        norm.append(e)
    return norm


def div_teardown_l1ss(sc, got, app, offs):
    """Removal of function 0 of a link with L1 PM Substates enabled: Linux
    (pcie_config_aspm_l1ss() through link->downstream) clears the L1SS
    enables of the function being removed, and the port's while L1 is
    still on; the app writes nothing to a removed function and turns the
    port's L1 off first. Otherwise as the app (the boot part as
    l1ss-timing)."""
    why = []
    norm, ref = without_l12_timing(got[0], offs), events(app[0], offs)
    if norm != ref:
        why.append("boot writes other than the L1.2 timing differ\n%s" % diff_list(norm, ref, "kernel", "app"))
    rm = "0000:" + sc.remove
    kev = events(got[1], offs)
    mine = [e for e in kev if e.startswith(rm + " ")]
    rest = [e for e in kev if not e.startswith(rm + " ")]
    if sorted(rest) != sorted(events(app[1], offs)):
        why.append("removal writes to the remaining functions differ\n%s" %
                   diff_list(rest, events(app[1], offs), "kernel", "app"))
    if not any(" l1ss-enable " in e and e.endswith(">0x0") for e in mine):
        why.append("the kernel did not clear the removed function's L1SS (divergence gone?)")
    if any(e.startswith(rm + " ") for e in events(app[1], offs)):
        why.append("the app wrote the removed function")
    for bdf, regs in got[2].items():
        for n, (_, v) in regs.items():
            a = app[2][bdf][n][1]
            if bdf == rm and n == "l1ss":
                if v & L1SS_EN or (a ^ sc.bios[bdf][n][1]) & L1SS_EN:
                    why.append("%s l1ss 0x%x, app 0x%x" % (bdf, v, a))
            elif n == "lnkctl" and (v ^ a) & LNK_FINAL[0] or n == "l1ss" and (v ^ a) & L1SS_EN:
                why.append("%s %s 0x%x, app 0x%x" % (bdf, n, v, a))
    return "; ".join(why)


def div_l1ss_timing(sc, got, app, offs):
    """BIOS L1 PM Substates kept: the kernel programs the L1.2 timing
    (aspm_calc_l1ss_info(): L1.2 enables off, T_POWER_ON in Control 2,
    Common_Mode_Restore_Time and LTR_L1.2_THRESHOLD in Control 1, L1.2
    enables back), the app leaves the BIOS values; everything else, and
    every final enable, as the app."""
    kev = raw_events(got[0], offs)
    why = []
    norm, ref = without_l12_timing(got[0], offs), events(app[0], offs)
    if norm != ref:
        why.append("writes other than the L1.2 timing differ\n%s" % diff_list(norm, ref, "kernel", "app"))
    for bdf, regs in got[2].items():
        for n, (_, v) in regs.items():
            a = app[2][bdf][n][1]
            if n == "lnkctl" and (v ^ a) & LNK_FINAL[0] or n == "l1ss" and (v ^ a) & L1SS_EN:
                why.append("%s %s 0x%x, app 0x%x" % (bdf, n, v, a))
    if not any(" l1ss-timing " in e for e in kev):
        why.append("the kernel did not program L1.2 timing (divergence gone?)")
    if got[1] or app[1]:
        why.append("unexpected removal writes")
    return "; ".join(why)


def blacklisted_fns(sc):
    """The functions of the links the app's records call blacklisted
    (a non-PCIe function, or pre-1.1 unless forced)."""
    fns = set()
    for f in records.parse_all(sc.records, ("link",)):
        if any(r in ("pre-1.1", "non-pcie-fn") for r in f.get("reason", "").split(",")):
            fns.add(f["up"])
            bus = f["down"].rsplit(":", 1)[0] + ":"
            fns.update(b for b in sc.bios if b.startswith(bus))
    return fns


def bios_state_kept(sc, app, bdf, mask):
    """Linux left bdf's Link Control bits in mask (ASPM Control 0x3,
    CLKREQ# 0x100) as the BIOS's because its link's state, as Linux
    reads it, already was the target: ASPM as pcie_aspm_cap_init() reads
    it (L0s per direction from the receiving end, L1 only where both
    ends have it; function 0 and the port), Clock PM as
    pcie_clkpm_cap_init() does (on only where every function below has
    CLKREQ#), the target being what the app leaves on the link."""
    ends = sc.link_ends(bdf)
    if not ends:
        return False
    up, dn = ends
    # the app's record of the link: support=none when the two ends share
    # no ASPM support (Linux then reads nothing enabled), clkpm=- when
    # Clock PM is not capable on it (Linux reads it off)
    rec = {}
    for f in records.parse_all(sc.records, ("link",)):
        if f.get("up") == up:
            rec = f.fields

    def lc(regs, f):
        return regs.get(f, {}).get("lnkctl", (0, 0))[1]

    def aspm(regs, stuck=False):
        u, d = lc(regs, up), lc(regs, dn)
        if stuck:   # what the app wrote, where the hardware kept a bit
            u, d = u & ~stuck_bits(sc, up, "lnkctl"), d & ~stuck_bits(sc, dn, "lnkctl")
        return (d & 1, u & 1, u & d & 2)
    if mask == 0x0003:
        bios = (0, 0, 0) if rec.get("support") == "none" else aspm(sc.bios)
        if "target" in rec:
            # the app's target at boot (its final registers may be after
            # a removal reconfigured the link)
            t = rec["target"].split(",")
            return bios == (int("L0s" in t or "L0s-up" in t), int("L0s" in t or "L0s-dw" in t),
                            2 if "L1" in t else 0)
        return bios == aspm(app[2], True)
    bus = dn.rsplit(":", 1)[0] + ":"
    fns = [f for f in sc.bios if f.startswith(bus)]
    bios = rec.get("clkpm") != "-" and all(lc(sc.bios, f) & 0x100 for f in fns)
    return bios == bool(lc(app[2], dn) & 0x100)


def removed_fns(sc):
    """The functions the app's teardown records say were removed."""
    return set(r["dev"] for r in records.parse_all(sc.records, ("teardown",)) if "dev" in r)


def stuck_bits(sc, bdf, name):
    """Bits of bdf's register name that the app's writes could not change
    (its records: "aspm write ... readback=... ignored"): a generated
    machine may hold an enable for a state the function does not
    support, read-only there."""
    off = sc.bios.get(bdf, {}).get(name, (None, 0))[0]
    stuck = 0
    for w in records.parse_all(sc.writes, ("write",)):
        if w.words[:1] == [bdf] and w.words[-1] == "ignored" and int(w["off"], 16) == off:
            stuck |= int(w["new"], 16) ^ int(w["readback"], 16)
    return stuck


def l1ss_stuck(sc, bdf):
    """The L1SS Control 1 enables of bdf that stuck (stuck_bits())."""
    return stuck_bits(sc, bdf, "l1ss") & L1SS_EN


def div_blacklist_l1ss(sc, got, app, offs):
    """L1 PM Substates on a blacklisted link (docs/xcheck.md, docs/policy.md):
    Linux 6.1's pcie_aspm_cap_init() returns for a blacklisted link
    before aspm_l1ss_init(), so aspm_capable has no substates and
    pcie_config_aspm_l1ss() is never called: the BIOS's L1SS enables
    stay; the app clears them with the link's ASPM. On those links'
    functions the kernel's L1SS enables are the BIOS's and the app's are
    0; everything else as the app."""
    bl = blacklisted_fns(sc)
    why = []
    if not bl:
        return "no blacklisted link"
    differs = False
    for bdf, regs in got[2].items():
        for n, (_, v) in regs.items():
            a, b = app[2][bdf][n][1], sc.bios[bdf][n][1]
            if n == "l1ss" and bdf in bl:
                if (v ^ b) & L1SS_EN or a & L1SS_EN & ~l1ss_stuck(sc, bdf):
                    why.append("%s l1ss 0x%x: BIOS 0x%x, app 0x%x" % (bdf, v, b, a))
                differs |= (v ^ a) & L1SS_EN != 0
            elif (v ^ a) & (0xffff if n == "lnkctl" else L1SS_EN):
                why.append("%s %s 0x%x, app 0x%x" % (bdf, n, v, a))
    for ph in (0, 1):
        k = [e for e in events(got[ph], offs) if not (e.split()[0] in bl and " l1ss" in e)]
        a = [e for e in events(app[ph], offs) if not (e.split()[0] in bl and " l1ss" in e)]
        if k != a:
            why.append("other writes differ\n%s" % diff_list(k, a, "kernel", "app"))
    if not differs:
        why.append("no L1SS difference on a blacklisted link")
    return "; ".join(why)


def regs_differ(got, app, mask_l1ss):
    why = []
    for bdf, regs in got[2].items():
        for n, (_, v) in regs.items():
            a = app[2][bdf][n][1]
            mask = 0xffff if n == "lnkctl" else mask_l1ss
            if (v ^ a) & mask:
                why.append("%s %s 0x%x, app 0x%x" % (bdf, n, v, a))
    return why


def div_l1ss_program(sc, got, app, offs):
    """Linux reprograms L1 PM Substates whenever it configures a link that
    supports them: pcie_config_aspm_l1ss() clears every enable of both
    ends and sets the new ones, aspm_calc_l1ss_info() rewrites the L1.2
    timing (Control 1 timing fields, Control 2) - also where L1 is not
    enabled or the two ends' BIOS enables differ; the app writes only the
    enables it changes and never the timing. The same final Link Control
    and L1SS enables, the same Link Control writes in order; the
    kernel's L1SS writes are free, and it must have made some."""
    why = regs_differ(got, app, L1SS_EN)
    for ph in (0, 1):
        k = [e for e in events(got[ph], offs) if " l1ss" not in e]
        a = [e for e in events(app[ph], offs) if " l1ss" not in e]
        if k != a:
            why.append("Link Control writes differ\n%s" % diff_list(k, a, "kernel", "app"))
    if not any(" l1ss" in e for e in raw_events(got[0] + got[1], offs)):
        why.append("the kernel made no L1SS write")
    return "; ".join(why)


def l1ss_other_end(sc, bdf):
    """The other end of the link whose L1 PM Substates bdf holds (the
    port, or function 0 below it), or None."""
    for up, down in sc.links:
        if bdf == up:
            return down
        if bdf == down:
            return up
    return None


def l1ss_common_kept(sc, app, bdf):
    """Linux left bdf's L1 PM Substates enables as the BIOS's because the
    link's substates as aspm_l1ss_init() reads them (the enables both ends
    have) already were the target: what both ends hold in the app's final
    registers (an end may keep a bit its link does not support)."""
    o = l1ss_other_end(sc, bdf)
    if not o:
        return False

    def en(regs, f):
        return regs.get(f, {}).get("l1ss", (0, 0))[1] & L1SS_EN
    return en(sc.bios, bdf) & en(sc.bios, o) == en(app[2], bdf) & en(app[2], o)


def div_force_aggregate(sc, got, app, offs):
    """force on a link whose functions' BIOS bits differ: Linux reads the
    link's state from function 0 and the port (pcie_aspm_cap_init()) and
    writes nothing when that already is the target
    (pcie_config_aspm_link(): "if (link->aspm_enabled == state)
    return"), leaving the other registers' bits; the app writes every
    register that differs from the target (docs/policy.md). The kernel's
    effective writes are the app's in order without some, and every
    register where the two end differently is as the BIOS left it in
    the kernel."""
    why = []
    for ph in (0, 1):
        k, a = events(got[ph], offs), events(app[ph], offs)
        it = iter(a)
        if not all(e in it for e in k):
            why.append("the kernel's writes are not the app's with some left out")
        if k == a and ph == 0:
            why.append("no difference in writes")
    for bdf, regs in got[2].items():
        for n, (_, v) in regs.items():
            a, b = app[2][bdf][n][1], sc.bios[bdf][n][1]
            en = 0x0103 if n == "lnkctl" else L1SS_EN     # ASPM Control, CLKREQ#
            if v != a and ((v ^ a) & ~en or (v ^ b) & en):
                why.append("%s %s 0x%x: the app's 0x%x with the BIOS's enables (0x%x)?" %
                           (bdf, n, v, a, b))
            elif n == "lnkctl" and any((v ^ a) & m and not bios_state_kept(sc, app, bdf, m)
                                       for m in (0x0003, 0x0100)):
                why.append("%s lnkctl 0x%x: the BIOS's, but the link's state as Linux reads "
                           "it was not the app's target" % (bdf, v))
            elif v != a and n == "l1ss":
                # the link's substates are the enables both ends have
                # (aspm_l1ss_init()): they must already be the target
                if not l1ss_common_kept(sc, app, bdf):
                    why.append("%s l1ss 0x%x: the BIOS's, but the link's common BIOS "
                               "enables are not the app's" % (bdf, v))
    return "; ".join(why)


def div_supersave_aggregate(sc, got, app, offs):
    """powersupersave, as force (force-aggregate): Linux reads a link's
    state from function 0 and the port, L1 and each substate only where
    both ends have it (pcie_aspm_cap_init(), aspm_l1ss_init()), and
    writes nothing when that already is the target
    (pcie_config_aspm_link()); the app writes every register that
    differs. Final registers only (the expectation of the supersave
    group): where the two differ, ASPM Control and CLKREQ# are each
    wholly the BIOS's in the kernel, and L1SS enables are the BIOS's with
    the link's common enables already the app's, or on a blacklisted
    link's functions the BIOS's where the app's are 0 (blacklist-l1ss),
    or 0 on a removed function (teardown-l1ss); every other bit (the L1.2 timing, Control 2, LTR enable) as the
    app's."""
    why, bl, gone = [], blacklisted_fns(sc), removed_fns(sc)
    for bdf, regs in got[2].items():
        for n, (_, v) in regs.items():
            a, b = app[2][bdf][n][1], sc.bios[bdf][n][1]
            if n == "l1ss" and bdf in gone and not (v ^ a) & ~L1SS_EN and not v & L1SS_EN:
                # teardown-l1ss: Linux clears the substates of the function
                # being removed (pcie_config_aspm_link(link, 0) reaches
                # link->downstream); the app writes no removed function
                continue
            if n == "l1ss" and bdf in bl:
                # blacklist-l1ss: Linux never reaches aspm_l1ss_init()
                bad = (v ^ a) & ~L1SS_EN or (v ^ b) & L1SS_EN or \
                    a & L1SS_EN & ~l1ss_stuck(sc, bdf)
            elif n == "lnkctl":
                bad = (v ^ a) & LNK_FINAL[0] & ~0x0103 or \
                    any((v ^ a) & m and ((v ^ b) & m or not bios_state_kept(sc, app, bdf, m))
                        for m in (0x0003, 0x0100))
            elif n == "l1ss":
                bad = (v ^ a) & ~L1SS_EN or (v ^ a) & L1SS_EN and \
                    ((v ^ b) & L1SS_EN or not l1ss_common_kept(sc, app, bdf))
            elif n == "devctl2":
                bad = (v ^ a) & DEVCTL2_LTR
            else:
                bad = v != a
            if bad:
                why.append("%s %s 0x%x: app 0x%x, BIOS 0x%x" % (bdf, n, v, a, b))
    if not why and not same_final(got, app):
        why.append("no difference")
    return "; ".join(why)


DIVERGENCES = {"l1ss-order-timing": div_l1ss_order_timing,
               "l1ss-timing": div_l1ss_timing,
               "teardown-l1ss": div_teardown_l1ss,
               "blacklist-l1ss": div_blacklist_l1ss,
               "l1ss-program": div_l1ss_program,
               "force-aggregate": div_force_aggregate,
               "supersave-aggregate": div_supersave_aggregate}

suite = testlib.Suite()


def report(name, ok, why=""):
    """One check: "ok   NAME" or "FAIL NAME: WHY" (difffuzz.py collects
    them by replacing this function)."""
    suite.check(ok, name, why)


env = testlib.kernel_env


def load_test_kernel():
    spec = importlib.util.spec_from_file_location("test_kernel", os.path.join(REPO, "tests", "kernel", "test-kernel.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ------------------------------------------------------------ scenarios

class Scenario:
    def __init__(self, row, sdir):
        self.name, self.group, rm, self.patched, self.unpatched, self.what = row
        self.remove = None if rm == "-" else rm
        self.nfn = sum(1 for line in open(os.path.join(sdir, self.name + ".sim"))
                       if line.startswith("fn "))
        self.bios, self.final = {}, {}
        self.records = []
        self.writes = []        # the app's "aspm write" records
        self.upper = set()      # upstream ports of links with links below
        self.nlinks = 0
        self.links = []         # (upstream port, function 0 below)
        self.disable = []       # pci_disable_link_state() calls: "BB:DD.F/MASK"
        self.boot, self.after = [], []
        phase = self.boot
        for line in open(os.path.join(sdir, self.name + ".app")):
            f = line.split()
            if not f:
                continue
            if f[0] in ("bios", "final"):
                regs = {}
                for kv in f[2:]:
                    m = re.match(r"(\w+)@0x([0-9a-f]+)=0x([0-9a-f]+)", kv)
                    regs[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
                (self.bios if f[0] == "bios" else self.final)[f[1]] = regs
            elif f[0] == "w":
                phase.append(parse_w(f))
            elif f[0] == "mark":
                phase = self.after
            elif f[0] == "disable":
                self.disable.append("%s/%s" % (f[1], f[2][2:]))
            elif f[0] == "link":
                kv = records.fields(f[1:])
                self.nlinks += 1
                self.links.append((kv["up"], kv["down"]))
                if kv["parent"] != "-":
                    self.upper.add(kv["parent"])
            elif f[0] == "record":
                rec = records.parse(" ".join(f[1:]))
                if rec is not None and rec.kind in ("link", "teardown"):
                    self.records.append(rec.line)
                elif rec is not None and rec.kind == "write":
                    self.writes.append(rec.line)

    def link_ends(self, bdf):
        """The two ends (upstream port, function 0 below) of the link whose
        Link Control bdf holds (a port's: the link below it), or None."""
        for up, down in self.links:
            if bdf == up:
                return up, down
        for up, down in self.links:
            if bdf.rsplit(".", 1)[0] == down.rsplit(".", 1)[0]:
                return up, down
        # ARI (PCIe r5.0 sec 6.13): function numbers past 7 read as other
        # device numbers; every function on a port's secondary bus is its link's
        for up, down in self.links:
            if bdf.rsplit(":", 1)[0] == down.rsplit(":", 1)[0]:
                return up, down
        return None

    def offsets(self):
        """{bdf: {off: name}} of the compared registers."""
        o = {}
        for bdf, regs in self.bios.items():
            o[bdf] = {off: n for n, (off, _) in regs.items()}
            if "l1ss" in regs:
                o[bdf][regs["l1ss"][0] + 4] = "l1ss2"
        return o


def parse_w(f):
    kv = records.fields(f[2:])
    return (f[1], int(kv["off"], 16), int(kv["width"]), int(kv["val"], 16),
            int(kv["before"], 16), int(kv["after"], 16))


def events(writes, offs):
    """The effective changes of a write list (see the header)."""
    ev = raw_events(writes, offs)
    # A retrain counts only right after a Common Clock change of the same
    # port: Linux retrains even when Common Clock Configuration did not
    # change (docs/policy.md, "Deliberate differences").
    out = []
    for e in ev:
        f = e.split()
        if f[1] == "retrain":
            p = out[-1].split() if out else []
            if not (p and p[0] == f[0] and p[1] == "lnkctl" and
                    (int(p[2][:6], 16) ^ int(p[2][7:], 16)) & 0x40):
                continue
        out.append(e)
    return out


def raw_events(writes, offs):
    ev = []
    for bdf, off, width, val, before, after in writes:
        regs = offs.get(bdf, {})
        name = regs.get(off)
        if name is None:
            if any(off < o + (2 if n in ("lnkctl", "devctl2") else 4) and o < off + width
                   for o, n in regs.items()):
                ev.append("%s odd-access off=0x%x width=%d" % (bdf, off, width))
            continue
        want = 2 if name in ("lnkctl", "devctl2") else 4
        if width != want:
            ev.append("%s odd-access off=0x%x width=%d" % (bdf, off, width))
            continue
        if name == "lnkctl":
            if (before ^ after) & LNK_TRACK:
                ev.append("%s lnkctl 0x%04x>0x%04x" % (bdf, before & LNK_TRACK, after & LNK_TRACK))
            if val & LNK_RL:
                ev.append("%s retrain" % bdf)
        elif name == "l1ss":
            if (before ^ after) & L1SS_EN:
                ev.append("%s l1ss-enable 0x%x>0x%x" % (bdf, before & L1SS_EN, after & L1SS_EN))
            if (before ^ after) & ~L1SS_EN:
                ev.append("%s l1ss-timing 0x%08x>0x%08x" % (bdf, before & ~L1SS_EN & 0xffffffff,
                                                             after & ~L1SS_EN & 0xffffffff))
        elif name == "devctl2":
            if (before ^ after) & DEVCTL2_LTR:
                ev.append("%s ltr 0x%04x>0x%04x" % (bdf, before & DEVCTL2_LTR, after & DEVCTL2_LTR))
        elif (before ^ after):
            ev.append("%s l1ss-ctl2 0x%08x>0x%08x" % (bdf, before, after))
    return ev


# ------------------------------------------------------------ guest output

class Guest:
    """What one boot printed, per scenario."""

    def __init__(self, serial):
        text, self.rc = testlib.init_result(serial, "xcheck")
        text = text or ""
        self.text = text
        self.domain = {}        # scenario -> domain (hex string)
        self.writes = {}        # domain -> [(marks seen, write)]
        self.cfg = {}           # domain -> {bdf: {off: bytes}}
        self.lost = 0           # writes beyond the module's log
        marks = []
        # the patched kernel's per-link records (dynamic debug), by domain
        self.records = {}
        for rec in records.kernel_records(testlib.init_section(serial, "dmesg") or "", ("link", "teardown")):
            # the first field (up= or dev=) names the scenario's domain
            key, _, addr = rec.words[0].partition("=") if rec.words else ("", "", "")
            dom = addr.split(":")[0]
            if key in ("up", "dev") and ":" in addr and re.fullmatch(r"[0-9a-f]+", dom):
                self.records.setdefault(dom, []).append(rec.line.replace(dom + ":", "0000:"))
        for line in text.splitlines():
            f = line.split()
            if len(f) >= 4 and f[0] == "scanned" and f[2] == "domain":
                self.domain[f[1]] = f[3]
            if not f or f[0] != "aspmsim":
                continue
            f = f[1:]
            if f[0] == "lost" and len(f) == 2:
                self.lost = int(f[1])
            elif f[0] == "mark":
                marks.append(" ".join(f[1:]))
            elif f[0] == "w":
                dom, _, bdf = f[1].partition(":")
                w = parse_w(["w", "0000:" + bdf] + f[2:])
                self.writes.setdefault(dom, []).append((list(marks), w))
            elif f[0] == "cfg":
                dom, _, bdf = f[1].partition(":")
                self.cfg.setdefault(dom, {}).setdefault("0000:" + bdf, {})[int(f[2], 16)] = \
                    bytes.fromhex(f[3])

    def scenario(self, sc):
        """(boot writes, removal writes, final regs) or None."""
        dom = self.domain.get(sc.name)
        if dom is None:
            return None
        boot, after = [], []
        for marks, w in self.writes.get(dom, []):
            if sc.remove and any(m.startswith("remove %s " % sc.name) for m in marks):
                after.append(w)
            elif "scanned" not in marks:
                boot.append(w)
            else:
                after.append(w)     # reported as unexpected below
        final = {}
        rows = self.cfg.get(dom, {})
        for bdf, regs in sc.bios.items():
            final[bdf] = {}
            for n, (off, _) in regs.items():
                width = 2 if n in ("lnkctl", "devctl2") else 4
                row = rows.get(bdf, {}).get(off & ~15, bytes(16))
                final[bdf][n] = (off, int.from_bytes(row[off & 15:(off & 15) + width], "little"))
        return boot, after, final, self.records.get(dom, [])


# ------------------------------------------------------------ checks

def fmt_final(final):
    return "; ".join("%s %s" % (b, " ".join("%s=0x%x" % (n, v) for n, (_, v) in sorted(r.items())))
                     for b, r in sorted(final.items()))


def diff_list(a, b, an, bn):
    out = []
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "-"
        y = b[i] if i < len(b) else "-"
        out.append("  %s %-40s %s %s" % ("  " if x == y else "!=", x, bn + ":", y))
    return "%s vs %s:\n" % (an, bn) + "\n".join(out)


def same_as(got, ref, offs, gname, rname):
    """Why got (boot, after, final) differs from ref, or ""."""
    why = []
    for phase, i in (("boot", 0), ("removal", 1)):
        ge, re_ = events(got[i], offs), events(ref[i], offs)
        if ge != re_:
            why.append("%s writes differ\n%s" % (phase, diff_list(ge, re_, gname, rname)))
    def regs(final):
        return {b: {n: v & LNK_FINAL[0] if n == "lnkctl" else v & DEVCTL2_LTR if n == "devctl2"
                    else v for n, (_, v) in r.items()}
                for b, r in final.items()}
    gf, rf = regs(got[2]), regs(ref[2])
    if gf != rf:
        why.append("final registers differ:\n  %s: %s\n  %s: %s" %
                   (gname, fmt_final(got[2]), rname, fmt_final(ref[2])))
    return "\n".join(why)


def same_final(got, ref):
    """Every exported register equal (Link Control under LNK_FINAL, Device
    Control 2's LTR enable)."""
    bad = []
    for bdf, regs in ref[2].items():
        for n, (_, a) in regs.items():
            g = got[2][bdf][n][1]
            mask = {"lnkctl": LNK_FINAL[0], "devctl2": DEVCTL2_LTR}.get(n, 0xffffffff)
            if (g ^ a) & mask:
                bad.append("%s %s 0x%x, app 0x%x" % (bdf, n, g, a))
    return "; ".join(bad)


def bios_kept(got, sc):
    bad = []
    for bdf, regs in sc.bios.items():
        for n, (_, v) in regs.items():
            mask = (0x0003 | 0x0100) if n == "lnkctl" else L1SS_EN
            g = got[2][bdf][n][1]
            if (g ^ v) & mask:
                bad.append("%s %s 0x%x, BIOS 0x%x" % (bdf, n, g, v))
    return "; ".join(bad)


def check(sc, kernel, expect, got, ref_app, ref_patched, ref_unpatched=None):
    tag = "%s %s" % (kernel, sc.name)
    offs = sc.offsets()
    # the kernel prints a link's record at link init, before the
    # module's pci_disable_link_state() calls: not comparable there
    if kernel == "patched" and sc.group not in NO_RECORDS and not sc.disable:
        # the decision records of docs/records.md, line by line; the
        # kernel prints a link's record when the link is initialised,
        # before the links below it exist, so capable/target/reason of an
        # upper link miss the latency limits of endpoints further down
        # (docs/xcheck.md, "record-snapshot"): not compared there
        #
        # written= of "aspm teardown" counts the writes made, and Linux
        # makes writes that change nothing: each side's sum must equal the
        # number of Link Control / L1SS Control writes it made during the
        # removal; the lines are compared without it.
        def norm(lines, removal_writes):
            out, total = [], 0
            for line in lines:
                rec = records.parse(line)
                text = rec.line
                if rec.kind == "link" and rec.get("up") in sc.upper:
                    # l1ss=BEFORE>AFTER: AFTER is target's substates
                    text = rec.without("capable", "target", "reason", "l1ss")
                    if "l1ss" in rec:
                        text += " l1ss=" + rec["l1ss"].split(">", 1)[0]
                if rec.kind == "link" and EXTRA_APPEND[0] and rec.get("l1ss") == "unknown":
                    # a dump without the extended space: the app knows it
                    # does not know; the exported scenario's extended
                    # space is empty, so the kernel finds no L1SS (docs/twin.md)
                    text = text.replace(" l1ss=unknown", " l1ss=none")
                if rec.kind == "teardown":
                    total += int(rec["written"])
                    text = rec.without("written")
                out.append(text)
            n = sum(1 for w in removal_writes if offs.get(w[0], {}).get(w[1]) in ("lnkctl", "l1ss"))
            if total != n:
                out.append("(teardown records: written=%d in all, %d writes made)" % (total, n))
            return out
        k, a = norm(got[3], got[1]), norm(sc.records, ref_app[1])
        why = "" if k == a and (k or not sc.nlinks) else diff_list(k, a, kernel, "app")
        report("%s: same records as the app" % tag, not why, why or "no records")
    if expect == "app":
        why = same_as(got, ref_app, offs, kernel, "app")
        report("%s: same as the app" % tag, not why, why)
    elif expect == "patched":
        if ref_patched is None:
            report("%s: same as the patched kernel" % tag, False, "no result of the patched kernel")
            return
        why = same_as(got, ref_patched, offs, kernel, "patched")
        report("%s: same as the patched kernel" % tag, not why, why)
    elif expect == "final":
        # final: after the removal, where the scenario removes a function
        why = same_final(got, ref_app)
        report("%s: same final registers as the app" % tag, not why, why)
        if (got[1] or ref_app[1]) and not sc.remove:
            report("%s: no removal writes" % tag, False, "unexpected removal writes")
    elif expect == "bios":
        why = bios_kept(got, sc)
        report("%s: BIOS state kept" % tag, not why, why)
    elif expect.startswith("unpatched:"):
        rg = expect.split(":", 1)[1]
        if ref_unpatched is None:
            report("%s: same as the unpatched kernel under %s" % (tag, rg), False,
                   "no result of the unpatched kernel under %s" % rg)
            return
        why = same_as(got, ref_unpatched, offs, kernel, "unpatched-" + rg)
        report("%s: same as the unpatched kernel under %s" % (tag, rg), not why, why)
    elif expect.startswith("div:"):
        fn = DIVERGENCES.get(expect[4:])
        if fn is None:
            report("%s: %s" % (tag, expect), False, "unknown divergence %s" % expect)
            return
        why = fn(sc, got, ref_app, offs)
        report("%s: documented divergence %s" % (tag, expect[4:]), not why, why)
    else:
        report(tag, False, "unknown expectation %s" % expect)


# ------------------------------------------------------------ boots

def boot(kernel, initrd, append, out):
    os.makedirs(out, exist_ok=True)
    cmd = [os.path.join(LINUX, "boot-test.sh"), "--kernel", kernel, "--initrd", initrd,
           "--out", out, "--timeout", str(BOOT_TIMEOUT[0]), "--firmware", FIRMWARE[0],
           "--append", append, "--"]
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(out, "boot-test.log"), "w") as f:
        f.write(r.stdout + r.stderr)
    p = os.path.join(out, "serial.log")
    serial = open(p, errors="replace").read() if os.path.exists(p) else ""
    return r.returncode == 0, serial, time.time() - t0


def batches(scs):
    """The scenarios of one group in boots the module and the command line
    can take; at least one (an empty group still boots for the FACP)."""
    out, cur, nfn, nlen = [], [], 0, 0
    for sc in scs:
        if cur and (len(cur) >= BOOT_MAX_SCENARIOS or nfn + sc.nfn > BOOT_MAX_FUNCTIONS or
                    nlen + len(sc.name) + 1 > BOOT_MAX_NAMES):
            out.append(cur)
            cur, nfn, nlen = [], 0, 0
        cur.append(sc)
        nfn += sc.nfn
        nlen += len(sc.name) + 1
    return out + [cur] if cur or not out else out


def boot_group(tk, kern, initrd, gen, facp, guests, times, outdir, k, g, tag, names,
               disable=""):
    """One boot of kernel k under group g with the scenarios names (and
    their pci_disable_link_state() calls, aspmsim.ko's disable=); returns
    the FACP dump (from the first keep boot)."""
    out = os.path.join(outdir, tag)
    rd = initrd[k]
    append = "%s%s aspmctl.xcheck=%s %s" % (DYNDBG, EXTRA_APPEND[0], names, GROUPS[g])
    if disable:
        append += " aspmctl.xcheck.disable=%s" % disable
    if g == "keep" and facp is None:
        append += ' aspmctl.run="%s"' % FACP_CMD
    if g in FADT_GROUPS:
        if facp is None:
            report("%s: boot" % tag, False, "no FACP dump from the keep boot")
            return facp
        os.makedirs(out, exist_ok=True)
        try:
            rd = tk.fadt_initrd(facp, gen, initrd[k], out)
        except Exception as ex:
            report("%s: boot" % tag, False, "FADT initrd: %s" % ex)
            return facp
    ok, serial, secs = boot(kern[k], rd, append.strip(), out)
    times.append(secs)
    gu = Guest(serial)
    why = "" if ok else "boot failed, see %s/boot-test.log" % out
    if ok and gu.rc != 0:
        why = "xcheck section rc=%s, see %s/serial.log" % (gu.rc, out)
    if ok and g in FADT_GROUPS and FADT_MSG not in serial:
        why = "the upgraded FADT was not taken (no '%s')" % FADT_MSG
    if ok and gu.lost:
        why = "%d writes beyond the module's log: fewer scenarios per boot" % gu.lost
    report("%s: boot, scan and removal" % tag, not why, why)
    if not why:
        for sc in names.split(","):
            guests[(k, g, sc)] = gu
    if g == "keep" and facp is None and ok:
        run1 = testlib.init_section(serial, "run.1") or ""
        facp = run1.split("\n", 1)[1] if "\n" in run1 else None
    return facp


def ref_boots(tk, kern, initrd, gen, facp, guests, times, outdir, all_scs, scs, kernels):
    """The outcome unpatched:GROUP holds the unpatched kernel to its own
    result on the same part's keep scenario under GROUP (keep, or a
    REF_GROUPS boot): boots what the group runs did not already boot;
    returns {scenario name: that result}."""
    if "unpatched" not in kernels:
        return {}
    by_name = {s.name: s for s in all_scs}
    need = {}       # ref group: [keep scenarios]
    pairs = []
    for sc in scs:
        if not sc.unpatched.startswith("unpatched:"):
            continue
        rg = sc.unpatched.split(":", 1)[1]
        ksc = by_name.get(sc.name.rsplit(".", 1)[0] + ".keep")
        if ksc is None:
            continue
        pairs.append((sc, rg, ksc))
        if ("unpatched", rg, ksc.name) not in guests and ksc not in need.setdefault(rg, []):
            need[rg].append(ksc)
    for rg, ref in need.items():
        for bi, batch in enumerate(batches(ref)):
            tag = "unpatched-ref-%s" % rg + ("-%d" % (bi + 1) if bi else "")
            facp = boot_group(tk, kern, initrd, gen, facp, guests, times, outdir, "unpatched",
                              rg, tag, ",".join(s.name for s in batch))
    out = {}
    for sc, rg, ksc in pairs:
        gu = guests.get(("unpatched", rg, ksc.name))
        if gu is not None:
            out[sc.name] = gu.scenario(ksc)
    return out


# Notes the host tool may give any dump (docs/twin.md, "Not a scenario"):
# documented outcomes, not failures, unless expect.tsv says otherwise. A
# refusal is a failure unless expected: nothing of that dump was compared.
DOCUMENTED_NOTES = ("noexport", "orphans")


def expect_notes(path, notes_path, scs):
    """Expected outcomes as data (tests/twin/expect.tsv): rows
         scenario PATTERN GROUP PATCHED UNPATCHED   (fnmatch on the name;
                                                     GROUP, PATCHED,
                                                     UNPATCHED may be *)
         note     DUMP[@ROOT] KIND                  (a dump refused, a part
                                                     not exported, ...)
    override index.tsv's outcomes. DUMP is content:KEY, the dump's content
    key (notes.tsv's "dump" lines), so that a copy under another name gets
    the same verdict. Every expected note of a dump in the run must be
    there; a note not expected passes when its kind is a documented
    outcome (DOCUMENTED_NOTES), and fails otherwise."""
    rows = [l.split("\t") for l in open(path).read().splitlines()
            if l.strip() and not l.startswith("#")]
    for sc in scs:
        for r in rows:
            if r[0] == "scenario" and fnmatch.fnmatchcase(sc.name.rsplit(".", 1)[0], r[1]) \
                    and r[2] in ("*", sc.group):
                sc.patched = sc.patched if r[3] == "*" else r[3]
                sc.unpatched = sc.unpatched if r[4] == "*" else r[4]
    expected = {(r[1], r[2]) for r in rows if r[0] == "note"}
    keys, have = {}, set()
    notes = []
    if os.path.exists(notes_path):
        for l in open(notes_path).read().splitlines():
            if l.startswith("#") or not l.strip():
                continue
            kind, name, msg = l.split("\t", 2)
            if kind == "dump":
                keys[name] = msg.split()[0]
            elif kind != "loaded":
                notes.append((kind, name, msg))

    def by_content(name):
        stem, _, root = name.partition("@")
        return keys.get(stem, "") + ("@" + root if root else "")
    for kind, name, msg in notes:
        key = by_content(name)
        have.add((key, kind))
        if (key, kind) in expected:
            report("host %s (%s): %s (%s)" % (name, key, kind, msg), True, "")
        else:
            report("host %s (%s): %s, a documented outcome (%s)" % (name, key, kind, msg),
                   kind in DOCUMENTED_NOTES, "not expected (tests/twin/expect.tsv)")
    # of the dumps this run was given
    run = set(keys.values())
    for key, kind in sorted(expected - have):
        if key.split("@")[0] in run:
            report("host %s: %s" % (key, kind), False, "expected, but the host tool did not say so")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenarios", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--initrd-patched", required=True)
    ap.add_argument("--initrd-unpatched", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--kernels", default="patched,unpatched")
    ap.add_argument("--groups", default="", help="only these groups (keep, force, fadt, clear, notouch)")
    ap.add_argument("--expect", default="", help="expected outcomes overriding index.tsv's "
                    "(tests/twin/expect.tsv)")
    a = ap.parse_args()
    e = env()
    tk = load_test_kernel()
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(a.scenarios, "index.tsv"))
            if l.strip() and not l.startswith("#")]
    scs = [Scenario(r, a.scenarios) for r in rows]
    all_scs = list(scs)
    if a.expect:
        LNK_FINAL[0] = LNK_TRACK
        EXTRA_APPEND[0] = " log_buf_len=16M"
        expect_notes(a.expect, os.path.join(a.scenarios, "notes.tsv"), scs)
    if a.only:
        want = set(a.only.split(","))
        scs = [s for s in scs if s.name in want]
    if a.groups:
        want = set(a.groups.split(","))
        scs = [s for s in scs if s.group in want]
    kernels = a.kernels.split(",")
    kern = {"patched": e["KERNEL_PATCHED"], "unpatched": e["KERNEL_UNPATCHED"]}
    initrd = {"patched": a.initrd_patched, "unpatched": a.initrd_unpatched}
    gen = os.path.join(e["KERNEL_BUILD_PATCHED"], "usr/gen_init_cpio")
    facp = None
    guests = {}
    times = []
    groups = [g for g in GROUP_ORDER if any(s.group == g for s in scs)]
    if any(g in FADT_GROUPS for g in groups) and "keep" not in groups:
        groups.insert(0, "keep")        # for the FACP dump
    for g in groups:
        for bi, batch in enumerate(batches([s for s in scs if s.group == g])):
            names = ",".join(s.name for s in batch) or "none"
            disable = ",".join("%s/%s" % (s.name, d) for s in batch for d in s.disable)
            for k in kernels:
                tag = "%s-%s" % (k, g) + ("-%d" % (bi + 1) if bi else "")
                facp = boot_group(tk, kern, initrd, gen, facp, guests, times, a.out, k, g, tag, names,
                                  disable)
    refs = ref_boots(tk, kern, initrd, gen, facp, guests, times, a.out, all_scs, scs, kernels)
    print("# boots: %d, %.0fs in all" % (len(times), sum(times)))

    for sc in scs:
        res = {}
        for k in kernels:
            gu = guests.get((k, sc.group, sc.name))
            if gu is None:
                continue
            got = gu.scenario(sc)
            if got is None:
                report("%s %s: scanned" % (k, sc.name), False, "not in the guest's output")
                continue
            res[k] = got
        app = (sc.boot, sc.after, sc.final)
        for k in kernels:
            if k in res:
                check(sc, k, sc.patched if k == "patched" else sc.unpatched, res[k], app,
                      res.get("patched"), refs.get(sc.name))
    return suite.status()


if __name__ == "__main__":
    sys.exit(main())
