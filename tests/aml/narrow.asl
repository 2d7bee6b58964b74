// SPDX-License-Identifier: GPL-2.0-only
// narrow: the first answer drops LTR and DPC (and sets the
// capabilities-mask error bit); Linux queries again with what is left, the
// second answer equals its request. Expect: granted, control
// [PCIeHotplug SHPCHotplug PME AER PCIeCapability], two queries.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "NARROW", 1)
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
                Local0 = (CDW3 & ~0xA0)
                If ((CDW3 != Local0))
                {
                    CDW1 |= 0x10
                }
                CDW3 = Local0
                Return (Arg3)
            }
        }
    }
}
