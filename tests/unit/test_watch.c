/*
 * Unit tests of watch: which operations count as running, that a fixture
 * root's regular files never wake the poll (the timeout paces it, no
 * spinning), that a watched file that reports an error for ever (kernfs
 * does once its array is stopped) is dropped instead of waking every
 * poll, that a blocked stop signal comes back as an event, and what
 * following a newer discovery keeps.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "discover.h"
#include "support.h"
#include "watch.h"
#include "watch_int.h"

static void fixture_root(struct mdp_root *r, struct mdp_system *s)
{
	test_fixture_system("ds-dsm6-reshape", MDP_SKIP_UUID, r, s);
}

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void test_running(void **state)
{
	static const struct {
		const char *action, *queued;
		bool running;
	} cases[] = {
	    {"resync", "", true},         {"recover", "", true},   {"reshape", "", true},
	    {"check", "", true},          {"repair", "", true},    {"idle", "", false},
	    {"frozen", "", false},        {"", "", false},         {"resync", "DELAYED", false},
	    {"resync", "PENDING", false}, {"recovery", "", false}, /* mdstat's word, not md's */
	};
	struct mdp_array a;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&a, 0, sizeof(a));
		strcpy(a.sync_action, cases[i].action);
		strcpy(a.sync_queued, cases[i].queued);
		if (mdp_watch_running(&a) != cases[i].running)
			fail_msg("%s/%s: running should be %d", cases[i].action, cases[i].queued,
				 cases[i].running);
	}
	/* md/sync_speed "none": md names the recovery, no thread works on it */
	memset(&a, 0, sizeof(a));
	strcpy(a.sync_action, "recover");
	a.no_sync_thread = true;
	assert_false(mdp_watch_running(&a));
}

/* Regular files never report POLLPRI: the wait lasts its whole timeout. */
static void test_timeout_paces(void **state)
{
	struct mdp_root r;
	struct mdp_system s;
	struct mdp_watch w;
	double t0;
	int sig = 0;

	(void)state;
	fixture_root(&r, &s);
	assert_int_equal(mdp_watch_open(&r, &s, NULL, &w), 0);
	assert_int_equal(w.n, 1 + s.n_arrays); /* /proc/mdstat and each md/sync_action */
	assert_int_equal(w.sfd, -1);
	t0 = mono_ms();
	assert_int_equal(mdp_watch_wait(&w, 60, &sig), MDP_WATCH_TIMEOUT);
	assert_true(mono_ms() - t0 >= 55);
	mdp_watch_close(&w);
	mdp_system_free(&s);
	mdp_root_fini(&r);
}

/*
 * Wakeups in rounds waits of 20 ms: a watch that spins on a file stuck
 * in error returns MDP_WATCH_MD every time, at once.
 */
static int count_md_events(struct mdp_watch *w, int rounds)
{
	int n = 0, sig = 0, ev;

	for (int i = 0; i < rounds; i++) {
		ev = mdp_watch_wait(w, 20, &sig);
		assert_true(ev == MDP_WATCH_MD || ev == MDP_WATCH_TIMEOUT);
		n += ev == MDP_WATCH_MD;
	}
	return n;
}

/*
 * A stopped array's md/sync_action answers poll() with POLLERR|POLLPRI at
 * once, every time, and cannot be read (ENODEV). Here: the write end of a
 * pipe whose reader is gone (POLLERR for ever, unreadable) put in place of
 * one watched file. It wakes the wait once, then is dropped.
 */
static void spoil_with_error_file(struct mdp_watch *w)
{
	int pfd[2];

	assert_true(w->n >= 2);
	assert_int_equal(pipe(pfd), 0);
	close(pfd[0]);
	assert_true(dup2(pfd[1], w->fds[w->n - 1]) >= 0); /* the last array's sync_action */
	close(pfd[1]);
}

/* A watched fd closed behind the watch's back (POLLNVAL) is dropped too. */
static void spoil_with_closed_fd(struct mdp_watch *w)
{
	close(w->fds[0]);
}

/* The watch on the fixture, one file spoiled: one wake at most, then it is dropped. */
static void expect_dropped(void (*spoil)(struct mdp_watch *w))
{
	struct mdp_root r;
	struct mdp_system s;
	struct mdp_watch w;
	size_t n0;

	fixture_root(&r, &s);
	assert_int_equal(mdp_watch_open(&r, &s, NULL, &w), 0);
	n0 = w.n;
	spoil(&w);
	assert_true(count_md_events(&w, 10) <= 1);
	assert_int_equal(w.n, n0 - 1);
	mdp_watch_close(&w);
	mdp_system_free(&s);
	mdp_root_fini(&r);
}

static void test_bad_fd_dropped(void **state)
{
	(void)state;
	expect_dropped(spoil_with_error_file);
	expect_dropped(spoil_with_closed_fd);
}

/* A stop signal held pending by the caller wakes either wait at once, and is consumed. */
static void test_signal(void **state)
{
	struct mdp_root r;
	struct mdp_system s;
	struct mdp_watch w;
	sigset_t set, old, pending;
	int sig = 0;

	(void)state;
	fixture_root(&r, &s);
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	assert_int_equal(mdp_watch_open(&r, &s, &set, &w), 0);
	raise(SIGHUP);
	assert_int_equal(mdp_watch_wait(&w, 5000, &sig), MDP_WATCH_SIGNAL);
	assert_int_equal(sig, SIGHUP);
	sigpending(&pending);
	assert_false(sigismember(&pending, SIGHUP));
	assert_int_equal(mdp_watch_wait(&w, 10, &sig), MDP_WATCH_TIMEOUT);
	/* the wait for a stop signal alone (a watcher's for the lock): the same */
	raise(SIGHUP);
	sig = 0;
	assert_int_equal(mdp_watch_wait_signal(&w, 5000, &sig), MDP_WATCH_SIGNAL);
	assert_int_equal(sig, SIGHUP);
	assert_int_equal(mdp_watch_wait_signal(&w, 10, &sig), MDP_WATCH_TIMEOUT);
	mdp_watch_close(&w);
	sigprocmask(SIG_SETMASK, &old, NULL);
	mdp_system_free(&s);
	mdp_root_fini(&r);
}

/* The descriptor w holds for array name's md/sync_action ("" /proc/mdstat), or -1. */
/* A copy of the seed DiskStation in dir (made), its root and its arrays. */
static void seed_copy(char *dir, struct mdp_root *r, struct mdp_system *s)
{
	struct mdp_diags d;

	assert_non_null(mkdtemp(dir));
	test_sh("cp -R '%s/tests/fixtures/ds-dsm6-reshape/.' '%s'", getenv("MDP_SRCDIR"), dir);
	assert_int_equal(mdp_root_init(r, dir), 0);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover_some(r, MDP_SKIP_UUID, s, &d), 0);
	mdp_diags_free(&d);
}

static int fd_of(const struct mdp_watch *w, const char *name)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->name[i], name))
			return w->fds[i];
	return -1;
}

/*
 * Following a newer discovery keeps the files of the arrays it still has
 * (their descriptors, so an event md raised on them meanwhile stays) and
 * /proc/mdstat, with each file's index in the new system; the arrays gone
 * are closed; a file that is another now (its array stopped and started
 * again: here renamed over) is opened anew.
 */
static void test_follow(void **state)
{
	struct mdp_root r;
	struct mdp_system s, two;
	struct mdp_array v[2];
	struct mdp_watch w;
	char dir[] = "/tmp/mdp-watch-XXXXXX", buf[32];
	int mdstat, md2, md3;

	(void)state;
	seed_copy(dir, &r, &s);
	assert_int_equal(mdp_watch_open(&r, &s, NULL, &w), 0);
	assert_int_equal(w.n, 5);
	mdstat = fd_of(&w, "");
	md2 = fd_of(&w, "md2");
	md3 = fd_of(&w, "md3");
	assert_true(mdstat >= 0 && md2 >= 0 && md3 >= 0);
	memset(v, 0, sizeof(v));
	strcpy(v[0].name, "md3");
	strcpy(v[1].name, "md2");
	two = (struct mdp_system){.arrays = v, .n_arrays = 2};
	assert_int_equal(mdp_watch_follow(&r, &two, &w), 0);
	assert_int_equal(w.n, 3);
	assert_int_equal(fd_of(&w, ""), mdstat);
	assert_int_equal(fd_of(&w, "md3"), md3);
	assert_int_equal(fd_of(&w, "md2"), md2);
	assert_int_equal(fd_of(&w, "md1"), -1);
	for (size_t i = 0; i < w.n; i++)
		assert_int_equal(w.arr[i], !w.name[i][0] ? -1 : !strcmp(w.name[i], "md3") ? 0 : 1);
	/* md2 stopped and assembled again between two looks: another file */
	test_sh("cd '%s/sys/block/md2/md' && echo resync >a && mv a sync_action", dir);
	assert_int_equal(mdp_watch_follow(&r, &two, &w), 0);
	assert_int_equal(fd_of(&w, "md3"), md3);
	for (size_t i = 0; i < w.n; i++)
		if (!strcmp(w.name[i], "md2")) {
			assert_int_equal(mdp_watch_read(&w, i, buf, sizeof(buf)), 0);
			assert_string_equal(buf, "resync");
		}
	mdp_watch_close(&w);
	mdp_system_free(&s);
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", dir);
}

/*
 * status --watch's waits: the watch opened at the first, then kept across
 * redraws and following each one's discovery (an event md raised while the
 * redraw read the system stays on the files kept); closed at the end.
 */
static void test_next_keeps(void **state)
{
	struct mdp_root r;
	struct mdp_system s, one;
	struct mdp_array v[1];
	struct mdp_watch w = {.sfd = -1};
	char dir[] = "/tmp/mdp-watch-XXXXXX";
	int mdstat, md3;

	(void)state;
	seed_copy(dir, &r, &s);
	/* a fixture's files are regular ones: poll says nothing of them, the wait times out */
	assert_int_equal(mdp_watch_next(&r, &s, &w, 0), MDP_WATCH_TIMEOUT);
	assert_int_equal(w.n, 5);
	mdstat = fd_of(&w, "");
	md3 = fd_of(&w, "md3");
	assert_true(mdstat >= 0 && md3 >= 0);
	memset(v, 0, sizeof(v));
	strcpy(v[0].name, "md3");
	one = (struct mdp_system){.arrays = v, .n_arrays = 1};
	assert_int_equal(mdp_watch_next(&r, &one, &w, 0), MDP_WATCH_TIMEOUT);
	assert_int_equal(w.n, 2);
	assert_int_equal(fd_of(&w, ""), mdstat);
	assert_int_equal(fd_of(&w, "md3"), md3);
	mdp_watch_close(&w);
	assert_null(w.p);
	mdp_watch_close(&w); /* twice: nothing left to close */
	mdp_system_free(&s);
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", dir);
}

MDP_TEST_MAIN(test_running, test_timeout_paces, test_bad_fd_dropped, test_signal, test_follow,
	      test_next_keeps)
