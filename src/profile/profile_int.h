/*
 * profile_int: what profile.c, profile_walk.c, profile_value.c and
 * profile_load.c share. Not part of the library interface; only
 * profile*.c and its tests use it.
 */
#ifndef MDP_PROFILE_INT_H
#define MDP_PROFILE_INT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "profile.h"
#include "mdp_base.h"

/* Loading context for one file: where its diags go, how many, OOM seen. */
struct mdp_lctx {
	const char *file; /* diag file name: the path as given */
	struct mdp_diags *d;
	size_t nerr;
	bool oom;
};

/*
 * A file stops being reported after this many errors: the rest is noise,
 * and a hostile file must not cost minutes of messages.
 */
#define MDP_PROFILE_MAX_ERRORS 100

void mdp_lctx_err(struct mdp_lctx *c, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The file has passed MDP_PROFILE_MAX_ERRORS: stop looking for more. */
bool mdp_lctx_full(const struct mdp_lctx *c);

/* User text quoted in a message goes through mdp_text_safe (text.h): safe, cut short. */

/* The extends of one file, resolved by profile_load.c. */
struct mdp_extends {
	char *name;
	struct mdp_pos pos;
};

/*
 * Pass 1 and 2 on one text: fills p with this file's own settings (p->files
 * must already hold c->file) and ext with its extends, if any. 0, -EINVAL
 * (errors in c) or -ENOMEM. On error p may hold partial data to free.
 */
int mdp_profile_parse_text(struct mdp_lctx *c, const char *data, size_t len, struct mdp_profile *p,
			   struct mdp_extends *ext);

/*
 * min lo sure to be above max hi, as far as a profile can tell: both
 * numbers, lo exact or a floor, hi exact or a ceiling.
 */
bool mdp_setting_crosses(const struct mdp_setting *lo, const struct mdp_setting *hi);
/* "500000", "at least 500000", "at most 500000": a number and its bound, for messages. */
const char *mdp_setting_bound_text(const struct mdp_setting *s, char *buf, size_t len);

/* ---- the key table: what may stand where in a profile ------------------ */

enum mdp_shape_type { MDP_SH_SCALAR, MDP_SH_MAP, MDP_SH_LIST };

struct mdp_shape;

struct mdp_field {
	const char *key; /* the only spelling of a key in C; NULL ends a table */
	const struct mdp_shape *shape;
	bool required;
};

struct mdp_shape {
	enum mdp_shape_type type;
	/* MDP_SH_MAP */
	const struct mdp_field *fields;
	unsigned tunable_scopes; /* 1 << enum mdp_scope: the registry's keys of that scope too */
	/* A mapping that may also be written as one scalar ("match: all", a bare service). */
	const struct mdp_field *short_field; /* the key the scalar stands for */
	const char *short_only;              /* the one scalar allowed there, or NULL for any */
	const char *short_what;              /* what such a scalar is ("a service name") */
	bool short_hidden;                   /* short_field is written only as the shorthand */
	bool closed; /* an unknown key here is no misplaced key from elsewhere */
	/* MDP_SH_SCALAR: a mapping of this shape may stand instead (a tunable's bound) */
	const struct mdp_shape *or_map;
	/* MDP_SH_LIST */
	const struct mdp_shape *entry;
	bool one_ok; /* one scalar may stand for a list of one ("media: ssd") */
};

/* The top of a profile (profile.c). */
extern const struct mdp_shape mdp_profile_shape;
/* A tunable's value: a scalar, or {at_least: V} / {at_most: V} (profile.c). */
extern const struct mdp_shape mdp_tunable_value_shape;

/* maintenance: (profile_maint.c): its keys, in the order of these indexes. */
enum { MDP_MAINT_WINDOWS, MDP_MAINT_HEAT, MDP_MAINT_DEFER_TO, MDP_MAINT_NOTIFY };
enum { MDP_HEAT_HOT_AT, MDP_HEAT_COOL_BELOW };
enum { MDP_NOTIFY_COMMAND, MDP_NOTIFY_EVENTS };
extern const struct mdp_field mdp_maint_fields[];
extern const struct mdp_field mdp_heat_fields[];
extern const struct mdp_field mdp_notify_fields[];
extern const struct mdp_shape mdp_maint_shape;

/* ---- pass 1: the positioned tree libyaml's events make ------------------ */

enum mdp_node_kind { MDP_N_NONE, MDP_N_SCALAR, MDP_N_MAP, MDP_N_SEQ };

struct mdp_node {
	enum mdp_node_kind kind;
	unsigned line, col;            /* of the value */
	unsigned kline, kcol;          /* of the key, inside a mapping */
	const struct mdp_field *field; /* inside a mapping: its key, or NULL for a tunable */
	int tunable;                   /* inside a mapping: enum mdp_tunable, or -1 */
	char *text;                    /* scalars */
	bool plain;                    /* scalars: no quotes, no tag, so YAML resolves its type */
	struct mdp_node *kids;
	size_t n, cap;
};

/*
 * Pass 1: 0 with the tree of a mapping checked against the key table, or
 * -EINVAL (errors in c: syntax, unknown, duplicate or missing keys, wrong
 * types, nesting deeper than a profile can be) or -ENOMEM.
 */
int mdp_profile_walk(struct mdp_lctx *c, const char *data, size_t len, struct mdp_node *root);
void mdp_node_free(struct mdp_node *n);
/* The key of a mapping entry, as written in the key table or the registry. */
const char *mdp_node_key(const struct mdp_node *n);
/* "" before the first of n list items, ", " between, last before the last. */
const char *mdp_list_sep(size_t i, size_t n, const char *last);
/* The keys that may be written in mapping sh, for messages: "names, levels or uuids". */
void mdp_shape_keys_text(const struct mdp_shape *sh, char *buf, size_t len);

/* ---- value rules (profile_value.c) -------------------------------------- */

/*
 * Patterns of YAML 1.1 and 1.2 plain scalar types, for one load. Each is
 * compiled on first use: most scalars are ruled out by their characters
 * alone, so a typical profile compiles none (regcomp dominated a load).
 */
struct mdp_yaml_types {
	regex_t re[10];
	unsigned compiled; /* bit i: re[i] is ready */
	bool oom;          /* a pattern could not be compiled: the load fails */
};

int mdp_yaml_types_init(struct mdp_yaml_types *y);
void mdp_yaml_types_free(struct mdp_yaml_types *y);

#define MDP_YAML_11 1u
#define MDP_YAML_12 2u
/*
 * What YAML reads the plain scalar s as when it is not text: "a number",
 * "a boolean", "null", "a date" or "special" (the 1.1 merge key and value
 * indicator), with *versions saying which of YAML 1.1 and 1.2 read it so.
 * NULL for text.
 */
const char *mdp_yaml_type(struct mdp_yaml_types *y, const char *s, unsigned *versions);

/*
 * The integer a YAML number written in another form stands for ("+5",
 * "1_000", "0x1f", "0o17", "0b101", "1e3", "100.0"), for a "write N" hint.
 */
bool mdp_yaml_int_value(const char *s, uint64_t *v);

/*
 * The loader's rules for a plain decimal number under n's key in min..max (extra follows
 * the range in messages) and for text that YAML must read as text (what names it), for
 * the files beside profile.c: 0 / false, else the error said in c.
 */
int mdp_profile_uint(struct mdp_lctx *c, struct mdp_yaml_types *yt, const struct mdp_node *n,
		     uint64_t min, uint64_t max, const char *extra, uint64_t *out);
bool mdp_profile_not_text(struct mdp_lctx *c, struct mdp_yaml_types *yt, const struct mdp_node *n,
			  const char *what);

/* maintenance: node n into out (profile_maint.c); errors in c. */
void mdp_profile_parse_maint(struct mdp_lctx *c, struct mdp_yaml_types *yt,
			     const struct mdp_node *n, struct mdp_maint_key *out);
/* Frees what out holds and clears it. */
void mdp_maint_key_free(struct mdp_maint_key *k);

/* s is one or more ASCII digits and nothing else. */
bool mdp_all_digits(const char *s);

/* path names a built-in profile (whether or not one of that name exists). */
bool mdp_profile_is_builtin(const char *path);

/*
 * Refuse a profile that root should not take orders from (only meaningful
 * when running as root on the real root): the file, or any directory from /
 * down to it, group/world-writable or not owned by root, or a symbolic
 * link. A sticky directory (such as /tmp) above the profile's own one
 * passes: nobody else can rename root's entries in it. A built-in profile
 * passes: it is part of the binary. -EPERM with a diag that says which
 * path and why.
 */
int mdp_profile_check_perms(const char *path, struct mdp_diags *d);

#endif
