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

#include "bench.h"
#include "explain_run.h"
#include "explain_sample.h"
#include "probe.h"

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
	bool stacked;         /* a member is itself an md device (md10 over md0, md1) */
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
/* md's own thread is CPU-bound on a raid4/5/6 array of SSD or NVMe members with
 * group_thread_cnt 0: worker threads may lift it, even near the end (cpu). */
bool mdp_xcpu_groups(const struct mdp_xctx *c);
/* reshape-fast as f's recommendation (text); none (why) where it does not fit (limits). */
/* Drop the goal profile offered beside f's profile (the offer goes with the profile: a
 * withdrawn recommendation, or a goal that already steers, takes it). */
void mdp_xdrop_goal_beside(struct mdp_xfinding *f);
void mdp_xrec_fast(const struct mdp_xctx *c, struct mdp_xfinding *f, const char *none,
		   const char *text);

/* ---- the rules, by family ----------------------------------------------------------- */

bool mdp_xr_window(struct mdp_xctx *c);
bool mdp_xr_moving(struct mdp_xctx *c);
bool mdp_xr_waiting(struct mdp_xctx *c);
bool mdp_xr_stuck(struct mdp_xctx *c);
bool mdp_xr_pathology(struct mdp_xctx *c);
bool mdp_xr_finishing(struct mdp_xctx *c);
bool mdp_xr_reshape(struct mdp_xctx *c);
bool mdp_xr_skipping(struct mdp_xctx *c);
bool mdp_xr_info(struct mdp_xctx *c);
bool mdp_xw_pathology(struct mdp_xctx *c);
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
bool mdp_xw_unchecked(struct mdp_xctx *c);

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

/*
 * Add one sample of every array busy now (a sync_action other than idle) to
 * w. An array (or a whole system) that cannot be read adds nothing.
 */
void mdp_bench_sample(const struct mdp_root *r, struct mdp_bench_window *w);

/*
 * b - a for a kernel counter that may have wrapped: on 32-bit kernels the
 * diskstats fields are unsigned long. A wrap is taken as one pass through
 * 2^32 when a fits in 32 bits; a drop from above that (a reset: device
 * re-added) is not a delta: false.
 */
bool mdp_explain_delta(uint64_t a, uint64_t b, uint64_t *out);

/*
 * Parse /proc/diskstats (7, 14, 18 or 20 fields a line; others are skipped).
 * *out malloc'd (free()), sorted as read. 0 or -ENOMEM / -EINVAL.
 */
int mdp_explain_parse_diskstats(const char *text, size_t len, struct mdp_xio **out, size_t *n);

/* The whole disk holding partition part ("sda5" -> "sda", "nvme0n1p2" -> "nvme0n1",
 * "sata1p5" -> "sata1") among the diskstats names; part itself when it is one. */
void mdp_explain_disk_of(const char *part, const struct mdp_xio *io, size_t n, char *disk,
			 size_t cap);

/*
 * The controller or bus a disk hangs on, from its device path (the link of
 * /sys/class/block/DISK: "../../devices/pci0000:00/0000:03:00.0/ata3/host2/
 * target2:0:0/2:0:0:0/block/sdc"): the USB device an enclosure is
 * ("2-1", the component before the first interface "2-1:1.0"), else the
 * last PCI function on the path ("0000:03:00.0"); "" when there is none.
 */
void mdp_explain_bus_of(const char *devpath, char *bus, size_t cap);

/*
 * The bridge above the last PCI function on the same path ("0000:00:1e.0" for
 * ".../pci0000:00/0000:00:1e.0/0000:05:00.0/ata3/..."); "" when that function sits on a root
 * bus or there is none. A controller that states no PCIe link behind a legacy bridge shares
 * that bridge's conventional PCI bus with every card on it.
 */
void mdp_explain_bridge_of(const char *devpath, char *bridge, size_t cap);

/*
 * The SATA port a disk hangs on, from the same path: "ata3" (the first ataN after its PCI
 * function); "" when there is none. Disks that share one sit behind a port multiplier.
 */
void mdp_explain_port_of(const char *devpath, char *port, size_t cap);

/*
 * The data rate of that bus's own link, KiB/s, from sysfs's words: a PCI
 * function's current_link_speed ("5.0 GT/s PCIe") and current_link_width
 * (lanes), or a USB device's speed (Mb/s: "480", "5000"), or a SATA port's (bus "ata3") sata_spd
 * ("3.0 Gbps"), after the line encoding (8b/10b to 5 GT/s and on 5 Gb/s USB, 128b/130b above). Its
 * words for a report into desc. 0 when they do not parse.
 */
uint64_t mdp_explain_bus_rate(const char *bus, const char *speed, int64_t width, char *desc,
			      size_t cap);

/* "6.1.0-57-amd64" -> 601; 0 when it does not parse. */
unsigned mdp_explain_kver(const char *release);

/*
 * The shipped profiles explain may recommend, gentlest first
 * (profiles/balanced.yaml, reshape-fast.yaml); NULL after the last.
 */
const char *mdp_explain_profile(size_t i);

/*
 * The rules for array name between samples s0 and s1, dt seconds apart;
 * pro the shipped profiles as found (NULL: none, so no profile is
 * recommended by its limits). Fills out; 0, or -ENOENT when the array is
 * in neither sample, -EINVAL when dt is not positive.
 */
int mdp_explain_array(const struct mdp_xsample *s0, const struct mdp_xsample *s1, double dt,
		      const char *name, const struct mdp_xprofiles *pro, struct mdp_xreport *out);

/* Does the report recommend anything (a profile or a setting)? */
bool mdp_explain_recommends(const struct mdp_xreport *r);
/*
 * An unfinished reshape that md does not run: md/reshape_position holds a sector while
 * md/sync_action reads idle (an array assembled read-only after a reshape was cut off: md
 * resumes it only once the array is writable; md.c's action_show names it "reshape" only
 * while it runs or, writable, is needed).
 */
bool mdp_explain_reshape_held(const struct mdp_xarray *a);

/*
 * The watcher steers r's array's minimum by a profile's latency goal (issue 40; the
 * watcher's word, watcher_goal.h): goal_ms, the minimum it set (min_kib) and its last
 * look's measurement in, whose source from says in words ("the array's own counters",
 * "on md0, which shares sda, sdb"). One "goal" finding,
 * first unless the operation waits or is stuck, and no other finding still recommends
 * raising a limit: a higher minimum would take what the goal keeps for the shares.
 */
void mdp_explain_goal(struct mdp_xreport *r, unsigned goal_ms, uint64_t min_kib,
		      const struct mdp_goal_sample *in, const char *from);

/* x's name and the speed limits loaded profile p sets (speed_limit_min/max; 0: not set). */
void mdp_xrun_profile_of(const struct mdp_profile *p, struct mdp_xprofile *x);

/*
 * Read one sample. -errno only when /proc/mdstat itself cannot be read
 * (a diag in src->unreadable names it) or memory runs out; every other
 * file missing is absence, and one that cannot be read is noted in
 * src->unreadable and left out. Free with mdp_explain_sample_free().
 */
int mdp_explain_sample(const struct mdp_xsrc *src, struct mdp_xsample *out);

/* Free what mdp_explain_sample() allocated in s. */
void mdp_explain_sample_free(struct mdp_xsample *s);

/* Record data (len bytes) as file path of sample 0 or 1. 0 or -ENOMEM. */
int mdp_xcap_add(struct mdp_xcap *c, int sample, const char *path, const char *data, size_t len);

/*
 * The capture as a ustar archive (see above), elapsed_ms between the
 * samples. *out malloc'd. 0, -ENOMEM, -ENAMETOOLONG (a path beyond ustar's).
 */
int mdp_xcap_tar(const struct mdp_xcap *c, uint64_t elapsed_ms, char **out, size_t *len);

/* Does this root hold a capture to replay (a fixture root with /.explain/1)? */
bool mdp_explain_is_replay(const struct mdp_root *r);
/* The replay's second-sample root (prefix/.explain/1) and elapsed time. 0 or -errno. */
int mdp_explain_replay_open(const struct mdp_root *r, struct mdp_root *second,
			    uint64_t *elapsed_ms);

/*
 * explain --probe's samples in a replay: /.explain/N (2 and 3 the probed
 * window's start and end, 4 and 5 the second unchanged window's), read
 * over the fixture root like /.explain/1. 0, -ENOENT when there is none.
 */
int mdp_explain_replay_sample(const struct mdp_root *r, unsigned n, struct mdp_root *out);

/* The finding of r a probe tests, or NULL when every recommendation's gain is known or none. */
const struct mdp_xfinding *mdp_probe_pick(const struct mdp_xreport *r);

/* The profile (YAML) that sets s on its array alone. 0 or -ENAMETOOLONG. */
int mdp_probe_yaml(const struct mdp_probe_setting *s, char *buf, size_t len);

/* Judge the windows. */
void mdp_probe_judge(const struct mdp_probe_windows *w, struct mdp_probe_result *out);

/* explain_run.c: the steps of mdp_xrun_window, each tested alone. */
/*
 * explain's own window: two samples, x->interval_ms apart (slept through in
 * full), or under a replay root the capture's two and its elapsed time.
 * cap: record what is read (--capture), or NULL. 0 with s[0], s[1] (free
 * both with mdp_explain_sample_free) and *ms the time between them, or
 * -errno with *fail and nothing to free.
 */
int mdp_xrun_samples(const struct mdp_xrun *x, struct mdp_xcap *cap, struct mdp_xsample s[2],
		     uint64_t *ms, struct mdp_xfail *fail);

/*
 * The reports of a window dt seconds long: each array of names (n_names
 * of them), or with none named each array an operation runs or waits on in
 * either sample, in the order of the samples; pro as for
 * mdp_explain_array; goal the watcher's word on a latency goal it steers
 * by (mdp_wgoal_active; NULL: none), named in the reports of the arrays it
 * steers (mdp_explain_goal). reps holds room for both samples' arrays. The
 * number of reports; *any: one of them recommends something.
 */
size_t mdp_xrun_reports(const struct mdp_xsample s[2], double dt, char *const *names,
			size_t n_names, const struct mdp_xprofiles *pro,
			const struct mdp_wgoal_view *goal, struct mdp_xreport *reps, bool *any);

/*
 * The shipped profiles explain may recommend (mdp_explain_profile), each
 * found and loaded through dirs as apply finds it, with the speed limits
 * it sets (mdp_xrun_profile_of), and planned against the system
 * under root as diff plans it, silently: a plan the planner refuses marks
 * it refused with the reason. A profile that does not load is left out;
 * a system that cannot be read refuses nothing (apply will say what it
 * says).
 */
void mdp_xrun_profiles(const struct mdp_root *root, const struct mdp_profile_dirs *dirs,
		       struct mdp_xprofiles *out);

#endif
