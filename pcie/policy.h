/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ASPM policy: the decision table (docs/policy.md), the per-link plan
 * and the teardown emulation. Pure functions over struct pcie_topo: they
 * read the registers cached by enumeration and produce an ordered list of
 * config writes (struct aspm_plan); pcie/apply.c is the thin step that
 * performs them.
 */
#ifndef ASPMCTL_PCIE_POLICY_H
#define ASPMCTL_PCIE_POLICY_H

#include "topo.h"
#include "../lib/fmt.h"

/* The last three are Linux 6.1's pcie_aspm.policy= values other than
 * default (= keep): performance, powersave, powersupersave. */
enum aspm_action {
	ASPM_KEEP, ASPM_CLEAR, ASPM_FORCE, ASPM_NOTOUCH,
	ASPM_PERFORMANCE, ASPM_POWERSAVE, ASPM_SUPERSAVE,
};
/* OVR_KEEP is the app's explicit --policy keep (Linux's default policy
 * whatever the FADT says); the kernel has no such override. OVR_DEFAULT
 * is the same under Linux's name; the last three name Linux's policies.
 * All of them are app-only rows of the decision table
 * (tests/vectors/decision-app.tsv). */
enum aspm_override {
	OVR_NONE, OVR_CLEAR, OVR_FORCE, OVR_NOTOUCH, OVR_KEEP,
	OVR_DEFAULT, OVR_PERFORMANCE, OVR_POWERSAVE, OVR_SUPERSAVE,
};
enum aspm_fadt_mode { FADT_MODE_CLEAR, FADT_MODE_NOTOUCH };
/* Where osc_granted came from: nowhere asked (default granted), the user
 * (--osc granted|denied), the firmware's own _OSC (acpi/aml), or the
 * default again because the firmware's answer could not be known. */
enum aspm_osc_source { OSC_SRC_DEFAULT, OSC_SRC_OPTION, OSC_SRC_FIRMWARE, OSC_SRC_FALLBACK };

struct aspm_inputs {
	bool fadt_no_aspm;	/* FADT IAPC_BOOT_ARCH bit 4, when the field exists */
	bool osc_granted;	/* _OSC granted ASPM control to the OS */
	enum aspm_override override;
	enum aspm_fadt_mode fadt_mode;
	enum aspm_osc_source osc_source;	/* the record says it; no row depends on it */
};

/* The decision table: first matching row wins. */
enum aspm_action aspm_decide(const struct aspm_inputs *in);
const char *aspm_action_name(enum aspm_action a);
const char *aspm_override_name(enum aspm_override o);
const char *aspm_fadt_mode_name(enum aspm_fadt_mode m);
const char *aspm_osc_source_name(enum aspm_osc_source s);
/* "none|clear|force|notouch" etc.; -AE_INVAL when unknown. */
int aspm_parse_override(const char *s, enum aspm_override *o);
int aspm_parse_fadt_mode(const char *s, enum aspm_fadt_mode *m);
int aspm_parse_action(const char *s, enum aspm_action *a);

/* One config write, planned. */
enum aspm_step {
	STEP_CCC, STEP_RETRAIN, STEP_ASPM_UP, STEP_ASPM_DOWN, STEP_L1SS,
	STEP_CLKPM, STEP_TEARDOWN, STEP_CCC_RESTORE,
	STEP_L1SS_TIMING,	/* L1SS Control 2, Control 1 timing fields */
	STEP_LTR,		/* Device Control 2 LTR Mechanism Enable */
};
struct aspm_write {
	int fn;			/* index in topo->fn */
	int link;
	uint16_t off;		/* absolute config offset */
	uint8_t width;		/* 2 or 4 */
	uint8_t step;		/* enum aspm_step */
	uint32_t mask;		/* bits this write owns */
	uint32_t old;		/* register value before (model) */
	uint32_t val;		/* value to write: (current & ~mask) | bits */
	/* filled by apply */
	uint32_t readback;
	int8_t result;		/* enum aspm_write_result */
};
/* What became of a planned write (struct aspm_write.result). */
enum aspm_write_result {
	ASPM_WRITE_NOT_DONE = 0,
	ASPM_WRITE_OK = 1,
	ASPM_WRITE_IGNORED = -1,	/* the owned bits read back otherwise */
	ASPM_WRITE_ERROR = -2,		/* the access failed, or reads all-ones */
	ASPM_WRITE_TIMEOUT = -3,	/* retrain: Link Training did not clear */
};
struct aspm_plan {
	struct aspm_write *w;
	unsigned n, cap;
	bool overflow;
	enum aspm_action action;
};

/* Why a link ends where it does, for the records. */
struct aspm_link_plan {
	uint8_t target;		/* ASPM state after the plan */
	bool clkpm_target;
	uint32_t reasons;	/* REASON_* */
	uint8_t ccc;		/* ASPM_CCC_*: Common Clock Configuration on this link */
	uint8_t lnkcap_changed;	/* LNKCAP values that changed after it */
	uint8_t excl_removed;	/* states the exclusions took from target */
	bool excl_clkpm;	/* ... and Clock PM */
};
#define ASPM_CCC_NONE		0	/* no CCC write planned */
#define ASPM_CCC_PENDING	1	/* planned, not made: latencies are pre-CCC */
#define ASPM_CCC_DONE		2	/* made and retrained; LNKCAP read again */
#define ASPM_CCC_TIMEOUT	3	/* retrain timed out; CCC restored */
#define REASON_FADT		(1u << 0)
#define REASON_OVERRIDE		(1u << 1)
#define REASON_OSC		(1u << 2)
#define REASON_NOT_SUPPORTED	(1u << 3)
#define REASON_NON_PCIE		(1u << 4)
#define REASON_PRE_1_1		(1u << 5)
#define REASON_L0S_UP_LAT	(1u << 6)
#define REASON_L0S_DW_LAT	(1u << 7)
#define REASON_L1_LAT		(1u << 8)
#define REASON_BIOS_OFF		(1u << 9)
#define REASON_L1SS_NOT_FORCED	(1u << 11)
#define REASON_L1SS_BIOS_OFF	(1u << 12)
#define REASON_EXCLUDED		(1u << 13)	/* a --disable rule */
#define REASON_L1_2_NO_LTR	(1u << 14)	/* ASPM L1.2 offered, no LTR path */

/* Build link state for the action (sanity, BIOS state, latency checks). */
void aspm_init_links(struct pcie_topo *t, enum aspm_action act);
/* Plan Common Clock Configuration + retrain (keep and force only). */
int aspm_plan_common_clock(struct pcie_topo *t, enum aspm_action act,
			   struct aspm_plan *p);
/* The same for one link (keep: Linux initialises links one by one). */
int aspm_plan_common_clock_link(struct pcie_topo *t, enum aspm_action act,
				int li, struct aspm_plan *p);
/* Linux's pcie_aspm_init_link_state() for link li, as keep runs it: read
 * the link's state again (after its Common Clock Configuration), check
 * its endpoints' latencies along the path, then pcie_config_aspm_path()
 * (li, then every link above it) and Clock PM of li. Links must be
 * initialised parent first (link[] order). */
int aspm_plan_link_init(struct pcie_topo *t, enum aspm_action act, int li,
			struct aspm_plan *p);
/* powersupersave: LTR Mechanism Enable where LTR is supported from the
 * Root Port down (pci_configure_ltr()), parents first. */
int aspm_plan_ltr(struct pcie_topo *t, enum aspm_action act, struct aspm_plan *p);
/* Fill target/clkpm_target/reasons of lp[] from the links' state. */
void aspm_plan_records(const struct pcie_topo *t, const struct aspm_inputs *in,
		       enum aspm_action act, struct aspm_link_plan *lp);
/* Plan the ASPM/L1SS/Clock PM writes of every link in link[] order (clear,
 * force, notouch). lp[] (nlink entries, may be NULL) receives each link's
 * target and reasons. */
int aspm_plan_links(struct pcie_topo *t, const struct aspm_inputs *in,
		    enum aspm_action act, struct aspm_plan *p,
		    struct aspm_link_plan *lp);
/* Emulate hot removal of function fn (and, for a bridge, everything
 * below it), as pcie_aspm_exit_link_state() does; appends writes. */
int aspm_plan_remove(struct pcie_topo *t, enum aspm_action act, int fn,
		     struct aspm_plan *p, struct out *records);

#endif
