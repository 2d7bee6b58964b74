// SPDX-License-Identifier: GPL-2.0-only
// osc-ec: _OSC reads a byte of an EmbeddedControl region (offset 0x30).
// Any EC access is refused (reads too). Expect: unknown
// read-EmbeddedControl-0x30.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "ECREG", 1)
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
            OperationRegion (ECOR, EmbeddedControl, Zero, 0xFF)
            Field (ECOR, ByteAcc, NoLock, Preserve)
            {
                Offset (0x30),
                ECB0,   8
            }
            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, Zero, CDW1)
                CreateDWordField (Arg3, 0x08, CDW3)
                Local1 = ECB0
                Return (Arg3)
            }
        }
    }
}
