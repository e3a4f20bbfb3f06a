/*
 * drift: how far the live system has moved from what the active profile
 * applied. The journal records every value the profile's plan asked for
 * (its "set" lines); drift compares the live values with those, so
 * editing the profile file after apply does not show up as drift, and a
 * value DSM or a person changed since does.
 */
#ifndef MDP_DRIFT_H
#define MDP_DRIFT_H

#include "mdp_md.h"
#include "journal.h"
#include "plan.h"

/*
 * A plan whose changes are the journal's set values against the live
 * system s: pending where the live value differs (or is gone). Free with
 * mdp_plan_free. -ENODATA when the journal records no set values (written
 * by an earlier version): the caller falls back to the profile file.
 */
int mdp_drift_plan(const struct mdp_journal *j, const struct mdp_system *s, struct mdp_plan *out);

#endif
