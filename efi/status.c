// SPDX-License-Identifier: GPL-2.0-only
/* AE_* error codes as EFI_STATUS, for efi_main's return. */
#include "status.h"
#include "../lib/status_name.h"
#include "../lib/err.h"

EFI_STATUS efi_status_from_err(int err)
{
	switch (err < 0 ? -err : err) {
	case AE_OK:		return EFI_SUCCESS;
	case AE_INVAL:		return EFI_INVALID_PARAMETER;
	case AE_NOENT:
	case AE_NODEV:		return EFI_NOT_FOUND;
	case AE_NOMEM:		return EFI_OUT_OF_RESOURCES;
	case AE_ACCES:		return EFI_ACCESS_DENIED;
	case AE_NOSPC:		return EFI_BUFFER_TOO_SMALL;
	case AE_NOTSUP:		return EFI_UNSUPPORTED;
	case AE_TIMEDOUT:	return EFI_TIMEOUT;
	case AE_BADMSG:
	case AE_MSGSIZE:	return EFI_CRC_ERROR;
	case AE_BUSY:		return EFI_NOT_READY;
	default:		return EFI_DEVICE_ERROR;
	}
}

/*
 * lib/status_name.h names the codes without UEFI headers; they must be
 * gnu-efi's (UEFI 2.10 Appendix D). The codes gnu-efi lacks
 * (IP_ADDRESS_CONFLICT, HTTP_ERROR, the newer warnings) are checked by
 * the unit test against the spec's numbers.
 */
#define SAME(x)	_Static_assert(EFIST_##x == EFI_##x, "EFI_" #x)
SAME(SUCCESS); SAME(LOAD_ERROR); SAME(INVALID_PARAMETER); SAME(UNSUPPORTED);
SAME(BAD_BUFFER_SIZE); SAME(BUFFER_TOO_SMALL); SAME(NOT_READY);
SAME(DEVICE_ERROR); SAME(WRITE_PROTECTED); SAME(OUT_OF_RESOURCES);
SAME(VOLUME_CORRUPTED); SAME(VOLUME_FULL); SAME(NO_MEDIA); SAME(MEDIA_CHANGED);
SAME(NOT_FOUND); SAME(ACCESS_DENIED); SAME(NO_RESPONSE); SAME(NO_MAPPING);
SAME(TIMEOUT); SAME(NOT_STARTED); SAME(ALREADY_STARTED); SAME(ABORTED);
SAME(ICMP_ERROR); SAME(TFTP_ERROR); SAME(PROTOCOL_ERROR);
SAME(INCOMPATIBLE_VERSION); SAME(SECURITY_VIOLATION); SAME(CRC_ERROR);
SAME(END_OF_MEDIA); SAME(END_OF_FILE); SAME(INVALID_LANGUAGE);
SAME(COMPROMISED_DATA); SAME(WARN_UNKNOWN_GLYPH); SAME(WARN_DELETE_FAILURE);
SAME(WARN_WRITE_FAILURE); SAME(WARN_BUFFER_TOO_SMALL);
