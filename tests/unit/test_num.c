/*
 * Unit tests of the bounded decimal parser: plain digits only, ranges,
 * overflow at the uint64_t edge, and outputs untouched on every error.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "num.h"
#include "support.h"

static void test_parse(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(mdp_num_parse("0", 0, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(mdp_num_parse("100000", 1, 2000000, &v), 0);
	assert_int_equal(v, 100000);
	assert_int_equal(mdp_num_parse("0100", 0, 1000, &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(mdp_num_parse("18446744073709551615", 0, UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
}

static void test_parse_refuses(void **state)
{
	static const char *const invalid[] = {
	    "",   "+1",   "-1",  " 1",  "1 ",    "1\n",
	    "1x", "0x10", "1.0", "1e3", "1_000", "99999999999999999999x",
	};
	uint64_t v = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		if (mdp_num_parse(invalid[i], 0, UINT64_MAX, &v) != -EINVAL)
			fail_msg("'%s' was not refused as -EINVAL", invalid[i]);
	}
	assert_int_equal(mdp_num_parse(NULL, 0, 1, &v), -EINVAL);
	assert_int_equal(mdp_num_parse("18446744073709551616", 0, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(mdp_num_parse("99999999999999999999999", 0, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(mdp_num_parse("0", 1, 10, &v), -ERANGE);
	assert_int_equal(mdp_num_parse("11", 1, 10, &v), -ERANGE);
	assert_int_equal(mdp_num_parse("1001", 0, 1000, &v), -ERANGE);
	assert_int_equal(v, 7);
}

static void test_lead(void **state)
{
	const char *text = "1000 (system)\n", *end = NULL;
	const char bounded[3] = {'1', '2', '3'}; /* no NUL: len must stop it */
	uint64_t v = 7;

	(void)state;
	assert_int_equal(mdp_num_lead(text, SIZE_MAX, &v, &end), 0);
	assert_int_equal(v, 1000);
	assert_ptr_equal(end, text + 4);
	assert_int_equal(mdp_num_lead("12345", 3, &v, &end), 0);
	assert_int_equal(v, 123);
	assert_int_equal(mdp_num_lead(bounded, sizeof(bounded), &v, NULL), 0);
	assert_int_equal(v, 123);
	assert_int_equal(mdp_num_lead("4 (3)", SIZE_MAX, &v, NULL), 0);
	assert_int_equal(v, 4);
	assert_int_equal(mdp_num_lead("18446744073709551615x", SIZE_MAX, &v, &end), 0);
	assert_true(v == UINT64_MAX && *end == 'x');
}

static void test_lead_refuses(void **state)
{
	const char *end = "untouched";
	uint64_t v = 7;

	(void)state;
	assert_int_equal(mdp_num_lead("", SIZE_MAX, &v, &end), -EINVAL);
	assert_int_equal(mdp_num_lead(" 1", SIZE_MAX, &v, &end), -EINVAL);
	assert_int_equal(mdp_num_lead("-1", SIZE_MAX, &v, &end), -EINVAL);
	assert_int_equal(mdp_num_lead("system", SIZE_MAX, &v, &end), -EINVAL);
	assert_int_equal(mdp_num_lead("123", 0, &v, &end), -EINVAL);
	assert_int_equal(mdp_num_lead("18446744073709551616", SIZE_MAX, &v, &end), -ERANGE);
	assert_int_equal(v, 7);
	assert_string_equal(end, "untouched");
}

MDP_TEST_MAIN(test_parse, test_parse_refuses, test_lead, test_lead_refuses)
