/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The running Linux machine, read-only (host/sysfs.c): every function's
 * ROOT/sys/bus/pci/devices/<SSSS:BB:DD.F>/config as the text lspci -xxxx
 * prints (so the twin's one parser and its checks take it), and the
 * ACPI tables ROOT/sys/firmware/acpi/tables/{FACP,MCFG}. Nothing is ever
 * written. Without root, Linux lets a config file read only its first 64
 * bytes: those functions come out as 64-byte dumps, whose unknown rest
 * the records say.
 */
#ifndef ASPMCTL_HOST_SYSFS_H
#define ASPMCTL_HOST_SYSFS_H

#include <stddef.h>
#include <stdint.h>

/* The dump text (malloc'd, *len bytes) of every function under root.
 * 0 or -AE_*, with a message on stderr. */
int sysfs_dump_text(const char *root, char **text, size_t *len);
/* A whole file of at most max bytes (malloc'd). 0, -AE_NOENT when it does
 * not exist, or another -AE_*. */
int host_read_file(const char *path, size_t max, uint8_t **data, size_t *len);

#endif
