// SPDX-License-Identifier: GPL-2.0-only
#include "run.h"
#include "enum.h"
#include "link.h"
#include "../lib/err.h"
#include "../lib/log.h"

/* lp[].ccc from the plan's retrain writes */
static void note_ccc(struct aspm_run *r, unsigned from, bool write)
{
	for (unsigned i = from; i < r->plan.n; i++) {
		const struct aspm_write *w = &r->plan.w[i];

		if (w->step != STEP_RETRAIN || w->link < 0)
			continue;
		if (!write)
			r->lp[w->link].ccc = ASPM_CCC_PENDING;
		else
			r->lp[w->link].ccc = w->result == ASPM_WRITE_TIMEOUT ? ASPM_CCC_TIMEOUT :
							      ASPM_CCC_DONE;
	}
}

/* After a link's Common Clock writes were made: exit latencies may change
 * with the clock (PCIe r5.0 sec 7.5.3.6), read them again. */
static void reread_after_ccc(struct pci_cfg *c, struct aspm_run *r, int li)
{
	unsigned n = aspm_reread_link_lnkcap(c, r->topo, li);

	r->lp[li].lnkcap_changed = (uint8_t)(n > 255 ? 255 : n);
	r->lnkcap_changed += n;
}

/*
 * keep: Linux's order (pcie_aspm_init_link_state() per link, parents
 * first): Common Clock Configuration + retrain of the link, its LNKCAP
 * read again, its endpoints' latencies checked, then
 * pcie_config_aspm_path() from the link up to the root and its Clock PM.
 * Under apply each step's writes are made before the next is planned.
 */
static int keep_phase(struct pci_cfg *c, struct aspm_run *r, bool write)
{
	struct pcie_topo *t = r->topo;
	int rc = 0;

	for (unsigned li = 0; li < t->nlink; li++) {
		unsigned from = r->plan.n;

		rc = aspm_plan_common_clock_link(t, r->action, (int)li, &r->plan) ?: rc;
		if (write && r->plan.n > from) {
			rc = aspm_apply(c, t, &r->plan, from, r->env, &r->st) ?: rc;
			reread_after_ccc(c, r, (int)li);
		}
		note_ccc(r, from, write);
		from = r->plan.n;
		rc = aspm_plan_link_init(t, r->action, (int)li, &r->plan) ?: rc;
		if (write && r->plan.n > from)
			rc = aspm_apply(c, t, &r->plan, from, r->env, &r->st) ?: rc;
	}
	aspm_plan_records(t, &r->in, r->action, r->lp);
	return rc;
}

static int plan_phase(struct pci_cfg *c, struct aspm_run *r, bool write,
		      const struct out *o)
{
	struct pcie_topo *t = r->topo;
	unsigned ccc_end;
	int rc;

	for (unsigned li = 0; li < t->nlink; li++)
		r->lp[li] = (struct aspm_link_plan){ 0 };
	r->plan.action = r->action;
	if (r->action == ASPM_SUPERSAVE)
		aspm_read_l1ss_regs(c, t);
	/* Linux applies every policy but powersave and powersupersave at
	 * link init (pcie_aspm_init_link_state()) */
	if (r->action == ASPM_KEEP || r->action == ASPM_PERFORMANCE) {
		rc = keep_phase(c, r, write);
		rec_links(o, t, r->action, r->lp);
		rec_exclude(o, t, r->excl, r->nexcl, r->action, r->lp);
		return rc;
	}
	/* force (and clear, notouch: no Common Clock there): every link's
	 * Common Clock first, as the kernel's boot does before
	 * pci_enable_device() applies the powersave policy */
	/* LTR (powersupersave), then every link's Common Clock */
	rc = aspm_plan_ltr(t, r->action, &r->plan);
	rc = aspm_plan_common_clock(t, r->action, &r->plan) ?: rc;
	ccc_end = r->plan.n;
	if (write && ccc_end) {
		rc = aspm_apply(c, t, &r->plan, 0, r->env, &r->st) ?: rc;
		for (unsigned i = 0; i < r->plan.n; i++)
			if (r->plan.w[i].step == STEP_RETRAIN)
				reread_after_ccc(c, r, r->plan.w[i].link);
		ccc_end = r->plan.n;	/* restore writes included */
		if (r->lnkcap_changed) {
			log_info("%u LNKCAP value(s) changed after Common Clock Configuration; latencies rechecked",
				 r->lnkcap_changed);
			link_check_all_latencies(t, -1, true);
		}
	}
	note_ccc(r, 0, write);
	rc = aspm_plan_links(t, &r->in, r->action, &r->plan, r->lp) ?: rc;
	if (write && r->plan.n > ccc_end)
		rc = aspm_apply(c, t, &r->plan, ccc_end, r->env, &r->st) ?: rc;
	rec_links(o, t, r->action, r->lp);
	rec_exclude(o, t, r->excl, r->nexcl, r->action, r->lp);
	return rc;
}

int aspm_run(struct pci_cfg *c, struct aspm_run *r, const struct out *o)
{
	struct pcie_topo *t = r->topo;
	int rc = 0, fn;
	char b[16];

	r->action = aspm_decide(&r->in);
	r->plan.n = 0;
	r->plan.overflow = false;
	rec_decision(o, &r->in, r->fadt_valid, r->action);
	aspm_init_links(t, r->action);
	if (aspm_excl_apply(t, r->excl, r->nexcl, NULL))
		log_info("--disable: a rule matches no link (see the aspm exclude records)");
	switch (r->cmd) {
	case CMD_REPORT:
	case CMD_PLAN:
		rc = plan_phase(c, r, false, o);
		if (r->cmd == CMD_PLAN)
			rec_writes(o, t, &r->plan, 0, false);
		break;
	case CMD_APPLY:
		rc = plan_phase(c, r, true, o);
		rec_writes(o, t, &r->plan, 0, true);
		break;
	case CMD_REMOVE: {
		/* the state the OS would have reached, then the removal */
		unsigned start;

		fn = pcie_find_fn(t, r->remove);
		if (fn < 0)
			return log_error(-AE_NOENT, "remove: no function %s",
					 pci_addr_str(r->remove, b));
		rc = plan_phase(c, r, r->remove_apply, o);
		start = r->plan.n;
		/* with --apply those writes were made: report them too */
		if (r->remove_apply)
			rec_writes(o, t, &r->plan, 0, true);
		rc = aspm_plan_remove(t, r->action, fn, &r->plan, (struct out *)o) ?: rc;
		if (r->remove_apply)
			rc = aspm_apply(c, t, &r->plan, start, r->env, &r->st) ?: rc;
		rec_writes(o, t, &r->plan, start, r->remove_apply);
		break;
	}
	}
	if (r->plan.overflow)
		rc = rc ?: -AE_NOSPC;
	return rc;
}
