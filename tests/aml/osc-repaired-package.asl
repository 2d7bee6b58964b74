// SPDX-License-Identifier: GPL-2.0-only
// osc-repaired-package: the answer is a Package of three Integers, not a
// Buffer. ACPICA's predefined-name repair (nsconvert.c: a Package of
// Integers becomes a Buffer of DWORDs) makes it the 12-byte Buffer
// {1, 0x1f, 0xbf}, in Linux as here. Expect: granted, control
// [PCIeHotplug SHPCHotplug PME AER PCIeCapability LTR DPC], status 0x1.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "REPAIRED", 1)
{

    Scope (\_SB)
    {
        Device (PCI0)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_UID, Zero)
            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000, 0x0000, 0x00FF, 0x0000, 0x0100)
            })

            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, Zero, CDW1)
                CreateDWordField (Arg3, 0x08, CDW3)
                Local0 = Package (0x03) {One, 0x1F, 0xBF}
                Return (Local0)
                Return (Arg3)
            }
        }
    }
}
