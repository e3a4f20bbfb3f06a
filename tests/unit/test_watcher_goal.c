/*
 * Unit tests of watcher_goal: the watcher's state per array under a goal
 * (floor and ceiling at its first look, a move when the latency asks one,
 * its line, arrays leaving), and status's view of it stored and read back.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"
#include "watcher_goal.h"

struct env {
	char dir[64];
	struct mdp_root r;
	struct mdp_system s;
	struct mdp_array a;
	struct mdp_wgoal g;
};

static void env_setup(struct env *e)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->dir, sizeof(e->dir), "/tmp/mdp-wgoal-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	test_sh("mkdir -p '%s/sys/block/md3' '%s/run/mdprofile' && chmod 0755 '%s/run/mdprofile'",
		e->dir, e->dir, e->dir);
	assert_int_equal(mdp_root_init(&e->r, e->dir), 0);
	/* md3 follows the sysctl at 300000 (the profile's); the sysctl was 10000 before */
	snprintf(e->a.name, sizeof(e->a.name), "md3");
	e->a.cur[MDP_T_SYNC_SPEED_MIN] =
	    (struct mdp_cur){.present = true, .val = {MDP_V_SYSTEM, 300000}};
	e->s.arrays = &e->a;
	e->s.n_arrays = 1;
	e->s.global[MDP_T_SPEED_LIMIT_MIN] =
	    (struct mdp_cur){.present = true, .val = {MDP_V_NUM, 10000}};
	e->g.goal_ms = 20;
}

static void env_teardown(struct env *e)
{
	mdp_wgoal_free(&e->g);
	mdp_root_fini(&e->r);
	test_sh("rm -rf '%s'", e->dir);
}

static void stat_md(struct env *e, unsigned ios, unsigned ticks)
{
	test_sh("echo '%u 0 0 %u 0 0 0 0 0 0 0' >'%s/sys/block/md3/stat'", ios, ticks, e->dir);
}

static size_t look(struct env *e, bool on, struct mdp_wgoal_move **m)
{
	size_t n;

	assert_int_equal(mdp_wgoal_look(&e->g, 100, &e->r, &e->s, &on, m, &n), 0);
	return n;
}

/* env_setup, and the first look: it takes the counters and the bounds, and moves nothing. */
static void env_looked(struct env *e)
{
	struct mdp_wgoal_move *m = NULL;

	env_setup(e);
	stat_md(e, 1000, 5000);
	assert_int_equal(look(e, true, &m), 0);
	free(m);
}

static void test_steps(void **state)
{
	struct mdp_wgoal_move *m = NULL;
	const struct mdp_wgoal_arr *ga;
	struct env e;

	(void)state;
	env_looked(&e);
	assert_non_null(ga = mdp_wgoal_find(&e.g, "md3"));
	assert_int_equal(ga->ctl.floor, 10000);
	assert_int_equal(ga->ctl.ceiling, 300000);
	/* 100 requests of 42 ms: cut by 20 / 42 */
	stat_md(&e, 1100, 9200);
	assert_int_equal(look(&e, true, &m), 1);
	assert_string_equal(m[0].name, "md3");
	assert_int_equal(m[0].from, 300000);
	assert_int_equal(m[0].to, 142800);
	assert_string_equal(m[0].line, "md3: minimum 300000 -> 142800 KiB/s (latency 42.0 ms > "
				       "goal 20 ms, from md3's own counters)");
	mdp_wgoal_moved(&e.g, &m[0]);
	free(m);
	e.a.cur[MDP_T_SYNC_SPEED_MIN].val = (struct mdp_value){MDP_V_NUM, 142800};
	/* status's view, stored and read back */
	assert_int_equal(mdp_wgoal_store(&e.r, &e.g), 0);
	{
		struct mdp_wgoal_view v;
		assert_int_equal(mdp_wgoal_load(&e.r, &v), 0);
		assert_int_equal(v.goal_ms, 20);
		assert_int_equal(v.n, 1);
		assert_string_equal(v.v[0].name, "md3");
		assert_int_equal(v.v[0].min, 142800);
		assert_int_equal(v.v[0].in.kind, MDP_GOAL_LATENCY);
		assert_int_equal(v.v[0].in.latency_us, 42000);
		assert_int_equal(v.v[0].src, MDP_IO_MD);
	}
	/* no request since: the profile's minimum */
	assert_int_equal(look(&e, true, &m), 1);
	assert_int_equal(m[0].to, 300000);
	assert_string_equal(m[0].line, "md3: minimum 142800 -> 300000 KiB/s (no foreground I/O)");
	free(m);
	/* no longer steered (its operation ended): its state goes */
	assert_int_equal(look(&e, false, &m), 0);
	free(m);
	assert_null(mdp_wgoal_find(&e.g, "md3"));
	env_teardown(&e);
}

/* A new layer (another since) starts over: bounds and counters taken again. */
static void test_new_layer(void **state)
{
	struct mdp_wgoal_move *m = NULL;
	bool on = true;
	size_t n;
	struct env e;

	(void)state;
	env_looked(&e);
	stat_md(&e, 1100, 9200);
	assert_int_equal(mdp_wgoal_look(&e.g, 200, &e.r, &e.s, &on, &m, &n), 0);
	assert_int_equal(n, 0);
	free(m);
	env_teardown(&e);
}

/*
 * The watcher's own timed reads of the last look went through the array:
 * the next look takes them out of its count, so they alone are no foreground
 * I/O, and requests beyond them still are. Here md does not time them (5.10).
 */
static void test_own_reads_taken_out(void **state)
{
	struct mdp_wgoal_move *m = NULL;
	struct mdp_wgoal_arr *ga;
	struct env e;

	(void)state;
	env_setup(&e);
	stat_md(&e, 1000, 0);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_non_null(ga = (struct mdp_wgoal_arr *)mdp_wgoal_find(&e.g, "md3"));
	ga->timed = MDP_IOSTAT_TIMED_READS;
	/* only its own reads: idle, the minimum stays the profile's */
	stat_md(&e, 1000 + MDP_IOSTAT_TIMED_READS, 0);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_int_equal(ga->in.kind, MDP_GOAL_IDLE);
	assert_int_equal(ga->timed, 0);
	/* md counted fewer than it read (never below the last count) */
	ga->timed = MDP_IOSTAT_TIMED_READS;
	stat_md(&e, 1000 + MDP_IOSTAT_TIMED_READS + 1, 0);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_int_equal(ga->in.kind, MDP_GOAL_IDLE);
	/* two beyond its own: foreground I/O, unmeasured here (no members, no device) */
	ga->timed = MDP_IOSTAT_TIMED_READS;
	stat_md(&e, 1004 + MDP_IOSTAT_TIMED_READS + 2, 0);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_int_equal(ga->in.kind, MDP_GOAL_UNKNOWN);
	assert_int_equal(ga->src, MDP_IO_NONE);
	env_teardown(&e);
}

static void test_view_refused(void **state)
{
	static const char *const bad[] = {
	    "mdprofile-goal 2\ngoal 20\nend\n",
	    "mdprofile-goal 1\ngoal 0\nend\n",
	    "mdprofile-goal 1\ngoal 20\n",
	    "mdprofile-goal 1\ngoal 20\narray ../x 1 idle\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 x idle\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 latency 9 disks\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 latency 9 none\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 busy\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 idle max\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 idle max 0\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 idle max 7 max 8\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 idle spent spent\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 idle gone\nend\n",
	};
	struct mdp_wgoal_view v;
	struct env e;

	(void)state;
	env_setup(&e);
	assert_int_equal(mdp_wgoal_load(&e.r, &v), -ENOENT);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f;
		char path[128];
		snprintf(path, sizeof(path), "%s%s", e.dir, MDP_WATCHER_GOAL);
		assert_non_null(f = fopen(path, "w"));
		fputs(bad[i], f);
		fclose(f);
		assert_int_equal(mdp_wgoal_load(&e.r, &v), -EINVAL);
	}
	env_teardown(&e);
	/* each source the watcher writes reads back */
	{
		char text[] =
		    "mdprofile-goal 1\ngoal 20\narray md2 5 latency 9000 probe\narray md3 "
		    "7 latency 8 members\nend\n";
		assert_int_equal(mdp_wgoal_parse(text, &v), 0);
		assert_int_equal(v.n, 2);
		assert_int_equal(v.v[0].src, MDP_IO_TIMED);
		assert_int_equal(v.v[0].in.latency_us, 9000);
		assert_int_equal(v.v[1].src, MDP_IO_MEMBERS);
		assert_int_equal(v.v[1].max, 0);
		assert_false(v.v[1].spent);
	}
}

/*
 * md3's maximum ("200000 (system)", the sysctl's) steered once its minimum
 * is at its floor: a move of the maximum; at both floors the goal missed
 * with nothing left to give, a line that writes nothing, said once while it
 * lasts, and status's view says so; a look under the goal ends it.
 */
static void test_max_and_spent(void **state)
{
	struct mdp_wgoal_move *m = NULL;
	struct mdp_wgoal_view v;
	struct env e;

	(void)state;
	env_setup(&e);
	e.a.cur[MDP_T_SYNC_SPEED_MAX] =
	    (struct mdp_cur){.present = true, .val = {MDP_V_SYSTEM, 200000}};
	stat_md(&e, 1000, 5000);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	e.a.cur[MDP_T_SYNC_SPEED_MIN].val = (struct mdp_value){MDP_V_NUM, 10000};
	/* 100 requests of 200 ms */
	stat_md(&e, 1100, 25000);
	assert_int_equal(look(&e, true, &m), 1);
	assert_true(m[0].write);
	assert_int_equal(m[0].t, MDP_T_SYNC_SPEED_MAX);
	assert_int_equal(m[0].to, 50000);
	assert_string_equal(m[0].line, "md3: maximum 200000 -> 50000 KiB/s (latency 200.0 ms > "
				       "goal 20 ms, from md3's own counters)");
	free(m);
	e.a.cur[MDP_T_SYNC_SPEED_MAX].val = (struct mdp_value){MDP_V_NUM, 10000};
	stat_md(&e, 1200, 45000);
	assert_int_equal(look(&e, true, &m), 1);
	assert_false(m[0].write);
	assert_string_equal(
	    m[0].line, "md3: goal 20 ms missed (latency 200.0 ms, from md3's own counters) with "
		       "nothing left to give: minimum 10000 KiB/s and maximum 10000 KiB/s at the "
		       "goal's floor");
	free(m);
	stat_md(&e, 1300, 65000);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_int_equal(mdp_wgoal_store(&e.r, &e.g), 0);
	assert_int_equal(mdp_wgoal_load(&e.r, &v), 0);
	assert_int_equal(v.v[0].max, 10000);
	assert_true(v.v[0].spent);
	/* 18 ms, in the band: not missed now, and nothing said; over again: still the same
	 * episode (no limit moved), not said again */
	stat_md(&e, 1400, 66800);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_false(mdp_wgoal_find(&e.g, "md3")->spent);
	stat_md(&e, 1500, 86800);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_true(mdp_wgoal_find(&e.g, "md3")->spent);
	/* 4 ms: after the wait the maximum goes up, the episode is over; over at the floors
	 * again later (the raise not written here) is a new one, said */
	{
		unsigned ios = 1500, ms = 86800;
		size_t got = 0;
		for (unsigned i = 0; i <= MDP_GOAL_HOLD_LOOKS && !got; i++) {
			stat_md(&e, ios += 100, ms += 400);
			if ((got = look(&e, true, &m)))
				assert_int_equal(m[0].t, MDP_T_SYNC_SPEED_MAX);
			free(m);
		}
		assert_int_equal(got, 1);
		stat_md(&e, ios + 100, ms + 20000);
	}
	assert_int_equal(look(&e, true, &m), 1);
	assert_false(m[0].write);
	free(m);
	env_teardown(&e);
}

MDP_TEST_MAIN(test_steps, test_new_layer, test_own_reads_taken_out, test_view_refused,
	      test_max_and_spent)
