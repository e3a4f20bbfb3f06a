/*
 * plan: desired (profile) vs live (system) -> an ordered list of changes.
 *
 * The plan never touches the system. It resolves which rules apply to
 * which array (later rules win per tunable), skips what does not apply
 * (a stripe cache on raid1) with a note, computes `auto` stripe cache
 * sizes against the memory budget and refuses explicit values that exceed
 * it. Changes come in a safe order: memory is freed before it is taken,
 * min/max pairs never cross, preread_bypass_threshold follows the stripe
 * cache it is bounded by.
 */
#ifndef MDP_PLAN_H
#define MDP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_base.h"
#include "mdp_md.h"
#include "mdp_profile.h"

struct mdp_change {
	enum mdp_tunable t;
	char dev[MDP_NAME_MAX]; /* "" for the dev.raid sysctls */
	char path[128];         /* system path, from the tunable registry */
	struct mdp_cur cur;     /* as read */
	struct mdp_value want;
	char reason[96]; /* where the desired value comes from */
	bool pending;    /* cur differs from want */
	/*
	 * The profile's bound and its value (auto resolved). kept: cur
	 * already satisfies the floor or ceiling beyond it, so want is cur
	 * and nothing is written.
	 */
	enum mdp_bound bound;
	uint64_t limit;
	bool kept;
};

struct mdp_plan_note {
	char dev[MDP_NAME_MAX];
	char text[160];
};

struct mdp_plan_mem {
	char dev[MDP_NAME_MAX];
	int disks;           /* stripe heads hold one page per device */
	uint64_t now, after; /* bytes */
};

struct mdp_plan {
	struct mdp_change *v;
	size_t n;
	struct mdp_plan_note *notes;
	size_t n_notes;
	struct mdp_plan_mem *mem; /* one per array with a stripe cache */
	size_t n_mem;
	uint64_t budget;      /* bytes */
	char budget_desc[64]; /* "25% of 7872 MiB RAM", "512 MiB" */
	uint64_t mem_now, mem_after;
	/* The operations running as planned and md's speed of each (the journal keeps them). */
	struct mdp_op_speed *ops;
	size_t n_ops;
};

/*
 * Build the plan. On a profile/system mismatch that makes the plan unsafe
 * (explicit stripe caches over budget, preread above the stripe cache)
 * returns -EINVAL with diags naming the arrays and MiB.
 */
int mdp_plan_build(const struct mdp_profile *p, const struct mdp_system *s, struct mdp_plan *out,
		   struct mdp_diags *d);
size_t mdp_plan_pending(const struct mdp_plan *pl);
/*
 * What discovery may skip for planning p (enum mdp_discover_skip bits):
 * progress always; UUIDs unless a rule matches by UUID; members unless a
 * rule sets member_read_ahead.
 */
unsigned mdp_plan_discover_skip(const struct mdp_profile *p);
void mdp_plan_free(struct mdp_plan *pl);
/* Whether a rule of p matches a (a profile with no array rules selects every array). */
bool mdp_plan_selects(const struct mdp_profile *p, const struct mdp_array *a);
/* Bytes a stripe cache of pages takes on array a (one page per device per stripe). */
uint64_t mdp_plan_stripe_bytes(const struct mdp_array *a, uint64_t pages);
/* Default memory budget when a profile sets none: percent of MemTotal. */
#define MDP_DEFAULT_BUDGET_PERCENT 25

#endif
