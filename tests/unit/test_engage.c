/*
 * Unit tests of engage: the watcher's state machine (when it applies,
 * releases, holds off and re-arms, with the debounce), the --on words, and
 * the re-assert budget per value.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engage.h"
#include "support.h"
#include "watcher_int.h"

static void test_kinds_parse(void **state)
{
	static const struct {
		const char *in;
		int rc;
		unsigned bits;
		const char *bad;
	} cases[] = {
	    {"resync,recovery,reshape", 0, MDP_OP_DEFAULT, NULL},
	    {"check", 0, MDP_OP_CHECK, NULL},
	    {"repair,check,resync,recovery,reshape", 0, MDP_OP_ALL, NULL},
	    {"reshape,reshape", 0, MDP_OP_RESHAPE, NULL},
	    {"rebuild", -EINVAL, 0, "rebuild"},
	    {"recover", -EINVAL, 0, "recover"}, /* md's word; --on says recovery */
	    {"resync,", -EINVAL, 0, ""},
	    {"", -EINVAL, 0, ""},
	    {"check,Scrub", -EINVAL, 0, "Scrub"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *bad = NULL;
		size_t bad_len = 0;
		unsigned bits = 0;
		int rc = mdp_op_kinds_parse(cases[i].in, &bits, &bad, &bad_len);
		assert_int_equal(rc, cases[i].rc);
		if (!rc)
			assert_int_equal(bits, cases[i].bits);
		else {
			assert_int_equal(bad_len, strlen(cases[i].bad));
			assert_memory_equal(bad, cases[i].bad, bad_len);
		}
	}
	assert_int_equal(mdp_op_kind_of("recover"), MDP_OP_RECOVERY);
	assert_int_equal(mdp_op_kind_of("idle"), 0);
	assert_int_equal(mdp_op_kind_of("frozen"), 0);
	assert_string_equal(mdp_op_kind_name(MDP_OP_RECOVERY), "recovery");
}

static void test_busy(void **state)
{
	struct mdp_array a = {0};

	(void)state;
	strcpy(a.sync_action, "check");
	assert_false(mdp_engage_busy(&a, MDP_OP_DEFAULT));
	assert_true(mdp_engage_busy(&a, MDP_OP_ALL));
	strcpy(a.sync_action, "recover");
	assert_true(mdp_engage_busy(&a, MDP_OP_DEFAULT));
	/* queued behind another array on the same disks: nothing runs yet */
	strcpy(a.sync_queued, "DELAYED");
	assert_false(mdp_engage_busy(&a, MDP_OP_DEFAULT));
	/* md names a recovery with no thread at work (mdadm --fail, no spare): nothing runs */
	a.sync_queued[0] = '\0';
	a.no_sync_thread = true;
	assert_false(mdp_engage_busy(&a, MDP_OP_DEFAULT));
}

/* armed -> apply -> engaged; idle shorter than the debounce -> nothing; longer -> release. */
static void test_engage_release_debounce(void **state)
{
	struct mdp_engage e;

	(void)state;
	mdp_engage_init(&e, MDP_OP_DEFAULT, 3.0, false);
	assert_int_equal(mdp_engage_step(&e, false, 0.0), MDP_ENG_NOTHING);
	assert_int_equal(mdp_engage_step(&e, true, 1.0), MDP_ENG_APPLY);
	/* a failed apply stays armed: the next look tries again */
	mdp_engage_applied(&e, false);
	assert_int_equal(e.state, MDP_ENG_ARMED);
	assert_int_equal(mdp_engage_step(&e, true, 1.5), MDP_ENG_APPLY);
	mdp_engage_applied(&e, true);
	assert_int_equal(mdp_engage_step(&e, true, 2.0), MDP_ENG_NOTHING);
	/* a reshape ends; DSM starts a resync 2 s later: no release in between */
	assert_int_equal(mdp_engage_step(&e, false, 10.0), MDP_ENG_NOTHING);
	assert_true(mdp_engage_due(&e, 11.0) > 1.9 && mdp_engage_due(&e, 11.0) < 2.1);
	assert_int_equal(mdp_engage_step(&e, false, 12.0), MDP_ENG_NOTHING);
	assert_int_equal(mdp_engage_step(&e, true, 12.5), MDP_ENG_NOTHING);
	assert_true(mdp_engage_due(&e, 12.5) < 0);
	/* idle for good */
	assert_int_equal(mdp_engage_step(&e, false, 20.0), MDP_ENG_NOTHING);
	assert_int_equal(mdp_engage_step(&e, false, 22.9), MDP_ENG_NOTHING);
	assert_int_equal(mdp_engage_step(&e, false, 23.0), MDP_ENG_RELEASE);
	mdp_engage_released(&e);
	assert_int_equal(e.state, MDP_ENG_ARMED);
	assert_int_equal(mdp_engage_step(&e, false, 24.0), MDP_ENG_NOTHING);
	assert_int_equal(mdp_engage_step(&e, true, 25.0), MDP_ENG_APPLY);
	mdp_engage_free(&e);
}

/* An operation that stops and starts again every 5 s (F11): the debounce doubles per quick
 * re-engage, so the overlay stays on instead of cycling; a long quiet starts afresh. */
static void test_flapping(void **state)
{
	struct mdp_engage e;
	double t = 0;

	(void)state;
	mdp_engage_init(&e, MDP_OP_DEFAULT, 3.0, false);
	assert_int_equal(mdp_engage_step(&e, true, t), MDP_ENG_APPLY);
	mdp_engage_applied(&e, true);
	assert_int_equal(mdp_engage_step(&e, false, t + 1), MDP_ENG_NOTHING);
	assert_int_equal(mdp_engage_step(&e, false, t + 4), MDP_ENG_RELEASE);
	mdp_engage_released(&e);
	/* busy again 1 s later: a flap; a failed apply tried again counts once */
	assert_int_equal(mdp_engage_step(&e, true, t + 5), MDP_ENG_APPLY);
	mdp_engage_applied(&e, false);
	assert_int_equal(mdp_engage_step(&e, true, t + 5.5), MDP_ENG_APPLY);
	mdp_engage_applied(&e, true);
	assert_true(mdp_engage_debounce(&e) == 6.0);
	/* 1 s busy, 4 s idle, for a minute: never released */
	for (t = 6; t < 66; t += 5) {
		assert_int_equal(mdp_engage_step(&e, true, t), MDP_ENG_NOTHING);
		assert_int_equal(mdp_engage_step(&e, false, t + 1), MDP_ENG_NOTHING);
		assert_int_equal(mdp_engage_step(&e, false, t + 4.9), MDP_ENG_NOTHING);
	}
	assert_int_equal(mdp_engage_step(&e, false, t + 7), MDP_ENG_RELEASE);
	mdp_engage_released(&e);
	/* more flaps double it up to the cap */
	for (int i = 0; i < 10; i++) {
		t += 10;
		assert_int_equal(mdp_engage_step(&e, true, t), MDP_ENG_APPLY);
		mdp_engage_applied(&e, true);
		assert_int_equal(mdp_engage_step(&e, false, t + 1), MDP_ENG_NOTHING);
		t += 1 + mdp_engage_debounce(&e);
		assert_int_equal(mdp_engage_step(&e, false, t), MDP_ENG_RELEASE);
		mdp_engage_released(&e);
	}
	assert_true(mdp_engage_debounce(&e) == MDP_DEBOUNCE_MAX_S);
	/* quiet for longer than the window: the debounce given again */
	t += MDP_FLAP_WINDOW_S + 1;
	assert_int_equal(mdp_engage_step(&e, true, t), MDP_ENG_APPLY);
	assert_true(mdp_engage_debounce(&e) == 3.0);
	mdp_engage_free(&e);
}

/* Held off (a revert by hand): not applied again while busy; re-armed after idle. */
static void test_held_until_idle(void **state)
{
	struct mdp_engage e;

	(void)state;
	mdp_engage_init(&e, MDP_OP_DEFAULT, 3.0, true);
	mdp_engage_held(&e, 5.0);
	for (double t = 5.0; t < 100.0; t += 7.0)
		assert_int_equal(mdp_engage_step(&e, true, t), MDP_ENG_NOTHING);
	assert_int_equal(mdp_engage_step(&e, false, 100.0), MDP_ENG_NOTHING);
	assert_int_equal(mdp_engage_step(&e, false, 103.0), MDP_ENG_REARM);
	assert_int_equal(e.state, MDP_ENG_ARMED);
	assert_int_equal(mdp_engage_step(&e, true, 104.0), MDP_ENG_APPLY);
	mdp_engage_free(&e);
}

/* Three put-backs per value per engagement, said once when given up; a new engagement resets. */
static void test_reassert_budget(void **state)
{
	struct mdp_engage e;
	unsigned n;

	(void)state;
	mdp_engage_init(&e, MDP_OP_DEFAULT, 3.0, true);
	for (unsigned k = 1; k <= MDP_REASSERT_MAX; k++) {
		assert_int_equal(mdp_engage_reassert(&e, MDP_T_STRIPE_CACHE_SIZE, "md3", &n), 1);
		assert_int_equal(n, k);
	}
	assert_int_equal(mdp_engage_reassert(&e, MDP_T_STRIPE_CACHE_SIZE, "md3", &n), 0);
	assert_int_equal(n, MDP_REASSERT_MAX + 1);
	assert_int_equal(mdp_engage_reassert(&e, MDP_T_STRIPE_CACHE_SIZE, "md3", &n), 0);
	assert_int_equal(n, 0);
	/* another value, another array: a budget of their own */
	assert_int_equal(mdp_engage_reassert(&e, MDP_T_STRIPE_CACHE_SIZE, "md2", &n), 1);
	assert_int_equal(mdp_engage_reassert(&e, MDP_T_SPEED_LIMIT_MIN, "", &n), 1);
	assert_int_equal(n, 1);
	mdp_engage_released(&e);
	mdp_engage_applied(&e, true);
	assert_int_equal(mdp_engage_reassert(&e, MDP_T_STRIPE_CACHE_SIZE, "md3", &n), 1);
	assert_int_equal(n, 1);
	mdp_engage_free(&e);
}

MDP_TEST_MAIN(test_kinds_parse, test_busy, test_engage_release_debounce, test_flapping,
	      test_held_until_idle, test_reassert_budget)
