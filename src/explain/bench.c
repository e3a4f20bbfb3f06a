/*
 * bench: the measurement runs of 'mdprofile bench' (bench.h).
 *
 * md's speed is sampled from sync_speed once a second, the discovery
 * skipping what it does not need (uuids, members), so a sample costs a few
 * sysfs reads. A profile's row starts after a short settle: md takes up new
 * limits at once, but the first second after a write would still be the
 * old speed's.
 */
#include "bench.h"
#include "explain_int.h"
#include "mdp_watcher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>

struct mdp_bench_stats mdp_bench_stats(const struct mdp_vb *b, bool read)
{
	struct mdp_bench_stats s = {0};

	for (unsigned i = 0; i < b->n; i++) {
		uint64_t ns = read ? b->v[i].read_ns : b->v[i].write_ns;
		double v = mdp_vb_mbps(b->size, ns);
		s.mean += v / b->n;
		s.min = i == 0 || v < s.min ? v : s.min;
		s.max = v > s.max ? v : s.max;
	}
	s.spread_pct = s.mean > 0 ? (s.max - s.min) * 100.0 / s.mean : 0;
	return s;
}

void mdp_bench_sample(const struct mdp_root *r, struct mdp_bench_window *w)
{
	struct mdp_system s = {0};
	struct mdp_diags d;
	size_t k;

	mdp_diags_init(&d);
	if (!mdp_discover_some(r, MDP_SKIP_UUID | MDP_SKIP_MEMBERS, &s, &d)) {
		for (size_t i = 0; i < s.n_arrays; i++) {
			const struct mdp_array *a = &s.arrays[i];
			if (!a->sync_action[0] || !strcmp(a->sync_action, "idle"))
				continue;
			for (k = 0; k < w->n && strcmp(w->v[k].array, a->name); k++)
				;
			if (k == w->n && w->n == sizeof(w->v) / sizeof(w->v[0]))
				continue;
			if (k == w->n) {
				w->n++;
				snprintf(w->v[k].array, sizeof(w->v[k].array), "%s", a->name);
				snprintf(w->v[k].action, sizeof(w->v[k].action), "%s",
					 a->sync_action);
			}
			w->v[k].sum_kib_s += a->sync_speed;
			w->v[k].n++;
		}
	}
	mdp_diags_free(&d);
	mdp_system_free(&s);
}

uint64_t mdp_bench_sync_kib_s(const struct mdp_bench_sync *s)
{
	return s->n ? s->sum_kib_s / s->n : 0;
}

uint64_t mdp_bench_lat_us(const struct mdp_bench_sync *s)
{
	return s->lat_n ? s->lat_sum_us / s->lat_n : 0;
}

uint64_t mdp_bench_pct_us(const struct mdp_bench_sync *s)
{
	return s->pct_n ? s->pct_sum_us / s->pct_n : 0;
}

/*
 * A goal row steered (mdp_wgoal_steer): its state from the apply on, and where a look's
 * measurements go (w: the window's; NULL while settling, when nothing is counted).
 */
struct steer {
	const struct mdp_bench *b;
	struct mdp_wgoal g;
	int64_t since;
	struct mdp_bench_window *w;
	uint64_t at_ns; /* the last look, monotonic */
	struct mdp_vb_progress user;
};

/* What one look measured, into the window's row of each array it steered. */
static void steer_count(struct steer *st)
{
	for (size_t i = 0; st->w && i < st->g.n; i++) {
		const struct mdp_wgoal_arr *e = &st->g.v[i];
		struct mdp_bench_sync *y = NULL;
		for (size_t k = 0; k < st->w->n && !y; k++)
			y = strcmp(st->w->v[k].array, e->name) ? NULL : &st->w->v[k];
		if (!y || e->in.kind == MDP_GOAL_UNKNOWN)
			continue;
		y->looks++;
		if (e->in.kind == MDP_GOAL_LATENCY)
			y->lat_n++, y->lat_sum_us += e->in.latency_us;
		if (st->g.pct && e->pct_us)
			y->pct_n++, y->pct_sum_us += e->pct_us;
	}
}

/* One look of a goal row (none without a goal), its moves written and said. */
static void steer_look(struct steer *st)
{
	struct mdp_system s = {0};
	struct mdp_diags d;

	if (!st || !st->g.goal_ms)
		return;
	st->at_ns = mdp_mono_ns();
	mdp_diags_init(&d);
	if (!mdp_discover_some(st->b->root, MDP_SKIP_UUID, &s, &d) &&
	    !mdp_wgoal_steer(&st->g, st->since, st->b->tx, st->b->root, &s, st->b->say,
			     st->b->hooks.arg))
		steer_count(st);
	mdp_diags_free(&d);
	mdp_system_free(&s);
}

void mdp_bench_device(const struct mdp_root *r, dev_t dev, char *buf, size_t len)
{
	char sys[64], link[256];

	buf[0] = '\0';
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (mdp_root_readlink(r, sys, link, sizeof(link)) >= 0)
		snprintf(buf, len, "%.31s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
}

unsigned mdp_bench_count(const char *list)
{
	unsigned n = 1;

	for (const char *p = list; *p; p++)
		n += *p != ',' && (p == list || p[-1] == ',');
	return n;
}

static int stop_requested(const struct mdp_bench *b)
{
	return b->hooks.stop_requested ? b->hooks.stop_requested() : 0;
}

/* mdp_bench_window, a goal row's looks (st, NULL: none) at each second. */
static int window(const struct mdp_bench *b, unsigned seconds, struct mdp_bench_window *w,
		  struct steer *st)
{
	const struct mdp_bench_hooks *h = &b->hooks;
	struct timespec second = {1, 0};
	int stop = 0;

	if (st)
		st->w = w;
	for (unsigned i = 0; i < seconds; i++) {
		if ((stop = stop_requested(b)))
			break;
		if (w)
			mdp_bench_sample(b->root, w);
		steer_look(st);
		if (h->tick)
			h->tick(h->arg, i, seconds, w);
		nanosleep(&second, NULL);
	}
	if (h->done)
		h->done(h->arg, NULL, NULL);
	return stop ? stop : stop_requested(b);
}

int mdp_bench_window(const struct mdp_bench *b, unsigned seconds, struct mdp_bench_window *w)
{
	return window(b, seconds, w, NULL);
}

/* A volume run's progress: the caller's hook, and a goal row's look once a second. */
static void vb_steer(void *arg, const struct mdp_vb *v, const struct mdp_vb_tick *t)
{
	struct steer *st = arg;

	if (st->user.fn)
		st->user.fn(st->user.arg, v, t);
	if (mdp_mono_ns() - st->at_ns >= 1000000000u)
		steer_look(st);
}

/*
 * Measure row r (after settling unless it is the first): md's speed over a
 * window, or the volume with md sampled before and after. 0, the signal
 * number when stopped, or -errno of the volume run.
 */
static int measure(const struct mdp_bench *b, struct mdp_bench_row *r, bool first, struct steer *st)
{
	const struct mdp_bench_hooks *h = &b->hooks;
	struct mdp_vb_progress cb = {h->vb_tick, h->arg}, sc = {vb_steer, st};
	struct mdp_diags d;
	int err, stop;

	if (!first && (stop = window(b, b->settle_s, NULL, st)))
		return stop;
	if (!b->proto)
		return window(b, b->window_s, &r->w, st);
	r->vb = *b->proto;
	r->vb.progress = h->vb_tick ? &cb : NULL;
	if (st) {
		st->user = cb;
		st->w = &r->w;
		r->vb.progress = &sc;
	}
	mdp_bench_sample(b->root, &r->w);
	mdp_diags_init(&d);
	err = mdp_vb_run(&r->vb, &d);
	r->vb.progress = NULL;
	if (h->done)
		h->done(h->arg, r, &d);
	mdp_diags_free(&d);
	mdp_bench_sample(b->root, &r->w);
	return err ? err : r->vb.stop_signal;
}

/* Measure row r, steered when its profile has a goal (from the apply on, a look a second). */
static int measure_row(const struct mdp_bench *b, struct mdp_bench_row *r, unsigned idx)
{
	struct steer st = {.b = b, .since = idx};
	int m;

	if (!r->goal_ms || !b->tx)
		return measure(b, r, false, NULL);
	st.g.goal_ms = r->goal_ms;
	st.g.pct = r->goal_pct;
	m = measure(b, r, false, &st);
	mdp_wgoal_free(&st.g);
	return m;
}

int mdp_bench_compare(const struct mdp_bench *b, const char *list, struct mdp_bench_cmp *c)
{
	const struct mdp_bench_hooks *h = &b->hooks;
	unsigned rows = mdp_bench_count(list);
	char *names, *save = NULL, *name;
	int m;

	memset(c, 0, sizeof(*c));
	if (!h->apply)
		return -EINVAL;
	if (!(c->rows = calloc(MDP_BENCH_MAX_COMPARE + 1, sizeof(*c->rows))) ||
	    !(names = strdup(list)))
		return -ENOMEM;
	snprintf(c->rows[0].profile, sizeof(c->rows[0].profile), "%s", MDP_BENCH_CURRENT);
	c->rows[0].current = true;
	if (h->begin)
		h->begin(h->arg, &c->rows[0], 1, rows);
	m = measure(b, &c->rows[0], true, NULL);
	c->n = m == 0;
	for (name = strtok_r(names, ",", &save); name && !m && !c->apply_rc;
	     name = strtok_r(NULL, ",", &save)) {
		struct mdp_bench_row *r = &c->rows[c->n];
		if (c->n == MDP_BENCH_MAX_COMPARE + 1)
			break;
		if ((c->apply_rc = h->apply(h->arg, name, r)))
			break;
		if (h->begin)
			h->begin(h->arg, r, (unsigned)c->n + 1, rows);
		m = measure_row(b, r, (unsigned)c->n + 1);
		c->n += m == 0;
	}
	free(names);
	c->stop_signal = m > 0 ? m : 0;
	return m < 0 ? m : 0;
}

void mdp_bench_cmp_free(struct mdp_bench_cmp *c)
{
	for (size_t i = 0; c->rows && i <= MDP_BENCH_MAX_COMPARE; i++)
		mdp_vb_free(&c->rows[i].vb);
	free(c->rows);
	c->rows = NULL;
	c->n = 0;
}
