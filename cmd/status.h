/*
 * status's parts, internal to cmd/: status.c (the command), status_text.c,
 * status_json.c, status_prom.c (--format prometheus) and status_watch.c
 * (--watch), each a renderer of the model in src/status/status_model.h.
 */
#ifndef MDP_CMD_STATUS_H
#define MDP_CMD_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "json.h"
#include "mdp_status.h"

/* "by hand", "at boot", "by mdprofile auto", ...: who applied a layer. */
const char *status_origin_text(enum mdp_origin o);

/* "3d 14h", "2h 5m", "2m" (minutes rounded up). */
void status_fmt_eta(uint64_t s, char *buf, size_t len);
/*
 * The profile side gathered once (src/status/status_model.h): the journal read as every
 * command reads it (a warning on stderr when it cannot be), the watcher,
 * since when, drift, paused services. Free with mdp_status_free.
 */
void status_profile_read(struct cli *cli, const struct mdp_system *s, struct mdp_status *ps);

/* The whole status as text: each array, DSM's speed setting, the profile (-v: UUIDs). */
void status_text(const struct mdp_system *s, const struct mdp_status *ps, bool verbose);
/* "active profile: ... since ...", drift and paused services, as text. */
void status_profile_text(const struct mdp_status *ps);
/* --json: one document, arrays first, "enabled" from enable_status (enable.c). */
void status_json(struct cli *cli, struct json *j, const struct mdp_system *s,
		 const struct mdp_status *ps);

/* --format prometheus: the node exporter's textfile format on stdout. */
void status_prom(const struct mdp_system *s, const struct mdp_status *ps);
/* status_prom.c's writers: a metric's HELP and TYPE; a label, the first opening the braces. */
void prom_head(const char *name, const char *help);
void prom_label(const char *k, const char *v, bool first);
/*
 * The checks mdprofile auto paused (status_maint.c): dev's line under its array (nothing when
 * it has none), "paused_checks" in JSON, their samples in Prometheus.
 */
void status_maint_text(const struct mdp_system *s, const struct mdp_status *ps, const char *dev);
void status_maint_json(struct json *j, const struct mdp_status *ps);
void status_maint_prom(const struct mdp_status *ps);
/* A goal the watcher steers to (status_goal.c): nothing, or null in JSON, without one. */
void status_goal_text(const struct mdp_status *ps);
void status_goal_json(struct json *j, const struct mdp_status *ps);
/*
 * --watch: redraw on md's events and every interval_ms (0: 5 s) until stopped;
 * an exit code.
 */
int status_watch(struct cli *cli, struct mdp_system *s, unsigned interval_ms);
/*
 * The Prometheus status (status --format prometheus --output FILE) read
 * afresh and written over FILE whole, for a watcher that writes FILE every minute for months:
 * what it says is said once while it stands, again when it changes, and
 * its clearing is said (cli_say_once); said is the watcher's.
 */
int status_textfile_once(struct cli *cli, const char *file, struct mdp_diags_said *said);

#endif
