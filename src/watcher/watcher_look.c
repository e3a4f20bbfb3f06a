/*
 * watcher_look: what the watcher sees of md at each look (watcher_loop.h):
 * which arrays it watches, the operations it tracks from start to end and how
 * each ended, the discovery of a look, the watch that follows it, and the
 * glance that stands in for a discovery while all is quiet.
 */
#include "watcher_loop.h"
#include "watcher_int.h"
#include "mdp_base.h"
#include "mdp_md.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- looking at md -------------------------------------------------------------------- */

bool mdp_wl_selected(const struct mdp_wloop *w, const struct mdp_array *a)
{
	return w->c.once || mdp_plan_selects(w->c.p, a);
}

bool mdp_wl_watched(const struct mdp_wloop *w, const struct mdp_array *a)
{
	return mdp_engage_busy(a, w->e.kinds) && a->has_progress && mdp_wl_selected(w, a);
}

bool mdp_wl_busy(struct mdp_wloop *w, const struct mdp_system *s)
{
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		if (mdp_engage_busy(a, w->e.kinds) && mdp_wl_selected(w, a)) {
			snprintf(w->busy, sizeof(w->busy), "%s %s", a->name, a->sync_action);
			return true;
		}
	}
	return false;
}

static struct mdp_op_seen *op_find(struct mdp_wloop *w, const struct mdp_array *a, double now)
{
	struct mdp_op_seen *v;

	for (size_t i = 0; i < w->n_ops; i++)
		if (!strcmp(w->ops[i].name, a->name) && !strcmp(w->ops[i].action, a->sync_action) &&
		    w->ops[i].end == MDP_OPEND_RUNNING)
			return &w->ops[i];
	if (!(v = mdp_push(&w->ops, &w->n_ops, sizeof(*v))))
		return NULL;
	snprintf(v->name, sizeof(v->name), "%s", a->name);
	snprintf(v->action, sizeof(v->action), "%s", a->sync_action);
	v->t0 = v->t1 = now;
	v->d0 = v->d1 = a->sync_done;
	v->total = a->sync_total;
	v->decile = v->permille = a->permille;
	v->decile /= 100;
	v->degraded = a->degraded;
	return v;
}

/* A stopped array leaves /sys/block, or shows no md state on its way out. */
static bool array_gone(const struct mdp_array *a)
{
	return !a || !strcmp(a->array_state, "clear") || !strcmp(a->array_state, "inactive") ||
	       (!a->array_state[0] && !a->sync_action[0]);
}

/*
 * What md keeps after an operation: a reshape's md/reshape_position and a
 * resync's md/resync_start read "none" once it finished and a sector when
 * it was interrupted; a recovery that finished lowered md/degraded. Progress
 * cannot tell: md may jump from 65% to the end between two looks.
 */
static enum mdp_op_end op_outcome(const struct mdp_wloop *w, const struct mdp_op_seen *o,
				  const struct mdp_array *a)
{
	unsigned k = mdp_op_kind_of(o->action);
	const char *attr = k == MDP_OP_RESHAPE  ? "reshape_position"
			   : k == MDP_OP_RESYNC ? "resync_start"
						: NULL;
	char path[96], v[32];

	if (k == MDP_OP_RECOVERY && o->degraded > 0 && a->degraded >= 0)
		return a->degraded < o->degraded ? MDP_OPEND_FINISHED : MDP_OPEND_STOPPED;
	if (!attr)
		return MDP_OPEND_ENDED;
	snprintf(path, sizeof(path), "/sys/block/%s/md/%s", o->name, attr);
	if (mdp_root_read_value(w->c.root, path, v, sizeof(v)) <= 0)
		return MDP_OPEND_ENDED;
	return !strcmp(v, "none") ? MDP_OPEND_FINISHED : MDP_OPEND_STOPPED;
}

/*
 * Operations no longer running have ended: how, md says (op_outcome).
 * mdadm --stop interrupts the operation first (md shows idle) and removes
 * the array just after, so an ended operation whose array is gone at a
 * later look was stopped with it.
 */
static void track_ends(struct mdp_wloop *w, const struct mdp_system *s, double now)
{
	for (size_t i = 0; i < w->n_ops; i++) {
		struct mdp_op_seen *o = &w->ops[i];
		const struct mdp_array *a = mdp_system_array(s, o->name);
		if (o->end == MDP_OPEND_GONE)
			continue;
		if (array_gone(a)) {
			if (o->end == MDP_OPEND_RUNNING)
				o->t1 = now;
			if (o->end != MDP_OPEND_FINISHED)
				o->end = MDP_OPEND_GONE;
			continue;
		}
		if (o->end != MDP_OPEND_RUNNING)
			continue;
		/* md still names it with no thread at work: ended, not yet reaped; judge later */
		if (!strcmp(a->sync_action, o->action) &&
		    (mdp_watch_running(a) || a->no_sync_thread))
			continue;
		o->t1 = now; /* d1 stays the last progress seen */
		o->end = op_outcome(w, o, a);
	}
}

void mdp_wloop_track(struct mdp_wloop *w, const struct mdp_system *s, double now)
{
	track_ends(w, s, now);
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		struct mdp_op_seen *o;
		if (!mdp_wl_watched(w, a) || !(o = op_find(w, a, now)))
			continue;
		o->t1 = now;
		o->d1 = a->sync_done;
		o->total = a->sync_total;
		o->permille = a->permille;
		if (a->permille / 100 > o->decile && !w->done && w->c.steps) {
			o->decile = a->permille / 100;
			wl_say(w, "%s %s at %u.%u%%, %" PRIu64 " KiB/s", a->name, a->sync_action,
			       a->permille / 10, a->permille % 10, a->sync_speed);
		}
	}
}

/* What can change between two looks, read into s (freed first); its diagnostics dropped. */
static int wloop_read(const struct mdp_wloop *w, struct mdp_system *s)
{
	struct mdp_diags d;
	int err;

	mdp_system_free(s);
	mdp_diags_init(&d);
	/* the first discovery said what is wrong with the system; say it once */
	err = mdp_discover_some(w->c.root, w->skip, s, &d);
	mdp_diags_free(&d);
	return err;
}

int mdp_wloop_look(struct mdp_wloop *w, struct mdp_system *s)
{
	int err = wloop_read(w, s);

	if (!err)
		mdp_wloop_track(w, s, mdp_wl_now(w));
	return err;
}

int mdp_wloop_watch(struct mdp_wloop *w, const struct mdp_system *s, double now)
{
	bool *sel = calloc(s->n_arrays + 1, sizeof(*sel));

	free(w->sel);
	w->sel = sel;
	if (!sel)
		return -ENOMEM;
	w->calm = true;
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		if (!(sel[i] = mdp_wl_selected(w, a)))
			continue;
		/* queued: it may start without a word in sync_action (DELAYED, PENDING) */
		if (a->sync_queued[0] || (mdp_op_kind_of(a->sync_action) & w->e.kinds))
			w->calm = false;
	}
	w->seen_at = now;
	w->glance = 0;
	/* open since before s was read (wl_watch_start): an event md raised meanwhile stays */
	if (w->mw.p)
		return w->c.ops->follow(w->c.ops, w->c.root, s, &w->mw);
	return w->c.ops->open(w->c.ops, w->c.root, s, w->c.stop, &w->mw);
}

bool mdp_wloop_quiet(const struct mdp_wloop *w, double now)
{
	if (w->e.state == MDP_ENG_ENGAGED || !w->sel || !w->calm ||
	    now - w->seen_at >= MDP_WLOOP_SAFETY_S)
		return false;
	for (size_t i = 0; i < w->n_ops; i++)
		if (w->ops[i].end == MDP_OPEND_RUNNING)
			return false;
	return true;
}

int mdp_wloop_glance(struct mdp_wloop *w, const struct mdp_system *s)
{
	char v[32]; /* as discovery reads it: a longer word than sync_action holds differs */
	size_t n = w->mw.n, seen = 0, j;

	for (j = 0; j < n && seen < MDP_WLOOP_GLANCE_MAX; j++) {
		size_t i = (w->glance + j) % n;
		int k = w->mw.arr[i];
		if (k < 0 || (size_t)k >= s->n_arrays || !w->sel[k])
			continue;
		seen++;
		if (w->c.ops->read(w->c.ops, &w->mw, i, v, sizeof(v)) ||
		    strcmp(v, s->arrays[k].sync_action))
			return 1;
	}
	w->glance = n ? (w->glance + j) % n : 0;
	return 0;
}
