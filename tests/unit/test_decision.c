// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decision table, row by row from tests/vectors/decision.tsv (the file
 * the kernel series' KUnit suite runs too). The file is read at run time:
 * the path is $ASPMCTL_DECISION_TSV, else tests/vectors/decision.tsv
 * relative to the working directory (`make unit` runs from the repo root).
 * The app-only overrides (keep and Linux's policy names) are in
 * tests/vectors/decision-app.tsv beside it ($ASPMCTL_DECISION_APP_TSV).
 */
#include <stdio.h>
#include <stdlib.h>
#include "common.h"
#include "../../pcie/policy.h"
#include "../../lib/err.h"

#define DECISION_ROWS	32	/* 4 overrides x 2 _OSC x 2 FADT flag x 2 modes */
#define APP_ROWS	40	/* keep, default, performance, powersave,
				 * powersupersave x the same 8 inputs */

struct row {
	unsigned lineno;
	struct aspm_inputs in;
	enum aspm_action action;
	char text[256];
};

static const char *vectors_path(void)
{
	const char *p = getenv("ASPMCTL_DECISION_TSV");

	return p && *p ? p : "tests/vectors/decision.tsv";
}

/* Split a line on tabs into at most max fields (in place). */
static unsigned split_tabs(char *s, char **field, unsigned max)
{
	unsigned n = 0;

	while (n < max) {
		field[n++] = s;
		s = strchr(s, '\t');
		if (!s)
			break;
		*s++ = '\0';
	}
	return s ? max + 1 : n;	/* max + 1: too many fields */
}

static const char *app_vectors_path(void)
{
	const char *p = getenv("ASPMCTL_DECISION_APP_TSV");

	return p && *p ? p : "tests/vectors/decision-app.tsv";
}

static void parse_row(char *line, unsigned lineno, struct row *r, bool app)
{
	char *f[5];
	unsigned n;

	snprintf(r->text, sizeof(r->text), "%s", line);
	r->lineno = lineno;
	n = split_tabs(line, f, 5);
	if (n != 5)
		fail_msg("decision.tsv:%u: %u fields, expected 5: \"%s\"", lineno, n, r->text);
	if (aspm_parse_override(f[0], &r->in.override))
		fail_msg("decision.tsv:%u: bad override \"%s\"", lineno, f[0]);
	/* the kernel's table never names an app-only override; the app's
	 * table names only those */
	if (app != (r->in.override >= OVR_KEEP))
		fail_msg("line %u: override \"%s\" in the wrong table", lineno, f[0]);
	if (!strcmp(f[1], "granted"))
		r->in.osc_granted = true;
	else if (!strcmp(f[1], "denied"))
		r->in.osc_granted = false;
	else
		fail_msg("decision.tsv:%u: bad os_control \"%s\"", lineno, f[1]);
	if (!strcmp(f[2], "1"))
		r->in.fadt_no_aspm = true;
	else if (!strcmp(f[2], "0"))
		r->in.fadt_no_aspm = false;
	else
		fail_msg("decision.tsv:%u: bad fadt_no_aspm \"%s\"", lineno, f[2]);
	if (aspm_parse_fadt_mode(f[3], &r->in.fadt_mode))
		fail_msg("decision.tsv:%u: bad fadt_mode \"%s\"", lineno, f[3]);
	if (aspm_parse_action(f[4], &r->action))
		fail_msg("decision.tsv:%u: bad action \"%s\"", lineno, f[4]);
}

/* Read every data row; comments (#) and blank lines are skipped. */
static unsigned read_rows_from(const char *path, struct row *rows, unsigned max,
			       bool app)
{
	FILE *fp = fopen(path, "r");
	char line[256];
	unsigned n = 0, lineno = 0;

	if (!fp)
		fail_msg("cannot open %s (run from the repository root or set ASPMCTL_DECISION_TSV)",
			 path);
	while (fgets(line, sizeof(line), fp)) {
		size_t len = strlen(line);

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		if (n >= max) {
			fclose(fp);
			fail_msg("%s: more than %u rows", path, max);
		}
		parse_row(line, lineno, &rows[n++], app);
	}
	fclose(fp);
	return n;
}

static unsigned read_rows(struct row *rows, unsigned max)
{
	return read_rows_from(vectors_path(), rows, max, false);
}

static void test_every_row(void **state)
{
	static struct row rows[64];
	unsigned n;

	(void)state;
	n = read_rows(rows, 64);
	assert_int_equal(n, DECISION_ROWS);
	for (unsigned i = 0; i < n; i++) {
		enum aspm_action got = aspm_decide(&rows[i].in);

		if (got != rows[i].action)
			fail_msg("decision.tsv:%u \"%s\": aspm_decide() says %s",
				 rows[i].lineno, rows[i].text, aspm_action_name(got));
	}
}

/* The 32 rows are every combination of the inputs, each exactly once,
 * so "every row passes" means the whole table is covered. */
static void test_rows_cover_every_input_once(void **state)
{
	static struct row rows[64];
	unsigned seen[4][2][2][2] = { { { { 0 } } } };
	unsigned n;

	(void)state;
	n = read_rows(rows, 64);
	assert_int_equal(n, DECISION_ROWS);
	for (unsigned i = 0; i < n; i++) {
		const struct aspm_inputs *in = &rows[i].in;

		assert_true(in->override <= OVR_NOTOUCH);
		seen[in->override][in->osc_granted][in->fadt_no_aspm][in->fadt_mode]++;
	}
	for (unsigned o = 0; o < 4; o++)
		for (unsigned g = 0; g < 2; g++)
			for (unsigned f = 0; f < 2; f++)
				for (unsigned m = 0; m < 2; m++)
					if (seen[o][g][f][m] != 1)
						fail_msg("override=%s osc=%s fadt=%u mode=%s appears %u times",
							 aspm_override_name(o), g ? "granted" : "denied",
							 f, aspm_fadt_mode_name(m), seen[o][g][f][m]);
}

/* The DESIGN table, first match wins, independently of the data file:
 * the file could be wrong in the same way as the code. */
static void test_design_rows(void **state)
{
	(void)state;
	for (unsigned g = 0; g < 2; g++)
		for (unsigned f = 0; f < 2; f++)
			for (unsigned m = 0; m < 2; m++) {
				struct aspm_inputs in = { .fadt_no_aspm = f, .osc_granted = g,
							  .fadt_mode = m };

				in.override = OVR_FORCE;
				assert_int_equal(aspm_decide(&in), ASPM_FORCE);
				in.override = OVR_CLEAR;
				assert_int_equal(aspm_decide(&in), ASPM_CLEAR);
				in.override = OVR_NOTOUCH;
				assert_int_equal(aspm_decide(&in), ASPM_NOTOUCH);
				/* app-only --policy keep */
				in.override = OVR_KEEP;
				assert_int_equal(aspm_decide(&in), ASPM_KEEP);
				in.override = OVR_NONE;
				if (f)	/* the FADT wins over a refused _OSC */
					assert_int_equal(aspm_decide(&in),
							 m == FADT_MODE_CLEAR ? ASPM_CLEAR : ASPM_NOTOUCH);
				else
					assert_int_equal(aspm_decide(&in), g ? ASPM_KEEP : ASPM_NOTOUCH);
			}
}

/* The app-only rows: each override wins over every other input, and
 * every combination of them appears once. */
static void test_app_rows(void **state)
{
	static struct row rows[64];
	unsigned seen[OVR_SUPERSAVE + 1][2][2][2] = { { { { 0 } } } };
	unsigned n;

	(void)state;
	n = read_rows_from(app_vectors_path(), rows, 64, true);
	assert_int_equal(n, APP_ROWS);
	for (unsigned i = 0; i < n; i++) {
		const struct aspm_inputs *in = &rows[i].in;
		enum aspm_action got = aspm_decide(in);

		if (got != rows[i].action)
			fail_msg("decision-app.tsv:%u \"%s\": aspm_decide() says %s",
				 rows[i].lineno, rows[i].text, aspm_action_name(got));
		seen[in->override][in->osc_granted][in->fadt_no_aspm][in->fadt_mode]++;
	}
	for (unsigned o = OVR_KEEP; o <= OVR_SUPERSAVE; o++)
		for (unsigned g = 0; g < 2; g++)
			for (unsigned f = 0; f < 2; f++)
				for (unsigned m = 0; m < 2; m++)
					if (seen[o][g][f][m] != 1)
						fail_msg("override=%s appears %u times", aspm_override_name(o),
							 seen[o][g][f][m]);
}

static void test_names_round_trip(void **state)
{
	enum aspm_override o;
	enum aspm_fadt_mode m;
	enum aspm_action a;

	(void)state;
	for (int i = OVR_NONE; i <= OVR_SUPERSAVE; i++) {
		assert_int_equal(aspm_parse_override(aspm_override_name(i), &o), 0);
		assert_int_equal(o, i);
	}
	for (int i = FADT_MODE_CLEAR; i <= FADT_MODE_NOTOUCH; i++) {
		assert_int_equal(aspm_parse_fadt_mode(aspm_fadt_mode_name(i), &m), 0);
		assert_int_equal(m, i);
	}
	for (int i = ASPM_KEEP; i <= ASPM_SUPERSAVE; i++) {
		assert_int_equal(aspm_parse_action(aspm_action_name(i), &a), 0);
		assert_int_equal(a, i);
	}
	assert_int_equal(aspm_parse_override("off", &o), -AE_INVAL);
	assert_int_equal(aspm_parse_override("Force", &o), -AE_INVAL);
	assert_int_equal(aspm_parse_fadt_mode("", &m), -AE_INVAL);
	assert_int_equal(aspm_parse_action(NULL, &a), -AE_INVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_rows_cover_every_input_once),
		cmocka_unit_test(test_design_rows),
		cmocka_unit_test(test_app_rows),
		cmocka_unit_test(test_names_round_trip),
	};

	return cmocka_run_group_tests_name("decision", tests, NULL, NULL);
}
