/*
 * profile_maint: the maintenance: key (issue 49), its part of the key table and its values.
 *
 *   maintenance:
 *     windows: ["Mon-Fri 01:00-07:00", "Sat-Sun 00:00-24:00"]
 *     heat: {hot_at_c: 50, cool_below_c: 45}
 *     defer_to: [smart-selftest, rsync]
 *     notify: {command: /usr/local/sbin/md-news, events: [start, pause, resume, end]}
 *
 * What a window, a heat rule and a deferred job mean is maint.h's; this file reads them from
 * the positioned tree with the loader's rules for numbers and text (profile.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_int.h"

static const struct mdp_shape m_text = {.type = MDP_SH_SCALAR};
static const struct mdp_shape m_texts = {.type = MDP_SH_LIST, .entry = &m_text};

const struct mdp_field mdp_heat_fields[] = {
    [MDP_HEAT_HOT_AT] = {"hot_at_c", &m_text, true},
    [MDP_HEAT_COOL_BELOW] = {"cool_below_c", &m_text, true},
    {0},
};
static const struct mdp_shape heat = {
    .type = MDP_SH_MAP, .fields = mdp_heat_fields, .closed = true};

const struct mdp_field mdp_notify_fields[] = {
    [MDP_NOTIFY_COMMAND] = {"command", &m_text},
    [MDP_NOTIFY_EVENTS] = {"events", &m_texts},
    {0},
};
static const struct mdp_shape notify = {
    .type = MDP_SH_MAP, .fields = mdp_notify_fields, .closed = true};

const struct mdp_field mdp_maint_fields[] = {
    [MDP_MAINT_WINDOWS] = {"windows", &m_texts},
    [MDP_MAINT_HEAT] = {"heat", &heat},
    [MDP_MAINT_DEFER_TO] = {"defer_to", &m_texts},
    [MDP_MAINT_NOTIFY] = {"notify", &notify},
    {0},
};
const struct mdp_shape mdp_maint_shape = {
    .type = MDP_SH_MAP,
    .fields = mdp_maint_fields,
    .closed = true,
};

struct mload {
	struct mdp_lctx *c;
	struct mdp_yaml_types *yt;
	struct mdp_maint *m;
};

static const struct mdp_node *mget(const struct mdp_node *map, const struct mdp_field *f)
{
	for (size_t i = 0; map && i < map->n; i++)
		if (map->kids[i].field == f)
			return &map->kids[i];
	return NULL;
}

static void merr(struct mload *L, const struct mdp_node *n, const char *what, const char *text,
		 const char *why)
{
	char shown[72];

	mdp_lctx_err(L->c, n->line, n->col, "%s '%s': %s", what,
		     mdp_text_safe(shown, sizeof(shown), text), why);
}

/* A list that must name something, and not too much. */
static bool list_ok(struct mload *L, const struct mdp_node *l, size_t max, const char *what)
{
	if (!l->n)
		mdp_lctx_err(L->c, l->line, l->col, "empty '%s' list: remove it or give %s",
			     mdp_node_key(l), what);
	else if (l->n > max)
		mdp_lctx_err(L->c, l->line, l->col, "%zu entries in '%s': at most %zu", l->n,
			     mdp_node_key(l), max);
	return l->n && l->n <= max;
}

static void parse_windows(struct mload *L, const struct mdp_node *l)
{
	char why[160];

	if (!list_ok(L, l, MDP_MAINT_MAX_WINDOWS, "windows such as \"Mon-Fri 01:00-07:00\""))
		return;
	if (!(L->m->windows = calloc(l->n, sizeof(*L->m->windows)))) {
		L->c->oom = true;
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct mdp_node *e = &l->kids[i];
		if (mdp_mwin_parse(e->text, &L->m->windows[L->m->n_windows], why, sizeof(why)))
			merr(L, e, "window", e->text, why);
		else if (!mdp_profile_not_text(L->c, L->yt, e, "window"))
			L->m->n_windows++;
	}
}

static void parse_defer(struct mload *L, const struct mdp_node *l)
{
	const char *why;

	if (!list_ok(L, l, MDP_MAINT_MAX_DEFER, MDP_MAINT_SELFTEST " or process names"))
		return;
	if (!(L->m->defer_to = calloc(l->n, sizeof(*L->m->defer_to)))) {
		L->c->oom = true;
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct mdp_node *e = &l->kids[i];
		size_t j = 0;
		while (j < L->m->n_defer && strcmp(L->m->defer_to[j], e->text))
			j++;
		if ((why = mdp_maint_defer_check(e->text))) {
			merr(L, e, mdp_node_key(l), e->text, why);
		} else if (j < L->m->n_defer) {
			merr(L, e, mdp_node_key(l), e->text, "listed twice");
		} else if (!mdp_profile_not_text(L->c, L->yt, e, mdp_node_key(l))) {
			if (!(L->m->defer_to[L->m->n_defer] = strdup(e->text)))
				L->c->oom = true;
			else
				L->m->n_defer++;
		}
	}
}

static void parse_heat(struct mload *L, const struct mdp_node *h)
{
	const struct mdp_node *at = mget(h, &mdp_heat_fields[MDP_HEAT_HOT_AT]);
	const struct mdp_node *below = mget(h, &mdp_heat_fields[MDP_HEAT_COOL_BELOW]);
	uint64_t a, b;

	if (!at || !below) /* the walk said which is missing (both are required) */
		return;
	if (mdp_profile_uint(L->c, L->yt, at, MDP_MAINT_HEAT_MIN_C, MDP_MAINT_HEAT_MAX_C,
			     " degrees Celsius", &a) |
	    mdp_profile_uint(L->c, L->yt, below, MDP_MAINT_HEAT_MIN_C, MDP_MAINT_HEAT_MAX_C,
			     " degrees Celsius", &b))
		return;
	if (b > a) {
		mdp_lctx_err(L->c, below->line, below->col,
			     "%s %u is above %s %u: a disk would be cool again before it is "
			     "hot; write at most %u",
			     mdp_node_key(below), (unsigned)b, mdp_node_key(at), (unsigned)a,
			     (unsigned)a);
		return;
	}
	L->m->heat = (struct mdp_mheat){.hot_at_c = (unsigned)a, .cool_below_c = (unsigned)b};
}

/* notify.events: each once. */
static void parse_events(struct mload *L, const struct mdp_node *l)
{
	int e;

	L->m->notify.on = 0;
	if (!list_ok(L, l, MDP_MEV_COUNT, "one or more of start, pause, resume, end"))
		return;
	for (size_t i = 0; i < l->n; i++) {
		const struct mdp_node *n = &l->kids[i];
		if (mdp_profile_not_text(L->c, L->yt, n, mdp_node_key(l)))
			continue;
		if ((e = mdp_mev_parse(n->text)) < 0)
			merr(L, n, "event", n->text, "expected start, pause, resume or end");
		else if (L->m->notify.on & 1u << e)
			merr(L, n, "event", n->text, "listed twice");
		else
			L->m->notify.on |= 1u << e;
	}
}

static void parse_notify(struct mload *L, const struct mdp_node *n)
{
	const struct mdp_node *cmd = mget(n, &mdp_notify_fields[MDP_NOTIFY_COMMAND]);
	const struct mdp_node *on = mget(n, &mdp_notify_fields[MDP_NOTIFY_EVENTS]);
	struct mdp_mnotify *nt = &L->m->notify;
	const char *why;

	nt->set = true;
	nt->on = MDP_MEV_ALL;
	if (!n->n)
		mdp_lctx_err(
		    L->c, n->line, n->col,
		    "empty %s: give command, events or both (events: [start, pause, resume, end])",
		    mdp_node_key(n));
	if (on)
		parse_events(L, on);
	if (!cmd || mdp_profile_not_text(L->c, L->yt, cmd, mdp_node_key(cmd)))
		return;
	if ((why = mdp_maint_cmd_check(cmd->text)))
		merr(L, cmd, mdp_node_key(cmd), cmd->text, why);
	else if (!(nt->command = strdup(cmd->text)))
		L->c->oom = true;
}

void mdp_profile_parse_maint(struct mdp_lctx *c, struct mdp_yaml_types *yt,
			     const struct mdp_node *n, struct mdp_maint_key *out)
{
	struct mload L = {.c = c, .yt = yt, .m = &out->m};
	const struct mdp_node *k;
	char keys[64];

	out->set = true;
	out->pos = (struct mdp_pos){.file = c->file, .line = n->kline, .col = n->kcol};
	if (!n->n) {
		mdp_shape_keys_text(&mdp_maint_shape, keys, sizeof(keys));
		mdp_lctx_err(c, n->line, n->col, "empty %s: give %s", mdp_node_key(n), keys);
	}
	if ((k = mget(n, &mdp_maint_fields[MDP_MAINT_WINDOWS])))
		parse_windows(&L, k);
	if ((k = mget(n, &mdp_maint_fields[MDP_MAINT_HEAT])))
		parse_heat(&L, k);
	if ((k = mget(n, &mdp_maint_fields[MDP_MAINT_DEFER_TO])))
		parse_defer(&L, k);
	if ((k = mget(n, &mdp_maint_fields[MDP_MAINT_NOTIFY])))
		parse_notify(&L, k);
}

void mdp_maint_key_free(struct mdp_maint_key *k)
{
	free(k->m.windows);
	mdp_strs_free(k->m.defer_to, k->m.n_defer);
	free(k->m.notify.command);
	memset(k, 0, sizeof(*k));
}
