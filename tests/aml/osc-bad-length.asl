// SPDX-License-Identifier: GPL-2.0-only
// osc-bad-length: the answer is a Buffer of 8 bytes, not 12 (two DWORDs).
// acpi_run_osc() fails with AE_TYPE ("_OSC evaluation returned wrong
// type"): pcie_no_aspm(). Expect: denied osc-bad-return.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "BADLEN", 1)
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
                Return (Buffer (0x08) {0x01, 0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00})
                Return (Arg3)
            }
        }
    }
}
