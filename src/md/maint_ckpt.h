/*
 * maint_ckpt: a check's place kept across a pause and a reboot (issue 49), and what a
 * watcher does about a check or repair at a look. Pure: text in, text out; the caller reads
 * and writes the file (MDP_MAINT_CKPT_DIR/UUID, through root) and md's attributes.
 *
 * How md pauses a check, the same on Linux 5.10 and 6.1 (tests/vm/scenarios/99-maint-kernel.sh;
 * DSM's own 3.10 and 4.4 builds were not run):
 * - md/sync_max cannot be lowered under a running check (EBUSY): md lets it fall only while
 *   no sync runs. A check started with sync_max below its end stops there and waits, still a
 *   check, until sync_max is max again; but a check md or a person started cannot be held
 *   where it stands that way.
 * - idle written to md/sync_action stops a check, and md itself sets md/sync_min to its
 *   place (md/sync_completed, which moves every sixteenth of the array); check written
 *   after starts there, not at 0. sync_min written back to 0 while idle forgets it.
 * So a pause is idle, its place kept here as well (md forgets sync_min when the array is
 * stopped, at a reboot), and a resume is sync_min then check or repair: mdadm's mdcheck's
 * way, on every kernel. A resumed check does up to a sixteenth again. md sets sync_min back
 * to 0 when a check runs to its end; a pause never resumed leaves it, which a revert must
 * put back to 0. DSM's own scrub works the same way (discover.h's DSM facts).
 */
#ifndef MDP_MAINT_CKPT_H
#define MDP_MAINT_CKPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "discover.h"
#include "maint.h"

/* Where the places are kept, one file per array named by its UUID: they outlive a reboot. */
#define MDP_MAINT_CKPT_DIR "/var/lib/mdprofile/checkpoint"
/* The file's text is never longer. */
#define MDP_MAINT_CKPT_MAX 512u

/* A check's place, and what the array was when it was taken. */
struct mdp_mckpt {
	char uuid[33];     /* 32 hex digits */
	char action[8];    /* check or repair */
	uint64_t position; /* sectors done (md/sync_completed's first number) */
	uint64_t total;    /* of this many (its second) */
	char level[16];    /* md/level */
	unsigned raid_disks;
	uint64_t chunk_kib, size_kib;
	int64_t saved; /* seconds since the epoch, for the word */
};

/* The place of array a's check or repair as it stands: 0, or -EINVAL when a has none. */
int mdp_mckpt_take(const struct mdp_array *a, int64_t now, struct mdp_mckpt *c);
/* c as the file's text (MDP_MAINT_CKPT_MAX holds it). */
int mdp_mckpt_format(const struct mdp_mckpt *c, char *buf, size_t len);
/* The file's text into *c: 0, or -EINVAL with why. */
int mdp_mckpt_parse(const char *text, struct mdp_mckpt *c, char *why, size_t len);
/*
 * NULL when check c may resume on array a, else why not, in buf: another array's, or one
 * taken before the array last changed (its level, disks, chunk or size differ), or a place
 * past the end.
 */
const char *mdp_mckpt_refused(const struct mdp_mckpt *c, const struct mdp_array *a, char *buf,
			      size_t len);

/* What runs on an array, as maintenance sees it. */
enum mdp_mop {
	MDP_MOP_NONE,       /* nothing, or frozen, or an operation md holds back */
	MDP_MOP_CHECK,      /* check or repair: may be paused */
	MDP_MOP_PAUSED,     /* idle with a check of ours paused */
	MDP_MOP_REDUNDANCY, /* resync, recover, reshape: never paused */
};

/* Why maintenance holds back now, the first that holds, in this order. */
enum mdp_mwhy { MDP_MW_NONE, MDP_MW_WINDOW, MDP_MW_HEAT, MDP_MW_DEFER };

enum mdp_mdo {
	MDP_MDO_NOTHING,
	MDP_MDO_PAUSE,  /* idle, the place kept */
	MDP_MDO_RESUME, /* sync_min the place, then check or repair */
	MDP_MDO_SLOW,   /* a redundancy operation at the box's own minimum */
	MDP_MDO_FULL,   /* a redundancy operation at the profile's speeds */
};

/* What op gets now: why held back (outside a window, hot, a job deferred to), and the act. */
enum mdp_mdo mdp_maint_decide(const struct mdp_maint *m, struct mdp_mtime now, bool hot,
			      bool deferred, enum mdp_mop op, enum mdp_mwhy *why);
/* "window", "heat", "deferred" or "" for the word in status, the log and JSON. */
const char *mdp_maint_why_name(enum mdp_mwhy w);

#endif
