// SPDX-License-Identifier: GPL-2.0-only
// osc-smi: _OSC writes the SMI command port (SystemIO 0xB2) through an
// operation-region field, as firmware-first platforms do to tell SMM. The
// write is refused and stops the evaluation. Expect: unknown
// write-SystemIO-0xb2, one refused 8-bit write of 0xa5 recorded.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "SMIPORT", 1)
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
            OperationRegion (SMIP, SystemIO, 0xB2, One)
            Field (SMIP, ByteAcc, NoLock, Preserve)
            {
                SMIC,   8
            }
            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, Zero, CDW1)
                CreateDWordField (Arg3, 0x08, CDW3)
                SMIC = 0xA5
                Return (Arg3)
            }
        }
    }
}
