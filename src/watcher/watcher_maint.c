/*
 * watcher_maint: checks and repairs paused and resumed by the profile's maintenance key
 * (watcher_maint.h).
 */
#include "watcher_maint.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mdp_base.h"
#include "watcher_int.h"

void mdp_wmaint_free(struct mdp_wmaint *m)
{
	free(m->disks);
	free(m->runs);
	memset(m, 0, sizeof(*m));
}

/* The wall clock and the local time the windows are in: the caller's, else the box's. */
static void wm_wall(const struct mdp_wloop *w, int64_t *epoch, struct mdp_mtime *local)
{
	struct tm tm;
	time_t t;

	if (w->c.wall) {
		w->c.wall(w->c.wall_ctx, epoch, local);
		return;
	}
	t = time(NULL);
	*epoch = (int64_t)t;
	if (!localtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	local->wday = (unsigned)tm.tm_wday;
	local->min = (unsigned)(tm.tm_hour * 60 + tm.tm_min);
}

/* ---- heat --------------------------------------------------------------------------- */

/* disk's drivetemp reading, degrees Celsius: 0, or -ENOENT when it has none. */
static int disk_temp(const struct mdp_root *r, const char *disk, int *temp_c)
{
	char dir[128], path[192], buf[32];
	char **names = NULL;
	size_t n = 0;
	uint64_t mc;
	int err = -ENOENT;

	snprintf(dir, sizeof(dir), "/sys/block/%s/device/hwmon", disk);
	if (mdp_root_list(r, dir, &names, &n))
		return -ENOENT;
	for (size_t i = 0; i < n && err; i++) {
		if (strncmp(names[i], "hwmon", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s/temp1_input", dir, names[i]);
		if (mdp_root_read_value(r, path, buf, sizeof(buf)) > 0 &&
		    !mdp_num_parse(buf, 0, 200000, &mc)) {
			*temp_c = (int)(mc / 1000);
			err = 0;
		}
	}
	mdp_root_free_list(names, n);
	return err;
}

static struct mdp_wm_disk *wm_disk(struct mdp_wmaint *m, const char *name)
{
	struct mdp_wm_disk *d;

	for (size_t i = 0; i < m->n_disks; i++)
		if (!strcmp(m->disks[i].name, name))
			return &m->disks[i];
	if ((d = mdp_push(&m->disks, &m->n_disks, sizeof(*d))))
		snprintf(d->name, sizeof(d->name), "%s", name);
	return d;
}

/* The first hot member disk of a, NULL when none. */
static const struct mdp_wm_disk *wm_hot(const struct mdp_wloop *w, const struct mdp_array *a)
{
	for (size_t k = 0; k < a->n_members; k++)
		for (size_t i = 0; i < w->maint.n_disks; i++)
			if (w->maint.disks[i].hot &&
			    !strcmp(w->maint.disks[i].name, a->members[k].disk))
				return &w->maint.disks[i];
	return NULL;
}

/* ---- the jobs a check gives way to ----------------------------------------------------- */

/* The first process named in defer_to that runs, into m->job ("" none). */
static void wm_jobs(struct mdp_wloop *w)
{
	const struct mdp_maint *mt = &w->c.p->maint.m;
	char **names = NULL, path[64], comm[32];
	size_t n = 0;

	w->maint.job[0] = '\0';
	if (mdp_root_list(w->c.root, "/proc", &names, &n))
		return;
	for (size_t i = 0; i < n && !w->maint.job[0]; i++) {
		if (names[i][strspn(names[i], "0123456789")] || strlen(names[i]) > 10)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", names[i]);
		if (mdp_root_read_value(w->c.root, path, comm, sizeof(comm)) <= 0)
			continue;
		for (size_t k = 0; k < mt->n_defer; k++)
			if (strcmp(mt->defer_to[k], MDP_MAINT_SELFTEST) &&
			    !strcmp(comm, mt->defer_to[k]))
				snprintf(w->maint.job, sizeof(w->maint.job), "%s", comm);
	}
	mdp_root_free_list(names, n);
}

static bool wm_defers_selftest(const struct mdp_maint *mt)
{
	for (size_t k = 0; k < mt->n_defer; k++)
		if (!strcmp(mt->defer_to[k], MDP_MAINT_SELFTEST))
			return true;
	return false;
}

/* smartctl's failure to tell d's self-test, said once. */
static void wm_test_said(struct mdp_wloop *w, struct mdp_wm_disk *d, int err)
{
	if (err && !d->said_test)
		wl_say(w, "%s: smartctl %s: a SMART self-test on it is not seen", d->name,
		       err == -ETIMEDOUT ? "did not answer within 5 s" : strerror(-err));
	else if (d->test.state == MDP_SELFTEST_UNREAD && !d->said_test)
		wl_say(w,
		       "%s: smartctl tells no self-test status (no SMART, or a bridge that hides "
		       "it): a SMART self-test on it is not seen",
		       d->name);
	d->said_test |= err || d->test.state == MDP_SELFTEST_UNREAD;
}

/* d's temperature (ask: the heat rule's turn), hysteresis kept: drivetemp's, else the SMART
 * one in l (err: smartctl's); asleep is not hot. Neither read: said once. */
static void wm_temp(struct mdp_wloop *w, struct mdp_wm_disk *d, unsigned ask,
		    const struct mdp_smart_look *l, int err)
{
	const struct mdp_mheat *h = &w->c.p->maint.m.heat;

	if (!(ask & MDP_SMART_ASK_TEMP)) {
		d->known = true; /* drivetemp's, read before */
	} else if (!err && l->temp == 0) {
		d->temp_c = l->temp_c;
		d->known = true;
	} else if (!err && l->temp == -EAGAIN) {
		d->hot = d->known = false;
		return;
	} else {
		d->known = false;
	}
	d->hot = mdp_maint_hot(h, d->hot, d->temp_c, d->known);
	if (!d->known && !d->said) {
		d->said = true;
		wl_say(w,
		       "%s: no temperature from drivetemp (hwmon) or SMART (smartctl -A): the heat "
		       "rule does not see it",
		       d->name);
	}
}

/* d's look this turn (t), smartctl asked once for what is due: its self-test (test), its
 * temperature when drivetemp has none (heat). No smartctl: not asked again this turn. */
static void wm_look_disk(struct mdp_wloop *w, struct mdp_wm_disk *d, double t, bool heat, bool test)
{
	struct mdp_smart_look l = {.test = {.left = -1}, .temp = -ENOENT};
	unsigned ask = test ? MDP_SMART_ASK_TEST : 0;
	bool none = w->maint.no_smartctl_at == t;
	int err = 0;

	if (d->test_at == t)
		return; /* a disk in two arrays (DSM's partitions): asked once */
	d->test_at = t;
	if (heat && disk_temp(w->c.root, d->name, &d->temp_c))
		ask |= MDP_SMART_ASK_TEMP;
	if (ask && !none) {
		err = mdp_smart_look_run(w->c.root, d->name, w->c.run, ask, &l, w->c.tx->d);
		mdp_wl_diags(w, w->c.tx->d);
		if ((none = err == -ENOENT))
			w->maint.no_smartctl_at = t;
	}
	if (test && none && !w->maint.said_smartctl) {
		wl_say(w,
		       "defer_to %s: no smartctl (smartmontools): a running SMART self-test is "
		       "not seen",
		       MDP_MAINT_SELFTEST);
		w->maint.said_smartctl = true;
	}
	if (test) {
		d->test = l.test;
		if (!none)
			wm_test_said(w, d, err);
	}
	if (heat)
		wm_temp(w, d, ask, &l, none ? -ENOENT : err);
}

/* Each selected array's member disks looked at: heat and self-tests as due. */
static void wm_disks(struct mdp_wloop *w, const struct mdp_system *s, double t, bool heat,
		     bool test)
{
	struct mdp_wm_disk *d;

	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		if (!mdp_wl_selected(w, a))
			continue;
		for (size_t k = 0; k < a->n_members; k++)
			if ((d = wm_disk(&w->maint, a->members[k].disk)))
				wm_look_disk(w, d, t, heat, test);
	}
}

/* The first member disk of a a self-test runs on, NULL when none. */
static const struct mdp_wm_disk *wm_testing(const struct mdp_wloop *w, const struct mdp_array *a)
{
	for (size_t k = 0; k < a->n_members; k++)
		for (size_t i = 0; i < w->maint.n_disks; i++)
			if (w->maint.disks[i].test.state == MDP_SELFTEST_RUNNING &&
			    !strcmp(w->maint.disks[i].name, a->members[k].disk))
				return &w->maint.disks[i];
	return NULL;
}

/* ---- a check's place ------------------------------------------------------------------ */

static struct mdp_wm_run *wm_run(struct mdp_wmaint *m, const char *name, bool add)
{
	struct mdp_wm_run *r;

	for (size_t i = 0; i < m->n_runs; i++)
		if (!strcmp(m->runs[i].name, name))
			return &m->runs[i];
	if (add && (r = mdp_push(&m->runs, &m->n_runs, sizeof(*r))))
		snprintf(r->name, sizeof(r->name), "%s", name);
	return add ? r : NULL;
}

static unsigned pct(uint64_t done, uint64_t total)
{
	return total ? (unsigned)(done * 100 / total) : 0;
}

/* The news of a's check: what every event says. */
static void wm_news(const struct mdp_array *a, const struct mdp_wm_run *r, enum mdp_mev ev,
		    int64_t epoch, struct mdp_mnews *n)
{
	memset(n, 0, sizeof(*n));
	n->ev = ev;
	snprintf(n->array, sizeof(n->array), "%s", a->name);
	snprintf(n->uuid, sizeof(n->uuid), "%s", a->uuid);
	snprintf(n->action, sizeof(n->action), "%s", r->action);
	n->percent = pct(r->done, r->total);
	n->duration_s = ev == MDP_MEV_START ? -1 : epoch - r->started;
	n->paused_s = ev == MDP_MEV_START ? -1 : r->paused_s;
	n->mismatch = -1;
}

/* A check running at this look: its run, told of as started when it is new. */
static void wm_seen(struct mdp_wloop *w, const struct mdp_array *a, int64_t epoch)
{
	struct mdp_wm_run *r = wm_run(&w->maint, a->name, false);
	struct mdp_mnews n;
	bool fresh = !r;

	if (!r && !(r = wm_run(&w->maint, a->name, true)))
		return;
	snprintf(r->action, sizeof(r->action), "%.6s", a->sync_action);
	if (a->sync_total) {
		r->done = a->sync_done;
		r->total = a->sync_total;
	}
	if (!fresh && r->paused_at) { /* its pause let go by revert or a person */
		r->paused_s += epoch - r->paused_at;
		r->paused_at = 0;
		if (!r->told)
			return;
		wm_news(a, r, MDP_MEV_RESUME, epoch, &n);
		snprintf(n.line, sizeof(n.line), "%s %s runs again at %u%%", a->name, r->action,
			 n.percent);
		mdp_wnews_tell(w, &n);
	}
	if (!fresh)
		return;
	r->started = epoch;
	if (!(r->told = w->c.p->maint.m.notify.set))
		return;
	wm_news(a, r, MDP_MEV_START, epoch, &n);
	snprintf(n.line, sizeof(n.line), "%s %s started at %u%%", a->name, r->action, n.percent);
	mdp_wnews_tell(w, &n);
}

/* A running check's place kept on disk each time md moves it. */
static void wm_keep(struct mdp_wloop *w, const struct mdp_array *a, int64_t epoch)
{
	struct mdp_wm_run *r = wm_run(&w->maint, a->name, true);
	struct mdp_mckpt c;

	if (!r || r->kept == a->sync_done || mdp_mckpt_take(a, epoch, &c))
		return;
	if (!mdp_ckpt_save(w->c.root, &c, w->c.tx->d))
		r->kept = a->sync_done;
	mdp_wl_diags(w, w->c.tx->d);
}

/* What the end of r says: completed (md forgot its place, nobody paused it) or stopped. */
static void wm_end_news(struct mdp_wloop *w, const struct mdp_array *a, const struct mdp_wm_run *r,
			bool completed, int64_t epoch)
{
	char path[128], buf[32], took[32], paused[32], at[16] = "";
	uint64_t cnt;
	struct mdp_mnews n;

	wm_news(a, r, MDP_MEV_END, epoch, &n);
	if (r->paused_at)
		n.paused_s += epoch - r->paused_at;
	if (completed)
		n.percent = 100;
	snprintf(n.reason, sizeof(n.reason), "%s", completed ? "completed" : "stopped");
	snprintf(path, sizeof(path), "/sys/block/%s/md/mismatch_cnt", a->name);
	if (mdp_root_read_value(w->c.root, path, buf, sizeof(buf)) > 0 &&
	    !mdp_num_parse(buf, 0, INT64_MAX, &cnt))
		n.mismatch = (int64_t)cnt;
	snprintf(buf, sizeof(buf), "%" PRId64, n.mismatch);
	if (!completed)
		snprintf(at, sizeof(at), " at %u%%", n.percent);
	snprintf(n.line, sizeof(n.line), "%s %s %s%s after %s (paused %s), mismatch_cnt %s",
		 a->name, r->action, n.reason, at, mdp_wnews_dur(n.duration_s, took, sizeof(took)),
		 mdp_wnews_dur(n.paused_s, paused, sizeof(paused)),
		 n.mismatch < 0 ? "unread" : buf);
	mdp_wnews_tell(w, &n);
}

/* A check seen before that md no longer runs and is not paused: finished (sync_min 0, md
 * forgot its place) and its file removed, else stopped by hand (or its pause let go) and
 * left; told of when its start was. */
static void wm_ended(struct mdp_wloop *w, const struct mdp_array *a, int64_t epoch)
{
	struct mdp_wm_run *r = wm_run(&w->maint, a->name, false), run;
	char path[128], buf[32];
	bool forgot;

	if (!r)
		return;
	snprintf(path, sizeof(path), "/sys/block/%s/md/sync_min", a->name);
	forgot = mdp_root_read_value(w->c.root, path, buf, sizeof(buf)) > 0 && !strcmp(buf, "0");
	if (forgot)
		(void)mdp_ckpt_drop(w->c.root, a->uuid);
	run = *r;
	*r = w->maint.runs[--w->maint.n_runs];
	if (run.told)
		wm_end_news(w, a, &run, forgot && !run.paused_at, epoch);
}

/* ---- the look ------------------------------------------------------------------------- */

static bool on_dsm(const struct mdp_wloop *w)
{
	return mdp_root_exists(w->c.root, mdp_discover_dsm.version_file);
}

/* What runs on a as maintenance sees it; paused: the pause journal names a. */
static enum mdp_mop wm_op(const struct mdp_array *a, bool paused)
{
	unsigned k = mdp_op_kind_of(a->sync_action);

	if (!strcmp(a->sync_action, "check") || !strcmp(a->sync_action, "repair"))
		return MDP_MOP_CHECK;
	if (!strcmp(a->sync_action, "idle"))
		return paused ? MDP_MOP_PAUSED : MDP_MOP_NONE;
	return k ? MDP_MOP_REDUNDANCY : MDP_MOP_NONE;
}

/* "outside its windows; the next opens in 2h 5m", "sdb at 52 C", "backup runs". */
static void why_text(const struct mdp_wloop *w, const struct mdp_array *a, enum mdp_mwhy why,
		     struct mdp_mtime now, char *buf, size_t len)
{
	const struct mdp_wm_disk *d = wm_hot(w, a), *t;
	unsigned until = 0;

	if (why == MDP_MW_WINDOW) {
		(void)mdp_maint_window_at(&w->c.p->maint.m, now, &until);
		snprintf(buf, len, "outside its windows; the next opens in %uh %02um", until / 60,
			 until % 60);
	} else if (why == MDP_MW_HEAT && d)
		snprintf(buf, len, "%s is hot (%d C)", d->name, d->temp_c);
	else if (w->maint.job[0] || !(t = wm_testing(w, a)))
		snprintf(buf, len, "%s runs", w->maint.job);
	else
		mdp_smart_selftest_describe(&t->test, t->name, buf, len);
}

/* why as the pause journal keeps it for status: outside the windows, with the next one's start
 * (the minutes to it from this minute; a change of the clock's offset moves it by the next look).
 */
static void why_kept(const struct mdp_wloop *w, enum mdp_mwhy why, struct mdp_mtime now,
		     int64_t epoch, struct mdp_jwhy *out)
{
	unsigned until = 0;

	memset(out, 0, sizeof(*out));
	snprintf(out->word, sizeof(out->word), "%s", mdp_maint_why_name(why));
	if (why == MDP_MW_WINDOW) {
		(void)mdp_maint_window_at(&w->c.p->maint.m, now, &until);
		if (until < MDP_MAINT_WEEK_MIN)
			out->opens = epoch - epoch % 60 + (int64_t)until * 60;
	}
}

/* What a's check runs to, in sectors: md's while it runs, else the place kept on disk. */
static uint64_t wm_total(const struct mdp_wloop *w, const struct mdp_array *a)
{
	struct mdp_diags quiet;
	struct mdp_mckpt c;
	uint64_t total = a->sync_total;

	mdp_diags_init(&quiet);
	if (!total && !mdp_ckpt_load(w->c.root, a, &c, &quiet))
		total = c.total;
	mdp_diags_free(&quiet);
	return total;
}

/* a's check paused at pos (why: kept->word, said in line): its run's clock stopped; the news
 * to tell into *n when its start was told. */
static void wm_paused(struct mdp_wloop *w, const struct mdp_array *a, const struct mdp_jwhy *kept,
		      const char *line, uint64_t pos, int64_t epoch, struct mdp_mnews *n)
{
	struct mdp_wm_run *r = wm_run(&w->maint, a->name, false);

	wl_note(w, "%s", line);
	if (!r)
		return;
	r->paused_at = epoch;
	r->done = pos;
	if (!r->told)
		return;
	wm_news(a, r, MDP_MEV_PAUSE, epoch, n);
	n->said = true;
	snprintf(n->reason, sizeof(n->reason), "%s", kept->word);
	snprintf(n->line, sizeof(n->line), "%s", line);
}

/* a's check resumed from pp's place: its run (new after a reboot) going again; the news into
 * *n as wm_paused's. */
static void wm_resumed(struct mdp_wloop *w, const struct mdp_array *a, const struct mdp_jpause *pp,
		       uint64_t total, int64_t epoch, struct mdp_mnews *n)
{
	struct mdp_wm_run *r = wm_run(&w->maint, a->name, false);

	wl_note(w, "%s %s resumed from %u%% (sector %" PRIu64 ")", a->name, pp->action,
		pct(pp->position, total), pp->position);
	if (!r && (r = wm_run(&w->maint, a->name, true))) {
		r->started = epoch;
		r->told = w->c.p->maint.m.notify.set;
	}
	if (!r)
		return;
	snprintf(r->action, sizeof(r->action), "%s", pp->action);
	r->done = pp->position;
	r->total = total;
	if (r->paused_at)
		r->paused_s += epoch - r->paused_at;
	r->paused_at = 0;
	if (!r->told)
		return;
	wm_news(a, r, MDP_MEV_RESUME, epoch, n);
	n->said = true;
	snprintf(n->line, sizeof(n->line), "%s %s resumed from %u%% (sector %" PRIu64 ")", a->name,
		 pp->action, n->percent, pp->position);
}

/* Pause or resume a, under the main lock; said, and told once the lock is let go (a notify
 * command may take seconds). */
static void wm_act(struct mdp_wloop *w, const struct mdp_array *a, enum mdp_mdo act,
		   const struct mdp_jwhy *kept, const char *why, int64_t epoch)
{
	struct mdp_mnews n = {.ev = MDP_MEV_COUNT};
	const struct mdp_jpause *pp = NULL;
	struct mdp_jpauses p = {0};
	uint64_t pos = 0;
	char line[256];
	int err;

	if (mdp_wl_lock(w))
		return;
	if (act == MDP_MDO_PAUSE) {
		if (!(err = mdp_txn_pause(w->c.tx, a, epoch, kept, &pos))) {
			snprintf(line, sizeof(line),
				 "%s %s paused at %u%% (sector %" PRIu64 "): %s", a->name,
				 a->sync_action, pct(pos, a->sync_total), pos, why);
			wm_paused(w, a, kept, line, pos, epoch, &n);
		}
	} else {
		if (!mdp_txn_pauses(w->c.root, &p))
			for (size_t i = 0; i < p.n; i++)
				if (!strcmp(p.v[i].dev, a->name))
					pp = &p.v[i];
		if (!(err = mdp_txn_resume(w->c.tx, a->name)) && pp)
			wm_resumed(w, a, pp, wm_total(w, a), epoch, &n);
		mdp_jpauses_free(&p);
	}
	mdp_wl_diags(w, w->c.tx->d);
	if (err && err != -EBUSY && err != -ENOENT)
		mdp_wl_log(w, LOG_ERR, "%s: cannot %s the %s: %s", a->name,
			   act == MDP_MDO_PAUSE ? "pause" : "resume",
			   act == MDP_MDO_PAUSE ? a->sync_action : "check", strerror(-err));
	mdp_wl_unlock(w);
	if (n.ev != MDP_MEV_COUNT)
		mdp_wnews_tell(w, &n);
}

/* At the first look: a check a reboot or a crash cut (md forgot its place, the file kept
 * it) journaled as paused there, so that it resumes when allowed. */
static void wm_cut(struct mdp_wloop *w, const struct mdp_array *a)
{
	char path[128], buf[32];
	struct mdp_mckpt c;
	int err;

	snprintf(path, sizeof(path), "/sys/block/%s/md/sync_min", a->name);
	if (strcmp(a->sync_action, "idle") || !a->uuid[0] ||
	    mdp_root_read_value(w->c.root, path, buf, sizeof(buf)) <= 0 || strcmp(buf, "0"))
		return; /* md holds a place: paused by hand, left alone */
	if ((err = mdp_ckpt_load(w->c.root, a, &c, w->c.tx->d)) == -ENOENT || !c.position) {
		mdp_wl_diags(w, w->c.tx->d);
		return;
	}
	if (!err && on_dsm(w))
		wl_say(w, "%s: a %s cut at %u%% is left to DSM's own scrub, which keeps its place",
		       a->name, c.action, pct(c.position, c.total));
	else if (!err && !mdp_wl_lock(w)) {
		if (!(err = mdp_txn_pause_kept(w->c.tx, a, &c)))
			wl_note(w,
				"%s: a %s cut at %u%% (sector %" PRIu64 ") by a reboot or a crash "
				"resumes from there when allowed",
				a->name, c.action, pct(c.position, c.total), c.position);
		mdp_wl_unlock(w);
	}
	mdp_wl_diags(w, w->c.tx->d);
}

static const struct mdp_jpause *wm_pause_of(const struct mdp_jpauses *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].dev, name))
			return &p->v[i];
	return NULL;
}

/* A check held paused: why kept up to date in the pause journal, for status. */
static void wm_still(struct mdp_wloop *w, const struct mdp_jpause *pp, const struct mdp_jwhy *k)
{
	if (!strcmp(pp->why.word, k->word) && pp->why.opens == k->opens)
		return;
	if (mdp_wl_lock(w))
		return;
	(void)mdp_txn_pause_why(w->c.tx, pp->dev, k);
	mdp_wl_diags(w, w->c.tx->d);
	mdp_wl_unlock(w);
}

/* One array at a look: its decision, acted on. */
static void wm_array(struct mdp_wloop *w, const struct mdp_array *a, struct mdp_mtime now,
		     int64_t epoch, const struct mdp_jpauses *p)
{
	const struct mdp_jpause *pp = wm_pause_of(p, a->name);
	enum mdp_mop op = wm_op(a, pp != NULL);
	enum mdp_mwhy why;
	enum mdp_mdo act =
	    mdp_maint_decide(&w->c.p->maint.m, now, wm_hot(w, a) != NULL,
			     w->maint.job[0] != '\0' || wm_testing(w, a) != NULL, op, &why);
	struct mdp_jwhy kept;
	char text[128];

	if (op == MDP_MOP_CHECK) {
		wm_seen(w, a, epoch);
		wm_keep(w, a, epoch);
	} else if (op != MDP_MOP_PAUSED)
		wm_ended(w, a, epoch);
	why_kept(w, why, now, epoch, &kept);
	if (op == MDP_MOP_PAUSED && act == MDP_MDO_NOTHING && why != MDP_MW_NONE)
		wm_still(w, pp, &kept);
	if (act != MDP_MDO_PAUSE && act != MDP_MDO_RESUME)
		return; /* a resync, recovery or reshape is never paused */
	why_text(w, a, why, now, text, sizeof(text));
	wm_act(w, a, act, &kept, text, epoch);
}

void mdp_wmaint_look(struct mdp_wloop *w, const struct mdp_system *s)
{
	const struct mdp_maint_key *k = &w->c.p->maint;
	double t = mdp_wl_now(w);
	struct mdp_jpauses p = {0};
	struct mdp_mtime now;
	int64_t epoch;
	bool first = !w->maint.started, heat, test = false;

	if (!k->set || w->c.once)
		return;
	w->maint.started = true;
	wm_wall(w, &epoch, &now);
	heat =
	    k->m.heat.hot_at_c && (!w->maint.heat_at || t - w->maint.heat_at >= MDP_WMAINT_READ_S);
	if (heat)
		w->maint.heat_at = t;
	if (k->m.n_defer && (!w->maint.defer_at || t - w->maint.defer_at >= MDP_WMAINT_READ_S)) {
		w->maint.defer_at = t;
		wm_jobs(w);
		test = wm_defers_selftest(&k->m);
	}
	if (heat || test)
		wm_disks(w, s, t, heat, test);
	if (first && k->m.notify.set)
		mdp_wnews_load(w);
	for (size_t i = 0; first && i < s->n_arrays; i++)
		if (mdp_wl_selected(w, &s->arrays[i]))
			wm_cut(w, &s->arrays[i]);
	(void)mdp_txn_pauses(w->c.root, &p);
	for (size_t i = 0; i < s->n_arrays; i++)
		if (mdp_wl_selected(w, &s->arrays[i]))
			wm_array(w, &s->arrays[i], now, epoch, &p);
	mdp_jpauses_free(&p);
}
