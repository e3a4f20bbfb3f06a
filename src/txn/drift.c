/* drift: the live system against what the active profile applied (drift.h). */
#include "drift.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The live value of (t, dev) as discovery read it; NULL when there is none. */
static const struct mdp_cur *live(const struct mdp_system *s, enum mdp_tunable t, const char *dev)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	const struct mdp_array *a;
	const struct mdp_disk *k;

	if (ti->scope == MDP_SCOPE_GLOBAL)
		return &s->global[t];
	if (ti->scope == MDP_SCOPE_DISK)
		return (k = mdp_system_disk(s, dev)) ? &k->read_ahead : NULL;
	return (a = mdp_system_array(s, dev)) ? &a->cur[t] : NULL;
}

/* Stripe cache memory of a drifted array, as plan shows it: 4 KiB x disks x size. */
static void add_mem(struct mdp_plan *pl, const struct mdp_system *s, const struct mdp_change *c)
{
	const struct mdp_array *a = mdp_system_array(s, c->dev);
	struct mdp_plan_mem *m;
	int disks;

	if (c->t != MDP_T_STRIPE_CACHE_SIZE || !a || !c->cur.present)
		return;
	/* Mid-reshape md holds stripes for the larger of the two layouts. */
	disks = a->prev_raid_disks > a->raid_disks ? a->prev_raid_disks : a->raid_disks;
	if (disks <= 0)
		return;
	m = &pl->mem[pl->n_mem++];
	snprintf(m->dev, sizeof(m->dev), "%s", c->dev);
	m->disks = disks;
	m->now = 4096 * (uint64_t)disks * c->cur.val.num;
	m->after = 4096 * (uint64_t)disks * c->want.num;
	pl->mem_now += m->now;
	pl->mem_after += m->after;
}

int mdp_drift_plan(const struct mdp_journal *j, const struct mdp_system *s, struct mdp_plan *out)
{
	struct mdp_plan pl = {0};

	if (!j->n_set)
		return -ENODATA;
	if (!(pl.v = calloc(j->n_set, sizeof(*pl.v))) ||
	    !(pl.mem = calloc(j->n_set, sizeof(*pl.mem)))) {
		mdp_plan_free(&pl);
		return -ENOMEM;
	}
	for (size_t i = 0; i < j->n_set; i++) {
		const struct mdp_jset *st = &j->set[i];
		const struct mdp_cur *cur = live(s, st->t, st->dev);
		struct mdp_change *c = &pl.v[pl.n++];
		c->t = st->t;
		snprintf(c->dev, sizeof(c->dev), "%s", st->dev);
		if (mdp_tunable_path(st->t, st->dev, c->path, sizeof(c->path)))
			c->path[0] = '\0';
		if (cur)
			c->cur = *cur;
		c->want = st->want;
		snprintf(c->reason, sizeof(c->reason), "applied by %.80s", j->profile);
		/* An array or disk that is gone took its values with it: that is no drift. */
		c->pending = cur && (!c->cur.present || !mdp_value_eq(&c->cur.val, &c->want));
		add_mem(&pl, s, c);
	}
	*out = pl;
	return 0;
}
