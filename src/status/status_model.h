/*
 * status_model: the model `mdprofile status` shows in every form (text, JSON,
 * Prometheus, --watch). For each array: whether an operation runs or
 * waits, its ETA from md's own numbers, the raid disks it misses and
 * whether that is more than its level survives; the arrays only
 * /proc/mdstat lists. For the profile: the journal's state and layers,
 * since when, the services it paused, its drift, the watcher's word and
 * whether a watcher that applied it is gone. Reads only; the renderers in
 * cmd/ make the words.
 */
#ifndef MDP_STATUS_MODEL_H
#define MDP_STATUS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_md.h"
#include "mdp_txn.h"
#include "mdp_base.h"
#include "mdp_watcher.h"

/* ---- arrays ------------------------------------------------------------------ */

/* An array as status shows it: whether its operation runs or waits, its ETA, the raid disks it
 * misses (status_int.h computes each), computed once for every renderer. */
struct mdp_status_array {
	const struct mdp_array *a;
	uint64_t eta;         /* mdp_status_eta */
	bool busy;            /* mdp_status_busy */
	bool running;         /* md works on it now (mdp_watch_running): not queued, not idle */
	const char *op_state; /* mdp_status_op_state */
	int missing;          /* mdp_status_missing */
	bool failed;          /* mdp_status_failed */
	bool container;       /* /proc/mdstat lists it as a metadata container */
	/* the memory its stripe cache holds now; 0 when it has none or its members are unknown */
	uint64_t stripe_bytes;
	const char *media; /* its disks' class ("hdd", "ssd"); NULL unknown */
};
/* a as status shows it, in s (NULL: without what /proc/mdstat adds). */
void mdp_status_array(const struct mdp_system *s, const struct mdp_array *a,
		      struct mdp_status_array *v);
/*
 * The arrays only /proc/mdstat lists (a container, a restricted /sys), as
 * the same model (mdp_discover_from_mdstat), so they read as sysfs arrays
 * do: fn is called with each, which lives only during the call; returns
 * how many.
 */
size_t mdp_status_each_mdstat_only(const struct mdp_system *s,
				   void (*fn)(const struct mdp_system *,
					      const struct mdp_status_array *, void *),
				   void *arg);

/* ---- the profile side ---------------------------------------------------------- */

/* What status says of the profile, in the order it is judged. */
enum mdp_pstate {
	MDP_PS_UNKNOWN,     /* the journal could not be read */
	MDP_PS_NONE,        /* no journal, or one with nothing active */
	MDP_PS_STALE,       /* applied before the last reboot */
	MDP_PS_INTERRUPTED, /* a transaction did not finish */
	MDP_PS_ACTIVE,
};

struct mdp_status {
	bool have_j; /* j was read */
	/* the journal is there but could not be read (not root): what is active is unknown,
	   never "none" */
	bool unreadable;
	int jerr; /* why: -EACCES (not root), -EPERM (not to be trusted), ... */
	struct mdp_journal j;
	bool stale;      /* the journal is from an earlier boot */
	int64_t since;   /* journal mtime, 0 unknown */
	long drift;      /* values moved since apply; -1 unknown */
	size_t n_paused; /* services the profile paused and has not resumed */
	bool watch_gone; /* applied by a watcher, and nobody holds its lock: the watcher died */
	bool have_w;     /* a watcher runs (its lock is held) and said what it does */
	struct mdp_wstate w;
	bool have_goal; /* the watcher is engaged with a goal (watcher_goal.h) and said how it
			   steers */
	struct mdp_wgoal_view goal;
	/* the checks the watcher paused in place (the pause journal's lines of this boot whose
	   array is idle now), by array: what status says of each */
	struct mdp_jpauses checks;
	const struct mdp_system *sys; /* what it was read against: the speeds now */
	enum mdp_pstate state;        /* what all that says of the profile */
	int64_t now; /* the wall clock a check's finish counts from: the caller sets it */
};

/*
 * The profile side against the live system s (kept in st->sys: s must
 * outlive st). The caller read the journal: jerr is what
 * mdp_journal_load returned and j, on 0, what it read, which st takes
 * over (j is left to be dropped, not freed). Reads the watcher's state,
 * the journal's mtime and the drift through r. Free with
 * mdp_status_free.
 */
void mdp_status_read(const struct mdp_root *r, const struct mdp_system *s, struct mdp_journal *j,
		     int jerr, struct mdp_status *st);
void mdp_status_free(struct mdp_status *st);
/* "unknown", "none", "stale", "interrupted", "active". */
const char *mdp_pstate_name(enum mdp_pstate p);
/* A check or repair's end, counted in the windows of the watcher's maintenance key. */
struct mdp_status_finish {
	char action[8];  /* check or repair */
	bool paused;     /* the watcher paused it in place: its pace is md's as it was paused */
	uint64_t kib_s;  /* the pace, KiB/s */
	uint64_t work_s; /* the seconds it still runs at that pace: window time */
	/* when it ends at that pace, seconds since the epoch; 0 unknown: paused beside a hot
	   disk or a job it defers to (it resumes when that ends), or no window ever opens */
	int64_t at;
};
/*
 * The end of dev's check or repair, running or paused by the watcher, when a watcher runs
 * whose profile has maintenance windows and selects dev: its work at its pace laid into the
 * windows from st->now (local time: the process's zone). False otherwise, or when its pace
 * or its end is not known.
 */
bool mdp_status_finish(const struct mdp_status *st, const char *dev, struct mdp_status_finish *f);
/*
 * md's speed now of an operation the journal recorded at apply: false
 * when that operation runs no longer.
 */
bool mdp_status_speed_now(const struct mdp_status *st, const struct mdp_op_speed *sp,
			  uint64_t *now);

#endif
