// SPDX-License-Identifier: GPL-2.0-only
// dsdt-base: the DSDT of a two-table machine (see ssdt-bridge.asl): one
// PCIe host bridge PCI0, buses 00-7f, that grants all.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "BASE", 1)
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
                    0x0000, 0x0000, 0x007F, 0x0000, 0x0080)
            })
            Method (_OSC, 4, NotSerialized)
            {
                Return (Arg3)
            }
        }
    }
}
