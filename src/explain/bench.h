/*
 * bench: the measurement runs of 'mdprofile bench' (cmd/bench.c parses and
 * renders them). A row is one setting of the box measured: the volume's
 * write and read throughput (volbench.h), and md's own sync speed per busy
 * array, sampled once a second. A comparison measures the settings the box
 * has now, then each profile in turn: applied through the caller's hook
 * (the transaction, and the revert at the end, are the caller's), given
 * time to settle, measured.
 *
 * Nothing here prints: progress, and what each volume run found, go to the
 * caller's hooks as they happen, so they keep their order with the
 * caller's own messages. Every hook may be NULL.
 */
#ifndef MDP_BENCH_H
#define MDP_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_base.h"
#include "mdp_md.h"
struct mdp_txn;

#define MDP_BENCH_MAX_COMPARE 8         /* profiles in one comparison */
#define MDP_BENCH_SETTLE_S    2         /* after an apply: md picks up new limits at once */
#define MDP_BENCH_WINDOW_S    30        /* md's speed alone (--op-only), by default */
#define MDP_BENCH_CURRENT     "current" /* the first row: the settings before any profile */

/* A figure over a volume run's runs, in MB/s. */
struct mdp_bench_stats {
	double mean, min, max;
	double spread_pct; /* (max - min) as a percentage of the mean; 0 for a mean of 0 */
};

/* The write (read false) or read figures of b's runs; all 0 when b->n is 0. */
struct mdp_bench_stats mdp_bench_stats(const struct mdp_vb *b, bool read);

/* md's speed over a window: per array busy with a sync action, its one-second samples. */
struct mdp_bench_sync {
	char array[MDP_NAME_MAX]; /* "md3" */
	char action[16];          /* its sync_action when first seen busy: "reshape" */
	uint64_t sum_kib_s;       /* the samples' sum */
	unsigned n;               /* samples */
	/*
	 * A goal profile's row (mdp_bench_row.goal_ms): the foreground latency the goal
	 * measured at its looks in the window (the slowest of the array's own requests and
	 * those of the arrays and free partitions on its disks, as auto steers on), in
	 * microseconds: looks, those that measured a latency, their sum; with a percentile
	 * goal, the looks that had one (the watcher's timed reads) and their sum.
	 */
	unsigned looks, lat_n, pct_n;
	uint64_t lat_sum_us, pct_sum_us;
};

struct mdp_bench_window {
	struct mdp_bench_sync v[16]; /* in the order first seen busy; more are left out */
	size_t n;
};

/* s's mean speed in KiB/s (0 without samples). */
uint64_t mdp_bench_sync_kib_s(const struct mdp_bench_sync *s);
/* A goal row's mean foreground latency in microseconds, and its percentile's; 0 without. */
uint64_t mdp_bench_lat_us(const struct mdp_bench_sync *s);
uint64_t mdp_bench_pct_us(const struct mdp_bench_sync *s);

/*
 * The block device ("md2", "dm-0") of a device number, from
 * /sys/dev/block/MAJ:MIN under r; "" in buf when it is not known.
 */
void mdp_bench_device(const struct mdp_root *r, dev_t dev, char *buf, size_t len);

/*
 * The rows a comparison of list ("balanced,reshape-fast") measures: the
 * current settings, then each profile named (empty names are skipped).
 */
unsigned mdp_bench_count(const char *list);

/* One setting measured. */
struct mdp_bench_row {
	char profile[256];         /* MDP_BENCH_CURRENT, else the name the apply hook gave */
	bool current;              /* the settings the box had before any profile */
	struct mdp_vb vb;          /* vb.n == 0: no volume figures (md's speed only) */
	struct mdp_bench_window w; /* md's speed: over the window, else around the volume run */
	/* the profile's latency goal (the apply hook sets it), ms, and its percentile (0: the
	 * mean): its row is steered from the apply on, a look a second, as auto steers */
	unsigned goal_ms, goal_pct;
};

/* What the caller sees of a run as it goes. arg is passed to each. */
struct mdp_bench_hooks {
	/* A signal number when the caller wants out, else 0 (NULL: never). */
	int (*stop_requested)(void);
	/* A comparison's row idx of n (1-based) is about to be measured. */
	void (*begin)(void *arg, const struct mdp_bench_row *r, unsigned idx, unsigned n);
	/* Second second (0-based) of a window of seconds begins; w NULL while settling. */
	void (*tick)(void *arg, unsigned second, unsigned seconds,
		     const struct mdp_bench_window *w);
	/* How far a volume run has come (volbench.h's progress callback). */
	void (*vb_tick)(void *arg, const struct mdp_vb *b, const struct mdp_vb_tick *t);
	/*
	 * A window (r and d NULL) or the volume run of row r is over; d holds
	 * what that run found, freed after the call.
	 */
	void (*done)(void *arg, const struct mdp_bench_row *r, struct mdp_diags *d);
	/*
	 * Apply the profile named, its name into r->profile. 0, else the
	 * caller's own code, which ends the comparison (mdp_bench_cmp.apply_rc).
	 */
	int (*apply)(void *arg, const char *name, struct mdp_bench_row *r);
	void *arg;
};

struct mdp_bench {
	const struct mdp_root *root; /* where md's speed is read */
	/*
	 * The volume run each row repeats (dir, root, sys_dir, size, runs,
	 * stop_requested; its out fields unused); NULL: md's speed only, over a
	 * window of window_s seconds.
	 */
	const struct mdp_vb *proto;
	unsigned window_s;
	unsigned settle_s; /* waited after each apply (MDP_BENCH_SETTLE_S) */
	struct mdp_bench_hooks hooks;
	/* a goal row's moves go through it (mdp_wgoal_steer), under the caller's lock */
	struct mdp_txn *tx;
	/* each move of a goal row, as auto would log it (NULL: not said) */
	void (*say)(void *arg, const char *line);
};

/*
 * Wait seconds, sampling md into w once a second when w is given (NULL:
 * only wait, as while settling), with the tick hook before each second and
 * the done hook at the end. 0, or the signal number when the caller asked
 * to stop (before or during the window).
 */
int mdp_bench_window(const struct mdp_bench *b, unsigned seconds, struct mdp_bench_window *w);

/* A comparison's outcome. */
struct mdp_bench_cmp {
	struct mdp_bench_row *rows; /* the rows measured to the end, the current settings first */
	size_t n;
	int stop_signal; /* a stop was asked for: the signal (no more rows were measured) */
	int apply_rc;    /* the apply hook's nonzero return that ended the comparison */
};

/*
 * Compare: measure the settings the box has now (row 0), then for each
 * profile of list in turn, apply it through the apply hook, wait settle_s
 * and measure it. It ends at the first stop asked for, apply refused or
 * volume run failed, and after MDP_BENCH_MAX_COMPARE profiles; it never
 * reverts (the caller does, whatever happened). 0 with c filled (free it
 * with mdp_bench_cmp_free, also after an error); -errno of a volume run
 * that failed (its diags went to the done hook), -ENOMEM, or -EINVAL
 * without an apply hook.
 */
int mdp_bench_compare(const struct mdp_bench *b, const char *list, struct mdp_bench_cmp *c);
void mdp_bench_cmp_free(struct mdp_bench_cmp *c);

#endif
