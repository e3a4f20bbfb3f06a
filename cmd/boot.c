/*
 * boot-script: a script that applies a profile again at every boot
 * (src/boot/boot.h says what it does). It reads the system, for the UUIDs the
 * profile's array names stand for, and writes the script to stdout or,
 * with -o, atomically to a file; it changes nothing on the system.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mdp_boot.h"
#include "commands.h"
#include "mdp_base.h"
#include "render.h"

#ifndef MDP_VERSION
#define MDP_VERSION "unknown"
#endif

/* SOURCE_DATE_EPOCH (reproducible builds' convention) fixes the header's date. */
static long long boot_when(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	uint64_t v;

	if (e && !mdp_num_parse(e, 0, INT32_MAX, &v))
		return (long long)v;
	return (long long)time(NULL);
}

int cli_boot_opts(struct cli *cli, const struct boot_cli_opts *b, struct mdp_boot_opts *o,
		  bool install, char *exe, size_t len)
{
	ssize_t n;

	memset(o, 0, sizeof(*o));
	o->target = mdp_boot_target_detect(&cli->root);
	if (b->target && mdp_boot_target_parse(b->target, &o->target)) {
		cli_err(cli, "--target '%s': expected dsm, rc.d or systemd", b->target);
		return MDP_EXIT_USAGE;
	}
	o->binary = b->binary;
	if (!o->binary && install && !mdp_root_is_real(&cli->root)) {
		/* This binary's path is the host's, not where the tree's system keeps it. */
		cli_err(cli, "under --root, give --binary PATH: mdprofile's path as the system in "
			     "the tree sees it");
		return MDP_EXIT_USAGE;
	}
	if (!o->binary) {
		/* The binary running now is the one the owner installed. */
		if ((n = readlink("/proc/self/exe", exe, len - 1)) <= 0) {
			cli_err(cli, "cannot tell where this mdprofile is; give --binary PATH");
			return MDP_EXIT_USAGE;
		}
		exe[n] = '\0';
		o->binary = exe;
	}
	o->wait_arrays = b->wait;
	/* DSM rewrites values while it boots; nothing does on systemd: no re-check there. */
	o->recheck_after = b->recheck != CLI_RECHECK_DEFAULT ? b->recheck
			   : o->target == MDP_BOOT_SYSTEMD   ? 0
							     : 120;
	o->with_services = b->with_services;
	o->version = MDP_VERSION;
	o->when = boot_when();
	return 0;
}

/* -o FILE, through a root on "/" (mdp_boot_write_out says how, and what it refuses). */
static int write_out(struct cli *cli, const char *file, const char *text, size_t len, char *shown,
		     size_t cap)
{
	char cwd[PATH_MAX], abs[PATH_MAX];
	struct mdp_diags d;
	struct mdp_root r;
	int err;

	snprintf(shown, cap, "%s", file);
	mdp_diags_init(&d);
	if (file[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		err = -errno;
	else if (snprintf(abs, sizeof(abs), "%s%s%s", file[0] == '/' ? "" : cwd,
			  file[0] == '/' ? "" : "/", file) >= (int)sizeof(abs))
		err = -ENAMETOOLONG;
	else if (!(err = mdp_root_init(&r, NULL))) {
		err = mdp_boot_write_out(&r, abs, text, len, shown, cap, &d);
		mdp_root_fini(&r);
	}
	if (err && !d.n)
		cli_err(cli, "cannot write %s: %s", file, strerror(-err));
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	return err == -EPERM ? MDP_EXIT_USAGE : err ? MDP_EXIT_FAILED : 0;
}

/*
 * The binary the boot runs as root must be
 * there and root's alone (mdp_boot_check_binary). Otherwise "refusing to
 * VERB" and exit 2; verb NULL only warns (boot-script -o: the script may
 * be meant for another box, or the binary not copied yet). 0 or 2.
 */
static int check_binary(struct cli *cli, const struct mdp_boot_opts *o, const char *verb)
{
	char msg[PATH_MAX + 256];

	if (!mdp_boot_check_binary(&cli->root, o->binary, msg, sizeof(msg)))
		return 0;
	if (verb) {
		cli_err(cli, "refusing to %s: %s", verb, msg);
		return MDP_EXIT_USAGE;
	}
	cli_err(cli, "warning: %s", msg);
	return 0;
}

/* What is left for the owner once the script is in place at sys (a path on the box). */
static void next_steps(const char *name, const struct mdp_boot_opts *o, const char *sys)
{
	char safe[PATH_MAX + 64];

	render_safe(sys, safe, sizeof(safe));
	if (o->target == MDP_BOOT_DSM)
		printf("to run it at every boot, in DSM:\n%s%s\n", mdp_boot_dsm.task_steps, safe);
	else if (o->target == MDP_BOOT_RCD)
		printf("DSM 6 runs %s/*.sh with start at every boot; to run it now: %s start\n",
		       mdp_boot_dsm.rcd_dir, safe);
	else
		printf("to enable it: systemctl daemon-reload && systemctl enable "
		       "mdprofile-%s.service && udevadm control --reload-rules\n",
		       name);
}

static void print_files(const struct mdp_boot_file *f, size_t n, const char *verb)
{
	char safe[PATH_MAX + 64];

	for (size_t i = 0; i < n; i++)
		if (f[i].done)
			printf("%s the boot %s %s\n", verb, f[i].what,
			       render_safe(f[i].sys, safe, sizeof(safe)));
}

/* --install: the script (and the unit and udev rule) where the target runs them. */
static int boot_install(struct cli *cli, const struct mdp_boot_opts *o, const char *text,
			size_t len)
{
	struct mdp_boot_file f[MDP_BOOT_FILES];
	struct mdp_diags d;
	size_t n = 0;
	int err;

	mdp_diags_init(&d);
	err = mdp_boot_install_script(&cli->root, &cli->profile, o, text, len, f, &n, &d);
	if (cli_info(cli))
		print_files(f, n, "installed");
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (!err && cli_info(cli))
		next_steps(cli->profile.name, o, f[0].sys);
	mdp_boot_files_free(f, n);
	return err == -EINVAL || err == -EPERM ? MDP_EXIT_USAGE : err ? MDP_EXIT_FAILED : 0;
}

static void uninstall_steps(const struct mdp_boot_opts *o)
{
	if (o->target == MDP_BOOT_DSM)
		printf("then delete its task in DSM: Control Panel > Task Scheduler, select the "
		       "task, Delete\n");
	else if (o->target == MDP_BOOT_SYSTEMD)
		printf("then: systemctl daemon-reload && udevadm control --reload-rules\n");
}

/*
 * The profile name --uninstall is given: the name itself, a file's name
 * without ".yaml" (the file need not exist any more), or --name's for "-".
 * Nothing is loaded: the files go by the name alone.
 */
static const char *uninstall_name(struct cli *cli, char *buf, size_t cap)
{
	const char *arg = cli->argv[1], *base = strrchr(arg, '/');
	size_t n;

	if (!strcmp(arg, "-"))
		return cli->stdin_name;
	base = base ? base + 1 : arg;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".yaml"))
		n -= 5;
	snprintf(buf, cap, "%.*s", (int)n, base);
	return buf;
}

/* --uninstall: what --install wrote, by the same names; no profile or system state is read. */
static int boot_uninstall(struct cli *cli, const struct mdp_boot_opts *o)
{
	struct mdp_boot_file f[MDP_BOOT_FILES];
	struct mdp_diags d;
	char buf[PATH_MAX];
	const char *name = uninstall_name(cli, buf, sizeof(buf));
	size_t n = 0, done = 0;
	int err;

	if (!name) {
		cli_err(cli, "--uninstall -: give the profile's name instead, or --name NAME");
		return MDP_EXIT_USAGE;
	}
	mdp_diags_init(&d);
	if ((err = mdp_boot_uninstall_named(&cli->root, name, o, f, &n, &d)) == -EINVAL ||
	    err == -EBUSY) {
		cli_print_diags(cli, &d);
		mdp_diags_free(&d);
		if (err == -EINVAL)
			return MDP_EXIT_USAGE;
		cli_err(cli,
			"mdprofile-%s.service is enabled: run 'systemctl disable "
			"mdprofile-%s.service' first",
			name, name);
		return MDP_EXIT_FAILED;
	}
	if (cli_info(cli))
		print_files(f, n, "removed");
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	for (size_t i = 0; i < n; i++)
		done += f[i].done;
	if (!err && !done && cli_info(cli))
		printf("no boot files of profile %s for target %s to remove\n", name,
		       mdp_boot_target_name(o->target));
	if (!err && cli_info(cli))
		uninstall_steps(o);
	return err ? MDP_EXIT_FAILED : 0;
}

/* boot-script's options. */
struct boot_script_opts {
	struct boot_cli_opts boot;
	const char *out;         /* -o FILE */
	bool install, uninstall; /* --install, --uninstall */
};

static const struct opt boot_script_opts[] = {
    BOOT_CLI_OPTS(struct boot_script_opts, boot),
    OPT_NAMING("output", 'o', "FILE", OPTV_FILE, struct boot_script_opts, out,
	       "write it to FILE (default: stdout)"),
    OPT_FLAG("install", 0, struct boot_script_opts, install,
	     "install it where the target runs boot scripts"),
    OPT_FLAG("uninstall", 0, struct boot_script_opts, uninstall,
	     "remove the one installed for PROFILE (only its name is needed)"),
};

static const struct opt_pair boot_script_excl[] = {
    {"install", "uninstall", NULL},
    {"output", "install", "-o and --install: choose one"},
    {"output", "uninstall", "-o and --uninstall: choose one"},
    {NULL, NULL, NULL},
};

static const struct boot_script_opts boot_script_defaults = {.boot = BOOT_CLI_DEFAULTS};

static const struct opt_table boot_script_table = OPT_TABLE(
    boot_script_opts, struct boot_script_opts, &boot_script_defaults, boot_script_excl, NULL);

static int boot_check_opts(struct cli *cli)
{
	const struct boot_script_opts *b = cli->opts;

	/* -o with --install or --uninstall: the table refuses it */
	if (cli->json)
		cli_err(cli, "boot-script writes a script, not JSON: drop --json");
	else if ((b->install || b->uninstall) && geteuid() != 0 && mdp_root_is_real(&cli->root)) {
		cli_err(cli, "--%s changes root's boot files: run it as root",
			b->install ? "install" : "uninstall");
		return MDP_EXIT_NOPERM;
	} else
		return 0;
	return MDP_EXIT_USAGE;
}

/* The script for the loaded profile in *text; 0 or an exit code. */
static int boot_generate(struct cli *cli, const struct mdp_boot_opts *o, char **text, size_t *len)
{
	struct mdp_system s = {0};
	struct mdp_diags d;
	int rc, err;

	if ((rc = cli_discover(cli, 0, &s)))
		return rc;
	mdp_diags_init(&d);
	err = mdp_boot_script(&cli->profile, &s, o, text, len, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	mdp_system_free(&s);
	return err == -EINVAL ? MDP_EXIT_USAGE : err ? MDP_EXIT_FAILED : 0;
}

/*
 * The profile, loaded here rather than by the command table: --uninstall
 * needs only its name. --install and -o pin it into a script root runs at
 * every boot, so a file others can write is refused, as apply refuses it
 * (cli->mutating makes the check strict); printing the script only warns.
 */
static int boot_load(struct cli *cli)
{
	const struct boot_script_opts *b = cli->opts;
	int rc;

	cli->mutating = b->install || b->out;
	if ((rc = cli_load_profile(cli, cli->argv[1], &cli->profile)))
		return rc;
	cli->have_profile = true;
	return 0;
}

static int do_boot_script(struct cli *cli)
{
	const struct boot_script_opts *b = cli->opts;
	struct mdp_boot_opts o;
	char exe[PATH_MAX], abs[PATH_MAX], *text = NULL;
	size_t len;
	int rc;

	if ((rc = boot_check_opts(cli)) ||
	    (rc = cli_boot_opts(cli, &b->boot, &o, b->install, exe, sizeof(exe))))
		return rc;
	if (b->uninstall)
		return boot_uninstall(cli, &o);
	if ((rc = boot_load(cli)) || (rc = boot_generate(cli, &o, &text, &len)))
		return rc;
	if (b->install)
		rc = check_binary(cli, &o, "install") ? MDP_EXIT_USAGE
						      : boot_install(cli, &o, text, len);
	else if (!b->out)
		fwrite(text, 1, len, stdout);
	else if (!(rc = check_binary(cli, &o, NULL)) &&
		 !(rc = write_out(cli, b->out, text, len, abs, sizeof(abs))) && cli_info(cli)) {
		printf("wrote %s\n", abs);
		next_steps(cli->profile.name, &o, abs);
	}
	free(text);
	return rc;
}

const struct cmd cmd_boot_script = {
    .name = "boot-script",
    .fn = do_boot_script,
    .flags = 0, /* the profile is loaded by boot_load: --uninstall needs only its name */
    .opts = &boot_script_table,
    .min_args = 1,
    .max_args = 1,
    .args = "PROFILE",
    .summary = "a script that applies PROFILE at every boot, written to stdout, to a file, or "
	       "installed",
};
