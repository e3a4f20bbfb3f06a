/*
 * keeper: the watcher's processes, for enable, disable and status on DSM
 * and rc.d (systemd keeps mdprofile-auto.service itself).
 *
 * The boot script's `keep-auto` runs `mdprofile auto` with the pinned
 * overlay and starts it again when it dies (killed, out of memory), after
 * a back-off; it runs in a session of its own, its lines and the
 * watcher's appended to MDP_BOOT_AUTO_LOG. The boot starts it (the
 * script's start_auto), and enable starts it the same way, now.
 *
 * One keeper per machine (per root): before it starts the watcher the
 * keeper takes MDP_BOOT_AUTO_LOCK (flock(1), non-blocking, on a descriptor
 * its children do not get) and holds it for its life; a second keeper
 * finds it held and ends at once. Holding it, the keeper writes its pid
 * into MDP_BOOT_AUTO_PID, and into the lock file "PID" while its watcher
 * runs or "PID restart T" while it waits to start it again (T: when, in
 * seconds since the epoch), for status.
 *
 * Processes are this host's whatever the root: a command line is read
 * from /proc/PID/cmdline on the host (a fixture tree's /proc holds no
 * processes), and a pid is believed only while its command line says what
 * it is: `SHELL SCRIPT keep-auto` for SCRIPT's keeper (SCRIPT its host
 * path, which under --root names the tree), an mdprofile's `... auto ...`
 * for the watcher.
 *
 * Stopping: every keeper of SCRIPT (the lock's holder, the pid file's, and
 * any session leader whose command line is SCRIPT's keeper: one started
 * before keepers locked) and the watcher of mode auto that holds the
 * watcher lock (one started by hand too) get SIGTERM, on which the watcher
 * removes an engaged overlay (it needs the main lock for that) and a
 * keeper stops its watcher and waits for it.
 */
#ifndef MDP_KEEPER_H
#define MDP_KEEPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_base.h"
#include "mdp_txn.h"

/* The keeper, as its lock says. */
struct mdp_keeper {
	int held;        /* MDP_BOOT_AUTO_LOCK: 1 held (a keeper runs), 0 free, -errno unknown */
	long pid;        /* the holder its lock file names (with script: only when it is
			    script's keeper); 0 unknown */
	int64_t restart; /* held and waiting to start the watcher again: when (epoch s), else 0 */
};

/* The watcher, as the watcher lock, its file and its state file say. */
struct mdp_keeper_watcher {
	int held;             /* MDP_WATCHER_LOCK: 1 held, 0 free, -errno unknown */
	long pid;             /* the watcher of mode auto holding it, alive, whose command line
				 is an mdprofile's auto: its pid; else 0 */
	long holder;          /* pid is 0 and the lock held: who holds it, 0 unknown */
	enum mdp_origin mode; /* the holder's mode (its state file), MDP_BY_COUNT unknown */
};

/* The most keepers one stop signals (more than one runs only before keepers locked). */
#define MDP_KEEPER_MAX 8

/* What a stop signalled. */
struct mdp_keeper_stop {
	long keeper[MDP_KEEPER_MAX]; /* the keepers sent SIGTERM */
	size_t n_keeper;
	long watcher; /* the watcher sent SIGTERM, 0 none */
};

#endif
