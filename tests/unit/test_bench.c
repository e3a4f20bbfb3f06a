/*
 * Unit tests of bench's measurement runs: the statistics over runs, md's
 * speed sampled from a fixture, the device of a directory, and a
 * comparison's rows in order, ended by a refused apply, a stop asked for
 * or the most profiles one may compare. Windows of 0 s and no settle keep
 * them fast.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench.h"
#include "support.h"
#include "explain_int.h"

static void fixture_root(const char *name, struct mdp_root *r)
{
	const char *src = getenv("MDP_SRCDIR");
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/%s", src ? src : ".", name);
	assert_int_equal(mdp_root_init(r, dir), 0);
}

static void test_stats(void **state)
{
	/* 1 MB in 10, 5 and 20 ms: 100, 200 and 50 MB/s; the reads took no time */
	struct mdp_vb_run v[] = {{10000000, 0}, {5000000, 0}, {20000000, 0}};
	struct mdp_vb b = {.size = 1000000, .v = v, .n = 3};
	struct mdp_bench_stats w = mdp_bench_stats(&b, false), r = mdp_bench_stats(&b, true);

	(void)state;
	assert_float_equal(w.mean, 350.0 / 3, 1e-9);
	assert_float_equal(w.min, 50, 1e-9);
	assert_float_equal(w.max, 200, 1e-9);
	assert_float_equal(w.spread_pct, 150 * 100 / (350.0 / 3), 1e-9);
	assert_float_equal(r.mean, 0, 0);
	assert_float_equal(r.spread_pct, 0, 0);
	b.n = 0;
	w = mdp_bench_stats(&b, false);
	assert_float_equal(w.mean + w.min + w.max + w.spread_pct, 0, 0);
}

static void test_count(void **state)
{
	(void)state;
	assert_int_equal(mdp_bench_count(""), 1);
	assert_int_equal(mdp_bench_count("balanced"), 2);
	assert_int_equal(mdp_bench_count("a,b"), 3);
	assert_int_equal(mdp_bench_count(",a,,b,"), 3);
}

/* md3 of the fixture reshapes at 4687 KiB/s; its other arrays are idle. */
static void test_sample(void **state)
{
	struct mdp_bench_window w = {0};
	struct mdp_root r;

	(void)state;
	fixture_root("ds-dsm6-reshape", &r);
	mdp_bench_sample(&r, &w);
	mdp_bench_sample(&r, &w);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.v[0].array, "md3");
	assert_string_equal(w.v[0].action, "reshape");
	assert_int_equal(w.v[0].n, 2);
	assert_int_equal(w.v[0].sum_kib_s, 2 * 4687);
	assert_int_equal(mdp_bench_sync_kib_s(&w.v[0]), 4687);
	w.v[0].n = 0;
	assert_int_equal(mdp_bench_sync_kib_s(&w.v[0]), 0);
	mdp_root_fini(&r);
}

static void test_device(void **state)
{
	char dir[PATH_MAX], dev[64];
	const char *tmp = getenv("TMPDIR");
	struct mdp_root r;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/mdp-bench.XXXXXX", tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	test_sh("mkdir -p '%s/sys/dev/block' && ln -s ../../devices/virtual/block/md2 "
		"'%s/sys/dev/block/9:2'",
		dir, dir);
	assert_int_equal(mdp_root_init(&r, dir), 0);
	mdp_bench_device(&r, makedev(9, 2), dev, sizeof(dev));
	assert_string_equal(dev, "md2");
	mdp_bench_device(&r, makedev(9, 3), dev, sizeof(dev));
	assert_string_equal(dev, "");
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", dir);
}

/* What the hooks saw, and what they are to do. */
static struct seen {
	char log[512];
	int stop_after; /* stop_requested: a signal from its call number stop_after (0: never) */
	int stop_calls;
	const char *refuse; /* apply refuses this name */
} seen;

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	size_t o = strlen(seen.log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(seen.log + o, sizeof(seen.log) - o, fmt, ap);
	va_end(ap);
}

static int stop_hook(void)
{
	seen.stop_calls++;
	return seen.stop_after && seen.stop_calls >= seen.stop_after ? SIGTERM : 0;
}

static void begin_hook(void *arg, const struct mdp_bench_row *r, unsigned idx, unsigned n)
{
	(void)arg;
	logf_("begin %s %u/%u;", r->profile, idx, n);
}

static void tick_hook(void *arg, unsigned second, unsigned seconds,
		      const struct mdp_bench_window *w)
{
	(void)arg;
	(void)w;
	logf_("tick %u/%u;", second, seconds);
}

static void done_hook(void *arg, const struct mdp_bench_row *r, struct mdp_diags *d)
{
	(void)arg;
	logf_("done %s;", r ? r->profile : "window");
	assert_true(!r == !d);
}

static int apply_hook(void *arg, const char *name, struct mdp_bench_row *r)
{
	(void)arg;
	logf_("apply %s;", name);
	if (seen.refuse && !strcmp(name, seen.refuse))
		return 2;
	snprintf(r->profile, sizeof(r->profile), "p-%s", name);
	return 0;
}

/* md's speed only, windows of 0 s: no sleep. */
static struct mdp_bench op_only(const struct mdp_root *r)
{
	memset(&seen, 0, sizeof(seen));
	return (struct mdp_bench){
	    r,    NULL, 0, 0, {stop_hook, begin_hook, tick_hook, NULL, done_hook, apply_hook, NULL},
	    NULL, NULL};
}

static void test_compare_volume(void **state)
{
	char dir[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	struct mdp_vb proto = {.size = 1u << 20, .runs = 1};
	struct mdp_bench_cmp c;
	struct mdp_root r;
	struct mdp_bench b;

	(void)state;
	fixture_root("ds-dsm6-reshape", &r);
	snprintf(dir, sizeof(dir), "%s/mdp-bench.XXXXXX", tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	proto.dir = dir;
	b = op_only(&r);
	b.proto = &proto;
	assert_int_equal(mdp_bench_compare(&b, "a,,b", &c), 0);
	assert_string_equal(seen.log, "begin current 1/3;done current;"
				      "apply a;begin p-a 2/3;done window;done p-a;"
				      "apply b;begin p-b 3/3;done window;done p-b;");
	assert_int_equal(c.n, 3);
	assert_int_equal(c.stop_signal, 0);
	assert_int_equal(c.apply_rc, 0);
	assert_true(c.rows[0].current);
	assert_false(c.rows[1].current);
	for (size_t i = 0; i < c.n; i++) {
		assert_int_equal(c.rows[i].vb.n, 1);
		assert_int_equal(c.rows[i].w.n, 1); /* md3, sampled before and after */
		assert_int_equal(c.rows[i].w.v[0].n, 2);
	}
	mdp_bench_cmp_free(&c);
	assert_null(c.rows);
	test_sh("rmdir '%s'", dir); /* nothing left in it */
	mdp_root_fini(&r);
}

static void test_compare_ends(void **state)
{
	struct mdp_bench_cmp c;
	struct mdp_root r;
	struct mdp_bench b;

	(void)state;
	fixture_root("ds-dsm6-reshape", &r);
	/* a refused apply ends it: the rows before it stand */
	b = op_only(&r);
	seen.refuse = "b";
	assert_int_equal(mdp_bench_compare(&b, "a,b,c", &c), 0);
	assert_string_equal(seen.log, "begin current 1/4;done window;"
				      "apply a;begin p-a 2/4;done window;done window;apply b;");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.apply_rc, 2);
	assert_string_equal(c.rows[1].profile, "p-a");
	mdp_bench_cmp_free(&c);
	/* a stop asked for during the first row: nothing applied */
	b = op_only(&r);
	seen.stop_after = 1;
	assert_int_equal(mdp_bench_compare(&b, "a", &c), 0);
	assert_string_equal(seen.log, "begin current 1/2;done window;");
	assert_int_equal(c.n, 0);
	assert_int_equal(c.stop_signal, SIGTERM);
	mdp_bench_cmp_free(&c);
	/* at most MDP_BENCH_MAX_COMPARE profiles */
	b = op_only(&r);
	assert_int_equal(mdp_bench_compare(&b, "a,b,c,d,e,f,g,h,i,j", &c), 0);
	assert_int_equal(c.n, MDP_BENCH_MAX_COMPARE + 1);
	assert_string_equal(c.rows[MDP_BENCH_MAX_COMPARE].profile, "p-h");
	assert_null(strstr(seen.log, "apply i"));
	mdp_bench_cmp_free(&c);
	/* no way to apply */
	b = op_only(&r);
	b.hooks.apply = NULL;
	assert_int_equal(mdp_bench_compare(&b, "a", &c), -EINVAL);
	mdp_bench_cmp_free(&c);
	mdp_root_fini(&r);
}

/* A window ends at once when asked to stop, the done hook called all the same. */
static void test_window_stop(void **state)
{
	struct mdp_bench_window w = {0};
	struct mdp_root r;
	struct mdp_bench b;

	(void)state;
	fixture_root("ds-dsm6-reshape", &r);
	b = op_only(&r);
	seen.stop_after = 1;
	assert_int_equal(mdp_bench_window(&b, 30, &w), SIGTERM);
	assert_string_equal(seen.log, "done window;");
	assert_int_equal(w.n, 0);
	b = op_only(&r);
	assert_int_equal(mdp_bench_window(&b, 0, &w), 0);
	assert_int_equal(seen.stop_calls, 1);
	mdp_root_fini(&r);
}

MDP_TEST_MAIN(test_stats, test_count, test_sample, test_device, test_compare_volume,
	      test_compare_ends, test_window_stop)
