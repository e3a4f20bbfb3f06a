/*
 * status --json: the arrays, the profile's layers, the watcher, paused
 * services and drift, as docs/output.md describes (case 14 pins it whole).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "status.h"

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

static void op_json(struct json *j, const struct mdp_status_array *v)
{
	const struct mdp_array *a = v->a;

	json_kstr(j, "sync_action", a->sync_action[0] ? a->sync_action : "idle");
	json_kstr(j, "sync_state", v->op_state);
	json_key(j, "progress_permille");
	json_u64(j, a->has_progress ? a->permille : 0);
	json_ku64(j, "done_sectors", a->has_progress ? a->sync_done : 0);
	json_ku64(j, "total_sectors", a->has_progress ? a->sync_total : 0);
	json_ku64(j, "speed_kib_s", a->sync_speed);
	json_ku64(j, "eta_seconds", v->eta);
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

static void array_json(struct json *j, const struct mdp_status_array *v)
{
	const struct mdp_array *a = v->a;

	array_head_json(j, a->name, a->level_name, a->raid_disks, a->prev_raid_disks, v->missing,
			a->uuid, a->array_state, a->from_mdstat ? "mdstat" : "sysfs");
	json_key(j, "empty_bays");
	json_i64(j, a->empty_bays);
	json_key(j, "media");
	if (!v->media)
		json_null(j);
	else
		json_str(j, v->media);
	op_json(j, v);
	members_json(j, a);
	tunable_json(j, "stripe_cache_pages", MDP_T_STRIPE_CACHE_SIZE,
		     &a->cur[MDP_T_STRIPE_CACHE_SIZE]);
	/* null, not 0, when there is none or its members are not known */
	json_key(j, "stripe_cache_bytes");
	if (v->stripe_bytes)
		json_u64(j, v->stripe_bytes);
	else
		json_null(j);
	tunable_json(j, "read_ahead_kib", MDP_T_READ_AHEAD_KB, &a->cur[MDP_T_READ_AHEAD_KB]);
	json_end(j);
}

static void mdstat_only_json(const struct mdp_system *s, const struct mdp_status_array *v,
			     void *arg)
{
	(void)s;
	array_json(arg, v);
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
static void layers_json(struct json *j, const struct mdp_status *ps, bool active)
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
static void watcher_json(struct json *j, const struct mdp_status *ps)
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
static void speeds_json(struct json *j, const struct mdp_status *ps, bool active)
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
		if (mdp_status_speed_now(ps, sp, &now))
			json_u64(j, now);
		else
			json_null(j);
		json_end(j);
	}
	json_end(j);
}

static void profile_json(struct json *j, const struct mdp_status *ps)
{
	enum mdp_pstate state = ps->state;
	bool active = state == MDP_PS_ACTIVE;

	json_kstr(j, "active_profile", active ? ps->j.profile : NULL);
	json_kstr(j, "profile_state", mdp_pstate_name(state));
	json_kstr(j, "journal_profile", ps->have_j ? ps->j.profile : NULL);
	json_key(j, "since_epoch_s");
	if (active && ps->since)
		json_i64(j, ps->since);
	else
		json_null(j);
	json_kbool(j, "until_idle", ps->have_j && ps->j.by == MDP_BY_UNTIL_IDLE);
	layers_json(j, ps, active);
	watcher_json(j, ps);
	status_goal_json(j, ps);
	json_key(j, "paused_services");
	json_arr(j);
	for (size_t i = 0; active && i < ps->j.n_svc; i++)
		if (ps->j.svc[i].paused)
			json_str(j, ps->j.svc[i].name);
	json_end(j);
	status_maint_json(j, ps);
	speeds_json(j, ps, active);
	json_key(j, "drift_values");
	if (active && ps->drift >= 0)
		json_i64(j, ps->drift);
	else
		json_null(j);
}

void status_json(struct cli *cli, struct json *j, const struct mdp_system *s,
		 const struct mdp_status *ps)
{
	struct mdp_status_array v;

	json_obj(j);
	json_key(j, "arrays");
	json_arr(j);
	for (size_t i = 0; i < s->n_arrays; i++) {
		mdp_status_array(s, &s->arrays[i], &v);
		array_json(j, &v);
	}
	mdp_status_each_mdstat_only(s, mdstat_only_json, j);
	json_end(j);
	profile_json(j, ps);
	enable_status(cli, j, false); /* "enabled": enable.c */
	json_ku64(j, "mem_total_kib", s->mem_total_kib);
	json_ku64(j, "mem_available_kib", s->mem_avail_kib);
	dsm_speed_json(j, s);
	json_end(j);
}
