/*
 * Unit tests of explain's rule table (mdp_xrules[], explain_int.h) as a table: every rule
 * named once and in a family, the phases in the driver's order, and every ordering
 * constraint a row states (after, and the kinds its unless and beside read) kept by the
 * order of the rows, so that moving a row above what it reads fails here. And the table
 * follows docs/explain.md's list of the checks. What the rules find is test_explain.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "explain_int.h"
#include "support.h"

/* The row named name (len bytes of it), or -1. */
static long row_of(const char *name, size_t len)
{
	for (size_t i = 0; i < mdp_xrules_n; i++)
		if (strlen(mdp_xrules[i].name) == len && !strncmp(mdp_xrules[i].name, name, len))
			return (long)i;
	return -1;
}

static void test_rules_named_once(void **state)
{
	(void)state;
	assert_true(mdp_xrules_n > 0);
	for (size_t i = 0; i < mdp_xrules_n; i++) {
		const struct mdp_xrule *x = &mdp_xrules[i];
		assert_non_null(x->name);
		assert_non_null(x->check);
		/* a word: after lists rules by name, space-separated */
		assert_true(x->name[0] && !strchr(x->name, ' '));
		for (size_t j = i + 1; j < mdp_xrules_n; j++)
			if (!strcmp(x->name, mdp_xrules[j].name))
				fail_msg("rule %s named twice (rows %zu and %zu)", x->name, i, j);
	}
}

static void test_every_family(void **state)
{
	unsigned seen = 0;

	(void)state;
	for (size_t i = 0; i < mdp_xrules_n; i++) {
		assert_true((unsigned)mdp_xrules[i].family < MDP_XF_COUNT);
		seen |= 1u << mdp_xrules[i].family;
	}
	assert_int_equal(seen, (1u << MDP_XF_COUNT) - 1);
}

/* The driver's phases follow each other; each row's fields mean something in its phase. */
static void test_phases(void **state)
{
	bool stop = false;

	(void)state;
	for (size_t i = 0; i < mdp_xrules_n; i++) {
		const struct mdp_xrule *x = &mdp_xrules[i];
		if (i && x->phase < mdp_xrules[i - 1].phase)
			fail_msg("%s (phase %d) after %s (phase %d)", x->name, x->phase,
				 mdp_xrules[i - 1].name, mdp_xrules[i - 1].phase);
		/* only a speed rule runs beside a stop; a withdrawal adds no finding */
		if (x->beside && x->phase != MDP_XP_SPEED)
			fail_msg("%s: beside in phase %d", x->name, x->phase);
		if (x->phase == MDP_XP_WITHDRAW && x->makes)
			fail_msg("%s: a withdrawal makes findings", x->name);
		if (x->phase != MDP_XP_WITHDRAW && !x->makes)
			fail_msg("%s: makes no kind of finding", x->name);
		stop |= x->phase == MDP_XP_STOP;
	}
	assert_true(stop);
}

/* Every rule a row names in after is a row above it, and it says why. */
static void test_after_holds(void **state)
{
	(void)state;
	for (size_t i = 0; i < mdp_xrules_n; i++) {
		const struct mdp_xrule *x = &mdp_xrules[i];
		const char *p = x->after ? x->after : "";

		if ((x->after || x->unless || x->beside) && !(x->why && x->why[0]))
			fail_msg("%s: an ordering constraint without its why", x->name);
		while (*p) {
			size_t l = strcspn(p, " ");
			long j = row_of(p, l);
			if (j < 0)
				fail_msg("%s: after names '%.*s', no rule", x->name, (int)l, p);
			if ((size_t)j >= i)
				fail_msg("%s must come after %s: %s", x->name, mdp_xrules[j].name,
					 x->why);
			p += l + (p[l] == ' ');
		}
	}
}

/* A row that reads kinds (unless, beside) comes after every row that makes them. */
static void test_kinds_made_before(void **state)
{
	(void)state;
	for (size_t i = 0; i < mdp_xrules_n; i++) {
		const struct mdp_xrule *x = &mdp_xrules[i];
		unsigned reads = x->unless | x->beside;

		for (size_t j = i + 1; reads && j < mdp_xrules_n; j++)
			if (mdp_xrules[j].makes & reads)
				fail_msg("%s reads kinds %s makes, below it: %s", x->name,
					 mdp_xrules[j].name, x->why);
	}
}

/* The constraints the rules' texts rely on, named in the table (so none is dropped). */
static void test_documented_constraints(void **state)
{
	static const char *const pairs[][2] = {
	    {"moving", "waiting"},
	    {"moving", "stuck"},
	    {"waiting", "stuck"},
	    {"stuck", "member"},
	    {"member", "controller"},
	    {"controller", "disks-at-limit"},
	    {"floor", "competing-io"},
	    {"disks-at-limit", "no-cause"},
	    {"withdraw-for-scrub", "withdraw-for-member"},
	    {"withdraw-for-member", "withdraw-for-rebuild-target"},
	    {"withdraw-for-rebuild-target", "withdraw-for-finishing"},
	};

	(void)state;
	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		long a = row_of(pairs[k][0], strlen(pairs[k][0]));
		long b = row_of(pairs[k][1], strlen(pairs[k][1]));
		assert_true(a >= 0 && b >= 0);
		if (a >= b)
			fail_msg("%s must come before %s", pairs[k][0], pairs[k][1]);
	}
}

/* docs/explain.md's "Order of the checks" names the rules in the table's order. */
static void test_docs_order(void **state)
{
	const char *src = getenv("MDP_SRCDIR");
	char path[4096], line[1024];
	long last = -1;
	size_t named = 0;
	bool in = false;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/docs/explain.md", src ? src : ".");
	assert_non_null(f = fopen(path, "r"));
	while (fgets(line, sizeof(line), f)) {
		char *b, *e;
		long j;

		if (!strncmp(line, "## ", 3))
			in = !strncmp(line, "## Order of the checks", 22);
		if (!in || !(b = strstr(line, ". `")) ||
		    strspn(line, " 0123456789") != (size_t)(b - line))
			continue;
		b += 3;
		assert_non_null(e = strchr(b, '`'));
		j = row_of(b, (size_t)(e - b));
		/* goal is the caller's, after the table (mdp_explain_goal) */
		if (j < 0 && (e - b != 4 || strncmp(b, "goal", 4)))
			fail_msg("docs/explain.md lists '%.*s', no rule", (int)(e - b), b);
		if (j >= 0 && j <= last)
			fail_msg("docs/explain.md lists %s after %s", mdp_xrules[j].name,
				 mdp_xrules[last].name);
		last = j >= 0 ? j : last;
		named += j >= 0;
	}
	fclose(f);
	assert_true(named >= 15);
}

MDP_TEST_MAIN(test_rules_named_once, test_every_family, test_phases, test_after_holds,
	      test_kinds_made_before, test_documented_constraints, test_docs_order)
