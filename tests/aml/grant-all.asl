// SPDX-License-Identifier: GPL-2.0-only
// grant-all: one PCIe host bridge (PNP0A08, _CID PNP0A03) whose _OSC
// grants every control bit the OS asks for. Expect: granted, control
// [PCIeHotplug SHPCHotplug PME AER PCIeCapability LTR DPC], one query,
// bus 00-ff from _CRS, no region access.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "GRANTALL", 1)
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
                If ((Arg0 == ToUUID ("33db4d5b-1ff7-401c-9657-7441c03dd766")))
                {
                    If ((Arg1 != One))
                    {
                        CDW1 |= 0x08
                    }
                }
                Else
                {
                    CDW1 |= 0x04
                }
                Return (Arg3)
            }
        }
    }
}
