// SPDX-License-Identifier: GPL-2.0-only
// method-child: grant-all, plus a Device created below a Method by a name
// path through it (Device (MTH.X)), whose module-level code calls that
// Method. The end of the Method deleted every child of its node, so the
// Device the table load was still inside was freed, and the next name of
// the load read it (ACPICA patch 0032 deletes only the Method's own
// objects). Expect: granted as grant-all; no fault (ASan) and no leak.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "MTHCHILD", 1)
{
    // creates a Name of its own each time it runs, deleted when it ends
    Method (MTH, 0, NotSerialized)
    {
        Name (T, One)
        Return (T)
    }

    // the table's object below the Method, alive after the call
    Device (MTH.X)
    {
        Name (_ADR, Zero)
        MTH ()
        Name (Z, 0x02)
    }

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
                If ((Arg0 == ToUUID ("33db4d5b-1ff7-401c-9657-7441c03dd766")))
                {
                    If ((Arg1 != One))
                    {
                        CDW1 |= 0x08
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
