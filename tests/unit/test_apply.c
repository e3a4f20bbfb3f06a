/*
 * test_apply: mdp_apply, the one apply every command goes through (txn.h):
 * base and overlay, each origin and what the transaction does for it
 * after, the lean discovery, a dry run, the steps before the transaction
 * failing, and a failure of the transaction rolled back. The invariants of
 * the engine under every fault are test_txn's.
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

#include "journal.h"
#include "support.h"
#include "txn.h"
#include "txn_int.h"

/* A fixture copy with a snapshot beside it, its writes counted and the k-th one failed. */
struct env {
	char dir[64];
	char root[128];
	struct mdp_root r;
	struct mdp_root_ops ops;
	const struct mdp_root_ops *inner;
	unsigned writes, fail_at; /* fail_at 0: none */
	struct mdp_diags d;
	struct mdp_txn tx;
	char said[2048]; /* the hooks' calls, one line each: "diag MSG" or "planned N" */
};

static struct env *env_of(const struct mdp_root_ops *self)
{
	return (struct env *)(void *)((char *)(uintptr_t)self - offsetof(struct env, ops));
}

static int e_write(const struct mdp_root_ops *self, const struct mdp_root *r, const char *sys,
		   const char *data, size_t len)
{
	struct env *e = env_of(self);

	if (++e->writes == e->fail_at)
		return -EIO;
	return e->inner->write(e->inner, r, sys, data, len);
}

static int e_fsync(const struct mdp_root_ops *self, const struct mdp_root *r, int fd)
{
	return env_of(self)->inner->fsync(env_of(self)->inner, r, fd);
}

static int e_rename(const struct mdp_root_ops *self, const struct mdp_root *r, const char *from,
		    const char *to)
{
	return env_of(self)->inner->rename(env_of(self)->inner, r, from, to);
}

static void env_setup(struct env *e)
{
	const char *src = getenv("MDP_SRCDIR");

	memset(e, 0, sizeof(*e));
	snprintf(e->dir, sizeof(e->dir), "/tmp/mdp-apply-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	snprintf(e->root, sizeof(e->root), "%s/root", e->dir);
	test_sh("cp -a '%s/tests/fixtures/ds-dsm6-reshape' '%s' && cp -a '%s' '%s/snap'",
		src ? src : ".", e->root, e->root, e->dir);
	assert_int_equal(mdp_root_init(&e->r, e->root), 0);
	e->ops = (struct mdp_root_ops){e_write, e_fsync, e_rename};
	e->inner = e->r.ops;
	e->r.ops = &e->ops;
	mdp_diags_init(&e->d);
	mdp_txn_init(&e->tx, &e->r, &e->d, NULL, NULL);
}

static void env_teardown(struct env *e)
{
	mdp_txn_report_free(&e->tx.rep);
	mdp_diags_free(&e->d);
	mdp_root_fini(&e->r);
	test_sh("rm -rf '%s'", e->dir);
}

/* The tree's system files are as they began (mdprofile's own locks aside). */
static bool env_identical(struct env *e)
{
	char cmd[1024];

	snprintf(
	    cmd, sizeof(cmd),
	    "rm -f '%s/run/mdprofile/lock' '%s/run/mdprofile/watcher.lock';"
	    " rmdir '%s/run/mdprofile' '%s/run' 2>/dev/null; diff -r '%s/snap' '%s' >/dev/null",
	    e->root, e->root, e->root, e->root, e->dir, e->root);
	return system(cmd) == 0;
}

static void hook_diags(void *ctx, struct mdp_diags *d)
{
	struct env *e = ctx;
	size_t n = strlen(e->said);

	for (size_t i = 0; i < d->n; i++)
		n += (size_t)snprintf(e->said + n, sizeof(e->said) - n, "diag %s\n", d->v[i].msg);
}

static void hook_planned(void *ctx, const struct mdp_system *s, const struct mdp_plan *pl)
{
	struct env *e = ctx;
	size_t n = strlen(e->said);

	(void)s;
	/* nothing changed yet: the journal is not there */
	assert_false(mdp_root_exists(&e->r, MDP_JOURNAL));
	snprintf(e->said + n, sizeof(e->said) - n, "planned %zu\n", mdp_plan_pending(pl));
}

/* The stripe cache and the resync floor of every array, and the dev.raid minimum. */
static void profile_fast(struct mdp_profile *p, struct mdp_rule *rule)
{
	memset(p, 0, sizeof(*p));
	memset(rule, 0, sizeof(*rule));
	p->name = "fast";
	p->path = "fast.yaml";
	p->budget = (struct mdp_budget){MDP_BUDGET_PERCENT, 50, {0}};
	p->global[MDP_T_SPEED_LIMIT_MIN] = (struct mdp_setting){.kind = MDP_S_NUM, .num = 100000};
	rule->match.all = true;
	rule->set[MDP_T_STRIPE_CACHE_SIZE] = (struct mdp_setting){.kind = MDP_S_NUM, .num = 4096};
	rule->set[MDP_T_SYNC_SPEED_MIN] = (struct mdp_setting){.kind = MDP_S_NUM, .num = 50000};
	p->rules = rule;
	p->n_rules = 1;
}

/* Another, overlapping the first in part. */
static void profile_other(struct mdp_profile *p, struct mdp_rule *rule)
{
	memset(p, 0, sizeof(*p));
	memset(rule, 0, sizeof(*rule));
	p->name = "other";
	p->path = "other.yaml";
	p->global[MDP_T_SPEED_LIMIT_MIN] = (struct mdp_setting){.kind = MDP_S_NUM, .num = 20000};
	rule->match.all = true;
	rule->set[MDP_T_STRIPE_CACHE_SIZE] = (struct mdp_setting){.kind = MDP_S_NUM, .num = 1024};
	p->rules = rule;
	p->n_rules = 1;
}

/* The journal as stored: its top layer's origin, and whether a base waits under it. */
static void journal_top(struct env *e, enum mdp_origin *by, bool *overlay)
{
	struct mdp_journal j;

	assert_int_equal(mdp_journal_load(&e->r, &j, &e->d), 0);
	assert_int_equal(j.state, MDP_J_ACTIVE);
	*by = j.by;
	*overlay = j.has_under;
	mdp_journal_free(&j);
}

/* mdp_apply on e with o, its report dropped after; the result's step, rc and layer kept. */
static struct mdp_applied apply(struct env *e, const struct mdp_profile *p,
				const struct mdp_apply_opts *o)
{
	struct mdp_apply_opts own = *o;
	struct mdp_applied a, kept;

	own.ctx = e;
	own.diags = hook_diags;
	mdp_apply(&e->tx, p, &own, &a);
	kept = (struct mdp_applied){.step = a.step, .rc = a.rc, .layer = a.layer};
	mdp_applied_free(&a);
	mdp_txn_report_free(&e->tx.rep);
	return kept;
}

static void test_base_then_overlay(void **state)
{
	struct mdp_profile fast, other;
	struct mdp_rule r1, r2;
	struct mdp_applied a;
	enum mdp_origin by;
	bool overlay;
	struct env e;

	(void)state;
	env_setup(&e);
	profile_fast(&fast, &r1);
	profile_other(&other, &r2);
	/* nothing active: the base */
	a = apply(&e, &fast, &(struct mdp_apply_opts){.origin = MDP_BY_HAND});
	assert_int_equal(a.step, MDP_APPLY_TXN);
	assert_int_equal(a.rc.res, MDP_TXN_OK);
	assert_true(a.layer.on && !a.layer.overlay && a.layer.by == MDP_BY_HAND);
	assert_true(a.layer.since > 0);
	journal_top(&e, &by, &overlay);
	assert_true(by == MDP_BY_HAND && !overlay);
	/* over a base: an overlay, by another origin */
	a = apply(&e, &other, &(struct mdp_apply_opts){.origin = MDP_BY_BOOT});
	assert_int_equal(a.rc.res, MDP_TXN_OK);
	assert_true(a.layer.on && a.layer.overlay && a.layer.by == MDP_BY_BOOT);
	journal_top(&e, &by, &overlay);
	assert_true(by == MDP_BY_BOOT && overlay);
	/* a base over an overlay is refused before anything changes */
	a = apply(&e, &fast, &(struct mdp_apply_opts){.as_base = true});
	assert_int_equal(a.step, MDP_APPLY_TXN);
	assert_int_equal(a.rc.res, MDP_TXN_ERROR);
	assert_int_equal(a.rc.err, -EBUSY);
	assert_false(a.layer.on);
	journal_top(&e, &by, &overlay);
	assert_true(by == MDP_BY_BOOT && overlay);
	/* the overlay gone, as_base replaces the base: no overlay */
	assert_int_equal(mdp_txn_revert(&e.tx, false).res, MDP_TXN_OK);
	mdp_txn_report_free(&e.tx.rep);
	a = apply(&e, &other, &(struct mdp_apply_opts){.as_base = true, .origin = MDP_BY_ENABLE});
	assert_int_equal(a.rc.res, MDP_TXN_OK);
	assert_true(a.layer.on && !a.layer.overlay && a.layer.by == MDP_BY_ENABLE);
	/* the same profile again, in its state: nothing journaled, the layer found so */
	a = apply(&e, &other, &(struct mdp_apply_opts){.as_base = true, .origin = MDP_BY_ENABLE});
	assert_int_equal(a.rc.res, MDP_TXN_OK);
	assert_true(a.layer.on && a.layer.by == MDP_BY_ENABLE);
	assert_int_equal(mdp_txn_revert(&e.tx, true).res, MDP_TXN_OK);
	assert_true(env_identical(&e));
	env_teardown(&e);
}

/*
 * Every origin is journaled as the layer's, and the transaction acts for it
 * after: the revert that ends bench --compare or explain --probe removes its
 * own layer ("reverting"), where another command's recover would find it
 * left behind. A watcher's layer is the watcher's while it holds its lock.
 */
static void test_each_origin(void **state)
{
	struct mdp_lock wlock = {-1};
	struct mdp_profile p;
	struct mdp_rule rule;
	struct mdp_applied a;
	enum mdp_origin by;
	bool overlay;
	long holder;

	(void)state;
	for (int o = MDP_BY_HAND; o < MDP_BY_COUNT; o++) {
		struct env e;
		env_setup(&e);
		profile_fast(&p, &rule);
		if (mdp_origin_watched((enum mdp_origin)o))
			assert_int_equal(mdp_watcher_take(&e.r, &wlock, &holder, &e.d), 0);
		a = apply(&e, &p, &(struct mdp_apply_opts){.origin = (enum mdp_origin)o});
		assert_int_equal(a.rc.res, MDP_TXN_OK);
		assert_int_equal(a.layer.by, o);
		assert_int_equal(e.tx.origin, o);
		journal_top(&e, &by, &overlay);
		assert_int_equal(by, o);
		assert_int_equal(mdp_txn_revert(&e.tx, true).res, MDP_TXN_OK);
		assert_true(e.tx.rep.n_notes > 0);
		assert_int_equal(e.tx.rep.notes[0].kind, MDP_TXN_NOTE_REVERTING);
		mdp_lock_release(&wlock);
		wlock.fd = -1;
		assert_true(env_identical(&e));
		env_teardown(&e);
	}
}

/* What every origin's layer is to someone else's recover: left, or removed as left behind. */
static void test_origin_left_behind(void **state)
{
	static const enum mdp_txn_note_kind gone[MDP_BY_COUNT] = {
	    [MDP_BY_AUTO] = MDP_TXN_NOTE_WATCH_GONE,
	    [MDP_BY_UNTIL_IDLE] = MDP_TXN_NOTE_WATCH_GONE,
	    [MDP_BY_COMPARE] = MDP_TXN_NOTE_COMPARE_GONE,
	    [MDP_BY_PROBE] = MDP_TXN_NOTE_PROBE_GONE,
	};
	struct mdp_profile p;
	struct mdp_rule rule;
	struct mdp_txn other;
	bool did;

	(void)state;
	for (int o = MDP_BY_HAND; o < MDP_BY_COUNT; o++) {
		struct env e;
		env_setup(&e);
		profile_fast(&p, &rule);
		assert_int_equal(
		    apply(&e, &p, &(struct mdp_apply_opts){.origin = (enum mdp_origin)o}).rc.res,
		    MDP_TXN_OK);
		mdp_txn_init(&other, &e.r, &e.d, NULL, NULL); /* another command's */
		assert_int_equal(mdp_txn_recover(&other, &did).res, MDP_TXN_OK);
		assert_int_equal(did, gone[o] != 0);
		if (did) {
			assert_int_equal(other.rep.notes[0].kind, gone[o]);
			assert_true(env_identical(&e));
		}
		mdp_txn_report_free(&other.rep);
		env_teardown(&e);
	}
}

/* The lean discovery plans and journals exactly what the full one does. */
static void test_lean_discovery(void **state)
{
	struct mdp_profile p;
	struct mdp_rule rule;
	char *text[2];
	size_t len[2];

	(void)state;
	profile_fast(&p, &rule);
	assert_int_not_equal(mdp_plan_discover_skip(&p), 0);
	for (int lean = 0; lean < 2; lean++) {
		const struct mdp_apply_opts o = {.lean = lean, .ctx = NULL};
		struct mdp_applied a;
		struct mdp_journal j;
		struct env e;
		env_setup(&e);
		mdp_apply(&e.tx, &p, &o, &a);
		assert_int_equal(a.rc.res, MDP_TXN_OK);
		/* the lean one left out what the plan does not need: the arrays' UUIDs */
		assert_int_equal(a.sys.arrays[0].uuid[0] == '\0', lean);
		assert_int_equal(mdp_journal_load(&e.r, &j, &e.d), 0);
		j.since = 0; /* the seconds it was applied at */
		assert_int_equal(mdp_journal_format(&j, &text[lean], &len[lean]), 0);
		mdp_journal_free(&j);
		assert_int_equal(e.tx.rep.n_changes, a.plan.n ? mdp_plan_pending(&a.plan) : 0);
		mdp_applied_free(&a);
		env_teardown(&e);
	}
	assert_int_equal(len[0], len[1]);
	assert_memory_equal(text[0], text[1], len[0]);
	free(text[0]);
	free(text[1]);
}

/* A dry run plans and previews, says so through its hooks, and changes nothing. */
static void test_dry_run(void **state)
{
	const struct mdp_apply_opts o = {.dry_run = true, .planned = hook_planned};
	struct mdp_service svc = {.name = "synoindexd", .optional = true};
	struct mdp_applied a;
	struct mdp_profile p;
	struct mdp_rule rule;
	struct mdp_apply_opts own = o;
	struct env e;

	(void)state;
	env_setup(&e);
	profile_fast(&p, &rule);
	p.services = &svc;
	p.n_services = 1;
	own.ctx = &e;
	own.diags = hook_diags;
	mdp_apply(&e.tx, &p, &own, &a);
	assert_int_equal(a.step, MDP_APPLY_TXN);
	assert_int_equal(a.rc.res, MDP_TXN_OK);
	assert_false(a.layer.on);
	assert_true(mdp_plan_pending(&a.plan) > 0);
	assert_string_equal(e.said, "planned 7\n");
	/* no service manager: the optional service is not found */
	assert_int_equal(e.tx.rep.n_services, 1);
	assert_int_equal(e.tx.rep.services[0].result, MDP_TXN_SVC_NOT_FOUND);
	assert_int_equal(e.tx.rep.n_changes, 0);
	assert_true(env_identical(&e));
	mdp_applied_free(&a);
	env_teardown(&e);
}

/* Discovery fails: said in the hook's batches, its own reason last; nothing touched. */
static void test_unreadable_system(void **state)
{
	struct mdp_profile p;
	struct mdp_rule rule;
	struct mdp_applied a;
	struct env e;

	(void)state;
	env_setup(&e);
	profile_fast(&p, &rule);
	test_sh("rm -rf '%s/proc/sys/dev/raid' && ln -s /tmp '%s/proc/sys/dev/raid' && "
		"rm -rf '%s/snap/proc/sys/dev/raid' && ln -s /tmp '%s/snap/proc/sys/dev/raid'",
		e.root, e.root, e.dir, e.dir);
	a = apply(&e, &p, &(struct mdp_apply_opts){.lean = true});
	assert_int_equal(a.step, MDP_APPLY_DISCOVER);
	assert_int_equal(a.rc.res, MDP_TXN_ERROR);
	assert_int_equal(a.rc.err, -EXDEV);
	assert_false(a.layer.on);
	assert_non_null(strstr(e.said, "diag cannot read /proc/sys/dev/raid/speed_limit_min: "));
	assert_non_null(strstr(e.said, "\ndiag cannot read the system state: a symbolic link "
				       "leads out of the root\n"));
	assert_int_equal(e.writes, 0);
	assert_true(env_identical(&e));
	env_teardown(&e);
}

/* The plan refuses the profile (over its memory budget): said, nothing touched. */
static void test_plan_refused(void **state)
{
	struct mdp_profile p;
	struct mdp_rule rule;
	struct mdp_applied a;
	struct env e;

	(void)state;
	env_setup(&e);
	profile_fast(&p, &rule);
	p.budget = (struct mdp_budget){MDP_BUDGET_BYTES, 4096, {0}};
	a = apply(&e, &p, &(struct mdp_apply_opts){.lean = true, .planned = hook_planned});
	assert_int_equal(a.step, MDP_APPLY_PLAN);
	assert_int_equal(a.rc.res, MDP_TXN_ERROR);
	assert_int_equal(a.rc.err, -EINVAL);
	assert_non_null(strstr(e.said, "diag "));
	assert_null(strstr(e.said, "planned"));
	assert_null(strstr(e.said, "cannot plan")); /* the refusal says why itself */
	assert_int_equal(e.writes, 0);
	assert_true(env_identical(&e));
	env_teardown(&e);
}

/* A write fails half way: everything rolled back, no layer, the tree as it began. */
static void test_failure_rolled_back(void **state)
{
	struct mdp_profile p;
	struct mdp_rule rule;
	struct mdp_applied a;
	struct env e;

	(void)state;
	env_setup(&e);
	profile_fast(&p, &rule);
	e.fail_at = 3;
	mdp_apply(&e.tx, &p, &(struct mdp_apply_opts){.lean = true}, &a);
	assert_int_equal(a.step, MDP_APPLY_TXN);
	assert_int_equal(a.rc.res, MDP_TXN_FAILED);
	assert_int_equal(a.rc.err, 0);
	assert_false(a.layer.on);
	assert_int_equal(e.tx.rep.n_changes, 0); /* nothing this apply did stays done */
	assert_true(e.d.n > 0);                  /* the write's failure, said */
	assert_true(e.writes > 3);               /* the undo wrote */
	assert_true(env_identical(&e));
	mdp_applied_free(&a);
	env_teardown(&e);
}

MDP_TEST_MAIN(test_base_then_overlay, test_each_origin, test_origin_left_behind,
	      test_lean_discovery, test_dry_run, test_unreadable_system, test_plan_refused,
	      test_failure_rolled_back)
