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
#include <stdint.h>

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

/*
 * What a step repeated for a process's life said last (auto --textfile's
 * write, every minute for months): a digest of its diagnostics, so that a
 * standing problem is said once, and again only when it changes or clears.
 * Its size is fixed whatever was said; zeroed, nothing was said.
 */
struct mdp_diags_said {
	uint64_t digest; /* of the diagnostics said last; 0: none */
};

enum mdp_said {
	MDP_SAID_SAME,    /* what was said last: say nothing */
	MDP_SAID_NEW,     /* a problem, or another one: say it */
	MDP_SAID_CLEARED, /* none now, one said last: say that it cleared */
};

/* d against what s says was said last, which d then becomes. */
enum mdp_said mdp_diags_said(struct mdp_diags_said *s, const struct mdp_diags *d);

#endif
