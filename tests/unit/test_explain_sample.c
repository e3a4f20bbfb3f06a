/*
 * test_explain_sample: explain's sample over a fixture pair (tests/fixtures/explain/floor):
 * md's model from discover, the replay's second sample over the first, and a capture that
 * holds what was read and, of /proc's processes, only md's threads.
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

#include <cmocka.h>

#include "explain_sample.h"
#include "support.h"
#include "explain_int.h"

struct pair {
	char dir[64], root_dir[128];
	struct mdp_root root, second;
};

static void pair_init(struct pair *p)
{
	const char *src = getenv("MDP_SRCDIR");

	snprintf(p->dir, sizeof(p->dir), "/tmp/mdp-xsample-XXXXXX");
	assert_non_null(mkdtemp(p->dir));
	snprintf(p->root_dir, sizeof(p->root_dir), "%s/root", p->dir);
	test_sh("cp -a '%s/tests/fixtures/explain/floor' %s", src ? src : ".", p->root_dir);
	/* a user's process beside md's thread: never in a capture */
	test_sh("mkdir -p %s/proc/4242 && echo secret-editor >%s/proc/4242/comm && "
		"echo '4242 (secret-editor) S 1 1 1 0 -1 0 0 0 0 0 7 8 0 0' >%s/proc/4242/stat",
		p->root_dir, p->root_dir, p->root_dir);
	assert_int_equal(mdp_root_init(&p->root, p->root_dir), 0);
}

static void pair_fini(struct pair *p)
{
	mdp_root_fini(&p->root);
	test_sh("rm -rf %s", p->dir);
}

static const struct mdp_xcap_file *captured(const struct mdp_xcap *c, int sample, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].sample == sample && !strcmp(c->v[i].path, path))
			return &c->v[i];
	return NULL;
}

static void test_model_and_capture(void **state)
{
	struct pair p;
	struct mdp_xcap cap = {0};
	struct mdp_diags unread;
	struct mdp_xsrc src;
	struct mdp_xsample s[2];
	const struct mdp_xarray *a;
	const struct mdp_xcap_file *f;
	uint64_t ms;

	(void)state;
	pair_init(&p);
	mdp_diags_init(&unread);
	src = (struct mdp_xsrc){.root = &p.root, .cap = &cap, .unreadable = &unread};
	assert_int_equal(mdp_explain_sample(&src, &s[0]), 0);
	assert_int_equal(mdp_explain_replay_open(&p.root, &p.second, &ms), 0);
	src.sample = 1;
	src.overlay = &p.second;
	assert_int_equal(mdp_explain_sample(&src, &s[1]), 0);
	assert_int_equal(unread.n, 0);

	/* md's model: discover's reading of md2 (mdstat's md0/md1 have no sysfs here) */
	assert_int_equal(s[0].n_arrays, 3);
	a = &s[0].arrays[0];
	assert_string_equal(a->name, "md2");
	assert_string_equal(a->level, "raid5");
	assert_string_equal(a->action, "recover");
	assert_true(a->min.read);
	assert_false(a->min.local);
	assert_int_equal(a->min.kib, 10000);
	assert_int_equal(a->sync_speed, 10100);
	assert_int_equal(a->stripe_size, 1024);
	assert_int_equal(a->stripe_active, 500);
	assert_int_equal(a->chunk_kib, 64);
	assert_string_equal(a->bitmap, "none");
	assert_string_equal(a->sync_max, "max");
	assert_int_equal(a->n_members, 4);
	assert_string_equal(a->members[0].state, "in_sync");
	assert_int_equal(a->n_threads, 1);
	assert_true(s[0].sys_min.read);
	/* the second sample: /.explain/1's files over the first's */
	assert_int_equal(s[1].arrays[0].stripe_active, 600);
	assert_int_equal(s[1].arrays[0].min.kib, 10000);

	/* the capture: what was read in each sample, the md thread, not the user's process */
	assert_non_null(f = captured(&cap, 0, "/sys/block/md2/md/sync_speed_min"));
	assert_string_equal(f->data, "10000 (system)\n");
	assert_non_null(f = captured(&cap, 1, "/sys/block/md2/md/stripe_cache_active"));
	assert_string_equal(f->data, "600\n");
	assert_non_null(captured(&cap, 0, "/proc/2345/comm"));
	assert_non_null(captured(&cap, 1, "/proc/2345/stat"));
	assert_null(captured(&cap, 0, "/proc/4242/comm"));
	assert_null(captured(&cap, 0, "/proc/4242/stat"));
	assert_null(captured(&cap, 1, "/proc/4242/comm"));
	for (size_t i = 0; i < cap.n; i++)
		assert_null(strstr(cap.v[i].path, "4242"));

	mdp_explain_sample_free(&s[0]);
	mdp_explain_sample_free(&s[1]);
	mdp_root_fini(&p.second);
	mdp_xcap_free(&cap);
	mdp_diags_free(&unread);
	pair_fini(&p);
}

/* A file discover cannot read is named, once, and the sample goes on. */
static void test_unreadable(void **state)
{
	struct pair p;
	struct mdp_diags unread;
	struct mdp_xsrc src;
	struct mdp_xsample s;

	(void)state;
	pair_init(&p);
	test_sh("cd %s/sys/block/md2/md && rm sync_speed_min && mkdir sync_speed_min", p.root_dir);
	mdp_diags_init(&unread);
	src = (struct mdp_xsrc){.root = &p.root, .unreadable = &unread};
	assert_int_equal(mdp_explain_sample(&src, &s), 0);
	assert_false(s.arrays[0].min.read);
	assert_true(s.arrays[0].max.read);
	assert_int_equal(unread.n, 1);
	assert_string_equal(unread.v[0].file, "/sys/block/md2/md/sync_speed_min");
	mdp_explain_sample_free(&s);
	assert_int_equal(mdp_explain_sample(&src, &s), 0);
	assert_int_equal(unread.n, 1);
	mdp_explain_sample_free(&s);
	mdp_diags_free(&unread);
	pair_fini(&p);
}

MDP_TEST_MAIN(test_model_and_capture, test_unreadable)
