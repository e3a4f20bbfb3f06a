/*
 * test_explain_run: what explain does around its rules (explain_run.h), on copies of the
 * fixture pair tests/fixtures/explain/cpu (md2 recovering at 40000 KiB/s a disk, a replay of
 * 10 s). --probe's A/B/A windows over a replay's /.explain/2..5 (as case 147 makes them): the
 * speeds each measured, the operation's end, the apply and revert through the caller's ops
 * whatever happens between (a window that cannot be read, a stop signal, a failed apply or
 * revert); the shipped profiles as apply would take them on the box, refused where the plan
 * refuses; a replay's SMART answers from its capture, recorded again into a new one.
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

#include <cmocka.h>

#include "explain_run.h"
#include "support.h"
#include "explain_int.h"

struct tree {
	char dir[64], root_dir[128];
	struct mdp_root root;
	struct mdp_diags unread;
};

/* A copy of tests/fixtures/explain/NAME to change, as root t->root. */
static void tree_init(struct tree *t, const char *name)
{
	const char *src = getenv("MDP_SRCDIR");

	snprintf(t->dir, sizeof(t->dir), "/tmp/mdp-xrun-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->root_dir, sizeof(t->root_dir), "%s/root", t->dir);
	test_sh("cp -a '%s/tests/fixtures/explain/%s' %s", src ? src : ".", name, t->root_dir);
	mdp_diags_init(&t->unread);
}

static void tree_open(struct tree *t)
{
	assert_int_equal(mdp_root_init(&t->root, t->root_dir), 0);
}

static void tree_fini(struct tree *t)
{
	mdp_root_fini(&t->root);
	mdp_diags_free(&t->unread);
	test_sh("rm -rf %s", t->dir);
}

/* The replay's /.explain/n: /.explain/1 with md2's recovery at done KiB (as case 147's). */
static void probe_sample(const struct tree *t, unsigned n, unsigned long done)
{
	test_sh("cd %s/.explain && rm -rf %u && cp -a 1 %u && "
		"sed -i 's|(431400000/|(%lu/|' %u/proc/mdstat",
		t->root_dir, n, n, done, n);
}

/* The windows of case 147: B 58000 KiB/s, the second A 41000 over 10 s each. */
static void probe_samples(const struct tree *t)
{
	probe_sample(t, 2, 431400000);
	probe_sample(t, 3, 431980000);
	probe_sample(t, 4, 431980000);
	probe_sample(t, 5, 432390000);
}

/* The caller's transaction: what it was asked, and what it answers. */
struct ops_log {
	unsigned applied, reverted;
	int apply_rc, revert_rc;
	struct mdp_probe_setting set;
};

static int ops_apply(void *arg, const struct mdp_probe_setting *s)
{
	struct ops_log *l = arg;

	l->applied++;
	l->set = *s;
	return l->apply_rc;
}

static int ops_revert(void *arg)
{
	struct ops_log *l = arg;

	l->reverted++;
	return l->revert_rc;
}

/* Stop signals as a test orders them: the n-th question (from 1) is answered sig, the rest 0. */
static unsigned stop_asked, stop_at;
static int stop_sig;

static int stop_requested(void)
{
	return ++stop_asked == stop_at ? stop_sig : 0;
}

static void stop_when(unsigned at, int sig)
{
	stop_asked = 0;
	stop_at = at;
	stop_sig = sig;
}

/* explain's report on md2 as the probe gets it: the first A window, 40000 KiB/s over 10 s. */
static const struct mdp_xreport md2 = {
    .array = "md2", .action = "recover", .speed_kib = 40000, .window_s = 10.0};
static const struct mdp_probe_setting threads = {MDP_T_GROUP_THREAD_CNT, "md2", "4"};

/* Probe md2's group_thread_cnt 4 on t's root; the ops' log in *l (apply_rc, revert_rc set). */
static int probe(struct tree *t, struct ops_log *l, bool stops, struct mdp_probe_out *out)
{
	const struct mdp_xrun x = {.root = &t->root,
				   .interval_ms = 10000,
				   .unreadable = &t->unread,
				   .stop_requested = stops ? stop_requested : NULL};
	const struct mdp_probe_ops ops = {ops_apply, ops_revert, l};

	return mdp_xrun_probe(&x, &md2, &threads, &ops, out);
}

static void test_probe_aba(void **state)
{
	struct tree t;
	struct ops_log l = {0};
	struct mdp_probe_out out;

	(void)state;
	tree_init(&t, "cpu");
	probe_samples(&t);
	tree_open(&t);
	assert_int_equal(probe(&t, &l, false, &out), 0);
	assert_int_equal(l.applied, 1);
	assert_int_equal(l.reverted, 1);
	assert_int_equal(l.set.t, MDP_T_GROUP_THREAD_CNT);
	assert_string_equal(l.set.dev, "md2");
	assert_string_equal(l.set.value, "4");
	assert_int_equal(out.w.a1, 40000);
	assert_int_equal(out.w.b, 58000);
	assert_int_equal(out.w.a2, 41000);
	assert_false(out.w.ended);
	assert_true(out.w.window_s == 10.0);
	assert_int_equal(out.fail.what, MDP_XF_NONE);
	assert_int_equal(out.sig, 0);
	assert_int_equal(out.rc, 0);
	/* judged: B against the A windows' mean 40500, which differ by 1000 */
	assert_true(out.res.valid);
	assert_true(out.res.change > 0.432 && out.res.change < 0.433);
	assert_true(out.res.spread > 0.024 && out.res.spread < 0.025);
	assert_true(out.res.beyond);
	tree_fini(&t);
}

/* The recovery ends in the B window: reverted, no second A window (its samples are gone). */
static void test_probe_ended(void **state)
{
	struct tree t;
	struct ops_log l = {0};
	struct mdp_probe_out out;

	(void)state;
	tree_init(&t, "cpu");
	probe_sample(&t, 2, 431400000);
	probe_sample(&t, 3, 431980000);
	test_sh("cd %s/.explain/3 && echo idle >sys/block/md2/md/sync_action && "
		"sed -i '/recovery =/d' proc/mdstat",
		t.root_dir);
	tree_open(&t);
	assert_int_equal(probe(&t, &l, false, &out), 0);
	assert_int_equal(l.applied, 1);
	assert_int_equal(l.reverted, 1);
	assert_true(out.w.ended);
	assert_int_equal(out.w.a2, 0);
	assert_false(out.res.valid);
	tree_fini(&t);
}

/* A window's sample the replay lacks: -ENOENT naming it, after the revert all the same. */
static void test_probe_sample_missing(void **state)
{
	struct tree t;
	struct ops_log l = {0};
	struct mdp_probe_out out;

	(void)state;
	tree_init(&t, "cpu");
	probe_sample(&t, 2, 431400000);
	tree_open(&t);
	assert_int_equal(probe(&t, &l, false, &out), -ENOENT);
	assert_int_equal(l.reverted, 1);
	assert_int_equal(out.fail.what, MDP_XF_PROBE);
	assert_int_equal(out.fail.n, 3);
	assert_int_equal(out.fail.err, -ENOENT);
	mdp_root_fini(&t.root);

	/* the second A window's: B measured, then the sample 4 is missing */
	probe_samples(&t);
	test_sh("rm -rf %s/.explain/4", t.root_dir);
	tree_open(&t);
	l = (struct ops_log){0};
	assert_int_equal(probe(&t, &l, false, &out), -ENOENT);
	assert_int_equal(l.reverted, 1);
	assert_int_equal(out.w.b, 58000);
	assert_int_equal(out.fail.what, MDP_XF_PROBE);
	assert_int_equal(out.fail.n, 4);
	mdp_root_fini(&t.root);

	/* the replay's elapsed time, read with each window's first sample */
	probe_samples(&t);
	test_sh("rm %s/.explain/elapsed_ms", t.root_dir);
	tree_open(&t);
	l = (struct ops_log){0};
	assert_int_equal(probe(&t, &l, false, &out), -ENOENT);
	assert_int_equal(l.reverted, 1);
	assert_int_equal(out.fail.what, MDP_XF_ELAPSED);
	mdp_root_fini(&t.root);

	/* the B window's /proc/mdstat */
	probe_samples(&t);
	test_sh("echo 10000 >%s/.explain/elapsed_ms && rm %s/proc/mdstat %s/.explain/*/proc/mdstat",
		t.root_dir, t.root_dir, t.root_dir);
	tree_open(&t);
	l = (struct ops_log){0};
	assert_int_equal(probe(&t, &l, false, &out), -ENOENT);
	assert_int_equal(l.reverted, 1);
	assert_int_equal(out.fail.what, MDP_XF_MDSTAT);
	tree_fini(&t);
}

/* A failed apply changes nothing and measures nothing; a failed revert is the caller's code. */
static void test_probe_ops_fail(void **state)
{
	struct tree t;
	struct ops_log l = {.apply_rc = 3};
	struct mdp_probe_out out;

	(void)state;
	tree_init(&t, "cpu");
	tree_open(&t); /* no /.explain/2: a window read would fail otherwise */
	assert_int_equal(probe(&t, &l, false, &out), -ECANCELED);
	assert_int_equal(out.rc, 3);
	assert_int_equal(l.applied, 1);
	assert_int_equal(l.reverted, 0);
	assert_int_equal(out.fail.what, MDP_XF_NONE);
	mdp_root_fini(&t.root);

	probe_samples(&t);
	tree_open(&t);
	l = (struct ops_log){.revert_rc = 4};
	assert_int_equal(probe(&t, &l, false, &out), -ECANCELED);
	assert_int_equal(out.rc, 4);
	assert_int_equal(l.reverted, 1);
	assert_int_equal(out.w.b, 58000);
	assert_int_equal(out.w.a2, 0); /* not measured on settings whose revert failed */
	tree_fini(&t);
}

/* A stop signal before the probe applies nothing; one during a window ends it reverted. */
static void test_probe_stopped(void **state)
{
	struct tree t;
	struct ops_log l = {0};
	struct mdp_probe_out out;

	(void)state;
	tree_init(&t, "cpu");
	probe_samples(&t);
	tree_open(&t);
	stop_when(1, SIGINT);
	assert_int_equal(probe(&t, &l, true, &out), -EINTR);
	assert_int_equal(out.sig, SIGINT);
	assert_int_equal(l.applied, 0);
	assert_int_equal(l.reverted, 0);
	mdp_root_fini(&t.root);

	/* live (no capture): the B window's wait sees SIGTERM at once, no sleep */
	test_sh("rm -rf %s/.explain", t.root_dir);
	tree_open(&t);
	stop_when(2, SIGTERM);
	assert_int_equal(probe(&t, &l, true, &out), -EINTR);
	assert_int_equal(out.sig, SIGTERM);
	assert_int_equal(stop_asked, 2);
	assert_int_equal(l.applied, 1);
	assert_int_equal(l.reverted, 1);
	assert_int_equal(out.w.b, 0);
	tree_fini(&t);
}

/* The shipped profiles explain may recommend, found as apply finds them. */
static void shipped(const struct tree *t, struct mdp_xprofiles *pro)
{
	const char *src = getenv("MDP_SRCDIR");
	char dir[PATH_MAX];
	struct mdp_profile_dirs dirs = {.dirs = {dir}, .n = 1};

	snprintf(dir, sizeof(dir), "%s/profiles", src ? src : ".");
	mdp_xrun_profiles(&t->root, &dirs, pro);
}

static const struct mdp_xprofile *profile(const struct mdp_xprofiles *pro, const char *name)
{
	for (size_t i = 0; i < pro->n; i++)
		if (!strcmp(pro->v[i].name, name))
			return &pro->v[i];
	fail_msg("no profile %s", name);
	return NULL;
}

static void test_profiles(void **state)
{
	struct tree t;
	struct mdp_xprofiles pro;
	const struct mdp_xprofile *b, *f;
	struct mdp_profile_dirs none = {0};

	(void)state;
	tree_init(&t, "floor");
	tree_open(&t);
	shipped(&t, &pro);
	assert_int_equal(pro.n, 3);
	assert_string_equal(pro.v[0].name, "balanced");
	assert_string_equal(pro.v[1].name, "reshape-fast");
	/* the goal profile, offered beside the others by its goal (explain.md, issue 48) */
	assert_string_equal(pro.v[2].name, "responsive");
	assert_int_equal(pro.v[2].goal_ms, 30);
	assert_int_equal(pro.v[0].goal_ms, 0);
	f = profile(&pro, "reshape-fast");
	assert_int_equal(f->min, 300000);
	assert_false(pro.v[0].refused);
	assert_false(f->refused);
	mdp_root_fini(&t.root);

	/* case 162's box: 128 MiB of RAM, balanced's stripe caches above its budget */
	test_sh("printf 'MemTotal: 131072 kB\\nMemAvailable: 65536 kB\\n' >%s/proc/meminfo && "
		"echo 4 >%s/sys/block/md2/md/raid_disks",
		t.root_dir, t.root_dir);
	tree_open(&t);
	shipped(&t, &pro);
	assert_int_equal(pro.n, 3);
	b = profile(&pro, "balanced");
	assert_true(b->refused);
	assert_string_equal(b->why, "stripe caches would use 32 MiB (md2 32 MiB), above the memory "
				    "budget of 12 MiB (10% of 128 MiB RAM)");
	assert_false(profile(&pro, "reshape-fast")->refused);
	mdp_root_fini(&t.root);

	/* a system that cannot be read (/sys/block no folder) refuses nothing; a profile not found
	 * is left out */
	test_sh("rm -r %s/sys/block && : >%s/sys/block", t.root_dir, t.root_dir);
	tree_open(&t);
	shipped(&t, &pro);
	assert_int_equal(pro.n, 3);
	assert_false(profile(&pro, "balanced")->refused);
	mdp_xrun_profiles(&t.root, &none, &pro);
	assert_int_equal(pro.n, 0);
	tree_fini(&t);
}

static const struct mdp_xmember *member(const struct mdp_xsample *s, const char *name)
{
	for (size_t i = 0; i < s->n_arrays; i++)
		for (size_t j = 0; j < s->arrays[i].n_members; j++)
			if (!strcmp(s->arrays[i].members[j].name, name))
				return &s->arrays[i].members[j];
	fail_msg("no member %s", name);
	return NULL;
}

static const struct mdp_xcap_file *captured(const struct mdp_xcap *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].path, path))
			return &c->v[i];
	return NULL;
}

/*
 * A replay's SMART: what its capture holds for each member disk of md2 (recovering),
 * recorded into a new capture as it was, its exit status with it. A disk without one is
 * not read.
 */
static void test_smart_replayed(void **state)
{
	struct tree t;
	struct mdp_xcap cap = {0};
	struct mdp_xsample s[2];
	struct mdp_xfail fail;
	const struct mdp_xcap_file *f;
	uint64_t ms;

	(void)state;
	tree_init(&t, "cpu");
	test_sh(
	    "cd %s/.explain && mkdir smart && "
	    "printf 'SMART overall-health self-assessment test result: PASSED\\n' >smart/sda && "
	    "echo 0 >smart/sda.exit && "
	    "printf 'SMART overall-health self-assessment test result: FAILED!\\n' >smart/sdb && "
	    "echo 8 >smart/sdb.exit && : >smart/sdc && echo timeout >smart/sdc.exit",
	    t.root_dir);
	tree_open(&t);
	const struct mdp_xrun x = {.root = &t.root, .unreadable = &t.unread};
	assert_int_equal(mdp_xrun_samples(&x, &cap, s, &ms, &fail), 0);
	assert_int_equal(ms, 10000);
	assert_int_equal(member(&s[1], "sda5")->smart.state, MDP_SMART_READ);
	assert_int_equal(member(&s[1], "sda5")->smart.health, MDP_SMART_PASSED);
	assert_int_equal(member(&s[1], "sdb5")->smart.state, MDP_SMART_READ);
	assert_int_equal(member(&s[1], "sdb5")->smart.health, MDP_SMART_FAILED);
	assert_int_equal(member(&s[1], "sdc5")->smart.state, MDP_SMART_NO_ANSWER);
	assert_int_equal(member(&s[1], "sdd5")->smart.state, MDP_SMART_NOT_READ);
	/* recorded as read, once a disk */
	assert_non_null(f = captured(&cap, "/.explain/smart/sda"));
	assert_int_equal(f->sample, 0);
	assert_non_null(strstr(f->data, "PASSED"));
	assert_non_null(f = captured(&cap, "/.explain/smart/sda.exit"));
	assert_string_equal(f->data, "0\n");
	assert_non_null(f = captured(&cap, "/.explain/smart/sdb.exit"));
	assert_string_equal(f->data, "8\n");
	assert_non_null(f = captured(&cap, "/.explain/smart/sdc.exit"));
	assert_string_equal(f->data, "timeout\n");
	assert_null(captured(&cap, "/.explain/smart/sdd"));
	size_t n = 0;
	for (size_t i = 0; i < cap.n; i++)
		n += !strncmp(cap.v[i].path, "/.explain/smart/", 16);
	assert_int_equal(n, 6);
	mdp_explain_sample_free(&s[0]);
	mdp_explain_sample_free(&s[1]);
	mdp_xcap_free(&cap);
	tree_fini(&t);
}

MDP_TEST_MAIN(test_probe_aba, test_probe_ended, test_probe_sample_missing, test_probe_ops_fail,
	      test_probe_stopped, test_profiles, test_smart_replayed)
