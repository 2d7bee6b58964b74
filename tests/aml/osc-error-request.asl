// SPDX-License-Identifier: GPL-2.0-only
// osc-error-request: the answer sets OSC_REQUEST_ERROR (0x2) in the first
// DWORD. acpi_run_osc() fails with AE_ERROR: Linux calls pcie_no_aspm().
// Expect: denied osc-error-bits, status DWORD 0x3.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "ERRREQ", 1)
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
                CDW1 |= 0x02
                Return (Arg3)
            }
        }
    }
}
