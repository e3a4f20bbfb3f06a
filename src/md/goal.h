/*
 * goal: the controller behind a profile's goal (profile.h, struct
 * mdp_goal): which md/sync_speed_min and md/sync_speed_max an engaged
 * array gets next, from the foreground latency measured over the last
 * interval. Pure: no I/O, no clock; the watcher (watcher_loop.c) measures
 * (iostat.h) and writes.
 *
 * Each limit moves between a floor and a ceiling, in KiB/s per device:
 *   - the minimum between its floor (the array's minimum before the profile
 *     went on) and its ceiling (the profile's minimum);
 *   - the maximum, when steered (mdp_goal_init_max), between its floor and
 *     its ceiling (the array's maximum under the profile). Its floor is the
 *     minimum's floor, and never under MDP_GOAL_MAX_FLOOR: md throttles a
 *     sync for other I/O only while it runs above its minimum, so a maximum
 *     under the minimum changes nothing, and at the minimum's floor the
 *     rebuild gets what md itself grants it under load (1000 KiB/s is the
 *     kernel's default dev.raid.speed_limit_min): never less.
 * md throttles a sync only above its minimum and caps it at its maximum, so
 * the maximum is what is left once the minimum is at its floor (md's idle
 * test misses a foreground it does not see as the array's; the sync runs
 * near the maximum then). The two move as one ladder: the minimum comes
 * down first, then the maximum; the maximum goes back up first, then the
 * minimum.
 *
 * A look's rules:
 *   - no foreground I/O in the interval: both ceilings (nothing to
 *     protect), and the first wait again;
 *   - latency above the goal: a back-off. The minimum, or once it is at its
 *     floor the maximum, becomes top * goal / latency, the factor bounded to
 *     [MDP_GOAL_CUT_LEAST, MDP_GOAL_CUT_MOST] per mille (a look far over
 *     never takes more than three quarters, one just over always takes a
 *     tenth), never under the floor; top is the limit or md's own speed if
 *     lower (above md's speed a limit acts as the ceiling does, and cutting
 *     from there would spend looks changing nothing). The maximum comes down
 *     only on the foreground's own latency (md's counters), never on a proxy
 *     for it: the members' counters include the sync's own requests, which
 *     a lower maximum itself shortens, and a few timed reads of the watcher's
 *     own are too few to cap a rebuild on (in the lab, on 5.10, they read 236
 *     ms beside a client's 36, and a maximum cut on them took the recovery to
 *     0.73 of the kernel limits'). And it comes down only on a confirmed
 *     overload: the foreground's own latency over the goal on two looks in a
 *     row, each over an interval that ran with the minimum at its floor (the
 *     minimum moves on one look). A look's sample is the mean of the few
 *     requests of one interval, and a single slow one (a seek, a flush) can
 *     take it over the goal; the minimum back on one look costs little, it
 *     comes back within a few, but a maximum cut on one caps a rebuild that
 *     runs for hours (in the lab, on 6.1, one look at 196 ms beside a
 *     client's 16 ms mean cut it from 2000000 to 3918 KiB/s, and the next
 *     lone spike again: the recovery ran at 2359 KiB/s, not 7417). And the
 *     look that brought the minimum to its floor does not count: the sync's
 *     requests queued under the higher minimum still hold the disks through
 *     the next interval (in the lab the look after it read 208 ms, and the
 *     client's mean over the window was 23). A first look over with the
 *     minimum at its floor and the maximum above its floor: nothing moves
 *     (MDP_GOAL_HOLD), the wait stays. Any other look between (in the band,
 *     under it, idle, unknown, a proxy's) starts the count again. The
 *     minimum at its floor and the maximum at its floor, or not to be
 *     lowered on this sample: nothing left to give (MDP_GOAL_SPENT), nothing
 *     moves;
 *   - latency below MDP_GOAL_RAISE_PERMILLE of the goal and no wait left: a
 *     raise of the maximum while it is under its ceiling, else of the
 *     minimum. At or under MDP_GOAL_FAST_PERMILLE of the goal (the load
 *     has gone) it doubles, by at least a quarter of the range, so that a
 *     limit is back at its ceiling within 4 raises (the range covered in
 *     quarters, each raise at least one); between the two it adds a
 *     MDP_GOAL_STEPS-th of md's speed (of the range while md's speed is
 *     unknown), steps that mean something to this array, an 8 MiB/s one as
 *     a 1 GB/s one, where the load is close to what the goal allows;
 *   - between the two, or no measurement yet: stay. That band is the
 *     hysteresis: a load that sits near the goal changes nothing.
 * md's throttle is a step, not a slope: the foreground is fine while the
 * minimum is below md's speed, and not once it is above. A raise that finds
 * the step costs the foreground one interval; so a back-off that moved a
 * limit is followed by MDP_GOAL_HOLD_LOOKS looks without a raise, and one
 * that moved a limit right after a raise (the raise found the step) by
 * twice the wait before (up to MDP_GOAL_HOLD_MAX looks). Looks over the goal
 * that move nothing (at the floors) keep the wait as it is, they do not
 * grow it; back at both ceilings, or no foreground I/O, the first wait
 * again. So after an overload that moved the limits only down, the limits
 * are back at the profile's within MDP_GOAL_HOLD_LOOKS + 8 looks under half
 * the goal: 12.
 */
#ifndef MDP_GOAL_H
#define MDP_GOAL_H

#include <stdbool.h>
#include <stdint.h>

/* Below this share of the goal (per mille) a limit is raised. */
#define MDP_GOAL_RAISE_PERMILLE 800u
/* At or below this share of the goal (per mille) a raise doubles. */
#define MDP_GOAL_FAST_PERMILLE 500u
/* A gentle raise adds this fraction (1/N) of md's speed (of the range while it is unknown). */
#define MDP_GOAL_STEPS 10u
/* A back-off's factor, goal / latency, bounded to these (per mille). */
#define MDP_GOAL_CUT_LEAST 250u
#define MDP_GOAL_CUT_MOST  900u
/* Looks without a raise after a back-off: the first wait, and the longest. */
#define MDP_GOAL_HOLD_LOOKS 4u
#define MDP_GOAL_HOLD_MAX   96u
/* The maximum is never steered under this (KiB/s), nor under the minimum's floor. */
#define MDP_GOAL_MAX_FLOOR 1000u

/* What one look measured of the foreground. */
enum mdp_goal_input {
	MDP_GOAL_UNKNOWN = 0, /* no measurement (the first look, counters unreadable) */
	MDP_GOAL_IDLE,        /* no request through the array in the interval */
	MDP_GOAL_LATENCY,     /* latency_us holds the mean time per request */
};

struct mdp_goal_sample {
	enum mdp_goal_input kind;
	uint64_t latency_us; /* MDP_GOAL_LATENCY: microseconds per request */
	uint64_t sync_kib;   /* md/sync_speed: the speed md compares its limits with; 0 unknown */
	/*
	 * latency_us stands in for the foreground's own requests (the member
	 * disks' counters, the sync's requests included; the watcher's own few
	 * timed reads): the maximum is not lowered on it.
	 */
	bool proxy;
};

/* An array's two limits, KiB/s. */
struct mdp_goal_lim {
	uint64_t min, max;
};

/* One array's controller. */
struct mdp_goal_ctl {
	unsigned goal_ms;
	uint64_t floor, ceiling;         /* the minimum's; floor <= ceiling once set up */
	uint64_t max_floor, max_ceiling; /* the maximum's; equal when it is not steered */
	unsigned hold;                   /* looks left before a raise */
	unsigned hold_next;              /* the wait after the next back-off that moves */
	bool raised;                     /* the last move was a raise */
	bool over;                       /* the last look counts towards a confirmed overload */
};

/* Why the next limits are what they are (for the watcher's line). */
enum mdp_goal_why {
	MDP_GOAL_HOLD,    /* unchanged: in the band, unknown, waiting */
	MDP_GOAL_BACKOFF, /* latency above the goal: a limit lowered */
	MDP_GOAL_RAISE,   /* latency below the band: a limit raised */
	MDP_GOAL_FULL,    /* no foreground I/O: the ceilings */
	MDP_GOAL_SPENT,   /* latency above the goal with both limits at their floors */
};

/*
 * Set c up, the maximum not steered. A floor above the ceiling (the array
 * had a higher minimum of its own) leaves nothing to steer: both become
 * the ceiling.
 */
void mdp_goal_init(struct mdp_goal_ctl *c, unsigned goal_ms, uint64_t floor, uint64_t ceiling);
/*
 * Steer the maximum too, from ceiling (the array's maximum now) down to
 * the larger of the minimum's floor and MDP_GOAL_MAX_FLOOR (no lower than
 * ceiling: then it is not steered). After mdp_goal_init.
 */
void mdp_goal_init_max(struct mdp_goal_ctl *c, uint64_t ceiling);
/*
 * The limits for the next interval in *next, from the current ones (each
 * clamped into its bounds first: something else may have written them) and
 * what the last interval measured. Returns which rule decided: MDP_GOAL_HOLD
 * whenever nothing changes but MDP_GOAL_SPENT. c keeps the wait.
 */
enum mdp_goal_why mdp_goal_next(struct mdp_goal_ctl *c, const struct mdp_goal_lim *cur,
				const struct mdp_goal_sample *in, struct mdp_goal_lim *next);

#endif
