/*
 * test_diag: what a repeated step said last (mdp_diags_said), and a day of
 * auto --textfile's minutes in fast time: the same discovery of a system
 * with a standing problem, said once, the heap the same after every minute.
 */
#include <limits.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diag.h"
#include "discover.h"
#include "root.h"
#include "support.h"

#if defined(__SANITIZE_ADDRESS__)
/* libasan's (sanitizer/allocator_interface.h, not installed with GCC's runtime here) */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

/* Bytes the process holds on the heap (ASan keeps its own count; glibc's mallinfo2 is 0 there). */
static size_t heap_in_use(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return __sanitizer_get_current_allocated_bytes();
#else
	return mallinfo2().uordblks;
#endif
}

static void add(struct mdp_diags *d, const char *file, unsigned line, const char *msg)
{
	assert_int_equal(mdp_diags_add(d, file, line, 0, "%s", msg), 0);
}

/* One step's diagnostics against what was said last. */
static enum mdp_said step(struct mdp_diags_said *s, const char *a, const char *b)
{
	struct mdp_diags d;
	enum mdp_said r;

	mdp_diags_init(&d);
	if (a)
		add(&d, "/proc/mdstat", 16, a);
	if (b)
		add(&d, NULL, 0, b);
	r = mdp_diags_said(s, &d);
	mdp_diags_free(&d);
	return r;
}

static void test_said(void **state)
{
	struct mdp_diags_said s = {0};

	(void)state;
	/* Nothing to say, nothing said. */
	assert_int_equal(step(&s, NULL, NULL), MDP_SAID_SAME);
	/* A problem: said once while it stands. */
	assert_int_equal(step(&s, "junk", NULL), MDP_SAID_NEW);
	assert_int_equal(step(&s, "junk", NULL), MDP_SAID_SAME);
	/* Another with it, another instead, the same words apart differently: each new. */
	assert_int_equal(step(&s, "junk", "cannot write"), MDP_SAID_NEW);
	assert_int_equal(step(&s, "junk", "cannot write"), MDP_SAID_SAME);
	assert_int_equal(step(&s, "jun", "kcannot write"), MDP_SAID_NEW);
	assert_int_equal(step(&s, "other", NULL), MDP_SAID_NEW);
	/* Cleared: said once; then nothing again. */
	assert_int_equal(step(&s, NULL, NULL), MDP_SAID_CLEARED);
	assert_int_equal(step(&s, NULL, NULL), MDP_SAID_SAME);
	/* It comes back: said again. */
	assert_int_equal(step(&s, "other", NULL), MDP_SAID_NEW);
}

/* Where the same message stands (file, line) is part of it. */
static void test_said_position(void **state)
{
	struct mdp_diags_said s = {0};
	struct mdp_diags d;

	(void)state;
	mdp_diags_init(&d);
	add(&d, "/proc/mdstat", 16, "junk");
	assert_int_equal(mdp_diags_said(&s, &d), MDP_SAID_NEW);
	d.v[0].line = 17;
	assert_int_equal(mdp_diags_said(&s, &d), MDP_SAID_NEW);
	assert_int_equal(mdp_diags_said(&s, &d), MDP_SAID_SAME);
	mdp_diags_free(&d);
}

/* One of auto --textfile's minutes: status's discovery of root, its problems through s. */
static enum mdp_said minute(const struct mdp_root *r, struct mdp_diags_said *s, size_t *lines)
{
	struct mdp_system sys = {0};
	struct mdp_diags d;
	enum mdp_said said;

	mdp_diags_init(&d);
	assert_int_equal(mdp_discover_some(r, MDP_SKIP_ABSENT_SYSFS, &sys, &d), 0);
	said = mdp_diags_said(s, &d);
	if (said == MDP_SAID_NEW)
		*lines += d.n;
	mdp_diags_free(&d);
	mdp_system_free(&sys);
	return said;
}

#define DAY_MINUTES (24 * 60)

/*
 * A day of minutes with a line of /proc/mdstat discovery cannot read: one
 * line said in all, and the heap after the last minute is what it was after
 * the first (nothing kept per minute).
 */
static void test_soak_day(void **state)
{
	const char *src = getenv("MDP_SRCDIR");
	char dir[] = "/tmp/mdp-diag-XXXXXX", root[PATH_MAX];
	struct mdp_diags_said s = {0};
	struct mdp_root r;
	size_t lines = 0, heap, said = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(root, sizeof(root), "%s/root", dir);
	test_sh("cp -a '%s/tests/fixtures/ds-dsm6-reshape' '%s' && echo '      junk' "
		">>'%s/proc/mdstat'",
		src ? src : ".", root, root);
	assert_int_equal(mdp_root_init(&r, root), 0);
	assert_int_equal(minute(&r, &s, &lines), MDP_SAID_NEW);
	heap = heap_in_use();
	for (unsigned m = 1; m < DAY_MINUTES; m++)
		said += minute(&r, &s, &lines) != MDP_SAID_SAME;
	assert_int_equal(said, 0);
	assert_int_equal(lines, 1);
	assert_int_equal(heap_in_use(), heap);
	/* Cleared: said once, then nothing. */
	test_sh("sed -i '/junk/d' '%s/proc/mdstat'", root);
	assert_int_equal(minute(&r, &s, &lines), MDP_SAID_CLEARED);
	assert_int_equal(minute(&r, &s, &lines), MDP_SAID_SAME);
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", dir);
}

MDP_TEST_MAIN(test_said, test_said_position, test_soak_day)
