/*
 * watcher_maint: what `mdprofile auto` does about checks and repairs when its profile has a
 * maintenance key (issue 49). At each look, for each selected array: a check or repair
 * outside its windows, beside a hot member disk or beside a job it defers to is paused in
 * place (mdp_txn_pause: journaled, its place kept by the array's UUID), and one it paused is
 * resumed from its place once none of that holds; a resync, recovery or reshape is never
 * paused. A running check's place is kept on disk as md moves it (every sixteenth of the
 * array), so that a check a reboot or a crash cut is journaled as paused at the first look
 * (md starts every check at 0 once the array was stopped) and resumed within the windows.
 * On DSM, whose own scrub keeps its place in md/sync_min, a pause and a resume are in place
 * only: a check DSM's reboot cut is left to DSM, with a word.
 *
 * The temperatures are each member disk's drivetemp reading (hwmon), read at most once a
 * minute; a disk without one is said once and not counted (SMART is not asked: it could
 * wake a sleeping disk). The jobs deferred to are process names, from /proc/PID/comm at
 * most once a minute; a running SMART self-test is not detected yet, said once.
 */
#ifndef MDP_WATCHER_MAINT_H
#define MDP_WATCHER_MAINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_md.h"

/* The heat and the jobs are read at most this often (seconds). */
#define MDP_WMAINT_READ_S 60.0

struct mdp_wm_disk {
	char name[MDP_NAME_MAX];
	int temp_c;
	bool known, hot, said;
};

/* A check seen running: its array and the place last kept on disk. */
struct mdp_wm_run {
	char name[MDP_NAME_MAX];
	uint64_t kept;
};

struct mdp_wmaint {
	bool started;    /* the first look's checks cut by a reboot were looked at */
	double heat_at;  /* monotonic seconds of the last readings; 0: never */
	double defer_at; /* of the last look at the processes */
	struct mdp_wm_disk *disks;
	size_t n_disks;
	char job[32]; /* a process deferred to that runs, "" when none */
	bool said_selftest;
	struct mdp_wm_run *runs;
	size_t n_runs;
};

void mdp_wmaint_free(struct mdp_wmaint *m);

#endif
