/*
 * mdprofile: entry point. Global options, the command table, shared helpers.
 *
 *   mdprofile [--root DIR] [--profiles DIR] [--json] [-v|-q] COMMAND [ARGS]
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const struct cmd *const commands[] = {
    &cmd_list, &cmd_show, &cmd_check, &cmd_diff, &cmd_apply, &cmd_revert, &cmd_recover, &cmd_status,
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

void cli_err(const char *fmt, ...)
{
	va_list ap;

	fputs("mdprofile: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_print_diags(struct mdp_diags *d)
{
	char line[1024];

	mdp_diags_sort(d);
	for (size_t i = 0; i < d->n; i++) {
		mdp_diag_format(&d->v[i], line, sizeof(line));
		cli_err("%s", line);
	}
}

int cli_usage(const struct cmd *c)
{
	fprintf(stderr, "usage: mdprofile [options] %s\n", c->usage);
	return MDP_EXIT_USAGE;
}

int cli_finish(int code)
{
	if (fflush(stdout) || ferror(stdout)) {
		cli_err("error writing output: %s", strerror(errno ? errno : EIO));
		return code > MDP_EXIT_USAGE ? code : MDP_EXIT_FAILED;
	}
	return code;
}

int cli_load_profile(struct cli *cli, const char *arg, struct mdp_profile *p)
{
	struct mdp_diags d;
	char path[PATH_MAX];
	int err;

	mdp_diags_init(&d);
	err = mdp_profile_find(&cli->dirs, arg, path, sizeof(path), &d);
	/* A root-run tool must not take orders from a file others can edit. */
	if (!err && geteuid() == 0 && mdp_root_is_real(&cli->root))
		err = mdp_profile_check_perms(path, &d);
	if (!err)
		err = mdp_profile_load(&cli->dirs, path, p, &d);
	/* Parents reached through extends are orders too. */
	if (!err && geteuid() == 0 && mdp_root_is_real(&cli->root) &&
	    (err = mdp_profile_check_perms_all(p, &d)))
		mdp_profile_free(p);
	if (err && !d.n)
		mdp_diags_add(&d, arg, 0, 0, "cannot load profile: %s", strerror(-err));
	cli_print_diags(&d);
	mdp_diags_free(&d);
	return err ? MDP_EXIT_USAGE : 0;
}

void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			fputs("\\n", stdout);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void usage_all(FILE *f)
{
	fputs("usage: mdprofile [--root DIR] [--profiles DIR] [--json] [-v|-q] [--wait]\n"
	      "                 [--services-backend dsm6|dsm7|systemd|none] "
	      "[--service-timeout SECONDS]\n"
	      "                 COMMAND [ARGS]\n\ncommands:\n",
	      f);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-28s %s\n", commands[i]->usage, commands[i]->help);
	fputs("\nexit codes: 0 ok/in sync, 1 changes pending, 2 usage or profile error,\n"
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

static int setup_dirs(struct cli *cli, const char *user_dir)
{
	size_t n = 0;

	if (user_dir)
		cli->dirs.dirs[n++] = user_dir;
	if (!mdp_root_path(&cli->root, MDP_SYSCONFDIR "/mdprofile/profiles", cli->dir_buf[0],
			   sizeof(cli->dir_buf[0])))
		cli->dirs.dirs[n++] = cli->dir_buf[0];
	shipped_dir(cli->dir_buf[1], sizeof(cli->dir_buf[1]));
	cli->dirs.dirs[n++] = cli->dir_buf[1];
	cli->dirs.n = n;
	return 0;
}

static int parse_seconds(const char *s, unsigned *ms)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (end == s || *end || v < 1 || v > 3600)
		return -EINVAL;
	*ms = (unsigned)v * 1000;
	return 0;
}

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

enum { OPT_ROOT = 256, OPT_PROFILES, OPT_JSON, OPT_WAIT, OPT_SVC, OPT_SVC_TIMEOUT };

static const struct option long_opts[] = {
    {"root", required_argument, NULL, OPT_ROOT},
    {"profiles", required_argument, NULL, OPT_PROFILES},
    {"json", no_argument, NULL, OPT_JSON},
    {"wait", no_argument, NULL, OPT_WAIT},
    {"services-backend", required_argument, NULL, OPT_SVC},
    {"service-timeout", required_argument, NULL, OPT_SVC_TIMEOUT},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

int main(int argc, char **argv)
{
	struct cli cli = {0};
	const char *root_dir = getenv("MDPROFILE_ROOT"), *prof_dir = NULL;
	const struct cmd *c;
	int opt, err;

	/* '+': stop at the command name; its own options are its business. */
	while ((opt = getopt_long(argc, argv, "+vqh", long_opts, NULL)) != -1) {
		switch (opt) {
		case OPT_ROOT:
			root_dir = optarg;
			break;
		case OPT_PROFILES:
			prof_dir = optarg;
			break;
		case OPT_JSON:
			cli.json = true;
			break;
		case OPT_WAIT:
			cli.wait = true;
			break;
		case OPT_SVC:
			cli.svc_force = optarg;
			break;
		case OPT_SVC_TIMEOUT:
			if (parse_seconds(optarg, &cli.svc_timeout_ms)) {
				cli_err("--service-timeout '%s': expected seconds, 1..3600",
					optarg);
				return MDP_EXIT_USAGE;
			}
			break;
		case 'v':
			cli.verbose = 1;
			break;
		case 'q':
			cli.verbose = -1;
			break;
		case 'h':
			usage_all(stdout);
			return cli_finish(MDP_EXIT_OK);
		default:
			usage_all(stderr);
			return MDP_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage_all(stderr);
		return MDP_EXIT_USAGE;
	}
	if (!(c = find_cmd(argv[optind]))) {
		cli_err("unknown command '%s' (see mdprofile --help)", argv[optind]);
		return MDP_EXIT_USAGE;
	}
	if ((err = mdp_root_init(&cli.root, root_dir))) {
		cli_err("--root %s: %s", root_dir, strerror(-err));
		return MDP_EXIT_USAGE;
	}
	if (fault_setup(&cli.root, &cli.fault, getenv("MDPROFILE_FAULT"))) {
		cli_err("MDPROFILE_FAULT '%s': expected KIND:N (write, clamp, crash-after-write, "
			"crash-after-service, fsync, rename)",
			getenv("MDPROFILE_FAULT"));
		return MDP_EXIT_USAGE;
	}
	setup_dirs(&cli, prof_dir);
	argc -= optind;
	argv += optind;
	optind = 1; /* each command parses its own options from argv[0] = name */
	return cli_finish(c->fn(&cli, argc, argv));
}
