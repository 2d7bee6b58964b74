# SPDX-License-Identifier: GPL-2.0-only
"""The one parser of the record lines specified in docs/records.md.

A record is one line: a keyword (`fn`, or `aspm` and a kind such as
`link`, `write`, `fn-link`), then words separated by single spaces, most of
them `key=value` fields.  The app prints them on the console and in
results\\boot.txt; the patched kernel prints `aspm decision|link|teardown`
behind its own `pci 0000:00:1c.0:` tag (and dmesg's timestamp), which
parse_kernel() strips.  Every Python test driver that reads records goes
through here:

    sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
    import records

    rec = records.parse("aspm write 0000:01:00.0 off=0x50 width=2 old=0x0002 "
                        "new=0x0000 step=aspm-down readback=0x0000 ok")
    rec.kind        'write'
    rec.args        ['0000:01:00.0', 'ok']      (the words without '=')
    rec['off']      '0x50'                      (a KeyError when missing)
    rec.get('x')    None
    rec.words[-1]   'ok'                        (every word after the kind)
    rec.line        the record as printed, from its keyword on

Unit tests: tests/lib/test_records.py (python3 -m unittest).
"""
import re

# what the patched kernel prints (docs/records.md)
KERNEL_KINDS = ("decision", "link", "teardown")

_LINE = re.compile(r"^(fn|aspm (\S+)) (.*)$")
_KERNEL = re.compile(r": (aspm (?:%s) .*)$" % "|".join(KERNEL_KINDS))


def fields(words):
    """`key=value` words as a dict (split at the first '='); words without
    '=' are left out; a key given twice keeps its last value."""
    return dict(w.split("=", 1) for w in words if "=" in w)


class Record:
    """One parsed record line; see the module's docstring."""

    __slots__ = ("kind", "line", "rest", "words", "fields", "args")

    def __init__(self, kind, line, rest):
        self.kind = kind        # 'fn', or the word after 'aspm'
        self.line = line        # the whole record, keyword included
        self.rest = rest        # the text after the kind, as printed
        self.words = rest.split()
        self.fields = fields(self.words)
        self.args = [w for w in self.words if "=" not in w]

    def __getitem__(self, key):
        return self.fields[key]

    def __contains__(self, key):
        return key in self.fields

    def get(self, key, default=None):
        return self.fields.get(key, default)

    def without(self, *keys):
        """The record line with the fields named left out."""
        head = "fn" if self.kind == "fn" else "aspm " + self.kind
        return " ".join([head] + [w for w in self.words if w.split("=", 1)[0] not in keys
                                  or "=" not in w])

    def __repr__(self):
        return "Record(%r)" % self.line


def parse(line):
    """The Record of a line that is a record from its first character, or
    None.  A record needs a word after its keyword (`fn BDF ...`,
    `aspm KIND ...`)."""
    m = _LINE.match(line.rstrip("\r\n"))
    if not m:
        return None
    return Record(m.group(2) or "fn", m.group(0), m.group(3))


def parse_kernel(line):
    """The Record in a kernel log line ("[    1.234] pcieport 0000:00:1c.0:
    aspm link up=..."), or None: only KERNEL_KINDS, after a ': '."""
    m = _KERNEL.search(line.rstrip("\r\n"))
    return parse(m.group(1)) if m else None


def _lines(text):
    return text.splitlines() if isinstance(text, str) else text


def parse_all(text, kinds=None):
    """Every record of a log (a string or a list of lines), in order;
    kinds: only records of these kinds."""
    out = []
    for line in _lines(text):
        r = parse(line)
        if r is not None and (kinds is None or r.kind in kinds):
            out.append(r)
    return out


def kernel_records(text, kinds=None):
    """Every kernel record of a dmesg text (or list of lines), in order."""
    out = []
    for line in _lines(text):
        r = parse_kernel(line)
        if r is not None and (kinds is None or r.kind in kinds):
            out.append(r)
    return out
