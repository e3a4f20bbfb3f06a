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

static int apply_dry_run(struct cli *cli, const struct mdp_profile *p)
{
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	struct json j;
	size_t n;
	int rc;

	if (!(rc = cli_discover(cli, 0, &s)) && !(rc = cli_plan(cli, p, &s, &pl)) &&
	    !(rc = cli_preview_services(cli, p))) {
		n = mdp_plan_pending(&pl);
		if (cli->json) {
			cli_json_begin(cli, &j);
			render_dry_run_json(&j, p, &pl, &cli->tx.rep);
		} else if (cli_info(cli)) {
			render_plan_text(&pl, &s, cli_detail(cli));
			render_services_preview(&cli->tx.rep, cli_detail(cli));
			printf("\ndry run: %zu change%s would be made, nothing was touched\n", n,
			       n == 1 ? "" : "s");
		}
	}
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	return rc;
}

static void apply_notes(const struct cli *cli, const struct mdp_plan *pl)
{
	char line[256];

	for (size_t i = 0; i < pl->n_notes && cli_info(cli); i++) {
		render_plan_note(&pl->notes[i], line, sizeof(line));
		printf("note: %s\n", line);
	}
}

/* Options that only make sense together, refused before anything changes. */
static int apply_opts_ok(struct cli *cli)
{
	enum mdp_origin o = MDP_BY_HAND;

	if (cli->origin && (mdp_origin_parse(cli->origin, &o) || o > MDP_BY_BOOT))
		cli_err(cli, "--origin '%s': expected hand or boot", cli->origin);
	else if (cli->origin && cli->until_idle)
		cli_err(cli, "--origin and --until-idle do not go together");
	else if (cli->interval_ms && !cli->until_idle)
		cli_err(cli, "--interval applies to 'apply' only with --until-idle");
	else if (cli->as_base && cli->until_idle)
		cli_err(cli, "--base and --until-idle do not go together: the watcher removes only "
			     "the layer it applied");
	else if (cli->until_idle && cli->dry_run)
		cli_err(cli, "--until-idle and --dry-run do not go together");
	else if (cli->until_idle && cli->json)
		cli_err(cli, "--until-idle reports as text (and to syslog), not --json");
	else {
		cli->tx.origin = o;
		return 0;
	}
	return MDP_EXIT_USAGE;
}

static int do_apply(struct cli *cli)
{
	const struct mdp_profile *p = &cli->profile;
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	char nm[1024];
	int rc;

	if ((rc = apply_opts_ok(cli)) || (cli->until_idle && (rc = watcher_lock(cli))))
		return rc;
	if (cli->dry_run)
		return apply_dry_run(cli, p);
	if (cli->until_idle)
		cli->tx.origin = MDP_BY_UNTIL_IDLE;
	cli->tx.as_base = cli->as_base;
	/* Only what the plan needs: on a big box discovery is most of apply's work. */
	if (!(rc = cli_discover(cli, mdp_plan_discover_skip(p), &s)) &&
	    !(rc = cli_plan(cli, p, &s, &pl))) {
		apply_notes(cli, &pl);
		if (cli_info(cli))
			render_dsm_speed_note(&s, &pl, "");
		rc = cli_txn_result(cli, mdp_txn_apply(&cli->tx, p, &pl), "apply", &pl);
		if (rc == MDP_EXIT_OK && cli_info(cli))
			printf(mdp_txn_report_changed(&cli->tx.rep)
				   ? "profile %s is active; 'mdprofile revert' restores the values "
				     "from before\n"
				   : "profile %s: already in sync, nothing changed\n",
			       render_safe(p->name, nm, sizeof(nm)));
		if (rc == MDP_EXIT_OK && cli->until_idle)
			rc = watcher_until_idle(cli);
	}
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	return rc;
}

const struct cmd cmd_apply = {
    "apply",
    do_apply,
    CMD_PROFILE | CMD_TXN | CMD_RECOVER,
    OPT_DRY_RUN | OPT_NAME | OPT_UNTIL_IDLE | OPT_INTERVAL | OPT_BASE | OPT_ORIGIN,
    1,
    1,
    "apply [--dry-run | --until-idle [--interval S] | --base] PROFILE",
    "apply PROFILE transactionally (rolled back on any failure);\n"
    "over an active profile it is an overlay: revert returns to that base"};

static int do_revert(struct cli *cli)
{
	return cli_txn_result(cli, mdp_txn_revert(&cli->tx, cli->revert_all), "revert", NULL);
}

const struct cmd cmd_revert = {
    "revert",
    do_revert,
    CMD_TXN,
    OPT_ALL,
    0,
    0,
    "revert [--all]",
    "remove the overlay (back to the base), else the base (back to the values\n"
    "from before mdprofile); --all: both"};

static int do_recover(struct cli *cli)
{
	bool did;
	int rc = cli_txn_result(cli, mdp_txn_recover(&cli->tx, &did), "recover", NULL);

	if (rc == MDP_EXIT_OK && !did && cli_info(cli))
		puts("nothing to recover");
	return rc;
}

const struct cmd cmd_recover = {
    "recover", do_recover, CMD_TXN,   0,
    0,         0,          "recover", "finish or undo an interrupted apply or revert"};
