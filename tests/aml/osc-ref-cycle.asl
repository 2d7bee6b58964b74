// SPDX-License-Identifier: GPL-2.0-only
// osc-ref-cycle: _OSC builds references RA -> RB -> RC -> RB and asks
// ObjectType (RA). ACPICA stopped only on a cycle back to RA, so it looped
// in C for ever, below any AML loop budget (ACPICA patch 0021). Expect:
// unknown with a reason (the evaluation fails), no hang.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "REFCYCLE", 1)
{
    Name (RA, Zero)
    Name (RB, Zero)
    Name (RC, Zero)

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
                // RA -> RB -> RC -> RB: a chain that runs into a cycle
                CopyObject (RefOf (RC), RB)
                CopyObject (RefOf (RB), RC)
                CopyObject (RefOf (RB), RA)
                CDW1 |= (ObjectType (RA) & Zero)
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
