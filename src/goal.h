/*
 * goal: the controller behind a profile's goal (profile.h, struct
 * mdp_goal): which md/sync_speed_min an engaged array gets next, from the
 * foreground latency measured over the last interval. Pure: no I/O, no
 * clock; the watcher (watcher_loop.c) measures (iostat.h) and writes.
 *
 * Between a floor (the array's minimum before the profile went on) and a
 * ceiling (the profile's minimum), in KiB/s per device:
 *   - no foreground I/O in the interval: the ceiling (nothing to protect);
 *   - latency above the goal: halve the distance above the floor's share,
 *     that is next = max(floor, cur / 2) (multiplicative back-off: a sync
 *     at its minimum keeps the disks busy, and md only throttles it above
 *     that minimum, so the minimum is what costs the foreground);
 *   - latency below MDP_GOAL_RAISE_PERMILLE of the goal: raise by a
 *     MDP_GOAL_STEPS-th of the range (additive increase);
 *   - between the two, or no measurement yet: stay. That band is the
 *     hysteresis: a load that sits near the goal changes nothing.
 */
#ifndef MDP_GOAL_H
#define MDP_GOAL_H

#include <stdbool.h>
#include <stdint.h>

/* Below this share of the goal (per mille) the minimum is raised. */
#define MDP_GOAL_RAISE_PERMILLE 800u
/* A raise adds this fraction (1/N) of the range between floor and ceiling. */
#define MDP_GOAL_STEPS 10u

/* What one look measured of the foreground. */
enum mdp_goal_input {
	MDP_GOAL_UNKNOWN = 0, /* no measurement (the first look, counters unreadable) */
	MDP_GOAL_IDLE,        /* no request through the array in the interval */
	MDP_GOAL_LATENCY,     /* latency_us holds the mean time per request */
};

struct mdp_goal_sample {
	enum mdp_goal_input kind;
	uint64_t latency_us; /* MDP_GOAL_LATENCY: microseconds per request */
};

/* One array's controller. */
struct mdp_goal_ctl {
	unsigned goal_ms;
	uint64_t floor, ceiling; /* KiB/s; floor <= ceiling once set up */
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
 */
uint64_t mdp_goal_next(const struct mdp_goal_ctl *c, uint64_t cur, const struct mdp_goal_sample *in,
		       enum mdp_goal_why *why);

#endif
