// SPDX-License-Identifier: GPL-2.0-only
/* EFI_STATUS names of UEFI 2.10 Appendix D (lib/status_name.h). */
#include "status_name.h"
#include "util.h"

#define N(x)	{ EFIST_##x, "EFI_" #x }

static const struct {
	uint64_t st;
	const char *name;
} efist_names[] = {
	N(SUCCESS),
	/* Table D-3 EFI_STATUS Error Codes */
	N(LOAD_ERROR), N(INVALID_PARAMETER), N(UNSUPPORTED),
	N(BAD_BUFFER_SIZE), N(BUFFER_TOO_SMALL), N(NOT_READY),
	N(DEVICE_ERROR), N(WRITE_PROTECTED), N(OUT_OF_RESOURCES),
	N(VOLUME_CORRUPTED), N(VOLUME_FULL), N(NO_MEDIA),
	N(MEDIA_CHANGED), N(NOT_FOUND), N(ACCESS_DENIED), N(NO_RESPONSE),
	N(NO_MAPPING), N(TIMEOUT), N(NOT_STARTED), N(ALREADY_STARTED),
	N(ABORTED), N(ICMP_ERROR), N(TFTP_ERROR), N(PROTOCOL_ERROR),
	N(INCOMPATIBLE_VERSION), N(SECURITY_VIOLATION), N(CRC_ERROR),
	N(END_OF_MEDIA), N(END_OF_FILE), N(INVALID_LANGUAGE),
	N(COMPROMISED_DATA), N(IP_ADDRESS_CONFLICT), N(HTTP_ERROR),
	/* Table D-4 EFI_STATUS Warning Codes */
	N(WARN_UNKNOWN_GLYPH), N(WARN_DELETE_FAILURE), N(WARN_WRITE_FAILURE),
	N(WARN_BUFFER_TOO_SMALL), N(WARN_STALE_DATA), N(WARN_FILE_SYSTEM),
	N(WARN_RESET_REQUIRED),
};

const char *efi_status_name(uint64_t st)
{
	bool err = st & EFIST_ERROR_BIT;

	for (size_t i = 0; i < ARRAY_SIZE(efist_names); i++)
		if (efist_names[i].st == st)
			return efist_names[i].name;
	/* Table D-1: the next two bits tell the ranges reserved for OEMs
	 * and for the Platform Initialization specification */
	if (st & (1ULL << 62))
		return err ? "EFI_OEM_ERROR" : "EFI_OEM_WARNING";
	if (st & (1ULL << 61))
		return err ? "EFI_PI_ERROR" : "EFI_PI_WARNING";
	return err ? "EFI_UNKNOWN_ERROR" : "EFI_UNKNOWN_WARNING";
}
