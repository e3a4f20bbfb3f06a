/* watcher_goal: a profile's goal, followed by the watcher (watcher_goal.h). */
#include "watcher_goal.h"
#include "mdp_base.h"
#include "mdp_profile.h"
#include "mdp_txn.h"
#include "watcher_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOAL_HEADER "mdprofile-goal 1" /* the file's first line: its format */

const struct mdp_wgoal_arr *mdp_wgoal_find(const struct mdp_wgoal *g, const char *name)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->v[i].name, name))
			return &g->v[i];
	return NULL;
}

void mdp_wgoal_spans_clear(struct mdp_wgoal *g)
{
	free(g->sp);
	g->sp = NULL;
	g->n_sp = 0;
}

/* What an array's state holds beyond itself. */
static void arr_release(struct mdp_wgoal_arr *e)
{
	mdp_iostat_timed_release(&e->held);
	free(e->peers);
	e->peers = NULL;
	e->n_peers = 0;
}

void mdp_wgoal_free(struct mdp_wgoal *g)
{
	for (size_t i = 0; i < g->n; i++)
		arr_release(&g->v[i]);
	free(g->v);
	g->v = NULL;
	g->n = 0;
	mdp_wgoal_spans_clear(g);
	g->have_at = false;
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
	if (a->cur[MDP_T_SYNC_SPEED_MAX].present) /* what md shows, "(system)" too */
		mdp_goal_init_max(&e->ctl, a->cur[MDP_T_SYNC_SPEED_MAX].val.num);
	e->lim.min = a->cur[MDP_T_SYNC_SPEED_MIN].val.num;
	e->lim.max =
	    a->cur[MDP_T_SYNC_SPEED_MAX].present ? a->cur[MDP_T_SYNC_SPEED_MAX].val.num : 0;
	e->seed = mdp_mono_ns() ^ (uintptr_t)e;
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
		else
			arr_release(&g->v[i]);
	g->n = k;
}

/*
 * Where e's latency came from, for its line: "from md3's own counters",
 * "from <the source's words>", "on md0 (shares sda, sdb)" for a peer's.
 */
static void src_words(const struct mdp_wgoal *g, const struct mdp_wgoal_arr *e, char *buf,
		      size_t len)
{
	char shares[2 * MDP_IO_SHARES_MAX];

	if (!e->on[0] && e->src == MDP_IO_TIMED && g->pct) {
		snprintf(buf, len, "p%u of the watcher's last %u timed reads", g->pct, e->win.n);
	} else if (e->on[0]) {
		mdp_iostat_shares_text(e->shares, shares, sizeof(shares));
		snprintf(buf, len, "on %.31s (shares %.48s)", e->on, shares);
	} else if (e->src == MDP_IO_MD) {
		snprintf(buf, len, "from %s's own counters", e->name);
	} else {
		snprintf(buf, len, "from %s", mdp_io_source_text(e->src));
	}
}

/* "42.0 ms", and where it came from (src_words). */
static void lat_text(const struct mdp_wgoal *g, const struct mdp_wgoal_arr *e, char *lat, size_t ll,
		     char *src, size_t sl)
{
	uint64_t us = e->in.latency_us;

	snprintf(lat, ll, "%" PRIu64 ".%" PRIu64 " ms", us / 1000, us % 1000 / 100);
	src_words(g, e, src, sl);
}

static void say_move(const struct mdp_wgoal *g, const struct mdp_wgoal_arr *e,
		     enum mdp_goal_why why, struct mdp_wgoal_move *m)
{
	const char *lim = m->t == MDP_T_SYNC_SPEED_MAX ? "maximum" : "minimum";
	char lat[64], src[96];

	lat_text(g, e, lat, sizeof(lat), src, sizeof(src));
	if (why == MDP_GOAL_FULL)
		snprintf(m->line, sizeof(m->line),
			 "%s: %s %" PRIu64 " -> %" PRIu64 " KiB/s (no foreground I/O)", e->name,
			 lim, m->from, m->to);
	else
		snprintf(m->line, sizeof(m->line),
			 "%s: %s %" PRIu64 " -> %" PRIu64 " KiB/s (latency %s %s goal %u ms, %s)",
			 e->name, lim, m->from, m->to, lat,
			 why == MDP_GOAL_BACKOFF ? ">" : "< 0.8 x", g->goal_ms, src);
}

/* The goal missed with both limits at their floors: said once an episode. */
static void say_spent(const struct mdp_wgoal *g, const struct mdp_wgoal_arr *e,
		      struct mdp_wgoal_move *m)
{
	bool steered = e->ctl.max_ceiling > e->ctl.max_floor;
	char lat[64], src[96], max[64] = "";

	lat_text(g, e, lat, sizeof(lat), src, sizeof(src));
	if (steered && e->lim.max <= e->ctl.max_floor)
		snprintf(max, sizeof(max), " and maximum %" PRIu64 " KiB/s", e->lim.max);
	snprintf(
	    m->line, sizeof(m->line),
	    "%s: goal %u ms missed (latency %s, %s) with nothing left to give: minimum %" PRIu64
	    " KiB/s%s at the goal's floor%s",
	    e->name, g->goal_ms, lat, src, e->lim.min, max,
	    steered && !max[0] ? " (the maximum moves only on the array's own counters)" : "");
}

/*
 * The last look's own reads went through the array: out of its count, so
 * that they are not foreground I/O (at most what the count grew by).
 */
static void take_out_own(struct mdp_wgoal_arr *e, const struct mdp_io_snap *now)
{
	if (e->timed && now->have_md && e->last.have_md && now->md.ios >= e->last.md.ios) {
		uint64_t grew = now->md.ios - e->last.md.ios;
		e->last.md.ios += grew < e->timed ? grew : e->timed;
	}
	e->timed = 0;
}

/*
 * Where the members stand in for md: the watcher's own timed reads too,
 * the larger of the two the sample (iostat.h). A device that cannot be
 * read (a fixture tree, an error) leaves the members' figure; so do reads
 * still waiting from an earlier look. The open and each read may take
 * twice the goal and a second more before the watcher goes on without
 * them: they are then over the goal whatever they take.
 */
static void time_reads(struct mdp_wgoal *g, struct mdp_wgoal_arr *e, const struct mdp_root *r,
		       const struct mdp_array *a)
{
	uint64_t us[MDP_IOSTAT_TIMED_READS], median;

	if (mdp_iostat_timed_reads(r, a->name, a->size_kib, &e->seed, g->goal_ms * 2 + 1000,
				   g->t_open, g->t_read, &e->held, us))
		return;
	e->timed = MDP_IOSTAT_TIMED_READS;
	for (size_t i = 0; i < MDP_IOSTAT_TIMED_READS; i++)
		mdp_iostat_window_add(&e->win, us[i]);
	median = us[MDP_IOSTAT_TIMED_READS / 2];
	if (!g->pct && median >= e->in.latency_us) {
		e->in.latency_us = median;
		e->src = MDP_IO_TIMED;
	}
}

/* A move of limit t from the controller's answer, said; "N (system)" at N is none. */
static int push_move(const struct mdp_wgoal *g, const struct mdp_wgoal_arr *e,
		     enum mdp_goal_why why, enum mdp_tunable t, uint64_t from, uint64_t to,
		     struct mdp_wgoal_move **moves, size_t *n)
{
	struct mdp_wgoal_move *m;

	if (from == to && why != MDP_GOAL_SPENT)
		return 0;
	if (!(m = mdp_push(moves, n, sizeof(*m))))
		return -ENOMEM;
	snprintf(m->name, sizeof(m->name), "%s", e->name);
	m->write = why != MDP_GOAL_SPENT;
	m->t = t;
	m->from = from;
	m->to = to;
	if (m->write)
		say_move(g, e, why, m);
	else
		say_spent(g, e, m);
	return 0;
}

/* The span's figures at this look: the limits it saw, whether it was over the goal. */
static int span_note(struct mdp_wgoal *g, const struct mdp_wgoal_arr *e,
		     const struct mdp_goal_lim *l)
{
	struct mdp_wgoal_span *p = NULL;

	for (size_t i = 0; i < g->n_sp && !p; i++)
		if (!strcmp(g->sp[i].name, e->name))
			p = &g->sp[i];
	if (!p) {
		if (!(p = mdp_push(&g->sp, &g->n_sp, sizeof(*p))))
			return -ENOMEM;
		snprintf(p->name, sizeof(p->name), "%s", e->name);
		p->lo = p->hi = *l;
	}
	p->lo.min = l->min < p->lo.min ? l->min : p->lo.min;
	p->hi.min = l->min > p->hi.min ? l->min : p->hi.min;
	p->lo.max = l->max < p->lo.max ? l->max : p->lo.max;
	p->hi.max = l->max > p->hi.max ? l->max : p->hi.max;
	p->max = e->ctl.max_ceiling > e->ctl.max_floor;
	p->over = e->in.kind == MDP_GOAL_LATENCY && e->in.latency_us > (uint64_t)g->goal_ms * 1000;
	return 0;
}

/* The controller's next limits for e, and the moves (or the missed goal's line) they make. */
static int decide(struct mdp_wgoal *g, struct mdp_wgoal_arr *e, const struct mdp_array *a,
		  struct mdp_wgoal_move **moves, size_t *n)
{
	struct mdp_goal_lim next;
	enum mdp_goal_why why;
	int err;

	e->lim.min = a->cur[MDP_T_SYNC_SPEED_MIN].val.num;
	e->lim.max =
	    a->cur[MDP_T_SYNC_SPEED_MAX].present ? a->cur[MDP_T_SYNC_SPEED_MAX].val.num : 0;
	/*
	 * The maximum moves on counters that carry none of the sync's own requests: the
	 * array's own, or a peer's (another array's, or a partition no array uses: md's
	 * sync does not go through them); never on the members' or the watcher's few reads.
	 */
	e->in.proxy = !e->on[0] && e->src != MDP_IO_MD;
	why = mdp_goal_next(&e->ctl, &e->lim, &e->in, &next);
	if (e->in.kind != MDP_GOAL_UNKNOWN)
		e->spent = why == MDP_GOAL_SPENT;
	if ((err = span_note(g, e, &e->lim)) || (err = span_note(g, e, &next)))
		return err;
	/* said once an episode: until a limit moves, noise around the goal says it no more */
	if (why == MDP_GOAL_SPENT) {
		if (e->said)
			return 0;
		e->said = true;
		return push_move(g, e, why, MDP_T_SYNC_SPEED_MIN, 0, 0, moves, n);
	}
	if (why != MDP_GOAL_HOLD)
		e->said = false;
	if ((err = push_move(g, e, why, MDP_T_SYNC_SPEED_MAX, e->lim.max, next.max, moves, n)))
		return err;
	return push_move(g, e, why, MDP_T_SYNC_SPEED_MIN, e->lim.min, next.min, moves, n);
}

/*
 * A percentile goal: the array's own latency is its timed reads'
 * percentile (watcher_goal.h); a look with no request through it empties
 * the window; without reads the mean stays.
 */
static void own_tail(const struct mdp_wgoal *g, struct mdp_wgoal_arr *e)
{
	if (!g->pct)
		return;
	if (e->in.kind == MDP_GOAL_IDLE) {
		e->win = (struct mdp_io_window){0};
		e->pct_us = 0;
		return;
	}
	if (!e->win.n)
		return;
	e->pct_us = mdp_iostat_window_pct(&e->win, g->pct);
	e->in.kind = MDP_GOAL_LATENCY;
	e->in.latency_us = e->pct_us;
	e->src = MDP_IO_TIMED;
}

/* The peer named as p in e at the last look, NULL when new. */
static struct mdp_wgoal_peer *peer_find(struct mdp_wgoal_arr *e, const struct mdp_io_peer *p)
{
	for (size_t i = 0; i < e->n_peers; i++)
		if (e->peers[i].p.kind == p->kind && !strcmp(e->peers[i].p.name, p->name))
			return &e->peers[i];
	return NULL;
}

/* A peer's sample in e's place when it measured a latency above e's (or e has none). */
static void worst_of(struct mdp_wgoal_arr *e, const struct mdp_wgoal_peer *p,
		     const struct mdp_goal_sample *in, enum mdp_io_source src)
{
	if (in->kind != MDP_GOAL_LATENCY ||
	    (e->in.kind == MDP_GOAL_LATENCY && in->latency_us <= e->in.latency_us))
		return;
	e->in.kind = MDP_GOAL_LATENCY;
	e->in.latency_us = in->latency_us;
	e->src = src;
	snprintf(e->on, sizeof(e->on), "%s", p->p.name);
	snprintf(e->shares, sizeof(e->shares), "%s", p->p.shares);
}

/*
 * The peers of a (watcher_goal.h), found again at each look: each one
 * known from the last look measured since, the slowest in e's sample when
 * it is slower than the array's own. 0 or -ENOMEM.
 */
static int look_peers(struct mdp_wgoal_arr *e, const struct mdp_root *r, const struct mdp_system *s,
		      const struct mdp_array *a)
{
	struct mdp_wgoal_peer *v;
	struct mdp_io_peer *pl;
	size_t np;

	if (mdp_iostat_peers(r, s, a, &pl, &np))
		return -ENOMEM;
	if (!(v = calloc(np + 1, sizeof(*v)))) {
		free(pl);
		return -ENOMEM;
	}
	for (size_t i = 0; i < np; i++) {
		struct mdp_wgoal_peer *old = peer_find(e, &pl[i]);
		v[i].p = pl[i];
		mdp_iostat_read_peer(r, s, &pl[i], &v[i].last);
		if (old) {
			struct mdp_goal_sample in;
			enum mdp_io_source src;
			v[i].md_timed = old->md_timed;
			mdp_iostat_peer_latency(&pl[i], &old->last, &v[i].last, &v[i].md_timed, &in,
						&src);
			worst_of(e, &v[i], &in, src);
		}
	}
	free(pl);
	free(e->peers);
	e->peers = v;
	e->n_peers = np;
	return 0;
}

/* One array's look: its latency since the last, and a move when the controller asks one. */
static int look_one(struct mdp_wgoal *g, const struct mdp_root *r, const struct mdp_system *s,
		    const struct mdp_array *a, struct mdp_wgoal_move **moves, size_t *n)
{
	struct mdp_wgoal_arr *e;
	struct mdp_io_snap now;
	size_t had = g->n;

	if (!(e = arr_take(g, r, s, a)))
		return -ENOMEM;
	e->seen = true;
	if (g->n > had)
		return look_peers(e, r, s, a); /* its first look: counters to measure from */
	mdp_iostat_read(r, a, &now);
	take_out_own(e, &now);
	mdp_iostat_latency(&e->last, &now, &e->md_timed, &e->in, &e->src);
	e->on[0] = e->shares[0] = '\0';
	if (e->src == MDP_IO_MEMBERS || (g->pct && e->in.kind != MDP_GOAL_IDLE))
		time_reads(g, e, r, a);
	own_tail(g, e);
	if (look_peers(e, r, s, a))
		return -ENOMEM;
	e->in.sync_kib = a->sync_speed; /* what md compares its minimum with */
	e->last = now;
	return decide(g, e, a, moves, n);
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

	if (!e || !m->write)
		return;
	if (m->t == MDP_T_SYNC_SPEED_MAX)
		e->lim.max = m->to;
	else
		e->lim.min = m->to;
}

void mdp_wgoal_tally(struct mdp_wgoal *g, double now)
{
	double dt = g->have_at && now > g->at ? now - g->at : 0;

	g->at = now;
	g->have_at = true;
	for (size_t i = 0; i < g->n_sp; i++)
		if (mdp_wgoal_find(g, g->sp[i].name)) {
			g->sp[i].steered_s += dt;
			g->sp[i].over_s += g->sp[i].over ? dt : 0;
		}
}

/* A move written as the watcher writes it; its line, or why it failed, to say. */
static void steer_one(struct mdp_wgoal *g, struct mdp_txn *tx, const struct mdp_wgoal_move *m,
		      void (*say)(void *arg, const char *line), void *arg)
{
	struct mdp_value v = {MDP_V_NUM, m->to};
	char buf[160];
	int err = 0;

	if (m->write && !(err = mdp_txn_steer(tx, m->t, m->name, &v)))
		mdp_wgoal_moved(g, m);
	mdp_diags_free(tx->d);
	mdp_diags_init(tx->d);
	if (!say)
		return;
	if (!err) {
		say(arg, m->line);
		return;
	}
	snprintf(buf, sizeof(buf), "%s: %s %" PRIu64 " -> %" PRIu64 " KiB/s failed: %s", m->name,
		 m->t == MDP_T_SYNC_SPEED_MAX ? "maximum" : "minimum", m->from, m->to,
		 strerror(-err));
	say(arg, buf);
}

int mdp_wgoal_steer(struct mdp_wgoal *g, int64_t since, struct mdp_txn *tx,
		    const struct mdp_root *r, const struct mdp_system *s,
		    void (*say)(void *arg, const char *line), void *arg)
{
	struct mdp_wgoal_move *m = NULL;
	size_t n = 0;
	bool *on;
	int err;

	if (!(on = calloc(s->n_arrays + 1, sizeof(*on))))
		return -ENOMEM;
	for (size_t i = 0; i < s->n_arrays; i++)
		on[i] = s->arrays[i].sync_action[0] && strcmp(s->arrays[i].sync_action, "idle");
	if (!(err = mdp_wgoal_look(g, since, r, s, on, &m, &n)))
		for (size_t i = 0; i < n; i++)
			steer_one(g, tx, &m[i], say, arg);
	free(m);
	free(on);
	return err;
}

/* ---- what status shows ---------------------------------------------------------- */

static void wgoal_put(FILE *f, const void *arg)
{
	const struct mdp_wgoal *g = arg;

	fprintf(f, "%s\ngoal %u\n", GOAL_HEADER, g->goal_ms);
	if (g->pct)
		fprintf(f, "percentile %u\n", g->pct);
	for (size_t i = 0; i < g->n && i < MDP_WGOAL_VIEW_MAX; i++) {
		const struct mdp_wgoal_arr *e = &g->v[i];
		fprintf(f, "array %s %" PRIu64, e->name, e->lim.min);
		if (e->in.kind == MDP_GOAL_LATENCY)
			fprintf(f, " latency %" PRIu64 " %s", e->in.latency_us,
				mdp_io_source_key(e->src));
		else
			fputs(e->in.kind == MDP_GOAL_IDLE ? " idle" : " unknown", f);
		if (e->ctl.max_ceiling > e->ctl.max_floor)
			fprintf(f, " max %" PRIu64, e->lim.max);
		fputs(e->spent ? " spent\n" : "\n", f);
		if (e->in.kind == MDP_GOAL_LATENCY && e->on[0])
			fprintf(f, "on %s %s %s\n", e->name, e->on, e->shares);
		if (g->pct && e->win.n)
			fprintf(f, "tail %s %" PRIu64 " %u\n", e->name, e->pct_us, e->win.n);
	}
}

int mdp_wgoal_store(const struct mdp_root *r, const struct mdp_wgoal *g)
{
	return mdp_state_store(r, MDP_WATCHER_GOAL, wgoal_put, g);
}

/* What may follow an array's measurement: "max 200000", "spent". */
static int view_rest(char **save, uint64_t *max, bool *spent)
{
	char *t, *num;

	while ((t = strtok_r(NULL, " ", save)))
		if (!strcmp(t, "spent") && !*spent)
			*spent = true;
		else if (strcmp(t, "max") || *max || !(num = strtok_r(NULL, " ", save)) ||
			 mdp_num_parse(num, 1, UINT64_MAX, max))
			return -EINVAL;
	return 0;
}

/* Are shares disk names separated by commas ("sda,sdb")? */
static bool shares_ok(const char *shares)
{
	char buf[MDP_IO_SHARES_MAX], *save = NULL;
	size_t n = 0;

	if (strlen(shares) >= sizeof(buf) || shares[0] == ',' || strstr(shares, ",,"))
		return false;
	snprintf(buf, sizeof(buf), "%s", shares);
	for (char *d = strtok_r(buf, ",", &save); d; d = strtok_r(NULL, ",", &save), n++)
		if (!mdp_ident_dev_ok(d))
			return false;
	return n > 0 && shares[strlen(shares) - 1] != ',';
}

/* "on md2 md0 sda,sdb": the latency of the array just read is md0's. */
static int view_on(struct mdp_wgoal_view *v, char *line)
{
	char *save = NULL, *name, *on, *shares;

	name = strtok_r(line + 3, " ", &save);
	on = strtok_r(NULL, " ", &save);
	shares = strtok_r(NULL, " ", &save);
	if (!v->n || !name || strcmp(name, v->v[v->n - 1].name) ||
	    v->v[v->n - 1].in.kind != MDP_GOAL_LATENCY || !on || !mdp_ident_dev_ok(on) || !shares ||
	    !shares_ok(shares) || strtok_r(NULL, " ", &save))
		return -EINVAL;
	snprintf(v->v[v->n - 1].on, sizeof(v->v[v->n - 1].on), "%s", on);
	snprintf(v->v[v->n - 1].shares, sizeof(v->v[v->n - 1].shares), "%s", shares);
	return 0;
}

/* "tail md2 51000 17": the array just read, its reads' percentile over 17 of them. */
static int view_tail(struct mdp_wgoal_view *v, char *line)
{
	char *save = NULL, *name, *us, *n;
	uint64_t reads;

	name = strtok_r(line + 5, " ", &save);
	us = strtok_r(NULL, " ", &save);
	n = strtok_r(NULL, " ", &save);
	if (!v->pct || !v->n || !name || strcmp(name, v->v[v->n - 1].name) || !us || !n ||
	    mdp_num_parse(us, 0, UINT64_MAX, &v->v[v->n - 1].pct_us) ||
	    mdp_num_parse(n, 1, MDP_IOSTAT_WINDOW, &reads) || strtok_r(NULL, " ", &save))
		return -EINVAL;
	v->v[v->n - 1].pct_reads = (unsigned)reads;
	return 0;
}

/* "percentile 95", after the goal's line. */
static int view_pct(struct mdp_wgoal_view *v, const char *p)
{
	uint64_t pct;

	if (!v->goal_ms || v->n ||
	    mdp_num_parse(p, MDP_GOAL_PERCENTILE_MIN, MDP_GOAL_PERCENTILE_MAX, &pct))
		return -EINVAL;
	v->pct = (unsigned)pct;
	return 0;
}

/*
 * "array md2 150000 latency 42000 md max 200000 spent", "array md3 300000
 * idle"; "goal 30"; "percentile 95"; "on ..."; "tail ..."
 */
static int view_line(void *ctx, char *line)
{
	struct mdp_wgoal_view *v = ctx;
	char *save = NULL, *name, *min, *kind, *us = NULL, *src = NULL;
	uint64_t ms;

	if (!strncmp(line, "goal ", 5))
		return mdp_num_parse(line + 5, 1, MDP_GOAL_LATENCY_MAX_MS, &ms)
			   ? -EINVAL
			   : (v->goal_ms = (unsigned)ms, 0);
	if (!strncmp(line, "on ", 3))
		return view_on(v, line);
	if (!strncmp(line, "tail ", 5))
		return view_tail(v, line);
	if (!strncmp(line, "percentile ", 11))
		return view_pct(v, line + 11);
	if (strncmp(line, "array ", 6))
		return -EINVAL;
	name = strtok_r(line + 6, " ", &save);
	min = strtok_r(NULL, " ", &save);
	kind = strtok_r(NULL, " ", &save);
	if (kind && !strcmp(kind, "latency")) {
		us = strtok_r(NULL, " ", &save);
		src = strtok_r(NULL, " ", &save);
	}
	if (v->n >= MDP_WGOAL_VIEW_MAX || !name || !mdp_ident_dev_ok(name) || !min || !kind ||
	    mdp_num_parse(min, 0, UINT64_MAX, &v->v[v->n].min))
		return -EINVAL;
	snprintf(v->v[v->n].name, sizeof(v->v[v->n].name), "%s", name);
	v->v[v->n].src = MDP_IO_NONE;
	if (!strcmp(kind, "idle") || !strcmp(kind, "unknown")) {
		v->v[v->n].in.kind = kind[0] == 'i' ? MDP_GOAL_IDLE : MDP_GOAL_UNKNOWN;
	} else if (!strcmp(kind, "latency") && us && src &&
		   !mdp_num_parse(us, 0, UINT64_MAX, &v->v[v->n].in.latency_us) &&
		   mdp_io_source_of(src) != MDP_IO_NONE) {
		v->v[v->n].in.kind = MDP_GOAL_LATENCY;
		v->v[v->n].src = mdp_io_source_of(src);
	} else {
		return -EINVAL;
	}
	if (view_rest(&save, &v->v[v->n].max, &v->v[v->n].spent))
		return -EINVAL;
	v->n++;
	return 0;
}

/*
 * The file's most: MDP_WGOAL_VIEW_MAX arrays, each with its line ("array",
 * its name, two numbers, a source, the maximum, "spent"), the peer's ("on", two names and the
 * shared disks) and the reads' ("tail"), beside the goal's two.
 */
#define GOAL_FILE_MAX                                                                              \
	(64 + MDP_WGOAL_VIEW_MAX * (3 * MDP_NAME_MAX + MDP_IO_SHARES_MAX + 5 * 21 + 64))

int mdp_wgoal_load(const struct mdp_root *r, struct mdp_wgoal_view *v)
{
	char *buf = malloc(GOAL_FILE_MAX);
	int err;

	memset(v, 0, sizeof(*v));
	if (!buf)
		return -ENOMEM;
	err = mdp_state_load(r, MDP_WATCHER_GOAL, GOAL_HEADER, buf, GOAL_FILE_MAX, view_line, v);
	free(buf);
	return err ? err : v->goal_ms ? 0 : -EINVAL;
}

int mdp_wgoal_parse(char *buf, struct mdp_wgoal_view *v)
{
	int err;

	memset(v, 0, sizeof(*v));
	err = mdp_state_parse(buf, GOAL_HEADER, view_line, v);
	return err ? err : v->goal_ms ? 0 : -EINVAL;
}

int mdp_wgoal_active(const struct mdp_root *r, struct mdp_wgoal_view *v)
{
	struct mdp_wstate w;

	memset(v, 0, sizeof(*v));
	if (mdp_watcher_probe(r) != 1 || mdp_wstate_load(r, &w) || strcmp(w.state, "engaged"))
		return -ENOENT;
	return mdp_wgoal_load(r, v);
}
