/*
 * txn: apply, revert and recover, journaled and verified.
 *
 * One apply, mdp_apply(): discovery, the plan, then the transaction over
 * it, for every command that applies (apply, enable, the watcher, bench
 * --compare, explain --probe). See the invariants at the top of txn.c
 * (the engine; txn_int.h lists the module's files). The journal and the lock live
 * under /run/mdprofile (through root). Services (pause/resume) are steps
 * of the same transaction as tunables; their backend is an ops table
 * (struct mdp_svc_ops in services.h) that may be NULL when a profile
 * pauses nothing.
 */
#ifndef MDP_TXN_H
#define MDP_TXN_H

#include <stdbool.h>
#include <stddef.h>

#include "mdp_base.h"
#include "mdp_md.h"
#include "journal.h"
#include "plan.h"
#include "mdp_profile.h"

struct mdp_svc_backend; /* services.h */

/*
 * What a transaction did, as data: cmd/ turns it into text or JSON. Values
 * are the registry's (struct mdp_value), so every command shows them alike.
 */

/* One value changed (apply) or put back (revert, recover). */
struct mdp_txn_change {
	enum mdp_tunable t;
	char dev[MDP_NAME_MAX]; /* "" for the dev.raid sysctls */
	bool have_before;       /* false when the value could not be read first */
	struct mdp_value before, after;
};

enum mdp_txn_svc_action { MDP_TXN_PAUSE, MDP_TXN_RESUME };

enum mdp_txn_svc_result {
	MDP_TXN_SVC_DONE,        /* paused or resumed */
	MDP_TXN_SVC_NOT_RUNNING, /* the user had it stopped: left alone (invariant 6) */
	MDP_TXN_SVC_NOT_FOUND,   /* optional and absent: skipped */
	MDP_TXN_SVC_RUNNING,     /* found running at revert/recover: nothing to resume */
	MDP_TXN_SVC_REBOOTED,    /* paused in an earlier boot: the boot brought it back */
	MDP_TXN_SVC_HELD,        /* mdprofile's reason released; DSM keeps it stopped for its own */
	MDP_TXN_SVC_OTHER_PLATFORM, /* only_on names other platforms: skipped */
	/* Previews only (mdp_apply's dry run): what apply would do. */
	MDP_TXN_SVC_WOULD_PAUSE, /* running: apply pauses it */
	MDP_TXN_SVC_MISSING,     /* required and absent: apply refuses the profile */
	MDP_TXN_SVC_PAUSED,      /* already paused by the active profile: stays paused */
	MDP_TXN_SVC_UNKNOWN,     /* its state could not be read (the diag says why) */
};

struct mdp_txn_service {
	char name[160];
	enum mdp_txn_svc_action action;
	enum mdp_txn_svc_result result;
};

enum mdp_txn_note_kind {
	MDP_TXN_NOTE_NOTHING_ACTIVE,     /* revert with no journal */
	MDP_TXN_NOTE_REVERTING,          /* revert of profile */
	MDP_TXN_NOTE_STALE,              /* journal of an earlier boot cleared */
	MDP_TXN_NOTE_INTERRUPTED_APPLY,  /* interrupted apply of profile undone */
	MDP_TXN_NOTE_INTERRUPTED_REVERT, /* interrupted revert of profile finished */
	MDP_TXN_NOTE_WATCH_GONE,  /* apply --until-idle of profile ended without its revert */
	MDP_TXN_NOTE_GONE,        /* device dev no longer exists: nothing to restore */
	MDP_TXN_NOTE_PLAIN_VERBS, /* the service tool lacks the by-reason verbs */
	/* bench --compare under profile ended without its revert */
	MDP_TXN_NOTE_COMPARE_GONE,
	/* explain --probe of profile (its one setting) ended without its revert */
	MDP_TXN_NOTE_PROBE_GONE,
	MDP_TXN_NOTE_BACK_TO_BASE, /* the overlay removed: back to the base profile */
	/* A check mdprofile paused, let go (revert, disable, recover; dev, action, position): */
	MDP_TXN_NOTE_CHECK_RESUMED,   /* resumed from its place */
	MDP_TXN_NOTE_CHECK_FORGOTTEN, /* could not be resumed: md/sync_min 0, as md was */
	MDP_TXN_NOTE_CHECK_LEFT,      /* on DSM, could not be resumed: left idle at its place */
};

struct mdp_txn_note {
	enum mdp_txn_note_kind kind;
	char profile[256];
	char dev[MDP_NAME_MAX]; /* MDP_TXN_NOTE_GONE */
	enum mdp_origin by;     /* MDP_TXN_NOTE_WATCH_GONE: whose watcher */
	char action[8];         /* MDP_TXN_NOTE_CHECK_*: check or repair, from position */
	uint64_t position;
};

/* Exit 4: something that is not back, and how to put it back by hand. */
struct mdp_txn_left {
	bool is_service;
	/* A tunable: (t, dev) is not back to value (have_value false: the baseline is unreadable).
	 */
	enum mdp_tunable t;
	char dev[MDP_NAME_MAX];
	bool have_value;
	struct mdp_value value;
	/* A service: still paused (paused) or resumed and not paused again. */
	char svc[160];
	bool paused;
	/* A command line that restores it, run as root; "" when none can be given. */
	char fix[320];
};

struct mdp_txn_report {
	char profile[256]; /* the profile applied or reverted; "" when none */
	struct mdp_txn_change *changes;
	size_t n_changes;
	struct mdp_txn_service *services;
	size_t n_services;
	struct mdp_txn_note *notes;
	size_t n_notes;
	struct mdp_txn_left *left;
	size_t n_left;
};
void mdp_txn_report_free(struct mdp_txn_report *rep);
/* Whether the report says something on the system changed (and stays changed). */
bool mdp_txn_report_changed(const struct mdp_txn_report *rep);

/*
 * What apply, revert and recover return: the outcome and, apart from it,
 * the errno that explains an error. One int used to carry both (3 and 4,
 * or a -errno): ESRCH is 3 and EINTR is 4, so a single sign slip turned
 * "no such process" into "rolled back" and back, and cmd/ had to know
 * which negative values meant "nothing touched". A small struct returned
 * by value rather than an enum with the errno in the report: every caller
 * hands the whole result to one mapping (cmd/cli.c's cli_txn_result) in
 * the same expression that runs the transaction, and the errno stays next
 * to the outcome it explains instead of in state that outlives the call.
 * The values are not exit codes; cli_txn_result maps them.
 */
enum mdp_txn_result {
	MDP_TXN_OK = 0,
	MDP_TXN_ERROR,   /* stopped before anything changed: err says why (diags too) */
	MDP_TXN_FAILED,  /* failed, everything rolled back */
	MDP_TXN_PARTIAL, /* rollback incomplete: see report.left / report.fix */
};

struct mdp_txn_rc {
	enum mdp_txn_result res;
	int err; /* MDP_TXN_ERROR: a negative errno; else 0 */
};

/* A transaction context: mdp_txn_init sets it up, mdp_apply says for whom it acts. */
struct mdp_txn {
	const struct mdp_root *root;
	const struct mdp_svc_backend *svc; /* NULL: no service backend */
	struct mdp_diags *d;
	struct mdp_txn_report rep;
	/*
	 * Asked between the steps of an apply: a signal number when the user
	 * wants it stopped (SIGINT, SIGTERM, SIGHUP held pending by the caller),
	 * else 0. The running step finishes, then everything is rolled back.
	 * NULL: never.
	 */
	int (*stop_requested)(void);
	/*
	 * Who applies (journaled, shown by status), set by mdp_apply: the
	 * transaction acts for it from then on. MDP_BY_AUTO and
	 * MDP_BY_UNTIL_IDLE mark a layer its watcher removes by itself: recover
	 * leaves it while the watcher lock is held. MDP_BY_COMPARE (bench
	 * --compare) and MDP_BY_PROBE (explain --probe) hold the lock until they
	 * revert: their own revert's recover leaves their layer to it, recover
	 * by anyone else removes it. MDP_BY_HAND until an apply says otherwise.
	 */
	enum mdp_origin origin;
	/* How long recover waits for a service whose pause was under way to settle (ms). */
	unsigned settle_ms;
};

/*
 * A transaction on r, its diagnostics into d, its report empty. svc: the
 * service backend (NULL, or one without ops: none; its timeouts still
 * bound how long recover lets a pause a killed mdprofile left settle).
 * stop: asked between an apply's steps (NULL: never).
 */
void mdp_txn_init(struct mdp_txn *tx, const struct mdp_root *r, struct mdp_diags *d,
		  const struct mdp_svc_backend *svc, int (*stop)(void));

/* ---- one apply (txn_apply.c) ------------------------------------------------- */

/* What the callers of mdp_apply vary. */
struct mdp_apply_opts {
	enum mdp_origin origin; /* who applies (struct mdp_txn's origin) */
	/* The profile replaces the base instead of going over it as an overlay (enable,
	 * apply --base, bench --compare, explain --probe); refused over an overlay. */
	bool as_base;
	/* Discover only what the plan needs (mdp_plan_discover_skip): on a big box
	 * discovery is most of apply's work. */
	bool lean;
	/* Discover and plan, then preview the services into tx->rep (what apply would do
	 * with each, diff and apply --dry-run); nothing is journaled or changed. */
	bool dry_run;
	void *ctx;
	/* What discovery and planning say, a batch at a time as they say it (a step's
	 * failure last, in a batch of its own); freed after. NULL: dropped. */
	void (*diags)(void *ctx, struct mdp_diags *d);
	/* Planned, before anything is journaled or changed (the plan's notes). NULL: none. */
	void (*planned)(void *ctx, const struct mdp_system *s, const struct mdp_plan *pl);
};

/* The top layer an apply leaves: what it wrote, or found already so. */
struct mdp_layer {
	bool on; /* false: none (in sync with nothing active, a dry run, or the apply failed) */
	bool overlay; /* over a base (mdprofile(8), LAYERS) */
	enum mdp_origin by;
	int64_t since; /* seconds since the epoch: a watcher knows its layer by it */
};

/* How far an apply went: a failure before the transaction is said through diags. */
enum mdp_apply_step {
	MDP_APPLY_DISCOVER, /* discovery failed (rc.err): the system is unreadable */
	MDP_APPLY_PLAN,     /* the plan refused the profile (rc.err: -EINVAL) or failed */
	MDP_APPLY_TXN,      /* the transaction ran, or the dry run's preview: rc */
};

struct mdp_applied {
	enum mdp_apply_step step;
	struct mdp_txn_rc rc; /* MDP_TXN_ERROR with the errno when step < MDP_APPLY_TXN */
	struct mdp_layer layer;
	struct mdp_system sys; /* what discovery read (lean: what the plan needs) */
	struct mdp_plan plan;  /* the plan applied: its notes go into the report */
};

/*
 * Apply p: discover, plan, then (unless a dry run) the transaction, whose
 * report is in tx->rep and its diagnostics in tx->d, as mdp_txn_revert's
 * are. The caller holds the lock and has run mdp_txn_recover (a dry run
 * needs neither: it only reads). A
 * transaction's errors before anything changed (MDP_TXN_ERROR): -EINVAL or
 * -EBUSY when the profile or a layer rule refuses it, -EBADMSG or -EPERM
 * when the journal is unreadable or untrusted. a is filled whatever
 * happens: free it with mdp_applied_free.
 */
void mdp_apply(struct mdp_txn *tx, const struct mdp_profile *p, const struct mdp_apply_opts *o,
	       struct mdp_applied *a);
void mdp_applied_free(struct mdp_applied *a);

/* ---- revert and recover (txn_revert.c) --------------------------------------- */

/*
 * Remove the top layer: an overlay (the base's values and services back),
 * else the base (back to the baseline, journal removed); all: both. 0 with
 * a "nothing active" note when none.
 */
struct mdp_txn_rc mdp_txn_revert(struct mdp_txn *tx, bool all);
/*
 * Finish an interrupted transaction: a stale journal (other boot_id) is
 * cleared; an interrupted apply or revert is undone to the base under an
 * overlay when there is one, else to the baseline; an active layer is left
 * alone, unless a watcher applied it and is gone (its lock is free) or
 * bench --compare applied it: then it is removed the same way. *did says
 * whether anything was done.
 */
struct mdp_txn_rc mdp_txn_recover(struct mdp_txn *tx, bool *did);
/*
 * The same for a watcher about to start (auto): the checks a gone watcher paused stay
 * paused, for this one to take over at its first look (resumed there when allowed, and
 * said), where mdp_txn_recover lets them go (resumed at once, the reason never weighed).
 */
struct mdp_txn_rc mdp_txn_recover_watcher(struct mdp_txn *tx, bool *did);
/*
 * Put back one value of the active layers that something else rewrote
 * (the watcher, while engaged): the journal's set value for (t, dev),
 * written and read back, reported as a change. The caller holds the lock.
 * -ENOENT when the layers do not set it, -ENODEV when dev is gone. Not a
 * transaction result: 0 or a -errno (nothing to roll back, one value).
 */
int mdp_txn_reassert(struct mdp_txn *tx, enum mdp_tunable t, const char *dev);
/*
 * Steer one value of the active top layer (a watcher's goal, goal.h): the
 * journal's set value for (t, dev) becomes want, so that drift and
 * put-backs follow it, with the value (t, dev) has now added as its
 * baseline when it has none (invariant 1), stored before want is written
 * and read back; reported as a change. Revert and recover put back what
 * they would have without it. The caller holds the lock. -ENOENT when no
 * layer is active, -ENODEV when dev is gone; 0 or a -errno, not a
 * transaction result (one value, nothing to roll back).
 */
int mdp_txn_steer(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
		  const struct mdp_value *want);
/*
 * What removing the top layer would put back at (t, dev): the base's value
 * under an overlay, else the baseline. 0 with *v; -ENOENT when the layers
 * never changed it (its value now is its own), or no journal; -EBADMSG
 * when it cannot be read.
 */
int mdp_txn_floor(const struct mdp_root *r, enum mdp_tunable t, const char *dev,
		  struct mdp_value *v);
/* ---- a check paused in place (txn_pause.c) ----------------------------------- */

/*
 * Pause array a's running check or repair where it stands (issue 49; maint_ckpt.h says how
 * md does it): its place (md/sync_completed) journaled in MDP_PAUSED first, then idle written
 * to md/sync_action, then md's own place (md/sync_min, which idle sets) kept when it is
 * further, and kept on disk by a's UUID (mdp_ckpt_save, at now) for a reboot; why (NULL:
 * not said): the reason status shows, journaled with it. *position: the place. The caller
 * holds the lock. -EBUSY when no check or repair runs on a, -ENODEV when it is gone; when
 * idle cannot be written the line is taken out again.
 */
int mdp_txn_pause(struct mdp_txn *tx, const struct mdp_array *a, int64_t now,
		  const struct mdp_jwhy *why, uint64_t *position);
/*
 * Why dev's check stays paused, when that changed (the window opened while a disk is hot, the
 * next window's start): the line rewritten only when it differs. The caller holds the lock.
 * -ENOENT when dev has no pause.
 */
int mdp_txn_pause_why(struct mdp_txn *tx, const char *dev, const struct mdp_jwhy *why);
/*
 * Resume dev's paused check from its place: md/sync_min the place (only when md does not
 * hold it already, and never on DSM, whose own scrub reads it: there md's place is used
 * as md kept it), then the action; the line removed after. A check that runs again, or an
 * operation that took its place, only removes the line. -ENOENT when dev has no pause.
 */
int mdp_txn_resume(struct mdp_txn *tx, const char *dev);
/*
 * A check's place on disk (txn_ckpt.c): MDP_MAINT_CKPT_DIR/UUID, trusted as the journal is
 * (root's or the caller's, writable by nobody else). save: created or replaced atomically.
 * load: a's place, 0; -ENOENT none; -EBADMSG not one mdprofile wrote, -ESTALE refused
 * (another array's, or taken before a last changed: maint_ckpt.h), -EPERM untrusted, each
 * said in d. drop: the file removed (0 when there was none).
 */
int mdp_ckpt_save(const struct mdp_root *r, const struct mdp_mckpt *c, struct mdp_diags *d);
int mdp_ckpt_load(const struct mdp_root *r, const struct mdp_array *a, struct mdp_mckpt *c,
		  struct mdp_diags *d);
int mdp_ckpt_drop(const struct mdp_root *r, const char *uuid);

/*
 * A check a reboot or a crash cut, journaled as paused at c's place (a is idle): the
 * watcher's resume then starts it from there when it is allowed, and revert, disable and
 * recover let go of it as of any pause. -EBUSY when a is not idle.
 */
int mdp_txn_pause_kept(struct mdp_txn *tx, const struct mdp_array *a, const struct mdp_mckpt *c);
/* The pauses journaled in this boot (quietly): 0, -ENOENT when none (or only another boot's),
 * -EBADMSG or -EPERM. */
int mdp_txn_pauses(const struct mdp_root *r, struct mdp_jpauses *p);

/* Whether a journal needs recover (for status/diff warnings). */
bool mdp_txn_needs_recover(const struct mdp_root *r);

/*
 * A watcher's layers (auto, apply --until-idle), as the journal says now:
 *
 * mdp_txn_layer_is: the top layer is active and the one a watcher of origin
 * by applied at since for profile (no one replaced or reverted it). Read
 * without the lock, a transaction of another mdprofile under way reads as
 * not: decide "removed" under the lock.
 *
 * mdp_txn_layer_blocks: the top layer is one the watcher must not touch:
 * an overlay applied by hand (not replaced), or profile itself applied by
 * another origin (applying it again would not make it the watcher's, and
 * removing it would remove another's layer); why says which, for people.
 */
bool mdp_txn_layer_is(const struct mdp_root *r, enum mdp_origin by, int64_t since,
		      const char *profile);
bool mdp_txn_layer_blocks(const struct mdp_root *r, enum mdp_origin by, const char *profile,
			  char *why, size_t len);

#endif
