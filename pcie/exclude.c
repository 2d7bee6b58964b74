// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-device exclusions, after Linux 6.1's __pci_disable_link_state():
 * the link a function sits on (pcie_aspm_get_link(): its upstream
 * bridge's link state) gets link->aspm_disable bits; L1 takes the L1 PM
 * Substates with it ("L1 PM substates require L1"); CLKPM sets
 * link->clkpm_disable. The policy (policy.c) masks every enabling
 * action's target with them; clear and notouch ignore them.
 */
#include "exclude.h"
#include "../lib/err.h"
#include "../lib/util.h"

static const struct {
	const char *name;
	uint8_t states;
	bool clkpm;
} state_names[] = {
	{ "L0s", ASPM_STATE_L0S, false },
	/* __pci_disable_link_state(): PCIE_LINK_STATE_L1 */
	{ "L1", ASPM_STATE_L1 | ASPM_STATE_L1SS, false },
	{ "L1.1", ASPM_STATE_L1_1 | ASPM_STATE_L1_1_PCIPM, false },
	{ "L1.2", ASPM_STATE_L1_2 | ASPM_STATE_L1_2_PCIPM, false },
	{ "clkpm", 0, true },
	{ "all", ASPM_STATE_ALL, true },
};

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c;
}

/* case-insensitive compare of s[0..n) with the whole of word */
static bool word_is(const char *s, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n && word[i]; i++)
		if (lower((unsigned char)s[i]) != lower((unsigned char)word[i]))
			return false;
	return i == n && !word[i];
}

static int parse_states(const char *s, size_t len, struct aspm_excl *e)
{
	size_t i = 0;

	if (!len)
		return -AE_INVAL;
	while (i <= len) {
		size_t j = i;
		unsigned k;

		while (j < len && s[j] != ',')
			j++;
		for (k = 0; k < ARRAY_SIZE(state_names); k++)
			if (word_is(s + i, j - i, state_names[k].name))
				break;
		if (k == ARRAY_SIZE(state_names))
			return -AE_INVAL;
		e->states |= state_names[k].states;
		e->clkpm = e->clkpm || state_names[k].clkpm;
		i = j + 1;
	}
	return 0;
}

/* exactly n hex digits (n > 0) of s, up to its end */
static int parse_hex_exact(const char *s, size_t n, uint32_t *v)
{
	*v = 0;
	if (str_len(s) != n || !n)
		return -AE_INVAL;
	for (size_t i = 0; i < n; i++) {
		int d = hex_digit(s[i]);

		if (d < 0)
			return -AE_INVAL;
		*v = *v << 4 | (uint32_t)d;
	}
	return 0;
}

static int parse_match(const char *m, struct aspm_excl *e)
{
	uint32_t v, d;
	size_t len = str_len(m);

	if (len > 6 && word_is(m, 6, "class:")) {
		e->kind = EXCL_CLASS;
		e->class_digits = (uint8_t)(len - 6);
		if (e->class_digits > 6 || parse_hex_exact(m + 6, len - 6, &v))
			return -AE_INVAL;
		e->class_code = v << 4 * (6 - e->class_digits);
		return 0;
	}
	if (len == 9 && m[4] == ':') {
		char vid[5];

		str_copy(vid, m, sizeof(vid));
		if (parse_hex_exact(vid, 4, &v) || parse_hex_exact(m + 5, 4, &d))
			return -AE_INVAL;
		e->kind = EXCL_ID;
		e->vendor = (uint16_t)v;
		e->device = (uint16_t)d;
		return 0;
	}
	e->kind = EXCL_BDF;
	return pci_addr_parse(m, &e->addr);
}

int aspm_excl_parse(const char *s, struct aspm_excl *e)
{
	const char *at = s;

	mem_set(e, 0, sizeof(*e));
	if (!s || str_len(s) >= sizeof(e->text))
		return -AE_INVAL;
	str_copy(e->text, s, sizeof(e->text));
	while (*at && *at != '@')
		at++;
	if (!*at)
		return -AE_INVAL;
	if (parse_states(s, (size_t)(at - s), e))
		return -AE_INVAL;
	return parse_match(at + 1, e);
}

bool aspm_excl_match(const struct aspm_excl *e, const struct pcie_fn *f)
{
	uint32_t mask;

	switch (e->kind) {
	case EXCL_ID:
		return f->vendor == e->vendor && f->device == e->device;
	case EXCL_BDF:
		return f->addr.seg == e->addr.seg && f->addr.bus == e->addr.bus &&
		       f->addr.devfn == e->addr.devfn;
	case EXCL_CLASS:
		mask = 0xffffffu << 4 * (6 - e->class_digits) & 0xffffffu;
		return (f->class & mask) == e->class_code;
	}
	return false;
}

static void excl_link(struct pcie_topo *t, int li, const struct aspm_excl *e,
		      unsigned i, unsigned *count)
{
	struct pcie_link *l;

	if (li < 0 || li >= (int)t->nlink)
		return;
	l = &t->link[li];
	if (!(l->excl_rules & (1u << i)))
		(*count)++;
	l->excl_rules |= 1u << i;
	l->excl_disable |= e->states;
	l->excl_clkpm = l->excl_clkpm || e->clkpm;
}

unsigned aspm_excl_apply(struct pcie_topo *t, const struct aspm_excl *e,
			 unsigned n, unsigned *matched)
{
	unsigned unmatched = 0;

	for (unsigned li = 0; li < t->nlink; li++) {
		t->link[li].excl_disable = 0;
		t->link[li].excl_clkpm = false;
		t->link[li].excl_rules = 0;
	}
	for (unsigned i = 0; i < n && i < 32; i++) {
		unsigned count = 0;

		for (unsigned j = 0; j < t->nfn; j++) {
			const struct pcie_fn *f = &t->fn[j];

			if (!aspm_excl_match(&e[i], f))
				continue;
			/* pcie_aspm_get_link(): a PCIe function below a PCIe
			 * bridge that owns a link */
			if (f->flags & FN_PCIE)
				excl_link(t, f->up_link, &e[i], i, &count);
			excl_link(t, f->down_link, &e[i], i, &count);
		}
		if (matched)
			matched[i] = count;
		if (!count)
			unmatched++;
	}
	return unmatched;
}
