/*
 * Unit tests of the growth helpers: mdp_grow_cap doubles the room (few
 * reallocations for many elements), keeps what was there, and changes
 * nothing when the size would overflow.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "grow.h"
#include "support.h"

static void test_grow_cap_doubles(void **state)
{
	unsigned *v = NULL;
	size_t n = 0, cap = 0, grew = 0;

	(void)state;
	for (unsigned i = 0; i < 10000; i++) {
		size_t before = cap;
		assert_int_equal(mdp_grow_cap(&v, n, &cap, sizeof(*v)), 0);
		assert_true(cap > n);
		if (cap != before) {
			assert_int_equal(cap, before ? before * 2 : 16);
			grew++;
		}
		v[n++] = i;
	}
	assert_int_equal(cap, 16384);
	assert_int_equal(grew, 11); /* 16, 32, ... 16384: not one per element */
	for (unsigned i = 0; i < 10000; i++)
		assert_int_equal(v[i], i);
	free(v);
}

static void test_grow_cap_room_left(void **state)
{
	char *v = malloc(4), *was = v;
	size_t cap = 4;

	(void)state;
	assert_non_null(v);
	assert_int_equal(mdp_grow_cap(&v, 3, &cap, 1), 0);
	assert_ptr_equal(v, was);
	assert_int_equal(cap, 4);
	free(v);
}

static void test_grow_cap_overflow(void **state)
{
	char *v = malloc(1), *was = v;
	size_t cap = SIZE_MAX / 2 + 1;

	(void)state;
	assert_non_null(v);
	/* n + 1 elements of 8 bytes cannot be sized: refused, nothing changed */
	assert_int_equal(mdp_grow_cap(&v, cap, &cap, 8), -ENOMEM);
	assert_ptr_equal(v, was);
	assert_true(cap == SIZE_MAX / 2 + 1);
	cap = SIZE_MAX;
	assert_int_equal(mdp_grow_cap(&v, SIZE_MAX - 1, &cap, 1), 0); /* room already */
	cap = 1;
	assert_int_equal(mdp_grow_cap(&v, SIZE_MAX, &cap, 1), -ENOMEM);
	assert_ptr_equal(v, was);
	assert_int_equal(cap, 1);
	free(v);
}

MDP_TEST_MAIN(test_grow_cap_doubles, test_grow_cap_room_left, test_grow_cap_overflow)
