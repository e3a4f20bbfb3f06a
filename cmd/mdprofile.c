/*
 * mdprofile: entry point. The command table, option parsing (options may
 * come anywhere on the line; "--" ends them) and the setup a command's
 * flags ask for, done once here: load the profile argument, pick the
 * service backend, take the lock, finish an interrupted transaction.
 *
 *   mdprofile [--root DIR] [--profiles DIR] [--json] [-v|-q] COMMAND [ARGS]
 */
#include <errno.h>
#include <getopt.h>
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
		snprintf(cand, sizeof(cand), "%s/../share/mdprofile/profiles", dir);
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
	printf("usage: mdprofile [options] %s\n  ", c->usage);
	print_lines(stdout, c->help, 2);
}

static int parse_seconds(const char *s, unsigned *ms)
{
	uint64_t v;

	if (mdp_num_parse(s, 1, 3600, &v))
		return -EINVAL;
	*ms = (unsigned)v * 1000;
	return 0;
}

/* Seconds with up to three decimals, 0.1..3600: "5", "0.5". */
static int parse_interval(const char *s, unsigned *ms)
{
	const char *dot = strchr(s, '.');
	char whole[8];
	uint64_t w = 0, f = 0;
	size_t nf = dot ? strlen(dot + 1) : 0;

	if ((dot ? (size_t)(dot - s) : strlen(s)) >= sizeof(whole) || (dot && (nf < 1 || nf > 3)))
		return -EINVAL;
	snprintf(whole, sizeof(whole), "%.*s", (int)(dot ? dot - s : (long)strlen(s)), s);
	if (mdp_num_parse(whole, 0, 3600, &w) || (dot && mdp_num_parse(dot + 1, 0, 999, &f)))
		return -EINVAL;
	for (size_t i = nf; i < 3; i++)
		f *= 10;
	if (w * 1000 + f < 100 || w * 1000 + f > 3600000)
		return -EINVAL;
	*ms = (unsigned)(w * 1000 + f);
	return 0;
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
    "help", do_help, 0, 0, 0, 1, "help [COMMAND]", "show how to use mdprofile or one command"};

/* ---- options ------------------------------------------------------------------ */

enum {
	O_ROOT = 256,
	O_PROFILES,
	O_JSON,
	O_WAIT,
	O_SVC,
	O_SVC_TIMEOUT,
	O_PKG_TIMEOUT,
	O_DRY_RUN,
	O_YAML,
	O_TARGET,
	O_BINARY,
	O_WAIT_ARRAYS,
	O_RECHECK,
	O_WITH_SERVICES,
	O_NAME,
	O_INSTALL,
	O_UNINSTALL,
	O_BENCH_PATH,
	O_BENCH_SIZE,
	O_BENCH_RUNS,
	O_BENCH_COMPARE,
	O_BENCH_OP_ONLY,
	O_BENCH_DURATION,
	O_VERSION,
	O_UNTIL_IDLE,
	O_INTERVAL,
	O_WATCH,
	O_FORMAT,
	O_ALL,
	O_BASE,
	O_ORIGIN,
	O_ON,
	O_CAPTURE,
	O_AUTO,
};

static const struct option long_opts[] = {
    {"root", required_argument, NULL, O_ROOT},
    {"profiles", required_argument, NULL, O_PROFILES},
    {"json", no_argument, NULL, O_JSON},
    {"wait", no_argument, NULL, O_WAIT},
    {"services-backend", required_argument, NULL, O_SVC},
    {"service-timeout", required_argument, NULL, O_SVC_TIMEOUT},
    {"package-timeout", required_argument, NULL, O_PKG_TIMEOUT},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"dry-run", no_argument, NULL, O_DRY_RUN},
    {"yaml", no_argument, NULL, O_YAML},
    {"target", required_argument, NULL, O_TARGET},
    {"binary", required_argument, NULL, O_BINARY},
    {"wait-arrays", required_argument, NULL, O_WAIT_ARRAYS},
    {"recheck-after", required_argument, NULL, O_RECHECK},
    {"with-services", no_argument, NULL, O_WITH_SERVICES},
    {"output", required_argument, NULL, 'o'},
    {"name", required_argument, NULL, O_NAME},
    {"install", no_argument, NULL, O_INSTALL},
    {"uninstall", no_argument, NULL, O_UNINSTALL},
    {"path", required_argument, NULL, O_BENCH_PATH},
    {"size", required_argument, NULL, O_BENCH_SIZE},
    {"runs", required_argument, NULL, O_BENCH_RUNS},
    {"compare", required_argument, NULL, O_BENCH_COMPARE},
    {"op-only", no_argument, NULL, O_BENCH_OP_ONLY},
    {"duration", required_argument, NULL, O_BENCH_DURATION},
    {"version", no_argument, NULL, O_VERSION},
    {"until-idle", no_argument, NULL, O_UNTIL_IDLE},
    {"interval", required_argument, NULL, O_INTERVAL},
    {"watch", no_argument, NULL, O_WATCH},
    {"format", required_argument, NULL, O_FORMAT},
    {"all", no_argument, NULL, O_ALL},
    {"base", no_argument, NULL, O_BASE},
    {"origin", required_argument, NULL, O_ORIGIN},
    {"on", required_argument, NULL, O_ON},
    {"capture", required_argument, NULL, O_CAPTURE},
    {"auto", required_argument, NULL, O_AUTO},
    {NULL, 0, NULL, 0},
};

/* Which options are a command's own (enum cmd_opts), checked against its table entry. */
static const struct {
	int val;
	unsigned bit;
} cmd_opt_bits[] = {
    {O_TARGET, OPT_TARGET},
    {O_BINARY, OPT_BINARY},
    {O_WAIT_ARRAYS, OPT_WAIT_ARRAYS},
    {O_RECHECK, OPT_RECHECK},
    {O_WITH_SERVICES, OPT_WITH_SERVICES},
    {'o', OPT_OUT},
    {O_NAME, OPT_NAME},
    {O_INSTALL, OPT_INSTALL},
    {O_UNINSTALL, OPT_UNINSTALL},
    {O_DRY_RUN, OPT_DRY_RUN},
    {O_YAML, OPT_YAML},
    {O_BENCH_PATH, OPT_BENCH},
    {O_BENCH_SIZE, OPT_BENCH},
    {O_BENCH_RUNS, OPT_BENCH},
    {O_BENCH_COMPARE, OPT_BENCH},
    {O_BENCH_OP_ONLY, OPT_BENCH},
    {O_BENCH_DURATION, OPT_BENCH},
    {O_UNTIL_IDLE, OPT_UNTIL_IDLE},
    {O_INTERVAL, OPT_INTERVAL},
    {O_WATCH, OPT_WATCH},
    {O_FORMAT, OPT_FORMAT},
    {O_ALL, OPT_ALL},
    {O_BASE, OPT_BASE},
    {O_ORIGIN, OPT_ORIGIN},
    {O_ON, OPT_ON},
    {O_CAPTURE, OPT_CAPTURE},
    {O_AUTO, OPT_AUTO},
};

/* Everything main learns from the command line before the command runs. */
struct args {
	const char *root_dir, *prof_dir;
	unsigned opts; /* enum cmd_opts seen */
	bool help, version;
	bool quiet, verbose; /* -q and -v seen */
	char **pos;          /* positional arguments in order: the command, then its arguments */
	int n_pos;
};

static unsigned opt_bit(int val)
{
	for (size_t i = 0; i < sizeof(cmd_opt_bits) / sizeof(cmd_opt_bits[0]); i++)
		if (cmd_opt_bits[i].val == val)
			return cmd_opt_bits[i].bit;
	return 0;
}

/* boot-script's options. */
static int take_boot_opt(struct cli *cli, struct args *a, int opt, const char *arg)
{
	uint64_t v = 0;

	a->opts |= opt_bit(opt);
	if ((opt == O_WAIT_ARRAYS || opt == O_RECHECK) && mdp_num_parse(arg, 0, 86400, &v)) {
		cli_err(cli, "--%s '%s': expected seconds, 0..86400",
			opt == O_WAIT_ARRAYS ? "wait-arrays" : "recheck-after", arg);
		return MDP_EXIT_USAGE;
	}
	if (opt == O_TARGET)
		cli->boot_target = arg;
	else if (opt == O_BINARY)
		cli->boot_binary = arg;
	else if (opt == O_WAIT_ARRAYS)
		cli->boot_wait = (unsigned)v;
	else if (opt == O_RECHECK)
		cli->boot_recheck = (unsigned)v;
	else if (opt == O_WITH_SERVICES)
		cli->with_services = true;
	else if (opt == O_INSTALL)
		cli->install = true;
	else if (opt == O_UNINSTALL)
		cli->uninstall = true;
	else
		cli->out_file = arg;
	return 0;
}

static int take_bench_opt(struct cli *cli, int opt, const char *arg)
{
	const char *why;
	uint64_t v;

	if (opt == O_BENCH_PATH) {
		cli->bench_path = arg;
	} else if (opt == O_BENCH_COMPARE) {
		cli->bench_compare = arg;
	} else if (opt == O_BENCH_OP_ONLY) {
		cli->bench_op_only = true;
	} else if (opt == O_BENCH_DURATION) {
		if (mdp_num_parse(arg, 1, 86400, &v)) {
			cli_err(cli, "--duration '%s': expected seconds, 1..86400", arg);
			return MDP_EXIT_USAGE;
		}
		cli->bench_duration = (unsigned)v;
	} else if (opt == O_BENCH_RUNS) {
		if (mdp_num_parse(arg, 1, 100, &v)) {
			cli_err(cli, "--runs '%s': expected a number of runs, 1..100", arg);
			return MDP_EXIT_USAGE;
		}
		cli->bench_runs = (unsigned)v;
	} else if (mdp_parse_size_kib(arg, &v, &why) || v < 1024 || v > ((uint64_t)1 << 30)) {
		cli_err(cli, "--size '%s': expected a size from 1MiB to 1024GiB, such as 512MiB",
			arg);
		return MDP_EXIT_USAGE;
	} else {
		cli->bench_size = v * 1024;
	}
	return 0;
}

/* The layer options: revert --all, apply --base and --origin, auto --on. */
static int take_layer_opt(struct cli *cli, struct args *a, int opt, const char *arg)
{
	a->opts |= opt_bit(opt);
	if (opt == O_ALL) {
		cli->revert_all = true;
	} else if (opt == O_BASE) {
		cli->as_base = true;
	} else if (opt == O_ON) {
		cli->auto_on = arg;
	} else {
		cli->origin = arg; /* checked by apply: the option is apply's */
	}
	return 0;
}

static int take_opt(struct cli *cli, struct args *a, int opt, const char *arg)
{
	switch (opt) {
	case O_ROOT:
		a->root_dir = arg;
		break;
	case O_PROFILES:
		a->prof_dir = arg;
		break;
	case O_JSON:
		cli->json = true;
		break;
	case O_WAIT:
		cli->wait = true;
		break;
	case O_SVC:
		cli->svc_force = arg;
		break;
	case O_SVC_TIMEOUT:
		if (parse_seconds(arg, &cli->svc_timeout_ms)) {
			cli_err(cli, "--service-timeout '%s': expected seconds, 1..3600", arg);
			return MDP_EXIT_USAGE;
		}
		break;
	case O_PKG_TIMEOUT:
		if (parse_seconds(arg, &cli->pkg_timeout_ms)) {
			cli_err(cli, "--package-timeout '%s': expected seconds, 1..3600", arg);
			return MDP_EXIT_USAGE;
		}
		break;
	case O_DRY_RUN:
		cli->dry_run = true;
		a->opts |= OPT_DRY_RUN;
		break;
	case O_YAML:
		cli->yaml = true;
		a->opts |= OPT_YAML;
		break;
	case O_UNTIL_IDLE:
		cli->until_idle = true;
		a->opts |= OPT_UNTIL_IDLE;
		break;
	case O_INTERVAL:
		if (parse_interval(arg, &cli->interval_ms)) {
			cli_err(cli, "--interval '%s': expected seconds, 0.1..3600", arg);
			return MDP_EXIT_USAGE;
		}
		a->opts |= OPT_INTERVAL;
		break;
	case O_WATCH:
		cli->watch = true;
		a->opts |= OPT_WATCH;
		break;
	case O_FORMAT:
		if (strcmp(arg, "text") && strcmp(arg, "json") && strcmp(arg, "prometheus")) {
			cli_err(cli, "--format '%s': expected text, json or prometheus", arg);
			return MDP_EXIT_USAGE;
		}
		cli->format = arg;
		cli->json = !strcmp(arg, "json") || cli->json;
		a->opts |= OPT_FORMAT;
		break;
	case O_CAPTURE:
		cli->capture = arg;
		a->opts |= OPT_CAPTURE;
		break;
	case O_AUTO:
		cli->auto_profile = arg;
		a->opts |= OPT_AUTO;
		break;
	case O_TARGET:
	case O_BINARY:
	case O_WAIT_ARRAYS:
	case O_RECHECK:
	case O_WITH_SERVICES:
	case O_INSTALL:
	case O_UNINSTALL:
	case 'o':
		return take_boot_opt(cli, a, opt, arg);
	case O_NAME:
		if (!mdp_ident_profile_name_ok(arg)) {
			cli_err(cli,
				"--name '%s': a profile name is letters, digits, '.', '_' and "
				"'-', not starting with '.' or '-', at most 64",
				arg);
			return MDP_EXIT_USAGE;
		}
		cli->stdin_name = arg;
		a->opts |= OPT_NAME;
		break;
	case O_ALL:
	case O_BASE:
	case O_ORIGIN:
	case O_ON:
		return take_layer_opt(cli, a, opt, arg);
	case O_BENCH_PATH:
	case O_BENCH_SIZE:
	case O_BENCH_RUNS:
	case O_BENCH_COMPARE:
	case O_BENCH_OP_ONLY:
	case O_BENCH_DURATION:
		a->opts |= OPT_BENCH;
		return take_bench_opt(cli, opt, arg);
	case 'v':
		cli->verbose = 1;
		a->verbose = true;
		break;
	case 'q':
		cli->verbose = -1;
		a->quiet = true;
		break;
	case 'h':
		a->help = true;
		break;
	case O_VERSION:
		a->version = true;
		break;
	default:
		return MDP_EXIT_USAGE; /* getopt said what */
	}
	return 0;
}

static int bad_option(struct cli *cli, int opt, const char *arg)
{
	if (opt == ':')
		cli_err(cli, "option '%s' needs an argument (see mdprofile --help)", arg);
	else if (optopt)
		cli_err(cli, "unknown option '-%c' (see mdprofile --help)", optopt);
	else
		cli_err(cli, "unknown option '%s' (see mdprofile --help)", arg);
	return MDP_EXIT_USAGE;
}

/*
 * "-" first in optstring: positional arguments come back in order as
 * option 1, whatever POSIXLY_CORRECT says, so options may sit anywhere;
 * after "--" the rest is positional.
 */
static int parse_args(struct cli *cli, int argc, char **argv, struct args *a)
{
	int opt, rc;

	if (!(a->pos = calloc((size_t)argc + 1, sizeof(*a->pos))))
		return MDP_EXIT_FAILED;
	opterr = 0; /* our own messages, with our name rather than argv[0] */
	while ((opt = getopt_long(argc, argv, "-:vqhno:", long_opts, NULL)) != -1) {
		if (opt == '?' || opt == ':')
			return bad_option(cli, opt, argv[optind - 1]);
		if (opt == 1)
			a->pos[a->n_pos++] = optarg;
		else if (opt == 'n')
			rc = take_opt(cli, a, O_DRY_RUN, NULL);
		else
			rc = take_opt(cli, a, opt, optarg);
		if (opt != 1 && rc)
			return rc;
	}
	while (optind < argc)
		a->pos[a->n_pos++] = argv[optind++];
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
	int rc = mdp_txn_recover(&cli->tx, &did);

	return rc ? cli_txn_result(cli, rc, "recover", NULL) : 0;
}

static int setup(struct cli *cli, const struct cmd *c)
{
	unsigned flags = c->flags;
	int rc;

	/* A dry run only reads: no lock, no recovery; services only to ask their state. */
	if (cli->dry_run)
		flags &= ~(unsigned)(CMD_LOCK | CMD_RECOVER);
	/* bench --compare applies profiles: it needs all that apply needs. */
	if (cli->bench_compare)
		flags |= CMD_TXN | CMD_RECOVER;
	cli->mutating = (flags & CMD_LOCK) != 0;
	/* Said first, in one line with the fix: later it would only be "cannot take the lock". */
	if (cli->mutating && mdp_root_is_real(&cli->root) && geteuid() != 0) {
		cli_err(
		    cli,
		    "'%s' changes kernel settings and services and needs root: run it with sudo "
		    "or as root",
		    c->name);
		return MDP_EXIT_FAILED;
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

/* The long name of the first command option among bits (enum cmd_opts). */
static const char *opt_name(unsigned bits)
{
	for (const struct option *o = long_opts; o->name; o++)
		for (size_t i = 0; i < sizeof(cmd_opt_bits) / sizeof(cmd_opt_bits[0]); i++)
			if (o->val == cmd_opt_bits[i].val && (bits & cmd_opt_bits[i].bit))
				return o->name;
	return "?";
}

static int check_args(struct cli *cli, const struct cmd *c, const struct args *a)
{
	int n = a->n_pos - 1;

	if (a->quiet && a->verbose) {
		cli_err(cli, "-q and -v ask for less and more at once: give one of them");
		return MDP_EXIT_USAGE;
	}
	if (a->opts & ~c->opts) {
		cli_err(cli, "--%s does not apply to '%s'", opt_name(a->opts & ~c->opts), c->name);
		return cli_usage(c);
	}
	if (n < c->min_args || (c->max_args >= 0 && n > c->max_args))
		return cli_usage(c);
	return 0;
}

static int run(struct cli *cli, struct args *a)
{
	const struct cmd *c;
	int rc;

	if (a->version) {
		print_version();
		return MDP_EXIT_OK;
	}
	if (!a->n_pos) {
		usage_all(a->help ? stdout : stderr);
		return a->help ? MDP_EXIT_OK : MDP_EXIT_USAGE;
	}
	if (!(c = find_cmd(a->pos[0])))
		return unknown_cmd(cli, "", a->pos[0]);
	if (a->help) {
		print_cmd_help(c);
		return MDP_EXIT_OK;
	}
	if ((rc = check_args(cli, c, a)))
		return rc;
	if ((rc = mdp_root_init(&cli->root, a->root_dir))) {
		cli_err(cli, "--root %s: %s", a->root_dir, strerror(-rc));
		return MDP_EXIT_USAGE;
	}
	if (fault_setup(&cli->root, &cli->fault, getenv("MDPROFILE_FAULT"))) {
		cli_err(cli,
			"MDPROFILE_FAULT '%s': expected KIND:N (write, clamp, crash-after-write, "
			"crash-after-service, fsync, rename)",
			getenv("MDPROFILE_FAULT"));
		return MDP_EXIT_USAGE;
	}
	setup_dirs(cli, a->prof_dir);
	cli->argc = a->n_pos;
	cli->argv = a->pos;
	mdp_diags_init(&cli->d);
	if (!(rc = setup(cli, c)))
		rc = c->fn(cli);
	teardown(cli);
	return rc;
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

	if (argc > 3 || (argc > 2 && !c && !all))
		return MDP_EXIT_USAGE;
	for (const struct option *o = long_opts; o->name; o++) {
		unsigned bit = opt_bit(o->val);
		const char *eq = o->has_arg == required_argument ? "=" : "";
		if (bit && !all && !(c && (c->opts & bit)))
			continue;
		printf("--%s%s\n", o->name, eq);
		if (o->val > 0 && o->val < 256)
			printf("-%c%s\n", o->val, eq);
	}
	return fflush(stdout) ? MDP_EXIT_FAILED : MDP_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct cli cli = {
	    .lock = {-1}, .watcher = {-1}, .boot_wait = 120, .boot_recheck = CLI_RECHECK_DEFAULT};
	struct args a = {.root_dir = getenv("MDPROFILE_ROOT")};
	int rc;

	if (argc > 1 && !strcmp(argv[1], "__options"))
		return print_options(argc, argv);
	if ((rc = parse_args(&cli, argc, argv, &a))) {
		if (rc == MDP_EXIT_USAGE && !cli.n_errors)
			usage_all(stderr);
	} else {
		rc = run(&cli, &a);
	}
	free(a.pos);
	return finish(&cli, rc);
}
