// SPDX-License-Identifier: GPL-2.0-only
// grant-nothing: the answer clears every control bit. Linux 6.1 leaves
// its query loop with nothing left, "no need to request": AE_OK, and keeps
// managing ASPM (a faithful quirk). Expect: granted, control [], one query.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "NOTHING", 1)
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
                CDW3 = Zero
                Return (Arg3)
            }
        }
    }
}
