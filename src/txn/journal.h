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
#include <stdio.h>

#include "mdp_base.h"
#include "mdp_md.h"

#define MDP_STATE_DIR "/run/mdprofile"
#define MDP_JOURNAL   MDP_STATE_DIR "/journal"
#define MDP_LOCK      MDP_STATE_DIR "/lock"
/* Held for its whole life by the one mdprofile auto (or apply --until-idle) watcher. */
#define MDP_WATCHER_LOCK MDP_STATE_DIR "/watcher.lock"
/* What that watcher is doing, for status: written atomically, read by anyone. */
#define MDP_WATCHER_STATE MDP_STATE_DIR "/watcher"
/* The checks the watcher paused (txn_pause.c): kept apart from the journal, which exists only
 * while a layer is active, where a check may be paused with none. */
#define MDP_PAUSED MDP_STATE_DIR "/paused"

enum mdp_jstate { MDP_J_NONE = 0, MDP_J_APPLYING, MDP_J_ACTIVE, MDP_J_REVERTING };

/* Who applied a layer: shown by status, and what recover may do with it. */
enum mdp_origin {
	MDP_BY_HAND = 0,   /* mdprofile apply */
	MDP_BY_BOOT,       /* the boot script (apply --origin boot) */
	MDP_BY_ENABLE,     /* mdprofile enable */
	MDP_BY_AUTO,       /* the mdprofile auto watcher: its own while the watcher lives */
	MDP_BY_UNTIL_IDLE, /* apply --until-idle: the same */
	MDP_BY_COMPARE,    /* bench --compare, which reverts at its end */
	MDP_BY_PROBE,      /* explain --probe: the same, one setting */
	MDP_BY_COUNT,
};
const char *mdp_origin_name(enum mdp_origin o);
int mdp_origin_parse(const char *s, enum mdp_origin *o);
/* A layer a watcher owns: found with no watcher alive, recover removes it. */
static inline bool mdp_origin_watched(enum mdp_origin o)
{
	return o == MDP_BY_AUTO || o == MDP_BY_UNTIL_IDLE;
}

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
	bool under; /* the base under an overlay paused it: removing the overlay keeps it */
};

/*
 * Layers. A profile applied while none is active is the base; one applied
 * over an active base is an overlay, and the base waits under it: its name,
 * origin and what it set are kept in "under", so that removing the overlay
 * puts the base's values and services back without reading its file again.
 * Without an overlay, the top layer is the base and has_under is false.
 */
struct mdp_jlayer {
	char profile[256];
	char path[4096];
	enum mdp_origin by;
	int64_t since; /* when it was applied, seconds since the epoch; 0 unknown */
};

struct mdp_journal {
	enum mdp_jstate state;
	char boot_id[40];
	char profile[256]; /* name of the active/intended profile (the top layer) */
	char profile_path[4096];
	enum mdp_origin by;       /* who applied the top layer */
	int64_t since;            /* when, seconds since the epoch; 0 unknown */
	struct mdp_jtarget *base; /* baselines: what the system had before any layer */
	size_t n_base;
	struct mdp_jservice *svc;
	size_t n_svc;
	/*
	 * What the active layers set, target by target, the overlay's over the
	 * base's: drift is measured against it.
	 */
	struct mdp_jset *set;
	size_t n_set;
	/*
	 * The operations running when the top layer was applied and md's speed
	 * of each then (status shows it beside the speed now); none in a
	 * journal of an earlier version.
	 */
	struct mdp_op_speed *speed;
	size_t n_speed;
	/* The base under an overlay (has_under), and what it alone set. */
	bool has_under;
	struct mdp_jlayer under;
	struct mdp_jset *uset;
	size_t n_uset;
};

/*
 * A check or repair mdprofile paused (issue 49): written before md/sync_action is set to idle,
 * so that a revert, a disable or a recover after a crash leaves no pause behind. position:
 * the sectors done when it was paused (md/sync_completed's), then md's own place
 * (md/sync_min) once idle set it.
 */
/* Why a check stays paused, for status: the watcher's word and, outside the windows, when the
 * next one opens. */
struct mdp_jwhy {
	char word[12]; /* mdp_maint_why_name's: window, heat or deferred; "" not said */
	int64_t opens; /* window: the next window's start, seconds since the epoch; 0 not said */
};

struct mdp_jpause {
	char dev[MDP_NAME_MAX];
	char action[8]; /* check or repair */
	uint64_t position;
	uint64_t total; /* the sectors the check runs to (md/sync_completed's second), 0 unknown */
	struct mdp_jwhy why;
	uint64_t kib_s; /* md's speed as it was paused (md/sync_speed), KiB/s; 0 unknown */
};

struct mdp_jpauses {
	char boot_id[40];
	struct mdp_jpause *v;
	size_t n;
};
void mdp_jpauses_free(struct mdp_jpauses *p);

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
 * The watcher's own lock: one watcher per machine, and its liveness for
 * recover (a layer a watcher applied, with no watcher alive, is removed).
 * Never waits. Same returns as mdp_lock_take.
 */
int mdp_watcher_take(const struct mdp_root *r, struct mdp_lock *l, long *holder,
		     struct mdp_diags *d);
/*
 * Whether a watcher holds the watcher lock now: 1 held, 0 free, -errno when
 * it cannot tell (the lock is root's). Creates nothing and does not keep it.
 */
int mdp_watcher_probe(const struct mdp_root *r);
/*
 * Whether the lock file at path is held (1), free or absent (0), or cannot
 * be told (-errno): taken shared and let go at once, so that a taker meets
 * it only in that instant. With cap, the file's text (what its holder wrote,
 * its pid first) in buf, "" when none.
 */
int mdp_lock_seen(const struct mdp_root *r, const char *path, char *buf, size_t cap);
/*
 * For the watcher at each look: whether the watcher lock it holds (l) is
 * still the file at its path. 0 it is; 1 the file was removed or replaced
 * and the one there now is taken instead (l updated); -EWOULDBLOCK another
 * watcher holds that one (*holder its pid hint), another -errno.
 */
int mdp_watcher_keep(const struct mdp_root *r, struct mdp_lock *l, long *holder);

/*
 * Read the journal. -ENOENT when there is none; -EBADMSG when unreadable,
 * -EPERM when it or the state directory is not to be trusted (as
 * mdp_lock_take), both with a diag in d (NULL: read quietly, for a look).
 */
int mdp_journal_load(const struct mdp_root *r, struct mdp_journal *j, struct mdp_diags *d);
void mdp_journal_free(struct mdp_journal *j);
/* When the journal was last written (seconds since the epoch): when its state began. */
int mdp_journal_mtime(const struct mdp_root *r, int64_t *sec);

/*
 * What the watcher does, for status (MDP_WATCHER_STATE): one small text
 * file the watcher replaces at each change of state, believed only while
 * the watcher lock is held.
 */
struct mdp_wstate {
	long pid;
	enum mdp_origin mode; /* MDP_BY_AUTO or MDP_BY_UNTIL_IDLE */
	char profile[256];
	char state[16]; /* armed, engaged, held */
	int64_t since;  /* when that state began, seconds since the epoch */
	char on[64];    /* the kinds it engages on: "resync,recovery,reshape" */
	char why[128];  /* held: why ("reverted by another mdprofile") */
	/* its profile's maintenance windows, the checks it pauses and resumes (none: any time),
	   and the arrays that profile selects, when it names some ("" every array): status counts
	   a check's finish in those windows */
	struct mdp_mwin windows[MDP_MAINT_MAX_WINDOWS];
	size_t n_windows;
	char arrays[256]; /* space-separated */
};
int mdp_wstate_store(const struct mdp_root *r, const struct mdp_wstate *w);
/*
 * The small state files a watcher keeps for status (this one, and
 * watcher_goal.h's): put writes the text, a line "end" closes it, and it
 * replaces path atomically; load reads it into buf (cap bytes), checks its
 * first line is header and gives each line up to "end" to line (ctx).
 * -ENOENT when there is none; -EINVAL without the header or the end, or
 * what line returned.
 */
int mdp_state_store(const struct mdp_root *r, const char *path,
		    void (*put)(FILE *f, const void *arg), const void *arg);
int mdp_state_load(const struct mdp_root *r, const char *path, const char *header, char *buf,
		   size_t cap, int (*line)(void *ctx, char *line), void *ctx);
/* mdp_state_load's part after the read: buf (NUL-terminated, cut up) holds the file. */
int mdp_state_parse(char *buf, const char *header, int (*line)(void *ctx, char *line), void *ctx);
/* -ENOENT when none; -EINVAL when not one the watcher wrote. */
int mdp_wstate_load(const struct mdp_root *r, struct mdp_wstate *w);

#endif
