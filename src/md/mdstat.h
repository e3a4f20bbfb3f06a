/*
 * mdstat: a parser for /proc/mdstat, outside input that the status
 * display and discovery's progress fallback read (and a fuzz target).
 *
 * Line by line and forgiving: a line or state it does not know is skipped
 * with a "/proc/mdstat:LINE:" note in the diags and never costs the other
 * arrays (a bad header drops only its own array, a bad detail line only
 * its own facts). The text of every md kernel from 3.10 to 6.x parses
 * without a note.
 */
#ifndef MDP_MDSTAT_H
#define MDP_MDSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_base.h"

#define MDP_MDSTAT_MEMBERS 32 /* members kept by name; the counts cover all */

/* A member's flags as md prints them after "sda1[0]". */
enum mdp_mdstat_mflag {
	MDP_MS_FAULTY = 1 << 0,      /* (F) */
	MDP_MS_SPARE = 1 << 1,       /* (S) */
	MDP_MS_WRITEMOSTLY = 1 << 2, /* (W) */
	MDP_MS_JOURNAL = 1 << 3,     /* (J) */
	MDP_MS_REPLACEMENT = 1 << 4, /* (R) */
	MDP_MS_ERROR = 1 << 5,       /* (E): Synology's md, a member with disk errors */
};

struct mdp_mdstat_member {
	char name[MDP_NAME_MAX]; /* "sdd6" */
	int desc;                /* the number in brackets: descriptor, not role */
	unsigned flags;          /* enum mdp_mdstat_mflag */
};

struct mdp_mdstat_array {
	char name[MDP_NAME_MAX];
	unsigned line;   /* of its header in the text, for notes */
	char state[16];  /* "active", "inactive" or "broken" (Linux 5.4+: a raid0/linear lost a
			    member) */
	bool active;     /* has a personality: "active" or "broken" */
	char ro[16];     /* "", "read-only" or "auto-read-only" */
	char level[16];  /* "raid5"; also after "inactive" where a kernel prints one; else "" */
	uint64_t blocks; /* KiB */
	char super[64];  /* "1.2", "external:imsm", "external:/md127/0", "non-persistent", "" (0.90)
			  */
	bool container;  /* external metadata that is not a member array: "external:imsm" */
	int raid_disks, working; /* [4/3]; 0 when not printed (raid0, linear, inactive) */
	int missing;             /* '_' in [UUU_] */
	char op[16];             /* "reshape", "resync", "recovery", "check", "repair", "" */
	char op_state[16];       /* "DELAYED", "PENDING", "REMOTE" from resync=X (Synology's md
				    names the action, recovery=DELAYED, and adds "CLEANING UP") */
	uint64_t done, total;    /* blocks, from "(491263360/1953494784)" */
	unsigned permille;       /* the kernel's truncated figure: 25.1% -> 251 */
	double finish_min;       /* finish=5198.4min */
	uint64_t speed_kib;      /* speed=4687K/sec */
	bool bitmap;             /* a bitmap line was printed */
	uint64_t bitmap_pages, bitmap_pages_total;
	struct mdp_mdstat_member members[MDP_MDSTAT_MEMBERS];
	size_t n_members;     /* stored in members[] */
	size_t n_members_all; /* all members listed, also those beyond MDP_MDSTAT_MEMBERS */
	size_t n_faulty, n_spare;
};

struct mdp_mdstat {
	struct mdp_mdstat_array *arrays; /* in the order of the text */
	size_t n;
	unsigned notes; /* lines skipped with a note */
};

/*
 * Parse mdstat text (need not be NUL-terminated) into out. Lines it cannot
 * read are notes in d ("/proc/mdstat:LINE: ..."), d may be NULL. Returns 0,
 * or -ENOMEM / -EINVAL (NULL text or out); out is written only on success.
 */
int mdp_mdstat_parse(const char *text, size_t len, struct mdp_mdstat *out, struct mdp_diags *d);
void mdp_mdstat_free(struct mdp_mdstat *m);
/* The entry for array name ("md3"), or NULL. */
const struct mdp_mdstat_array *mdp_mdstat_find(const struct mdp_mdstat *m, const char *name);

#endif
