/*
 * mdprofile: entry point. The command table, the global options' table,
 * the parse of the line (cmd/opt.c: the command is found first, then the
 * global options and the command's own, which its file declares, are taken
 * wherever they are; "--" ends them) and the setup a command's flags ask
 * for, done once here: load the profile argument, pick the service
 * backend, take the lock, finish an interrupted transaction.
 *
 *   mdprofile [--root DIR] [--profiles DIR] [--json] [-v|-q] COMMAND [ARGS]
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "commands.h"
#include "num.h"

static const struct cmd cmd_help;

static const struct cmd *const commands[] = {
    &cmd_list,   &cmd_show,        &cmd_check,  &cmd_diff,    &cmd_apply,
    &cmd_revert, &cmd_recover,     &cmd_auto,   &cmd_status,  &cmd_explain,
    &cmd_bench,  &cmd_boot_script, &cmd_enable, &cmd_disable, &cmd_help,
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The commands' column in the usage; a longer synopsis gets a line of its own. */
#define USAGE_COL 28

/* A help text's lines, every one after the first indented by indent. */
static void print_lines(FILE *f, const char *text, int indent)
{
	for (const char *nl; (nl = strchr(text, '\n')); text = nl + 1)
		fprintf(f, "%.*s\n%*s", (int)(nl - text), text, indent, "");
	fprintf(f, "%s\n", text);
}

static void usage_all(FILE *f)
{
	fputs("usage: mdprofile [--root DIR] [--profiles DIR] [--json] [-v|-q] [--wait]\n"
	      "                 [--services-backend dsm6|dsm7|systemd|none] "
	      "[--service-timeout SECONDS]\n"
	      "                 [--package-timeout SECONDS]\n"
	      "                 COMMAND [ARGS]\n\ncommands:\n",
	      f);
	for (size_t i = 0; i < N_COMMANDS; i++) {
		const struct cmd *c = commands[i];
		if (strlen(c->usage) > USAGE_COL)
			fprintf(f, "  %s\n  %-*s ", c->usage, USAGE_COL, "");
		else
			fprintf(f, "  %-*s ", USAGE_COL, c->usage);
		print_lines(f, c->help, USAGE_COL + 3);
	}
	fputs("\noptions may also follow the command; '--' ends them. --version: the version and\n"
	      "build; mdprofile help COMMAND or COMMAND --help: that command's usage.\n"
	      "-q: only errors, warnings and the data asked for; -v: more detail.\n"
	      "exit codes: 0 ok/in sync, 1 changes pending, 2 usage or profile error,\n"
	      "3 failed and rolled back, 4 rollback incomplete\n",
	      f);
}

/* Shipped profiles: next to the binary (build tree), ../share (relocated), DATADIR. */
static void shipped_dir(char *buf, size_t len)
{
	char exe[PATH_MAX], cand[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		char *dir = dirname(exe);
		snprintf(cand, sizeof(cand), "%s/profiles", dir);
		if (access(cand, R_OK | X_OK) == 0)
			goto found;
		/* DIR/../share, said without "..": /usr/share/..., not /usr/bin/../share/... */
		snprintf(cand, sizeof(cand), "%s/share/mdprofile/profiles", dirname(dir));
		if (access(cand, R_OK | X_OK) == 0)
			goto found;
	}
	snprintf(cand, sizeof(cand), "%s/profiles", MDP_DATADIR);
found:
	snprintf(buf, len, "%s", cand);
}

static void setup_dirs(struct cli *cli, const char *user_dir)
{
	size_t n = 0;

	if (user_dir) {
		cli->dir_source[n] = "--profiles";
		cli->dirs.dirs[n++] = user_dir;
	}
	if (!mdp_root_path(&cli->root, MDP_SYSCONFDIR "/mdprofile/profiles", cli->dir_buf[0],
			   sizeof(cli->dir_buf[0]))) {
		cli->dir_source[n] = "etc";
		cli->dirs.dirs[n++] = cli->dir_buf[0];
	}
	shipped_dir(cli->dir_buf[1], sizeof(cli->dir_buf[1]));
	cli->dir_source[n] = "shipped";
	cli->dirs.dirs[n++] = cli->dir_buf[1];
	cli->dirs.n = n;
	cli->dirs.builtins = cli_builtins;
	cli->dirs.n_builtins = cli_n_builtins;
}

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

static void print_cmd_help(const struct cmd *c)
{
	cli_print_usage(stdout, c);
	fputs("  ", stdout);
	print_lines(stdout, c->help, 2);
}

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

/* One line: what was not found and, when one is close, what was meant. */
static int unknown_cmd(struct cli *cli, const char *ctx, const char *name)
{
	const char *names[N_COMMANDS], *near;

	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i]->name;
	if ((near = mdp_ident_suggest(name, names, N_COMMANDS)))
		cli_err(cli, "%sunknown command '%s' (did you mean '%s'?)", ctx, name, near);
	else
		cli_err(cli, "%sunknown command '%s' (see mdprofile --help)", ctx, name);
	return MDP_EXIT_USAGE;
}

static int do_help(struct cli *cli)
{
	const struct cmd *c;

	if (cli->argc < 2) {
		usage_all(stdout);
		return MDP_EXIT_OK;
	}
	if (!(c = find_cmd(cli->argv[1])))
		return unknown_cmd(cli, "help: ", cli->argv[1]);
	print_cmd_help(c);
	return MDP_EXIT_OK;
}

static const struct cmd cmd_help = {
    "help", do_help, 0, 0, 0, 1, "help [COMMAND]", "show how to use mdprofile or one command",
    NULL,   NULL};

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
    OPT_STRING("root", 0, "DIR", struct cli, root_dir),
    OPT_STRING("profiles", 0, "DIR", struct cli, prof_dir),
    OPT_FLAG("json", 0, struct cli, json),
    OPT_FLAG("wait", 0, struct cli, wait),
    OPT_STRING("services-backend", 0, "dsm6|dsm7|systemd|none", struct cli, svc_force),
    OPT_SECONDS("service-timeout", struct cli, svc_timeout_ms, 1, 3600, 1000),
    OPT_SECONDS("package-timeout", struct cli, pkg_timeout_ms, 1, 3600, 1000),
    OPT_CUSTOM("verbose", 'v', NULL, take_verbose),
    OPT_CUSTOM("quiet", 'q', NULL, take_quiet),
    OPT_FLAG("help", 'h', struct cli, help),
    OPT_FLAG("version", 0, struct cli, version),
};

static const struct opt_excl global_excl[] = {
    {"quiet", "verbose", "-q and -v ask for less and more at once: give one of them"},
    {NULL, NULL, NULL},
};

static const struct opt_table global_table = OPT_TABLE(global_opts, struct cli, NULL, global_excl);

/* Every option table, the global one first: which options take a value, wherever. */
static void all_tables(const struct opt_table **t)
{
	t[0] = &global_table;
	for (size_t i = 0; i < N_COMMANDS; i++)
		t[i + 1] = commands[i]->opts;
}

/*
 * Read the line once, find the command (the first positional argument),
 * then take the global options and the command's own, in their order on
 * the line, into cli and the command's options struct (cli->opts).
 */
static int parse_args(struct cli *cli, int argc, char **argv, struct opt_scan *s,
		      const struct cmd **c)
{
	const struct opt_table *tables[N_COMMANDS + 1], *own;

	all_tables(tables);
	if (opt_scan(s, argc, argv, tables, N_COMMANDS + 1))
		return MDP_EXIT_FAILED;
	*c = s->n_pos ? find_cmd(s->pos[0]) : NULL;
	own = *c ? (*c)->opts : NULL;
	if (own && own->size && !(cli->opts = calloc(1, own->size)))
		return MDP_EXIT_FAILED;
	if (own && own->size && own->defaults)
		memcpy(cli->opts, own->defaults, own->size);
	if (opt_take(s, &global_table, cli, own, cli->opts)) {
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
	/*
	 * A pause left under way by a killed mdprofile gets as long as one command;
	 * txn.c extends that to an entry's own journaled timeout when it is longer.
	 */
	cli->tx.settle_ms = cli->svc.timeout_ms > cli->svc.pkg_timeout_ms ? cli->svc.timeout_ms
									  : cli->svc.pkg_timeout_ms;
	fault_wrap_services(&cli->fault, &cli->svc);
	cli->tx.svc = cli->svc.ops ? &cli->svc : NULL;
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
	cli->tx.stop_requested = cli_stop_requested;
	return 0;
}

/* Every mutating command starts from a finished state. */
static int setup_recover(struct cli *cli)
{
	bool did;
	struct mdp_txn_rc rc = mdp_txn_recover(&cli->tx, &did);

	return rc.res != MDP_TXN_OK ? cli_txn_result(cli, rc, "recover", NULL) : 0;
}

static int setup(struct cli *cli, const struct cmd *c)
{
	unsigned flags = c->flags;
	int rc;

	/* What the command's options change: apply --dry-run, bench --compare. */
	if (c->setup_flags)
		flags = c->setup_flags(cli, flags);
	cli->mutating = (flags & CMD_LOCK) != 0;
	/* Said first, in one line with the fix: later it would only be "cannot take the lock". */
	if (cli->mutating && mdp_root_is_real(&cli->root) && geteuid() != 0) {
		cli_err(
		    cli,
		    "'%s' changes kernel settings and services and needs root: run it with sudo "
		    "or as root",
		    c->name);
		return MDP_EXIT_NOPERM;
	}
	if (flags & CMD_PROFILE) {
		if ((rc = cli_load_profile(cli, cli->argv[1], &cli->profile)))
			return rc;
		cli->have_profile = true;
	}
	cli->tx.root = &cli->root;
	cli->tx.d = &cli->d;
	if ((flags & CMD_SERVICES) && (rc = setup_services(cli)))
		return rc;
	if ((flags & CMD_LOCK) && (rc = setup_lock(cli)))
		return rc;
	if ((flags & CMD_RECOVER) && (rc = setup_recover(cli)))
		return rc;
	return 0;
}

static void teardown(struct cli *cli)
{
	mdp_lock_release(&cli->lock);
	mdp_lock_release(&cli->watcher);
	mdp_txn_report_free(&cli->tx.rep);
	mdp_diags_free(&cli->d);
	if (cli->have_profile)
		mdp_profile_free(&cli->profile);
}

/* --json and a failure before any document: the errors as one object on stdout. */
static void json_error(struct cli *cli, int rc)
{
	struct json j;

	if (!cli->json || cli->json_written || rc < MDP_EXIT_USAGE)
		return;
	cli_json_begin(cli, &j);
	json_obj(&j);
	json_key(&j, "error");
	json_obj(&j);
	json_key(&j, "exit");
	json_i64(&j, rc);
	json_key(&j, "messages");
	json_arr(&j);
	for (size_t i = 0; i < cli->n_errors; i++)
		json_str(&j, cli->errors[i]);
	json_end(&j);
	json_end(&j);
	json_end(&j);
}

/* Flush stdout and report a write error (full disk, closed pipe) as failure. */
static int finish(struct cli *cli, int code)
{
	json_error(cli, code);
	for (size_t i = 0; i < cli->n_errors; i++)
		free(cli->errors[i]);
	free(cli->errors);
	if (fflush(stdout) || ferror(stdout)) {
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

	if (opt_excl_given(&global_table, s->seen[0], err, sizeof(err))) {
		cli_err(cli, "%s", err);
		return MDP_EXIT_USAGE;
	}
	if (s->foreign) {
		cli_err(cli, "--%s does not apply to '%s'", s->foreign, c->name);
		return cli_usage(c);
	}
	if (n < c->min_args || (c->max_args >= 0 && n > c->max_args))
		return cli_usage(c);
	if (opt_excl_given(c->opts, s->seen[1], err, sizeof(err))) {
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
			"crash-after-service, fsync, rename)",
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
		usage_all(cli->help ? stdout : stderr);
		return cli->help ? MDP_EXIT_OK : MDP_EXIT_USAGE;
	}
	if (!c)
		return unknown_cmd(cli, "", s->pos[0]);
	if (cli->help) {
		print_cmd_help(c);
		return MDP_EXIT_OK;
	}
	if ((rc = check_args(cli, c, s)))
		return rc;
	if ((rc = mdp_root_init(&cli->root, cli->root_dir))) {
		cli_err(cli, "--root %s: %s", cli->root_dir, strerror(-rc));
		return MDP_EXIT_USAGE;
	}
	if ((rc = setup_fault(cli)))
		return rc;
	setup_dirs(cli, cli->prof_dir);
	cli->argc = s->n_pos;
	cli->argv = s->pos;
	mdp_diags_init(&cli->d);
	/* Refused before the lock and recover: exit 2 means nothing was touched. */
	if (!(c->check && (rc = c->check(cli))) && !(rc = setup(cli, c)))
		rc = c->fn(cli);
	teardown(cli);
	return rc;
}

/* One option as __options prints it: "--name", "-c", "=" after those that take a value. */
static void print_option(const struct opt *o)
{
	const char *eq = o->metavar ? "=" : "";

	printf("--%s%s\n", o->name, eq);
	if (o->letter)
		printf("-%c%s\n", o->letter, eq);
}

/*
 * mdprofile __options [COMMAND|--all]: the options COMMAND takes (without one:
 * those every command takes; --all: every option), one a line, "=" after
 * those that take a value. For the bash completion, so it offers what this
 * binary accepts; not in help.
 */
static int print_options(int argc, char **argv)
{
	bool all = argc > 2 && !strcmp(argv[2], "--all");
	const struct cmd *c = argc > 2 && !all ? find_cmd(argv[2]) : NULL;
	const struct opt_table *tables[N_COMMANDS + 1];
	struct opt_scan s;

	if (argc > 3 || (argc > 2 && !c && !all))
		return MDP_EXIT_USAGE;
	all_tables(tables);
	if (all) {
		/* Every option once, by name. */
		if (opt_scan(&s, 1, argv, tables, N_COMMANDS + 1))
			return MDP_EXIT_FAILED;
		for (size_t i = 0; i < s.n_all; i++)
			print_option(s.all[i]);
		opt_scan_free(&s);
	} else {
		for (size_t i = 0; i < global_table.n; i++)
			print_option(&global_table.opt[i]);
		for (size_t i = 0; c && c->opts && i < c->opts->n; i++)
			print_option(&c->opts->opt[i]);
	}
	return fflush(stdout) ? MDP_EXIT_FAILED : MDP_EXIT_OK;
}

/* The words option o takes: its choice list, else the "a|b|c" of its metavar. */
static void print_words(const struct opt *o)
{
	const char *m = o->metavar;

	for (size_t i = 0; o->words && o->words[i]; i++)
		printf("%s\n", o->words[i]);
	if (o->words || !m || !strchr(m, '|'))
		return;
	while (*m) {
		size_t n = strcspn(m, "|");
		printf("%.*s\n", (int)n, m);
		m += n + !!m[n];
	}
}

/*
 * mdprofile __values COMMAND|--all --OPTION: the words --OPTION takes, one a
 * line, from the option tables; nothing for a free value. For the bash
 * completion, so it never types the lists itself; not in help.
 */
static int print_values(int argc, char **argv)
{
	bool all = argc > 2 && !strcmp(argv[2], "--all");
	const struct cmd *c = argc > 2 && !all ? find_cmd(argv[2]) : NULL;
	const struct opt_table *tables[N_COMMANDS + 1];
	const char *name = argc > 3 && !strncmp(argv[3], "--", 2) ? argv[3] + 2 : NULL;

	if (argc != 4 || (!c && !all) || !name)
		return MDP_EXIT_USAGE;
	all_tables(tables);
	for (size_t t = 0; t < N_COMMANDS + 1; t++) {
		const struct opt_table *tb = tables[t];
		if (!tb || (tb != &global_table && !all && tb != c->opts))
			continue;
		for (size_t i = 0; i < tb->n; i++)
			if (!strcmp(tb->opt[i].name, name)) {
				print_words(&tb->opt[i]);
				return fflush(stdout) ? MDP_EXIT_FAILED : MDP_EXIT_OK;
			}
	}
	return fflush(stdout) ? MDP_EXIT_FAILED : MDP_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct cli cli = {.lock = {-1}, .watcher = {-1}, .root_dir = getenv("MDPROFILE_ROOT")};
	const struct cmd *c = NULL;
	struct opt_scan s = {0};
	int rc;

	if (argc > 1 && !strcmp(argv[1], "__options"))
		return print_options(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "__values"))
		return print_values(argc, argv);
	if ((rc = parse_args(&cli, argc, argv, &s, &c))) {
		if (rc == MDP_EXIT_USAGE && !cli.n_errors)
			usage_all(stderr);
	} else {
		rc = run(&cli, c, &s);
	}
	opt_scan_free(&s);
	free(cli.opts);
	return finish(&cli, rc);
}
