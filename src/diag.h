/*
 * diag: diagnostics collected by the library instead of printing.
 *
 * Library code never prints. Every problem found (a profile error, a
 * value the kernel refused) is appended here with its position, and the
 * command layer prints them all, one line each, then picks the exit code.
 */
#ifndef MDP_DIAG_H
#define MDP_DIAG_H

#include <stddef.h>

struct mdp_diag {
	char *file;    /* NULL when not tied to a file */
	unsigned line; /* 1-based; 0 when unknown */
	unsigned col;  /* 1-based; 0 when unknown */
	char *msg;     /* lowercase, what is wrong first, no trailing period */
};

struct mdp_diags {
	struct mdp_diag *v;
	size_t n;
	size_t cap;
};

void mdp_diags_init(struct mdp_diags *d);
void mdp_diags_free(struct mdp_diags *d);
/* Append one diagnostic. Returns 0 or -ENOMEM. file may be NULL. */
int mdp_diags_add(struct mdp_diags *d, const char *file, unsigned line, unsigned col,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Stable sort by (file, line, col) keeping insertion order for ties. */
void mdp_diags_sort(struct mdp_diags *d);
/* "FILE:LINE:COL: msg", "FILE:LINE: msg" (col 0), "FILE: msg" or "msg" into buf; returns snprintf's
 * result. */
int mdp_diag_format(const struct mdp_diag *g, char *buf, size_t len);

#endif
