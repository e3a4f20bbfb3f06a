/*
 * Unit tests of the watcher loop's bookkeeping: what each look notes of
 * an operation (its first and last progress, when) and how it ended, from
 * what md keeps after it (reshape_position, resync_start, degraded, the
 * array gone), as the summary says it with its average; the 10% lines
 * only when no bar shows progress. Times are given, not waited for. And
 * when a look may be a glance (one pread of each selected array's
 * md/sync_action) instead of a discovery, and what a glance notices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"
#include "watcher_loop.h"

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

MDP_TEST_MAIN(test_finished_and_stopped, test_recovery_check_gone, test_steps_and_kinds,
	      test_glance, test_glance_in_turn, test_no_glance_unwatched, test_no_sync_thread)
