/*
 * apply, revert, recover: the mutating commands. main has taken the lock,
 * picked the service backend and finished any interrupted transaction
 * (their table flags); each does its job through src/txn and reports.
 */
#include <stdio.h>

#include "commands.h"
#include "json.h"
#include "render.h"

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
		} else {
			render_plan_text(&pl, &s, false);
			render_services_preview(&cli->tx.rep);
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

	for (size_t i = 0; i < pl->n_notes && cli->verbose >= 0 && !cli->json; i++) {
		render_plan_note(&pl->notes[i], line, sizeof(line));
		printf("note: %s\n", line);
	}
}

static int do_apply(struct cli *cli)
{
	const struct mdp_profile *p = &cli->profile;
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	int rc;

	if (cli->dry_run)
		return apply_dry_run(cli, p);
	/* Only what the plan needs: on a big box discovery is most of apply's work. */
	if (!(rc = cli_discover(cli, mdp_plan_discover_skip(p), &s)) &&
	    !(rc = cli_plan(cli, p, &s, &pl))) {
		apply_notes(cli, &pl);
		rc = cli_txn_result(cli, mdp_txn_apply(&cli->tx, p, &pl), "apply", &pl);
		if (rc == MDP_EXIT_OK && cli->verbose >= 0 && !cli->json)
			printf(mdp_txn_report_changed(&cli->tx.rep)
				   ? "profile %s is active; 'mdprofile revert' restores the values "
				     "from before\n"
				   : "profile %s: already in sync, nothing changed\n",
			       p->name);
	}
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	return rc;
}

const struct cmd cmd_apply = {"apply",
			      do_apply,
			      CMD_PROFILE | CMD_TXN | CMD_RECOVER,
			      OPT_DRY_RUN | OPT_NAME,
			      1,
			      1,
			      "apply [--dry-run] PROFILE",
			      "apply PROFILE transactionally (rolled back on any failure)"};

static int do_revert(struct cli *cli)
{
	return cli_txn_result(cli, mdp_txn_revert(&cli->tx), "revert", NULL);
}

const struct cmd cmd_revert = {
    "revert", do_revert, CMD_TXN,  0,
    0,        0,         "revert", "restore exactly the values from before the first apply"};

static int do_recover(struct cli *cli)
{
	bool did;
	int rc = cli_txn_result(cli, mdp_txn_recover(&cli->tx, &did), "recover", NULL);

	if (rc == MDP_EXIT_OK && !did && cli->verbose >= 0 && !cli->json)
		puts("nothing to recover");
	return rc;
}

const struct cmd cmd_recover = {
    "recover", do_recover, CMD_TXN,   0,
    0,         0,          "recover", "finish or undo an interrupted apply or revert"};
