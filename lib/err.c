// SPDX-License-Identifier: GPL-2.0-only
#include "err.h"

const char *err_str(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case AE_OK:		return "ok";
	case AE_NOENT:		return "not found";
	case AE_IO:		return "I/O error";
	case AE_2BIG:		return "length too large";
	case AE_NOMEM:		return "out of memory";
	case AE_ACCES:		return "refused by the security policy";
	case AE_FAULT:		return "address outside memory";
	case AE_BUSY:		return "not ready";
	case AE_EXIST:		return "duplicate";
	case AE_NODEV:		return "no such device";
	case AE_INVAL:		return "invalid";
	case AE_NOSPC:		return "no space";
	case AE_RANGE:		return "out of range";
	case AE_NOTSUP:		return "not supported";
	case AE_LOOP:		return "loop detected";
	case AE_NODATA:		return "not in the dump";
	case AE_BADMSG:		return "bad checksum";
	case AE_MSGSIZE:	return "bad length";
	case AE_TIMEDOUT:	return "timed out";
	case AE_MISMATCH:	return "read-back mismatch";
	}
	return "unknown error";
}
