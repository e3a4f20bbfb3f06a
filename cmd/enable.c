/*
 * enable, disable: a profile from now on, in one command (what
 * `tuned-adm profile NAME` or `systemctl enable` is to their owners).
 *
 * enable PROFILE applies PROFILE now (enable_apply) and installs what
 * applies it again at every boot, pinned as boot-script pins it and from
 * the same generator (src/boot/boot.h), with --auto OVERLAY the watcher
 * `mdprofile auto OVERLAY` after it; src/boot/enable.h installs and registers
 * it (the DSM task, the systemd units, rc.d) and starts the watcher. What
 * was installed is recorded (MDP_BOOT_RECORD) for disable, status
 * (enable_status.c) and the next enable: the same arguments again change
 * nothing ("already enabled"), others replace it. disable removes it all,
 * stops the watcher and reverts (enable_revert).
 *
 * Exit codes: 0 done, or already so; 1 done but for one step left to the
 * owner, printed: the DSM task when esynoscheduler is missing or answers
 * otherwise (the script is in place, the Task Scheduler steps say how to
 * create it by hand), the systemd units when systemctl fails; 2 usage,
 * profile, or a binary or place others could change, nothing touched; 3 a
 * failure, rolled back; 4 as apply's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdp_boot.h"
#include "commands.h"
#include "json.h"
#include "render.h"

/* ---- the profile: now -------------------------------------------------------------- */

/*
 * Apply the profile enable installs, now, as the base: it replaces the
 * base that is active (refused while an overlay is on it).
 */
static int enable_apply(struct cli *cli)
{
	const struct mdp_apply_opts o = {.origin = MDP_BY_ENABLE, .as_base = true, .lean = true};
	const struct mdp_profile *p = &cli->profile;
	struct mdp_applied a;
	char nm[1024];
	int rc;

	if (!(rc = cli_apply(cli, p, &o, &a))) {
		rc = cli_txn_result(cli, a.rc, "apply", &a.plan);
		if (rc == MDP_EXIT_OK && cli_info(cli))
			printf(mdp_txn_report_changed(&cli->tx.rep)
				   ? "profile %s is active\n"
				   : "profile %s: already in sync, nothing changed\n",
			       render_safe(p->name, nm, sizeof(nm)));
	}
	mdp_txn_report_free(&cli->tx.rep);
	mdp_applied_free(&a);
	return rc;
}

/* Revert what enable_apply applied and any overlay on it (disable; an install that failed). */
static int enable_revert(struct cli *cli)
{
	int rc = cli_txn_result(cli, mdp_txn_revert(&cli->tx, true), "revert", NULL);

	mdp_txn_report_free(&cli->tx.rep);
	return rc;
}

/*
 * Print a step's report in order (-q leaves out what was done) and empty
 * it. The exit code: rc when err, 1 when a step is left to the owner, or 0.
 */
static int say(struct cli *cli, struct mdp_enable_report *rep, int err, int rc)
{
	bool left = rep->left;

	for (size_t i = 0; i < rep->n; i++)
		if (rep->v[i].kind == MDP_EN_ERROR)
			cli_err(cli, "%s", rep->v[i].text);
		else if (rep->v[i].kind == MDP_EN_STEP || cli_info(cli))
			printf("%s\n", rep->v[i].text);
	mdp_enable_report_free(rep);
	return err ? rc : left ? MDP_EXIT_PENDING : 0;
}

/* The lock let go: the watchers enable or disable stopped may need it to end. */
static void unlock(void *arg)
{
	struct cli *cli = arg;

	mdp_lock_release(&cli->lock);
	cli->lock.fd = -1;
}

static int apply_cb(void *arg)
{
	return enable_apply(arg);
}

static int revert_cb(void *arg)
{
	return enable_revert(arg);
}

static void say_cb(void *arg, struct mdp_enable_report *rep)
{
	(void)say(arg, rep, 0, 0);
}

/* How enable or disable ended, as an exit code. */
static int end_code(struct mdp_enable_res r)
{
	switch (r.end) {
	case MDP_ENABLE_DONE:
	case MDP_ENABLE_NONE:
		return MDP_EXIT_OK;
	case MDP_ENABLE_LEFT:
		return MDP_EXIT_PENDING;
	case MDP_ENABLE_REFUSED:
		return MDP_EXIT_USAGE;
	case MDP_ENABLE_CALLER:
		return r.rc;
	case MDP_ENABLE_FAILED:
		break;
	}
	return MDP_EXIT_FAILED;
}

/* enable's options. */
struct enable_opts {
	const char *auto_profile; /* --auto OVERLAY */
	struct boot_cli_opts boot;
};

static const struct opt enable_opts[] = {
    OPT_NAMING("auto", 0, "OVERLAY", OPTV_PROFILE, struct enable_opts, auto_profile,
	       "also the watcher, mdprofile auto OVERLAY, now and at every boot"),
    BOOT_CLI_OPTS(struct enable_opts, boot),
};

static const struct enable_opts enable_defaults = {.boot = BOOT_CLI_DEFAULTS};

static const struct opt_table enable_table =
    OPT_TABLE(enable_opts, struct enable_opts, &enable_defaults, NULL, NULL);

static int enable_check_opts(struct cli *cli)
{
	const char *ov = ((const struct enable_opts *)cli->opts)->auto_profile;

	if (cli->json)
		cli_err(cli, "enable reports as text: drop --json (status --json says what is "
			     "enabled)");
	else if (!strcmp(cli->argv[1], "-"))
		cli_err(cli, "enable needs the profile by name or file, not on stdin: the boot "
			     "applies it again");
	else if (ov && (!strcmp(ov, "-") || !ov[0]))
		cli_err(cli, "--auto needs a profile by name or file, not on stdin");
	else
		return 0;
	return MDP_EXIT_USAGE;
}

/*
 * --auto OVERLAY, loaded now into cli->overlay: the script carries it pinned
 * (F03: a relative path or a name found through --profiles works at boot too).
 */
static int check_auto(struct cli *cli)
{
	const struct enable_opts *e = cli->opts;
	int rc;

	if (!e->auto_profile)
		return 0;
	if ((rc = cli_load_profile(cli, e->auto_profile, &cli->overlay)))
		return rc;
	cli->have_overlay = true;
	/* The watcher's layer over the same profile would add nothing, and is not its (F02). */
	if (!strcmp(cli->overlay.name, cli->profile.name)) {
		cli_err(cli,
			"--auto %s is the profile enabled itself: the watcher would have nothing "
			"to add; give it a faster profile, or leave --auto out",
			cli->overlay.name);
		return MDP_EXIT_USAGE;
	}
	return 0;
}

/*
 * rc.d is DSM 6's: on another box without systemd (sysvinit, OpenRC)
 * nothing runs that directory, and "enabled" would be untrue.
 */
static int check_target(struct cli *cli, const struct mdp_boot_opts *o)
{
	if (o->target != MDP_BOOT_RCD || mdp_root_exists(&cli->root, mdp_discover_dsm.version_file))
		return 0;
	cli_err(cli,
		"this system runs neither DSM nor systemd: nothing here runs %s at boot, "
		"so enable has nothing to install; nothing was changed",
		mdp_boot_dsm.rcd_dir);
	cli_err(cli, "write a script with 'mdprofile boot-script PROFILE' and run it from this "
		     "system's own boot (an init script, /etc/rc.local)");
	return MDP_EXIT_USAGE;
}

/*
 * Before anything happens (the lock, recover): the options, the boot
 * options, a target that boots, then the profile and --auto's, loaded after
 * "-" is refused (the boot has no stdin to read them from).
 */
static int enable_check(struct cli *cli)
{
	const struct enable_opts *e = cli->opts;
	struct mdp_boot_opts o;
	char exe[PATH_MAX];
	int rc;

	if ((rc = enable_check_opts(cli)) ||
	    (rc = cli_boot_opts(cli, &e->boot, &o, true, exe, sizeof(exe))) ||
	    (rc = check_target(cli, &o)) ||
	    (rc = cli_load_profile(cli, cli->argv[1], &cli->profile)))
		return rc;
	cli->have_profile = true;
	return check_auto(cli);
}

static int do_enable(struct cli *cli)
{
	const struct enable_opts *e = cli->opts;
	const struct mdp_enable_ops ops = {apply_cb, revert_cb, unlock, say_cb, cli};
	struct mdp_system s = {0};
	struct mdp_boot_opts o;
	char exe[PATH_MAX];
	int rc;

	if ((rc = cli_boot_opts(cli, &e->boot, &o, true, exe, sizeof(exe)))) /* enable_check's */
		return rc;
	o.enable = true;
	o.auto_p = cli->have_overlay ? &cli->overlay : NULL; /* enable_check loaded both */
	o.auto_profile = cli->have_overlay ? cli->overlay.name : NULL;
	if ((rc = cli_discover(cli, 0, &s)))
		return rc;
	rc = end_code(mdp_enable_run(&cli->root, &cli->profile, &s, &o, &ops));
	mdp_system_free(&s);
	return rc;
}

const struct cmd cmd_enable = {
    .name = "enable",
    .fn = do_enable,
    .flags = CMD_TXN | CMD_RECOVER | CMD_MD, /* the profiles are loaded by enable_check */
    .opts = &enable_table,
    .min_args = 1,
    .max_args = 1,
    .args = "PROFILE",
    .summary = "apply PROFILE now and at every boot (DSM: the Task Scheduler task); exit 1: "
	       "done but for the step printed (the task or units by hand)",
    .check = enable_check,
};

/* ---- disable ------------------------------------------------------------------------- */

static int do_disable(struct cli *cli)
{
	const struct mdp_enable_ops ops = {apply_cb, revert_cb, unlock, say_cb, cli};
	struct mdp_enable_res r = mdp_disable_run(&cli->root, &ops);

	if (r.end != MDP_ENABLE_NONE)
		return end_code(r);
	if (cli->json) {
		struct json j;
		cli_json_begin(cli, &j);
		render_noop_json(&j, "nothing is enabled");
	} else if (cli_info(cli)) {
		puts("nothing is enabled");
	}
	return MDP_EXIT_OK;
}

const struct cmd cmd_disable = {
    .name = "disable",
    .fn = do_disable,
    .flags = CMD_TXN | CMD_RECOVER,
    .summary = "undo enable: remove the boot task or units, stop the watcher, revert",
};
