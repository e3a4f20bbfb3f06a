/* enable's and disable's service-manager work, and what status shows of it: see enable.h. */
#include "enable.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mdp_md.h"
#include "mdp_base.h"
#include "mdp_txn.h"
#include "task.h"
#include "boot_int.h"

#define TOOL_TIMEOUT_MS 60000

/* ---- the report -------------------------------------------------------------------- */

void mdp_enable_report_init(struct mdp_enable_report *rep)
{
	memset(rep, 0, sizeof(*rep));
}

void mdp_enable_report_free(struct mdp_enable_report *rep)
{
	for (size_t i = 0; i < rep->n; i++)
		free(rep->v[i].text);
	free(rep->v);
	mdp_enable_report_init(rep);
}

void mdp_enable_say(struct mdp_enable_report *rep, enum mdp_enable_kind kind, const char *fmt, ...)
{
	struct mdp_enable_line *l;
	char *text;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (!(l = mdp_push(&rep->v, &rep->n, sizeof(*l)))) {
		free(text);
		return;
	}
	l->kind = kind;
	l->text = text;
}

void mdp_enable_say_diags(struct mdp_enable_report *rep, struct mdp_diags *d)
{
	char line[1024];

	mdp_diags_sort(d);
	for (size_t i = 0; i < d->n; i++) {
		mdp_diag_format(&d->v[i], line, sizeof(line));
		mdp_enable_say(rep, MDP_EN_ERROR, "%s", line);
	}
	mdp_diags_free(d);
}

static void say_files(struct mdp_enable_report *rep, const struct mdp_boot_file *f, size_t n,
		      const char *verb)
{
	char safe[PATH_MAX + 64];

	for (size_t i = 0; i < n; i++)
		if (f[i].done)
			mdp_enable_say(rep, MDP_EN_DONE, "%s the boot %s %s", verb, f[i].what,
				       mdp_text_safe(safe, sizeof(safe), f[i].sys));
}

/* ---- tools ------------------------------------------------------------------------- */

/* Run a system tool: 0, -ENOSYS when it is not there, -EPROTO (with d) when it failed. */
static int run_tool(const struct mdp_root *r, const char *const argv[], struct mdp_diags *d)
{
	struct mdp_exec_result *res = malloc(sizeof(*res));
	char line[256], shown[320];
	int err;

	if (!res)
		return -ENOMEM;
	err = mdp_exec_run(r, argv, TOOL_TIMEOUT_MS, res, d);
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
			      line[0] ? mdp_text_safe(shown, sizeof(shown), line) : "(nothing)");
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
static void task_operation(const char *script, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s %s", mdp_boot_dsm.task_shell, script);
}

/* The task, created and read back; 0, or -errno with the steps left to the owner. */
static int task_create(const struct mdp_root *r, const struct mdp_boot_opts *o, const char *script,
		       const char *name, struct mdp_enable_report *rep)
{
	char op[PATH_MAX + 64], desc[256], safe[PATH_MAX + 64];
	struct mdp_diags d;
	int err;

	task_operation(script, op, sizeof(op));
	snprintf(desc, sizeof(desc), "mdprofile: apply profile %s at boot%s%s " MDP_TASK_MARK, name,
		 o->auto_profile ? ", then watch with " : "",
		 o->auto_profile ? o->auto_profile : "");
	mdp_diags_init(&d);
	err = mdp_task_create(r, mdp_boot_dsm.task_name, op, desc, &d);
	if (err == -ENOSYS)
		mdp_enable_say(rep, MDP_EN_ERROR,
			       "%s is not on this system: the Task Scheduler task is not created",
			       mdp_boot_dsm.scheduler);
	mdp_enable_say_diags(rep, &d);
	if (!err) {
		mdp_enable_say(rep, MDP_EN_DONE, "created the Task Scheduler boot-up task %s: %s",
			       mdp_boot_dsm.task_name, op);
		return 0;
	}
	if (err != -ENOSYS)
		mdp_enable_say(rep, MDP_EN_ERROR, "the Task Scheduler task is not created");
	mdp_enable_say(rep, MDP_EN_STEP, "to run it at every boot, create the task in DSM:\n%s%s",
		       mdp_boot_dsm.task_steps, mdp_text_safe(safe, sizeof(safe), script));
	return err;
}

/*
 * A task of enable's name that enable did not create (the owner's own, another user's): 0
 * when there is none or it is enable's; else its owner and command in why, and 1. Only
 * reads; an esynoscheduler that cannot answer says nothing here (the create says it).
 */
static int task_foreign(const struct mdp_root *r, char *why, size_t cap)
{
	struct mdp_task *t = malloc(sizeof(*t));
	struct mdp_diags d;
	char op[160];
	int foreign;

	if (!t)
		return 0;
	mdp_diags_init(&d);
	foreign = !mdp_task_get(r, mdp_boot_dsm.task_name, t, &d) && !mdp_task_ours(t);
	mdp_diags_free(&d);
	if (foreign)
		snprintf(why, cap, "owner %s, runs '%s'", t->owner[0] ? t->owner : "unknown",
			 mdp_text_safe(op, sizeof(op), t->operation));
	free(t);
	return foreign;
}

int mdp_enable_task_refused(const struct mdp_root *r, struct mdp_enable_report *rep)
{
	char why[256];

	if (!task_foreign(r, why, sizeof(why)))
		return 0;
	mdp_enable_say(
	    rep, MDP_EN_ERROR,
	    "a Task Scheduler task named %s is there that mdprofile enable did not create (%s); "
	    "nothing was changed",
	    mdp_boot_dsm.task_name, why);
	mdp_enable_say(
	    rep, MDP_EN_ERROR,
	    "rename or delete it in DSM (Control Panel > Task Scheduler), then run enable again");
	return -EEXIST;
}

/* The task, deleted and looked for; 0, or -errno with the step left. A task of the name
 * that enable did not create is left as it is, and said so. */
static int task_delete(const struct mdp_root *r, bool created, struct mdp_enable_report *rep)
{
	struct mdp_diags d;
	char why[256];
	int err;

	if (task_foreign(r, why, sizeof(why))) {
		mdp_enable_say(
		    rep, MDP_EN_DONE,
		    "left the Task Scheduler task %s as it is: mdprofile enable did not create it "
		    "(%s)",
		    mdp_boot_dsm.task_name, why);
		return 0;
	}
	mdp_diags_init(&d);
	err = mdp_task_delete(r, mdp_boot_dsm.task_name, &d);
	mdp_enable_say_diags(rep, &d);
	if (!err) {
		if (created)
			mdp_enable_say(rep, MDP_EN_DONE, "deleted the Task Scheduler task %s",
				       mdp_boot_dsm.task_name);
		return 0;
	}
	if (err == -ENOSYS && !created)
		return 0; /* never created: the owner made it by hand, and is told to delete it */
	if (err == -ENOSYS)
		mdp_enable_say(rep, MDP_EN_ERROR,
			       "%s is not on this system: cannot delete the Task Scheduler task %s",
			       mdp_boot_dsm.scheduler, mdp_boot_dsm.task_name);
	/* The task still runs the script at boot: both stay until it is gone. */
	mdp_enable_say(
	    rep, MDP_EN_STEP,
	    "delete the task by hand (Control Panel > Task Scheduler, select %s, Delete), then run "
	    "this command again",
	    mdp_boot_dsm.task_name);
	return err;
}

/* ---- systemd: the units -------------------------------------------------------------- */

/* systemctl daemon-reload, and udev's rules reloaded (no udevadm: no udev to tell). */
static int units_reload(const struct mdp_root *r, struct mdp_diags *d)
{
	const char *reload[] = {"systemctl", "daemon-reload", NULL};
	const char *udev[] = {"udevadm", "control", "--reload-rules", NULL};
	int err = run_tool(r, reload, d);

	if (!err && (err = run_tool(r, udev, d)) == -ENOSYS)
		err = 0;
	return err;
}

/*
 * enable: the unit files read, the units enabled; disable: the units
 * disabled (their files go after, then units_reload). 0, or -errno with
 * the commands left to the owner.
 */
static int units(const struct mdp_root *r, const struct mdp_boot_opts *o, bool enable,
		 struct mdp_enable_report *rep)
{
	/* --now: started or stopped too, so that systemctl and the machine agree; --no-block:
	   their start and stop run mdprofile, which waits for the lock the caller holds */
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
		err = units_reload(r, &d);
	if (!err)
		err = run_tool(r, change, &d);
	if (err == -ENOSYS)
		mdp_enable_say(rep, MDP_EN_ERROR,
			       "systemctl is not on this system: the units are not %s",
			       enable ? "enabled" : "disabled");
	mdp_enable_say_diags(rep, &d);
	if (!err) {
		mdp_enable_say(rep, MDP_EN_DONE, "%s %s%s.service%s",
			       enable ? "enabled and started" : "disabled and stopped",
			       o->packaged ? "the packaged " : "", MDP_BOOT_ENABLED,
			       o->auto_profile ? " and " MDP_BOOT_ENABLED "-auto.service" : "");
		return 0;
	}
	mdp_enable_say(
	    rep, MDP_EN_STEP,
	    "to %s them: systemctl daemon-reload && systemctl %s --now %s.service%s && udevadm "
	    "control --reload-rules",
	    enable ? "enable" : "disable", enable ? "enable" : "disable", MDP_BOOT_ENABLED,
	    o->auto_profile ? " " MDP_BOOT_ENABLED "-auto.service" : "");
	return err;
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
			 mdp_text_safe(safe, sizeof(safe), script));
}

/*
 * SIGTERM to every keeper of the script (keeper.h) and to any watcher of
 * mode auto, one started by hand too; *st keeps those sent one. Not waited
 * for: to remove an engaged overlay the watcher needs the lock the caller
 * holds (mdp_enable_watchers_gone). systemd's units are stopped by
 * `systemctl disable --now` (units()).
 */
static void stop_watchers(const struct mdp_root *r, const struct mdp_boot_opts *o,
			  const char *script, struct mdp_keeper_stop *st)
{
	struct mdp_keeper_stop now;

	mdp_keeper_stop(r, o->target == MDP_BOOT_SYSTEMD ? NULL : script, &now);
	for (size_t i = 0; i < now.n_keeper && st->n_keeper < MDP_KEEPER_MAX; i++)
		st->keeper[st->n_keeper++] = now.keeper[i];
	if (now.watcher)
		st->watcher = now.watcher;
}

/* "keeper (pid 12)" or "keepers (pids 12, 13)": the keepers st names. */
static void keepers_named(const struct mdp_keeper_stop *st, char *buf, size_t cap)
{
	const char *s = st->n_keeper > 1 ? "s" : "";
	size_t n = (size_t)snprintf(buf, cap, "keeper%s (pid%s", s, s);

	for (size_t i = 0; i < st->n_keeper && n < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%ld", i ? ", " : " ", st->keeper[i]);
	if (n < cap)
		snprintf(buf + n, cap - n, ")");
}

void mdp_enable_watchers_gone(const struct mdp_root *r, const struct mdp_keeper_stop *st,
			      struct mdp_enable_report *rep)
{
	char what[64 + MDP_KEEPER_MAX * 24], k[MDP_KEEPER_MAX * 24];

	if (!st->watcher && !st->n_keeper)
		return;
	keepers_named(st, k, sizeof(k));
	if (st->watcher && st->n_keeper)
		snprintf(what, sizeof(what), "the watcher (pid %ld) and its %s", st->watcher, k);
	else if (st->watcher)
		snprintf(what, sizeof(what), "the watcher (pid %ld)", st->watcher);
	else
		snprintf(what, sizeof(what), "the watcher's %s", k);
	if (mdp_keeper_wait_gone(r, st, 15000))
		mdp_enable_say(rep, MDP_EN_DONE, "stopped %s", what);
	else
		mdp_enable_say(rep, MDP_EN_ERROR, "%s did not stop within 15 s", what);
}

/* Seconds from now to t (epoch), 0 when past. */
static long secs_to(int64_t t)
{
	int64_t now = (int64_t)time(NULL);

	return t > now ? (long)(t - now) : 0;
}

/*
 * Before enable starts a keeper: one that waits to start its watcher again
 * is stopped (a new one starts it now), and waited for. false when one did
 * not stop (said).
 */
static bool stop_restarting(const struct mdp_root *r, const char *script,
			    const struct mdp_keeper *k, struct mdp_enable_report *rep)
{
	struct mdp_keeper_stop st = {0};

	mdp_keeper_stop_keepers(r, script, &st);
	if (!st.n_keeper)
		return true;
	if (!mdp_keeper_wait_gone(r, &st, 15000)) {
		mdp_enable_say(rep, MDP_EN_ERROR,
			       "the watcher's keeper (pid %ld) did not stop within 15 s",
			       st.keeper[0]);
		rep->left = true;
		return false;
	}
	mdp_enable_say(
	    rep, MDP_EN_DONE,
	    "stopped the watcher's keeper (pid %ld), which was to start it again in %ld s",
	    st.keeper[0], secs_to(k->restart));
	return true;
}

/* The watcher did not arm (pid 0: not in time, -1: no keeper starts it now): said. */
static void not_armed(const struct mdp_root *r, const struct mdp_boot_opts *o, const char *cmd,
		      long pid, struct mdp_enable_report *rep)
{
	struct mdp_keeper k;

	rep->left = true;
	mdp_keeper_look(r, NULL, &k);
	if (k.held == 1 && k.restart) {
		mdp_enable_say(
		    rep, MDP_EN_ERROR,
		    "the watcher (mdprofile auto %s) ended at its start; its keeper (pid %ld) "
		    "starts it again in %ld s; its log: %s",
		    o->auto_profile, k.pid, secs_to(k.restart), MDP_BOOT_AUTO_LOG);
		return;
	}
	mdp_enable_say(rep, MDP_EN_ERROR, "the watcher (mdprofile auto %s) %s; its log: %s",
		       o->auto_profile, pid ? "did not start" : "is not armed after 10 s",
		       MDP_BOOT_AUTO_LOG);
	mdp_enable_say(rep, MDP_EN_STEP, "to start it: %s", cmd);
}

/*
 * A watcher of mode auto that no keeper of the script keeps (started by
 * hand): none is started beside it; true when said. (Another holder of the
 * watcher lock, an apply --until-idle, only delays the keeper's watcher.)
 */
static bool runs_already(const struct mdp_root *r, const char *cmd, struct mdp_enable_report *rep)
{
	struct mdp_keeper_watcher w;

	mdp_keeper_watcher(r, &w);
	if (!w.pid)
		return false;
	mdp_enable_say(
	    rep, MDP_EN_DONE,
	    "a watcher runs already (pid %ld): the next boot starts the one enabled; now: stop "
	    "that one, then %s",
	    w.pid, cmd);
	rep->left = true;
	return true;
}

void mdp_enable_start_watcher(const struct mdp_root *r, const struct mdp_boot_opts *o,
			      const char *script, struct mdp_enable_report *rep)
{
	char cmd[PATH_MAX + 64];
	struct mdp_keeper_watcher w;
	struct mdp_diags d;
	struct mdp_keeper k;
	long keeper = 0, pid;
	int err;

	if (!o->auto_profile || o->target == MDP_BOOT_SYSTEMD)
		return;
	start_command(o, script, cmd, sizeof(cmd));
	mdp_keeper_look(r, script, &k);
	mdp_keeper_watcher(r, &w);
	/* Its keeper keeps it (or is starting it, for another enable): one keeper, taken over. */
	if (k.held == 1 && !k.restart) {
		if (!w.pid && (pid = mdp_keeper_wait_armed(r, 0, 10000)) <= 0)
			not_armed(r, o, cmd, pid, rep);
		return;
	}
	if ((k.held == 1 && !stop_restarting(r, script, &k, rep)) || runs_already(r, cmd, rep))
		return;
	mdp_diags_init(&d);
	err = mdp_keeper_start(r, script, &keeper, &d);
	mdp_enable_say_diags(rep, &d);
	pid = err ? -1 : mdp_keeper_wait_armed(r, keeper, 10000);
	if (pid > 0)
		mdp_enable_say(rep, MDP_EN_DONE,
			       "started the watcher (mdprofile auto %s, pid %ld); its log: %s",
			       o->auto_profile, pid, MDP_BOOT_AUTO_LOG);
	else
		not_armed(r, o, cmd, pid, rep);
}

/* ---- install, remove ----------------------------------------------------------------- */

int mdp_enable_install_files(const struct mdp_root *r, struct mdp_boot_file *f, size_t n,
			     struct mdp_enable_report *rep)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_boot_install(r, f, n, &d);
	if (!err)
		say_files(rep, f, n, "installed");
	mdp_enable_say_diags(rep, &d);
	if (err) {
		(void)mdp_boot_uninstall(r, f, n, &d);
		mdp_diags_free(&d);
	}
	return err;
}

int mdp_enable_register(const struct mdp_root *r, const char *profile,
			const struct mdp_boot_opts *o, const struct mdp_boot_file *f,
			struct mdp_enable_report *rep)
{
	struct mdp_boot_record rec = {.target = o->target};
	struct mdp_diags d;
	int err = 0;

	snprintf(rec.profile, sizeof(rec.profile), "%s", profile);
	snprintf(rec.auto_profile, sizeof(rec.auto_profile), "%s",
		 o->auto_profile ? o->auto_profile : "");
	snprintf(rec.binary, sizeof(rec.binary), "%s", o->binary);
	rec.packaged = o->packaged;
	if (o->target == MDP_BOOT_DSM)
		rec.task = !(err = task_create(r, o, f[0].sys, profile, rep));
	else if (o->target == MDP_BOOT_SYSTEMD)
		rec.units = !(err = units(r, o, true, rep));
	if (err)
		rep->left = true;
	mdp_diags_init(&d);
	err = mdp_boot_record_write(r, &rec, &d);
	mdp_enable_say_diags(rep, &d);
	return err;
}

bool mdp_enable_installed(const struct mdp_root *r, const struct mdp_boot_record *rec,
			  const char *profile, const struct mdp_boot_opts *o,
			  const struct mdp_boot_file *f, size_t n)
{
	struct mdp_diags d;
	struct mdp_task t;
	char op[PATH_MAX + 64];
	bool ok;

	if (strcmp(rec->profile, profile) || rec->target != o->target ||
	    rec->packaged != o->packaged || strcmp(rec->binary, o->binary) ||
	    strcmp(rec->auto_profile, o->auto_profile ? o->auto_profile : ""))
		return false;
	for (size_t i = 0; i < n; i++)
		if (mdp_boot_file_intact(r, &f[i]) != 1)
			return false;
	if (o->target == MDP_BOOT_SYSTEMD)
		return rec->units && mdp_boot_unit_file_enabled(r, MDP_BOOT_ENABLED ".service");
	if (o->target != MDP_BOOT_DSM)
		return true;
	mdp_diags_init(&d);
	task_operation(f[0].sys, op, sizeof(op));
	ok = rec->task && !mdp_task_get(r, mdp_boot_dsm.task_name, &t, &d) && t.enabled &&
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
 * The installed units enable enabled are gone (the package removed without its prerm, make
 * uninstall): systemctl refuses to disable a unit without its file, and nothing can start it.
 */
static bool units_gone(const struct mdp_root *r)
{
	char where[PATH_MAX];

	return mdp_boot_packaged_unit(r, MDP_BOOT_ENABLED ".service", where, sizeof(where)) ==
	       -ENOENT;
}

int mdp_enable_remove(const struct mdp_root *r, const struct mdp_boot_record *rec,
		      const struct mdp_boot_file *keep, size_t n_keep, struct mdp_keeper_stop *st,
		      struct mdp_enable_report *rep)
{
	struct mdp_boot_file f[MDP_BOOT_FILES];
	struct mdp_boot_opts o = {0};
	struct mdp_diags d;
	size_t n = 0;
	int err = 0;

	mdp_boot_record_opts(rec, &o);
	if (o.target == MDP_BOOT_DSM)
		err = task_delete(r, rec->task, rep);
	else if (o.target == MDP_BOOT_SYSTEMD && rec->units && o.packaged && units_gone(r))
		mdp_enable_say(rep, MDP_EN_DONE,
			       "the installed units are gone: nothing runs the script at boot, "
			       "nothing to disable (systemctl would refuse)");
	else if (o.target == MDP_BOOT_SYSTEMD && rec->units)
		err = units(r, &o, false, rep);
	if (err) { /* what boots it is still there: keep what it runs */
		rep->left = true;
		return 0;
	}
	mdp_diags_init(&d);
	if ((err = mdp_boot_paths(rec->profile, &o, f, &n, &d))) {
		mdp_enable_say_diags(rep, &d);
		return err;
	}
	mdp_diags_free(&d);
	stop_watchers(r, &o, f[0].sys, st);
	for (size_t i = 0; i < n; i++)
		if (kept(f[i].sys, keep, n_keep))
			f[i--] = f[--n];
	err = mdp_boot_uninstall(r, f, n, &d);
	say_files(rep, f, n, "removed");
	mdp_enable_say_diags(rep, &d);
	if (err)
		return err;
	if (o.target == MDP_BOOT_SYSTEMD && rec->units) {
		(void)units_reload(r, &d);
		mdp_enable_say_diags(rep, &d);
	}
	return 0;
}

/* ---- what is enabled ---------------------------------------------------------------- */

/* Who holds the watcher lock when it is not the watcher (w.pid 0): "" when it is free. */
static void lock_holder(const struct mdp_keeper_watcher *w, char *buf, size_t cap)
{
	const char *who = w->mode == MDP_BY_UNTIL_IDLE ? "an apply --until-idle"
			  : w->mode == MDP_BY_AUTO     ? "a watcher that is no longer running"
						       : "another process";

	buf[0] = '\0';
	if (w->held == 1 && w->holder)
		snprintf(buf, cap, "the watcher lock is held by %s (pid %ld)", who, w->holder);
	else if (w->held == 1)
		snprintf(buf, cap, "the watcher lock is held by %s", who);
}

/*
 * The watcher enable --auto set up: running is its pid alive, an
 * mdprofile auto holding the watcher lock (mdp_keeper_watcher), not the
 * lock held; restarting, its keeper waiting to start it again.
 */
static void watcher_piece(const struct mdp_root *r, const struct mdp_boot_record *rec,
			  const struct mdp_boot_opts *o, const char *script,
			  struct mdp_enable_piece *p)
{
	struct mdp_keeper_watcher w;
	struct mdp_keeper k = {0};
	struct mdp_enable_boot b = {0};
	char held[128], cmd[PATH_MAX + 32], kpid[32], at[40];

	p->what = "watcher";
	mdp_keeper_watcher(r, &w);
	if (o->target != MDP_BOOT_SYSTEMD) {
		mdp_keeper_look(r, script, &k);
		mdp_keeper_boot(r, script, &b);
	}
	snprintf(p->where, sizeof(p->where), "mdprofile auto %s", o->auto_profile);
	if (w.pid)
		snprintf(p->where, sizeof(p->where), "mdprofile auto %s (pid %ld)", o->auto_profile,
			 w.pid);
	p->state = w.pid ? "running" : w.held < 0 ? "unknown" : "not running";
	if (w.pid || w.held < 0)
		return;
	lock_holder(&w, held, sizeof(held));
	start_command(o, script, cmd, sizeof(cmd));
	/* the keeper's pid is 0 only while its lock file is being written */
	kpid[0] = '\0';
	if (k.pid)
		snprintf(kpid, sizeof(kpid), ", keeper pid %ld", k.pid);
	if (k.held == 1 && k.restart) {
		/* the keeper's restart, and the one way to have it now */
		p->state = "restarting";
		p->at = k.restart;
		if (!mdp_time_local(k.restart, at, sizeof(at)))
			snprintf(at, sizeof(at), "?");
		snprintf(p->note, sizeof(p->note), "at %s (in %ld s%s)", at, secs_to(k.restart),
			 kpid);
		snprintf(p->hint, sizeof(p->hint),
			 "%s%sto start it now: mdprofile enable %.255s --auto %.255s", held,
			 held[0] ? "; " : "", rec->profile, rec->auto_profile);
	} else if (k.held == 1) {
		if (k.pid)
			snprintf(kpid, sizeof(kpid), " (pid %ld)", k.pid);
		snprintf(p->hint, sizeof(p->hint), "%s%sits keeper%s is starting it", held,
			 held[0] ? "; " : "", kpid);
	} else if (b.pid && strcmp(b.step, "re-checking")) {
		p->state = "not started";
		snprintf(p->hint, sizeof(p->hint),
			 "the boot task starts it once the profile is applied");
	} else {
		snprintf(p->hint, sizeof(p->hint), "%.100s%sstart it: %.4000s", held,
			 held[0] ? "; " : "", cmd);
	}
}

static const char *file_state(const struct mdp_root *r, const struct mdp_boot_file *f)
{
	int k = mdp_boot_file_intact(r, f);

	return k == 1 ? "intact" : k == -ENOENT ? "missing" : "changed";
}

/* The task, read back: its state. Another user than root cannot read it on the real root. */
static const char *task_state(const struct mdp_root *r, const char *script, struct mdp_diags *d)
{
	struct mdp_task t;
	char op[PATH_MAX + 64];
	int err;

	task_operation(script, op, sizeof(op));
	err = !mdp_root_is_real(r) || geteuid() == 0
		  ? mdp_task_get(r, mdp_boot_dsm.task_name, &t, d)
		  : -EACCES;
	return !err             ? (!t.enabled                ? "disabled"
				   : strcmp(t.operation, op) ? "changed"
							     : "intact")
	       : err == -ENOENT ? "missing"
				: "unknown";
}

static const char *const units_name[] = {MDP_BOOT_ENABLED ".service",
					 MDP_BOOT_ENABLED "-auto.service"};

/* The package's units enable's script needs, from p[k] on: the new count. */
static size_t packaged_pieces(const struct mdp_root *r, const struct mdp_boot_opts *o,
			      struct mdp_enable_piece *p, size_t k, size_t cap)
{
	for (size_t i = 0; i < (o->auto_profile ? 2u : 1u) && k < cap; i++, k++) {
		int st = mdp_boot_packaged_unit(r, units_name[i], p[k].where, sizeof(p[k].where));
		p[k].what = i ? "watcher unit" : "unit";
		if (st == -ENOENT) /* the name alone: say whose it is */
			snprintf(p[k].where, sizeof(p[k].where), "%s (packaged)", units_name[i]);
		p[k].state = st == 1 ? "intact" : st == -ENOENT ? "missing" : "changed";
		if (st != 1)
			snprintf(p[k].hint, sizeof(p[k].hint),
				 "reinstall mdprofile (apt-get install --reinstall mdprofile, or "
				 "make install)");
	}
	return k;
}

size_t mdp_enable_pieces(const struct mdp_root *r, const struct mdp_boot_record *rec,
			 struct mdp_enable_piece *p, size_t cap)
{
	struct mdp_boot_file f[MDP_BOOT_FILES];
	struct mdp_boot_opts o = {0};
	struct mdp_diags d;
	size_t n = 0, k = 0;

	memset(p, 0, cap * sizeof(*p));
	mdp_boot_record_opts(rec, &o);
	mdp_diags_init(&d);
	if (mdp_boot_paths(rec->profile, &o, f, &n, &d))
		n = 0;
	for (size_t i = 0; i < n && k < cap; i++) {
		/* No UUID pinned, no rule: a missing rule is no harm. */
		if (!strcmp(f[i].what, "udev rule") && mdp_boot_file_intact(r, &f[i]) == -ENOENT)
			continue;
		p[k].what = f[i].what;
		snprintf(p[k].where, sizeof(p[k].where), "%.*s", PATH_MAX, f[i].sys);
		p[k++].state = file_state(r, &f[i]);
	}
	if (o.target == MDP_BOOT_DSM && k < cap && n) {
		p[k].what = "task";
		snprintf(p[k].where, sizeof(p[k].where), "%s", mdp_boot_dsm.task_name);
		p[k++].state = task_state(r, f[0].sys, &d);
	}
	if (o.packaged)
		k = packaged_pieces(r, &o, p, k, cap);
	for (size_t i = 0; o.target == MDP_BOOT_SYSTEMD && i < 2 && k < cap; i++) {
		const char *unit = units_name[i];
		if (i && !o.auto_profile)
			break;
		p[k].what = "unit link";
		snprintf(p[k].where, sizeof(p[k].where), "%s", unit);
		p[k++].state = mdp_boot_unit_file_enabled(r, unit) ? "intact" : "disabled";
	}
	if (o.auto_profile && n && k < cap)
		watcher_piece(r, rec, &o, f[0].sys, &p[k++]);
	mdp_diags_free(&d);
	return k;
}

bool mdp_enable_intact(const struct mdp_enable_piece *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(p[i].state, "intact") && strcmp(p[i].state, "running"))
			return false;
	return true;
}

void mdp_enable_boot_look(const struct mdp_root *r, const struct mdp_boot_record *rec,
			  struct mdp_enable_boot *b)
{
	struct mdp_boot_file f[MDP_BOOT_FILES];
	struct mdp_boot_opts o = {0};
	struct mdp_diags d;
	size_t n = 0;

	memset(b, 0, sizeof(*b));
	mdp_boot_record_opts(rec, &o);
	mdp_diags_init(&d);
	if (o.target != MDP_BOOT_SYSTEMD && !mdp_boot_paths(rec->profile, &o, f, &n, &d) && n)
		mdp_keeper_boot(r, f[0].sys, b);
	mdp_diags_free(&d);
}

/* The boot task's step, for people. */
static void boot_phrase(const struct mdp_enable_boot *b, char *buf, size_t cap)
{
	char until[40];

	if (!strcmp(b->step, "re-checking") && b->until &&
	    mdp_time_local(b->until, until, sizeof(until)))
		snprintf(buf, cap, "the boot task runs: re-checking until %s", until);
	else
		snprintf(buf, cap, "the boot task runs: %s",
			 !strcmp(b->step, "waiting")    ? "waiting for the arrays"
			 : !strcmp(b->step, "applying") ? "applying the profile"
							: "re-checking");
}

void mdp_enable_verdict(const struct mdp_enable_piece *p, size_t n, const struct mdp_enable_boot *b,
			char *buf, size_t cap)
{
	const struct mdp_enable_piece *w = NULL;
	bool broken = false;
	char boot[96] = "", at[40];

	for (size_t i = 0; i < n; i++)
		if (strcmp(p[i].state, "intact") && strcmp(p[i].state, "running")) {
			if (!strcmp(p[i].what, "watcher"))
				w = &p[i];
			else
				broken = true;
		}
	if (b && b->pid)
		boot_phrase(b, boot, sizeof(boot));
	if (broken)
		snprintf(buf, cap, "NOT intact (run mdprofile enable again)%s%s",
			 boot[0] ? "; " : "", boot);
	else if (boot[0] && (!w || !strcmp(w->state, "not started")))
		snprintf(buf, cap, "%s%s", w ? "" : "intact; ", boot);
	else if (w && w->at && mdp_time_local(w->at, at, sizeof(at)))
		snprintf(buf, cap, "the watcher restarts at %s", at);
	else if (w)
		snprintf(buf, cap, "%s",
			 !strcmp(w->state, "unknown")
			     ? "the watcher's state is unknown (run as root)"
			     : "the watcher is NOT running");
	else
		snprintf(buf, cap, "intact");
}
