#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The Python unit tests of tests/lib (test_*.py, unittest), as a make test
suite: writes "NAME PASSED FAILED" to RESULTS/NAME.count and ends with
"P passed, F failed".

    tests/lib/run-unittests.py [--name records] [--results build/results]

One test alone: python3 -m unittest discover -s tests/lib -p 'test_*.py' -k NAME
"""
import argparse
import os
import sys
import unittest

import testlib

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--name", default="records")
    ap.add_argument("--results", default=os.path.join(HERE, "..", "..", "build", "results"))
    a = ap.parse_args()
    tests = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    res = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(tests)
    failed = len(res.failures) + len(res.errors) + len(res.unexpectedSuccesses)
    suite = testlib.Suite()
    suite.add(res.testsRun - failed - len(res.skipped), failed)
    status = suite.end(a.results, a.name)
    return status if res.testsRun else 1


if __name__ == "__main__":
    sys.exit(main())
