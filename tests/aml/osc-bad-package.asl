// SPDX-License-Identifier: GPL-2.0-only
// osc-bad-package: the answer is a Package holding a String, which
// ACPICA cannot repair into a Buffer: the evaluation fails (an AML
// operand-type error). Expect: not granted.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "BADPKG", 1)
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
                Local0 = Package (0x03) {One, "PCIe", 0xBF}
                Return (Local0)
                Return (Arg3)
            }
        }
    }
}
