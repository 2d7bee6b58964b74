// SPDX-License-Identifier: GPL-2.0-only
// ssdt-bridge: an SSDT that adds a second PCIe host bridge PCI1 (buses
// 80-ff) beside dsdt-base.asl's PCI0, and keeps PCIe Capability control
// there. Loaded with dsdt-base: two tables, two bridges, machine denied.
DefinitionBlock ("", "SSDT", 2, "ASPMCT", "BRIDGE1", 1)
{
    Scope (\_SB)
    {
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
