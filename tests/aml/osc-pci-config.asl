// SPDX-License-Identifier: GPL-2.0-only
// osc-pci-config: _OSC reads the Vendor ID of 00:00.0 through a
// PCI_Config region of a device under the bridge (_ADR 0), and grants
// everything only when it reads 0x8086 (else keeps PCIe Capability
// control). Reads are allowed through the platform's pci_cfg; without
// one: unknown read-PCI_Config-....
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "PCICFG", 1)
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
            Device (HB00)
            {
                Name (_ADR, Zero)
                OperationRegion (HBCF, PCI_Config, Zero, 0x100)
                Field (HBCF, WordAcc, NoLock, Preserve)
                {
                    VID0,   16
                }
            }
            Method (_OSC, 4, NotSerialized)
            {
                CreateDWordField (Arg3, Zero, CDW1)
                CreateDWordField (Arg3, 0x08, CDW3)
                If ((^HB00.VID0 != 0x8086))
                {
                    CDW3 &= ~0x10
                }
                Return (Arg3)
            }
        }
    }
}
