/*
 * mdprofile: entry point. The command table, the global options' table,
 * the parse of the line (cmd/opt.c: the command is found first, then the
 * global options and the command's own, which its file declares, are taken
 * wherever they are; "--" ends them) and the setup a command's flags ask
 * for, done once here: load the profile argument, pick the service
 * backend, take the lock, finish an interrupted transaction. What
 * mdprofile says about itself (help, __options) is cmd/help.c's, the
 * profile directories cmd/cli_load.c's.
 *
 *   mdprofile [options] COMMAND [ARGS]
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "help.h"
#include "render.h"

const struct cmd *const cli_commands[] = {
    &cmd_list,   &cmd_show,        &cmd_check,  &cmd_diff,    &cmd_apply,
    &cmd_revert, &cmd_recover,     &cmd_auto,   &cmd_status,  &cmd_explain,
    &cmd_bench,  &cmd_boot_script, &cmd_enable, &cmd_disable, &cmd_help,
};

#define N_COMMANDS (sizeof(cli_commands) / sizeof(cli_commands[0]))

const size_t cli_n_commands = N_COMMANDS;
_Static_assert(N_COMMANDS <= CLI_MAX_COMMANDS, "help.c's tables hold CLI_MAX_COMMANDS");

/* How this binary was built: what a bug report needs first. */
static void print_version(void)
{
#ifdef MDP_STATIC
	const char *kind = "static";
#else
	const char *kind = "dynamic";
#endif
#ifdef MDP_NO_UDEV
	const char *disc = "sysfs walk";
#else
	const char *disc = "libudev";
#endif
	printf("mdprofile %s (%s, %s)\n", MDP_VERSION, kind, disc);
}

/* ---- options ------------------------------------------------------------------ */

static const char *take_verbose(void *opts, void *cli, const char *arg)
{
	(void)opts, (void)arg;
	((struct cli *)cli)->verbose = 1;
	return NULL;
}

static const char *take_quiet(void *opts, void *cli, const char *arg)
{
	(void)opts, (void)arg;
	((struct cli *)cli)->verbose = -1;
	return NULL;
}

/* The options every command takes, into struct cli. */
static const struct opt global_opts[] = {
    OPT_NAMING("root", 0, "DIR", OPTV_DIR, struct cli, root_dir,
	       "read and write every system path beneath DIR instead of / (default: "
	       "$MDPROFILE_ROOT)"),
    OPT_NAMING("profiles", 0, "DIR", OPTV_DIR, struct cli, prof_dir,
	       "look for profiles by name in DIR first"),
    OPT_FLAG("json", 0, struct cli, json, "write one JSON document to stdout"),
    OPT_FLAG("wait", 0, struct cli, wait,
	     "wait for another mdprofile that is changing the system instead of failing"),
    OPT_STRING("services-backend", 0, "dsm6|dsm7|systemd|none", struct cli, svc_force,
	       "pause services with this instead of the detected one"),
    OPT_SECONDS("service-timeout", struct cli, svc_timeout_ms, 1, 3600, 1000,
		"a service's time to stop or start (default 30)"),
    OPT_SECONDS("package-timeout", struct cli, pkg_timeout_ms, 1, 3600, 1000,
		"the same for a DSM package (default 900)"),
    OPT_CUSTOM("verbose", 'v', NULL, take_verbose, "more detail"),
    OPT_CUSTOM("quiet", 'q', NULL, take_quiet,
	       "only errors, warnings and the data asked for: the exit code tells the result"),
    OPT_FLAG("help", 'h', struct cli, help, "this usage, or a command's when one is given"),
    OPT_FLAG("version", 0, struct cli, version, "the version and the build"),
};

static const struct opt_pair global_excl[] = {
    {"quiet", "verbose", "-q and -v ask for less and more at once: give one of them"},
    {NULL, NULL, NULL},
};

const struct opt_table cli_global_table =
    OPT_TABLE(global_opts, struct cli, NULL, global_excl, NULL);

/*
 * Read the line once, find the command (the first positional argument),
 * then take the global options and the command's own, in their order on
 * the line, into cli and the command's options struct (cli->opts).
 */
static int parse_args(struct cli *cli, int argc, char **argv, struct opt_scan *s,
		      const struct cmd **c)
{
	const struct opt_table *tables[N_COMMANDS + 1], *own;

	cli_all_tables(tables);
	if (opt_scan(s, argc, argv, tables, N_COMMANDS + 1))
		return MDP_EXIT_FAILED;
	*c = s->n_pos ? cli_find_cmd(s->pos[0]) : NULL;
	own = *c ? (*c)->opts : NULL;
	if (own && own->size && !(cli->opts = calloc(1, own->size)))
		return MDP_EXIT_FAILED;
	if (own && own->size && own->defaults)
		memcpy(cli->opts, own->defaults, own->size);
	if (opt_take(s, &cli_global_table, cli, own, cli->opts)) {
		cli_err(cli, "%s", s->err);
		return MDP_EXIT_USAGE;
	}
	return 0;
}

/* ---- setup and teardown ---------------------------------------------------------- */

static int setup_services(struct cli *cli)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_svc_detect(&cli->root, cli->svc_force, &cli->svc, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (err)
		return MDP_EXIT_USAGE;
	if (cli->svc_timeout_ms)
		cli->svc.timeout_ms = cli->svc_timeout_ms;
	if (cli->pkg_timeout_ms)
		cli->svc.pkg_timeout_ms = cli->pkg_timeout_ms;
	fault_wrap_services(&cli->fault, &cli->svc);
	return 0;
}

/*
 * While it holds the lock a mutating command keeps SIGINT, SIGTERM and
 * SIGHUP pending instead of dying between a change and its journal: apply
 * lets the running step finish (the service tool is bounded by its
 * timeout), then rolls everything back and exits 3; revert and recover
 * finish restoring. The signals stay blocked until exit, so a pending one
 * never cuts the report short.
 */
static int setup_lock(struct cli *cli)
{
	long holder = 0;
	int err = mdp_lock_take(&cli->root, cli->wait, &cli->lock, &holder, &cli->d);

	if (err == -EPERM && cli->d.n) {
		cli_print_diags(cli, &cli->d);
		return MDP_EXIT_FAILED;
	}
	if (err == -EWOULDBLOCK) {
		cli_err(cli,
			"another mdprofile (pid %ld) is changing the system; try again, or use "
			"--wait",
			holder);
		return MDP_EXIT_FAILED;
	}
	if (err) {
		cli_err(cli, "cannot take the lock %s: %s", MDP_LOCK, mdp_root_strerror(-err));
		return MDP_EXIT_FAILED;
	}
	/* After the lock: Ctrl-C still ends a --wait for it. */
	cli_hold_stop_signals();
	return 0;
}

/* Every mutating command starts from a finished state; a watcher takes over the pauses. */
static int setup_recover(struct cli *cli, unsigned flags)
{
	bool did;
	struct mdp_txn_rc rc = flags & CMD_WATCHER ? mdp_txn_recover_watcher(&cli->tx, &did)
						   : mdp_txn_recover(&cli->tx, &did);

	return rc.res != MDP_TXN_OK ? cli_txn_result(cli, rc, "recover", NULL) : 0;
}

/* What main sets up for c: its flags, as its options change them (apply --dry-run). */
static unsigned setup_flags(const struct cli *cli, const struct cmd *c)
{
	return c->setup_flags ? c->setup_flags(cli, c->flags) : c->flags;
}

/*
 * Said first, before the command's checks read a profile or a file, in one
 * line with the fix: later it would only be "cannot take the lock".
 */
static int need_root(struct cli *cli, const struct cmd *c)
{
	if (!(setup_flags(cli, c) & CMD_LOCK) || !mdp_root_is_real(&cli->root) || geteuid() == 0)
		return 0;
	cli_err(cli,
		"'%s' changes kernel settings and services and needs root: run it with sudo or "
		"as root",
		c->name);
	return MDP_EXIT_NOPERM;
}

/*
 * md not loaded: every command that reads or tunes md says so in the same words, with the
 * same exit code, once its options and profile passed their checks (a usage or profile
 * error is said first, exit 2) and before the system is read or the lock taken (status
 * would show no arrays, diff "in sync", apply change nothing).
 */
static int need_md(struct cli *cli, unsigned flags)
{
	if (!(flags & CMD_MD) || !mdp_md_loaded(&cli->root, &cli->d))
		return 0;
	cli_print_diags(cli, &cli->d);
	return MDP_EXIT_FAILED;
}

static int setup(struct cli *cli, const struct cmd *c)
{
	unsigned flags = setup_flags(cli, c);
	int rc;

	cli->mutating = (flags & CMD_LOCK) != 0;
	if (flags & CMD_PROFILE) {
		if ((rc = cli_load_profile(cli, cli->argv[1], &cli->profile)))
			return rc;
		cli->have_profile = true;
	}
	if ((rc = need_md(cli, flags)))
		return rc;
	if ((flags & CMD_SERVICES) && (rc = setup_services(cli)))
		return rc;
	if ((flags & CMD_LOCK) && (rc = setup_lock(cli)))
		return rc;
	/* Holding the lock, an apply stops between two steps at a signal and rolls back. */
	mdp_txn_init(&cli->tx, &cli->root, &cli->d, flags & CMD_SERVICES ? &cli->svc : NULL,
		     flags & CMD_LOCK ? cli_stop_requested : NULL);
	if ((flags & CMD_RECOVER) && (rc = setup_recover(cli, flags)))
		return rc;
	return 0;
}

static void teardown(struct cli *cli)
{
	mdp_lock_release(&cli->lock);
	mdp_lock_release(&cli->watcher);
	mdp_root_out_close(&cli->out);
	mdp_txn_report_free(&cli->tx.rep);
	mdp_diags_free(&cli->d);
	if (cli->have_profile)
		mdp_profile_free(&cli->profile);
	if (cli->have_overlay)
		mdp_profile_free(&cli->overlay);
}

/*
 * Flush stdout and report a write error (a full disk) as failure. A reader that went away
 * (mdprofile status | head) took what it wanted: the command's own result stands and
 * nothing is said, as a command killed by SIGPIPE would have said nothing.
 */
static int finish(struct cli *cli, int code)
{
	render_error_json(cli, code);
	for (size_t i = 0; i < cli->n_errors; i++)
		free(cli->errors[i]);
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return code;
		fprintf(stderr, "mdprofile: error writing output: %s\n",
			strerror(errno ? errno : EIO));
		return code > MDP_EXIT_USAGE ? code : MDP_EXIT_FAILED;
	}
	return code;
}

static int check_args(struct cli *cli, const struct cmd *c, const struct opt_scan *s)
{
	char err[256];
	int n = s->n_pos - 1;

	if (opt_rule_broken(&cli_global_table, &cli_global_table, c->name, s->seen, err,
			    sizeof(err))) {
		cli_err(cli, "%s", err);
		return MDP_EXIT_USAGE;
	}
	if (s->foreign) {
		cli_err(cli, "--%s does not apply to '%s'", s->foreign, c->name);
		return cli_usage(c);
	}
	if (n < c->min_args || (c->max_args >= 0 && n > c->max_args))
		return cli_usage(c);
	/* Before the command's own checks: its "A needs B" and "A excludes B" are data. */
	if (opt_rule_broken(c->opts, &cli_global_table, c->name, s->seen, err, sizeof(err))) {
		cli_err(cli, "%s", err);
		return MDP_EXIT_USAGE;
	}
	return 0;
}

/*
 * The MDPROFILE_FAULT test seam, in test builds only: the release and
 * static binaries do not read the variable, nor hold its name.
 */
static int setup_fault(struct cli *cli)
{
#ifdef MDP_FAULT_SEAM
	const char *spec = getenv("MDPROFILE_FAULT");

	if (fault_setup(&cli->root, &cli->fault, spec)) {
		cli_err(cli,
			"MDPROFILE_FAULT '%s': expected KIND:N (write, clamp, crash-after-write, "
			"crash-after-service, fsync, rename, minute, now)",
			spec);
		return MDP_EXIT_USAGE;
	}
#else
	(void)cli;
#endif
	return 0;
}

static int run(struct cli *cli, const struct cmd *c, struct opt_scan *s)
{
	int rc;

	if (cli->version) {
		print_version();
		return MDP_EXIT_OK;
	}
	if (!s->n_pos) {
		cli_usage_all(cli->help ? stdout : stderr);
		return cli->help ? MDP_EXIT_OK : MDP_EXIT_USAGE;
	}
	if (!c)
		return cli_unknown_cmd(cli, "", s->pos[0]);
	if (cli->help) {
		cli_print_cmd_help(c);
		return MDP_EXIT_OK;
	}
	if ((rc = check_args(cli, c, s)))
		return rc;
	if ((rc = mdp_root_init(&cli->root, cli->root_dir))) {
		cli_err(cli, "--root %s: %s", cli->root_dir, strerror(-rc));
		return MDP_EXIT_USAGE;
	}
	mdp_root_allow_exec(&cli->root, getenv(MDP_ROOT_EXEC_ENV));
	cli_setup_zone(cli);
	if ((rc = setup_fault(cli)))
		return rc;
	cli_setup_dirs(cli, cli->prof_dir);
	cli->argc = s->n_pos;
	cli->argv = s->pos;
	mdp_diags_init(&cli->d);
	/* Refused before the lock and recover: exit 2 means nothing was touched. */
	if (!(rc = need_root(cli, c)) && !(c->check && (rc = c->check(cli))) &&
	    !(rc = setup(cli, c)))
		rc = c->fn(cli);
	teardown(cli);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli cli = {.lock = {-1}, .watcher = {-1}, .root_dir = getenv("MDPROFILE_ROOT")};
	const struct cmd *c = NULL;
	struct opt_scan s = {0};
	int rc;

	/*
	 * A reader gone from stdout (mdprofile auto | head) must not kill a command midway (an
	 * engaged watcher, a transaction): a write fails with EPIPE instead, which finish()
	 * reports and the watcher's log survives (wlog.h). Programs run get it back (exec.c).
	 */
	signal(SIGPIPE, SIG_IGN);
	if (argc > 1 && !strcmp(argv[1], "__options"))
		return cli_print_options(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "__values"))
		return cli_print_values(argc, argv);
	if ((rc = parse_args(&cli, argc, argv, &s, &c))) {
		if (rc == MDP_EXIT_USAGE && !cli.n_errors)
			cli_usage_all(stderr);
	} else {
		rc = run(&cli, c, &s);
	}
	opt_scan_free(&s);
	free(cli.opts);
	return finish(&cli, rc);
}
