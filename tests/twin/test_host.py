#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""build/host/aspmctl over the corpus of real machines (tests/twin/dumps)
and over dumps made here to be broken: the claims README makes of the
host tool, each checked against lspci (pciutils), the independent decoder.

  tests/twin/test_host.py --tool build/host-san/aspmctl [--results DIR]
                          [--dumps DIR] [--work DIR]

For every dump: `report` names every function `lspci -F` names; `plan
--policy notouch` plans no write; `apply --policy clear --after-dump OUT`
leaves every link end of `lspci -F OUT -vv` with ASPM disabled and every
L1 PM Substates enable off (unless its extended space is unknown). Then
the FADT options, --from-sysfs on a tree made from a dump (as root and
as a user), and bad input (FILE:LINE errors, exit 1, no crash).
Ends with "N passed, N failed"."""
import argparse
import os
import re
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import records  # noqa: E402
import testlib  # noqa: E402

suite = testlib.Suite()
check = suite.check


def run(tool, *args):
    r = subprocess.run([tool] + list(args), capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


def lspci(*args):
    r = subprocess.run(["lspci"] + list(args), capture_output=True, text=True)
    return r.stdout


def lspci_functions(path):
    """Addresses lspci -F names, with the domain (-D)."""
    return {line.split()[0] for line in lspci("-F", path, "-D").splitlines() if line.strip()}


ADDR = re.compile(r"^\s*([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) [0-9a-f]{4}:[0-9a-f]{4} ")


def report_functions(out):
    """Functions the report's tree names, and those it lists as in the
    dump but not in the tree."""
    named = {m.group(1) for m in map(ADDR.match, out.splitlines()) if m}
    named |= {line.split()[1] for line in out.splitlines() if line.startswith("dump ")}
    return named


def lspci_blocks(path):
    """lspci -F PATH -vv per function: {address: text}."""
    blocks, cur = {}, None
    for line in lspci("-F", path, "-D", "-vv").splitlines():
        if line and not line[0].isspace():
            cur = line.split()[0]
            blocks[cur] = ""
        elif cur:
            blocks[cur] += line + "\n"
    return blocks


def clear_leaves_links_off(name, out, after):
    targets = [r for r in records.parse_all(out, ["target"])]
    blocks = lspci_blocks(after)
    bad = []
    for r in targets:
        fn = r["fn"]
        text = blocks.get(fn, "")
        lnk = re.search(r"LnkCtl:\s+ASPM ([^;]+);", text)
        if r.get("lnkctl") != "-" and (not lnk or lnk.group(1) != "Disabled"):
            bad.append(fn + " LnkCtl " + (lnk.group(1) if lnk else "missing"))
        if r.get("l1ss") != "unknown":
            sub = re.search(r"L1SubCtl1:([^\n]*)", text)
            if sub and "+" in sub.group(1).split("T_")[0].split("LTR")[0]:
                bad.append(fn + " L1SubCtl1" + sub.group(1))
    links = list(records.parse_all(out, ["link"]))
    return check((targets or not links) and not bad,
                 "%s: apply --policy clear: %d link ends, lspci -F after-dump: ASPM disabled, "
                 "L1SS enables off%s" % (name, len(targets), ("; " + "; ".join(bad[:4])) if bad else ""))


def refused():
    out = {}
    for line in open(os.path.join(HERE, "refused.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        f, n, text = line.rstrip("\n").split("\t")
        out[f] = (int(n), text)
    return out


def damaged(tool):
    """Real dumps damaged as published (tests/twin/damaged): refused, with
    the line and the reason refused.tsv gives."""
    expect = refused()
    d = os.path.join(HERE, "damaged")
    check(sorted(expect) == sorted(os.listdir(d)), "refused.tsv lists every damaged dump")
    for f, (n, text) in sorted(expect.items()):
        path = os.path.join(d, f)
        rc, out, err = run(tool, "--from-dump", path, "report")
        check(rc == 1 and ("%s:%d: " % (path, n)) in err and text in err and not out.strip(),
              "%s (damaged): refused with FILE:LINE (%d) and why: %s" % (f, n, err.strip()[:100]))


def corpus(tool, dumps, work):
    for f in sorted(x for x in os.listdir(dumps) if x.endswith(".txt")):
        path, name = os.path.join(dumps, f), f
        rc, out, err = run(tool, "--from-dump", path, "report")
        want = lspci_functions(path)
        got = report_functions(out)
        check(rc == 0 and want and want == got,
              "%s: report names the %d functions lspci -F names%s" % (
                  name, len(want), "" if want == got else "; missing %s, extra %s" % (
                      sorted(want - got)[:4], sorted(got - want)[:4])))
        rc, out, err = run(tool, "--from-dump", path, "plan", "--policy", "notouch")
        writes = list(records.parse_all(out, ["write"]))
        check(rc == 0 and not writes and "action=notouch" in out,
              "%s: plan --policy notouch plans %d writes" % (name, len(writes)))
        after = os.path.join(work, f + ".after")
        rc, out, err = run(tool, "--from-dump", path, "apply", "--policy", "clear",
                           "--after-dump", after)
        if check(rc == 0 and os.path.exists(after), "%s: apply --policy clear --after-dump" % name):
            clear_leaves_links_off(name, out, after)


def partial_dumps(tool, shapes):
    """Dumps of the shapes bug reports have (tests/twin/shapes/README.md):
    what is missing is said on stderr, and the links whose both ends are
    there are planned."""
    def counts(out):
        m = re.search(r"PCI: (\d+) function\(s\), (\d+) link\(s\)", out)
        return (int(m.group(1)), int(m.group(2))) if m else None

    def links(out):
        return {(r["up"], r["down"]): r for r in records.parse_all(out, ["link"])}
    path = os.path.join(shapes, "rootport-fn4-gpu.txt")
    rc, out, err = run(tool, "--from-dump", path, "plan", "--policy", "clear")
    check(rc == 0 and counts(out) == (2, 1) and
          ("0000:00:1c.4", "0000:02:00.0") in links(out) and
          links(out)[("0000:00:1c.4", "0000:02:00.0")]["action"] == "clear",
          "port 00:1c.4 and its GPU, function 0 of 00:1c not dumped: 2 functions, the link planned")
    check("0000:00:1c.0 is not in the dump" in err and "0000:00:1c.4" in err,
          "port at function 4 alone: stderr says function 0 of its device is not in the dump")
    path = os.path.join(shapes, "switch-upstream-fn2.txt")
    rc, out, err = run(tool, "--from-dump", path, "report")
    check(rc == 0 and counts(out) == (1, 0) and "0000:00:01.0 is not in the dump" in err and
          "Downstream Ports were not dumped" in err and "the port above it is not in the dump" in err,
          "lone Switch Upstream Port at 00:01.2: found, and both missing link ends said on stderr")
    path = os.path.join(shapes, "rootport-alone.txt")
    rc, out, err = run(tool, "--from-dump", path, "report")
    check(rc == 0 and counts(out) == (1, 0) and
          "no function of its secondary bus 02 is in the dump" in err,
          "Root Port without the device below (link up): stderr says the link has no function in the dump")
    path = os.path.join(shapes, "ich7-desktop-l1.txt")
    rc, out, err = run(tool, "--from-dump", path, "plan", "--policy", "keep")
    lk = links(out)
    check(rc == 0 and not err.strip() and
          "l1-latency" in lk.get(("0000:00:1c.0", "0000:01:00.0"), {}).get("reason", "") and
          "pre-1.1" in lk.get(("0000:00:1c.1", "0000:02:00.0"), {}).get("reason", ""),
          "ICH7 shape under keep: BIOS L1 cut by the L1 latency on one link, by pre-1.1 on the other")


def whole_machines_quiet(tool, dumps):
    """A whole machine's dump leaves nothing out: no partial-dump note
    (empty slots say neither link up nor a card present)."""
    for f in ("asus-laptop-whiskeylake-mx150.txt", "vmware-vm-440bx.txt", "asus-p6t6.txt"):
        rc, out, err = run(tool, "--from-dump", os.path.join(dumps, f), "report")
        check(rc == 0 and "in the dump" not in err,
              "%s: a whole machine: no partial-dump note on stderr%s" % (f, "" if rc or
                                                                          "in the dump" not in err
                                                                          else ": " + err.strip()))


def fadt_bytes(iapc, length=276):
    """A FADT of `length` bytes with IAPC_BOOT_ARCH (offset 109), checksummed."""
    t = bytearray(length)
    t[0:4] = b"FACP"
    struct.pack_into("<I", t, 4, length)
    t[8] = 6
    t[10:16] = b"TESTOE"
    struct.pack_into("<H", t, 109, iapc)
    t[131] = 5
    t[9] = (-sum(t)) & 0xff
    return bytes(t)


def fadt_options(tool, dump, work):
    name = os.path.basename(dump)
    rc, out, _ = run(tool, "--from-dump", dump, "plan")
    check(rc == 0 and "fadt-no-aspm=0" in out, name + ": no FADT given: synthesized, PCIe ASPM Controls clear")
    rc, out, _ = run(tool, "--from-dump", dump, "--fadt-no-aspm", "yes", "plan", "--fadt-mode", "clear")
    check(rc == 0 and "fadt-no-aspm=1" in out and "action=clear" in out,
          name + ": --fadt-no-aspm yes: the decision sees the bit (fadt-mode clear -> clear)")
    path = os.path.join(work, "FACP")
    with open(path, "wb") as f:
        f.write(fadt_bytes(0x0012))
    rc, out, _ = run(tool, "--from-dump", dump, "--fadt", path, "report")
    check(rc == 0 and "IAPC_BOOT_ARCH 0x0012" in out and "fadt-no-aspm=1" in out,
          name + ": --fadt FILE: its IAPC_BOOT_ARCH as it is (0x0012, ASPM bit set)")
    rc, out, _ = run(tool, "--from-dump", dump, "--fadt", path, "--fadt-no-aspm", "no", "plan")
    check(rc == 0 and "fadt-no-aspm=0" in out, name + ": --fadt FILE --fadt-no-aspm no clears the bit")
    bad = bytearray(fadt_bytes(0x0010))
    bad[9] ^= 0x55
    path = os.path.join(work, "FACP-bad-checksum")
    with open(path, "wb") as f:
        f.write(bad)
    rc, out, _ = run(tool, "--from-dump", dump, "--fadt", path, "plan")
    check("checksum" in out.lower() and "fadt-no-aspm=1" not in out,
          name + ": --fadt with a bad checksum: reported by the app, its bit not trusted")


GRANT_DSDT = r"""
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "TWINOSC", 1)
{
    Scope (\_SB)
    {
        Device (PCI0)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000, 0x0000, 0x00FF, 0x0000, 0x0100,,, )
            })
            Method (_OSC, 4, NotSerialized)
            {
                Return (Arg3)
            }
        }
    }
}
"""


def iasl(asl_text_or_path, out):
    """Compile ASL (text, or a .asl path) into OUT (an .aml path)."""
    src = asl_text_or_path
    if "DefinitionBlock" in asl_text_or_path:
        src = out[:-4] + ".asl"
        with open(src, "w") as f:
            f.write(asl_text_or_path)
    r = subprocess.run(["iasl", "-p", out[:-4], src], capture_output=True, text=True)
    return r.returncode == 0 and os.path.exists(out)


def acpidump_text(tables):
    """acpidump's text format for [(signature, bytes)]."""
    out = []
    for sig, data in tables:
        out.append("%s @ 0x0000000000000000" % sig)
        for i in range(0, len(data), 16):
            row = data[i:i + 16]
            out.append("    %04X: %-48s %s" % (i, " ".join("%02X" % b for b in row),
                                               "".join(chr(b) if 32 <= b < 127 else "." for b in row)))
        out.append("")
    return "\n".join(out) + "\n"


def acpi_options(tool, dump, work):
    """--acpi DIR|FILE and --from-sysfs's DSDT/SSDTs: the firmware's _OSC (docs/osc.md)."""
    name = os.path.basename(dump)
    d = os.path.join(work, "acpi")
    os.makedirs(d, exist_ok=True)
    dsdt, ssdt = os.path.join(d, "dsdt.aml"), os.path.join(d, "ssdt1.aml")
    deny = os.path.join(HERE, "..", "qemu", "topologies", "osc-deny.asl")
    ok = iasl(GRANT_DSDT, dsdt) and iasl(deny, ssdt)
    check(ok, "iasl compiles the twin's DSDT and tests/qemu/topologies/osc-deny.asl")
    if not ok:
        return
    result = lambda out: next(iter(records.parse_all(out, ["osc-result"])), None)
    decision = lambda out: next(iter(records.parse_all(out, ["decision"])), None)
    rc, out, err = run(tool, "--from-dump", dump, "--acpi", dsdt, "plan")
    r, dec = result(out), decision(out)
    check(rc == 0 and r and r.fields["result"] == "granted" and r.fields["bridges"] == "1" and dec
          and dec.fields["osc"] == "granted" and dec.fields["osc-source"] == "firmware",
          name + ": --acpi DSDT (an _OSC that grants all): osc-result granted, decision osc-source=firmware")
    both = os.path.join(d, "tables")
    os.makedirs(both, exist_ok=True)
    for src, dst in ((dsdt, "dsdt.dat"), (ssdt, "ssdt1.dat"), (dsdt, "facp.dat")):
        with open(src, "rb") as f, open(os.path.join(both, dst), "wb") as g:
            g.write(f.read())
    with open(os.path.join(both, "ssdt9.dat"), "wb") as g:
        g.write(fadt_bytes(0))      # a FADT under an SSDT's name
    rc, out, err = run(tool, "--from-dump", dump, "--acpi", both, "plan")
    r, dec = result(out), decision(out)
    check(rc == 0 and r and r.fields["result"] == "denied" and r.fields["bridges"] == "2"
          and dec and dec.fields["action"] == "notouch" and "ssdt9.dat: not a DSDT" in err
          and "facp.dat" not in err,
          name + ": --acpi DIR (acpidump -b's dsdt.dat, ssdt1.dat; facp.dat not read, a FADT "
          "named ssdt9.dat said and skipped): the SSDT's bridge denies: notouch")
    text = os.path.join(d, "acpidump.txt")
    with open(text, "w") as f:
        f.write(acpidump_text([("DSDT", open(dsdt, "rb").read()), ("SSDT", open(ssdt, "rb").read())]))
    rc, out2, _ = run(tool, "--from-dump", dump, "--acpi", text, "plan")
    osc = lambda o: [x.line for x in records.parse_all(o, ["osc"])]
    check(rc == 0 and osc(out2) and osc(out2) == osc(out),
          name + ": --acpi acpidump's text gives the records the binary tables give")
    root = make_sysfs(dump, os.path.join(work, "sysfs-osc"))
    tables = os.path.join(root, "sys", "firmware", "acpi", "tables")
    os.makedirs(tables, exist_ok=True)
    for src, dst in ((dsdt, "DSDT"), (ssdt, "SSDT1")):
        with open(src, "rb") as f, open(os.path.join(tables, dst), "wb") as g:
            g.write(f.read())
    rc, out3, _ = run(tool, "--from-sysfs", root, "plan")
    check(rc == 0 and osc(out3) == osc(out),
          name + ": --from-sysfs reads ROOT/sys/firmware/acpi/tables/DSDT and SSDT1")
    rc, out, err = run(tool, "--from-dump", dump, "--acpi", dump, "plan")
    check(rc != 0 and "no DSDT, SSDT or PSDT" in err,
          name + ": --acpi on a file that holds no table: refused, said")
    rc, out, _ = run(tool, "--from-dump", dump, "plan")
    r, dec = result(out), decision(out)
    check(rc == 0 and r and r.fields["reason"] == "no-dsdt" and dec and dec.fields["osc-source"] == "fallback"
          and dec.fields["osc"] == "granted",
          name + ": no tables: osc-result unknown (no-dsdt), the decision falls back to granted")


def make_sysfs(dump, root, limit=None):
    """A sysfs tree from an lspci dump: ROOT/sys/bus/pci/devices/ADDR/config,
    each file cut to `limit` bytes (64: what Linux gives a user)."""
    devs = os.path.join(root, "sys", "bus", "pci", "devices")
    os.makedirs(devs, exist_ok=True)
    cur, data = None, bytearray()

    def flush():
        if cur:
            os.makedirs(os.path.join(devs, cur), exist_ok=True)
            with open(os.path.join(devs, cur, "config"), "wb") as f:
                f.write(bytes(data[:limit] if limit else data))
    for line in open(dump, errors="replace"):
        m = re.match(r"^([0-9a-f]{4}:)?([0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) ", line)
        if m:
            flush()
            cur, data = (m.group(1) or "0000:") + m.group(2), bytearray()
        elif re.match(r"^[0-9a-f]{2,3}: ", line) and cur:
            data += bytes(int(x, 16) for x in line.split(":", 1)[1].split()[:16])
    flush()
    return root


def sysfs(tool, dump, work):
    name = os.path.basename(dump)
    root = make_sysfs(dump, os.path.join(work, "sysfs-root"))
    acpi = os.path.join(root, "sys", "firmware", "acpi", "tables")
    os.makedirs(acpi, exist_ok=True)
    with open(os.path.join(acpi, "FACP"), "wb") as f:
        f.write(fadt_bytes(0x0010))
    before = {p: open(p, "rb").read() for p in walk(root)}
    rc1, a, _ = run(tool, "--from-dump", dump, "report")
    t0 = time.time()
    rc2, b, err = run(tool, "--from-sysfs", root, "report")
    wall = time.time() - t0
    tree = lambda out: [l for l in out.splitlines() if ADDR.match(l)]
    check(rc1 == 0 and rc2 == 0 and tree(a) and tree(a) == tree(b),
          "%s: --from-sysfs ROOT (as root: 4 KiB config files) gives the tree --from-dump gives "
          "(%.2f s)%s" % (name, wall, "" if rc2 == 0 else ": " + err.strip()[:100]))
    check("fadt-no-aspm=1" in run(tool, "--from-sysfs", root, "plan")[1],
          name + ": --from-sysfs reads ROOT/sys/firmware/acpi/tables/FACP (bit 4 set)")
    rc, out, _ = run(tool, "--from-sysfs", root, "apply", "--policy", "clear")
    after = {p: open(p, "rb").read() for p in walk(root)}
    check(rc == 0 and before == after, name + ": --from-sysfs apply writes no file of the tree")
    user = make_sysfs(dump, os.path.join(work, "sysfs-user"), limit=64)
    rc, out, err = run(tool, "--from-sysfs", user, "plan", "--policy", "clear")
    writes = list(records.parse_all(out, ["write"]))
    check(rc == 0 and not writes and tree(out),
          "%s: --from-sysfs as a user (64-byte config files): tree found, nothing it cannot "
          "see is planned (%d writes)" % (name, len(writes)))


def walk(root):
    for d, _, files in os.walk(root):
        for f in files:
            yield os.path.join(d, f)


def dump_text(rows, hdr="00:00.0 Host bridge"):
    return hdr + "\n" + "".join("%02x: %s\n" % (o, " ".join("%02x" % b for b in row))
                                for o, row in rows) + "\n"


def header_rows(cap_ptr=0, loop=False):
    cfg = bytearray(256)
    if loop:
        cfg[0x40:0x42] = bytes([0x01, 0x40])    # a PM capability pointing at itself
    cfg[0:4] = bytes([0x86, 0x80, 0x00, 0x10])
    cfg[0x06] = 0x10 if cap_ptr else 0
    cfg[0x34] = cap_ptr
    return [(o, cfg[o:o + 16]) for o in range(0, 256, 16)]


def bad_input(tool, work):
    cases = {
        "truncated row": "00:00.0 Host bridge\n00: 86 80 00 00\n",
        "function twice": dump_text(header_rows()) + dump_text(header_rows()),
        "offsets out of order": dump_text(list(reversed(header_rows()))),
        "capability pointer misaligned": dump_text(header_rows(cap_ptr=0x41)),
        "capability loop": dump_text(header_rows(cap_ptr=0x40, loop=True)),
        "not a dump": "hello world\n",
        "empty file": "",
    }
    for what, text in cases.items():
        path = os.path.join(work, "bad-" + what.replace(" ", "-") + ".txt")
        with open(path, "w") as f:
            f.write(text)
        rc, out, err = run(tool, "--from-dump", path, "report")
        m = re.match(re.escape(path) + r":(\d+): \S", err)
        check(rc == 1 and m and not out.strip(),
              "bad input (%s): exit 1, '%s' on stderr, no report" % (what, err.strip()[len(work) + 1:][:100]))
    big = os.path.join(work, "big.txt")
    with open(big, "wb") as f:
        f.truncate(100 << 20)
    t0 = time.time()
    rc, out, err = run(tool, "--from-dump", big, "report")
    check(rc == 1 and "big.txt" in err and time.time() - t0 < 30,
          "bad input (a 100 MB file): refused: " + err.strip()[len(work) + 1:][:100])
    os.remove(big)
    rc, out, err = run(tool, "report")
    check(rc == 2 and "--from-dump" in err, "no machine given: usage error (exit 2)")
    rc, out, err = run(tool, "--from-dump", "/nonexistent/dump", "report")
    check(rc == 1 and "/nonexistent/dump" in err, "missing file: named, exit 1")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--dumps", default=os.path.join(HERE, "dumps"))
    ap.add_argument("--work", default=os.path.join(HERE, "..", "..", "build", "twin-host"))
    ap.add_argument("--results")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    corpus(a.tool, a.dumps, a.work)
    damaged(a.tool)
    corpus(a.tool, os.path.join(HERE, "shapes"), a.work)
    partial_dumps(a.tool, os.path.join(HERE, "shapes"))
    whole_machines_quiet(a.tool, a.dumps)
    laptop = os.path.join(a.dumps, "asus-laptop-whiskeylake-mx150.txt")
    fadt_options(a.tool, laptop, a.work)
    sysfs(a.tool, laptop, a.work)
    acpi_options(a.tool, laptop, a.work)
    sysfs(a.tool, os.path.join(a.dumps, "huananzhi-x99-qd4.txt"), os.path.join(a.work, "x99"))
    bad_input(a.tool, a.work)
    return suite.end(a.results or None, "twin-host")


if __name__ == "__main__":
    sys.exit(main())
