/* enable and disable from their start to their end, around the caller's transaction: see enable.h.
 */
#include "enable.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdp_base.h"
#include "mdp_md.h"
#include "boot_int.h"

/* What one enable carries from a step to the next. */
struct en_run {
	const struct mdp_root *r;
	const struct mdp_enable_ops *ops;
	struct mdp_enable_report rep;
	struct mdp_boot_file f[MDP_BOOT_FILES];
	size_t n;
	struct mdp_boot_record old;
	bool have_old;
	struct mdp_keeper_stop st;
};

static struct mdp_enable_res res(enum mdp_enable_end end, int rc)
{
	return (struct mdp_enable_res){end, rc};
}

/* The report said and emptied: whether it left a step to the owner. */
static bool flush(struct en_run *e)
{
	bool left = e->rep.left;

	if (e->rep.n)
		e->ops->say(e->ops->arg, &e->rep);
	mdp_enable_report_free(&e->rep);
	return left;
}

/* d's diagnostics said (d emptied). */
static void flush_diags(struct en_run *e, struct mdp_diags *d)
{
	mdp_enable_say_diags(&e->rep, d);
	(void)flush(e);
}

/* The script for p, pinned in place as the boot applies it, and its files. */
static struct mdp_enable_res make_files(struct en_run *e, struct mdp_profile *p,
					const struct mdp_system *s, const struct mdp_boot_opts *o)
{
	struct mdp_diags d;
	char *text = NULL;
	size_t len;
	int err;

	mdp_diags_init(&d);
	if (!(err = mdp_boot_script(p, s, o, &text, &len, &d)))
		err = mdp_boot_files(p, o, text, len, e->f, &e->n, &d);
	free(text);
	flush_diags(e, &d);
	return res(!err             ? MDP_ENABLE_DONE
		   : err == -EINVAL ? MDP_ENABLE_REFUSED
				    : MDP_ENABLE_FAILED,
		   0);
}

/* The refusals that come before any change: the binary, the record, a task not enable's. */
static bool refused(struct en_run *e, const struct mdp_boot_opts *o)
{
	char msg[PATH_MAX + 256];
	struct mdp_diags d;
	int err;

	if (mdp_boot_check_binary(e->r, o->binary, msg, sizeof(msg))) {
		mdp_enable_say(&e->rep, MDP_EN_ERROR, "refusing to enable: %s", msg);
		(void)flush(e);
		return true;
	}
	mdp_diags_init(&d);
	err = mdp_boot_record_read(e->r, &e->old, &d);
	flush_diags(e, &d);
	if (err && err != -ENOENT)
		return true;
	e->have_old = !err;
	if (o->target != MDP_BOOT_DSM)
		return false;
	err = mdp_enable_task_refused(e->r, &e->rep);
	(void)flush(e);
	return err != 0;
}

/* "profile NAME is enabled at every boot (target dsm, watcher: OVERLAY); ..." */
static void enabled_line(struct en_run *e, const char *name, const struct mdp_boot_opts *o,
			 const char *how)
{
	char nm[1024];

	mdp_enable_say(&e->rep, MDP_EN_DONE,
		       "profile %s %s at every boot (target %s%s%s); 'mdprofile disable' undoes it",
		       mdp_text_safe(nm, sizeof(nm), name), how, mdp_boot_target_name(o->target),
		       o->auto_profile ? ", watcher: " : "",
		       o->auto_profile ? o->auto_profile : "");
	(void)flush(e);
}

/* The files installed and what boots them registered, the earlier enable's pieces gone first. */
static struct mdp_enable_res install(struct en_run *e, const char *name,
				     const struct mdp_boot_opts *o)
{
	int err, rc;

	if (e->have_old) {
		err = mdp_enable_remove(e->r, &e->old, e->f, e->n, &e->st, &e->rep);
		if (flush(e) || err)
			return res(err ? MDP_ENABLE_FAILED : MDP_ENABLE_LEFT, 0);
	}
	if ((err = mdp_enable_install_files(e->r, e->f, e->n,
					    &e->rep))) { /* those written are gone */
		mdp_enable_say(&e->rep, MDP_EN_ERROR, "nothing is enabled; reverting the profile");
		(void)flush(e);
		if ((rc = e->ops->revert(e->ops->arg)))
			return res(MDP_ENABLE_CALLER, rc);
		return res(err == -EPERM || err == -EINVAL ? MDP_ENABLE_REFUSED : MDP_ENABLE_FAILED,
			   0);
	}
	(void)flush(e);
	err = mdp_enable_register(e->r, name, o, e->f, &e->rep);
	if (flush(e) || err)
		return res(err ? MDP_ENABLE_FAILED : MDP_ENABLE_LEFT, 0);
	enabled_line(e, name, o, "is enabled");
	return res(MDP_ENABLE_DONE, 0);
}

/* The lock let go, the watchers stopped waited for, the watcher started as the boot starts it. */
static bool watcher(struct en_run *e, const struct mdp_boot_opts *o, const char *script)
{
	e->ops->unlock(e->ops->arg);
	mdp_enable_watchers_gone(e->r, &e->st, &e->rep);
	(void)flush(e);
	if (!script)
		return false;
	mdp_enable_start_watcher(e->r, o, script, &e->rep);
	return flush(e);
}

struct mdp_enable_res mdp_enable_run(const struct mdp_root *r, struct mdp_profile *p,
				     const struct mdp_system *s, const struct mdp_boot_opts *o,
				     const struct mdp_enable_ops *ops)
{
	struct en_run e = {.r = r, .ops = ops};
	struct mdp_boot_opts own = *o;
	struct mdp_enable_res out;
	int rc;

	/* Where the package owns the units, enable writes only what they run. */
	own.packaged = o->enable && o->target == MDP_BOOT_SYSTEMD && mdp_boot_packaged(r);
	o = &own;
	mdp_enable_report_init(&e.rep);
	out = make_files(&e, p, s, o);
	if (out.end != MDP_ENABLE_DONE)
		goto done;
	if (refused(&e, o)) {
		out = res(MDP_ENABLE_REFUSED, 0);
		goto done;
	}
	if ((rc = ops->apply(ops->arg))) {
		out = res(MDP_ENABLE_CALLER, rc);
		goto done;
	}
	if (e.have_old && mdp_enable_installed(r, &e.old, p->name, o, e.f, e.n))
		enabled_line(&e, p->name, o, "is already enabled");
	else if ((out = install(&e, p->name, o)).end != MDP_ENABLE_DONE &&
		 out.end != MDP_ENABLE_LEFT)
		goto done;
	if (watcher(&e, o, e.f[0].sys) && out.end == MDP_ENABLE_DONE)
		out = res(MDP_ENABLE_LEFT, 0);
done:
	mdp_boot_files_free(e.f, e.n);
	mdp_enable_report_free(&e.rep);
	return out;
}

struct mdp_enable_res mdp_disable_run(const struct mdp_root *r, const struct mdp_enable_ops *ops)
{
	struct en_run e = {.r = r, .ops = ops};
	struct mdp_diags d;
	char nm[1024];
	int err, rc;

	mdp_enable_report_init(&e.rep);
	mdp_diags_init(&d);
	err = mdp_boot_record_read(r, &e.old, &d);
	flush_diags(&e, &d);
	if (err)
		return res(err == -ENOENT ? MDP_ENABLE_NONE : MDP_ENABLE_REFUSED, 0);
	err = mdp_enable_remove(r, &e.old, NULL, 0, &e.st, &e.rep);
	if (flush(&e) || err)
		return res(err ? MDP_ENABLE_FAILED : MDP_ENABLE_LEFT, 0);
	if ((err = mdp_root_unlink(r, MDP_BOOT_RECORD)) && err != -ENOENT) {
		mdp_enable_say(&e.rep, MDP_EN_ERROR, "cannot remove %s: %s", MDP_BOOT_RECORD,
			       mdp_root_strerror(-err));
		(void)flush(&e);
		return res(MDP_ENABLE_FAILED, 0);
	}
	if (e.old.target == MDP_BOOT_DSM && !e.old.task)
		mdp_enable_say(
		    &e.rep, MDP_EN_DONE,
		    "if you created the Task Scheduler task %s by hand, delete it: Control "
		    "Panel > Task Scheduler, select it, Delete",
		    mdp_boot_dsm.task_name);
	(void)flush(&e);
	rc = ops->revert(ops->arg);
	(void)watcher(&e, NULL, NULL);
	if (rc)
		return res(MDP_ENABLE_CALLER, rc);
	mdp_enable_say(&e.rep, MDP_EN_DONE, "profile %s is no longer enabled",
		       mdp_text_safe(nm, sizeof(nm), e.old.profile));
	(void)flush(&e);
	return res(MDP_ENABLE_DONE, 0);
}
