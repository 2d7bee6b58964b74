/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Linux's drivers/acpi/acpica/utobject.c includes <linux/kmemleak.h> for
 * one kmemleak_not_leak() call; outside the kernel it means nothing.
 */
#ifndef ASPMCTL_COMPAT_KMEMLEAK_H
#define ASPMCTL_COMPAT_KMEMLEAK_H
#define kmemleak_not_leak(p) ((void)(p))
#endif
