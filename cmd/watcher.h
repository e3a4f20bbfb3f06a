/*
 * The watcher, internal to cmd/: auto.c runs `mdprofile auto` and the
 * watch of `apply --until-idle`, one loop for both (src/watcher/engage.h's state
 * machine). apply.c calls the two functions below.
 */
#ifndef MDP_CMD_WATCHER_H
#define MDP_CMD_WATCHER_H

#include "cli.h"
#include "wlog.h"

/*
 * Take the watcher lock (one watcher per machine) for the life of the
 * process: 0, or an exit code after saying why.
 */
int watcher_lock(struct cli *cli);
/*
 * After apply --until-idle applied its layer: watch (every interval_ms, 0:
 * the default), then remove it, saying so in log (which apply opened before
 * its transaction, so that its lines are stamped too). An exit code.
 */
int watcher_until_idle(struct cli *cli, struct wlog *log, unsigned interval_ms);

#endif
