/* goal: the foreground latency controller (goal.h). */
#include "goal.h"

void mdp_goal_init(struct mdp_goal_ctl *c, unsigned goal_ms, uint64_t floor, uint64_t ceiling)
{
	c->goal_ms = goal_ms;
	c->ceiling = ceiling;
	c->floor = floor < ceiling ? floor : ceiling;
}

static uint64_t clamp(const struct mdp_goal_ctl *c, uint64_t v)
{
	return v < c->floor ? c->floor : v > c->ceiling ? c->ceiling : v;
}

/* A raise's step: a MDP_GOAL_STEPS-th of the range, at least 1 KiB/s. */
static uint64_t step(const struct mdp_goal_ctl *c)
{
	uint64_t s = (c->ceiling - c->floor) / MDP_GOAL_STEPS;

	return s ? s : 1;
}

uint64_t mdp_goal_next(const struct mdp_goal_ctl *c, uint64_t cur, const struct mdp_goal_sample *in,
		       enum mdp_goal_why *why)
{
	uint64_t goal_us = (uint64_t)c->goal_ms * 1000, next;
	enum mdp_goal_why w = MDP_GOAL_HOLD;

	cur = clamp(c, cur);
	next = cur;
	if (in->kind == MDP_GOAL_IDLE) {
		next = c->ceiling;
		w = MDP_GOAL_FULL;
	} else if (in->kind == MDP_GOAL_LATENCY && in->latency_us > goal_us) {
		next = clamp(c, cur / 2);
		w = MDP_GOAL_BACKOFF;
	} else if (in->kind == MDP_GOAL_LATENCY &&
		   in->latency_us * 1000 < goal_us * MDP_GOAL_RAISE_PERMILLE) {
		next = c->ceiling - cur > step(c) ? cur + step(c) : c->ceiling;
		w = MDP_GOAL_RAISE;
	}
	if (why)
		*why = next == cur ? MDP_GOAL_HOLD : w;
	return next;
}
