/*
 * watcher_loop: the watcher's loop (mdprofile auto, apply --until-idle),
 * one loop for both: looks at md, engages and releases (engage.h's state
 * machine), puts back values something else rewrote, holds while another
 * mdprofile's layer is on, and keeps what each operation did for the
 * summary at a release.
 *
 * Each turn: a step on what the last look showed, then one wait (watch.h)
 * for md's events, the caller's stop signals or the interval, then a look
 * (mdp_wloop_look: read what can change, then note each operation's
 * progress and end). A stop signal removes an engaged layer and ends the
 * loop with 0.
 *
 * Idle, the cost comes from md's events, not from the interval: while no
 * operation of a watched kind runs on a selected array and the watcher is
 * not engaged (mdp_wloop_quiet), a look after a plain timeout is a glance
 * (mdp_wloop_glance), not a discovery: the selected arrays' md/sync_action
 * read again through the watch's open files, one pread each, at most
 * MDP_WLOOP_GLANCE_MAX a look and in turn, so that its cost stops growing
 * with the arrays. On a real kernel md wakes the watcher at once on a
 * change and a glance only backs that up; on a fixture tree, whose files
 * never wake poll(), it is what notices a change. The arrays are
 * discovered again only on an md event (a sync starting or ending, an
 * array started or stopped: md wakes /proc/mdstat and md/sync_action), a
 * sync_action a glance finds changed, or the safety look every
 * MDP_WLOOP_SAFETY_S (a missed event, arrays a fixture tree gained).
 * Engaged, every look is a discovery, so a value rewritten by others is
 * put back within one interval.
 *
 * The loop never prints: its lines for people, its errors, the
 * diagnostics and the transactions' results go to the caller's hooks, in
 * the order they happen. It installs no signal handler: the caller blocks
 * the stop signals and gives their set; the wait takes them through a
 * signalfd.
 *
 * It holds the watcher lock (taken by the caller) for its whole life and
 * the main lock only for each transaction, so that `revert` from another
 * shell works at any time. It waits for the main lock in the wait for its
 * stop signals (a stop ends that wait, nothing done), trying it every
 * MDP_WLOOP_LOCK_RETRY_MS; status says whose pid holds it.
 */
#ifndef MDP_WATCHER_LOOP_H
#define MDP_WATCHER_LOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "mdp_base.h"
#include "mdp_md.h"
#include "engage.h"
#include "mdp_txn.h"
#include "mdp_profile.h"
#include "watcher_goal.h"
#include "watcher_maint.h"

/* Idle this long before a release: DSM chains steps (a reshape, then a resync). */
#define MDP_WLOOP_DEBOUNCE_S 3.0
/* A discovery at least this often even when md is quiet: missed events, a fixture's new arrays. */
#define MDP_WLOOP_SAFETY_S 3600.0
/* A glance reads at most this many arrays' md/sync_action: every array of any NAS each look. */
#define MDP_WLOOP_GLANCE_MAX 64
/* Waiting for the main lock, it tries it this often (ms), and takes stop signals meanwhile. */
#define MDP_WLOOP_LOCK_RETRY_MS 100
/*
 * A look that failed (a discovery racing an array's stop: its files listed,
 * then gone or ENODEV when read) is taken again up to this many times, one
 * MDP_WLOOP_LOCK_RETRY_MS apart, before the watcher gives up: the kernel is
 * done with a stopping array within milliseconds.
 */
#define MDP_WLOOP_LOOK_TRIES 10

/*
 * What an owner is told of beyond the log (Log Center and a notification on
 * DSM): an engage, a give-up, a release with what the operations it served
 * did.
 */
enum mdp_wl_event {
	MDP_WL_ENGAGED,  /* the profile applied: "engaged: md3 reshape; profile P applied" */
	MDP_WL_GAVE_UP,  /* a LOG_WARNING line */
	MDP_WL_RELEASED, /* removed; ended: an operation it served ended (said in text) */
};

/* What the loop says, through the caller: line, error, diags and txn_result are needed. */
struct mdp_wloop_hooks {
	void *ctx;
	/*
	 * One of the watcher's lines (no newline) at a syslog priority:
	 * LOG_NOTICE engage, release and the summary, LOG_WARNING a give-up,
	 * LOG_ERR a failure, LOG_INFO progress.
	 */
	void (*line)(void *ctx, int prio, const char *line);
	/* An error (no newline) for stderr: the loop cannot do what it must. */
	void (*error)(void *ctx, const char *msg);
	/* Diagnostics to print; the loop frees them after. */
	void (*diags)(void *ctx, struct mdp_diags *d);
	/*
	 * A transaction's outcome (verb "apply", "revert" or "recover"; its
	 * report in the txn's rep, its diags in the txn's d, which the hook
	 * empties): reported, and mapped to what the loop returns for it, 0 when
	 * it worked, else a positive code.
	 */
	int (*txn_result)(void *ctx, struct mdp_txn_rc rc, const char *verb,
			  const struct mdp_plan *pl);
	/*
	 * After each step, before the wait: the first watched operation with
	 * progress on a selected array (a progress bar), NULL when none runs;
	 * what was said should be out now. NULL: nothing to do.
	 */
	void (*looked)(void *ctx, const struct mdp_array *a);
	/*
	 * A bar comes off the last line: a stop signal arrived (its lines
	 * follow), or the loop ends. NULL: nothing to do.
	 */
	void (*bar_off)(void *ctx);
	/*
	 * An engage, a give-up or a release, in one line (no newline) that its
	 * lines said too; ended: a release after operations it served ended
	 * (text says how each did). NULL: nothing to do.
	 */
	void (*event)(void *ctx, enum mdp_wl_event ev, bool ended, const char *text);
	/*
	 * A check's or repair's start, pause, resume or end that the profile's maintenance
	 * notify lists (its line said too): DSM's Log Center and notification. NULL: nothing.
	 */
	void (*news)(void *ctx, const struct mdp_mnews *n);
};

/* What the caller gives; the pointers stay the caller's and outlive the loop. */
struct mdp_wloop_cfg {
	const struct mdp_root *root;
	struct mdp_txn *tx;     /* the transactions (mdp_apply acts for the watcher's origin) */
	struct mdp_lock *lock;  /* the main lock: held by the caller at the start, released */
	struct mdp_lock *wlock; /* the watcher lock, held by the caller */
	const struct mdp_profile *p;
	const sigset_t *stop; /* the stop signals, blocked by the caller */
	bool once;            /* apply --until-idle: started engaged, ends at the first release */
	unsigned kinds;       /* enum mdp_op_kind bits that engage it */
	unsigned interval_ms; /* between two looks; 0: 5 s */
	bool steps;           /* a line at each 10% of an operation (no bar shows progress) */
	struct mdp_wloop_hooks h;
	/* what it waits on, and its clock (watch.h); NULL: md's files, CLOCK_MONOTONIC */
	const struct mdp_watch_ops *ops;
	/* the wall clock and the local time maintenance windows are in (wall_ctx); NULL: the
	 * box's (time, localtime_r) */
	void (*wall)(void *ctx, int64_t *epoch, struct mdp_mtime *local);
	void *wall_ctx;
	/* runs the maintenance notify command; NULL: exec.h's mdp_exec_run_env (tests record) */
	int (*exec)(const struct mdp_root *r, const char *const argv[], const char *const env[],
		    unsigned timeout_ms, struct mdp_exec_result *res, struct mdp_diags *d);
	/* runs smartctl for maintenance's defer_to smart-selftest; NULL: exec.h's mdp_exec_run
	 * (tests answer for it) */
	mdp_smart_exec_fn *run;
};

/* How an operation md no longer runs ended, from what md keeps after it (F07). */
enum mdp_op_end {
	MDP_OPEND_RUNNING,
	MDP_OPEND_FINISHED, /* md says so: reshape_position or resync_start "none", degraded down */
	MDP_OPEND_STOPPED,  /* md says it did not finish: a position kept, degraded as it was */
	MDP_OPEND_ENDED,    /* md keeps nothing that tells (check, repair, an older kernel) */
	MDP_OPEND_GONE,     /* the array went away (stopped): not finished */
};

/* One array's operation as seen from its first to its last look (the summary). */
struct mdp_op_seen {
	char name[MDP_NAME_MAX];
	char action[16];
	double t0, t1;          /* monotonic seconds */
	uint64_t d0, d1, total; /* sectors */
	unsigned decile;        /* last 10% step logged */
	unsigned permille;      /* progress at the last look that saw it run */
	int degraded;           /* md/degraded when first seen */
	enum mdp_op_end end;
};

/* The loop's state; the caller reads it only through the functions below. */
struct mdp_wloop {
	struct mdp_wloop_cfg c;
	enum mdp_origin by; /* MDP_BY_AUTO or MDP_BY_UNTIL_IDLE */
	struct mdp_engage e;
	unsigned skip;           /* discovery: what the plan and the watch can do without */
	int64_t since;           /* our layer's journaled since, 0 when we have none on */
	int64_t lost;            /* held: the since of the layer found removed */
	char busy[64];           /* the first busy selected array and its action, for messages */
	char maint_arrays[256];  /* the arrays its profile's rules select at the start ("" every
				    array) */
	struct mdp_op_seen *ops; /* since the engage (auto) or the start (until-idle) */
	size_t n_ops;
	double start;
	double engaged_at; /* monotonic seconds of the engage */
	unsigned put_back; /* values put back this engagement */
	char ended[512];   /* the summary's lines, "; "-joined, for the release's event */
	unsigned flaps;    /* the engage's flap count last said */
	bool engaging;     /* applying: waiting for the main lock, or in the transaction */
	bool done;
	int stop;             /* the stop signal that ended the last wait for the main lock */
	struct mdp_wstate ws; /* what status was last told */
	struct mdp_watch mw;  /* md's files over the last discovery's arrays (mdp_wloop_watch) */
	bool *sel;            /* per array of that discovery: selected, read by a glance */
	bool calm;            /* that discovery saw no watched operation on a selected array */
	double seen_at;       /* monotonic seconds of that discovery */
	size_t glance;        /* the watched file the next glance starts at */

	struct mdp_wgoal goal;   /* the profile's goal, followed while engaged */
	struct mdp_wmaint maint; /* the profile's maintenance, at every look (auto) */
};

/*
 * The watcher c describes, from its start to its end: mdp_wloop_until_idle
 * when c->once, else mdp_wloop_auto, between mdp_wloop_init and
 * mdp_wloop_fini. Returns what they return.
 */
int mdp_wloop_run(const struct mdp_wloop_cfg *c);

#endif
