/*
 * Unit tests of keeper (the watcher's processes): the keeper's and the
 * watcher's locks as they are seen, starting a keeper, stopping every
 * keeper of a script and the watcher, waiting for them. The keepers and
 * watchers here are stand-ins started by the test (a shell blocked in a
 * read, with the command line a keeper or a watcher has), each saying it
 * runs on a pipe before the test goes on: nothing waits on a clock.
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
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "boot.h"
#include "keeper.h"
#include "support.h"
#include "boot_int.h"
#include "root_int.h"

#define SCRIPT "/volume1/@mdprofile/mdprofile.sh"

struct fx {
	char dir[64];
	char host[PATH_MAX]; /* the script's host path */
	struct mdp_root r;
};

static struct fx *fx_new(const char *script_text)
{
	struct fx *x = calloc(1, sizeof(*x));
	char path[PATH_MAX + 64];
	FILE *f;

	assert_non_null(x);
	snprintf(x->dir, sizeof(x->dir), "/tmp/mdp-keeper-XXXXXX");
	assert_non_null(mkdtemp(x->dir));
	test_sh(
	    "mkdir -p '%s/run/mdprofile' '%s/volume1/@mdprofile' && chmod 0700 '%s/run/mdprofile'",
	    x->dir, x->dir, x->dir);
	assert_int_equal(mdp_root_init(&x->r, x->dir), 0);
	mdp_root_allow_exec(&x->r, x->dir); /* its script (the keeper's stand-in) may run */
	snprintf(x->host, sizeof(x->host), "%s%s", x->dir, SCRIPT);
	snprintf(path, sizeof(path), "%s", x->host);
	assert_non_null(f = fopen(path, "w"));
	fputs(script_text, f);
	assert_int_equal(fclose(f), 0);
	return x;
}

static void fx_free(struct fx *x)
{
	mdp_root_fini(&x->r);
	test_sh("rm -rf '%s'", x->dir);
	free(x);
}

/* A keeper of x's script: `/bin/sh SCRIPT keep-auto`, blocked in a read. */
static pid_t keeper(struct fx *x, bool leader, int keep, int *in)
{
	char *argv[] = {"/bin/sh", x->host, "keep-auto", NULL};

	return test_spawn(argv, leader, keep, in);
}

/* A watcher: a command line `... mdprofile auto`, blocked in a read. */
static pid_t watcher(int *in)
{
	char *argv[] = {"/bin/sh", "-c", "echo; read x", "mdprofile", "auto", NULL};

	return test_spawn(argv, false, -1, in);
}

/* Hold the lock at sys (with text in the file) as another process would: its descriptor. */
static int hold(struct fx *x, const char *sys, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s%s", x->dir, sys);
	return test_hold(path, text);
}

/* The watcher's state file, as a watcher of mode writes it. */
static void wstate(struct fx *x, long pid, enum mdp_origin mode)
{
	struct mdp_wstate w = {.pid = pid, .mode = mode, .since = 1};

	snprintf(w.profile, sizeof(w.profile), "reshape-fast");
	snprintf(w.state, sizeof(w.state), "armed");
	snprintf(w.on, sizeof(w.on), "reshape");
	assert_int_equal(mdp_wstate_store(&x->r, &w), 0);
}

static void write_file(struct fx *x, const char *sys, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", x->dir, sys);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* No lock files: no keeper, no watcher, nothing held. */
static void test_nothing_runs(void **state)
{
	struct fx *x = fx_new("");
	struct mdp_keeper_watcher w;
	struct mdp_keeper k;

	(void)state;
	mdp_keeper_look(&x->r, SCRIPT, &k);
	assert_int_equal(k.held, 0);
	assert_int_equal(k.pid + k.restart, 0);
	mdp_keeper_watcher(&x->r, &w);
	assert_int_equal(w.held, 0);
	assert_int_equal(w.pid + w.holder, 0);
	assert_int_equal(w.mode, MDP_BY_COUNT);
	assert_int_equal(mdp_keeper_wait_armed(&x->r, 0, 0), -1);
	fx_free(x);
}

/*
 * The keeper's lock file names its holder and, while it waits to start the
 * watcher again, when; with the script, a holder whose command line is not
 * its keeper is not named.
 */
static void test_keeper_lock(void **state)
{
	struct fx *x = fx_new("echo; read x\n");
	struct mdp_keeper k;
	char text[64];
	int in, fd;
	pid_t kp = keeper(x, true, -1, &in);

	(void)state;
	snprintf(text, sizeof(text), "%ld restart 2000000000\n", (long)kp);
	fd = hold(x, MDP_BOOT_AUTO_LOCK, text);
	mdp_keeper_look(&x->r, SCRIPT, &k);
	assert_int_equal(k.held, 1);
	assert_int_equal(k.pid, kp);
	assert_int_equal(k.restart, 2000000000);
	/* waiting to start it again: no keeper will start it now */
	assert_int_equal(mdp_keeper_wait_armed(&x->r, 0, 0), -1);
	close(fd);

	snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	fd = hold(x, MDP_BOOT_AUTO_LOCK, text);
	mdp_keeper_look(&x->r, SCRIPT, &k);
	assert_int_equal(k.held, 1);
	assert_int_equal(k.pid, 0); /* this test is no keeper */
	assert_int_equal(k.restart, 0);
	mdp_keeper_look(&x->r, NULL, &k);
	assert_int_equal(k.pid, getpid());
	/* a keeper that keeps it, and no watcher yet: not in the time given */
	assert_int_equal(mdp_keeper_wait_armed(&x->r, 0, 0), 0);
	close(fd);

	fd = hold(x, MDP_BOOT_AUTO_LOCK, "junk restart soon\n");
	mdp_keeper_look(&x->r, NULL, &k);
	assert_int_equal(k.held, 1);
	assert_int_equal(k.pid + k.restart, 0);
	close(fd);
	mdp_keeper_look(&x->r, NULL, &k);
	assert_int_equal(k.held, 0);
	test_reap(kp, in, true);
	fx_free(x);
}

/*
 * Running is the watcher of mode auto alive, named by the lock it holds
 * and by its state file, with an mdprofile auto's command line; a lock
 * held by an apply --until-idle, or a state file left by a watcher that
 * died, is not it running.
 */
static void test_watcher_seen(void **state)
{
	struct fx *x = fx_new("");
	struct mdp_keeper_watcher w;
	char text[32];
	int in, fd;
	pid_t wp = watcher(&in);
	long dead = test_dead_pid();

	(void)state;
	snprintf(text, sizeof(text), "%ld\n", (long)wp);
	fd = hold(x, MDP_WATCHER_LOCK, text);
	wstate(x, wp, MDP_BY_AUTO);
	mdp_keeper_watcher(&x->r, &w);
	assert_int_equal(w.held, 1);
	assert_int_equal(w.pid, wp);
	assert_int_equal(mdp_keeper_wait_armed(&x->r, 0, 0), wp);

	/* the same process as an apply --until-idle: the lock's holder, not the watcher */
	wstate(x, wp, MDP_BY_UNTIL_IDLE);
	mdp_keeper_watcher(&x->r, &w);
	assert_int_equal(w.pid, 0);
	assert_int_equal(w.holder, wp);
	assert_int_equal(w.mode, MDP_BY_UNTIL_IDLE);
	close(fd);

	/* the state file of a watcher that died; the lock held by this test */
	snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	fd = hold(x, MDP_WATCHER_LOCK, text);
	wstate(x, dead, MDP_BY_AUTO);
	mdp_keeper_watcher(&x->r, &w);
	assert_int_equal(w.held, 1);
	assert_int_equal(w.pid, 0);
	assert_int_equal(w.holder, getpid());
	assert_int_equal(w.mode, MDP_BY_COUNT);
	/* a living mdprofile auto that the lock does not name: not believed either */
	wstate(x, wp, MDP_BY_AUTO);
	mdp_keeper_watcher(&x->r, &w);
	assert_int_equal(w.pid, 0);
	assert_int_equal(w.holder, getpid());
	close(fd);

	/* a lock that names nobody: the state file's living watcher is it */
	fd = hold(x, MDP_WATCHER_LOCK, "");
	mdp_keeper_watcher(&x->r, &w);
	assert_int_equal(w.pid, wp);
	close(fd);
	mdp_keeper_watcher(&x->r, &w);
	assert_int_equal(w.held, 0);
	assert_int_equal(w.pid, 0);
	test_reap(wp, in, true);
	fx_free(x);
}

/*
 * Every keeper of the script is stopped: the one the lock names, the pid
 * file's, a session leader that holds no lock (a keeper of before the
 * lock); not a keeper's own subshell (no leader), nor a keeper of another
 * script, nor a pid file naming another process; then the watcher.
 */
static void test_stop_every_keeper(void **state)
{
	struct fx *x = fx_new("echo; read x\n"), *y = fx_new("echo; read x\n");
	struct mdp_keeper_stop st;
	char text[32];
	int in[5], fd, lk;
	pid_t k1, k2, k3, sub, other, wp;

	(void)state;
	/* k1 holds the keeper lock (as the script's keeper holds it on fd 9) */
	lk = hold(x, MDP_BOOT_AUTO_LOCK, "");
	k1 = keeper(x, false, lk, &in[0]);
	snprintf(text, sizeof(text), "%ld\n", (long)k1);
	assert_int_equal(pwrite(lk, text, strlen(text), 0), (ssize_t)strlen(text));
	close(lk);
	k2 = keeper(x, true, -1, &in[1]);
	k3 = keeper(x, true, -1, &in[2]);
	sub = keeper(x, false, -1, &in[3]);
	other = keeper(y, true, -1, &in[4]);
	snprintf(text, sizeof(text), "%ld\n", (long)k2);
	write_file(x, MDP_BOOT_AUTO_PID, text);
	wp = watcher(&fd);
	snprintf(text, sizeof(text), "%ld\n", (long)wp);
	lk = hold(x, MDP_WATCHER_LOCK, text);
	wstate(x, wp, MDP_BY_AUTO);

	mdp_keeper_stop(&x->r, SCRIPT, &st);
	assert_int_equal(st.n_keeper, 3);
	assert_int_equal(st.keeper[0], k1); /* the lock's, first */
	assert_int_equal(st.keeper[1], k2); /* the pid file's */
	assert_int_equal(st.keeper[2], k3);
	assert_int_equal(st.watcher, wp);
	assert_false(mdp_root_exists(&x->r, MDP_BOOT_AUTO_PID));
	test_reap(k1, in[0], false);
	test_reap(k2, in[1], false);
	test_reap(k3, in[2], false);
	test_reap(wp, fd, false);
	assert_true(mdp_keeper_wait_gone(&x->r, &st, 0));
	close(lk);

	/* the subshell and the other script's keeper run on; a pid file naming another */
	assert_int_equal(kill(sub, 0), 0);
	assert_int_equal(kill(other, 0), 0);
	snprintf(text, sizeof(text), "%ld\n", (long)other);
	write_file(x, MDP_BOOT_AUTO_PID, text);
	memset(&st, 0, sizeof(st));
	mdp_keeper_stop_keepers(&x->r, SCRIPT, &st);
	assert_int_equal(st.n_keeper, 0);
	st.keeper[st.n_keeper++] = sub;
	assert_false(mdp_keeper_wait_gone(&x->r, &st, 0));
	test_reap(sub, in[3], true);
	test_reap(other, in[4], true);
	/* no script: no keeper looked for */
	mdp_keeper_stop(&x->r, NULL, &st);
	assert_int_equal(st.n_keeper + st.watcher, 0);
	assert_true(mdp_keeper_wait_gone(&x->r, &st, 0));
	fx_free(y);
	fx_free(x);
}

/*
 * A keeper started as the boot starts it: the script with keep-auto, in a
 * session of its own, SIGPIPE ignored, stdin /dev/null, its lines appended
 * to the watcher's log, MDPROFILE_ROOT the tree. Once it ended no keeper
 * starts the watcher.
 */
static void test_start(void **state)
{
	struct fx *x = fx_new("set -e\n"
			      "[ \"$(cut -d' ' -f6 /proc/$$/stat)\" = $$ ] && echo leader\n"
			      "sed -n 's/^SigIgn:\\t//p' /proc/$$/status\n"
			      "echo \"$# $1 root=$MDPROFILE_ROOT in=$(cat)\"\n"
			      "exit 5\n");
	struct mdp_diags d;
	char log[512], want[256];
	long pid;
	int st;

	(void)state;
	mdp_diags_init(&d);
	assert_int_equal(mdp_keeper_start(&x->r, SCRIPT, &pid, &d), 0);
	assert_int_equal(d.n, 0);
	assert_true(pid > 1);
	assert_int_equal(waitpid((pid_t)pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 5);
	assert_true(mdp_root_read(&x->r, MDP_BOOT_AUTO_LOG, log, sizeof(log)) > 0);
	assert_non_null(strstr(log, "leader\n"));
	/* SIGPIPE (13) is bit 12 of the mask */
	assert_true(strtoull(strchr(log, '\n') + 1, NULL, 16) & (1ULL << 12));
	snprintf(want, sizeof(want), "1 keep-auto root=%s in=\n", x->dir);
	assert_non_null(strstr(log, want));
	/* reaped: it ended, and no other keeper holds the lock */
	assert_int_equal(mdp_keeper_wait_armed(&x->r, pid, 0), -1);
	fx_free(x);
}

/* A tree the caller did not name for its programs (a received capture, say): its script is
 * not run, and the refusal says why. */
static void test_start_unnamed_tree(void **state)
{
	struct fx *x = fx_new("touch ran\n");
	struct mdp_diags d;
	long pid = 1;

	(void)state;
	mdp_root_allow_exec(&x->r, NULL);
	mdp_diags_init(&d);
	assert_true(mdp_keeper_start(&x->r, SCRIPT, &pid, &d) < 0);
	assert_int_equal(pid, 0);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].msg, "refusing to start the watcher"));
	mdp_diags_free(&d);
	fx_free(x);
}

/* No log to append to: said, and nothing started. */
static void test_start_without_log(void **state)
{
	struct fx *x = fx_new("exit 0\n");
	struct mdp_diags d;
	long pid = 1;

	(void)state;
	test_sh("mkdir -p '%s/var/log/mdprofile-auto.log'", x->dir);
	mdp_diags_init(&d);
	assert_true(mdp_keeper_start(&x->r, SCRIPT, &pid, &d) < 0);
	assert_int_equal(pid, 0);
	assert_int_equal(d.n, 1);
	assert_non_null(
	    strstr(d.v[0].msg, "cannot open the watcher's log /var/log/mdprofile-auto.log"));
	mdp_diags_free(&d);
	fx_free(x);
}

MDP_TEST_MAIN(test_nothing_runs, test_keeper_lock, test_watcher_seen, test_stop_every_keeper,
	      test_start, test_start_without_log, test_start_unnamed_tree)
