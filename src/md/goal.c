/* goal: the foreground latency controller (goal.h). */
#include "goal.h"

void mdp_goal_init(struct mdp_goal_ctl *c, unsigned goal_ms, uint64_t floor, uint64_t ceiling)
{
	c->goal_ms = goal_ms;
	c->ceiling = ceiling;
	c->floor = floor < ceiling ? floor : ceiling;
	c->max_floor = c->max_ceiling = 0;
	c->hold = 0;
	c->hold_next = MDP_GOAL_HOLD_LOOKS;
	c->raised = false;
	c->over = false;
}

void mdp_goal_init_max(struct mdp_goal_ctl *c, uint64_t ceiling)
{
	uint64_t f = c->floor > MDP_GOAL_MAX_FLOOR ? c->floor : MDP_GOAL_MAX_FLOOR;

	c->max_ceiling = ceiling;
	c->max_floor = f < ceiling ? f : ceiling;
}

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* A back-off of v (above md's speed: from md's speed) by goal / latency, bounded (goal.h). */
static uint64_t cut(const struct mdp_goal_ctl *c, uint64_t v, uint64_t lo,
		    const struct mdp_goal_sample *in)
{
	uint64_t top = in->sync_kib && in->sync_kib < v ? in->sync_kib : v;
	uint64_t pm = (uint64_t)c->goal_ms * 1000 * 1000 / in->latency_us;

	pm = clamp(pm, MDP_GOAL_CUT_LEAST, MDP_GOAL_CUT_MOST);
	return clamp(top / 1000 * pm + top % 1000 * pm / 1000, lo, v);
}

/* A raise of v towards hi from lo: doubling when the load has gone, else a step (goal.h). */
static uint64_t rise(const struct mdp_goal_ctl *c, uint64_t v, uint64_t lo, uint64_t hi,
		     const struct mdp_goal_sample *in)
{
	uint64_t s;

	if (in->latency_us * 1000 <= (uint64_t)c->goal_ms * 1000 * MDP_GOAL_FAST_PERMILLE) {
		s = (hi - lo) / 4;
		s = v > s ? v : s;
	} else {
		s = (in->sync_kib ? in->sync_kib : hi - lo) / MDP_GOAL_STEPS;
	}
	s = s ? s : 1;
	return hi - v > s ? v + s : hi;
}

/*
 * Latency above the goal: the minimum down, else the maximum once the
 * overload is confirmed (the look before was over too, the minimum at its
 * floor), else nothing left.
 */
static enum mdp_goal_why back_off(struct mdp_goal_ctl *c, const struct mdp_goal_sample *in,
				  bool confirmed, struct mdp_goal_lim *l)
{
	bool max_left = c->max_ceiling && l->max > c->max_floor && !in->proxy;

	if (l->min > c->floor)
		l->min = cut(c, l->min, c->floor, in);
	else if (max_left && !confirmed)
		return MDP_GOAL_HOLD; /* one look over may be a spike: the next one says */
	else if (max_left)
		l->max = cut(c, l->max, c->max_floor, in);
	else
		return MDP_GOAL_SPENT; /* the wait stays as it is: nothing moved */
	if (c->raised)                 /* the raise found md's step: wait longer */
		c->hold_next =
		    c->hold_next * 2 < MDP_GOAL_HOLD_MAX ? c->hold_next * 2 : MDP_GOAL_HOLD_MAX;
	c->raised = false;
	c->hold = c->hold_next;
	return MDP_GOAL_BACKOFF;
}

/* Under the band, no wait left: the maximum up to its ceiling first, then the minimum. */
static enum mdp_goal_why raise(struct mdp_goal_ctl *c, const struct mdp_goal_sample *in,
			       struct mdp_goal_lim *l)
{
	if (l->max < c->max_ceiling)
		l->max = rise(c, l->max, c->max_floor, c->max_ceiling, in);
	else if (l->min < c->ceiling)
		l->min = rise(c, l->min, c->floor, c->ceiling, in);
	else
		return MDP_GOAL_HOLD;
	c->raised = true;
	if (l->min == c->ceiling && l->max == c->max_ceiling) {
		c->raised = false; /* back at the profile's: the episode is over */
		c->hold_next = MDP_GOAL_HOLD_LOOKS;
	}
	return MDP_GOAL_RAISE;
}

enum mdp_goal_why mdp_goal_next(struct mdp_goal_ctl *c, const struct mdp_goal_lim *cur,
				const struct mdp_goal_sample *in, struct mdp_goal_lim *next)
{
	uint64_t goal_us = (uint64_t)c->goal_ms * 1000;
	bool over, confirmed;
	struct mdp_goal_lim was;

	next->min = clamp(cur->min, c->floor, c->ceiling);
	next->max = c->max_ceiling ? clamp(cur->max, c->max_floor, c->max_ceiling) : cur->max;
	was = *next;
	/* an overload the minimum at its floor did not end, on this look and the one before */
	over = in->kind == MDP_GOAL_LATENCY && in->latency_us > goal_us && !in->proxy &&
	       next->min == c->floor;
	confirmed = over && c->over;
	c->over = over;
	if (in->kind == MDP_GOAL_IDLE) {
		next->min = c->ceiling;
		next->max = c->max_ceiling ? c->max_ceiling : next->max;
		c->hold = 0;
		c->hold_next = MDP_GOAL_HOLD_LOOKS;
		c->raised = false;
		return next->min != was.min || next->max != was.max ? MDP_GOAL_FULL : MDP_GOAL_HOLD;
	}
	if (in->kind != MDP_GOAL_LATENCY)
		return MDP_GOAL_HOLD;
	if (in->latency_us > goal_us)
		return back_off(c, in, confirmed, next);
	if (c->hold) {
		c->hold--; /* a back-off's wait: no raise yet */
		return MDP_GOAL_HOLD;
	}
	if (in->latency_us * 1000 < goal_us * MDP_GOAL_RAISE_PERMILLE)
		return raise(c, in, next);
	return MDP_GOAL_HOLD;
}
