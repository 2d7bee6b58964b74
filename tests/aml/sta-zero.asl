// SPDX-License-Identifier: GPL-2.0-only
// sta-zero: PCI1 says _STA 0 (not present) and would deny; Linux adds no
// such root and never asks its _OSC. PCI0 grants all. Expect: PCI1
// skipped sta-not-present with no query, PCI0 granted, machine granted.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "STAZERO", 1)
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
        Device (PCI1)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_UID, One)
            Method (_STA, 0, NotSerialized)
            {
                Return (Zero)
            }
            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000, 0x0080, 0x00FF, 0x0000, 0x0080)
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
