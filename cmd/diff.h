/* Shared between diff, apply and status: discovery, planning and plan printing. */
#ifndef MDP_CMD_DIFF_H
#define MDP_CMD_DIFF_H

#include <stdbool.h>

#include "cmd.h"
#include "discover.h"
#include "plan.h"

/* Discover the system, print diags; 0 or MDP_EXIT_FAILED. */
int cli_discover(struct cli *cli, struct mdp_system *s);
/* The same, reading only what skip (enum mdp_discover_skip) leaves. */
int cli_discover_some(struct cli *cli, unsigned skip, struct mdp_system *s);
/* Build the plan, print diags; 0 or MDP_EXIT_USAGE. */
int cli_plan(struct cli *cli, const struct mdp_profile *p, const struct mdp_system *s,
	     struct mdp_plan *pl);
/* Changes grouped by target; all = include those already in sync. */
void diff_print_text(const struct mdp_plan *pl, const struct mdp_system *s, bool all);
void diff_print_json(const struct mdp_profile *p, const struct mdp_plan *pl);
/* diff without a profile: drift of the live system from the active profile. */
int diff_drift(struct cli *cli);
/* Warn on stderr when a journal needs 'mdprofile recover'. */
void cli_warn_recover(struct cli *cli);

#endif
