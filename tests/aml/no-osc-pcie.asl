// SPDX-License-Identifier: GPL-2.0-only
// no-osc-pcie: a PCIe host bridge (PNP0A08, _CID PNP0A03) without _OSC.
// acpi_run_osc() fails with AE_NOT_FOUND and Linux calls pcie_no_aspm()
// ("platform retains control"). Expect: denied no-osc, has_osc false.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "NOOSCE", 1)
{
    Scope (\_SB)
    {
        Device (PCI0)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000, 0x0000, 0x00FF, 0x0000, 0x0100)
            })
        }
    }
}
