/*
 * Unit tests of profile_list: what list shows, in lookup order (the dirs,
 * then the built-ins; the first place of a name shadows the others), each
 * profile loaded for whether it is valid and its description, and a file
 * whose name no lookup could find set aside.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile_list.h"
#include "support.h"

static const struct mdp_builtin builtins[] = {
    TEST_BUILTIN("z-built", "description: built in\n"),
    TEST_BUILTIN("a", "description: shadowed by a file\n"),
};

static void test_list(void **state)
{
	const char *tmp = getenv("TMPDIR");
	const char *sources[] = {"one", "two"};
	char top[PATH_MAX], one[PATH_MAX + 8], two[PATH_MAX + 8], want[PATH_MAX + 32];
	struct mdp_profile_dirs dirs = {{one, two, "/nonexistent/mdp"}, 3, builtins, 2};
	struct mdp_profile_list l;

	(void)state;
	snprintf(top, sizeof(top), "%s/mdp-plist.XXXXXX", tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(top));
	snprintf(one, sizeof(one), "%s/one", top);
	snprintf(two, sizeof(two), "%s/two", top);
	test_sh("cd '%s' && mkdir one two && "
		"printf 'description: |\\n  first\\n  second\\n' >one/b.yaml && "
		"printf 'raid: {no_such_key: 1}\\n' >one/a.yaml && "
		"printf 'description: x\\n' >one/.hidden.yaml && "
		"printf 'description: x\\n' >'one/bad name.yaml' && "
		"printf 'description: x\\n' >one/notes.txt && "
		"printf 'description: from two\\n' >two/a.yaml && "
		"printf 'extends: z-built\\n' >two/c.yaml",
		top);
	assert_int_equal(mdp_profile_list(&dirs, sources, &l), 0);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.v[0].name, "a"); /* one's, invalid, shadows two's and the built-in */
	assert_string_equal(l.v[0].source, "one");
	assert_false(l.v[0].valid);
	assert_string_equal(l.v[0].description, "");
	snprintf(want, sizeof(want), "%s/a.yaml", one);
	assert_string_equal(l.v[0].path, want);
	assert_string_equal(l.v[1].name, "b");
	assert_true(l.v[1].valid);
	assert_string_equal(l.v[1].description, "first\nsecond\n");
	assert_string_equal(l.v[2].name, "c"); /* its parent a built-in */
	assert_string_equal(l.v[2].source, "two");
	assert_true(l.v[2].valid);
	assert_string_equal(l.v[2].description, "built in");
	assert_string_equal(l.v[3].name, "z-built");
	assert_string_equal(l.v[3].source, "built-in");
	assert_string_equal(l.v[3].path, MDP_BUILTIN_PREFIX "z-built");
	assert_int_equal(l.n_skipped, 1);
	snprintf(want, sizeof(want), "%s/bad name.yaml", one);
	assert_string_equal(l.skipped[0], want);
	mdp_profile_list_free(&l);
	assert_int_equal(l.n, 0);
	test_sh("rm -rf '%s'", top);
}

/* Nothing anywhere: an empty list, not an error. */
static void test_empty(void **state)
{
	struct mdp_profile_dirs dirs = {{"/nonexistent/mdp"}, 1, NULL, 0};
	const char *sources[] = {"etc"};
	struct mdp_profile_list l;

	(void)state;
	assert_int_equal(mdp_profile_list(&dirs, sources, &l), 0);
	assert_int_equal(l.n, 0);
	assert_int_equal(l.n_skipped, 0);
	mdp_profile_list_free(&l);
}

MDP_TEST_MAIN(test_list, test_empty)
