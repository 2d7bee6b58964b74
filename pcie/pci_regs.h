/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PCI/PCIe configuration-space register definitions, named as in the
 * PCI Express Base Specification r5.0 (sec 7.5) and Linux's pci_regs.h so
 * that a reader can grep either.
 */
#ifndef ASPMCTL_PCI_REGS_H
#define ASPMCTL_PCI_REGS_H

#define PCI_CFG_SPACE_SIZE	256
#define PCI_CFG_SPACE_EXP_SIZE	4096

/* Type 0/1 common header (PCI Local Bus 3.0 sec 6.1; PCIe r5.0 7.5.1) */
#define PCI_VENDOR_ID		0x00
#define PCI_DEVICE_ID		0x02
#define PCI_COMMAND		0x04
#define PCI_STATUS		0x06
#define  PCI_STATUS_CAP_LIST	0x0010
#define PCI_CLASS_REVISION	0x08	/* revision in bits 7:0 */
#define PCI_CLASS_PROG		0x09
#define PCI_CLASS_DEVICE	0x0a	/* base class << 8 | sub class */
#define PCI_HEADER_TYPE		0x0e
#define  PCI_HEADER_TYPE_MASK	0x7f
#define  PCI_HEADER_TYPE_NORMAL	0
#define  PCI_HEADER_TYPE_BRIDGE	1
#define  PCI_HEADER_TYPE_CARDBUS 2
#define  PCI_HEADER_TYPE_MFD	0x80
#define PCI_CAPABILITY_LIST	0x34
#define PCI_CB_CAPABILITY_LIST	0x14

/* Type 1 (bridge) header (PCIe r5.0 sec 7.5.1.3) */
#define PCI_PRIMARY_BUS		0x18
#define PCI_SECONDARY_BUS	0x19
#define PCI_SUBORDINATE_BUS	0x1a

/* Vendor ID values with special meaning */
#define PCI_VENDOR_ID_NONE	0xffff	/* no function (master abort) */
/* Configuration Request Retry Status: a Root Port with CRS Software
 * Visibility returns 0x0001 in the Vendor ID while the function is not
 * ready (PCIe r5.0 sec 2.3.2). */
#define PCI_VENDOR_ID_CRS	0x0001

/* Capability IDs */
#define PCI_CAP_ID_PM		0x01
#define PCI_CAP_ID_MSI		0x05
#define PCI_CAP_ID_EXP		0x10	/* PCI Express */
#define PCI_CAP_ID_MSIX		0x11
#define PCI_CAP_LIST_ID		0
#define PCI_CAP_LIST_NEXT	1

/* PCI Express Capability (PCIe r5.0 sec 7.5.3) */
#define PCI_EXP_FLAGS		0x02
#define  PCI_EXP_FLAGS_VERS	0x000f
#define  PCI_EXP_FLAGS_TYPE	0x00f0
#define  PCI_EXP_FLAGS_SLOT	0x0100
#define   PCI_EXP_TYPE_ENDPOINT	   0x0
#define   PCI_EXP_TYPE_LEG_END	   0x1
#define   PCI_EXP_TYPE_ROOT_PORT   0x4
#define   PCI_EXP_TYPE_UPSTREAM	   0x5
#define   PCI_EXP_TYPE_DOWNSTREAM  0x6
#define   PCI_EXP_TYPE_PCI_BRIDGE  0x7	/* PCIe to PCI/PCI-X bridge */
#define   PCI_EXP_TYPE_PCIE_BRIDGE 0x8	/* PCI/PCI-X to PCIe bridge */
#define   PCI_EXP_TYPE_RC_END	   0x9
#define   PCI_EXP_TYPE_RC_EC	   0xa
#define PCI_EXP_DEVCAP		0x04	/* sec 7.5.3.3 */
#define  PCI_EXP_DEVCAP_L0S	0x000001c0	/* Endpoint L0s Acceptable Latency */
#define  PCI_EXP_DEVCAP_L0S_SHIFT 6
#define  PCI_EXP_DEVCAP_L1	0x00000e00	/* Endpoint L1 Acceptable Latency */
#define  PCI_EXP_DEVCAP_L1_SHIFT 9
#define  PCI_EXP_DEVCAP_RBER	0x00008000	/* Role-Based Error Reporting */
#define PCI_EXP_DEVCTL		0x08
#define PCI_EXP_LNKCAP		0x0c	/* sec 7.5.3.6 */
#define  PCI_EXP_LNKCAP_SLS	0x0000000f
#define  PCI_EXP_LNKCAP_MLW	0x000003f0
#define  PCI_EXP_LNKCAP_ASPMS	0x00000c00	/* ASPM Support */
#define  PCI_EXP_LNKCAP_ASPM_L0S 0x00000400
#define  PCI_EXP_LNKCAP_ASPM_L1	0x00000800
#define  PCI_EXP_LNKCAP_L0SEL	0x00007000	/* L0s Exit Latency */
#define  PCI_EXP_LNKCAP_L0SEL_SHIFT 12
#define  PCI_EXP_LNKCAP_L1EL	0x00038000	/* L1 Exit Latency */
#define  PCI_EXP_LNKCAP_L1EL_SHIFT 15
#define  PCI_EXP_LNKCAP_CLKPM	0x00040000	/* Clock Power Management */
#define  PCI_EXP_LNKCAP_PN	0xff000000	/* Port Number */
#define  PCI_EXP_LNKCAP_PN_SHIFT 24
#define PCI_EXP_LNKCTL		0x10	/* sec 7.5.3.7 */
#define  PCI_EXP_LNKCTL_ASPMC	0x0003	/* ASPM Control */
#define  PCI_EXP_LNKCTL_ASPM_L0S 0x0001
#define  PCI_EXP_LNKCTL_ASPM_L1	0x0002
#define  PCI_EXP_LNKCTL_RCB	0x0008
#define  PCI_EXP_LNKCTL_LD	0x0010
#define  PCI_EXP_LNKCTL_RL	0x0020	/* Retrain Link */
#define  PCI_EXP_LNKCTL_CCC	0x0040	/* Common Clock Configuration */
#define  PCI_EXP_LNKCTL_ES	0x0080
#define  PCI_EXP_LNKCTL_CLKREQ_EN 0x0100	/* Enable Clock Power Management */
#define PCI_EXP_LNKSTA		0x12	/* sec 7.5.3.8 */
#define  PCI_EXP_LNKSTA_LT	0x0800	/* Link Training */
#define  PCI_EXP_LNKSTA_SLC	0x1000	/* Slot Clock Configuration */
#define  PCI_EXP_LNKSTA_DLLLA	0x2000
#define PCI_EXP_SLTSTA		0x1a	/* sec 7.5.3.11 */
#define  PCI_EXP_SLTSTA_PDS	0x0040	/* Presence Detect State */
#define PCI_EXP_SLTCAP		0x14
#define  PCI_EXP_SLTCAP_HPC	0x00000040	/* Hot-Plug Capable */
#define PCI_EXP_DEVCAP2		0x24
#define  PCI_EXP_DEVCAP2_ARI	0x00000020	/* ARI Forwarding Supported */
#define  PCI_EXP_DEVCAP2_LTR	0x00000800	/* LTR Mechanism Supported (PCIe r5.0 7.5.3.15) */
#define PCI_EXP_DEVCTL2		0x28
#define  PCI_EXP_DEVCTL2_ARI	0x0020	/* ARI Forwarding Enable */
#define  PCI_EXP_DEVCTL2_LTR_EN	0x0400	/* LTR Mechanism Enable */

/* Extended capabilities (PCIe r5.0 sec 7.6) */
#define PCI_EXT_CAP_ID(h)	((h) & 0xffff)
#define PCI_EXT_CAP_VER(h)	(((h) >> 16) & 0xf)
#define PCI_EXT_CAP_NEXT(h)	(((h) >> 20) & 0xffc)
#define PCI_EXT_CAP_ID_ARI	0x0e
#define PCI_EXT_CAP_ID_LTR	0x18
#define PCI_EXT_CAP_ID_L1SS	0x1e

/* Latency Tolerance Reporting (PCIe r5.0 sec 7.8.2) */
#define PCI_LTR_MAX_SNOOP_LAT	0x04
#define PCI_LTR_MAX_NOSNOOP_LAT	0x06
#define  PCI_LTR_LAT_MASK	0x1fff	/* Value 9:0, Scale 12:10 */

/* L1 PM Substates (PCIe r5.0 sec 7.8.3) */
#define PCI_L1SS_CAP		0x04
#define  PCI_L1SS_CAP_PCIPM_L1_2 0x00000001
#define  PCI_L1SS_CAP_PCIPM_L1_1 0x00000002
#define  PCI_L1SS_CAP_ASPM_L1_2	0x00000004
#define  PCI_L1SS_CAP_ASPM_L1_1	0x00000008
#define  PCI_L1SS_CAP_L1_PM_SS	0x00000010
#define  PCI_L1SS_CAP_CM_RESTORE_TIME 0x0000ff00	/* Port Common_Mode_Restore_Time, us */
#define  PCI_L1SS_CAP_P_PWR_ON_SCALE 0x00030000	/* Port T_POWER_ON scale */
#define  PCI_L1SS_CAP_P_PWR_ON_VALUE 0x00f80000	/* Port T_POWER_ON value */
#define PCI_L1SS_CTL1		0x08
#define  PCI_L1SS_CTL1_PCIPM_L1_2 0x00000001
#define  PCI_L1SS_CTL1_PCIPM_L1_1 0x00000002
#define  PCI_L1SS_CTL1_ASPM_L1_2 0x00000004
#define  PCI_L1SS_CTL1_ASPM_L1_1 0x00000008
#define  PCI_L1SS_CTL1_L1SS_MASK 0x0000000f
#define  PCI_L1SS_CTL1_L1_2_MASK 0x00000005	/* ASPM and PCI-PM L1.2 */
#define  PCI_L1SS_CTL1_CM_RESTORE_TIME 0x0000ff00	/* Common_Mode_Restore_Time */
#define  PCI_L1SS_CTL1_LTR_L12_TH_VALUE 0x03ff0000	/* LTR_L1.2_THRESHOLD_Value */
#define  PCI_L1SS_CTL1_LTR_L12_TH_SCALE 0xe0000000	/* LTR_L1.2_THRESHOLD_Scale */
#define PCI_L1SS_CTL2		0x0c
#define  PCI_L1SS_CTL2_T_PWR_ON_SCALE 0x00000003	/* T_POWER_ON Scale */
#define  PCI_L1SS_CTL2_T_PWR_ON_VALUE 0x000000f8	/* T_POWER_ON Value */

/* Devfn helpers */
#define PCI_DEVFN(d, f)		((uint8_t)((((d) & 0x1f) << 3) | ((f) & 7)))
#define PCI_SLOT(devfn)		(((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn)		((devfn) & 7)

#endif
