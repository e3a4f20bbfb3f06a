/*
 * explain's reports as text and as JSON, internal to cmd/: explain.c
 * measures (src/explain/explain_run.h) and calls these. Every string read from the
 * system, or from a capture someone else made, goes through render_safe in
 * text: a capture's escape sequences never reach the reader's terminal.
 */
#ifndef MDP_CMD_EXPLAIN_RENDER_H
#define MDP_CMD_EXPLAIN_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "mdp_explain.h"

/* What --probe did, for the report of array rep, finding finding (done: it measured). */
struct explain_probe {
	bool done;
	size_t rep, finding;
	struct mdp_probe_setting set;
	char name[64]; /* "md2/group_thread_cnt" */
	struct mdp_probe_windows w;
	struct mdp_probe_result res;
};

/* The reports (n of them), what could not be read, and the probe's figures (pr NULL: none). */
void explain_print_text(const struct mdp_xreport *reps, size_t n, const struct mdp_xsample *s1,
			const struct mdp_diags *unread, double dt, const struct explain_probe *pr);
/* The same as one JSON document. */
void explain_print_json(struct cli *cli, const struct mdp_xreport *reps, size_t n,
			const struct mdp_xsample *s1, const struct mdp_diags *unread,
			const struct explain_probe *pr);

#endif
