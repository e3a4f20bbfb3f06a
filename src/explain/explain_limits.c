/*
 * explain's limits family: md's minimum and maximum, the other I/O that
 * makes md yield, and the shipped profiles that raise them (explain_int.h).
 * ceiling, floor, competing-io, what a profile would set on this array (its
 * disks' class, at_least, refused or capping: then the next one, or none),
 * a scrub's withdrawal, and the watcher's latency goal (mdp_explain_goal,
 * which the caller adds after the rule table).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "explain_int.h"

/* KiB/s: a maximum below this caps SSD and NVMe arrays, which rebuild at 1.0-1.4 GB/s a device
 * (issue 38: a 4-disk NVMe raid5 went from 207 to 1027 MB/s with the maximum at 3600000) */
#define NONROT_UNCAPPED 2000000

/* The shipped profiles explain may recommend, gentlest first; their limits are the caller's
 * (struct mdp_xprofiles, read from the profiles themselves). A profile with a latency goal
 * (responsive) is never picked for its limits: it is offered beside them (goal_beside). */
static const char *const shipped[] = {"balanced", "reshape-fast", "responsive"};

static const char *limit_src(const struct mdp_xlimit *l)
{
	return l->local ? "local" : "system";
}

const char *mdp_explain_profile(size_t i)
{
	return i < sizeof(shipped) / sizeof(shipped[0]) ? shipped[i] : NULL;
}

/* Whether apply would refuse shipped profile p here; if so f's evidence says why. */
static bool refused(const struct mdp_xctx *c, struct mdp_xfinding *f, const char *p)
{
	for (size_t i = 0; c->pro && i < c->pro->n; i++)
		if (c->pro->v[i].refused && !strcmp(c->pro->v[i].name, p)) {
			mdp_xev(f, "%s: apply refuses it on this box (%s)", p, c->pro->v[i].why);
			return true;
		}
	return false;
}

/* The array's class in words: "nvme", "ssd", "ssd and nvme" (mixed, all non-rotational). */
static const char *class_word(const struct mdp_xctx *c)
{
	return c->nonrot && c->media == MDP_MEDIA_MIXED ? "ssd and nvme"
							: mdp_ident_media_name(c->media);
}

/*
 * The minimum profile p gives this array: what a rule selecting its disks' class sets on it
 * (reshape-fast's own for SSD and NVMe arrays), else the profile's sysctl; 0 when none.
 * *by_class: the class rule's; *kept: at_least (a higher minimum the box has stays).
 */
static uint64_t min_of(const struct mdp_xctx *c, const struct mdp_xprofile *p, bool *by_class,
		       bool *kept)
{
	uint64_t v = 0;
	bool fl = false;

	/* an array of several classes gets a class rule's only if it names them all */
	for (int k = 0; c->media_bits && k < MDP_MEDIA_COUNT; k++) {
		if (!(c->media_bits & 1u << k))
			continue;
		if (!p->class_min[k]) {
			v = 0;
			break;
		}
		if (!v || p->class_min[k] < v)
			v = p->class_min[k], fl = p->class_min_floor[k];
	}
	*by_class = v != 0;
	*kept = v ? fl : p->min_floor;
	return v ? v : p->min;
}

static const struct mdp_xprofile *profile_named(const struct mdp_xctx *c, const char *name)
{
	for (size_t i = 0; c->pro && i < c->pro->n; i++)
		if (!strcmp(c->pro->v[i].name, name))
			return &c->pro->v[i];
	return NULL;
}

/*
 * The maximum in force once profile name is applied: its own, or the box's where the
 * profile sets none or keeps a higher one (at_least); 0 when the box's is not known.
 */
static uint64_t max_after(const struct mdp_xctx *c, const char *name)
{
	uint64_t box = c->r->max.read ? c->r->max.kib : 0;
	const struct mdp_xprofile *p = profile_named(c, name);

	if (!p || !p->max)
		return box;
	return p->max_floor && box > p->max ? box : p->max;
}

/*
 * Would profile name cap this SSD or NVMe array (issue 38)? They rebuild at 1.0-1.4 GB/s a
 * device, so a maximum in force below NONROT_UNCAPPED after it, or a fixed minimum below the
 * one the array has (md then throttles it further under load), holds them back. If so, f's
 * evidence says so with the profile's own figure. Hard disks: never.
 */
static bool caps(const struct mdp_xctx *c, struct mdp_xfinding *f, const char *name)
{
	const struct mdp_xprofile *p = profile_named(c, name);
	uint64_t mx = max_after(c, name), mn;
	bool by_class, kept;

	if (!c->nonrot || !p)
		return false;
	if (mx && mx < NONROT_UNCAPPED) {
		mdp_xev(f, "%s: would cap this %s array (maximum %llu KiB/s in force after it)",
			name, class_word(c), (unsigned long long)mx);
		return true;
	}
	mn = min_of(c, p, &by_class, &kept);
	if (mn && !kept && c->r->min.read && mn < c->r->min.kib) {
		mdp_xev(f, "%s: would lower this %s array's minimum from %llu to %llu KiB/s", name,
			class_word(c), (unsigned long long)c->r->min.kib, (unsigned long long)mn);
		return true;
	}
	return false;
}

/* Profile name does not fit here: apply would refuse it, or it would cap the array. */
static bool unfit(const struct mdp_xctx *c, struct mdp_xfinding *f, const char *name)
{
	return refused(c, f, name) || caps(c, f, name);
}

/* reshape-fast as f's recommendation (text); none (why) where it does not fit. */
void mdp_xrec_fast(const struct mdp_xctx *c, struct mdp_xfinding *f, const char *none,
		   const char *text)
{
	if (unfit(c, f, "reshape-fast"))
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "%s", none);
	else
		mdp_xrec(f, MDP_XR_PROFILE, "reshape-fast", NULL, "%s", text);
}

/* The first shipped profile that fits whose limit is above have (by at least half again);
 * *val its limit for this array, *by_class: a disk-class rule's minimum. */
static const char *profile_above(const struct mdp_xctx *c, struct mdp_xfinding *f, uint64_t have,
				 bool want_max, uint64_t *val, bool *by_class)
{
	bool cls = false, kept;

	for (size_t i = 0; c->pro && i < c->pro->n; i++) {
		const struct mdp_xprofile *p = &c->pro->v[i];
		uint64_t v = want_max ? p->max : min_of(c, p, &cls, &kept);
		if (p->goal_ms)
			continue;
		if (v && v >= have + have / 2 && !unfit(c, f, p->name)) {
			*val = v;
			if (by_class)
				*by_class = !want_max && cls;
			return p->name;
		}
	}
	return NULL;
}

/* The highest maximum a shipped profile sets, as the profiles say it; 0 when none does. */
static uint64_t shipped_max(const struct mdp_xctx *c)
{
	uint64_t v = 0;

	for (size_t i = 0; c->pro && i < c->pro->n; i++)
		if (!c->pro->v[i].goal_ms)
			v = c->pro->v[i].max > v ? c->pro->v[i].max : v;
	return v;
}

/*
 * The array's own limit as a setting: its name (mdN/sync_speed_max or _min) in n and v in
 * val; an own (local) limit is evidence, since a profile's sysctl does not reach it.
 */
static void own_limit(const struct mdp_xctx *c, struct mdp_xfinding *f, bool is_max, bool local,
		      uint64_t v, char (*n)[64], char (*val)[32])
{
	const char *k = is_max ? "max" : "min";

	snprintf(*n, sizeof(*n), "%s/sync_speed_%s", c->a1->name, k);
	snprintf(*val, sizeof(*val), "%llu", (unsigned long long)v);
	if (local)
		mdp_xev(f,
			"the array's own %s (local) overrides dev.raid.speed_limit_%s: a profile's "
			"sysctl does not lift it",
			is_max ? "maximum" : "minimum", k);
}

/* What a higher maximum costs by md's pacing rule (before 4.1 md sleeps down to the minimum
 * while it sees other I/O; since, above the minimum, it only drains or caps its own
 * requests), and, for the array's own value, that someone set it: ask why first. */
static void ceiling_tradeoff(const struct mdp_xctx *c, struct mdp_xfinding *f, bool local)
{
	if (c->r->rule && !strcmp(c->r->rule, "sleep"))
		mdp_xev(f, "trade-off: little while users work (md sleeps down to the minimum "
			   "while it sees their I/O): a higher maximum lets the sync take the "
			   "disks when they are quiet; the old value can be set back at once");
	else
		mdp_xev(f, "trade-off: above the minimum md yields to other I/O only by draining "
			   "or capping its own requests, so a higher maximum lets the sync take "
			   "more of the disks from users while they work; the old value can be set "
			   "back at once");
	if (local)
		mdp_xev(f, "check first: a tool or a person set this array's own maximum, maybe "
			   "to keep it responsive; find out why before lifting it");
}

/* ceiling: md's own speed at 90 % of the maximum, the disks under 80 % busy. */
bool mdp_xr_ceiling(struct mdp_xctx *c)
{
	const struct mdp_xlimit *mx = &c->r->max;
	struct mdp_xfinding *f;
	uint64_t v = 0;
	const char *p;
	char n[64];

	if (!mx->read || md_view(c) < CEIL_SHARE * (double)mx->kib)
		return false;
	if (c->util_known && c->util_max >= UTIL_FREE)
		return false;
	f = mdp_xadd(c->r, MDP_XK_CEILING);
	mdp_xev(f, "speed %.0f KiB/s, maximum %llu (%s): md sleeps above it", c->speed,
		(unsigned long long)mx->kib, limit_src(mx));
	if (md_view(c) > c->speed + 1)
		mdp_xev(
		    f,
		    "md/sync_speed %lld: md's own 30 s average, the figure md compares with the "
		    "maximum, is still above it, so md sleeps until it falls",
		    (long long)c->a1->sync_speed);
	mdp_xutil_evidence(c, f);
	p = profile_above(c, f, mx->kib, true, &v, NULL);
	if (mx->local || !p) {
		/* SSD and NVMe: a number that caps none of them, from the profiles where one
		 * sets more; "system" only where the sysctl caps none either */
		bool number =
		    !mx->local ||
		    (c->nonrot && (!c->s1->sys_max.read || c->s1->sys_max.kib < NONROT_UNCAPPED));
		char val[32];
		v = mx->kib * 2;
		if (c->nonrot) {
			v = shipped_max(c) > v ? shipped_max(c) : v;
			v = v < NONROT_UNCAPPED ? NONROT_UNCAPPED : v;
		}
		own_limit(c, f, true, mx->local, v, &n, &val);
		if (!number)
			mdp_xrec(
			    f, MDP_XR_SETTING, n, "system",
			    "echo system > /sys/block/%s/md/sync_speed_max (or a higher number)",
			    c->a1->name);
		else if (mx->local)
			mdp_xrec(f, MDP_XR_SETTING, n, val,
				 "echo %s > /sys/block/%s/md/sync_speed_max", val, c->a1->name);
		else
			mdp_xrec(f, MDP_XR_SETTING, n, val, "raise /sys/block/%s/md/sync_speed_max",
				 c->a1->name);
		if (!number && c->s1->sys_max.read && c->s1->sys_max.kib > mx->kib)
			v = c->s1->sys_max.kib;
	} else {
		mdp_xrec(f, MDP_XR_PROFILE, p, NULL, "apply %s (maximum %llu KiB/s)", p,
			 (unsigned long long)v);
	}
	ceiling_tradeoff(c, f, mx->local);
	if (c->util_known && c->util_max >= 10 && md_view(c) <= c->speed + 1) {
		double to = c->speed * UTIL_BUSY / c->util_max;
		mdp_xgain(f, MDP_XG_ROUGH, kib_of(to < (double)v ? to : (double)v));
	}
	return true;
}

static void foreign_evidence(struct mdp_xctx *c, struct mdp_xfinding *f)
{
	if (c->md_kib >= 1 || c->md_inflight >= 1)
		mdp_xev(f, "%s itself: %.0f KiB/s of other reads and writes, %.0f in flight",
			c->a1->name, c->md_kib, c->md_inflight);
	if (c->holder_top_kib >= 1)
		mdp_xev(f,
			"other partitions of the member disks: %.0f KiB/s in all, most on %s "
			"(%.0f KiB/s)",
			c->holder_kib, c->holder_top, c->holder_top_kib);
	if (c->swap_pages >= 1)
		mdp_xev(f, "swap: %.0f pages/s in and out (/proc/vmstat)", c->swap_pages);
}

static bool scrub(const struct mdp_xctx *c)
{
	return !strcmp(c->a1->action, "check") || !strcmp(c->a1->action, "repair");
}

/* A scrub competing with other I/O: pause or reschedule it, before any profile (issue 39). */
static void rec_scrub(const struct mdp_xctx *c, struct mdp_xfinding *f)
{
	mdp_xev(f, "trade-off: a check stopped by hand keeps no place: it starts over unless "
		   "md/sync_min is first set to where md/sync_completed says it stopped "
		   "(mdcheck keeps its own)");
	mdp_xrec(
	    f, MDP_XR_NONE, NULL, NULL,
	    "none: stop the scrub (echo idle > /sys/block/%s/md/sync_action) and run it when the "
	    "box is quiet (mdcheck --continue resumes it); a higher minimum takes the disks from "
	    "the users",
	    c->a1->name);
}

/* What a higher minimum costs: the competing I/O's measured share of the member disks. */
static void tradeoff(const struct mdp_xctx *c, struct mdp_xfinding *f)
{
	double other = c->md_kib + c->holder_kib, all = other + c->sync_kib;

	if (other < 1 || all <= 0)
		return;
	mdp_xev(
	    f,
	    "trade-off: the other I/O (%.0f KiB/s, %.0f%% of the member disks' traffic now) loses "
	    "disk time to a higher minimum: md stops yielding to it below the minimum",
	    other, 100.0 * other / all);
}

/* goal_beside's words begin so; a goal that already steers drops them (mdp_explain_goal) */
#define GOAL_BESIDE "or 'mdprofile auto "

/*
 * Beside a fixed profile's higher minimum, the goal profile: the watcher gives the rebuild
 * what the shares' requests leave under the goal, which a fixed minimum cannot (it takes
 * the disks whatever the shares wait). Said where one fits here; nothing when none does.
 */
static void goal_beside(const struct mdp_xctx *c, struct mdp_xfinding *f)
{
	for (size_t i = 0; c->pro && i < c->pro->n; i++) {
		const struct mdp_xprofile *p = &c->pro->v[i];
		if (!p->goal_ms || p->refused)
			continue;
		mdp_xev(
		    f,
		    GOAL_BESIDE
		    "%s': the limits steered to hold the shares' requests "
		    "under %u ms; slower than a fixed minimum while they are busy, full speed when "
		    "they stop",
		    p->name, p->goal_ms);
		return;
	}
}

/*
 * md's idle test may count md's own I/O as activity: members that are md devices (md counts
 * the I/O through them as other activity on older kernels, and throttles an idle stacked array
 * to its minimum), or the array at its minimum with no I/O of anyone else in sight. f's
 * evidence says which; whether it applies.
 */
static bool idle_test(struct mdp_xctx *c, struct mdp_xfinding *f)
{
	char names[MDP_X_TEXT];
	size_t o = 0;

	if (c->stacked) {
		for (size_t i = 0; i < c->n && o < sizeof(names) - MDP_NAME_MAX - 2; i++)
			if (!strncmp(c->m[i]->name, "md", 2))
				o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s",
						      o ? ", " : "", c->m[i]->name);
		mdp_xev(f,
			"members %s are md devices: md may count its own I/O through them as "
			"other activity and hold the array at its minimum even when idle",
			o ? names : "(unnamed)");
		return true;
	}
	if (c->foreign)
		return false;
	mdp_xev(f,
		"no other I/O on %s itself (%.0f KiB/s, none in flight), its disks' other "
		"partitions or swap: md's idle test may be counting its own I/O as activity",
		c->a1->name, c->md_kib);
	return true;
}

/* The minimum's band: md at it (within 15 %), or for a stacked array at or under it. */
static bool at_floor(const struct mdp_xctx *c)
{
	double v = md_view(c), mn = (double)c->r->min.kib;

	if (!(v > 0) || v > (1 + FLOOR_BAND) * mn)
		return false;
	return c->stacked || v >= (1 - FLOOR_BAND) * mn;
}

/* No I/O of anyone else to starve and the disks not at their limit: a quiet array's floor. */
static bool quiet(const struct mdp_xctx *c)
{
	return !c->foreign && c->a1->io.present && c->md_inflight < 1 &&
	       (!c->util_known || c->util_max < UTIL_BUSY);
}

/* The floor's recommendation: the profile above the minimum, or the array's own setting; the
 * upper bound it gives (the new minimum, capped by the maximum in force). */
static void rec_floor(struct mdp_xctx *c, struct mdp_xfinding *f)
{
	const struct mdp_xlimit *mn = &c->r->min;
	bool by_class = false;
	uint64_t v = 0;
	const char *p = profile_above(c, f, mn->kib, false, &v, &by_class);

	if (mn->local || !p) {
		char n[64], val[32];
		v = p ? v : mn->kib * 2;
		own_limit(c, f, false, mn->local, v, &n, &val);
		mdp_xrec(f, MDP_XR_SETTING, n, val, "echo %s > /sys/block/%s/md/sync_speed_min",
			 val, c->a1->name);
		if (c->r->max.read && v > c->r->max.kib)
			v = c->r->max.kib;
	} else {
		uint64_t mx = max_after(c, p);
		mdp_xrec(f, MDP_XR_PROFILE, p, NULL, "apply %s (minimum %llu KiB/s%s%s%s)", p,
			 (unsigned long long)v, by_class ? " on " : "",
			 by_class ? class_word(c) : "", by_class ? " arrays" : "");
		if (mx && v > mx)
			v = mx;
		if (c->foreign) /* the goal weighs the shares' waits: none to weigh without */
			goal_beside(c, f);
	}
	mdp_xgain(f, MDP_XG_UPPER, v);
}

/*
 * floor: md's own speed within 15 % of the minimum while other I/O runs; or at it with nobody
 * else's I/O in sight, or at or under it on members that are md devices: md's idle test
 * counting md's own I/O (issue 51). Raising the minimum is harmless while nothing else runs.
 */
bool mdp_xr_floor(struct mdp_xctx *c)
{
	const struct mdp_xlimit *mn = &c->r->min;
	struct mdp_xfinding *f;
	bool own;

	if (!mn->read || !at_floor(c))
		return false;
	/* with nothing else running, a speed at the maximum too is the ceiling's (min = max) */
	if (!c->foreign && (!(c->stacked || quiet(c)) || !strcmp(c->r->binds, "max")))
		return false;
	f = mdp_xadd(c->r, MDP_XK_FLOOR);
	mdp_xev(f, "speed %.0f KiB/s, minimum %llu (%s): md throttles to it while %s", md_view(c),
		(unsigned long long)mn->kib, limit_src(mn),
		c->foreign ? "other I/O runs" : "it sees other I/O, here none that shows");
	foreign_evidence(c, f);
	own = idle_test(c, f);
	if (scrub(c) && c->foreign) {
		rec_scrub(c, f);
		return true;
	}
	if (c->foreign)
		tradeoff(c, f);
	else if (own)
		mdp_xev(f, "trade-off: none while nothing else runs; once users' I/O returns, a "
			   "higher minimum takes disk time from it (lower it again then)");
	rec_floor(c, f);
	return true;
}

/* competing-io: other I/O on the md device, on the member disks' other partitions, or swap. */
bool mdp_xr_competing(struct mdp_xctx *c)
{
	struct mdp_xfinding *f;
	uint64_t v = 0;
	const char *p;

	if (!c->foreign)
		return false;
	f = mdp_xadd(c->r, MDP_XK_COMPETING_IO);
	foreign_evidence(c, f);
	if (mdp_xfound(c->r, MDP_XK_FLOOR)) {
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none beyond the floor's");
		return true;
	}
	if (c->r->min.read && md_view(c) < (1 - FLOOR_BAND) * (double)c->r->min.kib) {
		mdp_xev(f,
			"speed below the minimum %llu: md is not throttling, the disks are shared",
			(unsigned long long)c->r->min.kib);
		tradeoff(c, f);
		mdp_xrec_fast(
		    c, f, "none: pause the competing work by hand",
		    "pause the competing work: apply reshape-fast (it pauses the indexers on "
		    "DSM); the gain cannot be computed, measure it with 'mdprofile bench "
		    "--op-only --compare reshape-fast'");
		return true;
	}
	/* A scrub has nothing to restore: a higher minimum would only take the disks from
	 * the users it now yields to (issue 39). */
	if (scrub(c)) {
		rec_scrub(c, f);
		return true;
	}
	p = profile_above(c, f, c->r->min.kib > kib_of(c->speed) ? c->r->min.kib : kib_of(c->speed),
			  false, &v, NULL);
	if (p) {
		tradeoff(c, f);
		mdp_xrec(
		    f, MDP_XR_PROFILE, p, NULL,
		    "apply %s: a minimum above the speed stops md's throttle; the gain cannot be "
		    "computed, measure it with 'mdprofile bench --op-only --compare %s'",
		    p, p);
		goal_beside(c, f);
	} else
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
			 "none: no shipped profile's minimum is well above this speed");
	return true;
}

/* A scrub yielding to users: stopping or rescheduling it comes before more speed. */
bool mdp_xw_scrub(struct mdp_xctx *c)
{
	return scrub(c) && c->foreign &&
	       mdp_xwithdraw(
		   c->r, MDP_XK_COMPETING_IO, true,
		   "none while users' I/O competes with the scrub: stop it and run it when "
		   "the box is quiet, before any faster limit");
}

void mdp_xdrop_goal_beside(struct mdp_xfinding *f)
{
	size_t n = 0;

	for (size_t k = 0; k < f->n_evidence; k++)
		if (strncmp(f->evidence[k], GOAL_BESIDE, strlen(GOAL_BESIDE)))
			memmove(f->evidence[n++], f->evidence[k], MDP_X_TEXT);
	f->n_evidence = n;
}

void mdp_explain_goal(struct mdp_xreport *r, unsigned goal_ms, uint64_t min_kib,
		      const struct mdp_goal_sample *in, const char *from)
{
	struct mdp_xfinding *f, g;
	bool first = !r->n_findings ||
		     (r->findings[0].kind != MDP_XK_WAITING && r->findings[0].kind != MDP_XK_STUCK);

	for (size_t i = 0; i < r->n_findings; i++)
		mdp_xdrop_goal_beside(&r->findings[i]);
	if (!(f = mdp_xadd(r, MDP_XK_GOAL)))
		return;
	if (in->kind == MDP_GOAL_LATENCY)
		mdp_xev(f,
			"the watcher steers %s's minimum by a latency goal of %u ms: now %" PRIu64
			" KiB/s, the shares' requests at %" PRIu64 ".%" PRIu64
			" ms at its last look (%s)",
			r->array, goal_ms, min_kib, in->latency_us / 1000,
			in->latency_us % 1000 / 100, from);
	else
		mdp_xev(f,
			"the watcher steers %s's minimum by a latency goal of %u ms: now %" PRIu64
			" KiB/s, %s",
			r->array, goal_ms, min_kib,
			in->kind == MDP_GOAL_IDLE ? "no foreground I/O at its last look"
						  : "not measured yet");
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
		 "none: the goal trades the rebuild's speed for the shares'; a larger goal in the "
		 "profile "
		 "lets it run faster");
	mdp_xwithdraw(
	    r, MDP_XK_GOAL, true,
	    "none while a latency goal steers the minimum: a higher one would take what the goal "
	    "keeps for the shares");
	if (first && r->n_findings > 1) {
		g = r->findings[r->n_findings - 1];
		memmove(&r->findings[1], &r->findings[0], (r->n_findings - 1) * sizeof(g));
		r->findings[0] = g;
	}
}
