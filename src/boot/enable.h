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

void mdp_enable_report_init(struct mdp_enable_report *rep);
/* Free the lines and start again empty (left false). */
void mdp_enable_report_free(struct mdp_enable_report *rep);

/*
 * On DSM, before anything changes: enable never replaces a Task Scheduler
 * task of its name that it did not create (the owner's own, another
 * user's). -EEXIST with the reason and what to do in rep; 0 when there is
 * none or it is enable's, or esynoscheduler cannot answer (creating it
 * says so).
 */
int mdp_enable_task_refused(const struct mdp_root *r, struct mdp_enable_report *rep);

/*
 * Are the pieces installed those rec records for profile and o, and
 * intact: the files f as they would be written, and the task (read back,
 * enabled, running f[0]) or the unit (its link)?
 */
bool mdp_enable_installed(const struct mdp_root *r, const struct mdp_boot_record *rec,
			  const char *profile, const struct mdp_boot_opts *o,
			  const struct mdp_boot_file *f, size_t n);

/*
 * Everything an earlier enable installed (rec), removed: first what boots
 * it, the task deleted or the units disabled and stopped (a task of the
 * name enable did not create is left, and said so); then SIGTERM to every
 * keeper and the watcher (kept in *st where one was sent, for
 * mdp_enable_watchers_gone); then the files but those of keep (an enable
 * of another writes them over), and systemd told. 0, with rep->left when
 * what boots it is still there and nothing else was removed; -errno when
 * the files could not be removed.
 */
int mdp_enable_remove(const struct mdp_root *r, const struct mdp_boot_record *rec,
		      const struct mdp_boot_file *keep, size_t n_keep, struct mdp_keeper_stop *st,
		      struct mdp_enable_report *rep);

/*
 * Install the files (mdp_boot_install); on a failure those written are
 * removed again. 0, or its -errno (-EPERM, -EINVAL: a place or name
 * refused).
 */
int mdp_enable_install_files(const struct mdp_root *r, struct mdp_boot_file *f, size_t n,
			     struct mdp_enable_report *rep);

/*
 * What boots the installed files f of profile: on DSM the task created and
 * read back, on systemd the unit files read and the units enabled and
 * started (rep->left with the step when that could not be done); then the
 * record (MDP_BOOT_RECORD) written with what was installed and done. 0, or
 * -errno when the record could not be written.
 */
int mdp_enable_register(const struct mdp_root *r, const char *profile,
			const struct mdp_boot_opts *o, const struct mdp_boot_file *f,
			struct mdp_enable_report *rep);

/*
 * enable --auto on DSM and rc.d: the watcher's keeper started now from
 * script, as the boot starts it, and waited for until the watcher is armed
 * (systemd's unit is started by enabling it: nothing to do). One keeper: a
 * keeper that keeps the watcher (or is starting it) is left to it, and
 * waited for; one that waits to start it again is stopped first, and a new
 * one starts it now. rep->left with the command that starts it when a
 * watcher started by hand runs, or it did not start or arm.
 */
void mdp_enable_start_watcher(const struct mdp_root *r, const struct mdp_boot_opts *o,
			      const char *script, struct mdp_enable_report *rep);

/*
 * Once the caller let the lock go: the watcher and the keepers st says
 * were sent SIGTERM, waited for (up to 15 s), and said so.
 */
void mdp_enable_watchers_gone(const struct mdp_root *r, const struct mdp_keeper_stop *st,
			      struct mdp_enable_report *rep);

/* ---- what is enabled, for status ----------------------------------------------------- */

/* One piece of what enable installed, as it is now. */
struct mdp_enable_piece {
	const char *what; /* "script", "unit", "udev rule", "watcher unit", "task", "unit link",
			     "watcher" */
	char where[PATH_MAX + 64];
	/* "intact", "missing", "changed", "disabled", "unknown"; the watcher's "running",
	   "restarting" (its keeper waits to start it again), "not running" */
	const char *state;
	char note[96]; /* said right after the state: restarting's "in 8 s, keeper pid 1234" */
	char hint[PATH_MAX + 64]; /* what to run when it is not as it should be; "" none */
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

#endif
