/*
 * Unit tests of goal: the foreground latency controller on synthetic
 * series (a step, noise around the goal, an idle gap), and its bounds.
 * A small plant stands in for the NAS where one is needed: the
 * foreground's latency grows with the minimum the sync is given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "goal.h"
#include "support.h"

#define FLOOR   10000u
#define CEILING 300000u
#define GOAL_MS 20u

static struct mdp_goal_sample lat_ms(double ms)
{
	return (struct mdp_goal_sample){.kind = MDP_GOAL_LATENCY,
					.latency_us = (uint64_t)(ms * 1000)};
}

static const struct mdp_goal_sample idle = {.kind = MDP_GOAL_IDLE};
static const struct mdp_goal_sample unknown = {.kind = MDP_GOAL_UNKNOWN};

/* The plant: 5 ms alone, plus 1 ms for each 10000 KiB/s the sync is promised. */
static double plant(uint64_t min)
{
	return 5.0 + (double)min / 10000.0;
}

/* A fixed pseudo-random series in [-1, 1] (an LCG: the same on every machine). */
static double noise(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return (double)(*s >> 8 & 0xffff) / 32767.5 - 1.0;
}

static void test_rules(void **state)
{
	struct mdp_goal_ctl c;
	enum mdp_goal_why why;
	struct mdp_goal_sample in;

	(void)state;
	mdp_goal_init(&c, GOAL_MS, FLOOR, CEILING);
	/* above the goal: halved */
	in = lat_ms(21);
	assert_int_equal(mdp_goal_next(&c, CEILING, &in, &why), CEILING / 2);
	assert_int_equal(why, MDP_GOAL_BACKOFF);
	/* never below the floor */
	assert_int_equal(mdp_goal_next(&c, 15000, &in, &why), FLOOR);
	assert_int_equal(mdp_goal_next(&c, FLOOR, &in, &why), FLOOR);
	assert_int_equal(why, MDP_GOAL_HOLD);
	/* at the goal and in the band: stays */
	in = lat_ms(20);
	assert_int_equal(mdp_goal_next(&c, 100000, &in, &why), 100000);
	assert_int_equal(why, MDP_GOAL_HOLD);
	in = lat_ms(16);
	assert_int_equal(mdp_goal_next(&c, 100000, &in, &why), 100000);
	/* below the band: a tenth of the range more, never above the ceiling (no back-off before)
	 */
	mdp_goal_init(&c, GOAL_MS, FLOOR, CEILING);
	in = lat_ms(15.9);
	assert_int_equal(mdp_goal_next(&c, 100000, &in, &why), 129000);
	assert_int_equal(why, MDP_GOAL_RAISE);
	assert_int_equal(mdp_goal_next(&c, 290000, &in, &why), CEILING);
	assert_int_equal(mdp_goal_next(&c, CEILING, &in, &why), CEILING);
	assert_int_equal(why, MDP_GOAL_HOLD);
	/* no foreground I/O: the ceiling at once */
	assert_int_equal(mdp_goal_next(&c, FLOOR, &idle, &why), CEILING);
	assert_int_equal(why, MDP_GOAL_FULL);
	/* nothing measured: stays */
	assert_int_equal(mdp_goal_next(&c, 50000, &unknown, &why), 50000);
	assert_int_equal(why, MDP_GOAL_HOLD);
	/* a current value out of range (written by someone else) is clamped first */
	assert_int_equal(mdp_goal_next(&c, 5000, &unknown, NULL), FLOOR);
	assert_int_equal(mdp_goal_next(&c, 900000, &unknown, NULL), CEILING);
}

/*
 * md's own speed: a back-off halves from it when the minimum is above it
 * (md does not throttle below its minimum, so above its speed the minimum
 * changes nothing); a raise steps by a tenth of it. After a back-off, no
 * raise for MDP_GOAL_HOLD_LOOKS looks, twice that after the next back-off;
 * no foreground I/O resets the wait.
 */
static void test_md_speed_and_hold(void **state)
{
	struct mdp_goal_ctl c;
	enum mdp_goal_why why;
	struct mdp_goal_sample hi = lat_ms(50), lo = lat_ms(5);
	uint64_t cur;

	(void)state;
	hi.sync_kib = lo.sync_kib = 8000;
	mdp_goal_init(&c, GOAL_MS, 1000, CEILING);
	assert_int_equal(cur = mdp_goal_next(&c, CEILING, &hi, &why), 4000);
	assert_int_equal(why, MDP_GOAL_BACKOFF);
	for (unsigned i = 0; i < MDP_GOAL_HOLD_LOOKS; i++) {
		assert_int_equal(mdp_goal_next(&c, cur, &lo, &why), cur);
		assert_int_equal(why, MDP_GOAL_HOLD);
	}
	assert_int_equal(cur = mdp_goal_next(&c, cur, &lo, &why), 4800);
	assert_int_equal(why, MDP_GOAL_RAISE);
	/* the next back-off waits twice as long */
	assert_int_equal(cur = mdp_goal_next(&c, cur, &hi, NULL), 2400);
	for (unsigned i = 0; i < 2 * MDP_GOAL_HOLD_LOOKS; i++)
		assert_int_equal(mdp_goal_next(&c, cur, &lo, NULL), cur);
	assert_int_equal(mdp_goal_next(&c, cur, &lo, NULL), 3200);
	/* the foreground gone and back: the first wait again */
	assert_int_equal(cur = mdp_goal_next(&c, cur, &idle, NULL), CEILING);
	assert_int_equal(cur = mdp_goal_next(&c, cur, &hi, NULL), 4000);
	for (unsigned i = 0; i < MDP_GOAL_HOLD_LOOKS; i++)
		assert_int_equal(mdp_goal_next(&c, cur, &lo, NULL), cur);
	assert_int_equal(mdp_goal_next(&c, cur, &lo, NULL), 4800);
	/* the wait never grows past MDP_GOAL_HOLD_MAX looks */
	for (int i = 0; i < 20; i++)
		mdp_goal_next(&c, cur, &hi, NULL);
	assert_int_equal(c.hold, MDP_GOAL_HOLD_MAX);
}

/*
 * md's throttle as it is: a step. While the minimum is below md's speed md
 * yields to the foreground (6 ms a read, the sync at 7400 KiB/s); above it
 * it does not (90 ms, 8200 KiB/s), as the lab measured on 8 MiB/s disks.
 * Started at the ceiling with a 20 ms goal, the controller finds the step
 * within a look and raises past it ever less often: over 1000 looks the mean
 * latency stays well within 1.2 times the goal.
 */
static void test_md_step(void **state)
{
	struct mdp_goal_ctl c;
	uint64_t cur = CEILING;
	double sum = 0;
	unsigned above = 0;

	(void)state;
	mdp_goal_init(&c, GOAL_MS, 1000, CEILING);
	for (int i = 0; i < 1000; i++) {
		bool yields = cur < 8200;
		struct mdp_goal_sample in = lat_ms(yields ? 6 : 90);
		in.sync_kib = yields ? 7400 : 8200;
		cur = mdp_goal_next(&c, cur, &in, NULL);
		if (i == 0)
			assert_true(cur < 8200);
		sum += yields ? 6 : 90;
		above += !yields;
		assert_true(cur >= 1000 && cur <= CEILING);
	}
	assert_true(sum / 1000 <= 1.2 * GOAL_MS);
	assert_true(above < 1000 / 20);
}

/* A floor above the ceiling: nothing to steer, the ceiling always. */
static void test_floor_above(void **state)
{
	struct mdp_goal_ctl c;
	struct mdp_goal_sample in = lat_ms(500);

	(void)state;
	mdp_goal_init(&c, GOAL_MS, 400000, CEILING);
	assert_int_equal(c.floor, CEILING);
	assert_int_equal(mdp_goal_next(&c, CEILING, &in, NULL), CEILING);
	assert_int_equal(mdp_goal_next(&c, CEILING, &idle, NULL), CEILING);
}

/*
 * A step: a reader starts while the sync runs at the ceiling (35 ms, well
 * above the goal). The minimum comes down within a few looks to where the
 * plant meets the goal, and then stays within one back-off and a few
 * raises of it: it settles, it does not run away.
 */
static void test_step(void **state)
{
	struct mdp_goal_ctl c;
	uint64_t cur = CEILING;
	unsigned changes = 0, above = 0;

	(void)state;
	mdp_goal_init(&c, GOAL_MS, FLOOR, CEILING);
	for (int i = 0; i < 200; i++) {
		struct mdp_goal_sample in = lat_ms(plant(cur));
		uint64_t next = mdp_goal_next(&c, cur, &in, NULL);
		if (!i)
			/* the first look after the step backs off */
			assert_true(next < cur);
		if (i == 3)
			/* within three looks the reader is within its goal */
			assert_true(plant(cur) <= GOAL_MS);
		if (i >= 100) {
			changes += next != cur;
			above += plant(cur) > GOAL_MS;
		}
		assert_true(next >= FLOOR && next <= CEILING);
		cur = next;
	}
	/* in steady state: the plant at or under the goal most of the time */
	assert_true(above <= 100 / 4);
	/* and a sawtooth at most, not a change at every look */
	assert_true(changes <= 100 / 2);
	/* the mean latency under the goal's band and above half of it: used, not starved */
	assert_true(plant(cur) <= 1.2 * GOAL_MS);
	assert_true(cur >= 60000);
}

/*
 * Noise: latencies scattered around the goal. Within the band (0.8..1.0
 * of it) nothing changes at all; ±15 % around it changes the minimum a
 * bounded number of times (each back-off halves it, and no sample is
 * below the band to raise it again).
 */
static void test_noise(void **state)
{
	struct mdp_goal_ctl c;
	uint32_t seed = 40;
	uint64_t cur = 150000;
	unsigned changes = 0;

	(void)state;
	mdp_goal_init(&c, GOAL_MS, FLOOR, CEILING);
	for (int i = 0; i < 1000; i++) {
		struct mdp_goal_sample in = lat_ms(GOAL_MS * (0.9 + 0.099 * noise(&seed)));
		uint64_t next = mdp_goal_next(&c, cur, &in, NULL);
		changes += next != cur;
		cur = next;
	}
	assert_int_equal(changes, 0);
	assert_int_equal(cur, 150000);
	for (int i = 0; i < 1000; i++) {
		struct mdp_goal_sample in = lat_ms(GOAL_MS * (1.0 + 0.15 * noise(&seed)));
		uint64_t next = mdp_goal_next(&c, cur, &in, NULL);
		changes += next != cur;
		assert_true(next >= FLOOR && next <= CEILING);
		cur = next;
	}
	/* 150000 -> 75000 -> 37500 -> 18750 -> 10000: four halvings, then the floor */
	assert_true(changes <= 5);
}

/*
 * An idle gap: under load the minimum is down; the reader stops (no
 * requests): the ceiling at the next look; the reader is back: down again
 * from the ceiling at the first look above the goal.
 */
static void test_idle_gap(void **state)
{
	struct mdp_goal_ctl c;
	uint64_t cur = CEILING;
	struct mdp_goal_sample in;

	(void)state;
	mdp_goal_init(&c, GOAL_MS, FLOOR, CEILING);
	for (int i = 0; i < 30; i++) {
		in = lat_ms(plant(cur));
		cur = mdp_goal_next(&c, cur, &in, NULL);
	}
	assert_true(cur < CEILING);
	for (int i = 0; i < 5; i++) {
		cur = mdp_goal_next(&c, cur, &idle, NULL);
		assert_int_equal(cur, CEILING);
	}
	in = lat_ms(plant(cur));
	cur = mdp_goal_next(&c, cur, &in, NULL);
	assert_int_equal(cur, CEILING / 2);
}

/* Whatever comes in, the minimum stays within [floor, ceiling]. */
static void test_bounds(void **state)
{
	static const uint64_t floors[] = {1, 1000, 10000, 299999, 300000};
	uint32_t seed = 7;

	(void)state;
	for (size_t f = 0; f < sizeof(floors) / sizeof(floors[0]); f++) {
		struct mdp_goal_ctl c;
		uint64_t cur = floors[f];
		mdp_goal_init(&c, 1 + f * 2000, floors[f], CEILING);
		for (int i = 0; i < 5000; i++) {
			double r = noise(&seed);
			struct mdp_goal_sample in =
			    r < -0.8   ? idle
			    : r < -0.7 ? unknown
				       : lat_ms((r + 1) * 10000 * (1 + f * 2000) / 1000.0);
			cur = mdp_goal_next(&c, cur, &in, NULL);
			assert_true(cur >= floors[f] && cur <= CEILING);
		}
	}
}

MDP_TEST_MAIN(test_rules, test_md_speed_and_hold, test_md_step, test_floor_above, test_step,
	      test_noise, test_idle_gap, test_bounds)
