// SPDX-License-Identifier: GPL-2.0-only
/*
 * SBAT (UEFI Secure Boot Advanced Targeting, shim's SBAT.md): the .sbat
 * section of the PE image, CSV lines "component,generation,vendor,
 * package,version,url". shim (15.3 and later) refuses to start an image
 * without it, even one signed by a key in MokList ("No .sbat section
 * data"); the firmware itself ignores it. The generation goes up when a
 * security fix must make older aspmctl images unbootable under shim.
 */
#include "../app/app.h"

static const char sbat[] __attribute__((section(".sbat"), used)) =
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	"aspmctl,1,aspmctl developers,aspmctl," ASPMCTL_VERSION ",https://aspmctl.invalid/\n";
