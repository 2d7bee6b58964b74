#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Lint of the repository's Python (make test's suite "lint"): one
"ok|FAIL <what>" line per check, "lint P F" to RESULTS/lint.count, then
"P passed, F failed".

    tests/lint/lint.py [--results build/results]

Per tracked *.py file: it compiles (no bytecode is written) and pyflakes3
(Debian's pyflakes3, installed by scripts/install-deps.sh test)
finds nothing. Per tracked *.sh file: no Python script on stdin
(`python3 - ... <<'PY'`, a heredoc): such code goes into a .py file that this suite lints.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
import testlib  # noqa: E402

suite = testlib.Suite()
say = suite.check


def tracked(suffix):
    """Tracked files ending in suffix (every such file when REPO is no git checkout)."""
    try:
        out = subprocess.run(["git", "-C", REPO, "ls-files", "-z", "--", "*" + suffix],
                             check=True, capture_output=True, text=True).stdout
        return sorted(f for f in out.split("\0") if f and os.path.isfile(os.path.join(REPO, f)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, dirs, files in os.walk(REPO):
            dirs[:] = [x for x in dirs if x not in (".git", "build", "__pycache__")]
            found += [os.path.relpath(os.path.join(d, f), REPO) for f in files if f.endswith(suffix)]
        return sorted(found)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", default=os.path.join(REPO, "build", "results"))
    a = ap.parse_args()
    py = tracked(".py")
    for f in py:
        try:
            with open(os.path.join(REPO, f), "rb") as fh:
                compile(fh.read(), f, "exec")
            say(True, "compile %s" % f)
        except (SyntaxError, ValueError) as e:
            say(False, "compile %s: %s" % (f, e))
    flakes = shutil.which("pyflakes3")
    if flakes is None:
        say(False, "pyflakes3 missing (apt-get install pyflakes3; scripts/install-deps.sh test)")
    else:
        for f in py:
            r = subprocess.run([flakes, f], cwd=REPO, capture_output=True, text=True)
            msg = (r.stdout + r.stderr).strip()
            say(r.returncode == 0 and not msg, "pyflakes %s" % f + ("" if not msg else ":\n     " +
                                                                      msg.replace("\n", "\n     ")))
    heredoc = re.compile(r"\bpython3?\s+-(\s|$)")       # python3 - ARGS <<'PY' (script on stdin)
    for f in tracked(".sh"):
        with open(os.path.join(REPO, f), errors="replace") as fh:
            bad = [i + 1 for i, l in enumerate(fh) if heredoc.search(l)]
        say(not bad, "no Python heredoc in %s" % f + ("" if not bad else ": line %s" %
                                                      ", ".join(map(str, bad))))
    return suite.end(a.results, "lint")


if __name__ == "__main__":
    sys.exit(main())
