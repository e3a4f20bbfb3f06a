/*
 * mdstat: a parser for /proc/mdstat, outside input that the status
 * display and discovery's progress fallback read (and a fuzz target).
 */
#ifndef MDP_MDSTAT_H
#define MDP_MDSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ident.h"

struct mdp_mdstat_array {
	char name[MDP_NAME_MAX];
	char level[16];
	bool active;
	uint64_t blocks;         /* KiB */
	int raid_disks, working; /* [4/3] */
	char op[16];             /* "reshape", "resync", "recovery", "check", "" */
	uint64_t done, total;    /* blocks, from "(491263360/1953494784)" */
	unsigned permille;       /* 25.1% -> 251 */
	double finish_min;       /* finish=5198.4min */
	uint64_t speed_kib;      /* speed=4687K/sec */
	char members[16][MDP_NAME_MAX];
	size_t n_members; /* stored in members[], at most 16 */
	/* Additions: */
	size_t n_members_all; /* all members listed, also those beyond 16 */
	char op_state[16];    /* "DELAYED", "PENDING", "REMOTE" from resync=X; else "" */
};

struct mdp_mdstat {
	struct mdp_mdstat_array *arrays;
	size_t n;
};

/* Parse mdstat text (need not be NUL-terminated). -EINVAL on malformed input. */
int mdp_mdstat_parse(const char *text, size_t len, struct mdp_mdstat *out);
void mdp_mdstat_free(struct mdp_mdstat *m);
/* The entry for array name ("md3"), or NULL. */
const struct mdp_mdstat_array *mdp_mdstat_find(const struct mdp_mdstat *m, const char *name);

#endif
