/*
 * journal: the on-disk record of a transaction (see the format at the top
 * of journal.c), and the lock that keeps one mdprofile changing the system
 * at a time. Both live under /run/mdprofile, through root.
 */
#ifndef MDP_JOURNAL_H
#define MDP_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "discover.h"
#include "root.h"
#include "tunable.h"

#define MDP_STATE_DIR "/run/mdprofile"
#define MDP_JOURNAL   MDP_STATE_DIR "/journal"
#define MDP_LOCK      MDP_STATE_DIR "/lock"

enum mdp_jstate { MDP_J_NONE = 0, MDP_J_APPLYING, MDP_J_ACTIVE, MDP_J_REVERTING };

/* One target's baseline: what it held before mdprofile first changed it this boot. */
struct mdp_jtarget {
	enum mdp_tunable t;
	char dev[MDP_NAME_MAX];
	char raw[MDP_RAW_MAX]; /* exactly what was read, trailing newline stripped */
};

/* A value the profile asked for (every target of its plan, changed or already in sync). */
struct mdp_jset {
	enum mdp_tunable t;
	char dev[MDP_NAME_MAX];
	struct mdp_value want;
};

/* A service mdprofile paused (only those are ever resumed). */
struct mdp_jservice {
	char name[160];
	bool paused;  /* mdprofile paused it (or was pausing it) and has not resumed it */
	bool settled; /* false ("pausing"): its tool was started and may outlive us */
	long pgid;    /* "pausing": the tool's process group, 0 when unknown */
	/* The profile entry's own timeout (s), for its resume and settle; 0: the default. */
	unsigned timeout_s;
	/*
	 * "pausing": who led that group (mdp_exec_group_ident), so that a
	 * recover never waits for or kills a process mdprofile did not start:
	 * its start time (clock ticks after boot) and the host's boot id. 0 and
	 * "" when unknown (a journal of an earlier version).
	 */
	uint64_t start;
	char boot[40];
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
	/*
	 * Applied by apply --until-idle, whose watcher holds the lock until it
	 * reverts: found active by anyone holding the lock, the watcher is gone
	 * (SIGKILL, a crash) and recover reverts it.
	 */
	bool until_idle;
	/* Applied by bench --compare, which reverts at its end: the same, for its profiles. */
	bool compare;
	/* What the active profile set, target by target: drift is measured against it. */
	struct mdp_jset *set;
	size_t n_set;
};

/* Lock held for the life of a mutating command. */
struct mdp_lock {
	int fd;
};

/*
 * Take the lock. -EWOULDBLOCK with *holder = pid when busy and !wait;
 * -EPERM (d says why and how to fix it) when the state directory or the
 * lock is not root's or the caller's, or others may write it.
 */
int mdp_lock_take(const struct mdp_root *r, bool wait, struct mdp_lock *l, long *holder,
		  struct mdp_diags *d);
void mdp_lock_release(struct mdp_lock *l);
/*
 * Whether a mutating mdprofile (or an apply --until-idle watcher) holds the
 * lock now: 1 held, 0 free, -errno when it cannot tell (the lock is
 * root's). Creates nothing and does not keep the lock.
 */
int mdp_lock_probe(const struct mdp_root *r);

/*
 * Read the journal. -ENOENT when there is none; -EBADMSG when unreadable,
 * -EPERM when it or the state directory is not to be trusted (as
 * mdp_lock_take), both with a diag.
 */
int mdp_journal_load(const struct mdp_root *r, struct mdp_journal *j, struct mdp_diags *d);
void mdp_journal_free(struct mdp_journal *j);
/* Serialize (*out malloc'd) and parse (tests, the fuzz target). */
int mdp_journal_format(const struct mdp_journal *j, char **out, size_t *len);
int mdp_journal_parse(const char *text, size_t len, struct mdp_journal *j);
/* When the journal was last written (seconds since the epoch): when its state began. */
int mdp_journal_mtime(const struct mdp_root *r, int64_t *sec);
/* Replace the journal atomically and durably (temp, fsync, rename, fsync dir). */
int mdp_journal_store(const struct mdp_root *r, const struct mdp_journal *j);

#endif
