// SPDX-License-Identifier: GPL-2.0-only
// pkg-alias: grant-all, plus module-level packages whose element names an
// Alias that has no target (Alias (ANON, ANON): creating it failed and the
// table load went on). Resolving the element followed the Alias to a NULL
// node (ACPICA patch 0034 leaves the element empty, as for a name that is
// not found). _OSC fails (bit 1) unless PALS still reads back.
// Expect: granted as grant-all; no fault (ASan) and no leak.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "PKGALIAS", 1)
{
    // a name as its own alias: ACPICA patch 0014 refuses to create it,
    // and the table load goes on with an Alias node that has no target
    Alias (ANON, ANON)
    Name (PALS, Package () { ANON, One })
    Name (PHLD, Package () { PALS })

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
                // the package is still whole past its empty element: else fail
                If ((SizeOf (PALS) != 0x02) || (DerefOf (PALS [One]) != One))
                {
                    CDW1 |= 0x02
                }
                Return (Arg3)
            }
        }
    }
}
