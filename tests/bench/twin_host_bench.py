#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The host tool's speed, as figures (a benchmark, not a timed test):
`plan` over a generated 1,000-function lspci -xxxx dump, and `report` and
`plan` through --from-sysfs on a tree made from the largest real machine
of the corpus and from the generated dump. Wall time of the whole
process, best and median of N runs.

  tests/bench/twin_host_bench.py --tool build/host/aspmctl --gen build/bench-twin/twin_bench
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "twin"))
import test_host  # noqa: E402  (make_sysfs)


def timed(cmd, runs):
    walls = []
    for _ in range(runs):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        if r.returncode:
            sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr))
    return min(walls), statistics.median(walls), r.stdout


def count_fn(out):
    line = next((l for l in out.splitlines() if l.startswith("PCI: ")), "PCI: ? function(s)")
    return line.split()[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--gen", required=True, help="twin_bench, which writes the generated dump")
    ap.add_argument("--work", default=os.path.join(HERE, "..", "..", "build", "bench-twin"))
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    gen = os.path.join(a.work, "generated-1000.txt")
    subprocess.run([a.gen, "1", "1000", gen], check=True, capture_output=True)
    big = os.path.join(HERE, "..", "twin", "dumps", "dell-poweredge-skylake-sp-1028-0737.txt")
    print("| what | functions | best | median |")
    print("| --- | --- | --- | --- |")
    cases = [("--from-dump generated, plan --policy force", ["--from-dump", gen], "plan"),
             ("--from-dump Dell Skylake-SP (real), plan --policy force", ["--from-dump", big], "plan")]
    for name, dump in (("generated", gen), ("Dell Skylake-SP (real)", big)):
        root = os.path.join(a.work, "sysfs-" + name.split()[0])
        shutil.rmtree(root, ignore_errors=True)
        root = test_host.make_sysfs(dump, root)
        cases.append(("--from-sysfs %s, report" % name, ["--from-sysfs", root], "report"))
    for name, src, cmd in cases:
        extra = ["--policy", "force"] if cmd == "plan" else []
        best, med, out = timed([a.tool] + src + [cmd] + extra, a.runs)
        print("| %s | %s | %.0f ms | %.0f ms |" % (name, count_fn(out), best * 1e3, med * 1e3))


if __name__ == "__main__":
    main()
