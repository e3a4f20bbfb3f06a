/*
 * txn_int: what the files of the transaction share (txn.h is the
 * interface). Not part of the library interface: only src/txn*.c include
 * it.
 *
 *   txn_apply.c    one apply (mdp_apply): discovery, the plan, the engine
 *   txn.c          the apply engine: its steps, the journal first, the
 *                  rollback (the invariants are written at its top)
 *   txn_revert.c   revert and recover; one value put back or steered; what
 *                  the journal says of the layers
 *   txn_svc.c      services within a transaction: pause, resume, a pause
 *                  left under way settled, the preview
 *   txn_target.c   one target read, written and read back, restored
 *   txn_journal.c  the journal as a transaction builds and stores it
 *   txn_report.c   the report: what was done, and what is left
 *   txn_pause.c    a check paused in place, journaled, resumed, let go
 */
#ifndef MDP_TXN_INT_H
#define MDP_TXN_INT_H

#include "journal.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "services.h"
#include "txn.h"

#ifdef MDP_FAULT_SEAM
#include <assert.h>
/* Test builds check the state each transition of the diagram atop txn.c starts from. */
#define assert_jstate(cond) assert(cond)
#define assert_txn(cond)    assert(cond)
#else
#define assert_jstate(cond) ((void)0)
#define assert_txn(cond)    ((void)0)
#endif

/* ---- result ------------------------------------------------------------------ */

static inline struct mdp_txn_rc txn_res(enum mdp_txn_result res)
{
	return (struct mdp_txn_rc){res, 0};
}

/* Stopped before anything changed. err is a -errno; anything else is a bug. */
static inline struct mdp_txn_rc txn_err(int err)
{
	assert_txn(err < 0);
	return (struct mdp_txn_rc){MDP_TXN_ERROR, err < 0 ? err : -EIO};
}

/* ---- the engine (txn.c) ------------------------------------------------------ */

/*
 * Apply plan (built from p against the live system), p replacing the base
 * when as_base; *layer: the top layer after it (mdp_apply's). The caller
 * holds the lock and has run mdp_txn_recover.
 */
struct mdp_txn_rc txn_apply(struct mdp_txn *tx, const struct mdp_profile *p,
			    const struct mdp_plan *pl, bool as_base, struct mdp_layer *layer);

/* ---- report (txn_report.c) --------------------------------------------------- */

void txn_ev_change(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
		   const struct mdp_value *before, const struct mdp_value *after);
void txn_ev_service(struct mdp_txn *tx, const char *name, enum mdp_txn_svc_action action,
		    enum mdp_txn_svc_result result);
void txn_ev_note(struct mdp_txn *tx, enum mdp_txn_note_kind kind, const char *profile);
/* After a rollback nothing this apply did stays done: drop its events. */
void txn_ev_forget_since(struct mdp_txn *tx, size_t n_changes, size_t n_services);
/* (t, dev) not back to raw, with the command that puts it back (exit 4). */
void txn_left_tunable(struct mdp_txn *tx, enum mdp_tunable t, const char *dev, const char *raw);
/* A service left paused (paused) or resumed and not paused again. */
void txn_left_service(struct mdp_txn *tx, const char *svc, bool paused);

/* ---- one target (txn_target.c) ----------------------------------------------- */

/* (t, dev) now: raw as read (trailing newline stripped) and parsed into v. */
int txn_read_target(const struct mdp_root *r, enum mdp_tunable t, const char *dev, char *raw,
		    size_t cap, struct mdp_value *v);
/* The value to write to get raw back ("10000 (system)\n" -> "system"). */
int txn_raw_value(enum mdp_tunable t, const char *raw, struct mdp_value *v);
/* Write want and read it back (invariant 3); a mismatch is -ERANGE, said. */
int txn_write_verify(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
		     const struct mdp_value *want);
/* Put (t, dev) back to want unless it is there; report: a change says so. */
int txn_restore_value(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
		      const struct mdp_value *want, bool report);
int txn_restore_raw(struct mdp_txn *tx, enum mdp_tunable t, const char *dev, const char *raw,
		    bool report);
/* dev is gone (its values with it): noted once, nothing to restore. */
bool txn_dev_gone(struct mdp_txn *tx, const char *dev);

/* ---- services (txn_svc.c) ---------------------------------------------------- */

int txn_svc_pause(struct mdp_txn *tx, const char *svc, unsigned timeout_s);
/* An apply's pause: its tool's process group journaled in j as it starts (invariant 8). */
int txn_svc_pause_journaled(struct mdp_txn *tx, struct mdp_journal *j, const char *svc,
			    unsigned timeout_s);
/* 0 resumed, -EBUSY held stopped by DSM for its own reason (invariant 6), else -errno. */
int txn_svc_resume(struct mdp_txn *tx, const char *svc, unsigned timeout_s);
bool txn_svc_running(struct mdp_txn *tx, const char *svc, unsigned timeout_s);
/* Whether sv applies here: no only_on, or it names this backend. */
bool txn_svc_here(const struct mdp_txn *tx, const struct mdp_service *sv);
/* sv's state; -ENOTSUP (said) when there is no backend and sv is required. */
int txn_svc_status(struct mdp_txn *tx, const struct mdp_service *sv, enum mdp_svc_state *state);
/* Said once per transaction: resume may have undone a stop DSM made itself. */
void txn_note_plain_verbs(struct mdp_txn *tx);
/* A pause left under way by a killed mdprofile: waited for, then killed (invariant 8). */
void txn_settle(struct mdp_txn *tx, const struct mdp_jservice *js);
/*
 * What apply would do with p's services, changing nothing: one entry per
 * service in tx->rep.services (action pause, result one of NOT_RUNNING,
 * NOT_FOUND, WOULD_PAUSE, MISSING, PAUSED, UNKNOWN). Reads the active
 * journal, asks the backend for each state. 0 or -ENOMEM.
 */
int txn_preview_services(struct mdp_txn *tx, const struct mdp_profile *p);

/* ---- the journal (txn_journal.c) --------------------------------------------- */

struct mdp_jtarget *txn_journal_base(struct mdp_journal *j, enum mdp_tunable t, const char *dev);
/* Invariant 2: the first value seen this boot stays the baseline. */
int txn_journal_add_base(struct mdp_journal *j, enum mdp_tunable t, const char *dev,
			 const char *raw);
struct mdp_jservice *txn_journal_svc(struct mdp_journal *j, const char *name);
int txn_journal_set_svc(struct mdp_journal *j, const char *name, bool paused, unsigned timeout_s);
/* A malloc'd copy of n elements (NULL for none); *err = -ENOMEM when it fails. */
void *txn_dup_array(const void *src, size_t n, size_t size, int *err);
/* A copy of src for the next state; set stays empty: the new plan's own. */
int txn_journal_copy(const struct mdp_journal *src, struct mdp_journal *dst);
const struct mdp_jset *txn_jset_find(const struct mdp_jset *v, size_t n, enum mdp_tunable t,
				     const char *dev);
/* What b goes back to when the layer above lets go of it (the base's value, else the baseline). */
int txn_floor_value(const struct mdp_journal *j, const struct mdp_jtarget *b, struct mdp_value *v);
/* Store j durably (invariant 1), said when it fails; the journal removed. */
int txn_journal_store(struct mdp_txn *tx, const struct mdp_journal *j);
int txn_journal_remove(struct mdp_txn *tx);
/* The boot id (invariant 5); "" and -errno when unreadable or not a UUID. */
int txn_read_boot_id(const struct mdp_root *r, char *buf, size_t len);

/* Whether fd, at sys (a directory when dir), may steer mdprofile: root's or the caller's, and
 * writable by nobody else; -EPERM with why (naming it what) in d. */
int txn_trust_check(const struct mdp_root *r, int fd, const char *sys, bool dir, const char *what,
		    struct mdp_diags *d);
/* A state file (the journal, MDP_PAUSED) read once checked (the rules of mdp_journal_load),
 * and replaced atomically and durably. */
int txn_state_read(const struct mdp_root *r, const char *sys, char **text, size_t *len,
		   struct mdp_diags *d);
int txn_state_replace(const struct mdp_root *r, const char *sys, const char *text, size_t len);

/* ---- checks paused (txn_pause.c) --------------------------------------------- */

/*
 * Let go of every check paused (revert, disable, recover): each resumed from its place,
 * or, when that fails, md/sync_min written back to 0 so that md is as it was (on DSM left
 * at its place: DSM's scrub reads it), each said as a note; a line whose array is gone or
 * runs something else dropped. The file removed. Whether any line was let go.
 */
bool txn_pauses_release(struct mdp_txn *tx);
/* The file's text (*out malloc'd) and back: -EINVAL when not one mdprofile wrote. */
int txn_pauses_format(const struct mdp_jpauses *p, char **out, size_t *len);
int txn_pauses_parse(char *text, struct mdp_jpauses *p);
/* Store p (the file removed when it holds none). */
int txn_pauses_store(struct mdp_txn *tx, const struct mdp_jpauses *p);

/* Serialize (*out malloc'd) and parse (tests, the fuzz target). */
int mdp_journal_format(const struct mdp_journal *j, char **out, size_t *len);

int mdp_journal_parse(const char *text, size_t len, struct mdp_journal *j);

/* Replace the journal atomically and durably (temp, fsync, rename, fsync dir). */
int mdp_journal_store(const struct mdp_root *r, const struct mdp_journal *j);

/* The same from the file's text in buf (cut up): -EINVAL when not one the watcher wrote. */
int mdp_wstate_parse(char *buf, struct mdp_wstate *w);

#endif
