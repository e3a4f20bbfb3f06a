/* goal: the foreground latency controller (goal.h). */
#include "goal.h"

void mdp_goal_init(struct mdp_goal_ctl *c, unsigned goal_ms, uint64_t floor, uint64_t ceiling)
{
	c->goal_ms = goal_ms;
	c->ceiling = ceiling;
	c->floor = floor < ceiling ? floor : ceiling;
	c->hold = 0;
	c->hold_next = MDP_GOAL_HOLD_LOOKS;
}

static uint64_t clamp(const struct mdp_goal_ctl *c, uint64_t v)
{
	return v < c->floor ? c->floor : v > c->ceiling ? c->ceiling : v;
}

/* A raise's step: a MDP_GOAL_STEPS-th of md's speed, else of the range; at least 1 KiB/s. */
static uint64_t step(const struct mdp_goal_ctl *c, uint64_t sync_kib)
{
	uint64_t s = (sync_kib ? sync_kib : c->ceiling - c->floor) / MDP_GOAL_STEPS;

	return s ? s : 1;
}

uint64_t mdp_goal_next(struct mdp_goal_ctl *c, uint64_t cur, const struct mdp_goal_sample *in,
		       enum mdp_goal_why *why)
{
	uint64_t goal_us = (uint64_t)c->goal_ms * 1000, next;
	enum mdp_goal_why w = MDP_GOAL_HOLD;

	cur = clamp(c, cur);
	next = cur;
	if (in->kind == MDP_GOAL_IDLE) {
		next = c->ceiling;
		w = MDP_GOAL_FULL;
		c->hold = 0;
		c->hold_next = MDP_GOAL_HOLD_LOOKS;
	} else if (in->kind == MDP_GOAL_LATENCY && in->latency_us > goal_us) {
		uint64_t top = in->sync_kib && in->sync_kib < cur ? in->sync_kib : cur;
		next = clamp(c, top / 2);
		w = MDP_GOAL_BACKOFF;
		c->hold = c->hold_next;
		if (c->hold_next < MDP_GOAL_HOLD_MAX)
			c->hold_next *= 2;
	} else if (in->kind == MDP_GOAL_LATENCY && c->hold) {
		c->hold--; /* a back-off's wait: no raise yet */
	} else if (in->kind == MDP_GOAL_LATENCY &&
		   in->latency_us * 1000 < goal_us * MDP_GOAL_RAISE_PERMILLE) {
		uint64_t s = step(c, in->sync_kib);
		next = c->ceiling - cur > s ? cur + s : c->ceiling;
		w = MDP_GOAL_RAISE;
	}
	if (why)
		*why = next == cur ? MDP_GOAL_HOLD : w;
	return next;
}
