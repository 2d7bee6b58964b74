# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of tests/lib/testlib.py: the suite counter, the init's
sections, the initrd builder, the QEMU trace reader.
Run: python3 -m unittest discover -s tests/lib -p 'test_*.py'"""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402


def serial(text):
    """The trace lines QEMU prints for TEXT sent on the serial port."""
    return ["serial_write write addr 0x00 val 0x%02x" % b for b in text.encode()]


W1 = "pci_cfg_write pcie-root-port 00:02.1 @0x4 <- 0x7"
W2 = "pci_cfg_write nvme 05:00.0 @0x50 <- 0x2"
W3 = "pci_cfg_write ich9-ahci 00:1f.2 @0x4 <- 0x7"
# the line register (addr 0x03) and the divisor latch are not text
SETUP = ["serial_write write addr 0x03 val 0x83", "serial_write write addr 0x00 val 0x0a",
         "serial_write write addr 0x03 val 0x03"]


class TraceWrites(unittest.TestCase):
    def test_all_writes_without_until(self):
        t = "\n".join([W1] + serial("aspmctl: done status=0x0\r\n") + [W2, W3])
        self.assertEqual(testlib.trace_writes(t), [("0000:00:02.1", 4, 7), ("0000:05:00.0", 0x50, 2),
                                                   ("0000:00:1f.2", 4, 7)])

    def test_cut_at_the_end_of_the_marker_line(self):
        # a write while the marker line is still being printed counts; one
        # after its newline (the boot manager going on) does not
        t = "\n".join(SETUP + [W1] + serial("x\r\naspmctl: done") + [W2] + serial(" status=0x0\r\n") + [W3])
        self.assertEqual(testlib.trace_writes(t, "aspmctl: done"), [("0000:00:02.1", 4, 7),
                                                                    ("0000:05:00.0", 0x50, 2)])

    def test_divisor_bytes_are_not_text(self):
        # 0x0a written to the divisor latch would end a line; it must not
        # end the marker's line early
        t = "\n".join(serial("aspmctl: done") + SETUP + [W1] + serial("\r\n") + [W2])
        self.assertEqual(testlib.trace_writes(t, "aspmctl: done"), [("0000:00:02.1", 4, 7)])

    def test_marker_never_printed(self):
        t = "\n".join([W1] + serial("aspmctl: starting\r\n") + [W2])
        self.assertIsNone(testlib.trace_writes(t, "aspmctl: done"))

    def test_same_prefix_whatever_follows(self):
        # two boots that differ only in what comes after the marker
        head = [W1] + serial("aspmctl: done status=0x0\r\n")
        a = testlib.trace_writes("\n".join(head + [W2]), "aspmctl: done")
        b = testlib.trace_writes("\n".join(head + [W2, W3, W3]), "aspmctl: done")
        self.assertEqual(a, b)
        self.assertEqual(a, [("0000:00:02.1", 4, 7)])


class SuiteCount(unittest.TestCase):
    def setUp(self):
        self.lines = []
        self.s = testlib.Suite(out=self.lines.append)

    def test_lines_and_counts(self):
        self.assertEqual(self.s.check(True, "one"), True)
        self.assertEqual(self.s.check(0, "two"), 0)        # returns ok unchanged
        self.s.check(False, "three", "why")
        self.s.check(False, "four", "")
        self.s.skip("five")
        self.assertEqual(self.lines, ["ok   one", "FAIL two", "FAIL three: why", "FAIL four: ",
                                      "skip five"])
        self.assertEqual((self.s.passed, self.s.failed), (1, 3))

    def test_end_writes_the_count_file(self):
        self.s.check(True, "a")
        self.s.check(True, "b")
        self.s.check(False, "c")
        with tempfile.TemporaryDirectory() as d:
            res = os.path.join(d, "results")          # made when missing
            self.assertEqual(self.s.end(res, "demo"), 1)
            with open(os.path.join(res, "demo.count")) as f:
                self.assertEqual(f.read(), "demo 2 1\n")
        self.assertEqual(self.lines[-1], "2 passed, 1 failed")

    def test_all_passed_is_status_0(self):
        self.s.check(True, "a")
        self.s.add(4, 0)
        self.assertEqual(self.s.status(), 0)
        self.assertEqual(self.s.end(None, "demo"), 0)   # no results folder: no file
        self.assertEqual(self.lines[-1], "5 passed, 0 failed")

    def test_added_failures_count(self):
        self.s.add(2, 1)
        self.assertEqual(self.s.status(), 1)
        self.assertEqual(self.s.end(None, "demo"), 1)
        self.assertEqual(self.lines[-1], "2 passed, 1 failed")


INIT = ("boot noise\n=== aspmctl-init: begin run.1 ===\nline one\nline two\n"
        "=== aspmctl-init: end run.1 rc=3 ===\n=== aspmctl-init: begin odd ===\nx\n"
        "=== aspmctl-init: end odd rc=? ===\n")


class InitSections(unittest.TestCase):
    def test_text_and_rc(self):
        self.assertEqual(testlib.init_result(INIT, "run.1"), ("line one\nline two\n", 3))
        self.assertEqual(testlib.init_section(INIT, "run.1"), "line one\nline two\n")

    def test_missing_section(self):
        self.assertEqual(testlib.init_result(INIT, "run.2"), (None, None))
        self.assertIsNone(testlib.init_section(INIT, "run"))     # no prefix match

    def test_rc_not_a_number(self):
        self.assertEqual(testlib.init_result(INIT, "odd"), ("x\n", None))


class CpioInitrd(unittest.TestCase):
    def test_list_folders_and_base_appended(self):
        with tempfile.TemporaryDirectory() as d:
            # a stand-in for usr/gen_init_cpio: its arguments, then the list
            gen = os.path.join(d, "gen")
            with open(gen, "w") as f:
                f.write('#!/bin/sh\necho "$1 $2"\ncat "$3"\n')
            os.chmod(gen, 0o755)
            base = os.path.join(d, "base.cpio")
            with open(base, "wb") as f:
                f.write(b"BASE\x00\xff")
            path = testlib.cpio_initrd(gen, [("/kernel/firmware/acpi/facp.aml", "/s/facp.aml"),
                                             ("/kernel/x", "/s/x")], base,
                                       os.path.join(d, "initrd-fadt.img"))
            self.assertEqual(path, os.path.join(d, "initrd-fadt.img"))
            want = ("dir /kernel 0755 0 0\ndir /kernel/firmware 0755 0 0\n"
                    "dir /kernel/firmware/acpi 0755 0 0\n"
                    "file /kernel/firmware/acpi/facp.aml /s/facp.aml 0644 0 0\n"
                    "file /kernel/x /s/x 0644 0 0\n")
            with open(os.path.join(d, "initrd-fadt.list")) as f:
                self.assertEqual(f.read(), want)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), b"-t 0\n" + want.encode() + b"BASE\x00\xff")

    def test_generator_failure_raises(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(subprocess.CalledProcessError):
                testlib.cpio_initrd("false", [("/a/b", "/s/b")], os.devnull,
                                    os.path.join(d, "initrd.img"))


if __name__ == "__main__":
    unittest.main()
