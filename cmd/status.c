/*
 * status: the whole truth about each array (level, state, which members
 * failed, are missing or spare, the operation with md's own truncated
 * percent, speed and ETA, queued operations, stripe cache and read-ahead),
 * arrays only /proc/mdstat knows, then the active profile: since when,
 * what it paused, its drift, or that it was applied before the last
 * reboot. Reads only. --format prometheus is in status_prom.c, --watch in
 * status_watch.c.
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
#include "render.h"
#include "status.h"

/* The helpers status.h declares. */
uint64_t status_eta_seconds(const struct mdp_array *a)
{
	if (!a->has_progress || !a->sync_speed || a->sync_done >= a->sync_total)
		return 0;
	return (a->sync_total - a->sync_done) / 2 / a->sync_speed;
}

void status_fmt_eta(uint64_t s, char *buf, size_t len)
{
	if (s >= 86400)
		snprintf(buf, len, "%" PRIu64 "d %" PRIu64 "h", s / 86400, s % 86400 / 3600);
	else if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 "h %" PRIu64 "m", s / 3600, s % 3600 / 60);
	else
		snprintf(buf, len, "%" PRIu64 "m", (s + 59) / 60);
}

bool status_busy(const struct mdp_array *a)
{
	return a->sync_action[0] && strcmp(a->sync_action, "idle");
}

/*
 * mdstat's resync=DELAYED, PENDING, REMOTE as "delayed", "pending",
 * "remote"; Synology's reshape=CLEANING UP as "cleaning_up"; else "running".
 */
static const char *queue_state(const char *q)
{
	return !strcmp(q, "DELAYED")       ? "delayed"
	       : !strcmp(q, "PENDING")     ? "pending"
	       : !strcmp(q, "REMOTE")      ? "remote"
	       : !strcmp(q, "CLEANING UP") ? "cleaning_up"
					   : "running";
}

/* "running", "delayed", "pending", "remote" or "idle". */
const char *status_op_state(const struct mdp_array *a)
{
	return status_busy(a) ? queue_state(a->sync_queued) : "idle";
}

/* Why md holds a queued operation back (md.c md_do_sync and md(4)). */
static const struct render_word queued_words[] = {
    {"delayed", " (waits for an array on the same disks)"},
    {"pending", " (starts at the first write)"},
    {"cleaning_up", " (DSM finishes the reshape)"},
    {NULL, NULL},
};

/*
 * Raid disks missing: md/degraded, else mdstat's [n/m]; -1 unknown. DSM's
 * empty bays on md0/md1 are not missing disks (discover.h, DSM facts).
 */
int status_missing_disks(const struct mdp_system *s, const struct mdp_array *a)
{
	const struct mdp_mdstat_array *ms = mdp_mdstat_find(&s->mdstat, a->name);

	if (a->degraded >= 0 || a->from_mdstat)
		return a->degraded;
	return ms && ms->raid_disks ? ms->raid_disks - ms->working : -1;
}

static void disks_text(const struct mdp_array *a, char *buf, size_t len)
{
	int now = a->raid_disks, was = a->prev_raid_disks;

	if (a->empty_bays)
		snprintf(buf, len, "%d of %d bays used", now - a->empty_bays, now);
	else if (was && was != now)
		snprintf(buf, len, "%d disk%s (was %d)", now, now == 1 ? "" : "s", was);
	else if (now || !a->from_mdstat)
		snprintf(buf, len, "%d disk%s", now, now == 1 ? "" : "s");
	else
		snprintf(buf, len, "%zu member%s", a->n_members, a->n_members == 1 ? "" : "s");
}

/*
 * More raid disks missing than the level survives: the array has failed
 * (md's own "broken" says so itself). Levels it cannot judge stay degraded.
 */
static bool too_many_missing(const struct mdp_array *a, int missing)
{
	int parity = !strcmp(a->level_name, "raid1")   ? a->raid_disks - 1
		     : !strcmp(a->level_name, "raid4") ? 1
		     : !strcmp(a->level_name, "raid5") ? 1
		     : !strcmp(a->level_name, "raid6") ? 2
						       : -1;

	return parity >= 0 && a->raid_disks > 0 && missing > parity;
}

/* The operation as people call it: a DSM data scrub is md's repair (discover.h). */
static const char *op_name(const struct mdp_system *s, const struct mdp_array *a)
{
	return s->dsm && !strcmp(a->sync_action, "repair") ? "data scrub (md repair)"
							   : a->sync_action;
}

static void op_text(const struct mdp_system *s, const struct mdp_array *a)
{
	char eta[32], keta[32], act[64];
	const char *st = status_op_state(a);

	render_safe(op_name(s, a), act, sizeof(act));

	if (!status_busy(a)) {
		puts(" idle");
		return;
	}
	if (strcmp(st, "running")) {
		printf(" %s %s%s\n", act, st,
		       render_word(queued_words, st, " (run by another node of the cluster)"));
		return;
	}
	printf(" %s", act);
	if (a->has_progress && a->sync_total)
		printf(" %u.%u%%", a->permille / 10, a->permille % 10);
	if (a->sync_speed)
		printf(", %" PRIu64 " KiB/s", a->sync_speed);
	if (status_eta_seconds(a)) {
		status_fmt_eta(status_eta_seconds(a), eta, sizeof(eta));
		printf(", about %s left", eta);
		status_fmt_eta(a->kernel_eta_s, keta, sizeof(keta));
		if (a->kernel_eta_s && strcmp(eta, keta))
			printf(" (md says %s)", keta);
	} else if (a->kernel_eta_s) {
		status_fmt_eta(a->kernel_eta_s, keta, sizeof(keta));
		printf(", md says %s left", keta);
	}
	putchar('\n');
}

/* What the members line says of m, or NULL when it is in sync (or a journal). */
static const char *member_word(const struct mdp_member *m)
{
	switch (m->mstate) {
	case MDP_M_FAILED:
		return m->disk_errors ? "failed (disk errors, (E))" : "failed";
	case MDP_M_SPARE:
		return "spare";
	case MDP_M_REBUILDING:
		return "spare rebuilding";
	default:
		return NULL;
	}
}

/* "       members: 3 of 4 working; sdd5 failed; sde5 spare" when anything is amiss. */
static void members_text(const struct mdp_system *s, const struct mdp_array *a)
{
	int missing = status_missing_disks(s, a);
	bool any = missing > 0;

	if (!strcmp(a->array_state, "inactive"))
		return; /* not started: every member shows as a spare */
	for (size_t i = 0; i < a->n_members; i++)
		any |= member_word(&a->members[i]) != NULL;
	if (!any)
		return;
	const char *sep = " ";
	char name[64];

	printf("       members:");
	if (missing > 0 && a->raid_disks) {
		printf(" %d of %d working", a->raid_disks - missing, a->raid_disks);
		sep = "; ";
	}
	for (size_t i = 0; i < a->n_members; i++) {
		const struct mdp_member *m = &a->members[i];
		const char *w = member_word(m);
		if (!w)
			continue;
		printf("%s%s %s", sep, render_safe(m->name, name, sizeof(name)), w);
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
	char disks[48], state[96], name[64], level[64], st[64], uuid[128], src[64];
	int missing = status_missing_disks(s, a);
	bool failed = false;

	for (size_t i = 0; i < a->n_members; i++)
		failed |= a->members[i].mstate == MDP_M_FAILED;
	disks_text(a, disks, sizeof(disks));
	snprintf(state, sizeof(state), "%s%s%s",
		 a->array_state[0] ? render_safe(a->array_state, st, sizeof(st)) : "-",
		 !strcmp(a->array_state, "broken") ? ""
		 : too_many_missing(a, missing)    ? ", failed"
		 : missing > 0                     ? ", degraded"
						   : "",
		 failed && missing <= 0 ? ", member failed" : "");
	printf("%-6s %-7s %-15s  %-16s", render_safe(a->name, name, sizeof(name)),
	       a->level_name[0] ? render_safe(a->level_name, level, sizeof(level)) : "-", disks,
	       state);
	op_text(s, a);
	members_text(s, a);
	tuning_text(a);
	if (a->from_mdstat) {
		const struct mdp_mdstat_array *ms = mdp_mdstat_find(&s->mdstat, a->name);
		printf("       from /proc/mdstat only: sysfs has no md array by that name%s\n",
		       ms && ms->container ? ": a metadata container" : "");
		return;
	}
	if (verbose && a->uuid[0])
		printf("       uuid %s (from %s)\n", render_safe(a->uuid, uuid, sizeof(uuid)),
		       render_safe(a->uuid_source, src, sizeof(src)));
	else if (verbose)
		puts("       uuid unknown");
}

size_t status_each_mdstat_only(const struct mdp_system *s,
			       void (*fn)(const struct mdp_system *, const struct mdp_array *,
					  void *),
			       void *arg)
{
	size_t n = 0;

	for (size_t i = 0; i < s->mdstat.n; i++) {
		struct mdp_array a;
		if (mdp_system_array(s, s->mdstat.arrays[i].name) ||
		    mdp_discover_from_mdstat(s, &s->mdstat.arrays[i], &a))
			continue;
		fn(s, &a, arg);
		free(a.members);
		n++;
	}
	return n;
}

static void mdstat_only_text(const struct mdp_system *s, const struct mdp_array *a, void *arg)
{
	array_text(s, a, *(const bool *)arg);
}

static void paused_text(const struct pstatus *ps, const char *head)
{
	size_t n = 0;
	char name[128];

	if (!ps->n_paused)
		return;
	for (size_t i = 0; i < ps->j.n_svc; i++)
		if (ps->j.svc[i].paused)
			printf("%s%s", n++ ? ", " : head,
			       render_safe(ps->j.svc[i].name, name, sizeof(name)));
	putchar('\n');
}

const char *status_origin_text(enum mdp_origin o)
{
	switch (o) {
	case MDP_BY_HAND:
		return "by hand";
	case MDP_BY_BOOT:
		return "at boot";
	case MDP_BY_ENABLE:
		return "by mdprofile enable";
	case MDP_BY_AUTO:
		return "by mdprofile auto";
	case MDP_BY_UNTIL_IDLE:
		return "by apply --until-idle";
	case MDP_BY_COMPARE:
		return "by bench --compare";
	case MDP_BY_PROBE:
		return "by explain --probe";
	default:
		return "by ?";
	}
}

static void fmt_when(int64_t since, char *buf, size_t len)
{
	time_t t = (time_t)since;
	struct tm tm;

	buf[0] = '\0';
	if (since > 0 && gmtime_r(&t, &tm))
		strftime(buf, len, " since %Y-%m-%d %H:%M UTC", &tm);
}

/* The base under an overlay, and the watcher, when there are. */
static void layers_text(const struct pstatus *ps)
{
	char when[64], name[160], why[256];

	if (ps->j.has_under) {
		fmt_when(ps->j.under.since, when, sizeof(when));
		printf("base profile: %s%s, applied %s (under the overlay; 'mdprofile revert' goes "
		       "back to it)\n",
		       render_safe(ps->j.under.profile, name, sizeof(name)), when,
		       status_origin_text(ps->j.under.by));
	}
	/* apply --until-idle's is said on the profile's line */
	if (!ps->have_w || ps->w.mode == MDP_BY_UNTIL_IDLE)
		return;
	fmt_when(ps->w.since, when, sizeof(when));
	printf("watcher: %s %s (pid %ld), %s%s", mdp_origin_name(ps->w.mode),
	       render_safe(ps->w.profile, name, sizeof(name)), ps->w.pid, ps->w.state, when);
	if (!strcmp(ps->w.state, "armed"))
		printf(", engages on %s\n", ps->w.on);
	else if (!strcmp(ps->w.state, "held"))
		printf(": %s; armed again when md is idle\n",
		       render_safe(ps->w.why, why, sizeof(why)));
	else if (!strcmp(ps->w.state, "engaging"))
		printf(": %s started; applying its profile (after any other mdprofile command)\n",
		       render_safe(ps->w.why, why, sizeof(why)));
	else
		putchar('\n');
}

/* md's speed now of an operation journaled at apply: false when it runs no longer. */
static bool speed_now(const struct pstatus *ps, const struct mdp_op_speed *sp, uint64_t *now)
{
	const struct mdp_array *a = ps->sys ? mdp_system_array(ps->sys, sp->dev) : NULL;

	if (!a || strcmp(a->sync_action, sp->action) || strcmp(status_op_state(a), "running"))
		return false;
	*now = a->sync_speed;
	return true;
}

/* "md3 reshape: 4687 KiB/s when reshape-fast was applied, 9374 KiB/s now"; "starting when"
   for md's 0 */
static void speeds_text(const struct pstatus *ps)
{
	char name[160], act[32];
	uint64_t now;

	for (size_t i = 0; i < ps->j.n_speed; i++) {
		const struct mdp_op_speed *sp = &ps->j.speed[i];
		printf("%s %s: ", sp->dev, render_safe(sp->action, act, sizeof(act)));
		/* md reads 0 in an operation's first seconds (auto engages then) */
		if (sp->kib_s)
			printf("%" PRIu64 " KiB/s when ", sp->kib_s);
		else
			printf("starting when ");
		printf("%s was applied", render_safe(ps->j.profile, name, sizeof(name)));
		if (speed_now(ps, sp, &now))
			printf(", %" PRIu64 " KiB/s now\n", now);
		else
			puts(", not running now");
	}
}

void status_profile_text(const struct pstatus *ps)
{
	char when[64] = "", name[160];
	struct tm tm;
	time_t t = (time_t)ps->since;

	if (ps->unreadable) {
		printf("\nactive profile: unknown: cannot read %s (%s)\n", MDP_JOURNAL,
		       ps->jerr == -EACCES ? "run status as root" : "see the warning above");
		if (ps->have_w)
			layers_text(ps);
		return;
	}
	if (!ps->have_j || ps->j.state == MDP_J_NONE) {
		puts("\nno profile is active");
		if (ps->have_w)
			layers_text(ps);
		return;
	}
	if (ps->stale) {
		printf("\nprofile %s was applied before the last reboot: its values are gone\n",
		       render_safe(ps->j.profile, name, sizeof(name)));
		paused_text(ps, "paused before the reboot (run 'mdprofile recover'): ");
		return;
	}
	if (ps->j.state != MDP_J_ACTIVE) {
		printf("\nprofile %s: a transaction was interrupted\n",
		       render_safe(ps->j.profile, name, sizeof(name)));
		return;
	}
	if (ps->since && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), " since %Y-%m-%d %H:%M UTC", &tm);
	printf(
	    "\nactive profile: %s%s%s%s%s\n", render_safe(ps->j.profile, name, sizeof(name)), when,
	    ps->j.by == MDP_BY_HAND || ps->j.by == MDP_BY_COMPARE ||
		    (ps->j.by == MDP_BY_UNTIL_IDLE && !ps->j.has_under)
		? ""
		: ", applied ",
	    ps->j.by == MDP_BY_HAND || ps->j.by == MDP_BY_COMPARE ||
		    (ps->j.by == MDP_BY_UNTIL_IDLE && !ps->j.has_under)
		? ""
		: status_origin_text(ps->j.by),
	    ps->j.by == MDP_BY_COMPARE
		? ", for bench --compare (reverted when it ends; if it was interrupted, "
		  "'mdprofile recover' reverts it)"
	    : !mdp_origin_watched(ps->j.by) ? ""
	    : ps->watch_gone
		? (ps->j.has_under ? ", but its watcher is gone (killed?): the next mutating "
				     "command, 'mdprofile recover' or 'revert', removes it"
		   : ps->j.by == MDP_BY_AUTO
		       ? ", but its watcher is gone (killed?): the next mutating "
			 "command, 'mdprofile recover' or 'revert', restores the values"
		       : ", applied with --until-idle but its watcher is gone (killed?): "
			 "the next mutating command, 'mdprofile recover' or 'revert', "
			 "restores the values")
	    : ps->j.by == MDP_BY_AUTO ? ", until md is idle (the watcher removes it then)"
				      : ", until md is idle (apply --until-idle reverts it then)");
	layers_text(ps);
	paused_text(ps, "paused services: ");
	speeds_text(ps);
	if (ps->drift == 0)
		puts("drift: none");
	else if (ps->drift > 0)
		printf("drift: %ld value%s changed since apply (see 'mdprofile diff')\n", ps->drift,
		       ps->drift == 1 ? "" : "s");
}

/* DSM's own resync speed setting beside the live limits (discover.h, DSM facts). */
static void dsm_speed_text(const struct mdp_system *s)
{
	char dsm[96], mn[32] = "?", mx[32] = "?";

	if (!render_dsm_speed(s, dsm, sizeof(dsm)))
		return;
	if (s->global[MDP_T_SPEED_LIMIT_MIN].present)
		mdp_tunable_show(MDP_T_SPEED_LIMIT_MIN, &s->global[MDP_T_SPEED_LIMIT_MIN].val, mn,
				 sizeof(mn));
	if (s->global[MDP_T_SPEED_LIMIT_MAX].present)
		mdp_tunable_show(MDP_T_SPEED_LIMIT_MAX, &s->global[MDP_T_SPEED_LIMIT_MAX].val, mx,
				 sizeof(mx));
	printf("\nspeed limits now: min %s, max %s; DSM's setting: %s\n", mn, mx, dsm);
}

static void status_text(const struct mdp_system *s, const struct pstatus *ps, bool verbose)
{
	size_t shown = s->n_arrays;

	for (size_t i = 0; i < s->n_arrays; i++)
		array_text(s, &s->arrays[i], verbose);
	shown += status_each_mdstat_only(s, mdstat_only_text, &verbose);
	if (!shown)
		puts("no md arrays found");
	dsm_speed_text(s);
	status_profile_text(ps);
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

static void members_json(struct json *j, const struct mdp_array *a)
{
	json_key(j, "members");
	json_arr(j);
	for (size_t i = 0; i < a->n_members; i++) {
		const struct mdp_member *m = &a->members[i];
		json_obj(j);
		json_kstr(j, "name", m->name);
		json_key(j, "slot");
		json_i64(j, m->slot);
		json_kstr(j, "state", mdp_mstate_name(m->mstate));
		json_end(j);
	}
	json_end(j);
}

static void op_json(struct json *j, const struct mdp_array *a)
{
	json_kstr(j, "sync_action", a->sync_action[0] ? a->sync_action : "idle");
	json_kstr(j, "sync_state", status_op_state(a));
	json_key(j, "progress_permille");
	json_u64(j, a->has_progress ? a->permille : 0);
	json_ku64(j, "done_sectors", a->has_progress ? a->sync_done : 0);
	json_ku64(j, "total_sectors", a->has_progress ? a->sync_total : 0);
	json_ku64(j, "speed_kib_s", a->sync_speed);
	json_ku64(j, "eta_seconds", status_eta_seconds(a));
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
			status_missing_disks(s, a), a->uuid, a->array_state,
			a->from_mdstat ? "mdstat" : "sysfs");
	json_key(j, "empty_bays");
	json_i64(j, a->empty_bays);
	op_json(j, a);
	members_json(j, a);
	tunable_json(j, "stripe_cache_pages", MDP_T_STRIPE_CACHE_SIZE, sc);
	json_ku64(j, "stripe_cache_bytes", sc->present ? mdp_plan_stripe_bytes(a, sc->val.num) : 0);
	tunable_json(j, "read_ahead_kib", MDP_T_READ_AHEAD_KB, &a->cur[MDP_T_READ_AHEAD_KB]);
	json_end(j);
}

static void mdstat_only_json(const struct mdp_system *s, const struct mdp_array *a, void *arg)
{
	array_json(arg, s, a);
}

/* DSM's resync speed setting beside the live limits; null off DSM or without the file. */
static void dsm_speed_json(struct json *j, const struct mdp_system *s)
{
	const struct mdp_dsm_speed *sp = &s->dsm_speed;

	json_key(j, "dsm_resync_speed");
	if (!sp->present) {
		json_null(j);
		return;
	}
	json_obj(j);
	json_kstr(j, "option", sp->option);
	tunable_json(j, "live_min_kib_s", MDP_T_SPEED_LIMIT_MIN, &s->global[MDP_T_SPEED_LIMIT_MIN]);
	tunable_json(j, "live_max_kib_s", MDP_T_SPEED_LIMIT_MAX, &s->global[MDP_T_SPEED_LIMIT_MAX]);
	json_key(j, "min_kib_s");
	sp->known ? json_u64(j, sp->min) : json_null(j);
	json_key(j, "max_kib_s");
	sp->known ? json_u64(j, sp->max) : json_null(j);
	json_end(j);
}

static void layer_json(struct json *j, const char *role, const char *profile, enum mdp_origin by,
		       int64_t since)
{
	json_obj(j);
	json_kstr(j, "role", role);
	json_kstr(j, "profile", profile);
	json_kstr(j, "by", mdp_origin_name(by));
	json_key(j, "since_epoch_s");
	if (since > 0)
		json_i64(j, since);
	else
		json_null(j);
	json_end(j);
}

/* "layers": the base first, then the overlay on it; [] when none is active. */
static void layers_json(struct json *j, const struct pstatus *ps, bool active)
{
	json_key(j, "layers");
	json_arr(j);
	if (active && ps->j.has_under)
		layer_json(j, "base", ps->j.under.profile, ps->j.under.by, ps->j.under.since);
	if (active)
		layer_json(j, ps->j.has_under ? "overlay" : "base", ps->j.profile, ps->j.by,
			   ps->since);
	json_end(j);
}

/* "watcher": what mdprofile auto or apply --until-idle does now; null when none runs. */
static void watcher_json(struct json *j, const struct pstatus *ps)
{
	char on[64], *save = NULL, *w;

	json_key(j, "watcher");
	if (!ps->have_w) {
		json_null(j);
		return;
	}
	json_obj(j);
	json_ku64(j, "pid", (uint64_t)ps->w.pid);
	json_kstr(j, "mode", mdp_origin_name(ps->w.mode));
	json_kstr(j, "profile", ps->w.profile);
	json_kstr(j, "state", ps->w.state);
	json_key(j, "since_epoch_s");
	json_i64(j, ps->w.since);
	json_key(j, "on");
	json_arr(j);
	snprintf(on, sizeof(on), "%s", ps->w.on);
	for (w = strtok_r(on, ",", &save); w; w = strtok_r(NULL, ",", &save))
		json_str(j, w);
	json_end(j);
	json_kstr(j, "why", ps->w.why[0] ? ps->w.why : NULL);
	json_end(j);
}

/* "op_speeds": each operation running at apply, md's speed then and now (null: ended). */
static void speeds_json(struct json *j, const struct pstatus *ps, bool active)
{
	uint64_t now;

	json_key(j, "op_speeds");
	json_arr(j);
	for (size_t i = 0; active && i < ps->j.n_speed; i++) {
		const struct mdp_op_speed *sp = &ps->j.speed[i];
		json_obj(j);
		json_kstr(j, "array", sp->dev);
		json_kstr(j, "action", sp->action);
		json_ku64(j, "applied_kib_s", sp->kib_s);
		json_key(j, "now_kib_s");
		if (speed_now(ps, sp, &now))
			json_u64(j, now);
		else
			json_null(j);
		json_end(j);
	}
	json_end(j);
}

static void profile_json(struct json *j, const struct pstatus *ps)
{
	bool active = ps->have_j && ps->j.state == MDP_J_ACTIVE && !ps->stale;

	json_kstr(j, "active_profile", active ? ps->j.profile : NULL);
	json_kstr(j, "profile_state",
		  ps->unreadable                             ? "unknown"
		  : !ps->have_j || ps->j.state == MDP_J_NONE ? "none"
		  : ps->stale                                ? "stale"
		  : active                                   ? "active"
							     : "interrupted");
	json_kstr(j, "journal_profile", ps->have_j ? ps->j.profile : NULL);
	json_key(j, "since_epoch_s");
	if (active && ps->since)
		json_i64(j, ps->since);
	else
		json_null(j);
	json_kbool(j, "until_idle", ps->have_j && ps->j.by == MDP_BY_UNTIL_IDLE);
	layers_json(j, ps, active);
	watcher_json(j, ps);
	json_key(j, "paused_services");
	json_arr(j);
	for (size_t i = 0; active && i < ps->j.n_svc; i++)
		if (ps->j.svc[i].paused)
			json_str(j, ps->j.svc[i].name);
	json_end(j);
	speeds_json(j, ps, active);
	json_key(j, "drift_values");
	if (active && ps->drift >= 0)
		json_i64(j, ps->drift);
	else
		json_null(j);
}

static void status_json(struct cli *cli, struct json *j, const struct mdp_system *s,
			const struct pstatus *ps)
{
	json_obj(j);
	json_key(j, "arrays");
	json_arr(j);
	for (size_t i = 0; i < s->n_arrays; i++)
		array_json(j, s, &s->arrays[i]);
	status_each_mdstat_only(s, mdstat_only_json, j);
	json_end(j);
	profile_json(j, ps);
	enable_status(cli, j, false); /* "enabled": enable.c */
	json_ku64(j, "mem_total_kib", s->mem_total_kib);
	json_ku64(j, "mem_available_kib", s->mem_avail_kib);
	dsm_speed_json(j, s);
	json_end(j);
}

/* ---- the profile side ------------------------------------------------------ */

void status_profile_read(struct cli *cli, const struct mdp_system *s, struct pstatus *ps)
{
	struct mdp_plan pl;
	int err;

	memset(ps, 0, sizeof(*ps));
	ps->drift = -1;
	ps->sys = s;
	/* The watcher's word, only while it lives (holds its lock). */
	ps->have_w = mdp_watcher_probe(&cli->root) == 1 && !mdp_wstate_load(&cli->root, &ps->w);
	err = cli_journal_read(cli, &ps->j);
	ps->unreadable = err && err != -ENOENT && err != -EBADMSG;
	ps->jerr = err;
	if (!(ps->have_j = !err))
		return;
	ps->stale = ps->j.boot_id[0] && s->boot_id[0] && strcmp(ps->j.boot_id, s->boot_id);
	for (size_t i = 0; i < ps->j.n_svc; i++)
		ps->n_paused += ps->j.svc[i].paused;
	if (ps->stale || ps->j.state != MDP_J_ACTIVE)
		return;
	if (mdp_journal_mtime(&cli->root, &ps->since))
		ps->since = 0;
	/* The watcher holds the lock as long as it lives (apply.c). */
	ps->watch_gone = mdp_origin_watched(ps->j.by) && mdp_watcher_probe(&cli->root) == 0;
	if (!mdp_drift_plan(&ps->j, s, &pl)) {
		ps->drift = (long)mdp_plan_pending(&pl);
		mdp_plan_free(&pl);
	}
}

/* status's options. */
struct status_opts {
	bool watch;           /* --watch: redraw on md events and every interval */
	unsigned interval_ms; /* --interval of --watch; 0: 5 s */
	const char *format;   /* --format: "text", "json" or "prometheus"; NULL: text */
};

/* --format json is --json too. */
static const char *take_format(void *opts, void *cli, const char *arg)
{
	if (strcmp(arg, "text") && strcmp(arg, "json") && strcmp(arg, "prometheus"))
		return "expected text, json or prometheus";
	((struct status_opts *)opts)->format = arg;
	((struct cli *)cli)->json = !strcmp(arg, "json") || ((struct cli *)cli)->json;
	return NULL;
}

static const struct opt status_opts[] = {
    OPT_FLAG("watch", 0, struct status_opts, watch, "redraw on md's events and every --interval"),
    OPT_INTERVAL("interval", struct status_opts, interval_ms,
		 "redraw every S seconds as well (default 5)"),
    OPT_CUSTOM("format", 0, "text|json|prometheus", take_format,
	       "one look as text, as JSON (--json) or in the node exporter's textfile format"),
};

static const struct opt_pair status_excl[] = {
    {"watch", "json", "--watch draws text; --json and --format take one look"},
    {"watch", "format", "--watch draws text; --json and --format take one look"},
    {NULL, NULL, NULL},
};

static const struct opt_pair status_requires[] = {
    {"interval", "watch", NULL},
    {NULL, NULL, NULL},
};

static const struct opt_table status_table =
    OPT_TABLE(status_opts, struct status_opts, NULL, status_excl, status_requires);

static bool status_prom_asked(const struct cli *cli)
{
	const struct status_opts *o = cli->opts;

	return o->format && !strcmp(o->format, "prometheus");
}

/* --json and a --format other than json (the table refuses the pairs that never go together). */
static int status_opts_ok(struct cli *cli)
{
	const struct status_opts *o = cli->opts;

	if (cli->json && o->format && strcmp(o->format, "json")) {
		/* --json means one JSON document, whatever the command (issue 37) */
		cli_err(cli, "--json and --format %s: choose one", o->format);
		return MDP_EXIT_USAGE;
	}
	return 0;
}

static int do_status(struct cli *cli)
{
	struct mdp_system s = {0};
	struct pstatus ps;
	struct json j;
	int rc;

	if ((rc = cli_discover(cli, MDP_SKIP_ABSENT_SYSFS, &s)))
		return rc;
	if (((const struct status_opts *)cli->opts)->watch) {
		rc = status_watch(cli, &s, ((const struct status_opts *)cli->opts)->interval_ms);
		mdp_system_free(&s);
		return rc;
	}
	status_profile_read(cli, &s, &ps);
	cli_warn_recover(cli);
	if (status_prom_asked(cli)) {
		status_prom(&s, &ps);
	} else if (cli->json) {
		cli_json_begin(cli, &j);
		status_json(cli, &j, &s, &ps);
	} else {
		status_text(&s, &ps, cli_detail(cli));
	}
	if (!cli->json)
		enable_status(cli, NULL, status_prom_asked(cli)); /* enabled at boot: enable.c */
	if (ps.have_j)
		mdp_journal_free(&ps.j);
	mdp_system_free(&s);
	return MDP_EXIT_OK;
}

const struct cmd cmd_status = {
    .name = "status",
    .fn = do_status,
    .opts = &status_table,
    .summary = "arrays, RAID operations with progress and ETA, active profile",
    .check = status_opts_ok,
};
