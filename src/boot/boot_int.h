/*
 * boot_int: what boot.c, boot_script.c, boot_units.c and boot_install.c
 * share. Not part of the library interface; only boot*.c use it.
 */
#ifndef MDP_BOOT_INT_H
#define MDP_BOOT_INT_H

#include "boot.h"
#include "keeper.h"
#include "task.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mdp_base.h"
#include "mdp_profile.h"
#include "enable.h"

/*
 * May s go into the script's code (and into the record enable keeps)? Only
 * characters none of which is special to sh in single quotes.
 */
bool mdp_boot_code_safe(const char *s);
/* "cannot put WHAT 'VALUE' into a boot script: RULE" into d, the value shown safely. */
void mdp_boot_refuse(struct mdp_diags *d, const char *what, const char *value, const char *rule);
/* Every UUID p's rules match, once each, in rule order: at most cap, in v. */
size_t mdp_boot_rule_uuids(const struct mdp_profile *p, const char **v, size_t cap);
/* Close a memstream: its text, or NULL (and freed) when writing it failed. */
char *mdp_boot_mem_close(FILE *f, char **buf);

/*
 * Does the file at f->sys exist as mdprofile wrote it: a regular file, not
 * a link, beginning with f->head and, when f->text is set, holding that
 * text but for the "# generated:" line (the date)? 1 yes, 0 it exists and
 * differs (or is not ours), -ENOENT missing.
 */
int mdp_boot_file_intact(const struct mdp_root *r, const struct mdp_boot_file *f);

/* The same for a unit file's name ("mdprofile.service"). */
bool mdp_boot_unit_file_enabled(const struct mdp_root *r, const char *unit);

/*
 * The installed unit (mdprofile.service, mdprofile-auto.service) in
 * /usr/lib/systemd/system, /lib/systemd/system (the package's) or
 * /usr/local/lib/systemd/system (make install's): 1 there with the
 * header systemd/ gives it, 0 another file, -ENOENT none; where it is in
 * where (the unit's name alone when it is nowhere).
 */
int mdp_boot_packaged_unit(const struct mdp_root *r, const char *unit, char *where, size_t cap);
/*
 * Does the package own the units enable's systemd target needs (both
 * there, the package's)? Then enable writes only the script the units
 * run (MDP_BOOT_PKG_SCRIPT) and the udev rule, and enables the units.
 */
bool mdp_boot_packaged(const struct mdp_root *r);

/* The options that name rec's files (o->enable, target, binary, auto). */
void mdp_boot_record_opts(const struct mdp_boot_record *rec, struct mdp_boot_opts *o);

/* Written atomically, mode 0644. -errno with a diag. */
int mdp_boot_record_write(const struct mdp_root *r, const struct mdp_boot_record *rec,
			  struct mdp_diags *d);

/*
 * Start SCRIPT's keeper as the boot does: /bin/sh SCRIPT keep-auto in a
 * session of its own, SIGPIPE ignored, stdin /dev/null, stdout and stderr
 * appended to MDP_BOOT_AUTO_LOG, MDPROFILE_ROOT set under a fixture root;
 * its pid in *pid (the caller's child: mdp_keeper_wait_armed reaps it when
 * it ends). Whether it keeps the watcher is its lock's to say. 0, or
 * -errno with d saying what failed.
 */
int mdp_keeper_start(const struct mdp_root *r, const char *script, long *pid, struct mdp_diags *d);

/* SCRIPT's keeper (script NULL: the holder's pid is not checked). */
void mdp_keeper_look(const struct mdp_root *r, const char *script, struct mdp_keeper *k);

/*
 * SCRIPT run at boot, as its mark (MDP_BOOT_MARK) says: believed while the
 * mark's pid runs SCRIPT (its host path) with no argument or start.
 */
struct mdp_enable_boot;
void mdp_keeper_boot(const struct mdp_root *r, const char *script, struct mdp_enable_boot *b);

/*
 * What holds the watcher lock. "Running" is w->pid: a lock held by
 * something else (an apply --until-idle) or a state file left by a
 * watcher that died is not the watcher running.
 */
void mdp_keeper_watcher(const struct mdp_root *r, struct mdp_keeper_watcher *w);

/*
 * SIGTERM to every keeper of SCRIPT (script NULL: none), added to st, and
 * the pid file removed. Never waits.
 */
void mdp_keeper_stop_keepers(const struct mdp_root *r, const char *script,
			     struct mdp_keeper_stop *st);

/*
 * Wait up to ms for every process st names to be gone and, when it named
 * a keeper, the keeper lock to be free: true when they are.
 */
bool mdp_keeper_wait_gone(const struct mdp_root *r, const struct mdp_keeper_stop *st, unsigned ms);
/*
 * Wait up to ms for a watcher of mode auto to be armed: its pid; 0 when ms
 * passed; -1 when no keeper will start it: keeper (the caller's child from
 * mdp_keeper_start; 0 none) ended and no other holds the keeper lock, or
 * the keeper that holds it waits to start it again (its watcher ended).
 */
long mdp_keeper_wait_armed(const struct mdp_root *r, long keeper, unsigned ms);

/*
 * Did mdprofile enable create t? Its owner is the one it gives (mdp_boot_dsm.task_owner), it runs
 * a script with DSM's bash, and its description ends with MDP_TASK_MARK. A task of the name
 * that is not (one the owner made by hand, another user's) is never deleted.
 */
bool mdp_task_ours(const struct mdp_task *t);

/*
 * The task called name: 0 with *t, -ENOENT when there is none
 * ("jOut=null"), -ENOSYS when esynoscheduler is not on this system,
 * -EPROTO (the answer in d) when it answered otherwise or crashed,
 * another -errno (with d) when it could not be run.
 */
int mdp_task_get(const struct mdp_root *r, const char *name, struct mdp_task *t,
		 struct mdp_diags *d);
/* Delete it (if there is one), then read back that it is gone. 0, or as mdp_task_get. */
int mdp_task_delete(const struct mdp_root *r, const char *name, struct mdp_diags *d);
/*
 * Create the enabled boot-up task name, owned by root, running operation:
 * an existing one enable made is deleted first (a second --create of a name
 * fails and keeps the old one); one it did not make is left, -EEXIST with
 * what it is in d, every parameter is given (omitted ones get defaults
 * silently), and the task is read back (stored operation, enabled, event
 * bootup). A task that does not read back so is deleted again: none is
 * left half-made. 0; -EINVAL (with d) for a '%' in a value (it saves
 * nothing or crashes the tool); otherwise as mdp_task_get.
 */
int mdp_task_create(const struct mdp_root *r, const char *name, const char *operation,
		    const char *description, struct mdp_diags *d);

/* enable.c's report, shared with enable_run.c: one line appended (lost when memory runs out, as
 * a diagnostic is). */
__attribute__((format(printf, 3, 4))) void
mdp_enable_say(struct mdp_enable_report *rep, enum mdp_enable_kind kind, const char *fmt, ...);
/* d's diagnostics as error lines, each as the command layer prints one; d emptied. */
void mdp_enable_say_diags(struct mdp_enable_report *rep, struct mdp_diags *d);

void mdp_enable_report_init(struct mdp_enable_report *rep);

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

/*
 * SIGTERM to every keeper of SCRIPT (mdp_keeper_stop_keepers), then to the
 * running watcher of mode auto (w.pid of mdp_keeper_watcher). Never waits:
 * the watcher may need a lock the caller holds. st is filled anew.
 */
void mdp_keeper_stop(const struct mdp_root *r, const char *script, struct mdp_keeper_stop *st);

/*
 * The files of p's boot persistence for o->target: the script given and,
 * for systemd, the unit, the udev rule made here (none when no UUID is
 * pinned) and, with o->auto_profile, the watcher's unit. The unit is a oneshot that stays active
 * once run (RemainAfterExit); the rule restarts it once per assembly of a pinned array, not on
 * later change events (a reshape's end, udevadm trigger). *n files; free them with
 * mdp_boot_files_free. -EINVAL with a diag when the profile's name is not one 'apply --name' takes
 * or a path cannot be formed, -ENOMEM.
 */
int mdp_boot_files(const struct mdp_profile *p, const struct mdp_boot_opts *o, const char *script,
		   size_t len, struct mdp_boot_file *f, size_t *n, struct mdp_diags *d);

/*
 * Only the paths of profile name's files for o->target (for --uninstall
 * and disable, which need no profile): 1 file, 3 for systemd (4 with
 * o->auto_profile). -EINVAL with a diag for a name 'apply --name' refuses.
 */
int mdp_boot_paths(const char *name, const struct mdp_boot_opts *o, struct mdp_boot_file *f,
		   size_t *n, struct mdp_diags *d);

/*
 * Write the files atomically under r, refusing a place others could
 * change (mdp_root_trusted: the file and every directory down to it owned
 * by root or the caller, not group/world-writable; an untrusted file is
 * removed again). -errno with the file in d.
 */
int mdp_boot_install(const struct mdp_root *r, struct mdp_boot_file *f, size_t n,
		     struct mdp_diags *d);
/*
 * Is the systemd unit of profile name enabled (its multi-user.target.wants
 * link exists)? Removing the unit then would leave a dangling link.
 */
bool mdp_boot_unit_enabled(const struct mdp_root *r, const char *name);

/*
 * Remove those of the files that exist and begin with mdprofile's header
 * (f->head; never through a link). One that does not is left, with -EPERM
 * and a diag; -errno with the file in d.
 */
int mdp_boot_uninstall(const struct mdp_root *r, struct mdp_boot_file *f, size_t n,
		       struct mdp_diags *d);

#endif
