/*
 * test_capture_exec: a capture is data. Replaying one (explain, status, diff under --root)
 * runs no program it carries, whatever else it holds, however it is owned, and even when
 * the caller named the tree for its programs (MDPROFILE_ROOT_EXEC): exec's gate
 * (mdp_root_exec_trusted) refuses every tree with the capture's mark.
 *
 * The trees are generated from a real capture (explain's own tar of tests/fixtures/explain/
 * member, extracted as root, so every file passes the ownership rule): each round drops a
 * random part of its files, gives the mark one of the shapes it can have (the directory as
 * extracted, an empty one, a file, a dangling link), and plants the tools mdprofile ever
 * runs (mdadm, smartctl, the service managers, DSM's scheduler), root's and 0755, in a
 * random one of exec's directories. Each tool, run, appends its name to a file outside the
 * tree; after discovery (status, diff), explain's samples (with SMART) and a direct run of
 * each tool through exec, that file must not exist. The same tree without its mark and not
 * named runs nothing either; named, its tools run (the control: the file would show it).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "discover.h"
#include "exec.h"
#include "explain_run.h"
#include "explain_sample.h"
#include "support.h"
#include "discover_int.h"
#include "explain_int.h"

#define ROUNDS 16

static const char *const tools[] = {"mdadm",   "smartctl",  "synoservice",   "synosystemctl",
				    "synopkg", "systemctl", "esynoscheduler"};
static const char *const dirs[] = {"usr/syno/sbin", "usr/syno/bin", "usr/sbin",
				   "usr/bin",       "sbin",         "bin"};
static const char *const marks[] = {
    ":",                                              /* the capture's own .explain */
    "rm -rf .explain && mkdir .explain",              /* an empty one */
    "rm -rf .explain && : >.explain",                 /* a file */
    "rm -rf .explain && ln -s /nonexistent .explain", /* a dangling link */
};

struct gen {
	char dir[64], tar[128], tree[128], ran[128];
};

/* explain's capture of the fixture, as `explain --capture` writes it. */
static void make_capture(struct gen *g)
{
	const char *src = getenv("MDP_SRCDIR");
	char fx[PATH_MAX];
	struct mdp_root r;
	struct mdp_xcap cap = {0};
	struct mdp_xsample s[2];
	struct mdp_xfail fail;
	struct mdp_diags unread;
	uint64_t ms;
	char *tar;
	size_t len;
	FILE *f;

	snprintf(fx, sizeof(fx), "%s/tests/fixtures/explain/member", src ? src : ".");
	assert_int_equal(mdp_root_init(&r, fx), 0);
	mdp_diags_init(&unread);
	const struct mdp_xrun x = {.root = &r, .interval_ms = 1, .unreadable = &unread};
	assert_int_equal(mdp_xrun_samples(&x, &cap, s, &ms, &fail), 0);
	assert_int_equal(mdp_xcap_tar(&cap, ms, &tar, &len), 0);
	assert_non_null(f = fopen(g->tar, "w"));
	assert_int_equal(fwrite(tar, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(tar);
	mdp_explain_sample_free(&s[0]);
	mdp_explain_sample_free(&s[1]);
	mdp_xcap_free(&cap);
	mdp_diags_free(&unread);
	mdp_root_fini(&r);
}

/* Round k's tree: the capture extracted, part of it dropped, the mark as shape, tools. */
static void make_tree(const struct gen *g, unsigned k, const char *mark)
{
	char plant[2048];
	size_t n = 0;

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		const char *d = dirs[(k + i * 5) % (sizeof(dirs) / sizeof(dirs[0]))];
		n += (size_t)snprintf(
		    plant + n, sizeof(plant) - n,
		    " && mkdir -p %s && printf '#!/bin/sh\\necho %s >>%s\\n' >%s/%s", d, tools[i],
		    g->ran, d, tools[i]);
		assert_true(n < sizeof(plant));
	}
	test_sh("rm -rf '%s' && mkdir '%s' && tar xf '%s' -C '%s' && cd '%s' && "
		"find . -mindepth 1 ! -type d | LC_ALL=C sort | "
		"awk -v s=%u 'BEGIN { srand(s) } rand() < 0.3' | xargs -r rm -f && %s%s && "
		"chown -R 0:0 . && find . -type d -exec chmod 0755 {} + && "
		"find usr sbin bin -type f -exec chmod 0755 {} +",
		g->tree, g->tree, g->tar, g->tree, g->tree, k + 1, mark, plant);
}

/* Everything a replay does, then every tool through exec: how many ran (-EPERM each). */
static void replay(const struct gen *g, bool named, int want)
{
	struct mdp_root r;
	struct mdp_system s = {0};
	struct mdp_diags d;
	struct mdp_xsample xs[2];
	struct mdp_xfail fail;
	struct mdp_exec_result res;
	uint64_t ms;

	assert_int_equal(mdp_root_init(&r, g->tree), 0);
	mdp_root_allow_exec(&r, named ? g->tree : NULL);
	assert_int_equal(r.exec_named, named);
	mdp_diags_init(&d);
	(void)mdp_discover(&r, &s, &d); /* status and diff: UUIDs, no mdadm */
	mdp_system_free(&s);
	const struct mdp_xrun x = {.root = &r, .interval_ms = 1, .unreadable = &d};
	if (!mdp_xrun_samples(&x, NULL, xs, &ms, &fail)) { /* explain, SMART included */
		mdp_explain_sample_free(&xs[0]);
		mdp_explain_sample_free(&xs[1]);
	}
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		const char *argv[] = {tools[i], NULL};
		assert_int_equal(mdp_exec_run(&r, argv, 5000, &res, &d), want);
	}
	mdp_diags_free(&d);
	mdp_root_fini(&r);
}

static void test_no_capture_runs_anything(void **state)
{
	struct gen g;

	(void)state;
	if (geteuid() != 0)
		skip(); /* chown 0: the tests run as root, as a replaying root would */
	snprintf(g.dir, sizeof(g.dir), "/tmp/mdp-capexec-XXXXXX");
	assert_non_null(mkdtemp(g.dir));
	snprintf(g.tar, sizeof(g.tar), "%s/c.tar", g.dir);
	snprintf(g.tree, sizeof(g.tree), "%s/t", g.dir);
	snprintf(g.ran, sizeof(g.ran), "%s/ran", g.dir);
	make_capture(&g);
	for (unsigned k = 0; k < ROUNDS; k++) {
		make_tree(&g, k, marks[k % (sizeof(marks) / sizeof(marks[0]))]);
		replay(&g, k % 2, -EPERM);
		if (!access(g.ran, F_OK))
			fail_msg("round %u: a capture ran a program it carries", k);
	}
	/* without the mark: not named, nothing runs; named, the tools run (the control) */
	make_tree(&g, 0, "rm -rf .explain");
	replay(&g, false, -EPERM);
	assert_int_equal(access(g.ran, F_OK), -1);
	replay(&g, true, 0);
	assert_int_equal(access(g.ran, F_OK), 0);
	test_sh("rm -rf '%s'", g.dir);
}

MDP_TEST_MAIN(test_no_capture_runs_anything)
