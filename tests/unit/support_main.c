/* support_main: the test programs' main() (see MDP_TEST_MAIN in support.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

int test_run(const char *names, const CMUnitTestFunction *fns, size_t n,
	     CMFixtureFunction group_setup, CMFixtureFunction setup, CMFixtureFunction teardown)
{
	struct CMUnitTest *t = calloc(n, sizeof(*t));
	char *list = strdup(names), *save = NULL, *name;
	size_t i = 0;
	int rc;

	if (!t || !list)
		abort();
	/* #__VA_ARGS__ spells the list as "test_a, test_b": one name per comma. */
	for (name = strtok_r(list, ", ", &save); name && i < n;
	     name = strtok_r(NULL, ", ", &save), i++)
		t[i] = (struct CMUnitTest){name, fns[i], setup, teardown, NULL};
	if (i != n || name)
		abort();
	rc = _cmocka_run_group_tests("tests", t, n, group_setup, NULL);
	free(list);
	free(t);
	return rc;
}
