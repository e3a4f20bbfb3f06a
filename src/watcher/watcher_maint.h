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
 * The temperatures are each member disk's drivetemp reading (hwmon), else SMART's (smart.h:
 * smartctl -n standby -A, a disk asleep left asleep and not hot), read at most once a
 * minute; a disk with neither is said once and not counted. The jobs deferred to are process names,
 * from /proc/PID/comm at most once a minute, and with smart-selftest a SMART self-test on a member
 * disk of the array, asked of smartctl at most once a minute per disk without waking one asleep
 * (smart.h: -n standby): it defers that array's check alone, said with the disk and how
 * far the test is; a disk asked both is asked once (-c -A). Without smartctl, or on a disk it does
 * not answer for, that is said once and no test is seen.
 *
 * With the key's notify (watcher_notify.c), each check or repair is told of at its start
 * (seen running by the watcher), its pauses and resumes and its end (its duration, the time
 * it spent paused, md's mismatch_cnt, completed or stopped): the watcher's log always, the
 * caller's news hook (DSM's Log Center and notification) and the notify command for the
 * events it lists. What was told is kept in MDP_WMAINT_NEWS, so that a watcher started
 * again tells no start twice and tells the end of a check that ended while none ran; the
 * file is under /run, so after a reboot a check resumed from its place is told as resumed,
 * and its duration counts from there.
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
	struct mdp_selftest test; /* defer_to smart-selftest: smartctl's answer at test_at */
	double test_at;           /* monotonic seconds it was last looked at; 0: never */
	bool said_test;           /* smartctl's failure on it was said */
};

/* The notify command's time limit (ms): the loop waits for it, so a hook must be quick. */
#define MDP_WMAINT_HOOK_MS 5000u
/* What the watcher told of the checks it follows (notify), for a watcher started again. */
#define MDP_WMAINT_NEWS "/run/mdprofile/checks"

/* What a watcher tells of a check or repair (the maintenance key's notify). */
struct mdp_mnews {
	enum mdp_mev ev;
	char array[MDP_NAME_MAX];
	char uuid[40];
	char action[8];     /* check or repair */
	unsigned percent;   /* its place (end: 100 when completed) */
	char reason[16];    /* pause: window, heat or deferred; end: completed or stopped */
	int64_t duration_s; /* since its start (pause, resume, end), -1 at the start */
	int64_t paused_s;   /* of that, the time it stood paused; -1 at the start */
	int64_t mismatch;   /* end: md/mismatch_cnt, else -1 (or unread) */
	char line[256];     /* what the log says */
	bool said;          /* the line is in the log already (a pause's, a resume's) */
};

/* A check seen running: its array, the place last kept on disk, and what was told of it. */
struct mdp_wm_run {
	char name[MDP_NAME_MAX];
	uint64_t kept;
	char action[8];
	int64_t started;      /* seconds since the epoch: first seen running, or resumed */
	int64_t paused_at;    /* paused by the watcher since then; 0 when not */
	int64_t paused_s;     /* paused before, in all */
	uint64_t done, total; /* its place at the last look that saw it run */
	bool told;            /* its start was told, so its end will be */
};

struct mdp_wmaint {
	bool started;    /* the first look's checks cut by a reboot were looked at */
	double heat_at;  /* monotonic seconds of the last readings; 0: never */
	double defer_at; /* of the last look at the processes */
	struct mdp_wm_disk *disks;
	size_t n_disks;
	char job[32];          /* a process deferred to that runs, "" when none */
	bool said_smartctl;    /* no smartctl, said once: no self-test seen */
	double no_smartctl_at; /* the look smartctl was found missing at: not asked again */
	struct mdp_wm_run *runs;
	size_t n_runs;
	bool hook_failed; /* the notify command's failure was said; said again once it worked */
};

void mdp_wmaint_free(struct mdp_wmaint *m);

#endif
