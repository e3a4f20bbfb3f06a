/*
 * explain_int: what explain.c (the rule table, its driver, the report's
 * helpers) and the rule families share. Not part of the library interface:
 * only src/explain*.c and their tests include it; cmd/ uses explain.h.
 *
 * The families, one file each:
 *   explain_progress.c  the operation's progress and what it waits on
 *                       (window notes, waiting, stuck, finishing, the reshape's
 *                       method, skipped chunks, the closing notes)
 *   explain_members.c   member disks, the disk a recovery writes, buses,
 *                       SMART, disks at their limit
 *   explain_limits.c    md's minimum and maximum, other I/O, the shipped
 *                       profiles (ceiling, floor, competing-io, the goal)
 *   explain_cpu.c       CPU, stripe cache, request pattern
 *
 * A rule is a function `bool mdp_xr_NAME(struct mdp_xctx *c)` (a
 * withdrawal, mdp_xw_NAME) in its family's file and a row of mdp_xrules[]
 * in explain.c, whose comment says how the order is kept.
 */
#ifndef MDP_EXPLAIN_INT_H
#define MDP_EXPLAIN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "explain.h"

/* Thresholds more than one family reads; each family's own are in its file. */
#define CEIL_SHARE    0.9  /* speed >= 90 % of the max: the ceiling binds */
#define FLOOR_BAND    0.15 /* speed within 15 % of the min: the floor binds */
#define UTIL_BUSY     90.0 /* a disk this busy is at its limit (rotational only) */
#define UTIL_FREE     80.0 /* below this the disks have room (ceiling) */
#define FOREIGN_SHARE 0.05 /* other I/O below 5 % of the sync's is not competing */
#define CPU_BUSY      0.9  /* a thread at 90 % of one CPU */
/* No md array syncs faster than this (KiB/s, about 1 TB/s, 1000 NVMe drives at their
 * limit): a faster figure comes from a broken sample or a forged capture and is no figure. */
#define SPEED_BOUND 1e9

/* What one disk did over the window. */
struct mdp_xrate {
	bool ok, full;
	double kib_s; /* read + written */
	double rd_kib_s, wr_kib_s;
	double ios;   /* requests completed */
	double util;  /* % of the window with I/O in flight */
	double await; /* ms per request */
};

/* The state the whole analysis shares: the driver fills it before the rules run (the
 * measures), and moving (a rule) clears stalled. */
struct mdp_xctx {
	const struct mdp_xsample *s0, *s1;
	const struct mdp_xarray *a0, *a1;
	double dt, speed;
	struct mdp_xreport *r;
	/* members in sync (not spare, not faulty) with their disks' rates */
	size_t n;
	const struct mdp_xmember *m[MDP_X_MEMBERS];
	bool target[MDP_X_MEMBERS]; /* being rebuilt: takes every write, no outlier */
	struct mdp_xrate disk[MDP_X_MEMBERS], part[MDP_X_MEMBERS];
	bool util_known, all_rotational;
	unsigned media_bits;  /* 1u << enum mdp_media of each member's disk */
	enum mdp_media media; /* the array's class: one class, mixed, unknown */
	bool nonrot;          /* every member SSD or NVMe */
	double util_max, util_min;
	/* other I/O */
	double md_kib, md_inflight, holder_kib, swap_pages, sync_kib;
	char holder_top[MDP_NAME_MAX];
	double holder_top_kib;
	double other_kib[MDP_X_MEMBERS]; /* per member: its disk's I/O that is not the member's */
	double foreign_thr;              /* KiB/s of other I/O that counts as competing */
	const struct mdp_xprofiles *pro; /* the shipped profiles as found, or NULL */
	bool foreign, foreign_known;
	bool stalled;  /* progress known not to have moved in the window (mdstat, sync_completed) */
	bool skipping; /* progress far above md's own speed with a bitmap: clean chunks skipped */
	unsigned kver; /* the kernel's release as 601 (mdp_explain_kver); 0 unknown */
};

/* ---- the rule table (explain.c) ----------------------------------------------------- */

/* Where a rule's function is: its family's file. */
enum mdp_xfamily {
	MDP_XF_PROGRESS, /* explain_progress.c */
	MDP_XF_MEMBERS,  /* explain_members.c */
	MDP_XF_LIMITS,   /* explain_limits.c */
	MDP_XF_CPU,      /* explain_cpu.c */
	MDP_XF_COUNT
};

/* When a rule runs (the driver walks the table once, in order). */
enum mdp_xphase {
	MDP_XP_NOTE,     /* always: what the window itself shows */
	MDP_XP_STOP,     /* the first that fires ends the analysis: the next phases do not run */
	MDP_XP_SPEED,    /* the causes of the speed, unless a stop rule fired (but see beside) */
	MDP_XP_WITHDRAW, /* one report, one direction, unless a stop rule fired */
	MDP_XP_CLOSE,    /* always: the last notes */
};

/* enum mdp_xkind as a bit, for a rule's sets of kinds. */
#define MDP_XKIND(k) (1u << (k))
_Static_assert(MDP_XK_INFO < 32, "a bit for each kind");
/* Every kind but info: a cause of the speed. */
#define MDP_XCAUSES ((MDP_XKIND(MDP_XK_INFO + 1) - 1) & ~MDP_XKIND(MDP_XK_INFO))

struct mdp_xrule {
	const char *name; /* docs/explain.md's word for it */
	enum mdp_xfamily family;
	enum mdp_xphase phase;
	bool (*check)(struct mdp_xctx *c); /* true: it fired (its finding made, or one withdrawn) */
	unsigned makes;    /* the kinds of finding it may add (checked in test builds) */
	unsigned unless;   /* not run while a finding of these kinds stands */
	unsigned beside;   /* a speed rule that runs after a stop too, beside these kinds */
	const char *after; /* rules that must come before it, by name, space-separated */
	const char *why;   /* why: what it reads of them (after, unless, beside) */
};

extern const struct mdp_xrule mdp_xrules[];
extern const size_t mdp_xrules_n;

/* ---- the report's helpers (explain.c) ------------------------------------------------ */

/* A new finding of kind k in r; NULL when r is full (every helper takes NULL, a no-op). */
struct mdp_xfinding *mdp_xadd(struct mdp_xreport *r, enum mdp_xkind k);
/* A line of evidence. */
void mdp_xev(struct mdp_xfinding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The recommendation: kind, the profile's or setting's name, the setting's value, the text. */
void mdp_xrec(struct mdp_xfinding *f, enum mdp_xrec kind, const char *name, const char *value,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* What the recommendation may bring. */
void mdp_xgain(struct mdp_xfinding *f, enum mdp_xgain g, uint64_t kib);
/* The finding of kind k, or NULL. */
const struct mdp_xfinding *mdp_xfound(const struct mdp_xreport *r, enum mdp_xkind k);
/* Withdraw the recommendations of the findings other than kind k (those raising a limit only,
 * when limits_only), for why: the finding k stands, and they would contradict or harm it.
 * Whether it stands. */
bool mdp_xwithdraw(struct mdp_xreport *r, enum mdp_xkind k, bool limits_only, const char *why);
/* "disks busy: sda 97% ...", or that it is unknown. */
void mdp_xutil_evidence(struct mdp_xctx *c, struct mdp_xfinding *f);
/* The share of one CPU thread i of a1 used over the window; -1 unknown. */
double mdp_xthread_share(const struct mdp_xctx *c, size_t i);

/* ---- what a family gives the others ------------------------------------------------- */

/* The window's progress: speed and its source, stall, skipped chunks, ETA (progress). */
void mdp_xprogress(struct mdp_xctx *c);
/* reshape-fast as f's recommendation (text); none (why) where it does not fit (limits). */
void mdp_xrec_fast(const struct mdp_xctx *c, struct mdp_xfinding *f, const char *none,
		   const char *text);

/* ---- the rules, by family ----------------------------------------------------------- */

bool mdp_xr_window(struct mdp_xctx *c);
bool mdp_xr_moving(struct mdp_xctx *c);
bool mdp_xr_waiting(struct mdp_xctx *c);
bool mdp_xr_stuck(struct mdp_xctx *c);
bool mdp_xr_finishing(struct mdp_xctx *c);
bool mdp_xr_reshape(struct mdp_xctx *c);
bool mdp_xr_skipping(struct mdp_xctx *c);
bool mdp_xr_info(struct mdp_xctx *c);
bool mdp_xw_finishing(struct mdp_xctx *c);
bool mdp_xw_reshape(struct mdp_xctx *c);

bool mdp_xr_member(struct mdp_xctx *c);
bool mdp_xr_target(struct mdp_xctx *c);
bool mdp_xr_controller(struct mdp_xctx *c);
bool mdp_xr_disks(struct mdp_xctx *c);
bool mdp_xr_no_cause(struct mdp_xctx *c);
bool mdp_xw_member(struct mdp_xctx *c);
bool mdp_xw_target(struct mdp_xctx *c);
bool mdp_xw_disks(struct mdp_xctx *c);
bool mdp_xw_controller(struct mdp_xctx *c);

bool mdp_xr_ceiling(struct mdp_xctx *c);
bool mdp_xr_floor(struct mdp_xctx *c);
bool mdp_xr_competing(struct mdp_xctx *c);
bool mdp_xw_scrub(struct mdp_xctx *c);

bool mdp_xr_cpu(struct mdp_xctx *c);
bool mdp_xr_stripe(struct mdp_xctx *c);
bool mdp_xr_requests(struct mdp_xctx *c);

/* ---- small helpers every family uses ------------------------------------------------ */

/* A double as a KiB count: never a conversion C leaves undefined (negative, NaN, or beyond
 * uint64_t); callers bound their figures first, this is the last guard. */
static inline uint64_t kib_of(double v)
{
	if (!(v > 0))
		return 0;
	return v < 18446744073709549568.0 ? (uint64_t)v : UINT64_MAX;
}

/* "recover" is md's verb; the report says "recovery" */
static inline const char *noun(const char *action)
{
	return !strcmp(action, "recover") ? "recovery" : action;
}

static inline bool running(const struct mdp_xarray *a)
{
	return a && a->action[0] && strcmp(a->action, "idle") && strcmp(a->action, "frozen");
}

/*
 * The speed md itself compares with its limits: its own 30 s average (md/sync_speed) of the
 * sectors it issued, when read; the window's progress otherwise. Right after a maximum is
 * lowered the window shows md asleep (near 0) while its average still exceeds the maximum:
 * the ceiling binds all the same. And chunks a bitmap lets md skip count in the progress but
 * not in md's average: progress far above it is skipping, not speed at the maximum.
 */
static inline double md_view(const struct mdp_xctx *c)
{
	if (c->a1->sync_speed >= 0 && (double)c->a1->sync_speed <= SPEED_BOUND)
		return (double)c->a1->sync_speed;
	return c->speed;
}

#endif
