/* watcher_loop: the watcher's loop (watcher_loop.h). */
#include "watcher_loop.h"
#include "watcher_int.h"
#include "mdp_txn.h"
#include "mdp_base.h"
#include "mdp_md.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

static void wl_event(struct mdp_wloop *w, enum mdp_wl_event ev, bool ended, const char *text)
{
	if (w->c.h.event)
		w->c.h.event(w->c.h.ctx, ev, ended, text);
}

/* A release's event: what the operations did (the summary's), then tail. */
static void wl_released(struct mdp_wloop *w, const char *tail)
{
	char text[sizeof(w->ended) + 600];

	snprintf(text, sizeof(text), "%s%s%s", w->ended, w->ended[0] ? "; " : "", tail);
	wl_event(w, MDP_WL_RELEASED, w->ended[0] != '\0', text);
	w->ended[0] = '\0';
}

double mdp_wl_now(const struct mdp_wloop *w)
{
	return w->c.ops->now(w->c.ops);
}

void mdp_wl_log(struct mdp_wloop *w, int prio, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	w->c.h.line(w->c.h.ctx, prio, line);
	if (prio == LOG_WARNING)
		wl_event(w, MDP_WL_GAVE_UP, false, line);
}

static void wl_err(struct mdp_wloop *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void wl_err(struct mdp_wloop *w, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	w->c.h.error(w->c.h.ctx, msg);
}

/* The diagnostics in d said, then dropped. */
static void wl_diags(struct mdp_wloop *w, struct mdp_diags *d)
{
	w->c.h.diags(w->c.h.ctx, d);
	mdp_diags_free(d);
	mdp_diags_init(d);
}

void mdp_wl_diags(struct mdp_wloop *w, struct mdp_diags *d)
{
	if (d->n)
		wl_diags(w, d);
}

static const char *wl_name(const struct mdp_wloop *w, char *buf, size_t len)
{
	return mdp_text_safe(buf, len, w->c.p->name);
}

/* "resync,recovery,reshape" with sep between the words. */
static void kinds_text(unsigned kinds, const char *sep, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned k = 1; k <= MDP_OP_REPAIR && n < len; k <<= 1)
		if (kinds & k)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? sep : "",
					      mdp_op_kind_name(k));
}

/* The windows auto pauses checks outside of, and the arrays whose checks they are: status
 * counts a check's finish in them (until-idle acts on no maintenance key). */
static void wl_state_maint(const struct mdp_wloop *w, struct mdp_wstate *ws)
{
	const struct mdp_maint *m = &w->c.p->maint.m;

	if (!w->c.p->maint.set || w->c.once)
		return;
	for (size_t i = 0; i < m->n_windows && i < MDP_MAINT_MAX_WINDOWS; i++)
		ws->windows[ws->n_windows++] = m->windows[i];
	snprintf(ws->arrays, sizeof(ws->arrays), "%s", w->maint_arrays);
}

/* What status shows of the watcher (kept in w->ws); a failure to write it costs only that. */
static void wl_state(struct mdp_wloop *w, const char *why)
{
	struct mdp_wstate *ws = &w->ws;

	*ws = (struct mdp_wstate){.pid = (long)getpid(), .mode = w->by, .since = time(NULL)};
	snprintf(ws->profile, sizeof(ws->profile), "%s", w->c.p->name);
	snprintf(ws->state, sizeof(ws->state), "%s",
		 w->engaging                     ? "engaging"
		 : w->e.state == MDP_ENG_ENGAGED ? "engaged"
		 : w->e.state == MDP_ENG_HELD    ? "held"
						 : "armed");
	kinds_text(w->e.kinds, ",", ws->on, sizeof(ws->on));
	snprintf(ws->why, sizeof(ws->why), "%s", why ? why : "");
	wl_state_maint(w, ws);
	(void)mdp_wstate_store(w->c.root, ws);
}

/*
 * While it waits for the main lock, the same state and what it waits for:
 * "waiting for the lock (held by pid N)", N the pid the holder wrote into
 * the lock (a hint, left out when unread). After the wait, wl_lock says
 * w->ws again.
 */
static void wl_state_waiting(struct mdp_wloop *w, long holder)
{
	struct mdp_wstate ws;
	char by[28] = ""; /* the pid is below 2^31 (journal.c's lock_holder) */

	if (!w->ws.pid)
		wl_state(w, NULL);
	ws = w->ws;
	if (holder > 0 && holder <= INT32_MAX)
		snprintf(by, sizeof(by), " (held by pid %d)", (int)holder);
	if (w->engaging)
		snprintf(ws.why, sizeof(ws.why), "%s started; waiting for the lock%s", w->busy, by);
	else
		snprintf(ws.why, sizeof(ws.why), "waiting for the lock%s", by);
	(void)mdp_wstate_store(w->c.root, &ws);
}

/* ---- the journal, seen from the watcher ------------------------------------------ */

/* Our layer is the top one still: the one we applied, nobody replaced or reverted it. */
static bool ours(struct mdp_wloop *w)
{
	return mdp_txn_layer_is(w->c.root, w->by, w->since, w->c.p->name);
}

/*
 * The main lock, for one transaction. Another mdprofile may hold it for
 * long (a slow service pause, an apply suspended with ^Z): the watcher
 * waits its turn in the wait for its stop signals, trying the lock without
 * blocking every MDP_WLOOP_LOCK_RETRY_MS, and says so to status (F05). A
 * stop signal ends the wait: -EINTR, w->stop set to it, nothing done. 0,
 * or another -errno, said.
 */
static int wl_lock(struct mdp_wloop *w)
{
	long holder = 0, said = -1;
	int err, ev, sig = 0;

	while ((err = mdp_lock_take(w->c.root, false, w->c.lock, &holder, w->c.tx->d)) ==
	       -EWOULDBLOCK) {
		if (holder != said)
			wl_state_waiting(w, said = holder);
		holder = 0;
		ev = w->c.ops->wait_signal(w->c.ops, &w->mw, MDP_WLOOP_LOCK_RETRY_MS, &sig);
		if (ev == MDP_WATCH_SIGNAL) {
			w->stop = sig;
			err = -EINTR;
			break;
		}
		if (ev < 0) {
			err = ev;
			break;
		}
	}
	if (said >= 0)
		(void)mdp_wstate_store(w->c.root, &w->ws); /* what it said before the wait */
	if (err && err != -EINTR) {
		wl_diags(w, w->c.tx->d);
		wl_err(w, "cannot take the lock %s: %s", MDP_LOCK, mdp_root_strerror(-err));
	}
	return err;
}

static void wl_unlock(struct mdp_wloop *w)
{
	mdp_lock_release(w->c.lock);
	w->c.lock->fd = -1;
	mdp_txn_report_free(&w->c.tx->rep);
}

int mdp_wl_lock(struct mdp_wloop *w)
{
	return wl_lock(w);
}

void mdp_wl_unlock(struct mdp_wloop *w)
{
	wl_unlock(w);
}

/*
 * ours(), decided under the main lock: another mdprofile's transaction
 * journals "applying" while it works and, when it fails, stores our layer
 * again (F01). Looked at without the lock, that is not "removed".
 */
static bool ours_locked(struct mdp_wloop *w)
{
	bool mine;

	if (wl_lock(w))
		return false;
	mine = ours(w);
	wl_unlock(w);
	return mine;
}

/* ---- engage, re-assert, release ----------------------------------------------------- */

/* A transaction's outcome, through the caller. */
static int wl_txn(struct mdp_wloop *w, struct mdp_txn_rc rc, const char *verb,
		  const struct mdp_plan *pl)
{
	return w->c.h.txn_result(w->c.h.ctx, rc, verb, pl);
}

/*
 * Apply the profile as the watcher's layer (an overlay over an active
 * base), under the lock after recover: what discovery and the plan say
 * through the caller's diags, the transaction's outcome through its
 * txn_result. 0, a txn_result code, or -errno; w->since: the layer's;
 * *none: it worked and left no layer, as nothing was active and the
 * profile changes nothing here (one that sets only maintenance).
 */
static int wl_apply(struct mdp_wloop *w, bool *none)
{
	const struct mdp_apply_opts o = {
	    .origin = w->by, .lean = true, .ctx = w->c.h.ctx, .diags = w->c.h.diags};
	struct mdp_applied a;
	bool did;
	int rc;

	if ((rc = wl_lock(w)))
		return rc;
	rc = wl_txn(w, mdp_txn_recover(w->c.tx, &did), "recover", NULL);
	mdp_txn_report_free(&w->c.tx->rep);
	if (!rc) {
		mdp_apply(w->c.tx, w->c.p, &o, &a);
		rc = a.step < MDP_APPLY_TXN ? a.rc.err : wl_txn(w, a.rc, "apply", &a.plan);
		if (!rc && a.layer.on)
			w->since = a.layer.by == w->by ? a.layer.since : 0;
		*none = !rc && !a.layer.on;
		mdp_applied_free(&a);
	}
	wl_unlock(w);
	return rc;
}

static void wl_engage(struct mdp_wloop *w)
{
	char nm[512], why[300];
	bool none = false;
	int rc;

	if (mdp_txn_layer_blocks(w->c.root, w->by, w->c.p->name, why, sizeof(why))) {
		wl_say(w, "%s started, but %s: left alone until md is idle", w->busy, why);
		mdp_engage_held(&w->e, mdp_wl_now(w));
		wl_state(w, why);
		return;
	}
	wl_note(w, "engaged: %s; applying profile %s", w->busy, wl_name(w, nm, sizeof(nm)));
	if (w->e.flaps > w->flaps)
		mdp_wl_log(w, LOG_WARNING,
			   "md operations stop and start again within %.0f minutes (%u times in a "
			   "row): profile %s is removed only after %.0fs idle",
			   MDP_FLAP_WINDOW_S / 60, w->e.flaps, wl_name(w, nm, sizeof(nm)),
			   mdp_engage_debounce(&w->e));
	w->flaps = w->e.flaps;
	w->engaged_at = mdp_wl_now(w);
	w->engaging = true;
	snprintf(why, sizeof(why), "%s started; applying its profile", w->busy);
	wl_state(w, why);
	rc = wl_apply(w, &none);
	w->engaging = false;
	if (rc == -EINTR)
		return; /* stopped while it waited for the lock: nothing applied */
	if (none) {     /* nothing to put on, nor to take off: held, no error */
		wl_note(w, "profile %s changes nothing here: %s goes on at the values the box has",
			wl_name(w, nm, sizeof(nm)), w->busy);
		mdp_engage_held(&w->e, mdp_wl_now(w));
		wl_state(w, "its profile changes nothing here");
		return;
	}
	if (rc || !w->since) {
		mdp_wl_log(w, LOG_ERR, "could not apply profile %s: left alone until md is idle",
			   wl_name(w, nm, sizeof(nm)));
		mdp_engage_held(&w->e, mdp_wl_now(w));
		wl_state(w, "apply failed");
		return;
	}
	mdp_engage_applied(&w->e, true);
	wl_state(w, NULL);
	snprintf(why, sizeof(why), "engaged: %s; profile %s applied", w->busy,
		 wl_name(w, nm, sizeof(nm)));
	wl_event(w, MDP_WL_ENGAGED, false, why);
}

/* Remove our layer if it is still the top one. 0, a txn_result code, or -errno. */
static int wl_release(struct mdp_wloop *w, const char *why)
{
	char nm[512];
	int rc = 0;

	if ((rc = wl_lock(w)))
		return rc;
	if (ours(w)) {
		if (!w->c.once)
			wl_note(w, "%s; removing profile %s", why, wl_name(w, nm, sizeof(nm)));
		rc = wl_txn(w, mdp_txn_revert(w->c.tx, false), "revert", NULL);
		if (rc)
			mdp_wl_log(w, LOG_ERR, "removing profile %s failed (exit %d)",
				   wl_name(w, nm, sizeof(nm)), rc);
	} else {
		wl_say(w, "%s; profile %s is no longer on: nothing to remove", why,
		       wl_name(w, nm, sizeof(nm)));
	}
	w->since = 0;
	wl_unlock(w);
	return rc;
}

/* Something rewrote a value our layers set: put it back, up to MDP_REASSERT_MAX times. */
static void wl_reassert_one(struct mdp_wloop *w, const struct mdp_change *c)
{
	char name[96], was[48] = "?", want[48];
	unsigned n;
	int rc = mdp_engage_reassert(&w->e, c->t, c->dev, &n);

	mdp_tunable_target_name(c->t, c->dev, name, sizeof(name));
	if (c->cur.present)
		mdp_tunable_show(c->t, &c->cur.val, was, sizeof(was));
	mdp_tunable_show(c->t, &c->want, want, sizeof(want));
	if (rc == 0 && n)
		mdp_wl_log(
		    w, LOG_WARNING,
		    "%s: rewritten to %s again after %u put-backs; left as it is until md is idle",
		    name, was, MDP_REASSERT_MAX);
	if (rc != 1)
		return;
	if (wl_lock(w))
		return;
	if (ours(w)) {
		if (mdp_txn_reassert(w->c.tx, c->t, c->dev) == 0 && ++w->put_back)
			wl_note(w, "%s: rewritten to %s by something else; put back %s (%u of %u)",
				name, was, want, n, MDP_REASSERT_MAX);
		else {
			w->c.h.diags(w->c.h.ctx, w->c.tx->d);
			wl_say(w, "%s: rewritten to %s by something else; putting back %s failed",
			       name, was, want);
		}
		mdp_diags_free(w->c.tx->d);
		mdp_diags_init(w->c.tx->d);
	}
	wl_unlock(w);
}

static void wl_reassert(struct mdp_wloop *w, const struct mdp_system *s)
{
	struct mdp_journal j;
	struct mdp_plan pl = {0};

	if (mdp_journal_load(w->c.root, &j, NULL))
		return;
	if (!mdp_drift_plan(&j, s, &pl))
		for (size_t i = 0; i < pl.n && !w->stop; i++)
			/* a value whose device is gone is recover's note, not a rewrite */
			if (pl.v[i].pending && pl.v[i].cur.present)
				wl_reassert_one(w, &pl.v[i]);
	mdp_plan_free(&pl);
	mdp_journal_free(&j);
}

/* ---- the profile's goal (watcher_goal.h) -------------------------------------------- */

/* Each move of this look written through the journal, under the lock, while our layer is on. */
static void wl_goal_write(struct mdp_wloop *w, const struct mdp_wgoal_move *m, size_t n)
{
	struct mdp_value v = {MDP_V_NUM, 0};
	size_t writes = 0;

	for (size_t i = 0; i < n; i++)
		if (m[i].write)
			writes++;
		else /* nothing left to give: said, nothing to write */
			mdp_wl_log(w, LOG_WARNING, "%s", m[i].line);
	if (!writes || wl_lock(w))
		return;
	for (size_t i = 0; i < n && ours(w); i++) {
		if (!m[i].write)
			continue;
		v.num = m[i].to;
		if (mdp_txn_steer(w->c.tx, m[i].t, m[i].name, &v) == 0) {
			mdp_wgoal_moved(&w->goal, &m[i]);
			wl_say(w, "%s", m[i].line);
		} else {
			w->c.h.diags(w->c.h.ctx, w->c.tx->d);
			mdp_wl_log(w, LOG_WARNING, "%s: %s %" PRIu64 " -> %" PRIu64 " KiB/s failed",
				   m[i].name,
				   m[i].t == MDP_T_SYNC_SPEED_MAX ? "maximum" : "minimum",
				   m[i].from, m[i].to);
		}
		mdp_diags_free(w->c.tx->d);
		mdp_diags_init(w->c.tx->d);
	}
	wl_unlock(w);
}

/* Engaged with a goal: each array running a watched operation steered (goal.h). */
static void wl_goal(struct mdp_wloop *w, const struct mdp_system *s)
{
	struct mdp_wgoal_move *m = NULL;
	bool *on;
	size_t n = 0;

	if (!w->goal.goal_ms || !(on = calloc(s->n_arrays + 1, sizeof(*on))))
		return;
	for (size_t i = 0; i < s->n_arrays; i++)
		on[i] = mdp_wl_watched(w, &s->arrays[i]);
	if (mdp_wgoal_look(&w->goal, w->since, w->c.root, s, on, &m, &n) == 0) {
		mdp_wgoal_tally(&w->goal, mdp_wl_now(w));
		wl_goal_write(w, m, n);
	}
	(void)mdp_wgoal_store(w->c.root, &w->goal); /* status's view; a failure costs only that */
	free(m);
	free(on);
}

/* ---- the loop ------------------------------------------------------------------------- */

static void fmt_span(double secs, char *buf, size_t len)
{
	uint64_t s = secs > 0 ? (uint64_t)(secs + 0.5) : 0;

	if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 "h %" PRIu64 "m", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		snprintf(buf, len, "%" PRIu64 "m %" PRIu64 "s", s / 60, s % 60);
	else
		snprintf(buf, len, "%" PRIu64 "s", s);
}

/* How an operation ended, for the summary; where it stood when it did not finish. */
static void op_end_text(const struct mdp_op_seen *o, char *buf, size_t len)
{
	const char *at = "at";

	switch (o->end) {
	case MDP_OPEND_FINISHED:
		snprintf(buf, len, "finished");
		return;
	case MDP_OPEND_GONE:
		snprintf(buf, len, "stopped (array gone)");
		return;
	case MDP_OPEND_STOPPED:
		at = "stopped at";
		break;
	case MDP_OPEND_ENDED:
		at = "ended, last seen at";
		break;
	case MDP_OPEND_RUNNING:
		at = "unfinished, at";
		break;
	}
	snprintf(buf, len, "%s %u.%u%%", at, o->permille / 10, o->permille % 10);
}

/* "from 10000 to 300000 KiB/s", "300000 KiB/s throughout" */
static void range_text(uint64_t lo, uint64_t hi, char *buf, size_t len)
{
	if (lo == hi)
		snprintf(buf, len, "%" PRIu64 " KiB/s throughout", lo);
	else
		snprintf(buf, len, "from %" PRIu64 " to %" PRIu64 " KiB/s", lo, hi);
}

/*
 * Per array steered by the goal: the time over it, and where its limits
 * went (an array never over it whose limits never moved: nothing to say);
 * then forgotten.
 */
static void wl_goal_summary(struct mdp_wloop *w)
{
	for (size_t i = 0; i < w->goal.n_sp; i++) {
		const struct mdp_wgoal_span *p = &w->goal.sp[i];
		char over[32], all[32], min[64], max[80] = "";

		if (p->over_s <= 0 && p->lo.min == p->hi.min && p->lo.max == p->hi.max)
			continue;
		fmt_span(p->over_s, over, sizeof(over));
		fmt_span(p->steered_s, all, sizeof(all));
		range_text(p->lo.min, p->hi.min, min, sizeof(min));
		if (p->max) {
			memcpy(max, ", maximum ", 10);
			range_text(p->lo.max, p->hi.max, max + 10, sizeof(max) - 10);
		}
		wl_note(w, "%s: over the %u ms goal for %s of %s steered; minimum %s%s", p->name,
			w->goal.goal_ms, over, all, min, max);
	}
	mdp_wgoal_spans_clear(&w->goal);
}

void mdp_wloop_summary(struct mdp_wloop *w)
{
	size_t n;

	w->ended[0] = '\0';
	for (size_t i = 0; i < w->n_ops; i++) {
		const struct mdp_op_seen *o = &w->ops[i];
		double dt = o->t1 - o->t0;
		/* finished: all of it */
		uint64_t d1 = o->end == MDP_OPEND_FINISHED ? o->total : o->d1;
		uint64_t kib = d1 > o->d0 ? (d1 - o->d0) / 2 : 0;
		uint64_t avg = dt >= 1 ? (uint64_t)((double)kib / dt) : 0;
		char how[64];

		op_end_text(o, how, sizeof(how));
		wl_note(w, "%s %s: %s, average %" PRIu64 " KiB/s", o->name, o->action, how, avg);
		n = strlen(w->ended);
		snprintf(w->ended + n, sizeof(w->ended) - n,
			 "%s%s %s: %s, average %" PRIu64 " KiB/s", n ? "; " : "", o->name,
			 o->action, how, avg);
	}
	wl_goal_summary(w);
}

/* auto, at each release: what the overlay was on for, and the operations it served. */
static void wl_release_summary(struct mdp_wloop *w)
{
	char span[32], nm[512], line[600];

	mdp_wloop_summary(w);
	fmt_span(mdp_wl_now(w) - w->engaged_at, span, sizeof(span));
	wl_note(w, "profile %s was on for %s; %u value%s put back", wl_name(w, nm, sizeof(nm)),
		span, w->put_back, w->put_back == 1 ? "" : "s");
	snprintf(line, sizeof(line), "profile %s removed after %s", nm, span);
	wl_released(w, line);
	w->n_ops = 0;
	w->put_back = 0;
}

/* One step of the state machine on what the last look showed. Returns 1 to end. */
static int wl_step(struct mdp_wloop *w, const struct mdp_system *s, int *rc)
{
	bool busy = mdp_wl_busy(w, s);
	char nm[512], span[32], why[64];

	if (w->e.state == MDP_ENG_ENGAGED && !ours(w) && !ours_locked(w)) {
		if (w->stop)
			return 0; /* stopped while it waited for the lock: not judged */
		wl_note(w, "profile %s was removed or replaced by another mdprofile; %s",
			wl_name(w, nm, sizeof(nm)),
			w->c.once ? "nothing left to do" : "not applied again until md is idle");
		w->lost = w->since;
		w->since = 0;
		if (w->c.once)
			return 1;
		mdp_engage_held(&w->e, mdp_wl_now(w));
		wl_state(w, "removed by another mdprofile");
		return 0;
	}
	switch (mdp_engage_step(&w->e, busy, mdp_wl_now(w))) {
	case MDP_ENG_APPLY:
		wl_engage(w);
		return 0; /* what the last look read is from before the apply */
	case MDP_ENG_RELEASE:
		fmt_span(mdp_wl_now(w) - w->start, span, sizeof(span));
		snprintf(why, sizeof(why), "md idle for %.0fs", mdp_engage_debounce(&w->e));
		*rc = wl_release(w, w->c.once ? "operations ended" : why);
		if (w->stop)
			return *rc = 0; /* its layer is on still: the stop removes it */
		mdp_engage_released(&w->e);
		if (w->c.once) {
			if (!*rc)
				wl_note(w, "operations ended after %s; reverted", span);
			return 1;
		}
		wl_release_summary(w);
		wl_state(w, NULL);
		break;
	case MDP_ENG_REARM:
		/* our layer back on top (a failed transaction stored it again): ours to remove */
		w->since = w->lost;
		w->lost = 0;
		if (w->since && ours(w))
			(void)wl_release(w, "md idle, and the watcher's layer is on top again");
		w->since = 0;
		w->n_ops = 0;
		w->put_back = 0;
		wl_say(w, "md idle: armed again");
		wl_state(w, NULL);
		break;
	case MDP_ENG_NOTHING:
		break;
	}
	if (w->e.state == MDP_ENG_ENGAGED && !w->stop)
		wl_reassert(w, s);
	if (w->e.state == MDP_ENG_ENGAGED && !w->stop)
		wl_goal(w, s);
	if (!w->stop)
		mdp_wmaint_look(w, s);
	return 0;
}

/*
 * The watcher lock removed from under it (root may): taken again at its path,
 * so that a second watcher is refused and recover still sees this one. 1 when
 * another watcher took it first: this one stops.
 */
static int wl_keep_lock(struct mdp_wloop *w)
{
	long holder = 0;
	int k = mdp_watcher_keep(w->c.root, w->c.wlock, &holder);

	if (k == 1)
		mdp_wl_log(w, LOG_WARNING,
			   "the watcher lock %s was removed or replaced: taken again",
			   MDP_WATCHER_LOCK);
	else if (k == -EWOULDBLOCK)
		mdp_wl_log(w, LOG_ERR,
			   "the watcher lock %s was removed and another watcher (pid %ld) took it: "
			   "stopping",
			   MDP_WATCHER_LOCK, holder);
	return k == -EWOULDBLOCK;
}

/* How long to sleep: the interval, or what is left of a debounce under way. */
static int wl_timeout(const struct mdp_wloop *w)
{
	double due = mdp_engage_due(&w->e, mdp_wl_now(w));
	int ms = (int)w->c.interval_ms;

	if (due >= 0 && due * 1000 + 1 < ms)
		ms = (int)(due * 1000) + 1;
	return ms;
}

/* After each step: the operation for a bar (the first watched one), and the lines out. */
static void wl_looked(struct mdp_wloop *w, const struct mdp_system *s)
{
	const struct mdp_array *a = NULL;

	for (size_t i = 0; i < s->n_arrays && !a; i++)
		if (mdp_wl_watched(w, &s->arrays[i]))
			a = &s->arrays[i];
	if (w->c.h.looked)
		w->c.h.looked(w->c.h.ctx, a);
}

/*
 * A stop signal: remove an engaged layer and say so. Another one while
 * that waits for the lock ends the wait: the layer stays, for the recover
 * of the next mdprofile command that changes the system (its watcher gone).
 */
static int wl_stopped(struct mdp_wloop *w, int sig)
{
	const char *name = mdp_watch_signal_name(sig);
	char span[32], nm[512];
	int rc = 0;

	if (w->c.h.bar_off)
		w->c.h.bar_off(w->c.h.ctx);
	fmt_span(mdp_wl_now(w) - w->start, span, sizeof(span));
	if (!w->since) {
		wl_note(w, "stopped by %s", name);
		return 0;
	}
	w->stop = 0;
	rc = wl_release(w, name);
	if (rc == -EINTR)
		mdp_wl_log(
		    w, LOG_WARNING,
		    "stopped by %s while waiting for the lock: profile %s stays on until the "
		    "next mdprofile command that changes the system removes it",
		    mdp_watch_signal_name(w->stop), wl_name(w, nm, sizeof(nm)));
	else if (!rc && w->c.once)
		wl_note(w, "stopped by %s after %s; reverted", name, span);
	return rc;
}

/*
 * A look, taken again while it fails (MDP_WLOOP_LOOK_TRIES), in the wait
 * for the stop signals: one sets w->stop and ends it. 0 or the last -errno.
 */
static int wl_look(struct mdp_wloop *w, struct mdp_system *s)
{
	int err, ev, sig = 0;

	for (int i = 1; (err = mdp_wloop_look(w, s)) && err != -ENOMEM; i++) {
		if (i == MDP_WLOOP_LOOK_TRIES)
			break;
		ev = w->c.ops->wait_signal(w->c.ops, &w->mw, MDP_WLOOP_LOCK_RETRY_MS, &sig);
		if (ev == MDP_WATCH_SIGNAL) {
			w->stop = sig;
			break;
		}
		if (ev < 0)
			break;
	}
	return err;
}

/*
 * Each turn a step, then a wait. After it, a discovery (a look) when md
 * said something (an event) or when the watcher is not quiet, else a
 * glance, and a discovery only when the glance saw a change; the watch
 * follows each discovery's arrays.
 */
/* until-idle's end: a last look, the summary, and its event. */
static void wl_until_idle_end(struct mdp_wloop *w, struct mdp_system *s)
{
	char nm[512], tail[600];

	w->done = true;
	(void)mdp_wloop_look(w, s);
	mdp_wloop_summary(w);
	snprintf(tail, sizeof(tail), "profile %s reverted", wl_name(w, nm, sizeof(nm)));
	wl_released(w, tail);
}

static int wl_loop(struct mdp_wloop *w, struct mdp_system *s)
{
	int rc = 0, sig = 0, ev, err;
	bool look = true;   /* s is a discovery's, not watched yet */
	bool raced = false; /* that discovery followed a change a glance saw at the watch's open */

	for (;;) {
		if (wl_step(w, s, &rc))
			break;
		if (w->stop) { /* a stop signal ended a wait for the lock */
			rc = wl_stopped(w, w->stop);
			break;
		}
		wl_looked(w, s);
		if (look && (err = mdp_wloop_watch(w, s, mdp_wl_now(w)))) {
			wl_err(w, "cannot watch md: %s", strerror(-err));
			break;
		}
		/*
		 * The files the watch kept are armed since before the discovery,
		 * and /proc/mdstat reports every array event; a new array's file
		 * is armed from its open, after the discovery: a change md made
		 * on it in between (an operation starting just after the event
		 * that woke us) is found by a glance now, not an interval later.
		 * Once in a row, so that a value read differently by discovery
		 * can cost a look, never a spin.
		 */
		raced =
		    look && !raced && mdp_wloop_quiet(w, mdp_wl_now(w)) && mdp_wloop_glance(w, s);
		ev = raced ? MDP_WATCH_MD : w->c.ops->wait(w->c.ops, &w->mw, wl_timeout(w), &sig);
		if (ev == MDP_WATCH_SIGNAL) {
			rc = wl_stopped(w, sig);
			break;
		}
		look = ev != MDP_WATCH_TIMEOUT || !mdp_wloop_quiet(w, mdp_wl_now(w)) ||
		       mdp_wloop_glance(w, s);
		if (ev < 0 || (look && (err = wl_look(w, s)))) {
			if (w->stop) { /* a stop signal while the look was taken again */
				rc = wl_stopped(w, w->stop);
				break;
			}
			wl_err(w, "cannot follow md: %s", strerror(ev < 0 ? -ev : -err));
			if (w->since)
				rc = wl_release(w, "stopping");
			rc = rc ? rc : -EIO;
			break;
		}
		if (wl_keep_lock(w)) {
			if (w->since)
				rc = wl_release(w, "stopping");
			rc = rc ? rc : -EWOULDBLOCK;
			break;
		}
	}
	w->c.ops->close(w->c.ops, &w->mw);
	if (w->c.h.bar_off)
		w->c.h.bar_off(w->c.h.ctx);
	if (w->c.once && !rc)
		wl_until_idle_end(w, s);
	return rc;
}

void mdp_wloop_init(struct mdp_wloop *w, const struct mdp_wloop_cfg *c)
{
	memset(w, 0, sizeof(*w));
	w->c = *c;
	if (!w->c.ops)
		w->c.ops = &mdp_watch_plain_ops;
	if (!w->c.interval_ms)
		w->c.interval_ms = 5000;
	w->by = c->once ? MDP_BY_UNTIL_IDLE : MDP_BY_AUTO;
	w->start = mdp_wl_now(w);
	w->skip = mdp_plan_discover_skip(c->p) & ~(unsigned)MDP_SKIP_PROGRESS;
	w->mw.sfd = -1;
	/* a goal measures the members where md does not time its requests (iostat.h) */
	if ((w->goal.goal_ms = c->p->goal.latency_ms))
		w->skip &= ~(unsigned)MDP_SKIP_MEMBERS;
	w->goal.pct = c->p->goal.percentile;
	/* maintenance reads the member disks' heat and keeps a check's place by UUID */
	if (c->p->maint.set && !c->once)
		w->skip &= ~(unsigned)(MDP_SKIP_MEMBERS | MDP_SKIP_UUID);
	mdp_engage_init(&w->e, c->kinds, MDP_WLOOP_DEBOUNCE_S, c->once);
}

void mdp_wloop_fini(struct mdp_wloop *w)
{
	mdp_engage_free(&w->e);
	free(w->ops);
	w->ops = NULL;
	w->n_ops = 0;
	w->c.ops->close(w->c.ops, &w->mw);
	free(w->sel);
	w->sel = NULL;
	mdp_wgoal_free(&w->goal);
	mdp_wmaint_free(&w->maint);
	(void)mdp_root_unlink(w->c.root, MDP_WATCHER_GOAL);
	(void)mdp_root_unlink(w->c.root, MDP_WATCHER_STATE);
}

/*
 * The watch before the first look: the stop signals (the first step may
 * wait for the lock) and /proc/mdstat. 0 or -errno, said.
 */
static int wl_watch_start(struct mdp_wloop *w)
{
	const struct mdp_system none = {0};
	int err = w->c.ops->open(w->c.ops, w->c.root, &none, w->c.stop, &w->mw);

	if (err)
		wl_err(w, "cannot watch md: %s", strerror(-err));
	return err;
}

int mdp_wloop_until_idle(struct mdp_wloop *w)
{
	struct mdp_system s = {0};
	struct mdp_journal j;
	enum mdp_origin other = MDP_BY_UNTIL_IDLE;
	char nm[512];
	int rc;

	if (!mdp_journal_load(w->c.root, &j, NULL)) {
		w->since = j.by == w->by && !strcmp(j.profile, w->c.p->name) ? j.since : 0;
		if (j.state == MDP_J_ACTIVE && !strcmp(j.profile, w->c.p->name))
			other = j.by;
		mdp_journal_free(&j);
	}
	/* the apply's own transaction is over: others may change the system from now on */
	wl_unlock(w);
	if ((rc = wl_watch_start(w)))
		return rc;
	if (!w->since && other != MDP_BY_UNTIL_IDLE) {
		/* the profile was on already, another's layer (F02): it stays */
		wl_say(w,
		       "profile %s was already on (%s): it stays when md is idle; nothing to "
		       "wait for",
		       wl_name(w, nm, sizeof(nm)), mdp_origin_name(other));
		rc = 0;
	} else if (mdp_wloop_look(w, &s) || !mdp_wl_busy(w, &s)) {
		wl_say(w,
		       "profile %s: no array resyncs, recovers, reshapes or checks now, nothing "
		       "to wait for (start the operation first); reverting",
		       wl_name(w, nm, sizeof(nm)));
		rc = wl_release(w, "nothing to wait for");
		if (w->stop)
			rc = wl_stopped(w, w->stop);
		else if (!rc)
			wl_note(w, "operations ended after 0s; reverted");
	} else {
		wl_say(w,
		       "profile %s: watching until no array resyncs, recovers, reshapes or "
		       "checks; SIGINT, SIGTERM or SIGHUP reverts now",
		       wl_name(w, nm, sizeof(nm)));
		wl_state(w, NULL);
		rc = wl_loop(w, &s);
	}
	mdp_system_free(&s);
	return rc;
}

int mdp_wloop_auto(struct mdp_wloop *w)
{
	struct mdp_system s = {0};
	struct mdp_text_list l;
	char nm[512], arrays[256], on[64];
	int rc;

	wl_unlock(w);
	if ((rc = wl_watch_start(w)))
		return rc;
	if ((rc = mdp_wloop_look(w, &s))) {
		wl_err(w, "cannot read md: %s", strerror(-rc));
		mdp_system_free(&s);
		return rc;
	}
	mdp_text_list_init(&l, arrays, sizeof(arrays));
	for (size_t i = 0, n = 0; i < s.n_arrays; i++)
		if (mdp_wl_selected(w, &s.arrays[i])) {
			mdp_text_list_add(&l, s.arrays[i].name);
			if (w->c.p->n_rules &&
			    n + strlen(s.arrays[i].name) + 2 < sizeof(w->maint_arrays))
				n += (size_t)snprintf(w->maint_arrays + n,
						      sizeof(w->maint_arrays) - n, "%s%s",
						      n ? " " : "", s.arrays[i].name);
		}
	mdp_text_list_end(&l, "arrays");
	wl_state(w, NULL);
	kinds_text(w->e.kinds, ", ", on, sizeof(on));
	wl_note(w, "profile %s armed: on %s of %s; looking every %gs and on md events",
		wl_name(w, nm, sizeof(nm)), on, arrays[0] ? arrays : "no selected array yet",
		w->c.interval_ms / 1000.0);
	rc = wl_loop(w, &s);
	mdp_system_free(&s);
	return rc;
}

int mdp_wloop_run(const struct mdp_wloop_cfg *c)
{
	struct mdp_wloop w;
	int rc;

	mdp_wloop_init(&w, c);
	rc = c->once ? mdp_wloop_until_idle(&w) : mdp_wloop_auto(&w);
	mdp_wloop_fini(&w);
	return rc;
}
