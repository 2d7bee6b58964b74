/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * EFI_LOAD_OPTION, the data of a Boot#### variable (UEFI 2.10 sec 3.1.3):
 * UINT32 Attributes, UINT16 FilePathListLength, the Description (UCS-2,
 * NUL-terminated), the FilePathList (device path nodes, sec 10.3), then
 * OptionalData. Pure parsing and building over byte buffers, checked
 * against every length before it is trusted.
 */
#ifndef ASPMCTL_HOST_LOADOPT_H
#define ASPMCTL_HOST_LOADOPT_H

#include <stddef.h>
#include <stdint.h>

#define LOAD_OPTION_ACTIVE	0x00000001u

/* Device path node types (UEFI 2.10 sec 10.3.1) */
#define DP_MEDIA		0x04
#define DP_MEDIA_HD		0x01	/* Hard Drive Media Device Path, sec 10.3.5.1 */
#define DP_MEDIA_FILEPATH	0x04	/* File Path Media Device Path, sec 10.3.5.4 */
#define DP_END			0x7f
#define DP_END_ENTIRE		0xff

struct loadopt {
	uint32_t attrs;
	char desc[128];			/* ASCII; other characters as '?' */
	const uint8_t *hd;		/* the HD node, or NULL */
	size_t hd_len;
	char path[256];			/* the first File Path node, '\\' separated; "" none */
	const uint8_t *opt;		/* OptionalData */
	size_t opt_len;
};

/* 0, or -AE_INVAL / -AE_MSGSIZE for a malformed option. */
int loadopt_parse(const uint8_t *d, size_t n, struct loadopt *o);
/* An option booting path on the partition of hd (an HD node as found in
 * another option): its size, or 0 when it does not fit in size. */
size_t loadopt_build(uint8_t *buf, size_t size, uint32_t attrs, const char *desc,
		     const uint8_t *hd, size_t hd_len, const char *path);

#endif
