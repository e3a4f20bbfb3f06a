/*
 * test_plan: rules to changes on the fixture systems, without loading YAML.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
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
#include "support.h"
#include "discover_int.h"

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
	return (struct mdp_setting){.kind = MDP_S_NUM, .num = v, .pos = {"t.yaml", 1, 1}};
}

static struct mdp_setting kind(enum mdp_setting_kind k)
{
	return (struct mdp_setting){.kind = k, .num = 0, .pos = {"t.yaml", 1, 1}};
}

static struct mdp_setting bounded(enum mdp_bound b, uint64_t v)
{
	return (struct mdp_setting){
	    .kind = MDP_S_NUM, .bound = b, .num = v, .pos = {"t.yaml", 1, 1}};
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

/* A profile of one rule for every array, and the plan for it on a fixture. */
struct one_rule {
	struct mdp_rule rule;
	enum mdp_level level; /* the rule's one level, where it matches by level */
	struct mdp_profile p;
	struct mdp_plan pl;
	struct mdp_diags d;
	struct sys x;
};

static void one_rule(struct one_rule *t, const char *fixture)
{
	*t = (struct one_rule){.rule = {.match.all = true}};
	t->p = (struct mdp_profile){.name = "t", .path = "t.yaml", .rules = &t->rule, .n_rules = 1};
	load_sys(&t->x, fixture);
}

/* As one_rule, with the profile's n rules in the caller's array instead. */
static void many_rules(struct one_rule *t, struct mdp_rule *rules, size_t n, const char *fixture)
{
	one_rule(t, fixture);
	t->p.rules = rules;
	t->p.n_rules = n;
}

/* auto: the largest power of two whose total over all parity arrays fits. */
static void test_auto_fits_budget(void **state)
{
	struct one_rule t;

	(void)state;
	one_rule(&t, "ds-dsm6-reshape");
	t.rule.set[MDP_T_STRIPE_CACHE_SIZE] = kind(MDP_S_AUTO);
	/* md2 has 4 disks, md3 3: 7 pages per step. 256 MiB / (7 x 4 KiB) = 9362 -> 8192. */
	t.p.budget = (struct mdp_budget){MDP_BUDGET_BYTES, 256 * MIB, {0}};
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_int_equal(find(&t.pl, MDP_T_STRIPE_CACHE_SIZE, "md2")->want.num, 8192);
	assert_int_equal(find(&t.pl, MDP_T_STRIPE_CACHE_SIZE, "md3")->want.num, 8192);
	assert_int_equal(t.pl.mem_after, 7 * 4096 * (uint64_t)8192);
	assert_true(t.pl.mem_after <= t.pl.budget);
	/* raid1 arrays get a note, never a change. */
	assert_null(find(&t.pl, MDP_T_STRIPE_CACHE_SIZE, "md0"));
	assert_int_equal(t.pl.n_notes, 2);
	assert_string_equal(t.pl.notes[0].dev, "md0");
	assert_string_equal(t.pl.notes[0].text,
			    "stripe_cache_size skipped: raid1 has no stripe cache");
	mdp_plan_free(&t.pl);
	mdp_diags_free(&t.d);

	/* Too small for even 256 pages: left alone with a note. */
	t.p.budget.value = 4 * MIB;
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_null(find(&t.pl, MDP_T_STRIPE_CACHE_SIZE, "md2"));
	assert_string_equal(t.pl.notes[2].text,
			    "stripe_cache_size auto: even 256 pages exceed the budget, left as is");
	done(&t.pl, &t.d, &t.x);
}

/* one_rule on ds-dsm6-reshape, the rule matching raid5 only, its stripe cache 32768. */
static void raid5_stripes(struct one_rule *t)
{
	one_rule(t, "ds-dsm6-reshape");
	t->level = MDP_LEVEL_RAID5;
	t->rule.match.all = false;
	t->rule.match.levels = &t->level;
	t->rule.match.n_levels = 1;
	t->rule.set[MDP_T_STRIPE_CACHE_SIZE] = num(32768);
}

/* Explicit values over the budget are refused, naming arrays and MiB. */
static void test_over_budget_refused(void **state)
{
	struct one_rule t;

	(void)state;
	raid5_stripes(&t);
	t.p.budget = (struct mdp_budget){MDP_BUDGET_PERCENT, 10, {0}};
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), -EINVAL);
	assert_int_equal(t.d.n, 1);
	assert_string_equal(t.d.v[0].msg, "stripe caches would use 896 MiB (md2 512 MiB, md3 384 "
					  "MiB), above the memory budget of 787 MiB (10% of 7872 "
					  "MiB RAM)");
	mdp_diags_free(&t.d);
	mdp_system_free(&t.x.s);
}

/*
 * A budget given as a size is shown as the profile (and pin) writes it,
 * through the one size ladder; the figures around it are whole MiB.
 */
static void test_budget_size_shown_exactly(void **state)
{
	static const struct {
		uint64_t bytes;
		const char *desc, *msg;
	} cases[] = {
	    {1536 * 1024, "1536 KiB", "of 1 MiB (1536 KiB)"},
	    {256 * MIB, "256 MiB", "of 256 MiB (256 MiB)"},
	    {512 * MIB + 512, "512 MiB", "of 512 MiB (512 MiB)"},
	};
	struct one_rule t;
	char want[256];

	(void)state;
	raid5_stripes(&t);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t.p.budget = (struct mdp_budget){MDP_BUDGET_BYTES, cases[i].bytes, {0}};
		assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), -EINVAL);
		assert_int_equal(t.d.n, 1);
		snprintf(want, sizeof(want),
			 "stripe caches would use 896 MiB (md2 512 MiB, md3 384 MiB), above the "
			 "memory budget %s",
			 cases[i].msg);
		assert_string_equal(t.d.v[0].msg, want);
		mdp_diags_free(&t.d);
	}
	/* 2 GiB fits: the plan carries the description diff prints. */
	t.p.budget = (struct mdp_budget){MDP_BUDGET_BYTES, 2048 * MIB, {0}};
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_string_equal(t.pl.budget_desc, "2 GiB");
	mdp_plan_free(&t.pl);
	mdp_diags_free(&t.d);
	mdp_system_free(&t.x.s);
}

/* Memory is freed before it is taken; min/max never cross; preread last. */
static void test_safe_order(void **state)
{
	struct one_rule t;

	(void)state;
	one_rule(&t, "server-raid6-raid10");
	/* md0 has 8192 pages: going to 1024 frees memory, so it comes first. */
	t.rule.set[MDP_T_STRIPE_CACHE_SIZE] = num(1024);
	t.rule.set[MDP_T_PREREAD_BYPASS] = num(512);
	t.rule.set[MDP_T_READ_AHEAD_KB] = num(8192);
	/* Raising min above the current max: max must be written first. */
	t.p.global[MDP_T_SPEED_LIMIT_MIN] = num(300000);
	t.p.global[MDP_T_SPEED_LIMIT_MAX] = num(400000);
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_int_equal(index_of(&t.pl, MDP_T_STRIPE_CACHE_SIZE, "md0"), 0);
	assert_true(index_of(&t.pl, MDP_T_SPEED_LIMIT_MAX, "") <
		    index_of(&t.pl, MDP_T_SPEED_LIMIT_MIN, ""));
	assert_int_equal(index_of(&t.pl, MDP_T_PREREAD_BYPASS, "md0"), t.pl.n - 1);
	mdp_plan_free(&t.pl);
	mdp_diags_free(&t.d);

	/* Growing: the stripe cache comes after everything else but preread. */
	t.rule.set[MDP_T_STRIPE_CACHE_SIZE] = num(16384);
	t.p.budget = (struct mdp_budget){MDP_BUDGET_PERCENT, 50, {0}};
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_int_equal(index_of(&t.pl, MDP_T_STRIPE_CACHE_SIZE, "md0"), t.pl.n - 2);
	done(&t.pl, &t.d, &t.x);
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
	struct one_rule t;

	(void)state;
	many_rules(&t, rules, 3, "server-raid6-raid10");
	rules[0].set[MDP_T_READ_AHEAD_KB] = num(1024);
	rules[1].set[MDP_T_READ_AHEAD_KB] = num(4096);
	rules[2].set[MDP_T_READ_AHEAD_KB] = num(65536); /* md1 is raid10: no match */
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_int_equal(find(&t.pl, MDP_T_READ_AHEAD_KB, "md0")->want.num, 4096);
	assert_int_equal(find(&t.pl, MDP_T_READ_AHEAD_KB, "md1")->want.num, 1024);
	assert_string_equal(find(&t.pl, MDP_T_READ_AHEAD_KB, "md0")->reason, "rule 2 (t.yaml:1)");
	done(&t.pl, &t.d, &t.x);
}

/* A running reshape keeps at least the stripe cache md set for it. */
static void test_reshape_keeps_stripes(void **state)
{
	struct one_rule t;

	(void)state;
	one_rule(&t, "ds-dsm6-reshape");
	t.x.s.arrays[3].cur[MDP_T_STRIPE_CACHE_SIZE].val.num = 4096; /* md3, reshaping */
	t.rule.set[MDP_T_STRIPE_CACHE_SIZE] = num(1024);
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_string_equal(t.x.s.arrays[3].name, "md3");
	assert_int_equal(find(&t.pl, MDP_T_STRIPE_CACHE_SIZE, "md3")->want.num, 4096);
	assert_false(find(&t.pl, MDP_T_STRIPE_CACHE_SIZE, "md3")->pending);
	assert_int_equal(find(&t.pl, MDP_T_STRIPE_CACHE_SIZE, "md2")->want.num, 1024);
	done(&t.pl, &t.d, &t.x);
}

/* Member disks shared by arrays get the largest request; sync "system" is in sync. */
static void test_disks_and_system(void **state)
{
	struct mdp_rule rules[2] = {
	    {.match.names = (char *[]){"md2"}, .match.n_names = 1},
	    {.match.names = (char *[]){"md3"}, .match.n_names = 1},
	};
	struct one_rule t;

	(void)state;
	many_rules(&t, rules, 2, "ds-dsm6-reshape");
	rules[0].set[MDP_T_MEMBER_READ_AHEAD_KB] = num(512);
	rules[1].set[MDP_T_MEMBER_READ_AHEAD_KB] = num(2048);
	rules[0].set[MDP_T_SYNC_SPEED_MIN] = kind(MDP_S_SYSTEM);
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_int_equal(find(&t.pl, MDP_T_MEMBER_READ_AHEAD_KB, "sda")->want.num, 2048);
	assert_int_equal(find(&t.pl, MDP_T_MEMBER_READ_AHEAD_KB, "sdc")->want.num, 512);
	assert_false(find(&t.pl, MDP_T_SYNC_SPEED_MIN, "md2")->pending);
	assert_int_equal(mdp_plan_pending(&t.pl), 4);
	done(&t.pl, &t.d, &t.x);
}

/* The notes of a plan, one a line, as "dev: text". */
static const char *notes_text(const struct mdp_plan *pl, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pl->n_notes && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s: %s\n", pl->notes[i].dev,
				      pl->notes[i].text);
	return buf;
}

/* media: an array matches when every member's disk is of a class named. */
static void test_media_selects(void **state)
{
	struct mdp_rule rules[2] = {
	    {.match.media = 1u << MDP_MEDIA_SSD | 1u << MDP_MEDIA_NVME},
	    {.match.media = 1u << MDP_MEDIA_HDD},
	};
	struct one_rule t;

	(void)state;
	many_rules(&t, rules, 2, "server-raid6-raid10");
	rules[0].set[MDP_T_READ_AHEAD_KB] = num(1024);
	rules[1].set[MDP_T_READ_AHEAD_KB] = num(8192);
	assert_int_equal(t.x.s.arrays[0].media, MDP_MEDIA_HDD);
	assert_int_equal(t.x.s.arrays[1].media, MDP_MEDIA_NVME);
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_int_equal(find(&t.pl, MDP_T_READ_AHEAD_KB, "md0")->want.num, 8192);
	assert_int_equal(find(&t.pl, MDP_T_READ_AHEAD_KB, "md1")->want.num, 1024);
	assert_int_equal(t.pl.n_notes, 0);
	assert_true(mdp_plan_selects(&t.p, &t.x.s.arrays[1]));
	done(&t.pl, &t.d, &t.x);

	/* A mixed array matches only a selector naming both of its classes. */
	many_rules(&t, rules, 2, "ssd-raid5-mixed");
	assert_int_equal(t.x.s.arrays[0].media, MDP_MEDIA_SSD);
	assert_int_equal(t.x.s.arrays[1].media, MDP_MEDIA_MIXED);
	assert_false(mdp_plan_selects(&t.p, &t.x.s.arrays[1]));
	rules[1].match.media |= 1u << MDP_MEDIA_SSD;
	assert_true(mdp_plan_selects(&t.p, &t.x.s.arrays[1]));
	mdp_system_free(&t.x.s);
}

/* An array of unknown class is matched by no media rule, and the plan says why once. */
static void test_media_unknown(void **state)
{
	struct mdp_rule rules[2] = {
	    {.match.media = 1u << MDP_MEDIA_HDD},
	    {.match.media = 1u << MDP_MEDIA_HDD | 1u << MDP_MEDIA_SSD},
	};
	struct one_rule t;
	char buf[1024];

	(void)state;
	many_rules(&t, rules, 2, "ds-dsm6-reshape");
	rules[0].set[MDP_T_READ_AHEAD_KB] = num(1024);
	rules[1].set[MDP_T_READ_AHEAD_KB] = num(1024);
	for (size_t i = 0; i < t.x.s.n_disks; i++)
		if (!strcmp(t.x.s.disks[i].name, "sdd"))
			t.x.s.disks[i].media = MDP_MEDIA_UNKNOWN;
	/* md3 (sda, sdb, sdd) as discovery would have made it */
	t.x.s.arrays[3].media = MDP_MEDIA_UNKNOWN;
	t.x.s.arrays[3].media_bits |= 1u << MDP_MEDIA_UNKNOWN;
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_null(find(&t.pl, MDP_T_READ_AHEAD_KB, "md3"));
	assert_non_null(find(&t.pl, MDP_T_READ_AHEAD_KB, "md2"));
	assert_string_equal(notes_text(&t.pl, buf, sizeof(buf)),
			    "md3: disk class unknown (sdd has no queue/rotational of 0 or 1): "
			    "rules that select by media leave it alone\n");
	done(&t.pl, &t.d, &t.x);
}

/* An array's own lower limit is named when the profile sets the global one above it. */
static void test_local_cap_named(void **state)
{
	struct one_rule t;
	char buf[1024];

	(void)state;
	one_rule(&t, "ds-dsm6-reshape");
	t.p.n_rules = 0;
	t.p.global[MDP_T_SPEED_LIMIT_MAX] = bounded(MDP_B_AT_LEAST, 2000000);
	t.p.global[MDP_T_SPEED_LIMIT_MIN] = num(300000);
	t.x.s.arrays[3].cur[MDP_T_SYNC_SPEED_MAX].val = (struct mdp_value){MDP_V_NUM, 5000};
	t.x.s.arrays[2].cur[MDP_T_SYNC_SPEED_MIN].val = (struct mdp_value){MDP_V_NUM, 400000};
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_string_equal(notes_text(&t.pl, buf, sizeof(buf)),
			    "md3: its own sync_speed_max 5000 (local) caps it below the profile's "
			    "speed_limit_max 2000000; sync_speed_max: system lifts it\n");
	done(&t.pl, &t.d, &t.x);

	/* A profile that sets the array's own value says so in its changes instead. */
	one_rule(&t, "ds-dsm6-reshape");
	t.p.global[MDP_T_SPEED_LIMIT_MAX] = num(2000000);
	t.rule.set[MDP_T_SYNC_SPEED_MAX] = kind(MDP_S_SYSTEM);
	t.x.s.arrays[3].cur[MDP_T_SYNC_SPEED_MAX].val = (struct mdp_value){MDP_V_NUM, 5000};
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_int_equal(t.pl.n_notes, 0);
	assert_true(find(&t.pl, MDP_T_SYNC_SPEED_MAX, "md3")->pending);
	done(&t.pl, &t.d, &t.x);
}

/* One bounded global on ds-dsm6-reshape (speed_limit_max 200000 KiB/s): its change. */
static void max_bound(struct one_rule *t, enum mdp_bound b, uint64_t v, bool kept, uint64_t want)
{
	const struct mdp_change *c;

	one_rule(t, "ds-dsm6-reshape");
	t->p.n_rules = 0;
	t->p.global[MDP_T_SPEED_LIMIT_MAX] = bounded(b, v);
	assert_int_equal(build(&t->p, &t->x, &t->pl, &t->d), 0);
	assert_non_null(c = find(&t->pl, MDP_T_SPEED_LIMIT_MAX, ""));
	assert_int_equal(c->bound, b);
	assert_int_equal(c->limit, v);
	assert_int_equal(c->kept, kept);
	assert_int_equal(c->want.num, want);
	assert_int_equal(c->pending, want != 200000);
	done(&t->pl, &t->d, &t->x);
}

/* A floor never lowers, a ceiling never raises; beyond the bound the value is kept. */
static void test_bounds_global(void **state)
{
	struct one_rule t;

	(void)state;
	max_bound(&t, MDP_B_AT_LEAST, 150000, true, 200000);  /* above: kept */
	max_bound(&t, MDP_B_AT_LEAST, 200000, false, 200000); /* equal: in sync */
	max_bound(&t, MDP_B_AT_LEAST, 600000, false, 600000); /* below: raised */
	max_bound(&t, MDP_B_AT_MOST, 500000, true, 200000);   /* below: kept */
	max_bound(&t, MDP_B_AT_MOST, 200000, false, 200000);  /* equal: in sync */
	max_bound(&t, MDP_B_AT_MOST, 100000, false, 100000);  /* above: lowered */
}

/* read_ahead of md2 is 192 KiB: a ceiling per array, a floor per member disk. */
static void test_bounds_arrays_disks(void **state)
{
	struct one_rule t;
	const struct mdp_change *c;

	(void)state;
	one_rule(&t, "ds-dsm6-reshape");
	t.rule.set[MDP_T_READ_AHEAD_KB] = bounded(MDP_B_AT_MOST, 4096);
	t.rule.set[MDP_T_MEMBER_READ_AHEAD_KB] = bounded(MDP_B_AT_LEAST, 4);
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	c = find(&t.pl, MDP_T_READ_AHEAD_KB, "md2");
	assert_true(c->kept && !c->pending);
	assert_int_equal(c->want.num, 192);
	c = find(&t.pl, MDP_T_MEMBER_READ_AHEAD_KB, "sda");
	assert_true(c->kept && !c->pending);
	assert_int_equal(mdp_plan_pending(&t.pl), 0);
	done(&t.pl, &t.d, &t.x);

	one_rule(&t, "ds-dsm6-reshape");
	t.rule.set[MDP_T_READ_AHEAD_KB] = bounded(MDP_B_AT_MOST, 128);
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	c = find(&t.pl, MDP_T_READ_AHEAD_KB, "md2");
	assert_true(!c->kept && c->pending);
	assert_int_equal(c->want.num, 128);
	done(&t.pl, &t.d, &t.x);
}

/*
 * server-raid6-raid10's md0 has a stripe cache of 8192 (8 disks): auto in
 * 128 MiB is 4096. Plain auto shrinks it; {at_least: auto} keeps it.
 */
static void test_bounds_stripe_auto(void **state)
{
	struct one_rule t;
	const struct mdp_change *c;

	(void)state;
	for (int floor = 0; floor < 2; floor++) {
		one_rule(&t, "server-raid6-raid10");
		t.rule.set[MDP_T_STRIPE_CACHE_SIZE] = kind(MDP_S_AUTO);
		t.rule.set[MDP_T_STRIPE_CACHE_SIZE].bound = floor ? MDP_B_AT_LEAST : MDP_B_EXACT;
		t.p.budget = (struct mdp_budget){MDP_BUDGET_BYTES, 128 * MIB, {0}};
		assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
		c = find(&t.pl, MDP_T_STRIPE_CACHE_SIZE, "md0");
		assert_int_equal(c->want.num, floor ? 8192 : 4096);
		assert_int_equal(c->kept, floor);
		assert_int_equal(c->pending, !floor);
		if (floor) {
			assert_int_equal(c->limit, 4096);
			assert_int_equal(t.pl.mem_after, t.pl.mem_now);
		}
		done(&t.pl, &t.d, &t.x);
	}
}

/* A floor that keeps a min above the max the profile sets: refused, where it is written. */
static void test_bounds_cross(void **state)
{
	struct one_rule t;

	(void)state;
	one_rule(&t, "ds-dsm6-reshape"); /* speed_limit_min 10000 */
	t.p.n_rules = 0;
	t.p.global[MDP_T_SPEED_LIMIT_MIN] = bounded(MDP_B_AT_LEAST, 5000);
	t.p.global[MDP_T_SPEED_LIMIT_MAX] = num(8000);
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), -EINVAL);
	assert_int_equal(t.d.n, 1);
	assert_string_equal(t.d.v[0].msg,
			    "speed_limit_min 10000 would be above speed_limit_max 8000 (a bound "
			    "keeps what the system has): change the bound or the other value");
	assert_int_equal(t.d.v[0].line, 1);
	done(&t.pl, &t.d, &t.x);
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
	struct one_rule t;

	(void)state;
	one_rule(&t, "ds-dsm6-reshape");
	t.x.s.arrays[3].raid_disks = 3; /* md3 shrinking 5 -> 3 */
	t.x.s.arrays[3].prev_raid_disks = 5;
	t.rule.set[MDP_T_STRIPE_CACHE_SIZE] = num(1024);
	assert_int_equal(build(&t.p, &t.x, &t.pl, &t.d), 0);
	assert_int_equal(t.pl.mem[1].disks, 5);
	assert_int_equal(t.pl.mem[1].after, 5 * 4096 * (uint64_t)1024);
	done(&t.pl, &t.d, &t.x);
}

/* ---- every registry entry, end to end ------------------------------------------ */

static bool parity(enum mdp_level l)
{
	return l == MDP_LEVEL_RAID4 || l == MDP_LEVEL_RAID5 || l == MDP_LEVEL_RAID6;
}

/* The current value of (t, dev) on the fixture, or NULL when it has no such target. */
static const struct mdp_cur *cur_of(const struct mdp_system *s, enum mdp_tunable t, const char *dev)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);

	if (ti->scope == MDP_SCOPE_GLOBAL)
		return *dev ? NULL : &s->global[t];
	for (size_t i = 0; ti->scope == MDP_SCOPE_ARRAY && i < s->n_arrays; i++)
		if (!strcmp(s->arrays[i].name, dev))
			return ti->parity_only && !parity(s->arrays[i].level)
				   ? NULL
				   : &s->arrays[i].cur[t];
	for (size_t i = 0; ti->scope == MDP_SCOPE_DISK && i < s->n_disks; i++)
		if (!strcmp(s->disks[i].name, dev))
			return &s->disks[i].read_ahead;
	return NULL;
}

/* Every target of t the fixture offers: "" for a global, else array or disk names. */
static size_t targets_of(const struct mdp_system *s, enum mdp_tunable t, const char **v)
{
	const char *all[64];
	size_t n = 0, k = 0;

	all[n++] = "";
	for (size_t i = 0; i < s->n_arrays && n < 64; i++)
		all[n++] = s->arrays[i].name;
	for (size_t i = 0; i < s->n_disks && n < 64; i++)
		all[n++] = s->disks[i].name;
	for (size_t i = 0; i < n; i++) {
		const struct mdp_cur *c = cur_of(s, t, all[i]);
		if (c && c->present)
			v[k++] = all[i];
	}
	return k;
}

/* A value in t's range that none of its targets has now: near the bottom or the top. */
static uint64_t fresh_value(const struct mdp_system *s, enum mdp_tunable t, bool high)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	const char *dev[64];
	size_t n = targets_of(s, t, dev);

	for (uint64_t i = 0; i < 64 && i <= ti->max - ti->min; i++) {
		uint64_t v = high ? ti->max - i : ti->min + i;
		bool taken = false;
		for (size_t k = 0; k < n; k++) {
			const struct mdp_cur *c = cur_of(s, t, dev[k]);
			taken |= c->val.kind == MDP_V_NUM && c->val.num == v;
		}
		if (!taken)
			return v;
	}
	fail_msg("%s: no free value", ti->key);
	return 0;
}

/* Where a change may stand, from the registry alone (enum mdp_phase). */
static int rank(const struct mdp_change *c)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(c->t);

	if (ti->phase == MDP_PHASE_MEMORY)
		return c->want.num > c->cur.val.num ? 4 : 0;
	if (ti->phase == MDP_PHASE_BOUNDED)
		return 5;
	return 1 + (int)ti->scope;
}

/* Writing the plan's changes one by one, no min ever exceeds its max. */
static void assert_pairs_hold(const struct mdp_system *s, const struct mdp_plan *pl)
{
	for (size_t step = 0; step <= pl->n; step++)
		for (size_t i = 0; i < pl->n; i++) {
			const struct mdp_tunable_info *ti = mdp_tunable_info(pl->v[i].t);
			if (ti->pair != MDP_PAIR_MIN)
				continue;
			const struct mdp_cur *cmax = cur_of(s, ti->partner, pl->v[i].dev);
			struct mdp_value lo = pl->v[i].cur.val, hi = cmax->val;
			for (size_t k = 0; k < step; k++) {
				if (!strcmp(pl->v[k].dev, pl->v[i].dev) && pl->v[k].t == pl->v[i].t)
					lo = pl->v[k].want;
				if (!strcmp(pl->v[k].dev, pl->v[i].dev) &&
				    pl->v[k].t == ti->partner)
					hi = pl->v[k].want;
			}
			if (lo.kind == MDP_V_NUM && hi.kind == MDP_V_NUM && lo.num > hi.num)
				fail_msg("%s %s: min %" PRIu64 " above max %" PRIu64
					 " after %zu writes",
					 pl->v[i].dev, ti->key, lo.num, hi.num, step);
		}
}

/*
 * One profile sets every tunable of the registry to a value no target has:
 * the loader takes every key, and the plan holds exactly one pending change
 * per target the fixture offers, each one showable, in an order the
 * registry's phases and pairs allow. A registry entry the loader, the
 * planner or the fixture does not handle fails here.
 */
static void every_tunable(bool high)
{
	char yaml[4096], line[128];
	uint64_t val[MDP_T_COUNT];
	struct mdp_profile p;
	struct mdp_plan pl;
	struct mdp_diags d;
	struct sys x;
	size_t want_n = 0;

	load_sys(&x, "server-raid6-raid10");
	snprintf(yaml, sizeof(yaml), "raid:\n");
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			strcat(yaml, "arrays:\n  - match: all\n");
		for (int t = 0; t < MDP_T_COUNT; t++) {
			const struct mdp_tunable_info *ti = mdp_tunable_info(t);
			if ((ti->scope == MDP_SCOPE_GLOBAL) == pass)
				continue;
			val[t] = fresh_value(&x.s, t, high);
			snprintf(line, sizeof(line), "%s%s: %" PRIu64 "%s\n", pass ? "    " : "  ",
				 ti->key, val[t], strcmp(ti->unit, "KiB") ? "" : "KiB");
			strcat(yaml, line);
		}
	}
	mdp_diags_init(&d);
	if (mdp_profile_load_mem(NULL, "t.yaml", yaml, strlen(yaml), &p, &d))
		fail_msg("loader refused:\n%s\n%s", yaml, d.n ? d.v[0].msg : "");
	mdp_diags_free(&d);
	for (int t = 0; t < MDP_T_COUNT; t++) {
		const struct mdp_setting *st = mdp_tunable_info(t)->scope == MDP_SCOPE_GLOBAL
						   ? &p.global[t]
						   : &p.rules[0].set[t];
		assert_int_equal(st->kind, MDP_S_NUM);
		assert_int_equal(st->num, val[t]);
	}
	if (build(&p, &x, &pl, &d))
		fail_msg("plan refused:\n%s\n%s", yaml, d.n ? d.v[0].msg : "");

	for (int t = 0; t < MDP_T_COUNT; t++) {
		const char *dev[64];
		size_t n = targets_of(&x.s, t, dev);
		if (!n)
			fail_msg("%s: the fixture offers no target", mdp_tunable_info(t)->key);
		for (size_t k = 0; k < n; k++) {
			size_t count = 0;
			for (size_t i = 0; i < pl.n; i++)
				count += pl.v[i].t == (enum mdp_tunable)t &&
					 !strcmp(pl.v[i].dev, dev[k]);
			if (count != 1)
				fail_msg("%s '%s': %zu changes planned, want 1",
					 mdp_tunable_info(t)->key, dev[k], count);
			assert_true(find(&pl, t, dev[k])->pending);
			assert_int_equal(find(&pl, t, dev[k])->want.num, val[t]);
		}
		want_n += n;
	}
	assert_int_equal(pl.n, want_n);
	for (size_t i = 0; i < pl.n; i++) {
		char name[64], shown[64];
		assert_int_equal(
		    mdp_tunable_target_name(pl.v[i].t, pl.v[i].dev, name, sizeof(name)), 0);
		assert_int_equal(mdp_tunable_show(pl.v[i].t, &pl.v[i].want, shown, sizeof(shown)),
				 0);
		assert_true(*name && *shown);
		if (i && rank(&pl.v[i - 1]) > rank(&pl.v[i]))
			fail_msg("%s %s written before %s %s", pl.v[i - 1].dev,
				 mdp_tunable_info(pl.v[i - 1].t)->key, pl.v[i].dev,
				 mdp_tunable_info(pl.v[i].t)->key);
	}
	assert_pairs_hold(&x.s, &pl);
	mdp_profile_free(&p);
	done(&pl, &d, &x);
}

static void test_every_tunable_lowered(void **state)
{
	(void)state;
	every_tunable(false);
}

static void test_every_tunable_raised(void **state)
{
	(void)state;
	every_tunable(true);
}

/* Pairs name each other, share scope and phase; the registry is complete. */
static void test_registry_consistent(void **state)
{
	(void)state;
	for (int t = 0; t < MDP_T_COUNT; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info(t);
		assert_non_null(ti->key);
		assert_non_null(ti->path);
		assert_non_null(ti->unit);
		assert_non_null(ti->doc);
		assert_true(ti->min <= ti->max);
		if (ti->pair == MDP_PAIR_NONE)
			continue;
		const struct mdp_tunable_info *pt = mdp_tunable_info(ti->partner);
		assert_non_null(pt);
		assert_int_equal(pt->partner, t);
		assert_int_equal(pt->pair, ti->pair == MDP_PAIR_MIN ? MDP_PAIR_MAX : MDP_PAIR_MIN);
		assert_int_equal(pt->scope, ti->scope);
		assert_int_equal(pt->phase, ti->phase);
	}
}

MDP_TEST_MAIN(test_auto_fits_budget, test_over_budget_refused, test_budget_size_shown_exactly,
	      test_safe_order, test_rule_precedence, test_media_selects, test_media_unknown,
	      test_local_cap_named, test_reshape_keeps_stripes, test_disks_and_system,
	      test_md_not_loaded, test_bounds_global, test_bounds_arrays_disks,
	      test_bounds_stripe_auto, test_bounds_cross, test_lean_discovery_same_plan,
	      test_stripes_reshape_geometry, test_every_tunable_lowered, test_every_tunable_raised,
	      test_registry_consistent)
