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

/* Idle this long before a release: DSM chains steps (a reshape, then a resync). */
#define DEBOUNCE_S 3.0

/* One array's operation as seen from its first to its last look (the summary). */
struct op_seen {
	char name[MDP_NAME_MAX];
	char action[16];
	double t0, t1;          /* monotonic seconds */
	uint64_t d0, d1, total; /* sectors */
	unsigned decile;        /* last 10% step logged */
	bool ended;
	bool gone; /* ended because the array went away (stopped): not finished */
};

struct wt {
	struct cli *cli;
	unsigned interval_ms; /* between two looks (--interval) */
	const struct mdp_profile *p;
	enum mdp_origin by; /* MDP_BY_AUTO or MDP_BY_UNTIL_IDLE */
	bool once;          /* apply --until-idle: ends at the first release */
	struct mdp_engage e;
	unsigned skip; /* discovery: what the plan and the watch can do without */
	bool log;      /* not a terminal, on the real root: syslog too */
	bool tty;      /* stdout is a terminal: a progress bar */
	bool bar;      /* a bar is on the last line now */
	int64_t since; /* our layer's journaled since, 0 when we have none on */
	char busy[64]; /* the first busy selected array and its action, for messages */
	struct op_seen *ops;
	size_t n_ops;
	double start;
	bool done;
};

static void wt_clear_bar(struct wt *w)
{
	if (w->bar)
		fputs("\r\033[K", stdout);
	w->bar = false;
}

/* A line for people, and for syslog when nobody watches the terminal. */
static void wt_say(struct wt *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void wt_say(struct wt *w, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	wt_clear_bar(w);
	if (cli_info(w->cli))
		printf("%s\n", line);
	fflush(stdout);
	if (w->log)
		syslog(LOG_INFO, "%s", line);
}

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
		 w->e.state == MDP_ENG_ENGAGED ? "engaged"
		 : w->e.state == MDP_ENG_HELD  ? "held"
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
	struct mdp_journal j;
	bool mine;

	if (!w->since || !load_quiet(w, &j))
		return false;
	mine = j.state == MDP_J_ACTIVE && j.by == w->by && j.since == w->since &&
	       !strcmp(j.profile, w->p->name);
	mdp_journal_free(&j);
	return mine;
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

/* ---- engage, re-assert, release ----------------------------------------------------- */

/* An overlay somebody applied by hand is on: the watcher does not replace it. */
static bool foreign_overlay(struct wt *w, char *why, size_t len)
{
	struct mdp_journal j;
	char nm[512];
	bool busy;

	if (!load_quiet(w, &j))
		return false;
	busy = j.state == MDP_J_ACTIVE && j.has_under && !mdp_origin_watched(j.by);
	if (busy)
		snprintf(why, len, "overlay %s (%s) is on", render_safe(j.profile, nm, sizeof(nm)),
			 mdp_origin_name(j.by));
	mdp_journal_free(&j);
	return busy;
}

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

	if (foreign_overlay(w, why, sizeof(why))) {
		wt_say(w, "%s started, but %s: left alone until md is idle", w->busy, why);
		mdp_engage_held(&w->e, cli_mono_s());
		wt_state(w, why);
		return;
	}
	wt_say(w, "engaged: %s; applying profile %s", w->busy, wt_name(w, nm, sizeof(nm)));
	if (wt_apply(w) || !w->since) {
		wt_say(w, "could not apply profile %s: left alone until md is idle",
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
			wt_say(w, "%s; removing profile %s", why, wt_name(w, nm, sizeof(nm)));
		rc = cli_txn_result(cli, mdp_txn_revert(&cli->tx, false), "revert", NULL);
		if (rc && w->log)
			syslog(LOG_ERR, "removing profile %s failed (exit %d)", nm, rc);
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
		wt_say(
		    w,
		    "%s: rewritten to %s again after %u put-backs; left as it is until md is idle",
		    name, was, MDP_REASSERT_MAX);
	if (rc != 1)
		return;
	if (wt_lock(w))
		return;
	if (ours(w)) {
		if (mdp_txn_reassert(&w->cli->tx, c->t, c->dev) == 0)
			wt_say(w, "%s: rewritten to %s by something else; put back %s (%u of %u)",
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
		if (!strcmp(w->ops[i].name, a->name) && !strcmp(w->ops[i].action, a->sync_action))
			return &w->ops[i];
	if (!(v = mdp_push(&w->ops, &w->n_ops, sizeof(*v))))
		return NULL;
	snprintf(v->name, sizeof(v->name), "%s", a->name);
	snprintf(v->action, sizeof(v->action), "%s", a->sync_action);
	v->t0 = v->t1 = cli_mono_s();
	v->d0 = v->d1 = a->sync_done;
	v->total = a->sync_total;
	v->decile = a->permille / 100;
	return v;
}

/* A stopped array leaves /sys/block, or shows no md state on its way out. */
static bool array_gone(const struct mdp_array *a)
{
	return !a || !strcmp(a->array_state, "clear") || !strcmp(a->array_state, "inactive") ||
	       (!a->array_state[0] && !a->sync_action[0]);
}

/*
 * Note progress; without a terminal, log each 10% step. Operations no
 * longer running have ended: finished, unless their array goes away.
 * mdadm --stop interrupts the operation first (md shows idle) and removes
 * the array just after, so an ended operation whose array is gone at a
 * later look was stopped with it.
 */
static void wt_track(struct wt *w, const struct mdp_system *s)
{
	for (size_t i = 0; i < w->n_ops; i++) {
		struct op_seen *o = &w->ops[i];
		const struct mdp_array *a = mdp_system_array(s, o->name);
		if (o->gone)
			continue;
		o->gone = array_gone(a);
		if (o->ended)
			continue;
		o->ended = o->gone || strcmp(a->sync_action, o->action) || !mdp_watch_running(a);
		if (o->ended)
			o->t1 = cli_mono_s(); /* d1 stays the last progress seen */
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
		if (a->permille / 100 > o->decile && !w->done && !w->tty) {
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

	if (!w->tty || !cli_info(w->cli))
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

/* apply --until-idle's last words: each operation seen with its average speed. */
static void wt_summary(struct wt *w)
{
	for (size_t i = 0; i < w->n_ops; i++) {
		const struct op_seen *o = &w->ops[i];
		double dt = o->t1 - o->t0;
		uint64_t d1 = o->ended && !o->gone ? o->total : o->d1; /* finished: all of it */
		uint64_t kib = d1 > o->d0 ? (d1 - o->d0) / 2 : 0;
		uint64_t avg = dt >= 1 ? (uint64_t)((double)kib / dt) : 0;
		if (o->gone)
			wt_say(w, "%s %s: stopped (array gone), average %" PRIu64 " KiB/s", o->name,
			       o->action, avg);
		else
			wt_say(w, "%s %s: %s, average %" PRIu64 " KiB/s", o->name, o->action,
			       o->ended ? "finished" : "unfinished", avg);
	}
}

/* One step of the state machine on what the last look showed. Returns 1 to end, or an exit. */
static int wt_step(struct wt *w, const struct mdp_system *s, int *rc)
{
	bool busy = wt_busy(w, s);
	char nm[512], span[32], why[64];

	if (w->e.state == MDP_ENG_ENGAGED && !ours(w)) {
		wt_say(w, "profile %s was removed or replaced by another mdprofile; %s",
		       wt_name(w, nm, sizeof(nm)),
		       w->once ? "nothing left to do" : "not applied again until md is idle");
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
		snprintf(why, sizeof(why), "md idle for %.0fs", DEBOUNCE_S);
		*rc = wt_release(w, w->once ? "operations ended" : why);
		mdp_engage_released(&w->e);
		if (w->once) {
			if (!*rc)
				wt_say(w, "operations ended after %s; reverted", span);
			return 1;
		}
		wt_state(w, NULL);
		break;
	case MDP_ENG_REARM:
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
					wt_say(w, "stopped by %s after %s; reverted",
					       cli_signal_name(sig), span);
			} else
				wt_say(w, "stopped by %s", cli_signal_name(sig));
			break;
		}
		if (ev < 0 || wt_look(w, s)) {
			cli_err(w->cli, "cannot follow md: %s", strerror(ev < 0 ? -ev : EIO));
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

static void wt_init(struct wt *w, struct cli *cli, bool once, unsigned kinds, unsigned interval_ms)
{
	memset(w, 0, sizeof(*w));
	w->cli = cli;
	w->interval_ms = interval_ms ? interval_ms : 5000;
	w->p = &cli->profile;
	w->once = once;
	w->by = once ? MDP_BY_UNTIL_IDLE : MDP_BY_AUTO;
	cli->tx.origin = w->by;
	w->start = cli_mono_s();
	w->tty = isatty(STDOUT_FILENO);
	w->log = !w->tty && mdp_root_is_real(&cli->root);
	w->skip = mdp_plan_discover_skip(w->p) & ~(unsigned)MDP_SKIP_PROGRESS;
	mdp_engage_init(&w->e, kinds, DEBOUNCE_S, once);
	if (w->log)
		openlog("mdprofile", LOG_PID, LOG_DAEMON);
}

static void wt_fini(struct wt *w)
{
	mdp_engage_free(&w->e);
	free(w->ops);
	(void)mdp_root_unlink(&w->cli->root, MDP_WATCHER_STATE);
	if (w->log)
		closelog();
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

int watcher_until_idle(struct cli *cli, unsigned interval_ms)
{
	struct mdp_system s = {0};
	struct mdp_journal j;
	struct wt w;
	char nm[512];
	int rc;

	wt_init(&w, cli, true, MDP_OP_ALL, interval_ms);
	if (load_quiet(&w, &j)) {
		w.since = j.by == w.by && !strcmp(j.profile, w.p->name) ? j.since : 0;
		mdp_journal_free(&j);
	}
	/* the apply's own transaction is over: others may change the system from now on */
	wt_unlock(&w);
	if (wt_look(&w, &s) || !wt_busy(&w, &s)) {
		wt_say(&w,
		       "profile %s: no array resyncs, recovers, reshapes or checks now, nothing "
		       "to wait for (start the operation first); reverting",
		       wt_name(&w, nm, sizeof(nm)));
		rc = wt_release(&w, "nothing to wait for");
		if (!rc)
			wt_say(&w, "operations ended after 0s; reverted");
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
     .words = mdp_op_kind_words},
    OPT_INTERVAL("interval", struct auto_opts, interval_ms),
};

static const struct opt_table auto_table = OPT_TABLE(auto_opts, struct auto_opts, NULL, NULL);

static int do_auto(struct cli *cli)
{
	const struct auto_opts *o = cli->opts;
	struct mdp_system s = {0};
	const char *bad;
	size_t bad_len, n = 0;
	unsigned kinds = MDP_OP_DEFAULT;
	char nm[512], arrays[256] = "", on[64];
	struct wt w;
	int rc;

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
	if ((rc = watcher_lock(cli)))
		return rc;
	wt_init(&w, cli, false, kinds, o->interval_ms);
	wt_unlock(&w);
	if ((rc = wt_look(&w, &s))) {
		cli_err(cli, "cannot read md: %s", strerror(-rc));
		wt_fini(&w);
		return MDP_EXIT_FAILED;
	}
	for (size_t i = 0; i < s.n_arrays; i++)
		if (selected(&w, &s.arrays[i]) && n < sizeof(arrays))
			n += (size_t)snprintf(arrays + n, sizeof(arrays) - n, "%s%s", n ? ", " : "",
					      s.arrays[i].name);
	wt_state(&w, NULL);
	kinds_text(kinds, ", ", on, sizeof(on));
	wt_say(&w, "profile %s armed: on %s of %s; looking every %gs and on md events",
	       wt_name(&w, nm, sizeof(nm)), on, arrays[0] ? arrays : "no selected array yet",
	       w.interval_ms / 1000.0);
	rc = wt_loop(&w, &s);
	mdp_system_free(&s);
	wt_fini(&w);
	return rc;
}

const struct cmd cmd_auto = {
    "auto",
    do_auto,
    CMD_PROFILE | CMD_TXN | CMD_RECOVER,
    &auto_table,
    1,
    1,
    "auto [--on KINDS] [--interval S] PROFILE",
    "watch md: apply PROFILE while a resync, recovery or reshape runs (--on: also\n"
    "check, repair), keep its values, remove it when md is idle",
    NULL};
