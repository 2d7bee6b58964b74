#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The checks of tests/qemu/secureboot.sh, run after its boots: one line
"ok|FAIL <what>" per check on stdout (secureboot.sh counts them).

    tests/qemu/secureboot_check.py OUT GUID

OUT is secureboot.sh's --out directory: one subdirectory per cell with
run/serial.log, rc and boot.txt (read back from the cell's disk). Run on
the output of an earlier secureboot.sh, it checks those boots again.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import records  # noqa: E402
import testlib  # noqa: E402

out, guid = sys.argv[1:3]
FADT_MSG = "ACPI FADT declares the system doesn't support PCIe ASPM, so disable it"
SB_LINUX = 'secureboot: Secure boot enabled'
SB_REC = 'aspm secureboot secureboot=1 setupmode=0 verified=firmware'
REFUSED = ('aspmctl: error: chainload: \\EFI\\next\\unsigned.efi refused by the security '
           'policy (Secure Boot), EFI status 0x800000000000000f EFI_ACCESS_DENIED')
# what EDK2 shows when it gives up on the boot entries and waits for a key
MENU = re.compile(r'BdsDxe: (loading|starting) Boot[0-9A-F]+ "(UiApp|EFI Internal Shell)"'
                  r'|Boot Manager Menu|UEFI Interactive Shell|Press ESC')
KOPTS = f'console=ttyS0 initrd=\\initrd.img aspmctl.guid={guid} panic=-1'


say = testlib.Suite(out=print).check


def cell(name):
    """(lines of the serial log, run.sh's status, boot.txt lines)."""
    d = os.path.join(out, name)
    text = testlib.read_text(os.path.join(d, 'run', 'serial.log')).replace('\r', '')
    rc = testlib.read_text(os.path.join(d, 'rc')).strip()
    bt = testlib.read_text(os.path.join(d, 'boot.txt')).replace('\r', '').splitlines()
    return text.splitlines(), rc, bt


def index(lines, pred):
    for i, l in enumerate(lines):
        if pred(l):
            return i
    return None


def summaries(lines):
    return [r.rest for r in records.parse_all(lines, ('summary',))]


def efivar_text(lines):
    """(attributes, text) of AspmctlSummary in the initramfs efivars section."""
    sec = testlib.init_section('\n'.join(lines) + '\n', 'efivars')
    return testlib.efivar_summary(None if sec is None else sec.splitlines(), guid)


def booted(name, lines, rc, what):
    say(rc == '0', f'{name}: {what}: boot reached its stop marker (run.sh status {rc or "none"})')


def entry_started(name, lines, num, label):
    i = index(lines, lambda l: l.startswith(f'BdsDxe: starting Boot{num} "{label}" from HD(1,GPT,'))
    say(i is not None, f'{name}: the boot manager starts Boot{num} "{label}" from its '
        'HD(1,GPT,...) device path (an efibootmgr-style entry)')
    return i


def linux_side(name, lines, start, product):
    """After line start: the kernel ran with Secure Boot on and read the
    summary variable, and the initramfs finished."""
    k = lines[start:] if start is not None else []
    say(any(SB_LINUX in l for l in k), f'{name}: Linux logs "{SB_LINUX}"')
    cmd = testlib.init_section('\n'.join(k) + '\n', 'cmdline')
    say(cmd is not None and f'aspmctl.product={product}' in cmd,
        f'{name}: the kernel command line is the one given (aspmctl.product={product})')
    s = summaries(lines)
    attrs, text = efivar_text(k)
    say(bool(s) and text == s[-1], f'{name}: Linux reads AspmctlSummary, equal to the app\'s '
        f'last summary: "{text}"' + ('' if s and text == s[-1] else f' vs {s[-1:]}'))
    say(attrs == 6, f'{name}: AspmctlSummary attributes 0x{(attrs or 0):08x} (volatile, 0x6)')
    return s


# ================================================================ signed-linux
lines, rc, bt = cell('signed-linux')
booted('signed-linux', lines, rc, 'signed app -> signed kernel')
entry_started('signed-linux', lines, '0010', 'aspmctl')
say(SB_REC in lines, f'signed-linux: the app reports "{SB_REC}"')
dec = records.parse_all(lines, ('decision',))
say(len(dec) == 1 and dec[0].get('override') == 'force' and dec[0].get('action') == 'force',
    'signed-linux: the policy ran: ' + (dec[0].line if dec else 'no aspm decision'))
start = index(lines, lambda l: l.startswith('aspmctl: starting \\vmlinuz.efi '))
say(start is not None and lines[start] == f'aspmctl: starting \\vmlinuz.efi {KOPTS} aspmctl.product=signed-linux',
    'signed-linux: the app starts the signed kernel with the configured options')
s = linux_side('signed-linux', lines, start, 'signed-linux')
say(bool(s) and ('aspm summary ' + s[-1]) in bt and SB_REC in bt,
    'signed-linux: results\\boot.txt holds the secureboot record and the summary')
say(not any('efi-stub: started' in l for l in lines) and not any(MENU.search(l) for l in lines),
    'signed-linux: no other entry, menu or Shell ran')

# ================================================================ unsigned-app
lines, rc, bt = cell('unsigned-app')
booted('unsigned-app', lines, rc, 'unsigned app -> next entry')
refused = index(lines, lambda l: re.match(
    r'BdsDxe: failed to load Boot0010 "aspmctl" from HD\(1,GPT,.*\\EFI\\aspmctl\\aspmctl\.efi: '
    r'(Access Denied|Security Violation)$', l) is not None)
say(refused is not None, 'unsigned-app: the firmware refuses the unsigned app: '
    + (lines[refused] if refused is not None else 'no "failed to load Boot0010" line'))
say(not any(l.startswith('aspmctl ') or l.startswith('aspm ') for l in lines),
    'unsigned-app: not one line of the app was printed (it never ran)')
nxt = entry_started('unsigned-app', lines, '0011', 'next entry')
say(nxt is not None and refused is not None and nxt > refused
    and 'efi-stub: load-options size=22 text="next-entry"' in lines[nxt:],
    'unsigned-app: the next entry runs, with its own load options ("next-entry")')
# (the efi-stub returns success after its load-options line, and a boot
# entry that does so sends EDK2 to its menu: that is the stub, not the app)
end = index(lines, lambda l: l.startswith('efi-stub: load-options'))
say(end is not None and not any(MENU.search(l) for l in lines[:end]),
    'unsigned-app: no menu, no Shell, no key press before the next entry ran')
say(not bt, 'unsigned-app: no results\\boot.txt on the disk')

# ================================================================ unsigned-next
lines, rc, bt = cell('unsigned-next')
booted('unsigned-next', lines, rc, 'signed app, unsigned next loader -> next entry (Linux)')
entry_started('unsigned-next', lines, '0010', 'aspmctl')
say(SB_REC in lines, f'unsigned-next: the app reports "{SB_REC}"')
say(REFUSED in lines, f'unsigned-next: the app says: {REFUSED}')
s = summaries(lines)
say(len(s) == 2 and not s[0].endswith('chainload=refused') and s[1] == s[0] + ' chainload=refused',
    f'unsigned-next: a second summary line records the refusal: {s[-1:]}')
say(bool(s) and REFUSED in bt and ('aspm summary ' + s[-1]) in bt,
    'unsigned-next: results\\boot.txt holds the refusal and the chainload=refused summary')
done = index(lines, lambda l: l.startswith('aspmctl: done status='))
say(done is not None and lines[done] == 'aspmctl: done status=0x800000000000000f EFI_ACCESS_DENIED',
    'unsigned-next: the app returns EFI_ACCESS_DENIED: ' + (lines[done] if done is not None else 'no done line'))
say(not any(l.startswith('efi-stub: started') for l in lines),
    'unsigned-next: the unsigned loader never ran')
fail = index(lines, lambda l: l.startswith('BdsDxe: failed to start Boot0010 "aspmctl"'))
say(fail is not None and done is not None and fail > done,
    'unsigned-next: the boot manager records the error: '
    + (lines[fail] if fail is not None else 'no "failed to start Boot0010" line'))
nxt = entry_started('unsigned-next', lines, '0011', 'linux')
say(not any(MENU.search(l) for l in lines), 'unsigned-next: no menu, no Shell, no key press')
linux_side('unsigned-next', lines, nxt, 'next-entry')

# ================================================================ fadt
lines, rc, bt = cell('fadt')
booted('fadt', lines, rc, 'emulate-fadt set-no-aspm -> signed kernel')
say(SB_REC in lines, f'fadt: the app reports "{SB_REC}"')
fl = records.parse_all(lines, ('fadt',))
say(bool(fl) and all(r.get('result') == 'ok' for r in fl),
    f'fadt: the app patched {len(fl)} FADT(s) under Secure Boot: ' + (fl[0].line if fl else 'none'))
dec = records.parse_all(lines, ('decision',))
say(len(dec) == 1 and dec[0].get('fadt-no-aspm') == '1',
    'fadt: the app\'s own decision sees it: ' + (dec[0].line if dec else 'none'))
start = index(lines, lambda l: l.startswith('aspmctl: starting \\vmlinuz.efi '))
linux_side('fadt', lines, start, 'fadt')
say(start is not None and any(FADT_MSG in l for l in lines[start:]),
    f'fadt: Linux logs "{FADT_MSG}"')

# ================================================================ shim
lines, rc, bt = cell('shim')
booted('shim', lines, rc, 'shim (Microsoft-signed) -> app (MOK) -> kernel (MOK)')
entry_started('shim', lines, '0010', 'shim')
rec = 'aspm secureboot secureboot=1 setupmode=0 verified=shim'
say(rec in lines, f'shim: the app, signed only by a key in MokList, runs and reports "{rec}"')
start = index(lines, lambda l: l.startswith('aspmctl: starting \\vmlinuz.efi '))
say(start is not None and not any(l.startswith('aspmctl: error: chainload') for l in lines),
    'shim: the kernel, signed by the MokList key only (not in db), is loaded through shim')
linux_side('shim', lines, start, 'shim')
say(not any('efi-stub: started' in l for l in lines) and not any(MENU.search(l) for l in lines),
    'shim: no other entry, menu or Shell ran')
