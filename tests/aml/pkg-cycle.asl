// SPDX-License-Identifier: GPL-2.0-only
// pkg-cycle: grant-all, plus packages whose elements name their own
// package (PSLF), or each other (PONE, PTWO, one nested). Resolved, each
// closed a cycle of references, and deleting the namespace freed a package
// still being walked (ACPICA patch 0018 leaves that element empty).
// Expect: granted as grant-all; no fault (ASan) and no leak.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "PKGCYCLE", 1)
{
    // Packages that name themselves or each other
    Name (PSLF, Package () { PSLF, One })
    Name (PONE, Package () { PTWO })
    Name (PTWO, Package () { Package () { PONE } })

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
