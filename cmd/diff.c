/*
 * diff: what a profile would change on this system, current -> desired;
 * without a profile, how the live system drifted from the active one.
 * Exit 0 in sync, 1 changes pending, 2 profile error, 3 system unreadable.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "mdp_txn.h"
#include "json.h"
#include "render.h"

static int diff_profile(struct cli *cli, const char *arg)
{
	const struct mdp_apply_opts o = {.dry_run = true}; /* what apply would do */
	struct mdp_profile p;
	struct mdp_applied a;
	char safe[PATH_MAX + 64];
	struct json j;
	size_t pending;
	int rc;

	if ((rc = cli_load_profile(cli, arg, &p)))
		return rc;
	cli_warn_recover(cli);
	if ((rc = cli_apply(cli, &p, &o, &a)))
		goto out;
	pending = mdp_plan_pending(&a.plan);
	if (cli->json) {
		cli_json_begin(cli, &j);
		render_diff_json(&j, p.name, &a.plan, &cli->tx.rep);
	} else if (cli_info(cli)) {
		printf("profile %s (", render_safe(p.name, safe, sizeof(safe)));
		printf("%s)\n", render_safe(p.path, safe, sizeof(safe)));
		render_plan_text(&a.plan, &a.sys, cli_detail(cli));
		render_plan_mem(&a.plan);
		render_services_preview(&cli->tx.rep, cli_detail(cli));
		render_goal_note(&p, "\n");
		if (pending)
			printf("\n%zu change%s pending\n", pending, pending == 1 ? "" : "s");
		else
			puts("\nin sync: nothing to change");
	}
	rc = pending ? MDP_EXIT_PENDING : MDP_EXIT_OK;
out:
	mdp_applied_free(&a);
	mdp_profile_free(&p);
	return rc;
}

static void drift_print(struct cli *cli, const char *profile, const struct mdp_plan *pl,
			const struct mdp_system *s)
{
	size_t n = mdp_plan_pending(pl);
	struct json j;
	char safe[160];

	if (cli->json) {
		cli_json_begin(cli, &j);
		render_diff_json(&j, profile, pl, NULL);
		return;
	}
	if (!cli_info(cli))
		return;
	profile = render_safe(profile, safe, sizeof(safe));
	if (n || cli_detail(cli)) {
		printf("drift from active profile %s (live -> applied)\n", profile);
		render_plan_text(pl, s, cli_detail(cli));
		if (n)
			printf("\n%zu value%s drifted; 'mdprofile apply %s' sets them again\n", n,
			       n == 1 ? "" : "s", profile);
		else
			printf("\nno drift\n");
	} else {
		printf("active profile %s: no drift\n", profile);
	}
}

static int no_active_profile(struct cli *cli)
{
	struct mdp_plan empty = {0};
	struct json j;

	if (cli->json) {
		cli_json_begin(cli, &j);
		render_diff_json(&j, NULL, &empty, NULL);
	} else if (cli_info(cli)) {
		puts("no profile is active; give a profile to compare with");
	}
	return MDP_EXIT_OK;
}

/* diff without a profile: has the live system drifted from the active profile? */
static int diff_drift(struct cli *cli)
{
	struct mdp_journal j;
	struct mdp_profile p;
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	bool have_j;
	int rc, err;

	cli_warn_recover(cli);
	have_j = cli_journal_peek(cli, &j);
	if (!have_j || j.state != MDP_J_ACTIVE) {
		if (have_j)
			mdp_journal_free(&j);
		return no_active_profile(cli);
	}
	if ((rc = cli_discover(cli, 0, &s)))
		goto out;
	if (!(err = mdp_drift_plan(&j, &s, &pl))) {
		drift_print(cli, j.profile, &pl, &s);
		rc = mdp_plan_pending(&pl) ? MDP_EXIT_PENDING : MDP_EXIT_OK;
		goto out;
	}
	/* A journal of an earlier version records no values: compare with the profile file. */
	rc = err == -ENODATA
		 ? cli_load_profile(cli, j.profile_path[0] ? j.profile_path : j.profile, &p)
		 : MDP_EXIT_FAILED;
	if (rc)
		goto out;
	if (!(rc = cli_plan(cli, &p, &s, &pl))) {
		drift_print(cli, p.name, &pl, &s);
		rc = mdp_plan_pending(&pl) ? MDP_EXIT_PENDING : MDP_EXIT_OK;
	}
	mdp_profile_free(&p);
out:
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	mdp_journal_free(&j);
	return rc;
}

/* diff's options: --name, of a profile on stdin (into cli). */
static const struct opt diff_opts[] = {
    CLI_OPT_NAME,
};

static const struct opt_table diff_table = OPT_TABLE_SHARED(diff_opts);

static int do_diff(struct cli *cli)
{
	return cli->argc == 2 ? diff_profile(cli, cli->argv[1]) : diff_drift(cli);
}

const struct cmd cmd_diff = {
    .name = "diff",
    .fn = do_diff,
    .flags = CMD_SERVICES | CMD_MD,
    .opts = &diff_table,
    .max_args = 1,
    .args = "[PROFILE]",
    .summary = "show what PROFILE would change (no PROFILE: drift from the active one)",
};
