// SPDX-License-Identifier: GPL-2.0-only
/*
 * efi-stub: a tiny UEFI application for testing the QEMU runner and, later,
 * as the chainload target of aspmctl.efi.  It prints a start line, the load
 * options it received (its command line) and the same final line as
 * aspmctl.efi, so tests/qemu/run.sh knows when to stop QEMU:
 *
 *   efi-stub: started
 *   efi-stub: load-options size=N text="..."
 *   aspmctl: done status=0x0
 *
 * With the word "poweroff" in its load options it then shuts the machine
 * down (ResetSystem), as a kernel that powers off at the end of a test
 * would: QEMU exits by itself.
 */
#include <efi.h>
#include <efilib.h>

#define MAX_SHOWN 512

static BOOLEAN has_word(const CHAR16 *s, UINTN n, const CHAR16 *w)
{
	UINTN i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; w[j] && i + j < n && s[i + j] == w[j]; j++)
			;
		if (w[j] == 0)
			return TRUE;
	}
	return FALSE;
}

static void print_load_options(EFI_LOADED_IMAGE *li)
{
	static CHAR16 buf[MAX_SHOWN + 1];
	const CHAR16 *opt = li->LoadOptions;
	UINT32 size = li->LoadOptionsSize;
	UINTN n = 0, i;

	if (opt == NULL || size == 0) {
		Print(L"efi-stub: load-options size=0 text=\"\"\n");
		return;
	}
	/* LoadOptions is UCS-2 from the Shell; from a boot entry it may be
	 * any binary blob.  Show it as text, non-printables as '.'. */
	for (i = 0; i < size / sizeof(CHAR16) && n < MAX_SHOWN; i++) {
		CHAR16 c = opt[i];

		if (c == 0)
			break;
		buf[n++] = (c >= 0x20 && c < 0x7f) ? c : L'.';
	}
	buf[n] = 0;
	Print(L"efi-stub: load-options size=%d text=\"%s\"\n", size, buf);
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *li = NULL;
	EFI_STATUS st;

	InitializeLib(image, systab);
	Print(L"efi-stub: started\n");
	st = uefi_call_wrapper(BS->HandleProtocol, 3, image,
			       &LoadedImageProtocol, (void **)&li);
	if (EFI_ERROR(st) || li == NULL)
		Print(L"efi-stub: no loaded-image protocol (%r)\n", st);
	else
		print_load_options(li);
	Print(L"aspmctl: done status=0x0\n");
	if (li && li->LoadOptions &&
	    has_word(li->LoadOptions, li->LoadOptionsSize / sizeof(CHAR16),
		     L"poweroff")) {
		Print(L"efi-stub: powering off\n");
		uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown,
				  EFI_SUCCESS, 0, NULL);
	}
	return EFI_SUCCESS;
}
