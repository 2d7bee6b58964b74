# SPDX-License-Identifier: GPL-2.0-only
"""tests/xcheck/xcheck.py's expected notes (tests/twin/expect.tsv): keyed on
what a dump contains, not on its file name; noexport and orphans are
documented outcomes; an unexpected refusal and a missing expected note
fail."""
import contextlib
import importlib.util
import io
import os
import tempfile
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "xcheck", os.path.join(HERE, "..", "xcheck", "xcheck.py"))
xcheck = importlib.util.module_from_spec(spec)
spec.loader.exec_module(xcheck)
sys.path.insert(0, HERE)
import testlib  # noqa: E402

EXPECT = ("# kind\tname\tkind\n"
          "note\tcontent:00000000000000aa\trefused\n"
          "note\tcontent:00000000000000bb@08\tnoexport\n")


def run(notes):
    """The verdicts expect_notes() gives notes.tsv lines (kind, name, message)."""
    with tempfile.TemporaryDirectory() as d:
        e, n = os.path.join(d, "expect.tsv"), os.path.join(d, "notes.tsv")
        with open(e, "w") as f:
            f.write(EXPECT)
        with open(n, "w") as f:
            f.write("# kind\tname\tmessage\n" + "".join("\t".join(r) + "\n" for r in notes))
        xcheck.suite = testlib.Suite()
        with contextlib.redirect_stdout(io.StringIO()) as out:
            xcheck.expect_notes(e, n, [])
        oks = [line.startswith("ok ") for line in out.getvalue().splitlines()
               if line.startswith(("ok ", "FAIL "))]
        assert (oks.count(True), oks.count(False)) == (xcheck.suite.passed, xcheck.suite.failed)
        return oks, out.getvalue()


class ExpectNotes(unittest.TestCase):
    def test_refusal_expected_by_content_under_any_name(self):
        for stem in ("samsung-np350v5c", "my-laptop"):
            ok, _ = run([("dump", stem, "content:00000000000000aa " + stem + ".txt"),
                         ("refused", stem, stem + ".txt:12: bad row")])
            self.assertEqual(ok, [True], stem)

    def test_unexpected_refusal_fails(self):
        ok, out = run([("dump", "other", "content:00000000000000cc other.txt"),
                       ("refused", "other", "other.txt:3: bad row")])
        self.assertEqual(ok, [False])
        self.assertIn("not expected", out)

    def test_noexport_is_a_documented_outcome(self):
        ok, out = run([("dump", "mine", "content:00000000000000dd mine.txt"),
                       ("noexport", "mine@02", "a Downstream Port on a root bus")])
        self.assertEqual(ok, [True])
        self.assertIn("documented outcome", out)

    def test_expected_note_by_content_and_root(self):
        ok, _ = run([("dump", "copy", "content:00000000000000bb copy.txt"),
                     ("noexport", "copy@08", "a Downstream Port on a root bus")])
        self.assertEqual(ok, [True])

    def test_missing_expected_note_fails(self):
        ok, out = run([("dump", "copy", "content:00000000000000bb copy.txt"),
                       ("loaded", "copy", "4 functions, 2 parts")])
        self.assertEqual(ok, [False])
        self.assertIn("did not say so", out)

    def test_expected_note_of_a_dump_not_in_the_run_is_not_required(self):
        ok, _ = run([("dump", "x", "content:00000000000000ee x.txt"),
                     ("loaded", "x", "1 functions, 1 parts")])
        self.assertEqual(ok, [])


if __name__ == "__main__":
    unittest.main()
