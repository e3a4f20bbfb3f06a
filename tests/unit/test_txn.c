/*
 * test_txn: the transaction invariants under fault injection.
 *
 * Every test works on a fresh copy of the DSM 6 DiskStation fixture and a
 * profile built in memory (the loader has its own tests). Faults come in
 * through the root's ops table: fail the k-th write, fsync or rename, or
 * clamp a write the way a kernel short of memory does.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "discover.h"
#include "plan.h"
#include "profile.h"
#include "services.h"
#include "support.h"
#include "txn.h"
#include "txn_int.h"

enum fkind { F_NONE, F_WRITE, F_WRITE_FROM, F_FSYNC, F_RENAME, F_CLAMP };

/* Wraps the root's ops (the fixture's) and calls them, as the CLI's fault seam does. */
struct faults {
	struct mdp_root_ops ops;
	const struct mdp_root_ops *inner;
	enum fkind kind;
	unsigned k;
	int err; /* what a failing operation returns; 0: -EIO */
	unsigned writes, fsyncs, renames;
};

static struct faults *faults_of(const struct mdp_root_ops *self)
{
	return (struct faults *)(void *)((char *)(uintptr_t)self - offsetof(struct faults, ops));
}

static int f_err(const struct faults *f)
{
	return f->err ? f->err : -EIO;
}

static int f_write(const struct mdp_root_ops *self, const struct mdp_root *r, const char *sys,
		   const char *data, size_t len)
{
	struct faults *f = faults_of(self);

	f->writes++;
	if (f->kind == F_WRITE && f->writes == f->k)
		return f_err(f);
	if (f->kind == F_WRITE_FROM && f->writes >= f->k)
		return f_err(f); /* the disk went away: the undo fails too */
	if (f->kind == F_CLAMP && f->writes == f->k) {
		char half[32];
		snprintf(half, sizeof(half), "%llu\n", strtoull(data, NULL, 10) / 2);
		return f->inner->write(f->inner, r, sys, half, strlen(half));
	}
	return f->inner->write(f->inner, r, sys, data, len);
}

static int f_fsync(const struct mdp_root_ops *self, const struct mdp_root *r, int fd)
{
	struct faults *f = faults_of(self);

	if (f->kind == F_FSYNC && ++f->fsyncs == f->k)
		return f_err(f);
	if (f->kind != F_FSYNC)
		f->fsyncs++;
	return f->inner->fsync(f->inner, r, fd);
}

static int f_rename(const struct mdp_root_ops *self, const struct mdp_root *r, const char *from,
		    const char *to)
{
	struct faults *f = faults_of(self);

	if (f->kind == F_RENAME && ++f->renames == f->k)
		return f_err(f);
	if (f->kind != F_RENAME)
		f->renames++;
	return f->inner->rename(f->inner, r, from, to);
}

struct env {
	char dir[64]; /* temp dir holding root/ and snap/ */
	char root[128];
	struct mdp_root r;
	struct faults f;
};

/* The value in the fixture's PATH is WANT. */
static void value_is(struct env *e, const char *path, const char *want)
{
	char buf[64];

	assert_true(mdp_root_read_value(&e->r, path, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, want);
}

static void env_setup(struct env *e, const char *fixture)
{
	const char *src = getenv("MDP_SRCDIR");

	snprintf(e->dir, sizeof(e->dir), "/tmp/mdp-txn-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	snprintf(e->root, sizeof(e->root), "%s/root", e->dir);
	test_sh("cp -a '%s/tests/fixtures/%s' '%s' && cp -a '%s' '%s/snap'", src ? src : ".",
		fixture, e->root, e->root, e->dir);
	assert_int_equal(mdp_root_init(&e->r, e->root), 0);
	memset(&e->f, 0, sizeof(e->f));
	e->f.ops = (struct mdp_root_ops){f_write, f_fsync, f_rename};
	e->f.inner = e->r.ops;
	e->r.ops = &e->f.ops;
}

static void env_teardown(struct env *e)
{
	mdp_root_fini(&e->r);
	test_sh("rm -rf '%s'", e->dir);
}

/* The fixture's system files equal the snapshot; mdprofile's lock is its own. */
static int env_identical(struct env *e)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd),
		 "rm -f '%s/run/mdprofile/lock'; rmdir '%s/run/mdprofile' '%s/run' 2>/dev/null;"
		 " diff -r '%s/snap' '%s' >/dev/null",
		 e->root, e->root, e->root, e->dir, e->root);
	return system(cmd) == 0;
}

/* A profile touching globals, every raid5 tunable and member disks. */
static void profile_fast(struct mdp_profile *p, uint64_t stripes)
{
	static struct mdp_rule rule;

	memset(p, 0, sizeof(*p));
	memset(&rule, 0, sizeof(rule));
	p->name = "fast";
	p->path = "fast.yaml";
	p->budget = (struct mdp_budget){MDP_BUDGET_PERCENT, 50, {0}};
	p->global[MDP_T_SPEED_LIMIT_MIN] =
	    (struct mdp_setting){.kind = MDP_S_NUM, .num = 100000, .pos = {0}};
	p->global[MDP_T_SPEED_LIMIT_MAX] =
	    (struct mdp_setting){.kind = MDP_S_NUM, .num = 500000, .pos = {0}};
	rule.match.all = true;
	rule.set[MDP_T_STRIPE_CACHE_SIZE] =
	    (struct mdp_setting){.kind = MDP_S_NUM, .num = stripes, .pos = {0}};
	rule.set[MDP_T_SYNC_SPEED_MIN] =
	    (struct mdp_setting){.kind = MDP_S_NUM, .num = 50000, .pos = {0}};
	rule.set[MDP_T_READ_AHEAD_KB] =
	    (struct mdp_setting){.kind = MDP_S_NUM, .num = 32768, .pos = {0}};
	rule.set[MDP_T_MEMBER_READ_AHEAD_KB] =
	    (struct mdp_setting){.kind = MDP_S_NUM, .num = 1024, .pos = {0}};
	p->rules = &rule;
	p->n_rules = 1;
}

/* A second profile that overlaps the first only partly. */
static void profile_other(struct mdp_profile *p)
{
	static struct mdp_rule rule;

	memset(p, 0, sizeof(*p));
	memset(&rule, 0, sizeof(rule));
	p->name = "other";
	p->path = "other.yaml";
	p->global[MDP_T_SPEED_LIMIT_MIN] =
	    (struct mdp_setting){.kind = MDP_S_NUM, .num = 20000, .pos = {0}};
	rule.match.all = true;
	rule.set[MDP_T_STRIPE_CACHE_SIZE] =
	    (struct mdp_setting){.kind = MDP_S_NUM, .num = 1024, .pos = {0}};
	p->rules = &rule;
	p->n_rules = 1;
}

/*
 * Every result the tests see has one shape: an errno (negative) only with
 * MDP_TXN_ERROR, and MDP_TXN_ERROR only with one. A -errno read as a result
 * or a result read as an errno breaks it.
 */
static struct mdp_txn_rc shaped(struct mdp_txn_rc rc)
{
	if (rc.res == MDP_TXN_ERROR)
		assert_true(rc.err < 0);
	else
		assert_int_equal(rc.err, 0);
	assert_in_range(rc.res, MDP_TXN_OK, MDP_TXN_PARTIAL);
	return rc;
}

static struct mdp_txn_rc run_apply_as(struct env *e, const struct mdp_profile *p,
				      struct mdp_txn_report *rep, bool as_base)
{
	const struct mdp_apply_opts o = {.as_base = as_base};
	struct mdp_applied a;
	struct mdp_diags d;
	struct mdp_txn tx;
	struct mdp_txn_rc rc;
	bool did;

	mdp_diags_init(&d);
	mdp_txn_init(&tx, &e->r, &d, NULL, NULL);
	assert_int_equal(mdp_txn_recover(&tx, &did).res, MDP_TXN_OK);
	mdp_apply(&tx, p, &o, &a);
	assert_int_equal(a.step, MDP_APPLY_TXN);
	rc = shaped(a.rc);
	if (getenv("TXN_DEBUG"))
		for (size_t i = 0; i < d.n; i++)
			fprintf(stderr, "diag: %s\n", d.v[i].msg);
	mdp_applied_free(&a);
	mdp_diags_free(&d);
	if (rep)
		*rep = tx.rep;
	else
		mdp_txn_report_free(&tx.rep);
	return rc;
}

static struct mdp_txn_rc run_apply(struct env *e, const struct mdp_profile *p,
				   struct mdp_txn_report *rep)
{
	return run_apply_as(e, p, rep, false);
}

static struct mdp_txn_rc run_revert_all(struct env *e, bool all)
{
	struct mdp_diags d;
	struct mdp_txn tx = {.root = &e->r, .d = &d};
	struct mdp_txn_rc rc;

	mdp_diags_init(&d);
	rc = shaped(mdp_txn_revert(&tx, all));
	mdp_txn_report_free(&tx.rep);
	mdp_diags_free(&d);
	return rc;
}

static struct mdp_txn_rc run_revert(struct env *e)
{
	return run_revert_all(e, false);
}

/* recover on e; *rep gets the report when rep is set. */
static struct mdp_txn_rc run_recover(struct env *e, bool *did, struct mdp_txn_report *rep)
{
	struct mdp_diags d;
	struct mdp_txn tx = {.root = &e->r, .d = &d};
	struct mdp_txn_rc rc;

	mdp_diags_init(&d);
	rc = shaped(mdp_txn_recover(&tx, did));
	mdp_diags_free(&d);
	if (rep)
		*rep = tx.rep;
	else
		mdp_txn_report_free(&tx.rep);
	return rc;
}

static unsigned count_writes(const struct mdp_profile *p)
{
	struct env e;
	unsigned n;

	env_setup(&e, "ds-dsm6-reshape");
	assert_int_equal(run_apply(&e, p, NULL).res, MDP_TXN_OK);
	n = e.f.writes;
	env_teardown(&e);
	return n;
}

static void test_apply_revert_identical(void **state)
{
	struct mdp_profile p;
	struct mdp_txn_report rep;
	struct env e;

	(void)state;
	profile_fast(&p, 4096);
	env_setup(&e, "ds-dsm6-reshape");
	assert_int_equal(run_apply(&e, &p, &rep).res, MDP_TXN_OK);
	assert_true(rep.n_changes > 5);
	assert_true(mdp_txn_report_changed(&rep));
	mdp_txn_report_free(&rep);
	value_is(&e, "/sys/block/md2/md/stripe_cache_size", "4096");
	value_is(&e, "/sys/block/md3/md/sync_speed_min", "50000 (local)");
	assert_false(env_identical(&e));
	assert_int_equal(run_revert(&e).res, MDP_TXN_OK);
	assert_true(env_identical(&e));
	env_teardown(&e);
}

/* Invariant 4: the k-th operation of a kind misbehaving, for every k, changes nothing. */
static void fail_each(enum fkind kind, unsigned n, const char *what)
{
	struct mdp_profile p;

	profile_fast(&p, 4096);
	for (unsigned k = 1; k <= n; k++) {
		struct env e;
		env_setup(&e, "ds-dsm6-reshape");
		e.f.kind = kind;
		e.f.k = k;
		assert_int_equal(run_apply(&e, &p, NULL).res, MDP_TXN_FAILED);
		if (!env_identical(&e))
			fail_msg("tree changed after %s %u of %u", what, k, n);
		env_teardown(&e);
	}
}

static void test_fail_every_write(void **state)
{
	struct mdp_profile p;
	unsigned n;

	(void)state;
	profile_fast(&p, 4096);
	n = count_writes(&p);
	assert_true(n >= 10);
	fail_each(F_WRITE, n, "failing write");
}

/* The kernel keeping less than asked is a failure, and is rolled back too. */
static void test_clamp_every_write(void **state)
{
	struct mdp_profile p;

	(void)state;
	profile_fast(&p, 4096);
	fail_each(F_CLAMP, count_writes(&p), "clamping write");
}

/* Two journal stores per apply: file + directory fsync each, one rename each. */
static void test_fail_every_fsync(void **state)
{
	(void)state;
	fail_each(F_FSYNC, 4, "failing journal fsync");
}

static void test_fail_every_rename(void **state)
{
	(void)state;
	fail_each(F_RENAME, 2, "failing journal rename");
}

static void test_constant_fsyncs(void **state)
{
	struct mdp_profile p;
	struct env e;

	(void)state;
	profile_fast(&p, 4096);
	env_setup(&e, "ds-dsm6-reshape");
	assert_int_equal(run_apply(&e, &p, NULL).res, MDP_TXN_OK);
	assert_true(e.f.writes >= 10);
	assert_int_equal(e.f.fsyncs, 4);
	assert_int_equal(e.f.renames, 2);
	env_teardown(&e);
}

/* Invariant 2: A -> B (replacing the base) -> revert returns to the values before A. */
static void test_switch_then_revert(void **state)
{
	struct mdp_profile a, b;
	struct env e;

	(void)state;
	profile_fast(&a, 4096);
	env_setup(&e, "ds-dsm6-reshape");
	assert_int_equal(run_apply(&e, &a, NULL).res, MDP_TXN_OK);
	profile_other(&b);
	assert_int_equal(run_apply_as(&e, &b, NULL, true).res, MDP_TXN_OK);
	/* What A changed and B does not mention is back at the baseline. */
	value_is(&e, "/sys/block/md2/queue/read_ahead_kb", "192");
	value_is(&e, "/proc/sys/dev/raid/speed_limit_max", "200000");
	value_is(&e, "/sys/block/md2/md/stripe_cache_size", "1024");
	assert_int_equal(run_revert(&e).res, MDP_TXN_OK);
	assert_true(env_identical(&e));
	env_teardown(&e);
}

/* ---- layers: a base under an overlay ------------------------------------------ */

/* The system files (everything but /run) as they are now, kept as name under the env. */
static void keep_state(struct env *e, const char *name)
{
	test_sh("rm -rf '%s/%s' && mkdir '%s/%s' && cd '%s' && tar -cf - --exclude=./run . | "
		"tar -xf - -C '%s/%s'",
		e->dir, name, e->dir, name, e->root, e->dir, name);
}

static bool same_state(struct env *e, const char *name)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "diff -r -x run '%s/%s' '%s' >/dev/null", e->dir, name, e->root);
	return system(cmd) == 0;
}

static void expect_layers(struct env *e, const char *top, const char *under)
{
	struct mdp_journal j;
	struct mdp_diags d;

	mdp_diags_init(&d);
	assert_int_equal(mdp_journal_load(&e->r, &j, &d), 0);
	assert_int_equal(j.state, MDP_J_ACTIVE);
	assert_string_equal(j.profile, top);
	assert_int_equal(j.has_under, under != NULL);
	if (under)
		assert_string_equal(j.under.profile, under);
	mdp_journal_free(&j);
	mdp_diags_free(&d);
}

/* The base A (profile_other) applied on the DSM 6 fixture; B the overlay (profile_fast). */
static void base_applied(struct env *e, struct mdp_profile *a, struct mdp_profile *b)
{
	profile_other(a);
	profile_fast(b, 4096);
	env_setup(e, "ds-dsm6-reshape");
	assert_int_equal(run_apply(e, a, NULL).res, MDP_TXN_OK);
}

/* A fresh fixture with the base A applied and its state kept as "base". */
static void base_kept(struct env *e, struct mdp_profile *a)
{
	env_setup(e, "ds-dsm6-reshape");
	assert_int_equal(run_apply(e, a, NULL).res, MDP_TXN_OK);
	keep_state(e, "base");
}

/* Revert the overlay over base_applied's base: the base's values; again: the baseline. */
static void revert_overlay_then_base(struct env *e)
{
	assert_int_equal(run_revert_all(e, false).res, MDP_TXN_OK);
	expect_layers(e, "other", NULL);
	assert_true(same_state(e, "base"));
	assert_int_equal(run_revert_all(e, false).res, MDP_TXN_OK);
	assert_true(env_identical(e));
}

/* base, overlay, revert: the base's values; revert again: the baseline. */
static void test_overlay_then_revert(void **state)
{
	struct mdp_profile a, b;
	struct env e;

	(void)state;
	base_applied(&e, &a, &b);
	keep_state(&e, "base");
	assert_int_equal(run_apply(&e, &b, NULL).res, MDP_TXN_OK);
	expect_layers(&e, "fast", "other");
	assert_false(same_state(&e, "base"));
	value_is(&e, "/sys/block/md2/md/stripe_cache_size", "4096");
	/* the same overlay again: nothing new, still one overlay on the base */
	assert_int_equal(run_apply(&e, &b, NULL).res, MDP_TXN_OK);
	expect_layers(&e, "fast", "other");
	revert_overlay_then_base(&e);
	env_teardown(&e);
}

/*
 * A watcher's goal steers a value of its overlay (mdp_txn_steer): the journal
 * follows it (a put-back restores the steered value), a target the layers
 * never set gains its baseline first, and removing the overlay puts back
 * the base's values exactly; mdp_txn_floor says what that puts back.
 */
static void test_steer(void **state)
{
	struct mdp_profile a, b;
	struct mdp_value v = {MDP_V_NUM, 25000};
	struct mdp_diags d;
	struct mdp_txn tx;
	struct env e;

	(void)state;
	base_applied(&e, &a, &b);
	keep_state(&e, "base");
	mdp_diags_init(&d);
	tx = (struct mdp_txn){.root = &e.r, .d = &d};
	/* no layer yet over the base's own targets: the sysctl's floor is the baseline */
	assert_int_equal(mdp_txn_floor(&e.r, MDP_T_SYNC_SPEED_MAX, "md2", &v), -ENOENT);
	assert_int_equal(run_apply(&e, &b, NULL).res, MDP_TXN_OK);
	/* md2's minimum followed the sysctl before: its floor is "system", the sysctl's the base's
	 */
	assert_int_equal(mdp_txn_floor(&e.r, MDP_T_SYNC_SPEED_MIN, "md2", &v), 0);
	assert_int_equal(v.kind, MDP_V_SYSTEM);
	assert_int_equal(mdp_txn_floor(&e.r, MDP_T_SPEED_LIMIT_MIN, "", &v), 0);
	assert_int_equal(v.kind, MDP_V_NUM);
	assert_int_equal(v.num, 20000);
	v = (struct mdp_value){MDP_V_NUM, 25000};
	assert_int_equal(mdp_txn_steer(&tx, MDP_T_SYNC_SPEED_MIN, "md2", &v), 0);
	value_is(&e, "/sys/block/md2/md/sync_speed_min", "25000 (local)");
	assert_int_equal(tx.rep.n_changes, 1);
	assert_int_equal(tx.rep.changes[0].after.num, 25000);
	/* rewritten by someone else: put back to the steered value, not the profile's */
	test_sh("echo 50000 >'%s/sys/block/md2/md/sync_speed_min'", e.root);
	assert_int_equal(mdp_txn_reassert(&tx, MDP_T_SYNC_SPEED_MIN, "md2"), 0);
	value_is(&e, "/sys/block/md2/md/sync_speed_min", "25000 (local)");
	/* a target no layer set: its baseline journaled first */
	v = (struct mdp_value){MDP_V_NUM, 150000};
	assert_int_equal(mdp_txn_steer(&tx, MDP_T_SYNC_SPEED_MAX, "md2", &v), 0);
	assert_int_equal(mdp_txn_floor(&e.r, MDP_T_SYNC_SPEED_MAX, "md2", &v), 0);
	assert_int_equal(v.kind, MDP_V_SYSTEM);
	assert_int_equal(mdp_txn_steer(&tx, MDP_T_SYNC_SPEED_MIN, "md9", &v), -ENODEV);
	mdp_txn_report_free(&tx.rep);
	mdp_diags_free(&d);
	revert_overlay_then_base(&e);
	/* no journal: nothing to steer */
	mdp_diags_init(&d);
	v = (struct mdp_value){MDP_V_NUM, 25000};
	assert_int_equal(mdp_txn_steer(&tx, MDP_T_SYNC_SPEED_MIN, "md2", &v), -ENOENT);
	mdp_txn_report_free(&tx.rep);
	mdp_diags_free(&d);
	env_teardown(&e);
}

/*
 * A goal's layer left by a killed watcher (auto, its lock free): recover
 * puts back what the array had before, the maximum the goal steered
 * included, "N (system)" as it was.
 */
static void test_steer_recover(void **state)
{
	const struct mdp_apply_opts o = {.origin = MDP_BY_AUTO};
	struct mdp_value v = {MDP_V_NUM, 12000};
	struct mdp_profile b;
	struct mdp_applied a;
	struct mdp_diags d;
	struct mdp_txn tx;
	struct env e;
	bool did;

	(void)state;
	profile_fast(&b, 4096);
	env_setup(&e, "ds-dsm6-reshape");
	mdp_diags_init(&d);
	mdp_txn_init(&tx, &e.r, &d, NULL, NULL);
	mdp_apply(&tx, &b, &o, &a);
	assert_int_equal(a.rc.res, MDP_TXN_OK);
	mdp_applied_free(&a);
	/* the profile's sysctl: md2 follows it */
	value_is(&e, "/sys/block/md2/md/sync_speed_max", "500000 (system)");
	assert_int_equal(mdp_txn_steer(&tx, MDP_T_SYNC_SPEED_MAX, "md2", &v), 0);
	value_is(&e, "/sys/block/md2/md/sync_speed_max", "12000 (local)");
	mdp_txn_report_free(&tx.rep);
	mdp_diags_free(&d);
	assert_int_equal(run_recover(&e, &did, NULL).res, MDP_TXN_OK);
	assert_true(did);
	value_is(&e, "/sys/block/md2/md/sync_speed_max", "200000 (system)");
	assert_true(env_identical(&e));
	env_teardown(&e);
}

/* revert --all removes both layers at once; a second overlay replaces the first. */
static void test_overlay_replace_revert_all(void **state)
{
	struct mdp_profile a, b, c;
	struct env e;

	(void)state;
	base_applied(&e, &a, &b);
	keep_state(&e, "base");
	assert_int_equal(run_apply(&e, &b, NULL).res, MDP_TXN_OK);
	profile_fast(&c, 2048);
	c.name = "fast2";
	assert_int_equal(run_apply(&e, &c, NULL).res, MDP_TXN_OK);
	expect_layers(&e, "fast2", "other");
	assert_int_equal(run_revert_all(&e, false).res, MDP_TXN_OK);
	assert_true(same_state(&e, "base"));
	assert_int_equal(run_apply(&e, &b, NULL).res, MDP_TXN_OK);
	assert_int_equal(run_revert_all(&e, true).res, MDP_TXN_OK);
	assert_true(env_identical(&e));
	env_teardown(&e);
}

/* --base over an overlay is refused, changing nothing. */
static void test_base_over_overlay_refused(void **state)
{
	struct mdp_profile a, b;
	struct env e;
	struct mdp_txn_rc rc;

	(void)state;
	base_applied(&e, &a, &b);
	assert_int_equal(run_apply(&e, &b, NULL).res, MDP_TXN_OK);
	keep_state(&e, "both");
	rc = run_apply_as(&e, &a, NULL, true);
	assert_int_equal(rc.res, MDP_TXN_ERROR);
	assert_int_equal(rc.err, -EBUSY);
	assert_true(same_state(&e, "both"));
	expect_layers(&e, "fast", "other");
	env_teardown(&e);
}

/*
 * Every write of an overlay's apply failing, and every write after it
 * failing too (a crash: nothing more gets done), then recover: the base's
 * values, the base still active.
 */
static void test_overlay_fail_and_crash_every_write(void **state)
{
	struct mdp_profile a, b;
	unsigned n, base_writes;
	struct env e;
	bool did;

	(void)state;
	base_applied(&e, &a, &b);
	base_writes = e.f.writes;
	assert_int_equal(run_apply(&e, &b, NULL).res, MDP_TXN_OK);
	n = e.f.writes - base_writes;
	env_teardown(&e);
	assert_true(n >= 8);
	for (unsigned k = 1; k <= n; k++)
		for (int crash = 0; crash < 2; crash++) {
			base_kept(&e, &a);
			e.f.kind = crash ? F_WRITE_FROM : F_WRITE;
			e.f.k = e.f.writes + k;
			assert_int_not_equal(run_apply(&e, &b, NULL).res, MDP_TXN_OK);
			e.f.kind = F_NONE;
			assert_int_equal(run_recover(&e, &did, NULL).res, MDP_TXN_OK);
			if (!same_state(&e, "base"))
				fail_msg("not the base's values after %s %u of %u",
					 crash ? "a crash at write" : "failing write", k, n);
			expect_layers(&e, "other", NULL);
			env_teardown(&e);
		}
}

/* The same for the overlay's revert: a crash at any write, then recover, ends at the base. */
static void test_overlay_revert_crash_every_write(void **state)
{
	struct mdp_profile a, b;
	unsigned n, before;
	struct env e;
	bool did;

	(void)state;
	base_applied(&e, &a, &b);
	assert_int_equal(run_apply(&e, &b, NULL).res, MDP_TXN_OK);
	before = e.f.writes;
	assert_int_equal(run_revert_all(&e, false).res, MDP_TXN_OK);
	n = e.f.writes - before;
	env_teardown(&e);
	assert_true(n >= 5);
	for (unsigned k = 1; k <= n; k++) {
		base_kept(&e, &a);
		assert_int_equal(run_apply(&e, &b, NULL).res, MDP_TXN_OK);
		e.f.kind = F_WRITE_FROM;
		e.f.k = e.f.writes + k;
		assert_int_not_equal(run_revert_all(&e, false).res, MDP_TXN_OK);
		e.f.kind = F_NONE;
		assert_int_equal(run_recover(&e, &did, NULL).res, MDP_TXN_OK);
		assert_true(did);
		if (!same_state(&e, "base"))
			fail_msg("not the base's values after a crash at write %u of %u", k, n);
		expect_layers(&e, "other", NULL);
		env_teardown(&e);
	}
}

/* A failed switch returns to A's state with A still active. */
static void test_failed_switch_keeps_a(void **state)
{
	struct mdp_profile a, b;
	struct mdp_journal j;
	struct mdp_diags d;
	struct env e;

	(void)state;
	profile_fast(&a, 4096);
	profile_other(&b);
	env_setup(&e, "ds-dsm6-reshape");
	assert_int_equal(run_apply(&e, &a, NULL).res, MDP_TXN_OK);
	e.f.kind = F_WRITE;
	e.f.k = e.f.writes + 3;
	assert_int_equal(run_apply_as(&e, &b, NULL, true).res, MDP_TXN_FAILED);
	mdp_diags_init(&d);
	assert_int_equal(mdp_journal_load(&e.r, &j, &d), 0);
	assert_int_equal(j.state, MDP_J_ACTIVE);
	assert_string_equal(j.profile, "fast");
	mdp_journal_free(&j);
	mdp_diags_free(&d);
	value_is(&e, "/sys/block/md2/queue/read_ahead_kb", "32768");
	e.f.kind = F_NONE;
	assert_int_equal(run_revert(&e).res, MDP_TXN_OK);
	assert_true(env_identical(&e));
	env_teardown(&e);
}

/* Invariant 5: a journal from another boot is cleared, the values left alone. */
static void test_stale_journal(void **state)
{
	struct mdp_txn_report rep;
	struct env e;
	const char *text = "mdprofile-journal 1\nstate active\nboot_id 0000-old\nprofile fast\n"
			   "path -\nbase stripe_cache_size md2 \"999\"\nsvc synoindexd paused\n"
			   "end\n";
	bool did;

	(void)state;
	env_setup(&e, "ds-dsm6-reshape");
	assert_int_equal(mdp_root_mkdir_p(&e.r, MDP_STATE_DIR, 0700), 0);
	assert_int_equal(mdp_root_replace(&e.r, MDP_JOURNAL, text, strlen(text), 0600), 0);
	assert_true(mdp_txn_needs_recover(&e.r));
	assert_int_equal(run_recover(&e, &did, &rep).res, MDP_TXN_OK);
	assert_true(did);
	assert_int_equal(rep.n_notes, 1);
	assert_int_equal(rep.notes[0].kind, MDP_TXN_NOTE_STALE);
	assert_string_equal(rep.notes[0].profile, "fast");
	assert_int_equal(rep.n_services, 1);
	assert_string_equal(rep.services[0].name, "synoindexd");
	assert_int_equal(rep.services[0].result, MDP_TXN_SVC_REBOOTED);
	assert_int_equal(rep.n_changes, 0);
	assert_false(mdp_root_exists(&e.r, MDP_JOURNAL));
	assert_true(env_identical(&e)); /* md2's 256 was not touched */
	mdp_txn_report_free(&rep);
	env_teardown(&e);
}

/* An interrupted apply (journal "applying") is undone by recover. */
static void test_recover_interrupted(void **state)
{
	struct mdp_profile p;
	struct env e;
	char boot[64], text[512];
	bool did;

	(void)state;
	profile_fast(&p, 4096);
	env_setup(&e, "ds-dsm6-reshape");
	assert_true(
	    mdp_root_read_value(&e.r, "/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) > 0);
	/* As if killed after journaling and writing md2's stripe cache. */
	snprintf(text, sizeof(text),
		 "mdprofile-journal 1\nstate applying\nboot_id %s\nprofile fast\npath -\n"
		 "base stripe_cache_size md2 \"256\"\nend\n",
		 boot);
	assert_int_equal(mdp_root_mkdir_p(&e.r, MDP_STATE_DIR, 0700), 0);
	assert_int_equal(mdp_root_replace(&e.r, MDP_JOURNAL, text, strlen(text), 0600), 0);
	assert_int_equal(mdp_root_write(&e.r, "/sys/block/md2/md/stripe_cache_size", "4096\n"), 0);
	assert_int_equal(run_recover(&e, &did, NULL).res, MDP_TXN_OK);
	assert_true(did);
	assert_true(env_identical(&e));
	env_teardown(&e);
}

/* Exit 4: the undo itself fails; the report says what is left and how to fix it. */
static void test_rollback_incomplete(void **state)
{
	struct mdp_profile p;
	struct mdp_txn_report rep;
	struct env e;
	bool did;

	(void)state;
	profile_fast(&p, 4096);
	env_setup(&e, "ds-dsm6-reshape");
	e.f.kind = F_WRITE_FROM;
	e.f.k = 3;
	assert_int_equal(run_apply(&e, &p, &rep).res, MDP_TXN_PARTIAL);
	/* Writes 1 and 2 (the two sysctls) succeeded and could not be undone. */
	assert_int_equal(rep.n_left, 2);
	assert_false(rep.left[0].is_service);
	assert_int_equal(rep.left[0].t, MDP_T_SPEED_LIMIT_MAX);
	assert_true(rep.left[0].have_value);
	assert_int_equal(rep.left[0].value.num, 200000);
	assert_string_equal(rep.left[0].fix, "echo 200000 > /proc/sys/dev/raid/speed_limit_max");
	assert_int_equal(rep.left[1].t, MDP_T_SPEED_LIMIT_MIN);
	assert_string_equal(rep.left[1].fix, "echo 10000 > /proc/sys/dev/raid/speed_limit_min");
	/* Nothing this apply did stays done. */
	assert_int_equal(rep.n_changes, 0);
	mdp_txn_report_free(&rep);
	/* The journal is kept, so recover finishes the job once writes work again. */
	assert_true(mdp_txn_needs_recover(&e.r));
	e.f.kind = F_NONE;
	assert_int_equal(run_recover(&e, &did, NULL).res, MDP_TXN_OK);
	assert_true(did);
	assert_true(env_identical(&e));
	env_teardown(&e);
}

static void test_journal_roundtrip(void **state)
{
	struct mdp_jtarget base[2] = {{MDP_T_SPEED_LIMIT_MIN, "", "10000"},
				      {MDP_T_SYNC_SPEED_MIN, "md3", "10000 (system)"}};
	struct mdp_jservice svc[4] = {{"pkgctl-FileStation", true, true, 0, 0, 0, "", false},
				      {"synoindexd", true, false, 4242, 0, 0, "", false},
				      {"pkg:SynologyPhotos", true, false, 77, 1200, 98765,
				       "39b18fe8-5f33-4183-897a-a0eed756edc7", false},
				      {"synomkthumbd", true, true, 0, 3600, 0, "", false}};
	struct mdp_jset set[2] = {{MDP_T_STRIPE_CACHE_SIZE, "md2", {MDP_V_NUM, 4096}},
				  {MDP_T_SYNC_SPEED_MIN, "md3", {MDP_V_SYSTEM, 0}}};
	struct mdp_journal j = {.state = MDP_J_ACTIVE,
				.boot_id = "abc",
				.profile = "fast",
				.profile_path = "/x/a\nbase read_ahead md2 \"4\"",
				.base = base,
				.n_base = 2,
				.svc = svc,
				.n_svc = 4,
				.set = set,
				.n_set = 2,
				.by = MDP_BY_UNTIL_IDLE};
	struct mdp_journal back;
	char *text;
	size_t len;

	(void)state;
	assert_int_equal(mdp_journal_format(&j, &text, &len), 0);
	assert_int_equal(mdp_journal_parse(text, len, &back), 0);
	assert_int_equal(back.state, MDP_J_ACTIVE);
	assert_int_equal(back.by, MDP_BY_UNTIL_IDLE);
	assert_int_equal(back.n_base, 2);
	assert_string_equal(back.base[1].raw, "10000 (system)");
	assert_string_equal(back.base[1].dev, "md3");
	assert_string_equal(back.base[0].dev, "");
	assert_int_equal(back.n_svc, 4);
	/* An entry's own timeout: "timeout SECONDS" after the state (and PGID). */
	/* ... and who led the pausing tool's group, when that is known. */
	assert_non_null(strstr(text, "\nsvc pkg:SynologyPhotos pausing 77 start 98765 boot "
				     "39b18fe8-5f33-4183-897a-a0eed756edc7 timeout 1200\n"));
	assert_int_equal(back.svc[2].start, 98765);
	assert_string_equal(back.svc[2].boot, "39b18fe8-5f33-4183-897a-a0eed756edc7");
	assert_int_equal(back.svc[1].start, 0);
	assert_string_equal(back.svc[1].boot, "");
	assert_non_null(strstr(text, "\nsvc synomkthumbd paused timeout 3600\n"));
	assert_non_null(strstr(text, "\nsvc synoindexd pausing 4242\n"));
	assert_int_equal(back.svc[0].timeout_s, 0);
	assert_int_equal(back.svc[2].timeout_s, 1200);
	assert_int_equal(back.svc[2].pgid, 77);
	assert_false(back.svc[2].settled);
	assert_int_equal(back.svc[3].timeout_s, 3600);
	assert_true(back.svc[3].settled);
	assert_true(back.svc[0].paused);
	assert_true(back.svc[0].settled);
	/* A pause whose tool was started: "pausing PGID". */
	assert_true(back.svc[1].paused);
	assert_false(back.svc[1].settled);
	assert_int_equal(back.svc[1].pgid, 4242);
	/* A path with a newline is one field, not a forged line. */
	assert_string_equal(back.profile_path, "/x/a\nbase read_ahead md2 \"4\"");
	assert_int_equal(back.n_set, 2);
	assert_int_equal(back.set[0].want.num, 4096);
	assert_int_equal(back.set[1].want.kind, MDP_V_SYSTEM);
	mdp_journal_free(&back);
	/* Truncated (no "end"), junk after end, a device name that is a path. */
	assert_int_equal(mdp_journal_parse(text, len - 4, &back), -EINVAL);
	free(text);
	const char *bad[] = {
	    "mdprofile-journal 1\nstate active\nend\nx\n",
	    "mdprofile-journal 1\nstate active\nbase stripe_cache_size ../../etc \"1\\n\"\nend\n",
	    "mdprofile-journal 2\nstate active\nend\n",
	    "mdprofile-journal 1\nstate bogus\nend\n",
	    "mdprofile-journal 1\nstate active\nbase speed_limit_min md2 \"1\"\nend\n",
	    /* Values revert would write must be ones the registry accepts. */
	    "mdprofile-journal 1\nstate active\nbase read_ahead md2 \"99999999999\"\nend\n",
	    "mdprofile-journal 1\nstate active\nbase stripe_cache_size md2 \"0\"\nend\n",
	    "mdprofile-journal 1\nstate active\nset stripe_cache_size md2 99999\nend\n",
	    "mdprofile-journal 1\nstate active\nset stripe_cache_size md2 system\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc b;a`r paused\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a pausing x\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a paused 12\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a paused timeout\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a paused timeout 0\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a paused timeout 3601\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a paused timeout 5 x\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a paused wait 5\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a pausing timeout 5\nend\n",
	    /* "start TICKS boot ID": both, only after "pausing PGID", a boot id as the kernel's */
	    "mdprofile-journal 1\nstate active\nsvc a pausing 5 start 9\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a pausing 5 start 0 boot 0123456789\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a pausing 5 start 9 boot 0123\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a pausing 5 start 9 boot ../../../x\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a paused start 9 boot 0123456789\nend\n",
	    "mdprofile-journal 1\nstate active\nsvc a pausing 5 timeout 3 start 9 boot "
	    "0123456789\nend\n",
	    "mdprofile-journal 1\nstate active\nuntil-idle yes\nend\n",
	    "mdprofile-journal 1\nstate active\nuntil-idle\nuntil-idle\nend\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(mdp_journal_parse(bad[i], strlen(bad[i]), &back), -EINVAL);
}

/* "speed DEV ACTION KIB_S": the operations running at apply, for status; optional. */
static void test_journal_speed_lines(void **state)
{
	struct mdp_op_speed sp[2] = {{"md3", "reshape", 4687}, {"md2", "check", 0}};
	struct mdp_journal j = {
	    .state = MDP_J_ACTIVE, .profile = "fast", .speed = sp, .n_speed = 2};
	struct mdp_journal back;
	const char *old = "mdprofile-journal 1\nstate active\nprofile \"fast\"\nend\n";
	char *text;
	size_t len;

	(void)state;
	assert_int_equal(mdp_journal_format(&j, &text, &len), 0);
	assert_non_null(strstr(text, "\nspeed md3 reshape 4687\nspeed md2 check 0\nend\n"));
	assert_int_equal(mdp_journal_parse(text, len, &back), 0);
	free(text);
	assert_int_equal(back.n_speed, 2);
	assert_string_equal(back.speed[0].dev, "md3");
	assert_string_equal(back.speed[0].action, "reshape");
	assert_int_equal(back.speed[0].kib_s, 4687);
	assert_string_equal(back.speed[1].action, "check");
	assert_int_equal(back.speed[1].kib_s, 0);
	mdp_journal_free(&back);
	/* An earlier version's journal has none, and still reads. */
	assert_int_equal(mdp_journal_parse(old, strlen(old), &back), 0);
	assert_int_equal(back.n_speed, 0);
	assert_null(back.speed);
	mdp_journal_free(&back);
	const char *bad[] = {
	    "mdprofile-journal 1\nstate active\nspeed md3 reshape\nend\n",
	    "mdprofile-journal 1\nstate active\nspeed md3 reshape 12 x\nend\n",
	    "mdprofile-journal 1\nstate active\nspeed md3 reshape -1\nend\n",
	    "mdprofile-journal 1\nstate active\nspeed md3 reshape 12junk\nend\n",
	    "mdprofile-journal 1\nstate active\nspeed ../../etc reshape 12\nend\n",
	    "mdprofile-journal 1\nstate active\nspeed md3 Re$hape 12\nend\n",
	    "mdprofile-journal 1\nstate active\nspeed md3 averyveryverylongword 12\nend\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(mdp_journal_parse(bad[i], strlen(bad[i]), &back), -EINVAL);
}

/* ---- a service entry's own timeout --------------------------------------- */

/* A backend that records the timeout each call was given (one test at a time). */
static struct {
	char log[1024];
	size_t n;
	bool stopped[3];
} rec;

static unsigned rec_ms(const struct mdp_svc_backend *b, const char *svc)
{
	return strncmp(svc, "pkg:", 4) ? b->timeout_ms : b->pkg_timeout_ms;
}

static int rec_index(const char *svc)
{
	return !strcmp(svc, "a") ? 0 : !strcmp(svc, "pkg:B") ? 1 : 2;
}

static void rec_call(const struct mdp_svc_backend *b, const char *verb, const char *svc)
{
	rec.n += (size_t)snprintf(rec.log + rec.n, sizeof(rec.log) - rec.n, "%s %s %u\n", verb, svc,
				  rec_ms(b, svc));
}

static int rec_status(const struct mdp_svc_backend *b, const char *svc, enum mdp_svc_state *st,
		      struct mdp_diags *d)
{
	(void)d;
	rec_call(b, "status", svc);
	*st = rec.stopped[rec_index(svc)] ? MDP_SVC_STOPPED : MDP_SVC_RUNNING;
	return 0;
}

static int rec_pause(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	(void)d;
	rec_call(b, "pause", svc);
	rec.stopped[rec_index(svc)] = true;
	return 0;
}

static int rec_resume(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	(void)d;
	rec_call(b, "resume", svc);
	rec.stopped[rec_index(svc)] = false;
	return 0;
}

static const struct mdp_svc_ops rec_ops = {"dsm7", rec_status, rec_pause, rec_resume};

/*
 * An entry's own timeout is what its pause, status and resume get, from
 * the journal for revert; the others get the backend's (the command line's).
 */
static void test_service_own_timeout(void **state)
{
	struct mdp_service svcs[3] = {
	    {.name = "a", .timeout_s = 5}, {.name = "pkg:B"}, {.name = "c", .timeout_s = 1}};
	struct mdp_svc_backend b = {.ops = &rec_ops, .timeout_ms = 1000, .pkg_timeout_ms = 2000};
	const struct mdp_apply_opts o = {0};
	struct mdp_applied a;
	struct mdp_profile p;
	struct mdp_diags d;
	struct mdp_txn tx;
	struct env e;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	env_setup(&e, "ds-dsm6-reshape");
	profile_other(&p);
	p.services = svcs;
	p.n_services = 3;
	mdp_diags_init(&d);
	mdp_txn_init(&tx, &e.r, &d, &b, NULL);
	mdp_apply(&tx, &p, &o, &a);
	assert_int_equal(a.rc.res, MDP_TXN_OK);
	mdp_applied_free(&a);
	mdp_txn_report_free(&tx.rep);
	assert_string_equal(rec.log, "status a 5000\nstatus pkg:B 2000\nstatus c 1000\n"
				     "pause a 5000\npause pkg:B 2000\npause c 1000\n");
	/* Revert on another command line: the journal still says a's 5 s and c's 1 s. */
	memset(rec.log, 0, sizeof(rec.log));
	rec.n = 0;
	b.timeout_ms = 7000;
	mdp_txn_init(&tx, &e.r, &d, &b, NULL);
	assert_int_equal(mdp_txn_revert(&tx, false).res, MDP_TXN_OK);
	mdp_txn_report_free(&tx.rep);
	assert_string_equal(rec.log, "status c 1000\nresume c 1000\nstatus pkg:B 2000\n"
				     "resume pkg:B 2000\nstatus a 5000\nresume a 5000\n");
	assert_true(env_identical(&e));
	mdp_diags_free(&d);
	env_teardown(&e);
}

static void test_lock_exclusive(void **state)
{
	struct mdp_lock a = {-1}, b = {-1};
	struct env e;
	long holder = 0;

	struct mdp_diags d;

	(void)state;
	env_setup(&e, "ds-dsm6-reshape");
	mdp_diags_init(&d);
	assert_int_equal(mdp_lock_take(&e.r, false, &a, NULL, &d), 0);
	assert_int_equal(mdp_lock_take(&e.r, false, &b, &holder, &d), -EWOULDBLOCK);
	assert_int_equal(holder, (long)getpid());
	mdp_lock_release(&a);
	assert_int_equal(mdp_lock_take(&e.r, false, &b, NULL, &d), 0);
	mdp_lock_release(&b);
	assert_int_equal(d.n, 0);
	mdp_diags_free(&d);
	env_teardown(&e);
}

/*
 * The state directory, the journal and the lock steer what mdprofile does
 * as root: one that others may write is refused, with the fix, by the lock,
 * by a load, and by a store.
 */
static void test_state_others_can_write(void **state)
{
	static const char journal[] = "mdprofile-journal 1\nstate active\nboot_id -\n"
				      "profile \"x\"\npath \"\"\nsvc poweroff.target paused\nend\n";
	static const struct {
		const char *shell, *msg;
	} cases[] = {
	    {"chmod 0777 run/mdprofile",
	     "/run/mdprofile: refusing the state directory: writable by group or others (mode "
	     "0777); check it, then run 'chmod 0700 "},
	    {"chmod 0620 run/mdprofile/journal",
	     "/run/mdprofile/journal: refusing the journal: writable by group or others (mode "
	     "0620); check it, then run 'chmod 0600 "},
	    {"chmod 0666 run/mdprofile/lock",
	     "/run/mdprofile/lock: refusing the lock: writable by group or others (mode 0666); "
	     "check it, then run 'chmod 0600 "},
	    {"rm run/mdprofile/journal && mkfifo -m 0600 run/mdprofile/journal",
	     "/run/mdprofile/journal: refusing the journal: not a regular file; remove it"},
	};
	struct mdp_lock l = {-1};
	struct mdp_journal j;
	struct env e;
	struct mdp_diags d;
	char want[512], got[1024];
	int fd;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		env_setup(&e, "ds-dsm6-reshape");
		mdp_diags_init(&d);
		assert_int_equal(mdp_lock_take(&e.r, false, &l, NULL, &d), 0);
		mdp_lock_release(&l);
		fd = mdp_root_open(&e.r, MDP_JOURNAL, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		assert_true(fd >= 0);
		assert_int_equal(mdp_root_write_all(fd, journal, strlen(journal)), 0);
		close(fd);
		assert_int_equal(mdp_journal_load(&e.r, &j, &d), 0);
		mdp_journal_free(&j);
		assert_int_equal(d.n, 0);
		test_sh("cd '%s' && %s", e.root, cases[i].shell);
		snprintf(want, sizeof(want), "%s%s", e.root, cases[i].msg);
		if (i != 2) { /* the lock's mode is the lock's business only */
			assert_int_equal(mdp_journal_load(&e.r, &j, &d), -EPERM);
			assert_int_equal(d.n, 1);
			assert_non_null(strstr(d.v[0].msg, "refusing the "));
			mdp_diag_format(&d.v[0], got, sizeof(got));
			if (!strstr(got, want))
				fail_msg("got '%s', expected '%s'", got, want);
			mdp_diags_free(&d);
			mdp_diags_init(&d);
		}
		if (i != 1 && i != 3) {
			assert_int_equal(mdp_lock_take(&e.r, false, &l, NULL, &d), -EPERM);
			assert_int_equal(d.n, 1);
			mdp_diag_format(&d.v[0], got, sizeof(got));
			assert_non_null(strstr(got, want));
		}
		if (i == 0) {
			j = (struct mdp_journal){.state = MDP_J_ACTIVE};
			assert_int_equal(mdp_journal_store(&e.r, &j), -EPERM);
		}
		mdp_diags_free(&d);
		env_teardown(&e);
	}
}

/*
 * A failure whose errno is 3 (ESRCH) or 4 (EINTR), the values "rolled back"
 * and "rollback incomplete" had when one int carried both: the outcome is
 * the transaction's, never the errno's, and an error before anything
 * changed keeps its errno, never read as an outcome.
 */
static const struct errno_case {
	const char *what;
	bool revert;     /* the fault hits a revert of an applied profile, else the apply */
	const char *jrn; /* a journal written first ("" none) */
	enum fkind kind;
	unsigned k;
	int err;
	enum mdp_txn_result res;
	int want_err;
	bool identical; /* the tree ends as it began */
} errno_cases[] = {
    {"journal fsync ESRCH", false, "", F_FSYNC, 1, -ESRCH, MDP_TXN_FAILED, 0, true},
    {"journal fsync EINTR", false, "", F_FSYNC, 1, -EINTR, MDP_TXN_FAILED, 0, true},
    {"journal rename EINTR", false, "", F_RENAME, 1, -EINTR, MDP_TXN_FAILED, 0, true},
    {"tunable write ESRCH", false, "", F_WRITE, 3, -ESRCH, MDP_TXN_FAILED, 0, true},
    {"writes from 3 EINTR", false, "", F_WRITE_FROM, 3, -EINTR, MDP_TXN_PARTIAL, 0, false},
    {"writes from 3 ESRCH", false, "", F_WRITE_FROM, 3, -ESRCH, MDP_TXN_PARTIAL, 0, false},
    {"revert rename ESRCH", true, "", F_RENAME, 1, -ESRCH, MDP_TXN_FAILED, 0, false},
    {"revert writes EINTR", true, "", F_WRITE_FROM, 1, -EINTR, MDP_TXN_PARTIAL, 0, false},
    {"garbage journal", false, "garbage\n", F_NONE, 0, 0, MDP_TXN_ERROR, -EBADMSG, false},
    {"garbage journal, revert", true, "garbage\n", F_NONE, 0, 0, MDP_TXN_ERROR, -EBADMSG, false},
};

static struct mdp_txn_rc errno_case_run(struct env *e, const struct errno_case *c)
{
	const struct mdp_apply_opts o = {0};
	struct mdp_profile p;
	struct mdp_diags d;
	struct mdp_txn tx = {.root = &e->r, .d = &d};
	struct mdp_applied a;
	struct mdp_txn_rc rc;

	profile_fast(&p, 4096);
	if (c->revert && !c->jrn[0])
		assert_int_equal(run_apply(e, &p, NULL).res, MDP_TXN_OK);
	if (c->jrn[0])
		test_sh("mkdir -p '%s/run/mdprofile' && chmod 700 '%s/run/mdprofile' && "
			"printf '%s' > '%s/run/mdprofile/journal'",
			e->root, e->root, c->jrn, e->root);
	e->f.kind = c->kind;
	e->f.k = c->k;
	e->f.err = c->err;
	e->f.writes = e->f.fsyncs = e->f.renames = 0;
	mdp_diags_init(&d);
	if (c->revert) {
		rc = shaped(mdp_txn_revert(&tx, true));
	} else { /* no recover first: the apply meets the journal as it is */
		mdp_apply(&tx, &p, &o, &a);
		assert_int_equal(a.step, MDP_APPLY_TXN);
		rc = shaped(a.rc);
		mdp_applied_free(&a);
	}
	mdp_txn_report_free(&tx.rep);
	mdp_diags_free(&d);
	return rc;
}

static void test_result_apart_from_errno(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(errno_cases) / sizeof(errno_cases[0]); i++) {
		const struct errno_case *c = &errno_cases[i];
		struct mdp_txn_rc rc;
		struct env e;
		env_setup(&e, "ds-dsm6-reshape");
		rc = errno_case_run(&e, c);
		if (rc.res != c->res || rc.err != c->want_err)
			fail_msg("%s: got result %d errno %d, expected %d and %d", c->what,
				 (int)rc.res, rc.err, (int)c->res, c->want_err);
		if (c->identical && !env_identical(&e))
			fail_msg("%s: tree changed", c->what);
		env_teardown(&e);
	}
}

MDP_TEST_MAIN(test_apply_revert_identical, test_state_others_can_write, test_fail_every_write,
	      test_clamp_every_write, test_fail_every_fsync, test_fail_every_rename,
	      test_constant_fsyncs, test_switch_then_revert, test_overlay_then_revert, test_steer,
	      test_steer_recover, test_overlay_replace_revert_all, test_base_over_overlay_refused,
	      test_overlay_fail_and_crash_every_write, test_overlay_revert_crash_every_write,
	      test_failed_switch_keeps_a, test_stale_journal, test_recover_interrupted,
	      test_rollback_incomplete, test_result_apart_from_errno, test_journal_roundtrip,
	      test_journal_speed_lines, test_service_own_timeout, test_lock_exclusive)
