/*
 * test_root: the root abstraction and the tunable registry, the two pieces
 * that decide where mdprofile may write.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "resolve_int.h"
#include "root.h"
#include "support.h"
#include "tunable.h"
#include "root_int.h"

static void put(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[1024];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s/%s')\"", dir, rel);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

static void test_paths(void **state)
{
	struct mdp_root r;
	char buf[64];

	(void)state;
	assert_int_equal(mdp_root_init(&r, NULL), 0);
	assert_true(mdp_root_is_real(&r));
	assert_int_equal(mdp_root_path(&r, "/proc/mdstat", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/proc/mdstat");
	assert_int_equal(mdp_root_init(&r, "/tmp"), 0);
	assert_false(mdp_root_is_real(&r));
	assert_int_equal(mdp_root_path(&r, "/proc/mdstat", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/tmp/proc/mdstat");
	mdp_root_fini(&r);
	/* Nothing climbs out of the root, and only absolute system paths. */
	assert_int_equal(mdp_root_path(&r, "/sys/../etc/passwd", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(mdp_root_path(&r, "/sys/..", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(mdp_root_path(&r, "proc/mdstat", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(
	    mdp_root_path(&r, "/a/very/long/path/indeed/more/than/sixty/four/bytes/for/sure/yes",
			  buf, sizeof(buf)),
	    -ENAMETOOLONG);
	assert_int_equal(mdp_root_init(&r, "/nonexistent-mdp"), -ENOENT);
	assert_int_equal(mdp_root_init(&r, "/etc/hostname"), -ENOTDIR);
}

static void test_registry(void **state)
{
	char buf[128];

	(void)state;
	assert_int_equal(mdp_tunable_path(MDP_T_STRIPE_CACHE_SIZE, "md2", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/block/md2/md/stripe_cache_size");
	assert_int_equal(mdp_tunable_path(MDP_T_MEMBER_READ_AHEAD_KB, "sata1", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "/sys/block/sata1/queue/read_ahead_kb");
	assert_int_equal(mdp_tunable_path(MDP_T_SPEED_LIMIT_MIN, "", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/proc/sys/dev/raid/speed_limit_min");
	/* Device names are never paths. */
	const char *bad[] = {"../../etc/passwd",
			     "md2/../x",
			     "",
			     "MD2",
			     "md 2",
			     "2md",
			     NULL,
			     "a23456789012345678901234567890123"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(
		    mdp_tunable_path(MDP_T_STRIPE_CACHE_SIZE, bad[i], buf, sizeof(buf)), -EINVAL);
	assert_int_equal(mdp_tunable_path(MDP_T_SPEED_LIMIT_MIN, "md2", buf, sizeof(buf)), -EINVAL);
	assert_null(mdp_tunable_info(MDP_T_COUNT));
}

static void test_values(void **state)
{
	struct mdp_value v;
	char buf[32];

	(void)state;
	assert_int_equal(mdp_tunable_parse(MDP_T_STRIPE_CACHE_SIZE, "256\n", &v), 0);
	assert_int_equal(v.kind, MDP_V_NUM);
	assert_int_equal(v.num, 256);
	assert_int_equal(mdp_tunable_parse(MDP_T_SYNC_SPEED_MIN, "1000 (system)\n", &v), 0);
	assert_int_equal(v.kind, MDP_V_SYSTEM);
	assert_int_equal(v.num, 1000);
	assert_int_equal(mdp_tunable_parse(MDP_T_SYNC_SPEED_MAX, "5000 (local)", &v), 0);
	assert_int_equal(v.kind, MDP_V_NUM);
	/* "(system)" only where md renders it; junk never parses. */
	assert_int_equal(mdp_tunable_parse(MDP_T_STRIPE_CACHE_SIZE, "1000 (system)", &v), -EINVAL);
	assert_int_equal(mdp_tunable_parse(MDP_T_STRIPE_CACHE_SIZE, "12junk", &v), -EINVAL);
	assert_int_equal(mdp_tunable_parse(MDP_T_STRIPE_CACHE_SIZE, "", &v), -EINVAL);
	assert_int_equal(mdp_tunable_parse(MDP_T_SYNC_SPEED_MIN, "1 (sys)", &v), -EINVAL);
	assert_int_equal(mdp_tunable_parse(MDP_T_STRIPE_CACHE_SIZE, "99999999999999999999999", &v),
			 -EINVAL);
	v = (struct mdp_value){MDP_V_SYSTEM, 7};
	assert_int_equal(mdp_tunable_format(MDP_T_SYNC_SPEED_MIN, &v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "system\n");
	assert_int_equal(mdp_tunable_format(MDP_T_STRIPE_CACHE_SIZE, &v, buf, sizeof(buf)),
			 -EINVAL);
	v = (struct mdp_value){MDP_V_NUM, 4096};
	assert_int_equal(mdp_tunable_format(MDP_T_STRIPE_CACHE_SIZE, &v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "4096\n");
}

/* A fixture tree renders sync_speed like md, and follows the sysctl. */
static void test_fixture_kernel_rendering(void **state)
{
	char dir[] = "/tmp/mdp-root-XXXXXX", buf[64], cmd[128];
	struct mdp_root r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "proc/sys/dev/raid/speed_limit_min", "1000\n");
	put(dir, "sys/block/md2/md/sync_speed_min", "1000 (system)\n");
	put(dir, "sys/block/md3/md/sync_speed_min", "5000 (local)\n");
	assert_int_equal(mdp_root_init(&r, dir), 0);
	assert_int_equal(mdp_root_write(&r, "/proc/sys/dev/raid/speed_limit_min", "9000\n"), 0);
	assert_true(mdp_root_read(&r, "/sys/block/md2/md/sync_speed_min", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "9000 (system)\n");
	assert_true(mdp_root_read(&r, "/sys/block/md3/md/sync_speed_min", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "5000 (local)\n");
	assert_int_equal(mdp_root_write(&r, "/sys/block/md3/md/sync_speed_min", "system\n"), 0);
	assert_true(mdp_root_read(&r, "/sys/block/md3/md/sync_speed_min", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "9000 (system)\n");
	assert_int_equal(mdp_root_write(&r, "/sys/block/md3/md/sync_speed_min", "77\n"), 0);
	assert_true(mdp_root_read(&r, "/sys/block/md3/md/sync_speed_min", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "77 (local)\n");
	/* Writes never create files: a tunable that is not there is an error. */
	assert_int_equal(mdp_root_write(&r, "/sys/block/md9/md/stripe_cache_size", "1\n"), -ENOENT);
	mdp_root_fini(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static int fail_rename(const struct mdp_root_ops *self, const struct mdp_root *r, const char *from,
		       const char *to)
{
	(void)self;
	(void)r;
	(void)from;
	(void)to;
	return -EIO;
}

/* replace: the old content survives a failed rename, and no temp is left. */
static void test_replace_atomic(void **state)
{
	char dir[] = "/tmp/mdp-root-XXXXXX", buf[64], cmd[128];
	struct mdp_root_ops ops;
	struct mdp_root r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(mdp_root_init(&r, dir), 0);
	assert_int_equal(mdp_root_mkdir_p(&r, "/run/mdprofile", 0700), 0);
	assert_int_equal(mdp_root_replace(&r, "/run/mdprofile/j", "one\n", 4, 0600), 0);
	ops = *r.ops;
	ops.rename = fail_rename;
	r.ops = &ops;
	assert_int_equal(mdp_root_replace(&r, "/run/mdprofile/j", "two\n", 4, 0600), -EIO);
	assert_true(mdp_root_read(&r, "/run/mdprofile/j", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "one\n");
	assert_false(mdp_root_exists(&r, "/run/mdprofile/j.tmp"));
	/* Nothing but j: no temporary file of either try is left. */
	test_sh("test \"$(ls -A '%s/run/mdprofile')\" = j", dir);
	mdp_root_fini(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void on_alarm(int sig)
{
	(void)sig;
	fail_msg("mdp_root_replace blocked (on a FIFO at the temporary name?)");
}

/*
 * replace in a directory where others planted things at NAME.tmp: a file
 * of theirs (mode 0666), a FIFO (opening it would block for ever) or a link.
 * None is opened or reused; the file gets exactly the mode asked for,
 * whatever the umask, and what was planted is left as it was.
 */
static void test_replace_ignores_planted_tmp(void **state)
{
	static const char *const planted[] = {"echo planted >j.tmp && chmod 0666 j.tmp",
					      "mkfifo j.tmp", "ln -s ../elsewhere j.tmp"};
	char dir[] = "/tmp/mdp-root-XXXXXX", buf[64];
	struct mdp_root r;
	struct stat st, pst;
	mode_t old_mask;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(mdp_root_init(&r, dir), 0);
	assert_int_equal(mdp_root_mkdir_p(&r, "/run/mdprofile", 0700), 0);
	signal(SIGALRM, on_alarm);
	old_mask = umask(077);
	for (size_t i = 0; i < sizeof(planted) / sizeof(planted[0]); i++) {
		test_sh("cd '%s/run/mdprofile' && rm -f j j.tmp && %s", dir, planted[i]);
		alarm(10);
		assert_int_equal(mdp_root_replace(&r, "/run/mdprofile/j", "new\n", 4, 0755), 0);
		alarm(0);
		assert_true(mdp_root_read(&r, "/run/mdprofile/j", buf, sizeof(buf)) > 0);
		assert_string_equal(buf, "new\n");
		snprintf(buf, sizeof(buf), "%s/run/mdprofile/j", dir);
		assert_int_equal(lstat(buf, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		assert_int_equal(st.st_mode & 07777, 0755);
		snprintf(buf, sizeof(buf), "%s/run/mdprofile/j.tmp", dir);
		assert_int_equal(lstat(buf, &pst), 0);
		assert_true(pst.st_ino != st.st_ino);
		if (i == 0) {
			assert_int_equal(pst.st_mode & 07777, 0666);
			test_sh("grep -qx planted '%s/run/mdprofile/j.tmp'", dir);
		}
		test_sh("cd '%s/run/mdprofile' && test \"$(ls -A)\" = \"$(printf 'j\\nj.tmp')\"",
			dir);
	}
	umask(old_mask);
	signal(SIGALRM, SIG_DFL);
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", dir);
}

/*
 * A tree with every kind of link: inside (relative, also through ".."),
 * out by an absolute target, out by "..", a loop and a dangling one.
 * DIR/tree is the root; DIR/outside is what must never be reached.
 */
static void make_tree(const char *dir)
{
	test_sh(
	    "cd '%s' && mkdir -p tree/a/b outside && echo in >tree/a/b/file &&"
	    " echo out >outside/file && cd tree && ln -s a/b in && ln -s /etc abs &&"
	    " ln -s ../outside up && ln -s ../a a/up2 && ln -s loop loop && ln -s nothere dang &&"
	    " ln -s in/file filelink && ln -s '%s/outside' absout",
	    dir, dir);
}

/* Both resolvers give the same answer: the same file, or the same error. */
static void same_answer(int root, const char *rel, int flags, int want)
{
	int a = mdp_resolve_open(root, rel, flags, 0600);
	int b = mdp_resolve_walk(root, rel, flags, 0600);
	struct stat sa, sb;

	if (want < 0) {
		if (a != want || b != want)
			fail_msg("%s: openat2 %d, walk %d, want %d", rel, a, b, want);
		return;
	}
	if (a < 0 || b < 0)
		fail_msg("%s: openat2 %d, walk %d", rel, a, b);
	assert_int_equal(fstat(a, &sa), 0);
	assert_int_equal(fstat(b, &sb), 0);
	assert_true(sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev);
	close(a);
	close(b);
}

static void test_resolve_beneath(void **state)
{
	char dir[] = "/tmp/mdp-resolve-XXXXXX", tree[PATH_MAX];
	int root;

	(void)state;
	assert_non_null(mkdtemp(dir));
	make_tree(dir);
	snprintf(tree, sizeof(tree), "%s/tree", dir);
	assert_true((root = open(tree, O_PATH | O_DIRECTORY | O_CLOEXEC)) >= 0);
	same_answer(root, "a/b/file", O_RDONLY, 0);
	same_answer(root, "in/file", O_RDONLY, 0);
	same_answer(root, "filelink", O_RDONLY, 0);
	same_answer(root, "a/up2/b/file", O_RDONLY, 0);
	same_answer(root, "a/../a/b//file", O_RDONLY, 0);
	same_answer(root, "", O_RDONLY | O_DIRECTORY, 0);
	same_answer(root, "in", O_PATH, 0);
	same_answer(root, "in", O_PATH | O_DIRECTORY, 0);
	same_answer(root, "in", O_RDONLY | O_DIRECTORY, 0);
	same_answer(root, "a/b/file", O_RDONLY | O_DIRECTORY, -ENOTDIR);
	same_answer(root, "absout", O_PATH | O_DIRECTORY, -EXDEV);
	same_answer(root, "up", O_RDONLY | O_DIRECTORY, -EXDEV);
	same_answer(root, "in", O_PATH | O_NOFOLLOW, 0); /* the link itself */
	same_answer(root, "abs", O_PATH | O_NOFOLLOW, 0);
	same_answer(root, "abs/passwd", O_RDONLY, -EXDEV);
	same_answer(root, "absout/file", O_RDONLY, -EXDEV);
	same_answer(root, "up/file", O_RDONLY, -EXDEV);
	same_answer(root, "..", O_PATH, -EXDEV);
	same_answer(root, "a/../../outside/file", O_RDONLY, -EXDEV);
	same_answer(root, "abs", O_RDONLY, -EXDEV);
	same_answer(root, "up", O_PATH, -EXDEV);
	same_answer(root, "loop", O_RDONLY, -ELOOP);
	same_answer(root, "filelink", O_RDONLY | O_NOFOLLOW, -ELOOP);
	same_answer(root, "dang", O_RDONLY, -ENOENT);
	same_answer(root, "a/b/file/x", O_RDONLY, -ENOTDIR);
	/* Creating through a link inside works; through one out of the tree, nothing is made. */
	same_answer(root, "in/new", O_WRONLY | O_CREAT, 0);
	same_answer(root, "up/new", O_WRONLY | O_CREAT, -EXDEV);
	same_answer(root, "absout/new", O_WRONLY | O_CREAT, -EXDEV);
	close(root);
	test_sh("test -f '%s/tree/a/b/new' && test ! -e '%s/outside/new' && rm -rf '%s'", dir, dir,
		dir);
}

/* Every access of root refuses a path that leads out of a fixture root, and touches nothing. */
static void test_root_refuses_escape(void **state)
{
	char dir[] = "/tmp/mdp-resolve-XXXXXX", tree[PATH_MAX], buf[64];
	struct mdp_root r;
	char **names;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	make_tree(dir);
	snprintf(tree, sizeof(tree), "%s/tree", dir);
	assert_int_equal(mdp_root_init(&r, tree), 0);
	assert_true(mdp_root_read(&r, "/in/file", buf, sizeof(buf)) == 3);
	for (int i = 0; i < 2; i++) {
		const char *d = i ? "/up" : "/absout";
		char sys[64], sys2[64];
		snprintf(sys, sizeof(sys), "%s/file", d);
		snprintf(sys2, sizeof(sys2), "%s/new/deeper", d);
		assert_int_equal(mdp_root_read(&r, sys, buf, sizeof(buf)), -EXDEV);
		assert_int_equal(mdp_root_write(&r, sys, "evil\n"), -EXDEV);
		assert_int_equal(mdp_root_list(&r, d, &names, &n), -EXDEV);
		assert_int_equal(mdp_root_readlink(&r, sys, buf, sizeof(buf)), -EXDEV);
		assert_int_equal(mdp_root_open(&r, sys, O_RDONLY, 0), -EXDEV);
		assert_int_equal(mdp_root_mkdir_p(&r, sys2, 0700), -EXDEV);
		assert_int_equal(mdp_root_mkdir_p(&r, d, 0700), -EXDEV);
		assert_int_equal(mdp_root_unlink(&r, sys), -EXDEV);
		assert_int_equal(mdp_root_replace(&r, sys, "evil\n", 5, 0600), -EXDEV);
		assert_false(mdp_root_exists(&r, sys));
	}
	assert_string_equal(mdp_root_strerror(EXDEV), "a symbolic link leads out of the root");
	mdp_root_fini(&r);
	test_sh(
	    "cd '%s/outside' && test \"$(ls)\" = file && test \"$(cat file)\" = out && rm -rf '%s'",
	    dir, dir);
}

/* Who may have changed a file decides whether it may run: see mdp_root_trusted. */
static void test_trusted(void **state)
{
	char dir[] = "/tmp/mdp-trust-XXXXXX", why[PATH_MAX + 64], want[PATH_MAX + 64];
	struct mdp_root r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	test_sh("cd '%s' && mkdir -p usr/sbin && echo '#!/bin/sh' >usr/sbin/t && chmod 0755 usr "
		"usr/sbin"
		" usr/sbin/t && ln -s usr/sbin sbin",
		dir);
	assert_int_equal(mdp_root_init(&r, dir), 0);
	assert_int_equal(mdp_root_trusted(&r, "/usr/sbin/t", why, sizeof(why)), 0);
	test_sh("chmod 0775 '%s/usr/sbin/t'", dir);
	assert_int_equal(mdp_root_trusted(&r, "/usr/sbin/t", why, sizeof(why)), -EPERM);
	assert_string_equal(why, "group/world-writable (mode 0775)");
	test_sh("chmod 0755 '%s/usr/sbin/t' && chmod 0777 '%s/usr'", dir, dir);
	assert_int_equal(mdp_root_trusted(&r, "/usr/sbin/t", why, sizeof(why)), -EPERM);
	snprintf(want, sizeof(want), "directory %s/usr is group/world-writable (mode 0777)",
		 r.prefix);
	assert_string_equal(why, want);
	test_sh("chmod 0755 '%s/usr'", dir);
	assert_int_equal(mdp_root_trusted(&r, "/sbin/t", why, sizeof(why)), -EPERM);
	snprintf(want, sizeof(want), "%s/sbin is a symbolic link", r.prefix);
	assert_string_equal(why, want);
	assert_int_equal(mdp_root_trusted(&r, "/usr/sbin", why, sizeof(why)), -EPERM);
	assert_string_equal(why, "not a regular file");
	assert_int_equal(mdp_root_trusted(&r, "/usr/sbin/none", why, sizeof(why)), -ENOENT);
	if (geteuid() == 0) {
		test_sh("chown 1000 '%s/usr/sbin/t'", dir);
		assert_int_equal(mdp_root_trusted(&r, "/usr/sbin/t", why, sizeof(why)), -EPERM);
		assert_string_equal(why, "not owned by root or the caller (uid 1000)");
	}
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", dir);
}

/*
 * A tree's programs: only in a tree the caller named (MDPROFILE_ROOT_EXEC's list, by
 * device and inode), never in one that holds a capture, and with the way to it checked.
 */
static void test_exec_trusted(void **state)
{
	char dir[] = "/tmp/mdp-exec-XXXXXX", list[PATH_MAX * 2], why[PATH_MAX + 128];
	char want[PATH_MAX + 128], *env[2];
	struct mdp_root_env vars;
	struct mdp_root r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	test_sh("cd '%s' && mkdir -p t/usr/sbin other && echo '#!/bin/sh' >t/usr/sbin/x && "
		"chmod 0755 . t t/usr t/usr/sbin t/usr/sbin/x && ln -s t link",
		dir);
	snprintf(list, sizeof(list), "%s/t", dir);
	assert_int_equal(mdp_root_init(&r, list), 0);
	assert_int_equal(mdp_root_exec_trusted(&r, "/usr/sbin/x", why, sizeof(why)), -EPERM);
	assert_string_equal(why, "a --root tree's programs run only when MDPROFILE_ROOT_EXEC "
				 "names the tree");
	assert_int_equal(mdp_root_env(&r, &vars, env), 1);
	snprintf(want, sizeof(want), "MDPROFILE_ROOT=%s/t", dir);
	assert_string_equal(env[0], want);
	mdp_root_allow_exec(&r, "");
	assert_false(r.exec_named);
	snprintf(list, sizeof(list), "%s/other::%s/t/usr", dir, dir);
	mdp_root_allow_exec(&r, list);
	assert_false(r.exec_named);
	/* named through a link, among others: the same directory */
	snprintf(list, sizeof(list), "/nonexistent:%s/link:%s/other", dir, dir);
	mdp_root_allow_exec(&r, list);
	assert_true(r.exec_named);
	assert_int_equal(mdp_root_exec_trusted(&r, "/usr/sbin/x", why, sizeof(why)), 0);
	assert_int_equal(mdp_root_env(&r, &vars, env), 2);
	snprintf(want, sizeof(want), "MDPROFILE_ROOT_EXEC=%s/t", dir);
	assert_string_equal(env[1], want);
	/* the way to the tree, and the tree's top */
	test_sh("chmod 0775 '%s/t'", dir);
	assert_int_equal(mdp_root_exec_trusted(&r, "/usr/sbin/x", why, sizeof(why)), -EPERM);
	snprintf(want, sizeof(want), "directory %s/t is group/world-writable (mode 0775)", dir);
	assert_string_equal(why, want);
	test_sh("chmod 0755 '%s/t' && chmod 0757 '%s'", dir, dir);
	assert_int_equal(mdp_root_exec_trusted(&r, "/usr/sbin/x", why, sizeof(why)), -EPERM);
	snprintf(want, sizeof(want), "directory %s is group/world-writable (mode 0757)", dir);
	assert_string_equal(why, want);
	test_sh("chmod 0755 '%s'", dir);
	if (geteuid() == 0) {
		test_sh("chown 65534 '%s'", dir);
		assert_int_equal(mdp_root_exec_trusted(&r, "/usr/sbin/x", why, sizeof(why)),
				 -EPERM);
		snprintf(want, sizeof(want), "directory %s is owned by uid 65534", dir);
		assert_string_equal(why, want);
		test_sh("chown 0 '%s'", dir);
	}
	/* a capture's mark, whatever it is: nothing runs */
	test_sh("touch '%s/t/.explain'", dir);
	assert_int_equal(mdp_root_exec_trusted(&r, "/usr/sbin/x", why, sizeof(why)), -EPERM);
	assert_string_equal(why, "the tree holds an explain capture (/.explain), and a capture's "
				 "programs never run");
	mdp_root_fini(&r);
	assert_int_equal(mdp_root_init(&r, NULL), 0);
	mdp_root_allow_exec(&r, "/");
	assert_false(r.exec_named);
	assert_int_equal(mdp_root_exec_trusted(&r, "/usr/sbin/x", why, sizeof(why)), 0);
	assert_int_equal(mdp_root_env(&r, &vars, env), 0);
	test_sh("rm -rf '%s'", dir);
}

/* mdp_root_read_fd: the whole file across buffer growths; past max, the caller's error. */
/*
 * A file the user names (status --output): relative to the working directory,
 * ".." included; its directory must exist; what is there is replaced, never
 * written through, and a link, FIFO or device is refused before anything is done.
 */
static void test_out_file(void **state)
{
	char dir[] = "/tmp/mdp-out-XXXXXX", cwd[PATH_MAX], p[128], why[PATH_MAX + 160];
	struct mdp_root_out o;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	test_sh("cd '%s' && mkdir sub d && echo old >f && chmod 0600 f && mkfifo fifo && "
		"ln -s f link && chmod 0755 . sub d",
		dir);
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(mdp_root_out_open(&o, "sub/../f", why, sizeof(why)), 0);
	assert_int_equal(mdp_root_out_replace(&o, "new\n", 4, 0644), 0);
	mdp_root_out_close(&o);
	test_sh("cd '%s' && test \"$(cat f)\" = new && test \"$(stat -c %%a f)\" = 644", dir);
	assert_int_equal(mdp_root_out_open(&o, "g", why, sizeof(why)), 0); /* new, no directory */
	assert_int_equal(mdp_root_out_replace(&o, "g\n", 2, 0644), 0);
	mdp_root_out_close(&o);
	mdp_root_out_close(&o); /* closed twice: nothing */
	assert_int_equal(mdp_root_out_open(&o, "none/f", why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "its directory does not exist");
	assert_false(o.open);
	assert_int_equal(mdp_root_out_open(&o, "f/x", why, sizeof(why)), -ENOTDIR);
	assert_int_equal(mdp_root_out_open(&o, "sub/", why, sizeof(why)), -EISDIR);
	assert_int_equal(mdp_root_out_open(&o, "fifo", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "it is a FIFO, which the new file would replace");
	assert_int_equal(mdp_root_out_open(&o, "link", why, sizeof(why)), -EINVAL);
	assert_int_equal(mdp_root_out_open(&o, "/dev/null", why, sizeof(why)), -EINVAL);
	/* a directory passes the check and fails at the rename, leaving nothing */
	assert_int_equal(mdp_root_out_open(&o, "d", why, sizeof(why)), 0);
	assert_int_not_equal(mdp_root_out_replace(&o, "x\n", 2, 0644), 0);
	mdp_root_out_close(&o);
	test_sh("cd '%s' && test \"$(ls -A | tr '\\n' ' ')\" = 'd f fifo g link sub ' && "
		"test -z \"$(ls -A d)\"",
		dir);
	snprintf(p, sizeof(p), "%s/link", dir);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(chdir(cwd), 0);
	test_sh("rm -rf '%s'", dir);
}

/*
 * The folder is opened once: whoever can rename a directory above it (here, anyone: the
 * test does it) cannot send a later write elsewhere. Between two writes the folder is
 * moved away and a link to another directory put in its place: the second write still
 * lands in the folder that was opened, and nothing in the other directory.
 */
static void test_out_folder_held(void **state)
{
	char dir[] = "/tmp/mdp-out-XXXXXX", file[128], why[PATH_MAX + 160];
	struct mdp_root_out o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	test_sh("cd '%s' && mkdir -p up/out elsewhere && chmod 0755 . up up/out elsewhere", dir);
	snprintf(file, sizeof(file), "%s/up/out/m.prom", dir);
	assert_int_equal(mdp_root_out_open(&o, file, why, sizeof(why)), 0);
	assert_int_equal(mdp_root_out_replace(&o, "one\n", 4, 0644), 0);
	test_sh("cd '%s/up' && mv out moved && ln -s ../elsewhere out", dir);
	assert_int_equal(mdp_root_out_replace(&o, "two\n", 4, 0644), 0);
	mdp_root_out_close(&o);
	test_sh(
	    "cd '%s' && test \"$(cat up/moved/m.prom)\" = two && test -z \"$(ls -A elsewhere)\"",
	    dir);
	/* opened again now: the link in the way is followed once, as the user named it */
	assert_int_equal(mdp_root_out_open(&o, file, why, sizeof(why)), 0);
	mdp_root_out_close(&o);
	test_sh("rm -rf '%s'", dir);
}

/*
 * Whose folder it is: root's or the caller's, writable by nobody else; another user's
 * only for a file that user owns (the new file stays theirs); a directory above it may be
 * another user's (Debian's /var/lib/prometheus) but not writable by others unless sticky.
 */
static void test_out_folder_owner(void **state)
{
	char dir[] = "/tmp/mdp-out-XXXXXX", file[128], want[PATH_MAX + 160], why[PATH_MAX + 160];
	struct mdp_root_out o;

	(void)state;
	if (geteuid() != 0)
		skip(); /* chown: the tests run as root */
	assert_non_null(mkdtemp(dir));
	test_sh("cd '%s' && mkdir -p u/d && chmod 0755 . u u/d && chown 65534 u/d", dir);
	snprintf(file, sizeof(file), "%s/u/d/m.prom", dir);
	assert_int_equal(mdp_root_out_open(&o, file, why, sizeof(why)), -EPERM);
	snprintf(want, sizeof(want),
		 "directory %s/u/d is owned by uid 65534: mdprofile replaces a file in another "
		 "user's directory only when that user owns the file",
		 dir);
	assert_string_equal(why, want);
	test_sh("cd '%s/u/d' && echo old >m.prom && chown 0 m.prom", dir);
	assert_int_equal(mdp_root_out_open(&o, file, why, sizeof(why)), -EPERM);
	/* that user's file: replaced, and theirs still */
	test_sh("cd '%s/u/d' && chown 65534:65534 m.prom", dir);
	assert_int_equal(mdp_root_out_open(&o, file, why, sizeof(why)), 0);
	assert_int_equal(mdp_root_out_replace(&o, "new\n", 4, 0644), 0);
	mdp_root_out_close(&o);
	test_sh("cd '%s/u/d' && test \"$(cat m.prom)\" = new && "
		"test \"$(stat -c %%u:%%g:%%a m.prom)\" = 65534:65534:644",
		dir);
	/* a directory above another user's: the folder below is root's */
	test_sh("cd '%s' && chown 0 u/d && chown 65534 u", dir);
	assert_int_equal(mdp_root_out_open(&o, file, why, sizeof(why)), 0);
	mdp_root_out_close(&o);
	/* writable by others: the folder at all, one above it unless sticky */
	test_sh("chmod 0775 '%s/u/d'", dir);
	assert_int_equal(mdp_root_out_open(&o, file, why, sizeof(why)), -EPERM);
	snprintf(want, sizeof(want), "directory %s/u/d is group/world-writable (mode 0775)", dir);
	assert_string_equal(why, want);
	test_sh("chmod 1777 '%s/u/d'", dir); /* sticky, as /tmp: nobody else renames there */
	assert_int_equal(mdp_root_out_open(&o, file, why, sizeof(why)), 0);
	mdp_root_out_close(&o);
	test_sh("chmod 0755 '%s/u/d' && chmod 0777 '%s/u'", dir, dir);
	assert_int_equal(mdp_root_out_open(&o, file, why, sizeof(why)), -EPERM);
	snprintf(want, sizeof(want), "directory %s/u is group/world-writable (mode 0777)", dir);
	assert_string_equal(why, want);
	test_sh("chmod 1777 '%s/u'", dir);
	assert_int_equal(mdp_root_out_open(&o, file, why, sizeof(why)), 0);
	mdp_root_out_close(&o);
	test_sh("rm -rf '%s'", dir);
}

static void test_read_fd(void **state)
{
	char want[10000], *got = NULL;
	size_t len = 0;
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	for (size_t i = 0; i < sizeof(want); i++)
		want[i] = (char)('a' + i % 26);
	assert_int_equal(fwrite(want, 1, sizeof(want), f), sizeof(want));
	assert_int_equal(fflush(f), 0);
	assert_int_equal(lseek(fileno(f), 0, SEEK_SET), 0);
	assert_int_equal(mdp_root_read_fd(fileno(f), (size_t)1 << 24, -EFBIG, &got, &len), 0);
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(got, want, sizeof(want));
	assert_int_equal(got[len], '\0');
	free(got);
	got = NULL;
	assert_int_equal(lseek(fileno(f), 0, SEEK_SET), 0);
	assert_int_equal(mdp_root_read_fd(fileno(f), 8192, -EFBIG, &got, &len), -EFBIG);
	assert_null(got);
	assert_int_equal(ftruncate(fileno(f), 8000), 0);
	assert_int_equal(lseek(fileno(f), 0, SEEK_SET), 0);
	assert_int_equal(mdp_root_read_fd(fileno(f), 8192, -EFBIG, &got, NULL), 0);
	assert_memory_equal(got, want, 8000);
	free(got);
	fclose(f);
}

/* A file over the read cap is "File too large", not "Cannot allocate memory" (adversarial-4:
 * explain's "not read" list said the latter). Sparse: no disk is used. */
static void test_read_all_cap(void **state)
{
	char dir[] = "/tmp/mdp-root-XXXXXX", path[64], cmd[128], *got = NULL;
	struct mdp_root r;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/big", dir);
	assert_non_null(f = fopen(path, "w"));
	assert_int_equal(ftruncate(fileno(f), (off_t)MDP_ROOT_READ_MAX + 1), 0);
	fclose(f);
	assert_int_equal(mdp_root_init(&r, dir), 0);
	assert_int_equal(mdp_root_read_all(&r, "/big", &got, NULL), -EFBIG);
	assert_null(got);
	mdp_root_fini(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * A tree's zone is its own /etc/localtime, or UTC without a readable one, never the
 * caller's (issue 50: a fixture's times do not move with the host's zone); the real
 * root leaves TZ to the C library.
 */
static void test_zone(void **state)
{
	char dir[] = "/tmp/mdp-root-XXXXXX", tz[PATH_MAX + 2], want[PATH_MAX + 2], cmd[128];
	struct mdp_root r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(mdp_root_init(&r, dir), 0);
	assert_int_equal(mdp_root_zone(&r, tz, sizeof(tz)), 0);
	assert_string_equal(tz, MDP_ROOT_ZONE_NONE);
	put(dir, "etc/localtime/x", "");
	assert_int_equal(mdp_root_zone(&r, tz, sizeof(tz)), 0);
	assert_string_equal(tz, MDP_ROOT_ZONE_NONE);
	snprintf(cmd, sizeof(cmd), "rm -r %s/etc/localtime", dir);
	assert_int_equal(system(cmd), 0);
	put(dir, "etc/localtime", "TZif");
	assert_int_equal(mdp_root_zone(&r, tz, sizeof(tz)), 0);
	snprintf(want, sizeof(want), ":%s/etc/localtime", dir);
	assert_string_equal(tz, want);
	assert_int_equal(mdp_root_zone(&r, tz, 4), -ENAMETOOLONG);
	mdp_root_fini(&r);
	assert_int_equal(mdp_root_init(&r, "/"), 0);
	assert_int_equal(mdp_root_zone(&r, tz, sizeof(tz)), -ENOENT);
	mdp_root_fini(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* ISO 8601 with the zone's offset: east, west, half hours, UTC; 0 when it does not fit. */
static void test_time_local(void **state)
{
	static const struct {
		const char *tz, *want;
	} c[] = {
	    {"UTC0", "2026-12-07T06:42:35+00:00"},
	    {"CET-1CEST,M3.5.0,M10.5.0/3", "2026-12-07T07:42:35+01:00"},
	    {"<+0530>-5:30", "2026-12-07T12:12:35+05:30"},
	    {"<-0330>3:30", "2026-12-07T03:12:35-03:30"},
	};
	char buf[40];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(setenv("TZ", c[i].tz, 1), 0);
		tzset();
		assert_int_equal(mdp_time_local(1796625755, buf, sizeof(buf)), strlen(c[i].want));
		assert_string_equal(buf, c[i].want);
	}
	assert_int_equal(setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1), 0);
	tzset();
	assert_int_equal(mdp_time_local(1784000000, buf, sizeof(buf)), 25); /* July: +02:00 */
	assert_string_equal(buf + 19, "+02:00");
	assert_int_equal(mdp_time_local(1796625755, buf, 25), 0);
	assert_int_equal(mdp_time_local(1796625755, buf, 26), 25);
	unsetenv("TZ");
	tzset();
}

MDP_TEST_MAIN(test_paths, test_read_all_cap, test_registry, test_values,
	      test_fixture_kernel_rendering, test_replace_atomic, test_replace_ignores_planted_tmp,
	      test_resolve_beneath, test_root_refuses_escape, test_trusted, test_exec_trusted,
	      test_read_fd, test_out_file, test_out_folder_held, test_out_folder_owner, test_zone,
	      test_time_local)
