/*
 * status --format prometheus: the node exporter's textfile-collector format,
 * for a cron job that writes it where node_exporter reads (docs/output.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "drift.h"
#include "status.h"
#include "text.h"
#include "watch.h"

/*
 * The node_exporter textfile-collector format: HELP and TYPE once per
 * metric, then samples; label values (names, sysfs values, the journal's
 * profile name) escaped, always valid UTF-8 (text.h). Units in the names,
 * base units where Prometheus has one.
 */
static void prom_head(const char *name, const char *help)
{
	printf("# HELP mdprofile_%s %s\n# TYPE mdprofile_%s gauge\n", name, help, name);
}

/* A label value: \\, \" and \n escaped; other controls and bytes that are not UTF-8 U+FFFD. */
static void prom_label(const char *k, const char *v, bool first)
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
		else if (!n || cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			fputs("\xef\xbf\xbd", stdout);
		else
			fwrite(v, 1, n, stdout);
	}
	putchar('"');
}

/* One sample of a tunable's value, through the registry's JSON token ("system" is no number). */
static void prom_tunable(const char *metric, const struct mdp_change *c, const struct mdp_value *v)
{
	char tok[64];

	if (mdp_tunable_json(c->t, v, tok, sizeof(tok)) || tok[0] == '"')
		return;
	printf("mdprofile_%s", metric);
	prom_label("target", c->dev[0] ? c->dev : "dev.raid", true);
	prom_label("tunable", mdp_tunable_info(c->t)->key, false);
	prom_label("unit", mdp_tunable_info(c->t)->unit, false);
	printf("} %s\n", tok);
}

static void prom_profile(const struct pstatus *ps, const struct mdp_plan *pl)
{
	bool active = ps->have_j && ps->j.state == MDP_J_ACTIVE && !ps->stale;

	prom_head("profile_active", "1 while a profile applied by mdprofile is in force");
	printf("mdprofile_profile_active");
	prom_label("profile", active ? ps->j.profile : "", true);
	printf("} %d\n", active);
	if (!active)
		return;
	prom_head("profile_since_timestamp_seconds", "when the active profile was applied");
	printf("mdprofile_profile_since_timestamp_seconds %" PRId64 "\n", ps->since);
	prom_head("drift_values", "values moved since the profile applied them");
	printf("mdprofile_drift_values %ld\n", ps->drift);
	prom_head("service_paused", "1 for each service the active profile paused");
	for (size_t i = 0; i < ps->j.n_svc; i++)
		if (ps->j.svc[i].paused) {
			printf("mdprofile_service_paused");
			prom_label("service", ps->j.svc[i].name, true);
			printf("} 1\n");
		}
	prom_head("tunable_value", "a managed tunable's current value, in its unit");
	for (size_t i = 0; pl && i < pl->n; i++)
		if (pl->v[i].cur.present)
			prom_tunable("tunable_value", &pl->v[i], &pl->v[i].cur.val);
	prom_head("tunable_profile_value", "the value the active profile set, in its unit");
	for (size_t i = 0; pl && i < pl->n; i++)
		prom_tunable("tunable_profile_value", &pl->v[i], &pl->v[i].want);
}

static void prom_array_sample(const char *metric, const struct mdp_array *a, bool ratio, double v)
{
	printf("mdprofile_%s", metric);
	prom_label("array", a->name, true);
	if (!ratio && !strcmp(metric, "array_sync_running")) /* the action names the series once */
		prom_label("action", a->sync_action[0] ? a->sync_action : "idle", false);
	if (ratio)
		printf("} %.3f\n", v);
	else
		printf("} %.0f\n", v);
}

static void prom_arrays(const struct mdp_system *s)
{
	static const struct {
		const char *name, *help;
	} m[] = {
	    {"array_sync_running", "1 while md runs an operation (not one only queued)"},
	    {"array_sync_progress_ratio", "the operation's progress, 0..1, as md truncates it"},
	    {"array_sync_speed_bytes_per_second", "md/sync_speed"},
	    {"array_sync_eta_seconds", "time left at the current speed"},
	    {"array_missing_disks", "raid disks without a working member"},
	};

	for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		prom_head(m[k].name, m[k].help);
		for (size_t i = 0; i < s->n_arrays; i++) {
			const struct mdp_array *a = &s->arrays[i];
			double v = k == 0   ? mdp_watch_running(a)
				   : k == 1 ? a->permille / 1000.0
				   : k == 2 ? (double)a->sync_speed * 1024.0
				   : k == 3 ? (double)status_eta_seconds(a)
					    : (double)status_missing_disks(s, a);
			prom_array_sample(m[k].name, a, k == 1, v);
		}
	}
}

void status_prom(const struct mdp_system *s, const struct pstatus *ps)
{
	struct mdp_plan pl;
	bool have_pl = ps->have_j && !ps->stale && !mdp_drift_plan(&ps->j, s, &pl);

	prom_profile(ps, have_pl ? &pl : NULL);
	prom_arrays(s);
	if (have_pl)
		mdp_plan_free(&pl);
}
