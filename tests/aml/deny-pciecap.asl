// SPDX-License-Identifier: GPL-2.0-only
// deny-pciecap: the firmware keeps PCIe Capability control (bit 4): its
// answer masks it out (and flags the capabilities-mask error, no error on
// a query). Linux queries again with what is left, gets the same answer
// and, PCIe Capability control missing, requests nothing: AE_SUPPORT, so
// pcie_no_aspm(). Expect: denied pcie-capability-not-granted, control
// [PCIeHotplug SHPCHotplug PME AER LTR DPC], two queries.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "DENYPCIE", 1)
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

            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, Zero, CDW1)
                CreateDWordField (Arg3, 0x08, CDW3)
                Local0 = (CDW3 & ~0x10)
                If ((CDW3 != Local0))
                {
                    CDW1 |= 0x10
                }
                CDW3 = Local0
                Return (Arg3)
            }
        }
    }
}
