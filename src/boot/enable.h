/*
 * enable: the service-manager work of `mdprofile enable` and `disable`,
 * and the model `status` shows of what is enabled.
 *
 * enable installs the boot files of boot.h (mdp_boot_files, the
 * MDP_BOOT_ENABLED names) and registers what runs them at every boot: on
 * DSM the Task Scheduler boot-up task (task.h), created and read back; on
 * systemd the units, enabled and started (`systemctl enable --now`); on
 * rc.d nothing more, DSM 6 runs the script itself. With --auto the
 * watcher's keeper (keeper.h) is started now, as the boot starts it.
 * disable, and an enable that replaces another, remove it all again by
 * the record (MDP_BOOT_RECORD), what boots it first.
 *
 * Each step fills a report: the lines for the owner, in order, each what
 * was done (or found), a step left to the owner (what to run or click), or
 * what went wrong, and whether a step is left (rep->left: the command is
 * done but for it). The caller prints them; nothing here prints.
 */
#ifndef MDP_ENABLE_H
#define MDP_ENABLE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "boot.h"
#include "keeper.h"
#include "mdp_base.h"

enum mdp_enable_kind {
	MDP_EN_DONE,  /* what was done or found; for people, a quiet caller leaves it out */
	MDP_EN_STEP,  /* what is left to the owner: what to run or click, always shown */
	MDP_EN_ERROR, /* what went wrong, one line (diagnostics as the caller prints them) */
};

struct mdp_enable_line {
	enum mdp_enable_kind kind;
	char *text; /* malloc'd, without a newline at its end; a step may hold several lines */
};

struct mdp_enable_report {
	struct mdp_enable_line *v;
	size_t n;
	bool left; /* a step is left to the owner: what boots it, the watcher (MDP_EN_STEP says) */
};

/* Free the lines and start again empty (left false). */
void mdp_enable_report_free(struct mdp_enable_report *rep);

/* ---- enable and disable, whole ------------------------------------------------------ */

/* What enable and disable need of their caller: its transaction, its lock and its output. */
struct mdp_enable_ops {
	/* The profile applied now, as the base: 0, or the caller's nonzero code (said). */
	int (*apply)(void *arg);
	/* The base and any overlay on it reverted: 0, or the caller's nonzero code (said). */
	int (*revert)(void *arg);
	/* The main lock let go: the watchers stopped may need it to end, the one started takes it.
	 */
	void (*unlock)(void *arg);
	/* A step's lines said in order (MDP_EN_DONE left out by a quiet caller), rep emptied. */
	void (*say)(void *arg, struct mdp_enable_report *rep);
	void *arg;
};

/* How enable or disable ended; every line of it was said through ops->say. */
enum mdp_enable_end {
	MDP_ENABLE_DONE,    /* done, or already so */
	MDP_ENABLE_LEFT,    /* done but for a step left to the owner */
	MDP_ENABLE_REFUSED, /* refused (a name, a place, a binary, a task not enable's): nothing
			       changed, or what changed was reverted */
	MDP_ENABLE_FAILED,  /* failed; what could be undone was */
	MDP_ENABLE_CALLER,  /* ops->apply or ops->revert returned the code in rc */
	MDP_ENABLE_NONE,    /* disable: nothing is enabled */
};
struct mdp_enable_res {
	enum mdp_enable_end end;
	int rc; /* MDP_ENABLE_CALLER's */
};

/*
 * enable: profile p (pinned in place to s's UUIDs: mdp_boot_script) at
 * every boot with the boot options o (o->auto_p the watcher's profile).
 * The script and its files made, the binary checked, the record of an
 * earlier enable read and, on DSM, a Task Scheduler task of enable's name
 * that enable did not create refused: all before anything changes. Then
 * ops->apply; then, unless the same is installed and intact, the earlier
 * enable's pieces removed (its keepers and watcher sent SIGTERM) and the
 * new ones installed and registered (ops->revert when the files could not
 * be installed); then ops->unlock, the watchers stopped waited for, and
 * the watcher started as the boot starts it.
 */
struct mdp_enable_res mdp_enable_run(const struct mdp_root *r, struct mdp_profile *p,
				     const struct mdp_system *s, const struct mdp_boot_opts *o,
				     const struct mdp_enable_ops *ops);
/*
 * disable: everything enable installed removed by its record (what boots
 * it first, keepers and the watcher sent SIGTERM, the files, the record),
 * then ops->revert, ops->unlock and the watchers waited for.
 * MDP_ENABLE_NONE when nothing is enabled (nothing said); MDP_ENABLE_LEFT
 * when what boots it could not be removed (nothing else was, nothing
 * reverted).
 */
struct mdp_enable_res mdp_disable_run(const struct mdp_root *r, const struct mdp_enable_ops *ops);

/* ---- what is enabled, for status ----------------------------------------------------- */

/* One piece of what enable installed, as it is now. */
struct mdp_enable_piece {
	const char *what; /* "script", "unit", "udev rule", "watcher unit", "task", "unit link",
			     "watcher" */
	char where[PATH_MAX + 64];
	/* "intact", "missing", "changed", "disabled", "unknown"; the watcher's "running",
	   "restarting" (its keeper waits to start it again), "not started" (the boot task
	   runs and starts it once the profile is applied), "not running" */
	const char *state;
	char note[128]; /* said right after the state: restarting's "at T (in 8 s), keeper pid 1234"
			 */
	int64_t at;     /* restarting: when (seconds since the epoch), else 0 */
	char hint[PATH_MAX + 64]; /* what to run when it is not as it should be; "" none */
};

/* The boot script enable installed, running now (its mark, MDP_BOOT_MARK). */
struct mdp_enable_boot {
	long pid;      /* the script, alive: its pid; 0 it does not run */
	char step[16]; /* "waiting" (for the arrays), "applying", "re-checking" */
	int64_t until; /* re-checking: when it ends (seconds since the epoch), else 0 */
};

/* The most pieces there are. */
#define MDP_ENABLE_PIECES (MDP_BOOT_FILES + 3)

/*
 * The pieces rec says are installed, each looked at, into p (up to cap):
 * the files (a udev rule only when there is one), the task (unknown to
 * another user than root on the real root), the unit links, the watcher.
 * How many.
 */
size_t mdp_enable_pieces(const struct mdp_root *r, const struct mdp_boot_record *rec,
			 struct mdp_enable_piece *p, size_t cap);
/* Is every piece intact, the watcher running? */
bool mdp_enable_intact(const struct mdp_enable_piece *p, size_t n);
/* The boot script rec installed, if it runs now (at boot, until its re-check ends). */
void mdp_enable_boot_look(const struct mdp_root *r, const struct mdp_boot_record *rec,
			  struct mdp_enable_boot *b);
/*
 * What status says of it all, in one phrase, into buf: "intact"; the boot
 * task running and its step ("the boot task runs: re-checking until T",
 * instead of a watcher it has not started yet); the watcher alone down
 * ("the watcher restarts at T", "the watcher is NOT running": its line
 * gives the one remedy); else "NOT intact (run mdprofile enable again)".
 * Times local (mdp_time_local).
 */
void mdp_enable_verdict(const struct mdp_enable_piece *p, size_t n, const struct mdp_enable_boot *b,
			char *buf, size_t cap);

#endif
