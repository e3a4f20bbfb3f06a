/*
 * watcher_goal: a profile's goal (profile.h, struct mdp_goal) as the
 * watcher follows it: per engaged array, its counters at each look
 * (iostat.h), the latency since the last one and the controller's next
 * minimum (goal.h). It decides and says; the watcher (watcher_loop.c)
 * writes each move through the journal (mdp_txn_steer) under the lock.
 *
 * An array's floor and ceiling are taken at its first look under the
 * layer: the ceiling is the minimum the profile gave it (its
 * md/sync_speed_min then), the floor what removing the layer puts back
 * (mdp_txn_floor); a minimum that follows the sysctl ("N (system)") has
 * the sysctl's floor. The maximum is steered too (goal.h), from the array's
 * md/sync_speed_max at that look down to the minimum's floor (at least
 * MDP_GOAL_MAX_FLOOR); every move of either is a write through the journal,
 * so that revert and recover put back what the array had, "N (system)"
 * included.
 *
 * The foreground is every source on the array's disks: the array's own
 * requests and each peer's (mdp_iostat_peers: the other arrays on its
 * disks, their partitions no array uses), each measured by its own
 * counters against the goal; the slowest of those that carried requests
 * steers, and the sample says whose it is. A peer found for the first time
 * gives its counters to measure from at the next look.
 *
 * A goal with a percentile (profile.h) judges the array's own foreground by
 * the watcher's timed reads (mdp_iostat_timed_reads), taken at every look
 * that saw a request through the array, md's counters timed or not: the
 * percentile over its window (iostat.h, struct mdp_io_window: the last 32
 * reads; a look with no request through the array empties it) is the
 * array's latency, in place of the mean of its requests. A device that
 * cannot be read (a fixture tree, an error) leaves the mean. Peers have no
 * reads of the watcher's: their mean stands against the goal as it is.
 */
#ifndef MDP_WATCHER_GOAL_H
#define MDP_WATCHER_GOAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_md.h"
#include "mdp_base.h"

/* A peer of an array under a goal (iostat.h): its counters at the last look. */
struct mdp_wgoal_peer {
	struct mdp_io_peer p;
	struct mdp_io_snap last;
	bool md_timed; /* as mdp_wgoal_arr's, for this peer */
};

/* One array under a goal. */
struct mdp_wgoal_arr {
	char name[MDP_NAME_MAX];
	struct mdp_goal_ctl ctl;
	struct mdp_io_snap last; /* the counters at the last look */
	bool md_timed;           /* md's ticks have moved (iostat.h) */
	unsigned timed;          /* reads of its own at the last look (mdp_iostat_timed_reads) */
	uint64_t seed;           /* their offsets' */
	struct mdp_timed_reads *held; /* reads past their deadline, still under way */
	bool seen;                    /* a look this turn found it */
	struct mdp_wgoal_peer *peers; /* what shares its disks, as the last look found them */
	size_t n_peers;
	/* The last look's measurement and limits (status). */
	struct mdp_goal_sample in;
	enum mdp_io_source src;
	char on[MDP_NAME_MAX];          /* whose latency in is: a peer's name, "" the array's own */
	char shares[MDP_IO_SHARES_MAX]; /* the disks that peer shares with it: "sda,sdb" */
	struct mdp_io_window win;       /* its last timed reads (a percentile goal) */
	uint64_t pct_us;                /* their percentile at the last look, 0 none */
	struct mdp_goal_lim lim;        /* max 0: md shows none */
	bool spent; /* the last measured look: over the goal with nothing left to give */
	bool said;  /* that was said, and no limit has moved since (an episode) */
};

/* What an array's limits did under this layer, for the summary at its release. */
struct mdp_wgoal_span {
	char name[MDP_NAME_MAX];
	struct mdp_goal_lim lo, hi; /* the least and the most each limit was */
	bool max;                   /* the maximum was steered */
	bool over;                  /* the last look was over the goal */
	double over_s, steered_s;   /* seconds over the goal, and steered */
};

struct mdp_wgoal {
	unsigned goal_ms; /* 0: no goal, nothing to do */
	unsigned pct;     /* the goal's percentile, 0: the mean */
	/* the timed reads' open and read: NULL the device's (tests give their own) */
	mdp_timed_open_fn *t_open;
	mdp_timed_read_fn *t_read;
	int64_t since; /* the layer the arrays' state belongs to */
	struct mdp_wgoal_arr *v;
	size_t n;
	struct mdp_wgoal_span *sp; /* every array steered under the layer, gone ones too */
	size_t n_sp;
	double at;    /* monotonic seconds of the last tally */
	bool have_at; /* a tally was made since the layer went on */
};

/*
 * A limit to write (write: the watcher writes it and says line), or a line
 * alone (!write: the goal missed with nothing left to give, said once an
 * episode).
 */
struct mdp_wgoal_move {
	char name[MDP_NAME_MAX];
	bool write;
	enum mdp_tunable t; /* MDP_T_SYNC_SPEED_MIN or MDP_T_SYNC_SPEED_MAX */
	uint64_t from, to;  /* KiB/s */
	char line[512]; /* "md2: minimum 300000 -> 150000 KiB/s (latency 42.0 ms > goal 20 ms, ...)"
			 */
};

/*
 * What status shows of it (MDP_WATCHER_GOAL, replaced after each engaged
 * look, believed only while the watcher's state says engaged): the goal
 * and, per array steered, its minimum, its maximum when steered, the last
 * look's measurement and whether the goal is missed with both limits at
 * their floors.
 */
#define MDP_WATCHER_GOAL   "/run/mdprofile/goal"
#define MDP_WGOAL_VIEW_MAX 64

struct mdp_wgoal_view {
	unsigned goal_ms;
	unsigned pct; /* the goal's percentile, 0 the mean */
	struct {
		char name[MDP_NAME_MAX];
		uint64_t min, max; /* KiB/s; max 0: not steered */
		bool spent;        /* missed with nothing left to give */
		struct mdp_goal_sample in;
		enum mdp_io_source src;
		char on[MDP_NAME_MAX];          /* a peer's name when its latency steers, else "" */
		char shares[MDP_IO_SHARES_MAX]; /* its disks shared with the array: "sda,sdb" */
		uint64_t pct_us;                /* a percentile goal: its timed reads' percentile */
		unsigned pct_reads;             /* over this many reads; 0 none */
	} v[MDP_WGOAL_VIEW_MAX];
	size_t n;
};

struct mdp_txn;
/*
 * One look of g (goal_ms, pct set; zeroed otherwise) over the arrays of s running an
 * operation, each move written through tx as the watcher writes it (mdp_txn_steer: the
 * caller holds the lock, and its layer, since, is the top one) and its line given to say
 * with a failed write's; a goal missed with nothing left to give is said too. For bench
 * --compare, which steers a goal profile's row as auto would. Free g with mdp_wgoal_free.
 * 0, or -errno of the look (-ENOMEM).
 */
int mdp_wgoal_steer(struct mdp_wgoal *g, int64_t since, struct mdp_txn *tx,
		    const struct mdp_root *r, const struct mdp_system *s,
		    void (*say)(void *arg, const char *line), void *arg);
/* g's arrays and spans released (its goal kept). */
void mdp_wgoal_free(struct mdp_wgoal *g);

/* The file's view: -ENOENT when none; -EINVAL when not one the watcher wrote. */
int mdp_wgoal_load(const struct mdp_root *r, struct mdp_wgoal_view *v);
/* The same, believed only while the watcher lives (holds its lock) and is engaged: -ENOENT
 * otherwise. */
int mdp_wgoal_active(const struct mdp_root *r, struct mdp_wgoal_view *v);

#endif
