/*
 * apply, revert, recover: the mutating commands. main has taken the lock,
 * picked the service backend and finished any interrupted transaction
 * (their table flags); each does its job through src/txn and reports.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "json.h"
#include "render.h"
#include "watcher.h"

/* apply's options. */
struct apply_opts {
	bool dry_run;         /* -n, --dry-run: plans, reads, changes nothing */
	bool until_idle;      /* watch, then revert when md is idle */
	unsigned interval_ms; /* --interval of --until-idle; 0: the watcher's default */
	bool as_base;         /* --base: replace the base, not go over it */
	const char *origin;   /* --origin hand|boot: who applies, for status */
};

static const char *const origins[] = {"hand", "boot", NULL};

static const struct opt apply_opts[] = {
    OPT_FLAG("dry-run", 'n', struct apply_opts, dry_run, "print the plan and change nothing"),
    OPT_FLAG("until-idle", 0, struct apply_opts, until_idle,
	     "then wait until md is idle, remove it and say how long each operation took"),
    OPT_INTERVAL("interval", struct apply_opts, interval_ms,
		 "seconds between looks besides md's events (default 5)"),
    OPT_FLAG("base", 0, struct apply_opts, as_base,
	     "make PROFILE the base, replacing the active one, not an overlay on it"),
    OPT_CHOICE("origin", "hand|boot", struct apply_opts, origin, origins,
	       "who applies, for status (boot scripts pass boot)"),
    CLI_OPT_NAME,
};

static const struct opt_pair apply_excl[] = {
    {"origin", "until-idle", "--origin and --until-idle do not go together"},
    {"base", "until-idle",
     "--base and --until-idle do not go together: the watcher removes only the layer it "
     "applied"},
    {"until-idle", "dry-run", "--until-idle and --dry-run do not go together"},
    {"until-idle", "json", "--until-idle reports as text (and to syslog), not --json"},
    {NULL, NULL, NULL},
};

static const struct opt_pair apply_requires[] = {
    {"interval", "until-idle", NULL},
    {NULL, NULL, NULL},
};

static const struct opt_table apply_table =
    OPT_TABLE(apply_opts, struct apply_opts, NULL, apply_excl, apply_requires);

static int apply_dry_run(struct cli *cli, const struct mdp_profile *p)
{
	const struct mdp_apply_opts o = {.dry_run = true};
	struct mdp_applied a;
	struct json j;
	size_t n;
	int rc;

	if (!(rc = cli_apply(cli, p, &o, &a))) {
		n = mdp_plan_pending(&a.plan);
		if (cli->json) {
			cli_json_begin(cli, &j);
			render_dry_run_json(&j, p, &a.plan, &cli->tx.rep);
		} else if (cli_info(cli)) {
			render_plan_text(&a.plan, &a.sys, cli_detail(cli));
			render_services_preview(&cli->tx.rep, cli_detail(cli));
			printf("\ndry run: %zu change%s would be made, nothing was touched\n", n,
			       n == 1 ? "" : "s");
		}
	}
	mdp_applied_free(&a);
	return rc;
}

/* Planned (mdp_apply's hook, ctx the cli): the plan's notes, before anything changes. */
static void apply_notes(void *ctx, const struct mdp_system *s, const struct mdp_plan *pl)
{
	const struct cli *cli = ctx;
	char line[256];

	for (size_t i = 0; i < pl->n_notes && cli_info(cli); i++) {
		render_plan_note(&pl->notes[i], line, sizeof(line));
		printf("note: %s\n", line);
	}
	for (size_t i = 0; i < pl->n && cli_info(cli); i++) {
		const struct mdp_change *c = &pl->v[i];
		char target[96];
		if (!c->kept)
			continue;
		mdp_tunable_target_name(c->t, c->dev, target, sizeof(target));
		render_kept(c, line, sizeof(line));
		printf("note: %s %s\n", target, line);
	}
	if (cli_info(cli)) {
		render_dsm_speed_note(s, pl, "");
		if (!((const struct apply_opts *)cli->opts)->until_idle)
			render_goal_note(&cli->profile, ""); /* with it, the watcher's lines say */
	}
}

/* Who applies, as the journal records it: --origin, or the watcher's (the table refused
 * what does not go together). */
static int apply_origin(struct cli *cli, enum mdp_origin *o)
{
	const struct apply_opts *a = cli->opts;

	*o = a->until_idle ? MDP_BY_UNTIL_IDLE : MDP_BY_HAND;
	if (a->origin && (mdp_origin_parse(a->origin, o) || *o > MDP_BY_BOOT)) {
		cli_err(cli, "--origin '%s': expected hand or boot", a->origin);
		return MDP_EXIT_USAGE;
	}
	return 0;
}

static int apply_opts_ok(struct cli *cli)
{
	enum mdp_origin o;

	return apply_origin(cli, &o);
}

static int do_apply(struct cli *cli)
{
	const struct mdp_profile *p = &cli->profile;
	const struct apply_opts *a = cli->opts;
	struct mdp_apply_opts o = {.as_base = a->as_base, .lean = true, .planned = apply_notes};
	struct mdp_applied ap;
	struct wlog log;
	char nm[1024];
	int rc;

	if ((rc = apply_origin(cli, &o.origin)) || (a->until_idle && (rc = watcher_lock(cli))))
		return rc;
	if (a->dry_run)
		return apply_dry_run(cli, p);
	if (a->until_idle)
		wlog_open(&log, mdp_root_is_real(&cli->root));
	if (!(rc = cli_apply(cli, p, &o, &ap))) {
		rc = cli_txn_result(cli, ap.rc, "apply", &ap.plan);
		if (rc == MDP_EXIT_OK && cli_info(cli))
			printf(mdp_txn_report_changed(&cli->tx.rep)
				   ? "profile %s is active; 'mdprofile revert' restores the values "
				     "from before\n"
				   : "profile %s: already in sync, nothing changed\n",
			       render_safe(p->name, nm, sizeof(nm)));
		if (rc == MDP_EXIT_OK && a->until_idle)
			rc = watcher_until_idle(cli, &log, a->interval_ms);
	}
	if (a->until_idle)
		wlog_close(&log);
	mdp_applied_free(&ap);
	return rc;
}

/* A dry run only reads: no lock, no recovery; services only to ask their state. */
static unsigned apply_setup_flags(const struct cli *cli, unsigned flags)
{
	const struct apply_opts *a = cli->opts;

	return a->dry_run ? flags & ~(unsigned)(CMD_LOCK | CMD_RECOVER) : flags;
}

const struct cmd cmd_apply = {
    .name = "apply",
    .fn = do_apply,
    .flags = CMD_PROFILE | CMD_TXN | CMD_RECOVER | CMD_MD,
    .opts = &apply_table,
    .min_args = 1,
    .max_args = 1,
    .args = "PROFILE",
    .summary = "apply PROFILE transactionally (rolled back on any failure); over an active "
	       "profile it is an overlay: revert returns to that base",
    .setup_flags = apply_setup_flags,
    .check = apply_opts_ok,
};

/* revert's options. */
struct revert_opts {
	bool all; /* --all: the overlay and the base */
};

static const struct opt revert_opts[] = {
    OPT_FLAG("all", 0, struct revert_opts, all, "remove both, the overlay and the base"),
};

static const struct opt_table revert_table =
    OPT_TABLE(revert_opts, struct revert_opts, NULL, NULL, NULL);

static int do_revert(struct cli *cli)
{
	const struct revert_opts *o = cli->opts;

	return cli_txn_result(cli, mdp_txn_revert(&cli->tx, o->all), "revert", NULL);
}

const struct cmd cmd_revert = {
    .name = "revert",
    .fn = do_revert,
    .flags = CMD_TXN,
    .opts = &revert_table,
    .summary = "remove the overlay (back to the base), else the base (back to the values from "
	       "before mdprofile)",
};

static int do_recover(struct cli *cli)
{
	bool did;
	int rc = cli_txn_result(cli, mdp_txn_recover(&cli->tx, &did), "recover", NULL);

	if (rc == MDP_EXIT_OK && !did && cli_info(cli))
		puts("nothing to recover");
	return rc;
}

const struct cmd cmd_recover = {
    .name = "recover",
    .fn = do_recover,
    .flags = CMD_TXN,
    .summary = "finish or undo an interrupted apply or revert",
};
