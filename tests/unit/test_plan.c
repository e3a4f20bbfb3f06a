/*
 * test_plan: rules to changes on the fixture systems, without loading YAML.
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

#include "discover.h"
#include "plan.h"
#include "profile.h"

#define MIB ((uint64_t)1 << 20)

struct sys {
	struct mdp_root r;
	struct mdp_system s;
};

static void load_sys(struct sys *x, const char *fixture)
{
	char dir[4096];
	struct mdp_diags d;
	const char *src = getenv("MDP_SRCDIR");

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/%s", src ? src : ".", fixture);
	assert_int_equal(mdp_root_init(&x->r, dir), 0);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover(&x->r, &x->s, &d), 0);
	mdp_diags_free(&d);
}

static struct mdp_setting num(uint64_t v)
{
	return (struct mdp_setting){MDP_S_NUM, v, {"t.yaml", 1, 1}};
}

static struct mdp_setting kind(enum mdp_setting_kind k)
{
	return (struct mdp_setting){k, 0, {"t.yaml", 1, 1}};
}

static const struct mdp_change *find(const struct mdp_plan *pl, enum mdp_tunable t, const char *dev)
{
	for (size_t i = 0; i < pl->n; i++)
		if (pl->v[i].t == t && !strcmp(pl->v[i].dev, dev))
			return &pl->v[i];
	return NULL;
}

static size_t index_of(const struct mdp_plan *pl, enum mdp_tunable t, const char *dev)
{
	const struct mdp_change *c = find(pl, t, dev);

	assert_non_null(c);
	return (size_t)(c - pl->v);
}

static int build(const struct mdp_profile *p, const struct sys *x, struct mdp_plan *pl,
		 struct mdp_diags *d)
{
	mdp_diags_init(d);
	return mdp_plan_build(p, &x->s, pl, d);
}

static void done(struct mdp_plan *pl, struct mdp_diags *d, struct sys *x)
{
	mdp_plan_free(pl);
	mdp_diags_free(d);
	mdp_system_free(&x->s);
}

/* auto: the largest power of two whose total over all parity arrays fits. */
static void test_auto_fits_budget(void **state)
{
	struct mdp_rule rule = {.match.all = true};
	struct mdp_profile p = {.name = "t", .path = "t.yaml", .rules = &rule, .n_rules = 1};
	struct mdp_plan pl;
	struct mdp_diags d;
	struct sys x;

	(void)state;
	load_sys(&x, "ds-dsm6-reshape");
	rule.set[MDP_T_STRIPE_CACHE_SIZE] = kind(MDP_S_AUTO);
	/* md2 has 4 disks, md3 3: 7 pages per step. 256 MiB / (7 x 4 KiB) = 9362 -> 8192. */
	p.budget = (struct mdp_budget){MDP_BUDGET_BYTES, 256 * MIB, {0}};
	assert_int_equal(build(&p, &x, &pl, &d), 0);
	assert_int_equal(find(&pl, MDP_T_STRIPE_CACHE_SIZE, "md2")->want.num, 8192);
	assert_int_equal(find(&pl, MDP_T_STRIPE_CACHE_SIZE, "md3")->want.num, 8192);
	assert_int_equal(pl.mem_after, 7 * 4096 * (uint64_t)8192);
	assert_true(pl.mem_after <= pl.budget);
	/* raid1 arrays get a note, never a change. */
	assert_null(find(&pl, MDP_T_STRIPE_CACHE_SIZE, "md0"));
	assert_int_equal(pl.n_notes, 2);
	assert_string_equal(pl.notes[0].dev, "md0");
	assert_string_equal(pl.notes[0].text,
			    "stripe_cache_size skipped: raid1 has no stripe cache");
	mdp_plan_free(&pl);
	mdp_diags_free(&d);

	/* Too small for even 256 pages: left alone with a note. */
	p.budget.value = 4 * MIB;
	assert_int_equal(build(&p, &x, &pl, &d), 0);
	assert_null(find(&pl, MDP_T_STRIPE_CACHE_SIZE, "md2"));
	assert_string_equal(pl.notes[2].text,
			    "stripe_cache_size auto: even 256 pages exceed the budget, left as is");
	done(&pl, &d, &x);
}

/* Explicit values over the budget are refused, naming arrays and MiB. */
static void test_over_budget_refused(void **state)
{
	struct mdp_rule rule = {.match.levels = (enum mdp_level[]){MDP_LEVEL_RAID5},
				.match.n_levels = 1};
	struct mdp_profile p = {.name = "t", .path = "t.yaml", .rules = &rule, .n_rules = 1};
	struct mdp_plan pl;
	struct mdp_diags d;
	struct sys x;

	(void)state;
	load_sys(&x, "ds-dsm6-reshape");
	rule.set[MDP_T_STRIPE_CACHE_SIZE] = num(32768);
	p.budget = (struct mdp_budget){MDP_BUDGET_PERCENT, 10, {0}};
	assert_int_equal(build(&p, &x, &pl, &d), -EINVAL);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].msg, "stripe caches would use 896 MiB (md2 512 MiB, md3 384 "
					"MiB), above the memory budget of 787 MiB (10% of 7872 "
					"MiB RAM)");
	mdp_diags_free(&d);
	mdp_system_free(&x.s);
}

/* Memory is freed before it is taken; min/max never cross; preread last. */
static void test_safe_order(void **state)
{
	struct mdp_rule rule = {.match.all = true};
	struct mdp_profile p = {.name = "t", .path = "t.yaml", .rules = &rule, .n_rules = 1};
	struct mdp_plan pl;
	struct mdp_diags d;
	struct sys x;

	(void)state;
	load_sys(&x, "server-raid6-raid10");
	/* md0 has 8192 pages: going to 1024 frees memory, so it comes first. */
	rule.set[MDP_T_STRIPE_CACHE_SIZE] = num(1024);
	rule.set[MDP_T_PREREAD_BYPASS] = num(512);
	rule.set[MDP_T_READ_AHEAD_KB] = num(8192);
	/* Raising min above the current max: max must be written first. */
	p.global[MDP_T_SPEED_LIMIT_MIN] = num(300000);
	p.global[MDP_T_SPEED_LIMIT_MAX] = num(400000);
	assert_int_equal(build(&p, &x, &pl, &d), 0);
	assert_int_equal(index_of(&pl, MDP_T_STRIPE_CACHE_SIZE, "md0"), 0);
	assert_true(index_of(&pl, MDP_T_SPEED_LIMIT_MAX, "") <
		    index_of(&pl, MDP_T_SPEED_LIMIT_MIN, ""));
	assert_int_equal(index_of(&pl, MDP_T_PREREAD_BYPASS, "md0"), pl.n - 1);
	mdp_plan_free(&pl);
	mdp_diags_free(&d);

	/* Growing: the stripe cache comes after everything else but preread. */
	rule.set[MDP_T_STRIPE_CACHE_SIZE] = num(16384);
	p.budget = (struct mdp_budget){MDP_BUDGET_PERCENT, 50, {0}};
	assert_int_equal(build(&p, &x, &pl, &d), 0);
	assert_int_equal(index_of(&pl, MDP_T_STRIPE_CACHE_SIZE, "md0"), pl.n - 2);
	done(&pl, &d, &x);
}

/* Later rules win per tunable; criteria of different kinds must all hold. */
static void test_rule_precedence(void **state)
{
	struct mdp_rule rules[3] = {
	    {.match.all = true},
	    {.match.names = (char *[]){"md0"}, .match.n_names = 1},
	    {.match.names = (char *[]){"md1"},
	     .match.n_names = 1,
	     .match.levels = (enum mdp_level[]){MDP_LEVEL_RAID6},
	     .match.n_levels = 1},
	};
	struct mdp_profile p = {.name = "t", .path = "t.yaml", .rules = rules, .n_rules = 3};
	struct mdp_plan pl;
	struct mdp_diags d;
	struct sys x;

	(void)state;
	load_sys(&x, "server-raid6-raid10");
	rules[0].set[MDP_T_READ_AHEAD_KB] = num(1024);
	rules[1].set[MDP_T_READ_AHEAD_KB] = num(4096);
	rules[2].set[MDP_T_READ_AHEAD_KB] = num(65536); /* md1 is raid10: no match */
	assert_int_equal(build(&p, &x, &pl, &d), 0);
	assert_int_equal(find(&pl, MDP_T_READ_AHEAD_KB, "md0")->want.num, 4096);
	assert_int_equal(find(&pl, MDP_T_READ_AHEAD_KB, "md1")->want.num, 1024);
	assert_string_equal(find(&pl, MDP_T_READ_AHEAD_KB, "md0")->reason, "rule 2 (t.yaml:1)");
	done(&pl, &d, &x);
}

/* A running reshape keeps at least the stripe cache md set for it. */
static void test_reshape_keeps_stripes(void **state)
{
	struct mdp_rule rule = {.match.all = true};
	struct mdp_profile p = {.name = "t", .path = "t.yaml", .rules = &rule, .n_rules = 1};
	struct mdp_plan pl;
	struct mdp_diags d;
	struct sys x;

	(void)state;
	load_sys(&x, "ds-dsm6-reshape");
	x.s.arrays[3].cur[MDP_T_STRIPE_CACHE_SIZE].val.num = 4096; /* md3, reshaping */
	rule.set[MDP_T_STRIPE_CACHE_SIZE] = num(1024);
	assert_int_equal(build(&p, &x, &pl, &d), 0);
	assert_string_equal(x.s.arrays[3].name, "md3");
	assert_int_equal(find(&pl, MDP_T_STRIPE_CACHE_SIZE, "md3")->want.num, 4096);
	assert_false(find(&pl, MDP_T_STRIPE_CACHE_SIZE, "md3")->pending);
	assert_int_equal(find(&pl, MDP_T_STRIPE_CACHE_SIZE, "md2")->want.num, 1024);
	done(&pl, &d, &x);
}

/* Member disks shared by arrays get the largest request; sync "system" is in sync. */
static void test_disks_and_system(void **state)
{
	struct mdp_rule rules[2] = {
	    {.match.names = (char *[]){"md2"}, .match.n_names = 1},
	    {.match.names = (char *[]){"md3"}, .match.n_names = 1},
	};
	struct mdp_profile p = {.name = "t", .path = "t.yaml", .rules = rules, .n_rules = 2};
	struct mdp_plan pl;
	struct mdp_diags d;
	struct sys x;

	(void)state;
	load_sys(&x, "ds-dsm6-reshape");
	rules[0].set[MDP_T_MEMBER_READ_AHEAD_KB] = num(512);
	rules[1].set[MDP_T_MEMBER_READ_AHEAD_KB] = num(2048);
	rules[0].set[MDP_T_SYNC_SPEED_MIN] = kind(MDP_S_SYSTEM);
	assert_int_equal(build(&p, &x, &pl, &d), 0);
	assert_int_equal(find(&pl, MDP_T_MEMBER_READ_AHEAD_KB, "sda")->want.num, 2048);
	assert_int_equal(find(&pl, MDP_T_MEMBER_READ_AHEAD_KB, "sdc")->want.num, 512);
	assert_false(find(&pl, MDP_T_SYNC_SPEED_MIN, "md2")->pending);
	assert_int_equal(mdp_plan_pending(&pl), 4);
	done(&pl, &d, &x);
}

/* Without the md driver there is no sysctl to write: a note, not a failure. */
static void test_md_not_loaded(void **state)
{
	struct mdp_profile p = {.name = "t", .path = "t.yaml"};
	struct mdp_plan pl;
	struct mdp_diags d;
	struct sys x;

	(void)state;
	load_sys(&x, "ds-dsm6-reshape");
	x.s.global[MDP_T_SPEED_LIMIT_MIN].present = false;
	p.global[MDP_T_SPEED_LIMIT_MIN] = num(100000);
	p.global[MDP_T_SPEED_LIMIT_MAX] = num(500000);
	assert_int_equal(build(&p, &x, &pl, &d), 0);
	assert_null(find(&pl, MDP_T_SPEED_LIMIT_MIN, ""));
	assert_non_null(find(&pl, MDP_T_SPEED_LIMIT_MAX, ""));
	assert_int_equal(pl.n_notes, 1);
	assert_string_equal(pl.notes[0].text, "dev.raid.speed_limit_min skipped: md is not loaded "
					      "(no /proc/sys/dev/raid/speed_limit_min)");
	done(&pl, &d, &x);
}

/* apply plans from a lean discovery; it must plan exactly what diff showed. */
static void same_plan(const char *fixture, const struct mdp_profile *p)
{
	struct mdp_system lean;
	struct mdp_plan a, b;
	struct mdp_diags d;
	struct sys x;

	load_sys(&x, fixture);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover_some(&x.r, mdp_plan_discover_skip(p), &lean, &d), 0);
	assert_int_equal(mdp_plan_build(p, &x.s, &a, &d), 0);
	assert_int_equal(mdp_plan_build(p, &lean, &b, &d), 0);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		assert_int_equal(a.v[i].t, b.v[i].t);
		assert_string_equal(a.v[i].dev, b.v[i].dev);
		assert_int_equal(a.v[i].want.kind, b.v[i].want.kind);
		assert_int_equal(a.v[i].want.num, b.v[i].want.num);
		assert_int_equal(a.v[i].pending, b.v[i].pending);
	}
	assert_int_equal(a.mem_after, b.mem_after);
	assert_int_equal(a.n_notes, b.n_notes);
	mdp_plan_free(&a);
	mdp_plan_free(&b);
	mdp_diags_free(&d);
	mdp_system_free(&lean);
	mdp_system_free(&x.s);
}

static void test_lean_discovery_same_plan(void **state)
{
	struct mdp_rule rules[2] = {
	    {.match.all = true},
	    {.match.levels = (enum mdp_level[]){MDP_LEVEL_RAID5, MDP_LEVEL_RAID6},
	     .match.n_levels = 2},
	};
	struct mdp_profile p = {.name = "t", .path = "t.yaml", .rules = rules, .n_rules = 2};
	const char *fixtures[] = {"ds-dsm6-reshape", "ds220j-dsm7", "server-raid6-raid10"};

	(void)state;
	p.global[MDP_T_SPEED_LIMIT_MIN] = num(100000);
	rules[0].set[MDP_T_READ_AHEAD_KB] = num(8192);
	rules[0].set[MDP_T_SYNC_SPEED_MIN] = kind(MDP_S_SYSTEM);
	rules[1].set[MDP_T_STRIPE_CACHE_SIZE] = kind(MDP_S_AUTO);
	assert_int_equal(mdp_plan_discover_skip(&p),
			 MDP_SKIP_PROGRESS | MDP_SKIP_UUID | MDP_SKIP_MEMBERS);
	for (size_t i = 0; i < 3; i++)
		same_plan(fixtures[i], &p);
	/* Member read-ahead needs members; a UUID match needs UUIDs. */
	rules[0].set[MDP_T_MEMBER_READ_AHEAD_KB] = num(1024);
	rules[1].match.uuids = (char *[]){"6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d"};
	rules[1].match.n_uuids = 1;
	assert_int_equal(mdp_plan_discover_skip(&p), MDP_SKIP_PROGRESS);
	for (size_t i = 0; i < 3; i++)
		same_plan(fixtures[i], &p);
	/* A UUID match alone needs members too: a UUID may come only from a member's superblock. */
	rules[0].set[MDP_T_MEMBER_READ_AHEAD_KB] = (struct mdp_setting){0};
	assert_int_equal(mdp_plan_discover_skip(&p), MDP_SKIP_PROGRESS);
	for (size_t i = 0; i < 3; i++)
		same_plan(fixtures[i], &p);
}

/* Mid-reshape the stripe cache is paid for the larger of the two geometries. */
static void test_stripes_reshape_geometry(void **state)
{
	struct mdp_rule rule = {.match.all = true};
	struct mdp_profile p = {.name = "t", .path = "t.yaml", .rules = &rule, .n_rules = 1};
	struct mdp_plan pl;
	struct mdp_diags d;
	struct sys x;

	(void)state;
	load_sys(&x, "ds-dsm6-reshape");
	x.s.arrays[3].raid_disks = 3; /* md3 shrinking 5 -> 3 */
	x.s.arrays[3].prev_raid_disks = 5;
	rule.set[MDP_T_STRIPE_CACHE_SIZE] = num(1024);
	assert_int_equal(build(&p, &x, &pl, &d), 0);
	assert_int_equal(pl.mem[1].disks, 5);
	assert_int_equal(pl.mem[1].after, 5 * 4096 * (uint64_t)1024);
	done(&pl, &d, &x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_auto_fits_budget),
	    cmocka_unit_test(test_over_budget_refused),
	    cmocka_unit_test(test_safe_order),
	    cmocka_unit_test(test_rule_precedence),
	    cmocka_unit_test(test_reshape_keeps_stripes),
	    cmocka_unit_test(test_disks_and_system),
	    cmocka_unit_test(test_md_not_loaded),
	    cmocka_unit_test(test_lean_discovery_same_plan),
	    cmocka_unit_test(test_stripes_reshape_geometry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
