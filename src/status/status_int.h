/*
 * status_int: the room's functions its own files (and their unit tests) share,
 * kept off its door (tools/rooms.sh).
 */
#ifndef MDP_STATUS_INT_H
#define MDP_STATUS_INT_H

#include "status_model.h"

/* Seconds left from md's own numbers: sectors to go over KiB/s; 0 unknown. */
uint64_t mdp_status_eta(const struct mdp_array *a);
/* sync_action names an operation (running or queued), not idle. */
bool mdp_status_busy(const struct mdp_array *a);
/*
 * "running", "idle", or why it waits: mdstat's resync=DELAYED, PENDING,
 * REMOTE as "delayed", "pending", "remote", Synology's reshape=CLEANING UP
 * as "cleaning_up". A static string.
 */
const char *mdp_status_op_state(const struct mdp_array *a);
/*
 * Raid disks missing: md/degraded, else mdstat's [n/m]; -1 unknown. DSM's
 * empty bays on md0/md1 are not missing disks (discover.h, DSM facts).
 */
int mdp_status_missing(const struct mdp_system *s, const struct mdp_array *a);
/*
 * Whether missing raid disks are more than a's level survives: the array
 * has failed. False for a level it cannot judge.
 */
bool mdp_status_failed(const struct mdp_array *a, int missing);

#endif /* MDP_STATUS_INT_H */
