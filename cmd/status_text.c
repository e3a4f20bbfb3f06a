/*
 * status as text: the whole truth about each array (level, state, which
 * members failed, are missing or spare, the operation with md's own
 * truncated percent, speed and ETA, queued operations, stripe cache and
 * read-ahead), arrays only /proc/mdstat knows, then the active profile:
 * since when, what it paused, its drift, or that it was applied before the
 * last reboot. What it says comes from the model in src/status/status_model.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "opt.h"
#include "render.h"
#include "status.h"

/* Why md holds a queued operation back (md.c md_do_sync and md(4)). */
static const struct render_word queued_words[] = {
    {"delayed", " (waits for an array on the same disks)"},
    {"pending", " (starts at the first write)"},
    {"cleaning_up", " (DSM finishes the reshape)"},
    {NULL, NULL},
};

/* "4 disks", "4 hdd disks": the count, with the disks' class when it is known. */
static void disks_text(const struct mdp_status_array *v, char *buf, size_t len)
{
	const struct mdp_array *a = v->a;
	int now = a->raid_disks, was = a->prev_raid_disks;
	char cls[8] = "";

	if (v->media)
		snprintf(cls, sizeof(cls), "%s ", v->media);
	if (a->empty_bays)
		snprintf(buf, len, "%d of %d bays used", now - a->empty_bays, now);
	else if (was && was != now)
		snprintf(buf, len, "%d %sdisk%s (was %d)", now, cls, now == 1 ? "" : "s", was);
	else if (now || !a->from_mdstat)
		snprintf(buf, len, "%d %sdisk%s", now, cls, now == 1 ? "" : "s");
	else
		snprintf(buf, len, "%zu member%s", a->n_members, a->n_members == 1 ? "" : "s");
}

/*
 * The operation as people call it: md's word, on DSM Storage Manager's
 * beside it ("Data scrubbing (md repair)", mdp_dsm_op_word).
 */
static const char *op_name(const struct mdp_system *s, const struct mdp_array *a, char *buf,
			   size_t len)
{
	const char *w = s->dsm ? mdp_dsm_op_word(a->sync_action) : NULL;

	if (!w)
		return a->sync_action;
	snprintf(buf, len, "%s (md %s)", w, a->sync_action);
	return buf;
}

/* The operation of a, "reshape 25.1%, 4687 KiB/s, about 3d 14h left", in buf. */
static void op_text(const struct mdp_system *s, const struct mdp_status_array *v, char *buf,
		    size_t len)
{
	const struct mdp_array *a = v->a;
	const char *st = v->op_state;
	char eta[32], keta[32], act[64], name[64];
	size_t n;

	render_safe(op_name(s, a, name, sizeof(name)), act, sizeof(act));
	if (!v->busy) {
		snprintf(buf, len, "idle");
		return;
	}
	if (strcmp(st, "running")) {
		snprintf(buf, len, "%s %s%s", act, st,
			 render_word(queued_words, st, " (run by another node of the cluster)"));
		return;
	}
	n = (size_t)snprintf(buf, len, "%s", act);
	if (a->has_progress && a->sync_total && n < len)
		n += (size_t)snprintf(buf + n, len - n, " %u.%u%%", a->permille / 10,
				      a->permille % 10);
	if (a->sync_speed && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", %" PRIu64 " KiB/s", a->sync_speed);
	if (v->eta && n < len) {
		status_fmt_eta(v->eta, eta, sizeof(eta));
		status_fmt_eta(a->kernel_eta_s, keta, sizeof(keta));
		if (a->kernel_eta_s && strcmp(eta, keta))
			snprintf(buf + n, len - n, ", about %s left (md says %s)", eta, keta);
		else
			snprintf(buf + n, len - n, ", about %s left", eta);
	} else if (a->kernel_eta_s && n < len) {
		status_fmt_eta(a->kernel_eta_s, keta, sizeof(keta));
		snprintf(buf + n, len - n, ", md says %s left", keta);
	}
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
static void members_text(const struct mdp_status_array *v)
{
	const struct mdp_array *a = v->a;
	int missing = v->missing;
	bool any = missing > 0;

	if (!strcmp(a->array_state, "inactive"))
		return; /* not started: every member shows as a spare */
	for (size_t i = 0; i < a->n_members; i++)
		any |= member_word(&a->members[i]) != NULL;
	if (!any)
		return;
	const char *sep = " ";
	char name[64], line[2048] = "";
	size_t n = 0;

	if (missing > 0 && a->raid_disks) {
		n = (size_t)snprintf(line, sizeof(line), " %d of %d working",
				     a->raid_disks - missing, a->raid_disks);
		sep = "; ";
	}
	for (size_t i = 0; i < a->n_members && n < sizeof(line); i++) {
		const struct mdp_member *m = &a->members[i];
		const char *w = member_word(m);
		if (!w)
			continue;
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s %s", sep,
				      render_safe(m->name, name, sizeof(name)), w);
		sep = "; ";
	}
	render_say(16, "       members:%s", line);
}

/* Stripe cache with its memory, and read-ahead, through the registry's formatter. */
static void tuning_text(const struct mdp_status_array *v)
{
	const struct mdp_cur *sc = &v->a->cur[MDP_T_STRIPE_CACHE_SIZE];
	const struct mdp_cur *ra = &v->a->cur[MDP_T_READ_AHEAD_KB];
	char val[64], mem[32];

	if (!sc->present && !ra->present)
		return;
	printf("      ");
	if (sc->present) {
		mdp_tunable_show(MDP_T_STRIPE_CACHE_SIZE, &sc->val, val, sizeof(val));
		mdp_show_kib(v->stripe_bytes / 1024, mem, sizeof(mem));
		printf(" stripe cache %s (%s)%s", val, mem, ra->present ? "," : "");
	}
	if (ra->present) {
		mdp_tunable_show(MDP_T_READ_AHEAD_KB, &ra->val, val, sizeof(val));
		printf(" read-ahead %s", val);
	}
	putchar('\n');
}

static void array_text(const struct mdp_system *s, const struct mdp_status_array *v, bool verbose)
{
	const struct mdp_array *a = v->a;
	char disks[48], state[96], name[64], level[64], st[64], uuid[128], src[64];
	char head[320], op[256];
	size_t n;
	int missing = v->missing;
	bool failed = false;

	for (size_t i = 0; i < a->n_members; i++)
		failed |= a->members[i].mstate == MDP_M_FAILED;
	disks_text(v, disks, sizeof(disks));
	snprintf(state, sizeof(state), "%s%s%s",
		 a->array_state[0] ? render_safe(a->array_state, st, sizeof(st)) : "-",
		 !strcmp(a->array_state, "broken") ? ""
		 : v->failed                       ? ", failed"
		 : missing > 0                     ? ", degraded"
						   : "",
		 failed && missing <= 0 ? ", member failed" : "");
	n = (size_t)snprintf(
	    head, sizeof(head), "%-6s %-7s %-15s  %-16s", render_safe(a->name, name, sizeof(name)),
	    a->level_name[0] ? render_safe(a->level_name, level, sizeof(level)) : "-", disks,
	    state);
	op_text(s, v, op, sizeof(op));
	/* The operation on the array's line when it fits in 80 columns, else under it. */
	if (n + 1 + strlen(op) <= OPT_HELP_WIDTH) {
		printf("%s %s\n", head, op);
	} else {
		while (n > 0 && head[n - 1] == ' ')
			head[--n] = '\0';
		printf("%s\n", head);
		render_say(7, "       %s", op);
	}
	members_text(v);
	tuning_text(v);
	if (a->from_mdstat) {
		render_say(7, "       from /proc/mdstat only: sysfs has no md array by that name%s",
			   v->container ? ": a metadata container" : "");
		return;
	}
	if (verbose && a->uuid[0])
		printf("       uuid %s (from %s)\n", render_safe(a->uuid, uuid, sizeof(uuid)),
		       render_safe(a->uuid_source, src, sizeof(src)));
	else if (verbose)
		puts("       uuid unknown");
}

static void mdstat_only_text(const struct mdp_system *s, const struct mdp_status_array *v,
			     void *arg)
{
	array_text(s, v, *(const bool *)arg);
}

static void paused_text(const struct mdp_status *ps, const char *head)
{
	char name[128], line[4096];
	size_t n = 0;

	if (!ps->n_paused)
		return;
	line[0] = '\0';
	for (size_t i = 0; i < ps->j.n_svc && n < sizeof(line); i++)
		if (ps->j.svc[i].paused)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s", n ? ", " : "",
					      render_safe(ps->j.svc[i].name, name, sizeof(name)));
	render_say(2, "%s%s", head, line);
}

/* " since 2026-12-07T09:15:00+01:00": the box's local time; "" none. */
static void fmt_when(int64_t since, char *buf, size_t len)
{
	char t[40];

	buf[0] = '\0';
	if (since > 0 && mdp_time_local(since, t, sizeof(t)))
		snprintf(buf, len, " since %s", t);
}

/* The base under an overlay, and the watcher, when there are. */
static void layers_text(const struct mdp_status *ps)
{
	char when[64], name[160], why[256], line[512];

	if (ps->j.has_under) {
		fmt_when(ps->j.under.since, when, sizeof(when));
		render_say(2,
			   "base profile: %s%s, applied %s (under the overlay; 'mdprofile revert' "
			   "goes back to it)",
			   render_safe(ps->j.under.profile, name, sizeof(name)), when,
			   status_origin_text(ps->j.under.by));
	}
	/* apply --until-idle's is said on the profile's line */
	if (!ps->have_w || ps->w.mode == MDP_BY_UNTIL_IDLE)
		return;
	fmt_when(ps->w.since, when, sizeof(when));
	snprintf(line, sizeof(line), "watcher: %s %s (pid %ld), %s%s", mdp_origin_name(ps->w.mode),
		 render_safe(ps->w.profile, name, sizeof(name)), ps->w.pid, ps->w.state, when);
	if (!strcmp(ps->w.state, "armed"))
		render_say(2, "%s, engages on %s", line, ps->w.on);
	else if (!strcmp(ps->w.state, "held"))
		render_say(2, "%s: %s; armed again when md is idle", line,
			   render_safe(ps->w.why, why, sizeof(why)));
	else if (ps->w.why[0]) /* engaging: what started it, what it does; waiting for the lock */
		render_say(2, "%s: %s", line, render_safe(ps->w.why, why, sizeof(why)));
	else
		render_say(2, "%s", line);
}

/* "md3 reshape: 4687 KiB/s when reshape-fast was applied, 9374 KiB/s now"; "starting when"
   for md's 0 */
static void speeds_text(const struct mdp_status *ps)
{
	char name[160], act[32], then[48], now_s[48];
	uint64_t now;

	for (size_t i = 0; i < ps->j.n_speed; i++) {
		const struct mdp_op_speed *sp = &ps->j.speed[i];
		/* md reads 0 in an operation's first seconds (auto engages then) */
		if (sp->kib_s)
			snprintf(then, sizeof(then), "%" PRIu64 " KiB/s when", sp->kib_s);
		else
			snprintf(then, sizeof(then), "starting when");
		if (mdp_status_speed_now(ps, sp, &now))
			snprintf(now_s, sizeof(now_s), "%" PRIu64 " KiB/s now", now);
		else
			snprintf(now_s, sizeof(now_s), "not running now");
		render_say(2, "%s %s: %s %s was applied, %s", sp->dev,
			   render_safe(sp->action, act, sizeof(act)), then,
			   render_safe(ps->j.profile, name, sizeof(name)), now_s);
	}
}

void status_profile_text(const struct mdp_status *ps)
{
	char when[64] = "", name[160];

	if (ps->unreadable) {
		render_say(2, "\nactive profile: unknown: cannot read %s (%s)", MDP_JOURNAL,
			   ps->jerr == -EACCES ? "run status as root" : "see the warning");
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
		render_say(2,
			   "\nprofile %s was applied before the last reboot: its values are gone",
			   render_safe(ps->j.profile, name, sizeof(name)));
		paused_text(ps, "paused before the reboot (run 'mdprofile recover'): ");
		return;
	}
	if (ps->j.state != MDP_J_ACTIVE) {
		render_say(2, "\nprofile %s: a transaction was interrupted",
			   render_safe(ps->j.profile, name, sizeof(name)));
		return;
	}
	fmt_when(ps->since, when, sizeof(when));
	render_say(
	    2, "\nactive profile: %s%s%s%s%s", render_safe(ps->j.profile, name, sizeof(name)), when,
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
	status_goal_text(ps);
	if (ps->drift == 0)
		puts("drift: none");
	else if (ps->drift > 0)
		render_say(2, "drift: %ld value%s changed since apply (see 'mdprofile diff')",
			   ps->drift, ps->drift == 1 ? "" : "s");
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
	render_say(2, "\nspeed limits now: min %s, max %s; DSM's setting: %s", mn, mx, dsm);
}

void status_text(const struct mdp_system *s, const struct mdp_status *ps, bool verbose)
{
	struct mdp_status_array v;
	size_t shown = s->n_arrays;

	for (size_t i = 0; i < s->n_arrays; i++) {
		mdp_status_array(s, &s->arrays[i], &v);
		array_text(s, &v, verbose);
		status_maint_text(s, ps, s->arrays[i].name);
	}
	shown += mdp_status_each_mdstat_only(s, mdstat_only_text, &verbose);
	if (!shown)
		puts("no md arrays found");
	dsm_speed_text(s);
	status_profile_text(ps);
}
