// SPDX-License-Identifier: GPL-2.0-only
/* AE_* error codes as EFI_STATUS, for efi_main's return. */
#include "status.h"
#include "../lib/err.h"

EFI_STATUS efi_status_from_err(int err)
{
	switch (err < 0 ? -err : err) {
	case AE_OK:		return EFI_SUCCESS;
	case AE_INVAL:		return EFI_INVALID_PARAMETER;
	case AE_NOENT:
	case AE_NODEV:		return EFI_NOT_FOUND;
	case AE_NOMEM:		return EFI_OUT_OF_RESOURCES;
	case AE_NOSPC:		return EFI_BUFFER_TOO_SMALL;
	case AE_NOTSUP:		return EFI_UNSUPPORTED;
	case AE_TIMEDOUT:	return EFI_TIMEOUT;
	case AE_BADMSG:
	case AE_MSGSIZE:	return EFI_CRC_ERROR;
	case AE_BUSY:		return EFI_NOT_READY;
	default:		return EFI_DEVICE_ERROR;
	}
}
