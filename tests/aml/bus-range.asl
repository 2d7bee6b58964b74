// SPDX-License-Identifier: GPL-2.0-only
// bus-range: where a root's buses come from, as try_get_root_bridge_busnr()
// and acpi_pci_root_add() take them. PCI0: _CRS says 10-3f (its _BBN 0x20
// is not used). PCI1: _CRS has no bus range (I/O only), _BBN 0x40: 40-ff.
// PCI2: neither: 00-ff. All grant.
DefinitionBlock ("", "DSDT", 2, "ASPMCT", "BUSRANGE", 1)
{
    Scope (\_SB)
    {
        Device (PCI0)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_UID, Zero)
            Name (_BBN, 0x20)
            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000, 0x0010, 0x003F, 0x0000, 0x0030)
            })
            Method (_OSC, 4, NotSerialized)
            {
                Return (Arg3)
            }
        }
        Device (PCI1)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_UID, One)
            Method (_BBN, 0, NotSerialized)
            {
                Return (0x40)
            }
            Name (_CRS, ResourceTemplate ()
            {
                IO (Decode16, 0x0CF8, 0x0CF8, 0x01, 0x08)
            })
            Method (_OSC, 4, NotSerialized)
            {
                Return (Arg3)
            }
        }
        Device (PCI2)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (_UID, 0x02)
            Method (_OSC, 4, NotSerialized)
            {
                Return (Arg3)
            }
        }
    }
}
