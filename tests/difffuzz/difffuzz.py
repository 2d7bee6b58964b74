#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Differential fuzzing of the app's engine against Linux's aspm.c (make
# difffuzz; tests/difffuzz/README.md, docs/difffuzz.md). Run by
# tests/xcheck/xcheck.sh --difffuzz, which builds the host tool, aspmsim.ko
# for both kernels and an initramfs without scenarios.
#
# Machines FIRST..FIRST+N-1 of campaign SEED (tests/sim/gen.c: machine i
# is gen_machine(gen_seed(SEED, i))) run under every group, in batches of
# --per-boot machines: per batch and group the host tool writes the
# scenarios (xcheck --gen), they go in front of the initramfs as a cpio of
# their own, and each kernel boots once with aspmctl.xcheck=all (one PCI
# domain per scenario), both kernels at the same time. Each scenario is
# then compared as make xcheck compares (tests/xcheck/xcheck.py's
# check()); a difference the rules of RULES do not explain is a finding:
# it is reduced (drop functions, links, fields: gen_mutate()) to the
# smallest machine that still shows it and written to FOUND/.
#
# Prints one "ok" line per batch and group and one "FAIL" line per
# finding, then the figures; exit status 1 on a finding.

import argparse
import concurrent.futures
import importlib.util
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def load_xcheck():
    spec = importlib.util.spec_from_file_location(
        "xcheck", os.path.join(REPO, "tests", "xcheck", "xcheck.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


xc = load_xcheck()
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
import testlib  # noqa: E402
xc.BOOT_TIMEOUT[0] = 900
xc.FIRMWARE[0] = "bios"
GROUP_LETTER = {"keep": "k", "force": "f", "fadt": "a", "clear": "c", "notouch": "n",
                "supersave": "s"}
# the groups a campaign runs: make xcheck's
GROUPS = [g for g in xc.GROUP_ORDER if g in GROUP_LETTER]

# ------------------------------------------------------------ the rules
#
# What each kernel is expected to do per group, and the documented
# divergences a generated machine may show (docs/difffuzz.md cites the
# Linux code of each). A scenario passes when the kernel does what the
# app did ("app"), or the patched kernel ("patched"), or keeps the BIOS
# state ("bios"), or when one of the listed divergences' checks (the
# functions of tests/xcheck/xcheck.py DIVERGENCES, which require the
# divergence to be exactly as described) holds.
#
# The unpatched kernel knows neither pcie_aspm=clear (an unknown value:
# the default policy) nor pcie_aspm.fadt=; under the FADT bit Linux 6.1's
# pci_root.c calls pcie_no_aspm() (aspm_disabled = 1, default policy), and
# its aspm.c still builds every link's state and applies the default
# policy: BIOS L1 turned off where the latencies do not allow it
# (pcie_aspm_check_latency()), L1 PM Substates without L1 cleared
# (pcie_config_aspm_link()), blacklisted links cleared
# (pcie_aspm_sanity_check() for a non-PCIe function). So under clear
# (no FADT bit) the unpatched kernel is held to what it did itself under
# keep on the same machine ("unpatched-keep"). Under the FADT bit (fadt,
# notouch) it is held to what it does with pcie_aspm=force alone, the
# default policy kept ("unpatched-force-default", a reference boot of the
# unpatched kernel only): aspm_disabled, like aspm_force, skips the
# pre-1.1 test of pcie_aspm_sanity_check() ("if (aspm_disabled)
# continue;"), neither changes the policy from POLICY_DEFAULT
# (pcie_no_aspm() leaves it, pcie_aspm=force only sets aspm_force), and
# what else aspm_disabled stops (pcie_aspm_pm_state_change(),
# pcie_aspm_powersave_config_link(), pci_disable_link_state(), the policy
# parameter) is not reached here under the default policy. Found by make
# difffuzz (class D, tests/xcheck/found/cd724405793cd5a9-fadt.txt): a
# pre-1.1 link is blacklisted and cleared under keep, not under the FADT
# bit.
EXPECT = {
    # group: (patched kernel, unpatched kernel)
    "keep": ("app", "patched"),
    "force": ("app", "patched"),
    "fadt": ("app", "unpatched-force-default"),
    "clear": ("app", "unpatched-keep"),
    "notouch": ("app", "unpatched-force-default"),
    "supersave": ("final", "patched"),
}
# reference boots: the unpatched kernel alone, under these parameters, on
# the machines as the keep group exports them
REF_BOOTS = {"force-default": "pcie_aspm=force"}
xc.GROUPS.update(REF_BOOTS)


def ref_group(group):
    """The group whose unpatched result the unpatched kernel's result under
    group must equal, or None."""
    e = EXPECT[group][1]
    return e[len("unpatched-"):] if e.startswith("unpatched-") else None
RULES = {
    # (kernel, group) -> divergences allowed, tried in this order
    ("patched", "keep"): ["l1ss-timing", "l1ss-order-timing", "teardown-l1ss", "l1ss-program",
                          "blacklist-l1ss",       # tests/xcheck/xcheck.py
                          "per-link"],            # several of the above, link by link
    ("patched", "supersave"): ["supersave-aggregate"],
    ("patched", "force"): ["l1ss-order-timing", "teardown-l1ss", "force-link-order",
                           "l1ss-program", "force-aggregate", "blacklist-l1ss", "per-link"],
}


def link_of(sc, bdf):
    """The link (its upstream port) a function's Link Control belongs to:
    the port itself for a port's own downstream link is ambiguous, so a
    port counts with the link below it, other functions with theirs."""
    ends = sc.link_ends(bdf)
    return ends[0] if ends else bdf


def div_force_link_order(sc, got, app, offs):
    """force: Linux configures a link when a device below it is enabled
    (pci_enable_device() -> pcie_aspm_powersave_config_link()), and the
    PCIe port driver enables the ports while pci_bus_add_devices() binds
    it, before aspmsim.ko enables the rest in bus order; the app walks its
    links in one order. The same final registers, and per link the same
    effective writes in the same order; only the interleaving of links
    differs. The L1SS writes as l1ss-program: free, the same final
    enables (the two happen together on any link with substates)."""
    why = xc.regs_differ(got, app, L1SS_EN)
    for ph in (0, 1):
        k, a = {}, {}
        for e in xc.events(got[ph], offs):
            if " l1ss" not in e:
                k.setdefault(link_of(sc, e.split()[0]), []).append(e)
        for e in xc.events(app[ph], offs):
            if " l1ss" not in e:
                a.setdefault(link_of(sc, e.split()[0]), []).append(e)
        if k != a:
            why.append("per-link writes differ")
        if ph == 0 and xc.events(got[ph], offs) == xc.events(app[ph], offs):
            why.append("no order difference")
    return "; ".join(why)


def split_aspm(events):
    """Link Control events split in two: the ASPM Control change ("aspmc")
    and the rest (Common Clock, CLKREQ#), so that under force-aggregate a
    write the kernel made to CLKREQ# alone, on a register whose ASPM bits
    it left as the BIOS's, still matches the app's (which changed both).
    An ASPM Control change is named by what it writes: once the kernel
    has left out one (its register kept the BIOS's bits), the next one
    starts from another value than the app's (seed-17 machine 772)."""
    out = []
    for e in events:
        f = e.split()
        if len(f) == 3 and f[1] == "lnkctl":
            b, a = int(f[2][:6], 16), int(f[2][7:], 16)
            if (b ^ a) & ~0x3:
                out.append("%s lnkctl 0x%04x>0x%04x" % (f[0], b & ~0x3, a & ~0x3))
            if (b ^ a) & 0x3:
                out.append("%s aspmc >0x%x" % (f[0], a & 0x3))
        else:
            out.append(e)
    return out


def div_per_link(sc, got, app, offs):
    """More than one documented divergence on one machine, each on its own
    links (class B, docs/difffuzz.md): the single rules above each hold
    the rest of the machine to the app, so a machine with, say, a
    blacklisted link with BIOS substates (blacklist-l1ss) and a link Linux
    reprograms (l1ss-program) matched neither. Per link:
    - L1 PM Substates: on a blacklisted link's functions the kernel's
      enables are the BIOS's and the app's 0 (blacklist-l1ss); elsewhere
      the same final enables, the writes free (l1ss-program), except
      under force where both ends' common BIOS enables already were the
      app's target: then each end's are the BIOS's (force-aggregate);
      on a removed function the kernel's may be 0 (teardown-l1ss);
    - Link Control on a link whose substates the kernel reprogrammed: only
      the final registers (l1ss-order-timing);
    - Link Control under keep: the same writes in the same order, all
      other links together;
    - Link Control under force: per link the app's writes in order
      (force-link-order: links interleave differently), with ASPM Control
      changes left out where the kernel's enables stay the BIOS's
      (force-aggregate; split_aspm()).
    Everything else as the app; some register or write must differ."""
    why, bl, force = [], xc.blacklisted_fns(sc), sc.group == "force"
    gone = xc.removed_fns(sc)
    for bdf, regs in got[2].items():
        for n, (_, v) in regs.items():
            a, b = app[2][bdf][n][1], sc.bios[bdf][n][1]
            if n == "l1ss" and bdf in gone and not v & L1SS_EN:
                continue    # teardown-l1ss: the kernel cleared the removed function's
            if n == "l1ss" and bdf in bl:
                bad = (v ^ b) & L1SS_EN or a & L1SS_EN & ~xc.l1ss_stuck(sc, bdf)
            elif n == "l1ss" and force:
                # force-aggregate for substates: the link's L1SS state is
                # the enables both ends have (aspm_l1ss_init()); when that
                # already is the app's target nothing is written, and each
                # end keeps the BIOS's enables
                bad = (v ^ a) & L1SS_EN and ((v ^ b) & L1SS_EN or
                                             not xc.l1ss_common_kept(sc, app, bdf))
            elif n == "l1ss":
                bad = (v ^ a) & L1SS_EN
            elif n == "lnkctl" and force:
                # where they differ: only ASPM Control or CLKREQ#, each
                # group whole as the BIOS left it in the kernel (Linux
                # skips the two separately: pcie_config_aspm_link(),
                # pcie_set_clkpm())
                bad = (v ^ a) & ~0x0103 or any(
                    (v ^ a) & m and ((v ^ b) & m or not xc.bios_state_kept(sc, app, bdf, m))
                    for m in (0x0003, 0x0100))
            elif n == "lnkctl":
                bad = v != a
            else:       # as xc.regs_differ(): Device Control 2 is not ASPM here
                bad = (v ^ a) & L1SS_EN
            if bad:
                why.append("%s %s 0x%x: app 0x%x, BIOS 0x%x" % (bdf, n, v, a, b))
    # links whose substates the kernel reprogrammed: their Link Control
    # writes are free, only their final registers count (l1ss-order-timing:
    # the app turns L1 off at both ends first, PCIe r5.0 sec 5.5.4)
    free = set(link_of(sc, e.split()[0]) for e in xc.raw_events(got[0] + got[1], offs)
               if " l1ss" in e)
    for ph in (0, 1):
        k = [e for e in xc.events(got[ph], offs)
             if " l1ss" not in e and link_of(sc, e.split()[0]) not in free]
        a = [e for e in xc.events(app[ph], offs)
             if " l1ss" not in e and link_of(sc, e.split()[0]) not in free]
        if not force:
            if k != a:
                why.append("Link Control writes differ\n%s" % xc.diff_list(k, a, "kernel", "app"))
            continue
        kl, al = {}, {}
        for e in split_aspm(k):
            kl.setdefault(link_of(sc, e.split()[0]), []).append(e)
        for e in split_aspm(a):
            al.setdefault(link_of(sc, e.split()[0]), []).append(e)
        for lk in sorted(set(kl) | set(al)):
            ko = [e for e in kl.get(lk, []) if " aspmc " not in e]
            ao = [e for e in al.get(lk, []) if " aspmc " not in e]
            it = iter([e for e in al.get(lk, []) if " aspmc " in e])
            if ko != ao or not all(e in it for e in kl.get(lk, []) if " aspmc " in e):
                why.append("link %s: the kernel's writes are not the app's (ASPM Control changes "
                           "left out)\n%s"
                           % (lk, xc.diff_list(kl.get(lk, []), al.get(lk, []), "kernel", "app")))
    if not why and xc.events(got[0], offs) == xc.events(app[0], offs) and \
            xc.events(got[1], offs) == xc.events(app[1], offs) and not xc.regs_differ(got, app, 0xffffffff):
        why.append("no difference")
    return "; ".join(why)


L1SS_EN = xc.L1SS_EN
xc.DIVERGENCES.setdefault("per-link", div_per_link)
xc.DIVERGENCES.setdefault("force-link-order", div_force_link_order)

# ------------------------------------------------------------ host side


def run_tool(tool, outdir, specs):
    """Write the scenarios of specs [(name, group, seed, muts)] to outdir."""
    if os.path.isdir(outdir):
        shutil.rmtree(outdir)
    os.makedirs(outdir)
    sp = os.path.join(outdir, "specs.txt")
    with open(sp, "w") as f:
        for name, group, seed, muts in specs:
            f.write("%s %s %x %s\n" % (name, group, seed, muts or "-"))
    r = subprocess.run([tool, "--gen", outdir, sp], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("xcheck --gen: %s" % r.stderr.strip())
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(outdir, "index.tsv"))
            if l.strip() and not l.startswith("#")]
    return [xc.Scenario(row, outdir) for row in rows]


def gen_info(tool, seed, muts):
    r = subprocess.run([tool, "--gen-info", "%x" % seed, muts or "-"], capture_output=True,
                       text=True, check=True)
    return r.stdout


def batch_initrd(gen, sdir, scs, base, out):
    """The batch's scenarios as /xcheck/*.sim, in front of base."""
    return testlib.cpio_initrd(gen, [("/xcheck/%s.sim" % sc.name, "%s/%s.sim" % (sdir, sc.name))
                                     for sc in scs], base, os.path.join(out, "initrd.img"))


# ------------------------------------------------------------ guest side

class Ctx:
    def __init__(self, a, e):
        self.a = a
        self.tk = xc.load_test_kernel()
        self.kern = {"patched": e["KERNEL_PATCHED"], "unpatched": e["KERNEL_UNPATCHED"]}
        self.base = {"patched": a.initrd_patched, "unpatched": a.initrd_unpatched}
        self.gen = os.path.join(e["KERNEL_BUILD_PATCHED"], "usr/gen_init_cpio")
        self.facp = None
        self.boots = 0
        self.retries = 0
        self.boot_secs = 0.0


def boot_one(ctx, k, group, sdir, scs, out):
    """Boot kernel k under group with scs; the Guest, or an error text."""
    os.makedirs(out, exist_ok=True)
    rd = batch_initrd(ctx.gen, sdir, scs, ctx.base[k], out)
    if group in xc.FADT_GROUPS:
        rd = ctx.tk.fadt_initrd(ctx.facp, ctx.gen, rd, out)
    # log_buf_len: the records of a hundred domains do not fit the
    # default kernel log buffer (the first ones were lost: seen)
    append = "%s log_buf_len=16M aspmctl.xcheck=all %s" % (xc.DYNDBG, xc.GROUPS[group])
    if ctx.facp is None:
        append += ' aspmctl.run="%s"' % xc.FACP_CMD
    for attempt in (1, 2):
        ok, serial, secs = xc.boot(ctx.kern[k], rd, append.strip(), out)
        ctx.boots += 1
        ctx.boot_secs += secs
        # once more when the guest died before /init ran (seen under TCG on
        # the loaded machine: "IO-APIC + timer doesn't work!" at 0.01 s)
        if ok or "=== aspmctl-init: begin init" in serial:
            break
        ctx.retries += 1
    if not ok:
        return None, serial, "boot failed, see %s/boot-test.log" % out
    gu = xc.Guest(serial)
    if gu.rc != 0:
        return None, serial, "xcheck section rc=%s, see %s/serial.log" % (gu.rc, out)
    if group in xc.FADT_GROUPS and xc.FADT_MSG not in serial:
        return None, serial, "the upgraded FADT was not taken"
    if gu.lost:
        return None, serial, "%d writes beyond the module's log" % gu.lost
    return gu, serial, ""


def get_facp(ctx, out):
    """The FACP of the guest (for the FADT groups), from an empty keep boot."""
    _, serial, why = boot_one(ctx, "patched", "keep", out, [], out)
    run1 = testlib.init_section(serial, "run.1") or ""
    if "\n" not in run1:
        raise RuntimeError("no FACP dump: %s" % (why or "run.1 empty"))
    ctx.facp = run1.split("\n", 1)[1]


def boot_group(ctx, group, sdir, scs, out):
    """Both kernels at once; {kernel: Guest}, or raises."""
    ks = ctx.a.kernels.split(",")
    with concurrent.futures.ThreadPoolExecutor(len(ks)) as ex:
        futs = {k: ex.submit(boot_one, ctx, k, group, sdir, scs,
                             os.path.join(out, "%s-%s" % (k, group))) for k in ks}
        res = {k: f.result() for k, f in futs.items()}
    for k, (gu, _, why) in res.items():
        if gu is None:
            raise RuntimeError("%s-%s: %s" % (k, group, why))
    return {k: r[0] for k, r in res.items()}


# ------------------------------------------------------------ classification

def run_check(sc, kernel, expect, got, app, ref):
    """xcheck.py's check(), its ok/FAIL lines collected: [(ok, label, why)]."""
    got_lines = []

    def rep(name, ok, why=""):
        got_lines.append((ok, name, why))
    saved = xc.report
    xc.report = rep
    try:
        xc.check(sc, kernel, expect, got, app, ref)
    finally:
        xc.report = saved
    return got_lines


def records_rule(sc, k, got, app, ref):
    """The documented record divergence that explains the records check's
    failure, or None. teardown-not-function-0: the app records the
    removal of a function other than function 0 of a link
    ("note=not-function-0", docs/records.md); Linux's
    pcie_aspm_exit_link_state() returns while other functions of the
    slot remain ("just wait until we are the last function left"), before
    patch 0004 prints a teardown record."""
    keep = [l for l in sc.records if "note=not-function-0" not in l]
    if keep == sc.records:
        return None
    saved = sc.records
    sc.records = keep
    try:
        ok = all(o for o, lab, _ in run_check(sc, k, "app", got, app, ref) if "same records" in lab)
    finally:
        sc.records = saved
    return "teardown-not-function-0" if ok else None


def ref_results(ctx, rg, specs, sdir, out):
    """{spec name: the unpatched kernel's result} under reference group rg
    for specs [(name, seed, muts)]: a keep/force... group's own run, or a
    REF_BOOTS boot of the unpatched kernel alone."""
    if rg not in REF_BOOTS:
        res = compare(ctx, rg, sdir, run_tool(ctx.a.tool, sdir,
                                              [(n, rg, sd, m) for n, sd, m in specs]), out, {})
        return {n: res[n][2].get("unpatched") for n, _, _ in specs}
    scs = run_tool(ctx.a.tool, sdir, [(n, "keep", sd, m) for n, sd, m in specs])
    gu, _, why = boot_one(ctx, "unpatched", rg, sdir, scs, os.path.join(out, "unpatched-" + rg))
    if gu is None:
        raise RuntimeError("unpatched-%s: %s" % (rg, why))
    return {sc.name: gu.scenario(sc) for sc in scs}


def classify(sc, res, ref):
    """[(kernel, check, why)] of what no rule explains, and the
    divergences that explained the rest. ref: the unpatched kernel's
    result for the same machine under ref_group(sc.group), or None."""
    bad, used = [], []
    app = (sc.boot, sc.after, sc.final)
    for k in ("patched", "unpatched"):
        if k not in res:
            continue
        got = res[k]
        exp = EXPECT[sc.group][0 if k == "patched" else 1]
        if ref_group(sc.group) and k == "unpatched":
            why = "no %s result" % ref_group(sc.group) if ref is None else \
                xc.same_as(got, ref, sc.offsets(), "unpatched", exp)
            if why:
                bad.append((k, exp, why))
            continue
        for ok, label, why in run_check(sc, k, exp, got, app, res.get("patched")):
            if ok:
                continue
            if "same records" in label:
                div = records_rule(sc, k, got, app, res.get("patched"))
                if div:
                    used.append(div)
                else:
                    bad.append((k, "records", why))
                continue
            for div in RULES.get((k, sc.group), []):
                if div == "teardown-l1ss" and not sc.remove:
                    continue
                if all(o for o, lab, _ in run_check(sc, k, "div:" + div, got, app,
                                                    res.get("patched"))
                       if "same records" not in lab):
                    used.append(div)
                    break
            else:
                bad.append((k, exp, why))
    return bad, used


def signature(bad):
    return sorted(set((k, c) for k, c, _ in bad))


def compare(ctx, group, sdir, scs, out, refs):
    """{scenario name: ([problems], [divergences used], results)}.
    refs: {scenario name: the unpatched kernel's result under
    ref_group(group)}."""
    guests = boot_group(ctx, group, sdir, scs, out)
    r = {}
    for sc in scs:
        res = {}
        for k, gu in guests.items():
            got = gu.scenario(sc)
            if got is None:
                res = None
                break
            res[k] = got
        if res is None:
            r[sc.name] = ([("guest", "scanned", "not in the guest's output")], [], {})
        else:
            r[sc.name] = classify(sc, res, refs.get(sc.name)) + (res,)
    return r


# ------------------------------------------------------------ reduction

def mutations(info):
    for line in info.splitlines():
        if line.startswith("mutations "):
            m = line.split(None, 1)[1]
            return [] if m == "-" else m.split(",")
    return []


def nfunctions(info):
    return int(info.split("\n", 1)[0].split()[1])


def reduce(ctx, seed, group, sig, out, log):
    """The smallest mutation list that keeps the signature: greedy, one
    boot per round (and group), every one-step smaller candidate in it."""
    muts, last, good = [], None, []
    rounds = 0
    while True:
        info = gen_info(ctx.a.tool, seed, ",".join(muts))
        cands = mutations(info)[:ctx.a.per_boot - 1]
        if not cands:
            break
        # every mutation that kept the divergence last round, at once
        combo = ",".join(c for c in good if c in cands)
        if combo.count(",") and applies(ctx, seed, muts + [combo]):
            cands.insert(0, combo)
        rounds += 1
        refs, rg = {}, ref_group(group)
        if rg:
            got = ref_results(ctx, rg, [("r%dr" % i, seed, ",".join(muts + [c]))
                                        for i, c in enumerate(cands)],
                              os.path.join(out, "round-ref"), os.path.join(out, "boots"))
            refs = {"r%d" % i: got.get("r%dr" % i) for i in range(len(cands))}
        specs = [("r%d" % i, group, seed, ",".join(muts + [c])) for i, c in enumerate(cands)]
        sdir = os.path.join(out, "round")
        scs = run_tool(ctx.a.tool, sdir, specs)
        res = compare(ctx, group, sdir, scs, os.path.join(out, "boots"), refs)
        best, good = None, []
        for i, c in enumerate(cands):
            bad = res.get("r%d" % i, ([], [], {}))[0]
            if bad and signature(bad) == sig:
                n = nfunctions(gen_info(ctx.a.tool, seed, ",".join(muts + [c])))
                good += [] if "," in c else [c]
                # the fewest functions; the combination first among equals
                if best is None or n < best[0] or (n == best[0] and "," in c):
                    best = (n, c, bad)
        if best is None:
            break
        muts.append(best[1])
        last = best[2]
        log("#   round %d: %s (%d functions)" % (rounds, best[1], best[0]))
    return muts, rounds, last


def sig_text(sig):
    return " ".join("%s/%s" % s for s in sig)


def load_open(path):
    """{(seed, group): (signature, finding)} of tests/difffuzz/open.tsv:
    rows "SEED GROUP SIGNATURE FINDING" (tab-separated)."""
    if not path:
        return {}
    rows = [l.rstrip("\n").split("\t") for l in open(path)
            if l.strip() and not l.startswith("#")]
    return {(r[0], r[1]): (r[2], r[3]) for r in rows}


def applies(ctx, seed, muts):
    r = subprocess.run([ctx.a.tool, "--gen-info", "%x" % seed, ",".join(muts)],
                       capture_output=True, text=True)
    return r.returncode == 0


def save_finding(ctx, seed, index, group, bad, muts, rounds):
    os.makedirs(ctx.a.found, exist_ok=True)
    name = "%x-%s" % (seed, group)
    path = os.path.join(ctx.a.found, name + ".txt")
    with open(path, "w") as f:
        f.write("# SPDX-License-Identifier: GPL-2.0-only\n")
        f.write(("# difffuzz finding: campaign seed %x, machine %d, group %s\n"
                 % (ctx.a.seed, index, group)) if index >= 0 else
                "# difffuzz finding: machine seed %x, group %s (--reduce-one)\n" % (seed, group))
        f.write("# replay: xcheck --gen DIR SPECS with the line\n")
        f.write("#   %s %s %x %s\n" % ("found", group, seed, ",".join(muts) or "-"))
        f.write("seed %x\nindex %d\ngroup %s\nmutations %s\nrounds %d\n"
                % (seed, index, group, ",".join(muts) or "-", rounds))
        for line in gen_info(ctx.a.tool, seed, ",".join(muts)).splitlines():
            if not line.startswith("mutations "):
                f.write("machine %s\n" % line)
        for k, c, why in bad:
            f.write("diverges %s %s\n" % (k, c))
            for w in why.splitlines():
                f.write("  | %s\n" % w)
    return path


# ------------------------------------------------------------ the campaign

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--initrd-patched", required=True)
    ap.add_argument("--initrd-unpatched", required=True)
    ap.add_argument("--kernels", default="patched,unpatched")
    ap.add_argument("--seed", type=lambda s: int(s, 0), default=1)
    ap.add_argument("--n", type=int, default=20, help="machines")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--per-boot", type=int, default=100, help="scenarios per boot")
    ap.add_argument("--groups", default=",".join(GROUPS),
                    help="comma list of " + ", ".join(GROUPS))
    ap.add_argument("--found", default=os.path.join(REPO, "build", "difffuzz-found"))
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--open", default="", help="open findings (tests/difffuzz/open.tsv): "
                    "these divergences are known, each must still be there")
    ap.add_argument("--reduce-one", nargs=2, metavar=("SEED", "GROUP"),
                    help="only reduce this machine (seed in hex) under GROUP")
    a = ap.parse_args()
    ctx = Ctx(a, xc.env())
    t0 = time.time()
    unknown = [g for g in a.groups.split(",") if g not in GROUPS]
    if unknown:
        ap.error("--groups: %s: not a difffuzz group (%s)" % (",".join(unknown), ", ".join(GROUPS)))
    # a group the unpatched kernel is held to runs too, first (GROUPS' order)
    wanted = a.groups.split(",")
    groups = [g for g in GROUPS if g in wanted or g in {ref_group(w) for w in wanted}]
    refs_wanted = sorted(set(ref_group(g) for g in groups) & set(REF_BOOTS))
    work = os.path.join(a.out, "difffuzz")

    def log(s):
        print(s, flush=True)
    if any(g in xc.FADT_GROUPS for g in groups):
        get_facp(ctx, os.path.join(work, "facp"))
    if a.reduce_one:
        return reduce_one(ctx, int(a.reduce_one[0], 16), a.reduce_one[1], work, log)
    compared, divs = 0, {}
    suite = testlib.Suite(out=log)      # a FAIL line is a new finding
    known, seen_open = load_open(a.open), set()
    nfn = 0
    for start in range(a.first, a.first + a.n, a.per_boot):
        idx = list(range(start, min(a.first + a.n, start + a.per_boot)))
        seeds = {i: gen_seed(a.seed, i) for i in idx}
        ref_res = {}    # group: {machine: the unpatched kernel's result}
        for rg in refs_wanted:
            try:
                got = ref_results(ctx, rg, [("m%dr" % i, seeds[i], None) for i in idx],
                                  os.path.join(work, "ref"), os.path.join(work, "boots"))
                ref_res[rg] = {i: got.get("m%dr" % i) for i in idx}
                suite.check(True, "machines %d-%d: reference boot %s (unpatched kernel, %s)"
                            % (idx[0], idx[-1], rg, REF_BOOTS[rg]))
            except RuntimeError as ex:
                suite.check(False, "machines %d-%d reference %s: %s" % (idx[0], idx[-1], rg, ex))
        for g in groups:
            specs = [("m%d%s" % (i, GROUP_LETTER[g]), g, seeds[i], None) for i in idx]
            sdir = os.path.join(work, "scenarios")
            scs = run_tool(a.tool, sdir, specs)
            nfn += sum(s.nfn for s in scs)
            refs = {"m%d%s" % (i, GROUP_LETTER[g]): ref_res.get(ref_group(g), {}).get(i)
                    for i in idx}
            try:
                res = compare(ctx, g, sdir, scs, os.path.join(work, "boots"), refs)
            except RuntimeError as ex:
                suite.check(False, "machines %d-%d %s: %s" % (idx[0], idx[-1], g, ex))
                continue
            nbad = 0
            for i, sc in zip(idx, scs):
                bad, used, got = res[sc.name]
                ref_res.setdefault(g, {})[i] = got.get("unpatched")
                for d in used:
                    divs[d] = divs.get(d, 0) + 1
                if not bad:
                    continue
                sig = signature(bad)
                key = ("%x" % seeds[i], g)
                if key in known and known[key][0] == sig_text(sig):
                    # an open finding, already reduced and saved: known[key][1]
                    seen_open.add(key)
                    suite.check(True, "machine %d (seed %x) %s: open finding %s (%s), as recorded"
                                % (i, seeds[i], g, known[key][1], sig_text(sig)))
                    continue
                nbad += 1
                suite.check(False, "machine %d (seed %x) %s: %s" % (i, seeds[i], g,
                                                                   " ".join("%s/%s" % s for s in sig)))
                for k, c, why in bad:
                    log("#   %s %s: %s" % (k, c, why.replace("\n", "\n#     ")))
                muts, rounds, last = ([], 0, None) if a.no_reduce else \
                    reduce(ctx, seeds[i], g, sig, os.path.join(work, "reduce"), log)
                log("#   saved %s" % save_finding(ctx, seeds[i], i, g, last or bad, muts, rounds))
            compared += len(scs)
            suite.check(True, "machines %d-%d %s: %d scenarios compared, %d findings"
                        % (idx[0], idx[-1], g, len(scs), nbad))
    for key in sorted(set(known) - seen_open):
        if key[0] in ("%x" % gen_seed(a.seed, i) for i in range(a.first, a.first + a.n)) \
                and key[1] in groups:
            suite.check(False, "machine seed %s %s: recorded as an open finding (%s) but it no "
                        "longer diverges so: fixed? update %s" % (key[0], key[1], known[key][1], a.open))
    secs = time.time() - t0
    log("# difffuzz: seed %#x, machines %d-%d, groups %s" % (a.seed, a.first, a.first + a.n - 1,
                                                            ",".join(groups)))
    log("# compared %d scenarios (%d functions), %d boots (%d again after a guest died "
        "before /init; %.0f s booting), %.0f s wall, %.0f scenarios/minute"
        % (compared, nfn, ctx.boots, ctx.retries, ctx.boot_secs, secs,
           compared * 60 / secs if secs else 0))
    log("# documented divergences seen: %s" %
        (", ".join("%s %d" % kv for kv in sorted(divs.items())) or "none"))
    log("# open findings (recorded): %d; new findings: %d" % (len(seen_open), suite.failed))
    return suite.status()


def reduce_one(ctx, seed, group, work, log):
    """--reduce-one: the machine under group (and keep, for the
    unpatched kernel's reference), reduced if it diverges."""
    refs, rg = {}, ref_group(group)
    if rg:
        refs = {"o0": ref_results(ctx, rg, [("o0r", seed, None)], os.path.join(work, "one-ref"),
                                  os.path.join(work, "boots")).get("o0r")}
    sdir = os.path.join(work, "one")
    res = compare(ctx, group, sdir, run_tool(ctx.a.tool, sdir, [("o0", group, seed, None)]),
                  os.path.join(work, "boots"), refs)
    bad = res["o0"][0]
    suite = testlib.Suite(out=log)
    if not bad:
        suite.check(True, "machine %x %s: no divergence" % (seed, group))
        return suite.status()
    sig = signature(bad)
    suite.check(False, "machine %x %s: %s" % (seed, group, " ".join("%s/%s" % s for s in sig)))
    muts, rounds, last = reduce(ctx, seed, group, sig, os.path.join(work, "reduce"), log)
    log("#   saved %s" % save_finding(ctx, seed, -1, group, last or bad, muts, rounds))
    return 1


def gen_seed(campaign, i):
    """tests/sim/gen.c gen_seed(): the seed of machine i."""
    m = (1 << 64) - 1
    st = (campaign ^ (i * 0xd1b54a32d192ed03)) & m

    def nxt():
        nonlocal st
        st = (st + 0x9e3779b97f4a7c15) & m
        z = st
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & m
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & m
        return z ^ (z >> 31)
    nxt()
    return nxt()


if __name__ == "__main__":
    sys.exit(main())
