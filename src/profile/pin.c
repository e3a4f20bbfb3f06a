/*
 * pin: a loaded profile as one self-contained YAML file (pin.h).
 *
 * The profile is first copied into a plain struct of strings (struct doc),
 * every value in the form the loader reads back: numbers as bare digits,
 * sizes in the largest exact unit ("32MiB"), "auto", "system", "25%".
 * libcyaml then emits that struct from a schema built here at run time,
 * because its keys come from the tunable registry and the profile's key
 * table. Optional pointer fields left NULL are not written, so a rule
 * carries only the settings it makes. `match: all` is a scalar where
 * other matches are mappings; libcyaml has no scalar-or-mapping type, so a
 * rule has two "match" fields and exactly one of them is set.
 *
 * libcyaml 1.3 writes every string in the plain style where YAML allows
 * it, and has no per-scalar style: a description "123" would load back as
 * a number. So its text goes once through libyaml's parser and emitter
 * (restyle), which double-quote the text scalars that YAML 1.1 or 1.2
 * reads as something else, and pass every other event through as it is.
 */
#include "pin.h"

#include <cyaml/cyaml.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "mdp_base.h"
#include "profile_int.h"

/* ---- the document, as libcyaml sees it --------------------------------------- */

struct doc_match {
	char **names, **levels, **uuids, **media;
	unsigned names_count, levels_count, uuids_count, media_count;
};

/* A bounded value: {at_least: V} or {at_most: V}, one of the two set. */
struct doc_bound {
	char *at_least, *at_most;
};

/*
 * A tunable is a scalar or, bounded, a mapping: like match, two fields of
 * the same key, at most one of them set.
 */
struct doc_settings {
	char *set[MDP_T_COUNT];
	struct doc_bound *bound[MDP_T_COUNT];
};

struct doc_rule {
	char *match_all; /* "all", or NULL and match set */
	struct doc_match *match;
	struct doc_settings s;
};

struct doc_service {
	char *name;
	bool optional;
	char **only_on; /* the platform names; NULL: everywhere */
	unsigned only_on_count;
	char *timeout; /* decimal seconds; NULL: the backend's default */
};

struct doc_services {
	struct doc_service *pause;
	unsigned pause_count;
};

struct doc_goal {
	char *latency_ms, *percentile;
};

struct doc_heat {
	char *hot_at, *cool_below;
};

struct doc_notify {
	char *command;
	char **on;
	unsigned on_count;
};

struct doc_maint {
	char **windows;
	unsigned windows_count;
	struct doc_heat *heat;
	char **defer_to;
	unsigned defer_to_count;
	struct doc_notify *notify;
};

struct doc {
	char *description, *memory_budget;
	struct doc_goal *goal;
	struct doc_maint *maint;
	struct doc_settings *raid; /* only the global ones set */
	struct doc_rule *arrays;
	unsigned arrays_count;
	struct doc_services *services;
};

/* ---- its schema -------------------------------------------------------------- */

#define OPT_PTR (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)

static const cyaml_schema_value_t str_entry = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

struct schema {
	cyaml_schema_field_t bound[3];
	cyaml_schema_value_t bound_value;
	cyaml_schema_field_t match[5];
	cyaml_schema_value_t match_value;
	cyaml_schema_field_t rule[2 * MDP_T_COUNT + 3];
	cyaml_schema_value_t rule_entry;
	cyaml_schema_field_t raid[2 * MDP_T_COUNT + 1];
	cyaml_schema_value_t raid_value;
	cyaml_schema_field_t service[5];
	cyaml_schema_value_t service_entry;
	cyaml_schema_field_t services[2];
	cyaml_schema_value_t services_value;
	cyaml_schema_field_t goal[3];
	cyaml_schema_field_t heat[3];
	cyaml_schema_field_t notify[3];
	cyaml_schema_field_t maint[5];
	cyaml_schema_field_t top[8];
	cyaml_schema_value_t top_value;
};

static cyaml_schema_field_t str_field(const char *key, size_t offset)
{
	return (cyaml_schema_field_t){
	    .key = key,
	    .data_offset = (uint32_t)offset,
	    .value = {CYAML_VALUE_STRING(OPT_PTR, char, 0, CYAML_UNLIMITED)},
	};
}

static cyaml_schema_field_t seq_field(const char *key, size_t offset, size_t count_offset,
				      const cyaml_schema_value_t *entry)
{
	return (cyaml_schema_field_t){
	    .key = key,
	    .data_offset = (uint32_t)offset,
	    .count_offset = (uint32_t)count_offset,
	    .count_size = sizeof(unsigned),
	    .value = {CYAML_VALUE_SEQUENCE(OPT_PTR, char *, entry, 0, CYAML_UNLIMITED)},
	};
}

static cyaml_schema_field_t map_field(const char *key, size_t offset,
				      const cyaml_schema_field_t *fields, size_t size)
{
	return (cyaml_schema_field_t){
	    .key = key,
	    .data_offset = (uint32_t)offset,
	    .value = {.type = CYAML_MAPPING,
		      .flags = (enum cyaml_flag)OPT_PTR,
		      .data_size = (uint32_t)size,
		      .mapping = {.fields = fields}},
	};
}

static cyaml_schema_value_t map_value(enum cyaml_flag flags, const cyaml_schema_field_t *fields,
				      size_t size)
{
	return (cyaml_schema_value_t){.type = CYAML_MAPPING,
				      .flags = flags,
				      .data_size = (uint32_t)size,
				      .mapping = {.fields = fields}};
}

/* The global tunables (or the others), each as text and as a bound, of the doc_settings at base. */
static size_t settings_fields(const struct schema *s, cyaml_schema_field_t *f, size_t n,
			      size_t base, bool global)
{
	for (int t = 0; t < MDP_T_COUNT; t++) {
		const char *key = mdp_tunable_info(t)->key;
		if ((mdp_tunable_info(t)->scope == MDP_SCOPE_GLOBAL) != global)
			continue;
		f[n++] = str_field(key, base + offsetof(struct doc_settings, set) +
					    (size_t)t * sizeof(char *));
		f[n++] = map_field(key,
				   base + offsetof(struct doc_settings, bound) +
				       (size_t)t * sizeof(struct doc_bound *),
				   s->bound, sizeof(struct doc_bound));
	}
	return n;
}

static void schema_match_rule(struct schema *s)
{
	size_t n = 0;

	s->match[0] = seq_field(mdp_profile_key(MDP_PK_NAMES), offsetof(struct doc_match, names),
				offsetof(struct doc_match, names_count), &str_entry);
	s->match[1] = seq_field(mdp_profile_key(MDP_PK_LEVELS), offsetof(struct doc_match, levels),
				offsetof(struct doc_match, levels_count), &str_entry);
	s->match[2] = seq_field(mdp_profile_key(MDP_PK_UUIDS), offsetof(struct doc_match, uuids),
				offsetof(struct doc_match, uuids_count), &str_entry);
	s->match[3] = seq_field(mdp_profile_key(MDP_PK_MEDIA), offsetof(struct doc_match, media),
				offsetof(struct doc_match, media_count), &str_entry);
	s->match[4] = (cyaml_schema_field_t)CYAML_FIELD_END;
	s->rule[n++] =
	    str_field(mdp_profile_key(MDP_PK_MATCH), offsetof(struct doc_rule, match_all));
	s->rule[n++] = map_field(mdp_profile_key(MDP_PK_MATCH), offsetof(struct doc_rule, match),
				 s->match, sizeof(struct doc_match));
	n = settings_fields(s, s->rule, n, offsetof(struct doc_rule, s), false);
	s->rule[n] = (cyaml_schema_field_t)CYAML_FIELD_END;
	s->rule_entry = map_value(CYAML_FLAG_DEFAULT, s->rule, sizeof(struct doc_rule));
}

static void schema_maint(struct schema *s)
{
	s->heat[0] =
	    str_field(mdp_profile_key(MDP_PK_MAINT_HOT_AT), offsetof(struct doc_heat, hot_at));
	s->heat[1] = str_field(mdp_profile_key(MDP_PK_MAINT_COOL_BELOW),
			       offsetof(struct doc_heat, cool_below));
	s->heat[2] = (cyaml_schema_field_t)CYAML_FIELD_END;
	s->maint[0] =
	    seq_field(mdp_profile_key(MDP_PK_MAINT_WINDOWS), offsetof(struct doc_maint, windows),
		      offsetof(struct doc_maint, windows_count), &str_entry);
	s->maint[1] = map_field(mdp_profile_key(MDP_PK_MAINT_HEAT),
				offsetof(struct doc_maint, heat), s->heat, sizeof(struct doc_heat));
	s->maint[2] =
	    seq_field(mdp_profile_key(MDP_PK_MAINT_DEFER_TO), offsetof(struct doc_maint, defer_to),
		      offsetof(struct doc_maint, defer_to_count), &str_entry);
	s->notify[0] =
	    str_field(mdp_profile_key(MDP_PK_NOTIFY_COMMAND), offsetof(struct doc_notify, command));
	s->notify[1] = seq_field(mdp_profile_key(MDP_PK_NOTIFY_EVENTS), offsetof(struct doc_notify, on),
				 offsetof(struct doc_notify, on_count), &str_entry);
	s->notify[2] = (cyaml_schema_field_t)CYAML_FIELD_END;
	s->maint[3] =
	    map_field(mdp_profile_key(MDP_PK_MAINT_NOTIFY), offsetof(struct doc_maint, notify),
		      s->notify, sizeof(struct doc_notify));
	s->maint[4] = (cyaml_schema_field_t)CYAML_FIELD_END;
}

static void schema_build(struct schema *s)
{
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	s->bound[0] =
	    str_field(mdp_profile_key(MDP_PK_AT_LEAST), offsetof(struct doc_bound, at_least));
	s->bound[1] =
	    str_field(mdp_profile_key(MDP_PK_AT_MOST), offsetof(struct doc_bound, at_most));
	s->bound[2] = (cyaml_schema_field_t)CYAML_FIELD_END;
	schema_match_rule(s);
	n = settings_fields(s, s->raid, 0, 0, true);
	s->raid[n] = (cyaml_schema_field_t)CYAML_FIELD_END;
	s->service[0] = str_field(mdp_profile_key(MDP_PK_NAME), offsetof(struct doc_service, name));
	s->service[1] = (cyaml_schema_field_t){
	    .key = mdp_profile_key(MDP_PK_OPTIONAL),
	    .data_offset = offsetof(struct doc_service, optional),
	    .value = {.type = CYAML_BOOL, .flags = CYAML_FLAG_DEFAULT, .data_size = sizeof(bool)}};
	s->service[2] =
	    seq_field(mdp_profile_key(MDP_PK_ONLY_ON), offsetof(struct doc_service, only_on),
		      offsetof(struct doc_service, only_on_count), &str_entry);
	s->service[3] =
	    str_field(mdp_profile_key(MDP_PK_TIMEOUT), offsetof(struct doc_service, timeout));
	s->service[4] = (cyaml_schema_field_t)CYAML_FIELD_END;
	s->service_entry = map_value(CYAML_FLAG_DEFAULT, s->service, sizeof(struct doc_service));
	s->services[0] =
	    seq_field(mdp_profile_key(MDP_PK_PAUSE), offsetof(struct doc_services, pause),
		      offsetof(struct doc_services, pause_count), &s->service_entry);
	s->services[1] = (cyaml_schema_field_t)CYAML_FIELD_END;
	n = 0;
	s->top[n++] =
	    str_field(mdp_profile_key(MDP_PK_DESCRIPTION), offsetof(struct doc, description));
	s->top[n++] =
	    str_field(mdp_profile_key(MDP_PK_BUDGET), offsetof(struct doc, memory_budget));
	s->goal[0] =
	    str_field(mdp_profile_key(MDP_PK_GOAL_LATENCY), offsetof(struct doc_goal, latency_ms));
	s->goal[1] = str_field(mdp_profile_key(MDP_PK_GOAL_PERCENTILE),
			       offsetof(struct doc_goal, percentile));
	s->goal[2] = (cyaml_schema_field_t)CYAML_FIELD_END;
	s->top[n++] = map_field(mdp_profile_key(MDP_PK_GOAL), offsetof(struct doc, goal), s->goal,
				sizeof(struct doc_goal));
	schema_maint(s);
	s->top[n++] = map_field(mdp_profile_key(MDP_PK_MAINT), offsetof(struct doc, maint),
				s->maint, sizeof(struct doc_maint));
	s->top[n++] = map_field(mdp_profile_key(MDP_PK_RAID), offsetof(struct doc, raid), s->raid,
				sizeof(struct doc_settings));
	s->top[n++] = seq_field(mdp_profile_key(MDP_PK_ARRAYS), offsetof(struct doc, arrays),
				offsetof(struct doc, arrays_count), &s->rule_entry);
	s->top[n++] = map_field(mdp_profile_key(MDP_PK_SERVICES), offsetof(struct doc, services),
				s->services, sizeof(struct doc_services));
	s->top[n] = (cyaml_schema_field_t)CYAML_FIELD_END;
	s->top_value = map_value(CYAML_FLAG_POINTER, s->top, sizeof(struct doc));
}

/* ---- filling the document ------------------------------------------------------ */

/* Every string of the document, freed together. */
struct strings {
	char **v;
	size_t n;
	int err;
};

static char *keep(struct strings *st, char *s)
{
	if (!s || mdp_grow(&st->v, st->n, sizeof(*st->v))) {
		free(s);
		st->err = -ENOMEM;
		return NULL;
	}
	return st->v[st->n++] = s;
}

static char *fmt(struct strings *st, const char *f, ...) __attribute__((format(printf, 2, 3)));

static char *fmt(struct strings *st, const char *f, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, f);
	r = vasprintf(&s, f, ap);
	va_end(ap);
	return keep(st, r < 0 ? NULL : s);
}

/* A size the loader reads back exactly: "32MiB", "1536KiB" (the display's ladder). */
static char *size_text(struct strings *st, uint64_t kib)
{
	const char *unit = mdp_kib_unit(&kib);

	return fmt(st, "%" PRIu64 "%s", kib, unit);
}

static char *setting_text(struct strings *st, enum mdp_tunable t, const struct mdp_setting *s)
{
	if (s->kind == MDP_S_AUTO)
		return fmt(st, "auto");
	if (s->kind == MDP_S_SYSTEM)
		return fmt(st, "system");
	if (mdp_tunable_info(t)->show == MDP_SHOW_SIZE)
		return size_text(st, s->num);
	return fmt(st, "%" PRIu64, s->num);
}

/* A setting into ds: its text, under its bound's key when it has one. */
static void fill_setting(struct strings *st, struct doc_settings *ds, enum mdp_tunable t,
			 const struct mdp_setting *s)
{
	char *text = setting_text(st, t, s);
	struct doc_bound *b;

	if (s->bound == MDP_B_EXACT) {
		ds->set[t] = text;
		return;
	}
	if (!(b = calloc(1, sizeof(*b)))) {
		st->err = -ENOMEM;
		return;
	}
	if (s->bound == MDP_B_AT_LEAST)
		b->at_least = text;
	else
		b->at_most = text;
	ds->bound[t] = b;
}

static void free_bounds(struct doc_settings *ds)
{
	for (int t = 0; ds && t < MDP_T_COUNT; t++)
		free(ds->bound[t]);
}

static char *budget_text(struct strings *st, const struct mdp_budget *b)
{
	if (b->kind == MDP_BUDGET_PERCENT)
		return fmt(st, "%" PRIu64 "%%", b->value);
	if (b->kind == MDP_BUDGET_BYTES && b->value % 1024 == 0)
		return size_text(st, b->value / 1024);
	if (b->kind == MDP_BUDGET_BYTES)
		return fmt(st, "%" PRIu64 "B", b->value);
	return NULL;
}

static void *grab(struct strings *st, size_t n, size_t size)
{
	void *p = n ? calloc(n, size) : NULL;

	if (n && !p)
		st->err = -ENOMEM;
	return p;
}

/* The platform names of bits, borrowed from the profile module's table. */
static void fill_only_on(struct strings *st, struct doc_service *ds, unsigned bits)
{
	unsigned n = 0;

	for (unsigned i = 0; i < MDP_PLATFORM_COUNT; i++)
		n += (bits >> i) & 1u;
	if (!n || !(ds->only_on = grab(st, n, sizeof(char *))))
		return;
	for (unsigned i = 0; i < MDP_PLATFORM_COUNT; i++)
		if (bits & 1u << i) /* libcyaml only reads what it saves */
			ds->only_on[ds->only_on_count++] = (char *)mdp_platform_name(i);
}

static struct doc_match *fill_match(struct strings *st, const struct mdp_match *m)
{
	struct doc_match *dm = grab(st, 1, sizeof(*dm));
	const char *media[MDP_MEDIA_COUNT];
	size_t n;

	if (!dm)
		return NULL;
	dm->names = m->names; /* borrowed: the profile outlives the document */
	dm->names_count = (unsigned)m->n_names;
	dm->uuids = m->uuids;
	dm->uuids_count = (unsigned)m->n_uuids;
	if ((dm->levels = grab(st, m->n_levels, sizeof(char *))))
		for (size_t i = 0; i < m->n_levels; i++)
			dm->levels[dm->levels_count++] = (char *)mdp_ident_level_name(m->levels[i]);
	n = mdp_ident_media_words(m->media, media);
	/* libcyaml only reads what it saves */
	if ((dm->media = grab(st, n, sizeof(char *))))
		for (size_t i = 0; i < n; i++)
			dm->media[dm->media_count++] = (char *)media[i];
	return dm;
}

static void fill_rules(struct strings *st, const struct mdp_profile *p, struct doc *d)
{
	if (!(d->arrays = grab(st, p->n_rules, sizeof(*d->arrays))))
		return;
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct mdp_rule *r = &p->rules[i];
		struct doc_rule *dr = &d->arrays[d->arrays_count++];
		if (r->match.all)
			dr->match_all = fmt(st, "%s", mdp_profile_key(MDP_PK_ALL));
		else
			dr->match = fill_match(st, &r->match);
		for (int t = 0; t < MDP_T_COUNT; t++)
			if (r->set[t].kind != MDP_S_UNSET)
				fill_setting(st, &dr->s, t, &r->set[t]);
	}
}

static struct doc_maint *fill_maint(struct strings *st, const struct mdp_maint *m)
{
	struct doc_maint *dm = grab(st, 1, sizeof(*dm));
	char buf[64];

	if (!dm)
		return NULL;
	if ((dm->windows = grab(st, m->n_windows, sizeof(char *))))
		for (size_t i = 0; i < m->n_windows; i++)
			dm->windows[dm->windows_count++] =
			    fmt(st, "%s", mdp_mwin_text(&m->windows[i], buf, sizeof(buf)));
	if (m->heat.hot_at_c && (dm->heat = grab(st, 1, sizeof(*dm->heat)))) {
		dm->heat->hot_at = fmt(st, "%u", m->heat.hot_at_c);
		dm->heat->cool_below = fmt(st, "%u", m->heat.cool_below_c);
	}
	dm->defer_to = m->defer_to; /* borrowed: the profile outlives the document */
	dm->defer_to_count = (unsigned)m->n_defer;
	if (m->notify.set && (dm->notify = grab(st, 1, sizeof(*dm->notify)))) {
		dm->notify->command = m->notify.command;
		if ((dm->notify->on = grab(st, MDP_MEV_COUNT, sizeof(char *))))
			for (int e = 0; e < (int)MDP_MEV_COUNT; e++)
				if (m->notify.on & 1u << e)
					dm->notify->on[dm->notify->on_count++] =
					    (char *)mdp_mev_name((enum mdp_mev)e);
	}
	return dm;
}

static void fill(struct strings *st, const struct mdp_profile *p, struct doc *d)
{
	d->description = p->description;
	d->memory_budget = budget_text(st, &p->budget);
	if (p->goal.latency_ms && (d->goal = grab(st, 1, sizeof(*d->goal)))) {
		d->goal->latency_ms = fmt(st, "%u", p->goal.latency_ms);
		if (p->goal.percentile)
			d->goal->percentile = fmt(st, "%u", p->goal.percentile);
	}
	if (p->maint.set)
		d->maint = fill_maint(st, &p->maint.m);
	for (int t = 0; t < MDP_T_COUNT; t++) {
		if (p->global[t].kind == MDP_S_UNSET)
			continue;
		if (!d->raid && !(d->raid = grab(st, 1, sizeof(*d->raid))))
			return;
		fill_setting(st, d->raid, t, &p->global[t]);
	}
	fill_rules(st, p, d);
	if (p->n_services && (d->services = grab(st, 1, sizeof(*d->services))) &&
	    (d->services->pause = grab(st, p->n_services, sizeof(struct doc_service))))
		for (size_t i = 0; i < p->n_services; i++) {
			d->services->pause[i].name = p->services[i].name;
			d->services->pause[i].optional = p->services[i].optional;
			fill_only_on(st, &d->services->pause[i], p->services[i].only_on);
			if (p->services[i].timeout_s)
				d->services->pause[i].timeout =
				    fmt(st, "%u", p->services[i].timeout_s);
			d->services->pause_count++;
		}
}

static void doc_free(struct doc *d, struct strings *st)
{
	for (size_t i = 0; i < d->arrays_count; i++) {
		if (d->arrays[i].match) {
			free(d->arrays[i].match->levels);
			free(d->arrays[i].match->media);
		}
		free(d->arrays[i].match);
		free_bounds(&d->arrays[i].s);
	}
	free(d->arrays);
	free_bounds(d->raid);
	free(d->raid);
	for (size_t i = 0; d->services && i < d->services->pause_count; i++)
		free(d->services->pause[i].only_on);
	if (d->services)
		free(d->services->pause);
	free(d->services);
	free(d->goal);
	if (d->maint) {
		free(d->maint->windows);
		free(d->maint->heat);
		if (d->maint->notify)
			free(d->maint->notify->on);
		free(d->maint->notify);
	}
	free(d->maint);
	mdp_strs_free(st->v, st->n);
}

/* ---- writing and proving it ------------------------------------------------------- */

static void *pin_mem(void *ctx, void *ptr, size_t size)
{
	(void)ctx;
	if (!size) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, size); /* libcyaml's allocator hook: realloc's contract */
}

static bool same_setting(const struct mdp_setting *a, const struct mdp_setting *b)
{
	return a->kind == b->kind && a->bound == b->bound && a->num == b->num;
}

static bool same_maint(const struct mdp_maint_key *a, const struct mdp_maint_key *b)
{
	if (a->set != b->set || a->m.n_windows != b->m.n_windows || a->m.n_defer != b->m.n_defer ||
	    a->m.heat.hot_at_c != b->m.heat.hot_at_c ||
	    a->m.heat.cool_below_c != b->m.heat.cool_below_c ||
	    a->m.notify.set != b->m.notify.set || a->m.notify.on != b->m.notify.on ||
	    !a->m.notify.command != !b->m.notify.command ||
	    (a->m.notify.command && strcmp(a->m.notify.command, b->m.notify.command)))
		return false;
	for (size_t i = 0; i < a->m.n_windows; i++)
		if (a->m.windows[i].days != b->m.windows[i].days ||
		    a->m.windows[i].start != b->m.windows[i].start ||
		    a->m.windows[i].end != b->m.windows[i].end)
			return false;
	for (size_t i = 0; i < a->m.n_defer; i++)
		if (strcmp(a->m.defer_to[i], b->m.defer_to[i]))
			return false;
	return true;
}

/* What the loader makes of the text must be what p says. */
static bool same_settings(const struct mdp_profile *a, const struct mdp_profile *b)
{
	if (!same_maint(&a->maint, &b->maint))
		return false;
	if (a->n_rules != b->n_rules || a->n_services != b->n_services ||
	    a->budget.kind != b->budget.kind || a->budget.value != b->budget.value ||
	    a->goal.latency_ms != b->goal.latency_ms || a->goal.percentile != b->goal.percentile)
		return false;
	for (int t = 0; t < MDP_T_COUNT; t++)
		if (!same_setting(&a->global[t], &b->global[t]))
			return false;
	for (size_t i = 0; i < a->n_rules; i++)
		for (int t = 0; t < MDP_T_COUNT; t++)
			if (!same_setting(&a->rules[i].set[t], &b->rules[i].set[t]) ||
			    a->rules[i].match.all != b->rules[i].match.all ||
			    a->rules[i].match.n_names != b->rules[i].match.n_names ||
			    a->rules[i].match.n_levels != b->rules[i].match.n_levels ||
			    a->rules[i].match.media != b->rules[i].match.media ||
			    a->rules[i].match.n_uuids != b->rules[i].match.n_uuids)
				return false;
	for (size_t i = 0; i < a->n_services; i++)
		if (strcmp(a->services[i].name, b->services[i].name) ||
		    a->services[i].optional != b->services[i].optional ||
		    a->services[i].only_on != b->services[i].only_on ||
		    a->services[i].timeout_s != b->services[i].timeout_s)
			return false;
	return true;
}

/* ---- quoting the text that YAML reads as something else ---------------------- */

/* The keys whose values (or entries) are text to the loader. */
static bool text_key(const char *key)
{
	static const enum mdp_profile_key keys[] = {
	    MDP_PK_DESCRIPTION, MDP_PK_NAME,          MDP_PK_NAMES,         MDP_PK_UUIDS,
	    MDP_PK_ONLY_ON,     MDP_PK_MAINT_WINDOWS, MDP_PK_MAINT_DEFER_TO};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, mdp_profile_key(keys[i])))
			return true;
	return false;
}

/* Where the events are: per open mapping or sequence, its key and the last key read. */
struct place {
	bool mapping, want_key;
	char key[32], in[32]; /* the last key of a mapping; the key a node sits under */
};

struct out {
	char *v;
	size_t n, cap;
	int err;
};

static int out_write(void *data, unsigned char *buf, size_t size)
{
	struct out *o = data;
	char *nv;

	if (o->n + size > o->cap) {
		size_t cap = (o->n + size) * 2;
		/* libyaml's output: bytes by the emitter's chunks, doubling, not an array. */
		if (!(nv = realloc(o->v, cap))) {
			o->err = -ENOMEM;
			return 0;
		}
		o->v = nv;
		o->cap = cap;
	}
	memcpy(o->v + o->n, buf, size);
	o->n += size;
	return 1;
}

/* The key the next node sits under; a key scalar is recorded, a value turns the mapping. */
static const char *place_next(struct place *st, int depth, const yaml_event_t *ev)
{
	struct place *top = depth ? &st[depth - 1] : NULL;

	if (!top)
		return "";
	if (!top->mapping)
		return top->in;
	if (top->want_key) {
		if (ev->type == YAML_SCALAR_EVENT)
			snprintf(top->key, sizeof(top->key), "%s",
				 (const char *)ev->data.scalar.value);
		else
			top->key[0] = '\0';
		top->want_key = false;
		return NULL; /* a key, never restyled */
	}
	top->want_key = true;
	return top->key;
}

/* A plain text scalar that YAML would read as a number, boolean, null or date: quoted. */
static void restyle_scalar(yaml_event_t *ev, const char *under, struct mdp_yaml_types *yt)
{
	unsigned v = 0;

	if (!under || !text_key(under) || ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
	    !mdp_yaml_type(yt, (const char *)ev->data.scalar.value, &v))
		return;
	ev->data.scalar.style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	ev->data.scalar.plain_implicit = 0;
	ev->data.scalar.quoted_implicit = 1;
}

static int restyle_run(yaml_parser_t *ps, yaml_emitter_t *em, struct mdp_yaml_types *yt)
{
	struct place st[16];
	int depth = 0, done = 0;
	yaml_event_t ev;

	while (!done) {
		if (!yaml_parser_parse(ps, &ev))
			return -EIO;
		done = ev.type == YAML_STREAM_END_EVENT;
		if (ev.type == YAML_SCALAR_EVENT) {
			restyle_scalar(&ev, place_next(st, depth, &ev), yt);
		} else if (ev.type == YAML_MAPPING_START_EVENT ||
			   ev.type == YAML_SEQUENCE_START_EVENT) {
			const char *in = place_next(st, depth, &ev);
			if (depth == (int)(sizeof(st) / sizeof(st[0]))) {
				yaml_event_delete(&ev);
				return -EIO;
			}
			st[depth] = (struct place){.mapping = ev.type == YAML_MAPPING_START_EVENT,
						   .want_key = true};
			snprintf(st[depth++].in, sizeof(st[0].in), "%s", in ? in : "");
		} else if (ev.type == YAML_MAPPING_END_EVENT ||
			   ev.type == YAML_SEQUENCE_END_EVENT) {
			depth -= depth > 0;
		}
		if (!yaml_emitter_emit(em, &ev)) /* it deletes the event */
			return -EIO;
	}
	return 0;
}

/* text (len) with restyled scalars into *out, NUL-terminated. */
static int restyle(const char *text, size_t len, char **out, size_t *out_len)
{
	struct mdp_yaml_types yt;
	struct out o = {0};
	yaml_parser_t ps;
	yaml_emitter_t em;
	int err = -ENOMEM;

	mdp_yaml_types_init(&yt);
	if (yaml_parser_initialize(&ps)) {
		if (yaml_emitter_initialize(&em)) {
			yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
			yaml_emitter_set_output(&em, out_write, &o);
			yaml_emitter_set_unicode(&em, 1);
			err = restyle_run(&ps, &em, &yt);
			yaml_emitter_delete(&em);
		}
		yaml_parser_delete(&ps);
	}
	if (!err && (o.err || yt.oom))
		err = -ENOMEM;
	if (!err)
		err = out_write(&o, (unsigned char *)"", 1) ? 0 : -ENOMEM;
	mdp_yaml_types_free(&yt);
	if (err) {
		free(o.v);
		return err;
	}
	*out = o.v;
	*out_len = o.n - 1;
	return 0;
}

static int prove(const struct mdp_profile *p, const char *text, size_t len, struct mdp_diags *d)
{
	struct mdp_profile back;
	struct mdp_diags why;
	bool same;

	mdp_diags_init(&why);
	if (mdp_profile_load_mem(NULL, p->name, text, len, &back, &why)) {
		mdp_diags_add(d, p->path, 0, 0,
			      "cannot pin profile %s: its YAML does not load back (%s)", p->name,
			      why.n ? why.v[0].msg : "unknown error");
		mdp_diags_free(&why);
		return -EINVAL;
	}
	mdp_diags_free(&why);
	same = same_settings(p, &back);
	mdp_profile_free(&back);
	if (!same)
		mdp_diags_add(d, p->path, 0, 0,
			      "cannot pin profile %s: its YAML loads back to other settings",
			      p->name);
	return same ? 0 : -EINVAL;
}

int mdp_pin_write(const struct mdp_profile *p, char **out, size_t *len, struct mdp_diags *d)
{
	const cyaml_config_t cfg = {.log_level = CYAML_LOG_ERROR,
				    .mem_fn = pin_mem,
				    .flags = CYAML_CFG_STYLE_BLOCK | CYAML_CFG_DOCUMENT_DELIM};
	struct schema *s = malloc(sizeof(*s));
	struct strings st = {0};
	struct doc doc = {0};
	char *text = NULL;
	size_t n = 0;
	cyaml_err_t ce = CYAML_OK;
	int err;

	if (!s)
		return -ENOMEM;
	schema_build(s);
	fill(&st, p, &doc);
	if (!(err = st.err) &&
	    (ce = cyaml_save_data(&text, &n, &cfg, &s->top_value, &doc, 0)) != CYAML_OK) {
		mdp_diags_add(d, p->path, 0, 0, "cannot pin profile %s: libcyaml: %s", p->name,
			      cyaml_strerror(ce));
		err = ce == CYAML_ERR_OOM ? -ENOMEM : -EIO;
	}
	doc_free(&doc, &st);
	free(s);
	if (!err && (err = restyle(text, n, out, len)))
		mdp_diags_add(d, p->path, 0, 0, "cannot pin profile %s: libyaml: %s", p->name,
			      strerror(-err));
	free(text);
	n = err ? 0 : *len;
	if (!err && (err = prove(p, *out, n, d)))
		free(*out);
	return err;
}

/* ---- names pinned to UUIDs ------------------------------------------------------ */

static bool in_list(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* The array a name of rule i stands for, or NULL with a diag saying why not. */
static const struct mdp_array *pin_array(const struct mdp_profile *p, size_t i, const char *name,
					 const struct mdp_system *s, struct mdp_diags *d)
{
	const struct mdp_rule *r = &p->rules[i];
	const struct mdp_array *a = mdp_system_array(s, name);

	if (!a)
		mdp_diags_add(d, r->pos.file, r->pos.line, r->pos.col,
			      "rule %zu names array %s, which is not on this system: it cannot be "
			      "pinned to a UUID",
			      i + 1, name);
	else if (!a->uuid[0])
		mdp_diags_add(d, r->pos.file, r->pos.line, r->pos.col,
			      "rule %zu names array %s, whose UUID is unknown (see 'mdprofile "
			      "status -v'): it cannot be pinned",
			      i + 1, name);
	return a && a->uuid[0] ? a : NULL;
}

/*
 * The UUIDs rule i matches by name: with uuids of its own as well, both
 * must hold, so only the names' UUIDs in its list. NULL when any name
 * cannot be pinned.
 */
static char **pin_rule_uuids(const struct mdp_profile *p, size_t i, const struct mdp_system *s,
			     size_t *n, struct mdp_diags *d)
{
	const struct mdp_match *m = &p->rules[i].match;
	char **v = calloc(m->n_names, sizeof(*v));
	bool ok = v != NULL;

	*n = 0;
	for (size_t k = 0; ok && k < m->n_names; k++) {
		const struct mdp_array *a = pin_array(p, i, m->names[k], s, d);
		if (!a) {
			ok = false;
		} else if ((!m->n_uuids || in_list(m->uuids, m->n_uuids, a->uuid)) &&
			   !in_list(v, *n, a->uuid)) {
			if (!(v[*n] = strdup(a->uuid)))
				ok = false;
			else
				(*n)++;
		}
	}
	if (ok && !*n)
		mdp_diags_add(d, p->rules[i].pos.file, p->rules[i].pos.line, p->rules[i].pos.col,
			      "rule %zu matches no array here: none of its names has one of its "
			      "UUIDs",
			      i + 1);
	if (!ok || !*n) {
		mdp_strs_free(v, *n);
		return NULL;
	}
	return v;
}

static void pin_replace(struct mdp_match *m, char **uuids, size_t n)
{
	mdp_strs_free(m->names, m->n_names);
	mdp_strs_free(m->uuids, m->n_uuids);
	m->names = NULL;
	m->n_names = 0;
	m->uuids = uuids;
	m->n_uuids = n;
}

int mdp_pin_uuids(struct mdp_profile *p, const struct mdp_system *s, struct mdp_diags *d)
{
	char ***all = calloc(p->n_rules ? p->n_rules : 1, sizeof(*all));
	size_t *counts = calloc(p->n_rules ? p->n_rules : 1, sizeof(*counts));
	size_t errors = d->n;
	int err = all && counts ? 0 : -ENOMEM;

	/* Every rule first, so every name that cannot be pinned is reported and p stays whole. */
	for (size_t i = 0; !err && i < p->n_rules; i++)
		if (p->rules[i].match.n_names)
			all[i] = pin_rule_uuids(p, i, s, &counts[i], d);
	if (!err && d->n > errors)
		err = -EINVAL;
	for (size_t i = 0; all && counts && i < p->n_rules; i++) {
		if (!err && all[i])
			pin_replace(&p->rules[i].match, all[i], counts[i]);
		else
			for (size_t k = 0; all[i] && k < counts[i]; k++)
				free(all[i][k]);
		if (err && all[i])
			free(all[i]);
	}
	free(all);
	free(counts);
	return err;
}
