// SPDX-License-Identifier: GPL-2.0-only
// osc-mem-read: _OSC reads a 32-bit SystemMemory field at 0xFED00000 and
// grants PCIe Capability control only when its bit 0 is set. Reads are
// allowed through the platform's mem_read: set => granted (all bits),
// clear => denied pcie-capability-not-granted. Without mem_read: unknown
// read-SystemMemory-0xfed00000.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "MEMRD", 1)
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
            OperationRegion (FLGR, SystemMemory, 0xFED00000, 0x04)
            Field (FLGR, DWordAcc, NoLock, Preserve)
            {
                FLAG,   32
            }
            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, Zero, CDW1)
                CreateDWordField (Arg3, 0x08, CDW3)
                If (((FLAG & One) == Zero))
                {
                    CDW3 &= ~0x10
                }
                Return (Arg3)
            }
        }
    }
}
