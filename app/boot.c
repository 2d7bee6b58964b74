// SPDX-License-Identifier: GPL-2.0-only
/*
 * Chainloader mode. Fails open: an ACPI, policy or configuration error is
 * reported and recorded, and the next loader still starts. Only when
 * there is no next loader or it cannot be started does it return an
 * error, so that the boot manager moves on to the next boot entry. It
 * never waits for a key.
 */
#include "boot.h"
#include "cmd.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"

/*
 * Count this boot (app/tries.h) before anything is written: the counter
 * variable is read, and written one higher unless the limit is reached.
 * Returns false when the policy must not run: too many boots in a row
 * were not confirmed, or the counter cannot be kept.
 */
static bool boot_count(struct app *a, const struct out *o)
{
	const struct cli *cli = &a->cli;
	unsigned limit = cli->tries >= 0 ? (unsigned)cli->tries :
			 cli->in.override == OVR_NOTOUCH ? 0 : TRIES_DEFAULT;
	uint32_t count = 0, store = 0;
	int rc = -AE_NOTSUP;

	if (limit && a->ops->counter_get && a->ops->counter_set)
		rc = a->ops->counter_get(a->ops->ctx, &count);
	if (tries_decide(limit, rc, count, &a->tries, &store)) {
		if (a->ops->counter_set(a->ops->ctx, store))
			a->tries.fallback = FALLBACK_COUNTER;
	}
	rec_tries(o, a->tries.unconfirmed, a->tries.limit,
		  tries_fallback_name(a->tries.fallback));
	if (a->tries.fallback == FALLBACK_UNCONFIRMED)
		log_warn(0, "%llu boots in a row were not confirmed ('aspmctl bless' on Linux): nothing applied, ASPM left as the BIOS set it",
			 (unsigned long long)a->tries.unconfirmed);
	else if (a->tries.fallback == FALLBACK_COUNTER)
		log_warn(0, "this boot cannot be counted: nothing applied, ASPM left as the BIOS set it (--tries 0 applies without counting)");
	return a->tries.fallback == FALLBACK_NONE;
}

/* The policy run: read-only after an unusable configuration (err) or when
 * the boot count says so, else the optional FADT emulation, then apply
 * with the before/after dumps. */
static int boot_policy(struct app *a, int err, const char *what,
		       const struct out *o)
{
	struct cli *cli = &a->cli;
	int rc = 0;

	if (!err && !boot_count(a, o)) {
		rc = app_run(a, CLI_REPORT, NULL, o);
		a->policy_ran = false;
		return rc;
	}
	if (err) {
		out_printf(o, "aspmctl: %s unusable: ASPM left as it is\n", what);
		/* read-only: what the machine looks like, nothing written */
		rc = app_run(a, CLI_REPORT, NULL, o);
		a->policy_ran = false;
		return rc;
	}
	if (cli->emulate_fadt >= 0)
		rc = app_patch_fadt(a, cli->emulate_fadt, o);
	return app_run(a, CLI_APPLY, cli->no_dumps ? NULL : cli->results, o) ?: rc;
}

/* The one-line summary: boot.txt, the console and the EFI variable. */
static void boot_summary(struct app *a, int status, const struct out *o)
{
	struct rec_summary s = {
		.version = ASPMCTL_VERSION,
		.action = a->policy_ran ? aspm_action_name(a->r.action) : "none",
		.next = a->cli.next, .links = a->topo.nlink,
		.written = a->r.st.written, .ignored = a->r.st.ignored,
		.errors = a->cfg.errors, .status = status,
		.unconfirmed = a->tries.unconfirmed, .tries = a->tries.limit,
		.fallback = tries_fallback_name(a->tries.fallback),
	};

	rec_summary_text(a->summary, sizeof(a->summary), &s);
	rec_summary(o, a->summary);
}

/* What a failed chainload appends to the summary. */
static const char *chain_outcome(int rc)
{
	switch (rc < 0 ? -rc : rc) {
	case AE_ACCES:	return "refused";	/* Secure Boot: not in db */
	case AE_NOENT:	return "not-found";
	default:	return "failed";
	}
}

/*
 * Start the next loader. When it cannot be started (or returns an
 * error), the reason goes where the run's results went: a second summary
 * line with chainload=refused|not-found|failed on the console, in
 * boot.txt (written again) and in the variable. Returns 0 when the
 * loader returned success, -AE_ACCES when the security policy refused
 * it, else -AE_NOENT, so that the boot manager moves on.
 */
static int boot_next(struct app *a, bool files)
{
	const struct cli *cli = &a->cli;
	const struct out *console = a->console;
	const struct out *o = files ? &a->cap.both : console;
	size_t n;
	int rc;

	if (!cli->next)
		return -AE_NOENT;
	a->cap.on = files;
	log_set_sink(o, cli->verbose ? LOG_INFO : LOG_WARN);
	a->chainloaded = true;
	rc = a->ops->chainload(a->ops->ctx, cli->next, cli->next_options, o);
	if (rc) {
		a->chainloaded = false;
		out_puts(o, "aspmctl: returning to the boot manager\n");
		n = str_len(a->summary);
		fmt_snprintf(a->summary + n, sizeof(a->summary) - n, " chainload=%s",
			     chain_outcome(rc));
		rec_summary(o, a->summary);
	}
	log_set_sink(console, cli->verbose ? LOG_INFO : LOG_WARN);
	capture_end(&a->cap);
	if (!rc)
		return 0;
	if (files)
		app_write_result(a, &a->cap.buf, cli->results, "boot.txt", console);
	a->ops->publish(a->ops->ctx, a->summary);
	return rc == -AE_ACCES ? rc : -AE_NOENT;
}

int app_boot(struct app *a, int err, const char *what)
{
	struct cli *cli = &a->cli;
	const struct out *console = a->console;
	const struct out *o = a->cap.on ? &a->cap.both : console;
	enum log_level lvl = cli->verbose ? LOG_INFO : LOG_WARN;
	int rc_policy, rc_files = a->cap.on ? 0 : -AE_NOMEM;

	log_set_sink(o, lvl);
	if (!cli->next)
		log_error(-AE_NOENT, "boot: no next loader configured (next = ... in %s or --next)",
			  BOOT_CONF_PATH);
	app_secure_boot_record(a, o);
	a->tries = (struct boot_tries){ .unconfirmed = -1 };	/* not counted */
	rc_policy = boot_policy(a, err, what, o);
	if (a->cap.buf.lost)
		rc_files = -AE_NOSPC;
	boot_summary(a, err ? err : rc_policy ? rc_policy : rc_files, o);
	log_set_sink(console, lvl);
	capture_end(&a->cap);
	if (o != console)
		rc_files = app_write_result(a, &a->cap.buf, cli->results, "boot.txt",
					    console) ?: rc_files;
	if (rc_files)
		out_puts(console, "aspmctl: results not (completely) written to the ESP; continuing\n");
	a->ops->publish(a->ops->ctx, a->summary);
	return boot_next(a, o != console && !a->cap.buf.lost);
}
