/*
 * profile_walk: pass 1 of loading a profile, libyaml's events checked
 * against the key table (profile_int.h) as they come.
 *
 * It builds a small tree of the profile's nodes with their line:col, and
 * reports syntax errors at libyaml's problem_mark, unknown keys (with a
 * did-you-mean), duplicate keys, missing keys, wrong node types, aliases
 * and tags, all of them. Values are left as text for pass 2 (profile.c),
 * with whether YAML would resolve their type (plain) or not (quoted).
 *
 * libyaml's scanner walks the whole stack of open flow collections for
 * every token, so deep nesting costs time quadratic in the depth ("["
 * x 400000 took minutes). Nesting is therefore capped far above what a
 * profile needs, and the walk stops pulling events at the cap, at a
 * syntax error and after MDP_PROFILE_MAX_ERRORS errors.
 */
#include "profile.h"
#include "profile_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

/* A profile is five levels deep (the top, arrays, a rule, match, names). */
#define MAX_DEPTH   16
#define MAX_ENTRIES 1024

struct walk {
	yaml_parser_t parser;
	struct mdp_lctx *c;
	const char *data;
	size_t len;
	size_t first; /* first diag of this walk in c->d */
	int depth;    /* mappings and sequences open */
	bool stop;    /* nothing more is read: a syntax error, too deep, too many errors */
};

/* ---- the keys of a mapping ------------------------------------------------ */

/* What may be written in one mapping: its fields, then the registry's tunables. */
#define MAX_KEYS 24
struct keys {
	const char *name[MAX_KEYS];
	const struct mdp_field *field[MAX_KEYS]; /* NULL for a tunable */
	int tunable[MAX_KEYS];                   /* -1 for a field */
	size_t n;
	bool closed; /* the shape's: no looking elsewhere for an unknown key */
};

static bool hidden(const struct mdp_shape *sh, const struct mdp_field *f)
{
	return sh->short_hidden && f == sh->short_field;
}

static void keys_of(const struct mdp_shape *sh, struct keys *k)
{
	k->n = 0;
	k->closed = sh->closed;
	for (const struct mdp_field *f = sh->fields; f && f->key && k->n < MAX_KEYS; f++) {
		if (hidden(sh, f))
			continue;
		k->name[k->n] = f->key;
		k->field[k->n] = f;
		k->tunable[k->n++] = -1;
	}
	for (int t = 0; t < MDP_T_COUNT && k->n < MAX_KEYS; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info((enum mdp_tunable)t);
		if (!(sh->tunable_scopes & (1u << ti->scope)))
			continue;
		k->name[k->n] = ti->key;
		k->field[k->n] = NULL;
		k->tunable[k->n++] = t;
	}
}

const char *mdp_list_sep(size_t i, size_t n, const char *last)
{
	if (!i)
		return "";
	return i + 1 < n ? ", " : last;
}

void mdp_shape_keys_text(const struct mdp_shape *sh, char *buf, size_t len)
{
	struct keys k;
	size_t n = 0;

	keys_of(sh, &k);
	buf[0] = '\0';
	for (size_t i = 0; i < k.n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", mdp_list_sep(i, k.n, " or "),
				      k.name[i]);
}

const char *mdp_node_key(const struct mdp_node *n)
{
	if (n->field)
		return n->field->key;
	return n->tunable >= 0 ? mdp_tunable_info((enum mdp_tunable)n->tunable)->key : "";
}

static const struct mdp_node *node_find(const struct mdp_node *map, const struct mdp_field *f,
					int t)
{
	for (size_t i = 0; i < map->n; i++)
		if (map->kids[i].field == f && map->kids[i].tunable == t)
			return &map->kids[i];
	return NULL;
}

/* A mapping of the profile and where it sits, for "it belongs in an entry of 'arrays'". */
struct place {
	const struct mdp_shape *sh;
	char where[64];
};

/* Every mapping of the profile, in the order a reader meets them. */
static size_t places(const struct mdp_shape *sh, const struct mdp_field *via, bool entry,
		     struct place *v, size_t n, size_t cap)
{
	if (sh->type == MDP_SH_LIST)
		return places(sh->entry, via, true, v, n, cap);
	if (sh->type != MDP_SH_MAP || n == cap)
		return n;
	v[n].sh = sh;
	if (!via)
		snprintf(v[n].where, sizeof(v[n].where), "at the top level");
	else
		snprintf(v[n].where, sizeof(v[n].where), "%s '%s'",
			 entry ? "in an entry of" : "under", via->key);
	n++;
	for (const struct mdp_field *f = sh->fields; f && f->key; f++)
		n = places(f->shape, f, false, v, n, cap);
	return n;
}

/* ---- tree ------------------------------------------------------------------ */

void mdp_node_free(struct mdp_node *n)
{
	for (size_t i = 0; i < n->n; i++)
		mdp_node_free(&n->kids[i]);
	free(n->kids);
	free(n->text);
	memset(n, 0, sizeof(*n));
}

static void node_add(struct walk *w, struct mdp_node *parent, struct mdp_node *kid)
{
	if (parent->n == parent->cap) {
		size_t cap = parent->cap ? parent->cap * 2 : 4;
		struct mdp_node *k = reallocarray(parent->kids, cap, sizeof(*k));
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

static unsigned ev_line(const yaml_event_t *ev)
{
	return (unsigned)ev->start_mark.line + 1;
}

static unsigned ev_col(const yaml_event_t *ev)
{
	return (unsigned)ev->start_mark.column + 1;
}

/* ---- events and syntax errors --------------------------------------------- */

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

static int depth_step(const yaml_event_t *ev)
{
	if (ev->type == YAML_MAPPING_START_EVENT || ev->type == YAML_SEQUENCE_START_EVENT)
		return 1;
	if (ev->type == YAML_MAPPING_END_EVENT || ev->type == YAML_SEQUENCE_END_EVENT)
		return -1;
	return 0;
}

/* The next event; false (nothing to delete) once the walk has stopped. */
static bool pull(struct walk *w, yaml_event_t *ev)
{
	if (w->c->oom || mdp_lctx_full(w->c))
		w->stop = true;
	if (w->stop)
		return false;
	if (!yaml_parser_parse(&w->parser, ev)) {
		syntax_error(w);
		w->stop = true;
		return false;
	}
	w->depth += depth_step(ev);
	if (w->depth > MAX_DEPTH) {
		mdp_lctx_err(w->c, ev_line(ev), ev_col(ev),
			     "yaml nesting is too deep (more than %d levels)", MAX_DEPTH);
		yaml_event_delete(ev);
		w->stop = true;
		return false;
	}
	return true;
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

/* ---- messages -------------------------------------------------------------- */

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
			 mdp_text_safe(s, sizeof(s), (const char *)ev->data.scalar.value));
		return buf;
	default:
		return "something else";
	}
}

/* What may be written where sh is expected: "'all' or a mapping with names, levels or uuids". */
static const char *expect_name(const struct mdp_shape *sh, char *buf, size_t len)
{
	char keys[160];

	if (sh->type == MDP_SH_LIST)
		return sh->one_ok ? "a list or one word" : "a list";
	if (sh->type != MDP_SH_MAP && sh->or_map) {
		mdp_shape_keys_text(sh->or_map, keys, sizeof(keys));
		snprintf(buf, len, "a single value or a mapping with %s", keys);
		return buf;
	}
	if (sh->type != MDP_SH_MAP)
		return "a single value";
	if (!sh->short_field)
		return "a mapping";
	mdp_shape_keys_text(sh, keys, sizeof(keys));
	if (sh->short_only)
		snprintf(buf, len, "'%s' or a mapping with %s", sh->short_only, keys);
	else
		snprintf(buf, len, "%s or a mapping with %s", sh->short_what, keys);
	return buf;
}

static void wrong_type(struct walk *w, const yaml_event_t *ev, const struct mdp_shape *sh,
		       const char *what)
{
	char buf[64], exp[200];

	mdp_lctx_err(w->c, ev_line(ev), ev_col(ev), "wrong type for %s: expected %s, found %s",
		     what, expect_name(sh, exp, sizeof(exp)), found_name(ev, buf, sizeof(buf)));
}

/* The closest valid key (see mdp_ident_suggest). */
static const char *suggest(const struct keys *k, const char *key)
{
	return mdp_ident_suggest(key, k->name, k->n);
}

/* The place elsewhere in the profile with the closest key, if any. */
static bool home_of(const char *key, const char **near, char *where, size_t len)
{
	struct place v[16];
	size_t n = places(&mdp_profile_shape, NULL, false, v, 0, 16);
	struct keys k;

	for (int exact = 1; exact >= 0; exact--) {
		for (size_t i = 0; i < n; i++) {
			keys_of(v[i].sh, &k);
			*near = suggest(&k, key);
			if (*near && (!exact || !strcmp(*near, key))) {
				snprintf(where, len, "%s", v[i].where);
				return true;
			}
		}
	}
	return false;
}

static void unknown_key(struct walk *w, const char *key, unsigned line, unsigned col,
			const struct keys *k)
{
	const char *s = suggest(k, key), *near = NULL;
	char valid[256] = "", shown[72], where[64];
	bool home = false;
	size_t n = 0;

	mdp_text_safe(shown, sizeof(shown), key);
	if (!s && !k->closed && (home = home_of(key, &near, where, sizeof(where))) &&
	    !strcmp(near, key)) {
		mdp_lctx_err(w->c, line, col, "misplaced key '%s': it belongs %s", shown, where);
		return;
	}
	if (!s && home) {
		mdp_lctx_err(w->c, line, col, "unknown key '%s' (did you mean '%s' %s?)", shown,
			     near, where);
		return;
	}
	if (s) {
		mdp_lctx_err(w->c, line, col, "unknown key '%s' (did you mean '%s'?)", shown, s);
		return;
	}
	for (size_t i = 0; i < k->n && n < sizeof(valid); i++)
		n += (size_t)snprintf(valid + n, sizeof(valid) - n, "%s%s", n ? ", " : "",
				      k->name[i]);
	mdp_lctx_err(w->c, line, col, "unknown key '%s' (valid here: %s)", shown, valid);
}

/* ---- the walk ---------------------------------------------------------------- */

static void walk_value(struct walk *w, yaml_event_t *ev, const struct mdp_shape *sh,
		       const char *what, struct mdp_node *out);

static bool has_nul(const yaml_event_t *ev)
{
	return memchr(ev->data.scalar.value, 0, ev->data.scalar.length) != NULL;
}

/* kid names a key of k; false when the key is not valid in this mapping. */
static bool lookup(const struct keys *k, const char *key, struct mdp_node *kid)
{
	for (size_t i = 0; i < k->n; i++) {
		if (!strcmp(k->name[i], key)) {
			kid->field = k->field[i];
			kid->tunable = k->tunable[i];
			return true;
		}
	}
	return false;
}

/* One key: value pair of a mapping; kev is the key's event (consumed). */
static void walk_pair(struct walk *w, yaml_event_t *kev, const struct keys *k, struct mdp_node *map)
{
	struct mdp_node kid = {.tunable = -1, .kline = ev_line(kev), .kcol = ev_col(kev)};
	const struct mdp_node *dup;
	yaml_event_t vev;
	char what[96];

	if (kev->type != YAML_SCALAR_EVENT || has_nul(kev)) {
		mdp_lctx_err(w->c, kid.kline, kid.kcol, "invalid key: expected a name");
		skip(w, kev);
		skip_next(w);
		return;
	}
	if (!lookup(k, (const char *)kev->data.scalar.value, &kid)) {
		unknown_key(w, (const char *)kev->data.scalar.value, kid.kline, kid.kcol, k);
		yaml_event_delete(kev);
		skip_next(w);
		return;
	}
	yaml_event_delete(kev);
	if ((dup = node_find(map, kid.field, kid.tunable))) {
		mdp_lctx_err(w->c, kid.kline, kid.kcol, "duplicate key '%s' (first at line %u)",
			     mdp_node_key(&kid), dup->kline);
		skip_next(w);
		return;
	}
	if (!pull(w, &vev))
		return;
	snprintf(what, sizeof(what), "'%s'", mdp_node_key(&kid));
	walk_value(w, &vev, kid.field ? kid.field->shape : &mdp_tunable_value_shape, what, &kid);
	node_add(w, map, &kid);
}

static void check_required(struct walk *w, const struct mdp_shape *sh, const char *what,
			   const struct mdp_node *map)
{
	for (const struct mdp_field *f = sh->fields; f && f->key; f++) {
		if (f->required && !hidden(sh, f) && !node_find(map, f, -1))
			mdp_lctx_err(w->c, map->line, map->col, "missing key '%s' in %s", f->key,
				     what);
	}
}

static void walk_map(struct walk *w, const struct mdp_shape *sh, const char *what,
		     struct mdp_node *map)
{
	yaml_event_t ev;
	struct keys k;

	keys_of(sh, &k);
	map->kind = MDP_N_MAP;
	while (pull(w, &ev)) {
		if (ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			check_required(w, sh, what, map);
			return;
		}
		walk_pair(w, &ev, &k, map);
	}
}

static void walk_seq(struct walk *w, const struct mdp_shape *sh, const char *what,
		     struct mdp_node *seq)
{
	yaml_event_t ev;
	char ewhat[128];
	size_t count = 0;

	seq->kind = MDP_N_SEQ;
	snprintf(ewhat, sizeof(ewhat), "an entry of %s", what);
	while (pull(w, &ev)) {
		struct mdp_node kid = {.tunable = -1};
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			return;
		}
		if (++count > MAX_ENTRIES) {
			/* Keeps later quadratic checks (duplicate services) cheap. */
			if (count == MAX_ENTRIES + 1)
				mdp_lctx_err(w->c, ev_line(&ev), ev_col(&ev),
					     "too many entries in %s (more than %d)", what,
					     MAX_ENTRIES);
			skip(w, &ev);
			continue;
		}
		walk_value(w, &ev, sh->entry, ewhat, &kid);
		node_add(w, seq, &kid);
	}
}

static bool is_plain(const yaml_event_t *ev)
{
	return ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !ev->data.scalar.tag;
}

/* No value at all: empty, or a word both YAML 1.1 and 1.2 read as null. */
static bool is_null(const yaml_event_t *ev)
{
	static const char *const words[] = {"", "~", "null", "Null", "NULL"};

	if (ev->type != YAML_SCALAR_EVENT || !is_plain(ev))
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp((const char *)ev->data.scalar.value, words[i]))
			return true;
	return false;
}

/* A scalar where a mapping with a shorthand is expected: expand it. */
static void walk_shorthand(struct walk *w, const yaml_event_t *ev, const struct mdp_shape *sh,
			   const char *what, struct mdp_node *out)
{
	const char *text = (const char *)ev->data.scalar.value;
	struct mdp_node kid = {.kind = MDP_N_SCALAR, .field = sh->short_field, .tunable = -1};
	char shown[72], exp[200];

	if (sh->short_only && strcmp(text, sh->short_only)) {
		mdp_lctx_err(w->c, out->line, out->col, "invalid value '%s' for %s: expected %s",
			     mdp_text_safe(shown, sizeof(shown), text), what,
			     expect_name(sh, exp, sizeof(exp)));
		return;
	}
	out->kind = MDP_N_MAP;
	kid.plain = is_plain(ev);
	kid.line = kid.kline = out->line;
	kid.col = kid.kcol = out->col;
	if (!(kid.text = strdup(text))) {
		w->c->oom = true;
		return;
	}
	node_add(w, out, &kid);
}

/* One scalar where a list that allows it is expected: a list of that one entry. */
static void walk_one(struct walk *w, const yaml_event_t *ev, struct mdp_node *out)
{
	struct mdp_node kid = {.kind = MDP_N_SCALAR, .tunable = -1, .plain = is_plain(ev)};

	out->kind = MDP_N_SEQ;
	kid.line = out->line;
	kid.col = out->col;
	if (!(kid.text = strdup((const char *)ev->data.scalar.value))) {
		w->c->oom = true;
		return;
	}
	node_add(w, out, &kid);
}

static void walk_scalar(struct walk *w, yaml_event_t *ev, const struct mdp_shape *sh,
			const char *what, struct mdp_node *out)
{
	if (is_null(ev))
		mdp_lctx_err(w->c, out->line, out->col, "missing value for %s", what);
	else if (has_nul(ev))
		mdp_lctx_err(w->c, out->line, out->col, "invalid value for %s: contains a NUL byte",
			     what);
	else if (sh->type == MDP_SH_SCALAR) {
		out->kind = MDP_N_SCALAR;
		out->plain = is_plain(ev);
		if (!(out->text = strdup((const char *)ev->data.scalar.value)))
			w->c->oom = true;
	} else if (sh->type == MDP_SH_MAP && sh->short_field)
		walk_shorthand(w, ev, sh, what, out);
	else if (sh->type == MDP_SH_LIST && sh->one_ok)
		walk_one(w, ev, out);
	else
		wrong_type(w, ev, sh, what);
	yaml_event_delete(ev);
}

/*
 * A tag other than a node's default would make YAML tools read the value
 * as something other than what it looks like: refuse it. !!str is kept,
 * as a quoted scalar.
 */
static const char *bad_tag(const yaml_event_t *ev)
{
	const char *tag = NULL, *want = NULL;

	if (ev->type == YAML_SCALAR_EVENT) {
		tag = (const char *)ev->data.scalar.tag;
		want = YAML_STR_TAG;
	} else if (ev->type == YAML_MAPPING_START_EVENT) {
		tag = (const char *)ev->data.mapping_start.tag;
		want = YAML_MAP_TAG;
	} else if (ev->type == YAML_SEQUENCE_START_EVENT) {
		tag = (const char *)ev->data.sequence_start.tag;
		want = YAML_SEQ_TAG;
	}
	return tag && strcmp(tag, want) ? tag : NULL;
}

/* Walk one node whose first event is ev (consumed) against shape sh. */
static void walk_value(struct walk *w, yaml_event_t *ev, const struct mdp_shape *sh,
		       const char *what, struct mdp_node *out)
{
	const char *tag = bad_tag(ev);
	char shown[72];

	out->line = ev_line(ev);
	out->col = ev_col(ev);
	if (tag) {
		if (!strncmp(tag, "tag:yaml.org,2002:", 18))
			snprintf(shown, sizeof(shown), "!!%.60s", tag + 18);
		else
			mdp_text_safe(shown, sizeof(shown), tag);
		mdp_lctx_err(w->c, out->line, out->col,
			     "yaml tag '%s' is not supported in profiles: remove it", shown);
		skip(w, ev);
		return;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		walk_scalar(w, ev, sh, what, out);
		return;
	case YAML_MAPPING_START_EVENT:
	case YAML_SEQUENCE_START_EVENT:
		if (ev->type == YAML_MAPPING_START_EVENT && sh->type == MDP_SH_SCALAR && sh->or_map)
			sh = sh->or_map;
		if (sh->type != (ev->type == YAML_MAPPING_START_EVENT ? MDP_SH_MAP : MDP_SH_LIST)) {
			wrong_type(w, ev, sh, what);
			skip(w, ev);
			return;
		}
		yaml_event_delete(ev);
		if (sh->type == MDP_SH_MAP)
			walk_map(w, sh, what, out);
		else
			walk_seq(w, sh, what, out);
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
			walk_value(w, &ev, &mdp_profile_shape, "the profile", root);
			return;
		}
		root->line = ev_line(&ev);
		root->col = ev_col(&ev);
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
		mdp_lctx_err(w->c, ev_line(&ev), ev_col(&ev),
			     "more than one yaml document: a profile is a single document");
	yaml_event_delete(&ev);
}

int mdp_profile_walk(struct mdp_lctx *c, const char *data, size_t len, struct mdp_node *root)
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
