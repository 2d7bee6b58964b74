/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What enumeration found: every function (struct pcie_fn) and every link
 * (struct pcie_link). A link is a Root Port, a Switch Downstream Port or a
 * PCI/PCI-X-to-PCIe bridge together with the functions on its secondary
 * bus (PCIe r5.0 sec 1.3; Linux's struct pcie_link_state).
 *
 * Storage is supplied by the caller (no allocator below efi/): fn[] and
 * link[] with their capacities. Functions on one bus are contiguous in
 * fn[], buses are visited in the order firmware's bridges lead to them
 * (pre-order, like Linux's pci_scan_child_bus), so link[] is in the order
 * Linux initialises link state.
 *
 * Types only: pcie/enum.c fills them (enum.h), pcie/link.c pairs the links
 * (link.h), pcie/caps.c walks capabilities (caps.h).
 */
#ifndef ASPMCTL_PCIE_TOPO_H
#define ASPMCTL_PCIE_TOPO_H

#include <stdbool.h>
#include <stdint.h>
#include "cfg.h"

/* ASPM states, Linux's encoding (not register bits) */
#define ASPM_STATE_L0S_UP	0x01	/* upstream direction: set in the downstream component */
#define ASPM_STATE_L0S_DW	0x02	/* downstream direction: set in the upstream port */
#define ASPM_STATE_L1		0x04
#define ASPM_STATE_L1_1		0x08
#define ASPM_STATE_L1_2		0x10
#define ASPM_STATE_L1_1_PCIPM	0x20
#define ASPM_STATE_L1_2_PCIPM	0x40
#define ASPM_STATE_L0S		(ASPM_STATE_L0S_UP | ASPM_STATE_L0S_DW)
#define ASPM_STATE_L1SS		(ASPM_STATE_L1_1 | ASPM_STATE_L1_2 | \
				 ASPM_STATE_L1_1_PCIPM | ASPM_STATE_L1_2_PCIPM)
#define ASPM_STATE_L1SS_PCIPM	(ASPM_STATE_L1_1_PCIPM | ASPM_STATE_L1_2_PCIPM)
#define ASPM_STATE_ALL		(ASPM_STATE_L0S | ASPM_STATE_L1 | ASPM_STATE_L1SS)

/* struct pcie_fn.flags */
#define FN_PCIE		(1u << 0)	/* has a PCI Express capability */
#define FN_BRIDGE	(1u << 1)	/* type 1 header */
#define FN_MULTI	(1u << 2)	/* header type bit 7 (multi-function) */
#define FN_ARI		(1u << 3)	/* downstream port with ARI Forwarding enabled */
#define FN_HOTPLUG	(1u << 4)	/* slot is hot-plug capable */
#define FN_CAP_LOOP	(1u << 8)	/* capability list loops or points into the header */
#define FN_EXTCAP_LOOP	(1u << 9)	/* extended capability list loops */
#define FN_BAD_TYPE	(1u << 10)	/* PCIe capability with an unknown port type */
#define FN_BUS_BAD	(1u << 11)	/* bridge bus numbers invalid (sub < sec, sec <= bus) */
#define FN_BUS_RANGE	(1u << 12)	/* bridge's buses outside the MCFG range */
#define FN_BUS_DUP	(1u << 13)	/* bridge claims a bus already scanned */
#define FN_GONE		(1u << 14)	/* read all-ones after it was found */
#define FN_REMOVED	(1u << 15)	/* teardown emulation removed it */
#define FN_ALIAS	(1u << 16)	/* looks like an alias of function 0 */
#define FN_LTR_PATH	(1u << 17)	/* LTR supported from the Root Port down to it */
#define FN_LTR_READ	(1u << 18)	/* Device Capabilities 2 read for the LTR path */
#define FN_LTR_MECH	(1u << 19)	/* ... and it has LTR Mechanism Supported */
#define FN_SS_READ	(1u << 21)	/* l1ss_ctl2 and devctl2 read */
#define FN_EXT_UNKNOWN	(1u << 20)	/* extended config space not known (a
					 * 256-byte dump): L1SS and LTR unknown */

struct pcie_fn {
	struct pci_addr addr;
	uint16_t vendor, device;
	uint32_t class;		/* base << 16 | sub << 8 | prog-if */
	uint8_t revision;
	uint8_t hdr_type;	/* without the multi-function bit */
	uint8_t primary, secondary, subordinate;	/* bridges only */
	uint8_t pcie_cap;	/* offset of the PCIe capability, 0 if none */
	uint8_t pcie_type;	/* PCI_EXP_TYPE_* when FN_PCIE */
	uint8_t pcie_vers;
	uint32_t devcap;
	uint32_t lnkcap;
	uint16_t lnkctl;
	uint16_t lnksta;
	uint16_t l1ss;		/* L1 PM Substates ext. capability offset, 0 if none */
	uint16_t ltr;		/* LTR ext. capability offset, 0 if none */
	uint32_t l1ss_cap, l1ss_ctl1;
	/* read only for powersupersave (aspm_read_l1ss_regs()) */
	uint32_t l1ss_ctl2;
	uint16_t devctl2;
	uint32_t flags;
	int parent;		/* fn index of the bridge above, -1 on a root bus */
	int depth;		/* tree depth, 0 on a root bus */
	int up_link;		/* link whose downstream side holds this fn, or -1 */
	int down_link;		/* link this fn is the upstream port of, or -1 */
};

/* struct pcie_link.sanity: why Linux would blacklist the link */
#define LINK_NON_PCIE	(1u << 0)	/* a function on the link has no PCIe capability */
#define LINK_PRE_1_1	(1u << 1)	/* a function lacks Role-Based Error Reporting */

struct pcie_link {
	int up;			/* fn index of the upstream port (Root/Downstream Port) */
	int down;		/* fn index of function 0 on the secondary bus (first fn) */
	int down_first;		/* fn[down_first .. down_first + ndown) */
	int ndown;
	int parent;		/* link above (upstream port's switch), -1 at a root */
	int root;		/* link index of the root of this chain */
	int hops;		/* switches between this link and its root link */
	uint32_t sanity;	/* LINK_* */
	/* ASPM state as in Linux's struct pcie_link_state */
	uint8_t aspm_support;	/* both ends support (LNKCAP, L1SS cap) */
	uint8_t aspm_enabled;	/* enabled now (BIOS, or after apply: the target) */
	uint8_t aspm_capable;	/* support minus latency failures */
	uint8_t aspm_default;	/* what the BIOS left */
	uint8_t aspm_disable;	/* explicitly disabled (sanity) */
	uint8_t aspm_bios;	/* enabled in the registers when read, blacklisted
				 * links included (aspm_default is 0 there) */
	bool clkpm_capable, clkpm_enabled, clkpm_default, clkpm_disable;
	bool removed;		/* teardown emulation dropped this link */
	/* exclusions (pcie/exclude.h): states no enabling action may reach */
	uint8_t excl_disable;	/* ASPM_STATE_* */
	bool excl_clkpm;	/* Clock PM */
	uint32_t excl_rules;	/* bit i: rule i reached this link */
	/* latencies (ns) used by the checks, for the report */
	uint32_t l0s_up_ns, l0s_dw_ns, l1_ns;	/* exit latency per end/max */
};

struct pcie_topo {
	struct pcie_fn *fn;
	unsigned nfn, cap_fn;
	struct pcie_link *link;
	unsigned nlink, cap_link;
	unsigned nroots;	/* root buses scanned */
	unsigned problems;	/* anomalies logged during enumeration */
	bool truncated;		/* ran out of fn[] or link[] room */
	bool power_known;	/* Linux knows each function is in D0: after
				 * pci_enable_device() (removal), not at link
				 * init (pcie_config_aspm_link()) */
};

#endif
