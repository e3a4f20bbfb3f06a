/*
 * explain's CPU family: what the sync uses up besides the disks
 * (explain_int.h): an md thread or every CPU busy, a stripe cache that is
 * full on a kernel that does not grow it (or too small for a reshape), and
 * md's sync I/O reaching the members in tiny requests that do not merge.
 */
#include <stdio.h>
#include <string.h>

#include "explain_int.h"

#define RQ_SMALL       16.0 /* sectors a request (8 KiB) or fewer: tiny requests */
#define RQ_MERGED      0.05 /* under 5 % of requests merged: md's I/O does not merge */
#define RQ_MIN_IOS     100  /* requests a member needs in the window for the pattern */
#define R10_WINDOW_KIB 64   /* raid10's resync reads at most this a request (RESYNC_BLOCK_SIZE) */

static bool parity(const struct mdp_xarray *a)
{
	return !strcmp(a->level, "raid4") || !strcmp(a->level, "raid5") ||
	       !strcmp(a->level, "raid6");
}

/* An md thread of the array at 90 % of a CPU, its pid; 0 when none. */
static int busy_thread(const struct mdp_xctx *c)
{
	for (size_t i = 0; i < c->a1->n_threads; i++)
		if (mdp_xthread_share(c, i) >= CPU_BUSY)
			return c->a1->threads[i].pid;
	return 0;
}

bool mdp_xcpu_groups(const struct mdp_xctx *c)
{
	return parity(c->a1) && c->a1->group_threads == 0 && c->nonrot && busy_thread(c);
}

/* group_thread_cnt as f's recommendation, with its trade-off and, on fast members, the room
 * their disks leave (an upper bound on what the threads can bring). */
static void rec_groups(const struct mdp_xctx *c, struct mdp_xfinding *f)
{
	char n[64];

	snprintf(n, sizeof(n), "%s/group_thread_cnt", c->a1->name);
	if (c->nonrot && c->util_known && c->util_max > 0 && c->util_max < UTIL_FREE)
		mdp_xev(f,
			"the members are at most %.0f%% busy: they have room for up to %.0f KiB/s "
			"a disk before they are the limit (an upper bound, not a promise)",
			c->util_max, c->speed * 100 / c->util_max);
	mdp_xev(f, "trade-off: 4 worker threads may each take a CPU from other work while the "
		   "sync runs; it takes effect at once and 0 sets it back");
	mdp_xrec(f, MDP_XR_SETTING, n, "4",
		 "spread stripe work over 4 threads; the gain cannot be computed, measure it "
		 "with 'mdprofile bench --op-only --compare' and a profile that sets it");
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
	if (parity(a1) && a1->group_threads == 0)
		rec_groups(c, f);
	else
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
			 "none: no limit helps a CPU-bound sync; stop "
			 "CPU-heavy packages meanwhile");
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
		mdp_xev(f,
			"trade-off: %lld stripes take %lld KiB of RAM (4 KiB a stripe per member, "
			"%zu members) until it is set back",
			(long long)a1->chunk_kib * 2,
			(long long)a1->chunk_kib * 2 * 4 * (long long)c->n, c->n);
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
	if (f->rec == MDP_XR_PROFILE)
		mdp_xev(f, "trade-off: reshape-fast's cache takes RAM (4 KiB a stripe per member, "
			   "within its memory budget) and its minimum keeps md from yielding to "
			   "users: a slower box until 'mdprofile revert'");
	return true;
}

/* What the members' partitions did over the window: sectors, requests and merges summed over
 * the members, n of them; false when a member's counters are missing or it did too few
 * requests to judge. */
struct rq_sum {
	double sect, ios, merged;
	size_t n;
};

static bool member_requests(const struct mdp_xctx *c, struct rq_sum *q)
{
	memset(q, 0, sizeof(*q));
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
		q->sect += (double)(rs + ws), q->ios += (double)(ri + wi);
		q->merged += (double)(rm + wm);
		q->n++;
	}
	return q->n > 0;
}

static void rq_evidence(const struct mdp_xctx *c, struct mdp_xfinding *f, const struct rq_sum *q)
{
	mdp_xev(f,
		"the members got %.1f sectors (%.1f KiB) a request, %.0f requests/s each, %.0f of "
		"%.0f merged (/proc/diskstats)",
		q->sect / q->ios, q->sect / q->ios / 2, q->ios / (double)q->n / c->dt, q->merged,
		q->ios + q->merged);
}

/*
 * raid10's resync (and check, repair) reads every copy of a stretch and compares them, one
 * chunk at most a request (raid10.c sync_request: to the chunk's end, at most its 64 KiB
 * resync window): under a chunk smaller than that window the members get chunk-sized
 * requests and wait per request (issue 51: an NVMe raid10 of 16 KiB chunks resynced at 564
 * MB/s, at 1.4 GB/s with 1024 KiB chunks). Requests of half a chunk to a quarter over it;
 * smaller ones are not the chunk's (the tiny-request sign). Nothing set now changes it.
 */
static bool raid10_chunk(struct mdp_xctx *c, const struct rq_sum *q)
{
	const struct mdp_xarray *a = c->a1;
	struct mdp_xfinding *f;
	char eta[48] = "";

	if (strcmp(a->level, "raid10") || a->chunk_kib <= 0 || a->chunk_kib >= R10_WINDOW_KIB ||
	    (strcmp(a->action, "resync") && strcmp(a->action, "check") &&
	     strcmp(a->action, "repair")) ||
	    q->sect / q->ios > 1.25 * 2 * (double)a->chunk_kib ||
	    q->sect / q->ios < 0.5 * 2 * (double)a->chunk_kib)
		return false;
	f = mdp_xadd(c->r, MDP_XK_REQUEST_PATTERN);
	mdp_xev(
	    f,
	    "level raid10, chunk %lld KiB: md's %s reads every copy and compares them, one chunk "
	    "a request at most (md's own window is %d KiB)",
	    (long long)a->chunk_kib, a->action, R10_WINDOW_KIB);
	rq_evidence(c, f, q);
	mdp_xutil_evidence(c, f);
	mdp_xev(f, "trade-off: the chunk is fixed when the array is created: nothing can be set "
		   "now, and a higher limit brings no larger requests, only less disk time for "
		   "the users");
	if (c->r->eta_s)
		snprintf(eta, sizeof(eta), " (about %llu min left)",
			 (unsigned long long)(c->r->eta_s + 59) / 60);
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
		 "none now: let it finish%s; on re-creation a chunk of %d KiB or more (mdadm's "
		 "default 512), which erases the array: only with its data copied off",
		 eta, R10_WINDOW_KIB);
	return true;
}

/*
 * md's sync I/O reaching the members in tiny requests that do not merge (a kernel or block
 * layer behaviour: 4 KiB stripe I/O, C06's avgrq-sz 8) while the disks are far from busy:
 * the disks wait per request. No limit changes the request size; the numbers are the news.
 * Or a raid10 resync paced by its small chunk (raid10_chunk).
 */
bool mdp_xr_requests(struct mdp_xctx *c)
{
	struct mdp_xfinding *f;
	struct rq_sum q;

	if (!c->util_known || !c->n || c->util_max >= UTIL_FREE || c->foreign ||
	    !member_requests(c, &q))
		return false;
	if (raid10_chunk(c, &q))
		return true;
	if (q.sect / q.ios > RQ_SMALL || q.merged > RQ_MERGED * (q.ios + q.merged))
		return false;
	f = mdp_xadd(c->r, MDP_XK_REQUEST_PATTERN);
	rq_evidence(c, f, &q);
	mdp_xutil_evidence(c, f);
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
		 "none: md's sync I/O arrives in tiny unmerged requests and the disks wait per "
		 "request; no limit changes that; report it with the kernel version and "
		 "queue/scheduler");
	return true;
}
