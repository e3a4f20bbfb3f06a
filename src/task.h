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

#include "diag.h"
#include "root.h"

struct mdp_task {
	bool enabled;
	char event[32];
	char operation[4096];
};

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
 * an existing one is deleted first (a second --create of a name fails and
 * keeps the old one), every parameter is given (omitted ones get defaults
 * silently), and the task is read back (stored operation, enabled, event
 * bootup). A task that does not read back so is deleted again: none is
 * left half-made. 0; -EINVAL (with d) for a '%' in a value (it saves
 * nothing or crashes the tool); otherwise as mdp_task_get.
 */
int mdp_task_create(const struct mdp_root *r, const char *name, const char *operation,
		    const char *description, struct mdp_diags *d);

#endif
