/*
 * apply, revert, recover: the mutating commands. Each takes the lock,
 * finishes any interrupted transaction first, then does its job through
 * src/txn and prints what changed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "diff.h"
#include "services.h"
#include "txn.h"

static int take_lock(struct cli *cli, struct mdp_lock *l)
{
	long holder = 0;
	int err = mdp_lock_take(&cli->root, cli->wait, l, &holder);

	if (err == -EWOULDBLOCK) {
		cli_err("another mdprofile (pid %ld) is changing the system; "
			"try again, or use --wait",
			holder);
		return MDP_EXIT_FAILED;
	}
	if (err) {
		cli_err("cannot take the lock %s: %s", MDP_LOCK, mdp_root_strerror(-err));
		return MDP_EXIT_FAILED;
	}
	return 0;
}

static int svc_backend(struct cli *cli, struct mdp_svc_backend *b)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_svc_detect(&cli->root, cli->svc_force, b, &d);
	cli_print_diags(&d);
	mdp_diags_free(&d);
	if (!err && cli->svc_timeout_ms)
		b->timeout_ms = cli->svc_timeout_ms;
	if (!err)
		fault_wrap_services(&cli->fault, b);
	return err ? MDP_EXIT_USAGE : 0;
}

/* Print what a transaction did and map its result to the exit code. */
static void json_list(const char *key, char *const *v, size_t n)
{
	printf(", \"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", stdout);
		json_str(v[i]);
	}
	putchar(']');
}

/* --json: one object on stdout; the diagnostics still go to stderr. */
static void report_json(const struct mdp_txn_report *rep, int rc, const char *verb)
{
	const char *result = rc == MDP_TXN_OK        ? "ok"
			     : rc == MDP_TXN_FAILED  ? "rolled-back"
			     : rc == MDP_TXN_PARTIAL ? "rollback-incomplete"
						     : "error";

	printf("{\"command\": \"%s\", \"result\": \"%s\", \"done\": [", verb, result);
	/* After a rollback nothing done stays done; "left" lists what does. */
	for (size_t i = 0; i < rep->n_done && rc == MDP_TXN_OK; i++) {
		fputs(i ? ", " : "", stdout);
		json_str(rep->done[i].what);
	}
	putchar(']');
	json_list("info", rep->info, rep->n_info);
	json_list("left", rep->left, rep->n_left);
	json_list("fix", rep->fix, rep->n_fix);
	puts("}");
}

static int report(struct cli *cli, struct mdp_txn *tx, int rc, const char *verb)
{
	struct mdp_txn_report *rep = &tx->rep;

	if (cli->json)
		report_json(rep, rc, verb);
	for (size_t i = 0; i < rep->n_info && !cli->json; i++)
		if (cli->verbose >= 0)
			printf("%s\n", rep->info[i]);
	cli_print_diags(tx->d);
	if (rc == MDP_TXN_OK) {
		for (size_t i = 0; i < rep->n_done && cli->verbose >= 0 && !cli->json; i++)
			printf("%s\n", rep->done[i].what);
		return MDP_EXIT_OK;
	}
	if (rc == MDP_TXN_FAILED) {
		cli_err("%s failed; every change was rolled back", verb);
		return MDP_EXIT_FAILED;
	}
	if (rc == MDP_TXN_PARTIAL) {
		cli_err("rollback incomplete; these are left as they are:");
		for (size_t i = 0; i < rep->n_left; i++)
			cli_err("  %s", rep->left[i]);
		cli_err("to restore them by hand, as root:");
		for (size_t i = 0; i < rep->n_fix; i++)
			cli_err("  %s", rep->fix[i]);
		return MDP_EXIT_PARTIAL;
	}
	if (rc == -EINVAL)
		return MDP_EXIT_USAGE; /* the diags said why; nothing was touched */
	if (rc == -EBADMSG)
		return MDP_EXIT_FAILED; /* unreadable journal: the diag says what to do */
	cli_err("%s failed: %s", verb, strerror(-rc));
	return MDP_EXIT_FAILED;
}

/* Recover first: every mutating command starts from a finished state. */
static int pre_recover(struct cli *cli, struct mdp_txn *tx)
{
	bool did;
	int rc = mdp_txn_recover(tx, &did);

	if (rc == 0)
		return 0;
	return report(cli, tx, rc, "recover");
}

static int apply_dry_run(struct cli *cli, const struct mdp_profile *p)
{
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	int rc;

	if (!(rc = cli_discover(cli, &s)) && !(rc = cli_plan(cli, p, &s, &pl))) {
		if (cli->json)
			diff_print_json(p, &pl);
		else
			diff_print_text(&pl, &s, false);
		if (!cli->json)
			printf("\ndry run: %zu change%s would be made, nothing was touched\n",
			       mdp_plan_pending(&pl), mdp_plan_pending(&pl) == 1 ? "" : "s");
	}
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	return rc;
}

static void apply_summary(const struct mdp_profile *p, const struct mdp_txn_report *rep)
{
	if (!rep->n_done)
		printf("profile %s: already in sync, nothing changed\n", p->name);
	else
		printf("profile %s is active; 'mdprofile revert' restores the values from "
		       "before\n",
		       p->name);
}

static int apply_locked(struct cli *cli, const struct mdp_profile *p, struct mdp_txn *tx)
{
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	int rc;

	if ((rc = pre_recover(cli, tx)))
		return rc;
	/* Only what the plan needs: on a big box discovery is most of apply's work. */
	if (!(rc = cli_discover_some(cli, mdp_plan_discover_skip(p), &s)) &&
	    !(rc = cli_plan(cli, p, &s, &pl))) {
		for (size_t i = 0; i < pl.n_notes && cli->verbose >= 0 && !cli->json; i++)
			printf("note: %s%s%s\n", pl.notes[i].dev, pl.notes[i].dev[0] ? ": " : "",
			       pl.notes[i].text);
		rc = report(cli, tx, mdp_txn_apply(tx, p, &pl), "apply");
		if (rc == MDP_EXIT_OK && cli->verbose >= 0 && !cli->json)
			apply_summary(p, &tx->rep);
	}
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	return rc;
}

static int do_apply(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{"dry-run", no_argument, NULL, 'n'},
					     {NULL, 0, NULL, 0}};
	struct mdp_svc_backend svc = {0};
	struct mdp_diags d;
	struct mdp_txn tx = {.root = &cli->root, .d = &d};
	struct mdp_profile p;
	struct mdp_lock lock = {-1};
	bool dry = false;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "n", opts, NULL)) != -1) {
		if (opt != 'n')
			return cli_usage(&cmd_apply);
		dry = true;
	}
	if (optind != argc - 1)
		return cli_usage(&cmd_apply);
	if ((rc = cli_load_profile(cli, argv[optind], &p)))
		return rc;
	if (dry) {
		rc = apply_dry_run(cli, &p);
		mdp_profile_free(&p);
		return rc;
	}
	mdp_diags_init(&d);
	if (!(rc = svc_backend(cli, &svc)) && !(rc = take_lock(cli, &lock))) {
		tx.svc = svc.ops ? &svc : NULL;
		rc = apply_locked(cli, &p, &tx);
		mdp_lock_release(&lock);
	}
	mdp_txn_report_free(&tx.rep);
	mdp_diags_free(&d);
	mdp_profile_free(&p);
	return rc;
}

const struct cmd cmd_apply = {"apply", do_apply, "apply [--dry-run] PROFILE",
			      "apply PROFILE transactionally (rolled back on any failure)"};

/* revert and recover share everything but the call in the middle. */
static int run_simple(struct cli *cli, const struct cmd *c, int argc,
		      int (*fn)(struct cli *cli, struct mdp_txn *tx))
{
	struct mdp_svc_backend svc = {0};
	struct mdp_diags d;
	struct mdp_txn tx = {.root = &cli->root, .d = &d};
	struct mdp_lock lock = {-1};
	int rc;

	if (argc != 1)
		return cli_usage(c);
	mdp_diags_init(&d);
	if (!(rc = svc_backend(cli, &svc)) && !(rc = take_lock(cli, &lock))) {
		tx.svc = svc.ops ? &svc : NULL;
		rc = fn(cli, &tx);
		mdp_lock_release(&lock);
	}
	mdp_txn_report_free(&tx.rep);
	mdp_diags_free(&d);
	return rc;
}

static int revert_fn(struct cli *cli, struct mdp_txn *tx)
{
	return report(cli, tx, mdp_txn_revert(tx), "revert");
}

static int do_revert(struct cli *cli, int argc, char **argv)
{
	(void)argv;
	return run_simple(cli, &cmd_revert, argc, revert_fn);
}

const struct cmd cmd_revert = {"revert", do_revert, "revert",
			       "restore exactly the values from before the first apply"};

static int recover_fn(struct cli *cli, struct mdp_txn *tx)
{
	bool did;
	int rc = report(cli, tx, mdp_txn_recover(tx, &did), "recover");

	if (rc == MDP_EXIT_OK && !did && cli->verbose >= 0 && !cli->json)
		puts("nothing to recover");
	return rc;
}

static int do_recover(struct cli *cli, int argc, char **argv)
{
	(void)argv;
	return run_simple(cli, &cmd_recover, argc, recover_fn);
}

const struct cmd cmd_recover = {"recover", do_recover, "recover",
				"finish or undo an interrupted apply or revert"};
