/* show --json: a profile as the loader resolved it (docs/output.md). */
#include "json.h"
#include "mdp_profile.h"
#include "render.h"

/* "k": [the n strings of v]. */
static void json_kstrs(struct json *j, const char *k, char *const *v, size_t n)
{
	json_key(j, k);
	json_arr(j);
	for (size_t i = 0; i < n; i++)
		json_str(j, v[i]);
	json_end(j);
}

static void json_match(struct json *j, const struct mdp_match *m)
{
	const char *media[MDP_MEDIA_COUNT];

	json_obj(j);
	json_kbool(j, "all", m->all);
	json_kstrs(j, "names", m->names, m->n_names);
	json_key(j, "levels");
	json_arr(j);
	for (size_t i = 0; i < m->n_levels; i++)
		json_str(j, mdp_ident_level_name(m->levels[i]));
	json_end(j);
	json_kstrs(j, "uuids", m->uuids, m->n_uuids);
	json_kstrs(j, mdp_profile_key(MDP_PK_MEDIA), (char *const *)media,
		   mdp_ident_media_words(m->media, media));
	json_end(j);
}

static void json_settings(struct json *j, const struct mdp_setting *set, int from, int to)
{
	json_obj(j);
	for (int t = from; t <= to; t++) {
		if (set[t].kind == MDP_S_UNSET)
			continue;
		json_key(j, mdp_tunable_info(t)->key);
		render_setting_json(j, t, &set[t]);
	}
	json_end(j);
}

/* {"command": PATH or null, "events": [...]}, or null without notify. */
static void json_notify(struct json *j, const struct mdp_mnotify *n)
{
	if (!n->set) {
		json_null(j);
		return;
	}
	json_obj(j);
	json_key(j, mdp_profile_key(MDP_PK_NOTIFY_COMMAND));
	if (n->command)
		json_str(j, n->command);
	else
		json_null(j);
	json_key(j, mdp_profile_key(MDP_PK_NOTIFY_EVENTS));
	json_arr(j);
	for (int e = 0; e < (int)MDP_MEV_COUNT; e++)
		if (n->on & 1u << e)
			json_str(j, mdp_mev_name((enum mdp_mev)e));
	json_end(j);
	json_end(j);
}

/* {"windows": [...], "heat": {"hot_at_c", "cool_below_c"} or null, "defer_to": [...],
 * "notify": {...} or null}, or null when the profile has no maintenance key. */
static void json_maint(struct json *j, const struct mdp_maint_key *k)
{
	char buf[64];

	if (!k->set) {
		json_null(j);
		return;
	}
	json_obj(j);
	json_key(j, mdp_profile_key(MDP_PK_MAINT_WINDOWS));
	json_arr(j);
	for (size_t i = 0; i < k->m.n_windows; i++)
		json_str(j, mdp_mwin_text(&k->m.windows[i], buf, sizeof(buf)));
	json_end(j);
	json_key(j, mdp_profile_key(MDP_PK_MAINT_HEAT));
	if (k->m.heat.hot_at_c) {
		json_obj(j);
		json_key(j, mdp_profile_key(MDP_PK_MAINT_HOT_AT));
		json_u64(j, k->m.heat.hot_at_c);
		json_key(j, mdp_profile_key(MDP_PK_MAINT_COOL_BELOW));
		json_u64(j, k->m.heat.cool_below_c);
		json_end(j);
	} else {
		json_null(j);
	}
	json_kstrs(j, mdp_profile_key(MDP_PK_MAINT_DEFER_TO), k->m.defer_to, k->m.n_defer);
	json_key(j, mdp_profile_key(MDP_PK_MAINT_NOTIFY));
	json_notify(j, &k->m.notify);
	json_end(j);
}

void render_profile_json(struct json *j, const struct mdp_profile *p)
{
	json_obj(j);
	json_kstr(j, "name", p->name);
	json_kstr(j, "path", p->path);
	json_kstrs(j, "chain", p->chain, p->n_chain);
	json_kstr(j, "description", p->description ? p->description : "");
	json_key(j, "memory_budget");
	render_budget_json(j, &p->budget);
	json_key(j, mdp_profile_key(MDP_PK_GOAL));
	if (p->goal.latency_ms) {
		json_obj(j);
		json_key(j, mdp_profile_key(MDP_PK_GOAL_LATENCY));
		json_u64(j, p->goal.latency_ms);
		json_key(j, mdp_profile_key(MDP_PK_GOAL_PERCENTILE));
		if (p->goal.percentile)
			json_u64(j, p->goal.percentile);
		else
			json_null(j);
		json_end(j);
	} else {
		json_null(j);
	}
	json_key(j, mdp_profile_key(MDP_PK_MAINT));
	json_maint(j, &p->maint);
	json_key(j, "raid");
	json_settings(j, p->global, 0, MDP_T_COUNT - 1);
	json_key(j, "arrays");
	json_arr(j);
	for (size_t i = 0; i < p->n_rules; i++) {
		json_obj(j);
		json_key(j, "match");
		json_match(j, &p->rules[i].match);
		json_key(j, "set");
		json_settings(j, p->rules[i].set, 0, MDP_T_COUNT - 1);
		json_end(j);
	}
	json_end(j);
	json_key(j, "services");
	json_arr(j);
	for (size_t i = 0; i < p->n_services; i++) {
		json_obj(j);
		json_kstr(j, "name", p->services[i].name);
		json_kbool(j, "optional", p->services[i].optional);
		json_key(j, "only_on");
		if (!p->services[i].only_on) {
			json_null(j);
		} else {
			json_arr(j);
			for (unsigned k = 0; k < MDP_PLATFORM_COUNT; k++)
				if (p->services[i].only_on & 1u << k)
					json_str(j, mdp_platform_name(k));
			json_end(j);
		}
		json_key(j, "timeout");
		if (p->services[i].timeout_s)
			json_u64(j, p->services[i].timeout_s);
		else
			json_null(j);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}
