/*
 * keeper: the watcher's processes, for enable and disable on DSM and rc.d
 * (systemd keeps mdprofile-auto.service itself).
 *
 * The boot script's `keep-auto` runs `mdprofile auto` with the pinned
 * overlay and starts it again when it dies (killed, out of memory), after
 * a back-off; it runs in a session of its own, its pid in
 * MDP_BOOT_AUTO_PID, its lines and the watcher's appended to
 * MDP_BOOT_AUTO_LOG. The boot starts it (the script's start_auto), and
 * enable starts it the same way, now.
 *
 * Stopping: the keeper named by the pid file, when its command line is
 * still `/bin/sh SCRIPT keep-auto`, and any watcher of mode auto that holds
 * the watcher lock (one started by hand too), when its command line is
 * still an mdprofile's `... auto ...`: each gets SIGTERM, on which the
 * watcher removes an engaged overlay (it needs the main lock for that) and
 * the keeper stops the watcher and waits for it.
 */
#ifndef MDP_KEEPER_H
#define MDP_KEEPER_H

#include <stdbool.h>

#include "diag.h"
#include "root.h"

/*
 * Start SCRIPT's keeper as the boot does: /bin/sh SCRIPT keep-auto in a
 * session of its own, stdin /dev/null, stdout and stderr appended to
 * MDP_BOOT_AUTO_LOG, MDPROFILE_ROOT set under a fixture root; its pid in
 * MDP_BOOT_AUTO_PID and *pid. 0, or -errno with d saying what failed.
 */
int mdp_keeper_start(const struct mdp_root *r, const char *script, long *pid, struct mdp_diags *d);

struct mdp_keeper_stop {
	long keeper;  /* the keeper sent SIGTERM, 0 none */
	long watcher; /* the watcher sent SIGTERM, 0 none */
};

/*
 * SIGTERM to SCRIPT's keeper (script NULL: none) and to the running
 * watcher of mode auto, each only when its command line says it is one.
 * Never waits: the watcher may need a lock the caller holds.
 */
void mdp_keeper_stop(const struct mdp_root *r, const char *script, struct mdp_keeper_stop *st);

/* Wait up to ms for the watcher lock to be free (no watcher runs): true when it is. */
bool mdp_keeper_wait_gone(const struct mdp_root *r, unsigned ms);
/*
 * Wait up to ms for a watcher of mode auto to be armed (its state file
 * written): its pid; 0 when ms passed, -1 when the keeper (the caller's
 * child, from mdp_keeper_start) ended first: its log says why.
 */
long mdp_keeper_wait_armed(const struct mdp_root *r, long keeper, unsigned ms);

#endif
