// SPDX-License-Identifier: GPL-2.0-only
// mlc-write: module-level code (outside any method) stores to the SMI
// port (SystemIO 0xB2) while the table loads. The store is refused and
// recorded under the evaluation "load"; the bridge's _OSC is still
// asked (it grants all).
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "MLCWRITE", 1)
{
    OperationRegion (SMIP, SystemIO, 0xB2, One)
    Field (SMIP, ByteAcc, NoLock, Preserve)
    {
        SMIC,   8
    }
    SMIC = 0x5A
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

                Return (Arg3)
            }
        }
    }
}
