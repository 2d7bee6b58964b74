/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One error domain for everything below efi/: negative errno values, as
 * iPXE and Linux do. efi/ converts them to EFI_STATUS at the boundary only.
 * The numbers are Linux's; they are defined here so that the same code
 * builds freestanding (UEFI) and hosted (unit tests, fuzzers).
 */
#ifndef ASPMCTL_LIB_ERR_H
#define ASPMCTL_LIB_ERR_H

#define AE_OK		0
#define AE_NOENT	2	/* table / function / file not found */
#define AE_IO		5	/* access failed, device gone (all-ones) */
#define AE_2BIG		7	/* length absurdly large */
#define AE_NOMEM	12
#define AE_ACCES	13	/* refused by a security policy (Secure Boot) */
#define AE_FAULT	14	/* pointer outside mapped memory */
#define AE_BUSY		16	/* function not ready (CRS 0x0001) */
#define AE_EXIST	17	/* duplicate (two FADTs, bus claimed twice) */
#define AE_NODEV	19
#define AE_INVAL	22	/* malformed input, bad option */
#define AE_NOSPC	28	/* more functions/links than we have room for */
#define AE_RANGE	34	/* outside the decoded ECAM range */
#define AE_NOTSUP	95
#define AE_LOOP		40	/* capability or bus-number loop */
#define AE_NODATA	61	/* not known: beyond the bytes a dump holds */
#define AE_BADMSG	74	/* checksum mismatch */
#define AE_MSGSIZE	90	/* length not header + n * entry */
#define AE_TIMEDOUT	110
#define AE_MISMATCH	121	/* write not reflected on read-back (EREMOTEIO) */

/* Short, stable name of an error, e.g. "bad checksum". */
const char *err_str(int err);

#endif
