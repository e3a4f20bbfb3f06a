/*
 * bench: what a volume writes and reads per second, measured so the read is
 * the disks' and not the page cache's (src/md/volbench.c says how). The seed
 * write-up's dd reads of 2 GB gave ~850 MB/s on every RAID level because
 * they came from RAM; this reports how each read was made and marks a
 * cached one as such.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "mdp_explain.h"
#include "bench_report.h"
#include "commands.h"
#include "mdp_md.h"

/* bench's options. */
struct bench_opts {
	const char *path;    /* --path DIR */
	uint64_t size;       /* --size, bytes; 0: the default */
	unsigned runs;       /* --runs; 0: the default */
	const char *compare; /* --compare A,B,...: profiles in turn */
	bool op_only;        /* --op-only: md's sync speed only, nothing written */
	unsigned duration;   /* --duration: seconds of each --op-only window */
	/* without --path (and --op-only): the volume bench_check found, its dir and md's sysfs */
	char vol_dir[PATH_MAX], vol_sys[PATH_MAX];
};

static const struct opt bench_opts[] = {
    OPT_NAMING("path", 0, "DIR", OPTV_DIR, struct bench_opts, path,
	       "measure the volume DIR is on (default: the first md-backed volume)"),
    OPT_SIZE("size", "SIZE", struct bench_opts, size, 1024, (uint64_t)1 << 30,
	     "a size from 1MiB to 1024GiB, such as 512MiB",
	     "of the test file, 1MiB to 1024GiB (default: 10% of the free space, at most 2GiB)"),
    OPT_NUMBER("runs", "N", struct bench_opts, runs, 1, 100, "a number of runs",
	       "how many runs (default 5)"),
    OPT_NAMING("compare", 0, "PROFILE,...", OPTV_PROFILES, struct bench_opts, compare,
	       "measure the settings as they are, then each profile applied in turn; revert "
	       "at the end"),
    OPT_FLAG("op-only", 0, struct bench_opts, op_only,
	     "measure only md's speed of the running resync, rebuild, reshape or scrub"),
    OPT_SECONDS("duration", struct bench_opts, duration, 1, 86400, 1,
		"of each --op-only window (default 30)"),
};

static const struct opt_table bench_table =
    OPT_TABLE(bench_opts, struct bench_opts, NULL, NULL, NULL);

static const struct bench_opts *bo(const struct cli *cli)
{
	return cli->opts;
}

/* ---- --compare and --op-only ------------------------------------------------- */

/* A comparison's row begins: its name and place on the progress line. */
static void row_begin(void *arg, const struct mdp_bench_row *r, unsigned idx, unsigned n)
{
	struct bench_progress *pg = arg;

	pg->label = r->profile;
	pg->idx = idx;
	pg->n = n;
}

/* A window or a volume run is over: the progress line cleared, what the run found printed. */
static void run_done(void *arg, const struct mdp_bench_row *r, struct mdp_diags *d)
{
	struct bench_progress *pg = arg;

	bench_pg_clear(pg);
	if (r && r->current)
		bench_notes(pg->cli, &r->vb);
	if (d)
		cli_print_diags(pg->cli, d);
}

/* Apply one profile through the same transaction as 'apply'. */
static int compare_apply(void *arg, const char *name, struct mdp_bench_row *r)
{
	struct cli *cli = ((struct bench_progress *)arg)->cli;
	struct mdp_profile p;
	int rc;

	if ((rc = cli_load_profile(cli, name, &p)))
		return rc;
	snprintf(r->profile, sizeof(r->profile), "%s", p.name);
	r->goal_ms = p.goal.latency_ms; /* steered from here on, as auto steers (bench.h) */
	r->goal_pct = p.goal.percentile;
	return cli_apply_quiet(cli, &p, MDP_BY_COMPARE);
}

/* A goal row's move, as auto would log it: with -v. */
static void goal_say(void *arg, const char *line)
{
	struct bench_progress *pg = arg;

	if (!cli_detail(pg->cli))
		return;
	bench_pg_clear(pg);
	printf("%s\n", line);
}

/* What bench measures with, its hooks reporting to pg (and its command). */
static struct mdp_bench bench_of(struct bench_progress *pg, const struct mdp_vb *proto)
{
	struct cli *cli = pg->cli;
	unsigned window = bo(cli)->duration ? bo(cli)->duration : MDP_BENCH_WINDOW_S;

	return (struct mdp_bench){&cli->root,
				  bo(cli)->op_only ? NULL : proto,
				  window,
				  MDP_BENCH_SETTLE_S,
				  {cli_stop_requested, row_begin, bench_window_tick, bench_vb_tick,
				   run_done, compare_apply, pg},
				  &cli->tx,
				  goal_say};
}

static int compare(struct cli *cli, struct bench_progress *pg, const struct mdp_vb *proto)
{
	struct mdp_bench b = bench_of(pg, proto);
	struct mdp_bench_cmp c;
	int rc, err;

	if ((rc = cli_refuse_over_active(cli, "a comparison")))
		return rc;
	/*
	 * Each profile in turn replaces the last as the base, journaled as a comparison
	 * (compare_apply): if this process dies, recover reverts it.
	 */
	err = mdp_bench_compare(&b, bo(cli)->compare, &c);
	/* Whatever happened after the first apply, the values from before come back. */
	if ((rc = cli_revert_quiet(cli)))
		goto out;
	if (c.stop_signal) {
		cli_err(cli, "interrupted by %s; reverted to the values from before",
			cli_signal_name(cli_stop_requested()));
		rc = MDP_EXIT_FAILED;
	} else if (err) {
		if (err == -ENOMEM)
			cli_err(cli, "out of memory while comparing profiles");
		rc = MDP_EXIT_FAILED;
	} else if (!(rc = c.apply_rc)) {
		bench_print_rows(cli, c.rows, c.n, true);
	}
out:
	mdp_bench_cmp_free(&c);
	return rc;
}

static int run(struct cli *cli, struct bench_progress *pg, struct mdp_vb *b, char *dev, size_t len)
{
	struct mdp_vb_progress cb = {bench_vb_tick, pg};
	struct mdp_system s = {0};
	struct mdp_diags d;
	int err, rc;

	if ((rc = cli_discover(cli, MDP_SKIP_PROGRESS | MDP_SKIP_UUID, &s)))
		return rc;
	cli_hold_stop_signals();
	b->stop_requested = cli_stop_requested;
	b->progress = &cb;
	mdp_diags_init(&d);
	err = mdp_vb_run(b, &d);
	b->progress = NULL;
	bench_pg_clear(pg);
	bench_notes(cli, b);
	cli_print_diags(cli, &d);
	if (!err)
		mdp_bench_device(&cli->root, b->dev, dev, len);
	mdp_diags_free(&d);
	if (err) {
		rc = err == -ENOSPC || err == -ENOTDIR || err == -EXDEV || err == -EPERM
			 ? MDP_EXIT_USAGE
			 : MDP_EXIT_FAILED;
	} else if (b->stop_signal) {
		cli_err(cli, "interrupted by %s after %u run%s; the test file was removed",
			cli_signal_name(b->stop_signal), b->n, b->n == 1 ? "" : "s");
		rc = MDP_EXIT_FAILED;
	} else {
		bench_print_run(cli, b, dev, &s);
	}
	mdp_system_free(&s);
	return rc;
}

/* --op-only alone: md's speed as the box is, nothing applied. */
static int op_only(struct cli *cli, struct bench_progress *pg)
{
	struct mdp_bench b = bench_of(pg, NULL);
	struct mdp_bench_row r = {.profile = MDP_BENCH_CURRENT, .current = true};

	if (mdp_bench_window(&b, b.window_s, &r.w)) {
		cli_err(cli, "interrupted by %s", cli_signal_name(cli_stop_requested()));
		return MDP_EXIT_FAILED;
	}
	bench_print_rows(cli, &r, 1, false);
	return MDP_EXIT_OK;
}

static int do_bench(struct cli *cli)
{
	struct mdp_vb b = {.size = bo(cli)->size, .runs = bo(cli)->runs ? bo(cli)->runs : 5};
	char dev[64];
	struct bench_progress pg;
	int rc;

	bench_pg_init(cli, &pg);
	if (bo(cli)->op_only && !bo(cli)->compare)
		return op_only(cli, &pg);
	if (!bo(cli)->path && !bo(cli)->op_only) {
		/* found in the tree's /proc/mounts (bench_check): opened beneath the root */
		b.root = &cli->root;
		b.sys_dir = bo(cli)->vol_sys;
	}
	b.dir = bo(cli)->path ? bo(cli)->path : bo(cli)->vol_dir;
	if (bo(cli)->compare) {
		b.stop_requested = cli_stop_requested;
		return compare(cli, &pg, &b);
	}
	rc = run(cli, &pg, &b, dev, sizeof(dev));
	mdp_vb_free(&b);
	return rc;
}

/*
 * Before anything happens (--compare applies profiles, after the lock and
 * recover): at most MDP_BENCH_MAX_COMPARE profiles, and without --path the
 * volume to measure, found in /proc/mounts.
 */
static int bench_check(struct cli *cli)
{
	struct bench_opts *o = cli->opts;
	struct mdp_diags d;
	int err;

	if (o->compare && mdp_bench_count(o->compare) > MDP_BENCH_MAX_COMPARE + 1) {
		cli_err(cli, "--compare: at most %d profiles", MDP_BENCH_MAX_COMPARE);
		return MDP_EXIT_USAGE;
	}
	if (o->path || o->op_only)
		return 0;
	mdp_diags_init(&d);
	err = mdp_vb_find_volume(&cli->root, o->vol_sys, sizeof(o->vol_sys), o->vol_dir,
				 sizeof(o->vol_dir), &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	return err ? MDP_EXIT_USAGE : 0;
}

/* --compare applies profiles: it needs all that apply needs. */
static unsigned bench_setup_flags(const struct cli *cli, unsigned flags)
{
	return bo(cli)->compare ? flags | CMD_TXN | CMD_RECOVER | CMD_MD : flags;
}

const struct cmd cmd_bench = {
    .name = "bench",
    .fn = do_bench,
    .opts = &bench_table,
    .summary = "write and read speed of a volume, never the page cache's",
    .setup_flags = bench_setup_flags,
    .check = bench_check,
};
