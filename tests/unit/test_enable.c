/*
 * Unit tests of enable (the service-manager work of enable and disable,
 * and the model status shows), on a copy of a fixture root with the fake
 * esynoscheduler of tests/fakes, or none: every case asserts the lines the
 * report holds, in order, and whether a step is left to the owner.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "enable.h"
#include "support.h"
#include "task.h"
#include "boot_int.h"
#include "discover_int.h"

struct fx {
	char dir[64];
	struct mdp_root r;
	struct mdp_boot_opts o;
	struct mdp_boot_file f[MDP_BOOT_FILES];
	size_t n;
	struct mdp_enable_report rep;
};

/* A copy of fixture name (NULL: an empty root), the fake esynoscheduler in it when asked. */
static struct fx *fx_new(const char *name, bool scheduler)
{
	const char *src = getenv("MDP_SRCDIR");
	struct fx *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	snprintf(x->dir, sizeof(x->dir), "/tmp/mdp-enable-XXXXXX");
	assert_non_null(mkdtemp(x->dir));
	if (name)
		test_sh("cp -a '%s/tests/fixtures/%s/.' '%s'", src ? src : ".", name, x->dir);
	if (scheduler)
		test_sh("sh '%s/tests/fakes/install.sh' '%s' esynoscheduler", src ? src : ".",
			x->dir);
	assert_int_equal(mdp_root_init(&x->r, x->dir), 0);
	mdp_root_allow_exec(&x->r, x->dir); /* its programs (the fakes) may run */
	x->o.binary = "/volume1/@mdprofile/mdprofile";
	x->o.enable = true;
	x->o.wait_arrays = 120;
	x->o.version = "test";
	return x;
}

static void fx_free(struct fx *x)
{
	mdp_enable_report_free(&x->rep);
	mdp_boot_files_free(x->f, x->n);
	mdp_root_fini(&x->r);
	test_sh("rm -rf '%s'", x->dir);
	free(x);
}

/* enable's files of a profile "t" for target t on x's system, as enable makes them. */
static void files(struct fx *x, enum mdp_boot_target t)
{
	static const char text[] = "arrays:\n  - match: {names: [md2]}\n    read_ahead: 1MiB\n";
	struct mdp_profile p = {0};
	struct mdp_system s = {0};
	struct mdp_diags d;
	char *script = NULL;
	size_t len;

	x->o.target = t;
	mdp_diags_init(&d);
	assert_int_equal(mdp_profile_load_mem(NULL, "t", text, strlen(text), &p, &d), 0);
	assert_int_equal(mdp_discover(&x->r, &s, &d), 0);
	assert_int_equal(mdp_boot_script(&p, &s, &x->o, &script, &len, &d), 0);
	assert_int_equal(mdp_boot_files(&p, &x->o, script, len, x->f, &x->n, &d), 0);
	assert_int_equal(d.n, 0);
	free(script);
	mdp_system_free(&s);
	mdp_profile_free(&p);
}

/* The report holds these lines, kind and text, NULL-ended; emptied after. */
static void lines(struct fx *x, bool left, ...)
{
	const char *text;
	va_list ap;
	size_t i = 0;

	assert_int_equal(x->rep.left, left);
	va_start(ap, left);
	while ((text = va_arg(ap, const char *))) {
		enum mdp_enable_kind kind = va_arg(ap, enum mdp_enable_kind);
		assert_true(i < x->rep.n);
		assert_string_equal(x->rep.v[i].text, text);
		assert_int_equal(x->rep.v[i].kind, kind);
		i++;
	}
	va_end(ap);
	assert_int_equal(x->rep.n, i);
	mdp_enable_report_free(&x->rep);
}

static void record(struct fx *x, struct mdp_boot_record *rec)
{
	struct mdp_diags d;

	mdp_diags_init(&d);
	assert_int_equal(mdp_boot_record_read(&x->r, rec, &d), 0);
	mdp_diags_free(&d);
}

/*
 * systemd without systemctl: the units are left to the owner, with the
 * commands, and the record says they were not enabled, so that removing
 * it does not try to disable them.
 */
static void test_units_left_to_owner(void **state)
{
	struct fx *x = fx_new(NULL, false);
	struct mdp_keeper_stop st = {0};
	struct mdp_boot_record rec;
	struct mdp_diags d;

	(void)state;
	x->o.target = MDP_BOOT_SYSTEMD;
	mdp_diags_init(&d);
	assert_int_equal(mdp_boot_paths("t", &x->o, x->f, &x->n, &d), 0);
	mdp_diags_free(&d);
	assert_int_equal(mdp_enable_register(&x->r, "t", &x->o, x->f, &x->rep), 0);
	lines(x, true, "systemctl is not on this system: the units are not enabled", MDP_EN_ERROR,
	      "to enable them: systemctl daemon-reload && systemctl enable --now "
	      "mdprofile.service && udevadm control --reload-rules",
	      MDP_EN_STEP, NULL);
	record(x, &rec);
	assert_string_equal(rec.profile, "t");
	assert_int_equal(rec.target, MDP_BOOT_SYSTEMD);
	assert_false(rec.units);
	/* Nothing was installed: nothing to remove, nothing said. */
	assert_int_equal(mdp_enable_remove(&x->r, &rec, NULL, 0, &st, &x->rep), 0);
	lines(x, false, NULL);
	fx_free(x);
}

/* Write text at path (in x's root), its directories made. */
static void put_file(struct fx *x, const char *path, const char *text)
{
	FILE *f;
	char full[PATH_MAX];

	test_sh("mkdir -p \"$(dirname '%s%s')\"", x->dir, path);
	snprintf(full, sizeof(full), "%s%s", x->dir, path);
	assert_non_null(f = fopen(full, "w"));
	fputs(text, f);
	fclose(f);
}

/*
 * The package's units: both there with their header (in /lib or /usr/lib), or enable
 * generates its own; where they are, enable's files are the script they run and the rule,
 * and the record says so (a record without the line is of generated units).
 */
static void test_packaged_units(void **state)
{
	struct fx *x = fx_new(NULL, false);
	struct mdp_boot_record rec;
	struct mdp_diags d;
	char where[PATH_MAX];

	(void)state;
	assert_false(mdp_boot_packaged(&x->r));
	put_file(x, "/lib/systemd/system/mdprofile.service",
		 "# mdprofile: the packaged boot unit\n");
	assert_false(mdp_boot_packaged(&x->r)); /* the watcher's is missing */
	put_file(x, "/usr/lib/systemd/system/mdprofile-auto.service", "[Unit]\n");
	assert_false(mdp_boot_packaged(&x->r)); /* not the package's */
	assert_int_equal(
	    mdp_boot_packaged_unit(&x->r, "mdprofile-auto.service", where, sizeof(where)), 0);
	assert_string_equal(where, "/usr/lib/systemd/system/mdprofile-auto.service");
	put_file(x, "/usr/lib/systemd/system/mdprofile-auto.service",
		 "# mdprofile: the packaged watcher unit\n");
	assert_true(mdp_boot_packaged(&x->r));

	x->o.target = MDP_BOOT_SYSTEMD;
	x->o.packaged = true;
	x->o.auto_profile = "reshape-fast";
	mdp_diags_init(&d);
	assert_int_equal(mdp_boot_paths("t", &x->o, x->f, &x->n, &d), 0);
	assert_int_equal(x->n, 2);
	assert_string_equal(x->f[0].sys, MDP_BOOT_PKG_SCRIPT);
	assert_string_equal(x->f[1].sys, "/etc/udev/rules.d/90-mdprofile.rules");
	assert_int_equal(mdp_enable_register(&x->r, "t", &x->o, x->f, &x->rep), 0);
	mdp_enable_report_free(&x->rep);
	record(x, &rec);
	assert_true(rec.packaged);
	assert_false(rec.units); /* no systemctl here */
	put_file(x, MDP_BOOT_RECORD,
		 "# mdprofile enable: what is enabled; mdprofile disable removes it\nprofile=t\n"
		 "auto=\ntarget=systemd\nbinary=/b\ntask=no\nunits=enabled\n");
	record(x, &rec);
	assert_false(rec.packaged);
	mdp_diags_free(&d);
	fx_free(x);
}

/*
 * DSM: the files installed, the task created and read back; the model says
 * so piece by piece, and a missing script is no longer intact; removing
 * deletes the task, then the files.
 */
static void test_dsm_task_round_trip(void **state)
{
	struct fx *x = fx_new("ds-dsm6-reshape", true);
	struct mdp_enable_piece p[MDP_ENABLE_PIECES];
	struct mdp_keeper_stop st = {0};
	struct mdp_boot_record rec;
	char created[256], removed[PATH_MAX + 64], path[PATH_MAX + 64];

	(void)state;
	files(x, MDP_BOOT_DSM);
	assert_int_equal(mdp_enable_task_refused(&x->r, &x->rep), 0);
	lines(x, false, NULL);
	assert_int_equal(mdp_enable_install_files(&x->r, x->f, x->n, &x->rep), 0);
	lines(x, false, "installed the boot script /volume1/@mdprofile/mdprofile.sh", MDP_EN_DONE,
	      NULL);
	assert_int_equal(mdp_enable_register(&x->r, "t", &x->o, x->f, &x->rep), 0);
	snprintf(created, sizeof(created),
		 "created the Task Scheduler boot-up task mdprofile: %s "
		 "/volume1/@mdprofile/mdprofile.sh",
		 mdp_boot_dsm.task_shell);
	lines(x, false, created, MDP_EN_DONE, NULL);
	record(x, &rec);
	assert_true(rec.task);
	assert_true(mdp_enable_installed(&x->r, &rec, "t", &x->o, x->f, x->n));
	assert_false(mdp_enable_installed(&x->r, &rec, "u", &x->o, x->f, x->n));

	assert_int_equal(mdp_enable_pieces(&x->r, &rec, p, MDP_ENABLE_PIECES), 2);
	assert_string_equal(p[0].what, "script");
	assert_string_equal(p[0].state, "intact");
	assert_string_equal(p[1].what, "task");
	assert_string_equal(p[1].where, "mdprofile");
	assert_string_equal(p[1].state, "intact");
	assert_true(mdp_enable_intact(p, 2));
	snprintf(path, sizeof(path), "%s/volume1/@mdprofile/mdprofile.sh", x->dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mdp_enable_pieces(&x->r, &rec, p, MDP_ENABLE_PIECES), 2);
	assert_string_equal(p[0].state, "missing");
	assert_false(mdp_enable_intact(p, 2));
	assert_false(mdp_enable_installed(&x->r, &rec, "t", &x->o, x->f, x->n));

	assert_int_equal(mdp_enable_install_files(&x->r, x->f, x->n, &x->rep), 0);
	mdp_enable_report_free(&x->rep);
	assert_int_equal(mdp_enable_remove(&x->r, &rec, NULL, 0, &st, &x->rep), 0);
	snprintf(removed, sizeof(removed), "removed the boot script %.4000s", x->f[0].sys);
	lines(x, false, "deleted the Task Scheduler task mdprofile", MDP_EN_DONE, removed,
	      MDP_EN_DONE, NULL);
	assert_int_equal(mdp_enable_pieces(&x->r, &rec, p, MDP_ENABLE_PIECES), 2);
	assert_string_equal(p[1].state, "missing");
	assert_int_equal(st.n_keeper + (size_t)st.watcher, 0);
	fx_free(x);
}

/* A task of the name that enable did not create: refused, and left as it is by a remove. */
static void test_dsm_foreign_task(void **state)
{
	struct fx *x = fx_new("ds-dsm6-reshape", true);
	struct mdp_keeper_stop st = {0};
	struct mdp_boot_record rec = {.target = MDP_BOOT_DSM, .task = true};
	struct mdp_diags d;

	(void)state;
	mdp_diags_init(&d);
	assert_int_equal(mdp_task_create(&x->r, "mdprofile", "/bin/bash /root/mine.sh", "mine", &d),
			 0);
	mdp_diags_free(&d);
	assert_int_equal(mdp_enable_task_refused(&x->r, &x->rep), -EEXIST);
	assert_int_equal(x->rep.n, 2);
	assert_int_equal(x->rep.v[0].kind, MDP_EN_ERROR);
	assert_non_null(strstr(x->rep.v[0].text, "runs '/bin/bash /root/mine.sh'); nothing was "
						 "changed"));
	assert_false(x->rep.left);
	mdp_enable_report_free(&x->rep);

	snprintf(rec.profile, sizeof(rec.profile), "t");
	snprintf(rec.binary, sizeof(rec.binary), "%s", x->o.binary);
	assert_int_equal(mdp_enable_remove(&x->r, &rec, NULL, 0, &st, &x->rep), 0);
	assert_int_equal(x->rep.n, 1);
	assert_int_equal(x->rep.v[0].kind, MDP_EN_DONE);
	assert_non_null(
	    strstr(x->rep.v[0].text, "left the Task Scheduler task mdprofile as it is"));
	mdp_enable_report_free(&x->rep);
	fx_free(x);
}

/* No esynoscheduler: the task is the owner's to create or delete, and the steps say how. */
static void test_dsm_without_scheduler(void **state)
{
	struct fx *x = fx_new("ds-dsm6-reshape", false);
	struct mdp_keeper_stop st = {0};
	struct mdp_boot_record rec;

	(void)state;
	files(x, MDP_BOOT_DSM);
	assert_int_equal(mdp_enable_register(&x->r, "t", &x->o, x->f, &x->rep), 0);
	assert_true(x->rep.left);
	assert_int_equal(x->rep.n, 2);
	assert_string_equal(x->rep.v[0].text,
			    "esynoscheduler is not on this system: the Task Scheduler task is not "
			    "created");
	assert_int_equal(x->rep.v[1].kind, MDP_EN_STEP);
	assert_non_null(strstr(x->rep.v[1].text, "create the task in DSM:\n"));
	mdp_enable_report_free(&x->rep);
	record(x, &rec);
	assert_false(rec.task);
	/* Never created by enable: nothing to delete, nothing left. */
	assert_int_equal(mdp_enable_remove(&x->r, &rec, NULL, 0, &st, &x->rep), 0);
	lines(x, false, NULL);
	/* Created by enable, now without the tool: the step is left, the files kept. */
	rec.task = true;
	assert_int_equal(mdp_enable_install_files(&x->r, x->f, x->n, &x->rep), 0);
	mdp_enable_report_free(&x->rep);
	assert_int_equal(mdp_enable_remove(&x->r, &rec, NULL, 0, &st, &x->rep), 0);
	assert_true(x->rep.left);
	assert_int_equal(x->rep.n, 2);
	assert_int_equal(x->rep.v[1].kind, MDP_EN_STEP);
	assert_int_equal(mdp_boot_file_intact(&x->r, &x->f[0]), 1);
	fx_free(x);
}

/* ---- the watcher enable --auto set up ------------------------------------------------ */

#define SCRIPT     "/volume1/@mdprofile/mdprofile.sh"
#define START_AUTO "/bin/sh " SCRIPT " start-auto"

/*
 * x's system with its script a stand-in keeper (a read that blocks; run by
 * mdp_keeper_start, MDPROFILE_ROOT set, it exits 7 at once), the state
 * directory, and the record of enable t --auto reshape-fast on DSM.
 */
static void auto_setup(struct fx *x, struct mdp_boot_record *rec)
{
	char path[PATH_MAX];
	FILE *f;

	test_sh(
	    "mkdir -p '%s/run/mdprofile' '%s/volume1/@mdprofile' && chmod 0700 '%s/run/mdprofile'",
	    x->dir, x->dir, x->dir);
	snprintf(path, sizeof(path), "%s%s", x->dir, SCRIPT);
	assert_non_null(f = fopen(path, "w"));
	fputs("[ -z \"$MDPROFILE_ROOT\" ] || exit 7\necho\nread x\n", f);
	assert_int_equal(fclose(f), 0);
	memset(rec, 0, sizeof(*rec));
	rec->target = MDP_BOOT_DSM;
	snprintf(rec->profile, sizeof(rec->profile), "t");
	snprintf(rec->auto_profile, sizeof(rec->auto_profile), "reshape-fast");
	snprintf(rec->binary, sizeof(rec->binary), "%s", x->o.binary);
	x->o.target = MDP_BOOT_DSM;
	x->o.auto_profile = "reshape-fast";
}

/* A keeper of x's script (a session leader), keep its fd 9; a watcher (... mdprofile auto). */
static pid_t keeper(struct fx *x, int keep, int *in)
{
	char host[PATH_MAX];
	char *argv[] = {"/bin/sh", host, "keep-auto", NULL};

	snprintf(host, sizeof(host), "%s%s", x->dir, SCRIPT);
	return test_spawn(argv, true, keep, in);
}

static pid_t watcher(int *in)
{
	char *argv[] = {"/bin/sh", "-c", "echo; read x", "mdprofile", "auto", NULL};

	return test_spawn(argv, false, -1, in);
}

/* The keeper's lock file: "PID", or with restart "PID restart T" (its lock stays as it is). */
static void put(struct fx *x, long pid, long restart)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", x->dir, MDP_BOOT_AUTO_LOCK);
	assert_non_null(f = fopen(path, "w"));
	if (restart)
		fprintf(f, "%ld restart %ld\n", pid, restart);
	else
		fprintf(f, "%ld\n", pid);
	assert_int_equal(fclose(f), 0);
}

/* Hold the lock sys naming pid in it, as the process holding it would. */
static int hold(struct fx *x, const char *sys, long pid)
{
	char path[PATH_MAX], text[32];

	snprintf(path, sizeof(path), "%s%s", x->dir, sys);
	snprintf(text, sizeof(text), "%ld\n", pid);
	return test_hold(path, text);
}

static void wstate(struct fx *x, long pid, enum mdp_origin mode)
{
	struct mdp_wstate w = {.pid = pid, .mode = mode, .since = 1};

	snprintf(w.profile, sizeof(w.profile), "reshape-fast");
	snprintf(w.state, sizeof(w.state), "armed");
	assert_int_equal(mdp_wstate_store(&x->r, &w), 0);
}

/* The watcher piece status shows of rec, in *p. */
static void watcher_piece(struct fx *x, const struct mdp_boot_record *rec,
			  struct mdp_enable_piece *p)
{
	struct mdp_enable_piece v[MDP_ENABLE_PIECES];
	size_t n = mdp_enable_pieces(&x->r, rec, v, MDP_ENABLE_PIECES);

	assert_true(n > 0);
	assert_string_equal(v[n - 1].what, "watcher");
	*p = v[n - 1];
}

/*
 * Running is the watcher alive, not the watcher lock held (F09): a lock an
 * apply --until-idle holds, or the state file of a watcher that died, is
 * "not running" with who holds it; a keeper waiting to start it again is
 * "restarting" with when and its pid; one starting it is said too.
 */
static void test_watcher_piece(void **state)
{
	struct fx *x = fx_new("ds-dsm6-reshape", false);
	struct mdp_boot_record rec;
	struct mdp_enable_piece p;
	char want[512];
	int fd, kin, win;
	long restart;
	pid_t dead, kp, wp;

	(void)state;
	auto_setup(x, &rec);
	watcher_piece(x, &rec, &p);
	assert_string_equal(p.where, "mdprofile auto reshape-fast");
	assert_string_equal(p.state, "not running");
	assert_string_equal(p.note, "");
	assert_string_equal(p.hint, "start it: " START_AUTO);

	fd = hold(x, MDP_WATCHER_LOCK, getpid());
	wstate(x, getpid(), MDP_BY_UNTIL_IDLE);
	watcher_piece(x, &rec, &p);
	assert_string_equal(p.state, "not running");
	snprintf(
	    want, sizeof(want),
	    "the watcher lock is held by an apply --until-idle (pid %ld); start it: " START_AUTO,
	    (long)getpid());
	assert_string_equal(p.hint, want);
	if ((dead = fork()) == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	wstate(x, dead, MDP_BY_AUTO);
	watcher_piece(x, &rec, &p);
	assert_string_equal(p.state, "not running");
	snprintf(want, sizeof(want),
		 "the watcher lock is held by another process (pid %ld); start it: " START_AUTO,
		 (long)getpid());
	assert_string_equal(p.hint, want);

	close(fd);

	/* the keeper's lock held, its file naming the keeper and when it starts the watcher */
	kp = keeper(x, -1, &kin);
	fd = hold(x, MDP_BOOT_AUTO_LOCK, kp);
	restart = (long)time(NULL) + 100;
	put(x, kp, restart);
	watcher_piece(x, &rec, &p);
	assert_string_equal(p.state, "restarting");
	assert_int_equal(p.at, restart);
	snprintf(want, sizeof(want), ", keeper pid %ld", (long)kp);
	/* "at 2026-12-07T09:15:00+01:00 (in 100 s, keeper pid N)": the local time, then the wait */
	assert_true(!strncmp(p.note, "at 20", 5));
	assert_true(strstr(p.note, " (in 100 s,") || strstr(p.note, " (in 99 s,"));
	assert_non_null(strstr(p.note, want));
	/* the one way to have it sooner */
	assert_string_equal(p.hint, "to start it now: mdprofile enable t --auto reshape-fast");
	put(x, kp, 0);
	watcher_piece(x, &rec, &p);
	assert_string_equal(p.state, "not running");
	snprintf(want, sizeof(want), "its keeper (pid %ld) is starting it", (long)kp);
	assert_string_equal(p.hint, want);

	/* and its watcher runs */
	wp = watcher(&win);
	{
		int wfd = hold(x, MDP_WATCHER_LOCK, wp);
		wstate(x, wp, MDP_BY_AUTO);
		watcher_piece(x, &rec, &p);
		assert_string_equal(p.state, "running");
		snprintf(want, sizeof(want), "mdprofile auto reshape-fast (pid %ld)", (long)wp);
		assert_string_equal(p.where, want);
		assert_string_equal(p.hint, "");
		close(wfd);
	}
	close(fd);
	test_reap(wp, win, true);
	test_reap(kp, kin, true);
	fx_free(x);
}

/*
 * enable's start: systemd's unit is not its; a keeper that keeps the
 * watcher is left to it, nothing said; a watcher started by hand gets none
 * beside it; a keeper waiting to start it again is stopped, and a new one
 * started (here one that ends at once: said, with the command).
 */
static void test_start_watcher(void **state)
{
	struct fx *x = fx_new("ds-dsm6-reshape", false);
	struct mdp_boot_record rec;
	char want[512];
	int kin, win, kfd, wfd;
	pid_t kp, wp;

	(void)state;
	auto_setup(x, &rec);
	x->o.target = MDP_BOOT_SYSTEMD;
	mdp_enable_start_watcher(&x->r, &x->o, SCRIPT, &x->rep);
	lines(x, false, NULL);
	x->o.target = MDP_BOOT_DSM;

	kfd = hold(x, MDP_BOOT_AUTO_LOCK, 0);
	kp = keeper(x, kfd, &kin);
	close(kfd);
	put(x, kp, 0);
	wp = watcher(&win);
	wfd = hold(x, MDP_WATCHER_LOCK, wp);
	wstate(x, wp, MDP_BY_AUTO);
	mdp_enable_start_watcher(&x->r, &x->o, SCRIPT, &x->rep);
	lines(x, false, NULL);

	/* its keeper gone: the watcher is one started by hand */
	test_reap(kp, kin, true);
	mdp_enable_start_watcher(&x->r, &x->o, SCRIPT, &x->rep);
	snprintf(
	    want, sizeof(want),
	    "a watcher runs already (pid %ld): the next boot starts the one enabled; now: stop "
	    "that one, then " START_AUTO,
	    (long)wp);
	lines(x, true, want, MDP_EN_DONE, NULL);
	close(wfd);
	test_reap(wp, win, true);

	/* a keeper that waits to start it again: stopped, and one started now */
	kfd = hold(x, MDP_BOOT_AUTO_LOCK, 0);
	kp = keeper(x, kfd, &kin);
	close(kfd);
	put(x, kp, (long)time(NULL) + 100);
	mdp_enable_start_watcher(&x->r, &x->o, SCRIPT, &x->rep);
	test_reap(kp, kin, false);
	assert_true(x->rep.left);
	assert_int_equal(x->rep.n, 3);
	snprintf(want, sizeof(want),
		 "stopped the watcher's keeper (pid %ld), which was to start it again in ",
		 (long)kp);
	assert_int_equal(x->rep.v[0].kind, MDP_EN_DONE);
	assert_true(!strncmp(x->rep.v[0].text, want, strlen(want)));
	assert_string_equal(x->rep.v[1].text, "the watcher (mdprofile auto reshape-fast) did not "
					      "start; its log: /var/log/mdprofile-auto.log");
	assert_int_equal(x->rep.v[1].kind, MDP_EN_ERROR);
	assert_string_equal(x->rep.v[2].text, "to start it: " START_AUTO);
	assert_int_equal(x->rep.v[2].kind, MDP_EN_STEP);
	mdp_enable_report_free(&x->rep);
	fx_free(x);
}

/* What a stop signalled, once gone, said in one line. */
static void test_watchers_gone(void **state)
{
	struct fx *x = fx_new(NULL, false);
	struct mdp_keeper_stop st = {.keeper = {test_dead_pid(), test_dead_pid()}, .n_keeper = 1};
	char want[256];

	(void)state;
	mdp_enable_watchers_gone(&x->r, &st, &x->rep);
	snprintf(want, sizeof(want), "stopped the watcher's keeper (pid %ld)", st.keeper[0]);
	lines(x, false, want, MDP_EN_DONE, NULL);
	st.n_keeper = 2;
	st.watcher = test_dead_pid();
	mdp_enable_watchers_gone(&x->r, &st, &x->rep);
	snprintf(want, sizeof(want),
		 "stopped the watcher (pid %ld) and its keepers (pids %ld, %ld)", st.watcher,
		 st.keeper[0], st.keeper[1]);
	lines(x, false, want, MDP_EN_DONE, NULL);
	st.n_keeper = 0;
	mdp_enable_watchers_gone(&x->r, &st, &x->rep);
	snprintf(want, sizeof(want), "stopped the watcher (pid %ld)", st.watcher);
	lines(x, false, want, MDP_EN_DONE, NULL);
	st.watcher = 0;
	mdp_enable_watchers_gone(&x->r, &st, &x->rep);
	lines(x, false, NULL);
	fx_free(x);
}

/* The calls mdp_enable_run and mdp_disable_run make of their caller, in order. */
struct trace {
	char s[256];
	char error[512]; /* the first error line */
};

static int t_apply(void *arg)
{
	strcat(((struct trace *)arg)->s, "apply ");
	return 0;
}

static int t_revert(void *arg)
{
	strcat(((struct trace *)arg)->s, "revert ");
	return 0;
}

static void t_unlock(void *arg)
{
	strcat(((struct trace *)arg)->s, "unlock ");
}

static void t_say(void *arg, struct mdp_enable_report *rep)
{
	struct trace *t = arg;

	strcat(t->s, rep->v[0].kind == MDP_EN_ERROR ? "error " : "said ");
	if (rep->v[0].kind == MDP_EN_ERROR && !t->error[0])
		snprintf(t->error, sizeof(t->error), "%s", rep->v[0].text);
	mdp_enable_report_free(rep);
}

/*
 * enable refused by a Task Scheduler task it did not create: said, and
 * the caller's apply never called; disable with nothing enabled: nothing
 * said, nothing reverted.
 */
static void test_run_refuses_first(void **state)
{
	static const char text[] = "arrays:\n  - match: {names: [md2]}\n    read_ahead: 1MiB\n";
	struct fx *x = fx_new("ds-dsm6-reshape", true);
	struct trace t = {"", ""};
	const struct mdp_enable_ops ops = {t_apply, t_revert, t_unlock, t_say, &t};
	struct mdp_profile p = {0};
	struct mdp_system s = {0};
	struct mdp_enable_res res;
	struct mdp_diags d;

	(void)state;
	test_sh("mkdir -p '%s/volume1/@mdprofile' && touch '%s%s' && chmod 755 '%s%s'", x->dir,
		x->dir, x->o.binary, x->dir, x->o.binary);
	mdp_diags_init(&d);
	assert_int_equal(mdp_task_create(&x->r, "mdprofile", "/bin/bash /root/mine.sh", "mine", &d),
			 0);
	assert_int_equal(mdp_profile_load_mem(NULL, "t", text, strlen(text), &p, &d), 0);
	assert_int_equal(mdp_discover(&x->r, &s, &d), 0);
	x->o.target = MDP_BOOT_DSM;
	res = mdp_enable_run(&x->r, &p, &s, &x->o, &ops);
	assert_int_equal(res.end, MDP_ENABLE_REFUSED);
	assert_string_equal(t.s, "error ");
	assert_non_null(strstr(t.error, "runs '/bin/bash /root/mine.sh'); nothing was changed"));
	t.s[0] = 0;
	res = mdp_disable_run(&x->r, &ops);
	assert_int_equal(res.end, MDP_ENABLE_NONE);
	assert_string_equal(t.s, "");
	mdp_diags_free(&d);
	mdp_system_free(&s);
	mdp_profile_free(&p);
	fx_free(x);
}

/*
 * status's verdict on what is enabled (issue 50): a piece missing is NOT intact with its
 * remedy; the watcher alone down says so with its own; while the boot task runs it says
 * that task's step, not NOT intact; a restart names its local time.
 */
static void test_verdict(void **state)
{
	struct mdp_enable_piece p[2] = {{.what = "script", .state = "intact"},
					{.what = "watcher", .state = "running"}};
	static const struct mdp_enable_boot none = {0}, wait = {.pid = 42, .step = "waiting"},
					    re = {.pid = 42,
						  .step = "re-checking",
						  .until = 1796631300};
	static const struct {
		const char *script, *watcher, *want;
		int64_t at;
		const struct mdp_enable_boot *b;
	} c[] = {
	    {"intact", "running", "intact", 0, &none},
	    {"missing", "running", "NOT intact (run mdprofile enable again)", 0, &none},
	    {"intact", "not running", "the watcher is NOT running", 0, NULL},
	    {"intact", "unknown", "the watcher's state is unknown (run as root)", 0, &none},
	    {"intact", "restarting", "the watcher restarts at 2026-12-07T09:15:00+01:00",
	     1796631300, &none},
	    {"intact", "not started", "the boot task runs: waiting for the arrays", 0, &wait},
	    {"intact", "running",
	     "intact; the boot task runs: re-checking until 2026-12-07T09:15:00+01:00", 0, &re},
	    {"changed", "not started",
	     "NOT intact (run mdprofile enable again); the boot task runs: waiting for the arrays",
	     0, &wait},
	};
	char buf[256];

	(void)state;
	assert_int_equal(setenv("TZ", "<+01>-1", 1), 0);
	tzset();
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		p[0].state = c[i].script;
		p[1].state = c[i].watcher;
		p[1].at = c[i].at;
		mdp_enable_verdict(p, 2, c[i].b, buf, sizeof(buf));
		assert_string_equal(buf, c[i].want);
	}
	unsetenv("TZ");
	tzset();
}

MDP_TEST_MAIN(test_verdict, test_units_left_to_owner, test_packaged_units, test_dsm_task_round_trip,
	      test_dsm_foreign_task, test_dsm_without_scheduler, test_watcher_piece,
	      test_start_watcher, test_watchers_gone, test_run_refuses_first)
