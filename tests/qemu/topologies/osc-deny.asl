// SPDX-License-Identifier: GPL-2.0-only
//
// An SSDT for tests/qemu/topologies/osc-deny.topo: a second PCIe host
// bridge, \_SB.PCIX (PNP0A08, segment 0, bus 0xfe with nothing behind it),
// whose _OSC keeps PCIe Capability control for the firmware: it answers
// every query with the Control DWORD less bit 4 (PCI Firmware Spec r3.3
// sec 4.5.1, table 4-5), so Linux 6.1's acpi_pci_osc_control_set() ends in
// AE_SUPPORT and negotiate_os_control() calls pcie_no_aspm() for the whole
// machine; aspmctl's --osc auto must come to the same (notouch).
DefinitionBlock ("", "SSDT", 2, "ASPMCT", "OSCDENY", 1)
{
    Scope (\_SB)
    {
        Device (PCIX)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_UID, 0xfe)
            Name (_SEG, Zero)
            Name (_BBN, 0xfe)
            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000, 0x00fe, 0x00fe, 0x0000, 0x0001,,, )
            })
            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, Zero, CDW1)
                If ((Arg0 == ToUUID ("33db4d5b-1ff7-401c-9657-7441c03dd766")))
                {
                    CreateDWordField (Arg3, 0x08, CDW3)
                    If ((CDW3 & 0x10))
                    {
                        CDW3 &= ~0x10
                        CDW1 |= 0x10
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
