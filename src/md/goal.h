/*
 * goal: the controller behind a profile's goal (profile.h, struct
 * mdp_goal): which md/sync_speed_min an engaged array gets next, from the
 * foreground latency measured over the last interval. Pure: no I/O, no
 * clock; the watcher (watcher_loop.c) measures (iostat.h) and writes.
 *
 * Between a floor (the array's minimum before the profile went on) and a
 * ceiling (the profile's minimum), in KiB/s per device:
 *   - no foreground I/O in the interval: the ceiling (nothing to protect);
 *   - latency above the goal: halve it, next = max(floor, top / 2), top
 *     being the current minimum or md's own speed if lower (multiplicative
 *     back-off: md throttles the sync for other I/O only while its speed is
 *     above the minimum, so a minimum above md's speed acts as the ceiling
 *     does, and halving from there would spend looks changing nothing);
 *   - latency below MDP_GOAL_RAISE_PERMILLE of the goal: raise by a
 *     MDP_GOAL_STEPS-th of md's speed (of the range while md's speed is
 *     unknown): additive increase, in steps that mean something to this
 *     array, an 8 MiB/s one as a 1 GB/s one;
 *   - between the two, or no measurement yet: stay. That band is the
 *     hysteresis: a load that sits near the goal changes nothing.
 * md's throttle is a step, not a slope: the foreground is fine while the
 * minimum is below md's speed, and not once it is above. A raise that finds
 * the step costs the foreground one interval; so after a back-off the
 * controller waits MDP_GOAL_HOLD_LOOKS looks before it raises again, twice
 * as long after each back-off that follows (up to MDP_GOAL_HOLD_MAX looks),
 * and back to the first wait once the foreground stops.
 */
#ifndef MDP_GOAL_H
#define MDP_GOAL_H

#include <stdbool.h>
#include <stdint.h>

/* Below this share of the goal (per mille) the minimum is raised. */
#define MDP_GOAL_RAISE_PERMILLE 800u
/* A raise adds this fraction (1/N) of the range between floor and ceiling. */
#define MDP_GOAL_STEPS 10u
/* Looks without a raise after a back-off: the first wait, and the longest. */
#define MDP_GOAL_HOLD_LOOKS 6u
#define MDP_GOAL_HOLD_MAX   96u

/* What one look measured of the foreground. */
enum mdp_goal_input {
	MDP_GOAL_UNKNOWN = 0, /* no measurement (the first look, counters unreadable) */
	MDP_GOAL_IDLE,        /* no request through the array in the interval */
	MDP_GOAL_LATENCY,     /* latency_us holds the mean time per request */
};

struct mdp_goal_sample {
	enum mdp_goal_input kind;
	uint64_t latency_us; /* MDP_GOAL_LATENCY: microseconds per request */
	uint64_t sync_kib;   /* md/sync_speed: the speed md compares its minimum with; 0 unknown */
};

/* One array's controller. */
struct mdp_goal_ctl {
	unsigned goal_ms;
	uint64_t floor, ceiling; /* KiB/s; floor <= ceiling once set up */
	unsigned hold;           /* looks left before a raise */
	unsigned hold_next;      /* the wait after the next back-off */
};

/* Why the next minimum is what it is (for the watcher's line). */
enum mdp_goal_why {
	MDP_GOAL_HOLD,    /* unchanged: in the band, unknown, or already at the bound */
	MDP_GOAL_BACKOFF, /* latency above the goal */
	MDP_GOAL_RAISE,   /* latency below the band */
	MDP_GOAL_FULL,    /* no foreground I/O: the ceiling */
};

/*
 * Set c up. A floor above the ceiling (the array had a higher minimum of
 * its own) leaves nothing to steer: both become the ceiling.
 */
void mdp_goal_init(struct mdp_goal_ctl *c, unsigned goal_ms, uint64_t floor, uint64_t ceiling);
/*
 * The minimum for the next interval, from the current one (clamped into
 * [floor, ceiling] first: something else may have written it) and what
 * the last interval measured. *why says which rule decided (may be NULL).
 * c keeps the wait after a back-off.
 */
uint64_t mdp_goal_next(struct mdp_goal_ctl *c, uint64_t cur, const struct mdp_goal_sample *in,
		       enum mdp_goal_why *why);

#endif
