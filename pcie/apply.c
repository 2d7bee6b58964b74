// SPDX-License-Identifier: GPL-2.0-only
/*
 * Applying a plan: the only code in pcie/ that writes registers. Every
 * write is a read-modify-write of the bits the plan owns (as Linux's
 * pcie_capability_clear_and_set_word()), followed by a read-back; a
 * mismatch is reported per register ("hardware ignored the write"), never
 * claimed as done.
 */
#include "apply.h"
#include "pci_regs.h"
#include "../lib/err.h"
#include "../lib/log.h"

static int rd(struct pci_cfg *c, struct pci_addr a, uint16_t off, unsigned width,
	      uint32_t *v)
{
	uint16_t v16;
	int rc;

	if (width == 4)
		return pci_cfg_read32(c, a, off, v);
	rc = pci_cfg_read16(c, a, off, &v16);
	*v = v16;
	return rc;
}

static int wr(struct pci_cfg *c, struct pci_addr a, uint16_t off, unsigned width,
	      uint32_t v)
{
	if (width == 4)
		return pci_cfg_write32(c, a, off, v);
	return pci_cfg_write16(c, a, off, (uint16_t)v);
}

/* Wait until Link Training clears on the upstream port (bounded). */
static int wait_link_training(struct pci_cfg *c, const struct pcie_fn *f,
			      const struct aspm_env *env)
{
	for (unsigned i = 0; i < ASPM_RETRAIN_POLLS; i++) {
		uint16_t sta;

		if (pci_cfg_read16(c, f->addr, f->pcie_cap + PCI_EXP_LNKSTA, &sta))
			return -AE_IO;
		if (sta == 0xffff)
			return -AE_IO;
		if (!(sta & PCI_EXP_LNKSTA_LT))
			return 0;
		if (env && env->delay_us)
			env->delay_us(env->ctx, ASPM_RETRAIN_POLL_US);
	}
	return -AE_TIMEDOUT;
}

/*
 * Training failed (or could not start): put Common Clock Configuration
 * back as it was, as pcie_aspm_configure_common_clock() does: every
 * function below first, then the upstream port (the order the CCC writes
 * were made in). The restore writes go into the plan right after the
 * retrain, step "ccc-restore", so that aspm_apply() makes them with
 * read-back and they are reported like any write. Returns how many.
 */
static unsigned insert_restore(struct pci_cfg *c, struct pcie_topo *t,
			       struct aspm_plan *p, unsigned retrain_idx)
{
	int link = p->w[retrain_idx].link;
	unsigned first = retrain_idx, k = 0;
	char b[16];

	while (first > 0 && p->w[first - 1].link == link &&
	       p->w[first - 1].step == STEP_CCC)
		first--;
	k = retrain_idx - first;
	if (!k)
		return 0;
	if (p->n + k > p->cap) {
		/* no room to record them: restore without records */
		log_error(-AE_NOSPC, "%s: no room in the plan to record the Common Clock restore",
			  pci_addr_str(t->fn[p->w[retrain_idx].fn].addr, b));
		for (unsigned j = first; j < retrain_idx; j++) {
			const struct aspm_write *w = &p->w[j];
			uint32_t cur;

			if (rd(c, t->fn[w->fn].addr, w->off, w->width, &cur))
				continue;
			wr(c, t->fn[w->fn].addr, w->off, w->width,
			   (cur & ~w->mask) | (w->old & w->mask));
			t->fn[w->fn].lnkctl = (uint16_t)((t->fn[w->fn].lnkctl & ~w->mask) |
							 (w->old & w->mask));
		}
		return 0;
	}
	for (unsigned j = p->n; j-- > retrain_idx + 1;)
		p->w[j + k] = p->w[j];
	for (unsigned j = 0; j < k; j++) {
		const struct aspm_write *src = &p->w[first + j];
		struct aspm_write *w = &p->w[retrain_idx + 1 + j];
		struct pcie_fn *f = &t->fn[src->fn];
		uint16_t restored = (uint16_t)((f->lnkctl & ~src->mask) |
					       (src->old & src->mask));

		*w = *src;
		w->step = STEP_CCC_RESTORE;
		w->old = f->lnkctl;
		w->val = restored;
		w->readback = 0;
		w->result = ASPM_WRITE_NOT_DONE;
		f->lnkctl = restored;	/* the model follows */
	}
	p->n += k;
	return k;
}

/* Does this read say the function is gone (all-ones)? */
static bool all_ones(const struct aspm_write *w, uint32_t v)
{
	return (w->width == 2 && v == 0xffff) || v == 0xffffffff;
}

static void write_failed(struct aspm_write *w, struct aspm_apply_stats *st)
{
	w->result = ASPM_WRITE_ERROR;
	st->errors++;
}

/* A retrain that did not end in time: count it, say so (why ends with
 * its separator), and restore Common Clock Configuration after write i. */
static void retrain_gave_up(struct pci_cfg *c, struct pcie_topo *t,
			    struct aspm_plan *p, unsigned i, int rc,
			    const char *why, struct aspm_apply_stats *st)
{
	char b[16];

	st->retrain_timeouts++;
	log_error(rc, "%s: %s restoring Common Clock Configuration",
		  pci_addr_str(t->fn[p->w[i].fn].addr, b), why);
	insert_restore(c, t, p, i);
}

/*
 * Before a retrain: no training in flight before we ask for one (PCIe
 * r6.0.1 sec 7.5.3.7 implementation note). Linux's pcie_retrain_link()
 * gives up when it does not clear in time, and the caller restores
 * Common Clock Configuration: so do we. Returns true when write i was
 * given up that way.
 */
static bool retrain_blocked(struct pci_cfg *c, struct pcie_topo *t,
			    struct aspm_plan *p, unsigned i,
			    const struct aspm_env *env, struct aspm_apply_stats *st)
{
	struct aspm_write *w = &p->w[i];
	const struct pcie_fn *f = &t->fn[w->fn];
	int rc = wait_link_training(c, f, env);
	uint32_t rb;

	if (!rc)
		return false;
	w->result = ASPM_WRITE_TIMEOUT;
	w->readback = 0;
	if (!rd(c, f->addr, w->off, w->width, &rb))
		w->readback = w->old = rb;
	w->val = w->old | PCI_EXP_LNKCTL_RL;
	retrain_gave_up(c, t, p, i, rc,
			"link still training before retrain; not retrained,", st);
	return true;
}

/* Read-modify-write of the owned bits; 0 or the access error. */
static int write_owned(struct pci_cfg *c, const struct pcie_fn *f,
		       struct aspm_write *w, struct aspm_apply_stats *st)
{
	uint32_t cur, val;
	char b[16];
	int rc;

	rc = rd(c, f->addr, w->off, w->width, &cur);
	if (!rc && all_ones(w, cur))
		rc = -AE_IO;	/* the function is gone */
	if (rc) {
		write_failed(w, st);
		return log_error(rc, "%s: cannot read register 0x%x before writing it",
				 pci_addr_str(f->addr, b), w->off);
	}
	val = (cur & ~w->mask) | (w->val & w->mask);
	rc = wr(c, f->addr, w->off, w->width, val);
	if (rc) {
		write_failed(w, st);
		return log_error(rc, "%s: write of 0x%x to register 0x%x failed",
				 pci_addr_str(f->addr, b), val, w->off);
	}
	st->written++;
	w->old = cur;
	w->val = val;
	return 0;
}

/* After Retrain Link: wait for training to end, else restore Common
 * Clock Configuration after write i. */
static void retrain_wait(struct pci_cfg *c, struct pcie_topo *t,
			 struct aspm_plan *p, unsigned i,
			 const struct aspm_env *env, struct aspm_apply_stats *st)
{
	struct aspm_write *w = &p->w[i];
	int rc = wait_link_training(c, &t->fn[w->fn], env);
	uint32_t rb;

	rd(c, t->fn[w->fn].addr, w->off, w->width, &rb);
	w->readback = rb;
	w->result = rc ? ASPM_WRITE_TIMEOUT : ASPM_WRITE_OK;
	if (rc)
		retrain_gave_up(c, t, p, i, rc, "link did not finish retraining;", st);
}

/* Read the register back: did the owned bits take? 0 or -AE_IO when the
 * function stopped answering. */
static int read_back(struct pci_cfg *c, const struct pcie_fn *f,
		     struct aspm_write *w, struct aspm_apply_stats *st)
{
	uint32_t rb;
	char b[16];
	int rc = rd(c, f->addr, w->off, w->width, &rb);

	w->readback = rb;
	if (!rc && all_ones(w, rb)) {
		/* all-ones: the function stopped answering, whatever the
		 * bits we own happen to read as */
		write_failed(w, st);
		return log_error(-AE_IO, "%s: reads all-ones after the write to register 0x%x: not done",
				 pci_addr_str(f->addr, b), w->off);
	}
	if (rc || (rb & w->mask) != (w->val & w->mask)) {
		w->result = ASPM_WRITE_IGNORED;
		st->ignored++;
	} else {
		w->result = ASPM_WRITE_OK;
	}
	return 0;
}

int aspm_apply(struct pci_cfg *c, struct pcie_topo *t, struct aspm_plan *p,
	       unsigned from, const struct aspm_env *env,
	       struct aspm_apply_stats *st)
{
	int first_err = 0, rc;

	for (unsigned i = from; i < p->n; i++) {
		struct aspm_write *w = &p->w[i];
		const struct pcie_fn *f = &t->fn[w->fn];

		if (w->step == STEP_RETRAIN && retrain_blocked(c, t, p, i, env, st))
			continue;
		rc = write_owned(c, f, w, st);
		if (!rc && w->step == STEP_RETRAIN)
			retrain_wait(c, t, p, i, env, st);
		else if (!rc)
			rc = read_back(c, f, w, st);
		first_err = first_err ?: rc;
	}
	return first_err;
}

static unsigned reread_fn_lnkcap(struct pci_cfg *c, struct pcie_fn *f)
{
	uint32_t v;

	if (!(f->flags & FN_PCIE) || (f->flags & FN_REMOVED))
		return 0;
	if (pci_cfg_read32(c, f->addr, f->pcie_cap + PCI_EXP_LNKCAP, &v) ||
	    v == 0xffffffff || v == f->lnkcap)
		return 0;
	f->lnkcap = v;
	return 1;
}

unsigned aspm_reread_link_lnkcap(struct pci_cfg *c, struct pcie_topo *t, int li)
{
	const struct pcie_link *l = &t->link[li];
	unsigned changed = reread_fn_lnkcap(c, &t->fn[l->up]);

	for (int j = l->down_first; j < (int)t->nfn; j++)
		if (t->fn[j].parent == l->up)
			changed += reread_fn_lnkcap(c, &t->fn[j]);
	return changed;
}

void aspm_read_l1ss_regs(struct pci_cfg *c, struct pcie_topo *t)
{
	for (unsigned i = 0; i < t->nfn; i++) {
		struct pcie_fn *f = &t->fn[i];
		uint32_t v;
		uint16_t d;

		if ((f->flags & (FN_SS_READ | FN_GONE | FN_BAD_TYPE)) || !(f->flags & FN_PCIE))
			continue;
		f->flags |= FN_SS_READ;
		/* LTR Mechanism Supported of every PCIe function, as
		 * pci_configure_ltr() reads it (enumeration read it only on
		 * the paths to an ASPM L1.2 capable function) */
		if (!(f->flags & FN_LTR_READ)) {
			f->flags |= FN_LTR_READ;
			if (f->pcie_vers >= 2 &&
			    !pci_cfg_read32(c, f->addr, f->pcie_cap + PCI_EXP_DEVCAP2, &v) &&
			    v != 0xffffffff && (v & PCI_EXP_DEVCAP2_LTR))
				f->flags |= FN_LTR_MECH;
		}
		if (f->l1ss && !pci_cfg_read32(c, f->addr, f->l1ss + PCI_L1SS_CTL2, &v) &&
		    v != 0xffffffff)
			f->l1ss_ctl2 = v;
		if ((f->flags & FN_LTR_MECH) &&
		    !pci_cfg_read16(c, f->addr, f->pcie_cap + PCI_EXP_DEVCTL2, &d) &&
		    d != 0xffff)
			f->devctl2 = d;
	}
}
