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

#endif
