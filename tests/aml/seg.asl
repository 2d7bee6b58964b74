// SPDX-License-Identifier: GPL-2.0-only
// seg: segment groups. PCI0 has no _SEG (segment 0); PCI1's _SEG is a
// method returning 1, buses 00-ff of that segment; PCI2's _SEG fails
// (divides by zero): Linux cannot evaluate it and adds no root. Expect:
// PCI0 and PCI1 granted (segments 0 and 1), PCI2 skipped seg-failed.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "SEGMENTS", 1)
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
                Return (Arg3)
            }
        }
        Device (PCI1)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_UID, One)
            Method (_SEG, 0, NotSerialized)
            {
                Return (One)
            }
            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000, 0x0000, 0x00FF, 0x0000, 0x0100)
            })
            Method (_OSC, 4, NotSerialized)
            {
                Return (Arg3)
            }
        }
        Device (PCI2)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_UID, 0x02)
            Name (NZRO, Zero)
            Method (_SEG, 0, NotSerialized)
            {
                Return ((0x02 / NZRO))
            }
            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000, 0x0000, 0x00FF, 0x0000, 0x0100)
            })
            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, 0x08, CDW3)
                CDW3 &= ~0x10
                Return (Arg3)
            }
        }
    }
}
