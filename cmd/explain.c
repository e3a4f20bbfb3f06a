/*
 * explain: why an md operation runs at the speed it does. Two samples
 * --interval apart (or a capture's two, replayed under --root), the rules
 * of src/explain/explain.c per array (src/explain/explain_run.c measures and selects),
 * then text or JSON (explain_render.c). Reads only, as any user; what it
 * could not read is listed. Exit 0: nothing to change or nothing
 * running; 1: a recommendation; 2: usage; 3: /proc/mdstat unreadable.
 *
 * --probe (root, through the journal): the top recommendation whose gain
 * could not be computed, if it is one setting, is applied for one window
 * between explain's own window and one more at the settings as they were
 * (A/B/A), then reverted; the finding shows what each window measured.
 * Exit 3 when interrupted (reverted first), 4 when the revert did not
 * complete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "mdp_explain.h"
#include "explain_render.h"

#define DEFAULT_INTERVAL_MS 10000

/* explain's options. */
struct explain_opts {
	unsigned interval_ms; /* --interval; 0: DEFAULT_INTERVAL_MS */
	const char *capture;  /* --capture FILE */
	bool probe;           /* --probe */
};

static const struct opt explain_opts[] = {
    OPT_INTERVAL("interval", struct explain_opts, interval_ms,
		 "seconds between its two samples (default 10)"),
    OPT_NAMING("capture", 0, "FILE", OPTV_FILE, struct explain_opts, capture,
	       "write every file read, as a tar that --root replays"),
    OPT_FLAG("probe", 0, struct explain_opts, probe,
	     "as root, measure the top recommendation's gain by applying it for a while"),
};

static const struct opt_table explain_table =
    OPT_TABLE(explain_opts, struct explain_opts, NULL, NULL, NULL);

static const struct explain_opts *xo(const struct cli *cli)
{
	return cli->opts;
}

/* What could not be read, said. */
static void say_fail(struct cli *cli, const struct mdp_xfail *f)
{
	const char *e = mdp_root_strerror(-f->err);

	if (f->what == MDP_XF_ELAPSED)
		cli_err(cli, "cannot replay the capture: .explain/elapsed_ms: %s", e);
	else if (f->what == MDP_XF_MDSTAT)
		cli_err(cli, "cannot read /proc/mdstat: %s", e);
	else if (f->what == MDP_XF_PROBE)
		cli_err(cli, "cannot replay the probe: .explain/%u: %s", f->n, e);
}

/* ---- --probe ------------------------------------------------------------------ */

/* Apply the probe's one setting through the transaction, as bench --compare applies a profile. */
static int probe_apply(void *arg, const struct mdp_probe_setting *set)
{
	struct cli *cli = arg;
	struct mdp_profile p;
	struct mdp_diags d;
	int rc;

	mdp_diags_init(&d);
	rc = mdp_probe_profile(set, &cli->dirs, &p, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	/* Journaled as a probe: if this process dies, recover (any command's) reverts it. */
	return rc ? MDP_EXIT_USAGE : cli_apply_quiet(cli, &p, MDP_BY_PROBE);
}

/* Revert it, whatever happened: 0, or the exit code with the failure said. */
static int probe_revert(void *arg)
{
	return cli_revert_quiet(arg);
}

/* Take the window (recorded into cap, or NULL) and report on it: 0 or an exit code, said. */
static int measure(struct cli *cli, const struct mdp_xrun *x, struct mdp_xcap *cap,
		   struct mdp_xwindow *w)
{
	size_t names = cli->argc > 1 ? (size_t)cli->argc - 1 : 0;
	struct mdp_xfail fail;
	int err = mdp_xrun_window(x, &cli->dirs, cli->argv + 1, names, cap, w, &fail);

	for (size_t i = 0; err == -ESRCH && i < w->n_missing; i++)
		cli_err(cli, "no array %s in /proc/mdstat", w->missing[i]);
	if (err == -ENOMEM)
		cli_err(cli, "out of memory");
	else if (err && err != -ESRCH)
		say_fail(cli, &fail);
	return !err ? 0 : err == -ESRCH ? MDP_EXIT_USAGE : MDP_EXIT_FAILED;
}

/* The reports' first setting to probe (mdp_probe_choose): 0, or exit 2 with why not, said. */
static int probe_choose(struct cli *cli, const struct mdp_xwindow *w, struct explain_probe *pr)
{
	int err = mdp_probe_choose(w->reps, w->n, &pr->rep, &pr->finding, &pr->set);
	const struct mdp_xreport *r = &w->reps[pr->rep];
	const char *rec = r->findings[pr->finding].rec_name;

	if (err == -ENOENT || err == -ESRCH)
		cli_err(cli, err == -ENOENT ? "--probe: every recommendation's gain is computed or "
					      "there is none: nothing to probe"
					    : "--probe: no md operation runs: nothing to measure");
	else if (err == -EMEDIUMTYPE)
		cli_err(cli,
			"--probe: %s's recommendation is the profile %s, not one setting: "
			"measure it with 'mdprofile bench --op-only --compare %s'",
			r->array, rec, rec);
	else if (err)
		cli_err(
		    cli,
		    "--probe: %s's recommendation (%s) is no setting mdprofile journals: nothing "
		    "to probe",
		    r->array, rec);
	return err ? MDP_EXIT_USAGE : 0;
}

/*
 * --probe's setting chosen, then what every mutating command does first:
 * an interrupted transaction recovered, here after every refusal (exit 2:
 * nothing was touched). When recover restored values, the window measured
 * settings that are gone: it is taken again on the restored ones, and a
 * refusal then comes after a change (exit 3).
 */
static int probe_ready(struct cli *cli, const struct mdp_xrun *x, struct mdp_xcap *cap,
		       struct mdp_xwindow *w, struct explain_probe *pr)
{
	struct mdp_txn_rc t;
	bool did;
	int rc;

	if ((rc = probe_choose(cli, w, pr)))
		return rc;
	t = mdp_txn_recover(&cli->tx, &did);
	if (t.res != MDP_TXN_OK)
		return cli_txn_result(cli, t, "recover", NULL);
	if (!did)
		return 0;
	if (!(rc = measure(cli, x, cap, w)))
		rc = probe_choose(cli, w, pr);
	return rc == MDP_EXIT_USAGE ? MDP_EXIT_FAILED : rc;
}

/* Probe the chosen setting A/B/A (mdp_xrun_probe). 0, or an exit code with what went wrong said. */
static int probe(struct cli *cli, const struct mdp_xrun *x, const struct mdp_xreport *reps,
		 struct explain_probe *pr)
{
	const struct mdp_probe_ops ops = {probe_apply, probe_revert, cli};
	struct mdp_probe_out o;
	int err;

	snprintf(pr->name, sizeof(pr->name), "%s/%s", pr->set.dev,
		 mdp_tunable_info(pr->set.t)->key);
	err = mdp_xrun_probe(x, &reps[pr->rep], &pr->set, &ops, &o);
	say_fail(cli, &o.fail);
	if (o.rc)
		return o.rc;
	if (o.sig)
		cli_err(cli, "interrupted by %s; %s is as it was", cli_signal_name(o.sig),
			pr->name);
	pr->w = o.w;
	pr->res = o.res;
	pr->done = !err;
	return err ? MDP_EXIT_FAILED : 0;
}

/* --capture's folder, opened before anything is read: every write goes there (root.h). */
static int capture_open(struct cli *cli)
{
	char why[PATH_MAX + 160];
	int err;

	if (!xo(cli)->capture ||
	    !(err = mdp_root_out_open(&cli->out, xo(cli)->capture, why, sizeof(why))))
		return 0;
	cli_err(cli, "--capture %s: %s", xo(cli)->capture, *why ? why : strerror(-err));
	return MDP_EXIT_USAGE;
}

static int do_explain(struct cli *cli)
{
	const struct explain_opts *o = xo(cli);
	struct mdp_xcap cap = {0}, *c = o->capture ? &cap : NULL;
	struct mdp_xwindow w = {0};
	struct explain_probe pr = {0};
	struct mdp_diags unread;
	int rc, err;
	const struct mdp_xrun x = {.root = &cli->root,
				   .interval_ms =
				       o->interval_ms ? o->interval_ms : DEFAULT_INTERVAL_MS,
				   .unreadable = &unread,
				   .stop_requested = cli_stop_requested};

	mdp_diags_init(&unread);
	if ((rc = capture_open(cli)) ||
	    (o->probe && (rc = cli_refuse_over_active(cli, "explain --probe"))) ||
	    (rc = measure(cli, &x, c, &w)) ||
	    (o->probe &&
	     ((rc = probe_ready(cli, &x, c, &w, &pr)) || (rc = probe(cli, &x, w.reps, &pr)))))
		goto out;
	if (cli->json)
		explain_print_json(cli, w.reps, w.n, &w.s[1], &unread, &pr);
	else
		explain_print_text(w.reps, w.n, &w.s[1], &unread, (double)w.ms / 1000.0, &pr);
	rc = w.any ? MDP_EXIT_PENDING : MDP_EXIT_OK;
	if (c && (err = mdp_xcap_write(c, w.ms, &cli->out))) {
		cli_err(cli, "cannot write the capture %s: %s", o->capture, strerror(-err));
		rc = MDP_EXIT_FAILED;
	}
out:
	mdp_xwindow_free(&w);
	mdp_xcap_free(&cap);
	mdp_diags_free(&unread);
	return rc;
}

/*
 * --probe changes a setting through the journal: it needs all that apply
 * needs, but recovers only once nothing refuses the probe (probe_ready).
 */
static unsigned explain_setup_flags(const struct cli *cli, unsigned flags)
{
	return xo(cli)->probe ? flags | CMD_TXN : flags;
}

const struct cmd cmd_explain = {
    .name = "explain",
    .fn = do_explain,
    .opts = &explain_table,
    .max_args = -1,
    .args = "[ARRAY...]",
    .summary = "why an md operation runs at its speed, what would help and by how much",
    .flags = CMD_MD,
    .setup_flags = explain_setup_flags,
};
