/*
 * The watcher, internal to cmd/: auto.c runs `mdprofile auto` and the
 * watch of `apply --until-idle`, one loop for both (src/engage.h's state
 * machine). apply.c calls the two functions below.
 */
#ifndef MDP_CMD_WATCHER_H
#define MDP_CMD_WATCHER_H

#include "cli.h"

/*
 * Take the watcher lock (one watcher per machine) for the life of the
 * process: 0, or an exit code after saying why.
 */
int watcher_lock(struct cli *cli);
/*
 * After apply --until-idle applied its layer: watch (every interval_ms, 0:
 * the default), then remove it. An exit code.
 */
int watcher_until_idle(struct cli *cli, unsigned interval_ms);

#endif
