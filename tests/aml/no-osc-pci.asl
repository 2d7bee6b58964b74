// SPDX-License-Identifier: GPL-2.0-only
// no-osc-pci: a plain PCI host bridge (_HID PNP0A03, not PCIe) without
// _OSC. _OSC is optional there, but negotiate_os_control() of Linux 6.1
// sets no_aspm before it returns quietly: pcie_no_aspm() all the same.
// Expect: denied no-osc, pcie false, has_osc false.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "NOOSCI", 1)
{
    Scope (\_SB)
    {
        Device (PCI0)
        {
            Name (_HID, EisaId ("PNP0A03"))
            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000, 0x0000, 0x00FF, 0x0000, 0x0100)
            })
        }
    }
}
