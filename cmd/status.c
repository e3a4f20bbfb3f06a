/*
 * status: the whole truth about each array (level, state, which members
 * failed, are missing or spare, the operation with md's own truncated
 * percent, speed and ETA, queued operations, stripe cache and read-ahead),
 * arrays only /proc/mdstat knows, then the active profile: since when,
 * what it paused, its drift, or that it was applied before the last
 * reboot. Reads only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "drift.h"
#include "json.h"
#include "watch.h"

/* The profile side of status, gathered once for text and JSON. */
struct pstatus {
	bool have_j;
	struct mdp_journal j;
	bool stale;      /* the journal is from an earlier boot */
	int64_t since;   /* journal mtime, 0 unknown */
	long drift;      /* values moved since apply; -1 unknown */
	size_t n_paused; /* services the profile paused and has not resumed */
};

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

/* mdstat's resync=DELAYED, PENDING, REMOTE as "delayed", "pending", "remote"; else "running". */
static const char *queue_state(const char *q)
{
	return !strcmp(q, "DELAYED")   ? "delayed"
	       : !strcmp(q, "PENDING") ? "pending"
	       : !strcmp(q, "REMOTE")  ? "remote"
				       : "running";
}

/* "running", "delayed", "pending", "remote" or "idle". */
static const char *op_state(const struct mdp_array *a)
{
	return busy(a) ? queue_state(a->sync_queued) : "idle";
}

/* Why md holds a queued operation back (md.c md_do_sync and md(4)). */
static const char *queued_why(const char *st)
{
	if (!strcmp(st, "delayed"))
		return " (waits for an array on the same disks)";
	if (!strcmp(st, "pending"))
		return " (starts at the first write)";
	return " (run by another node of the cluster)";
}

/* Raid disks missing: md/degraded, else mdstat's [n/m]; -1 unknown. */
static int missing_disks(const struct mdp_system *s, const struct mdp_array *a)
{
	const struct mdp_mdstat_array *ms = mdp_mdstat_find(&s->mdstat, a->name);

	if (a->degraded >= 0)
		return a->degraded;
	return ms && ms->raid_disks ? ms->raid_disks - ms->working : -1;
}

static bool member_is(const struct mdp_member *m, const char *word)
{
	return strstr(m->state, word) != NULL;
}

/* From dev-X/state where md has it, else mdstat's (F) and (S). */
static bool member_flag(const struct mdp_system *s, const struct mdp_array *a,
			const struct mdp_member *m, unsigned flag, const char *word)
{
	const struct mdp_mdstat_array *ms;

	if (m->state[0])
		return member_is(m, word);
	if (!(ms = mdp_mdstat_find(&s->mdstat, a->name)))
		return false;
	for (size_t i = 0; i < ms->n_members; i++) {
		if (!strcmp(ms->members[i].name, m->name))
			return (ms->members[i].flags & flag) != 0;
	}
	return false;
}

static void disks_text(int now, int was, char *buf, size_t len)
{
	if (was && was != now)
		snprintf(buf, len, "%d disks (was %d)", now, was);
	else
		snprintf(buf, len, "%d disks", now);
}

static void op_text(const struct mdp_array *a)
{
	char eta[32], keta[32];
	const char *st = op_state(a);

	if (!busy(a)) {
		puts(" idle");
		return;
	}
	if (strcmp(st, "running")) {
		printf(" %s %s%s\n", a->sync_action, st, queued_why(st));
		return;
	}
	printf(" %s", a->sync_action);
	if (a->has_progress && a->sync_total)
		printf(" %u.%u%%", a->permille / 10, a->permille % 10);
	if (a->sync_speed)
		printf(", %" PRIu64 " KiB/s", a->sync_speed);
	if (eta_seconds(a)) {
		fmt_eta(eta_seconds(a), eta, sizeof(eta));
		printf(", about %s left", eta);
		fmt_eta(a->kernel_eta_s, keta, sizeof(keta));
		if (a->kernel_eta_s && strcmp(eta, keta))
			printf(" (md says %s)", keta);
	}
	putchar('\n');
}

/* "       members: 3 of 4 working; sdd5 failed; sde5 spare" when anything is amiss. */
static void members_text(const struct mdp_system *s, const struct mdp_array *a)
{
	int missing = missing_disks(s, a);
	bool any = missing > 0;

	for (size_t i = 0; i < a->n_members; i++)
		any |= member_flag(s, a, &a->members[i], MDP_MS_FAULTY, "faulty") ||
		       member_flag(s, a, &a->members[i], MDP_MS_SPARE, "spare");
	if (!any)
		return;
	const char *sep = " ";

	printf("       members:");
	if (missing > 0 && a->raid_disks) {
		printf(" %d of %d working", a->raid_disks - missing, a->raid_disks);
		sep = "; ";
	}
	for (size_t i = 0; i < a->n_members; i++) {
		const struct mdp_member *m = &a->members[i];
		if (member_flag(s, a, m, MDP_MS_FAULTY, "faulty"))
			printf("%s%s failed", sep, m->name);
		else if (member_flag(s, a, m, MDP_MS_SPARE, "spare"))
			printf("%s%s spare", sep, m->name);
		else
			continue;
		sep = "; ";
	}
	putchar('\n');
}

/* Stripe cache with its memory, and read-ahead, through the registry's formatter. */
static void tuning_text(const struct mdp_array *a)
{
	const struct mdp_cur *sc = &a->cur[MDP_T_STRIPE_CACHE_SIZE];
	const struct mdp_cur *ra = &a->cur[MDP_T_READ_AHEAD_KB];
	char v[64], mem[32];

	if (!sc->present && !ra->present)
		return;
	printf("      ");
	if (sc->present) {
		mdp_tunable_show(MDP_T_STRIPE_CACHE_SIZE, &sc->val, v, sizeof(v));
		mdp_show_kib(mdp_plan_stripe_bytes(a, sc->val.num) / 1024, mem, sizeof(mem));
		printf(" stripe cache %s (%s)%s", v, mem, ra->present ? "," : "");
	}
	if (ra->present) {
		mdp_tunable_show(MDP_T_READ_AHEAD_KB, &ra->val, v, sizeof(v));
		printf(" read-ahead %s", v);
	}
	putchar('\n');
}

static void array_text(const struct mdp_system *s, const struct mdp_array *a, bool verbose)
{
	char disks[48], state[48];
	int missing = missing_disks(s, a);

	disks_text(a->raid_disks, a->prev_raid_disks, disks, sizeof(disks));
	snprintf(state, sizeof(state), "%s%s", a->array_state[0] ? a->array_state : "-",
		 missing > 0 ? ", degraded" : "");
	printf("%-6s %-7s %-15s  %-16s", a->name, a->level_name, disks, state);
	op_text(a);
	members_text(s, a);
	tuning_text(a);
	if (verbose && a->uuid[0])
		printf("       uuid %s (from %s)\n", a->uuid, a->uuid_source);
	else if (verbose)
		puts("       uuid unknown");
}

/* An array /proc/mdstat lists and /sys/block does not (a container, a restricted /sys). */
static void mdstat_only_text(const struct mdp_mdstat_array *ms)
{
	char disks[48], state[48];

	if (ms->raid_disks)
		disks_text(ms->raid_disks, 0, disks, sizeof(disks));
	else
		snprintf(disks, sizeof(disks), "%zu members", ms->n_members_all);
	snprintf(state, sizeof(state), "%s%s%s", ms->state, ms->ro[0] ? ", " : "", ms->ro);
	printf("%-6s %-7s %-15s  %-16s", ms->name, ms->level[0] ? ms->level : "-", disks, state);
	if (ms->op[0] && ms->op_state[0])
		printf(" %s %s\n", ms->op, ms->op_state);
	else if (ms->op[0])
		printf(" %s %u.%u%%, %" PRIu64 " KiB/s\n", ms->op, ms->permille / 10,
		       ms->permille % 10, ms->speed_kib);
	else
		puts(" idle");
	printf("       from /proc/mdstat only: sysfs has no md array by that name%s\n",
	       ms->container ? ": a metadata container" : "");
}

static void paused_text(const struct pstatus *ps, const char *head)
{
	size_t n = 0;

	if (!ps->n_paused)
		return;
	for (size_t i = 0; i < ps->j.n_svc; i++)
		if (ps->j.svc[i].paused)
			printf("%s%s", n++ ? ", " : head, ps->j.svc[i].name);
	putchar('\n');
}

static void profile_text(const struct pstatus *ps)
{
	char when[64] = "";
	struct tm tm;
	time_t t = (time_t)ps->since;

	if (!ps->have_j || ps->j.state == MDP_J_NONE) {
		puts("\nno profile is active");
		return;
	}
	if (ps->stale) {
		printf("\nprofile %s was applied before the last reboot: its values are gone\n",
		       ps->j.profile);
		paused_text(ps, "paused before the reboot (run 'mdprofile recover'): ");
		return;
	}
	if (ps->j.state != MDP_J_ACTIVE) {
		printf("\nprofile %s: a transaction was interrupted\n", ps->j.profile);
		return;
	}
	if (ps->since && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), " since %Y-%m-%d %H:%M UTC", &tm);
	printf("\nactive profile: %s%s%s\n", ps->j.profile, when,
	       ps->j.until_idle ? ", until md is idle (apply --until-idle reverts it then)" : "");
	paused_text(ps, "paused services: ");
	if (ps->drift == 0)
		puts("drift: none");
	else if (ps->drift > 0)
		printf("drift: %ld value%s changed since apply (see 'mdprofile drift')\n",
		       ps->drift, ps->drift == 1 ? "" : "s");
}

static void status_text(const struct mdp_system *s, const struct pstatus *ps, bool verbose)
{
	size_t shown = s->n_arrays;

	for (size_t i = 0; i < s->n_arrays; i++)
		array_text(s, &s->arrays[i], verbose);
	for (size_t i = 0; i < s->mdstat.n; i++) {
		if (!mdp_system_array(s, s->mdstat.arrays[i].name)) {
			mdstat_only_text(&s->mdstat.arrays[i]);
			shown++;
		}
	}
	if (!shown)
		puts("no md arrays found");
	profile_text(ps);
}

/* ---- JSON ------------------------------------------------------------------ */

static void tunable_json(struct json *j, const char *key, enum mdp_tunable t,
			 const struct mdp_cur *c)
{
	char v[64];

	json_key(j, key);
	if (c->present && !mdp_tunable_json(t, &c->val, v, sizeof(v)))
		json_raw(j, v);
	else
		json_null(j);
}

static void members_json(struct json *j, const struct mdp_system *s, const struct mdp_array *a)
{
	json_key(j, "members");
	json_arr(j);
	for (size_t i = 0; i < a->n_members; i++) {
		const struct mdp_member *m = &a->members[i];
		json_obj(j);
		json_kstr(j, "name", m->name);
		json_key(j, "slot");
		json_i64(j, m->slot);
		json_kstr(j, "state",
			  member_flag(s, a, m, MDP_MS_FAULTY, "faulty") ? "failed"
			  : member_flag(s, a, m, MDP_MS_SPARE, "spare") ? "spare"
									: "in_sync");
		json_end(j);
	}
	json_end(j);
}

static void op_json(struct json *j, const struct mdp_array *a)
{
	json_kstr(j, "sync_action", a->sync_action[0] ? a->sync_action : "idle");
	json_kstr(j, "sync_state", op_state(a));
	json_key(j, "progress_permille");
	json_u64(j, a->has_progress ? a->permille : 0);
	json_ku64(j, "done_sectors", a->has_progress ? a->sync_done : 0);
	json_ku64(j, "total_sectors", a->has_progress ? a->sync_total : 0);
	json_ku64(j, "speed_kib_s", a->sync_speed);
	json_ku64(j, "eta_seconds", eta_seconds(a));
	json_ku64(j, "kernel_eta_seconds", a->kernel_eta_s);
}

/* The fields every array object starts with, from sysfs or from mdstat. */
static void array_head_json(struct json *j, const char *name, const char *level, int disks,
			    int prev, int missing, const char *uuid, const char *state,
			    const char *source)
{
	json_obj(j);
	json_kstr(j, "name", name);
	json_kstr(j, "level", level);
	json_key(j, "raid_disks");
	json_i64(j, disks);
	json_key(j, "prev_raid_disks");
	json_i64(j, prev);
	json_key(j, "missing_disks");
	json_i64(j, missing);
	json_kstr(j, "uuid", uuid);
	json_kstr(j, "state", state);
	json_kstr(j, "source", source);
}

static void array_json(struct json *j, const struct mdp_system *s, const struct mdp_array *a)
{
	const struct mdp_cur *sc = &a->cur[MDP_T_STRIPE_CACHE_SIZE];

	array_head_json(j, a->name, a->level_name, a->raid_disks, a->prev_raid_disks,
			missing_disks(s, a), a->uuid, a->array_state, "sysfs");
	op_json(j, a);
	members_json(j, s, a);
	tunable_json(j, "stripe_cache_pages", MDP_T_STRIPE_CACHE_SIZE, sc);
	json_ku64(j, "stripe_cache_bytes", sc->present ? mdp_plan_stripe_bytes(a, sc->val.num) : 0);
	tunable_json(j, "read_ahead_kib", MDP_T_READ_AHEAD_KB, &a->cur[MDP_T_READ_AHEAD_KB]);
	json_end(j);
}

/* The same fields as a sysfs array's, from what /proc/mdstat shows. */
static void mdstat_only_json(struct json *j, const struct mdp_mdstat_array *ms)
{
	bool run = ms->op[0] && !ms->op_state[0];

	array_head_json(j, ms->name, ms->level, ms->raid_disks, 0,
			ms->raid_disks ? ms->raid_disks - ms->working : -1, "", ms->state,
			"mdstat");
	json_kstr(j, "sync_action", ms->op[0] ? ms->op : "idle");
	json_kstr(j, "sync_state", ms->op[0] ? queue_state(ms->op_state) : "idle");
	json_ku64(j, "progress_permille", run ? ms->permille : 0);
	json_ku64(j, "done_sectors", run ? ms->done * 2 : 0);
	json_ku64(j, "total_sectors", run ? ms->total * 2 : 0);
	json_ku64(j, "speed_kib_s", run ? ms->speed_kib : 0);
	json_ku64(j, "eta_seconds", 0);
	json_ku64(j, "kernel_eta_seconds", run ? (uint64_t)(ms->finish_min * 60.0 + 0.5) : 0);
	json_key(j, "members");
	json_arr(j);
	for (size_t i = 0; i < ms->n_members; i++) {
		unsigned f = ms->members[i].flags;
		json_obj(j);
		json_kstr(j, "name", ms->members[i].name);
		json_key(j, "slot");
		json_i64(j, -1); /* mdstat shows descriptor numbers, not roles */
		json_kstr(j, "state",
			  f & MDP_MS_FAULTY  ? "failed"
			  : f & MDP_MS_SPARE ? "spare"
					     : "in_sync");
		json_end(j);
	}
	json_end(j);
	json_kstr(j, "stripe_cache_pages", NULL);
	json_ku64(j, "stripe_cache_bytes", 0);
	json_kstr(j, "read_ahead_kib", NULL);
	json_end(j);
}

static void profile_json(struct json *j, const struct pstatus *ps)
{
	bool active = ps->have_j && ps->j.state == MDP_J_ACTIVE && !ps->stale;

	json_kstr(j, "active_profile", active ? ps->j.profile : NULL);
	json_kstr(j, "profile_state",
		  !ps->have_j || ps->j.state == MDP_J_NONE ? "none"
		  : ps->stale                              ? "stale"
		  : active                                 ? "active"
							   : "interrupted");
	json_kstr(j, "journal_profile", ps->have_j ? ps->j.profile : NULL);
	json_key(j, "since_epoch_s");
	if (active && ps->since)
		json_i64(j, ps->since);
	else
		json_null(j);
	json_kbool(j, "until_idle", ps->have_j && ps->j.until_idle);
	json_key(j, "paused_services");
	json_arr(j);
	for (size_t i = 0; active && i < ps->j.n_svc; i++)
		if (ps->j.svc[i].paused)
			json_str(j, ps->j.svc[i].name);
	json_end(j);
	json_key(j, "drift_values");
	if (active && ps->drift >= 0)
		json_i64(j, ps->drift);
	else
		json_null(j);
}

static void status_json(struct json *j, const struct mdp_system *s, const struct pstatus *ps)
{
	json_obj(j);
	json_key(j, "arrays");
	json_arr(j);
	for (size_t i = 0; i < s->n_arrays; i++)
		array_json(j, s, &s->arrays[i]);
	for (size_t i = 0; i < s->mdstat.n; i++)
		if (!mdp_system_array(s, s->mdstat.arrays[i].name))
			mdstat_only_json(j, &s->mdstat.arrays[i]);
	json_end(j);
	profile_json(j, ps);
	json_ku64(j, "mem_total_kib", s->mem_total_kib);
	json_ku64(j, "mem_available_kib", s->mem_avail_kib);
	json_end(j);
}

/* ---- the profile side ------------------------------------------------------ */

static void pstatus_read(struct cli *cli, const struct mdp_system *s, struct pstatus *ps)
{
	struct mdp_plan pl;

	memset(ps, 0, sizeof(*ps));
	ps->drift = -1;
	if (!(ps->have_j = cli_journal_peek(cli, &ps->j)))
		return;
	ps->stale = ps->j.boot_id[0] && s->boot_id[0] && strcmp(ps->j.boot_id, s->boot_id);
	for (size_t i = 0; i < ps->j.n_svc; i++)
		ps->n_paused += ps->j.svc[i].paused;
	if (ps->stale || ps->j.state != MDP_J_ACTIVE)
		return;
	if (mdp_journal_mtime(&cli->root, &ps->since))
		ps->since = 0;
	if (!mdp_drift_plan(&ps->j, s, &pl)) {
		ps->drift = (long)mdp_plan_pending(&pl);
		mdp_plan_free(&pl);
	}
}

/* ---- --format prometheus --------------------------------------------------- */

/*
 * The node_exporter textfile-collector format: HELP and TYPE once per
 * metric, then samples; label values are names that follow ident's rules,
 * escaped anyway. Units in the names, base units where Prometheus has one.
 */
static void prom_head(const char *name, const char *help)
{
	printf("# HELP mdprofile_%s %s\n# TYPE mdprofile_%s gauge\n", name, help, name);
}

static void prom_label(const char *k, const char *v, bool first)
{
	printf("%s%s=\"", first ? "{" : ",", k);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			putchar('\\');
		if (*v == '\n')
			fputs("\\n", stdout);
		else
			putchar(*v);
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
				   : k == 3 ? (double)eta_seconds(a)
					    : (double)missing_disks(s, a);
			prom_array_sample(m[k].name, a, k == 1, v);
		}
	}
}

static void status_prom(const struct mdp_system *s, const struct pstatus *ps)
{
	struct mdp_plan pl;
	bool have_pl = ps->have_j && !ps->stale && !mdp_drift_plan(&ps->j, s, &pl);

	prom_profile(ps, have_pl ? &pl : NULL);
	prom_arrays(s);
	if (have_pl)
		mdp_plan_free(&pl);
}

/* ---- status --watch ---------------------------------------------------------- */

/* What the last look showed of one array, to see what changed and to time progress. */
struct seen {
	char name[MDP_NAME_MAX];
	char key[96]; /* action, state, percent, health: a change prints a line */
	uint64_t done;
	double t;
	uint64_t rate; /* sectors per second between the last two looks, 0 unknown */
};

struct watcher {
	struct cli *cli;
	bool tty;
	struct seen *v;
	size_t n;
};

static struct seen *seen_of(struct watcher *w, const char *name)
{
	struct seen *v;

	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].name, name))
			return &w->v[i];
	if (!(v = realloc(w->v, (w->n + 1) * sizeof(*v))))
		return NULL;
	w->v = v;
	v = &v[w->n++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	return v;
}

/* Our ETA: the sectors left at the rate of the last interval (md's own is in --json). */
static uint64_t watch_eta(const struct mdp_array *a, const struct seen *sn)
{
	if (!a->has_progress || a->sync_done >= a->sync_total)
		return 0;
	if (sn && sn->rate)
		return (a->sync_total - a->sync_done) / sn->rate;
	return eta_seconds(a);
}

/* "md3 reshape 25.1%, 4687 KiB/s, about 3d 14h left" or "md2 clean, degraded, idle". */
static void watch_line(const struct mdp_system *s, const struct mdp_array *a, const struct seen *sn,
		       char *buf, size_t len)
{
	char eta[32] = "";
	int missing = missing_disks(s, a), n;

	n = snprintf(buf, len, "%s %s%s", a->name, a->array_state[0] ? a->array_state : "-",
		     missing > 0 ? ", degraded" : "");
	if (!busy(a) || strcmp(op_state(a), "running")) {
		snprintf(buf + n, len - (size_t)n, ", %s%s%s", busy(a) ? a->sync_action : "idle",
			 busy(a) ? " " : "", busy(a) ? op_state(a) : "");
		return;
	}
	if (watch_eta(a, sn))
		fmt_eta(watch_eta(a, sn), eta, sizeof(eta));
	snprintf(buf + n, len - (size_t)n, ", %s %u.%u%%, %" PRIu64 " KiB/s%s%s%s", a->sync_action,
		 a->permille / 10, a->permille % 10, a->sync_speed, eta[0] ? ", about " : "", eta,
		 eta[0] ? " left" : "");
}

/* Remember this look; true when what people care about changed. */
static bool watch_note(struct watcher *w, const struct mdp_system *s, const struct mdp_array *a)
{
	struct seen *sn = seen_of(w, a->name);
	double t = cli_mono_s();
	char key[96];
	bool changed;

	if (!sn)
		return false;
	snprintf(key, sizeof(key), "%s|%s|%s|%u|%d", a->array_state, a->sync_action, op_state(a),
		 a->permille, missing_disks(s, a));
	if (a->has_progress && sn->t > 0 && t > sn->t && a->sync_done > sn->done)
		sn->rate = (uint64_t)((double)(a->sync_done - sn->done) / (t - sn->t));
	else if (!a->has_progress)
		sn->rate = 0;
	sn->done = a->sync_done;
	sn->t = t;
	changed = strcmp(key, sn->key) != 0;
	snprintf(sn->key, sizeof(sn->key), "%s", key);
	return changed;
}

/* Not a tty: one timestamped line per array whose state or percent changed. */
static void watch_lines(struct watcher *w, const struct mdp_system *s)
{
	char stamp[32], line[256];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (size_t i = 0; i < s->n_arrays; i++) {
		if (!watch_note(w, s, &s->arrays[i]))
			continue;
		watch_line(s, &s->arrays[i], seen_of(w, s->arrays[i].name), line, sizeof(line));
		printf("%s %s\n", stamp, line);
	}
}

/* A tty: the whole status again, with a bar under each running operation. */
static void watch_screen(struct watcher *w, const struct mdp_system *s, const struct pstatus *ps)
{
	char stamp[32], line[256];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	printf("\033[H\033[2Jmdprofile status --watch   %s   (every %us and on md events; "
	       "Ctrl-C ends)\n\n",
	       stamp, w->cli->interval_ms / 1000);
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		int fill = (int)(a->permille * 40 / 1000);
		watch_note(w, s, a);
		watch_line(s, a, seen_of(w, a->name), line, sizeof(line));
		puts(line);
		if (busy(a) && !strcmp(op_state(a), "running"))
			printf("    [%.*s>%.*s]\n", fill,
			       "========================================", 39 - fill,
			       ".......................................");
	}
	profile_text(ps);
}

static int watch_show(struct watcher *w, const struct mdp_system *s)
{
	struct pstatus ps;

	pstatus_read(w->cli, s, &ps);
	if (w->tty)
		watch_screen(w, s, &ps);
	else
		watch_lines(w, s);
	fflush(stdout);
	if (ps.have_j)
		mdp_journal_free(&ps.j);
	return ferror(stdout) ? -EIO : 0;
}

static int watch_look(struct watcher *w, struct mdp_system *s)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_discover_some(&w->cli->root, MDP_SKIP_UUID | MDP_SKIP_ABSENT_SYSFS, s, &d);
	mdp_diags_free(&d); /* the first look printed them */
	return err ? err : watch_show(w, s);
}

/* Redraw on md events and every interval until killed (or stdout goes away). */
static int status_watch(struct cli *cli, struct mdp_system *s)
{
	struct watcher w = {.cli = cli, .tty = isatty(STDOUT_FILENO)};
	struct mdp_watch mw;
	int sig, err = 0, ev;

	if (!cli->interval_ms)
		cli->interval_ms = 5000;
	err = watch_show(&w, s);
	while (!err) {
		if ((err = mdp_watch_open(&cli->root, s, NULL, &mw)))
			break;
		ev = mdp_watch_wait(&mw, (int)cli->interval_ms, &sig);
		mdp_watch_close(&mw);
		mdp_system_free(s);
		err = ev < 0 ? ev : watch_look(&w, s);
	}
	free(w.v);
	if (err != -EIO)
		cli_err(cli, "status --watch stopped: %s", strerror(-err));
	return MDP_EXIT_FAILED;
}

/* Options that only make sense together. */
static int status_opts_ok(struct cli *cli)
{
	if (cli->interval_ms && !cli->watch)
		cli_err(cli, "--interval applies to 'status' only with --watch");
	else if (cli->watch && (cli->json || cli->format))
		cli_err(cli, "--watch draws text; --json and --format take one look");
	else
		return 0;
	return MDP_EXIT_USAGE;
}

static int do_status(struct cli *cli)
{
	struct mdp_system s = {0};
	struct pstatus ps;
	struct json j;
	int rc;

	if ((rc = status_opts_ok(cli)) || (rc = cli_discover(cli, MDP_SKIP_ABSENT_SYSFS, &s)))
		return rc;
	if (cli->watch) {
		rc = status_watch(cli, &s);
		mdp_system_free(&s);
		return rc;
	}
	pstatus_read(cli, &s, &ps);
	cli_warn_recover(cli);
	if (cli->format && !strcmp(cli->format, "prometheus")) {
		status_prom(&s, &ps);
	} else if (cli->json) {
		cli_json_begin(cli, &j);
		status_json(&j, &s, &ps);
	} else {
		status_text(&s, &ps, cli_detail(cli));
	}
	if (ps.have_j)
		mdp_journal_free(&ps.j);
	mdp_system_free(&s);
	return MDP_EXIT_OK;
}

const struct cmd cmd_status = {"status",
			       do_status,
			       0,
			       OPT_WATCH | OPT_INTERVAL | OPT_FORMAT,
			       0,
			       0,
			       "status [--watch [--interval S] | --format text|json|prometheus]",
			       "arrays, RAID operations with progress and ETA, active profile"};
