/*
 * boot-script: a script that applies a profile again at every boot
 * (src/boot.h says what it does). It reads the system, for the UUIDs the
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

#include "boot.h"
#include "commands.h"
#include "num.h"
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

static int boot_opts(struct cli *cli, struct mdp_boot_opts *o, char *exe, size_t len)
{
	ssize_t n;

	o->target = mdp_boot_target_detect(&cli->root);
	if (cli->boot_target && mdp_boot_target_parse(cli->boot_target, &o->target)) {
		cli_err(cli, "--target '%s': expected dsm or rc.d", cli->boot_target);
		return MDP_EXIT_USAGE;
	}
	o->binary = cli->boot_binary;
	if (!o->binary) {
		/* The binary running now is the one the owner installed. */
		if ((n = readlink("/proc/self/exe", exe, len - 1)) <= 0) {
			cli_err(cli, "cannot tell where this mdprofile is; give --binary PATH");
			return MDP_EXIT_USAGE;
		}
		exe[n] = '\0';
		o->binary = exe;
	}
	o->wait_arrays = cli->boot_wait;
	o->recheck_after = cli->boot_recheck;
	o->with_services = cli->with_services;
	o->version = MDP_VERSION;
	o->when = boot_when();
	return 0;
}

/* -o FILE: replaced atomically, mode 0755, through a root on "/" like every file we write. */
static int write_out(struct cli *cli, const char *file, const char *text, size_t len)
{
	char abs[PATH_MAX], cwd[PATH_MAX];
	struct mdp_root r;
	int err;

	if (file[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		err = -errno;
	else if (snprintf(abs, sizeof(abs), "%s%s%s", file[0] == '/' ? "" : cwd,
			  file[0] == '/' ? "" : "/", file) >= (int)sizeof(abs))
		err = -ENAMETOOLONG;
	else if (!(err = mdp_root_init(&r, NULL))) {
		err = mdp_root_replace(&r, abs, text, len, 0755);
		mdp_root_fini(&r);
	}
	if (err)
		cli_err(cli, "cannot write %s: %s", file, strerror(-err));
	return err ? MDP_EXIT_FAILED : 0;
}

static void next_steps(const struct mdp_boot_opts *o, const char *file)
{
	char safe[PATH_MAX + 64];

	printf("wrote %s\n", render_safe(file, safe, sizeof(safe)));
	if (o->target == MDP_BOOT_DSM)
		printf("to run it at every boot, in DSM:\n%s", mdp_boot_dsm.task_steps);
	else
		printf("to run it at every boot: copy it to %s/mdprofile.sh (owned by root, mode "
		       "0755)\n",
		       mdp_boot_dsm.rcd_dir);
}

static int do_boot_script(struct cli *cli)
{
	struct mdp_boot_opts o;
	struct mdp_system s = {0};
	struct mdp_diags d;
	char exe[PATH_MAX], *text = NULL;
	size_t len;
	int rc, err;

	if (cli->json) {
		cli_err(cli, "boot-script writes a script, not JSON: drop --json");
		return MDP_EXIT_USAGE;
	}
	if ((rc = boot_opts(cli, &o, exe, sizeof(exe))) || (rc = cli_discover(cli, 0, &s)))
		goto out;
	mdp_diags_init(&d);
	err = mdp_boot_script(&cli->profile, &s, &o, &text, &len, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (err) {
		rc = err == -EINVAL ? MDP_EXIT_USAGE : MDP_EXIT_FAILED;
		goto out;
	}
	if (!cli->out_file)
		fwrite(text, 1, len, stdout);
	else if (!(rc = write_out(cli, cli->out_file, text, len)))
		next_steps(&o, cli->out_file);
out:
	free(text);
	mdp_system_free(&s);
	return rc;
}

const struct cmd cmd_boot_script = {
    "boot-script",
    do_boot_script,
    CMD_PROFILE,
    OPT_TARGET | OPT_BINARY | OPT_WAIT_ARRAYS | OPT_RECHECK | OPT_WITH_SERVICES | OPT_OUT,
    1,
    1,
    "boot-script [--target dsm|rc.d] [--binary PATH] [--wait-arrays S] [--recheck-after S] "
    "[--with-services] [-o FILE] PROFILE",
    "print a script that applies PROFILE at every boot (DSM Task Scheduler, rc.d)"};
