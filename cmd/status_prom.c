/*
 * status --format prometheus: the node exporter's textfile-collector format,
 * for a cron job that writes it where node_exporter reads (docs/output.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "mdp_txn.h"
#include "status.h"
#include "mdp_base.h"
#include "mdp_md.h"

/*
 * The node_exporter textfile-collector format: HELP and TYPE once per
 * metric, then samples. Label values (names, sysfs values, the journal's
 * profile name) follow the JSON output's rule (text.h): a byte that is not
 * UTF-8 becomes U+FFFD there as in JSON; \\, \" and \n are escaped; other
 * control characters, which JSON escapes as \u00XX and this format cannot
 * escape, become U+FFFD too, so the file never carries them raw. Base units where
 * Prometheus has one (bytes, seconds); one metric per unit otherwise. A
 * sample that is not known is left out, never a -1 or 0 standing for it.
 */
void prom_head(const char *name, const char *help)
{
	printf("# HELP mdprofile_%s %s\n# TYPE mdprofile_%s gauge\n", name, help, name);
}

void prom_label(const char *k, const char *v, bool first)
{
	uint32_t cp;
	size_t n;

	printf("%s%s=\"", first ? "{" : ",", k);
	for (; *v; v += n ? n : 1) {
		n = mdp_utf8_next(v, &cp);
		if (n && (cp == '\\' || cp == '"'))
			printf("\\%c", (int)cp);
		else if (n && cp == '\n')
			fputs("\\n", stdout);
		else if (!n || !mdp_text_plain(cp))
			fputs("\xef\xbf\xbd", stdout);
		else
			fwrite(v, 1, n, stdout);
	}
	putchar('"');
}

/* ---- tunables: one metric per unit --------------------------------------------- */

/* One sample of a tunable's value in its base unit ("system" is no number: left out). */
static void prom_tunable(const char *metric, const struct mdp_change *c, const struct mdp_value *v)
{
	const struct mdp_unit *u = mdp_tunable_unit(c->t);
	char tok[64];

	if (!u || mdp_tunable_json(c->t, v, tok, sizeof(tok)) || tok[0] == '"' ||
	    v->kind != MDP_V_NUM || v->num > UINT64_MAX / u->prom_factor)
		return;
	printf("mdprofile_%s_%s", metric, u->prom_suffix);
	prom_label("target", c->dev[0] ? c->dev : "dev.raid", true);
	prom_label("tunable", mdp_tunable_info(c->t)->key, false);
	printf("} %" PRIu64 "\n", v->num * u->prom_factor);
}

/*
 * mdprofile_tunable_<unit> and mdprofile_tunable_profile_<unit>, each unit the
 * plan has, in the registry's unit table (src/md/tunable.c).
 */
static void prom_tunables(const struct mdp_plan *pl)
{
	const struct mdp_unit *u;
	char name[96], help[160];

	for (size_t k = 0; (u = mdp_unit(k)); k++) {
		bool any = false;
		for (size_t i = 0; i < pl->n; i++)
			any |= mdp_tunable_unit(pl->v[i].t) == u;
		if (!any)
			continue;
		snprintf(name, sizeof(name), "tunable_%s", u->prom_suffix);
		snprintf(help, sizeof(help), "a managed tunable's current value: %s", u->prom_help);
		prom_head(name, help);
		for (size_t i = 0; i < pl->n; i++)
			if (mdp_tunable_unit(pl->v[i].t) == u && pl->v[i].cur.present)
				prom_tunable("tunable", &pl->v[i], &pl->v[i].cur.val);
		snprintf(name, sizeof(name), "tunable_profile_%s", u->prom_suffix);
		snprintf(help, sizeof(help), "the value the active profile set: %s", u->prom_help);
		prom_head(name, help);
		for (size_t i = 0; i < pl->n; i++)
			if (mdp_tunable_unit(pl->v[i].t) == u)
				prom_tunable("tunable_profile", &pl->v[i], &pl->v[i].want);
	}
}

static void prom_layer(const char *role, const char *profile, enum mdp_origin by)
{
	printf("mdprofile_profile_layer");
	prom_label("role", role, true);
	prom_label("profile", profile, false);
	prom_label("by", mdp_origin_name(by), false);
	printf("} 1\n");
}

/* The active layers, the base first, with who applied each. */
static void prom_layers(const struct mdp_status *ps)
{
	prom_head("profile_layer",
		  "1 for each active layer: role base or overlay, by who applied it");
	if (ps->j.has_under)
		prom_layer("base", ps->j.under.profile, ps->j.under.by);
	prom_layer(ps->j.has_under ? "overlay" : "base", ps->j.profile, ps->j.by);
}

/* The running watcher's state as a 0/1 series per state; nothing when none runs. */
static void prom_watcher(const struct mdp_status *ps)
{
	static const char *const states[] = {"armed", "engaging", "engaged", "held"};

	if (!ps->have_w)
		return;
	prom_head("watcher_state", "1 for the state the running watcher (auto, until-idle) is in");
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		printf("mdprofile_watcher_state");
		prom_label("mode", mdp_origin_name(ps->w.mode), true);
		prom_label("profile", ps->w.profile, false);
		prom_label("state", states[i], false);
		printf("} %d\n", !strcmp(ps->w.state, states[i]));
	}
}

/* One series per array the goal steers: its minimum, or (max) its maximum where steered, in
 * bytes/s. */
static void prom_goal_each(const struct mdp_status *ps, const char *name, bool max)
{
	for (size_t i = 0; i < ps->goal.n; i++) {
		if (max && !ps->goal.v[i].max)
			continue; /* its maximum is not steered */
		printf("mdprofile_goal_%s", name);
		prom_label("array", ps->goal.v[i].name, true);
		prom_label("device", ps->goal.v[i].name, false);
		printf("} %" PRIu64 "\n",
		       max ? ps->goal.v[i].max * 1024 : ps->goal.v[i].min * 1024);
	}
}

/* A percentile goal: the percentile, and per array its timed reads' (watcher_goal.h). */
static void prom_goal_pct(const struct mdp_status *ps)
{
	char pct[8];

	if (!ps->goal.pct)
		return;
	prom_head("goal_percentile", "the percentile of the watcher's timed reads the goal steers");
	printf("mdprofile_goal_percentile %u\n", ps->goal.pct);
	prom_head("goal_read_latency_percentile_seconds",
		  "that percentile of the watcher's last timed reads of the array (up to 32)");
	snprintf(pct, sizeof(pct), "%u", ps->goal.pct);
	for (size_t i = 0; i < ps->goal.n; i++) {
		uint64_t us = ps->goal.v[i].pct_us;
		if (!ps->goal.v[i].pct_reads)
			continue; /* no reads in its window */
		printf("mdprofile_goal_read_latency_percentile_seconds");
		prom_label("array", ps->goal.v[i].name, true);
		prom_label("device", ps->goal.v[i].name, false);
		prom_label("percentile", pct, false);
		printf("} %" PRIu64 ".%06" PRIu64 "\n", us / 1000000, us % 1000000);
	}
}

/*
 * A goal the watcher steers to: the goal, and per array its limits, the
 * latency measured and whether the goal is missed with nothing left to give.
 */
static void prom_goal(const struct mdp_status *ps)
{
	if (!ps->have_goal)
		return;
	prom_head("goal_latency_seconds", "the foreground latency goal the watcher steers to");
	printf("mdprofile_goal_latency_seconds %u.%03u\n", ps->goal.goal_ms / 1000,
	       ps->goal.goal_ms % 1000);
	prom_head("goal_sync_speed_min_bytes_per_second",
		  "the minimum sync speed the goal gives each array now (md/sync_speed_min)");
	prom_goal_each(ps, "sync_speed_min_bytes_per_second", false);
	prom_head("goal_sync_speed_max_bytes_per_second",
		  "the maximum sync speed the goal gives each array whose maximum it steers "
		  "(md/sync_speed_max)");
	prom_goal_each(ps, "sync_speed_max_bytes_per_second", true);
	prom_head("goal_missed",
		  "1 while an array's foreground latency is over the goal with its limits at the "
		  "goal's floor: nothing left to give");
	for (size_t i = 0; i < ps->goal.n; i++) {
		printf("mdprofile_goal_missed");
		prom_label("array", ps->goal.v[i].name, true);
		prom_label("device", ps->goal.v[i].name, false);
		printf("} %d\n", ps->goal.v[i].spent);
	}
	prom_head("goal_foreground_latency_seconds",
		  "the mean time of a request over the watcher's last look, on the array or the "
		  "slowest array or partition sharing its disks (on); source md: its own counters, "
		  "members: its disks', the sync's included");
	for (size_t i = 0; i < ps->goal.n; i++) {
		uint64_t us = ps->goal.v[i].in.latency_us;
		if (ps->goal.v[i].in.kind != MDP_GOAL_LATENCY)
			continue; /* no request, or none measured yet: no latency to say */
		printf("mdprofile_goal_foreground_latency_seconds");
		prom_label("array", ps->goal.v[i].name, true);
		prom_label("device", ps->goal.v[i].name, false);
		prom_label("source", mdp_io_source_key(ps->goal.v[i].src), false);
		prom_label("on", ps->goal.v[i].on[0] ? ps->goal.v[i].on : ps->goal.v[i].name,
			   false);
		printf("} %" PRIu64 ".%06" PRIu64 "\n", us / 1000000, us % 1000000);
	}
	prom_goal_pct(ps);
}

static void prom_profile(const struct mdp_status *ps, const struct mdp_plan *pl)
{
	bool active = ps->state == MDP_PS_ACTIVE;

	prom_head("journal_readable",
		  "0 when status could not read mdprofile's journal (not root): what is active "
		  "is unknown");
	printf("mdprofile_journal_readable %d\n", !ps->unreadable);
	/* unknown is no series, never a 0 that says no profile is active */
	if (!ps->unreadable) {
		prom_head("profile_active", "1 while a profile applied by mdprofile is in force");
		printf("mdprofile_profile_active");
		prom_label("profile", active ? ps->j.profile : "", true);
		printf("} %d\n", active);
	}
	prom_watcher(ps);
	prom_goal(ps);
	if (!active)
		return;
	prom_layers(ps);
	if (ps->since) {
		prom_head("profile_since_timestamp_seconds", "when the active profile was applied");
		printf("mdprofile_profile_since_timestamp_seconds %" PRId64 "\n", ps->since);
	}
	if (ps->drift >= 0) {
		prom_head("drift_values", "values moved since the profile applied them");
		printf("mdprofile_drift_values %ld\n", ps->drift);
	}
	prom_head("service_paused", "1 for each service the active profile paused");
	for (size_t i = 0; i < ps->j.n_svc; i++)
		if (ps->j.svc[i].paused) {
			printf("mdprofile_service_paused");
			prom_label("service", ps->j.svc[i].name, true);
			printf("} 1\n");
		}
	if (pl)
		prom_tunables(pl);
}

/* ---- arrays ------------------------------------------------------------------ */

/* md/sync_action's words: one 0/1 series per array and word, whichever runs. */
static const char *const prom_actions[] = {"idle",  "resync", "recover", "reshape",
					   "check", "repair", "frozen"};

enum prom_metric {
	PM_RUNNING,
	PM_ACTION,
	PM_PROGRESS,
	PM_SPEED,
	PM_ETA,
	PM_MISSING,
	PM_COUNT,
};

static const struct {
	const char *name, *help;
} prom_metrics[PM_COUNT] = {
    [PM_RUNNING] = {"array_sync_running", "1 while md runs an operation (not one only queued)"},
    [PM_ACTION] =
	{"array_sync_action",
	 "1 for the operation md/sync_action names (running or queued), 0 for the others"},
    [PM_PROGRESS] = {"array_sync_progress_ratio",
		     "the running operation's progress, 0..1, as md truncates it"},
    [PM_SPEED] = {"array_sync_speed_bytes_per_second", "md/sync_speed"},
    [PM_ETA] = {"array_sync_eta_seconds", "time left at the current speed, while it is known"},
    [PM_MISSING] = {"array_missing_disks",
		    "raid disks without a working member (DSM's empty system-array bays are not)"},
};

struct prom_ctx {
	enum prom_metric m;
};

/* array and device: node_exporter's md metrics name the array device="md2". */
static void prom_array_labels(const char *metric, const struct mdp_array *a)
{
	printf("mdprofile_%s", metric);
	prom_label("array", a->name, true);
	prom_label("device", a->name, false);
}

static void prom_array(const struct mdp_system *s, const struct mdp_status_array *v, void *arg)
{
	enum prom_metric m = ((const struct prom_ctx *)arg)->m;
	const char *name = prom_metrics[m].name;
	const struct mdp_array *a = v->a;
	const char *act = a->sync_action[0] ? a->sync_action : "idle";
	bool run = v->running;

	(void)s;
	switch (m) {
	case PM_RUNNING:
		prom_array_labels(name, a);
		printf("} %d\n", run);
		break;
	case PM_ACTION:
		for (size_t i = 0; i < sizeof(prom_actions) / sizeof(prom_actions[0]); i++) {
			prom_array_labels(name, a);
			prom_label("action", prom_actions[i], false);
			printf("} %d\n", !strcmp(act, prom_actions[i]));
		}
		break;
	case PM_PROGRESS:
		if (run && a->has_progress && a->sync_total) {
			prom_array_labels(name, a);
			printf("} %.3f\n", a->permille / 1000.0);
		}
		break;
	case PM_SPEED:
		prom_array_labels(name, a);
		printf("} %" PRIu64 "\n", run ? a->sync_speed * 1024 : 0);
		break;
	case PM_ETA:
		if (run && v->eta) {
			prom_array_labels(name, a);
			printf("} %" PRIu64 "\n", v->eta);
		}
		break;
	case PM_MISSING:
		if (v->missing >= 0) {
			prom_array_labels(name, a);
			printf("} %d\n", v->missing);
		}
		break;
	default:
		break;
	}
}

/* Every array, those only /proc/mdstat lists too, metric by metric. */
static void prom_arrays(const struct mdp_system *s)
{
	struct mdp_status_array v;

	for (int m = 0; m < PM_COUNT; m++) {
		struct prom_ctx c = {(enum prom_metric)m};
		prom_head(prom_metrics[m].name, prom_metrics[m].help);
		for (size_t i = 0; i < s->n_arrays; i++) {
			mdp_status_array(s, &s->arrays[i], &v);
			prom_array(s, &v, &c);
		}
		mdp_status_each_mdstat_only(s, prom_array, &c);
	}
}

void status_prom(const struct mdp_system *s, const struct mdp_status *ps)
{
	struct mdp_plan pl;
	bool have_pl = ps->have_j && !ps->stale && !mdp_drift_plan(&ps->j, s, &pl);

	prom_profile(ps, have_pl ? &pl : NULL);
	prom_arrays(s);
	status_maint_prom(ps);
	if (have_pl)
		mdp_plan_free(&pl);
}
