/* status_model: what status shows, arrays and profile (status_model.h). */
#include "status_model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mdp_txn.h"
#include "mdp_base.h"
#include "mdp_md.h"
#include "status_int.h"

/* ---- arrays ------------------------------------------------------------------ */

uint64_t mdp_status_eta(const struct mdp_array *a)
{
	if (!a->has_progress || !a->sync_speed || a->sync_done >= a->sync_total)
		return 0;
	return (a->sync_total - a->sync_done) / 2 / a->sync_speed;
}

bool mdp_status_busy(const struct mdp_array *a)
{
	return a->sync_action[0] && strcmp(a->sync_action, "idle");
}

/* mdstat's word after resync= or reshape= for an operation held back; else "running". */
static const char *queue_state(const char *q)
{
	return !strcmp(q, "DELAYED")       ? "delayed"
	       : !strcmp(q, "PENDING")     ? "pending"
	       : !strcmp(q, "REMOTE")      ? "remote"
	       : !strcmp(q, "CLEANING UP") ? "cleaning_up"
					   : "running";
}

const char *mdp_status_op_state(const struct mdp_array *a)
{
	return mdp_status_busy(a) ? queue_state(a->sync_queued) : "idle";
}

static int missing_of(const struct mdp_array *a, const struct mdp_mdstat_array *ms)
{
	if (a->degraded >= 0 || a->from_mdstat)
		return a->degraded;
	return ms && ms->raid_disks ? ms->raid_disks - ms->working : -1;
}

int mdp_status_missing(const struct mdp_system *s, const struct mdp_array *a)
{
	return missing_of(a, mdp_mdstat_find(&s->mdstat, a->name));
}

/* md's own "broken" says so itself; the caller reads array_state for it. */
bool mdp_status_failed(const struct mdp_array *a, int missing)
{
	int parity = !strcmp(a->level_name, "raid1")   ? a->raid_disks - 1
		     : !strcmp(a->level_name, "raid4") ? 1
		     : !strcmp(a->level_name, "raid5") ? 1
		     : !strcmp(a->level_name, "raid6") ? 2
						       : -1;

	return parity >= 0 && a->raid_disks > 0 && missing > parity;
}

void mdp_status_array(const struct mdp_system *s, const struct mdp_array *a,
		      struct mdp_status_array *v)
{
	const struct mdp_cur *sc = &a->cur[MDP_T_STRIPE_CACHE_SIZE];
	const struct mdp_mdstat_array *ms = s ? mdp_mdstat_find(&s->mdstat, a->name) : NULL;

	*v = (struct mdp_status_array){
	    .a = a,
	    .eta = mdp_status_eta(a),
	    .busy = mdp_status_busy(a),
	    .running = mdp_watch_running(a),
	    .op_state = mdp_status_op_state(a),
	    .missing = missing_of(a, ms),
	    .container = ms && ms->container,
	    .stripe_bytes = sc->present ? mdp_plan_stripe_bytes(a, sc->val.num) : 0,
	    .media = a->media == MDP_MEDIA_UNKNOWN ? NULL : mdp_ident_media_name(a->media),
	};
	v->failed = mdp_status_failed(a, v->missing);
}

size_t mdp_status_each_mdstat_only(const struct mdp_system *s,
				   void (*fn)(const struct mdp_system *,
					      const struct mdp_status_array *, void *),
				   void *arg)
{
	struct mdp_status_array v;
	size_t n = 0;

	for (size_t i = 0; i < s->mdstat.n; i++) {
		struct mdp_array a;
		if (mdp_system_array(s, s->mdstat.arrays[i].name) ||
		    mdp_discover_from_mdstat(s, &s->mdstat.arrays[i], &a))
			continue;
		mdp_status_array(s, &a, &v);
		fn(s, &v, arg);
		free(a.members);
		n++;
	}
	return n;
}

/* ---- the profile side ---------------------------------------------------------- */

static void read_profile(const struct mdp_root *r, const struct mdp_system *s,
			 struct mdp_journal *j, int jerr, struct mdp_status *st)
{
	struct mdp_plan pl;

	memset(st, 0, sizeof(*st));
	st->drift = -1;
	st->sys = s;
	/* The watcher's word, only while it lives (holds its lock). */
	st->have_w = mdp_watcher_probe(r) == 1 && !mdp_wstate_load(r, &st->w);
	st->have_goal =
	    st->have_w && !strcmp(st->w.state, "engaged") && !mdp_wgoal_load(r, &st->goal);
	st->unreadable = jerr && jerr != -ENOENT && jerr != -EBADMSG;
	st->jerr = jerr;
	if (!(st->have_j = !jerr))
		return;
	st->j = *j;
	st->stale = st->j.boot_id[0] && s->boot_id[0] && strcmp(st->j.boot_id, s->boot_id);
	for (size_t i = 0; i < st->j.n_svc; i++)
		st->n_paused += st->j.svc[i].paused;
	if (st->stale || st->j.state != MDP_J_ACTIVE)
		return;
	if (mdp_journal_mtime(r, &st->since))
		st->since = 0;
	/* The watcher holds the lock as long as it lives (apply.c). */
	st->watch_gone = mdp_origin_watched(st->j.by) && mdp_watcher_probe(r) == 0;
	if (!mdp_drift_plan(&st->j, s, &pl)) {
		st->drift = (long)mdp_plan_pending(&pl);
		mdp_plan_free(&pl);
	}
}

/* What status says of the profile, in the order it is judged. */
static enum mdp_pstate pstate(const struct mdp_status *st)
{
	if (st->unreadable)
		return MDP_PS_UNKNOWN;
	if (!st->have_j || st->j.state == MDP_J_NONE)
		return MDP_PS_NONE;
	if (st->stale)
		return MDP_PS_STALE;
	return st->j.state == MDP_J_ACTIVE ? MDP_PS_ACTIVE : MDP_PS_INTERRUPTED;
}

/* The checks paused in place that still are: of this boot, their array there and idle. */
static void read_checks(const struct mdp_root *r, const struct mdp_system *s, struct mdp_status *st)
{
	struct mdp_jpauses *p = &st->checks;
	size_t n = 0;

	if (mdp_txn_pauses(r, p))
		return;
	for (size_t i = 0; i < p->n; i++) {
		const struct mdp_array *a = mdp_system_array(s, p->v[i].dev);
		if (a && !strcmp(a->sync_action, "idle"))
			p->v[n++] = p->v[i];
	}
	p->n = n;
}

void mdp_status_read(const struct mdp_root *r, const struct mdp_system *s, struct mdp_journal *j,
		     int jerr, struct mdp_status *st)
{
	read_profile(r, s, j, jerr, st);
	read_checks(r, s, st);
	st->state = pstate(st);
}

void mdp_status_free(struct mdp_status *st)
{
	if (st->have_j)
		mdp_journal_free(&st->j);
	st->have_j = false;
	mdp_jpauses_free(&st->checks);
}

const char *mdp_pstate_name(enum mdp_pstate p)
{
	static const char *const names[] = {
	    [MDP_PS_UNKNOWN] = "unknown", [MDP_PS_NONE] = "none",
	    [MDP_PS_STALE] = "stale",     [MDP_PS_INTERRUPTED] = "interrupted",
	    [MDP_PS_ACTIVE] = "active",
	};

	return (size_t)p < sizeof(names) / sizeof(names[0]) ? names[p] : "unknown";
}

bool mdp_status_speed_now(const struct mdp_status *st, const struct mdp_op_speed *sp, uint64_t *now)
{
	const struct mdp_array *a = st->sys ? mdp_system_array(st->sys, sp->dev) : NULL;

	if (!a || strcmp(a->sync_action, sp->action) || strcmp(mdp_status_op_state(a), "running"))
		return false;
	*now = a->sync_speed;
	return true;
}

/* ---- a check's end in the windows ----------------------------------------------------- */

/* Whether the watcher's maintenance windows govern dev's checks. */
static bool windowed(const struct mdp_status *st, const char *dev)
{
	const char *list = st->w.arrays, *p;
	size_t n = strlen(dev);

	if (!st->have_w || !st->w.n_windows || !n)
		return false;
	if (!list[0])
		return true;
	for (p = list; (p = strstr(p, dev)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* The sectors dev's check has left and its pace: paused (the pause journal's) or running. */
static bool check_left(const struct mdp_status *st, const struct mdp_array *a,
		       struct mdp_status_finish *f, uint64_t *left, bool *when_known)
{
	for (size_t i = 0; i < st->checks.n; i++) {
		const struct mdp_jpause *c = &st->checks.v[i];
		if (strcmp(c->dev, a->name))
			continue;
		f->paused = true;
		f->kib_s = c->kib_s;
		snprintf(f->action, sizeof(f->action), "%.6s", c->action);
		*left = c->total > c->position ? c->total - c->position : 0;
		/* outside the windows it resumes when one opens; else when what holds it ends */
		*when_known = !strcmp(c->why.word, "window");
		return c->total && c->kib_s;
	}
	if ((strcmp(a->sync_action, "check") && strcmp(a->sync_action, "repair")) ||
	    strcmp(mdp_status_op_state(a), "running") || !a->has_progress || !a->sync_speed)
		return false;
	f->kib_s = a->sync_speed;
	snprintf(f->action, sizeof(f->action), "%.6s", a->sync_action);
	*left = a->sync_total > a->sync_done ? a->sync_total - a->sync_done : 0;
	*when_known = true;
	return true;
}

bool mdp_status_finish(const struct mdp_status *st, const char *dev, struct mdp_status_finish *f)
{
	const struct mdp_array *a = st->sys ? mdp_system_array(st->sys, dev) : NULL;
	struct mdp_mwin w[MDP_MAINT_MAX_WINDOWS];
	struct mdp_maint m = {.windows = w, .n_windows = st->w.n_windows};
	time_t t = (time_t)st->now;
	uint64_t left = 0, wall;
	bool when_known = false;
	struct tm tm;

	memset(f, 0, sizeof(*f));
	if (!a || !windowed(st, dev) || !check_left(st, a, f, &left, &when_known))
		return false;
	f->work_s = left / 2 / f->kib_s; /* sectors of 512 bytes at KiB/s */
	if (!when_known || st->now < 0 || !localtime_r(&t, &tm))
		return true;
	memcpy(w, st->w.windows, sizeof(w));
	if (!mdp_maint_finish(
		&m,
		(struct mdp_mtime){(unsigned)tm.tm_wday, (unsigned)(tm.tm_hour * 60 + tm.tm_min)},
		(unsigned)tm.tm_sec, f->work_s, &wall) &&
	    wall <= (uint64_t)(INT64_MAX - st->now))
		f->at = st->now + (int64_t)wall;
	return true;
}
