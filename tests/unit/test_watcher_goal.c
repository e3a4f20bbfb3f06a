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
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"
#include "watcher_goal.h"
#include "watcher_int.h"

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

/*
 * On DSM's layout (ds-dsm6-reshape: md0, md1, md2 on every disk, md3 on
 * sda, sdb, sdd, and here sdb3, a partition no array uses) md3's goal sees
 * every source on its disks, and the slowest steers: md0's readers first,
 * then sdb3's; the move's line, the sample and status's view say whose.
 */
static void dsm_setup(struct env *e)
{
	struct mdp_diags d;

	memset(e, 0, sizeof(*e));
	snprintf(e->dir, sizeof(e->dir), "/tmp/mdp-wgoal-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	test_sh("cp -R '%s/tests/fixtures/ds-dsm6-reshape/.' '%s' && cd '%s' && mkdir -p "
		"run/mdprofile sys/block/sdb/sdb3 && echo 3 >sys/block/sdb/sdb3/partition && "
		"echo '300000 (system)' >sys/block/md3/md/sync_speed_min && echo 200000 "
		">sys/block/md3/md/sync_speed",
		getenv("MDP_SRCDIR"), e->dir, e->dir);
	assert_int_equal(mdp_root_init(&e->r, e->dir), 0);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover_some(&e->r, MDP_SKIP_UUID, &e->s, &d), 0);
	mdp_diags_free(&d);
	e->g.goal_ms = 20;
}

/* IOS requests of TICKS ms in all through the block device at PATH below /sys/block. */
static void stat_at(struct env *e, const char *path, unsigned ios, unsigned ticks)
{
	test_sh("echo '%u 0 0 %u 0 0 0 0 0 0 0' >'%s/sys/block/%s/stat'", ios, ticks, e->dir, path);
}

static size_t look_md3(struct env *e, struct mdp_wgoal_move **m)
{
	bool on[4] = {false, false, false, true};
	size_t n;

	assert_string_equal(e->s.arrays[3].name, "md3");
	assert_int_equal(mdp_wgoal_look(&e->g, 100, &e->r, &e->s, on, m, &n), 0);
	return n;
}

static void test_shared_disks(void **state)
{
	struct mdp_wgoal_move *m = NULL;
	const struct mdp_wgoal_arr *ga;
	struct mdp_wgoal_view v;
	struct env e;

	(void)state;
	dsm_setup(&e);
	stat_at(&e, "md3", 1000, 5000);
	stat_at(&e, "md0", 100, 1000);
	stat_at(&e, "sdb/sdb3", 50, 100);
	assert_int_equal(look_md3(&e, &m), 0);
	free(m);
	assert_non_null(ga = mdp_wgoal_find(&e.g, "md3"));
	assert_int_equal(ga->n_peers, 4); /* md0, md1, md2, sdb3 */
	/* md3's readers at 10 ms, md0's at 40, sdb3's at 30: md0 steers */
	stat_at(&e, "md3", 1010, 5100);
	stat_at(&e, "md0", 105, 1200);
	stat_at(&e, "sdb/sdb3", 60, 400);
	assert_int_equal(look_md3(&e, &m), 1);
	assert_string_equal(m[0].line, "md3: minimum 300000 -> 100000 KiB/s (latency 40.0 ms > "
				       "goal 20 ms, on md0 (shares sda, sdb, sdd))");
	mdp_wgoal_moved(&e.g, &m[0]);
	free(m);
	e.s.arrays[3].cur[MDP_T_SYNC_SPEED_MIN].val = (struct mdp_value){MDP_V_NUM, 100000};
	assert_int_equal(ga->in.latency_us, 40000);
	assert_int_equal(ga->src, MDP_IO_MD);
	assert_string_equal(ga->on, "md0");
	assert_string_equal(ga->shares, "sda,sdb,sdd");
	assert_int_equal(mdp_wgoal_store(&e.r, &e.g), 0);
	assert_int_equal(mdp_wgoal_load(&e.r, &v), 0);
	assert_int_equal(v.n, 1);
	assert_string_equal(v.v[0].on, "md0");
	assert_string_equal(v.v[0].shares, "sda,sdb,sdd");
	assert_int_equal(v.v[0].in.latency_us, 40000);
	/* then only sdb3's, at 25 ms: it steers, from its own counters */
	stat_at(&e, "sdb/sdb3", 70, 650);
	(void)look_md3(&e, &m);
	free(m);
	assert_int_equal(ga->in.latency_us, 25000);
	assert_int_equal(ga->src, MDP_IO_PART);
	assert_string_equal(ga->on, "sdb3");
	assert_string_equal(ga->shares, "sdb");
	/* md3's own the slowest again: its own */
	stat_at(&e, "md3", 1020, 5400);
	stat_at(&e, "sdb/sdb3", 80, 700);
	(void)look_md3(&e, &m);
	free(m);
	assert_int_equal(ga->in.latency_us, 30000);
	assert_string_equal(ga->on, "");
	assert_int_equal(mdp_wgoal_store(&e.r, &e.g), 0);
	assert_int_equal(mdp_wgoal_load(&e.r, &v), 0);
	assert_string_equal(v.v[0].on, "");
	/* nothing anywhere: no foreground I/O, the profile's minimum */
	assert_int_equal(look_md3(&e, &m), 1);
	assert_string_equal(m[0].line, "md3: minimum 100000 -> 300000 KiB/s (no foreground I/O)");
	free(m);
	mdp_system_free(&e.s);
	env_teardown(&e);
}

/* The timed reads' device and read for test_percentile: /dev/null, each read slow_ms long. */
static unsigned slow_ms;

static int open_null(const struct mdp_root *r, const char *sys)
{
	(void)r;
	(void)sys;
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static ssize_t slow_read(int fd, void *buf, size_t len, off_t at)
{
	struct timespec t = {0, (long)slow_ms * 1000000L};

	(void)fd;
	(void)buf;
	(void)at;
	nanosleep(&t, NULL);
	return (ssize_t)len;
}

/*
 * A percentile goal judges md3 by the watcher's timed reads, taken at every
 * look with requests through it even where md times them: the requests'
 * mean of 1 ms hides reads of 25 ms, which back the minimum off; the mean
 * goal does not see them. A look with no request through the array empties
 * the window. Status's view carries the percentile and the reads.
 */
static void test_percentile(void **state)
{
	struct mdp_wgoal_move *m = NULL;
	const struct mdp_wgoal_arr *ga;
	struct mdp_wgoal_view v;
	struct env e;

	(void)state;
	slow_ms = 25;
	for (unsigned pct = 0; pct <= 95; pct += 95) {
		env_setup(&e);
		e.a.size_kib = 1024;
		e.g.pct = pct;
		e.g.t_open = open_null;
		e.g.t_read = slow_read;
		stat_md(&e, 1000, 1000);
		assert_int_equal(look(&e, true, &m), 0);
		free(m);
		stat_md(&e, 1100, 1100); /* 100 requests of 1 ms */
		if (!pct) {              /* the mean: under the goal, no reads of its own */
			assert_int_equal(look(&e, true, &m), 0);
			free(m);
			assert_int_equal(mdp_wgoal_find(&e.g, "md3")->win.n, 0);
			env_teardown(&e);
			continue;
		}
		assert_int_equal(look(&e, true, &m), 1);
		assert_non_null(ga = mdp_wgoal_find(&e.g, "md3"));
		assert_int_equal(ga->win.n, MDP_IOSTAT_TIMED_READS);
		assert_int_equal(ga->src, MDP_IO_TIMED);
		assert_true(ga->pct_us >= 25000 && ga->in.latency_us == ga->pct_us);
		/* cut by goal / latency: reads of 25 ms or more, at most to a quarter */
		assert_true(m[0].to >= 75000 && m[0].to <= 240000);
		assert_non_null(strstr(m[0].line,
				       " > goal 20 ms, p95 of the watcher's last 3 timed "
				       "reads)"));
		free(m);
		assert_int_equal(mdp_wgoal_store(&e.r, &e.g), 0);
		assert_int_equal(mdp_wgoal_load(&e.r, &v), 0);
		assert_int_equal(v.pct, 95);
		assert_int_equal(v.v[0].pct_reads, 3);
		assert_int_equal(v.v[0].pct_us, ga->pct_us);
		/* only its own reads since: idle, the window emptied */
		stat_md(&e, 1100 + MDP_IOSTAT_TIMED_READS, 1200);
		(void)look(&e, true, &m);
		free(m);
		assert_int_equal(ga->in.kind, MDP_GOAL_IDLE);
		assert_int_equal(ga->win.n, 0);
		env_teardown(&e);
	}
}

/*
 * The fullest file the watcher writes reads back: MDP_WGOAL_VIEW_MAX arrays,
 * each with the longest names, a peer's line with the most disks it keeps,
 * and a percentile's line.
 */
static void test_view_full(void **state)
{
	struct mdp_wgoal_view *v = malloc(sizeof(*v));
	struct env e;

	(void)state;
	assert_non_null(v);
	env_setup(&e);
	e.g.pct = 99;
	assert_non_null(e.g.v = calloc(MDP_WGOAL_VIEW_MAX, sizeof(*e.g.v)));
	e.g.n = MDP_WGOAL_VIEW_MAX;
	for (size_t i = 0; i < e.g.n; i++) {
		struct mdp_wgoal_arr *a = &e.g.v[i];
		snprintf(a->name, sizeof(a->name), "md%029zu", i);
		memset(a->on, 'p', sizeof(a->on) - 1);
		for (size_t k = 0; k + 31 < sizeof(a->shares); k += 32)
			snprintf(a->shares + k, sizeof(a->shares) - k, "%s%030zu", k ? "," : "d",
				 k);
		a->in =
		    (struct mdp_goal_sample){.kind = MDP_GOAL_LATENCY, .latency_us = UINT64_MAX};
		a->src = MDP_IO_MEMBERS;
		a->lim.min = a->lim.max = UINT64_MAX; /* and steered, spent: the longest line */
		a->ctl.max_ceiling = UINT64_MAX;
		a->spent = true;
		a->win.n = MDP_IOSTAT_WINDOW;
		a->pct_us = UINT64_MAX;
	}
	assert_int_equal(mdp_wgoal_store(&e.r, &e.g), 0);
	assert_int_equal(mdp_wgoal_load(&e.r, v), 0);
	assert_int_equal(v->n, MDP_WGOAL_VIEW_MAX);
	assert_string_equal(v->v[MDP_WGOAL_VIEW_MAX - 1].shares, e.g.v[0].shares);
	assert_int_equal(v->v[MDP_WGOAL_VIEW_MAX - 1].pct_reads, MDP_IOSTAT_WINDOW);
	free(v);
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
	    /* whose latency: after its array's line, a measured one, names and disks */
	    "mdprofile-goal 1\ngoal 20\non md2 md0 sda\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 idle\non md2 md0 sda\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 latency 9 md\non md3 md0 sda\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 latency 9 md\non md2 ../x sda\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 latency 9 md\non md2 md0 sda,\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 latency 9 md\non md2 md0 sda,,sdb\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 latency 9 md\non md2 md0\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 latency 9 md\non md2 md0 sda x\nend\n",
	    /* a percentile: 50..99 before the arrays; a tail after its array, under one */
	    "mdprofile-goal 1\ngoal 20\npercentile 100\nend\n",
	    "mdprofile-goal 1\npercentile 95\ngoal 20\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 idle\npercentile 95\nend\n",
	    "mdprofile-goal 1\ngoal 20\narray md2 5 latency 9 probe\ntail md2 9 3\nend\n",
	    "mdprofile-goal 1\ngoal 20\npercentile 95\narray md2 5 latency 9 probe\ntail md2 9 "
	    "33\nend\n",
	    "mdprofile-goal 1\ngoal 20\npercentile 95\narray md2 5 latency 9 probe\ntail md3 9 "
	    "3\nend\n",
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
	{
		char text[] = "mdprofile-goal 1\ngoal 20\npercentile 95\narray md2 5 latency 9000 "
			      "probe\ntail md2 9000 32\narray md3 7 latency 8000 md\non md3 sdb3 "
			      "sdb\nend\n";
		assert_int_equal(mdp_wgoal_parse(text, &v), 0);
		assert_int_equal(v.pct, 95);
		assert_int_equal(v.v[0].pct_us, 9000);
		assert_int_equal(v.v[0].pct_reads, 32);
		assert_int_equal(v.v[1].pct_reads, 0);
		assert_string_equal(v.v[1].on, "sdb3");
		assert_string_equal(v.v[1].shares, "sdb");
	}
}

/*
 * md3's maximum ("200000 (system)", the sysctl's) steered once its minimum
 * is at its floor and a second look in a row is over the goal: a move of
 * the maximum; at both floors the goal missed
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
	/* 100 requests of 200 ms: a first look over at the floor moves and says nothing (one
	 * look's mean caps no rebuild, goal.h); the second in a row lowers the maximum */
	stat_md(&e, 1100, 25000);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_false(mdp_wgoal_find(&e.g, "md3")->spent);
	stat_md(&e, 1200, 45000);
	assert_int_equal(look(&e, true, &m), 1);
	assert_true(m[0].write);
	assert_int_equal(m[0].t, MDP_T_SYNC_SPEED_MAX);
	assert_int_equal(m[0].to, 50000);
	assert_string_equal(m[0].line, "md3: maximum 200000 -> 50000 KiB/s (latency 200.0 ms > "
				       "goal 20 ms, from md3's own counters)");
	free(m);
	e.a.cur[MDP_T_SYNC_SPEED_MAX].val = (struct mdp_value){MDP_V_NUM, 10000};
	stat_md(&e, 1300, 65000);
	assert_int_equal(look(&e, true, &m), 1);
	assert_false(m[0].write);
	assert_string_equal(
	    m[0].line, "md3: goal 20 ms missed (latency 200.0 ms, from md3's own counters) with "
		       "nothing left to give: minimum 10000 KiB/s and maximum 10000 KiB/s at the "
		       "goal's floor");
	free(m);
	stat_md(&e, 1400, 85000);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_int_equal(mdp_wgoal_store(&e.r, &e.g), 0);
	assert_int_equal(mdp_wgoal_load(&e.r, &v), 0);
	assert_int_equal(v.v[0].max, 10000);
	assert_true(v.v[0].spent);
	/* 18 ms, in the band: not missed now, and nothing said; over again: still the same
	 * episode (no limit moved), not said again */
	stat_md(&e, 1500, 86800);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_false(mdp_wgoal_find(&e.g, "md3")->spent);
	stat_md(&e, 1600, 106800);
	assert_int_equal(look(&e, true, &m), 0);
	free(m);
	assert_true(mdp_wgoal_find(&e.g, "md3")->spent);
	/* 4 ms: after the wait the maximum goes up, the episode is over; over at the floors
	 * again later (the raise not written here) is a new one, said */
	{
		unsigned ios = 1600, ms = 106800;
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

MDP_TEST_MAIN(test_steps, test_new_layer, test_own_reads_taken_out, test_shared_disks,
	      test_percentile, test_view_full, test_view_refused, test_max_and_spent)
