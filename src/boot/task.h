/*
 * task: the one DSM Task Scheduler boot-up task mdprofile enable creates,
 * through DSM's own command line, esynoscheduler (its facts, and where they
 * come from, are in struct mdp_boot_dsm, boot.c). The tool exits 0 whether
 * a call worked or not, so every answer is judged by its text; its
 * database is never written directly.
 */
#ifndef MDP_TASK_H
#define MDP_TASK_H

#include <stdbool.h>

#include "mdp_base.h"

struct mdp_task {
	bool enabled;
	char event[32];
	char owner_uid[16]; /* the owner's uid and name; "" when --get did not say */
	char owner[64];
	char description[512]; /* "" when --get did not say, or said it in escapes */
	char operation[4096];
};

/* The end of the description mdprofile enable gives its task: how it knows its own. */
#define MDP_TASK_MARK "(mdprofile enable)"

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

#endif
