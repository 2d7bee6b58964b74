// SPDX-License-Identifier: GPL-2.0-only
// osc-error-uuid: this _OSC knows another UUID only (the CXL one) and
// answers OSC_INVALID_UUID_ERROR (0x4) to the PCI one. Expect: denied
// osc-error-bits, status DWORD 0x5.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "ERRUUID", 1)
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
                If ((Arg0 != ToUUID ("68f2d50b-c469-4d8a-bd3d-941a103fd3fc")))
                {
                    CDW1 |= 0x04
                }
                Return (Arg3)
            }
        }
    }
}
