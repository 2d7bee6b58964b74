// SPDX-License-Identifier: GPL-2.0-only
#include "run.h"
#include "link.h"
#include "../lib/err.h"
#include "../lib/log.h"

static int plan_phase(struct pci_cfg *c, struct aspm_run *r, bool write,
		      const struct out *o)
{
	struct pcie_topo *t = r->topo;
	unsigned ccc_end;
	int rc;

	rc = aspm_plan_common_clock(t, r->action, &r->plan);
	ccc_end = r->plan.n;
	if (write && ccc_end) {
		rc = aspm_apply(c, t, &r->plan, 0, r->env, &r->st) ?: rc;
		/* exit latencies may change with the clock (PCIe r5.0
		 * 7.5.3.6): read them again before the latency checks */
		r->lnkcap_changed = aspm_reread_lnkcap(c, t);
		if (r->lnkcap_changed) {
			log_info("%u LNKCAP value(s) changed after Common Clock Configuration; latencies rechecked",
				 r->lnkcap_changed);
			link_check_all_latencies(t, -1, true);
		}
	}
	rc = aspm_plan_links(t, &r->in, r->action, &r->plan, r->lp) ?: rc;
	if (write && r->plan.n > ccc_end)
		rc = aspm_apply(c, t, &r->plan, ccc_end, r->env, &r->st) ?: rc;
	report_link_records(o, t, r->action, r->lp);
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
	aspm_print_decision(o, &r->in, r->fadt_valid, r->action);
	aspm_init_links(t, r->action);
	switch (r->cmd) {
	case CMD_REPORT:
	case CMD_PLAN:
		rc = plan_phase(c, r, false, o);
		if (r->cmd == CMD_PLAN)
			report_write_records(o, t, &r->plan, 0, false);
		break;
	case CMD_APPLY:
		rc = plan_phase(c, r, true, o);
		report_write_records(o, t, &r->plan, 0, true);
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
			report_write_records(o, t, &r->plan, 0, true);
		rc = aspm_plan_remove(t, r->action, fn, &r->plan, (struct out *)o) ?: rc;
		if (r->remove_apply)
			rc = aspm_apply(c, t, &r->plan, start, r->env, &r->st) ?: rc;
		report_write_records(o, t, &r->plan, start, r->remove_apply);
		break;
	}
	}
	if (r->plan.overflow)
		rc = rc ?: -AE_NOSPC;
	return rc;
}
