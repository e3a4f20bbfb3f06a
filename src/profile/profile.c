/*
 * profile: turning one profile text into a struct mdp_profile.
 *
 * The key table below and the tunable registry (tunable.c) are the only
 * places in C where profile keys are spelt; messages that name keys take
 * them from there. A text goes through two passes (see profile.h):
 *
 *   1. mdp_profile_walk() (profile_walk.c) pulls libyaml's events against
 *      the key table and builds a tree of positioned nodes.
 *   2. build() below reads every value of that tree with full checks and
 *      fills the mdp_profile; the positions come with the nodes.
 *
 * extends, merging and file access live in profile_load.c; the value
 * rules (sizes, YAML scalar types) in profile_value.c.
 */
#include "profile.h"
#include "profile_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mdp_base.h"

/* ---- the key table -------------------------------------------------------- */

static const struct mdp_shape text = {.type = MDP_SH_SCALAR};
static const struct mdp_shape texts = {.type = MDP_SH_LIST, .entry = &text};
static const struct mdp_shape one_or_list = {.type = MDP_SH_LIST, .entry = &text, .one_ok = true};

/* A tunable's value: plain, or one bound (profile.h). */
enum { BOUND_AT_LEAST, BOUND_AT_MOST };
static const struct mdp_field bound_fields[] = {
    [BOUND_AT_LEAST] = {"at_least", &text},
    [BOUND_AT_MOST] = {"at_most", &text},
    {0},
};
static const struct mdp_shape bound = {.type = MDP_SH_MAP, .fields = bound_fields, .closed = true};
const struct mdp_shape mdp_tunable_value_shape = {.type = MDP_SH_SCALAR, .or_map = &bound};

enum { MATCH_ALL, MATCH_NAMES, MATCH_LEVELS, MATCH_UUIDS, MATCH_MEDIA };
static const struct mdp_field match_fields[] = {
    [MATCH_ALL] = {"all", &text},
    [MATCH_NAMES] = {"names", &texts},
    [MATCH_LEVELS] = {"levels", &texts},
    [MATCH_UUIDS] = {"uuids", &texts},
    [MATCH_MEDIA] = {"media", &one_or_list},
    {0},
};
static const struct mdp_shape match = {
    .type = MDP_SH_MAP,
    .fields = match_fields,
    .short_field = &match_fields[MATCH_ALL],
    .short_only = "all",
    .short_hidden = true,
};

enum { RULE_MATCH };
static const struct mdp_field rule_fields[] = {
    [RULE_MATCH] = {"match", &match, true},
    {0},
};
static const struct mdp_shape rule = {
    .type = MDP_SH_MAP,
    .fields = rule_fields,
    .tunable_scopes = 1u << MDP_SCOPE_ARRAY | 1u << MDP_SCOPE_DISK,
};
static const struct mdp_shape rules = {.type = MDP_SH_LIST, .entry = &rule};

static const struct mdp_field no_fields[] = {{0}};
static const struct mdp_shape raid = {
    .type = MDP_SH_MAP,
    .fields = no_fields,
    .tunable_scopes = 1u << MDP_SCOPE_GLOBAL,
};

enum { SERVICE_NAME, SERVICE_OPTIONAL, SERVICE_ONLY_ON, SERVICE_TIMEOUT };
static const struct mdp_field service_fields[] = {
    [SERVICE_NAME] = {"name", &text, true},
    [SERVICE_OPTIONAL] = {"optional", &text},
    [SERVICE_ONLY_ON] = {"only_on", &texts},
    [SERVICE_TIMEOUT] = {"timeout", &text},
    {0},
};
static const struct mdp_shape service = {
    .type = MDP_SH_MAP,
    .fields = service_fields,
    .short_field = &service_fields[SERVICE_NAME],
    .short_what = "a service name",
};
static const struct mdp_shape service_list = {.type = MDP_SH_LIST, .entry = &service};

enum { SERVICES_PAUSE };
static const struct mdp_field services_fields[] = {
    [SERVICES_PAUSE] = {"pause", &service_list},
    {0},
};
static const struct mdp_shape services = {.type = MDP_SH_MAP, .fields = services_fields};

enum { GOAL_LATENCY, GOAL_PERCENTILE };
static const struct mdp_field goal_fields[] = {
    [GOAL_LATENCY] = {"foreground_latency_ms", &text, true},
    [GOAL_PERCENTILE] = {"percentile", &text},
    {0},
};
static const struct mdp_shape goal = {.type = MDP_SH_MAP, .fields = goal_fields, .closed = true};

enum {
	TOP_DESCRIPTION,
	TOP_EXTENDS,
	TOP_BUDGET,
	TOP_GOAL,
	TOP_MAINT,
	TOP_RAID,
	TOP_ARRAYS,
	TOP_SERVICES
};
static const struct mdp_field top_fields[] = {
    [TOP_DESCRIPTION] = {"description", &text},
    [TOP_EXTENDS] = {"extends", &text},
    [TOP_BUDGET] = {"memory_budget", &text},
    [TOP_GOAL] = {"goal", &goal},
    [TOP_MAINT] = {"maintenance", &mdp_maint_shape},
    [TOP_RAID] = {"raid", &raid},
    [TOP_ARRAYS] = {"arrays", &rules},
    [TOP_SERVICES] = {"services", &services},
    {0},
};
const struct mdp_shape mdp_profile_shape = {.type = MDP_SH_MAP, .fields = top_fields};

const char *mdp_profile_key(enum mdp_profile_key k)
{
	const struct mdp_field *const keys[] = {
	    [MDP_PK_DESCRIPTION] = &top_fields[TOP_DESCRIPTION],
	    [MDP_PK_BUDGET] = &top_fields[TOP_BUDGET],
	    [MDP_PK_RAID] = &top_fields[TOP_RAID],
	    [MDP_PK_ARRAYS] = &top_fields[TOP_ARRAYS],
	    [MDP_PK_SERVICES] = &top_fields[TOP_SERVICES],
	    [MDP_PK_MATCH] = &rule_fields[RULE_MATCH],
	    [MDP_PK_ALL] = &match_fields[MATCH_ALL],
	    [MDP_PK_NAMES] = &match_fields[MATCH_NAMES],
	    [MDP_PK_LEVELS] = &match_fields[MATCH_LEVELS],
	    [MDP_PK_UUIDS] = &match_fields[MATCH_UUIDS],
	    [MDP_PK_PAUSE] = &services_fields[SERVICES_PAUSE],
	    [MDP_PK_NAME] = &service_fields[SERVICE_NAME],
	    [MDP_PK_OPTIONAL] = &service_fields[SERVICE_OPTIONAL],
	    [MDP_PK_ONLY_ON] = &service_fields[SERVICE_ONLY_ON],
	    [MDP_PK_TIMEOUT] = &service_fields[SERVICE_TIMEOUT],
	    [MDP_PK_EXTENDS] = &top_fields[TOP_EXTENDS],
	    [MDP_PK_AT_LEAST] = &bound_fields[BOUND_AT_LEAST],
	    [MDP_PK_AT_MOST] = &bound_fields[BOUND_AT_MOST],
	    [MDP_PK_MEDIA] = &match_fields[MATCH_MEDIA],
	    [MDP_PK_GOAL] = &top_fields[TOP_GOAL],
	    [MDP_PK_GOAL_LATENCY] = &goal_fields[GOAL_LATENCY],
	    [MDP_PK_MAINT] = &top_fields[TOP_MAINT],
	    [MDP_PK_MAINT_WINDOWS] = &mdp_maint_fields[MDP_MAINT_WINDOWS],
	    [MDP_PK_MAINT_HEAT] = &mdp_maint_fields[MDP_MAINT_HEAT],
	    [MDP_PK_MAINT_HOT_AT] = &mdp_heat_fields[MDP_HEAT_HOT_AT],
	    [MDP_PK_MAINT_COOL_BELOW] = &mdp_heat_fields[MDP_HEAT_COOL_BELOW],
	    [MDP_PK_MAINT_DEFER_TO] = &mdp_maint_fields[MDP_MAINT_DEFER_TO],
	    [MDP_PK_GOAL_PERCENTILE] = &goal_fields[GOAL_PERCENTILE],
	    [MDP_PK_MAINT_NOTIFY] = &mdp_maint_fields[MDP_MAINT_NOTIFY],
	    [MDP_PK_NOTIFY_COMMAND] = &mdp_notify_fields[MDP_NOTIFY_COMMAND],
	    [MDP_PK_NOTIFY_EVENTS] = &mdp_notify_fields[MDP_NOTIFY_EVENTS],
	};

	return (unsigned)k < sizeof(keys) / sizeof(keys[0]) ? keys[k]->key : "";
}

const char *mdp_bound_key(enum mdp_bound b)
{
	if (b == MDP_B_AT_LEAST)
		return bound_fields[BOUND_AT_LEAST].key;
	return b == MDP_B_AT_MOST ? bound_fields[BOUND_AT_MOST].key : "";
}

/*
 * A min that is sure to end above its max, whatever the system has: the
 * least the min can be (exact or a floor) above the most the max can be
 * (exact or a ceiling). A floor on the max or a ceiling on the min leaves
 * it to the plan, which sees the system's values.
 */
bool mdp_setting_crosses(const struct mdp_setting *lo, const struct mdp_setting *hi)
{
	if (lo->kind != MDP_S_NUM || hi->kind != MDP_S_NUM)
		return false;
	if (lo->bound == MDP_B_AT_MOST || hi->bound == MDP_B_AT_LEAST)
		return false;
	return lo->num > hi->num;
}

const char *mdp_setting_bound_text(const struct mdp_setting *s, char *buf, size_t len)
{
	if (s->bound == MDP_B_AT_LEAST)
		snprintf(buf, len, "at least %" PRIu64, s->num);
	else if (s->bound == MDP_B_AT_MOST)
		snprintf(buf, len, "at most %" PRIu64, s->num);
	else
		snprintf(buf, len, "%" PRIu64, s->num);
	return buf;
}

/* ---- diagnostics ------------------------------------------------------------ */

void mdp_lctx_err(struct mdp_lctx *c, unsigned line, unsigned col, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int r;

	if (++c->nerr > MDP_PROFILE_MAX_ERRORS) {
		if (c->nerr == MDP_PROFILE_MAX_ERRORS + 1 &&
		    mdp_diags_add(c->d, c->file, line, col,
				  "too many errors (more than %d): stopping here",
				  MDP_PROFILE_MAX_ERRORS))
			c->oom = true;
		return;
	}
	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0) {
		c->oom = true;
		return;
	}
	if (mdp_diags_add(c->d, c->file, line, col, "%s", msg))
		c->oom = true;
	free(msg);
}

bool mdp_lctx_full(const struct mdp_lctx *c)
{
	return c->nerr > MDP_PROFILE_MAX_ERRORS;
}

/* ---- pass 2: values ---------------------------------------------------------- */

struct build {
	struct mdp_lctx *c;
	struct mdp_profile *p;
	struct mdp_yaml_types *yt;
};

static const struct mdp_node *get(const struct mdp_node *map, const struct mdp_field *f)
{
	for (size_t i = 0; map && i < map->n; i++)
		if (map->kids[i].field == f)
			return &map->kids[i];
	return NULL;
}

static const struct mdp_node *get_tunable(const struct mdp_node *map, enum mdp_tunable t)
{
	for (size_t i = 0; map && i < map->n; i++)
		if (map->kids[i].tunable == (int)t)
			return &map->kids[i];
	return NULL;
}

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
	int r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0) {
		b->c->oom = true;
		return;
	}
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

/* " 1.1" when only YAML 1.1 reads a scalar so, " 1.2" when only 1.2 does. */
static const char *only_in(unsigned versions)
{
	if (versions == MDP_YAML_11)
		return " 1.1";
	return versions == MDP_YAML_12 ? " 1.2" : "";
}

/*
 * A plain scalar that YAML 1.1 or 1.2 reads as a number, a boolean or a
 * date would reach other tools as that, not as the text mdprofile sees.
 */
static bool not_text(struct build *b, const struct mdp_node *n, const char *what)
{
	unsigned v = 0;
	const char *type = n->plain ? mdp_yaml_type(b->yt, n->text, &v) : NULL;
	char shown[72];

	if (!type)
		return false;
	err_node(b, n, "%s '%s' is %s in yaml%s, not text: quote it", what,
		 mdp_text_safe(shown, sizeof(shown), n->text), type, only_in(v));
	return true;
}

/* "0100" -> "100": s without the zeros that lead its digits (one stays for 0). */
static const char *skip_zeros(const char *s)
{
	while (s[0] == '0' && s[1] >= '0' && s[1] <= '9')
		s++;
	return s;
}

/*
 * Numbers are written without leading zeros anywhere: YAML 1.1 reads a
 * plain 0100 as octal 64 and YAML 1.2 as 100, and the JSON Schema check
 * would see 64. yaml_number says the node is such a plain number.
 */
static bool leading_zeros(struct build *b, const struct mdp_node *n, const char *what,
			  bool yaml_number)
{
	const char *rest = skip_zeros(n->text);
	char shown[72], hint[72];

	if (rest == n->text)
		return false;
	mdp_text_safe(shown, sizeof(shown), n->text);
	mdp_text_safe(hint, sizeof(hint), rest);
	if (yaml_number)
		err_node(b, n, "%s '%s': leading zeros are ambiguous (octal in yaml 1.1); write %s",
			 what, shown, hint);
	else
		err_node(b, n, "%s '%s': leading zeros are not allowed; write %s", what, shown,
			 hint);
	return true;
}

/* What a plain decimal number must be: the key it stands under, its range. */
struct num_rule {
	const char *key;
	uint64_t min, max;
	const char *extra; /* said after the range: " or auto", " seconds", "" */
};

/* A number in another YAML notation: "+5", "0x10", "1e3", "4.5", "1_000", "1:30". */
static bool other_notation(struct build *b, const struct mdp_node *n, const struct num_rule *ti)
{
	unsigned v;
	const char *type = mdp_yaml_type(b->yt, n->text, &v);
	char shown[72];
	uint64_t num;

	if (!n->plain || mdp_all_digits(n->text) || !type || strcmp(type, "a number"))
		return false;
	mdp_text_safe(shown, sizeof(shown), n->text);
	if (mdp_yaml_int_value(n->text, &num))
		err_node(b, n, "%s '%s' is not a plain decimal number: write %" PRIu64, ti->key,
			 shown, num);
	else
		err_node(b, n,
			 "%s '%s' is not a plain decimal number: expected %" PRIu64 "..%" PRIu64
			 "%s",
			 ti->key, shown, ti->min, ti->max, ti->extra);
	return true;
}

/*
 * Plain decimal digits, in range. Every other spelling is refused with
 * what to write instead, because YAML tools would read it differently.
 * 0 with *out set, else -EINVAL (the error said).
 */
static int parse_uint(struct build *b, const struct num_rule *ti, const struct mdp_node *n,
		      uint64_t *out)
{
	const char *s = n->text, *end, *extra = ti->extra;
	char shown[72];
	uint64_t v;

	mdp_text_safe(shown, sizeof(shown), s);
	if (*s == '-') {
		err_node(b, n, "%s '%s' is negative: expected %" PRIu64 "..%" PRIu64 "%s", ti->key,
			 shown, ti->min, ti->max, extra);
	} else if (mdp_all_digits(s) && !n->plain) {
		err_node(b, n,
			 "%s '%s' is quoted, so yaml reads it as text: write %s without quotes",
			 ti->key, shown, skip_zeros(shown));
	} else if ((mdp_all_digits(s) && leading_zeros(b, n, ti->key, true)) ||
		   other_notation(b, n, ti)) {
		return -EINVAL;
	} else if (*s < '0' || *s > '9') {
		err_node(b, n, "%s '%s' is not a number: expected %" PRIu64 "..%" PRIu64 "%s",
			 ti->key, shown, ti->min, ti->max, extra);
	} else if (mdp_num_lead(s, SIZE_MAX, &v, &end)) {
		err_node(b, n, "%s '%s' is too large: expected %" PRIu64 "..%" PRIu64, ti->key,
			 shown, ti->min, ti->max);
	} else if (*end) {
		err_node(b, n, "trailing junk in '%s': expected a number", shown);
	} else if (v < ti->min || v > ti->max) {
		err_node(b, n, "%s %" PRIu64 " is out of range (%" PRIu64 "..%" PRIu64 ")", ti->key,
			 v, ti->min, ti->max);
	} else {
		*out = v;
		return 0;
	}
	return -EINVAL;
}

static void parse_number(struct build *b, enum mdp_tunable t, const struct mdp_node *n,
			 struct mdp_setting *out)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	const struct num_rule nr = {
	    .key = ti->key,
	    .min = ti->min,
	    .max = ti->max,
	    .extra = t == MDP_T_STRIPE_CACHE_SIZE ? " or auto"
		     : ti->allows_system          ? " or system"
						  : "",
	};

	if (!parse_uint(b, &nr, n, &out->num))
		out->kind = MDP_S_NUM;
}

static void parse_size(struct build *b, enum mdp_tunable t, const struct mdp_node *n,
		       struct mdp_setting *out)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	const char *why;
	char shown[72];
	uint64_t kib;

	mdp_text_safe(shown, sizeof(shown), n->text);
	if (mdp_parse_size_kib(n->text, &kib, &why)) {
		err_node(b, n, "%s '%s' %s", ti->key, shown, why);
	} else if (leading_zeros(b, n, ti->key, false)) {
		return;
	} else if (kib < ti->min || kib > ti->max) {
		err_node(b, n, "%s %s is out of range (%" PRIu64 "..%" PRIu64 " KiB)", ti->key,
			 shown, ti->min, ti->max);
	} else {
		out->kind = MDP_S_NUM;
		out->num = kib;
	}
}

/* "sync_speed_min and sync_speed_max": the tunables that take "system". */
static void system_keys(char *buf, size_t len)
{
	size_t n = 0, k = 0, total = 0;

	for (int t = 0; t < MDP_T_COUNT; t++)
		total += mdp_tunable_info((enum mdp_tunable)t)->allows_system;
	buf[0] = '\0';
	for (int t = 0; t < MDP_T_COUNT && n < len; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info((enum mdp_tunable)t);
		if (ti->allows_system)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      mdp_list_sep(k++, total, " and "), ti->key);
	}
}

static void parse_plain(struct build *b, enum mdp_tunable t, const struct mdp_node *n,
			struct mdp_setting *out)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	struct mdp_setting set = {.pos = pos_of(b, n)};
	char keys[128];

	if (!strcmp(n->text, "auto")) {
		if (t == MDP_T_STRIPE_CACHE_SIZE)
			set.kind = MDP_S_AUTO;
		else
			err_node(b, n, "%s 'auto' is not allowed: only %s can be auto", ti->key,
				 mdp_tunable_info(MDP_T_STRIPE_CACHE_SIZE)->key);
	} else if (!strcmp(n->text, "system")) {
		system_keys(keys, sizeof(keys));
		if (ti->allows_system)
			set.kind = MDP_S_SYSTEM;
		else
			err_node(b, n, "%s 'system' is not allowed: only %s can be system", ti->key,
				 keys);
	} else if (!strcmp(ti->unit, "KiB")) {
		parse_size(b, t, n, &set);
	} else {
		parse_number(b, t, n, &set);
	}
	if (set.kind != MDP_S_UNSET)
		*out = set;
}

/*
 * {at_least: V} or {at_most: V}: one key, V in the plain form's rules.
 * Not system: it follows the sysctl and has no number of its own to
 * compare with.
 */
static void parse_bounded(struct build *b, enum mdp_tunable t, const struct mdp_node *n,
			  struct mdp_setting *out)
{
	const char *key = mdp_tunable_info(t)->key;
	const char *lo = bound_fields[BOUND_AT_LEAST].key, *hi = bound_fields[BOUND_AT_MOST].key;
	const struct mdp_node *v = n->n ? &n->kids[0] : NULL;
	struct mdp_setting set = {0};

	if (!v) {
		err_node(b, n, "empty mapping for %s: expected a value, {%s: value} or {%s: value}",
			 key, lo, hi);
		return;
	}
	if (n->n > 1) {
		mdp_lctx_err(b->c, n->kids[1].kline, n->kids[1].kcol,
			     "%s has both %s and %s: give one of them", key, lo, hi);
		return;
	}
	if (!strcmp(v->text, "system") && mdp_tunable_info(t)->allows_system) {
		err_node(b, v,
			 "%s {%s: system} is not allowed: system has no number to compare; "
			 "write system or a number",
			 key, mdp_node_key(v));
		return;
	}
	parse_plain(b, t, v, &set);
	if (set.kind == MDP_S_UNSET)
		return;
	set.bound = v->field == &bound_fields[BOUND_AT_LEAST] ? MDP_B_AT_LEAST : MDP_B_AT_MOST;
	set.pos = pos_of(b, n);
	*out = set;
}

static void parse_setting(struct build *b, enum mdp_tunable t, const struct mdp_node *n,
			  struct mdp_setting *out)
{
	if (n->kind == MDP_N_MAP)
		parse_bounded(b, t, n, out);
	else
		parse_plain(b, t, n, out);
}

/* The tunables of one mapping (raid, or a rule), in file order. */
static void parse_settings(struct build *b, const struct mdp_node *map, struct mdp_setting *set)
{
	for (size_t i = 0; i < map->n; i++) {
		const struct mdp_node *k = &map->kids[i];
		if (k->tunable >= 0)
			parse_setting(b, (enum mdp_tunable)k->tunable, k, &set[k->tunable]);
	}
}

static void check_order(struct build *b, const struct mdp_setting *set, enum mdp_tunable lo,
			enum mdp_tunable hi, const struct mdp_node *map)
{
	const char *klo = mdp_tunable_info(lo)->key, *khi = mdp_tunable_info(hi)->key;
	char slo[48], shi[48];

	if (!mdp_setting_crosses(&set[lo], &set[hi]))
		return;
	err_node(b, get_tunable(map, lo), "%s %s is above %s %s", klo,
		 mdp_setting_bound_text(&set[lo], slo, sizeof(slo)), khi,
		 mdp_setting_bound_text(&set[hi], shi, sizeof(shi)));
}

/* Every min/max pair of the registry set in one mapping: min not above max. */
static void check_pairs(struct build *b, const struct mdp_setting *set, const struct mdp_node *map)
{
	for (int t = 0; t < MDP_T_COUNT; t++)
		if (mdp_tunable_info(t)->pair == MDP_PAIR_MIN)
			check_order(b, set, t, mdp_tunable_info(t)->partner, map);
}

static void budget_percent(struct build *b, const struct mdp_node *n, struct mdp_budget *bud)
{
	const char *s = n->text, *key = mdp_node_key(n), *end;
	size_t len = strlen(s);
	char shown[72];
	uint64_t v;

	mdp_text_safe(shown, sizeof(shown), s);
	if (len > 4 || mdp_num_lead(s, len - 1, &v, &end) || end != s + len - 1) {
		err_node(b, n, "%s '%s' is not a whole percentage: expected 1%%..90%%", key, shown);
	} else if (leading_zeros(b, n, key, false)) {
		return;
	} else if (v < 1 || v > 90) {
		err_node(b, n, "%s %s is out of range (1%%..90%%)", key, shown);
	} else {
		bud->kind = MDP_BUDGET_PERCENT;
		bud->value = v;
	}
}

static void parse_budget(struct build *b, const struct mdp_node *n)
{
	struct mdp_budget bud = {.pos = pos_of(b, n)};
	const char *s = n->text, *key = mdp_node_key(n), *why;
	size_t len = strlen(s);
	char shown[72];
	uint64_t kib;

	mdp_text_safe(shown, sizeof(shown), s);
	if (len && s[len - 1] == '%') {
		budget_percent(b, n, &bud);
	} else if (mdp_all_digits(s)) {
		err_node(b, n, "%s '%s' has no unit: use a percentage (25%%) or a size (512MiB)",
			 key, shown);
	} else if (mdp_parse_size_kib(s, &kib, &why)) {
		err_node(b, n, "%s '%s' %s", key, shown, why);
	} else if (leading_zeros(b, n, key, false)) {
		return;
	} else if (!kib || kib > UINT64_MAX / 1024) {
		err_node(b, n, "%s %s is out of range: expected above 0", key, shown);
	} else {
		bud.kind = MDP_BUDGET_BYTES;
		bud.value = kib * 1024;
	}
	if (bud.kind != MDP_BUDGET_UNSET)
		b->p->budget = bud;
}

static void empty_list(struct build *b, const struct mdp_node *l)
{
	if (l && !l->n)
		err_node(b, l, "empty '%s' list in match: remove it or add entries",
			 mdp_node_key(l));
}

static char **match_strings(struct build *b, const struct mdp_node *l, bool uuid, size_t *count)
{
	char **out = l && l->n ? calloc(l->n, sizeof(*out)) : NULL;
	char shown[72], norm[33];

	if (l && l->n && !out) {
		b->c->oom = true;
		return NULL;
	}
	for (size_t i = 0; l && i < l->n; i++) {
		const struct mdp_node *e = &l->kids[i];
		mdp_text_safe(shown, sizeof(shown), e->text);
		if (uuid && mdp_ident_uuid_norm(e->text, norm))
			err_node(b, e,
				 "invalid uuid '%s': expected 32 hex digits, as mdadm prints "
				 "them (a1b2c3d4:e5f6a7b8:...) or with dashes",
				 shown);
		else if (!uuid && !mdp_ident_dev_ok(e->text))
			err_node(b, e, "invalid array name '%s': expected a device name like md2",
				 shown);
		else if (!not_text(b, e, uuid ? "uuid" : "array name"))
			out[i] = dup_str(b, uuid ? norm : e->text);
	}
	*count = out ? l->n : 0;
	return out;
}

static void parse_levels(struct build *b, const struct mdp_node *l, struct mdp_match *m)
{
	char shown[72];

	if (!l || !l->n)
		return;
	if (!(m->levels = calloc(l->n, sizeof(*m->levels)))) {
		b->c->oom = true;
		return;
	}
	m->n_levels = l->n;
	for (size_t i = 0; i < l->n; i++) {
		const struct mdp_node *e = &l->kids[i];
		if (e->plain && mdp_all_digits(e->text) && leading_zeros(b, e, "raid level", true))
			continue;
		m->levels[i] = mdp_ident_level_parse(e->text);
		if (m->levels[i] == MDP_LEVEL_UNKNOWN)
			err_node(b, e,
				 "unknown raid level '%s': expected linear, raid0, raid1, raid4, "
				 "raid5, raid6 or raid10",
				 mdp_text_safe(shown, sizeof(shown), e->text));
	}
}

/* media: [hdd, ssd, nvme] -> class bits; a misspelt class gets a did-you-mean. */
static void parse_media(struct build *b, const struct mdp_node *l, struct mdp_match *m)
{
	const char *cands[MDP_MEDIA_COUNT], *near;
	char shown[72], hint[48] = "";
	size_t n = 0;

	for (int k = MDP_MEDIA_HDD; k <= MDP_MEDIA_NVME; k++)
		cands[n++] = mdp_ident_media_name((enum mdp_media)k);
	for (size_t i = 0; l && i < l->n; i++) {
		const struct mdp_node *e = &l->kids[i];
		enum mdp_media c = mdp_ident_media_parse(e->text);
		if (c != MDP_MEDIA_UNKNOWN) {
			if (!not_text(b, e, mdp_node_key(l)))
				m->media |= 1u << c;
			continue;
		}
		if ((near = mdp_ident_suggest(e->text, cands, n)))
			snprintf(hint, sizeof(hint), " (did you mean '%s'?)", near);
		err_node(b, e, "unknown disk class '%s'%s: expected " MDP_IDENT_MEDIA_WORDS,
			 mdp_text_safe(shown, sizeof(shown), e->text), hint);
		hint[0] = '\0';
	}
}

static void parse_match(struct build *b, const struct mdp_node *mn, struct mdp_match *m)
{
	const struct mdp_node *names = get(mn, &match_fields[MATCH_NAMES]);
	const struct mdp_node *levels = get(mn, &match_fields[MATCH_LEVELS]);
	const struct mdp_node *uuids = get(mn, &match_fields[MATCH_UUIDS]);
	const struct mdp_node *media = get(mn, &match_fields[MATCH_MEDIA]);
	char keys[128];

	m->all = get(mn, &match_fields[MATCH_ALL]) != NULL;
	empty_list(b, names);
	empty_list(b, levels);
	empty_list(b, uuids);
	empty_list(b, media);
	if (!m->all && !names && !levels && !uuids && !media) {
		mdp_shape_keys_text(&match, keys, sizeof(keys));
		err_node(b, mn, "empty match: use '%s' or give %s", match.short_only, keys);
	}
	m->names = match_strings(b, names, false, &m->n_names);
	m->uuids = match_strings(b, uuids, true, &m->n_uuids);
	parse_levels(b, levels, m);
	parse_media(b, media, m);
}

static void parse_rules(struct build *b, const struct mdp_node *l)
{
	struct mdp_profile *p = b->p;

	if (!l->n)
		return;
	if (!(p->rules = calloc(l->n, sizeof(*p->rules)))) {
		b->c->oom = true;
		return;
	}
	p->n_rules = l->n;
	for (size_t i = 0; i < l->n; i++) {
		const struct mdp_node *rn = &l->kids[i];
		struct mdp_rule *r = &p->rules[i];

		r->pos = pos_of(b, rn);
		parse_match(b, get(rn, &rule_fields[RULE_MATCH]), &r->match);
		parse_settings(b, rn, r->set);
		check_pairs(b, r->set, rn);
		check_order(b, r->set, MDP_T_PREREAD_BYPASS, MDP_T_STRIPE_CACHE_SIZE, rn);
	}
}

/* What YAML 1.1 makes of yes/no/on/off, for a "write true" hint. */
static const char *yes_no(const char *s)
{
	return s[0] == 'y' || s[0] == 'Y' || !strcasecmp(s, "on") ? "true" : "false";
}

/* true/false as both YAML 1.1 and 1.2 read them; yes/no/on/off only 1.1 does. */
static void parse_optional(struct build *b, const struct mdp_node *n, bool *v)
{
	static const char *const words[] = {"true", "True", "TRUE", "false", "False", "FALSE"};
	const char *type;
	char shown[72];
	unsigned vers;

	mdp_text_safe(shown, sizeof(shown), n->text);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (strcmp(n->text, words[i]))
			continue;
		if (n->plain)
			*v = i < 3;
		else
			err_node(b, n,
				 "%s '%s' is quoted, so yaml reads it as text: write %s without "
				 "quotes",
				 mdp_node_key(n), shown, shown);
		return;
	}
	if (n->plain && (type = mdp_yaml_type(b->yt, n->text, &vers)) && !strcmp(type, "a boolean"))
		err_node(b, n, "%s '%s' is a boolean only in yaml 1.1: write %s", mdp_node_key(n),
			 shown, yes_no(n->text));
	else
		err_node(b, n, "%s '%s' is not a boolean: expected true or false", mdp_node_key(n),
			 shown);
}

static const char *const platform_names[MDP_PLATFORM_COUNT] = {
    [MDP_PLATFORM_DSM6] = "dsm6",
    [MDP_PLATFORM_DSM7] = "dsm7",
    [MDP_PLATFORM_SYSTEMD] = "systemd",
};

const char *mdp_platform_name(enum mdp_platform pl)
{
	return (unsigned)pl < MDP_PLATFORM_COUNT ? platform_names[pl] : "";
}

unsigned mdp_platform_bit(const char *name)
{
	for (unsigned i = 0; name && i < MDP_PLATFORM_COUNT; i++)
		if (!strcmp(name, platform_names[i]))
			return 1u << i;
	return 0;
}

/* only_on: [dsm6, ...] -> platform bits; an empty list would mean nowhere. */
static unsigned parse_only_on(struct build *b, const struct mdp_node *l)
{
	unsigned bits = 0, bit;
	char shown[72];

	if (!l->n)
		err_node(b, l,
			 "empty '%s' list: remove it (the entry applies everywhere) or name "
			 "platforms",
			 mdp_node_key(l));
	for (size_t i = 0; i < l->n; i++) {
		const struct mdp_node *e = &l->kids[i];
		if (!(bit = mdp_platform_bit(e->text)))
			err_node(b, e, "%s '%s' is not a platform: expected dsm6, dsm7 or systemd",
				 mdp_node_key(l), mdp_text_safe(shown, sizeof(shown), e->text));
		else if (!not_text(b, e, mdp_node_key(l)))
			bits |= bit;
	}
	return bits;
}

/* timeout: whole seconds, as --service-timeout takes them. */
static void parse_timeout(struct build *b, const struct mdp_node *n, unsigned *v)
{
	const struct num_rule nr = {mdp_node_key(n), 1, MDP_SVC_TIMEOUT_MAX_S, " seconds"};
	uint64_t s;

	if (!parse_uint(b, &nr, n, &s))
		*v = (unsigned)s;
}

static void parse_service(struct build *b, const struct mdp_node *e, size_t i)
{
	struct mdp_service *s = &b->p->services[i];
	const struct mdp_node *nn = get(e, &service_fields[SERVICE_NAME]);
	const struct mdp_node *on = get(e, &service_fields[SERVICE_OPTIONAL]);
	const char *why;
	char shown[72];
	bool bad;

	if (!nn) /* the walk said "missing key 'name'" (a required field) */
		return;
	why = mdp_ident_service_check(nn->text);
	bad = why != NULL;
	s->pos = pos_of(b, nn);
	if (why)
		err_node(b, nn, "invalid service name '%s': %s",
			 mdp_text_safe(shown, sizeof(shown), nn->text), why);
	else
		bad = not_text(b, nn, "service name");
	for (size_t j = 0; !bad && j < i; j++)
		if (b->p->services[j].name && !strcmp(b->p->services[j].name, nn->text))
			err_node(b, nn, "duplicate service '%s' (first listed at line %u)",
				 nn->text, b->p->services[j].pos.line);
	if (on)
		parse_optional(b, on, &s->optional);
	if ((on = get(e, &service_fields[SERVICE_ONLY_ON])))
		s->only_on = parse_only_on(b, on);
	if ((on = get(e, &service_fields[SERVICE_TIMEOUT])))
		parse_timeout(b, on, &s->timeout_s);
	s->name = dup_str(b, nn->text);
}

static void parse_services(struct build *b, const struct mdp_node *l)
{
	if (!l->n)
		return;
	if (!(b->p->services = calloc(l->n, sizeof(*b->p->services)))) {
		b->c->oom = true;
		return;
	}
	b->p->n_services = l->n;
	for (size_t i = 0; i < l->n; i++)
		parse_service(b, &l->kids[i], i);
}

/* goal: {foreground_latency_ms: N, percentile: P}, N whole milliseconds, P 50..99. */
static void parse_goal(struct build *b, const struct mdp_node *g)
{
	const struct mdp_node *n = get(g, &goal_fields[GOAL_LATENCY]);
	const struct mdp_node *pn = get(g, &goal_fields[GOAL_PERCENTILE]);
	const struct num_rule nr = {goal_fields[GOAL_LATENCY].key, 1, MDP_GOAL_LATENCY_MAX_MS,
				    " ms"};
	const struct num_rule pr = {goal_fields[GOAL_PERCENTILE].key, MDP_GOAL_PERCENTILE_MIN,
				    MDP_GOAL_PERCENTILE_MAX, ""};
	uint64_t ms, pct = 0;

	if (pn && parse_uint(b, &pr, pn, &pct))
		return;
	if (n && !parse_uint(b, &nr, n, &ms)) {
		b->p->goal.latency_ms = (unsigned)ms;
		b->p->goal.percentile = (unsigned)pct;
		b->p->goal.pos = pos_of(b, n);
	}
}

static void parse_extends(struct build *b, const struct mdp_node *n, struct mdp_extends *ext)
{
	char shown[72];

	if (!mdp_ident_profile_name_ok(n->text)) {
		err_node(b, n, "%s '%s' is not a profile name: use a name like 'balanced'",
			 mdp_node_key(n), mdp_text_safe(shown, sizeof(shown), n->text));
		return;
	}
	if (not_text(b, n, mdp_node_key(n)))
		return;
	ext->name = dup_str(b, n->text);
	ext->pos = pos_of(b, n);
}

static void build(struct build *b, const struct mdp_node *root, struct mdp_extends *ext)
{
	const struct mdp_node *n;

	if ((n = get(root, &top_fields[TOP_DESCRIPTION])) && !not_text(b, n, mdp_node_key(n)))
		b->p->description = dup_str(b, n->text);
	if ((n = get(root, &top_fields[TOP_EXTENDS])))
		parse_extends(b, n, ext);
	if ((n = get(root, &top_fields[TOP_BUDGET])))
		parse_budget(b, n);
	if ((n = get(root, &top_fields[TOP_GOAL])))
		parse_goal(b, n);
	if ((n = get(root, &top_fields[TOP_MAINT])))
		mdp_profile_parse_maint(b->c, b->yt, n, &b->p->maint);
	if ((n = get(root, &top_fields[TOP_RAID]))) {
		parse_settings(b, n, b->p->global);
		check_pairs(b, b->p->global, n);
	}
	if ((n = get(root, &top_fields[TOP_ARRAYS])))
		parse_rules(b, n);
	n = get(root, &top_fields[TOP_SERVICES]);
	if ((n = get(n, &services_fields[SERVICES_PAUSE])))
		parse_services(b, n);
}

int mdp_profile_uint(struct mdp_lctx *c, struct mdp_yaml_types *yt, const struct mdp_node *n,
		     uint64_t min, uint64_t max, const char *extra, uint64_t *out)
{
	struct build b = {.c = c, .yt = yt};
	const struct num_rule nr = {mdp_node_key(n), min, max, extra};

	return parse_uint(&b, &nr, n, out);
}

bool mdp_profile_not_text(struct mdp_lctx *c, struct mdp_yaml_types *yt, const struct mdp_node *n,
			  const char *what)
{
	struct build b = {.c = c, .yt = yt};

	return not_text(&b, n, what);
}

int mdp_profile_parse_text(struct mdp_lctx *c, const char *data, size_t len, struct mdp_profile *p,
			   struct mdp_extends *ext)
{
	struct mdp_node root = {.tunable = -1};
	struct mdp_yaml_types yt;
	struct build b = {.c = c, .p = p, .yt = &yt};
	size_t nerr = c->nerr;
	int r;

	r = mdp_profile_walk(c, data, len, &root);
	if (!r && !(r = mdp_yaml_types_init(&yt))) {
		build(&b, &root, ext);
		mdp_yaml_types_free(&yt);
		r = c->oom || yt.oom ? -ENOMEM : c->nerr != nerr ? -EINVAL : 0;
	}
	mdp_node_free(&root);
	return r;
}
