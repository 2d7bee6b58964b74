# SPDX-License-Identifier: GPL-2.0-only
"""The real-Debian system suite (tests/system/README.md): boots the image of
tests/system/build-image.sh in QEMU+OVMF under TCG, one variable store kept
from boot to boot, and drives the guest over its serial console (root logged
in by itself; every command framed by markers the shell prints, with a time
limit).  One "ok|FAIL <what>" line per check, counted by testlib.Suite.

    system.py --image IMG --deb DEB --out DIR [--results DIR]
        [--secureboot --mok-cert DER --signed-app EFI]

--secureboot: OVMF's Microsoft-key store (Secure Boot enforcing), the
certificate DER in MokList, the app signed with its key on the data disk.
"""
import argparse
import os
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "lib"))
import testlib  # noqa: E402

GUID = "5b3c4e1a-9f2d-4c7e-8a61-2d0e6f4b9c13"
# GRUB's own line: the build's grub.cfg echoes one, update-grub's says "Loading Linux"
GRUB = r"(grub: /boot/grub/grub\.cfg|Loading Linux )"
PROMPT = re.compile(r"root@aspmctl-test:~# ")
APP_LINE = re.compile(r"^aspm summary aspmctl .*$", re.M)
DEBIAN_ENTRY = 8        # Boot0008 "debian", as grub-install's efibootmgr makes it


class Guest:
    """One QEMU run: serial console on stdin/stdout pipes, all of it in LOG."""

    def __init__(self, argv, log):
        self.log = open(log, "w", errors="replace")
        self.buf = ""
        self.pos = 0
        self.lock = threading.Condition()
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()
        self.seq = 0

    def _read(self):
        while True:
            b = os.read(self.p.stdout.fileno(), 4096)
            if not b:
                break
            s = b.decode("utf-8", "replace").replace("\r", "")
            self.log.write(s)
            self.log.flush()
            with self.lock:
                self.buf += s
                self.lock.notify_all()
        with self.lock:
            self.lock.notify_all()

    def expect(self, rx, timeout):
        """The match of rx in what came after the last match, or None."""
        if isinstance(rx, str):
            rx = re.compile(rx, re.M)
        end = time.time() + timeout
        with self.lock:
            while True:
                m = rx.search(self.buf, self.pos)
                if m:
                    self.pos = m.end()
                    return m
                left = end - time.time()
                if left <= 0 or (self.p.poll() is not None and not self.t.is_alive()):
                    return None
                self.lock.wait(min(left, 1))

    def send(self, text):
        try:
            self.p.stdin.write(text.encode())
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def sh(self, cmd, timeout=120):
        """(status, output) of cmd in the guest's shell; (None, '') on timeout."""
        self.seq += 1
        n = self.seq
        # the typed line holds $((...)), the printed one the number: an echo
        # of the command never matches
        self.send("echo @@S$((%d+0)); { %s ; } </dev/null 2>&1; echo @@E$((%d+0)) $?\n" % (n, cmd, n))
        m = self.expect(r"@@S%d\n((?s:.*?))@@E%d (\d+)\n" % (n, n), timeout)
        if not m:
            return None, ""
        return int(m.group(2)), m.group(1)

    def wait_exit(self, timeout):
        try:
            self.p.wait(timeout)
            self.t.join(5)
            return True
        except subprocess.TimeoutExpired:
            return False

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        self.t.join(5)
        self.log.close()

    def console(self):
        with self.lock:
            return self.buf


class System:
    def __init__(self, a, suite):
        self.a = a
        self.s = suite
        self.out = a.out
        self.boots = []
        self.secure = a.secureboot
        if self.secure:
            self.code = "/usr/share/OVMF/OVMF_CODE_4M.ms.fd"
            store = "/usr/share/OVMF/OVMF_VARS_4M.ms.fd"
        else:
            self.code = "/usr/share/OVMF/OVMF_CODE_4M.fd"
            store = "/usr/share/OVMF/OVMF_VARS_4M.fd"
        self.disk = os.path.join(self.out, "disk.img")
        subprocess.run(["cp", "--sparse=always", a.image, self.disk], check=True)
        self.vars = os.path.join(self.out, "OVMF_VARS.fd")
        # the entry Debian's installer makes (grub-install -> efibootmgr)
        cmd = [sys.executable, os.path.join(REPO, "tests", "qemu", "efivars.py"), store,
               self.vars, "--disk", self.disk,
               "--entry", "%d|debian|\\EFI\\debian\\shimx64.efi" % DEBIAN_ENTRY]
        if self.secure:
            cmd += ["--mok-cert", a.mok_cert]
        subprocess.run(cmd, check=True)
        self.data = os.path.join(self.out, "data.img")
        if os.path.exists(self.data):
            os.unlink(self.data)
        subprocess.run(["mkfs.vfat", "-C", "-n", "ASPMDATA", self.data, "32768"], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["mcopy", "-i", self.data, a.deb, "::/aspmctl.deb"], check=True)
        if self.secure:
            subprocess.run(["mcopy", "-i", self.data, a.signed_app, "::/aspmctl.signed.efi"],
                           check=True)

    def boot(self, name):
        log = os.path.join(self.out, "%02d-%s.log" % (len(self.boots) + 1, name))
        argv = ["qemu-system-x86_64", "-machine", "q35" + (",smm=on" if self.secure else ""),
                "-accel", "tcg", "-m", "1024", "-smp", "1", "-nodefaults", "-display", "none",
                "-no-reboot", "-no-user-config",
                "-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + self.code,
                "-drive", "if=pflash,format=raw,unit=1,file=" + self.vars,
                "-chardev", "stdio,id=ser0,signal=off", "-serial", "chardev:ser0",
                "-monitor", "none",
                "-device", "pcie-root-port,id=rp1,chassis=1,slot=1",
                "-device", "pcie-root-port,id=rp2,chassis=2,slot=2",
                "-drive", "file=%s,format=raw,if=none,id=root" % self.disk,
                "-device", "virtio-blk-pci,drive=root,bus=rp1",
                "-drive", "file=%s,format=raw,if=none,id=data" % self.data,
                "-device", "virtio-blk-pci,drive=data,bus=rp2"]
        if self.secure:
            argv += ["-global", "driver=cfi.pflash01,property=secure,value=on"]
        with open(os.path.join(self.out, "qemu.cmd"), "w") as f:
            f.write(" ".join(argv) + "\n")
        self.t0 = time.time()
        g = Guest(argv, log)
        self.boots.append((name, log))
        print("system: boot %d (%s), console in %s" % (len(self.boots), name, log), flush=True)
        return g

    def login(self, g, name):
        ok = g.expect(PROMPT, self.a.timeout) is not None
        self.s.check(ok, "%s: login reached on ttyS0 (%.0f s)" % (name, time.time() - self.t0))
        if ok:
            g.sh("stty -echo; dmesg -n 1")
        return ok

    def reboot(self, g, name):
        g.send("sync; systemctl reboot\n")
        ok = g.wait_exit(180)
        g.kill()
        self.s.check(ok, "%s: the guest rebooted (QEMU exits on -no-reboot)" % name)

    def sb_state(self, g, name):
        want = "enabled" if self.secure else "disabled"
        self.run(g, name, "mokutil --sb-state", "Linux: SecureBoot %s" % want, r"^SecureBoot %s" % want)

    def run(self, g, name, cmd, what, rx=None, timeout=180, expect_rc=0):
        rc, text = g.sh(cmd, timeout)
        good = rc == expect_rc and (rx is None or re.search(rx, text, re.M) is not None)
        self.s.check(good, "%s: %s" % (name, what),
                     None if good else "status %s, output %r" % (rc, text[-600:]))
        return text

    def cons(self, g, name, rx, what, want=True):
        found = re.search(rx, g.console(), re.M) is not None
        self.s.check(found == want, "%s: %s" % (name, what))

    def order(self, g, rx_list, name, what):
        """the console shows each regex, in this order"""
        c, pos = g.console(), 0
        for rx in rx_list:
            m = re.compile(rx, re.M).search(c, pos)
            if not m:
                self.s.check(False, "%s: %s" % (name, what), "no %r after offset %d" % (rx, pos))
                return
            pos = m.end()
        self.s.check(True, "%s: %s" % (name, what))

    def boot_current(self, g, name, want, what):
        self.run(g, name, "efibootmgr -v", what,
                 r"^BootCurrent: %04X$(?s:.*)^Boot%04X\*? .*%s" % (want, want, re.escape(self.entry_path(want))))

    def entry_path(self, num):
        # under Secure Boot the app's entry starts shim, the app its load option
        if num == DEBIAN_ENTRY or self.secure:
            return "\\EFI\\debian\\shimx64.efi"
        return "\\EFI\\aspmctl\\aspmctl.efi"

    def wait_bless(self, g, name):
        self.run(g, name, "for i in $(seq 120); do [ -e /sys/firmware/efi/efivars/AspmctlBootCount-%s ] "
                 "|| break; sleep 1; done; systemctl is-active aspmctl-bless.service; "
                 "[ ! -e /sys/firmware/efi/efivars/AspmctlBootCount-%s ]" % (GUID, GUID),
                 "aspmctl-bless.service ran by itself and the counter is gone", r"^active$")

    def main(self):
        a, name = self.a, "first"
        kernel, second = a.kernel, a.second
        cloud = second.split("_")[0].replace("linux-image-", "")
        # (a) a first boot as Debian installed it
        g = self.boot(name)
        if not self.login(g, name):
            g.kill()
            return
        self.order(g, [GRUB, r"Linux version %s " % re.escape(kernel)],
                   name, "firmware -> shim -> GRUB (its grub.cfg line) -> Debian's kernel %s" % kernel)
        self.cons(g, name, r"^(aspm |aspmctl: )", "no aspmctl line on the console before install", False)
        self.boot_current(g, name, DEBIAN_ENTRY, "BootCurrent is Boot%04X -> \\EFI\\debian\\shimx64.efi" % DEBIAN_ENTRY)
        self.run(g, name, "ls /sys/firmware/efi/efivars/ | grep '^MokListRT-'",
                 "shim ran (it left MokListRT)", r"^MokListRT-")
        self.run(g, name, "uname -r", "uname -r is %s" % kernel, r"^%s$" % re.escape(kernel))
        self.sb_state(g, name)
        if self.secure:
            self.run(g, name, "mokutil --list-enrolled | grep -i 'Subject:'",
                     "the test key is in MokList (shim's MokListRT)", r"(?i)snakeoil")
        before = self.run(g, name, "efibootmgr | sed -n 's/^BootOrder: //p'", "BootOrder read",
                          r"^[0-9A-F,]+$").strip()
        print("system: BootOrder before install: %s" % before, flush=True)
        # (b) the package, aspmctl install
        self.run(g, name, "mount -o ro /dev/vdb /mnt && dpkg -i /mnt/aspmctl.deb",
                 "dpkg -i aspmctl.deb", r"Setting up aspmctl ")
        self.run(g, name, "systemctl is-enabled aspmctl-bless.service",
                 "the package enabled aspmctl-bless.service", r"^enabled$")
        if self.secure:
            self.run(g, name, "aspmctl install --policy force",
                     "Secure Boot: the package's unsigned app is refused",
                     r"Secure Boot is on and the app is not signed", expect_rc=1)
            inst = self.run(g, name, "aspmctl install --policy force --app /mnt/aspmctl.signed.efi",
                            "aspmctl install --policy force --app (signed): behind the system's shim",
                            r"this boot came through Boot%04X: \\EFI\\debian\\shimx64\.efi"
                            r"(?s:.*)Secure Boot: the app behind the system's shim" % DEBIAN_ENTRY)
        else:
            inst = self.run(g, name, "aspmctl install --policy force",
                            "aspmctl install --policy force (next = the loader of BootCurrent)",
                            r"this boot came through Boot%04X: \\EFI\\debian\\shimx64\.efi" % DEBIAN_ENTRY)
        m = re.search(r"create Boot([0-9A-F]{4})", inst)
        app_num = int(m.group(1), 16) if m else -1
        nxt = "grubx64" if self.secure else "shimx64"
        self.run(g, name, "cat /boot/efi/EFI/aspmctl/aspmctl.conf",
                 "aspmctl.conf: next = %s, tries = 3" % nxt,
                 r"^next = \\EFI\\debian\\%s\.efi$(?s:.*)^tries = 3$" % nxt)
        self.run(g, name, "efibootmgr | sed -n 's/^BootOrder: //p'",
                 "BootOrder: the app's entry first, the old order after it",
                 r"^%04X,%s$" % (app_num, re.escape(before)))
        self.reboot(g, name)

        # (b) the app runs first, then shim, GRUB, Debian; Linux reads the summary
        name = "installed"
        g = self.boot(name)
        if not self.login(g, name):
            g.kill()
            return
        self.order(g, [r"^aspm tries unconfirmed=1 tries=3 fallback=none$",
                       r"^aspm summary aspmctl .*action=force", GRUB,
                       r"Linux version %s " % re.escape(kernel)],
                   name, "the app first (tries unconfirmed=1, summary action=force), then GRUB, then %s" % kernel)
        self.boot_current(g, name, app_num, "BootCurrent is the app's Boot%04X (-> %s)" %
                          (app_num, self.entry_path(app_num)))
        self.sb_state(g, name)
        if self.secure:
            self.cons(g, name, r"^aspm secureboot secureboot=1 setupmode=0 verified=shim$",
                      "the app: aspm secureboot secureboot=1 setupmode=0 verified=shim")
        self.run(g, name, "aspmctl status", "aspmctl status reads the summary the app left",
                 r"^summary: aspmctl .*action=force .*fallback=none")
        self.wait_bless(g, name)
        # (c) a kernel upgrade, nothing else done
        self.run(g, name, "dpkg -i /srv/kernels/%s" % second, "dpkg -i %s (update-initramfs, update-grub)" % second,
                 r"Setting up linux-image-", timeout=900)
        self.run(g, name, "readlink /vmlinuz", "/vmlinuz -> the new kernel", re.escape(cloud))
        self.reboot(g, name)

        name = "upgraded"
        g = self.boot(name)
        if not self.login(g, name):
            g.kill()
            return
        self.order(g, [r"^aspm summary aspmctl .*action=force", r"Loading Linux %s " % re.escape(cloud),
                       r"Linux version %s " % re.escape(cloud)],
                   name, "the app, then GRUB (update-grub's grub.cfg), then the NEW kernel %s" % cloud)
        self.run(g, name, "uname -r", "uname -r is %s" % cloud, r"^%s$" % re.escape(cloud))
        self.run(g, name, "aspmctl status", "aspmctl status reads the summary",
                 r"^summary: aspmctl .*action=force")
        self.wait_bless(g, name)
        self.reboot(g, name)

        # (d) hangs: QEMU killed as soon as the app has run, 3 times
        for k in (1, 2, 3):
            name = "hang%d" % k
            g = self.boot(name)
            # killed once the app starts the next loader: the hang of a
            # policy that locks the machine up, before Linux confirms
            m = g.expect(APP_LINE, a.timeout) and g.expect(r"^aspmctl: starting ", 60)
            g.kill()
            self.s.check(bool(m), "%s: the app ran (summary line, next loader started), "
                         "QEMU killed before Linux" % name)
            self.cons(g, name, r"^aspm tries unconfirmed=%d tries=3 fallback=none$" % k,
                      "aspm tries unconfirmed=%d tries=3 fallback=none: counted, policy applied" % k)
        name = "fallback"
        g = self.boot(name)
        if not self.login(g, name):
            g.kill()
            return
        self.order(g, [r"^aspm tries unconfirmed=3 tries=3 fallback=unconfirmed-boots$",
                       r"^aspmctl: warning: 3 boots in a row were not confirmed .*nothing applied",
                       r"^aspm summary aspmctl .*action=none .*fallback=unconfirmed-boots$",
                       GRUB, r"Linux version %s " % re.escape(cloud)],
                   name, "the app applies nothing, says fallback=unconfirmed-boots, Linux still boots")
        self.cons(g, name, r"^aspm write ", "no aspm write record on the console", False)
        self.run(g, name, "aspmctl status", "aspmctl status says fallback=unconfirmed-boots",
                 r"^summary: aspmctl .*fallback=unconfirmed-boots")
        self.wait_bless(g, name)
        self.reboot(g, name)

        name = "blessed"
        g = self.boot(name)
        if not self.login(g, name):
            g.kill()
            return
        self.order(g, [r"^aspm tries unconfirmed=1 tries=3 fallback=none$",
                       r"^aspm summary aspmctl .*action=force .*fallback=none$"],
                   name, "after the bless the policy applies again (unconfirmed=1, action=force)")
        # (e) uninstall
        self.run(g, name, "aspmctl uninstall", "aspmctl uninstall", r"delete Boot%04X" % app_num)
        self.run(g, name, "efibootmgr | sed -n 's/^BootOrder: //p'", "BootOrder as before install (%s)" % before,
                 r"^%s$" % re.escape(before))
        self.run(g, name, "[ ! -e /boot/efi/EFI/aspmctl ]", "\\EFI\\aspmctl is gone from the ESP")
        self.reboot(g, name)

        name = "uninstalled"
        g = self.boot(name)
        if not self.login(g, name):
            g.kill()
            return
        self.cons(g, name, r"^(aspm |aspmctl: )", "no aspmctl line on the console", False)
        self.order(g, [GRUB, r"Linux version %s " % re.escape(cloud)],
                   name, "shim -> GRUB -> %s as before" % cloud)
        self.boot_current(g, name, DEBIAN_ENTRY, "BootCurrent is Boot%04X (shim) again" % DEBIAN_ENTRY)
        self.run(g, name, "efibootmgr | sed -n 's/^BootOrder: //p'", "BootOrder as before install",
                 r"^%s$" % re.escape(before))
        g.send("poweroff\n")
        g.wait_exit(120)
        g.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--image", required=True)
    ap.add_argument("--deb", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--results")
    ap.add_argument("--timeout", type=int, default=400)
    ap.add_argument("--secureboot", action="store_true")
    ap.add_argument("--mok-cert")
    ap.add_argument("--signed-app")
    a = ap.parse_args()
    info = dict(l.strip().split("=", 1) for l in open(a.image + ".info") if "=" in l)
    a.kernel, a.second = info["kernel"], info["second"]
    os.makedirs(a.out, exist_ok=True)
    suite = testlib.Suite()
    t0 = time.time()
    if a.secureboot and not (a.mok_cert and a.signed_app):
        ap.error("--secureboot needs --mok-cert and --signed-app")
    name = "system-sb" if a.secureboot else "system"
    try:
        System(a, suite).main()
    finally:
        print("system: %s in %.0f s" % (name, time.time() - t0), flush=True)
    return suite.end(a.results, name)


if __name__ == "__main__":
    sys.exit(main())
