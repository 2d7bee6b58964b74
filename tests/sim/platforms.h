/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Simulated machines shared by the unit tests (tests/unit/test_policy.c)
 * and the register-level cross-check (tests/xcheck/xcheck.c), so that the
 * app's engine and Linux's aspm.c are checked on the very same hardware.
 */
#ifndef ASPMCTL_TESTS_SIM_PLATFORMS_H
#define ASPMCTL_TESTS_SIM_PLATFORMS_H

#include "build.h"

#define SIM_DC_ANY		SIM_DEVCAP(7, 7, 1)	/* no latency limit, RBER */
#define SIM_LC_P		SIM_LNKCAP(3, 1, 1, 1)	/* L0s 128 ns, L1 2 us, Clock PM */
#define SIM_L1SS_CAP_ALL	(PCI_L1SS_CAP_L1_PM_SS | PCI_L1SS_CAP_ASPM_L1_1 | \
				 PCI_L1SS_CAP_ASPM_L1_2 | PCI_L1SS_CAP_PCIPM_L1_1 | \
				 PCI_L1SS_CAP_PCIPM_L1_2)
#define SIM_L1SS_ON		PCI_L1SS_CTL1_L1SS_MASK	/* all four enables */
#define SIM_L1SS_TIMING		0x00040a00u	/* timing fields: not ours to touch */

/*
 * "The FADT says no ASPM" machine (the 2.6.37 commit's case):
 *   00:1c.0 RP ── 01:00.0 EP   L1 + CLKREQ# + all four L1 PM Substates,
 *                              LTR on the path (L1.2 allowed)
 *   00:1c.1 RP ── 02:00.0 USP ─ 03:00.0 DSP ── 04:00.0/.1 EP (multi-function)
 *                 L1 on the root link (Common Clock as ccc_1c1 says),
 *                 L0s + L1 + CLKREQ# below the switch
 *   00:1c.2 RP ── 05:00.0 EP   nothing enabled
 */
void sim_platform_fadt(struct sim *s, uint16_t ccc_1c1);
/*
 * Common Clock Configuration (PCIe r5.0 sec 7.5.3.7), one link each:
 *   00:01.0 ── 01:00.0  CCC clear at both ends, Slot Clock: to be set
 *   00:02.0 ── 02:00.0  CCC set at both ends: consistent
 *   00:03.0 ── 03:00.0  no Slot Clock on the EP, CCC clear (consistent)
 *   00:04.0 ── 04:00.0  no Slot Clock on the RP, CCC set: to be cleared
 */
void sim_platform_ccc(struct sim *s);
/*
 * Links Linux blacklists unless forced (pcie_aspm_sanity_check()), BIOS L1
 * on both, no Clock PM:
 *   00:01.0 ── 01:00.0 PCIe EP + 01:00.1 conventional PCI function
 *   00:02.0 ── 02:00.0 pre-1.1 EP (no Role-Based Error Reporting)
 */
void sim_platform_sanity(struct sim *s);
/*
 * PCI-PM L1 Substates left on with L1 off (found by make difffuzz, class F
 * of docs/difffuzz.md): no Clock PM, Common Clock set,
 *   00:01.0 RP ── 01:00.0 EP   L1 off, all four substate enables on at
 *                              both ends, no LTR (ASPM L1.2 not supported)
 */
void sim_platform_pcipm(struct sim *s);
/*
 * L1 PM Substates enabled differently at the two ends of a link (found by
 * make difffuzz, docs/difffuzz.md class G): L0s + L1 + Common Clock on
 * both ends, no Clock PM, ASPM and PCI-PM L1.1 supported (no L1.2),
 *   00:01.0 RP ── 01:00.0 EP   L1SS Control 1 enables: up_en, dn_en
 */
void sim_platform_l1ss_split(struct sim *s, uint32_t up_en, uint32_t dn_en);
/*
 * L1 that the link cannot use, set by the BIOS on one end (found by make
 * difffuzz, rule supersave-aggregate): L1 only, exit 2-4 us, an endpoint
 * that accepts 1 us, Common Clock set,
 *   00:01.0 RP ── 01:00.0 EP   L1 enabled on the EP only
 */
void sim_platform_l1_one_end(struct sim *s);
/*
 * Teardown: a switch with two endpoints, L1 only (1 us exit), Common Clock set:
 *   00:01.0 RP ── 01:00.0 USP ─┬ 02:00.0 DSP ── 03:00.0 EP_A (accepts 1 us of L1)
 *                              └ 02:01.0 DSP ── 04:00.0 EP_B (no limit)
 * EP_A keeps the root link out of L1 while it is there. bios_a: extra Link
 * Control bits the BIOS set on EP_A's link (both ends).
 */
void sim_platform_teardown(struct sim *s, uint16_t bios_a);
/* A multi-function endpoint whose two functions both carry the L1 PM
 * Substates capability, everything enabled by the BIOS, LTR on the path. */
void sim_platform_l1ss_mf(struct sim *s);
/*
 * Order across links under keep, (a): a pre-1.1 switch on the root link
 * (its upstream port lacks Role-Based Error Reporting), BIOS L1 there;
 * below it a link whose Common Clock Configuration is clear at both ends
 * (Slot Clock everywhere): it gets CCC + retrain. Linux turns ASPM off on
 * the root link before it touches the Common Clock below.
 *   00:01.0 RP ── 01:00.0 USP (no RBER) ─ 02:00.0 DSP ── 03:00.0 EP
 */
void sim_platform_pre11_ccc(struct sim *s);
/*
 * Order across links under keep, (b): three links in a row, BIOS L1 and
 * Common Clock on all, exit latency 1 us everywhere, the endpoint accepts
 * 1 us: L1 fits its own link (1 us), not the middle one (1 + 1 us) nor the
 * root link (1 + 2 us). Linux disables the middle link, then the root link
 * (pcie_config_aspm_path() upwards).
 *   00:01.0 RP ── 01:00.0 USP ─ 02:00.0 DSP ── 03:00.0 USP ─ 04:00.0 DSP ── 05:00.0 EP
 */
void sim_platform_chain_keep(struct sim *s);
/*
 * A switch whose upstream port sits directly on a root bus (no Root Port):
 * Linux's alloc_pcie_link_state() makes the Downstream Port's link a root
 * link (!pdev->bus->parent->self). L0s + L1 supported, BIOS L1 and Common
 * Clock on that link.
 *   00:00.0 USP ─ 01:00.0 DSP ── 02:00.0 EP
 */
void sim_platform_rootless_switch(struct sim *s);
/*
 * A laptop-like machine, L1 PM Substates everywhere the devices have them
 * (T_POWER_ON and Common_Mode_Restore_Time differ per device), BIOS ASPM
 * L1 only, Common Clock set, no substate enabled:
 *   00:1c.0 RP ── 01:00.0 NVMe 1b36:0010 (class 010802), LTR, Clock PM
 *   00:1c.1 RP ── 02:00.0 Wi-Fi 8086:2723 (class 028000), LTR, Clock PM
 *   00:1c.2 RP ── 03:00.0 USP ─ 04:00.0 DSP ── 05:00.0 NIC 10ec:8168
 *                 (class 020000), no LTR (L1.2 not allowed there), no
 *                 Clock PM; the switch ports have LTR, the Downstream
 *                 Port L1SS, the Upstream Port none
 */
void sim_platform_laptop(struct sim *s);

#endif
