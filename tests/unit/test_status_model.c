/*
 * Unit tests of status_model (status_model.h): an operation's ETA and
 * state, missing disks and what a level survives, the arrays only
 * /proc/mdstat lists, and the profile side judged from the journal read
 * against the DSM 6 reshape fixture (md3 reshaping at 4687 KiB/s, its
 * stripe cache 256).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "status_model.h"
#include "support.h"
#include "status_int.h"

static void fixture_root(struct mdp_root *r, struct mdp_system *s)
{
	test_fixture_system("ds-dsm6-reshape", MDP_SKIP_UUID, r, s);
}

static void test_op(void **state)
{
	struct mdp_array a;

	(void)state;
	memset(&a, 0, sizeof(a));
	strcpy(a.sync_action, "resync");
	a.has_progress = true;
	a.sync_total = 2000;
	a.sync_done = 1000;
	a.sync_speed = 10;
	assert_int_equal(mdp_status_eta(&a), 50); /* 1000 sectors, 500 KiB at 10 KiB/s */
	assert_string_equal(mdp_status_op_state(&a), "running");
	a.sync_speed = 0;
	assert_int_equal(mdp_status_eta(&a), 0);
	a.sync_speed = 10;
	a.sync_done = 2000;
	assert_int_equal(mdp_status_eta(&a), 0);
	a.has_progress = false;
	a.sync_done = 0;
	assert_int_equal(mdp_status_eta(&a), 0);
	strcpy(a.sync_queued, "DELAYED");
	assert_string_equal(mdp_status_op_state(&a), "delayed");
	strcpy(a.sync_queued, "CLEANING UP");
	assert_string_equal(mdp_status_op_state(&a), "cleaning_up");
	strcpy(a.sync_action, "idle");
	assert_false(mdp_status_busy(&a));
	assert_string_equal(mdp_status_op_state(&a), "idle");
	a.sync_action[0] = '\0';
	assert_false(mdp_status_busy(&a));
}

static void test_failed(void **state)
{
	static const struct {
		const char *level;
		int disks, missing;
		bool failed;
	} cases[] = {
	    {"raid5", 3, 1, false}, {"raid5", 3, 2, true},  {"raid6", 6, 2, false},
	    {"raid6", 6, 3, true},  {"raid1", 4, 3, false}, {"raid1", 4, 4, true},
	    {"raid4", 3, 2, true},  {"raid0", 2, 1, false}, /* not judged: stays degraded */
	    {"raid5", 0, 2, false},
	};
	struct mdp_array a;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&a, 0, sizeof(a));
		strcpy(a.level_name, cases[i].level);
		a.raid_disks = cases[i].disks;
		if (mdp_status_failed(&a, cases[i].missing) != cases[i].failed)
			fail_msg("%s of %d, %d missing: failed should be %d", cases[i].level,
				 cases[i].disks, cases[i].missing, cases[i].failed);
	}
}

static void count(const struct mdp_system *s, const struct mdp_status_array *v, void *arg)
{
	assert_true(v->a->from_mdstat);
	assert_int_equal(mdp_status_missing(s, v->a), v->a->degraded);
	assert_int_equal(v->missing, v->a->degraded);
	++*(size_t *)arg;
}

/* md/degraded when there is one, else mdstat's [n/m]; the mdstat-only arrays. */
static void test_arrays(void **state)
{
	struct mdp_root r;
	struct mdp_system s;
	struct mdp_array a;
	size_t n = 0, had;

	(void)state;
	fixture_root(&r, &s);
	memset(&a, 0, sizeof(a));
	a.degraded = 1;
	assert_int_equal(mdp_status_missing(&s, &a), 1);
	a.degraded = -1;
	strcpy(a.name, "md3");
	assert_int_equal(mdp_status_missing(&s, &a), 0); /* [3/3] */
	strcpy(a.name, "md9");
	assert_int_equal(mdp_status_missing(&s, &a), -1);
	/* the view of each array holds what the functions above say of it */
	for (size_t i = 0; i < s.n_arrays; i++) {
		const struct mdp_array *b = &s.arrays[i];
		struct mdp_status_array v;
		mdp_status_array(&s, b, &v);
		assert_ptr_equal(v.a, b);
		assert_int_equal(v.eta, mdp_status_eta(b));
		assert_int_equal(v.busy, mdp_status_busy(b));
		assert_string_equal(v.op_state, mdp_status_op_state(b));
		assert_int_equal(v.missing, mdp_status_missing(&s, b));
		assert_int_equal(v.failed, mdp_status_failed(b, v.missing));
		assert_int_equal(v.stripe_bytes != 0,
				 b->cur[MDP_T_STRIPE_CACHE_SIZE].present && b->n_members > 0);
	}
	assert_int_equal(mdp_status_each_mdstat_only(&s, count, &n), 0);
	assert_int_equal(n, 0);
	/* sysfs knowing none of them: each of mdstat's four, from mdstat */
	had = s.n_arrays;
	s.n_arrays = 0;
	assert_int_equal(mdp_status_each_mdstat_only(&s, count, &n), 4);
	assert_int_equal(n, 4);
	s.n_arrays = had;
	mdp_system_free(&s);
	mdp_root_fini(&r);
}

/* A journal as mdp_journal_load leaves it: state, boot, a paused service, a speed, a value. */
static void journal(struct mdp_journal *j, enum mdp_jstate state, const char *boot)
{
	memset(j, 0, sizeof(*j));
	j->state = state;
	snprintf(j->boot_id, sizeof(j->boot_id), "%s", boot);
	strcpy(j->profile, "reshape-fast");
	assert_non_null(j->svc = calloc(2, sizeof(*j->svc)));
	j->n_svc = 2;
	strcpy(j->svc[0].name, "synoindexd");
	j->svc[0].paused = true;
	strcpy(j->svc[1].name, "synomkthumbd");
	assert_non_null(j->speed = calloc(2, sizeof(*j->speed)));
	j->n_speed = 2;
	strcpy(j->speed[0].dev, "md3");
	strcpy(j->speed[0].action, "reshape");
	strcpy(j->speed[1].dev, "md2");
	strcpy(j->speed[1].action, "resync");
	assert_non_null(j->set = calloc(1, sizeof(*j->set)));
	j->n_set = 1;
	j->set[0].t = MDP_T_STRIPE_CACHE_SIZE;
	strcpy(j->set[0].dev, "md3");
	j->set[0].want = (struct mdp_value){.kind = MDP_V_NUM, .num = 1024};
}

static void test_profile(void **state)
{
	struct mdp_root r;
	struct mdp_system s;
	struct mdp_journal j;
	struct mdp_status st;
	uint64_t now = 0;

	(void)state;
	fixture_root(&r, &s);
	mdp_status_read(&r, &s, NULL, -ENOENT, &st);
	assert_int_equal(st.state, MDP_PS_NONE);
	assert_int_equal(st.drift, -1);
	mdp_status_free(&st);
	mdp_status_read(&r, &s, NULL, -EBADMSG, &st); /* cli_warn_recover's to report */
	assert_int_equal(st.state, MDP_PS_NONE);
	mdp_status_read(&r, &s, NULL, -EACCES, &st);
	assert_int_equal(st.state, MDP_PS_UNKNOWN);
	assert_int_equal(st.jerr, -EACCES);
	assert_string_equal(mdp_pstate_name(st.state), "unknown");

	journal(&j, MDP_J_ACTIVE, "another-boot");
	mdp_status_read(&r, &s, &j, 0, &st);
	assert_int_equal(st.state, MDP_PS_STALE);
	assert_int_equal(st.n_paused, 1);
	assert_int_equal(st.drift, -1); /* a stale journal's values are gone: no drift */
	mdp_status_free(&st);

	journal(&j, MDP_J_APPLYING, s.boot_id);
	mdp_status_read(&r, &s, &j, 0, &st);
	assert_string_equal(mdp_pstate_name(st.state), "interrupted");
	mdp_status_free(&st);

	journal(&j, MDP_J_ACTIVE, s.boot_id);
	mdp_status_read(&r, &s, &j, 0, &st);
	assert_string_equal(mdp_pstate_name(st.state), "active");
	assert_int_equal(st.drift, 1); /* md3's stripe cache is 256, not 1024 */
	assert_false(st.watch_gone);
	assert_true(mdp_status_speed_now(&st, &st.j.speed[0], &now));
	assert_int_equal(now, 4687);
	assert_false(mdp_status_speed_now(&st, &st.j.speed[1], &now)); /* md2 is idle */
	mdp_status_free(&st);
	assert_false(st.have_j);

	mdp_system_free(&s);
	mdp_root_fini(&r);
}

/* A check running on name at 5000 KiB/s with 2 * 5000 * 7200 sectors left: 2 h of work. */
static struct mdp_array checking(const char *name)
{
	struct mdp_array a;

	memset(&a, 0, sizeof(a));
	snprintf(a.name, sizeof(a.name), "%s", name);
	strcpy(a.sync_action, "check");
	a.has_progress = true;
	a.sync_total = 100000000 + 72000000;
	a.sync_done = 100000000;
	a.sync_speed = 5000;
	return a;
}

/*
 * A check's finish in the watcher's windows: only under a watcher with windows, only for
 * the arrays its profile names (md1 is not md10), from st->now in the local zone; a paused
 * one at its pace as paused, with no time when it waits for a disk to cool, none without a
 * pace.
 */
static void test_finish(void **state)
{
	struct mdp_array v[] = {checking("md1"), checking("md10")};
	struct mdp_system s = {.arrays = v, .n_arrays = 2};
	struct mdp_jpause pause = {"md1", "check", 100000000, 172000000, {"heat", 0}, 4000};
	struct mdp_status st = {.sys = &s, .have_w = true};
	struct mdp_status_finish f;
	char why[64];

	(void)state;
	setenv("TZ", "UTC0", 1);
	tzset();
	st.now = 1796641200;                             /* Monday 2026-12-07 11:00 UTC */
	assert_false(mdp_status_finish(&st, "md1", &f)); /* no windows: md's own ETA says it */
	assert_int_equal(mdp_mwin_parse("Mon-Fri 01:00-07:00", &st.w.windows[0], why, sizeof(why)),
			 0);
	st.w.n_windows = 1;
	snprintf(st.w.arrays, sizeof(st.w.arrays), "md10 md3");
	assert_false(mdp_status_finish(&st, "md1", &f));
	assert_true(mdp_status_finish(&st, "md10", &f));
	assert_false(f.paused);
	assert_string_equal(f.action, "check");
	assert_int_equal(f.kib_s, 5000);
	assert_int_equal(f.work_s, 7200);
	/* 14 h to Tuesday 01:00, then 2 h */
	assert_int_equal(f.at, st.now + 16 * 3600);
	st.w.arrays[0] = '\0'; /* every array */
	assert_true(mdp_status_finish(&st, "md1", &f));
	st.now = 1796688000 + 3600; /* Tuesday 01:00 UTC: in the window */
	assert_true(mdp_status_finish(&st, "md1", &f));
	assert_int_equal(f.at, st.now + 7200);
	/* Paused beside a hot disk, at 4000 KiB/s: its work, no time. */
	strcpy(v[0].sync_action, "idle");
	st.checks = (struct mdp_jpauses){.v = &pause, .n = 1};
	assert_true(mdp_status_finish(&st, "md1", &f));
	assert_true(f.paused);
	assert_int_equal(f.work_s, 9000);
	assert_int_equal(f.at, 0);
	/* Outside its windows: from the next. Without its pace: nothing. */
	strcpy(pause.why.word, "window");
	assert_true(mdp_status_finish(&st, "md1", &f));
	assert_int_equal(f.at, st.now + 9000);
	pause.kib_s = 0;
	assert_false(mdp_status_finish(&st, "md1", &f));
	/* No watcher: its windows are not believed. */
	st.have_w = false;
	assert_false(mdp_status_finish(&st, "md10", &f));
}

MDP_TEST_MAIN(test_op, test_failed, test_arrays, test_profile, test_finish)
