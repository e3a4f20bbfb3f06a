/*
 * enable, disable: a profile from now on, in one command (what
 * `tuned-adm profile NAME` or `systemctl enable` is to their owners).
 *
 * enable PROFILE applies PROFILE now (enable_apply) and installs what
 * applies it again at every boot, pinned as boot-script pins it and from
 * the same generator (src/boot.h): on DSM the script next to the binary
 * and the Task Scheduler boot-up task "mdprofile", created with
 * esynoscheduler and read back (src/task.h); on rc.d the script DSM 6
 * runs with start and stop; on systemd the script, mdprofile.service and
 * a udev rule. --auto OVERLAY adds the watcher `mdprofile auto OVERLAY`
 * after the profile (in the one task or rc.d script, or
 * mdprofile-auto.service). What was installed is recorded
 * (MDP_BOOT_RECORD) for disable, status and the next enable: the same
 * arguments again change nothing ("already enabled"), others replace it.
 * disable removes it all, stops the watcher and reverts (enable_revert).
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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"
#include "commands.h"
#include "exec.h"
#include "json.h"
#include "keeper.h"
#include "render.h"
#include "task.h"

#define TOOL_TIMEOUT_MS 60000

/* ---- the profile: now -------------------------------------------------------------- */

/*
 * Apply the profile enable installs, now, as the base: it replaces the
 * base that is active (refused while an overlay is on it).
 */
static int enable_apply(struct cli *cli)
{
	const struct mdp_profile *p = &cli->profile;
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	char nm[1024];
	int rc;

	cli->tx.as_base = true;
	cli->tx.origin = MDP_BY_ENABLE;
	if (!(rc = cli_discover(cli, mdp_plan_discover_skip(p), &s)) &&
	    !(rc = cli_plan(cli, p, &s, &pl))) {
		rc = cli_txn_result(cli, mdp_txn_apply(&cli->tx, p, &pl), "apply", &pl);
		if (rc == MDP_EXIT_OK && cli_info(cli))
			printf(mdp_txn_report_changed(&cli->tx.rep)
				   ? "profile %s is active\n"
				   : "profile %s: already in sync, nothing changed\n",
			       render_safe(p->name, nm, sizeof(nm)));
	}
	mdp_txn_report_free(&cli->tx.rep);
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	return rc;
}

/* Revert what enable_apply applied and any overlay on it (disable; an install that failed). */
static int enable_revert(struct cli *cli)
{
	int rc = cli_txn_result(cli, mdp_txn_revert(&cli->tx, true), "revert", NULL);

	mdp_txn_report_free(&cli->tx.rep);
	return rc;
}

/* ---- tools ------------------------------------------------------------------------- */

/* Run a system tool: 0, -ENOSYS when it is not there, -EPROTO (with d) when it failed. */
static int run_tool(struct cli *cli, const char *const argv[], struct mdp_diags *d)
{
	struct mdp_exec_result *res = malloc(sizeof(*res));
	char line[256], shown[320];
	int err;

	if (!res)
		return -ENOMEM;
	err = mdp_exec_run(&cli->root, argv, TOOL_TIMEOUT_MS, res, d);
	if (err == -ENOENT) {
		err = -ENOSYS;
	} else if (!err && (res->term_sig || res->exit_code)) {
		char cmd[256];
		size_t n = 0;
		for (size_t i = 0; argv[i] && n < sizeof(cmd); i++)
			n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, "%s%s", i ? " " : "",
					      argv[i]);
		mdp_exec_first_line(res, line, sizeof(line));
		mdp_diags_add(d, NULL, 0, 0, "%s failed (exit code %d): %s", cmd, res->exit_code,
			      line[0] ? render_safe(line, shown, sizeof(shown)) : "(nothing)");
		err = -EPROTO;
	} else if (err && err != -EPERM) {
		mdp_diags_add(d, NULL, 0, 0, "cannot run %s: %s", argv[0], strerror(-err));
		err = -EPROTO;
	}
	free(res);
	return err;
}

/* ---- DSM: the Task Scheduler task ---------------------------------------------------- */

/* The task's operation: one absolute command line, the script run by bash. */
static void task_operation(const struct mdp_boot_file *script, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s %s", mdp_boot_dsm.task_shell, script->sys);
}

static void task_steps(const struct mdp_boot_file *script)
{
	char safe[PATH_MAX + 64];

	printf("to run it at every boot, create the task in DSM:\n%s%s\n", mdp_boot_dsm.task_steps,
	       render_safe(script->sys, safe, sizeof(safe)));
}

/* The task, created and read back; 0, or 1 with the steps left to the owner printed. */
static int task_create(struct cli *cli, const struct mdp_boot_opts *o,
		       const struct mdp_boot_file *script, const char *name)
{
	char op[PATH_MAX + 64], desc[256];
	struct mdp_diags d;
	int err;

	task_operation(script, op, sizeof(op));
	snprintf(desc, sizeof(desc), "mdprofile: apply profile %s at boot%s%s " MDP_TASK_MARK, name,
		 o->auto_profile ? ", then watch with " : "",
		 o->auto_profile ? o->auto_profile : "");
	mdp_diags_init(&d);
	err = mdp_task_create(&cli->root, mdp_boot_dsm.task_name, op, desc, &d);
	if (err == -ENOSYS)
		cli_err(cli, "%s is not on this system: the Task Scheduler task is not created",
			mdp_boot_dsm.scheduler);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (!err) {
		if (cli_info(cli))
			printf("created the Task Scheduler boot-up task %s: %s\n",
			       mdp_boot_dsm.task_name, op);
		return 0;
	}
	if (err != -ENOSYS)
		cli_err(cli, "the Task Scheduler task is not created");
	task_steps(script);
	return MDP_EXIT_PENDING;
}

/*
 * A task of enable's name that enable did not create (the owner's own, another user's): 0
 * when there is none or it is enable's; else its owner and command in why, and 1. Only
 * reads; an esynoscheduler that cannot answer says nothing here (the create says it).
 */
static int task_foreign(struct cli *cli, char *why, size_t cap)
{
	struct mdp_task *t = malloc(sizeof(*t));
	struct mdp_diags d;
	char op[160];
	int foreign;

	if (!t)
		return 0;
	mdp_diags_init(&d);
	foreign = !mdp_task_get(&cli->root, mdp_boot_dsm.task_name, t, &d) && !mdp_task_ours(t);
	mdp_diags_free(&d);
	if (foreign)
		snprintf(why, cap, "owner %s, runs '%s'", t->owner[0] ? t->owner : "unknown",
			 render_safe(t->operation, op, sizeof(op)));
	free(t);
	return foreign;
}

/* Before anything changes: enable never replaces a task it did not create. Exit 2 if so. */
static int task_refused(struct cli *cli)
{
	char why[256];

	if (!task_foreign(cli, why, sizeof(why)))
		return 0;
	cli_err(
	    cli,
	    "a Task Scheduler task named %s is there that mdprofile enable did not create (%s); "
	    "nothing was changed",
	    mdp_boot_dsm.task_name, why);
	cli_err(cli, "rename or delete it in DSM (Control Panel > Task Scheduler), then run enable "
		     "again");
	return MDP_EXIT_USAGE;
}

/* The task, deleted and looked for; 0, or 1 with the step left printed. A task of the name
 * that enable did not create is left as it is, and said so. */
static int task_delete(struct cli *cli, bool created)
{
	struct mdp_diags d;
	char why[256];
	int err;

	if (task_foreign(cli, why, sizeof(why))) {
		if (cli_info(cli))
			printf("left the Task Scheduler task %s as it is: mdprofile enable did not "
			       "create it (%s)\n",
			       mdp_boot_dsm.task_name, why);
		return 0;
	}
	mdp_diags_init(&d);
	err = mdp_task_delete(&cli->root, mdp_boot_dsm.task_name, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (!err) {
		if (cli_info(cli) && created)
			printf("deleted the Task Scheduler task %s\n", mdp_boot_dsm.task_name);
		return 0;
	}
	if (err == -ENOSYS && !created)
		return 0; /* never created: the owner made it by hand, and is told to delete it */
	if (err == -ENOSYS)
		cli_err(cli, "%s is not on this system: cannot delete the Task Scheduler task %s",
			mdp_boot_dsm.scheduler, mdp_boot_dsm.task_name);
	/* The task still runs the script at boot: both stay until it is gone. */
	printf("delete the task by hand (Control Panel > Task Scheduler, select %s, Delete), "
	       "then run this command again\n",
	       mdp_boot_dsm.task_name);
	return MDP_EXIT_PENDING;
}

/* ---- systemd: the units -------------------------------------------------------------- */

static void unit_steps(const struct mdp_boot_opts *o, bool enable)
{
	printf("to %s them: systemctl daemon-reload && systemctl %s --now %s.service%s && udevadm "
	       "control --reload-rules\n",
	       enable ? "enable" : "disable", enable ? "enable" : "disable", MDP_BOOT_ENABLED,
	       o->auto_profile ? " " MDP_BOOT_ENABLED "-auto.service" : "");
}

/* systemctl daemon-reload, and udev's rules reloaded (no udevadm: no udev to tell). */
static int units_reload(struct cli *cli, struct mdp_diags *d)
{
	const char *reload[] = {"systemctl", "daemon-reload", NULL};
	const char *udev[] = {"udevadm", "control", "--reload-rules", NULL};
	int err = run_tool(cli, reload, d);

	if (!err && (err = run_tool(cli, udev, d)) == -ENOSYS)
		err = 0;
	return err;
}

/*
 * enable: the unit files read, the units enabled; disable: the units
 * disabled (their files go after, then units_reload). 0, or 1 with the
 * commands left to the owner printed.
 */
static int units(struct cli *cli, const struct mdp_boot_opts *o, bool enable)
{
	/* --now: started or stopped too, so that systemctl and the machine agree; --no-block:
	   their start and stop run mdprofile, which waits for the lock this command holds */
	const char *change[] = {"systemctl",
				enable ? "enable" : "disable",
				"--now",
				"--no-block",
				MDP_BOOT_ENABLED ".service",
				o->auto_profile ? MDP_BOOT_ENABLED "-auto.service" : NULL,
				NULL};
	struct mdp_diags d;
	int err = 0;

	mdp_diags_init(&d);
	if (enable)
		err = units_reload(cli, &d);
	if (!err)
		err = run_tool(cli, change, &d);
	if (err == -ENOSYS)
		cli_err(cli, "systemctl is not on this system: the units are not %s",
			enable ? "enabled" : "disabled");
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (!err) {
		if (cli_info(cli))
			printf("%s %s.service%s\n",
			       enable ? "enabled and started" : "disabled and stopped",
			       MDP_BOOT_ENABLED,
			       o->auto_profile ? " and " MDP_BOOT_ENABLED "-auto.service" : "");
		return 0;
	}
	unit_steps(o, enable);
	return MDP_EXIT_PENDING;
}

/* ---- the watcher ------------------------------------------------------------------- */

/* The command that starts the watcher enabled with --auto, for the owner. */
static void start_command(const struct mdp_boot_opts *o, const char *script, char *buf, size_t cap)
{
	char safe[PATH_MAX + 64];

	if (o->target == MDP_BOOT_SYSTEMD)
		snprintf(buf, cap, "systemctl start " MDP_BOOT_ENABLED "-auto.service");
	else
		snprintf(buf, cap, "/bin/sh %s start-auto",
			 render_safe(script, safe, sizeof(safe)));
}

/*
 * disable, and an enable that replaces another: SIGTERM to the keeper the
 * boot script (or enable) started and to any watcher of mode auto, one
 * started by hand too (src/keeper.h). Not waited for: to remove an engaged
 * overlay the watcher needs the lock this command holds (watchers_gone).
 * systemd's units are stopped by `systemctl disable --now` (units()).
 */
static void stop_watchers(struct cli *cli, const struct mdp_boot_opts *o,
			  const struct mdp_boot_file *script, struct mdp_keeper_stop *st)
{
	struct mdp_keeper_stop now;

	mdp_keeper_stop(&cli->root, o->target == MDP_BOOT_SYSTEMD ? NULL : script->sys, &now);
	if (now.keeper)
		st->keeper = now.keeper;
	if (now.watcher)
		st->watcher = now.watcher;
}

/* After the command's transaction: the lock let go, the watchers stopped are waited for. */
static void watchers_gone(struct cli *cli, const struct mdp_keeper_stop *st)
{
	mdp_lock_release(&cli->lock);
	cli->lock.fd = -1;
	if (!st->watcher && !st->keeper)
		return;
	if (!mdp_keeper_wait_gone(&cli->root, 15000))
		cli_err(cli, "the watcher (pid %ld) did not stop within 15 s", st->watcher);
	else if (cli_info(cli) && st->watcher)
		printf("stopped the watcher (pid %ld)\n", st->watcher);
}

/*
 * enable --auto on DSM and rc.d: the watcher's keeper started now, as the
 * boot starts it, and waited for until the watcher is armed. 0, or 1 with
 * the command that starts it printed. systemd's unit was started by
 * `systemctl enable --now`.
 */
static int start_watcher(struct cli *cli, const struct mdp_boot_opts *o,
			 const struct mdp_boot_file *script)
{
	char cmd[PATH_MAX + 64];
	struct mdp_diags d;
	long keeper = 0, pid;
	int err;

	if (!o->auto_profile || o->target == MDP_BOOT_SYSTEMD)
		return 0;
	start_command(o, script->sys, cmd, sizeof(cmd));
	if (mdp_watcher_probe(&cli->root) == 1) {
		if (cli_info(cli))
			printf("a watcher runs already: the next boot starts the one enabled; now: "
			       "stop that one, then %s\n",
			       cmd);
		return MDP_EXIT_PENDING;
	}
	mdp_diags_init(&d);
	err = mdp_keeper_start(&cli->root, script->sys, &keeper, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	pid = err ? -1 : mdp_keeper_wait_armed(&cli->root, keeper, 10000);
	if (pid > 0) {
		if (cli_info(cli))
			printf("started the watcher (mdprofile auto %s, pid %ld); its log: %s\n",
			       o->auto_profile, pid, MDP_BOOT_AUTO_LOG);
		return 0;
	}
	cli_err(cli, "the watcher (mdprofile auto %s) %s; its log: %s", o->auto_profile,
		pid ? "did not start" : "is not armed after 10 s", MDP_BOOT_AUTO_LOG);
	printf("to start it: %s\n", cmd);
	return MDP_EXIT_PENDING;
}

/* ---- files ------------------------------------------------------------------------- */

static void print_files(struct cli *cli, const struct mdp_boot_file *f, size_t n, const char *verb)
{
	char safe[PATH_MAX + 64];

	for (size_t i = 0; i < n && cli_info(cli); i++)
		if (f[i].done)
			printf("%s the boot %s %s\n", verb, f[i].what,
			       render_safe(f[i].sys, safe, sizeof(safe)));
}

/* Remove the files; 0, or an exit code (the diags printed). */
static int remove_files(struct cli *cli, struct mdp_boot_file *f, size_t n)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_boot_uninstall(&cli->root, f, n, &d);
	print_files(cli, f, n, "removed");
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	return err ? MDP_EXIT_FAILED : 0;
}

/* ---- enable -------------------------------------------------------------------------- */

/* Are the installed pieces those of rec and o (files, task or units)? */
static bool installed(struct cli *cli, const struct mdp_boot_record *rec,
		      const struct mdp_boot_opts *o, const struct mdp_boot_file *f, size_t n)
{
	struct mdp_diags d;
	struct mdp_task t;
	char op[PATH_MAX + 64];
	bool ok;

	if (strcmp(rec->profile, cli->profile.name) || rec->target != o->target ||
	    strcmp(rec->binary, o->binary) ||
	    strcmp(rec->auto_profile, o->auto_profile ? o->auto_profile : ""))
		return false;
	for (size_t i = 0; i < n; i++)
		if (mdp_boot_file_intact(&cli->root, &f[i]) != 1)
			return false;
	if (o->target == MDP_BOOT_SYSTEMD)
		return rec->units &&
		       mdp_boot_unit_file_enabled(&cli->root, MDP_BOOT_ENABLED ".service");
	if (o->target != MDP_BOOT_DSM)
		return true;
	mdp_diags_init(&d);
	task_operation(&f[0], op, sizeof(op));
	ok = rec->task && !mdp_task_get(&cli->root, mdp_boot_dsm.task_name, &t, &d) && t.enabled &&
	     !strcmp(t.operation, op);
	mdp_diags_free(&d);
	return ok;
}

/* Is path among the files about to be written over (keep: enable of another)? */
static bool kept(const char *path, const struct mdp_boot_file *keep, size_t n_keep)
{
	for (size_t i = 0; i < n_keep; i++)
		if (!strcmp(keep[i].sys, path))
			return true;
	return false;
}

/*
 * Everything an earlier enable installed, removed (disable; enable of
 * another, which writes keep over the old files of the same names).
 */
static int remove_installed(struct cli *cli, const struct mdp_boot_record *rec,
			    const struct mdp_boot_file *keep, size_t n_keep,
			    struct mdp_keeper_stop *st)
{
	struct mdp_boot_file f[MDP_BOOT_FILES];
	struct mdp_boot_opts o = {0};
	struct mdp_diags d;
	size_t n = 0;
	int rc = 0;

	mdp_boot_record_opts(rec, &o);
	if (o.target == MDP_BOOT_DSM)
		rc = task_delete(cli, rec->task);
	else if (o.target == MDP_BOOT_SYSTEMD && rec->units)
		rc = units(cli, &o, false);
	if (rc) /* what boots it is still there: keep what it runs */
		return rc;
	mdp_diags_init(&d);
	if (mdp_boot_paths(rec->profile, &o, f, &n, &d)) {
		cli_print_diags(cli, &d);
		mdp_diags_free(&d);
		return MDP_EXIT_FAILED;
	}
	mdp_diags_free(&d);
	stop_watchers(cli, &o, &f[0], st);
	for (size_t i = 0; i < n; i++)
		if (kept(f[i].sys, keep, n_keep))
			f[i--] = f[--n];
	if ((rc = remove_files(cli, f, n)))
		return rc;
	if (o.target == MDP_BOOT_SYSTEMD && rec->units) {
		mdp_diags_init(&d);
		(void)units_reload(cli, &d);
		cli_print_diags(cli, &d);
		mdp_diags_free(&d);
	}
	return 0;
}

/* enable's options. */
struct enable_opts {
	const char *auto_profile; /* --auto OVERLAY */
	struct boot_cli_opts boot;
};

static const struct opt enable_opts[] = {
    OPT_STRING("auto", 0, "OVERLAY", struct enable_opts, auto_profile,
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
 * --auto OVERLAY, loaded now into ov: the script carries it pinned (F03: a
 * relative path or a name found through --profiles works at boot too).
 */
static int check_auto(struct cli *cli, struct mdp_profile *ov)
{
	const struct enable_opts *e = cli->opts;
	int rc;

	if (!e->auto_profile)
		return 0;
	if ((rc = cli_load_profile(cli, e->auto_profile, ov)))
		return rc;
	/* The watcher's layer over the same profile would add nothing, and is not its (F02). */
	if (!strcmp(ov->name, cli->profile.name)) {
		cli_err(cli,
			"--auto %s is the profile enabled itself: the watcher would have nothing "
			"to add; give it a faster profile, or leave --auto out",
			ov->name);
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

/* Before anything happens: the options, the boot options, a target that boots. */
static int enable_check(struct cli *cli)
{
	const struct enable_opts *e = cli->opts;
	struct mdp_boot_opts o;
	char exe[PATH_MAX];
	int rc;

	if ((rc = enable_check_opts(cli)) ||
	    (rc = cli_boot_opts(cli, &e->boot, &o, true, exe, sizeof(exe))))
		return rc;
	return check_target(cli, &o);
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

/* The binary the boot runs as root must be there, root's alone. */
static int check_binary(struct cli *cli, const struct mdp_boot_opts *o)
{
	char msg[PATH_MAX + 256];

	if (!mdp_boot_check_binary(&cli->root, o->binary, msg, sizeof(msg)))
		return 0;
	cli_err(cli, "refusing to enable: %s", msg);
	return MDP_EXIT_USAGE;
}

/* Install the files; on a failure remove those written and revert the apply. */
static int install_files(struct cli *cli, struct mdp_boot_file *f, size_t n)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_boot_install(&cli->root, f, n, &d);
	if (!err)
		print_files(cli, f, n, "installed");
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (!err)
		return 0;
	mdp_diags_init(&d);
	(void)mdp_boot_uninstall(&cli->root, f, n, &d);
	mdp_diags_free(&d);
	cli_err(cli, "nothing is enabled; reverting the profile");
	if (enable_revert(cli) == MDP_EXIT_PARTIAL)
		return MDP_EXIT_PARTIAL;
	return err == -EPERM || err == -EINVAL ? MDP_EXIT_USAGE : MDP_EXIT_FAILED;
}

/* What boots it: the task, the units (rc.d runs the script itself). 0 or 1. */
static int enable_register(struct cli *cli, const struct mdp_boot_opts *o,
			   const struct mdp_boot_file *f, struct mdp_boot_record *rec)
{
	int rc = 0;

	if (o->target == MDP_BOOT_DSM)
		rec->task = !(rc = task_create(cli, o, &f[0], cli->profile.name));
	else if (o->target == MDP_BOOT_SYSTEMD)
		rec->units = !(rc = units(cli, o, true));
	return rc;
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

static int enable_install(struct cli *cli, const struct mdp_boot_opts *o, struct mdp_boot_file *f,
			  size_t n, const struct mdp_boot_record *old, struct mdp_keeper_stop *st)
{
	struct mdp_boot_record rec = {0};
	struct mdp_diags d;
	int rc;

	if (old && (rc = remove_installed(cli, old, f, n, st)))
		return rc;
	if ((rc = install_files(cli, f, n)))
		return rc;
	snprintf(rec.profile, sizeof(rec.profile), "%s", cli->profile.name);
	snprintf(rec.auto_profile, sizeof(rec.auto_profile), "%s",
		 o->auto_profile ? o->auto_profile : "");
	snprintf(rec.binary, sizeof(rec.binary), "%s", o->binary);
	rec.target = o->target;
	rc = enable_register(cli, o, f, &rec);
	mdp_diags_init(&d);
	if (mdp_boot_record_write(&cli->root, &rec, &d)) {
		cli_print_diags(cli, &d);
		rc = MDP_EXIT_FAILED;
	}
	mdp_diags_free(&d);
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
	struct mdp_profile ov = {0};
	struct mdp_boot_opts o;
	struct mdp_diags d;
	char exe[PATH_MAX];
	size_t n = 0;
	bool fresh = false;
	int rc, rerr, wrc;

	if ((rc = cli_boot_opts(cli, &e->boot, &o, true, exe, sizeof(exe)))) /* enable_check's */
		return rc;
	/* Loaded here, after "-" is refused: the boot has no stdin to read it from. */
	if ((rc = cli_load_profile(cli, cli->argv[1], &cli->profile)))
		return rc;
	cli->have_profile = true;
	o.enable = true;
	if ((rc = check_auto(cli, &ov)))
		goto out;
	o.auto_p = e->auto_profile ? &ov : NULL;
	o.auto_profile = e->auto_profile ? ov.name : NULL;
	if ((rc = enable_files(cli, &o, f, &n)) || (rc = check_binary(cli, &o)))
		goto out;
	mdp_diags_init(&d);
	rerr = mdp_boot_record_read(&cli->root, &old, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (rerr && rerr != -ENOENT) {
		rc = MDP_EXIT_USAGE;
		goto out;
	}
	if ((o.target == MDP_BOOT_DSM && (rc = task_refused(cli))) || (rc = enable_apply(cli)))
		goto out;
	if (!rerr && installed(cli, &old, &o, f, n))
		enabled_line(cli, &o, "is already enabled");
	else if (!(rc = enable_install(cli, &o, f, n, rerr ? NULL : &old, &st)))
		fresh = true;
	if (rc && rc != MDP_EXIT_PENDING)
		goto out;
	/* The watcher, now, as the boot starts it (systemd's: enable --now started it). */
	watchers_gone(cli, &st);
	if (o.auto_profile && !(fresh && o.target == MDP_BOOT_SYSTEMD) &&
	    mdp_watcher_probe(&cli->root) != 1 && (wrc = start_watcher(cli, &o, &f[0])) && !rc)
		rc = wrc;
out:
	mdp_boot_files_free(f, n);
	mdp_profile_free(&ov);
	return rc;
}

const struct cmd cmd_enable = {
    .name = "enable",
    .fn = do_enable,
    .flags = CMD_TXN | CMD_RECOVER, /* the profile is loaded by do_enable, which refuses stdin */
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
	struct mdp_diags d;
	char nm[1024];
	int err, rc;

	mdp_diags_init(&d);
	err = mdp_boot_record_read(&cli->root, &rec, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (err == -ENOENT) {
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

/* ---- status ------------------------------------------------------------------------ */

struct piece {
	const char *what;
	char where[PATH_MAX + 64];
	/* "intact", "missing", "changed", "disabled", "unknown"; the watcher's "running",
	   "not running" */
	const char *state;
	char hint[PATH_MAX + 64]; /* what to run when it is not as it should be */
};

/* The watcher enable --auto set up: running is holding the watcher lock (mode auto). */
static void watcher_piece(struct cli *cli, const struct mdp_boot_opts *o,
			  const struct mdp_boot_file *script, struct piece *p)
{
	struct mdp_wstate ws;
	int k = mdp_watcher_probe(&cli->root);

	p->what = "watcher";
	snprintf(p->where, sizeof(p->where), "mdprofile auto %s", o->auto_profile);
	if (k == 1 && !mdp_wstate_load(&cli->root, &ws) && ws.mode == MDP_BY_AUTO)
		snprintf(p->where, sizeof(p->where), "mdprofile auto %s (pid %ld)", o->auto_profile,
			 ws.pid);
	p->state = k == 1 ? "running" : k == 0 ? "not running" : "unknown";
	if (k == 0) {
		char cmd[PATH_MAX + 32];
		start_command(o, script->sys, cmd, sizeof(cmd));
		snprintf(p->hint, sizeof(p->hint), "start it: %s", cmd);
	}
}

static const char *file_state(struct cli *cli, const struct mdp_boot_file *f)
{
	int k = mdp_boot_file_intact(&cli->root, f);

	return k == 1 ? "intact" : k == -ENOENT ? "missing" : "changed";
}

/* The pieces rec says are installed, each looked at. */
static size_t pieces(struct cli *cli, const struct mdp_boot_record *rec, struct piece *p,
		     size_t cap)
{
	struct mdp_boot_file f[MDP_BOOT_FILES];
	struct mdp_boot_opts o = {0};
	struct mdp_diags d;
	struct mdp_task t;
	char op[PATH_MAX + 64];
	size_t n = 0, k = 0;
	int err;

	mdp_boot_record_opts(rec, &o);
	mdp_diags_init(&d);
	if (mdp_boot_paths(rec->profile, &o, f, &n, &d))
		n = 0;
	for (size_t i = 0; i < n && k < cap; i++) {
		/* No UUID pinned, no rule: a missing rule is no harm. */
		if (!strcmp(f[i].what, "udev rule") &&
		    mdp_boot_file_intact(&cli->root, &f[i]) == -ENOENT)
			continue;
		p[k].what = f[i].what;
		snprintf(p[k].where, sizeof(p[k].where), "%.*s", PATH_MAX, f[i].sys);
		p[k++].state = file_state(cli, &f[i]);
	}
	if (o.target == MDP_BOOT_DSM && k < cap && n) {
		task_operation(&f[0], op, sizeof(op));
		p[k].what = "task";
		snprintf(p[k].where, sizeof(p[k].where), "%s", mdp_boot_dsm.task_name);
		err = !mdp_root_is_real(&cli->root) || geteuid() == 0
			  ? mdp_task_get(&cli->root, mdp_boot_dsm.task_name, &t, &d)
			  : -EACCES;
		p[k++].state = !err             ? (!t.enabled                ? "disabled"
						   : strcmp(t.operation, op) ? "changed"
									     : "intact")
			       : err == -ENOENT ? "missing"
						: "unknown";
	}
	for (size_t i = 0; o.target == MDP_BOOT_SYSTEMD && i < 2 && k < cap; i++) {
		const char *unit =
		    i ? MDP_BOOT_ENABLED "-auto.service" : MDP_BOOT_ENABLED ".service";
		if (i && !o.auto_profile)
			break;
		p[k].what = "unit link";
		snprintf(p[k].where, sizeof(p[k].where), "%s", unit);
		p[k++].state = mdp_boot_unit_file_enabled(&cli->root, unit) ? "intact" : "disabled";
	}
	if (o.auto_profile && n && k < cap)
		watcher_piece(cli, &o, &f[0], &p[k++]);
	mdp_diags_free(&d);
	return k;
}

static bool all_intact(const struct piece *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(p[i].state, "intact") && strcmp(p[i].state, "running"))
			return false;
	return true;
}

static void status_enabled_text(const struct mdp_boot_record *rec, const struct piece *p, size_t n)
{
	char a[PATH_MAX + 64], b[PATH_MAX + 64];

	printf("\nenabled: profile %s at every boot, target %s%s%s: %s\n",
	       render_safe(rec->profile, a, sizeof(a)), mdp_boot_target_name(rec->target),
	       rec->auto_profile[0] ? ", watcher: " : "",
	       rec->auto_profile[0] ? render_safe(rec->auto_profile, b, sizeof(b)) : "",
	       all_intact(p, n) ? "intact" : "NOT intact (run mdprofile enable again)");
	for (size_t i = 0; i < n; i++)
		printf("  %-12s %s: %s%s%s\n", p[i].what, render_safe(p[i].where, a, sizeof(a)),
		       strcmp(p[i].state, "not running") ? p[i].state : "NOT running",
		       p[i].hint[0] ? "; " : "", render_safe(p[i].hint, b, sizeof(b)));
}

static void status_enabled_json(struct json *j, const struct mdp_boot_record *rec,
				const struct piece *p, size_t n)
{
	json_key(j, "enabled");
	json_obj(j);
	json_kstr(j, "profile", rec->profile);
	json_kstr(j, "auto", rec->auto_profile[0] ? rec->auto_profile : NULL);
	json_kstr(j, "target", mdp_boot_target_name(rec->target));
	json_kstr(j, "binary", rec->binary);
	json_kbool(j, "intact", all_intact(p, n));
	json_key(j, "pieces");
	json_arr(j);
	for (size_t i = 0; i < n; i++) {
		json_obj(j);
		json_kstr(j, "what", p[i].what);
		json_kstr(j, "where", p[i].where);
		json_kstr(j, "state", p[i].state);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

static void status_enabled_prom(const struct mdp_boot_record *rec, const struct piece *p, size_t n)
{
	char a[256], b[PATH_MAX + 64];

	printf("# HELP mdprofile_enabled 1 while a profile is enabled at boot (mdprofile enable)\n"
	       "# TYPE mdprofile_enabled gauge\n");
	/* The values are a boot script's safe set: nothing to escape. */
	printf("mdprofile_enabled{profile=\"%s\",target=\"%s\",auto=\"%s\"} 1\n",
	       render_safe(rec->profile, a, sizeof(a)), mdp_boot_target_name(rec->target),
	       render_safe(rec->auto_profile, b, sizeof(b)));
	printf("# HELP mdprofile_enabled_intact 1 when every piece enable installed is in place, "
	       "the watcher running\n"
	       "# TYPE mdprofile_enabled_intact gauge\n"
	       "mdprofile_enabled_intact %d\n",
	       all_intact(p, n));
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].what, "watcher") && strcmp(p[i].state, "unknown"))
			printf("# HELP mdprofile_watcher_running 1 while the watcher enable --auto "
			       "set up runs\n"
			       "# TYPE mdprofile_watcher_running gauge\n"
			       "mdprofile_watcher_running %d\n",
			       !strcmp(p[i].state, "running"));
}

/*
 * For status: what is enabled, how, and whether its pieces are intact, in
 * the format asked (j: inside status's JSON object, as "enabled"); nothing
 * when nothing is.
 */
void enable_status(struct cli *cli, struct json *j, bool prom)
{
	struct mdp_boot_record rec;
	struct piece p[MDP_BOOT_FILES + 3] = {0};
	struct mdp_diags d;
	size_t n = 0;
	bool have;

	mdp_diags_init(&d);
	have = !mdp_boot_record_read(&cli->root, &rec, &d);
	mdp_diags_free(&d);
	/* Nothing enabled, nothing said: status reads as it did before enable existed. */
	if (!have)
		return;
	n = pieces(cli, &rec, p, sizeof(p) / sizeof(p[0]));
	if (j)
		status_enabled_json(j, &rec, p, n);
	else if (prom)
		status_enabled_prom(&rec, p, n);
	else
		status_enabled_text(&rec, p, n);
}
