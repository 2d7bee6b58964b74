// SPDX-License-Identifier: GPL-2.0-only
/*
 * EFI status names (lib/status_name.c) against UEFI 2.10 Appendix D, every
 * code of Table D-3 (errors) and D-4 (warnings) with the number and name
 * copied here from the spec, not from the code under test; the ranges of
 * Table D-1 for codes it does not define; and the error names the
 * Secure Boot refusal uses.
 */
#include "common.h"
#include "../../lib/status_name.h"
#include "../../lib/err.h"

#define ERR(n)	(0x8000000000000000ULL | (n))

static const struct {
	uint64_t st;
	const char *name;
} spec[] = {
	{ 0, "EFI_SUCCESS" },
	/* Table D-3 */
	{ ERR(1), "EFI_LOAD_ERROR" },
	{ ERR(2), "EFI_INVALID_PARAMETER" },
	{ ERR(3), "EFI_UNSUPPORTED" },
	{ ERR(4), "EFI_BAD_BUFFER_SIZE" },
	{ ERR(5), "EFI_BUFFER_TOO_SMALL" },
	{ ERR(6), "EFI_NOT_READY" },
	{ ERR(7), "EFI_DEVICE_ERROR" },
	{ ERR(8), "EFI_WRITE_PROTECTED" },
	{ ERR(9), "EFI_OUT_OF_RESOURCES" },
	{ ERR(10), "EFI_VOLUME_CORRUPTED" },
	{ ERR(11), "EFI_VOLUME_FULL" },
	{ ERR(12), "EFI_NO_MEDIA" },
	{ ERR(13), "EFI_MEDIA_CHANGED" },
	{ ERR(14), "EFI_NOT_FOUND" },
	{ ERR(15), "EFI_ACCESS_DENIED" },
	{ ERR(16), "EFI_NO_RESPONSE" },
	{ ERR(17), "EFI_NO_MAPPING" },
	{ ERR(18), "EFI_TIMEOUT" },
	{ ERR(19), "EFI_NOT_STARTED" },
	{ ERR(20), "EFI_ALREADY_STARTED" },
	{ ERR(21), "EFI_ABORTED" },
	{ ERR(22), "EFI_ICMP_ERROR" },
	{ ERR(23), "EFI_TFTP_ERROR" },
	{ ERR(24), "EFI_PROTOCOL_ERROR" },
	{ ERR(25), "EFI_INCOMPATIBLE_VERSION" },
	{ ERR(26), "EFI_SECURITY_VIOLATION" },
	{ ERR(27), "EFI_CRC_ERROR" },
	{ ERR(28), "EFI_END_OF_MEDIA" },
	{ ERR(31), "EFI_END_OF_FILE" },
	{ ERR(32), "EFI_INVALID_LANGUAGE" },
	{ ERR(33), "EFI_COMPROMISED_DATA" },
	{ ERR(34), "EFI_IP_ADDRESS_CONFLICT" },
	{ ERR(35), "EFI_HTTP_ERROR" },
	/* Table D-4 */
	{ 1, "EFI_WARN_UNKNOWN_GLYPH" },
	{ 2, "EFI_WARN_DELETE_FAILURE" },
	{ 3, "EFI_WARN_WRITE_FAILURE" },
	{ 4, "EFI_WARN_BUFFER_TOO_SMALL" },
	{ 5, "EFI_WARN_STALE_DATA" },
	{ 6, "EFI_WARN_FILE_SYSTEM" },
	{ 7, "EFI_WARN_RESET_REQUIRED" },
};

/* Every code of Appendix D has its name; the names are distinct. */
static void test_every_code_named(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(spec) / sizeof(spec[0]); i++) {
		assert_string_equal(efi_status_name(spec[i].st), spec[i].name);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(spec[i].name, spec[j].name);
	}
	/* the header's constants are the spec's numbers */
	assert_true(EFIST_ACCESS_DENIED == 0x800000000000000fULL);
	assert_true(EFIST_SECURITY_VIOLATION == 0x800000000000001aULL);
	assert_true(EFIST_HTTP_ERROR == 0x8000000000000023ULL);
	assert_true(EFIST_WARN_RESET_REQUIRED == 7);
}

/* Codes Appendix D leaves undefined: the gaps (29, 30), past the end,
 * and the ranges Table D-1 reserves for OEMs and for PI. */
static void test_undefined_codes(void **state)
{
	(void)state;
	assert_string_equal(efi_status_name(ERR(29)), "EFI_UNKNOWN_ERROR");
	assert_string_equal(efi_status_name(ERR(30)), "EFI_UNKNOWN_ERROR");
	assert_string_equal(efi_status_name(ERR(36)), "EFI_UNKNOWN_ERROR");
	assert_string_equal(efi_status_name(ERR(0)), "EFI_UNKNOWN_ERROR");
	assert_string_equal(efi_status_name(8), "EFI_UNKNOWN_WARNING");
	assert_string_equal(efi_status_name(0xC000000000000001ULL), "EFI_OEM_ERROR");
	assert_string_equal(efi_status_name(0x4000000000000001ULL), "EFI_OEM_WARNING");
	assert_string_equal(efi_status_name(0xA000000000000001ULL), "EFI_PI_ERROR");
	assert_string_equal(efi_status_name(0x2000000000000001ULL), "EFI_PI_WARNING");
	/* the error of a 32-bit firmware is not the 64-bit one */
	assert_string_equal(efi_status_name(0x8000000fULL), "EFI_UNKNOWN_WARNING");
}

/* The chainload refusal's error code has its own name. */
static void test_refusal_error(void **state)
{
	(void)state;
	assert_string_equal(err_str(-AE_ACCES), "refused by the security policy");
	assert_string_not_equal(err_str(-AE_ACCES), err_str(-AE_IO));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code_named),
		cmocka_unit_test(test_undefined_codes),
		cmocka_unit_test(test_refusal_error),
	};

	return cmocka_run_group_tests_name("status_name", tests, NULL, NULL);
}
