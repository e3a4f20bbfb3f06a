/*
 * test_services: the dsm6, dsm7 and systemd backends against the fake
 * service managers of tests/fakes/ installed into a temporary root, plus
 * detection, name checks and the exec helper (timeout, environment,
 * descriptors, output capture).
 *
 * Every case asserts the exact lines the fakes logged, so a backend that
 * runs one command too many (or any command for a bad name) fails.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "exec.h"
#include "root.h"
#include "services.h"
#include "support.h"
#include "services_int.h"
#include "root_int.h"

/*
 * The short timeout of the tests that run into one. Long enough that starting a fake tool
 * (a shell script) never takes it on a loaded 2-core machine, where 0.3 s sometimes did.
 */
#define SHORT_MS 1500

struct fx {
	char dir[PATH_MAX];
	struct mdp_root r;
	struct mdp_svc_backend b;
	struct mdp_diags d;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/mdp-test-svc-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(mdp_root_init(&f->r, f->dir), 0);
	mdp_root_allow_exec(&f->r, f->dir); /* the fakes installed here may run */
	mdp_diags_init(&f->d);
	*state = f;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	mdp_root_fini(&f->r);
	mdp_diags_free(&f->d);
	free(f);
	return 0;
}

/* Run tests/fakes/install.sh ROOT KIND SEEDS... (NULL-terminated) and pick the backend. */
static void install(struct fx *f, const char *kind, ...)
{
	const char *src = getenv("MDP_SRCDIR");
	char script[PATH_MAX];
	const char *argv[16] = {"sh", script, f->dir, kind};
	size_t n = 4;
	va_list ap;
	int st;
	pid_t pid;

	snprintf(script, sizeof(script), "%s/tests/fakes/install.sh", src ? src : ".");
	va_start(ap, kind);
	while (n < 15 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execv("/bin/sh", (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(mdp_svc_detect(&f->r, kind, &f->b, &f->d), 0);
	assert_int_equal(f->b.timeout_ms, 30000);
}

static void put(struct fx *f, const char *sys, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s", sys);
	*strrchr(dir, '/') = '\0';
	if (*dir)
		assert_int_equal(mdp_root_mkdir_p(&f->r, dir, 0755), 0);
	assert_int_equal(mdp_root_path(&f->r, sys, path, sizeof(path)), 0);
	assert_non_null(fp = fopen(path, "w"));
	fputs(text, fp);
	fclose(fp);
}

static void knob(struct fx *f, const char *name, const char *what)
{
	char sys[256];

	snprintf(sys, sizeof(sys), "/var/lib/fake-services/%s.%s", name, what);
	put(f, sys, "");
}

/* The call log, and then it is emptied for the next step. */
static void expect_log(struct fx *f, const char *want)
{
	const char *sys = "/var/log/fake-services.log";
	char *got = NULL;

	if (mdp_root_read_all(&f->r, sys, &got, NULL))
		got = strdup("");
	assert_string_equal(got, want);
	free(got);
	put(f, sys, "");
}

static void expect_state(struct fx *f, const char *svc, enum mdp_svc_state want)
{
	enum mdp_svc_state st = (enum mdp_svc_state) - 1;

	assert_int_equal(f->b.ops->status(&f->b, svc, &st, &f->d), 0);
	assert_int_equal(st, want);
}

static void expect_diag(struct fx *f, const char *want)
{
	assert_int_equal(f->d.n, 1);
	assert_string_equal(f->d.v[0].msg, want);
	mdp_diags_free(&f->d);
}

/* ---- names ------------------------------------------------------------- */

static const char *const bad_names[] = {
    "a;b", "$(x)", "a b", "`x`", "-x", "--help", "", "a/b", "a\nb", "x|y", "a'b", "a*",
};

static void test_name_ok(void **state)
{
	char longest[130];

	(void)state;
	assert_true(mdp_svc_name_ok("synoindexd"));
	assert_true(mdp_svc_name_ok("pkgctl-FileStation"));
	assert_true(mdp_svc_name_ok("pkg:SynologyPhotos"));
	assert_true(mdp_svc_name_ok("getty@tty1.service"));
	assert_true(mdp_svc_name_ok("a_b.c-d:e@f"));
	for (size_t i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++)
		assert_false(mdp_svc_name_ok(bad_names[i]));
	assert_false(mdp_svc_name_ok(NULL));
	memset(longest, 'a', 128);
	longest[128] = '\0';
	assert_true(mdp_svc_name_ok(longest));
	longest[128] = 'a';
	longest[129] = '\0';
	assert_false(mdp_svc_name_ok(longest));
}

/* Bad names are refused by every verb of every backend before anything runs. */
static void check_bad_names(struct fx *f)
{
	for (size_t i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
		enum mdp_svc_state st = MDP_SVC_RUNNING;
		const char *n = bad_names[i];

		assert_int_equal(f->b.ops->status(&f->b, n, &st, &f->d), -EINVAL);
		assert_int_equal(st, MDP_SVC_RUNNING);
		assert_int_equal(f->b.ops->pause(&f->b, n, &f->d), -EINVAL);
		assert_int_equal(f->b.ops->resume(&f->b, n, &f->d), -EINVAL);
		assert_int_equal(f->d.n, 3);
		assert_non_null(strstr(f->d.v[0].msg, "invalid name"));
		assert_null(strchr(f->d.v[0].msg, '\n'));
		mdp_diags_free(&f->d);
	}
	expect_log(f, "");
}

/* The names one backend refuses beyond bad_names[], with what it says. */
static const struct {
	const char *backend;
	bool resume; /* asked to resume it, else to pause it */
	const char *name, *diag;
} backend_bad_names[] = {
    {"dsm6", false, "a;b",
     "service 'a;b': invalid name (only letters, digits and @._:- are allowed)"},
    {"dsm6", false,
     "pkg:", "service 'pkg:': invalid name (a package name is required after 'pkg:')"},
    {"dsm7", false, "pkg:-x",
     "service 'pkg:-x': invalid name (the package name after 'pkg:' must not start with '-')"},
    {"dsm7", true, "pkg:a:b",
     "service 'pkg:a:b': invalid name (the package name after 'pkg:' must not contain ':')"},
    {"systemd", false, "pkg:Foo",
     "service pkg:Foo: package entries (pkg:) need the dsm6 or dsm7 backend"},
};

static void bad_names_on(void **state, const char *backend)
{
	struct fx *f = *state;

	install(f, backend, "a=running", NULL);
	check_bad_names(f);
	for (size_t i = 0; i < sizeof(backend_bad_names) / sizeof(backend_bad_names[0]); i++) {
		const char *n = backend_bad_names[i].name;
		if (strcmp(backend_bad_names[i].backend, backend))
			continue;
		assert_int_equal(backend_bad_names[i].resume ? f->b.ops->resume(&f->b, n, &f->d)
							     : f->b.ops->pause(&f->b, n, &f->d),
				 -EINVAL);
		expect_diag(f, backend_bad_names[i].diag);
	}
	expect_log(f, "");
}

static void test_bad_names_dsm6(void **state)
{
	bad_names_on(state, "dsm6");
}

static void test_bad_names_dsm7(void **state)
{
	bad_names_on(state, "dsm7");
}

static void test_bad_names_systemd(void **state)
{
	bad_names_on(state, "systemd");
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- dsm6 -------------------------------------------------------------- */

static void test_dsm6_cycle(void **state)
{
	struct fx *f = *state;

	install(f, "dsm6", "synoindexd=running", "synomkthumbd=stopped", NULL);
	assert_ptr_equal(f->b.ops, &mdp_svc_dsm6);
	expect_state(f, "synoindexd", MDP_SVC_RUNNING);
	expect_log(f, "synoservice --status synoindexd\n");
	/* F4: by reason, name first; then the status until it shows (F19). */
	assert_int_equal(f->b.ops->pause(&f->b, "synoindexd", &f->d), 0);
	expect_log(f, "synoservice --pause-by-reason synoindexd mdprofile\n"
		      "synoservice --status synoindexd\n");
	expect_state(f, "synoindexd", MDP_SVC_STOPPED); /* paused: enabled, job stopped */
	assert_int_equal(f->b.ops->resume(&f->b, "synoindexd", &f->d), 0);
	expect_state(f, "synoindexd", MDP_SVC_RUNNING);
	expect_log(f, "synoservice --status synoindexd\n"
		      "synoservice --resume-by-reason synoindexd mdprofile\n"
		      "synoservice --status synoindexd\n"
		      "synoservice --status synoindexd\n");
	expect_state(f, "synomkthumbd", MDP_SVC_STOPPED);
	expect_state(f, "nosuchd", MDP_SVC_MISSING);
	expect_log(f, "synoservice --status synomkthumbd\n"
		      "synoservice --status nosuchd\n");
	assert_int_equal(f->d.n, 0);
	assert_false(f->b.learnt.plain_verbs);
}

static void test_dsm6_pkg(void **state)
{
	struct fx *f = *state;

	install(f, "dsm6", "pkgctl-FileStation=running", NULL);
	expect_state(f, "pkg:FileStation", MDP_SVC_RUNNING);
	assert_int_equal(f->b.ops->pause(&f->b, "pkg:FileStation", &f->d), 0);
	assert_int_equal(f->b.ops->resume(&f->b, "pkg:FileStation", &f->d), 0);
	expect_log(f, "synoservice --status pkgctl-FileStation\n"
		      "synoservice --pause-by-reason pkgctl-FileStation mdprofile\n"
		      "synoservice --status pkgctl-FileStation\n"
		      "synoservice --resume-by-reason pkgctl-FileStation mdprofile\n"
		      "synoservice --status pkgctl-FileStation\n");
}

/* F4, F5: DSM's own stop outlives mdprofile's resume; the service is not started. */
static void test_dsm6_held_by_dsm(void **state)
{
	struct fx *f = *state;

	install(f, "dsm6", "synoindexd=running", NULL);
	assert_int_equal(f->b.ops->pause(&f->b, "synoindexd", &f->d), 0);
	/* meanwhile DSM lost the volume and stopped it for its own reason */
	put(f, "/var/lib/fake-services/synoindexd.reasons", "mdprofile\nno-volume\n");
	expect_log(f, "synoservice --pause-by-reason synoindexd mdprofile\n"
		      "synoservice --status synoindexd\n");
	assert_int_equal(f->b.ops->resume(&f->b, "synoindexd", &f->d), -EBUSY);
	assert_int_equal(f->d.n, 0);
	expect_log(f, "synoservice --resume-by-reason synoindexd mdprofile\n"
		      "synoservice --status synoindexd\n");
	expect_state(f, "synoindexd", MDP_SVC_STOPPED);
	expect_log(f, "synoservice --status synoindexd\n");
}

/* F7: without the by-reason verbs the plain ones are used, and remembered. */
static void test_dsm6_plain_verbs(void **state)
{
	struct fx *f = *state;
	char buf[128];

	install(f, "dsm6", "a=running", NULL);
	put(f, "/var/lib/fake-services/.no-reason-verbs", "");
	assert_int_equal(f->b.ops->pause(&f->b, "a", &f->d), 0);
	assert_true(f->b.learnt.plain_verbs);
	assert_int_equal(f->b.ops->resume(&f->b, "a", &f->d), 0);
	expect_log(f, "synoservice --pause-by-reason a mdprofile\n"
		      "synoservice --pause a\n"
		      "synoservice --status a\n"
		      "synoservice --resume a\n"
		      "synoservice --status a\n");
	assert_int_equal(mdp_svc_resume_command(&f->b, "a", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "synoservice --resume a");
	assert_int_equal(f->d.n, 0);
}

static void test_dsm6_failures(void **state)
{
	struct fx *f = *state;

	install(f, "dsm6", "synoindexd=running", NULL);
	assert_int_equal(f->b.ops->pause(&f->b, "nosuchd", &f->d), -EIO);
	expect_diag(f, "service nosuchd: 'synoservice --pause-by-reason nosuchd mdprofile' "
		       "failed (exit code 1): Service [nosuchd] does not exist");
	knob(f, "synoindexd", "fail-pause");
	assert_int_equal(f->b.ops->pause(&f->b, "synoindexd", &f->d), -EIO);
	expect_diag(f, "service synoindexd: 'synoservice --pause-by-reason synoindexd mdprofile' "
		       "failed (exit code 1): Failed to pause service [synoindexd]");
	knob(f, "synoindexd", "fail-resume");
	assert_int_equal(f->b.ops->resume(&f->b, "synoindexd", &f->d), -EIO);
	expect_diag(f, "service synoindexd: 'synoservice --resume-by-reason synoindexd mdprofile' "
		       "failed (exit code 1): Failed to resume service [synoindexd]");
	expect_log(f, "synoservice --pause-by-reason nosuchd mdprofile\n"
		      "synoservice --pause-by-reason synoindexd mdprofile\n"
		      "synoservice --resume-by-reason synoindexd mdprofile\n");
	expect_state(f, "synoindexd", MDP_SVC_RUNNING);
}

/* A tool answering something nobody documented is an error, not a guess. */
static void test_dsm6_unexpected(void **state)
{
	struct fx *f = *state;
	enum mdp_svc_state st = MDP_SVC_RUNNING;

	install(f, "dsm6", NULL);
	put(f, "/usr/syno/sbin/synoservice", "#!/bin/sh\necho 'permission denied'\nexit 2\n");
	assert_int_equal(f->b.ops->status(&f->b, "x", &st, &f->d), -EIO);
	assert_int_equal(st, MDP_SVC_RUNNING);
	expect_diag(f, "service x: 'synoservice --status x' gave an unexpected answer (exit code "
		       "2): permission denied");
}

/* F19: a stop that says it worked while the service runs on fails the step. */
static void test_stop_does_not_stop(void **state)
{
	struct fx *f = *state;
	int64_t t0;

	install(f, "dsm6", "a=running", NULL);
	knob(f, "a", "stuck");
	f->b.timeout_ms = SHORT_MS;
	t0 = now_ms();
	assert_int_equal(f->b.ops->pause(&f->b, "a", &f->d), -EIO);
	assert_true(now_ms() - t0 >= SHORT_MS);
	expect_diag(f, "service a: the stop reported success but the service is running after "
		       "1.5 s");
	expect_state(f, "a", MDP_SVC_RUNNING);
}

/* ---- dsm7 -------------------------------------------------------------- */

static void test_dsm7_units(void **state)
{
	struct fx *f = *state;

	install(f, "dsm7", "synoindexd=running", "synorelayd=stopped", NULL);
	assert_ptr_equal(f->b.ops, &mdp_svc_dsm7);
	expect_state(f, "synoindexd", MDP_SVC_RUNNING);
	assert_int_equal(f->b.ops->pause(&f->b, "synoindexd", &f->d), 0);
	expect_state(f, "synoindexd", MDP_SVC_STOPPED);
	assert_int_equal(f->b.ops->resume(&f->b, "synoindexd", &f->d), 0);
	/* F10: the reason first, then the unit. */
	expect_log(f, "synosystemctl get-active-status synoindexd\n"
		      "synosystemctl stop-service-by-reason mdprofile synoindexd\n"
		      "synosystemctl get-active-status synoindexd\n"
		      "synosystemctl get-load-status synoindexd\n"
		      "synosystemctl get-active-status synoindexd\n"
		      "synosystemctl get-load-status synoindexd\n"
		      "synosystemctl start-service-by-reason mdprofile synoindexd\n"
		      "synosystemctl get-active-status synoindexd\n");
	/* F11, F16: a missing unit is told by systemctl's LoadState. */
	expect_state(f, "synorelayd", MDP_SVC_STOPPED);
	expect_state(f, "nosuchd", MDP_SVC_MISSING);
	expect_log(f, "synosystemctl get-active-status synorelayd\n"
		      "synosystemctl get-load-status synorelayd\n"
		      "synosystemctl get-active-status nosuchd\n"
		      "synosystemctl get-load-status nosuchd\n"
		      "systemctl show -p LoadState nosuchd\n");
	assert_int_equal(f->d.n, 0);
}

static void test_dsm7_held_by_dsm(void **state)
{
	struct fx *f = *state;

	install(f, "dsm7", "a=running", "b=stopped:ha-passive", NULL);
	assert_int_equal(f->b.ops->pause(&f->b, "a", &f->d), 0);
	put(f, "/var/lib/fake-services/a.reasons", "mdprofile\nno-volume\n");
	assert_int_equal(f->b.ops->resume(&f->b, "a", &f->d), -EBUSY);
	/* a stop DSM made itself: mdprofile's resume leaves it as it is */
	assert_int_equal(f->b.ops->resume(&f->b, "b", &f->d), -EBUSY);
	expect_log(f, "synosystemctl stop-service-by-reason mdprofile a\n"
		      "synosystemctl get-active-status a\n"
		      "synosystemctl get-load-status a\n"
		      "synosystemctl start-service-by-reason mdprofile a\n"
		      "synosystemctl get-active-status a\n"
		      "synosystemctl get-load-status a\n"
		      "synosystemctl start-service-by-reason mdprofile b\n"
		      "synosystemctl get-active-status b\n"
		      "synosystemctl get-load-status b\n");
	assert_int_equal(f->d.n, 0);
}

static void test_dsm7_plain_verbs(void **state)
{
	struct fx *f = *state;

	install(f, "dsm7", "a=running", NULL);
	put(f, "/var/lib/fake-services/.no-reason-verbs", "");
	assert_int_equal(f->b.ops->pause(&f->b, "a", &f->d), 0);
	assert_int_equal(f->b.ops->resume(&f->b, "a", &f->d), 0);
	expect_log(f, "synosystemctl stop-service-by-reason mdprofile a\n"
		      "synosystemctl stop a\n"
		      "synosystemctl get-active-status a\n"
		      "synosystemctl get-load-status a\n"
		      "synosystemctl start a\n"
		      "synosystemctl get-active-status a\n");
	assert_true(f->b.learnt.plain_verbs);
}

/* F12, F19: activating/deactivating are waited for; the wait is bounded. */
static void test_dsm7_slow_transitions(void **state)
{
	struct fx *f = *state;
	enum mdp_svc_state st;
	int64_t t0 = now_ms();

	install(f, "dsm7", "a=running", NULL);
	put(f, "/var/lib/fake-services/a.settle", "2\n");
	assert_int_equal(f->b.ops->pause(&f->b, "a", &f->d), 0);
	assert_true(now_ms() - t0 >= 1000);
	expect_state(f, "a", MDP_SVC_STOPPED);
	assert_int_equal(f->b.ops->resume(&f->b, "a", &f->d), 0);
	expect_state(f, "a", MDP_SVC_RUNNING);
	/* a status that stays "deactivating" past the timeout is an error */
	put(f, "/var/lib/fake-services/a.settle", "60\n");
	f->b.timeout_ms = SHORT_MS;
	assert_int_equal(f->b.ops->pause(&f->b, "a", &f->d), -EIO);
	expect_diag(f, "service a: the stop reported success but the service is stopping after "
		       "1.5 s");
	assert_int_equal(f->b.ops->status(&f->b, "a", &st, &f->d), -ETIMEDOUT);
	expect_diag(f, "service a: still stopping after 1.5 s");
}

static void test_dsm7_packages(void **state)
{
	struct fx *f = *state;

	install(f, "dsm7", "pkg:SynologyPhotos=running", "pkg:FileStation=stopped", NULL);
	expect_state(f, "pkg:SynologyPhotos", MDP_SVC_RUNNING);
	assert_int_equal(f->b.ops->pause(&f->b, "pkg:SynologyPhotos", &f->d), 0);
	expect_state(f, "pkg:SynologyPhotos", MDP_SVC_STOPPED);
	assert_int_equal(f->b.ops->resume(&f->b, "pkg:SynologyPhotos", &f->d), 0);
	expect_state(f, "pkg:FileStation", MDP_SVC_STOPPED);
	expect_state(f, "pkg:Nope", MDP_SVC_MISSING);
	/* F15: no reasons for packages */
	expect_log(f, "synopkg status SynologyPhotos\n"
		      "synopkg stop SynologyPhotos\n"
		      "synopkg status SynologyPhotos\n"
		      "synopkg status SynologyPhotos\n"
		      "synopkg start SynologyPhotos\n"
		      "synopkg status SynologyPhotos\n"
		      "synopkg status FileStation\n"
		      "synopkg status Nope\n");
	knob(f, "FileStation", "fail-resume");
	assert_int_equal(f->b.ops->resume(&f->b, "pkg:FileStation", &f->d), -EIO);
	expect_diag(f, "service pkg:FileStation: 'synopkg start FileStation' failed (exit code "
		       "1): {\"action\":\"start\",\"error\":{\"code\":1},\"package\":"
		       "\"FileStation\",\"success\":false}");
	expect_log(f, "synopkg start FileStation\n");
}

/* Install dsm7 with synopkg of DSM major.minor and seed the packages. */
static void install_pkg_gen(struct fx *f, const char *version)
{
	put(f, "/etc.defaults/VERSION", version);
	install(f, "dsm7", "pkg:Run=running", "pkg:Stop=stopped", "pkg:Bad=broken", NULL);
}

static void expect_pkg_states(struct fx *f)
{
	expect_state(f, "pkg:Run", MDP_SVC_RUNNING);
	expect_state(f, "pkg:Stop", MDP_SVC_STOPPED);
	expect_state(f, "pkg:Gone", MDP_SVC_MISSING);
}

/* F13, F14: every generation's answers. */
static void test_synopkg_72(void **state)
{
	struct fx *f = *state;
	enum mdp_svc_state st;

	install_pkg_gen(f, "majorversion=\"7\"\nminorversion=\"2\"\n");
	expect_pkg_states(f); /* exit 0, 17 and 255 with "non_installed" under "error" */
	assert_int_equal(f->b.ops->status(&f->b, "pkg:Bad", &st, &f->d), -EIO);
	expect_diag(f,
		    "service pkg:Bad: 'synopkg status Bad' says the package is broken; repair "
		    "it in Package Center (exit code 150): {\"aspect\":{\"active\":{\"status\":"
		    "\"broken\",\"status_code\":150}},\"package\":\"Bad\",\"status\":\"broken\"}");
	/* 55 starting is polled until it settles */
	put(f, "/var/lib/fake-services/Stop.settle", "2\n");
	assert_int_equal(f->b.ops->resume(&f->b, "pkg:Stop", &f->d), 0);
	expect_state(f, "pkg:Stop", MDP_SVC_RUNNING);
}

static void test_synopkg_71(void **state)
{
	struct fx *f = *state;

	install_pkg_gen(f, "majorversion=\"7\"\nminorversion=\"1\"\n");
	expect_pkg_states(f); /* always exit 0; top-level "non_installed" */
	knob(f, "Run", "fail-pause");
	assert_int_equal(f->b.ops->pause(&f->b, "pkg:Run", &f->d), -EIO);
	expect_diag(f, "service pkg:Run: 'synopkg stop Run' failed (exit code 0): "
		       "{\"action\":\"stop\",\"error\":{\"code\":1},\"package\":\"Run\","
		       "\"success\":false}");
}

static void test_synopkg_70(void **state)
{
	struct fx *f = *state;

	install_pkg_gen(f, "majorversion=\"7\"\nminorversion=\"0\"\n");
	expect_pkg_states(f); /* text; exit 0, 3 and 4 */
	assert_int_equal(f->b.ops->pause(&f->b, "pkg:Run", &f->d), 0);
	expect_state(f, "pkg:Run", MDP_SVC_STOPPED);
}

/* Output nobody documented is not read as a state. */
static void test_synopkg_unexpected(void **state)
{
	struct fx *f = *state;
	enum mdp_svc_state st;

	install(f, "dsm7", NULL);
	put(f, "/usr/syno/bin/synopkg",
	    "#!/bin/sh\ncase $2 in\n"
	    "A) echo '{\"status\":\"weird\"}'; exit 0 ;;\n"
	    "B) echo 'Segmentation fault'; exit 139 ;;\n"
	    "C) echo '{\"aspect\":{\"status\":\"running\"},\"status\":\"stop\"}'; exit 0 ;;\n"
	    "esac\n");
	/* an unknown word falls back to the exit code (0: started) */
	expect_state(f, "pkg:A", MDP_SVC_RUNNING);
	assert_int_equal(f->b.ops->status(&f->b, "pkg:B", &st, &f->d), -EIO);
	expect_diag(f, "service pkg:B: 'synopkg status B' gave an unexpected answer (exit code "
		       "139): Segmentation fault");
	/* only the top-level "status" counts, and JSON wins over exit 0 */
	expect_state(f, "pkg:C", MDP_SVC_STOPPED);
}

static void test_dsm7_failures(void **state)
{
	struct fx *f = *state;

	install(f, "dsm7", "synoindexd=running", NULL);
	knob(f, "synoindexd", "fail-pause");
	assert_int_equal(f->b.ops->pause(&f->b, "synoindexd", &f->d), -EIO);
	expect_diag(f, "service synoindexd: 'synosystemctl stop-service-by-reason mdprofile "
		       "synoindexd' failed (exit code 1): Job for synoindexd failed because the "
		       "control process exited with error code.");
	assert_int_equal(f->b.ops->resume(&f->b, "nosuchd", &f->d), -EIO);
	expect_diag(f, "service nosuchd: 'synosystemctl start-service-by-reason mdprofile "
		       "nosuchd' failed (exit code 5): Failed to start nosuchd: Unit nosuchd not "
		       "found.");
	expect_log(f, "synosystemctl stop-service-by-reason mdprofile synoindexd\n"
		      "synosystemctl start-service-by-reason mdprofile nosuchd\n");
}

/* ---- systemd ----------------------------------------------------------- */

static void test_systemd_cycle(void **state)
{
	struct fx *f = *state;

	install(f, "systemd", "smbd.service=running", "nfs-server=stopped", NULL);
	assert_ptr_equal(f->b.ops, &mdp_svc_systemd);
	expect_state(f, "smbd.service", MDP_SVC_RUNNING);
	assert_int_equal(f->b.ops->pause(&f->b, "smbd.service", &f->d), 0);
	assert_int_equal(f->b.ops->resume(&f->b, "smbd.service", &f->d), 0);
	expect_log(f, "systemctl is-active smbd.service\n"
		      "systemctl stop smbd.service\n"
		      "systemctl is-active smbd.service\n"
		      "systemctl show -p LoadState smbd.service\n"
		      "systemctl start smbd.service\n"
		      "systemctl is-active smbd.service\n");
	expect_state(f, "nfs-server", MDP_SVC_STOPPED);
	expect_state(f, "nosuch.service", MDP_SVC_MISSING);
	expect_log(f, "systemctl is-active nfs-server\n"
		      "systemctl show -p LoadState nfs-server\n"
		      "systemctl is-active nosuch.service\n"
		      "systemctl show -p LoadState nosuch.service\n");
	knob(f, "smbd.service", "fail-pause");
	assert_int_equal(f->b.ops->pause(&f->b, "smbd.service", &f->d), -EIO);
	expect_diag(f, "service smbd.service: 'systemctl stop smbd.service' failed (exit code "
		       "1): Job for smbd.service failed because the control process exited with "
		       "error code.");
	assert_int_equal(f->b.ops->pause(&f->b, "nosuch.service", &f->d), -EIO);
	expect_diag(f, "service nosuch.service: 'systemctl stop nosuch.service' failed (exit "
		       "code 5): Failed to stop nosuch.service: Unit nosuch.service not loaded.");
	expect_log(f, "systemctl stop smbd.service\n"
		      "systemctl stop nosuch.service\n");
}

/* ---- timeouts ---------------------------------------------------------- */

/* Gone, or a zombie waiting for an init that reaps slowly. */
static bool pid_gone(long pid)
{
	char path[64], buf[256], *p;
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(fp = fopen(path, "r")))
		return true;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

static void expect_hang_killed(struct fx *f, const char *name, const char *svc, const char *want)
{
	char sys[256], pids[64];
	long sh_pid = 0, sleep_pid = 0;
	int64_t t0;
	int err;

	knob(f, name, "hang");
	f->b.timeout_ms = SHORT_MS;
	f->b.pkg_timeout_ms = SHORT_MS;
	t0 = now_ms();
	err = f->b.ops->pause(&f->b, svc, &f->d);
	assert_int_equal(err, -ETIMEDOUT);
	assert_true(now_ms() - t0 < 5000);
	expect_diag(f, want);
	snprintf(sys, sizeof(sys), "/var/lib/fake-services/%s.hang.pids", name);
	assert_true(mdp_root_read_value(&f->r, sys, pids, sizeof(pids)) > 0);
	assert_int_equal(sscanf(pids, "%ld %ld", &sh_pid, &sleep_pid), 2);
	for (int i = 0; i < 100 && !(pid_gone(sh_pid) && pid_gone(sleep_pid)); i++)
		usleep(20000);
	assert_true(pid_gone(sh_pid));
	assert_true(pid_gone(sleep_pid));
}

/* A pause tool that hangs is killed, process group and all, on each service manager. */
static void test_timeout(void **state)
{
	static const struct {
		const char *kind, *seed, *name, *svc, *want, *log;
	} rows[] = {
	    {"dsm6", "synoindexd=running", "synoindexd", "synoindexd",
	     "service synoindexd: 'synoservice --pause-by-reason synoindexd mdprofile' timed out "
	     "after 1.5 s, killed",
	     "synoservice --pause-by-reason synoindexd mdprofile\n"},
	    {"dsm7", "pkg:FileStation=running", "FileStation", "pkg:FileStation",
	     "service pkg:FileStation: 'synopkg stop FileStation' timed out after 1.5 s, killed",
	     "synopkg stop FileStation\n"},
	    {"systemd", "smbd=running", "smbd", "smbd",
	     "service smbd: 'systemctl stop smbd' timed out after 1.5 s, killed",
	     "systemctl stop smbd\n"},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fx *f;

		if (i > 0) /* each row on a fresh fixture, as cmocka gives the first */
			assert_int_equal(teardown(state) | setup(state), 0);
		f = *state;
		install(f, rows[i].kind, rows[i].seed, NULL);
		expect_hang_killed(f, rows[i].name, rows[i].svc, rows[i].want);
		expect_log(f, rows[i].log);
	}
}

static void test_tool_missing(void **state)
{
	struct fx *f = *state;
	enum mdp_svc_state st = MDP_SVC_RUNNING;

	assert_int_equal(mdp_svc_detect(&f->r, "dsm6", &f->b, &f->d), 0);
	assert_int_equal(f->b.ops->status(&f->b, "synoindexd", &st, &f->d), -ENOENT);
	assert_int_equal(st, MDP_SVC_RUNNING);
	expect_diag(f, "service synoindexd: cannot run 'synoservice --status synoindexd': "
		       "synoservice not found in "
		       "/usr/syno/sbin:/usr/syno/bin:/usr/sbin:/usr/bin:/sbin:/bin (this system's "
		       "service manager is not usable; --services-backend none changes the "
		       "tunables without pausing services)");
}

static void expect_resume_cmd(const struct mdp_svc_ops *ops, const char *svc, const char *want)
{
	struct mdp_svc_backend b = {.ops = ops};
	char buf[128];

	assert_int_equal(mdp_svc_resume_command(&b, svc, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

static void test_resume_command(void **state)
{
	struct mdp_svc_backend none = {0}, six = {.ops = &mdp_svc_dsm6};
	char buf[64];

	(void)state;
	expect_resume_cmd(&mdp_svc_dsm6, "synoindexd",
			  "synoservice --resume-by-reason synoindexd mdprofile");
	expect_resume_cmd(&mdp_svc_dsm6, "pkg:FileStation",
			  "synoservice --resume-by-reason pkgctl-FileStation mdprofile");
	expect_resume_cmd(&mdp_svc_dsm7, "synoindexd",
			  "synosystemctl start-service-by-reason mdprofile synoindexd");
	expect_resume_cmd(&mdp_svc_dsm7, "pkg:FileStation", "synopkg start FileStation");
	expect_resume_cmd(&mdp_svc_systemd, "smbd.service", "systemctl start smbd.service");
	assert_int_equal(mdp_svc_resume_command(&six, "a;b", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(mdp_svc_resume_command(&none, "a", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(mdp_svc_resume_command(&six, "abcdef", buf, 40), -ENAMETOOLONG);
}

/* ---- detection --------------------------------------------------------- */

static const struct mdp_svc_ops *detect(struct fx *f, const char *force)
{
	struct mdp_svc_backend b = {.ops = &mdp_svc_dsm6, .root = NULL, .timeout_ms = 1};

	assert_int_equal(mdp_svc_detect(&f->r, force, &b, &f->d), 0);
	assert_ptr_equal(b.root, &f->r);
	assert_int_equal(b.timeout_ms, 30000);
	assert_int_equal(f->d.n, 0);
	return b.ops;
}

static void test_detect(void **state)
{
	struct fx *f = *state;

	assert_null(detect(f, NULL));
	assert_null(detect(f, ""));
	assert_int_equal(mdp_root_mkdir_p(&f->r, "/run/systemd/system", 0755), 0);
	assert_ptr_equal(detect(f, NULL), &mdp_svc_systemd);
	/* a VERSION file without majorversion= is not DSM's */
	put(f, "/etc.defaults/VERSION", "buildnumber=\"42962\"\n");
	assert_ptr_equal(detect(f, NULL), &mdp_svc_systemd);
	put(f, "/etc.defaults/VERSION", "majorversion=\"7\"\nminorversion=\"1\"\n");
	assert_ptr_equal(detect(f, NULL), &mdp_svc_dsm7);
	put(f, "/etc.defaults/VERSION", "productversion=\"6.2.4\"\nmajorversion=6\n");
	assert_ptr_equal(detect(f, NULL), &mdp_svc_dsm6);
	put(f, "/etc.defaults/VERSION", "majorversion='6'\r\n");
	assert_ptr_equal(detect(f, NULL), &mdp_svc_dsm6);
	put(f, "/etc.defaults/VERSION", "majorversion=\"8\"");
	assert_ptr_equal(detect(f, NULL), &mdp_svc_dsm7);
	put(f, "/etc.defaults/VERSION", "majorversion=\"7\"\n");
	assert_ptr_equal(detect(f, "dsm6"), &mdp_svc_dsm6);
	assert_ptr_equal(detect(f, "systemd"), &mdp_svc_systemd);
	assert_null(detect(f, "none"));
	assert_ptr_equal(detect(f, "dsm7"), &mdp_svc_dsm7);
}

static void test_detect_errors(void **state)
{
	struct fx *f = *state;
	struct mdp_svc_backend b = {.ops = &mdp_svc_dsm6, .timeout_ms = 1};

	assert_int_equal(mdp_svc_detect(&f->r, "upstart", &b, &f->d), -EINVAL);
	expect_diag(f, "unknown service manager 'upstart' (expected dsm6, dsm7, systemd or none)");
	put(f, "/etc.defaults/VERSION", "os_name=\"DSM\"\nmajorversion=\"seven\"\n");
	assert_int_equal(mdp_svc_detect(&f->r, NULL, &b, &f->d), -EINVAL);
	assert_int_equal(f->d.n, 1);
	assert_string_equal(f->d.v[0].file, "/etc.defaults/VERSION");
	assert_int_equal(f->d.v[0].line, 2);
	expect_diag(f, "majorversion 'seven' is not a number");
	put(f, "/etc.defaults/VERSION", "majorversion=\"\"\n");
	assert_int_equal(mdp_svc_detect(&f->r, NULL, &b, &f->d), -EINVAL);
	expect_diag(f, "majorversion '' is not a number");
	/* out untouched on failure */
	assert_ptr_equal(b.ops, &mdp_svc_dsm6);
	assert_int_equal(b.timeout_ms, 1);
}

/* ---- exec -------------------------------------------------------------- */

static void tool(struct fx *f, const char *name, const char *body)
{
	char sys[128], path[PATH_MAX];

	snprintf(sys, sizeof(sys), "/bin/%s", name);
	put(f, sys, body);
	assert_int_equal(mdp_root_path(&f->r, sys, path, sizeof(path)), 0);
	assert_int_equal(chmod(path, 0755), 0);
}

static void test_exec_env_and_fds(void **state)
{
	struct fx *f = *state;
	struct mdp_exec_result res;
	const char *argv[] = {"probe", "x y", NULL};
	char want[3 * PATH_MAX + 256];        /* two prefixes and a working directory */
	int fd = open("/dev/null", O_RDONLY); /* not O_CLOEXEC: must not leak anyway */

	assert_true(fd > 2);
	tool(f, "probe",
	     "#!/bin/sh\necho \"args=$#:$1\"\nenv | sort\necho err >&2\n"
	     "ls /proc/self/fd | sort -n | tr '\\n' ' '; echo\nread x && echo stdin=$x\n"
	     "exit 7\n");
	assert_int_equal(mdp_exec_run(&f->r, argv, 5000, &res, &f->d), 0);
	close(fd);
	assert_int_equal(res.exit_code, 7);
	assert_int_equal(res.term_sig, 0);
	assert_false(res.timed_out);
	/* ls's own directory descriptor shows as 3 */
	snprintf(want, sizeof(want),
		 "args=1:x y\nLANG=C\nMDPROFILE_ROOT=%s\nMDPROFILE_ROOT_EXEC=%s\n"
		 "PATH=/usr/syno/sbin:/usr/syno/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
		 "PWD=%s\nerr\n0 1 2 3 \n",
		 f->r.prefix, f->r.prefix, getcwd((char[PATH_MAX]){0}, PATH_MAX));
	assert_string_equal(res.out, want);
}

static void test_exec_output_bounded(void **state)
{
	struct fx *f = *state;
	struct mdp_exec_result res;
	const char *argv[] = {"chatty", NULL};
	char line[32];

	tool(f, "chatty", "#!/bin/sh\necho first line\nhead -c 100000 /dev/zero | tr '\\0' x\n");
	assert_int_equal(mdp_exec_run(&f->r, argv, 5000, &res, &f->d), 0);
	assert_int_equal(res.exit_code, 0);
	assert_true(res.truncated);
	assert_int_equal(res.out_len, MDP_EXEC_OUT_MAX - 1);
	assert_int_equal(strlen(res.out), MDP_EXEC_OUT_MAX - 1);
	mdp_exec_first_line(&res, line, sizeof(line));
	assert_string_equal(line, "first line");
}

/* A daemon left holding the pipe must not make the caller wait for it. */
static void test_exec_daemon_keeps_pipe(void **state)
{
	struct fx *f = *state;
	struct mdp_exec_result res;
	const char *argv[] = {"starter", NULL};
	int64_t t0 = now_ms();

	tool(f, "starter", "#!/bin/sh\n(sleep 3 &)\necho started\n");
	assert_int_equal(mdp_exec_run(&f->r, argv, 10000, &res, &f->d), 0);
	assert_true(now_ms() - t0 < 2000);
	assert_int_equal(res.exit_code, 0);
	assert_string_equal(res.out, "started\n");
}

static void test_exec_signal_and_lookup(void **state)
{
	struct fx *f = *state;
	struct mdp_exec_result res;
	const char *kill_self[] = {"selfkill", NULL};
	const char *slash[] = {"/bin/sh", NULL};
	const char *none[] = {"nonexistent-tool", NULL};
	char path[PATH_MAX];

	tool(f, "selfkill", "#!/bin/sh\necho bye\nkill -TERM $$\n");
	assert_int_equal(mdp_exec_run(&f->r, kill_self, 5000, &res, &f->d), 0);
	assert_int_equal(res.exit_code, -1);
	assert_int_equal(res.term_sig, SIGTERM);
	assert_int_equal(mdp_exec_run(&f->r, slash, 5000, &res, &f->d), -EINVAL);
	assert_int_equal(mdp_exec_run(&f->r, none, 5000, &res, &f->d), -ENOENT);
	/* earlier directories win; a directory of that name is skipped */
	tool(f, "dup", "#!/bin/sh\n");
	assert_int_equal(mdp_root_mkdir_p(&f->r, "/usr/syno/sbin/dup", 0755), 0);
	put(f, "/usr/sbin/dup", "#!/bin/sh\n"); /* not executable */
	assert_int_equal(mdp_exec_find(&f->r, "dup", path, sizeof(path)), 0);
	assert_non_null(strstr(path, "/bin/dup"));
	assert_null(strstr(path, "/usr/"));
}

/*
 * Under a root other than "/" a tool runs only if nobody but root or the
 * caller can have changed it or its directories; the refusal names the
 * file and why, once however often it is asked for.
 */
static void test_exec_refuses_untrusted(void **state)
{
	struct fx *f = *state;
	struct mdp_exec_result res;
	const char *argv[] = {"probe", NULL};
	char path[PATH_MAX], dir[PATH_MAX], want[PATH_MAX + 96];

	tool(f, "probe", "#!/bin/sh\necho ran\n");
	assert_int_equal(mdp_root_path(&f->r, "/bin/probe", path, sizeof(path)), 0);
	assert_int_equal(mdp_root_path(&f->r, "/bin", dir, sizeof(dir)), 0);
	mdp_root_allow_exec(&f->r, NULL); /* a tree nobody named */
	assert_int_equal(mdp_exec_run(&f->r, argv, 5000, &res, &f->d), -EPERM);
	expect_diag(f, "refusing to run it: a --root tree's programs run only when "
		       "MDPROFILE_ROOT_EXEC names the tree");
	mdp_root_allow_exec(&f->r, f->dir);
	assert_int_equal(chmod(path, 0775), 0);
	assert_int_equal(mdp_exec_run(&f->r, argv, 5000, &res, &f->d), -EPERM);
	assert_int_equal(mdp_exec_run(&f->r, argv, 5000, &res, &f->d), -EPERM);
	assert_int_equal(f->d.n, 1);
	assert_string_equal(f->d.v[0].file, path);
	expect_diag(f, "refusing to run it: group/world-writable (mode 0775)");
	assert_int_equal(chmod(path, 0755), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(mdp_exec_run(&f->r, argv, 5000, &res, &f->d), -EPERM);
	snprintf(want, sizeof(want),
		 "refusing to run it: directory %s is group/world-writable (mode 0777)", dir);
	expect_diag(f, want);
	assert_int_equal(chmod(dir, 0755), 0);
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 1000, 0), 0);
		assert_int_equal(mdp_exec_run(&f->r, argv, 5000, &res, &f->d), -EPERM);
		expect_diag(f, "refusing to run it: not owned by root or the caller (uid 1000)");
		assert_int_equal(chown(path, 0, 0), 0);
	}
	assert_int_equal(mdp_exec_run(&f->r, argv, 5000, &res, &f->d), 0);
	assert_string_equal(res.out, "ran\n");
	assert_int_equal(f->d.n, 0);
}

/* A refused service tool is one diagnostic, not two. */
static void test_refused_tool_one_diag(void **state)
{
	struct fx *f = *state;
	enum mdp_svc_state st;
	char path[PATH_MAX];

	install(f, "systemd", "a=running", NULL);
	assert_int_equal(mdp_root_path(&f->r, "/bin/systemctl", path, sizeof(path)), 0);
	assert_int_equal(chmod(path, 0757), 0);
	assert_int_equal(f->b.ops->status(&f->b, "a", &st, &f->d), -EPERM);
	expect_diag(f, "refusing to run it: group/world-writable (mode 0757)");
}

/* Every test runs in a fresh temporary root (setup, teardown); test_name_ok and
 * test_resume_command do not use it. */
/* A program named by its path (a notify command): its variables after the fixed ones; a
 * missing, a non-executable, a relative one and too many variables refused; on the real root
 * it runs only where nobody else could change it (here /tmp, writable by all, refuses it). */
static void test_exec_run_env(void **state)
{
	struct fx *f = *state;
	struct mdp_exec_result res;
	const char *argv[] = {"/usr/local/sbin/hook", NULL},
		   *env[] = {"MDPROFILE_EVENT=end", "MDPROFILE_REASON=", NULL};
	const char *many[MDP_EXEC_ENV_MAX + 2] = {0}, *rel[] = {"hook", NULL};
	char path[PATH_MAX], want[2 * PATH_MAX + 256];
	struct mdp_root real;

	assert_int_equal(mdp_exec_run_env(&f->r, argv, env, 5000, &res, &f->d), -ENOENT);
	put(f, "/usr/local/sbin/hook", "#!/bin/sh\nenv | sort\nexit 4\n");
	assert_int_equal(mdp_root_path(&f->r, argv[0], path, sizeof(path)), 0);
	assert_int_equal(mdp_exec_run_env(&f->r, argv, env, 5000, &res, &f->d), -EACCES);
	assert_int_equal(chmod(path, 0755), 0);
	assert_int_equal(mdp_exec_run_env(&f->r, argv, env, 5000, &res, &f->d), 0);
	assert_int_equal(res.exit_code, 4);
	snprintf(want, sizeof(want),
		 "LANG=C\nMDPROFILE_EVENT=end\nMDPROFILE_REASON=\nMDPROFILE_ROOT=%s\n"
		 "MDPROFILE_ROOT_EXEC=%s\n"
		 "PATH=/usr/syno/sbin:/usr/syno/bin:/usr/sbin:/usr/bin:/sbin:/bin\nPWD=%s\n",
		 f->r.prefix, f->r.prefix, getcwd((char[PATH_MAX]){0}, PATH_MAX));
	assert_string_equal(res.out, want);
	assert_int_equal(mdp_exec_run_env(&f->r, rel, env, 5000, &res, &f->d), -EINVAL);
	for (size_t i = 0; i <= MDP_EXEC_ENV_MAX; i++)
		many[i] = "A=1";
	assert_int_equal(mdp_exec_run_env(&f->r, argv, many, 5000, &res, &f->d), -EINVAL);
	assert_int_equal(f->d.n, 0);
	assert_int_equal(mdp_root_init(&real, NULL), 0);
	argv[0] = path; /* the same file, from the real root: /tmp is writable by all */
	assert_int_equal(mdp_exec_run_env(&real, argv, env, 5000, &res, &f->d), -EPERM);
	assert_int_equal(f->d.n, 1);
	assert_string_equal(f->d.v[0].file, path);
	assert_non_null(strstr(f->d.v[0].msg, "refusing to run it: directory /tmp is "));
	mdp_root_fini(&real);
	mdp_diags_free(&f->d);
	mdp_diags_init(&f->d);
}

MDP_TEST_MAIN_FX(NULL, setup, teardown, test_name_ok, test_bad_names_dsm6, test_bad_names_dsm7,
		 test_bad_names_systemd, test_dsm6_cycle, test_dsm6_pkg, test_dsm6_failures,
		 test_dsm6_unexpected, test_dsm6_held_by_dsm, test_dsm6_plain_verbs,
		 test_stop_does_not_stop, test_dsm7_units, test_dsm7_held_by_dsm,
		 test_dsm7_plain_verbs, test_dsm7_slow_transitions, test_dsm7_packages,
		 test_synopkg_72, test_synopkg_71, test_synopkg_70, test_synopkg_unexpected,
		 test_dsm7_failures, test_systemd_cycle, test_timeout, test_tool_missing,
		 test_resume_command, test_detect, test_detect_errors, test_exec_env_and_fds,
		 test_exec_output_bounded, test_exec_daemon_keeps_pipe, test_exec_signal_and_lookup,
		 test_exec_refuses_untrusted, test_refused_tool_one_diag, test_exec_run_env)
