/*
 * explain's CPU family: what the sync uses up besides the disks
 * (explain_int.h): an md thread or every CPU busy, a stripe cache that is
 * full on a kernel that does not grow it (or too small for a reshape), and
 * md's sync I/O reaching the members in tiny requests that do not merge.
 */
#include <stdio.h>
#include <string.h>

#include "explain_int.h"

#define RQ_SMALL   16.0 /* sectors a request (8 KiB) or fewer: tiny requests */
#define RQ_MERGED  0.05 /* under 5 % of requests merged: md's I/O does not merge */
#define RQ_MIN_IOS 100  /* requests a member needs in the window for the pattern */

static bool parity(const struct mdp_xarray *a)
{
	return !strcmp(a->level, "raid4") || !strcmp(a->level, "raid5") ||
	       !strcmp(a->level, "raid6");
}

/* cpu: an md thread at 90 % of a CPU, or every CPU under 10 % idle. */
bool mdp_xr_cpu(struct mdp_xctx *c)
{
	const struct mdp_xarray *a1 = c->a1;
	struct mdp_xfinding *f = NULL;
	uint64_t d, di;

	for (size_t i = 0; i < a1->n_threads; i++) {
		double share = mdp_xthread_share(c, i);
		if (share < CPU_BUSY)
			continue;
		f = f ? f : mdp_xadd(c->r, MDP_XK_CPU);
		mdp_xev(f, "%s: %.0f%% of a CPU (/proc/%d/stat)", a1->threads[i].comm, share * 100,
			a1->threads[i].pid);
	}
	if (c->s0->stat_read && c->s1->stat_read &&
	    mdp_explain_delta(c->s0->cpu_total, c->s1->cpu_total, &d) && d &&
	    mdp_explain_delta(c->s0->cpu_idle, c->s1->cpu_idle, &di) &&
	    (double)di < 0.1 * (double)d) {
		f = f ? f : mdp_xadd(c->r, MDP_XK_CPU);
		mdp_xev(f, "all CPUs: %.0f%% idle (/proc/stat)", 100.0 * (double)di / (double)d);
	}
	if (!f)
		return false;
	if (parity(a1) && a1->group_threads == 0) {
		char n[64];
		snprintf(n, sizeof(n), "%s/group_thread_cnt", a1->name);
		mdp_xrec(
		    f, MDP_XR_SETTING, n, "4",
		    "spread stripe work over 4 threads; the gain cannot be computed, measure it "
		    "with 'mdprofile bench --op-only --compare' and a profile that sets it");
	} else {
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
			 "none: no limit helps a CPU-bound sync; stop "
			 "CPU-heavy packages meanwhile");
	}
	return true;
}

/* stripe-cache: a raid4/5/6 cache full in both samples on a kernel that does not grow it
 * (before 4.1), or too small for a reshape's chunks. */
bool mdp_xr_stripe(struct mdp_xctx *c)
{
	const struct mdp_xarray *a0 = c->a0, *a1 = c->a1;
	unsigned kver = c->kver;
	struct mdp_xfinding *f;

	if (!parity(a1) || a1->stripe_size <= 0)
		return false;
	/* md refuses to reshape unless the cache holds 4 stripes per page of a chunk
	 * (raid5.c check_reshape: (chunk / STRIPE_SIZE) * 4 <= max_nr_stripes); a page is 4 KiB. */
	if (!strcmp(a1->action, "reshape") && a1->chunk_kib > 0 &&
	    a1->stripe_size < a1->chunk_kib / 4 * 4) {
		char n[64], v[32];
		f = mdp_xadd(c->r, MDP_XK_STRIPE_CACHE);
		mdp_xev(
		    f, "stripe_cache_size %lld, a reshape of %lld KiB chunks needs at least %lld",
		    (long long)a1->stripe_size, (long long)a1->chunk_kib, (long long)a1->chunk_kib);
		snprintf(n, sizeof(n), "%s/stripe_cache_size", a1->name);
		snprintf(v, sizeof(v), "%lld", (long long)a1->chunk_kib * 2);
		mdp_xrec(f, MDP_XR_SETTING, n, v, "raise it; the gain cannot be computed");
		return true;
	}
	if (a0->stripe_active < 0 || a1->stripe_active < 0 ||
	    (double)a0->stripe_active < 0.9 * (double)a0->stripe_size ||
	    (double)a1->stripe_active < 0.9 * (double)a1->stripe_size)
		return false;
	if (kver >= 401) { /* the cache grows by itself when a request finds no free stripe */
		f = mdp_xadd(c->r, MDP_XK_INFO);
		mdp_xev(
		    f,
		    "stripe_cache_active %lld of stripe_cache_size %lld: kernel %u.%u grows the "
		    "cache "
		    "itself, so a full cache is not a limit here",
		    (long long)a1->stripe_active, (long long)a1->stripe_size, kver / 100,
		    kver % 100);
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none");
		return false;
	}
	f = mdp_xadd(c->r, MDP_XK_STRIPE_CACHE);
	mdp_xev(
	    f, "stripe_cache_active %lld -> %lld of stripe_cache_size %lld: full in both samples",
	    (long long)a0->stripe_active, (long long)a1->stripe_active, (long long)a1->stripe_size);
	mdp_xev(f,
		kver ? "kernel %u.%u: the cache does not grow by itself before 4.1"
		     : "kernel release unknown%.0u%.0u: the cache may not grow by itself",
		kver / 100, kver % 100);
	mdp_xrec_fast(
	    c, f, "none: no shipped profile fits this box",
	    "apply reshape-fast (a stripe cache sized to memory); the gain cannot be computed, "
	    "measure it with 'mdprofile bench --op-only --compare reshape-fast'");
	return true;
}

/*
 * md's sync I/O reaching the members in tiny requests that do not merge (a kernel or block
 * layer behaviour: 4 KiB stripe I/O, C06's avgrq-sz 8) while the disks are far from busy:
 * the disks wait per request. No limit changes the request size; the numbers are the news.
 */
bool mdp_xr_requests(struct mdp_xctx *c)
{
	struct mdp_xfinding *f = NULL;
	double sect = 0, ios = 0, merged = 0;
	size_t n = 0;

	if (!c->util_known || !c->n || c->util_max >= UTIL_FREE || c->foreign)
		return false;
	for (size_t i = 0; i < c->n; i++) {
		const struct mdp_xio *p0 = NULL, *p1 = &c->m[i]->part;
		uint64_t rs, ws, ri, wi, rm = 0, wm = 0;
		for (size_t j = 0; j < c->a0->n_members; j++)
			if (!strcmp(c->a0->members[j].name, c->m[i]->name))
				p0 = &c->a0->members[j].part;
		if (!p0 || !p0->full || !p1->full ||
		    !mdp_explain_delta(p0->rd_sect, p1->rd_sect, &rs) ||
		    !mdp_explain_delta(p0->wr_sect, p1->wr_sect, &ws) ||
		    !mdp_explain_delta(p0->rd_ios, p1->rd_ios, &ri) ||
		    !mdp_explain_delta(p0->wr_ios, p1->wr_ios, &wi) ||
		    !mdp_explain_delta(p0->rd_merges, p1->rd_merges, &rm) ||
		    !mdp_explain_delta(p0->wr_merges, p1->wr_merges, &wm))
			return false;
		if (ri + wi < RQ_MIN_IOS)
			return false;
		sect += (double)(rs + ws), ios += (double)(ri + wi), merged += (double)(rm + wm);
		n++;
	}
	if (!n || sect / ios > RQ_SMALL || merged > RQ_MERGED * (ios + merged))
		return false;
	f = mdp_xadd(c->r, MDP_XK_REQUEST_PATTERN);
	mdp_xev(f,
		"the members got %.1f sectors (%.1f KiB) a request, %.0f requests/s each, %.0f of "
		"%.0f merged (/proc/diskstats)",
		sect / ios, sect / ios / 2, ios / (double)n / c->dt, merged, ios + merged);
	mdp_xutil_evidence(c, f);
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
		 "none: md's sync I/O arrives in tiny unmerged requests and the disks wait per "
		 "request; no limit changes that; report it with the kernel version and "
		 "queue/scheduler");
	return true;
}
