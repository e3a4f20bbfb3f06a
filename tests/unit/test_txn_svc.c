/*
 * test_txn_svc: services within a transaction (txn_svc.c), through mdp_apply, mdp_txn_revert
 * and a fake service manager on a copy of the DSM 6 fixture. A dry run's preview of each
 * service (what apply would do, asking only what it must); a pause's tool journaled with its
 * process group and leader as it starts (invariant 8); a revert after a crash mid-pause that
 * waits for that tool only while its group is still the one journaled, kills it at its
 * timeout, and leaves another's group alone, said; a resume rolled back by pausing again; the
 * tool's missing verbs noted once a transaction.
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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "exec.h"
#include "journal.h"
#include "services.h"
#include "support.h"
#include "txn.h"

/* ---- a fake service manager: services a, b, c, their states, a log of its calls ---- */

enum { NSVC = 4 };
static const char *const names[NSVC] = {"a", "b", "c", "gone"};

struct fake {
	enum mdp_svc_state st[NSVC];
	char log[1024];
	size_t n;
	long pgid;                /* told to the watch as a pause's tool starts; 0: none */
	char pausing[256];        /* the journal's line of a as the tool started */
	const struct mdp_root *r; /* where that journal is */
	bool resumed;             /* a resume ran (the apply is stopped after it) */
};

/* One test at a time: the ops table has no context of its own. */
static struct fake fk;

static int idx(const char *svc)
{
	for (int i = 0; i < NSVC; i++)
		if (!strcmp(svc, names[i]))
			return i;
	fail_msg("no service %s", svc);
	return 0;
}

static void called(const char *verb, const char *svc)
{
	fk.n += (size_t)snprintf(fk.log + fk.n, sizeof(fk.log) - fk.n, "%s %s\n", verb, svc);
}

static int f_status(const struct mdp_svc_backend *b, const char *svc, enum mdp_svc_state *st,
		    struct mdp_diags *d)
{
	(void)b;
	called("status", svc);
	if (!strcmp(svc, "gone")) {
		mdp_diags_add(d, NULL, 0, 0, "synoservice: not found");
		return -ENOENT;
	}
	*st = fk.st[idx(svc)];
	return 0;
}

/* The line of svc in the journal under root as it is now ("" when none). */
static void journal_line(const struct mdp_root *r, const char *svc, char *buf, size_t cap)
{
	char *text, *l, want[64];
	size_t len;

	buf[0] = '\0';
	assert_int_equal(mdp_root_read_all(r, "/run/mdprofile/journal", &text, &len), 0);
	snprintf(want, sizeof(want), "\nsvc %s ", svc);
	if ((l = strstr(text, want)))
		snprintf(buf, cap, "%.*s", (int)strcspn(l + 1, "\n"), l + 1);
	free(text);
}

static int f_pause(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	(void)d;
	called("pause", svc);
	if (fk.pgid && b->watch) {
		b->watch->started(b->watch->ctx, fk.pgid);
		journal_line(fk.r, svc, fk.pausing, sizeof(fk.pausing));
	}
	fk.st[idx(svc)] = MDP_SVC_STOPPED;
	return 0;
}

static int f_resume(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	(void)b;
	(void)d;
	called("resume", svc);
	fk.st[idx(svc)] = MDP_SVC_RUNNING;
	fk.resumed = true;
	return 0;
}

static const struct mdp_svc_ops fake_ops = {"dsm6", f_status, f_pause, f_resume};

/* ---- the fixture ------------------------------------------------------------------ */

struct env {
	char dir[64], root[128];
	struct mdp_root r;
	struct mdp_diags d;
	struct mdp_svc_backend b;
	struct mdp_txn tx;
	struct mdp_rule rule;
	struct mdp_profile p;
};

static int env_setup(void **state)
{
	const char *src = getenv("MDP_SRCDIR");
	struct env *e = calloc(1, sizeof(*e));

	if (!e)
		return -1;
	snprintf(e->dir, sizeof(e->dir), "/tmp/mdp-tsvc-XXXXXX");
	if (!mkdtemp(e->dir))
		return -1;
	snprintf(e->root, sizeof(e->root), "%s/root", e->dir);
	test_sh("cp -a '%s/tests/fixtures/ds-dsm6-reshape' '%s'", src ? src : ".", e->root);
	if (mdp_root_init(&e->r, e->root))
		return -1;
	mdp_diags_init(&e->d);
	e->b = (struct mdp_svc_backend){
	    .ops = &fake_ops, .root = &e->r, .timeout_ms = 1000, .pkg_timeout_ms = 2000};
	memset(&fk, 0, sizeof(fk));
	fk.r = &e->r;
	*state = e;
	return 0;
}

static int env_teardown(void **state)
{
	struct env *e = *state;

	mdp_txn_report_free(&e->tx.rep);
	mdp_diags_free(&e->d);
	mdp_root_fini(&e->r);
	test_sh("rm -rf '%s'", e->dir);
	free(e);
	return 0;
}

/* A profile named name setting speed_limit_min to min, pausing the n services svcs. */
static const struct mdp_profile *profile(struct env *e, const char *name, uint64_t min,
					 struct mdp_service *svcs, size_t n)
{
	memset(&e->p, 0, sizeof(e->p));
	e->p.name = (char *)name;
	e->p.path = "test.yaml";
	e->p.global[MDP_T_SPEED_LIMIT_MIN] = (struct mdp_setting){.kind = MDP_S_NUM, .num = min};
	e->p.services = svcs;
	e->p.n_services = n;
	return &e->p;
}

/* Apply p on e (a fresh transaction, the backend svc or none): the result. */
static enum mdp_txn_result apply(struct env *e, const struct mdp_profile *p,
				 const struct mdp_svc_backend *svc, const struct mdp_apply_opts *o,
				 int (*stop)(void))
{
	struct mdp_applied a;

	mdp_txn_report_free(&e->tx.rep);
	mdp_diags_free(&e->d);
	mdp_diags_init(&e->d);
	mdp_txn_init(&e->tx, &e->r, &e->d, svc, stop);
	mdp_apply(&e->tx, p, o, &a);
	assert_int_equal(a.step, MDP_APPLY_TXN);
	mdp_applied_free(&a);
	return a.rc.res;
}

static enum mdp_txn_result revert(struct env *e)
{
	mdp_txn_report_free(&e->tx.rep);
	mdp_diags_free(&e->d);
	mdp_diags_init(&e->d);
	mdp_txn_init(&e->tx, &e->r, &e->d, &e->b, NULL);
	return mdp_txn_revert(&e->tx, false).res;
}

/* The report's services, "name action result" a line. */
static void expect_services(const struct env *e, const char *want)
{
	char got[1024] = "";
	size_t n = 0;

	for (size_t i = 0; i < e->tx.rep.n_services; i++) {
		const struct mdp_txn_service *s = &e->tx.rep.services[i];
		n += (size_t)snprintf(got + n, sizeof(got) - n, "%s %s %d\n", s->name,
				      s->action == MDP_TXN_PAUSE ? "pause" : "resume", s->result);
	}
	assert_string_equal(got, want);
}

static void clear_log(void)
{
	fk.log[0] = '\0';
	fk.n = 0;
}

/* ---- the preview --------------------------------------------------------------------- */

static void test_preview(void **state)
{
	struct env *e = *state;
	const struct mdp_apply_opts dry = {.dry_run = true};
	struct mdp_service svcs[] = {
	    {.name = "a"},
	    {.name = "b"},
	    {.name = "c", .optional = true},
	    {.name = "x", .only_on = 1u << MDP_PLATFORM_SYSTEMD},
	};
	char want[512];

	fk.st[1] = MDP_SVC_STOPPED;
	fk.st[2] = MDP_SVC_MISSING;
	assert_int_equal(apply(e, profile(e, "p", 20000, svcs, 4), &e->b, &dry, NULL), MDP_TXN_OK);
	snprintf(want, sizeof(want), "a pause %d\nb pause %d\nc pause %d\nx pause %d\n",
		 MDP_TXN_SVC_WOULD_PAUSE, MDP_TXN_SVC_NOT_RUNNING, MDP_TXN_SVC_NOT_FOUND,
		 MDP_TXN_SVC_OTHER_PLATFORM);
	expect_services(e, want);
	/* only asked, nothing paused, nothing journaled */
	assert_string_equal(fk.log, "status a\nstatus b\nstatus c\n");
	assert_false(mdp_root_exists(&e->r, "/run/mdprofile/journal"));

	/* required and missing: apply would refuse it */
	fk.st[2] = MDP_SVC_MISSING;
	svcs[2].optional = false;
	assert_int_equal(apply(e, profile(e, "p", 20000, svcs + 2, 1), &e->b, &dry, NULL),
			 MDP_TXN_OK);
	snprintf(want, sizeof(want), "c pause %d\n", MDP_TXN_SVC_MISSING);
	expect_services(e, want);

	/* the tool itself missing: said once, the services after it not asked */
	struct mdp_service tool[] = {{.name = "gone"}, {.name = "a"}};
	clear_log();
	assert_int_equal(apply(e, profile(e, "p", 20000, tool, 2), &e->b, &dry, NULL), MDP_TXN_OK);
	snprintf(want, sizeof(want), "gone pause %d\na pause %d\n", MDP_TXN_SVC_UNKNOWN,
		 MDP_TXN_SVC_UNKNOWN);
	expect_services(e, want);
	assert_string_equal(fk.log, "status gone\n");
	assert_int_equal(e->d.n, 1);
	assert_string_equal(e->d.v[0].msg, "synoservice: not found");

	/* no service manager: a required service is missing (said), an optional one not found */
	svcs[2].optional = true;
	assert_int_equal(apply(e, profile(e, "p", 20000, svcs, 3), NULL, &dry, NULL), MDP_TXN_OK);
	snprintf(want, sizeof(want), "a pause %d\nb pause %d\nc pause %d\n", MDP_TXN_SVC_MISSING,
		 MDP_TXN_SVC_MISSING, MDP_TXN_SVC_NOT_FOUND);
	expect_services(e, want);
	assert_int_equal(e->d.n, 2);
	assert_string_equal(e->d.v[0].msg,
			    "cannot pause service 'a': no service manager found (DSM 6, DSM 7 or "
			    "systemd); mark it optional or remove it");
}

/* Over an active profile that paused a: the preview says it stays paused, not asked. */
static void test_preview_paused(void **state)
{
	struct env *e = *state;
	const struct mdp_apply_opts dry = {.dry_run = true}, real = {0};
	struct mdp_service svcs[] = {{.name = "a"}, {.name = "b"}};
	char want[128];

	assert_int_equal(apply(e, profile(e, "p", 20000, svcs, 1), &e->b, &real, NULL), MDP_TXN_OK);
	assert_int_equal(fk.st[0], MDP_SVC_STOPPED);
	clear_log();
	assert_int_equal(apply(e, profile(e, "q", 30000, svcs, 2), &e->b, &dry, NULL), MDP_TXN_OK);
	snprintf(want, sizeof(want), "a pause %d\nb pause %d\n", MDP_TXN_SVC_PAUSED,
		 MDP_TXN_SVC_WOULD_PAUSE);
	expect_services(e, want);
	assert_string_equal(fk.log, "status b\n");
}

/* ---- the pausing tool's group ------------------------------------------------------ */

/* A stand-in for a pause's tool still running: its own group, pid *p, stdin *in. */
static pid_t stand_in(int *in)
{
	char *const argv[] = {"/bin/sh", "-c", "echo; read x", NULL};

	return test_spawn(argv, true, -1, in);
}

/* The tool's group is journaled with who leads it as the tool starts, then settled. */
static void test_pause_journaled(void **state)
{
	struct env *e = *state;
	const struct mdp_apply_opts o = {0};
	struct mdp_service svcs[] = {{.name = "a"}};
	struct mdp_exec_ident id;
	char want[256], line[256];
	int in;
	pid_t p = stand_in(&in);

	fk.pgid = p;
	assert_int_equal(mdp_exec_group_ident(p, &id), 0);
	assert_int_equal(apply(e, profile(e, "p", 20000, svcs, 1), &e->b, &o, NULL), MDP_TXN_OK);
	snprintf(want, sizeof(want), "svc a pausing %ld start %llu boot %s", (long)p,
		 (unsigned long long)id.start, id.boot);
	assert_string_equal(fk.pausing, want);
	journal_line(&e->r, "a", line, sizeof(line));
	assert_string_equal(line, "svc a paused");
	test_reap(p, in, true);

	/* a group /proc cannot tell of (gone already): journaled without its leader */
	struct mdp_service b[] = {{.name = "b"}};
	fk.pgid = p;
	assert_int_equal(apply(e, profile(e, "q", 30000, b, 1), &e->b, &o, NULL), MDP_TXN_OK);
	snprintf(want, sizeof(want), "svc b pausing %ld", (long)p);
	assert_string_equal(fk.pausing, want);
}

/* The journal after a crash mid-pause: a's tool journaled as group pgid led by start (0:
 * the journal does not say) in boot. */
static void crash_mid_pause(struct env *e, long pgid, unsigned long long start, const char *boot)
{
	const struct mdp_apply_opts o = {0};
	struct mdp_service svcs[] = {{.name = "a"}};

	char who[128] = "";

	if (start)
		snprintf(who, sizeof(who), " start %llu boot %s", start, boot);
	assert_int_equal(apply(e, profile(e, "p", 20000, svcs, 1), &e->b, &o, NULL), MDP_TXN_OK);
	test_sh("sed -i 's/^svc a paused$/svc a pausing %ld%s/' '%s/run/mdprofile/journal'", pgid,
		who, e->root);
	clear_log();
}

/* p ended by sig (SIGTERM'd now in case it still runs: the test never hangs on it). */
static void expect_killed(pid_t p, int in, int sig)
{
	int status;

	kill(p, SIGTERM);
	assert_int_equal(waitpid(p, &status, 0), p);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), sig);
	close(in);
}

/* Still the tool journaled: killed at its timeout (the backend's: 0 here, no wait). */
static void test_settle_ours(void **state)
{
	struct env *e = *state;
	struct mdp_exec_ident id;
	int in;
	pid_t p = stand_in(&in);

	assert_int_equal(mdp_exec_group_ident(p, &id), 0);
	crash_mid_pause(e, p, (unsigned long long)id.start, id.boot);
	e->b.timeout_ms = 0;
	assert_int_equal(revert(e), MDP_TXN_OK);
	expect_killed(p, in, SIGKILL);
	assert_string_equal(fk.log, "status a\nresume a\n");
	assert_int_equal(e->d.n, 0);
}

/* Another's group under the number, or a journal that does not say whose: left alone, said. */
static void test_settle_other(void **state)
{
	struct env *e = *state;
	struct mdp_exec_ident id;
	char want[256];
	int in;
	pid_t p = stand_in(&in);

	assert_int_equal(mdp_exec_group_ident(p, &id), 0);
	crash_mid_pause(e, p, (unsigned long long)id.start + 1, id.boot);
	assert_int_equal(revert(e), MDP_TXN_OK);
	assert_int_equal(e->d.n, 1);
	snprintf(want, sizeof(want),
		 "warning: service 'a': process group %ld is not the tool that was pausing it "
		 "(another process has its number): not waited for, not killed",
		 (long)p);
	assert_string_equal(e->d.v[0].msg, want);
	assert_string_equal(fk.log, "status a\nresume a\n");

	crash_mid_pause(e, p, (unsigned long long)id.start, "0e2d7a31-9b1c-4f5e-8a6d-3c2b1a0f9e8d");
	assert_int_equal(revert(e), MDP_TXN_OK); /* its start, in another boot */
	assert_int_equal(e->d.n, 1);
	assert_string_equal(e->d.v[0].msg, want);

	crash_mid_pause(e, p, 0, "");
	assert_int_equal(revert(e), MDP_TXN_OK);
	assert_int_equal(e->d.n, 1);
	assert_non_null(strstr(e->d.v[0].msg, "(the journal does not say which process it was)"));
	test_reap(p, in, true); /* alive all along: SIGTERM ends it here */

	/* its group gone: nothing to wait for, nothing said */
	crash_mid_pause(e, p, (unsigned long long)id.start, id.boot);
	assert_int_equal(revert(e), MDP_TXN_OK);
	assert_int_equal(e->d.n, 0);
	assert_string_equal(fk.log, "status a\nresume a\n");
}

/* ---- a resume rolled back, the missing verbs noted -------------------------------- */

static int stop_after_resume(void)
{
	return fk.resumed ? SIGINT : 0;
}

/* A switch to a profile that pauses nothing resumes a; stopped after: a is paused again. */
static void test_resume_rolled_back(void **state)
{
	struct env *e = *state;
	const struct mdp_apply_opts o = {0}, base = {.as_base = true};
	struct mdp_service svcs[] = {{.name = "a"}};
	char line[256];

	assert_int_equal(apply(e, profile(e, "p", 20000, svcs, 1), &e->b, &o, NULL), MDP_TXN_OK);
	clear_log();
	assert_int_equal(apply(e, profile(e, "q", 30000, NULL, 0), &e->b, &base, stop_after_resume),
			 MDP_TXN_FAILED);
	assert_string_equal(fk.log, "resume a\npause a\n");
	assert_int_equal(fk.st[0], MDP_SVC_STOPPED);
	journal_line(&e->r, "a", line, sizeof(line));
	assert_string_equal(line, "svc a paused");
	assert_string_equal(e->d.v[e->d.n - 1].msg, "interrupted by SIGINT: rolling back");
}

static size_t plain_notes(const struct env *e)
{
	size_t n = 0;

	for (size_t i = 0; i < e->tx.rep.n_notes; i++)
		n += e->tx.rep.notes[i].kind == MDP_TXN_NOTE_PLAIN_VERBS;
	return n;
}

/* The tool lacked the by-reason verbs: noted once per apply and per revert, else never. */
static void test_plain_verbs(void **state)
{
	struct env *e = *state;
	const struct mdp_apply_opts o = {0};
	struct mdp_service svcs[] = {{.name = "a"}, {.name = "b"}};
	struct mdp_svc_memo memo = {0};

	e->b.memo = &memo;
	assert_int_equal(apply(e, profile(e, "p", 20000, svcs, 1), &e->b, &o, NULL), MDP_TXN_OK);
	assert_int_equal(plain_notes(e), 0);
	memo.plain_verbs = true;
	assert_int_equal(apply(e, profile(e, "q", 30000, svcs, 2), &e->b, &o, NULL), MDP_TXN_OK);
	assert_int_equal(plain_notes(e), 1);
	assert_int_equal(revert(e), MDP_TXN_OK);
	assert_int_equal(plain_notes(e), 1);
}

MDP_TEST_MAIN_FX(NULL, env_setup, env_teardown, test_preview, test_preview_paused,
		 test_pause_journaled, test_settle_ours, test_settle_other, test_resume_rolled_back,
		 test_plain_verbs)
