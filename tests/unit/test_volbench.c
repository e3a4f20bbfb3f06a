/*
 * Unit tests of volbench: the read never follows a test file swapped while
 * it was written (a FIFO put in its place would hang it for ever), and a
 * file a killed run left behind is removed before the free space counts;
 * without --path the volume is found through any stack of device-mapper
 * layers.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "diag.h"
#include "root.h"
#include "volbench.h"
#include "support.h"

/* The directory of the test under way, for the swap done from the stop hook. */
static char swap_dir[256];
static int swapped;

/* Called between written chunks: rename the file away and put a FIFO in its place. */
static int swap_to_fifo(void)
{
	char from[512], to[512];

	if (swapped++)
		return 0;
	snprintf(from, sizeof(from), "%s/.mdprofile-bench.%ld", swap_dir, (long)getpid());
	snprintf(to, sizeof(to), "%s/moved", swap_dir);
	if (rename(from, to) || mkfifo(from, 0666))
		fail_msg("cannot swap the test file: %s", strerror(errno));
	return 0;
}

static void make_dir(char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(buf, len, "%s/mdp-vb.XXXXXX", tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(buf));
}

static void rm_dir(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_swapped_file_refused(void **state)
{
	struct mdp_vb b = {.size = 4u << 20, .runs = 1, .stop_requested = swap_to_fifo};
	struct mdp_diags d;
	char fifo[512];
	struct stat st;
	int err;

	(void)state;
	make_dir(swap_dir, sizeof(swap_dir));
	b.dir = swap_dir;
	swapped = 0;
	mdp_diags_init(&d);
	alarm(20); /* a read that opens the FIFO blocks for ever: SIGALRM fails the test */
	err = mdp_vb_run(&b, &d);
	alarm(0);
	assert_int_equal(swapped > 0, 1);
	assert_int_equal(err, -EPERM);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].msg, "the test file was replaced"));
	/* what took our name is not ours to remove */
	snprintf(fifo, sizeof(fifo), "%s/.mdprofile-bench.%ld", swap_dir, (long)getpid());
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	mdp_diags_free(&d);
	mdp_vb_free(&b);
	rm_dir(swap_dir);
}

/* A pid that has just exited (and was reaped): nobody has it. */
static long dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	assert_true(pid > 0);
	waitpid(pid, NULL, 0);
	return (long)pid;
}

static void put_file(const char *dir, const char *name, size_t size)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	for (size_t i = 0; i < size; i++)
		fputc('x', f);
	fclose(f);
}

static bool exists(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !lstat(path, &st);
}

static void test_stale_removed(void **state)
{
	struct mdp_vb b = {.size = 1u << 20, .runs = 1};
	char dir[256], dead[64], alive[64], link[64], other[64], path[512];
	struct mdp_diags d;

	(void)state;
	make_dir(dir, sizeof(dir));
	snprintf(dead, sizeof(dead), ".mdprofile-bench.%ld", dead_pid());
	snprintf(alive, sizeof(alive), ".mdprofile-bench.%ld", (long)getppid());
	snprintf(link, sizeof(link), ".mdprofile-bench.%ld", dead_pid());
	snprintf(other, sizeof(other), ".mdprofile-bench.%ldx", dead_pid());
	put_file(dir, dead, 3u << 20);
	put_file(dir, alive, 10);
	put_file(dir, other, 10);
	snprintf(path, sizeof(path), "%s/%s", dir, link);
	assert_int_equal(symlink("/nonexistent", path), 0);
	b.dir = dir;
	mdp_diags_init(&d);
	assert_int_equal(mdp_vb_run(&b, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(b.stale_removed, 1);
	assert_int_equal(b.stale_bytes, 3u << 20);
	assert_false(exists(dir, dead));
	assert_true(exists(dir, alive)); /* its process lives */
	assert_true(exists(dir, link));  /* not a regular file */
	assert_true(exists(dir, other)); /* not our name */
	mdp_diags_free(&d);
	mdp_vb_free(&b);
	rm_dir(dir);
}

/* Write text to dir/rel, making the directories on the way. */
static void put(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	if (!text)
		return;
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

/* The volume mdp_vb_find_volume() picks under root dir, or its error. */
static void find_in(const char *dir, char *sys, size_t len, int want_err)
{
	struct mdp_root r;
	struct mdp_diags d;
	char host[1024];

	mdp_diags_init(&d);
	assert_int_equal(mdp_root_init(&r, dir), 0);
	assert_int_equal(mdp_vb_find_volume(&r, sys, len, host, sizeof(host), &d), want_err);
	mdp_root_fini(&r);
	mdp_diags_free(&d);
}

/*
 * DSM 7 with SHR: /volume1 is on cachedev_0 (dm-1), over vg1-volume_1
 * (dm-0), over md2 and md3; "/" is md0. Two layers deep, it is found.
 */
static void test_volume_through_dm_stack(void **state)
{
	char dir[256], sys[256];

	(void)state;
	make_dir(dir, sizeof(dir));
	put(dir, "proc/mounts",
	    "/dev/md0 / ext4 rw 0 0\n/dev/mapper/cachedev_0 /volume1 btrfs rw 0 0\n");
	put(dir, "sys/block/md0/md/level", "raid1\n");
	put(dir, "sys/block/dm-1/dm/name", "cachedev_0\n");
	put(dir, "sys/block/dm-1/slaves/dm-0/.keep", NULL);
	put(dir, "sys/block/dm-0/dm/name", "vg1-volume_1\n");
	put(dir, "sys/block/dm-0/slaves/md2/.keep", NULL);
	put(dir, "sys/block/dm-0/slaves/md3/.keep", NULL);
	find_in(dir, sys, sizeof(sys), 0);
	assert_string_equal(sys, "/volume1");

	/* "/" on md0 is taken only when no other volume is on md */
	put(dir, "proc/mounts", "/dev/md0 / ext4 rw 0 0\n/dev/dm-1 /volume2 btrfs rw 0 0\n");
	find_in(dir, sys, sizeof(sys), 0);
	assert_string_equal(sys, "/volume2");

	/* DSM 6 names the LV /dev/vg1000/lv: device-mapper's vg1000-lv */
	put(dir, "proc/mounts", "/dev/md0 / ext4 rw 0 0\n/dev/vg1000/lv /volume1 btrfs rw 0 0\n");
	put(dir, "sys/block/dm-2/dm/name", "vg1000-lv\n");
	put(dir, "sys/block/dm-2/slaves/dm-0/.keep", NULL);
	find_in(dir, sys, sizeof(sys), 0);
	assert_string_equal(sys, "/volume1");

	/* a dm stack with no md under it is not an md volume */
	put(dir, "proc/mounts", "/dev/sda1 / ext4 rw 0 0\n/dev/mapper/crypt /data ext4 rw 0 0\n");
	put(dir, "sys/block/dm-3/dm/name", "crypt\n");
	put(dir, "sys/block/dm-3/slaves/sdb1/.keep", NULL);
	find_in(dir, sys, sizeof(sys), -ENOENT);
	rm_dir(dir);
}

MDP_TEST_MAIN(test_swapped_file_refused, test_stale_removed, test_volume_through_dm_stack)
