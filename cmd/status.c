/*
 * status: arrays, their RAID operation with progress, speed and ETA, and
 * the active profile. Reads only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json.h"

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

static void status_json(struct json *j, const struct mdp_system *s, const struct mdp_journal *jr)
{
	json_obj(j);
	json_key(j, "arrays");
	json_arr(j);
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		json_obj(j);
		json_kstr(j, "name", a->name);
		json_kstr(j, "level", a->level_name);
		json_key(j, "raid_disks");
		json_i64(j, a->raid_disks);
		json_kstr(j, "uuid", a->uuid);
		json_kstr(j, "state", a->array_state);
		json_kstr(j, "sync_action", a->sync_action[0] ? a->sync_action : "idle");
		json_ku64(j, "done_sectors", a->has_progress ? a->sync_done : 0);
		json_ku64(j, "total_sectors", a->has_progress ? a->sync_total : 0);
		json_ku64(j, "speed_kib_s", a->sync_speed);
		json_ku64(j, "eta_seconds", eta_seconds(a));
		json_end(j);
	}
	json_end(j);
	json_kstr(j, "active_profile", jr && jr->state == MDP_J_ACTIVE ? jr->profile : NULL);
	json_key(j, "paused_services");
	json_arr(j);
	for (size_t i = 0; jr && jr->state == MDP_J_ACTIVE && i < jr->n_svc; i++)
		if (jr->svc[i].paused)
			json_str(j, jr->svc[i].name);
	json_end(j);
	json_ku64(j, "mem_total_kib", s->mem_total_kib);
	json_ku64(j, "mem_available_kib", s->mem_avail_kib);
	json_end(j);
}

/* The active profile and the services it paused (only those are resumed by revert). */
static void status_active_text(const struct mdp_journal *jr)
{
	size_t n = 0;

	printf("\nactive profile: %s\n", jr->profile);
	for (size_t i = 0; i < jr->n_svc; i++)
		if (jr->svc[i].paused)
			printf("%s%s", n++ ? ", " : "paused services: ", jr->svc[i].name);
	if (n)
		putchar('\n');
}

static int do_status(struct cli *cli)
{
	struct mdp_system s = {0};
	struct mdp_journal jr;
	struct json j;
	bool have_j;
	int rc;

	if ((rc = cli_discover(cli, 0, &s)))
		return rc;
	have_j = cli_journal_peek(cli, &jr);
	cli_warn_recover(cli);
	if (cli->json) {
		cli_json_begin(cli, &j);
		status_json(&j, &s, have_j ? &jr : NULL);
	} else {
		status_text(&s, cli->verbose > 0);
		if (have_j && jr.state == MDP_J_ACTIVE)
			status_active_text(&jr);
		else
			puts("\nno profile is active");
	}
	if (have_j)
		mdp_journal_free(&jr);
	mdp_system_free(&s);
	return MDP_EXIT_OK;
}

const struct cmd cmd_status = {
    "status", do_status, 0,        0,
    0,        0,         "status", "arrays, RAID operations with progress and ETA, active profile"};
