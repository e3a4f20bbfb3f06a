/*
 * profile: turning one profile text into a struct mdp_profile.
 *
 * The libcyaml schema below is the only place key names are spelt. The
 * text goes through three passes (see profile.h):
 *
 *   1. walk_doc() pulls libyaml events and walks the schema tables along
 *      with them. It builds a small tree of nodes with line:col, reports
 *      syntax errors at libyaml's problem_mark, and reports unknown keys,
 *      duplicate keys, missing keys and wrong node types, all of them.
 *   2. Only when pass 1 found nothing, the tree is emitted again as plain
 *      YAML (shorthands such as "match: all" expanded, every scalar
 *      quoted) and libcyaml loads it into struct raw_profile, all strings.
 *   3. build() parses every string with full checks, taking positions from
 *      the tree, and fills the mdp_profile.
 *
 * extends, merging and file access live in profile_load.c; the small
 * value parsers in profile_value.c.
 */
#include "profile.h"
#include "profile_int.h"

#include <cyaml/cyaml.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "num.h"

/* ---- what libcyaml loads: every scalar as a string ---------------------- */

struct raw_match {
	char *all; /* only reachable through the "match: all" shorthand */
	char **names;
	unsigned names_count;
	char **levels;
	unsigned levels_count;
	char **uuids;
	unsigned uuids_count;
};

struct raw_rule {
	struct raw_match *match;
	char *v[MDP_T_COUNT]; /* indexed by tunable: the field offset names it */
};

struct raw_raid {
	char *v[MDP_T_COUNT];
};

struct raw_service {
	char *name;
	char *optional;
};

struct raw_services {
	struct raw_service *pause;
	unsigned pause_count;
};

struct raw_profile {
	char *description;
	char *extends;
	char *memory_budget;
	struct raw_raid *raid;
	struct raw_rule *arrays;
	unsigned arrays_count;
	struct raw_services *services;
};

#define OPT                    CYAML_FLAG_OPTIONAL
#define STR(key, type, member) CYAML_FIELD_STRING_PTR(key, OPT, type, member, 0, CYAML_UNLIMITED)
#define LIST(key, type, member, entry)                                                             \
	CYAML_FIELD_SEQUENCE(key, CYAML_FLAG_POINTER | OPT, type, member, entry, 0, CYAML_UNLIMITED)

static const cyaml_schema_value_t str_entry = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

static const cyaml_schema_field_t match_fields[] = {
    STR("all", struct raw_match, all),
    LIST("names", struct raw_match, names, &str_entry),
    LIST("levels", struct raw_match, levels, &str_entry),
    LIST("uuids", struct raw_match, uuids, &str_entry),
    CYAML_FIELD_END,
};

static const cyaml_schema_field_t rule_fields[] = {
    CYAML_FIELD_MAPPING_PTR("match", CYAML_FLAG_DEFAULT, struct raw_rule, match, match_fields),
    STR("stripe_cache_size", struct raw_rule, v[MDP_T_STRIPE_CACHE_SIZE]),
    STR("sync_speed_min", struct raw_rule, v[MDP_T_SYNC_SPEED_MIN]),
    STR("sync_speed_max", struct raw_rule, v[MDP_T_SYNC_SPEED_MAX]),
    STR("read_ahead", struct raw_rule, v[MDP_T_READ_AHEAD_KB]),
    STR("member_read_ahead", struct raw_rule, v[MDP_T_MEMBER_READ_AHEAD_KB]),
    STR("group_thread_cnt", struct raw_rule, v[MDP_T_GROUP_THREAD_CNT]),
    STR("preread_bypass_threshold", struct raw_rule, v[MDP_T_PREREAD_BYPASS]),
    CYAML_FIELD_END,
};

static const cyaml_schema_field_t raid_fields[] = {
    STR("speed_limit_min", struct raw_raid, v[MDP_T_SPEED_LIMIT_MIN]),
    STR("speed_limit_max", struct raw_raid, v[MDP_T_SPEED_LIMIT_MAX]),
    CYAML_FIELD_END,
};

static const cyaml_schema_field_t service_fields[] = {
    CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_DEFAULT, struct raw_service, name, 0,
			   CYAML_UNLIMITED),
    STR("optional", struct raw_service, optional),
    CYAML_FIELD_END,
};

static const cyaml_schema_value_t service_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_service, service_fields),
};

static const cyaml_schema_field_t services_fields[] = {
    LIST("pause", struct raw_services, pause, &service_entry),
    CYAML_FIELD_END,
};

static const cyaml_schema_value_t rule_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_rule, rule_fields),
};

static const cyaml_schema_field_t top_fields[] = {
    STR("description", struct raw_profile, description),
    STR("extends", struct raw_profile, extends),
    STR("memory_budget", struct raw_profile, memory_budget),
    CYAML_FIELD_MAPPING_PTR("raid", OPT, struct raw_profile, raid, raid_fields),
    LIST("arrays", struct raw_profile, arrays, &rule_entry),
    CYAML_FIELD_MAPPING_PTR("services", OPT, struct raw_profile, services, services_fields),
    CYAML_FIELD_END,
};

static const cyaml_schema_value_t top_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct raw_profile, top_fields),
};

/*
 * Mappings that may also be written as one scalar: "match: all" and a
 * service given by its bare name. A hidden key is only reachable through
 * the shorthand, never written out in mapping form.
 */
static const struct shorthand {
	const cyaml_schema_field_t *fields;
	const char *key;  /* the key the scalar stands for */
	const char *only; /* the one scalar allowed, or NULL for any */
	bool hidden;
	const char *expect; /* for messages: what may be written here */
} shorthands[] = {
    {match_fields, "all", "all", true, "'all' or a mapping with names, levels or uuids"},
    {service_fields, "name", NULL, false, "a service name or a mapping with name, optional"},
};

static const struct shorthand *shorthand_of(const cyaml_schema_field_t *fields)
{
	for (size_t i = 0; i < sizeof(shorthands) / sizeof(shorthands[0]); i++)
		if (shorthands[i].fields == fields)
			return &shorthands[i];
	return NULL;
}

static bool field_hidden(const cyaml_schema_field_t *f, const struct shorthand *sh)
{
	return sh && sh->hidden && !strcmp(f->key, sh->key);
}

/* ---- diagnostics --------------------------------------------------------- */

void mdp_lctx_err(struct mdp_lctx *c, unsigned line, unsigned col, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	c->nerr++;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0) {
		va_end(ap);
		c->oom = true;
		return;
	}
	va_end(ap);
	if (mdp_diags_add(c->d, c->file, line, col, "%s", msg))
		c->oom = true;
	free(msg);
}

/*
 * Quote user text in a message: one printable ASCII line, cut short, so a
 * hostile profile cannot spoof output or flood the terminal.
 */
const char *mdp_show(char *buf, size_t len, const char *s)
{
	size_t i = 0, max = len - 1;

	if (max > 4 + 3)
		max -= 3; /* room for "..." */
	for (; i < max && s[i]; i++)
		buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (s[i] && len > 4 + 3) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

/* ---- pass 1: the libyaml walk -------------------------------------------- */

enum mdp_node_kind { MDP_N_NONE, MDP_N_SCALAR, MDP_N_MAP, MDP_N_SEQ };

/* What pass 1 saw: positions for pass 3's messages, the text for pass 2. */
struct mdp_node {
	enum mdp_node_kind kind;
	unsigned line, col;   /* of the value */
	unsigned kline, kcol; /* of the key, inside a mapping */
	char *key;            /* inside a mapping */
	char *text;           /* scalars */
	struct mdp_node *kids;
	size_t n, cap;
};

struct walk {
	yaml_parser_t parser;
	struct mdp_lctx *c;
	const char *data;
	size_t len;
	size_t first; /* first diag of this walk in c->d */
	bool stop;    /* syntax error: nothing more can be trusted */
};

static void node_pos(struct mdp_node *n, const yaml_event_t *ev)
{
	n->line = (unsigned)ev->start_mark.line + 1;
	n->col = (unsigned)ev->start_mark.column + 1;
}

static void mdp_node_free(struct mdp_node *n)
{
	for (size_t i = 0; i < n->n; i++)
		mdp_node_free(&n->kids[i]);
	free(n->kids);
	free(n->key);
	free(n->text);
	memset(n, 0, sizeof(*n));
}

static void node_add(struct walk *w, struct mdp_node *parent, struct mdp_node *kid)
{
	if (parent->n == parent->cap) {
		size_t cap = parent->cap ? parent->cap * 2 : 4;
		struct mdp_node *k = realloc(parent->kids, cap * sizeof(*k));
		if (!k) {
			w->c->oom = true;
			mdp_node_free(kid);
			return;
		}
		parent->kids = k;
		parent->cap = cap;
	}
	parent->kids[parent->n++] = *kid;
}

static const struct mdp_node *mdp_node_get(const struct mdp_node *n, const char *key)
{
	for (size_t i = 0; n && i < n->n; i++)
		if (n->kids[i].key && !strcmp(n->kids[i].key, key))
			return &n->kids[i];
	return NULL;
}

/* line:col of a byte offset, for reader errors that carry no mark. */
static void offset_pos(const struct walk *w, size_t off, unsigned *line, unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && i < w->len; i++) {
		if (w->data[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/*
 * libyaml hands out events up to the broken spot, so a schema complaint on
 * the same line is usually the syntax error seen through a half-parsed
 * node: keep only what was found on earlier lines.
 */
static void prune_after(struct walk *w, unsigned line)
{
	struct mdp_diags *d = w->c->d;
	size_t k = w->first;

	for (size_t i = w->first; i < d->n; i++) {
		if (d->v[i].line >= line) {
			free(d->v[i].file);
			free(d->v[i].msg);
			continue;
		}
		d->v[k++] = d->v[i];
	}
	d->n = k;
}

static void syntax_error(struct walk *w)
{
	const yaml_parser_t *p = &w->parser;
	const char *problem = p->problem ? p->problem : "cannot parse";
	char msg[256];
	unsigned line, col;
	int n;

	if (p->error == YAML_MEMORY_ERROR) {
		w->c->oom = true;
		return;
	}
	if (p->error == YAML_READER_ERROR) {
		offset_pos(w, p->problem_offset, &line, &col);
	} else {
		line = (unsigned)p->problem_mark.line + 1;
		col = (unsigned)p->problem_mark.column + 1;
	}
	prune_after(w, line);
	/* libyaml's wording for a tab says nothing about tabs. */
	if (p->error == YAML_SCANNER_ERROR && p->problem_mark.index < w->len &&
	    w->data[p->problem_mark.index] == '\t') {
		mdp_lctx_err(w->c, line, col,
			     "yaml syntax error: tab character (indent with spaces)");
		return;
	}
	n = snprintf(msg, sizeof(msg), "%s", problem);
	if (p->context && n > 0 && (size_t)n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - (size_t)n, " (%s that started at line %u)",
			 p->context, (unsigned)p->context_mark.line + 1);
	if (msg[0] >= 'A' && msg[0] <= 'Z')
		msg[0] = (char)(msg[0] - 'A' + 'a');
	mdp_lctx_err(w->c, line, col, "yaml syntax error: %s", msg);
}

static bool pull(struct walk *w, yaml_event_t *ev)
{
	if (w->stop || w->c->oom)
		return false;
	if (!yaml_parser_parse(&w->parser, ev)) {
		syntax_error(w);
		w->stop = true;
		return false;
	}
	return true;
}

static int depth_step(const yaml_event_t *ev)
{
	if (ev->type == YAML_MAPPING_START_EVENT || ev->type == YAML_SEQUENCE_START_EVENT)
		return 1;
	if (ev->type == YAML_MAPPING_END_EVENT || ev->type == YAML_SEQUENCE_END_EVENT)
		return -1;
	return 0;
}

/* Consume ev and, if it opens a collection, everything up to its end. */
static void skip(struct walk *w, yaml_event_t *ev)
{
	int depth = depth_step(ev);

	yaml_event_delete(ev);
	while (depth > 0 && pull(w, ev)) {
		depth += depth_step(ev);
		yaml_event_delete(ev);
	}
}

static void skip_next(struct walk *w)
{
	yaml_event_t ev;

	if (pull(w, &ev))
		skip(w, &ev);
}

static const char *found_name(const yaml_event_t *ev, char *buf, size_t len)
{
	char s[48];

	switch (ev->type) {
	case YAML_MAPPING_START_EVENT:
		return "a mapping";
	case YAML_SEQUENCE_START_EVENT:
		return "a list";
	case YAML_SCALAR_EVENT:
		snprintf(buf, len, "'%s'",
			 mdp_show(s, sizeof(s), (const char *)ev->data.scalar.value));
		return buf;
	default:
		return "something else";
	}
}

static const char *expect_name(const cyaml_schema_value_t *sv)
{
	const struct shorthand *sh;

	switch (sv->type) {
	case CYAML_MAPPING:
		sh = shorthand_of(sv->mapping.fields);
		return sh ? sh->expect : "a mapping";
	case CYAML_SEQUENCE:
		return "a list";
	default:
		return "a single value";
	}
}

static void wrong_type(struct walk *w, const yaml_event_t *ev, const cyaml_schema_value_t *sv,
		       const char *what)
{
	char buf[64];

	mdp_lctx_err(w->c, (unsigned)ev->start_mark.line + 1, (unsigned)ev->start_mark.column + 1,
		     "wrong type for %s: expected %s, found %s", what, expect_name(sv),
		     found_name(ev, buf, sizeof(buf)));
}

static void walk_value(struct walk *w, yaml_event_t *ev, const cyaml_schema_value_t *sv,
		       const char *what, struct mdp_node *out);

static unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[65], prev;

	if (la > 64 || lb > 64)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = prev + (a[i - 1] != b[j - 1]);
			unsigned del = row[j] + 1, ins = row[j - 1] + 1;
			prev = row[j];
			row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
	}
	return row[lb];
}

/*
 * The closest valid key: at most two edits away, or one containing the
 * other ("read_ahead_kb" -> "read_ahead"). NULL when nothing is close.
 */
static const char *suggest(const cyaml_schema_field_t *fields, const struct shorthand *sh,
			   const char *key)
{
	const char *best = NULL;
	unsigned best_score = 3;

	for (const cyaml_schema_field_t *f = fields; f->key; f++) {
		unsigned score = edit_distance(key, f->key);
		size_t lk = strlen(key), lf = strlen(f->key);
		if (field_hidden(f, sh))
			continue;
		if (!strcasecmp(key, f->key))
			score = 0;
		else if (score > 2 && lk >= 4 && lf >= 4 &&
			 (strstr(key, f->key) || strstr(f->key, key)))
			score = 2;
		if (score < best_score && score < lf) {
			best = f->key;
			best_score = score;
		}
	}
	return best;
}

/* Where each mapping sits, to say where a misplaced key belongs. */
static const struct {
	const cyaml_schema_field_t *fields;
	const char *where;
} places[] = {
    {top_fields, "at the top level"},         {raid_fields, "under 'raid'"},
    {rule_fields, "in an entry of 'arrays'"}, {match_fields, "under 'match'"},
    {services_fields, "under 'services'"},    {service_fields, "in an entry of 'pause'"},
};

static const char *suggest(const cyaml_schema_field_t *fields, const struct shorthand *sh,
			   const char *key);

/* The place elsewhere in the schema with the closest key, if any. */
static const char *home_of(const char *key, const char **near)
{
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		const struct shorthand *sh = shorthand_of(places[i].fields);
		*near = suggest(places[i].fields, sh, key);
		if (*near && !strcmp(*near, key))
			return places[i].where;
	}
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		*near = suggest(places[i].fields, shorthand_of(places[i].fields), key);
		if (*near)
			return places[i].where;
	}
	return NULL;
}

static void unknown_key(struct walk *w, const struct mdp_node *k,
			const cyaml_schema_field_t *fields, const struct shorthand *sh)
{
	const char *s = suggest(fields, sh, k->key), *where = NULL, *near = NULL;
	char valid[256] = "", shown[72];
	size_t n = 0;

	mdp_show(shown, sizeof(shown), k->key);
	if (!s && (where = home_of(k->key, &near)) && !strcmp(near, k->key)) {
		mdp_lctx_err(w->c, k->kline, k->kcol, "misplaced key '%s': it belongs %s", shown,
			     where);
		return;
	}
	if (!s && where) {
		mdp_lctx_err(w->c, k->kline, k->kcol, "unknown key '%s' (did you mean '%s' %s?)",
			     shown, near, where);
		return;
	}
	if (s) {
		mdp_lctx_err(w->c, k->kline, k->kcol, "unknown key '%s' (did you mean '%s'?)",
			     shown, s);
		return;
	}
	for (const cyaml_schema_field_t *f = fields; f->key; f++) {
		if (field_hidden(f, sh))
			continue;
		n += (size_t)snprintf(valid + n, sizeof(valid) - n, "%s%s", n ? ", " : "", f->key);
		if (n >= sizeof(valid))
			break;
	}
	mdp_lctx_err(w->c, k->kline, k->kcol, "unknown key '%s' (valid here: %s)", shown, valid);
}

static const cyaml_schema_field_t *find_field(const cyaml_schema_field_t *fields,
					      const struct shorthand *sh, const char *key)
{
	for (const cyaml_schema_field_t *f = fields; f->key; f++)
		if (!strcmp(f->key, key) && !field_hidden(f, sh))
			return f;
	return NULL;
}

static bool has_nul(const yaml_event_t *ev)
{
	return memchr(ev->data.scalar.value, 0, ev->data.scalar.length) != NULL;
}

/* One key: value pair of a mapping; kev is the key's event (consumed). */
static void walk_pair(struct walk *w, yaml_event_t *kev, const cyaml_schema_field_t *fields,
		      const struct shorthand *sh, struct mdp_node *map)
{
	struct mdp_node kid = {0};
	const cyaml_schema_field_t *f;
	const struct mdp_node *dup;
	yaml_event_t vev;
	char what[96];

	if (kev->type != YAML_SCALAR_EVENT || has_nul(kev)) {
		mdp_lctx_err(w->c, (unsigned)kev->start_mark.line + 1,
			     (unsigned)kev->start_mark.column + 1, "invalid key: expected a name");
		skip(w, kev);
		skip_next(w);
		return;
	}
	kid.kline = (unsigned)kev->start_mark.line + 1;
	kid.kcol = (unsigned)kev->start_mark.column + 1;
	kid.key = strdup((const char *)kev->data.scalar.value);
	yaml_event_delete(kev);
	if (!kid.key) {
		w->c->oom = true;
		return;
	}
	f = find_field(fields, sh, kid.key);
	dup = mdp_node_get(map, kid.key);
	if (!f)
		unknown_key(w, &kid, fields, sh);
	else if (dup)
		mdp_lctx_err(w->c, kid.kline, kid.kcol, "duplicate key '%s' (first at line %u)",
			     kid.key, dup->kline);
	if (!f || dup) {
		mdp_node_free(&kid);
		skip_next(w);
		return;
	}
	if (!pull(w, &vev)) {
		mdp_node_free(&kid);
		return;
	}
	snprintf(what, sizeof(what), "'%s'", f->key);
	walk_value(w, &vev, &f->value, what, &kid);
	node_add(w, map, &kid);
}

static void check_required(struct walk *w, const cyaml_schema_field_t *fields,
			   const struct shorthand *sh, const char *what, const struct mdp_node *map)
{
	for (const cyaml_schema_field_t *f = fields; f->key; f++) {
		if ((f->value.flags & CYAML_FLAG_OPTIONAL) || field_hidden(f, sh))
			continue;
		if (!mdp_node_get(map, f->key))
			mdp_lctx_err(w->c, map->line, map->col, "missing key '%s' in %s", f->key,
				     what);
	}
}

static void walk_map(struct walk *w, const cyaml_schema_value_t *sv, const char *what,
		     struct mdp_node *map)
{
	const cyaml_schema_field_t *fields = sv->mapping.fields;
	const struct shorthand *sh = shorthand_of(fields);
	yaml_event_t ev;

	map->kind = MDP_N_MAP;
	while (pull(w, &ev)) {
		if (ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			check_required(w, fields, sh, what, map);
			return;
		}
		walk_pair(w, &ev, fields, sh, map);
	}
}

#define MAX_ENTRIES 1024

static void walk_seq(struct walk *w, const cyaml_schema_value_t *sv, const char *what,
		     struct mdp_node *seq)
{
	yaml_event_t ev;
	char ewhat[128];
	size_t count = 0;

	seq->kind = MDP_N_SEQ;
	snprintf(ewhat, sizeof(ewhat), "an entry of %s", what);
	while (pull(w, &ev)) {
		struct mdp_node kid = {0};
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			return;
		}
		if (++count > MAX_ENTRIES) {
			/* Keeps later quadratic checks (duplicate services) cheap. */
			if (count == MAX_ENTRIES + 1)
				mdp_lctx_err(w->c, (unsigned)ev.start_mark.line + 1,
					     (unsigned)ev.start_mark.column + 1,
					     "too many entries in %s (more than %d)", what,
					     MAX_ENTRIES);
			skip(w, &ev);
			continue;
		}
		walk_value(w, &ev, sv->sequence.entry, ewhat, &kid);
		node_add(w, seq, &kid);
	}
}

static bool is_null(const yaml_event_t *ev)
{
	return ev->type == YAML_SCALAR_EVENT && ev->data.scalar.length == 0 &&
	       ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* A scalar where a mapping with a shorthand is expected: expand it. */
static void walk_shorthand(struct walk *w, const yaml_event_t *ev, const struct shorthand *sh,
			   const char *what, struct mdp_node *out)
{
	const char *text = (const char *)ev->data.scalar.value;
	struct mdp_node kid = {0};
	char shown[72];

	if (sh->only && strcmp(text, sh->only)) {
		mdp_lctx_err(w->c, out->line, out->col, "invalid value '%s' for %s: expected %s",
			     mdp_show(shown, sizeof(shown), text), what, sh->expect);
		return;
	}
	out->kind = MDP_N_MAP;
	kid.kind = MDP_N_SCALAR;
	kid.line = kid.kline = out->line;
	kid.col = kid.kcol = out->col;
	kid.key = strdup(sh->key);
	kid.text = strdup(text);
	if (!kid.key || !kid.text) {
		mdp_node_free(&kid);
		w->c->oom = true;
		return;
	}
	node_add(w, out, &kid);
}

static void walk_scalar(struct walk *w, yaml_event_t *ev, const cyaml_schema_value_t *sv,
			const char *what, struct mdp_node *out)
{
	const struct shorthand *sh =
	    sv->type == CYAML_MAPPING ? shorthand_of(sv->mapping.fields) : NULL;

	if (is_null(ev))
		mdp_lctx_err(w->c, out->line, out->col, "missing value for %s", what);
	else if (has_nul(ev))
		mdp_lctx_err(w->c, out->line, out->col, "invalid value for %s: contains a NUL byte",
			     what);
	else if (sv->type == CYAML_STRING) {
		out->kind = MDP_N_SCALAR;
		out->text = strdup((const char *)ev->data.scalar.value);
		if (!out->text)
			w->c->oom = true;
	} else if (sh)
		walk_shorthand(w, ev, sh, what, out);
	else
		wrong_type(w, ev, sv, what);
	yaml_event_delete(ev);
}

/* Walk one node whose first event is ev (consumed) against schema sv. */
static void walk_value(struct walk *w, yaml_event_t *ev, const cyaml_schema_value_t *sv,
		       const char *what, struct mdp_node *out)
{
	node_pos(out, ev);
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		walk_scalar(w, ev, sv, what, out);
		return;
	case YAML_MAPPING_START_EVENT:
	case YAML_SEQUENCE_START_EVENT:
		if (sv->type !=
		    (ev->type == YAML_MAPPING_START_EVENT ? CYAML_MAPPING : CYAML_SEQUENCE)) {
			wrong_type(w, ev, sv, what);
			skip(w, ev);
			return;
		}
		yaml_event_delete(ev);
		if (sv->type == CYAML_MAPPING)
			walk_map(w, sv, what, out);
		else
			walk_seq(w, sv, what, out);
		return;
	case YAML_ALIAS_EVENT:
		mdp_lctx_err(w->c, out->line, out->col,
			     "yaml aliases are not supported in profiles");
		break;
	default:
		break;
	}
	yaml_event_delete(ev);
}

static bool pull_type(struct walk *w, yaml_event_t *ev, yaml_event_type_t type)
{
	if (!pull(w, ev))
		return false;
	if (ev->type == type)
		return true;
	yaml_event_delete(ev);
	return false;
}

static void walk_root(struct walk *w, struct mdp_node *root)
{
	yaml_event_t ev;

	if (!pull(w, &ev))
		return;
	if (ev.type == YAML_DOCUMENT_START_EVENT) {
		yaml_event_delete(&ev);
		if (!pull(w, &ev))
			return;
		if (!is_null(&ev)) {
			walk_value(w, &ev, &top_schema, "the profile", root);
			return;
		}
		node_pos(root, &ev);
	}
	mdp_lctx_err(w->c, root->line ? root->line : 1, root->col ? root->col : 1,
		     "profile is empty: expected a mapping of settings");
	yaml_event_delete(&ev);
}

static void walk_doc(struct walk *w, struct mdp_node *root)
{
	yaml_event_t ev;

	if (!pull_type(w, &ev, YAML_STREAM_START_EVENT))
		return;
	yaml_event_delete(&ev);
	walk_root(w, root);
	if (!pull_type(w, &ev, YAML_DOCUMENT_END_EVENT))
		return;
	yaml_event_delete(&ev);
	if (!pull(w, &ev))
		return;
	if (ev.type == YAML_DOCUMENT_START_EVENT)
		mdp_lctx_err(w->c, (unsigned)ev.start_mark.line + 1,
			     (unsigned)ev.start_mark.column + 1,
			     "more than one yaml document: a profile is a single document");
	yaml_event_delete(&ev);
}

/* Pass 1. Returns 0 with the tree, or -EINVAL/-ENOMEM (errors in c). */
static int pass_walk(struct mdp_lctx *c, const char *data, size_t len, struct mdp_node *root)
{
	struct walk w = {.c = c, .data = data, .len = len, .first = c->d->n};
	size_t nerr = c->nerr;

	if (!yaml_parser_initialize(&w.parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&w.parser, (const unsigned char *)data, len);
	walk_doc(&w, root);
	yaml_parser_delete(&w.parser);
	if (c->oom)
		return -ENOMEM;
	if (c->nerr != nerr || root->kind != MDP_N_MAP)
		return -EINVAL;
	return 0;
}

/* ---- pass 2: libcyaml ---------------------------------------------------- */

struct obuf {
	char *p;
	size_t n, cap;
};

static int obuf_write(void *data, unsigned char *s, size_t size)
{
	struct obuf *b = data;

	if (b->n + size + 1 > b->cap) {
		size_t cap = (b->n + size + 1) * 2;
		char *p = realloc(b->p, cap);
		if (!p)
			return 0;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, size);
	b->n += size;
	return 1;
}

static int emit_scalar(yaml_emitter_t *em, const char *s)
{
	yaml_event_t ev;

	/* Double quotes: every value stays a string, whatever it looks like. */
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (const yaml_char_t *)s, (int)strlen(s),
					  0, 1, YAML_DOUBLE_QUOTED_SCALAR_STYLE))
		return -ENOMEM;
	return yaml_emitter_emit(em, &ev) ? 0 : -EINVAL;
}

static int emit_node(yaml_emitter_t *em, const struct mdp_node *n)
{
	yaml_event_t ev;
	int ok, r = 0;

	if (n->kind == MDP_N_SCALAR)
		return emit_scalar(em, n->text);
	if (n->kind == MDP_N_MAP)
		ok = yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
							 YAML_FLOW_MAPPING_STYLE);
	else
		ok = yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
							  YAML_FLOW_SEQUENCE_STYLE);
	if (!ok || !yaml_emitter_emit(em, &ev))
		return -EINVAL;
	for (size_t i = 0; i < n->n && !r; i++) {
		if (n->kind == MDP_N_MAP)
			r = emit_scalar(em, n->kids[i].key);
		if (!r)
			r = emit_node(em, &n->kids[i]);
	}
	if (r)
		return r;
	if (n->kind == MDP_N_MAP)
		ok = yaml_mapping_end_event_initialize(&ev);
	else
		ok = yaml_sequence_end_event_initialize(&ev);
	return ok && yaml_emitter_emit(em, &ev) ? 0 : -EINVAL;
}

static int emit_doc(yaml_emitter_t *em, const struct mdp_node *root)
{
	yaml_event_t ev;
	int r;

	if (!yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) ||
	    !yaml_emitter_emit(em, &ev))
		return -EINVAL;
	if (!yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) ||
	    !yaml_emitter_emit(em, &ev))
		return -EINVAL;
	r = emit_node(em, root);
	if (r)
		return r;
	if (!yaml_document_end_event_initialize(&ev, 1) || !yaml_emitter_emit(em, &ev))
		return -EINVAL;
	if (!yaml_stream_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev))
		return -EINVAL;
	return yaml_emitter_flush(em) ? 0 : -EINVAL;
}

/* The tree as plain YAML for libcyaml: shorthands expanded, all quoted. */
static int emit_tree(const struct mdp_node *root, struct obuf *b)
{
	yaml_emitter_t em;
	int r;

	if (!yaml_emitter_initialize(&em))
		return -ENOMEM;
	yaml_emitter_set_output(&em, obuf_write, b);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, -1);
	r = emit_doc(&em, root);
	if (r && em.error == YAML_MEMORY_ERROR)
		r = -ENOMEM;
	yaml_emitter_delete(&em);
	return r;
}

struct cyaml_log {
	char msg[160]; /* first error, for the "cannot happen" diag */
};

/* libcyaml reports through here; a library must not print. */
__attribute__((format(printf, 3, 0))) static void cyaml_capture(cyaml_log_t level, void *ctx,
								const char *fmt, va_list args)
{
	struct cyaml_log *log = ctx;
	size_t n;

	if (level < CYAML_LOG_ERROR || log->msg[0])
		return;
	vsnprintf(log->msg, sizeof(log->msg), fmt, args);
	n = strlen(log->msg);
	while (n && (log->msg[n - 1] == '\n' || log->msg[n - 1] == ' '))
		log->msg[--n] = '\0';
}

static cyaml_config_t cyaml_cfg(struct cyaml_log *log)
{
	return (cyaml_config_t){
	    .log_fn = cyaml_capture,
	    .log_ctx = log,
	    .mem_fn = cyaml_mem,
	    .log_level = CYAML_LOG_ERROR,
	    .flags = CYAML_CFG_NO_ALIAS,
	};
}

/* Pass 2. Pass 1 accepted the tree, so a failure here is our bug or OOM. */
static int pass_cyaml(struct mdp_lctx *c, const struct mdp_node *root, struct raw_profile **raw)
{
	struct obuf b = {0};
	struct cyaml_log log = {{0}};
	cyaml_config_t cfg = cyaml_cfg(&log);
	cyaml_err_t e;
	int r;

	r = emit_tree(root, &b);
	if (r) {
		free(b.p);
		if (r == -ENOMEM)
			return r;
		mdp_lctx_err(c, 0, 0, "cannot load profile: internal yaml emitter error");
		return -EINVAL;
	}
	e = cyaml_load_data((const uint8_t *)b.p, b.n, &cfg, &top_schema, (cyaml_data_t **)raw,
			    NULL);
	free(b.p);
	if (e == CYAML_ERR_OOM)
		return -ENOMEM;
	if (e != CYAML_OK) {
		mdp_lctx_err(c, 0, 0, "cannot load profile: %s%s%s", cyaml_strerror(e),
			     log.msg[0] ? ": " : "", log.msg);
		return -EINVAL;
	}
	return 0;
}

static void raw_free(struct raw_profile *raw)
{
	struct cyaml_log log = {{0}};
	cyaml_config_t cfg = cyaml_cfg(&log);

	cyaml_free(&cfg, &top_schema, raw, 0);
}

/* ---- pass 3: values ------------------------------------------------------ */

struct build {
	struct mdp_lctx *c;
	struct mdp_profile *p;
};

static struct mdp_pos pos_of(const struct build *b, const struct mdp_node *n)
{
	return (struct mdp_pos){.file = b->c->file, .line = n ? n->line : 0, .col = n ? n->col : 0};
}

static void err_node(struct build *b, const struct mdp_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void err_node(struct build *b, const struct mdp_node *n, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0) {
		va_end(ap);
		b->c->oom = true;
		return;
	}
	va_end(ap);
	mdp_lctx_err(b->c, n ? n->line : 0, n ? n->col : 0, "%s", msg);
	free(msg);
}

static char *dup_str(struct build *b, const char *s)
{
	char *r = strdup(s);
	if (!r)
		b->c->oom = true;
	return r;
}

static bool is_size(enum mdp_tunable t)
{
	return !strcmp(mdp_tunable_info(t)->unit, "KiB");
}

/* Decimal, no sign, no junk, no overflow. */
static void parse_number(struct build *b, enum mdp_tunable t, const char *key, const char *s,
			 const struct mdp_node *n, struct mdp_setting *out)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	const char *extra = t == MDP_T_STRIPE_CACHE_SIZE ? " or auto"
			    : ti->allows_system          ? " or system"
							 : "";
	char shown[72];
	uint64_t v;
	const char *p;

	mdp_show(shown, sizeof(shown), s);
	if (*s == '-') {
		err_node(b, n, "%s '%s' is negative: expected %" PRIu64 "..%" PRIu64 "%s", key,
			 shown, ti->min, ti->max, extra);
		return;
	}
	if (*s < '0' || *s > '9') {
		err_node(b, n, "%s '%s' is not a number: expected %" PRIu64 "..%" PRIu64 "%s", key,
			 shown, ti->min, ti->max, extra);
		return;
	}
	if (mdp_num_lead(s, SIZE_MAX, &v, &p)) {
		err_node(b, n, "%s '%s' is too large: expected %" PRIu64 "..%" PRIu64, key, shown,
			 ti->min, ti->max);
		return;
	}
	if (*p) {
		err_node(b, n, "trailing junk in '%s': expected a number", shown);
		return;
	}
	if (v < ti->min || v > ti->max) {
		err_node(b, n, "%s %" PRIu64 " is out of range (%" PRIu64 "..%" PRIu64 ")", key, v,
			 ti->min, ti->max);
		return;
	}
	out->kind = MDP_S_NUM;
	out->num = v;
}

static void parse_size(struct build *b, enum mdp_tunable t, const char *key, const char *s,
		       const struct mdp_node *n, struct mdp_setting *out)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	const char *why;
	char shown[72];
	uint64_t kib;

	mdp_show(shown, sizeof(shown), s);
	if (mdp_parse_size_kib(s, &kib, &why)) {
		err_node(b, n, "%s '%s' %s", key, shown, why);
		return;
	}
	if (kib < ti->min || kib > ti->max) {
		err_node(b, n, "%s %s is out of range (%" PRIu64 "..%" PRIu64 " KiB)", key, shown,
			 ti->min, ti->max);
		return;
	}
	out->kind = MDP_S_NUM;
	out->num = kib;
}

static void parse_setting(struct build *b, enum mdp_tunable t, const char *key, const char *s,
			  const struct mdp_node *n, struct mdp_setting *out)
{
	struct mdp_setting set = {.pos = pos_of(b, n)};

	if (!strcmp(s, "auto")) {
		if (t == MDP_T_STRIPE_CACHE_SIZE)
			set.kind = MDP_S_AUTO;
		else
			err_node(b, n,
				 "%s 'auto' is not allowed: only stripe_cache_size can be auto",
				 key);
	} else if (!strcmp(s, "system")) {
		if (mdp_tunable_info(t)->allows_system)
			set.kind = MDP_S_SYSTEM;
		else
			err_node(b, n,
				 "%s 'system' is not allowed: only sync_speed_min and "
				 "sync_speed_max can be system",
				 key);
	} else if (is_size(t)) {
		parse_size(b, t, key, s, n, &set);
	} else {
		parse_number(b, t, key, s, n, &set);
	}
	if (set.kind != MDP_S_UNSET)
		*out = set;
}

/*
 * Every string field of a struct whose char *v[MDP_T_COUNT] sits at
 * offset base: the field's offset says which tunable it is.
 */
static void parse_settings(struct build *b, const cyaml_schema_field_t *fields, size_t base,
			   char *const *v, const struct mdp_node *map, struct mdp_setting *set)
{
	for (const cyaml_schema_field_t *f = fields; f->key; f++) {
		size_t t;
		if (f->value.type != CYAML_STRING || f->data_offset < base)
			continue;
		t = (f->data_offset - base) / sizeof(char *);
		if (t < MDP_T_COUNT && v[t])
			parse_setting(b, (enum mdp_tunable)t, f->key, v[t],
				      mdp_node_get(map, f->key), &set[t]);
	}
}

static void check_order(struct build *b, const struct mdp_setting *set, enum mdp_tunable lo,
			enum mdp_tunable hi, const struct mdp_node *map)
{
	const char *klo = mdp_tunable_info(lo)->key, *khi = mdp_tunable_info(hi)->key;

	if (set[lo].kind != MDP_S_NUM || set[hi].kind != MDP_S_NUM || set[lo].num <= set[hi].num)
		return;
	err_node(b, mdp_node_get(map, klo), "%s %" PRIu64 " is above %s %" PRIu64, klo, set[lo].num,
		 khi, set[hi].num);
}

static void parse_budget(struct build *b, const char *s, const struct mdp_node *n)
{
	struct mdp_budget bud = {.pos = pos_of(b, n)};
	size_t len = strlen(s);
	char shown[72];
	const char *why;
	uint64_t kib;

	mdp_show(shown, sizeof(shown), s);
	if (len && s[len - 1] == '%') {
		const char *end;
		uint64_t v;
		if (len > 4 || mdp_num_lead(s, len - 1, &v, &end) || end != s + len - 1)
			err_node(b, n,
				 "memory_budget '%s' is not a whole percentage: expected 1%%..90%%",
				 shown);
		else if (v < 1 || v > 90)
			err_node(b, n, "memory_budget %s is out of range (1%%..90%%)", shown);
		else {
			bud.kind = MDP_BUDGET_PERCENT;
			bud.value = v;
		}
	} else if (s[0] >= '0' && s[0] <= '9' && strspn(s, "0123456789") == len) {
		err_node(b, n,
			 "memory_budget '%s' has no unit: use a percentage (25%%) or a size "
			 "(512MiB)",
			 shown);
	} else if (mdp_parse_size_kib(s, &kib, &why)) {
		err_node(b, n, "memory_budget '%s' %s", shown, why);
	} else if (!kib || kib > UINT64_MAX / 1024) {
		err_node(b, n, "memory_budget %s is out of range: expected above 0", shown);
	} else {
		bud.kind = MDP_BUDGET_BYTES;
		bud.value = kib * 1024;
	}
	if (bud.kind != MDP_BUDGET_UNSET)
		b->p->budget = bud;
}

static void empty_list(struct build *b, const struct mdp_node *m, const char *key)
{
	const struct mdp_node *l = mdp_node_get(m, key);

	if (l && !l->n)
		err_node(b, l, "empty '%s' list in match: remove it or add entries", key);
}

static char **match_strings(struct build *b, char *const *v, size_t n, const struct mdp_node *l,
			    bool uuid)
{
	char **out = n ? calloc(n, sizeof(*out)) : NULL;
	char shown[72], norm[33];

	if (n && !out) {
		b->c->oom = true;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct mdp_node *e = l && i < l->n ? &l->kids[i] : NULL;
		mdp_show(shown, sizeof(shown), v[i]);
		if (uuid && mdp_ident_uuid_norm(v[i], norm))
			err_node(b, e,
				 "invalid uuid '%s': expected 32 hex digits, as mdadm prints "
				 "them (a1b2c3d4:e5f6a7b8:...) or with dashes",
				 shown);
		else if (!uuid && !mdp_ident_dev_ok(v[i]))
			err_node(b, e, "invalid array name '%s': expected a device name like md2",
				 shown);
		else
			out[i] = dup_str(b, uuid ? norm : v[i]);
	}
	return out;
}

static void parse_levels(struct build *b, const struct raw_match *rm, const struct mdp_node *l,
			 struct mdp_match *m)
{
	char shown[72];

	if (!rm->levels_count)
		return;
	m->levels = calloc(rm->levels_count, sizeof(*m->levels));
	if (!m->levels) {
		b->c->oom = true;
		return;
	}
	m->n_levels = rm->levels_count;
	for (size_t i = 0; i < rm->levels_count; i++) {
		m->levels[i] = mdp_ident_level_parse(rm->levels[i]);
		if (m->levels[i] == MDP_LEVEL_UNKNOWN)
			err_node(b, l && i < l->n ? &l->kids[i] : NULL,
				 "unknown raid level '%s': expected linear, raid0, raid1, raid4, "
				 "raid5, raid6 or raid10",
				 mdp_show(shown, sizeof(shown), rm->levels[i]));
	}
}

static void parse_match(struct build *b, const struct raw_match *rm, const struct mdp_node *mn,
			struct mdp_match *m)
{
	m->all = rm->all != NULL;
	empty_list(b, mn, "names");
	empty_list(b, mn, "levels");
	empty_list(b, mn, "uuids");
	if (!m->all && !rm->names_count && !rm->levels_count && !rm->uuids_count &&
	    !mdp_node_get(mn, "names") && !mdp_node_get(mn, "levels") && !mdp_node_get(mn, "uuids"))
		err_node(b, mn, "empty match: use 'all' or give names, levels or uuids");
	m->names = match_strings(b, rm->names, rm->names_count, mdp_node_get(mn, "names"), false);
	m->n_names = m->names ? rm->names_count : 0;
	m->uuids = match_strings(b, rm->uuids, rm->uuids_count, mdp_node_get(mn, "uuids"), true);
	m->n_uuids = m->uuids ? rm->uuids_count : 0;
	parse_levels(b, rm, mdp_node_get(mn, "levels"), m);
}

static void parse_rules(struct build *b, const struct raw_profile *raw, const struct mdp_node *l)
{
	struct mdp_profile *p = b->p;

	if (!raw->arrays_count)
		return;
	p->rules = calloc(raw->arrays_count, sizeof(*p->rules));
	if (!p->rules) {
		b->c->oom = true;
		return;
	}
	p->n_rules = raw->arrays_count;
	for (size_t i = 0; i < raw->arrays_count; i++) {
		const struct raw_rule *rr = &raw->arrays[i];
		const struct mdp_node *rn = l && i < l->n ? &l->kids[i] : NULL;
		struct mdp_rule *r = &p->rules[i];

		r->pos = pos_of(b, rn);
		parse_match(b, rr->match, mdp_node_get(rn, "match"), &r->match);
		parse_settings(b, rule_fields, offsetof(struct raw_rule, v), rr->v, rn, r->set);
		check_order(b, r->set, MDP_T_SYNC_SPEED_MIN, MDP_T_SYNC_SPEED_MAX, rn);
		check_order(b, r->set, MDP_T_PREREAD_BYPASS, MDP_T_STRIPE_CACHE_SIZE, rn);
	}
}

static bool parse_bool(const char *s, bool *v)
{
	static const char *const yes[] = {"true", "True", "TRUE"};
	static const char *const no[] = {"false", "False", "FALSE"};

	for (size_t i = 0; i < 3; i++) {
		if (!strcmp(s, yes[i]) || !strcmp(s, no[i])) {
			*v = !strcmp(s, yes[i]);
			return true;
		}
	}
	return false;
}

static void parse_service(struct build *b, const struct raw_service *rs, const struct mdp_node *e,
			  size_t i)
{
	struct mdp_service *s = &b->p->services[i];
	const struct mdp_node *nn = mdp_node_get(e, "name");
	const char *why = mdp_ident_service_check(rs->name);
	char shown[72];

	s->pos = pos_of(b, nn);
	if (why)
		err_node(b, nn, "invalid service name '%s': %s",
			 mdp_show(shown, sizeof(shown), rs->name), why);
	for (size_t j = 0; !why && j < i; j++)
		if (b->p->services[j].name && !strcmp(b->p->services[j].name, rs->name))
			err_node(b, nn, "duplicate service '%s' (first listed at line %u)",
				 rs->name, b->p->services[j].pos.line);
	if (rs->optional && !parse_bool(rs->optional, &s->optional))
		err_node(b, mdp_node_get(e, "optional"),
			 "optional '%s' is not a boolean: expected true or false",
			 mdp_show(shown, sizeof(shown), rs->optional));
	s->name = dup_str(b, rs->name);
}

static void parse_services(struct build *b, const struct raw_profile *raw,
			   const struct mdp_node *root)
{
	const struct mdp_node *l = mdp_node_get(mdp_node_get(root, "services"), "pause");
	const struct raw_services *rs = raw->services;

	if (!rs || !rs->pause_count)
		return;
	b->p->services = calloc(rs->pause_count, sizeof(*b->p->services));
	if (!b->p->services) {
		b->c->oom = true;
		return;
	}
	b->p->n_services = rs->pause_count;
	for (size_t i = 0; i < rs->pause_count; i++)
		parse_service(b, &rs->pause[i], l && i < l->n ? &l->kids[i] : NULL, i);
}

static void parse_extends(struct build *b, const char *s, const struct mdp_node *n,
			  struct mdp_extends *ext)
{
	char shown[72];

	if (!mdp_ident_profile_name_ok(s)) {
		err_node(b, n, "extends '%s' is not a profile name: use a name like 'balanced'",
			 mdp_show(shown, sizeof(shown), s));
		return;
	}
	ext->name = dup_str(b, s);
	ext->pos = pos_of(b, n);
}

static void build(struct build *b, const struct raw_profile *raw, const struct mdp_node *root,
		  struct mdp_extends *ext)
{
	const struct mdp_node *raid = mdp_node_get(root, "raid");

	if (raw->description)
		b->p->description = dup_str(b, raw->description);
	if (raw->extends)
		parse_extends(b, raw->extends, mdp_node_get(root, "extends"), ext);
	if (raw->memory_budget)
		parse_budget(b, raw->memory_budget, mdp_node_get(root, "memory_budget"));
	if (raw->raid) {
		parse_settings(b, raid_fields, offsetof(struct raw_raid, v), raw->raid->v, raid,
			       b->p->global);
		check_order(b, b->p->global, MDP_T_SPEED_LIMIT_MIN, MDP_T_SPEED_LIMIT_MAX, raid);
	}
	parse_rules(b, raw, mdp_node_get(root, "arrays"));
	parse_services(b, raw, root);
}

int mdp_profile_parse_text(struct mdp_lctx *c, const char *data, size_t len, struct mdp_profile *p,
			   struct mdp_extends *ext)
{
	struct mdp_node root = {0};
	struct raw_profile *raw = NULL;
	struct build b = {.c = c, .p = p};
	size_t nerr = c->nerr;
	int r;

	r = pass_walk(c, data, len, &root);
	if (!r)
		r = pass_cyaml(c, &root, &raw);
	if (!r) {
		build(&b, raw, &root, ext);
		raw_free(raw);
		r = c->oom ? -ENOMEM : c->nerr != nerr ? -EINVAL : 0;
	}
	mdp_node_free(&root);
	return r;
}

/*
 * The field offsets in rule_fields/raid_fields name the tunable; check that
 * each key is that tunable's registry key and of the right scope, so the
 * schema and tunable.c cannot drift apart (run by the unit tests).
 */
static bool fields_match(const cyaml_schema_field_t *fields, size_t base, bool global)
{
	for (const cyaml_schema_field_t *f = fields; f->key; f++) {
		const struct mdp_tunable_info *ti;
		if (f->value.type != CYAML_STRING)
			continue;
		ti = mdp_tunable_info((enum mdp_tunable)((f->data_offset - base) / sizeof(char *)));
		if (!ti || strcmp(ti->key, f->key) || (ti->scope == MDP_SCOPE_GLOBAL) != global)
			return false;
	}
	return true;
}

bool mdp_profile_schema_ok(void)
{
	return fields_match(rule_fields, offsetof(struct raw_rule, v), false) &&
	       fields_match(raid_fields, offsetof(struct raw_raid, v), true);
}
