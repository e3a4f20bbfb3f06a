/*
 * auto and apply --until-idle: one watcher, two ways to start it.
 *
 * `mdprofile auto PROFILE` arms: it sleeps in poll() on /proc/mdstat and
 * each array's md/sync_action (md wakes both when an operation starts or
 * ends) and on the interval. When an operation of a watched kind starts on
 * an array the profile selects, it applies PROFILE (an overlay when a base
 * is active); while engaged it puts back, at most MDP_REASSERT_MAX times
 * each, values something else rewrote (DSM does at every storage-pool
 * operation); when every selected array has been idle for the debounce it
 * removes its layer. `apply --until-idle` is the same loop started engaged,
 * ending at its first release.
 *
 * The watcher holds the watcher lock for its whole life (one watcher per
 * machine; recover removes a watcher's layer only when that lock is free),
 * and the main lock only for each transaction, so `revert` from another
 * shell works at any time: the watcher sees its layer gone and leaves md
 * alone until the operation ends (held). SIGINT, SIGTERM and SIGHUP remove
 * an engaged layer and end the watcher with 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "drift.h"
#include "engage.h"
#include "grow.h"
#include "render.h"
#include "status.h"
#include "watch.h"
#include "watcher.h"
#include "wlog.h"

/* Idle this long before a release: DSM chains steps (a reshape, then a resync). */
#define DEBOUNCE_S 3.0

/* How an operation md no longer runs ended, from what md keeps after it (F07). */
enum op_end {
	OP_RUNNING,
	OP_FINISHED, /* md says so: reshape_position or resync_start "none", degraded down */
	OP_STOPPED,  /* md says it did not finish: a position kept, degraded as it was */
	OP_ENDED,    /* md keeps nothing that tells (check, repair, an older kernel) */
	OP_GONE,     /* the array went away (stopped): not finished */
};

/* One array's operation as seen from its first to its last look (the summary). */
struct op_seen {
	char name[MDP_NAME_MAX];
	char action[16];
	double t0, t1;          /* monotonic seconds */
	uint64_t d0, d1, total; /* sectors */
	unsigned decile;        /* last 10% step logged */
	unsigned permille;      /* progress at the last look that saw it run */
	int degraded;           /* md/degraded when first seen */
	enum op_end end;
};

struct wt {
	struct cli *cli;
	unsigned interval_ms; /* between two looks (--interval) */
	const struct mdp_profile *p;
	enum mdp_origin by; /* MDP_BY_AUTO or MDP_BY_UNTIL_IDLE */
	bool once;          /* apply --until-idle: ends at the first release */
	struct mdp_engage e;
	unsigned skip;          /* discovery: what the plan and the watch can do without */
	const struct wlog *log; /* where the lines go */
	bool bar;               /* a bar is on the last line now */
	int64_t since;          /* our layer's journaled since, 0 when we have none on */
	int64_t lost;           /* held: the since of the layer found removed */
	char busy[64];          /* the first busy selected array and its action, for messages */
	struct op_seen *ops;    /* since the engage (auto) or the start (until-idle) */
	size_t n_ops;
	double start;
	double engaged_at; /* monotonic seconds of the engage */
	unsigned put_back; /* values put back this engagement */
	unsigned flaps;    /* the engage's flap count last said */
	bool engaging;     /* applying: waiting for the main lock, or in the transaction */
	bool done;
};

static void wt_clear_bar(struct wt *w)
{
	if (w->bar)
		fputs("\r\033[K", stdout);
	w->bar = false;
}

/* A line for people, with its priority for the journal and syslog (wlog.h). */
static void wt_log(struct wt *w, int prio, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void wt_log(struct wt *w, int prio, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	wt_clear_bar(w);
	wlog_line(w->log, prio, cli_info(w->cli), line);
}

#define wt_say(w, ...)  wt_log(w, LOG_INFO, __VA_ARGS__)
#define wt_note(w, ...) wt_log(w, LOG_NOTICE, __VA_ARGS__)

static const char *wt_name(const struct wt *w, char *buf, size_t len)
{
	return render_safe(w->p->name, buf, len);
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

/* What status shows of the watcher; a failure to write it costs only that. */
static void wt_state(struct wt *w, const char *why)
{
	struct mdp_wstate ws = {.pid = (long)getpid(), .mode = w->by, .since = time(NULL)};

	snprintf(ws.profile, sizeof(ws.profile), "%s", w->p->name);
	snprintf(ws.state, sizeof(ws.state), "%s",
		 w->engaging                     ? "engaging"
		 : w->e.state == MDP_ENG_ENGAGED ? "engaged"
		 : w->e.state == MDP_ENG_HELD    ? "held"
						 : "armed");
	kinds_text(w->e.kinds, ",", ws.on, sizeof(ws.on));
	snprintf(ws.why, sizeof(ws.why), "%s", why ? why : "");
	(void)mdp_wstate_store(&w->cli->root, &ws);
}

/* ---- the journal, seen from the watcher ------------------------------------------ */

static bool load_quiet(struct wt *w, struct mdp_journal *j)
{
	struct mdp_diags d;
	bool ok;

	mdp_diags_init(&d);
	ok = mdp_journal_load(&w->cli->root, j, &d) == 0;
	mdp_diags_free(&d);
	return ok;
}

/* Our layer is the top one still: the one we applied, nobody replaced or reverted it. */
static bool ours(struct wt *w)
{
	return mdp_txn_layer_is(&w->cli->root, w->by, w->since, w->p->name);
}

/* The main lock, for one transaction; the watcher waits its turn. */
static int wt_lock(struct wt *w)
{
	struct cli *cli = w->cli;
	int err = mdp_lock_take(&cli->root, true, &cli->lock, NULL, &cli->d);

	if (err) {
		cli_print_diags(cli, &cli->d);
		mdp_diags_free(&cli->d);
		mdp_diags_init(&cli->d);
		cli_err(cli, "cannot take the lock %s: %s", MDP_LOCK, mdp_root_strerror(-err));
	}
	return err;
}

static void wt_unlock(struct wt *w)
{
	mdp_lock_release(&w->cli->lock);
	w->cli->lock.fd = -1;
	mdp_txn_report_free(&w->cli->tx.rep);
}

/*
 * ours(), decided under the main lock: another mdprofile's transaction
 * journals "applying" while it works and, when it fails, stores our layer
 * again (F01). Looked at without the lock, that is not "removed".
 */
static bool ours_locked(struct wt *w)
{
	bool mine;

	if (wt_lock(w))
		return false;
	mine = ours(w);
	wt_unlock(w);
	return mine;
}

/* ---- engage, re-assert, release ----------------------------------------------------- */

static int wt_apply(struct wt *w)
{
	struct cli *cli = w->cli;
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	struct mdp_journal j;
	bool did;
	int rc;

	if (wt_lock(w))
		return MDP_EXIT_FAILED;
	rc = cli_txn_result(cli, mdp_txn_recover(&cli->tx, &did), "recover", NULL);
	mdp_txn_report_free(&cli->tx.rep);
	if (!rc && !(rc = cli_discover(cli, mdp_plan_discover_skip(w->p), &s)) &&
	    !(rc = cli_plan(cli, w->p, &s, &pl)))
		rc = cli_txn_result(cli, mdp_txn_apply(&cli->tx, w->p, &pl), "apply", &pl);
	if (!rc && load_quiet(w, &j)) {
		w->since = j.by == w->by ? j.since : 0;
		mdp_journal_free(&j);
	}
	wt_unlock(w);
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	return rc;
}

static void wt_engage(struct wt *w)
{
	char nm[512], why[300];
	int rc;

	if (mdp_txn_layer_blocks(&w->cli->root, w->by, w->p->name, why, sizeof(why))) {
		wt_say(w, "%s started, but %s: left alone until md is idle", w->busy, why);
		mdp_engage_held(&w->e, cli_mono_s());
		wt_state(w, why);
		return;
	}
	wt_note(w, "engaged: %s; applying profile %s", w->busy, wt_name(w, nm, sizeof(nm)));
	if (w->e.flaps > w->flaps)
		wt_log(w, LOG_WARNING,
		       "md operations stop and start again within %.0f minutes (%u times in a "
		       "row): profile %s is removed only after %.0fs idle",
		       MDP_FLAP_WINDOW_S / 60, w->e.flaps, wt_name(w, nm, sizeof(nm)),
		       mdp_engage_debounce(&w->e));
	w->flaps = w->e.flaps;
	w->engaged_at = cli_mono_s();
	/* status says so while another mdprofile holds the main lock */
	w->engaging = true;
	wt_state(w, w->busy);
	rc = wt_apply(w);
	w->engaging = false;
	if (rc || !w->since) {
		wt_log(w, LOG_ERR, "could not apply profile %s: left alone until md is idle",
		       wt_name(w, nm, sizeof(nm)));
		mdp_engage_held(&w->e, cli_mono_s());
		wt_state(w, "apply failed");
		return;
	}
	mdp_engage_applied(&w->e, true);
	wt_state(w, NULL);
}

/* Remove our layer if it is still the top one. An exit code. */
static int wt_release(struct wt *w, const char *why)
{
	struct cli *cli = w->cli;
	char nm[512];
	int rc = MDP_EXIT_OK;

	if (wt_lock(w))
		return MDP_EXIT_FAILED;
	if (ours(w)) {
		if (!w->once)
			wt_note(w, "%s; removing profile %s", why, wt_name(w, nm, sizeof(nm)));
		rc = cli_txn_result(cli, mdp_txn_revert(&cli->tx, false), "revert", NULL);
		if (rc)
			wt_log(w, LOG_ERR, "removing profile %s failed (exit %d)",
			       wt_name(w, nm, sizeof(nm)), rc);
	} else {
		wt_say(w, "%s; profile %s is no longer on: nothing to remove", why,
		       wt_name(w, nm, sizeof(nm)));
	}
	w->since = 0;
	wt_unlock(w);
	return rc;
}

/* Something rewrote a value our layers set: put it back, up to MDP_REASSERT_MAX times. */
static void wt_reassert_one(struct wt *w, const struct mdp_change *c)
{
	char name[96], was[48] = "?", want[48];
	unsigned n;
	int rc = mdp_engage_reassert(&w->e, c->t, c->dev, &n);

	mdp_tunable_target_name(c->t, c->dev, name, sizeof(name));
	if (c->cur.present)
		mdp_tunable_show(c->t, &c->cur.val, was, sizeof(was));
	mdp_tunable_show(c->t, &c->want, want, sizeof(want));
	if (rc == 0 && n)
		wt_log(
		    w, LOG_WARNING,
		    "%s: rewritten to %s again after %u put-backs; left as it is until md is idle",
		    name, was, MDP_REASSERT_MAX);
	if (rc != 1)
		return;
	if (wt_lock(w))
		return;
	if (ours(w)) {
		if (mdp_txn_reassert(&w->cli->tx, c->t, c->dev) == 0 && ++w->put_back)
			wt_note(w, "%s: rewritten to %s by something else; put back %s (%u of %u)",
				name, was, want, n, MDP_REASSERT_MAX);
		else {
			cli_print_diags(w->cli, &w->cli->d);
			wt_say(w, "%s: rewritten to %s by something else; putting back %s failed",
			       name, was, want);
		}
		mdp_diags_free(&w->cli->d);
		mdp_diags_init(&w->cli->d);
	}
	wt_unlock(w);
}

static void wt_reassert(struct wt *w, const struct mdp_system *s)
{
	struct mdp_journal j;
	struct mdp_plan pl = {0};

	if (!load_quiet(w, &j))
		return;
	if (!mdp_drift_plan(&j, s, &pl))
		for (size_t i = 0; i < pl.n; i++)
			/* a value whose device is gone is recover's note, not a rewrite */
			if (pl.v[i].pending && pl.v[i].cur.present)
				wt_reassert_one(w, &pl.v[i]);
	mdp_plan_free(&pl);
	mdp_journal_free(&j);
}

/* ---- looking at md -------------------------------------------------------------------- */

static bool selected(const struct wt *w, const struct mdp_array *a)
{
	return w->once || mdp_plan_selects(w->p, a);
}

/* Whether a selected array runs a watched operation; the first one named in w->busy. */
static bool wt_busy(struct wt *w, const struct mdp_system *s)
{
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		if (selected(w, a) && mdp_engage_busy(a, w->e.kinds)) {
			snprintf(w->busy, sizeof(w->busy), "%s %s", a->name, a->sync_action);
			return true;
		}
	}
	return false;
}

static struct op_seen *op_find(struct wt *w, const struct mdp_array *a)
{
	struct op_seen *v;

	for (size_t i = 0; i < w->n_ops; i++)
		if (!strcmp(w->ops[i].name, a->name) && !strcmp(w->ops[i].action, a->sync_action) &&
		    w->ops[i].end == OP_RUNNING)
			return &w->ops[i];
	if (!(v = mdp_push(&w->ops, &w->n_ops, sizeof(*v))))
		return NULL;
	snprintf(v->name, sizeof(v->name), "%s", a->name);
	snprintf(v->action, sizeof(v->action), "%s", a->sync_action);
	v->t0 = v->t1 = cli_mono_s();
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
static enum op_end op_outcome(struct wt *w, const struct op_seen *o, const struct mdp_array *a)
{
	unsigned k = mdp_op_kind_of(o->action);
	const char *attr = k == MDP_OP_RESHAPE  ? "reshape_position"
			   : k == MDP_OP_RESYNC ? "resync_start"
						: NULL;
	char path[96], v[32];

	if (k == MDP_OP_RECOVERY && o->degraded > 0 && a->degraded >= 0)
		return a->degraded < o->degraded ? OP_FINISHED : OP_STOPPED;
	if (!attr)
		return OP_ENDED;
	snprintf(path, sizeof(path), "/sys/block/%s/md/%s", o->name, attr);
	if (mdp_root_read_value(&w->cli->root, path, v, sizeof(v)) <= 0)
		return OP_ENDED;
	return !strcmp(v, "none") ? OP_FINISHED : OP_STOPPED;
}

/*
 * Note progress; without a terminal, log each 10% step. Operations no
 * longer running have ended: how, md says (op_outcome). mdadm --stop
 * interrupts the operation first (md shows idle) and removes the array
 * just after, so an ended operation whose array is gone at a later look
 * was stopped with it.
 */
static void wt_track(struct wt *w, const struct mdp_system *s)
{
	for (size_t i = 0; i < w->n_ops; i++) {
		struct op_seen *o = &w->ops[i];
		const struct mdp_array *a = mdp_system_array(s, o->name);
		if (o->end == OP_GONE)
			continue;
		if (array_gone(a)) {
			if (o->end == OP_RUNNING)
				o->t1 = cli_mono_s();
			if (o->end != OP_FINISHED)
				o->end = OP_GONE;
			continue;
		}
		if (o->end != OP_RUNNING)
			continue;
		if (!strcmp(a->sync_action, o->action) && mdp_watch_running(a))
			continue;
		o->t1 = cli_mono_s(); /* d1 stays the last progress seen */
		o->end = op_outcome(w, o, a);
	}
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		struct op_seen *o;
		if (!selected(w, a) || !mdp_engage_busy(a, w->e.kinds) || !a->has_progress ||
		    !(o = op_find(w, a)))
			continue;
		o->t1 = cli_mono_s();
		o->d1 = a->sync_done;
		o->total = a->sync_total;
		o->permille = a->permille;
		if (a->permille / 100 > o->decile && !w->done && w->log->sink != WLOG_TTY) {
			o->decile = a->permille / 100;
			wt_say(w, "%s %s at %u.%u%%, %" PRIu64 " KiB/s", a->name, a->sync_action,
			       a->permille / 10, a->permille % 10, a->sync_speed);
		}
	}
}

/* On a terminal: the first running operation's bar, ETA and speed on the last line. */
static void wt_bar(struct wt *w, const struct mdp_system *s)
{
	char eta[32] = "";

	if (w->log->sink != WLOG_TTY || !cli_info(w->cli))
		return;
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		int fill = (int)(a->permille * 30 / 1000);
		if (!selected(w, a) || !mdp_engage_busy(a, w->e.kinds) || !a->has_progress)
			continue;
		if (status_eta_seconds(a))
			status_fmt_eta(status_eta_seconds(a), eta, sizeof(eta));
		wt_clear_bar(w);
		printf("%s %s [%.*s>%.*s] %u.%u%%, %" PRIu64 " KiB/s%s%s", a->name, a->sync_action,
		       fill, "==============================", 29 - fill,
		       ".............................", a->permille / 10, a->permille % 10,
		       a->sync_speed, eta[0] ? ", about " : "", eta);
		fflush(stdout);
		w->bar = true;
		return;
	}
}

static int wt_look(struct wt *w, struct mdp_system *s)
{
	struct mdp_diags d;
	int err;

	mdp_system_free(s);
	mdp_diags_init(&d);
	/* the first discovery said what is wrong with the system; say it once */
	err = mdp_discover_some(&w->cli->root, w->skip, s, &d);
	mdp_diags_free(&d);
	if (!err)
		wt_track(w, s);
	return err;
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

/* Each operation seen (since the engage, or the start) with how it ended and its average. */
static void wt_summary(struct wt *w)
{
	for (size_t i = 0; i < w->n_ops; i++) {
		const struct op_seen *o = &w->ops[i];
		double dt = o->t1 - o->t0;
		uint64_t d1 = o->end == OP_FINISHED ? o->total : o->d1; /* finished: all of it */
		uint64_t kib = d1 > o->d0 ? (d1 - o->d0) / 2 : 0;
		uint64_t avg = dt >= 1 ? (uint64_t)((double)kib / dt) : 0;
		char how[64];
		unsigned pm = o->permille;
		switch (o->end) {
		case OP_FINISHED:
			snprintf(how, sizeof(how), "finished");
			break;
		case OP_STOPPED:
			snprintf(how, sizeof(how), "stopped at %u.%u%%", pm / 10, pm % 10);
			break;
		case OP_ENDED:
			snprintf(how, sizeof(how), "ended, last seen at %u.%u%%", pm / 10, pm % 10);
			break;
		case OP_GONE:
			snprintf(how, sizeof(how), "stopped (array gone)");
			break;
		case OP_RUNNING:
			snprintf(how, sizeof(how), "unfinished, at %u.%u%%", pm / 10, pm % 10);
			break;
		}
		wt_note(w, "%s %s: %s, average %" PRIu64 " KiB/s", o->name, o->action, how, avg);
	}
}

/* auto, at each release: what the overlay was on for, and the operations it served. */
static void wt_release_summary(struct wt *w)
{
	char span[32], nm[512];

	wt_summary(w);
	fmt_span(cli_mono_s() - w->engaged_at, span, sizeof(span));
	wt_note(w, "profile %s was on for %s; %u value%s put back", wt_name(w, nm, sizeof(nm)),
		span, w->put_back, w->put_back == 1 ? "" : "s");
	w->n_ops = 0;
	w->put_back = 0;
}

/* One step of the state machine on what the last look showed. Returns 1 to end, or an exit. */
static int wt_step(struct wt *w, const struct mdp_system *s, int *rc)
{
	bool busy = wt_busy(w, s);
	char nm[512], span[32], why[64];

	if (w->e.state == MDP_ENG_ENGAGED && !ours(w) && !ours_locked(w)) {
		wt_note(w, "profile %s was removed or replaced by another mdprofile; %s",
			wt_name(w, nm, sizeof(nm)),
			w->once ? "nothing left to do" : "not applied again until md is idle");
		w->lost = w->since;
		w->since = 0;
		if (w->once)
			return 1;
		mdp_engage_held(&w->e, cli_mono_s());
		wt_state(w, "removed by another mdprofile");
		return 0;
	}
	switch (mdp_engage_step(&w->e, busy, cli_mono_s())) {
	case MDP_ENG_APPLY:
		wt_engage(w);
		return 0; /* what the last look read is from before the apply */
	case MDP_ENG_RELEASE:
		fmt_span(cli_mono_s() - w->start, span, sizeof(span));
		snprintf(why, sizeof(why), "md idle for %.0fs", mdp_engage_debounce(&w->e));
		*rc = wt_release(w, w->once ? "operations ended" : why);
		mdp_engage_released(&w->e);
		if (w->once) {
			if (!*rc)
				wt_note(w, "operations ended after %s; reverted", span);
			return 1;
		}
		wt_release_summary(w);
		wt_state(w, NULL);
		break;
	case MDP_ENG_REARM:
		/* our layer back on top (a failed transaction stored it again): ours to remove */
		w->since = w->lost;
		w->lost = 0;
		if (w->since && ours(w))
			(void)wt_release(w, "md idle, and the watcher's layer is on top again");
		w->since = 0;
		w->n_ops = 0;
		w->put_back = 0;
		wt_say(w, "md idle: armed again");
		wt_state(w, NULL);
		break;
	case MDP_ENG_NOTHING:
		break;
	}
	if (w->e.state == MDP_ENG_ENGAGED)
		wt_reassert(w, s);
	return 0;
}

/*
 * The watcher lock removed from under it (root may): taken again at its path,
 * so that a second watcher is refused and recover still sees this one. 1 when
 * another watcher took it first: this one stops.
 */
static int wt_keep_lock(struct wt *w)
{
	long holder = 0;
	int k = mdp_watcher_keep(&w->cli->root, &w->cli->watcher, &holder);

	if (k == 1)
		wt_log(w, LOG_WARNING, "the watcher lock %s was removed or replaced: taken again",
		       MDP_WATCHER_LOCK);
	else if (k == -EWOULDBLOCK)
		wt_log(w, LOG_ERR,
		       "the watcher lock %s was removed and another watcher (pid %ld) took it: "
		       "stopping",
		       MDP_WATCHER_LOCK, holder);
	return k == -EWOULDBLOCK;
}

/* How long to sleep: the interval, or what is left of a debounce under way. */
static int wt_timeout(const struct wt *w)
{
	double due = mdp_engage_due(&w->e, cli_mono_s());
	int ms = (int)w->interval_ms;

	if (due >= 0 && due * 1000 + 1 < ms)
		ms = (int)(due * 1000) + 1;
	return ms;
}

static int wt_loop(struct wt *w, struct mdp_system *s)
{
	struct mdp_watch mw = {.sfd = -1};
	sigset_t stop;
	int rc = MDP_EXIT_OK, sig = 0, ev, err;
	char span[32];

	cli_stop_signals(&stop);
	for (;;) {
		if (wt_step(w, s, &rc))
			break;
		wt_bar(w, s);
		/* A log file (stdout redirected) gets an engage's or a release's lines when they
		 * happen, not when the next message or the exit flushes them. */
		fflush(stdout);
		if ((err = mdp_watch_open(&w->cli->root, s, &stop, &mw))) {
			cli_err(w->cli, "cannot watch md: %s", strerror(-err));
			break;
		}
		ev = mdp_watch_wait(&mw, wt_timeout(w), &sig);
		mdp_watch_close(&mw);
		if (ev == MDP_WATCH_SIGNAL) {
			wt_clear_bar(w);
			fmt_span(cli_mono_s() - w->start, span, sizeof(span));
			if (w->since) {
				rc = wt_release(w, cli_signal_name(sig));
				if (!rc && w->once)
					wt_note(w, "stopped by %s after %s; reverted",
						cli_signal_name(sig), span);
			} else
				wt_note(w, "stopped by %s", cli_signal_name(sig));
			break;
		}
		if (ev < 0 || wt_look(w, s)) {
			cli_err(w->cli, "cannot follow md: %s", strerror(ev < 0 ? -ev : EIO));
			if (w->since)
				rc = wt_release(w, "stopping");
			rc = rc ? rc : MDP_EXIT_FAILED;
			break;
		}
		if (wt_keep_lock(w)) {
			if (w->since)
				rc = wt_release(w, "stopping");
			rc = rc ? rc : MDP_EXIT_FAILED;
			break;
		}
	}
	wt_clear_bar(w);
	if (w->once && !rc) {
		w->done = true;
		(void)wt_look(w, s);
		wt_summary(w);
	}
	return rc;
}

static void wt_init(struct wt *w, struct cli *cli, const struct wlog *log, bool once,
		    unsigned kinds, unsigned interval_ms)
{
	memset(w, 0, sizeof(*w));
	w->cli = cli;
	w->log = log;
	w->interval_ms = interval_ms ? interval_ms : 5000;
	w->p = &cli->profile;
	w->once = once;
	w->by = once ? MDP_BY_UNTIL_IDLE : MDP_BY_AUTO;
	cli->tx.origin = w->by;
	w->start = cli_mono_s();
	w->skip = mdp_plan_discover_skip(w->p) & ~(unsigned)MDP_SKIP_PROGRESS;
	mdp_engage_init(&w->e, kinds, DEBOUNCE_S, once);
}

static void wt_fini(struct wt *w)
{
	mdp_engage_free(&w->e);
	free(w->ops);
	(void)mdp_root_unlink(&w->cli->root, MDP_WATCHER_STATE);
}

int watcher_lock(struct cli *cli)
{
	struct mdp_lock *l = &cli->watcher;
	long holder = 0;
	int err = mdp_watcher_take(&cli->root, l, &holder, &cli->d);

	if (!err)
		return 0;
	if (err == -EPERM && cli->d.n)
		cli_print_diags(cli, &cli->d);
	else if (err == -EWOULDBLOCK)
		cli_err(cli,
			"another watcher (pid %ld, mdprofile auto or apply --until-idle) is "
			"running; one per machine: stop it first",
			holder);
	else
		cli_err(cli, "cannot take the lock %s: %s", MDP_WATCHER_LOCK,
			mdp_root_strerror(-err));
	return MDP_EXIT_FAILED;
}

int watcher_until_idle(struct cli *cli, const struct wlog *log, unsigned interval_ms)
{
	struct mdp_system s = {0};
	struct mdp_journal j;
	struct wt w;
	char nm[512];
	int rc;

	enum mdp_origin other = MDP_BY_UNTIL_IDLE;

	wt_init(&w, cli, log, true, MDP_OP_ALL, interval_ms);
	if (load_quiet(&w, &j)) {
		w.since = j.by == w.by && !strcmp(j.profile, w.p->name) ? j.since : 0;
		if (j.state == MDP_J_ACTIVE && !strcmp(j.profile, w.p->name))
			other = j.by;
		mdp_journal_free(&j);
	}
	/* the apply's own transaction is over: others may change the system from now on */
	wt_unlock(&w);
	if (!w.since && other != MDP_BY_UNTIL_IDLE) {
		/* the profile was on already, another's layer (F02): it stays */
		wt_say(&w,
		       "profile %s was already on (%s): it stays when md is idle; nothing to "
		       "wait for",
		       wt_name(&w, nm, sizeof(nm)), mdp_origin_name(other));
		rc = MDP_EXIT_OK;
	} else if (wt_look(&w, &s) || !wt_busy(&w, &s)) {
		wt_say(&w,
		       "profile %s: no array resyncs, recovers, reshapes or checks now, nothing "
		       "to wait for (start the operation first); reverting",
		       wt_name(&w, nm, sizeof(nm)));
		rc = wt_release(&w, "nothing to wait for");
		if (!rc)
			wt_note(&w, "operations ended after 0s; reverted");
	} else {
		wt_say(&w,
		       "profile %s: watching until no array resyncs, recovers, reshapes or "
		       "checks; SIGINT, SIGTERM or SIGHUP reverts now",
		       wt_name(&w, nm, sizeof(nm)));
		wt_state(&w, NULL);
		rc = wt_loop(&w, &s);
	}
	mdp_system_free(&s);
	wt_fini(&w);
	return rc;
}

/* auto's options. */
struct auto_opts {
	const char *on;       /* --on KINDS: the operations that engage it */
	unsigned interval_ms; /* --interval; 0: 5 s */
};

static const struct opt auto_opts[] = {
    /* A comma-separated list of the words: taken whole, offered word by word. */
    {.name = "on",
     .kind = OPTK_STRING,
     .off = offsetof(struct auto_opts, on),
     .metavar = "KINDS",
     .words = mdp_op_kind_words,
     .help = "the md operations it applies during, comma-separated: resync, recovery, reshape "
	     "(the default), check, repair"},
    OPT_INTERVAL("interval", struct auto_opts, interval_ms,
		 "seconds between looks besides md's events (default 5)"),
    CLI_OPT_NAME, /* the profile on stdin: the boot's pinned overlay */
};

static const struct opt_table auto_table = OPT_TABLE(auto_opts, struct auto_opts, NULL, NULL, NULL);

/* Before anything happens: --on's words, and no --json. */
static int auto_check(struct cli *cli)
{
	const struct auto_opts *o = cli->opts;
	const char *bad;
	size_t bad_len;
	unsigned kinds;

	if (o->on && mdp_op_kinds_parse(o->on, &kinds, &bad, &bad_len)) {
		cli_err(cli,
			"--on: '%.*s' is no md operation: give resync, recovery, reshape, "
			"check or repair, comma-separated",
			(int)bad_len, bad);
		return MDP_EXIT_USAGE;
	}
	if (cli->json) {
		cli_err(cli, "auto reports as text (and to syslog), not --json");
		return MDP_EXIT_USAGE;
	}
	return 0;
}

static int do_auto(struct cli *cli)
{
	const struct auto_opts *o = cli->opts;
	struct mdp_system s = {0};
	const char *bad;
	size_t bad_len, n = 0;
	unsigned kinds = MDP_OP_DEFAULT;
	char nm[512], arrays[256] = "", on[64];
	struct wlog log;
	struct wt w;
	int rc;

	if (o->on)
		(void)mdp_op_kinds_parse(o->on, &kinds, &bad, &bad_len); /* auto_check's */
	if ((rc = watcher_lock(cli)))
		return rc;
	wlog_open(&log, mdp_root_is_real(&cli->root));
	wt_init(&w, cli, &log, false, kinds, o->interval_ms);
	wt_unlock(&w);
	if ((rc = wt_look(&w, &s))) {
		cli_err(cli, "cannot read md: %s", strerror(-rc));
		wt_fini(&w);
		wlog_close(&log);
		return MDP_EXIT_FAILED;
	}
	for (size_t i = 0; i < s.n_arrays; i++)
		if (selected(&w, &s.arrays[i]) && n < sizeof(arrays))
			n += (size_t)snprintf(arrays + n, sizeof(arrays) - n, "%s%s", n ? ", " : "",
					      s.arrays[i].name);
	wt_state(&w, NULL);
	kinds_text(kinds, ", ", on, sizeof(on));
	wt_note(&w, "profile %s armed: on %s of %s; looking every %gs and on md events",
		wt_name(&w, nm, sizeof(nm)), on, arrays[0] ? arrays : "no selected array yet",
		w.interval_ms / 1000.0);
	rc = wt_loop(&w, &s);
	mdp_system_free(&s);
	wt_fini(&w);
	wlog_close(&log);
	return rc;
}

const struct cmd cmd_auto = {
    .name = "auto",
    .fn = do_auto,
    .flags = CMD_PROFILE | CMD_TXN | CMD_RECOVER,
    .opts = &auto_table,
    .min_args = 1,
    .max_args = 1,
    .args = "PROFILE",
    .summary = "watch md: apply PROFILE while a resync, recovery or reshape runs (--on: also "
	       "check, repair), keep its values, remove it when md is idle",
    .check = auto_check,
};
