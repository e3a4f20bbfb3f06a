/*
 * bench's output (cmd/bench_report.c): the results of a volume run and of
 * a comparison's rows, as text or JSON on stdout, and the progress line on
 * stderr while they are measured.
 */
#ifndef MDP_CMD_BENCH_REPORT_H
#define MDP_CMD_BENCH_REPORT_H

#include "mdp_explain.h"
#include "commands.h"

/*
 * One line on stderr that overwrites itself while bench runs, only on a terminal
 * and not with -q or --json; cleared before anything else is printed.
 */
struct bench_progress {
	struct cli *cli; /* whose command it is */
	bool on, drawn;
	uint64_t last_ns;
	int phase;         /* what was last drawn: a new one is drawn at once */
	const char *label; /* the row measured (--compare), else NULL */
	unsigned idx, n;   /* its place among the rows, 1-based */
};

/* A progress line for cli's command, off unless stderr is a terminal and -q and --json are not. */
void bench_pg_init(struct cli *cli, struct bench_progress *pg);
/* Clear the line if it was drawn (before anything else is printed). */
void bench_pg_clear(struct bench_progress *pg);
/* volbench's progress callback, arg a struct bench_progress: "write run 2/3, ...". */
void bench_vb_tick(void *arg, const struct mdp_vb *b, const struct mdp_vb_tick *t);
/* src/explain/bench.c's tick hook, arg a struct bench_progress: "second 3 of 30, ..." or
 * "settling". */
void bench_window_tick(void *arg, unsigned i, unsigned seconds, const struct mdp_bench_window *w);

/* What mdp_vb_run found in the directory, on stderr (--json or not); -q keeps the warning. */
void bench_notes(struct cli *cli, const struct mdp_vb *b);
/*
 * A volume run's results (text or --json) on the volume dir of device dev ("" when not
 * known), with the machine's facts from s.
 */
void bench_print_run(struct cli *cli, const struct mdp_vb *b, const char *dev,
		     const struct mdp_system *s);
/* A comparison's n rows (text or --json); reverted: the values from before came back. */
void bench_print_rows(struct cli *cli, const struct mdp_bench_row *rows, size_t n, bool reverted);

#endif
