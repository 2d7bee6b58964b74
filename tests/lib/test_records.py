# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of tests/lib/records.py, on the example lines of
docs/records.md.  Run: python3 -m unittest discover -s tests/lib -p 'test_*.py'
(tests/lib/run.sh writes the suite's count for make test)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import records  # noqa: E402

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "records.md")

LINK = ("aspm link up=0000:00:1c.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1 bios=L1 "
        "capable=L0s,L1 action=clear target=none clkpm=on>off l1ss=L1.1>none reason=fadt-no-aspm")
WRITE = ("aspm write 0000:01:00.0 off=0x50 width=2 old=0x0002 new=0x0000 step=aspm-down "
         "readback=0x0000 ok")


class Parse(unittest.TestCase):
    def test_link(self):
        r = records.parse(LINK)
        self.assertEqual(r.kind, "link")
        self.assertEqual(r["up"], "0000:00:1c.0")
        self.assertEqual(r["clkpm"], "on>off")
        self.assertEqual(r.get("support"), "L0s,L1")
        self.assertEqual(r.args, [])
        self.assertEqual(r.line, LINK)
        self.assertEqual(len(r.fields), 12)

    def test_write_positional_words(self):
        r = records.parse(WRITE)
        self.assertEqual(r.kind, "write")
        self.assertEqual(r.args, ["0000:01:00.0", "ok"])
        self.assertEqual(r.words[0], "0000:01:00.0")
        self.assertEqual(r.words[-1], "ok")
        self.assertEqual((r["off"], r["new"], r["step"]), ("0x50", "0x0000", "aspm-down"))

    def test_fn(self):
        r = records.parse("fn 0000:01:00.0 id=1af4:1041 class=020000 type=endpoint "
                          "parent=0000:00:02.0 depth=1 flags=pcie")
        self.assertEqual(r.kind, "fn")
        self.assertEqual(r.args, ["0000:01:00.0"])
        self.assertEqual(r["flags"], "pcie")

    def test_fn_link_and_value_with_equals(self):
        r = records.parse("aspm fn-link 0000:00:03.0 lnkcap=- support=- note=no-link")
        self.assertEqual((r.kind, r.args, r["note"], r["lnkcap"]),
                         ("fn-link", ["0000:00:03.0"], "no-link", "-"))
        self.assertEqual(records.parse("aspm x a=b=c")["a"], "b=c")

    def test_not_records(self):
        for line in ("", "aspm", "aspm link", "fn", " aspm link up=x", "aspmctl: done status=0x0",
                     "function 0000:00:01.0", "  ASPM support: L0s; enabled up: off, down: off"):
            self.assertIsNone(records.parse(line), line)

    def test_crlf_and_rest_kept_as_printed(self):
        r = records.parse("aspm summary aspmctl 1.0 action=keep next=\\vmlinuz.efi\r\n")
        self.assertEqual(r.kind, "summary")
        self.assertEqual(r.rest, "aspmctl 1.0 action=keep next=\\vmlinuz.efi")
        self.assertEqual(r.args, ["aspmctl", "1.0"])

    def test_without(self):
        r = records.parse(LINK)
        self.assertEqual(r.without("capable", "target", "reason"),
                         "aspm link up=0000:00:1c.0 down=0000:01:00.0 nfn=1 hops=0 support=L0s,L1 "
                         "bios=L1 action=clear clkpm=on>off l1ss=L1.1>none")
        self.assertEqual(records.parse(WRITE).without("readback"),
                         WRITE.replace(" readback=0x0000", ""))


class Kernel(unittest.TestCase):
    def test_tagged_line(self):
        r = records.parse_kernel("[    1.234567] pcieport 0000:00:1c.0: " + LINK)
        self.assertEqual(r.kind, "link")
        self.assertEqual(r.line, LINK)

    def test_only_kernel_kinds(self):
        self.assertIsNone(records.parse_kernel("pci 0000:01:00.0: " + WRITE))
        self.assertIsNone(records.parse_kernel(LINK))       # no tag: not a kernel line
        self.assertIsNone(records.parse_kernel("pci 0000:00:02.0: aspm linked up"))

    def test_kernel_records(self):
        text = "\n".join([
            "[0.1] pci 0000:00:00.0: aspm decision fadt-no-aspm=0 fadt-valid=1 osc=granted "
            "override=none fadt-mode=notouch action=keep",
            "[0.2] something else",
            "[0.3] pcieport 0000:00:1c.0: " + LINK,
            "[0.4] pci 0000:03:00.0: aspm teardown dev=0000:03:00.0 link-up=0000:02:01.0 "
            "action=force dropped=1 written=2 reconfigured=0000:00:1c.0",
        ])
        recs = records.kernel_records(text)
        self.assertEqual([r.kind for r in recs], ["decision", "link", "teardown"])
        self.assertEqual(recs[0]["action"], "keep")
        self.assertEqual(recs[2]["written"], "2")
        self.assertEqual([r.kind for r in records.kernel_records(text.splitlines(), ("link",))],
                         ["link"])


class Doc(unittest.TestCase):
    def test_every_example_in_docs_records_md(self):
        """Each indented example line of docs/records.md parses, and its
        kind is one the document has a heading for."""
        with open(DOC) as f:
            text = f.read()
        examples = [l[4:] for l in text.splitlines() if l.startswith("    ") and l.strip()]
        self.assertGreaterEqual(len(examples), 9)
        for line in examples:
            r = records.parse(line)
            self.assertIsNotNone(r, line)
            head = "fn" if r.kind == "fn" else "aspm " + r.kind
            self.assertIn("## `%s`" % head, text, line)
            self.assertTrue(r.fields, line)

    def test_parse_all(self):
        recs = records.parse_all(["aspmctl: starting", LINK, WRITE, "aspm stats reads=1 writes=0"],
                                 kinds=("link", "stats"))
        self.assertEqual([r.kind for r in recs], ["link", "stats"])


if __name__ == "__main__":
    unittest.main()
