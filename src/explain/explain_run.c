/* explain_run: see explain_run.h. */
#include "explain_run.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "mdp_base.h"
#include "mdp_md.h"
#include "mdp_txn.h"
#include "explain_int.h"

#define NAP_MS 100 /* a stop signal is seen this soon during a probe's window */

static double mono_s(void)
{
	return (double)mdp_mono_ns() / 1e9;
}

static uint64_t ms_since(double t0)
{
	return (uint64_t)((mono_s() - t0) * 1000.0 + 0.5);
}

static int fail_at(struct mdp_xfail *fail, enum mdp_xfail_what what, unsigned n, int err)
{
	*fail = (struct mdp_xfail){what, err, n};
	return err;
}

static int read_smart(const struct mdp_xrun *x, struct mdp_xcap *cap, bool replay,
		      struct mdp_xsample s[2]);

int mdp_xrun_samples(const struct mdp_xrun *x, struct mdp_xcap *cap, struct mdp_xsample s[2],
		     uint64_t *ms, struct mdp_xfail *fail)
{
	struct mdp_xsrc src = {.root = x->root, .cap = cap, .unreadable = x->unreadable};
	struct mdp_root second;
	bool replay = mdp_explain_is_replay(x->root);
	double t0, t1;
	int err;

	*fail = (struct mdp_xfail){0};
	if (replay && (err = mdp_explain_replay_open(x->root, &second, ms)))
		return fail_at(fail, MDP_XF_ELAPSED, 0, err);
	t0 = mono_s();
	err = mdp_explain_sample(&src, &s[0]);
	if (!err && !replay) {
		struct timespec ts = {x->interval_ms / 1000,
				      (long)(x->interval_ms % 1000) * 1000000L};
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	if (!err) {
		t1 = mono_s();
		src.sample = 1;
		src.overlay = replay ? &second : NULL;
		err = mdp_explain_sample(&src, &s[1]);
		if (err) {
			mdp_explain_sample_free(&s[0]);
		} else if ((err = read_smart(x, cap, replay, s))) {
			mdp_explain_sample_free(&s[0]);
			mdp_explain_sample_free(&s[1]);
		}
		if (!replay)
			*ms = (uint64_t)((t1 - t0) * 1000.0 + 0.5);
	}
	if (replay)
		mdp_root_fini(&second);
	return err ? fail_at(fail, MDP_XF_MDSTAT, 0, err) : 0;
}

/* An array worth a report when none are named: an operation runs or waits in either sample. */
static bool busy(const struct mdp_xsample *s, const char *name)
{
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_xarray *a = &s->arrays[i];
		if (!strcmp(a->name, name) &&
		    (a->queued[0] || (strcmp(a->action, "idle") && a->action[0]) ||
		     mdp_explain_reshape_held(a)))
			return true;
	}
	return false;
}

/* Record smartctl's answer on disk (its output, and its exit status or "timeout") for a capture. */
static int smart_record(struct mdp_xcap *cap, const char *disk, const char *text, size_t len,
			int status)
{
	char p[PATH_MAX], st[16];

	if (!cap)
		return 0;
	snprintf(p, sizeof(p), "/.explain/smart/%s", disk);
	if (mdp_xcap_add(cap, 0, p, text, len))
		return -ENOMEM;
	snprintf(p, sizeof(p), "/.explain/smart/%s.exit", disk);
	snprintf(st, sizeof(st), status >= 0 ? "%d\n" : "timeout\n", status);
	return mdp_xcap_add(cap, 0, p, st, strlen(st));
}

/* A replay's SMART of disk: what its capture holds (.explain/smart/DISK and DISK.exit). */
static int smart_replayed(const struct mdp_root *r, struct mdp_xcap *cap, const char *disk,
			  struct mdp_smart *out)
{
	char p[PATH_MAX], st[32], *text;
	size_t len;
	uint64_t v;
	int status = 0, err;

	snprintf(p, sizeof(p), "/.explain/smart/%s", disk);
	if (mdp_root_read_all(r, p, &text, &len))
		return 0;
	snprintf(p, sizeof(p), "/.explain/smart/%s.exit", disk);
	if (mdp_root_read_value(r, p, st, sizeof(st)) >= 0)
		status = !strcmp(st, "timeout") ? -1 : !mdp_num_parse(st, 0, 255, &v) ? (int)v : 0;
	if (status < 0)
		*out = (struct mdp_smart){.state = MDP_SMART_NO_ANSWER};
	else
		mdp_smart_parse(text, len, status, out);
	err = smart_record(cap, disk, text, len, status);
	free(text);
	return err;
}

/* Run smartctl on disk, recording what it printed for a capture. */
static int smart_ran(const struct mdp_xrun *x, struct mdp_xcap *cap, const char *disk,
		     struct mdp_smart *out)
{
	char *text;
	size_t len;
	int status, err = mdp_smart_run(x->root, disk, out, &text, &len, &status, x->unreadable);

	if (err)
		return err == -ENOMEM ? err : 0;
	err = smart_record(cap, disk, text, len, status);
	free(text);
	return err;
}

/*
 * The SMART of each member disk of the arrays an operation runs or waits on, once per disk,
 * into the second sample (issue 39): smartctl as root (a fixture root runs its own fake), a
 * replay what its capture holds. No smartctl, or not root: nothing is read.
 */
static int read_smart(const struct mdp_xrun *x, struct mdp_xcap *cap, bool replay,
		      struct mdp_xsample s[2])
{
	bool run = !replay && (!mdp_root_is_real(x->root) || geteuid() == 0), gone = false;

	for (size_t i = 0; i < s[1].n_arrays; i++) {
		struct mdp_xarray *a = &s[1].arrays[i];
		if (!busy(&s[0], a->name) && !busy(&s[1], a->name))
			continue;
		for (size_t j = 0; j < a->n_members; j++) {
			struct mdp_xmember *m = &a->members[j];
			const struct mdp_smart *seen = NULL;
			for (size_t k = 0; k <= i && !seen; k++)
				for (size_t l = 0; l < s[1].arrays[k].n_members; l++) {
					const struct mdp_xmember *o = &s[1].arrays[k].members[l];
					/* read already: an idle array's member was never asked */
					if (o != m && o->smart.state != MDP_SMART_NOT_READ &&
					    !strcmp(o->disk, m->disk))
						seen = &o->smart;
				}
			int err = 0;
			if (seen)
				m->smart = *seen;
			else if (replay)
				err = smart_replayed(x->root, cap, m->disk, &m->smart);
			else if (run && !gone) {
				err = smart_ran(x, cap, m->disk, &m->smart);
				gone = m->smart.state == MDP_SMART_NOT_READ;
			}
			if (err)
				return err;
		}
	}
	return 0;
}

/* Is array name in sample s? */
static bool has(const struct mdp_xsample *s, const char *name)
{
	for (size_t i = 0; i < s->n_arrays; i++)
		if (!strcmp(s->arrays[i].name, name))
			return true;
	return false;
}

/* The goal's word on r's array, when the watcher steers it: whose latency, in words. */
static void name_goal(const struct mdp_wgoal_view *g, struct mdp_xreport *r)
{
	char shares[2 * MDP_IO_SHARES_MAX], from[3 * MDP_IO_SHARES_MAX];

	for (size_t i = 0; g && i < g->n; i++) {
		if (strcmp(g->v[i].name, r->array))
			continue;
		if (g->v[i].on[0]) {
			mdp_iostat_shares_text(g->v[i].shares, shares, sizeof(shares));
			snprintf(from, sizeof(from), "on %s, which shares %s with it", g->v[i].on,
				 shares);
		} else {
			snprintf(from, sizeof(from), "%s", mdp_io_source_text(g->v[i].src));
		}
		mdp_explain_goal(r, g->goal_ms, g->v[i].min, &g->v[i].in, from);
	}
}

size_t mdp_xrun_reports(const struct mdp_xsample s[2], double dt, char *const *names,
			size_t n_names, const struct mdp_xprofiles *pro,
			const struct mdp_wgoal_view *goal, struct mdp_xreport *reps, bool *any)
{
	size_t n = 0;

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < s[k].n_arrays; i++) {
			const char *name = s[k].arrays[i].name;
			bool dup = false, named = !n_names;
			for (size_t m = 0; m < n; m++)
				dup |= !strcmp(reps[m].array, name);
			for (size_t a = 0; a < n_names; a++)
				named |= !strcmp(names[a], name);
			if (dup || !named || (!n_names && !busy(&s[0], name) && !busy(&s[1], name)))
				continue;
			if (mdp_explain_array(&s[0], &s[1], dt, name, pro, &reps[n]))
				continue;
			name_goal(goal, &reps[n]);
			*any |= mdp_explain_recommends(&reps[n++]);
		}
	return n;
}

void mdp_xrun_profile_of(const struct mdp_profile *p, struct mdp_xprofile *x)
{
	const struct mdp_setting *mn = &p->global[MDP_T_SPEED_LIMIT_MIN];
	const struct mdp_setting *mx = &p->global[MDP_T_SPEED_LIMIT_MAX];

	memset(x, 0, sizeof(*x));
	snprintf(x->name, sizeof(x->name), "%s", p->name);
	x->min = mn->kind == MDP_S_NUM ? mn->num : 0;
	x->max = mx->kind == MDP_S_NUM ? mx->num : 0;
	x->min_floor = mn->bound == MDP_B_AT_LEAST;
	x->max_floor = mx->bound == MDP_B_AT_LEAST;
	x->goal_ms = p->goal.latency_ms;
	/* rules that select arrays by disk class alone: the minimum they give such an array */
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct mdp_match *m = &p->rules[i].match;
		const struct mdp_setting *v = &p->rules[i].set[MDP_T_SYNC_SPEED_MIN];
		if (!m->media || m->all || m->n_names || m->n_levels || m->n_uuids ||
		    v->kind != MDP_S_NUM)
			continue;
		for (int c = 0; c < MDP_MEDIA_COUNT; c++)
			if (m->media & 1u << c) {
				x->class_min[c] = v->num;
				x->class_min_floor[c] = v->bound == MDP_B_AT_LEAST;
			}
	}
}

void mdp_xrun_profiles(const struct mdp_root *root, const struct mdp_profile_dirs *dirs,
		       struct mdp_xprofiles *out)
{
	struct mdp_system sys = {0};
	struct mdp_diags d;
	const char *name;
	bool sys_ok;

	out->n = 0;
	mdp_diags_init(&d);
	sys_ok = !mdp_discover_some(root, 0, &sys, &d);
	for (size_t k = 0;
	     (name = mdp_explain_profile(k)) && out->n < sizeof(out->v) / sizeof(out->v[0]); k++) {
		struct mdp_xprofile *x = &out->v[out->n];
		struct mdp_profile p;
		struct mdp_plan pl = {0};
		char path[PATH_MAX];

		mdp_diags_free(&d);
		mdp_diags_init(&d);
		if (mdp_profile_find(dirs, name, path, sizeof(path), &d) ||
		    mdp_profile_load(dirs, path, &p, &d))
			continue;
		mdp_xrun_profile_of(&p, x);
		snprintf(x->name, sizeof(x->name), "%s", name);
		if (sys_ok && mdp_plan_build(&p, &sys, &pl, &d) == -EINVAL && d.n) {
			x->refused = true;
			snprintf(x->why, sizeof(x->why), "%s", d.v[d.n - 1].msg);
		}
		mdp_plan_free(&pl);
		mdp_profile_free(&p);
		out->n++;
	}
	mdp_system_free(&sys);
	mdp_diags_free(&d);
}

/* Sleep ms, in steps, unless a stop signal is pending; the signal (0: slept it all). */
static int nap(const struct mdp_xrun *x, unsigned ms)
{
	struct timespec step = {0, NAP_MS * 1000000L};
	double until = mono_s() + ms / 1000.0;
	int sig;

	while (!(sig = x->stop_requested ? x->stop_requested() : 0) && mono_s() < until)
		nanosleep(&step, NULL);
	return sig;
}

/*
 * One probe window: a sample, the interval (none in a replay: /.explain/n and n+1, elapsed_ms
 * apart), a sample; md's speed (*kib) and operation (action, "none" when nothing runs) for
 * array over it. 0, a signal number, or -errno with *fail.
 */
static int window(const struct mdp_xrun *x, unsigned n, const char *array, uint64_t *kib,
		  char *action, size_t len, struct mdp_xfail *fail)
{
	struct mdp_xsample s[2];
	struct mdp_root ov[2];
	struct mdp_xreport r;
	bool replay = mdp_explain_is_replay(x->root);
	uint64_t ms = 0;
	double t0 = 0;
	int err = 0, sig = 0, got = 0;

	for (unsigned k = 0; k < 2 && !err && !sig; k++) {
		struct mdp_xsrc src = {.root = x->root, .sample = 1, .unreadable = x->unreadable};
		if (replay) {
			struct mdp_root one;
			if ((err = mdp_explain_replay_sample(x->root, n + k, &ov[k]))) {
				fail_at(fail, MDP_XF_PROBE, n + k, err);
				break;
			}
			src.overlay = &ov[k];
			if (!k && (err = mdp_explain_replay_open(x->root, &one, &ms)))
				fail_at(fail, MDP_XF_ELAPSED, 0, err);
			else if (!k)
				mdp_root_fini(&one);
		} else if (k && (sig = nap(x, x->interval_ms))) {
			break;
		}
		if (!k)
			t0 = mono_s();
		if (!err && (err = mdp_explain_sample(&src, &s[k])))
			fail_at(fail, MDP_XF_MDSTAT, 0, err);
		if (replay)
			mdp_root_fini(&ov[k]);
		got += !err;
	}
	if (!replay)
		ms = ms_since(t0);
	if (got == 2) {
		if (mdp_explain_array(&s[0], &s[1], (double)ms / 1000.0, array, NULL, &r)) {
			snprintf(action, len, "none");
			*kib = 0;
		} else {
			snprintf(action, len, "%s", r.action);
			*kib = r.speed_kib;
		}
	}
	for (int k = 0; k < got; k++)
		mdp_explain_sample_free(&s[k]);
	return sig ? sig : err;
}

/* A window's end: -EINTR with the signal, the error, or 0. */
static int ended_by(int m, struct mdp_probe_out *out)
{
	if (m > 0) {
		out->sig = m;
		return -EINTR;
	}
	return m;
}

int mdp_xrun_probe(const struct mdp_xrun *x, const struct mdp_xreport *r,
		   const struct mdp_probe_setting *set, const struct mdp_probe_ops *ops,
		   struct mdp_probe_out *out)
{
	char act[16] = "";
	int m, rc;

	memset(out, 0, sizeof(*out));
	out->w.a1 = r->speed_kib;
	out->w.window_s = r->window_s;
	if (x->stop_requested && (m = x->stop_requested()))
		return ended_by(m, out);
	if ((rc = ops->apply(ops->arg, set))) {
		out->rc = rc;
		return -ECANCELED;
	}
	m = window(x, 2, r->array, &out->w.b, act, sizeof(act), &out->fail);
	out->w.ended |= strcmp(act, r->action) != 0;
	/* Whatever happened in the window, the value from before comes back. */
	if ((rc = ops->revert(ops->arg))) {
		out->rc = rc;
		return -ECANCELED;
	}
	if (m)
		return ended_by(m, out);
	if (!out->w.ended) {
		if ((m = window(x, 4, r->array, &out->w.a2, act, sizeof(act), &out->fail)))
			return ended_by(m, out);
		out->w.ended |= strcmp(act, r->action) != 0;
	}
	mdp_probe_judge(&out->w, &out->res);
	return 0;
}

void mdp_xwindow_free(struct mdp_xwindow *w)
{
	free(w->reps);
	free(w->missing);
	if (w->sampled) {
		mdp_explain_sample_free(&w->s[0]);
		mdp_explain_sample_free(&w->s[1]);
	}
	*w = (struct mdp_xwindow){0};
}

/* The names neither sample has, into w->missing: 0, -ESRCH when any, -ENOMEM. */
static int find_missing(struct mdp_xwindow *w, char *const *names, size_t n_names)
{
	if (n_names && !(w->missing = calloc(n_names, sizeof(*w->missing))))
		return -ENOMEM;
	for (size_t i = 0; i < n_names; i++)
		if (!has(&w->s[0], names[i]) && !has(&w->s[1], names[i]))
			w->missing[w->n_missing++] = names[i];
	return w->n_missing ? -ESRCH : 0;
}

int mdp_xrun_window(const struct mdp_xrun *x, const struct mdp_profile_dirs *dirs,
		    char *const *names, size_t n_names, struct mdp_xcap *cap, struct mdp_xwindow *w,
		    struct mdp_xfail *fail)
{
	struct mdp_xprofiles pro;
	struct mdp_wgoal_view goal;
	int err;

	if (w->sampled) { /* taken again: nothing of the first one stays */
		mdp_xwindow_free(w);
		if (cap) {
			mdp_xcap_free(cap);
			*cap = (struct mdp_xcap){0};
		}
		mdp_diags_free(x->unreadable);
		mdp_diags_init(x->unreadable);
	}
	*fail = (struct mdp_xfail){0};
	if ((err = mdp_xrun_samples(x, cap, w->s, &w->ms, fail)))
		return err;
	w->sampled = true;
	if ((err = find_missing(w, names, n_names)))
		return err;
	if (!(w->reps = calloc(w->s[1].n_arrays + w->s[0].n_arrays + 1, sizeof(*w->reps))))
		return -ENOMEM;
	mdp_xrun_profiles(x->root, dirs, &pro);
	w->n = mdp_xrun_reports(w->s, (double)w->ms / 1000.0, names, n_names, &pro,
				mdp_wgoal_active(x->root, &goal) ? NULL : &goal, w->reps, &w->any);
	return 0;
}
