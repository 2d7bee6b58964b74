/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `aspmctl install` and `aspmctl uninstall` (host/install.c), as
 * `bootctl install` works: aspmctl.efi on the EFI System Partition, an
 * aspmctl.conf whose next loader is the one this boot came through
 * (BootCurrent), and a boot entry for the app placed first in BootOrder,
 * the others kept after it. Every step is printed; --dry-run prints them
 * and changes nothing; uninstall undoes each one.
 */
#ifndef ASPMCTL_HOST_INSTALL_H
#define ASPMCTL_HOST_INSTALL_H

#include <stdbool.h>
#include <stddef.h>

struct install_opts {
	const char *efivars;	/* efivarfs (default EFIVARS_DIR) */
	const char *esp;	/* the ESP's mount point; NULL: from mounts */
	const char *mounts;	/* default /proc/self/mounts */
	const char *app;	/* the aspmctl.efi to install */
	const char *policy;	/* policy = ... in aspmctl.conf; NULL: auto */
	const char *root;	/* status: the system's root for sysfs (default /) */
	bool dry_run;
};

/* argv after the command word: 0, or the exit status of a usage error. */
int install_parse(int argc, char **argv, struct install_opts *o);
/* 0, or -AE_* with the reason on stderr (nothing changed on a refusal). */
int host_install(const struct install_opts *o);
int host_uninstall(const struct install_opts *o);
/* The ESP's mount point (--esp, else from the mount table); writable:
 * refuse a read-only one. 0 or -AE_* with the reason on stderr. */
int install_find_esp(const struct install_opts *o, char *esp, size_t size,
		     bool writable);
/* aspmctl status (host/status.c): the summary, the counter, and each
 * function's Link Control as the app left it and as it is now. */
int host_status(const struct install_opts *o);

#endif
