// SPDX-License-Identifier: GPL-2.0-only
// osc-mem-write: _OSC stores into a SystemMemory field (a mailbox at
// 0xFED40000). Refused. Expect: unknown write-SystemMemory-0xfed40000, a
// refused 32-bit write of 0x1234 recorded.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "MEMWR", 1)
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
            OperationRegion (MBXR, SystemMemory, 0xFED40000, 0x10)
            Field (MBXR, DWordAcc, NoLock, Preserve)
            {
                MBOX,   32
            }
            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, Zero, CDW1)
                CreateDWordField (Arg3, 0x08, CDW3)
                MBOX = 0x1234
                Return (Arg3)
            }
        }
    }
}
