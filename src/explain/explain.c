/*
 * explain: the rules behind `mdprofile explain`, pure functions over two
 * samples (explain.h). This file holds what every rule shares: the
 * measures taken before the rules run (the members' and the other I/O's
 * rates, which limit binds), the report's helpers, the rule table
 * (mdp_xrules[]) and its driver; the rules themselves are in their
 * families' files (explain_int.h lists them). The reasons for each
 * threshold, and where the rules depart from their first draft, are in
 * docs/explain.md; the short form is beside each rule.
 *
 * How md paces a sync (md.c md_do_sync): below the effective minimum it
 * never waits; above the maximum it always sleeps; in between it waits
 * only when the array is "not idle" (other I/O on the member disks, or on
 * the md device itself from 6.16). What "waits" means changed: before 4.1
 * it slept until the 30 s average fell to the minimum (the speed sits at
 * the floor), from 4.1 it drains its in-flight I/O once per window (the
 * speed lands anywhere between), from 6.16 only when more than
 * sync_io_depth requests are in flight. So:
 *  - a speed near the minimum with other I/O present is the floor binding:
 *    raising the minimum lifts it, at most to the new minimum;
 *  - a speed near the maximum with idle disks is the ceiling binding;
 *  - a speed below the minimum means md is not throttling at all: neither
 *    limit binds, and no limit will help;
 *  - everything else (other I/O between the limits, CPU, stripe cache) has
 *    no arithmetic gain: the report says so and names the probe.
 */
#include "explain.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_int.h"
#include "mdp_base.h"

#ifdef MDP_FAULT_SEAM
#include <assert.h>
/* Test builds check that a rule adds only the kinds of finding its table row says. */
#define assert_makes(cond) assert(cond)
#else
#define assert_makes(cond) ((void)0)
#endif

#define FOREIGN_MIN_KIB                                                                            \
	256                 /* nor below 256 KiB/s (FOREIGN_SHARE; a trickle changed nothing, §3) \
			     */
#define SWAP_MIN_PAGES 16.0 /* pages/s of swap in+out that count as competing */
#define USER_HZ        100.0

const char *mdp_explain_kind_name(enum mdp_xkind k)
{
	static const char *const names[] = {
	    "waiting",        "stuck",      "pathology",      "finishing",       "member",
	    "rebuild-target", "controller", "reshape-method", "ceiling",         "floor",
	    "competing-io",   "cpu",        "stripe-cache",   "request-pattern", "disks-at-limit",
	    "goal",           "info",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == MDP_XK_INFO + 1, "a name for each kind");
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "info";
}

const char *mdp_explain_gain_name(enum mdp_xgain g)
{
	switch (g) {
	case MDP_XG_UPPER:
		return "upper-bound";
	case MDP_XG_ROUGH:
		return "rough";
	case MDP_XG_ZERO:
		return "zero";
	default:
		return "unknown";
	}
}

bool mdp_explain_delta(uint64_t a, uint64_t b, uint64_t *out)
{
	if (b >= a) {
		*out = b - a;
		return true;
	}
	if (a <= UINT32_MAX && b <= UINT32_MAX) {
		*out = (UINT64_C(1) << 32) - a + b;
		return true;
	}
	return false;
}

/* ---- /proc/diskstats ----------------------------------------------------------------------- */

static int parse_io_line(const char *line, size_t len, struct mdp_xio *io)
{
	char buf[512], *save = NULL, *tok;
	uint64_t v[20];
	unsigned n = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, line, len);
	buf[len] = '\0';
	memset(io, 0, sizeof(*io));
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (n >= 20)
			return -EINVAL;
		if (n == 2) {
			if (strlen(tok) >= sizeof(io->name))
				return -EINVAL;
			strcpy(io->name, tok);
			v[n++] = 0;
			continue;
		}
		if (mdp_num_parse(tok, 0, UINT64_MAX, &v[n]))
			return -EINVAL;
		n++;
	}
	if (n == 7) { /* kernels before 2.6.25 for partitions: ios and sectors only */
		io->rd_ios = v[3], io->rd_sect = v[4], io->wr_ios = v[5], io->wr_sect = v[6];
	} else if (n == 14 || n == 18 || n == 20) {
		io->rd_ios = v[3], io->rd_merges = v[4], io->rd_sect = v[5], io->rd_ms = v[6];
		io->wr_ios = v[7], io->wr_merges = v[8], io->wr_sect = v[9], io->wr_ms = v[10];
		io->inflight = v[11], io->io_ticks = v[12];
		io->full = true;
	} else {
		return -EINVAL;
	}
	io->field = n;
	io->present = true;
	return 0;
}

int mdp_explain_parse_diskstats(const char *text, size_t len, struct mdp_xio **out, size_t *n)
{
	struct mdp_xio *v = NULL, one;
	size_t cnt = 0, cap = 0;

	if (!text || !out || !n)
		return -EINVAL;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (text + i)) : len - i;
		if (!parse_io_line(text + i, l, &one)) {
			if (mdp_grow_cap(&v, cnt, &cap, sizeof(*v))) {
				free(v);
				return -ENOMEM;
			}
			v[cnt++] = one;
		}
		i += l + 1;
	}
	*out = v;
	*n = cnt;
	return 0;
}

static const struct mdp_xio *io_find(const struct mdp_xio *io, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(io[i].name, name))
			return &io[i];
	return NULL;
}

void mdp_explain_disk_of(const char *part, const struct mdp_xio *io, size_t n, char *disk,
			 size_t cap)
{
	char cand[MDP_NAME_MAX];
	size_t l = strlen(part);

	snprintf(disk, cap, "%s", part);
	if (l >= sizeof(cand) || io_find(io, n, part) == NULL)
		return;
	memcpy(cand, part, l + 1);
	while (l && cand[l - 1] >= '0' && cand[l - 1] <= '9')
		cand[--l] = '\0';
	if (!l || l == strlen(part))
		return;
	/* "nvme0n1p2", "sata1p5", "mmcblk0p1": a 'p' after a digit separates the number. */
	if (l >= 2 && cand[l - 1] == 'p' && cand[l - 2] >= '0' && cand[l - 2] <= '9') {
		cand[l - 1] = '\0';
		if (io_find(io, n, cand))
			snprintf(disk, cap, "%s", cand);
		return;
	}
	if (io_find(io, n, cand))
		snprintf(disk, cap, "%s", cand);
}

unsigned mdp_explain_kver(const char *release)
{
	uint64_t maj, min;
	const char *end;

	if (!release || mdp_num_lead(release, SIZE_MAX, &maj, &end) || *end != '.' || maj > 99 ||
	    mdp_num_lead(end + 1, SIZE_MAX, &min, NULL) || min > 99)
		return 0;
	return (unsigned)(maj * 100 + min);
}

/* ---- the report's helpers ------------------------------------------------------------------ */

struct mdp_xfinding *mdp_xadd(struct mdp_xreport *r, enum mdp_xkind k)
{
	struct mdp_xfinding *f;

	if (r->n_findings == MDP_X_FINDINGS)
		return NULL;
	f = &r->findings[r->n_findings++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	return f;
}

void mdp_xev(struct mdp_xfinding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f || f->n_evidence == MDP_X_EVIDENCE)
		return;
	va_start(ap, fmt);
	vsnprintf(f->evidence[f->n_evidence++], MDP_X_TEXT, fmt, ap);
	va_end(ap);
}

void mdp_xrec(struct mdp_xfinding *f, enum mdp_xrec kind, const char *name, const char *value,
	      const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	f->rec = kind;
	snprintf(f->rec_name, sizeof(f->rec_name), "%s", name ? name : "");
	snprintf(f->rec_value, sizeof(f->rec_value), "%s", value ? value : "");
	va_start(ap, fmt);
	vsnprintf(f->rec_text, sizeof(f->rec_text), fmt, ap);
	va_end(ap);
}

/* f's gain: what the recommendation may bring (NULL, a full report: nothing). */
void mdp_xgain(struct mdp_xfinding *f, enum mdp_xgain g, uint64_t kib)
{
	if (!f)
		return;
	f->gain = g;
	f->gain_kib = kib;
}

/* The finding of kind k, or NULL. */
const struct mdp_xfinding *mdp_xfound(const struct mdp_xreport *r, enum mdp_xkind k)
{
	for (size_t i = 0; i < r->n_findings; i++)
		if (r->findings[i].kind == k)
			return &r->findings[i];
	return NULL;
}

/* Does f's recommendation raise a speed limit (a profile, or sync_speed_min/max)? */
static bool raises_limit(const struct mdp_xfinding *f)
{
	size_t l = strlen(f->rec_name);

	if (f->rec == MDP_XR_PROFILE)
		return true;
	return f->rec == MDP_XR_SETTING && l >= 15 &&
	       (!strcmp(f->rec_name + l - 15, "/sync_speed_min") ||
		!strcmp(f->rec_name + l - 15, "/sync_speed_max"));
}

/* Withdraw the recommendations of the findings other than kind k (those raising a limit only,
 * when limits_only): the finding k stands, and they would contradict or harm it. Whether it
 * stands. */
bool mdp_xwithdraw(struct mdp_xreport *r, enum mdp_xkind k, bool limits_only, const char *why)
{
	if (!mdp_xfound(r, k))
		return false;
	for (size_t i = 0; i < r->n_findings; i++) {
		struct mdp_xfinding *f = &r->findings[i];
		if (f->kind == k || f->rec == MDP_XR_NONE || (limits_only && !raises_limit(f)))
			continue;
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "%s", why);
		mdp_xdrop_goal_beside(f);
		f->gain = MDP_XG_UNKNOWN;
		f->gain_kib = 0;
	}
	return true;
}

void mdp_xutil_evidence(struct mdp_xctx *c, struct mdp_xfinding *f)
{
	char buf[MDP_X_TEXT];
	size_t o = 0;

	if (!c->util_known) {
		mdp_xev(
		    f, "disk utilisation: unknown (no full /proc/diskstats lines for the members)");
		return;
	}
	o += (size_t)snprintf(buf, sizeof(buf), "disks busy:");
	for (size_t i = 0; i < c->n && o < sizeof(buf) - 24; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, " %s %.0f%%%s", c->m[i]->disk,
				      c->disk[i].util, c->m[i]->rotational == 0 ? " (ssd)" : "");
	mdp_xev(f, "%s", buf);
}

/* ---- the measures, taken before the rules run ---------------------------------------------- */

static const struct mdp_xarray *arr_find(const struct mdp_xsample *s, const char *name)
{
	for (size_t i = 0; s && i < s->n_arrays; i++)
		if (!strcmp(s->arrays[i].name, name))
			return &s->arrays[i];
	return NULL;
}

static struct mdp_xrate io_rate(const struct mdp_xio *a, const struct mdp_xio *b, double dt)
{
	struct mdp_xrate r = {0};
	uint64_t rs, ws, ri, wi, rm, wm, t;

	if (!a->present || !b->present || !mdp_explain_delta(a->rd_sect, b->rd_sect, &rs) ||
	    !mdp_explain_delta(a->wr_sect, b->wr_sect, &ws) ||
	    !mdp_explain_delta(a->rd_ios, b->rd_ios, &ri) ||
	    !mdp_explain_delta(a->wr_ios, b->wr_ios, &wi))
		return r;
	r.ok = true;
	r.kib_s = (double)(rs + ws) / 2.0 / dt;
	r.rd_kib_s = (double)rs / 2.0 / dt;
	r.wr_kib_s = (double)ws / 2.0 / dt;
	r.ios = (double)(ri + wi);
	if (a->full && b->full && mdp_explain_delta(a->rd_ms, b->rd_ms, &rm) &&
	    mdp_explain_delta(a->wr_ms, b->wr_ms, &wm) &&
	    mdp_explain_delta(a->io_ticks, b->io_ticks, &t)) {
		r.full = true;
		r.util = (double)t / (dt * 1000.0) * 100.0;
		if (r.util > 100.0)
			r.util = 100.0;
		r.await = r.ios > 0 ? (double)(rm + wm) / r.ios : 0;
	}
	return r;
}

static struct mdp_xlimit eff_limit(const struct mdp_xlimit *arr, const struct mdp_xlimit *sys)
{
	if (arr->read)
		return *arr;
	return *sys;
}

static void gather_members(struct mdp_xctx *c)
{
	const struct mdp_xarray *a0 = c->a0, *a1 = c->a1;

	c->util_known = true;
	c->all_rotational = true;
	c->util_min = 1e9;
	for (size_t i = 0; i < a1->n_members && c->n < MDP_X_MEMBERS; i++) {
		const struct mdp_xmember *m1 = &a1->members[i], *m0 = NULL;
		for (size_t j = 0; j < a0->n_members; j++)
			if (!strcmp(a0->members[j].name, m1->name))
				m0 = &a0->members[j];
		if (!m0 || m1->spare || m1->faulty || strstr(m1->state, "faulty"))
			continue;
		c->m[c->n] = m1;
		/* md/dev-X/state lacks in_sync on the disk a recovery writes */
		c->target[c->n] = m1->state[0] && !strstr(m1->state, "in_sync");
		c->disk[c->n] = io_rate(&m0->whole, &m1->whole, c->dt);
		c->part[c->n] = io_rate(&m0->part, &m1->part, c->dt);
		if (!c->disk[c->n].full) {
			c->util_known = false;
		} else {
			if (c->disk[c->n].util > c->util_max)
				c->util_max = c->disk[c->n].util;
			if (c->disk[c->n].util < c->util_min)
				c->util_min = c->disk[c->n].util;
		}
		if (m1->rotational != 1)
			c->all_rotational = false;
		/* md0, md127p1: md's own I/O through it is what md sees on this member */
		if (!strncmp(m1->name, "md", 2) && m1->name[2] >= '0' && m1->name[2] <= '9')
			c->stacked = true;
		c->media_bits |= 1u << m1->media;
		c->n++;
	}
	if (!c->n)
		c->util_known = false, c->all_rotational = false;
	c->nonrot = c->n && !(c->media_bits & ~(1u << MDP_MEDIA_SSD | 1u << MDP_MEDIA_NVME));
	c->media = c->media_bits & 1u << MDP_MEDIA_UNKNOWN ? MDP_MEDIA_UNKNOWN
		   : c->media_bits & (c->media_bits - 1)   ? MDP_MEDIA_MIXED
							   : MDP_MEDIA_UNKNOWN;
	for (int k = MDP_MEDIA_HDD; k <= MDP_MEDIA_NVME; k++)
		if (c->media_bits == 1u << k)
			c->media = (enum mdp_media)k;
}

static void gather_foreign(struct mdp_xctx *c)
{
	struct mdp_xrate md = io_rate(&c->a0->io, &c->a1->io, c->dt);
	uint64_t d;

	c->foreign_known = md.ok;
	c->md_kib = md.ok ? md.kib_s : 0;
	c->md_inflight = (double)((c->a0->io.inflight + c->a1->io.inflight) / 2);
	for (size_t i = 0; i < c->n; i++) {
		double k;
		bool seen = false;
		if (!c->disk[i].ok || !c->part[i].ok) {
			c->foreign_known = false;
			continue;
		}
		c->sync_kib += c->part[i].kib_s;
		if (!strcmp(c->m[i]->disk, c->m[i]->name))
			continue;
		k = c->disk[i].kib_s - c->part[i].kib_s;
		c->other_kib[i] = k = k < 0 ? 0 : k;
		/* a disk holding two members counts once */
		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(c->m[j]->disk, c->m[i]->disk);
		if (seen)
			continue;
		c->holder_kib += k;
		if (k > c->holder_top_kib) {
			c->holder_top_kib = k;
			snprintf(c->holder_top, sizeof(c->holder_top), "%s", c->m[i]->disk);
		}
	}
	if (c->s0->vmstat_read && c->s1->vmstat_read &&
	    mdp_explain_delta(c->s0->pswpin, c->s1->pswpin, &d)) {
		uint64_t o = 0;
		mdp_explain_delta(c->s0->pswpout, c->s1->pswpout, &o);
		c->swap_pages = (double)(d + o) / c->dt;
	}
	/* per member disk, what is not the sync: compare with the sync's own traffic */
	{
		double per_disk = c->n ? c->sync_kib / (double)c->n : 0;
		double thr = per_disk * FOREIGN_SHARE;
		if (thr < FOREIGN_MIN_KIB)
			thr = FOREIGN_MIN_KIB;
		c->foreign_thr = thr;
		c->foreign =
		    c->md_kib >= thr || c->holder_top_kib >= thr || c->swap_pages >= SWAP_MIN_PAGES;
	}
}

/* The share of one CPU thread i of a1 used over the window; -1 unknown. */
double mdp_xthread_share(const struct mdp_xctx *c, size_t i)
{
	uint64_t d;

	for (size_t j = 0; j < c->a0->n_threads; j++)
		if (c->a0->threads[j].pid == c->a1->threads[i].pid &&
		    mdp_explain_delta(c->a0->threads[j].ticks, c->a1->threads[i].ticks, &d))
			return (double)d / USER_HZ / c->dt;
	return -1;
}

static const char *rule_of(const struct mdp_xsample *s, unsigned kver)
{
	if (s->sync_io_depth)
		return "depth";
	if (!kver)
		return "unknown";
	return kver >= 401 ? "drain" : "sleep";
}

/* Which limit binds. Members that are md devices: md may count its own I/O through them as
 * activity and hold the array at (or under) its minimum, so "below" is no "not throttling". */
static void binds(struct mdp_xctx *c)
{
	const struct mdp_xreport *r = c->r;

	if (!r->min.read || !r->max.read)
		c->r->binds = "";
	else if (md_view(c) >= CEIL_SHARE * (double)r->max.kib)
		c->r->binds = "max";
	else if (md_view(c) < (1 - FLOOR_BAND) * (double)r->min.kib &&
		 !(c->stacked && md_view(c) > 0))
		c->r->binds = "below-min";
	else if (md_view(c) <= (1 + FLOOR_BAND) * (double)r->min.kib)
		c->r->binds = "min";
	else
		c->r->binds = "between";
}

/* An array that appeared, disappeared or is idle: true when there is nothing more to check. */
static bool not_running(struct mdp_xctx *c, const char *name)
{
	struct mdp_xreport *out = c->r;
	struct mdp_xfinding *f;

	if (!c->a0 || !c->a1) { /* assembled or stopped between the samples */
		f = mdp_xadd(out, MDP_XK_INFO);
		snprintf(out->action, sizeof(out->action), "none");
		mdp_xev(f, "%s %s between the samples", name, c->a1 ? "appeared" : "disappeared");
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none");
		return true;
	}
	if (running(c->a1) || c->a1->queued[0] || !strcmp(c->a1->action, "frozen") ||
	    mdp_explain_reshape_held(c->a1))
		return false;
	snprintf(out->action, sizeof(out->action), "none");
	if (running(c->a0)) {
		f = mdp_xadd(out, MDP_XK_INFO);
		mdp_xev(f, "the %s ended between the samples", noun(c->a0->action));
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none");
	}
	return true;
}

/* ---- the rule table and its driver --------------------------------------------------------- */

#define K(k) MDP_XKIND(MDP_XK_##k)

/*
 * Every rule, in the order the driver (walk) runs them. A rule fires or not; a stop rule
 * that fires (waiting, stuck: no speed to explain) ends the speed and withdraw phases, but
 * a speed row's beside lets it run after a stop beside a finding of those kinds, and the
 * note and close phases always run. unless skips a row while a finding of its kinds stands.
 *
 * The order is the report's: findings come out in this order, the binding one first
 * (docs/explain.md's list of the checks, which test_docs_order holds to the table), and the
 * info lines after them in the same order; a report holds MDP_X_FINDINGS, so a late row is
 * the one left out of a full report. Beyond that a rule reads what earlier rules left, in
 * the ctx (moving clears the stall) or in the report (the kinds its unless and beside name;
 * competing-io reads the floor's finding): after names the rules that must come first and
 * why says why; tests/unit/test_explain_rules.c fails when the rows break one.
 *
 * One report, one direction (issue 39): the withdrawals come after every finding. While a
 * failing or slow member or the disk being rebuilt sets the pace, nothing raises a limit (it
 * pushes that disk harder and takes more from the users); less than 30 minutes left, a
 * backup-bound reshape, disks at their limit and a full controller leave nothing to tune, and
 * the other findings stay as evidence without a recommendation. A withdrawn recommendation
 * keeps the first reason, so their order is the precedence of the reasons. The watcher's
 * goal (mdp_explain_goal) withdraws last, after the whole table: the caller adds it.
 */
const struct mdp_xrule mdp_xrules[] = {
    {"window", MDP_XF_PROGRESS, MDP_XP_NOTE, mdp_xr_window, .makes = K(INFO)},
    {"moving", MDP_XF_PROGRESS, MDP_XP_NOTE, mdp_xr_moving, .makes = K(INFO)},
    {"waiting", MDP_XF_PROGRESS, MDP_XP_STOP, mdp_xr_waiting, .makes = K(WAITING),
     .after = "moving",
     .why = "progress parked at md/sync_max is read as stalled: moving clears a stall that is "
	    "only a position moving in coarse steps"},
    {"stuck", MDP_XF_PROGRESS, MDP_XP_STOP, mdp_xr_stuck, .makes = K(STUCK) | K(WAITING),
     .after = "moving waiting",
     .why = "an operation delayed, pending, held, frozen or parked makes no progress either: it "
	    "waits, it is not stuck; and a position moving in coarse steps is not stalled"},
    {"pathology", MDP_XF_PROGRESS, MDP_XP_SPEED, mdp_xr_pathology, .makes = K(PATHOLOGY)},
    {"finishing", MDP_XF_PROGRESS, MDP_XP_SPEED, mdp_xr_finishing, .makes = K(FINISHING) | K(INFO),
     .after = "moving", .why = "moving gives a position moving in coarse steps its ETA back"},
    {"member", MDP_XF_MEMBERS, MDP_XP_SPEED, mdp_xr_member,
     .makes = K(MEMBER) | K(CONTROLLER) | K(INFO), .beside = K(STUCK),
     .why = "member health is said beside a stuck array too: a failing disk is news whether md "
	    "moves or not"},
    {"rebuild-target", MDP_XF_MEMBERS, MDP_XP_SPEED, mdp_xr_target, .makes = K(TARGET)},
    {"controller", MDP_XF_MEMBERS, MDP_XP_SPEED, mdp_xr_controller, .makes = K(CONTROLLER),
     .unless = K(CONTROLLER),
     .why = "busy members behind one bus are already a controller finding (member): not "
	    "counted twice"},
    {"reshape-method", MDP_XF_PROGRESS, MDP_XP_SPEED, mdp_xr_reshape,
     .makes = K(RESHAPE_METHOD) | K(INFO)},
    {"skipping", MDP_XF_PROGRESS, MDP_XP_SPEED, mdp_xr_skipping, .makes = K(INFO)},
    {"ceiling", MDP_XF_LIMITS, MDP_XP_SPEED, mdp_xr_ceiling, .makes = K(CEILING)},
    {"floor", MDP_XF_LIMITS, MDP_XP_SPEED, mdp_xr_floor, .makes = K(FLOOR)},
    {"competing-io", MDP_XF_LIMITS, MDP_XP_SPEED, mdp_xr_competing, .makes = K(COMPETING_IO),
     .after = "floor",
     .why = "beside a floor finding it recommends nothing beyond the floor's: one "
	    "recommendation for the same other I/O"},
    {"cpu", MDP_XF_CPU, MDP_XP_SPEED, mdp_xr_cpu, .makes = K(CPU)},
    {"stripe-cache", MDP_XF_CPU, MDP_XP_SPEED, mdp_xr_stripe, .makes = K(STRIPE_CACHE) | K(INFO)},
    {"request-pattern", MDP_XF_CPU, MDP_XP_SPEED, mdp_xr_requests, .makes = K(REQUEST_PATTERN),
     .unless = K(FLOOR),
     .why = "md holding the sync at its minimum sets the pace, whatever size its requests are: "
	    "'no limit changes that' beside the floor's raised minimum would contradict it"},
    {"disks-at-limit", MDP_XF_MEMBERS, MDP_XP_SPEED, mdp_xr_disks,
     .makes = K(DISKS_AT_LIMIT) | K(INFO), .unless = K(CONTROLLER),
     .why = "behind a full controller or link the disks are busy waiting on it, not at their "
	    "own limit"},
    {"no-cause", MDP_XF_MEMBERS, MDP_XP_SPEED, mdp_xr_no_cause, .makes = K(INFO),
     .unless = MDP_XCAUSES, .why = "it says that no rule found a cause"},
    /* withdrawals: md in trouble, the harm rules, then those that leave nothing to tune */
    {"withdraw-for-pathology", MDP_XF_PROGRESS, MDP_XP_WITHDRAW, mdp_xw_pathology, .makes = 0},
    {"withdraw-for-scrub", MDP_XF_LIMITS, MDP_XP_WITHDRAW, mdp_xw_scrub, .makes = 0,
     .after = "withdraw-for-pathology",
     .why = "md in trouble is said before a scrub's users: nothing is tuned until it is dealt "
	    "with"},
    {"withdraw-for-member", MDP_XF_MEMBERS, MDP_XP_WITHDRAW, mdp_xw_member,
     .after = "withdraw-for-scrub",
     .why = "a scrub that competes with the users is stopped first: its reason is said first"},
    {"withdraw-for-rebuild-target", MDP_XF_MEMBERS, MDP_XP_WITHDRAW, mdp_xw_target,
     .after = "withdraw-for-member",
     .why = "a failing member is the harm to name before the disk being rebuilt"},
    {"withdraw-for-finishing", MDP_XF_PROGRESS, MDP_XP_WITHDRAW, mdp_xw_finishing,
     .after = "withdraw-for-scrub withdraw-for-member withdraw-for-rebuild-target",
     .why = "a higher limit that would harm says so, not merely 'not worth tuning'"},
    {"withdraw-for-reshape-method", MDP_XF_PROGRESS, MDP_XP_WITHDRAW, mdp_xw_reshape,
     .after = "withdraw-for-finishing",
     .why = "less than 30 minutes left is said before the backup copy's pace"},
    {"withdraw-for-disks-at-limit", MDP_XF_MEMBERS, MDP_XP_WITHDRAW, mdp_xw_disks,
     .after = "withdraw-for-finishing withdraw-for-reshape-method",
     .why = "the operation's own end and pace are said before the disks' limit"},
    {"withdraw-for-controller", MDP_XF_MEMBERS, MDP_XP_WITHDRAW, mdp_xw_controller,
     .after = "withdraw-for-finishing withdraw-for-reshape-method",
     .why = "the operation's own end and pace are said before the controller's limit"},
    {"harm-check", MDP_XF_MEMBERS, MDP_XP_WITHDRAW, mdp_xw_unchecked, .makes = 0,
     .after = "withdraw-for-pathology withdraw-for-scrub withdraw-for-member "
	      "withdraw-for-rebuild-target withdraw-for-finishing withdraw-for-reshape-method "
	      "withdraw-for-disks-at-limit withdraw-for-controller",
     .why = "the check is said only on a recommendation every withdrawal left standing"},
    {"info", MDP_XF_PROGRESS, MDP_XP_CLOSE, mdp_xr_info, .makes = K(INFO)},
};

#undef K

const size_t mdp_xrules_n = sizeof(mdp_xrules) / sizeof(mdp_xrules[0]);

/* The kinds of r's findings, as MDP_XKIND bits. */
static unsigned kinds(const struct mdp_xreport *r)
{
	unsigned k = 0;

	for (size_t i = 0; i < r->n_findings; i++)
		k |= MDP_XKIND(r->findings[i].kind);
	return k;
}

/* Does rule x run now, with findings of kinds k and a stop rule fired or not? */
static bool runs(const struct mdp_xrule *x, unsigned k, bool stopped)
{
	if (k & x->unless)
		return false;
	if (!stopped || x->phase == MDP_XP_NOTE || x->phase == MDP_XP_CLOSE)
		return true;
	return x->phase == MDP_XP_SPEED && (k & x->beside);
}

/* The rules in the table's order. */
static void walk(struct mdp_xctx *c)
{
	bool stopped = false;

	for (size_t i = 0; i < mdp_xrules_n; i++) {
		const struct mdp_xrule *x = &mdp_xrules[i];
		size_t before = c->r->n_findings;
		bool fired;

		if (!runs(x, kinds(c->r), stopped))
			continue;
		fired = x->check(c);
		for (size_t j = before; j < c->r->n_findings; j++)
			assert_makes(x->makes & MDP_XKIND(c->r->findings[j].kind));
		stopped |= fired && x->phase == MDP_XP_STOP;
	}
}

/* The binding finding first: the checks' order, then what is only noted. */
static void order_findings(struct mdp_xreport *out)
{
	struct mdp_xfinding tmp[MDP_X_FINDINGS];
	size_t k = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < out->n_findings; i++)
			if ((out->findings[i].kind == MDP_XK_INFO) == (pass == 1))
				tmp[k++] = out->findings[i];
	memcpy(out->findings, tmp, k * sizeof(tmp[0]));
}

int mdp_explain_array(const struct mdp_xsample *s0, const struct mdp_xsample *s1, double dt,
		      const char *name, const struct mdp_xprofiles *pro, struct mdp_xreport *out)
{
	struct mdp_xctx c = {.s0 = s0, .s1 = s1, .dt = dt, .r = out, .pro = pro};

	if (!(dt > 0))
		return -EINVAL;
	c.a0 = arr_find(s0, name);
	c.a1 = arr_find(s1, name);
	if (!c.a0 && !c.a1)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	snprintf(out->array, sizeof(out->array), "%s", name);
	out->window_s = dt;
	out->binds = "";
	c.kver = mdp_explain_kver(s1->release);
	out->rule = rule_of(s1, c.kver);
	if (c.a0 && c.a1) {
		out->min = eff_limit(&c.a1->min, &s1->sys_min);
		out->max = eff_limit(&c.a1->max, &s1->sys_max);
	}
	if (not_running(&c, name))
		return 0;
	/* a queued operation is a resync md has not started (mdstat's resync=DELAYED/PENDING) */
	snprintf(out->action, sizeof(out->action), "%s",
		 c.a1->queued[0]                  ? "resync"
		 : mdp_explain_reshape_held(c.a1) ? "reshape"
						  : c.a1->action);
	mdp_xprogress(&c);
	gather_members(&c);
	gather_foreign(&c);
	binds(&c);
	walk(&c);
	order_findings(out);
	return 0;
}

bool mdp_explain_recommends(const struct mdp_xreport *r)
{
	for (size_t i = 0; i < r->n_findings; i++)
		if (r->findings[i].rec != MDP_XR_NONE)
			return true;
	return false;
}
