/*
 * profile_int: what profile.c, profile_load.c and profile_value.c share.
 * Not part of the library interface; only profile*.c and its tests use it.
 */
#ifndef MDP_PROFILE_INT_H
#define MDP_PROFILE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"

/* Loading context for one file: where its diags go, how many, OOM seen. */
struct mdp_lctx {
	const char *file; /* diag file name: the path as given */
	struct mdp_diags *d;
	size_t nerr;
	bool oom;
};

void mdp_lctx_err(struct mdp_lctx *c, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* User text made safe to quote in a one-line message (printable, cut short). */
const char *mdp_show(char *buf, size_t len, const char *s);

/* The extends of one file, resolved by profile_load.c. */
struct mdp_extends {
	char *name;
	struct mdp_pos pos;
};

/*
 * Passes 1-3 on one text: fills p with this file's own settings (p->files
 * must already hold c->file) and ext with its extends, if any. 0, -EINVAL
 * (errors in c) or -ENOMEM. On error p may hold partial data to free.
 */
int mdp_profile_parse_text(struct mdp_lctx *c, const char *data, size_t len, struct mdp_profile *p,
			   struct mdp_extends *ext);

/* The schema's keys agree with the tunable registry (tests). */
bool mdp_profile_schema_ok(void);

#endif
