/*
 * status_goal: what status shows of a goal the watcher steers to
 * (watcher_goal.h): in text, JSON and Prometheus, per array its minimum,
 * its maximum when the goal steers it, the last look's foreground latency
 * with the counters it came from, and a goal missed with nothing left to
 * give.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "render.h"
#include "status.h"

/*
 * "latency 42.0 ms (md3's own counters)", "latency 42.0 ms on md0 (shares
 * sda, sdb)", "no foreground I/O", "not measured yet".
 */
static void measured(const struct mdp_status *ps, size_t i, char *buf, size_t len)
{
	uint64_t us = ps->goal.v[i].in.latency_us;
	char shares[2 * MDP_IO_SHARES_MAX];

	if (ps->goal.v[i].in.kind == MDP_GOAL_LATENCY && ps->goal.v[i].on[0]) {
		mdp_iostat_shares_text(ps->goal.v[i].shares, shares, sizeof(shares));
		snprintf(buf, len, "latency %" PRIu64 ".%" PRIu64 " ms on %s (shares %s)",
			 us / 1000, us % 1000 / 100, ps->goal.v[i].on, shares);
	} else if (ps->goal.v[i].in.kind == MDP_GOAL_LATENCY && ps->goal.v[i].src == MDP_IO_TIMED &&
		   ps->goal.pct && ps->goal.v[i].pct_reads) {
		snprintf(buf, len,
			 "latency %" PRIu64 ".%" PRIu64
			 " ms (p%u of the watcher's last %u timed reads)",
			 us / 1000, us % 1000 / 100, ps->goal.pct, ps->goal.v[i].pct_reads);
	} else if (ps->goal.v[i].in.kind == MDP_GOAL_IDLE)
		snprintf(buf, len, "no foreground I/O");
	else if (ps->goal.v[i].in.kind != MDP_GOAL_LATENCY)
		snprintf(buf, len, "not measured yet");
	else if (ps->goal.v[i].src == MDP_IO_MD)
		snprintf(buf, len, "latency %" PRIu64 ".%" PRIu64 " ms (%s's own counters)",
			 us / 1000, us % 1000 / 100, ps->goal.v[i].name);
	else
		snprintf(buf, len, "latency %" PRIu64 ".%" PRIu64 " ms (%s)", us / 1000,
			 us % 1000 / 100, mdp_io_source_text(ps->goal.v[i].src));
}

void status_goal_text(const struct mdp_status *ps)
{
	char what[3 * MDP_IO_SHARES_MAX], max[48];

	if (!ps->have_goal)
		return;
	if (ps->goal.pct)
		printf("goal: foreground latency %u ms at the %uth percentile, steered by the "
		       "watcher\n",
		       ps->goal.goal_ms, ps->goal.pct);
	else
		printf("goal: foreground latency %u ms, steered by the watcher\n",
		       ps->goal.goal_ms);
	for (size_t i = 0; i < ps->goal.n; i++) {
		measured(ps, i, what, sizeof(what));
		max[0] = '\0';
		if (ps->goal.v[i].max)
			snprintf(max, sizeof(max), ", maximum %" PRIu64 " KiB/s",
				 ps->goal.v[i].max);
		render_say(4, "  %s: minimum %" PRIu64 " KiB/s%s; last look: %s",
			   ps->goal.v[i].name, ps->goal.v[i].min, max, what);
		if (ps->goal.v[i].spent)
			render_say(4,
				   "  %s: goal missed with nothing left to give: its limits are at "
				   "the goal's floor",
				   ps->goal.v[i].name);
	}
}

/* Whose latency steers: "on" (the array's own name, a peer's, null unmeasured) and "shares". */
static void goal_on_json(struct json *j, const struct mdp_status *ps, size_t i)
{
	char shares[MDP_IO_SHARES_MAX], *save = NULL;
	bool measured = ps->goal.v[i].in.kind == MDP_GOAL_LATENCY;

	json_kstr(j, "on",
		  !measured             ? NULL
		  : ps->goal.v[i].on[0] ? ps->goal.v[i].on
					: ps->goal.v[i].name);
	json_key(j, "shares");
	json_arr(j);
	snprintf(shares, sizeof(shares), "%s", measured ? ps->goal.v[i].shares : "");
	for (char *d = strtok_r(shares, ",", &save); d; d = strtok_r(NULL, ",", &save))
		json_str(j, d);
	json_end(j);
}

void status_goal_json(struct json *j, const struct mdp_status *ps)
{
	json_key(j, "goal");
	if (!ps->have_goal) {
		json_null(j);
		return;
	}
	json_obj(j);
	json_ku64(j, "foreground_latency_ms", ps->goal.goal_ms);
	json_key(j, "percentile");
	if (ps->goal.pct)
		json_u64(j, ps->goal.pct);
	else
		json_null(j);
	json_key(j, "arrays");
	json_arr(j);
	for (size_t i = 0; i < ps->goal.n; i++) {
		json_obj(j);
		json_kstr(j, "array", ps->goal.v[i].name);
		json_ku64(j, "sync_speed_min_kib_s", ps->goal.v[i].min);
		json_key(j, "sync_speed_max_kib_s");
		if (ps->goal.v[i].max)
			json_u64(j, ps->goal.v[i].max);
		else
			json_null(j);
		json_kbool(j, "missed_at_floor", ps->goal.v[i].spent);
		json_kstr(j, "foreground",
			  ps->goal.v[i].in.kind == MDP_GOAL_LATENCY ? "measured"
			  : ps->goal.v[i].in.kind == MDP_GOAL_IDLE  ? "idle"
								    : "unknown");
		json_key(j, "latency_us");
		if (ps->goal.v[i].in.kind == MDP_GOAL_LATENCY)
			json_u64(j, ps->goal.v[i].in.latency_us);
		else
			json_null(j);
		json_kstr(j, "source",
			  ps->goal.v[i].src == MDP_IO_NONE ? NULL
							   : mdp_io_source_key(ps->goal.v[i].src));
		goal_on_json(j, ps, i);
		json_key(j, "percentile_us");
		if (ps->goal.v[i].pct_reads)
			json_u64(j, ps->goal.v[i].pct_us);
		else
			json_null(j);
		json_ku64(j, "percentile_reads", ps->goal.v[i].pct_reads);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}
