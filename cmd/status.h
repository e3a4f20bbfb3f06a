/*
 * status's parts, internal to cmd/: status.c (the command, text and JSON,
 * what the shared helpers below say about an array and the profile),
 * status_prom.c (--format prometheus) and status_watch.c (--watch).
 */
#ifndef MDP_CMD_STATUS_H
#define MDP_CMD_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* The profile side of status, gathered once for text and JSON. */
struct pstatus {
	bool have_j;
	/* the journal is there but could not be read (not root): what is active is unknown,
	   never "none" */
	bool unreadable;
	int jerr; /* why: -EACCES (not root), -EPERM (not to be trusted), ... */
	struct mdp_journal j;
	bool stale;      /* the journal is from an earlier boot */
	int64_t since;   /* journal mtime, 0 unknown */
	long drift;      /* values moved since apply; -1 unknown */
	size_t n_paused; /* services the profile paused and has not resumed */
	bool watch_gone; /* applied by a watcher, and nobody holds its lock: the watcher died */
	bool have_w;     /* a watcher runs (its lock is held) and said what it does */
	struct mdp_wstate w;
	const struct mdp_system *sys; /* what it was read against: the speeds now */
};
/* "by hand", "at boot", "by mdprofile auto", ...: who applied a layer. */
const char *status_origin_text(enum mdp_origin o);

/* Seconds left from md's own numbers: sectors to go over KiB/s; 0 unknown. */
uint64_t status_eta_seconds(const struct mdp_array *a);
/* "3d 14h", "2h 5m", "2m" (minutes rounded up). */
void status_fmt_eta(uint64_t s, char *buf, size_t len);
/* sync_action names an operation (running or queued), not idle. */
bool status_busy(const struct mdp_array *a);
/* "running", "delayed", "pending", "remote" or "idle". */
const char *status_op_state(const struct mdp_array *a);
/* Raid disks missing: md/degraded, else mdstat's [n/m]; -1 unknown. */
int status_missing_disks(const struct mdp_system *s, const struct mdp_array *a);
/*
 * The arrays only /proc/mdstat lists (a container, a restricted /sys), as
 * the same model (mdp_discover_from_mdstat), so they read as sysfs arrays
 * do: fn is called with each; returns how many.
 */
size_t status_each_mdstat_only(const struct mdp_system *s,
			       void (*fn)(const struct mdp_system *, const struct mdp_array *,
					  void *),
			       void *arg);
/* The profile side gathered once: journal, since when, drift, paused services. */
void status_profile_read(struct cli *cli, const struct mdp_system *s, struct pstatus *ps);
/* "active profile: ... since ...", drift and paused services, as text. */
void status_profile_text(const struct pstatus *ps);

/* --format prometheus: the node exporter's textfile format on stdout. */
void status_prom(const struct mdp_system *s, const struct pstatus *ps);
/*
 * --watch: redraw on md's events and every interval_ms (0: 5 s) until stopped;
 * an exit code.
 */
int status_watch(struct cli *cli, struct mdp_system *s, unsigned interval_ms);

#endif
