/*
 * test_tunable: the registry's one display formatter. Every command shows
 * values through it, so a value reads the same in diff, apply, revert,
 * status and show; these pin what it says.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tunable.h"

static void show_is(enum mdp_tunable t, enum mdp_value_kind kind, uint64_t num, const char *want)
{
	struct mdp_value v = {kind, num};
	char buf[48];

	assert_int_equal(mdp_tunable_show(t, &v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

static void test_show(void **state)
{
	(void)state;
	show_is(MDP_T_READ_AHEAD_KB, MDP_V_NUM, 192, "192 KiB");
	show_is(MDP_T_READ_AHEAD_KB, MDP_V_NUM, 32768, "32 MiB");
	show_is(MDP_T_READ_AHEAD_KB, MDP_V_NUM, 1048576, "1 GiB");
	show_is(MDP_T_READ_AHEAD_KB, MDP_V_NUM, 1536, "1536 KiB"); /* not exact in MiB */
	show_is(MDP_T_READ_AHEAD_KB, MDP_V_NUM, 0, "0 KiB");
	show_is(MDP_T_MEMBER_READ_AHEAD_KB, MDP_V_NUM, 4096, "4 MiB");
	show_is(MDP_T_SPEED_LIMIT_MIN, MDP_V_NUM, 100000, "100000 KiB/s");
	show_is(MDP_T_SYNC_SPEED_MAX, MDP_V_NUM, 5000, "5000 KiB/s");
	show_is(MDP_T_STRIPE_CACHE_SIZE, MDP_V_NUM, 4096, "4096");
	show_is(MDP_T_GROUP_THREAD_CNT, MDP_V_NUM, 4, "4");
	show_is(MDP_T_PREREAD_BYPASS, MDP_V_NUM, 1, "1");
	/* As read from the kernel it carries its number; as desired it does not. */
	show_is(MDP_T_SYNC_SPEED_MIN, MDP_V_SYSTEM, 10000, "system (10000)");
	show_is(MDP_T_SYNC_SPEED_MIN, MDP_V_SYSTEM, 0, "system");
}

static void test_json_and_names(void **state)
{
	struct mdp_value v = {MDP_V_NUM, 32768};
	char buf[48];

	(void)state;
	/* Programs get the bare number in the registry's unit. */
	assert_int_equal(mdp_tunable_json(MDP_T_READ_AHEAD_KB, &v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "32768");
	v.kind = MDP_V_SYSTEM;
	assert_int_equal(mdp_tunable_json(MDP_T_SYNC_SPEED_MIN, &v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "\"system\"");
	assert_string_equal(mdp_tunable_info(MDP_T_READ_AHEAD_KB)->unit, "KiB");
	assert_string_equal(mdp_tunable_info(MDP_T_GROUP_THREAD_CNT)->unit, "threads");
	assert_int_equal(mdp_tunable_target_name(MDP_T_SPEED_LIMIT_MAX, "", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "dev.raid.speed_limit_max");
	assert_int_equal(mdp_tunable_target_name(MDP_T_STRIPE_CACHE_SIZE, "md2", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "md2 stripe_cache_size");
	assert_int_equal(
	    mdp_tunable_target_name(MDP_T_MEMBER_READ_AHEAD_KB, "sata1", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sata1 read_ahead");
	/* Too small a buffer is an error, never a silently cut value. */
	assert_int_equal(
	    mdp_tunable_show(MDP_T_SPEED_LIMIT_MIN, &(struct mdp_value){MDP_V_NUM, 100000}, buf, 6),
	    -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_show),
	    cmocka_unit_test(test_json_and_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
