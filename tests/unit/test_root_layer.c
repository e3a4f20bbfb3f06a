/*
 * test_root_layer: the read-side layer of a root (root.h, mdp_root_layer):
 * a tree read over another (explain's replay reads /.explain/1 over the
 * first sample) and a tap that sees every read (explain --capture).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "root.h"
#include "support.h"
#include "root_int.h"

/* Two trees: base (the whole one) and top (what changed), both under one scratch dir. */
struct trees {
	char dir[64], base_dir[96], top_dir[96];
	struct mdp_root base, top;
};

static void put(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	test_sh("mkdir -p \"$(dirname '%s/%s')\"", dir, rel);
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

static void trees_init(struct trees *t)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/mdp-layer-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->base_dir, sizeof(t->base_dir), "%s/base", t->dir);
	snprintf(t->top_dir, sizeof(t->top_dir), "%s/top", t->dir);
	put(t->base_dir, "proc/mdstat", "base mdstat\n");
	put(t->base_dir, "sys/block/md2/md/level", "raid5\n");
	put(t->base_dir, "sys/block/md2/md/sync_speed", "100\n");
	put(t->base_dir, "sys/block/md2/md/dev-sda5/state", "in_sync\n");
	put(t->base_dir, "proc/7/comm", "md2_raid5\n");
	put(t->base_dir, "only/base", "b\n");
	put(t->top_dir, "sys/block/md2/md/sync_speed", "200\n");
	put(t->top_dir, "sys/block/md2/md/dev-sdb5/state", "spare\n");
	put(t->top_dir, "proc/9/comm", "md2_resync\n");
	/* a file in top where base has a directory: its paths below are base's */
	put(t->top_dir, "sys/class", "not a directory\n");
	test_sh(
	    "mkdir -p %s/sys/class/block && ln -s ../../devices/pci0/sda %s/sys/class/block/sda",
	    t->base_dir, t->base_dir);
	assert_int_equal(mdp_root_init(&t->base, t->base_dir), 0);
	assert_int_equal(mdp_root_init(&t->top, t->top_dir), 0);
}

static void trees_fini(struct trees *t)
{
	mdp_root_fini(&t->top);
	mdp_root_fini(&t->base);
	test_sh("rm -rf %s", t->dir);
}

static void test_fallback_reads(void **state)
{
	struct trees t;
	struct mdp_root r;
	char buf[64], *all;
	size_t len;

	(void)state;
	trees_init(&t);
	mdp_root_layer(&r, &t.top, &t.base, NULL);
	/* top's own file wins; a file only base has is base's */
	assert_int_equal(mdp_root_read_value(&r, "/sys/block/md2/md/sync_speed", buf, sizeof(buf)),
			 3);
	assert_string_equal(buf, "200");
	assert_int_equal(mdp_root_read(&r, "/proc/mdstat", buf, sizeof(buf)), 12);
	assert_string_equal(buf, "base mdstat\n");
	assert_int_equal(mdp_root_read_all(&r, "/only/base", &all, &len), 0);
	assert_int_equal(len, 2);
	assert_string_equal(all, "b\n");
	free(all);
	/* missing in both: absent; ENOTDIR in top (a file on the way) falls back too */
	assert_int_equal(mdp_root_read(&r, "/no/such", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(mdp_root_read_all(&r, "/no/such", &all, &len), -ENOENT);
	assert_int_equal(mdp_root_readlink(&r, "/sys/class/block/sda", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "../../devices/pci0/sda");
	assert_true(mdp_root_exists(&r, "/only/base"));
	assert_true(mdp_root_exists(&r, "/proc/9/comm"));
	assert_false(mdp_root_exists(&r, "/no/such"));
	assert_true(mdp_root_is_dir(&r, "/sys/block/md2/md/dev-sda5"));
	assert_true(mdp_root_is_dir(&r, "/sys/class/block"));
	assert_false(mdp_root_is_dir(&r, "/only/base"));
	/* the plain roots are untouched by the layer */
	assert_int_equal(mdp_root_read(&t.top, "/proc/mdstat", buf, sizeof(buf)), -ENOENT);
	assert_false(mdp_root_exists(&t.base, "/proc/9/comm"));
	trees_fini(&t);
}

static void assert_list(const struct mdp_root *r, const char *dir, const char *want)
{
	char **v, got[256] = "";
	size_t n;

	assert_int_equal(mdp_root_list(r, dir, &v, &n), 0);
	for (size_t i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? " " : "", v[i]);
	mdp_root_free_list(v, n);
	assert_string_equal(got, want);
}

static void test_fallback_lists(void **state)
{
	struct trees t;
	struct mdp_root r;
	char **v;
	size_t n;

	(void)state;
	trees_init(&t);
	mdp_root_layer(&r, &t.top, &t.base, NULL);
	/* both trees have it: the union, sorted, each name once */
	assert_list(&r, "/proc", "7 9 mdstat");
	assert_list(&r, "/sys/block/md2/md", "dev-sda5 dev-sdb5 level sync_speed");
	/* only base has it; only top has it */
	assert_list(&r, "/only", "base");
	assert_list(&r, "/proc/9", "comm");
	assert_int_equal(mdp_root_list(&r, "/no/such", &v, &n), -ENOENT);
	/* without a fallback a layered root lists its own tree */
	mdp_root_layer(&r, &t.top, NULL, NULL);
	assert_list(&r, "/proc", "9");
	trees_fini(&t);
}

/* What the tap saw, in order. */
struct seen {
	struct mdp_root_tap tap; /* first */
	char log[1024];
	unsigned n;
};

static void saw(const struct mdp_root_tap *tap, const char *sys, const char *data, size_t len,
		bool link)
{
	struct seen *s = (struct seen *)tap;
	size_t at = strlen(s->log);

	snprintf(s->log + at, sizeof(s->log) - at, "%s%s=%.*s;", link ? "link " : "", sys, (int)len,
		 data);
	s->n++;
}

static void test_tap(void **state)
{
	struct seen s = {.tap = {saw}};
	struct trees t;
	struct mdp_root r, plain;
	char buf[64], *all, **v;
	size_t len, n;

	(void)state;
	trees_init(&t);
	mdp_root_layer(&r, &t.top, &t.base, &s.tap);
	/* each read once, whichever tree served it; read_value's as read, before stripping */
	assert_true(mdp_root_read_value(&r, "/sys/block/md2/md/sync_speed", buf, sizeof(buf)) > 0);
	assert_true(mdp_root_read(&r, "/proc/mdstat", buf, sizeof(buf)) > 0);
	assert_int_equal(mdp_root_read_all(&r, "/only/base", &all, &len), 0);
	free(all);
	assert_int_equal(mdp_root_readlink(&r, "/sys/class/block/sda", buf, sizeof(buf)), 0);
	assert_string_equal(s.log,
			    "/sys/block/md2/md/sync_speed=200\n;/proc/mdstat=base mdstat\n;"
			    "/only/base=b\n;link /sys/class/block/sda=../../devices/pci0/sda;");
	/* failures, listings and questions of existence are no reads */
	assert_int_equal(mdp_root_read(&r, "/no/such", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(mdp_root_readlink(&r, "/only/base", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(mdp_root_list(&r, "/proc", &v, &n), 0);
	mdp_root_free_list(v, n);
	assert_true(mdp_root_exists(&r, "/proc/mdstat"));
	assert_int_equal(s.n, 4);
	/* a root without the tap, over the same trees, reads unseen (explain's comm) */
	mdp_root_layer(&plain, &t.top, &t.base, NULL);
	assert_true(mdp_root_read_value(&plain, "/proc/7/comm", buf, sizeof(buf)) > 0);
	assert_int_equal(s.n, 4);
	/* a tap alone, no fallback: the capture of a live sample */
	s.log[0] = '\0';
	mdp_root_layer(&r, &t.base, NULL, &s.tap);
	assert_true(mdp_root_read_value(&r, "/sys/block/md2/md/sync_speed", buf, sizeof(buf)) > 0);
	assert_string_equal(s.log, "/sys/block/md2/md/sync_speed=100\n;");
	trees_fini(&t);
}

MDP_TEST_MAIN(test_fallback_reads, test_fallback_lists, test_tap)
