/*
 * Unit tests of iostat: the stat file's fields, the latency over an
 * interval from the array's own counters, the members' when md counts
 * requests but not their time, idle when nothing went through the array,
 * and reading through a root.
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
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "iostat.h"
#include "support.h"
#include "iostat_int.h"

static void test_parse(void **state)
{
	struct mdp_io_count c;

	(void)state;
	/* 5.x: 17 fields; read I/Os 100, read ticks 300, write I/Os 50, write ticks 700 */
	assert_int_equal(
	    mdp_iostat_parse("     100        0     8000      300       50        0   "
			     "  4000      700        0      900     1000        0        0"
			     "        0        0        0        0\n",
			     &c),
	    0);
	assert_int_equal(c.ios, 150);
	assert_int_equal(c.ticks_ms, 1000);
	/* 3.10: 11 fields */
	assert_int_equal(mdp_iostat_parse("1 2 3 4 5 6 7 8 9 10 11", &c), 0);
	assert_int_equal(c.ios, 6);
	assert_int_equal(c.ticks_ms, 12);
	assert_int_equal(mdp_iostat_parse("1 2 3 4 5 6 7", &c), -EINVAL);
	assert_int_equal(mdp_iostat_parse("1 2 3 x 5 6 7 8 9", &c), -EINVAL);
	assert_int_equal(mdp_iostat_parse("1 2 3 4x 5 6 7 8 9", &c), -EINVAL);
	assert_int_equal(mdp_iostat_parse("", &c), -EINVAL);
}

static struct mdp_io_snap snap(uint64_t ios, uint64_t ticks, uint64_t mios, uint64_t mticks)
{
	return (struct mdp_io_snap){true, {ios, ticks}, true, {mios, mticks}};
}

static void test_latency(void **state)
{
	struct mdp_io_snap a = snap(1000, 5000, 9000, 90000), b;
	struct mdp_goal_sample s;
	enum mdp_io_source src;
	bool timed = false;

	(void)state;
	/* md timed: 100 requests in 2000 ms, 20 ms each; the members (sync included) ignored */
	b = snap(1100, 7000, 20000, 900000);
	mdp_iostat_latency(&a, &b, &timed, &s, &src);
	assert_int_equal(s.kind, MDP_GOAL_LATENCY);
	assert_int_equal(s.latency_us, 20000);
	assert_int_equal(src, MDP_IO_MD);
	assert_true(timed);
	/* nothing through the array: idle, whatever the members did */
	b = snap(1000, 5000, 20000, 900000);
	mdp_iostat_latency(&a, &b, &timed, &s, &src);
	assert_int_equal(s.kind, MDP_GOAL_IDLE);
	assert_int_equal(src, MDP_IO_NONE);
	/* once timed, requests adding no whole ms are 0 ms, not the members' */
	b = snap(1003, 5000, 20000, 900000);
	mdp_iostat_latency(&a, &b, &timed, &s, &src);
	assert_int_equal(s.kind, MDP_GOAL_LATENCY);
	assert_int_equal(s.latency_us, 0);
	assert_int_equal(src, MDP_IO_MD);
	/* md counts but never timed (3.10, 4.4): the members' 11000 requests in 810000 ms */
	timed = false;
	b = snap(1100, 5000, 20000, 900000);
	mdp_iostat_latency(&a, &b, &timed, &s, &src);
	assert_false(timed);
	assert_int_equal(s.kind, MDP_GOAL_LATENCY);
	assert_int_equal(s.latency_us, 810000000 / 11000);
	assert_int_equal(src, MDP_IO_MEMBERS);
	/* members unread: unknown */
	b.have_members = false;
	mdp_iostat_latency(&a, &b, &timed, &s, &src);
	assert_int_equal(s.kind, MDP_GOAL_UNKNOWN);
	/* md's counters went back (the array stopped and came back): unknown */
	b = snap(10, 50, 20000, 900000);
	mdp_iostat_latency(&a, &b, &timed, &s, &src);
	assert_int_equal(s.kind, MDP_GOAL_UNKNOWN);
	assert_int_equal(src, MDP_IO_NONE);
	/* md unread: unknown */
	b = snap(1100, 7000, 20000, 900000);
	b.have_md = false;
	mdp_iostat_latency(&a, &b, &timed, &s, &src);
	assert_int_equal(s.kind, MDP_GOAL_UNKNOWN);
	assert_string_equal(mdp_io_source_key(MDP_IO_MD), "md");
	assert_string_equal(mdp_io_source_key(MDP_IO_MEMBERS), "members");
}

/* Each source's key names it back; each has its words. */
static void test_sources(void **state)
{
	(void)state;
	for (int k = MDP_IO_NONE; k <= MDP_IO_PART; k++) {
		assert_int_equal(mdp_io_source_of(mdp_io_source_key(k)), k);
		assert_true(strlen(mdp_io_source_text(k)) > 0);
	}
	/* the word the goal file, JSON and Prometheus have had for the timed reads */
	assert_string_equal(mdp_io_source_key(MDP_IO_TIMED), "probe");
	assert_int_equal(mdp_io_source_of("disks"), MDP_IO_NONE);
	assert_int_equal(mdp_io_source_of(""), MDP_IO_NONE);
	assert_string_equal(mdp_io_source_text(MDP_IO_TIMED),
			    "the watcher's own timed reads of the array");
}

/* Through a root: md3's own stat and its members' partitions' (ds-dsm6-reshape). */
static void test_read(void **state)
{
	struct mdp_root r;
	struct mdp_system s;
	struct mdp_io_snap io;
	const struct mdp_array *a;
	char dir[] = "/tmp/mdp-iostat-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir));
	test_sh("cp -R '%s/tests/fixtures/ds-dsm6-reshape/.' '%s'", getenv("MDP_SRCDIR"), dir);
	test_sh("cd '%s/sys/block' && echo '10 0 80 30 5 0 40 20 0 0 0' >md3/stat && for d in sda "
		"sdb sdd; do echo '100 0 800 300 50 0 400 700 0 0 0' >$d/${d}6/stat; done",
		dir);
	assert_int_equal(mdp_root_init(&r, dir), 0);
	{
		struct mdp_diags d;
		mdp_diags_init(&d);
		assert_int_equal(mdp_discover_some(&r, MDP_SKIP_UUID, &s, &d), 0);
		mdp_diags_free(&d);
	}
	assert_non_null(a = mdp_system_array(&s, "md3"));
	mdp_iostat_read(&r, a, &io);
	assert_true(io.have_md);
	assert_int_equal(io.md.ios, 15);
	assert_int_equal(io.md.ticks_ms, 50);
	assert_true(io.have_members);
	assert_int_equal(io.members.ios, 3 * 150);
	assert_int_equal(io.members.ticks_ms, 3 * 1000);
	/* a fixture's device nodes are no block devices: nothing is read, nothing timed */
	{
		uint64_t seed = 1, us[MDP_IOSTAT_TIMED_READS] = {77, 77, 77};
		struct mdp_timed_reads *held = NULL;
		assert_int_equal(mdp_iostat_timed_reads(&r, "md3", a->size_kib, &seed, 1000, NULL,
							NULL, &held, us),
				 -ENOENT);
		test_sh("mkdir -p '%s/dev' && head -c 65536 /dev/zero >'%s/dev/md3' && mkfifo "
			"'%s/dev/md4'",
			dir, dir, dir);
		assert_int_equal(mdp_iostat_timed_reads(&r, "md3", a->size_kib, &seed, 1000, NULL,
							NULL, &held, us),
				 -ENOTBLK);
		assert_int_equal(
		    mdp_iostat_timed_reads(&r, "md4", 1024, &seed, 1000, NULL, NULL, &held, us),
		    -ENOTBLK);
		assert_int_equal(
		    mdp_iostat_timed_reads(&r, "md3", 3, &seed, 1000, NULL, NULL, &held, us),
		    -EINVAL);
		assert_int_equal(mdp_iostat_timed_reads(&r, "../etc/md3", 1024, &seed, 1000, NULL,
							NULL, &held, us) < 0,
				 1);
		assert_int_equal(us[1], 77);
		assert_null(held);
	}
	/* md2 has neither file in the fixture */
	assert_non_null(a = mdp_system_array(&s, "md2"));
	mdp_iostat_read(&r, a, &io);
	assert_false(io.have_md);
	assert_false(io.have_members);
	mdp_system_free(&s);
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", dir);
}

/* The timed reads: a quick one, and one slower than the deadline. */
static ssize_t quick_read(int fd, void *buf, size_t len, off_t at)
{
	(void)fd;
	(void)at;
	memset(buf, 0, len);
	return (ssize_t)len;
}

/* A read held until the test writes a byte to the pipe fd is the read end of. */
static ssize_t held_read(int fd, void *buf, size_t len, off_t at)
{
	char c;

	if (read(fd, &c, 1) != 1)
		return -1;
	return quick_read(fd, buf, len, at);
}

static ssize_t short_read(int fd, void *buf, size_t len, off_t at)
{
	(void)fd;
	(void)buf;
	(void)len;
	(void)at;
	return 100;
}

/* The descriptor the next open gives the thread (set before the call that starts it). */
static int given;

static int open_given(const struct mdp_root *r, const char *sys)
{
	(void)r;
	(void)sys;
	return given;
}

static int devnull(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

/* A byte per read: the job's reads end. */
static void let_go(int wr)
{
	assert_int_equal(write(wr, "xxx", MDP_IOSTAT_TIMED_READS), MDP_IOSTAT_TIMED_READS);
}

/* The job freed: it closed its fd, the read end, which the write end's POLLERR shows. */
static void wait_freed(int wr)
{
	struct pollfd p = {.fd = wr, .events = 0};

	assert_int_equal(poll(&p, 1, 5000), 1);
	assert_true(p.revents & POLLERR);
	close(wr);
}

/* The reads on a given descriptor, with rd, through a root of nothing (the real one). */
static int timed(int fd, unsigned deadline_ms, mdp_timed_read_fn *rd, struct mdp_timed_reads **held,
		 uint64_t *us)
{
	static const struct mdp_root real = {.prefix = "", .fd = -1};
	uint64_t seed = 7;

	given = fd;
	return mdp_iostat_timed_reads(&real, "md9", 400, &seed, deadline_ms, open_given, rd, held,
				      us);
}

/* Until the job *held is done, another call is -EBUSY; then it goes on (-EINVAL: no size). */
static void wait_done(struct mdp_timed_reads **held)
{
	static const struct mdp_root real = {.prefix = "", .fd = -1};
	uint64_t seed = 7, us[MDP_IOSTAT_TIMED_READS];
	int err = -EBUSY;

	for (int i = 0; i < 5000 && err == -EBUSY; i++) {
		struct timespec ms = {0, 1000000L};
		if ((err = mdp_iostat_timed_reads(&real, "md9", 0, &seed, 20, NULL, NULL, held,
						  us)) == -EBUSY)
			nanosleep(&ms, NULL);
	}
	assert_int_equal(err, -EINVAL);
	assert_null(*held);
}

static void test_timed_deadline(void **state)
{
	struct mdp_timed_reads *held = NULL;
	uint64_t seed = 7, us[MDP_IOSTAT_TIMED_READS] = {0};
	int pa[2], pb[2];

	(void)state;
	assert_int_equal(timed(devnull(), 1000, quick_read, &held, us), 0);
	assert_null(held);
	assert_true(us[MDP_IOSTAT_TIMED_READS - 1] < 1000000);
	/* reads that wait past a deadline of 20 ms: the watcher goes on, the reads count as the
	 * time waited, and the job is held until they end */
	assert_int_equal(pipe2(pa, O_CLOEXEC), 0);
	assert_int_equal(timed(pa[0], 20, held_read, &held, us), 0);
	assert_non_null(held);
	assert_true(us[0] >= 20000);
	/* until they end, no second call on the same array; then the next one goes on */
	assert_int_equal(
	    mdp_iostat_timed_reads(NULL, "md9", 1024, &seed, 20, NULL, NULL, &held, us), -EBUSY);
	let_go(pa[1]);
	wait_done(&held);
	wait_freed(pa[1]);
	/* a short read is an error, and nothing is held */
	assert_int_equal(timed(devnull(), 1000, short_read, &held, us), -EIO);
	assert_null(held);
	/* let go while its reads still wait: the thread frees it when they end */
	assert_int_equal(pipe2(pb, O_CLOEXEC), 0);
	assert_int_equal(timed(pb[0], 20, held_read, &held, us), 0);
	mdp_iostat_timed_release(&held);
	assert_null(held);
	let_go(pb[1]);
	wait_freed(pb[1]);
}

/* The open as md's can hold it: a FIFO opened to read waits for a writer. */
static int open_held(const struct mdp_root *r, const char *sys)
{
	return mdp_root_open(r, sys, O_RDONLY, 0);
}

/*
 * The device's open is on the thread, under the deadline, too: held past
 * it, it counts as the time waited and the job is held (killed by the
 * alarm where the open is the caller's, which it then holds for ever). The
 * caller's root may go: the thread opens through a copy of its own.
 */
static void test_timed_open_held(void **state)
{
	struct mdp_timed_reads *held = NULL;
	struct mdp_root r;
	char dir[] = "/tmp/mdp-iostat-XXXXXX", fifo[64];
	uint64_t seed = 3, us[MDP_IOSTAT_TIMED_READS] = {0};
	int wr;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/dev/md7", dir);
	test_sh("mkdir '%s/dev' && mkfifo '%s'", dir, fifo);
	assert_int_equal(mdp_root_init(&r, dir), 0);
	alarm(10);
	assert_int_equal(
	    mdp_iostat_timed_reads(&r, "md7", 1024, &seed, 20, open_held, held_read, &held, us), 0);
	alarm(0);
	assert_non_null(held);
	assert_true(us[0] >= 20000);
	assert_int_equal(mdp_iostat_timed_reads(&r, "md7", 1024, &seed, 20, NULL, NULL, &held, us),
			 -EBUSY);
	mdp_root_fini(&r);
	/* a writer: the open ends, then a byte per read */
	assert_true((wr = open(fifo, O_WRONLY | O_CLOEXEC)) >= 0);
	let_go(wr);
	wait_done(&held);
	wait_freed(wr);
	test_sh("rm -rf '%s'", dir);
}

/* ds-dsm6-reshape with two partitions no array uses, sdb3 and sdc3, copied to dir and discovered.
 */
static void peers_seed(char *dir, struct mdp_root *r, struct mdp_system *s)
{
	struct mdp_diags d;

	assert_non_null(mkdtemp(dir));
	test_sh("cp -R '%s/tests/fixtures/ds-dsm6-reshape/.' '%s' && cd '%s/sys/block' && "
		"for p in sdb/sdb3 sdc/sdc3; do mkdir $p && echo 3 >$p/partition; done",
		getenv("MDP_SRCDIR"), dir, dir);
	assert_int_equal(mdp_root_init(r, dir), 0);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover_some(r, MDP_SKIP_UUID, s, &d), 0);
	mdp_diags_free(&d);
}

static void peer_is(const struct mdp_io_peer *p, enum mdp_peer_kind kind, const char *name,
		    const char *shares)
{
	assert_int_equal(p->kind, kind);
	assert_string_equal(p->name, name);
	assert_string_equal(p->shares, shares);
}

/*
 * The disk-sharing map on DSM's layout: md0 (system) and md1 (swap) on
 * partitions 1 and 2 of sda..sdd, md2 on their 5th, md3 on sda6, sdb6 and
 * sdd6. md3 shares sda, sdb and sdd with the three others and sdb with
 * sdb3; md2 every disk, sdc3 too. Partitions of md arrays are no peers of
 * their own.
 */
static void test_peers(void **state)
{
	char dir[] = "/tmp/mdp-peers-XXXXXX", text[64];
	struct mdp_root r;
	struct mdp_system s;
	struct mdp_io_peer *p;
	size_t n;

	(void)state;
	peers_seed(dir, &r, &s);
	assert_string_equal(s.arrays[3].name, "md3");
	assert_int_equal(mdp_iostat_peers(&r, &s, &s.arrays[3], &p, &n), 0);
	assert_int_equal(n, 4);
	peer_is(&p[0], MDP_PEER_ARRAY, "md0", "sda,sdb,sdd");
	peer_is(&p[1], MDP_PEER_ARRAY, "md1", "sda,sdb,sdd");
	peer_is(&p[2], MDP_PEER_ARRAY, "md2", "sda,sdb,sdd");
	peer_is(&p[3], MDP_PEER_PART, "sdb3", "sdb");
	assert_string_equal(p[3].disk, "sdb");
	free(p);
	assert_int_equal(mdp_iostat_peers(&r, &s, &s.arrays[2], &p, &n), 0);
	assert_int_equal(n, 5);
	peer_is(&p[0], MDP_PEER_ARRAY, "md0", "sda,sdb,sdc,sdd");
	peer_is(&p[2], MDP_PEER_ARRAY, "md3", "sda,sdb,sdd");
	peer_is(&p[3], MDP_PEER_PART, "sdb3", "sdb");
	peer_is(&p[4], MDP_PEER_PART, "sdc3", "sdc");
	free(p);
	mdp_iostat_shares_text("sda,sdb,sdd", text, sizeof(text));
	assert_string_equal(text, "sda, sdb, sdd");
	mdp_iostat_shares_text("sda,sdb,sdd", text, 10);
	assert_string_equal(text, "sda, sdb"); /* whole names only */
	mdp_system_free(&s);
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", dir);
}

/*
 * A peer's foreground: a partition by its own counters; md0 by its own
 * while md times them, by its member partitions' where it does not (5.10):
 * those carry none of md3's sync. Idle when nothing went through it.
 */
static void test_peer_latency(void **state)
{
	char dir[] = "/tmp/mdp-peers-XXXXXX";
	struct mdp_root r;
	struct mdp_system s;
	struct mdp_io_peer *p;
	struct mdp_io_snap a, b;
	struct mdp_goal_sample in;
	enum mdp_io_source src;
	bool timed = false;
	size_t n;

	(void)state;
	peers_seed(dir, &r, &s);
	assert_int_equal(mdp_iostat_peers(&r, &s, &s.arrays[3], &p, &n), 0);
	test_sh("cd '%s/sys/block' && echo '10 0 80 0 0 0 0 0 0 0 0' >md0/stat && "
		"echo '5 0 40 50 0 0 0 0 0 0 0' >sdb/sdb3/stat && for d in sda sdb sdc sdd; do "
		"echo '100 0 800 300 0 0 0 0 0 0 0' >$d/${d}1/stat; done",
		dir);
	mdp_iostat_read_peer(&r, &s, &p[3], &a);
	test_sh("echo '15 0 80 350 0 0 0 0 0 0 0' >'%s/sys/block/sdb/sdb3/stat'", dir);
	mdp_iostat_read_peer(&r, &s, &p[3], &b);
	mdp_iostat_peer_latency(&p[3], &a, &b, &timed, &in, &src);
	assert_int_equal(in.kind, MDP_GOAL_LATENCY);
	assert_int_equal(in.latency_us, 30000); /* 10 requests, 300 ms */
	assert_int_equal(src, MDP_IO_PART);
	/* md0: 4 requests through it, untimed; its members 40 of 2 s: 50 ms */
	timed = false;
	mdp_iostat_read_peer(&r, &s, &p[0], &a);
	test_sh("cd '%s/sys/block' && echo '14 0 80 0 0 0 0 0 0 0 0' >md0/stat && for d in sda sdb "
		"sdc sdd; do echo '110 0 800 800 0 0 0 0 0 0 0' >$d/${d}1/stat; done",
		dir);
	mdp_iostat_read_peer(&r, &s, &p[0], &b);
	mdp_iostat_peer_latency(&p[0], &a, &b, &timed, &in, &src);
	assert_int_equal(in.kind, MDP_GOAL_LATENCY);
	assert_int_equal(in.latency_us, 50000);
	assert_int_equal(src, MDP_IO_MEMBERS);
	/* nothing through md0 since: idle */
	mdp_iostat_peer_latency(&p[0], &b, &b, &timed, &in, &src);
	assert_int_equal(in.kind, MDP_GOAL_IDLE);
	/* an array gone from the system reads as nothing */
	snprintf(p[0].name, sizeof(p[0].name), "md9");
	mdp_iostat_read_peer(&r, &s, &p[0], &a);
	assert_false(a.have_md);
	free(p);
	mdp_system_free(&s);
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", dir);
}

/*
 * The percentile window: nearest rank over the reads it holds, the last
 * MDP_IOSTAT_WINDOW once more came (the oldest leave first).
 */
static void test_window(void **state)
{
	struct mdp_io_window w = {0};

	(void)state;
	assert_int_equal(mdp_iostat_window_pct(&w, 95), 0);
	mdp_iostat_window_add(&w, 70);
	assert_int_equal(mdp_iostat_window_pct(&w, 50), 70);
	assert_int_equal(mdp_iostat_window_pct(&w, 99), 70);
	/* 10, 20, ... 100 in no order */
	w = (struct mdp_io_window){0};
	for (unsigned i = 0; i < 10; i++)
		mdp_iostat_window_add(&w, (i * 7 % 10 + 1) * 10);
	assert_int_equal(w.n, 10);
	assert_int_equal(mdp_iostat_window_pct(&w, 50), 50);
	assert_int_equal(mdp_iostat_window_pct(&w, 90), 90);
	assert_int_equal(mdp_iostat_window_pct(&w, 91), 100); /* few reads: the longest */
	assert_int_equal(mdp_iostat_window_pct(&w, 99), 100);
	/* 1..40: the window keeps 9..40 */
	w = (struct mdp_io_window){0};
	for (uint64_t us = 1; us <= 40; us++)
		mdp_iostat_window_add(&w, us);
	assert_int_equal(w.n, MDP_IOSTAT_WINDOW);
	assert_int_equal(mdp_iostat_window_pct(&w, 50), 24);
	assert_int_equal(mdp_iostat_window_pct(&w, 95), 39);
	assert_int_equal(mdp_iostat_window_pct(&w, 99), 40);
	assert_int_equal(mdp_iostat_window_pct(&w, 1), 9);
	/* the next read pushes out the oldest: 9 */
	mdp_iostat_window_add(&w, 1000);
	assert_int_equal(mdp_iostat_window_pct(&w, 1), 10);
	assert_int_equal(mdp_iostat_window_pct(&w, 99), 1000);
}

MDP_TEST_MAIN(test_parse, test_latency, test_sources, test_read, test_window, test_peers,
	      test_peer_latency, test_timed_deadline, test_timed_open_held)
