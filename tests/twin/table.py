#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# The corpus as the app's engine sees it, one Markdown row per machine: how
# many functions and links the app enumerated, and per policy group how many
# links the policy changes (Link Control ASPM Control, CLKREQ#, L1 PM
# Substates enables; a link counts when any of its functions changes).
# From table.tsv, written by `tests/xcheck/xcheck --twin` (make twin puts it
# in build/twin/scenarios/); --run TOOL writes it afresh from the dumps.
#
# Usage: tests/twin/table.py [TABLE.TSV]
#        tests/twin/table.py --run build/xcheck/xcheck [DUMP...]

import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GROUPS = ["keep", "force", "fadt", "clear", "notouch", "supersave"]


def load(path):
    rows = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rows.setdefault(f[0], {})[f[1]] = f[2:]
    return rows


def notes(path):
    out = []
    if os.path.exists(path):
        for line in open(path):
            f = line.rstrip("\n").split("\t", 2)
            if not line.startswith("#") and f[0] != "loaded":
                out.append(f)
    return out


def cell(v):
    aspm, clk, l1ss = int(v[3]), int(v[4]), int(v[5])
    if not (aspm or clk or l1ss):
        return "-"
    return "%d / %d / %d" % (aspm, clk, l1ss)


def main():
    args = sys.argv[1:]
    tmp = None
    if args and args[0] == "--run":
        tmp = tempfile.mkdtemp()
        dumps = args[2:] or sorted(glob.glob(os.path.join(HERE, "dumps", "*.txt")))
        subprocess.run([args[1], "--twin", tmp] + dumps, check=True)
        path = os.path.join(tmp, "table.tsv")
    else:
        path = args[0] if args else os.path.join(REPO, "build", "twin", "scenarios", "table.tsv")
    rows = load(path)
    print("| machine | functions (dumped / enumerated / PCIe) | links | %s |" % " | ".join(GROUPS))
    print("|" + " --- |" * (3 + len(GROUPS)))
    for m in sorted(rows):
        g = rows[m]
        first = g[GROUPS[0]]
        print("| `%s` | %s / %s / %s | %s | %s |" % (m, first[8], first[0], first[1], first[2],
                                                " | ".join(cell(g[x]) if x in g else "?"
                                                           for x in GROUPS)))
    print("\nCells: links whose ASPM Control / CLKREQ# / L1 PM Substates enables the policy "
          "changes; `-`: nothing changes.")
    for kind, name, msg in notes(os.path.join(os.path.dirname(path), "notes.tsv")):
        print("- `%s`: %s: %s" % (name, kind, msg))
    return 0


if __name__ == "__main__":
    sys.exit(main())
