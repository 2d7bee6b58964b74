// SPDX-License-Identifier: GPL-2.0-only
// two-bridges: PCI0 (buses 00-7f) grants all, PCI1 (buses 80-ff) keeps
// PCIe Capability control. pcie_no_aspm() is global: one denying root is
// enough. Expect: PCI0 granted, PCI1 denied pcie-capability-not-granted,
// machine denied.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "TWOBRIDG", 1)
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
