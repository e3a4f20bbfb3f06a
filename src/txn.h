/*
 * txn: apply, revert and recover, journaled and verified.
 *
 * See the invariants at the top of txn.c. The journal and the lock live
 * under /run/mdprofile (through root). Services (pause/resume) are steps
 * of the same transaction as tunables; their backend is an ops table
 * (struct mdp_svc_ops in services.h) that may be NULL when a profile
 * pauses nothing.
 */
#ifndef MDP_TXN_H
#define MDP_TXN_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "discover.h"
#include "plan.h"
#include "profile.h"
#include "root.h"
#include "tunable.h"

#define MDP_STATE_DIR "/run/mdprofile"
#define MDP_JOURNAL   MDP_STATE_DIR "/journal"
#define MDP_LOCK      MDP_STATE_DIR "/lock"

struct mdp_svc_backend; /* services.h */

enum mdp_jstate { MDP_J_NONE = 0, MDP_J_APPLYING, MDP_J_ACTIVE, MDP_J_REVERTING };

/* One target's baseline: what it held before mdprofile first changed it this boot. */
struct mdp_jtarget {
	enum mdp_tunable t;
	char dev[MDP_NAME_MAX];
	char raw[MDP_RAW_MAX]; /* exactly what was read, trailing newline stripped */
};

/* A service mdprofile paused (only those are ever resumed). */
struct mdp_jservice {
	char name[160];
	bool paused; /* mdprofile paused it and has not resumed it */
};

struct mdp_journal {
	enum mdp_jstate state;
	char boot_id[40];
	char profile[256]; /* name of the active/intended profile */
	char profile_path[4096];
	struct mdp_jtarget *base;
	size_t n_base;
	struct mdp_jservice *svc;
	size_t n_svc;
};

/* Lock held for the life of a mutating command. */
struct mdp_lock {
	int fd;
};

/* Take the lock. -EWOULDBLOCK with *holder = pid when busy and !wait. */
int mdp_lock_take(const struct mdp_root *r, bool wait, struct mdp_lock *l, long *holder);
void mdp_lock_release(struct mdp_lock *l);

/* Read the journal. -ENOENT when there is none; -EBADMSG when unreadable (diag). */
int mdp_journal_load(const struct mdp_root *r, struct mdp_journal *j, struct mdp_diags *d);
void mdp_journal_free(struct mdp_journal *j);
/* Serialize (*out malloc'd) and parse (tests, the fuzz target). */
int mdp_journal_format(const struct mdp_journal *j, char **out, size_t *len);
int mdp_journal_parse(const char *text, size_t len, struct mdp_journal *j);
/* Replace the journal atomically and durably (temp, fsync, rename, fsync dir). */
int mdp_journal_store(const struct mdp_root *r, const struct mdp_journal *j);

/* What a transaction did, for the command to print. */
struct mdp_txn_event {
	char what[200]; /* "md2 stripe_cache_size 256 -> 4096" */
};

struct mdp_txn_report {
	struct mdp_txn_event *done; /* changes made (apply) or restored (revert) */
	size_t n_done;
	char **left; /* exit 4: what is left changed, one line each */
	size_t n_left;
	char **fix; /* exit 4: commands that would restore it */
	size_t n_fix;
	char **info; /* notes: stale journal cleared, recovered, ... */
	size_t n_info;
};
void mdp_txn_report_free(struct mdp_txn_report *rep);

enum mdp_txn_result {
	MDP_TXN_OK = 0,
	MDP_TXN_FAILED = 3,  /* failed, everything rolled back */
	MDP_TXN_PARTIAL = 4, /* rollback incomplete: see report.left / report.fix */
};

struct mdp_txn {
	const struct mdp_root *root;
	const struct mdp_svc_backend *svc; /* NULL: no service backend */
	struct mdp_diags *d;
	struct mdp_txn_report rep;
};

/*
 * Apply plan (built from p against the live system). The caller holds the
 * lock and has run mdp_txn_recover. Returns MDP_TXN_* or a negative errno
 * for errors before anything changed.
 */
int mdp_txn_apply(struct mdp_txn *tx, const struct mdp_profile *p, const struct mdp_plan *pl);
/* Back to the baseline, journal removed. 0 with rep.info "nothing active" when none. */
int mdp_txn_revert(struct mdp_txn *tx);
/*
 * Finish an interrupted transaction: a stale journal (other boot_id) is
 * cleared; an interrupted apply or revert is undone to the baseline; an
 * active profile is left alone. *did says whether anything was done.
 */
int mdp_txn_recover(struct mdp_txn *tx, bool *did);
/* Whether a journal needs recover (for status/diff warnings). */
bool mdp_txn_needs_recover(const struct mdp_root *r);

#endif
