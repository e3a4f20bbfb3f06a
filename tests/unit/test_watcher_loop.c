/*
 * Unit tests of the watcher loop's bookkeeping: what each look notes of
 * an operation (its first and last progress, when) and how it ended, from
 * what md keeps after it (reshape_position, resync_start, degraded, the
 * array gone), as the summary says it with its average; the 10% lines
 * only when no bar shows progress. Times are given, not waited for. And
 * when a look may be a glance (one pread of each selected array's
 * md/sync_action) instead of a discovery, and what a glance notices.
 *
 * Then the loop itself, turn by turn, on a wait source of the test's own
 * (watch.h's ops): engage, put-backs and their limit, a goal's moves,
 * flapping, held and armed again, an apply that fails, a release and
 * until-idle's end, waiting for the lock another mdprofile holds, and md's
 * events raised while it reads, follows or glances, with md's events, stop
 * signals and the clock given by a script: no sleep, no real time.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"
#include "watcher_loop.h"
#include "watcher_int.h"
#include "watch_int.h"

struct env {
	char dir[64];
	struct mdp_root r;
	struct mdp_txn tx;
	struct mdp_diags d;
	struct mdp_profile p;
	struct mdp_wloop w;
	char lines[16][256];
	size_t n;
};

static void on_line(void *ctx, int prio, const char *line)
{
	struct env *e = ctx;

	(void)prio;
	assert_true(e->n < sizeof(e->lines) / sizeof(e->lines[0]));
	snprintf(e->lines[e->n++], sizeof(e->lines[0]), "%s", line);
}

/* A root with md5's and md6's attributes that tell how an operation ended. */
static void env_setup_as(struct env *e, unsigned kinds, bool steps, bool once)
{
	struct mdp_wloop_cfg c = {.once = once, .kinds = kinds, .steps = steps};

	memset(e, 0, sizeof(*e));
	snprintf(e->dir, sizeof(e->dir), "/tmp/mdp-wloop-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	test_sh("mkdir -p '%s/sys/block/md5/md' '%s/sys/block/md6/md'"
		" && echo none > '%s/sys/block/md5/md/reshape_position'"
		" && echo 4096 > '%s/sys/block/md6/md/resync_start'",
		e->dir, e->dir, e->dir, e->dir);
	assert_int_equal(mdp_root_init(&e->r, e->dir), 0);
	mdp_diags_init(&e->d);
	e->tx.root = &e->r;
	e->tx.d = &e->d;
	e->p.name = "fast";
	c.root = &e->r;
	c.tx = &e->tx;
	c.p = &e->p;
	c.h = (struct mdp_wloop_hooks){.ctx = e, .line = on_line};
	mdp_wloop_init(&e->w, &c);
}

/* apply --until-idle's loop: started engaged, every array selected. */
static void env_setup(struct env *e, unsigned kinds, bool steps)
{
	env_setup_as(e, kinds, steps, true);
}

static void env_teardown(struct env *e)
{
	mdp_wloop_fini(&e->w);
	mdp_diags_free(&e->d);
	mdp_root_fini(&e->r);
	test_sh("rm -rf '%s'", e->dir);
}

/* An array running action at permille of 1000000 sectors (done/total, as md counts). */
static struct mdp_array array(const char *name, const char *action, unsigned permille)
{
	struct mdp_array a;

	memset(&a, 0, sizeof(a));
	snprintf(a.name, sizeof(a.name), "%s", name);
	snprintf(a.sync_action, sizeof(a.sync_action), "%s", action);
	snprintf(a.array_state, sizeof(a.array_state), "active");
	a.has_progress = strcmp(action, "idle") != 0;
	a.sync_total = 1000000;
	a.sync_done = a.has_progress ? permille * 1000u : 0;
	a.permille = permille;
	a.sync_speed = 2500;
	a.degraded = -1;
	return a;
}

static void look(struct env *e, struct mdp_array *v, size_t n, double now)
{
	struct mdp_system s = {.arrays = v, .n_arrays = n};

	mdp_wloop_track(&e->w, &s, now);
}

static void summary_is(struct env *e, const char *const *want, size_t n)
{
	e->n = 0;
	mdp_wloop_summary(&e->w);
	assert_int_equal(e->n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(e->lines[i], want[i]);
}

/*
 * md5's reshape finished (reshape_position "none") after a jump from 30%:
 * all of it counts, 700000 sectors since the first look, over 200 s. md6's
 * resync stopped (resync_start kept a sector): its last progress counts.
 */
static void test_finished_and_stopped(void **state)
{
	struct env e;
	struct mdp_array v[2] = {array("md5", "reshape", 300), array("md6", "resync", 100)};
	static const char *const want[] = {
	    "md5 reshape: finished, average 1750 KiB/s",
	    "md6 resync: stopped at 50.0%, average 1000 KiB/s",
	};

	(void)state;
	env_setup(&e, MDP_OP_ALL, false);
	look(&e, v, 2, 1000);
	v[1] = array("md6", "resync", 500);
	look(&e, v, 2, 1100);
	v[0] = array("md5", "idle", 0);
	v[1] = array("md6", "idle", 0);
	look(&e, v, 2, 1200);
	assert_int_equal(e.n, 0); /* a bar shows progress: no 10% lines */
	summary_is(&e, want, 2);
	env_teardown(&e);
}

/*
 * A recovery that lowered md/degraded finished; one that did not stopped.
 * A check has nothing that tells; an array that went away stopped with it;
 * one still running at the summary is unfinished.
 */
static void test_recovery_check_gone(void **state)
{
	struct env e;
	struct mdp_array v[4] = {array("md5", "recover", 100), array("md6", "recover", 100),
				 array("md7", "check", 400), array("md8", "resync", 200)};
	static const char *const want[] = {
	    "md5 recover: finished, average 0 KiB/s",
	    "md6 recover: stopped at 10.0%, average 0 KiB/s",
	    "md7 check: ended, last seen at 40.0%, average 0 KiB/s",
	    "md8 resync: stopped (array gone), average 0 KiB/s",
	};
	static const char *const running[] = {"md9 repair: unfinished, at 20.0%, average 1000 "
					      "KiB/s"};

	(void)state;
	env_setup(&e, MDP_OP_ALL, false);
	v[0].degraded = v[1].degraded = 1;
	look(&e, v, 4, 10);
	v[0] = array("md5", "idle", 0);
	v[0].degraded = 0;
	v[1] = array("md6", "idle", 0);
	v[1].degraded = 1;
	v[2] = array("md7", "idle", 0);
	look(&e, v, 3, 10.5); /* md8 left /sys/block */
	summary_is(&e, want, 4);

	env_teardown(&e);
	env_setup(&e, MDP_OP_ALL, false);
	v[0] = array("md9", "repair", 100);
	look(&e, v, 1, 0);
	v[0] = array("md9", "repair", 200);
	look(&e, v, 1, 50);
	summary_is(&e, running, 1);
	env_teardown(&e);
}

/*
 * md's moments with no sync thread (md/sync_speed "none") while sync_action
 * names a recovery: after mdadm --fail with no spare, md shows "recover" at
 * 0 of N sectors and degraded 1 for an instant; that is no operation. After
 * a recovery's thread ended, md still names it until it is reaped, and
 * md/degraded drops only then: the look waits for md's verdict rather than
 * calling the recovery stopped.
 */
static void test_no_sync_thread(void **state)
{
	struct env e;
	struct mdp_array v[1] = {array("md5", "recover", 0)};
	static const char *const want[] = {"md5 recover: finished, average 4500 KiB/s"};

	(void)state;
	env_setup(&e, MDP_OP_ALL, false);
	v[0].degraded = 1;
	v[0].no_sync_thread = true;
	look(&e, v, 1, 0); /* the instant after mdadm --fail */
	v[0] = array("md5", "idle", 0);
	v[0].degraded = 1;
	look(&e, v, 1, 1);
	summary_is(&e, NULL, 0);

	v[0] = array("md5", "recover", 100);
	v[0].degraded = 1;
	look(&e, v, 1, 10);
	v[0] = array("md5", "recover", 1000);
	v[0].degraded = 1;
	v[0].no_sync_thread = true; /* ended, not yet reaped */
	look(&e, v, 1, 109);
	v[0] = array("md5", "idle", 0);
	v[0].degraded = 0;
	look(&e, v, 1, 110);
	summary_is(&e, want, 1);
	env_teardown(&e);
}

/*
 * Without a bar, each 10% step once; a kind not watched, or one only
 * queued, is not an operation of the watcher's.
 */
static void test_steps_and_kinds(void **state)
{
	struct env e;
	struct mdp_array v[3] = {array("md5", "reshape", 150), array("md6", "check", 150),
				 array("md7", "resync", 150)};

	(void)state;
	env_setup(&e, MDP_OP_DEFAULT, true);
	snprintf(v[2].sync_queued, sizeof(v[2].sync_queued), "DELAYED");
	look(&e, v, 3, 0);
	assert_int_equal(e.n, 0);
	v[0] = array("md5", "reshape", 199);
	look(&e, v, 3, 1);
	assert_int_equal(e.n, 0);
	v[0] = array("md5", "reshape", 251);
	look(&e, v, 3, 2);
	v[0] = array("md5", "reshape", 259);
	look(&e, v, 3, 3);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.lines[0], "md5 reshape at 25.1%, 2500 KiB/s");
	assert_int_equal(e.w.n_ops, 1);
	env_teardown(&e);
}

static void set_action(struct env *e, const char *md, const char *action)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/block/%s/md/sync_action", e->dir, md);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", action);
	assert_int_equal(fclose(f), 0);
}

/* Watch v (a discovery that read it) at time 100; the files say what v says. */
static void watch(struct env *e, struct mdp_array *v, size_t n)
{
	struct mdp_system s = {.arrays = v, .n_arrays = n};

	for (size_t i = 0; i < n; i++)
		set_action(e, v[i].name, v[i].sync_action);
	assert_int_equal(mdp_wloop_watch(&e->w, &s, 100), 0);
}

static int glance(struct env *e, struct mdp_array *v, size_t n)
{
	struct mdp_system s = {.arrays = v, .n_arrays = n};

	return mdp_wloop_glance(&e->w, &s);
}

/*
 * auto armed over idle arrays: looks are glances until md/sync_action
 * changes, of any kind (a discovery then says what it is); the watcher
 * engaged, an operation of a watched kind (or one queued, which starts
 * without a word), or the safety period over: a discovery.
 */
static void test_glance(void **state)
{
	struct env e;
	struct mdp_array v[2] = {array("md5", "idle", 0), array("md6", "idle", 0)};

	(void)state;
	env_setup_as(&e, MDP_OP_DEFAULT, false, false);
	watch(&e, v, 2);
	assert_int_equal(e.w.mw.n, 2); /* no /proc/mdstat in this tree */
	assert_true(mdp_wloop_quiet(&e.w, 105));
	assert_int_equal(glance(&e, v, 2), 0);
	assert_int_equal(glance(&e, v, 2), 0);
	set_action(&e, "md6", "check");
	assert_int_equal(glance(&e, v, 2), 1);
	assert_false(mdp_wloop_quiet(&e.w, 100 + MDP_WLOOP_SAFETY_S));

	/* a check is not a watched kind: quiet, and glances see it go on */
	v[1] = array("md6", "check", 100);
	watch(&e, v, 2);
	assert_true(mdp_wloop_quiet(&e.w, 105));
	assert_int_equal(glance(&e, v, 2), 0);
	set_action(&e, "md6", "idle");
	assert_int_equal(glance(&e, v, 2), 1);

	v[1] = array("md6", "reshape", 100);
	watch(&e, v, 2);
	assert_false(mdp_wloop_quiet(&e.w, 105));
	v[1] = array("md6", "idle", 0);
	snprintf(v[1].sync_queued, sizeof(v[1].sync_queued), "PENDING");
	watch(&e, v, 2);
	assert_false(mdp_wloop_quiet(&e.w, 105));

	v[1] = array("md6", "idle", 0);
	watch(&e, v, 2);
	assert_true(mdp_wloop_quiet(&e.w, 105));
	e.w.e.state = MDP_ENG_ENGAGED;
	assert_false(mdp_wloop_quiet(&e.w, 105));
	env_teardown(&e);
}

/*
 * Past MDP_WLOOP_GLANCE_MAX arrays a glance reads that many, in turn: a
 * change on the last of 100 arrays is seen by the second glance.
 */
static void test_glance_in_turn(void **state)
{
	struct env e;
	struct mdp_array v[100];
	char name[16];

	(void)state;
	env_setup_as(&e, MDP_OP_DEFAULT, false, false);
	test_sh("cd '%s/sys/block' && for i in $(seq 0 99); do mkdir -p md$i/md; done", e.dir);
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "md%d", i);
		v[i] = array(name, "idle", 0);
	}
	watch(&e, v, 100);
	set_action(&e, "md99", "resync");
	assert_int_equal(glance(&e, v, 100), 0); /* md0..md63 */
	assert_int_equal(glance(&e, v, 100), 1); /* md64..md99 */
	env_teardown(&e);
}

/* Until a discovery was watched, no look is a glance. */
static void test_no_glance_unwatched(void **state)
{
	struct env e;

	(void)state;
	env_setup_as(&e, MDP_OP_DEFAULT, false, false);
	assert_false(mdp_wloop_quiet(&e.w, 105));
	env_teardown(&e);
}

/* ---- the loop, turn by turn, on a fake wait source ----------------------------------- */

/*
 * A run of mdp_wloop_auto (or until_idle) on a copy of the seed
 * DiskStation (md3's reshape over), with a wait source of the test's own
 * (watch.h's ops): its clock moves only when a wait times out, by the
 * timeout; stop signals come when the test's script says, which it is
 * called for at each wait (turn n). Nothing sleeps.
 *
 * md's events are as md keeps them: a count for /proc/mdstat (every
 * array event) and one per array's md/sync_action, and for each file the
 * watch holds open the count it was armed at, by its open or its last
 * read; a wait reports the files whose count moved past their arm (and
 * arms them again, as the real one's reads do). An event raised before a
 * file is opened is not reported on it. A script may also raise one at a
 * point inside a turn (a race): while the watcher's discovery reads a
 * file, while its watch follows a discovery, or while a glance reads.
 */
struct run;
typedef void turn_fn(struct run *t, unsigned n);
typedef void race_fn(struct run *t);

enum race_at { RACE_NONE, RACE_DISCOVERY, RACE_FOLLOW, RACE_GLANCE };

/* A watched file as md sees its reader. */
struct armed {
	int fd;
	char name[MDP_NAME_MAX]; /* its array, "" for /proc/mdstat */
	unsigned at;             /* the event count it was armed at */
};

struct run {
	struct mdp_watch_ops ops; /* the wait source: its ops lead back to the run (run_of) */
	char dir[64];
	struct mdp_root r;
	struct mdp_txn tx;
	struct mdp_diags d;
	struct mdp_profile p;
	struct mdp_lock lock, wlock;
	struct mdp_wloop w;
	turn_fn *turn;
	double now;     /* the loop's clock, seconds */
	unsigned waits; /* the waits so far: the turn */
	unsigned timeouts;
	unsigned lock_waits; /* waits for the main lock, each a turn */
	bool in_lock_wait;   /* this turn is one */
	unsigned ev;         /* /proc/mdstat's event count */
	struct {
		char name[MDP_NAME_MAX];
		unsigned ev;
	} act[8]; /* each array's md/sync_action's event count */
	size_t n_act;
	struct armed armed[16]; /* the watch's files */
	size_t n_armed;
	enum race_at race;     /* where the next race_fn runs (RACE_NONE: none left) */
	const char *race_file; /* RACE_DISCOVERY: after discovery reads this; RACE_GLANCE: array */
	race_fn *races[2];     /* what md does there, in turn: the next one at the next point */
	size_t n_races;
	const struct race_plan *plan; /* test_loop_event_races' */
	struct mdp_root_tap tap;      /* the discovery's reads (RACE_DISCOVERY) */
	struct mdp_root lr;           /* r with the tap: the watcher's root */
	int sig;                      /* a stop signal the next wait reports */
	int errs;                     /* errors said */
	char diag[512];               /* the last diagnostic said */
	char failed[16];              /* the verb of the last transaction that failed */
	double mark;                  /* a time a script keeps between its turns */
	/* the root's ops with a stripe cache's write failing, around the fixture's (a script's) */
	struct mdp_root_ops failing;
	const struct mdp_root_ops *inner;
	struct mdp_lock other; /* the main lock, as another mdprofile holds it */
	char lines[96][256];
	size_t n;
	struct mdp_mtime wall; /* the local time maintenance windows see (Mon 08:00 unless set) */
	char events[8]
		   [300]; /* the owner's events (Log Center): "engaged|gave up|released[+]: TEXT" */
	size_t n_ev;
	char hooks[8][1024]; /* the notify command's runs: its path, then its MDPROFILE_ vars */
	size_t n_hooks;
	int hook_exit;     /* what the notify command exits with */
	char news[8][300]; /* the news hook's calls (DSM): "EVENT: LINE" */
	size_t n_news;
	/* smartctl (defer_to smart-selftest): its runs, "ARGS..."; no smartctl at all; what it
	 * prints for sdb (NULL: no test runs); sda is asleep, the others idle */
	char smart[16][64];
	size_t n_smart;
	bool no_smartctl;
	const char *smart_sdb;
};

static struct run *run_of(const struct mdp_watch_ops *ops)
{
	return (struct run *)(void *)((char *)(uintptr_t)ops - offsetof(struct run, ops));
}

static double fake_now(const struct mdp_watch_ops *self)
{
	return run_of(self)->now;
}

/* The event count a file of array name ("" for /proc/mdstat) is behind. */
static unsigned *count_of(struct run *t, const char *name)
{
	size_t i;

	if (!name[0])
		return &t->ev;
	for (i = 0; i < t->n_act; i++)
		if (!strcmp(t->act[i].name, name))
			return &t->act[i].ev;
	assert_true(t->n_act < sizeof(t->act) / sizeof(t->act[0]));
	snprintf(t->act[i].name, sizeof(t->act[i].name), "%s", name);
	t->n_act++;
	return &t->act[i].ev;
}

/* md raises an event: /proc/mdstat's, and md's own sync_action's (NULL: none). */
static void raise_md(struct run *t, const char *md)
{
	t->ev++;
	if (md)
		++*count_of(t, md);
}

/* The next race, if its point is at. */
static void race(struct run *t, enum race_at at)
{
	if (t->race != at || !t->n_races)
		return;
	t->races[0](t);
	t->races[0] = t->races[1];
	if (!--t->n_races)
		t->race = RACE_NONE;
}

/*
 * The watch's files after an open or a follow: one it had (the same
 * descriptor, the same array) keeps its arm; one opened now is armed at
 * the count of now, as md arms a file at its open.
 */
static void arm_files(struct run *t, const struct mdp_watch *w)
{
	struct armed was[16];
	size_t n = t->n_armed;

	assert_true(w->n <= sizeof(t->armed) / sizeof(t->armed[0]));
	memcpy(was, t->armed, sizeof(was));
	for (size_t i = 0; i < w->n; i++) {
		struct armed *a = &t->armed[i];
		size_t k;
		for (k = 0; k < n; k++)
			if (was[k].fd == w->fds[i] && !strcmp(was[k].name, w->name[i]))
				break;
		a->fd = w->fds[i];
		snprintf(a->name, sizeof(a->name), "%s", w->name[i]);
		a->at = k < n ? was[k].at : *count_of(t, a->name);
	}
	t->n_armed = w->n;
}

static struct armed *armed_of(struct run *t, int fd)
{
	for (size_t i = 0; i < t->n_armed; i++)
		if (t->armed[i].fd == fd)
			return &t->armed[i];
	fail_msg("fd %d is not watched", fd);
	return NULL;
}

static int fake_open(const struct mdp_watch_ops *self, const struct mdp_root *r,
		     const struct mdp_system *s, const sigset_t *sigs, struct mdp_watch *w)
{
	struct run *t = run_of(self);
	int err;

	(void)sigs; /* no signalfd: the script's signals come through the wait */
	if (s->n_arrays)
		race(t, RACE_FOLLOW);
	if (!(err = mdp_watch_open(r, s, NULL, w))) {
		t->n_armed = 0;
		arm_files(t, w);
	}
	return err;
}

static int fake_follow(const struct mdp_watch_ops *self, const struct mdp_root *r,
		       const struct mdp_system *s, struct mdp_watch *w)
{
	struct run *t = run_of(self);
	int err;

	race(t, RACE_FOLLOW);
	if (!(err = mdp_watch_follow(r, s, w)))
		arm_files(t, w);
	return err;
}

static int fake_wait(const struct mdp_watch_ops *self, struct mdp_watch *w, int timeout_ms,
		     int *signo)
{
	struct run *t = run_of(self);
	bool md = false;

	assert_true(timeout_ms >= 0);
	assert_true(++t->waits < 200); /* a loop that never waits would spin */
	if (t->turn)
		t->turn(t, t->waits);
	if (t->sig) {
		*signo = t->sig;
		t->sig = 0;
		return MDP_WATCH_SIGNAL;
	}
	for (size_t i = 0; i < w->n; i++) {
		struct armed *a = armed_of(t, w->fds[i]);
		unsigned now = *count_of(t, a->name);
		md |= a->at != now;
		a->at = now; /* read again: armed again */
	}
	if (md)
		return MDP_WATCH_MD;
	t->now += timeout_ms / 1000.0;
	t->timeouts++;
	return MDP_WATCH_TIMEOUT;
}

/*
 * The wait for a stop signal alone (the watcher's, for the main lock): a
 * turn of the script too, marked as one; md's events stay for the next
 * wait. The clock moves by the timeout unless a signal comes.
 */
static int fake_wait_signal(const struct mdp_watch_ops *self, struct mdp_watch *w, int timeout_ms,
			    int *signo)
{
	struct run *t = run_of(self);

	(void)w;
	assert_true(timeout_ms >= 0);
	assert_true(++t->waits < 200);
	t->lock_waits++;
	t->in_lock_wait = true;
	if (t->turn)
		t->turn(t, t->waits);
	t->in_lock_wait = false;
	if (t->sig) {
		*signo = t->sig;
		t->sig = 0;
		return MDP_WATCH_SIGNAL;
	}
	t->now += timeout_ms / 1000.0;
	return MDP_WATCH_TIMEOUT;
}

/* A glance's read: it arms the file; a race may follow it (RACE_GLANCE, on race_file's). */
static int fake_read(const struct mdp_watch_ops *self, const struct mdp_watch *w, size_t i,
		     char *buf, size_t len)
{
	struct run *t = run_of(self);
	int err = mdp_watch_read(w, i, buf, len);
	struct armed *a = armed_of(t, w->fds[i]);

	a->at = *count_of(t, a->name);
	if (t->race_file && !strcmp(a->name, t->race_file))
		race(t, RACE_GLANCE);
	return err;
}

/* The discovery's reads: a race after it read race_file (RACE_DISCOVERY). */
static void tap_read(const struct mdp_root_tap *self, const char *sys, const char *data, size_t len,
		     bool link)
{
	struct run *t = (struct run *)(void *)((char *)(uintptr_t)self - offsetof(struct run, tap));

	(void)data;
	(void)len;
	if (!link && t->race_file && !strcmp(sys, t->race_file))
		race(t, RACE_DISCOVERY);
}

static void fake_close(const struct mdp_watch_ops *self, struct mdp_watch *w)
{
	run_of(self)->n_armed = 0;
	mdp_watch_close(w);
}

static void run_line(void *ctx, int prio, const char *line)
{
	struct run *t = ctx;

	(void)prio;
	assert_true(t->n < sizeof(t->lines) / sizeof(t->lines[0]));
	snprintf(t->lines[t->n++], sizeof(t->lines[0]), "%s", line);
}

static void run_event(void *ctx, enum mdp_wl_event ev, bool ended, const char *text)
{
	static const char *const kind[] = {"engaged", "gave up", "released"};
	struct run *t = ctx;

	assert_true(t->n_ev < sizeof(t->events) / sizeof(t->events[0]));
	snprintf(t->events[t->n_ev++], sizeof(t->events[0]), "%s%s: %s", kind[ev], ended ? "+" : "",
		 text);
}

/* The notify command, run: recorded, with what it exits with (the root is the run's lr). */
static int run_exec(const struct mdp_root *r, const char *const argv[], const char *const env[],
		    unsigned timeout_ms, struct mdp_exec_result *res, struct mdp_diags *d)
{
	struct run *t = (struct run *)(void *)((char *)(uintptr_t)r - offsetof(struct run, lr));
	char *h;

	(void)d;
	assert_int_equal(timeout_ms, MDP_WMAINT_HOOK_MS);
	assert_null(argv[1]);
	assert_true(t->n_hooks < sizeof(t->hooks) / sizeof(t->hooks[0]));
	h = t->hooks[t->n_hooks++];
	snprintf(h, sizeof(t->hooks[0]), "%s", argv[0]);
	for (size_t i = 0; env[i]; i++)
		snprintf(h + strlen(h), sizeof(t->hooks[0]) - strlen(h), " %s", env[i]);
	memset(res, 0, sizeof(*res));
	res->exit_code = t->hook_exit;
	snprintf(res->out, sizeof(res->out), "%s", t->hook_exit ? "no mail server\n" : "");
	return 0;
}

/* smartctl, run: recorded; sda asleep (-n standby: exit 2), sdb as the test says, the
 * others idle (ATA's -c, as smart.h says). */
static int run_smartctl(const struct mdp_root *r, const char *const argv[], unsigned timeout_ms,
			struct mdp_exec_result *res, struct mdp_diags *d)
{
	struct run *t = (struct run *)(void *)((char *)(uintptr_t)r - offsetof(struct run, lr));
	const char *idle = "Self-test execution status:      (   0)\tThe previous self-test "
			   "routine completed\n";
	const char *dev;
	char *h;

	(void)d;
	assert_int_equal(timeout_ms, MDP_SMART_TIMEOUT_MS);
	if (t->no_smartctl)
		return -ENOENT;
	assert_true(t->n_smart < sizeof(t->smart) / sizeof(t->smart[0]));
	h = t->smart[t->n_smart++];
	for (size_t i = 0; argv[i]; i++)
		snprintf(h + strlen(h), sizeof(t->smart[0]) - strlen(h), "%s%s", i ? " " : "",
			 argv[i]);
	for (dev = argv[0]; argv[1]; argv++)
		dev = argv[1];
	memset(res, 0, sizeof(*res));
	if (!strcmp(dev, "/dev/sda")) {
		res->exit_code = 2;
		snprintf(res->out, sizeof(res->out), "Device is in STANDBY mode, exit(2)\n");
	} else
		snprintf(res->out, sizeof(res->out), "%s",
			 !strcmp(dev, "/dev/sdb") && t->smart_sdb ? t->smart_sdb : idle);
	res->out_len = strlen(res->out);
	return 0;
}

static void run_news(void *ctx, const struct mdp_mnews *n)
{
	struct run *t = ctx;

	assert_true(t->n_news < sizeof(t->news) / sizeof(t->news[0]));
	snprintf(t->news[t->n_news++], sizeof(t->news[0]), "%s: %s", mdp_mev_name(n->ev), n->line);
}

static void run_error(void *ctx, const char *msg)
{
	struct run *t = ctx;

	print_message("error: %s\n", msg);
	t->errs++;
}

/* The diagnostics said: the last one kept. */
static void run_diags(void *ctx, struct mdp_diags *d)
{
	struct run *t = ctx;

	for (size_t i = 0; i < d->n; i++)
		(void)mdp_diag_format(&d->v[i], t->diag, sizeof(t->diag));
}

/* A transaction's outcome: 0 when it worked, else 3 (as cmd/ maps a failure). */
static int run_txn(void *ctx, struct mdp_txn_rc rc, const char *verb, const struct mdp_plan *pl)
{
	struct run *t = ctx;

	(void)pl;
	run_diags(ctx, t->tx.d);
	mdp_diags_free(t->tx.d);
	mdp_diags_init(t->tx.d);
	if (rc.res != MDP_TXN_OK)
		snprintf(t->failed, sizeof(t->failed), "%s", verb);
	return rc.res == MDP_TXN_OK ? 0 : 3;
}

/* A file of the tree, written whole. */
static void put(struct run *t, const char *path, const char *text)
{
	char host[512];
	FILE *f;

	snprintf(host, sizeof(host), "%s%s", t->dir, path);
	assert_non_null(f = fopen(host, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A value of the tree, as discovery reads it. */
static const char *get(struct run *t, const char *path)
{
	static char buf[256];

	assert_true(mdp_root_read_value(&t->r, path, buf, sizeof(buf)) >= 0);
	return buf;
}

static void md_put(struct run *t, const char *md, const char *attr, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/block/%s/md/%s", md, attr);
	put(t, path, text);
}

/* md runs action on md (at 10%, 5000 KiB/s), or is idle ("idle"); md says so at once. */
static void op(struct run *t, const char *md, const char *action)
{
	bool idle = !strcmp(action, "idle");

	md_put(t, md, "sync_completed", idle ? "none\n" : "100000 / 1000000\n");
	md_put(t, md, "sync_speed", idle ? "none\n" : "5000\n");
	md_put(t, md, "sync_action", action);
	raise_md(t, md);
}

/* Whether the loop said line. */
static bool said(const struct run *t, const char *line)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->lines[i], line))
			return true;
	return false;
}

static void says(const struct run *t, const char *line)
{
	if (!said(t, line)) {
		for (size_t i = 0; i < t->n; i++)
			print_message("said: %s\n", t->lines[i]);
		fail_msg("not said: %s", line);
	}
}

/* The watcher's state word for status (/run/mdprofile/watcher). */
static bool state_is(struct run *t, const char *want)
{
	struct mdp_wstate ws;

	return !mdp_wstate_load(&t->r, &ws) && !strcmp(ws.state, want);
}

/* Whose layer is on top: the journal's profile and origin, "" without a journal. */
static const char *top(struct run *t)
{
	static char buf[300];
	struct mdp_journal j;
	struct mdp_diags d;

	mdp_diags_init(&d);
	buf[0] = '\0';
	if (!mdp_journal_load(&t->r, &j, &d)) {
		snprintf(buf, sizeof(buf), "%s %s%s", j.profile, mdp_origin_name(j.by),
			 j.has_under ? " over" : "");
		mdp_journal_free(&j);
	}
	mdp_diags_free(&d);
	return buf;
}

#define RUN_PROFILE                                                                                \
	"raid:\n  speed_limit_min: 300000\narrays:\n  - match: all\n    stripe_cache_size: 4096\n"

/* The wall clock: the epoch moves with the loop's clock, the local time is the script's. */
static void run_wall(void *ctx, int64_t *epoch, struct mdp_mtime *local)
{
	struct run *t = ctx;

	*epoch = 1765065600 + (int64_t)(t->now - 1000);
	*local = t->wall;
}

static void run_setup(struct run *t, const char *yaml, turn_fn *turn)
{
	struct mdp_wloop_cfg c = {.kinds = MDP_OP_DEFAULT, .interval_ms = 5000};
	long holder = 0;

	memset(t, 0, sizeof(*t));
	t->ops = (struct mdp_watch_ops){.now = fake_now,
					.open = fake_open,
					.follow = fake_follow,
					.wait = fake_wait,
					.wait_signal = fake_wait_signal,
					.read = fake_read,
					.close = fake_close};
	t->turn = turn;
	t->now = 1000;
	snprintf(t->dir, sizeof(t->dir), "/tmp/mdp-wrun-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	test_sh("cp -R '%s/tests/fixtures/ds-dsm6-reshape/.' '%s' && sed -i '/reshape =/d' "
		"'%s/proc/mdstat'",
		getenv("MDP_SRCDIR"), t->dir, t->dir);
	assert_int_equal(mdp_root_init(&t->r, t->dir), 0);
	md_put(t, "md3", "reshape_position", "none\n");
	op(t, "md3", "idle");
	mdp_diags_init(&t->d);
	assert_int_equal(mdp_profile_load_mem(NULL, "t", yaml, strlen(yaml), &t->p, &t->d), 0);
	t->tx.d = &t->d;
	t->lock.fd = -1;
	t->other.fd = -1;
	assert_int_equal(mdp_watcher_take(&t->r, &t->wlock, &holder, &t->d), 0);
	t->tap.fn = tap_read;
	mdp_root_layer(&t->lr, &t->r, NULL, &t->tap);
	t->tx.root = &t->lr;
	c.root = &t->lr;
	c.tx = &t->tx;
	c.lock = &t->lock;
	c.wlock = &t->wlock;
	c.p = &t->p;
	c.ops = &t->ops;
	c.wall = run_wall;
	c.wall_ctx = t;
	c.exec = run_exec;
	c.run = run_smartctl;
	t->wall = (struct mdp_mtime){1, 8 * 60};
	c.h = (struct mdp_wloop_hooks){.ctx = t,
				       .line = run_line,
				       .error = run_error,
				       .diags = run_diags,
				       .txn_result = run_txn,
				       .event = run_event,
				       .news = run_news};
	mdp_wloop_init(&t->w, &c);
}

static void run_teardown(struct run *t)
{
	mdp_wloop_fini(&t->w);
	mdp_lock_release(&t->wlock);
	mdp_profile_free(&t->p);
	mdp_diags_free(&t->d);
	mdp_root_fini(&t->r);
	test_sh("rm -rf '%s'", t->dir);
}

/*
 * Engage and release: md2's recovery starts (md's event wakes the
 * watcher): the profile goes on; md2 idle, with one disk less missing
 * (finished): after the debounce of 3 s (the clock is the wait's) the
 * layer comes off, the summary says what ran; a stop signal ends it.
 */
static void engage_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		assert_true(state_is(t, "armed"));
		says(t, "profile t armed: on resync, recovery, reshape of md0, md1, md2, md3; "
			"looking every 5s and on md events");
		md_put(t, "md2", "degraded", "1\n");
		op(t, "md2", "recover");
		break;
	case 2:
		says(t, "engaged: md2 recover; applying profile t");
		assert_true(state_is(t, "engaged"));
		assert_string_equal(top(t), "t auto");
		assert_string_equal(get(t, "/sys/block/md2/md/stripe_cache_size"), "4096");
		assert_string_equal(get(t, "/proc/sys/dev/raid/speed_limit_min"), "300000");
		t->now += 100;
		md_put(t, "md2", "degraded", "0\n");
		op(t, "md2", "idle");
		break;
	case 3: /* idle seen: the debounce's wait */
		assert_false(said(t, "md idle for 3s; removing profile t"));
		break;
	case 4:
		says(t, "md idle for 3s; removing profile t");
		says(t, "md2 recover: finished, average 4500 KiB/s");
		says(t, "profile t was on for 1m 43s; 0 values put back");
		assert_true(state_is(t, "armed"));
		assert_string_equal(top(t), "");
		assert_string_equal(get(t, "/sys/block/md2/md/stripe_cache_size"), "256");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_engage_release(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, RUN_PROFILE, engage_turn);
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	assert_int_equal(t.waits, 4);
	says(&t, "stopped by SIGTERM");
	assert_int_equal(t.errs, 0);
	/* the owner is told of the engage, and of the release with what the recovery did */
	assert_int_equal(t.n_ev, 2);
	assert_string_equal(t.events[0], "engaged: engaged: md2 recover; profile t applied");
	assert_string_equal(t.events[1], "released+: md2 recover: finished, average 4500 KiB/s; "
					 "profile t removed after 1m 43s");
	run_teardown(&t);
}

/* Run the auto loop with script turn to its end (a stop signal): 0, no error said. */
static void run_auto(struct run *t, const char *yaml, turn_fn *turn)
{
	run_setup(t, yaml, turn);
	assert_int_equal(mdp_wloop_auto(&t->w), 0);
	assert_int_equal(t->errs, 0);
}

/*
 * Something rewrites a value the layer set: put back at the next look
 * (engaged, each look is a discovery, a timeout's too), three times; the
 * fourth is left as it is, said once. A stop signal removes the layer.
 */
static void reassert_turn(struct run *t, unsigned n)
{
	char want[96];

	if (n == 1)
		op(t, "md2", "recover");
	if (n >= 3 && n <= 5) {
		snprintf(want, sizeof(want),
			 "md2 stripe_cache_size: rewritten to 256 by something else; put back "
			 "4096 (%u of 3)",
			 n - 2);
		says(t, want);
		assert_string_equal(get(t, "/sys/block/md2/md/stripe_cache_size"), "4096");
	}
	if (n >= 2 && n <= 5)
		md_put(t, "md2", "stripe_cache_size", "256\n");
	if (n == 6) {
		says(t,
		     "md2 stripe_cache_size: rewritten to 256 again after 3 put-backs; left as it "
		     "is until md is idle");
		assert_string_equal(get(t, "/sys/block/md2/md/stripe_cache_size"), "256");
		t->sig = SIGINT;
	}
}

static void test_loop_reassert(void **state)
{
	struct run t;
	size_t gave_up = 0;

	(void)state;
	run_auto(&t, RUN_PROFILE, reassert_turn);
	for (size_t i = 0; i < t.n; i++)
		gave_up += strstr(t.lines[i], "again after 3 put-backs") != NULL;
	assert_int_equal(gave_up, 1);
	/* the give-up is the owner's news too; the stop's removal is no release */
	assert_int_equal(t.n_ev, 2);
	assert_string_equal(t.events[1], "gave up: md2 stripe_cache_size: rewritten to 256 again "
					 "after 3 put-backs; left as it is until md is idle");
	says(&t, "SIGINT; removing profile t");
	assert_string_equal(top(&t), "");
	assert_string_equal(get(&t, "/proc/sys/dev/raid/speed_limit_min"), "10000");
	run_teardown(&t);
}

/*
 * Flapping: an operation that starts again within 10 minutes of the
 * release doubles the debounce: the next release waits 6 s of idle, not 3.
 */
static void flap_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		op(t, "md2", "recover");
		break;
	case 2:
		op(t, "md2", "idle");
		break;
	case 4:
		says(t, "md idle for 3s; removing profile t");
		op(t, "md2", "recover");
		break;
	case 5:
		says(t, "md operations stop and start again within 10 minutes (1 times in a row): "
			"profile t is removed only after 6s idle");
		op(t, "md2", "idle");
		t->mark = t->now;
		break;
	case 6:
	case 7:
		assert_string_equal(top(t), "t auto");
		break;
	case 8:
		says(t, "md idle for 6s; removing profile t");
		assert_true(t->now - t->mark >= 6 && t->now - t->mark < 6.01);
		assert_string_equal(top(t), "");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_flap(void **state)
{
	struct run t;

	(void)state;
	run_auto(&t, RUN_PROFILE, flap_turn);
	run_teardown(&t);
}

/* Another mdprofile's revert, as `mdprofile revert` from another shell. */
static void revert_by_hand(struct run *t)
{
	struct mdp_lock l = {-1};
	struct mdp_txn tx = {.root = &t->r, .d = &t->d};
	long holder = 0;

	assert_int_equal(mdp_lock_take(&t->r, false, &l, &holder, &t->d), 0);
	assert_int_equal(mdp_txn_revert(&tx, false).res, MDP_TXN_OK);
	mdp_txn_report_free(&tx.rep);
	mdp_lock_release(&l);
}

/*
 * The layer reverted by someone else while md works: held, not applied
 * again, until md has been idle for the debounce; armed again after, and
 * the next operation engages it again.
 */
static void held_turn(struct run *t, unsigned n)
{
	struct mdp_wstate ws;

	switch (n) {
	case 1:
		op(t, "md2", "recover");
		break;
	case 2:
		revert_by_hand(t);
		break;
	case 3:
		says(t, "profile t was removed or replaced by another mdprofile; not applied again "
			"until md is idle");
		assert_int_equal(mdp_wstate_load(&t->r, &ws), 0);
		assert_string_equal(ws.state, "held");
		assert_string_equal(ws.why, "removed by another mdprofile");
		assert_string_equal(top(t), "");
		op(t, "md2", "idle");
		break;
	case 4: /* the debounce's wait: held, not applied again */
		assert_true(state_is(t, "held"));
		assert_string_equal(top(t), "");
		break;
	case 5:
		says(t, "md idle: armed again");
		assert_true(state_is(t, "armed"));
		op(t, "md2", "recover");
		break;
	case 6:
		assert_string_equal(top(t), "t auto");
		t->sig = SIGHUP;
		break;
	}
}

static void test_loop_held(void **state)
{
	struct run t;

	(void)state;
	run_auto(&t, RUN_PROFILE, held_turn);
	says(&t, "SIGHUP; removing profile t");
	assert_string_equal(top(&t), "");
	run_teardown(&t);
}

/* A write of a stripe cache that md refuses (a script's root ops, around the fixture's). */
static int failing_write(const struct mdp_root_ops *self, const struct mdp_root *r, const char *sys,
			 const char *data, size_t len)
{
	const struct run *t =
	    (const struct run *)(const void *)((const char *)self - offsetof(struct run, failing));

	if (strstr(sys, "stripe_cache_size"))
		return -EIO;
	return t->inner->write(t->inner, r, sys, data, len);
}

/*
 * An apply that fails (a stripe cache md refuses: rolled back): the
 * watcher gives up on this operation, held until md is idle, then armed
 * again.
 */
static void fail_turn(struct run *t, unsigned n)
{
	struct mdp_wstate ws;

	switch (n) {
	case 1:
		t->inner = t->lr.ops;
		t->failing =
		    (struct mdp_root_ops){failing_write, t->inner->fsync, t->inner->rename};
		t->lr.ops = &t->failing;
		op(t, "md2", "recover");
		break;
	case 2:
		says(t, "could not apply profile t: left alone until md is idle");
		assert_string_equal(t->failed, "apply");
		assert_string_equal(t->diag,
				    "md2 stripe_cache_size: writing 4096 failed: Input/output "
				    "error");
		assert_int_equal(mdp_wstate_load(&t->r, &ws), 0);
		assert_string_equal(ws.state, "held");
		assert_string_equal(ws.why, "apply failed");
		assert_string_equal(top(t), "");
		t->lr.ops = t->inner;
		op(t, "md2", "idle");
		break;
	case 4:
		says(t, "md idle: armed again");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_apply_fails(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, RUN_PROFILE, fail_turn);
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	says(&t, "stopped by SIGTERM");
	assert_string_equal(get(&t, "/proc/sys/dev/raid/speed_limit_min"), "10000");
	run_teardown(&t);
}

/*
 * A profile that changes nothing here (night-checks sets only maintenance) with no base
 * active: the apply leaves no layer, which is no failure: the recovery goes on at the box's
 * values, the watcher held without an error until md is idle, then armed again.
 */
static void in_sync_turn(struct run *t, unsigned n)
{
	struct mdp_wstate ws;

	switch (n) {
	case 1:
		op(t, "md2", "recover");
		break;
	case 2:
		says(t, "profile t changes nothing here: md2 recover goes on at the values the "
			"box has");
		assert_false(said(t, "could not apply profile t: left alone until md is idle"));
		assert_int_equal(mdp_wstate_load(&t->r, &ws), 0);
		assert_string_equal(ws.state, "held");
		assert_string_equal(ws.why, "its profile changes nothing here");
		assert_string_equal(top(t), "");
		op(t, "md2", "idle");
		break;
	case 4:
		says(t, "md idle: armed again");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_in_sync(void **state)
{
	struct run t;

	(void)state;
	run_auto(&t, "maintenance:\n  heat: {hot_at_c: 50, cool_below_c: 45}\n", in_sync_turn);
	says(&t, "stopped by SIGTERM");
	assert_int_equal(t.n_ev, 0);
	run_teardown(&t);
}

/* md3's counters: IOS requests of TICKS ms in all. */
static void stat_md3(struct run *t, unsigned ios, unsigned ticks)
{
	char text[128];

	snprintf(text, sizeof(text), "%u 0 %u %u 0 0 0 0 0 %u %u\n", ios, ios * 8, ticks, ticks,
		 ticks);
	put(t, "/sys/block/md3/stat", text);
}

static bool journal_has(struct run *t, const char *line)
{
	char host[512], buf[256];
	bool has = false;
	FILE *f;

	snprintf(host, sizeof(host), "%s/run/mdprofile/journal", t->dir);
	if (!(f = fopen(host, "r")))
		return false;
	while (!has && fgets(buf, sizeof(buf), f))
		has = !strncmp(buf, line, strlen(line)) && buf[strlen(line)] == '\n';
	fclose(f);
	return has;
}

#define GOAL_PROFILE                                                                               \
	"goal: {foreground_latency_ms: 20}\narrays:\n  - match: {names: [md3]}\n"                  \
	"    sync_speed_min: 300000\n"

/*
 * A goal steers md3's minimum while engaged: its first look takes the
 * counters, each next one the latency since; 42 ms a request, above the
 * goal of 20: cut by 20 / 42 from md's own speed (200000), then again; each move
 * journaled (what revert and drift see) and said.
 */
static void goal_turn(struct run *t, unsigned n)
{
	struct mdp_wgoal_view v;

	switch (n) {
	case 1:
		stat_md3(t, 1000, 10000);
		op(t, "md3", "reshape");
		md_put(t, "md3", "sync_speed", "200000\n");
		break;
	case 2:
		assert_string_equal(get(t, "/sys/block/md3/md/sync_speed_min"), "300000 (local)");
		break;
	case 3:
		stat_md3(t, 1100, 14200);
		break;
	case 4:
		says(t, "md3: minimum 300000 -> 95200 KiB/s (latency 42.0 ms > goal 20 ms, from "
			"md3's own counters)");
		assert_string_equal(get(t, "/sys/block/md3/md/sync_speed_min"), "95200 (local)");
		assert_true(journal_has(t, "set sync_speed_min md3 95200"));
		assert_int_equal(mdp_wgoal_active(&t->r, &v), 0);
		assert_int_equal(v.n, 1);
		assert_int_equal(v.v[0].min, 95200);
		assert_int_equal(v.v[0].in.latency_us, 42000);
		stat_md3(t, 1200, 18400);
		break;
	case 5:
		assert_string_equal(get(t, "/sys/block/md3/md/sync_speed_min"), "45315 (local)");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_goal(void **state)
{
	struct run t;

	(void)state;
	run_auto(&t, GOAL_PROFILE, goal_turn);
	says(&t, "SIGTERM; removing profile t");
	assert_string_equal(get(&t, "/sys/block/md3/md/sync_speed_min"), "10000 (system)");
	run_teardown(&t);
}

#define GOAL2_PROFILE                                                                              \
	"goal: {foreground_latency_ms: 20}\narrays:\n  - match: {names: [md2, md3]}\n"             \
	"    sync_speed_min: 300000\n"

/*
 * The maximum steered too (goal.h): 200 ms a request, ten times the goal,
 * beside md3's reshape. The minimum comes down to its floor (the sysctl's
 * 10000), then, once a look at that floor was over the goal too (a
 * confirmed overload), md3's own maximum, "200000 (system)", to its floor, each
 * move written through the journal; then nothing is left to give, said
 * once. md2, recovering on the same disks, is steered by md3's requests
 * (they are its foreground too: issue 48) to its floors and said once as
 * well. md3 idle, md2 too: the release puts the maximum back as it was,
 * following the sysctl, and the summary gives each one's time over the goal
 * and where its limits went.
 */
static void goal_max_turn(struct run *t, unsigned n)
{
	struct mdp_wgoal_view v;

	if (n >= 3 && n <= 11)
		stat_md3(t, 1000 + 100 * (n - 2), 10000 + 20000 * (n - 2));
	switch (n) {
	case 1:
		stat_md3(t, 1000, 10000);
		op(t, "md3", "reshape");
		md_put(t, "md3", "sync_speed", "200000\n");
		op(t, "md2", "recover"); /* steered too, its limits never moved */
		break;
	case 6:
		says(t, "md3: minimum 300000 -> 50000 KiB/s (latency 200.0 ms > goal 20 ms, from "
			"md3's own counters)");
		says(t, "md3: minimum 12500 -> 10000 KiB/s (latency 200.0 ms > goal 20 ms, from "
			"md3's own counters)");
		assert_string_equal(get(t, "/sys/block/md3/md/sync_speed_max"), "200000 (system)");
		break;
	case 10:
		says(t, "md3: maximum 200000 -> 50000 KiB/s (latency 200.0 ms > goal 20 ms, from "
			"md3's own counters)");
		says(t, "md3: maximum 12500 -> 10000 KiB/s (latency 200.0 ms > goal 20 ms, from "
			"md3's own counters)");
		assert_string_equal(get(t, "/sys/block/md3/md/sync_speed_max"), "10000 (local)");
		assert_string_equal(get(t, "/sys/block/md3/md/sync_speed_min"), "10000 (local)");
		assert_true(journal_has(t, "set sync_speed_max md3 10000"));
		break;
	case 11:
		says(t, "md3: goal 20 ms missed (latency 200.0 ms, from md3's own counters) with "
			"nothing left to give: minimum 10000 KiB/s and maximum 10000 KiB/s at the "
			"goal's floor");
		assert_int_equal(mdp_wgoal_active(&t->r, &v), 0);
		assert_int_equal(v.n, 2);
		assert_string_equal(v.v[1].name, "md3");
		assert_int_equal(v.v[1].max, 10000);
		assert_true(v.v[1].spent);
		/* md2 shares md3's disks: md3's requests are its foreground too (on md3) */
		assert_true(v.v[0].spent);
		assert_string_equal(v.v[0].on, "md3");
		op(t, "md3", "idle");
		op(t, "md2", "idle");
		break;
	case 13:
		says(t, "md3: over the 20 ms goal for 40s of 40s steered; minimum from 10000 to "
			"300000 KiB/s, maximum from 10000 to 200000 KiB/s");
		assert_string_equal(get(t, "/sys/block/md3/md/sync_speed_max"), "200000 (system)");
		assert_string_equal(get(t, "/sys/block/md3/md/sync_speed_min"), "10000 (system)");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_goal_max(void **state)
{
	struct run t;
	unsigned spent = 0;

	(void)state;
	run_auto(&t, GOAL2_PROFILE, goal_max_turn);
	for (size_t i = 0; i < t.n; i++) {
		spent += strstr(t.lines[i], "nothing left to give") != NULL;
	}
	assert_int_equal(spent, 2); /* once each, md3 and md2 */
	run_teardown(&t);
}

/*
 * A percentile goal reaches the watcher: status's view names it. Here md3
 * is no device the watcher can read (a fixture), so no reads of its own
 * are timed and the mean of md3's requests steers, as without one.
 */
static void goal_pct_turn(struct run *t, unsigned n)
{
	struct mdp_wgoal_view v;

	goal_turn(t, n);
	if (n == 4) {
		assert_int_equal(mdp_wgoal_active(&t->r, &v), 0);
		assert_int_equal(v.pct, 95);
		assert_int_equal(v.v[0].pct_reads, 0);
	}
}

static void test_loop_goal_percentile(void **state)
{
	struct run t;

	(void)state;
	run_auto(&t,
		 "goal: {foreground_latency_ms: 20, percentile: 95}\narrays:\n  - match: {names: "
		 "[md3]}\n    sync_speed_min: 300000\n",
		 goal_pct_turn);
	says(&t, "SIGTERM; removing profile t");
	run_teardown(&t);
}

/* ---- waiting for the main lock (F05) --------------------------------------------------- */

/* The main lock, as another mdprofile holds it while its transaction runs (a flock of its own). */
static void hold_lock(struct run *t)
{
	long holder = 0;

	assert_int_equal(t->other.fd, -1);
	assert_int_equal(mdp_lock_take(&t->r, false, &t->other, &holder, &t->d), 0);
}

static void let_go(struct run *t)
{
	mdp_lock_release(&t->other);
	t->other.fd = -1;
}

/* The watcher's state for status is state, with why. */
static void state_why(struct run *t, const char *state, const char *why)
{
	struct mdp_wstate ws;

	assert_int_equal(mdp_wstate_load(&t->r, &ws), 0);
	assert_string_equal(ws.state, state);
	assert_string_equal(ws.why, why);
}

/* "...waiting for the lock (held by pid N)", N this process: the test holds it. */
static const char *waiting(const char *before)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "%swaiting for the lock (held by pid %d)", before,
		 (int)getpid());
	return buf;
}

/* A run whose blocking wait for the lock (the old one) would hang: killed instead. */
static int run_auto_watched(struct run *t)
{
	int rc;

	alarm(10);
	rc = mdp_wloop_auto(&t->w);
	alarm(0);
	return rc;
}

/*
 * md2's recovery starts while another mdprofile holds the main lock: the
 * watcher waits in the wait for its stop signals, status says for what
 * and whose; a SIGTERM then ends it at once, nothing applied.
 */
static void lock_stop_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		hold_lock(t);
		op(t, "md2", "recover");
		break;
	case 2:
		assert_true(t->in_lock_wait);
		state_why(t, "engaging", waiting("md2 recover started; "));
		assert_string_equal(top(t), "");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_lock_wait_stop(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, RUN_PROFILE, lock_stop_turn);
	assert_int_equal(run_auto_watched(&t), 0);
	assert_int_equal(t.lock_waits, 1);
	says(&t, "stopped by SIGTERM");
	assert_false(said(&t, "could not apply profile t: left alone until md is idle"));
	assert_string_equal(top(&t), "");
	assert_string_equal(get(&t, "/sys/block/md2/md/stripe_cache_size"), "256");
	let_go(&t);
	run_teardown(&t);
}

/*
 * The wait ends when the holder lets go: the apply goes on. Then, engaged,
 * another mdprofile's apply runs (the lock held, the journal "applying")
 * and fails, storing the watcher's layer again: looked at under the lock
 * once that ends, the layer is still the watcher's (F01), which stays
 * engaged; status said what it waited for, then what it said before.
 */
static void journal_swap(struct run *t, const char *from, const char *to)
{
	char host[512], saved[8192], *at;
	FILE *f;
	size_t n;

	snprintf(host, sizeof(host), "%s/run/mdprofile/journal", t->dir);
	assert_non_null(f = fopen(host, "r"));
	n = fread(saved, 1, sizeof(saved) - 1, f);
	saved[n] = '\0';
	fclose(f);
	assert_non_null(at = strstr(saved, from));
	assert_non_null(f = fopen(host, "w"));
	fprintf(f, "%.*s%s%s", (int)(at - saved), saved, to, at + strlen(from));
	assert_int_equal(fclose(f), 0);
}

static void lock_then_apply_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		hold_lock(t);
		op(t, "md2", "recover");
		break;
	case 2:
		state_why(t, "engaging", waiting("md2 recover started; "));
		break;
	case 3:
		assert_true(t->in_lock_wait);
		let_go(t);
		break;
	case 4:
		assert_false(t->in_lock_wait);
		state_why(t, "engaged", "");
		assert_string_equal(top(t), "t auto");
		hold_lock(t);
		journal_swap(t, "\nstate active\n", "\nstate applying\n");
		break;
	case 5:
		assert_true(t->in_lock_wait);
		state_why(t, "engaged", waiting(""));
		journal_swap(t, "\nstate applying\n", "\nstate active\n"); /* rolled back */
		let_go(t);
		break;
	case 6:
		state_why(t, "engaged", "");
		assert_string_equal(top(t), "t auto");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_lock_wait_then_apply(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, RUN_PROFILE, lock_then_apply_turn);
	assert_int_equal(run_auto_watched(&t), 0);
	assert_int_equal(t.lock_waits, 3);
	assert_false(said(&t, "profile t was removed or replaced by another mdprofile; not applied "
			      "again until md is idle"));
	says(&t, "SIGTERM; removing profile t");
	assert_string_equal(top(&t), "");
	run_teardown(&t);
}

/*
 * Stopped while engaged, the watcher waits for the lock to remove its
 * layer; a second stop signal ends that wait: the layer stays on (the
 * next command's recover removes it, its watcher gone), and it says so.
 */
static void lock_twice_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		op(t, "md2", "recover");
		break;
	case 2:
		hold_lock(t);
		t->sig = SIGTERM;
		break;
	case 3:
		assert_true(t->in_lock_wait);
		state_why(t, "engaged", waiting(""));
		t->sig = SIGINT;
		break;
	}
}

static void test_loop_lock_wait_stopped_twice(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, RUN_PROFILE, lock_twice_turn);
	assert_int_equal(run_auto_watched(&t), -EINTR);
	says(&t, "stopped by SIGINT while waiting for the lock: profile t stays on until the next "
		 "mdprofile command that changes the system removes it");
	assert_string_equal(top(&t), "t auto");
	let_go(&t);
	run_teardown(&t);
}

/* ---- md's events while the watcher reads, follows or glances (issue 47) ----------------- */

/* md2's recovery starts (its disk added back): what md shows, and its events. */
static void md2_recovers(struct run *t)
{
	op(t, "md2", "recover");
}

/* md1 starts a check (no operation auto engages on): its events. */
static void md1_checks(struct run *t)
{
	op(t, "md1", "check");
}

/*
 * The race the script arms at turn 1 (at setup it would run in the first
 * look), with an event of md's that wakes the watcher then (a disk of md0
 * failed: /proc/mdstat's alone), or none where a glance is to find it.
 */
struct race_plan {
	enum race_at at;
	const char *file;
	race_fn *fn[2];
	bool wake;
	unsigned timeouts; /* those before md2's event can wake it: 0, or 1 for a glance */
};

static void race_turn(struct run *t, unsigned n)
{
	const struct race_plan *pl = t->plan;

	switch (n) {
	case 1:
		t->race = pl->at;
		t->race_file = pl->file;
		t->races[0] = pl->fn[0];
		t->races[1] = pl->fn[1];
		t->n_races = pl->fn[1] ? 2 : 1;
		if (pl->wake)
			raise_md(t, NULL);
		break;
	case 3:
		/* md2's event woke it: no interval went by for it */
		assert_int_equal(t->n_races, 0);
		says(t, "engaged: md2 recover; applying profile t");
		assert_int_equal(t->timeouts, pl->timeouts);
		t->sig = SIGTERM;
		break;
	}
}

static void run_race(const struct race_plan *pl, bool delayed)
{
	struct run t;

	run_setup(&t, RUN_PROFILE, race_turn);
	if (delayed) { /* md1's resync waits behind another array's: not quiet, no glance */
		md_put(&t, "md1", "sync_completed", "delayed\n");
		md_put(&t, "md1", "sync_action", "resync\n");
	}
	t.plan = pl;
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	assert_int_equal(t.errs, 0);
	run_teardown(&t);
}

/*
 * md2's recovery starts while the watcher's discovery reads (after it read
 * md2's md/sync_action), while its watch follows that discovery, or while
 * a glance reads: each time md's event wakes it at once, not the next
 * interval's look. Not quiet (md1's resync queued: no glance after the
 * discovery), and quiet with events in a row (md3 stopped, then md1 and
 * md2 changed within a second, as in the lab), where the glance after one
 * discovery catches only the first.
 */
static void test_loop_event_races(void **state)
{
	static const char md2_action[] = "/sys/block/md2/md/sync_action";
	static const struct race_plan during_discovery = {
	    RACE_DISCOVERY, md2_action, {md2_recovers, NULL}, true, 0};
	static const struct race_plan during_follow = {
	    RACE_FOLLOW, NULL, {md2_recovers, NULL}, true, 0};
	static const struct race_plan in_a_row = {
	    RACE_DISCOVERY, md2_action, {md1_checks, md2_recovers}, true, 0};
	static const struct race_plan during_glance = {
	    RACE_GLANCE, "md2", {md2_recovers, NULL}, false, 1};

	(void)state;
	run_race(&during_discovery, true);
	run_race(&during_follow, true);
	run_race(&in_a_row, false);
	run_race(&during_glance, false);
}

/* Each of md3's member partitions' counters: IOS requests of TICKS ms, reads and writes. */
static void stat_members(struct run *t, unsigned ios, unsigned ticks)
{
	static const char *const m[] = {"sda/sda6", "sdb/sdb6", "sdd/sdd6"};
	char path[64], text[128];

	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/stat", m[i]);
		snprintf(text, sizeof(text), "%u 0 %u %u %u 0 %u %u 0 %u %u\n", ios, ios * 8, ticks,
			 ios, ios * 8, ticks, ticks, ticks);
		put(t, path, text);
	}
}

/*
 * Where md counts its requests but never times them (DSM's kernels), the
 * member disks' counters stand in: 300 requests in 60000 ms, 200 ms each,
 * the sync's included: backed off; then no request through the array:
 * the profile's full minimum, and status's view says idle.
 */
static void goal_members_turn(struct run *t, unsigned n)
{
	struct mdp_wgoal_view v;

	switch (n) {
	case 1:
		stat_md3(t, 1000, 0);
		stat_members(t, 5000, 50000);
		op(t, "md3", "reshape");
		md_put(t, "md3", "sync_speed", "200000\n");
		break;
	case 3:
		stat_md3(t, 1100, 0);
		stat_members(t, 5100, 70000);
		break;
	case 4:
		says(t, "md3: minimum 300000 -> 50000 KiB/s (latency 200.0 ms > goal 20 ms, from "
			"its member disks' counters, the sync's included)");
		break;
	case 5:
		says(t, "md3: minimum 50000 -> 300000 KiB/s (no foreground I/O)");
		assert_int_equal(mdp_wgoal_active(&t->r, &v), 0);
		assert_int_equal(v.n, 1);
		assert_int_equal(v.v[0].in.kind, MDP_GOAL_IDLE);
		assert_int_equal(v.v[0].min, 300000);
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_goal_members(void **state)
{
	struct run t;

	(void)state;
	run_auto(&t, GOAL_PROFILE, goal_members_turn);
	assert_string_equal(get(&t, "/sys/block/md3/md/sync_speed_min"), "10000 (system)");
	run_teardown(&t);
}

/*
 * apply --until-idle: its layer applied by the caller under the main lock
 * (as cmd/apply.c does), then the loop, which ends at the first release.
 */
static int run_until_idle(struct run *t)
{
	const struct mdp_apply_opts o = {.origin = MDP_BY_UNTIL_IDLE, .lean = true};
	struct mdp_applied a;
	long holder = 0;
	bool did;

	t->w.c.once = true;
	t->w.by = MDP_BY_UNTIL_IDLE;
	mdp_engage_init(&t->w.e, MDP_OP_ALL, MDP_WLOOP_DEBOUNCE_S, true);
	assert_int_equal(mdp_lock_take(&t->r, false, &t->lock, &holder, &t->d), 0);
	assert_int_equal(mdp_txn_recover(&t->tx, &did).res, MDP_TXN_OK);
	mdp_apply(&t->tx, &t->p, &o, &a);
	assert_int_equal(a.rc.res, MDP_TXN_OK);
	mdp_txn_report_free(&t->tx.rep);
	mdp_applied_free(&a);
	return mdp_wloop_until_idle(&t->w);
}

/* md3 stopped (mdadm --stop) under way: its reshape went away with it. */
static void gone_turn(struct run *t, unsigned n)
{
	if (n == 1) {
		test_sh("rm -rf '%s/sys/block/md3' && sed -i '/^md3 :/,/^$/d' '%s/proc/mdstat'",
			t->dir, t->dir);
		raise_md(t, "md3");
	}
}

/* md3's reshape interrupted (echo idle >sync_action): md keeps where it was. */
static void interrupted_turn(struct run *t, unsigned n)
{
	if (n == 2) {
		md_put(t, "md3", "reshape_position", "1064960\n");
		op(t, "md3", "idle");
	}
}

static void test_loop_until_idle_ends(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, RUN_PROFILE, gone_turn);
	md_put(&t, "md3", "reshape_position", "1064960\n");
	op(&t, "md3", "reshape");
	assert_int_equal(run_until_idle(&t), 0);
	says(&t,
	     "profile t: watching until no array resyncs, recovers, reshapes or checks; SIGINT, "
	     "SIGTERM or SIGHUP reverts now");
	says(&t, "operations ended after 3s; reverted");
	says(&t, "md3 reshape: stopped (array gone), average 0 KiB/s");
	assert_string_equal(top(&t), "");
	run_teardown(&t);

	run_setup(&t, RUN_PROFILE, interrupted_turn);
	op(&t, "md3", "reshape");
	assert_int_equal(run_until_idle(&t), 0);
	says(&t, "operations ended after 8s; reverted"); /* a look 5 s in, 3 s idle */
	says(&t, "md3 reshape: stopped at 9.9%, average 0 KiB/s");
	assert_string_equal(top(&t), "");
	run_teardown(&t);
}

/*
 * An array stopped while the watcher looks (the lab's md3, mdadm --stop, 5.10):
 * discovery lists its files and then cannot read one. The look is taken again
 * in the wait for the stop signals and the watcher goes on; it died with
 * "cannot follow md" before. A stop signal in that wait ends it cleanly.
 */
static void teardown_turn(struct run *t, unsigned n)
{
	char host[600];

	snprintf(host, sizeof(host), "%s/sys/block/md3/md/sync_action", t->dir);
	switch (n) {
	case 1: /* md3 half torn down: its sync_action unreadable, and md says so */
		assert_int_equal(unlink(host), 0);
		assert_int_equal(mkdir(host, 0755), 0);
		raise_md(t, "md3");
		break;
	case 2: /* the look failed and waits to be taken again */
		assert_true(t->in_lock_wait);
		assert_int_equal(rmdir(host), 0);
		md_put(t, "md3", "sync_action", "idle\n");
		break;
	case 3:
		assert_false(t->in_lock_wait);
		assert_true(state_is(t, "armed"));
		op(t, "md2", "recover");
		break;
	case 4:
		says(t, "engaged: md2 recover; applying profile t");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_look_races_a_stop(void **state)
{
	struct run t;

	(void)state;
	run_auto(&t, RUN_PROFILE, teardown_turn);
	assert_int_equal(t.lock_waits, 1);
	says(&t, "SIGTERM; removing profile t");
	run_teardown(&t);
}

/* Still unreadable when a stop signal comes: the look's wait ends, nothing said amiss. */
static void teardown_stop_turn(struct run *t, unsigned n)
{
	char host[600];

	snprintf(host, sizeof(host), "%s/sys/block/md3/md/sync_action", t->dir);
	if (n == 1) {
		assert_int_equal(unlink(host), 0);
		assert_int_equal(mkdir(host, 0755), 0);
		raise_md(t, "md3");
	} else if (n == 3) {
		assert_true(t->in_lock_wait);
		t->sig = SIGINT;
	}
}

static void test_loop_look_stopped(void **state)
{
	struct run t;

	(void)state;
	run_auto(&t, RUN_PROFILE, teardown_stop_turn);
	assert_int_equal(t.lock_waits, 2);
	says(&t, "stopped by SIGINT");
	run_teardown(&t);
}

/* How many lines the loop said that begin with prefix. */
static size_t said_n(const struct run *t, const char *prefix)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += !strncmp(t->lines[i], prefix, strlen(prefix));
	return n;
}

/* ---- maintenance (issue 49) ------------------------------------------------------------- */

#define MAINT_PROFILE RUN_PROFILE "maintenance:\n  windows: [\"01:00-07:00\"]\n"
#define MD2_UUID      "0123456789abcdef0123456789abcdef"

/* md2 runs a check at 25% (md's place md/sync_completed), with a UUID and md's sync_min. */
static void maint_setup(struct run *t)
{
	md_put(t, "md2", "uuid", "01234567-89ab-cdef-0123-456789abcdef\n");
	md_put(t, "md2", "sync_min", "0\n");
	md_put(t, "md2", "sync_completed", "1024 / 4096\n");
	md_put(t, "md2", "sync_speed", "5000\n");
	md_put(t, "md2", "sync_action", "check\n");
}

static bool paused(struct run *t, const char *dev)
{
	struct mdp_jpauses p;
	bool on = false;

	if (mdp_txn_pauses(&t->r, &p))
		return false;
	for (size_t i = 0; i < p.n; i++)
		on |= !strcmp(p.v[i].dev, dev);
	mdp_jpauses_free(&p);
	return on;
}

/* What the pause journal says of dev's pause ("" word when none). */
static struct mdp_jwhy why_of(struct run *t, const char *dev)
{
	struct mdp_jwhy w = {"", -1};
	struct mdp_jpauses p;

	if (mdp_txn_pauses(&t->r, &p))
		return w;
	for (size_t i = 0; i < p.n; i++)
		if (!strcmp(p.v[i].dev, dev))
			w = p.v[i].why;
	mdp_jpauses_free(&p);
	return w;
}

/* The epoch the wall clock gives now, to the minute. */
static int64_t wall_minute(const struct run *t)
{
	int64_t e = 1765065600 + (int64_t)(t->now - 1000);

	return e - e % 60;
}

/*
 * A check outside its window (Monday 08:00, the window 01:00-07:00) is paused at the first
 * look, in place (DSM: md/sync_min never written); the window opens: resumed from there.
 */
/* The pace the pause journal keeps for dev's check, 0 when none. */
static uint64_t pace_of(struct run *t, const char *dev)
{
	struct mdp_jpauses p;
	uint64_t pace = 0;

	if (mdp_txn_pauses(&t->r, &p))
		return 0;
	for (size_t i = 0; i < p.n; i++)
		if (!strcmp(p.v[i].dev, dev))
			pace = p.v[i].kib_s;
	mdp_jpauses_free(&p);
	return pace;
}

/* The watcher's state for status: its one window, and the arrays its profile selects. */
static void maint_state_is(struct run *t, const char *window, const char *arrays)
{
	struct mdp_wstate ws;
	char text[64];

	assert_int_equal(mdp_wstate_load(&t->r, &ws), 0);
	assert_int_equal(ws.n_windows, 1);
	assert_string_equal(mdp_mwin_text(&ws.windows[0], text, sizeof(text)), window);
	assert_string_equal(ws.arrays, arrays);
}

static void maint_window_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		says(t, "md2 check paused at 25% (sector 1024): outside its windows; the next "
			"opens in 17h 00m");
		assert_string_equal(get(t, "/sys/block/md2/md/sync_action"), "idle");
		assert_true(paused(t, "md2"));
		assert_true(mdp_root_exists(&t->r, MDP_MAINT_CKPT_DIR "/" MD2_UUID));
		/* for status: why, and when the next window opens (17 h on) */
		assert_string_equal(why_of(t, "md2").word, "window");
		assert_int_equal(why_of(t, "md2").opens, wall_minute(t) + 17 * 3600);
		/* and its pace, with the windows and the arrays they govern, for its finish */
		assert_int_equal(pace_of(t, "md2"), 5000);
		maint_state_is(t, "01:00-07:00", "md0 md1 md2 md3");
		break;
	case 2: /* still outside: left paused */
		assert_string_equal(get(t, "/sys/block/md2/md/sync_action"), "idle");
		t->wall = (struct mdp_mtime){2, 60}; /* Tuesday 01:00 */
		break;
	case 3:
		says(t, "md2 check resumed from 25% (sector 1024)");
		assert_string_equal(get(t, "/sys/block/md2/md/sync_action"), "check");
		assert_string_equal(get(t, "/sys/block/md2/md/sync_min"), "0");
		assert_false(paused(t, "md2"));
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_maint_window(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, MAINT_PROFILE, maint_window_turn);
	maint_setup(&t);
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	assert_int_equal(t.errs, 0);
	assert_int_equal(t.waits, 3);
	run_teardown(&t);
}

/*
 * Heat, off DSM: a member disk at 55 C pauses the check (hot from 50), 47 C keeps it
 * paused (cool below 45), 44 C resumes it from md's place, md/sync_min written where md lost
 * it. Temperatures are read once a minute: a reading between two is not seen.
 */
static void maint_heat_turn(struct run *t, unsigned n)
{
	char hw[160];

	snprintf(hw, sizeof(hw), "/sys/block/sdb/device/hwmon/hwmon3/temp1_input");
	switch (n) {
	case 1:
		assert_string_equal(get(t, "/sys/block/md2/md/sync_action"), "check");
		put(t, hw, "55000\n");
		t->now += 60;
		break;
	case 2:
		says(t, "md2 check paused at 25% (sector 1024): sdb is hot (55 C)");
		assert_string_equal(why_of(t, "md2").word, "heat");
		assert_int_equal(why_of(t, "md2").opens, 0);
		md_put(t, "md2", "sync_min", "0\n"); /* md lost its place */
		put(t, hw, "47000\n");
		t->now += 60;
		break;
	case 3:
		assert_string_equal(get(t, "/sys/block/md2/md/sync_action"), "idle");
		put(t, hw, "44000\n");
		break;
	case 4: /* read a minute ago: not yet */
		assert_string_equal(get(t, "/sys/block/md2/md/sync_action"), "idle");
		t->now += 60;
		break;
	case 5:
		says(t, "md2 check resumed from 25% (sector 1024)");
		assert_string_equal(get(t, "/sys/block/md2/md/sync_min"), "1024");
		assert_string_equal(get(t, "/sys/block/md2/md/sync_action"), "check");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_maint_heat(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, RUN_PROFILE "maintenance:\n  heat: {hot_at_c: 50, cool_below_c: 45}\n",
		  maint_heat_turn);
	test_sh("cd '%s' && rm etc.defaults/VERSION && mkdir -p sys/block/sdb/device/hwmon/hwmon3 "
		"&& echo 40000 >sys/block/sdb/device/hwmon/hwmon3/temp1_input",
		t.dir);
	maint_setup(&t);
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	assert_int_equal(t.errs, 0);
	/* sda asleep is left asleep and not hot; sdc's smartctl tells no temperature */
	assert_string_equal(t.smart[0], "smartctl -n standby -A /dev/sda");
	assert_int_equal(said_n(&t, "sda: "), 0);
	says(&t, "sdc: no temperature from drivetemp (hwmon) or SMART (smartctl -A): the heat rule "
		 "does not see it");
	run_teardown(&t);
}

#define SMART_IDLE                                                                                 \
	"Self-test execution status:      (   0)\tThe previous self-test routine completed\n"
#define SMART_TEMP(c)                                                                              \
	SMART_IDLE                                                                                 \
	    "ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  "          \
	    "WHEN_FAILED RAW_VALUE\n"                                                              \
	    "194 Temperature_Celsius     0x0022   036   045   000    Old_age   Always       -  "   \
	    "     " #c " (Min/Max 21/58)\n"

/*
 * Heat from SMART: sdb has no drivetemp reading; smartctl -A (with -n standby, in the same
 * call as the self-test question) tells 55 C: the check is paused; 40 C a minute on: resumed.
 */
static void maint_smart_heat_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		says(t, "md2 check paused at 25% (sector 1024): sdb is hot (55 C)");
		assert_string_equal(why_of(t, "md2").word, "heat");
		assert_int_equal(t->n_smart, 4); /* one call a disk */
		assert_string_equal(t->smart[1], "smartctl -n standby -c -A /dev/sdb");
		t->smart_sdb = SMART_TEMP(40);
		t->now += 60;
		break;
	case 2:
		assert_int_equal(t->n_smart, 8);
		says(t, "md2 check resumed from 25% (sector 1024)");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_maint_smart_heat(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t,
		  RUN_PROFILE "maintenance:\n  heat: {hot_at_c: 50, cool_below_c: 45}\n"
			      "  defer_to: [smart-selftest]\n",
		  maint_smart_heat_turn);
	test_sh("cd '%s' && rm etc.defaults/VERSION", t.dir);
	maint_setup(&t);
	t.smart_sdb = SMART_TEMP(55);
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	assert_int_equal(t.errs, 0);
	assert_int_equal(said_n(&t, "md2 check paused"), 1);
	run_teardown(&t);
}

/* A job deferred to runs (a process named in defer_to): paused; gone a minute on: resumed. */
static void maint_defer_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		says(t, "md2 check paused at 25% (sector 1024): rsync runs");
		test_sh("rm -r '%s/proc/4242'", t->dir);
		break;
	case 2: /* the processes were looked at under a minute ago */
		assert_string_equal(get(t, "/sys/block/md2/md/sync_action"), "idle");
		t->now += 60;
		break;
	case 3:
		says(t, "md2 check resumed from 25% (sector 1024)");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_maint_defer(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, RUN_PROFILE "maintenance:\n  defer_to: [rsync, smart-selftest]\n",
		  maint_defer_turn);
	test_sh("mkdir -p '%s/proc/4242' && echo rsync >'%s/proc/4242/comm'", t.dir, t.dir);
	maint_setup(&t);
	t.no_smartctl = true;
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	assert_int_equal(t.errs, 0);
	assert_int_equal(said_n(&t, "defer_to smart-selftest: no smartctl"), 1);
	says(&t, "defer_to smart-selftest: no smartctl (smartmontools): a running SMART self-test "
		 "is not seen");
	run_teardown(&t);
}

/*
 * A SMART self-test on sdb, a member of md2 (and of md0, md1, md3): md2's check is paused,
 * said with the disk and how far the test is; the idle arrays are left alone. Each disk is
 * asked once a look, at most once a minute, never woken (-n standby: sda asleep is no
 * test). The test ends: at the next reading the check resumes.
 */
static void maint_selftest_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		says(t, "md2 check paused at 25% (sector 1024): sdb: SMART self-test, 30% left");
		assert_string_equal(why_of(t, "md2").word, "deferred");
		assert_int_equal(t->n_smart, 4);
		assert_string_equal(t->smart[0], "smartctl -n standby -c /dev/sda");
		assert_string_equal(t->smart[1], "smartctl -n standby -c /dev/sdb");
		t->smart_sdb = NULL; /* the test ended */
		break;
	case 2: /* asked under a minute ago */
		assert_int_equal(t->n_smart, 4);
		assert_true(paused(t, "md2"));
		t->now += 60;
		break;
	case 3:
		assert_int_equal(t->n_smart, 8);
		says(t, "md2 check resumed from 25% (sector 1024)");
		assert_false(paused(t, "md2"));
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_maint_selftest(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, RUN_PROFILE "maintenance:\n  defer_to: [smart-selftest]\n",
		  maint_selftest_turn);
	maint_setup(&t);
	t.smart_sdb = "Self-test execution status:      ( 243)\tSelf-test routine in progress...\n"
		      "\t\t\t\t\t30% of test remaining.\n";
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	assert_int_equal(t.errs, 0);
	assert_int_equal(said_n(&t, "md2 check paused"), 1);
	assert_int_equal(said_n(&t, "md0 "), 0);
	run_teardown(&t);
}

static void stop_turn(struct run *t, unsigned n)
{
	(void)n;
	t->sig = SIGTERM;
}

/*
 * A reboot cuts a check: md forgot its place (md2 idle, sync_min 0), the file kept it. The
 * first look journals it paused there (outside the window), the window resumes it from
 * there, md/sync_min written first (off DSM). The place was kept by a watcher that saw the
 * check run, in the window.
 */
static void maint_reboot_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		says(t, "md2: a check cut at 25% (sector 1024) by a reboot or a crash resumes from "
			"there when allowed");
		assert_true(paused(t, "md2"));
		assert_string_equal(get(t, "/sys/block/md2/md/sync_action"), "idle");
		/* journaled without a word, then held outside the window: said so for status */
		assert_string_equal(why_of(t, "md2").word, "window");
		assert_int_equal(why_of(t, "md2").opens, wall_minute(t) + 17 * 3600);
		t->wall = (struct mdp_mtime){2, 90};
		break;
	case 2:
		says(t, "md2 check resumed from 25% (sector 1024)");
		assert_string_equal(get(t, "/sys/block/md2/md/sync_min"), "1024");
		assert_string_equal(get(t, "/sys/block/md2/md/sync_action"), "check");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_maint_reboot(void **state)
{
	char kept[MDP_MAINT_CKPT_MAX];
	struct run t;

	(void)state;
	run_setup(&t, MAINT_PROFILE, stop_turn);
	maint_setup(&t);
	t.wall = (struct mdp_mtime){1, 120}; /* in the window: runs, its place kept */
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	snprintf(kept, sizeof(kept), "%s\n", get(&t, MDP_MAINT_CKPT_DIR "/" MD2_UUID));
	assert_non_null(strstr(kept, "\nposition 1024\n"));
	run_teardown(&t);

	run_setup(&t, MAINT_PROFILE, maint_reboot_turn);
	test_sh("cd '%s' && rm etc.defaults/VERSION && mkdir -p ." MDP_MAINT_CKPT_DIR
		" && chmod 700 ." MDP_MAINT_CKPT_DIR,
		t.dir);
	put(&t, MDP_MAINT_CKPT_DIR "/" MD2_UUID, kept);
	test_sh("chmod 600 '%s" MDP_MAINT_CKPT_DIR "/" MD2_UUID "'", t.dir);
	maint_setup(&t);
	md_put(&t, "md2", "sync_action", "idle\n");
	md_put(&t, "md2", "sync_completed", "none\n");
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	assert_int_equal(t.errs, 0);
	run_teardown(&t);
}

/* ---- maintenance notify (issue 49) ------------------------------------------------------ */

#define NOTIFY_HOOK "/usr/local/sbin/md-news"

static void hook_is(const struct run *t, size_t i, const char *want)
{
	assert_true(i < t->n_hooks);
	assert_string_equal(t->hooks[i], want);
}

/*
 * Each event told, with its environment: the check seen at 25% outside its window (start,
 * then its pause, why window), an hour on the window opens (resume, paused 3600 s), md ends
 * it (sync_min back to 0: completed, md's mismatch_cnt). The command fails at the start and
 * the pause: said once; DSM's news hook gets every event.
 */
static void maint_notify_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		says(t, "md2 check started at 25%");
		hook_is(t, 0,
			NOTIFY_HOOK
			" MDPROFILE_EVENT=start MDPROFILE_ARRAY=md2 "
			"MDPROFILE_UUID=" MD2_UUID " MDPROFILE_ACTION=check "
			"MDPROFILE_PROGRESS_PERCENT=25 MDPROFILE_REASON= MDPROFILE_DURATION_S= "
			"MDPROFILE_PAUSED_S= MDPROFILE_MISMATCH_CNT= MDPROFILE_MESSAGE=md2 check "
			"started at 25%");
		hook_is(t, 1,
			NOTIFY_HOOK
			" MDPROFILE_EVENT=pause MDPROFILE_ARRAY=md2 "
			"MDPROFILE_UUID=" MD2_UUID " MDPROFILE_ACTION=check "
			"MDPROFILE_PROGRESS_PERCENT=25 MDPROFILE_REASON=window "
			"MDPROFILE_DURATION_S=0 MDPROFILE_PAUSED_S=0 MDPROFILE_MISMATCH_CNT= "
			"MDPROFILE_MESSAGE=md2 check paused at 25% (sector 1024): outside its "
			"windows; the next opens in 17h 00m");
		assert_int_equal(said_n(t, "maintenance notify command " NOTIFY_HOOK " failed"), 1);
		says(t, "maintenance notify command " NOTIFY_HOOK " failed at md2's start: exit 3: "
			"no mail server (said once until it works again)");
		t->hook_exit = 0;
		t->now += 3600;
		t->wall = (struct mdp_mtime){2, 60}; /* Tuesday 01:00 */
		break;
	case 2:
		assert_int_equal(t->n_hooks, 3);
		break;
	case 3:
		hook_is(t, 2,
			NOTIFY_HOOK
			" MDPROFILE_EVENT=resume MDPROFILE_ARRAY=md2 "
			"MDPROFILE_UUID=" MD2_UUID " MDPROFILE_ACTION=check "
			"MDPROFILE_PROGRESS_PERCENT=25 MDPROFILE_REASON= MDPROFILE_DURATION_S=3605 "
			"MDPROFILE_PAUSED_S=3605 MDPROFILE_MISMATCH_CNT= MDPROFILE_MESSAGE=md2 "
			"check resumed from 25% (sector 1024)");
		t->now += 600;
		md_put(t, "md2", "sync_min", "0\n");
		md_put(t, "md2", "mismatch_cnt", "8\n");
		op(t, "md2", "idle");
		break;
	case 4:
		says(t, "md2 check completed after 1h 10m 10s (paused 1h 00m 05s), mismatch_cnt 8");
		hook_is(t, 3,
			NOTIFY_HOOK
			" MDPROFILE_EVENT=end MDPROFILE_ARRAY=md2 "
			"MDPROFILE_UUID=" MD2_UUID " MDPROFILE_ACTION=check "
			"MDPROFILE_PROGRESS_PERCENT=100 MDPROFILE_REASON=completed "
			"MDPROFILE_DURATION_S=4210 MDPROFILE_PAUSED_S=3605 "
			"MDPROFILE_MISMATCH_CNT=8 MDPROFILE_MESSAGE=md2 check completed after 1h "
			"10m 10s (paused 1h 00m 05s), mismatch_cnt 8");
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_maint_notify(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, MAINT_PROFILE "  notify: {command: " NOTIFY_HOOK "}\n", maint_notify_turn);
	maint_setup(&t);
	t.hook_exit = 3;
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	assert_int_equal(t.errs, 0);
	assert_int_equal(t.n_hooks, 4);
	assert_int_equal(t.n_news, 4);
	assert_string_equal(t.news[0], "start: md2 check started at 25%");
	assert_string_equal(t.news[3], "end: md2 check completed after 1h 10m 10s (paused 1h 00m "
				       "05s), mismatch_cnt 8");
	assert_int_equal(said_n(&t, "md2 check completed"), 1);
	run_teardown(&t);
}

/*
 * A watcher started again tells no start twice, and the end of a check that ended while
 * none ran, once: stopped by hand (md keeps its place in sync_min). events: [end] alone reach
 * the command and DSM's hook; the log says the start too.
 */
static void notify_stopped_turn(struct run *t, unsigned n)
{
	if (n == 1) {
		md_put(t, "md2", "sync_min", "2048\n");
		op(t, "md2", "idle");
	} else if (n == 2) {
		t->sig = SIGTERM;
	}
}

static void test_loop_maint_notify_again(void **state)
{
	const char *yaml =
	    RUN_PROFILE "maintenance:\n  defer_to: [rsync]\n  notify: {command: " NOTIFY_HOOK
			", events: [end]}\n";
	struct mdp_wloop_cfg c;
	struct run t;

	(void)state;
	run_setup(&t, yaml, stop_turn);
	test_sh("cd '%s' && rm etc.defaults/VERSION", t.dir);
	maint_setup(&t);
	md_put(&t, "md2", "mismatch_cnt", "0\n");
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	says(&t, "md2 check started at 25%");
	assert_int_equal(t.n_hooks + t.n_news, 0);
	/* started again: the check still runs, a third of the way, then is stopped by hand */
	for (int again = 0; again < 2; again++) {
		c = t.w.c;
		mdp_wloop_fini(&t.w);
		t.n = 0;
		t.waits = 0;
		t.turn = again ? stop_turn : notify_stopped_turn;
		md_put(&t, "md2", "sync_completed", again ? "none\n" : "1365 / 4096\n");
		t.now += 60;
		mdp_wloop_init(&t.w, &c);
		assert_int_equal(mdp_wloop_auto(&t.w), 0);
		assert_int_equal(said_n(&t, "md2 check started"), 0);
	}
	assert_int_equal(t.errs, 0);
	assert_int_equal(t.n_hooks, 1);
	hook_is(&t, 0,
		NOTIFY_HOOK " MDPROFILE_EVENT=end MDPROFILE_ARRAY=md2 MDPROFILE_UUID=" MD2_UUID
			    " MDPROFILE_ACTION=check MDPROFILE_PROGRESS_PERCENT=33 "
			    "MDPROFILE_REASON=stopped MDPROFILE_DURATION_S=60 MDPROFILE_PAUSED_S=0 "
			    "MDPROFILE_MISMATCH_CNT=0 MDPROFILE_MESSAGE=md2 check stopped at 33% "
			    "after 0h 01m 00s (paused 0h 00m 00s), mismatch_cnt 0");
	assert_int_equal(t.n_news, 1);
	run_teardown(&t);
}

/*
 * A pause the watcher did not end (revert let it go, or a person wrote check): the check
 * seen running again is told as resumed, its paused time counted.
 */
static void notify_let_go_turn(struct run *t, unsigned n)
{
	switch (n) {
	case 1:
		assert_true(paused(t, "md2"));
		test_sh("rm '%s/run/mdprofile/paused'", t->dir);
		t->wall = (struct mdp_mtime){2, 60};
		t->now += 600;
		md_put(t, "md2", "sync_completed", "1024 / 4096\n");
		op(t, "md2", "check");
		md_put(t, "md2", "sync_completed", "1024 / 4096\n");
		break;
	case 2:
		says(t, "md2 check runs again at 25%");
		assert_int_equal(t->n_hooks, 3);
		assert_non_null(strstr(t->hooks[2], " MDPROFILE_EVENT=resume "));
		assert_non_null(strstr(t->hooks[2], " MDPROFILE_PAUSED_S=600 "));
		t->sig = SIGTERM;
		break;
	}
}

static void test_loop_maint_notify_let_go(void **state)
{
	struct run t;

	(void)state;
	run_setup(&t, MAINT_PROFILE "  notify: {command: " NOTIFY_HOOK "}\n", notify_let_go_turn);
	maint_setup(&t);
	assert_int_equal(mdp_wloop_auto(&t.w), 0);
	assert_int_equal(t.errs, 0);
	assert_int_equal(said_n(&t, "md2 check paused"), 1);
	run_teardown(&t);
}

MDP_TEST_MAIN(test_finished_and_stopped, test_recovery_check_gone, test_steps_and_kinds,
	      test_glance, test_glance_in_turn, test_no_glance_unwatched, test_no_sync_thread,
	      test_loop_engage_release, test_loop_reassert, test_loop_flap, test_loop_held,
	      test_loop_apply_fails, test_loop_in_sync, test_loop_goal, test_loop_goal_max,
	      test_loop_goal_percentile, test_loop_goal_members, test_loop_until_idle_ends,
	      test_loop_lock_wait_stop, test_loop_lock_wait_then_apply,
	      test_loop_lock_wait_stopped_twice, test_loop_event_races, test_loop_look_races_a_stop,
	      test_loop_look_stopped, test_loop_maint_window, test_loop_maint_heat,
	      test_loop_maint_smart_heat, test_loop_maint_defer, test_loop_maint_selftest,
	      test_loop_maint_reboot, test_loop_maint_notify, test_loop_maint_notify_again,
	      test_loop_maint_notify_let_go)
