// SPDX-License-Identifier: GPL-2.0-only
// pkg-late: grant-all, plus module-level packages whose named elements are
// resolved after an enclosing package already holds theirs: PZRO and PONE
// hold PTWO's Package (three paths to its slots) before PTWO's elements
// are resolved to PINR's Package and PINT's Integer. Each got one
// reference instead of three, and deleting the namespace freed them while
// PTWO still held them (ACPICA patch 0033 gives one per path).
// _OSC fails (bit 1) unless PTWO's elements read back as PINR and PINT.
// Expect: granted as grant-all; no fault (ASan) and no leak.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "PKGLATE", 1)
{
    Name (PZRO, Package () { PONE })
    Name (PONE, Package () { PTWO, PTWO })
    Name (PTWO, Package () { PINR, PINT, Package () { PINR } })
    Name (PINR, Package () { One, "late" })
    Name (PINT, 0x1234)

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
                // the late-resolved elements hold their values: else fail
                If ((DerefOf (PTWO [One]) != 0x1234) ||
                    (DerefOf (DerefOf (PTWO [Zero]) [One]) != "late"))
                {
                    CDW1 |= 0x02
                }
                Return (Arg3)
            }
        }
    }
}
