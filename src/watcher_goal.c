/* watcher_goal: a profile's goal, followed by the watcher (watcher_goal.h). */
#include "watcher_goal.h"
#include "grow.h"
#include "txn.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct mdp_wgoal_arr *mdp_wgoal_find(const struct mdp_wgoal *g, const char *name)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->v[i].name, name))
			return &g->v[i];
	return NULL;
}

void mdp_wgoal_free(struct mdp_wgoal *g)
{
	free(g->v);
	g->v = NULL;
	g->n = 0;
}

/* A value's number as the kernel applies it: "system" follows the sysctl's floor. */
static uint64_t sysctl_floor(const struct mdp_root *r, const struct mdp_system *s)
{
	struct mdp_value v;

	if (!mdp_txn_floor(r, MDP_T_SPEED_LIMIT_MIN, "", &v) && v.kind == MDP_V_NUM)
		return v.num;
	return s->global[MDP_T_SPEED_LIMIT_MIN].present ? s->global[MDP_T_SPEED_LIMIT_MIN].val.num
							: 0;
}

/* What the array's minimum goes back to when the layer goes (watcher_goal.h). */
static uint64_t floor_of(const struct mdp_root *r, const struct mdp_system *s,
			 const struct mdp_array *a)
{
	struct mdp_value v = a->cur[MDP_T_SYNC_SPEED_MIN].val;

	if (mdp_txn_floor(r, MDP_T_SYNC_SPEED_MIN, a->name, &v) == -ENOENT)
		v = a->cur[MDP_T_SYNC_SPEED_MIN].val; /* never changed: its own */
	return v.kind == MDP_V_NUM ? v.num : sysctl_floor(r, s);
}

static struct mdp_wgoal_arr *arr_take(struct mdp_wgoal *g, const struct mdp_root *r,
				      const struct mdp_system *s, const struct mdp_array *a)
{
	struct mdp_wgoal_arr *e = (struct mdp_wgoal_arr *)mdp_wgoal_find(g, a->name);

	if (e || !(e = mdp_push(&g->v, &g->n, sizeof(*e))))
		return e;
	snprintf(e->name, sizeof(e->name), "%s", a->name);
	mdp_goal_init(&e->ctl, g->goal_ms, floor_of(r, s, a), a->cur[MDP_T_SYNC_SPEED_MIN].val.num);
	e->cur = a->cur[MDP_T_SYNC_SPEED_MIN].val.num;
	mdp_iostat_read(r, a, &e->last);
	return e;
}

/* Arrays not seen this look (no longer running, gone) leave; their state with them. */
static void drop_unseen(struct mdp_wgoal *g)
{
	size_t k = 0;

	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].seen)
			g->v[k++] = g->v[i];
	g->n = k;
}

static void say_move(const struct mdp_wgoal *g, const struct mdp_wgoal_arr *e,
		     enum mdp_goal_why why, struct mdp_wgoal_move *m)
{
	uint64_t us = e->in.latency_us;
	char lat[64], src[96];

	snprintf(lat, sizeof(lat), "%" PRIu64 ".%" PRIu64 " ms", us / 1000, us % 1000 / 100);
	if (e->src == MDP_IO_MD)
		snprintf(src, sizeof(src), "from %s's own counters", e->name);
	else
		snprintf(src, sizeof(src), "from its member disks' counters, the sync's included");
	if (why == MDP_GOAL_FULL)
		snprintf(m->line, sizeof(m->line),
			 "%s: minimum %" PRIu64 " -> %" PRIu64 " KiB/s (no foreground I/O)",
			 e->name, m->from, m->to);
	else
		snprintf(m->line, sizeof(m->line),
			 "%s: minimum %" PRIu64 " -> %" PRIu64
			 " KiB/s (latency %s %s goal %u ms, %s)",
			 e->name, m->from, m->to, lat, why == MDP_GOAL_BACKOFF ? ">" : "< 0.8 x",
			 g->goal_ms, src);
}

/* One array's look: its latency since the last, and a move when the controller asks one. */
static int look_one(struct mdp_wgoal *g, const struct mdp_root *r, const struct mdp_system *s,
		    const struct mdp_array *a, struct mdp_wgoal_move **moves, size_t *n)
{
	struct mdp_wgoal_arr *e;
	struct mdp_io_snap now;
	struct mdp_wgoal_move *m;
	enum mdp_goal_why why;
	size_t had = g->n;
	uint64_t next;

	if (!(e = arr_take(g, r, s, a)))
		return -ENOMEM;
	e->seen = true;
	if (g->n > had)
		return 0; /* its first look: counters to measure from */
	mdp_iostat_read(r, a, &now);
	mdp_iostat_latency(&e->last, &now, &e->md_timed, &e->in, &e->src);
	e->last = now;
	e->cur = a->cur[MDP_T_SYNC_SPEED_MIN].val.num;
	next = mdp_goal_next(&e->ctl, e->cur, &e->in, &why);
	if (next == e->cur)
		return 0; /* "N (system)" at N too: md already applies N */
	if (!(m = mdp_push(moves, n, sizeof(*m))))
		return -ENOMEM;
	snprintf(m->name, sizeof(m->name), "%s", a->name);
	m->from = e->cur;
	m->to = next;
	say_move(g, e, why, m);
	return 0;
}

int mdp_wgoal_look(struct mdp_wgoal *g, int64_t since, const struct mdp_root *r,
		   const struct mdp_system *s, const bool *on, struct mdp_wgoal_move **moves,
		   size_t *n)
{
	int err = 0;

	*moves = NULL;
	*n = 0;
	if (!g->goal_ms)
		return 0;
	if (since != g->since) {
		mdp_wgoal_free(g);
		g->since = since;
	}
	for (size_t i = 0; i < g->n; i++)
		g->v[i].seen = false;
	for (size_t i = 0; i < s->n_arrays && !err; i++)
		if (on[i] && s->arrays[i].cur[MDP_T_SYNC_SPEED_MIN].present)
			err = look_one(g, r, s, &s->arrays[i], moves, n);
	drop_unseen(g);
	return err;
}

void mdp_wgoal_moved(struct mdp_wgoal *g, const struct mdp_wgoal_move *m)
{
	struct mdp_wgoal_arr *e = (struct mdp_wgoal_arr *)mdp_wgoal_find(g, m->name);

	if (e)
		e->cur = m->to;
}
