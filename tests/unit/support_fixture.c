/* support_fixture: a fixture tree discovered for a test (see support.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "support.h"

void test_fixture_system(const char *name, unsigned skip, struct mdp_root *r, struct mdp_system *s)
{
	const char *src = getenv("MDP_SRCDIR");
	char dir[4096];
	struct mdp_diags d;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/%s", src ? src : ".", name);
	assert_int_equal(mdp_root_init(r, dir), 0);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover_some(r, skip, s, &d), 0);
	mdp_diags_free(&d);
}
