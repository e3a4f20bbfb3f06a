/*
 * probe: explain --probe's pure parts. Which finding a probe tests (the
 * first that recommends something whose gain could not be computed), the
 * one setting it changes, the one-rule profile that changes it through the
 * transaction, and the A/B/A arithmetic: the two A windows (settings as
 * they were, before and after) give the baseline and its spread, B the
 * setting's. Nothing here reads, writes, prints or sleeps.
 */
#ifndef MDP_PROBE_H
#define MDP_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_base.h"
#include "explain.h"
#include "mdp_profile.h"
#include "mdp_md.h"

/* A probe's one setting: "md2/group_thread_cnt" = "4". */
struct mdp_probe_setting {
	enum mdp_tunable t;
	char dev[MDP_NAME_MAX];
	char value[32];
};

/*
 * The setting finding f recommends. -EMEDIUMTYPE when it recommends a
 * profile (a probe changes one setting; see docs/explain.md), -ENOENT when
 * nothing, -EINVAL when its setting is no tunable mdprofile journals
 * (md/sync_max) or an array-scoped one.
 */
int mdp_probe_setting(const struct mdp_xfinding *f, struct mdp_probe_setting *out);

/*
 * What --probe tests among n reports: the first running operation's (action
 * not "none") finding mdp_probe_pick takes, report *rep, finding *finding.
 * 0 with *set; -EMEDIUMTYPE or -EINVAL as mdp_probe_setting, *rep and
 * *finding naming the finding; -ENOENT when no running operation has one;
 * -ESRCH when no operation runs.
 */
int mdp_probe_choose(const struct mdp_xreport *reps, size_t n, size_t *rep, size_t *finding,
		     struct mdp_probe_setting *set);

/*
 * That profile loaded (through dirs for nothing: it extends none), named
 * "md2:group_thread_cnt=4" in messages and the journal. 0; -ENAMETOOLONG;
 * -EINVAL with d. Free *out with mdp_profile_free.
 */
int mdp_probe_profile(const struct mdp_probe_setting *s, const struct mdp_profile_dirs *dirs,
		      struct mdp_profile *out, struct mdp_diags *d);

/* What the three windows measured (KiB/s per disk, md's progress over each window). */
struct mdp_probe_windows {
	uint64_t a1, b, a2;
	bool ended; /* the operation ended (or changed) during the probe */
	double window_s;
};

struct mdp_probe_result {
	bool valid;    /* false: the operation ended; no figure */
	double base;   /* the A windows' median (of two: their mean) */
	double change; /* (B - base) / base, as a fraction; 0 when base is 0 */
	double spread; /* (max A - min A) / base: how far the same settings moved */
	bool beyond;   /* |change| beyond the spread: B's effect stands out of the noise */
};

#endif
