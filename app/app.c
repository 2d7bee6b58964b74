// SPDX-License-Identifier: GPL-2.0-only
/*
 * One start of aspmctl.efi, firmware-independent (see app.h): which
 * command runs with which settings. Errors are negative AE_* codes;
 * efi/main.c turns them into EFI_STATUS.
 *
 * Precedence (README "The configuration file"):
 *   built-in defaults < aspmctl.conf < arguments (Shell) / load options.
 * The command: the arguments' if any; else, in a boot entry, the file's
 * "command" (default boot); in the UEFI Shell the file's "command" is
 * ignored and the default is a read-only report. In a boot entry nothing
 * returns EFI_SUCCESS without having started the next loader: EDK2's boot
 * manager would stop at its menu and wait for a key (UEFI 2.10 sec 3.1.1).
 */
#include "app.h"
#include "boot.h"
#include "cmd.h"
#include "conf.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../lib/util.h"

/* What one start works out before its command runs. */
struct start {
	const struct app_args *in;
	char **argv;		/* the arguments (Shell) or load options */
	int argc;
	char *confv[CLI_MAX_ARGS];	/* the file's options */
	int nconf;
	const char *conf_cmd;	/* the file's command, NULL in the Shell */
	size_t conf_len;	/* 0: no usable file text */
	int conf_rc;		/* the file is unusable */
	int opt_rc;		/* the arguments are unusable */
	const char *what;	/* what was unusable, for boot.txt */
	char *all[2 * CLI_MAX_ARGS + 1];
	char conf_err[96];
};

static void app_reset(struct app *a)
{
	a->policy_ran = a->chainloaded = false;
	a->summary[0] = '\0';
	/* everything the user sees is collected from the start, so that the
	 * configuration's messages are in boot.txt too */
	if (capture_begin(&a->cap, a->console, a->file, a->file_max))
		out_printf(&a->cap.file, "aspmctl %s\n", ASPMCTL_VERSION);
	log_set_sink(&a->cap.both, LOG_WARN);
	mem_set(&a->topo, 0, sizeof(a->topo));
	mem_set(&a->r, 0, sizeof(a->r));
	mem_set(&a->cfg, 0, sizeof(a->cfg));
}

/* aspmctl.conf: copied, split into options and its command. */
static void conf_load(struct app *a, struct start *s)
{
	const struct app_args *in = s->in;

	if (in->conf_rc && in->conf_rc != -AE_NOENT) {
		s->conf_rc = log_error(in->conf_rc, "%s: cannot read%s", BOOT_CONF_PATH,
				       in->conf_rc == -AE_INVAL ? ": a folder, not a file" :
				       in->conf_rc == -AE_2BIG ? ": longer than 8191 bytes" : "");
		return;
	}
	if (in->conf_rc || !in->conf)
		return;
	s->conf_len = str_len(in->conf);
	if (s->conf_len >= BOOT_CONF_MAX) {
		s->conf_rc = log_error(-AE_2BIG, "%s: cannot read: longer than 8191 bytes",
				       BOOT_CONF_PATH);
		s->conf_len = 0;
		return;
	}
	mem_copy(a->conf_text, in->conf, s->conf_len + 1);
	mem_copy(a->conf_copy, in->conf, s->conf_len + 1);
	s->nconf = cli_conf_split(a->conf_text, s->confv, CLI_MAX_ARGS, &s->conf_cmd,
				  s->conf_err, sizeof(s->conf_err));
	if (s->nconf < 0) {
		s->conf_rc = log_error(-AE_INVAL, "%s: %s", BOOT_CONF_PATH, s->conf_err);
		s->nconf = 0;
		s->conf_cmd = NULL;
	}
}

/* The file's options, then the arguments; when that fails, whose fault
 * it is: the file's (conf_rc) or the arguments' (opt_rc). */
static void args_parse(struct app *a, struct start *s)
{
	static struct cli probe;
	const struct out *o = &a->cap.both;
	struct cli *cli = &a->cli;
	int n, rc;

	if (s->argc < 0) {
		/* the load options themselves are unusable */
		out_printf(o, "aspmctl: error: %s\n", s->in->arg_error ? s->in->arg_error :
			   "unusable arguments");
		s->opt_rc = -AE_INVAL;
		s->argc = 0;
		return;
	}
	n = cli_merge(s->conf_cmd, s->confv, s->nconf, s->argv, s->argc, s->all);
	rc = cli_parse(n, s->all, cli);
	if (rc && s->nconf) {
		n = cli_merge(s->conf_cmd, s->confv, s->nconf, NULL, 0, s->all);
		if (cli_parse(n, s->all, &probe))
			s->conf_rc = log_error(-AE_INVAL, "%s: %s", BOOT_CONF_PATH,
					       probe.error);
	}
	if (rc && !s->conf_rc) {
		out_printf(o, "aspmctl: error: %s\n", cli->error);
		s->opt_rc = -AE_INVAL;
		s->argc = 0;
	}
}

/* Unusable arguments: a boot entry whose file says boot starts its next
 * loader anyway; anything else is a usage error. */
static int options_failed(struct app *a, struct start *s)
{
	const struct app_args *in = s->in;
	int n;

	if (in->in_shell || s->conf_rc || !s->conf_cmd || str_cmp(s->conf_cmd, "boot")) {
		capture_end(&a->cap);
		return s->opt_rc;
	}
	out_puts(&a->cap.both, "aspmctl: load options ignored: booting with aspmctl.conf's next loader\n");
	s->what = "load options";
	s->nconf = cli_conf_salvage(a->conf_copy, s->confv, CLI_MAX_ARGS, &s->conf_cmd);
	n = cli_merge(s->conf_cmd, s->confv, s->nconf, NULL, 0, s->all);
	if (cli_parse(n, s->all, &a->cli))
		cli_parse(0, NULL, &a->cli);
	return app_boot(a, s->opt_rc, s->what);
}

/* A bad configuration file must not stop the boot: keep its boot keys
 * and the arguments, else the arguments alone. */
static int conf_failed(struct app *a, struct start *s)
{
	struct cli *cli = &a->cli;
	int n, rc;

	s->nconf = s->conf_len ? cli_conf_salvage(a->conf_copy, s->confv, CLI_MAX_ARGS,
						  &s->conf_cmd) : 0;
	if (s->in->in_shell)
		s->conf_cmd = NULL;
	n = cli_merge(s->conf_cmd, s->confv, s->nconf, s->argv, s->argc, s->all);
	rc = cli_parse(n, s->all, cli);
	if (rc && (s->nconf || s->conf_cmd))
		rc = cli_parse(s->argc, s->argv, cli);
	if (rc) {
		out_printf(&a->cap.both, "aspmctl: error: %s\n", cli->error);
		capture_end(&a->cap);
	}
	return rc;
}

/* A boot entry runs the chainloader unless told otherwise; only boot mode
 * keeps a transcript. Returns where the command's output goes. */
static const struct out *choose_output(struct app *a, const struct start *s)
{
	struct cli *cli = &a->cli;

	if (!s->in->in_shell && !s->conf_cmd && (!s->argc || s->argv[0][0] == '-') &&
	    cli->cmd == CLI_REPORT)
		cli->cmd = CLI_BOOT;
	if (cli->verbose)
		log_set_sink(&a->cap.both, LOG_INFO);
	if (cli->cmd == CLI_BOOT)
		return &a->cap.both;
	capture_end(&a->cap);
	log_set_sink(a->console, cli->verbose ? LOG_INFO : LOG_WARN);
	return a->console;
}

static int dispatch(struct app *a, const struct start *s, const struct out *o)
{
	struct cli *cli = &a->cli;
	int rc = 0;

	switch (cli->cmd) {
	case CLI_HELP:
		cli_usage(o);
		break;
	case CLI_VERSION:
		break;
	case CLI_FADT:
		rc = app_fadt(a, o);
		break;
	case CLI_DUMP:
		rc = app_dump(a, o);
		break;
	case CLI_BOOT:
		return app_boot(a, s->conf_rc, s->what);
	default:
		rc = app_run(a, cli->cmd, NULL, o);
		if (cli->cmd == CLI_REPORT)
			app_secure_boot_record(a, o);
		break;
	}
	if (!rc && !s->in->in_shell) {
		out_printf(o, "aspmctl: '%s' from a boot entry starts no next loader: returning to the boot manager\n",
			   cli_cmd_name(cli->cmd));
		rc = -AE_NOENT;
	}
	return rc;
}

int app_main(struct app *a, const struct app_args *in)
{
	static struct start s;	/* large; UEFI stacks are small */
	struct cli *cli = &a->cli;
	const struct out *o;
	int rc;

	mem_set(&s, 0, sizeof(s));
	s.in = in;
	s.argv = in->argv;
	s.argc = in->argc;
	s.what = "configuration";
	app_reset(a);
	conf_load(a, &s);
	/* a boot entry without a command and without a file: nothing to do */
	if (!in->in_shell && s.argc == 0 && in->conf_rc == -AE_NOENT)
		s.conf_rc = log_error(-AE_NOENT, "%s: not found and no command in the load options: nothing to do as a boot entry",
				      BOOT_CONF_PATH);
	if (in->in_shell)
		s.conf_cmd = NULL;	/* the Shell: the command line decides */
	args_parse(a, &s);
	if (s.opt_rc)
		return options_failed(a, &s);
	if (s.conf_rc) {
		rc = conf_failed(a, &s);
		if (rc)
			return rc;
	}
	o = choose_output(a, &s);
	if (s.conf_rc && cli->cmd != CLI_BOOT && cli->cmd != CLI_HELP &&
	    cli->cmd != CLI_VERSION) {
		out_printf(o, "aspmctl: %s: nothing done: fix %s or give boot\n",
			   cli_cmd_name(cli->cmd), BOOT_CONF_PATH);
		return s.conf_rc;
	}
	return dispatch(a, &s, o);
}
