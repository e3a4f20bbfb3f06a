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

/* The record of what is enabled: 0 with *rec, -ENOENT none, else -errno (printed). */
static int read_record(struct cli *cli, struct mdp_boot_record *rec)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_boot_record_read(&cli->root, rec, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	return err;
}

/* Everything an earlier enable installed, removed (mdp_enable_remove); 0 or an exit code. */
static int remove_installed(struct cli *cli, const struct mdp_boot_record *rec,
			    const struct mdp_boot_file *keep, size_t n_keep,
			    struct mdp_keeper_stop *st)
{
	struct mdp_enable_report rep;
	int err;

	mdp_enable_report_init(&rep);
	err = mdp_enable_remove(&cli->root, rec, keep, n_keep, st, &rep);
	return say(cli, &rep, err, MDP_EXIT_FAILED);
}

/* After the command's transaction: the lock let go, the watchers stopped are waited for. */
static void watchers_gone(struct cli *cli, const struct mdp_keeper_stop *st)
{
	struct mdp_enable_report rep;

	mdp_lock_release(&cli->lock);
	cli->lock.fd = -1;
	mdp_enable_report_init(&rep);
	mdp_enable_watchers_gone(&cli->root, st, &rep);
	(void)say(cli, &rep, 0, 0);
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

/* The script for the profile (pinned in place, as the boot applies it) and its files. */
static int enable_files(struct cli *cli, const struct mdp_boot_opts *o, struct mdp_boot_file *f,
			size_t *n)
{
	struct mdp_system s = {0};
	struct mdp_diags d;
	char *text = NULL;
	size_t len;
	int rc, err;

	if ((rc = cli_discover(cli, 0, &s)))
		return rc;
	mdp_diags_init(&d);
	if (!(err = mdp_boot_script(&cli->profile, &s, o, &text, &len, &d)))
		err = mdp_boot_files(&cli->profile, o, text, len, f, n, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	mdp_system_free(&s);
	free(text);
	return err == -EINVAL ? MDP_EXIT_USAGE : err ? MDP_EXIT_FAILED : 0;
}

static void enabled_line(struct cli *cli, const struct mdp_boot_opts *o, const char *how)
{
	char nm[1024];

	if (cli_info(cli))
		printf("profile %s %s at every boot (target %s%s%s); 'mdprofile disable' undoes "
		       "it\n",
		       render_safe(cli->profile.name, nm, sizeof(nm)), how,
		       mdp_boot_target_name(o->target), o->auto_profile ? ", watcher: " : "",
		       o->auto_profile ? o->auto_profile : "");
}

/* Install the files and what boots them, and record it; 0 or an exit code. */
static int enable_install(struct cli *cli, const struct mdp_boot_opts *o, struct mdp_boot_file *f,
			  size_t n, const struct mdp_boot_record *old, struct mdp_keeper_stop *st)
{
	struct mdp_enable_report rep;
	int rc, err;

	if (old && (rc = remove_installed(cli, old, f, n, st)))
		return rc;
	mdp_enable_report_init(&rep);
	err = mdp_enable_install_files(&cli->root, f, n, &rep);
	(void)say(cli, &rep, 0, 0);
	if (err) { /* those written are gone again */
		cli_err(cli, "nothing is enabled; reverting the profile");
		if (enable_revert(cli) == MDP_EXIT_PARTIAL)
			return MDP_EXIT_PARTIAL;
		return err == -EPERM || err == -EINVAL ? MDP_EXIT_USAGE : MDP_EXIT_FAILED;
	}
	err = mdp_enable_register(&cli->root, cli->profile.name, o, f, &rep);
	rc = say(cli, &rep, err, MDP_EXIT_FAILED);
	if (!rc)
		enabled_line(cli, o, "is enabled");
	return rc;
}

static int do_enable(struct cli *cli)
{
	const struct enable_opts *e = cli->opts;
	struct mdp_boot_file f[MDP_BOOT_FILES];
	struct mdp_boot_record old;
	struct mdp_keeper_stop st = {0};
	struct mdp_enable_report rep = {0};
	struct mdp_boot_opts o;
	char exe[PATH_MAX];
	size_t n = 0;
	int rc, rerr, wrc;

	if ((rc = cli_boot_opts(cli, &e->boot, &o, true, exe, sizeof(exe)))) /* enable_check's */
		return rc;
	o.enable = true;
	o.auto_p = cli->have_overlay ? &cli->overlay : NULL; /* enable_check loaded both */
	o.auto_profile = cli->have_overlay ? cli->overlay.name : NULL;
	if ((rc = enable_files(cli, &o, f, &n)) || (rc = cli_boot_check_binary(cli, &o, "enable")))
		goto out;
	if ((rerr = read_record(cli, &old)) && rerr != -ENOENT) {
		rc = MDP_EXIT_USAGE;
		goto out;
	}
	/* A task of enable's name it did not create: refused, nothing changed. */
	if ((o.target == MDP_BOOT_DSM &&
	     (rc = say(cli, &rep, mdp_enable_task_refused(&cli->root, &rep), MDP_EXIT_USAGE))) ||
	    (rc = enable_apply(cli)))
		goto out;
	if (!rerr && mdp_enable_installed(&cli->root, &old, cli->profile.name, &o, f, n))
		enabled_line(cli, &o, "is already enabled");
	else
		rc = enable_install(cli, &o, f, n, rerr ? NULL : &old, &st);
	if (rc && rc != MDP_EXIT_PENDING)
		goto out;
	/* The watcher, now, as the boot starts it (systemd's: enable --now started it). */
	watchers_gone(cli, &st);
	mdp_enable_start_watcher(&cli->root, &o, f[0].sys, &rep);
	if ((wrc = say(cli, &rep, 0, 0)) && !rc)
		rc = wrc;
out:
	mdp_boot_files_free(f, n);
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
	struct mdp_keeper_stop st = {0};
	struct mdp_boot_record rec;
	char nm[1024];
	int err, rc;

	if ((err = read_record(cli, &rec)) == -ENOENT) {
		if (cli->json) {
			struct json j;
			cli_json_begin(cli, &j);
			render_noop_json(&j, "nothing is enabled");
		} else if (cli_info(cli)) {
			puts("nothing is enabled");
		}
		return MDP_EXIT_OK;
	}
	if (err)
		return MDP_EXIT_USAGE;
	if ((rc = remove_installed(cli, &rec, NULL, 0, &st)))
		return rc;
	if ((err = mdp_root_unlink(&cli->root, MDP_BOOT_RECORD)) && err != -ENOENT) {
		cli_err(cli, "cannot remove %s: %s", MDP_BOOT_RECORD, mdp_root_strerror(-err));
		return MDP_EXIT_FAILED;
	}
	if (rec.target == MDP_BOOT_DSM && !rec.task && cli_info(cli))
		printf("if you created the Task Scheduler task %s by hand, delete it: Control "
		       "Panel > Task Scheduler, select it, Delete\n",
		       mdp_boot_dsm.task_name);
	rc = enable_revert(cli);
	watchers_gone(cli, &st);
	if (rc)
		return rc;
	if (cli_info(cli))
		printf("profile %s is no longer enabled\n",
		       render_safe(rec.profile, nm, sizeof(nm)));
	return MDP_EXIT_OK;
}

const struct cmd cmd_disable = {
    .name = "disable",
    .fn = do_disable,
    .flags = CMD_TXN | CMD_RECOVER,
    .summary = "undo enable: remove the boot task or units, stop the watcher, revert",
};
