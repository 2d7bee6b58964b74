// SPDX-License-Identifier: GPL-2.0-only
// osc-recursion: _OSC calls a method that calls itself without end.
// ACPICA stops it (its re-entrancy limit or the memory budget). Expect:
// unknown, no crash.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "RECURSE", 1)
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
            Method (RECU, 1, NotSerialized)
            {
                Return (RECU (Arg0))
            }
            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, Zero, CDW1)
                CreateDWordField (Arg3, 0x08, CDW3)
                Return (RECU (Arg3))
                Return (Arg3)
            }
        }
    }
}
