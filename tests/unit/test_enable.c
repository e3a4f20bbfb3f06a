/*
 * Unit tests of enable (the service-manager work of enable and disable,
 * and the model status shows), on a copy of a fixture root with the fake
 * esynoscheduler of tests/fakes, or none: every case asserts the lines the
 * report holds, in order, and whether a step is left to the owner.
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

#include "enable.h"
#include "support.h"
#include "task.h"

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
	assert_int_equal(st.keeper + st.watcher, 0);
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

MDP_TEST_MAIN(test_units_left_to_owner, test_dsm_task_round_trip, test_dsm_foreign_task,
	      test_dsm_without_scheduler)
