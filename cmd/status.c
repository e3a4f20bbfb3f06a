/*
 * status: arrays, their RAID operation with progress, speed and ETA, and
 * the active profile. Reads only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "diff.h"
#include "txn.h"

/* Seconds left from md's own numbers: sectors to go over KiB/s. */
static uint64_t eta_seconds(const struct mdp_array *a)
{
	if (!a->has_progress || !a->sync_speed || a->sync_done >= a->sync_total)
		return 0;
	return (a->sync_total - a->sync_done) / 2 / a->sync_speed;
}

static void fmt_eta(uint64_t s, char *buf, size_t len)
{
	if (s >= 86400)
		snprintf(buf, len, "%" PRIu64 "d %" PRIu64 "h", s / 86400, s % 86400 / 3600);
	else if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 "h %" PRIu64 "m", s / 3600, s % 3600 / 60);
	else
		snprintf(buf, len, "%" PRIu64 "m", (s + 59) / 60);
}

static bool busy(const struct mdp_array *a)
{
	return a->sync_action[0] && strcmp(a->sync_action, "idle");
}

/* -v: where each array's identity came from (udev, md/uuid, mdadm, superblock). */
static void status_uuid(const struct mdp_array *a)
{
	if (a->uuid[0])
		printf("       uuid %s (from %s)\n", a->uuid, a->uuid_source);
	else
		puts("       uuid unknown");
}

static void status_text(const struct mdp_system *s, bool verbose)
{
	char eta[32];

	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		printf("%-6s %-7s %2d disks  %-10s", a->name, a->level_name, a->raid_disks,
		       a->array_state[0] ? a->array_state : "-");
		if (!busy(a)) {
			puts(" idle");
			if (verbose)
				status_uuid(a);
			continue;
		}
		printf(" %s", a->sync_action);
		if (a->has_progress && a->sync_total)
			printf(" %.1f%%", (double)a->sync_done * 100.0 / (double)a->sync_total);
		if (a->sync_speed)
			printf(", %" PRIu64 " KiB/s", a->sync_speed);
		if (eta_seconds(a)) {
			fmt_eta(eta_seconds(a), eta, sizeof(eta));
			printf(", about %s left", eta);
		}
		putchar('\n');
		if (verbose)
			status_uuid(a);
	}
	if (!s->n_arrays)
		puts("no md arrays found");
}

static void status_json(const struct mdp_system *s, const struct mdp_journal *j)
{
	fputs("{\"arrays\": [", stdout);
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		printf("%s\n  {\"name\": ", i ? "," : "");
		json_str(a->name);
		fputs(", \"level\": ", stdout);
		json_str(a->level_name);
		printf(", \"raid_disks\": %d, \"uuid\": ", a->raid_disks);
		json_str(a->uuid);
		fputs(", \"state\": ", stdout);
		json_str(a->array_state);
		fputs(", \"sync_action\": ", stdout);
		json_str(a->sync_action[0] ? a->sync_action : "idle");
		printf(", \"done_sectors\": %" PRIu64 ", \"total_sectors\": %" PRIu64
		       ", \"speed_kib_s\": %" PRIu64 ", \"eta_seconds\": %" PRIu64 "}",
		       a->has_progress ? a->sync_done : 0, a->has_progress ? a->sync_total : 0,
		       a->sync_speed, eta_seconds(a));
	}
	fputs("],\n \"active_profile\": ", stdout);
	if (j && j->state == MDP_J_ACTIVE)
		json_str(j->profile);
	else
		fputs("null", stdout);
	printf(", \"mem_total_kib\": %" PRIu64 ", \"mem_available_kib\": %" PRIu64 "}\n",
	       s->mem_total_kib, s->mem_avail_kib);
}

/* Load the journal quietly for display; false when there is none. */
static bool journal_peek(struct cli *cli, struct mdp_journal *j)
{
	struct mdp_diags d;
	bool ok;

	mdp_diags_init(&d);
	ok = mdp_journal_load(&cli->root, j, &d) == 0;
	mdp_diags_free(&d);
	return ok;
}

void cli_warn_recover(struct cli *cli)
{
	if (mdp_txn_needs_recover(&cli->root))
		cli_err("warning: an interrupted or stale transaction was found; run 'mdprofile "
			"recover'");
}

static int do_status(struct cli *cli, int argc, char **argv)
{
	struct mdp_system s = {0};
	struct mdp_journal j;
	bool have_j;
	int rc;

	(void)argv;
	if (argc != 1)
		return cli_usage(&cmd_status);
	if ((rc = cli_discover(cli, &s)))
		return rc;
	have_j = journal_peek(cli, &j);
	cli_warn_recover(cli);
	if (cli->json) {
		status_json(&s, have_j ? &j : NULL);
	} else {
		status_text(&s, cli->verbose > 0);
		if (have_j && j.state == MDP_J_ACTIVE)
			printf("\nactive profile: %s\n", j.profile);
		else
			puts("\nno profile is active");
	}
	if (have_j)
		mdp_journal_free(&j);
	mdp_system_free(&s);
	return MDP_EXIT_OK;
}

const struct cmd cmd_status = {"status", do_status, "status",
			       "arrays, RAID operations with progress and ETA, active profile"};

/* diff without a profile: has the live system drifted from the active profile? */
int diff_drift(struct cli *cli)
{
	struct mdp_journal j;
	struct mdp_profile p;
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	int rc;

	cli_warn_recover(cli);
	if (!journal_peek(cli, &j) || j.state != MDP_J_ACTIVE) {
		if (cli->verbose >= 0)
			puts("no profile is active; give a profile to compare with");
		if (journal_peek(cli, &j))
			mdp_journal_free(&j);
		return MDP_EXIT_OK;
	}
	rc = cli_load_profile(cli, j.profile_path[0] ? j.profile_path : j.profile, &p);
	if (rc)
		goto out_j;
	if (!(rc = cli_discover(cli, &s)) && !(rc = cli_plan(cli, &p, &s, &pl))) {
		size_t n = mdp_plan_pending(&pl);
		if (cli->json) {
			diff_print_json(&p, &pl);
		} else if (n) {
			printf("drift from active profile %s (live -> profile)\n", p.name);
			diff_print_text(&pl, &s, false);
			printf("\n%zu value%s drifted; 'mdprofile apply %s' sets them again\n", n,
			       n == 1 ? "" : "s", p.name);
		} else {
			printf("active profile %s: no drift\n", p.name);
		}
		rc = n ? MDP_EXIT_PENDING : MDP_EXIT_OK;
	}
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	mdp_profile_free(&p);
out_j:
	mdp_journal_free(&j);
	return rc;
}
