/*
 * profile: loading, inheriting and validating YAML profiles.
 *
 * Two passes, so every error has an exact position:
 *   1. libyaml's events are walked against the key table (profile.c):
 *      syntax errors come with libyaml's problem_mark; the walk records the
 *      line:col of every node and finds duplicate keys, unknown keys (with
 *      a did-you-mean), missing keys and wrong node types. Nesting deeper
 *      than a profile can be, and more than 100 errors, stop it early.
 *   2. Our own value parsing on that tree: numbers, units, ranges, levels,
 *      UUIDs, service names, min <= max.
 * All errors in a file are collected in mdp_diags; nothing is read from or
 * written to the system while loading. (Why not libcyaml: see
 * docs/architecture.md.)
 *
 * Profile format (documented in schema/profile.schema.json and README.md):
 *
 *   description: text
 *   extends: parent-name            # optional; child overrides parent
 *   memory_budget: 25%              # 1%..90% of RAM, or 512MiB; cap for all stripe caches
 *   raid:                           # dev.raid sysctls, KiB/s per device, 1..2000000
 *     speed_limit_min: 100000
 *     speed_limit_max: 500000
 *   arrays:                         # rules, later ones win per tunable
 *     - match: all                  # or {names: [md2], levels: [raid5], uuids: [..],
 *                                   #     media: [hdd, ssd, nvme] or one of them}
 *       stripe_cache_size: auto     # 17..32768 or auto (fits the budget)
 *       # any tunable: {at_least: V} or {at_most: V}, V as the plain form
 *       # (not system): never lowers / never raises what the system has
 *       sync_speed_min: system      # KiB/s or system
 *       sync_speed_max: 500000
 *       read_ahead: 32MiB           # units KiB, MiB, GiB, sectors (even); no bare numbers
 *       member_read_ahead: 1MiB     # read-ahead of each member's disk
 *       group_thread_cnt: 4         # 0..8192 (briefly suspends the array)
 *       preread_bypass_threshold: 1 # 0..stripe_cache_size
 *   goal:                           # auto and apply --until-idle steer each
 *     foreground_latency_ms: 20     # array's own sync_speed_min to keep the
 *                                   # foreground's ms per request (1..10000)
 *                                   # at most this (goal.h)
 *   maintenance:                    # when auto lets a check or repair run (maint.h)
 *     windows: ["Mon-Fri 01:00-07:00", "Sat-Sun 00:00-24:00"]  # local time
 *     heat: {hot_at_c: 50, cool_below_c: 45}  # any member disk, 20..90
 *     defer_to: [smart-selftest, rsync]           # paused while these run
 *     notify: {command: /usr/local/sbin/hook, events: [start, end]}  # (watcher_maint.h)
 *   services:
 *     pause:
 *       - synoindexd
 *       - {name: pkgctl-SynologyPhotos, optional: true}
 *       - {name: pkgctl-FileStation, optional: true, only_on: [dsm6]}
 *       - {name: "pkg:SynologyPhotos", timeout: 1200}
 *
 * only_on: the service backends (dsm6, dsm7, systemd) an entry applies
 * to; elsewhere it is skipped. Not "on": YAML 1.1 reads that key as true.
 * timeout: seconds (1..3600) for each of the entry's service-manager
 * commands and for its stop or start to show; it wins over the backend's
 * default and over --service-timeout/--package-timeout, which only set
 * the default for entries without their own (services.h).
 *
 * match: the criteria given must all hold, any entry of a list may match.
 * media holds for an array when every member disk is of a class named
 * (discover.h); one whose class cannot be read is not matched.
 * Levels, UUIDs, array, service and profile names follow ident.h.
 *
 * A profile means the same to mdprofile as to YAML 1.1 and 1.2 tools and
 * to the JSON Schema: numbers are plain decimal digits, unquoted, without
 * sign, leading zeros, fraction, exponent, base prefix or underscores;
 * optional is a plain true or false; text (description, names, UUIDs)
 * that YAML would read as a number, boolean or date must be quoted; null
 * (~, null) is a missing value. Tags other than !!str, !!map and !!seq,
 * and aliases, are refused.
 *
 * extends: the parent NAME.yaml is looked for next to the child, then in
 * the profile dirs. Scalars (description, memory_budget, goal, maintenance, raid.*) of the
 * child win; the parent's rules come first; services are the union, the
 * child's entry (its "optional", "only_on" and "timeout", a missing
 * timeout meaning the default) winning for a name in both. Cycles are
 * errors.
 */
#ifndef MDP_PROFILE_H
#define MDP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_base.h"
#include "mdp_md.h"

struct mdp_pos {
	const char *file; /* points into the owning mdp_profile's files */
	unsigned line, col;
};

enum mdp_setting_kind {
	MDP_S_UNSET = 0,
	MDP_S_NUM,    /* num holds the value in the tunable's unit (KiB for read-ahead) */
	MDP_S_AUTO,   /* stripe_cache_size: auto */
	MDP_S_SYSTEM, /* sync_speed_min/max: system */
};

/*
 * How a value relates to what the system has: exact sets it; a floor
 * (at_least) never lowers a higher value and a ceiling (at_most) never
 * raises a lower one (plan.c).
 */
enum mdp_bound {
	MDP_B_EXACT = 0,
	MDP_B_AT_LEAST, /* {at_least: V}: max(current, V) */
	MDP_B_AT_MOST,  /* {at_most: V}: min(current, V) */
};

struct mdp_setting {
	enum mdp_setting_kind kind;
	enum mdp_bound bound;
	uint64_t num;
	struct mdp_pos pos; /* of the value, for later errors (budget, plan) */
};

struct mdp_match {
	bool all;
	char **names; /* "md2" */
	size_t n_names;
	enum mdp_level *levels;
	size_t n_levels;
	char **uuids; /* normalised: lowercase hex, no separators (32 chars) */
	size_t n_uuids;
	unsigned media; /* 1u << enum mdp_media for each class named; 0: no media criterion */
};

struct mdp_rule {
	struct mdp_match match;
	/* Indexed by enum mdp_tunable; the global ones stay unset here. */
	struct mdp_setting set[MDP_T_COUNT];
	struct mdp_pos pos; /* of the rule's sequence entry */
};

/* The platforms a service entry can be limited to: the service backends. */
enum mdp_platform {
	MDP_PLATFORM_DSM6,
	MDP_PLATFORM_DSM7,
	MDP_PLATFORM_SYSTEMD,
	MDP_PLATFORM_COUNT
};
/* "dsm6", "dsm7", "systemd". */
const char *mdp_platform_name(enum mdp_platform pl);
/* 1u << the platform called name, 0 for a name that is none. */
unsigned mdp_platform_bit(const char *name);

/* A service entry's own timeout, and --service-timeout's, at most (seconds). */
#define MDP_SVC_TIMEOUT_MAX_S 3600u

struct mdp_service {
	char *name;
	bool optional;
	unsigned only_on;   /* 1u << enum mdp_platform for each; 0: everywhere */
	unsigned timeout_s; /* 1..MDP_SVC_TIMEOUT_MAX_S; 0: the backend's default */
	struct mdp_pos pos;
};

enum mdp_budget_kind { MDP_BUDGET_UNSET = 0, MDP_BUDGET_PERCENT, MDP_BUDGET_BYTES };

struct mdp_budget {
	enum mdp_budget_kind kind;
	uint64_t value; /* percent (1..90) or bytes */
	struct mdp_pos pos;
};

/* The foreground latency goal a watcher steers the minimum sync speed to (1..10000 ms). */
#define MDP_GOAL_LATENCY_MAX_MS 10000u

/* A goal's percentile (its tail rather than its mean: watcher_goal.h), 50..99. */
#define MDP_GOAL_PERCENTILE_MIN 50u
#define MDP_GOAL_PERCENTILE_MAX 99u

struct mdp_goal {
	unsigned latency_ms; /* 0: no goal */
	unsigned percentile; /* 0: the mean; else the watcher's timed reads' percentile */
	struct mdp_pos pos;
};

/* maintenance: when checks and repairs may run (maint.h); a child's replaces its parent's. */
struct mdp_maint_key {
	struct mdp_maint m;
	bool set;
	struct mdp_pos pos; /* of the key */
};

struct mdp_profile {
	char *name; /* "reshape-fast" (file name without .yaml) */
	char *path; /* file it was loaded from */
	char *description;
	char **chain; /* names from this profile up through extends, chain[0] == name */
	size_t n_chain;
	struct mdp_budget budget;
	struct mdp_goal goal;
	struct mdp_maint_key maint;
	struct mdp_setting global[MDP_T_COUNT]; /* only the global-scope tunables used */
	struct mdp_rule *rules;                 /* parent's rules first, then the child's */
	size_t n_rules;
	struct mdp_service *services; /* union along the chain, no duplicates */
	size_t n_services;
	char **files; /* owned strings that mdp_pos.file points into */
	size_t n_files;
};

/*
 * A profile compiled into the binary (the shipped ones), so that one copied
 * file works alone. It is found after every directory: a file of the same
 * name there overrides it.
 */
struct mdp_builtin {
	const char *name; /* "reshape-fast" */
	const char *text; /* the YAML */
	size_t len;
};

/*
 * The path a built-in profile is known by ("built-in:reshape-fast"): no '/'
 * and no ".yaml", so no profile argument or directory entry can spell it.
 */
#define MDP_BUILTIN_PREFIX "built-in:"

/* Where profiles are looked up by name, in order: dirs, then builtins. */
struct mdp_profile_dirs {
	const char *dirs[4];
	size_t n;
	const struct mdp_builtin *builtins;
	size_t n_builtins;
};

/*
 * Resolve a profile argument: contains '/' or ends in ".yaml" -> that file;
 * otherwise NAME.yaml in each dir in order, then the built-in NAME
 * (MDP_BUILTIN_PREFIX NAME). Writes the path on success; -ENOENT when not
 * found (a diag says where it looked).
 */
int mdp_profile_find(const struct mdp_profile_dirs *dirs, const char *arg, char *path, size_t len,
		     struct mdp_diags *d);

/*
 * Load one profile file and its extends chain (parents found through dirs,
 * and relative to the file's own directory first). On any error returns
 * -EINVAL with every problem in d and *out untouched.
 */
int mdp_profile_load(const struct mdp_profile_dirs *dirs, const char *path, struct mdp_profile *out,
		     struct mdp_diags *d);
/* Load from memory (fuzzing, tests); extends is resolved through dirs (may be NULL). */
int mdp_profile_load_mem(const struct mdp_profile_dirs *dirs, const char *name, const char *data,
			 size_t len, struct mdp_profile *out, struct mdp_diags *d);
void mdp_profile_free(struct mdp_profile *p);

/* Where a command's profile comes from, and how far its files are trusted. */
struct mdp_profile_src {
	/* A profile argument (a file, or a name found as mdp_profile_find finds it); with
	 * text, the name of the profile text is (one read from stdin). */
	const char *arg;
	const char *text; /* NULL, or the profile itself, len bytes: no file of its own */
	size_t len;
	/* As root on the real root: every file read is checked on the descriptor it is read
	 * from, the extends parents of a text too: its directories from / down are opened without
	 * following links, and the file and each directory are checked on the descriptor
	 * opened (mdp_profile_check_perms' rules) before the file is read from it. */
	bool check;
	struct mdp_diags *warn; /* with check: NULL, a refusal is an error; else said here */
};
/*
 * A command's profile: found and loaded (mdp_profile_find, then
 * mdp_profile_load, every file checked with src->check), or
 * loaded from src->text. Returns as they do.
 */
int mdp_profile_open(const struct mdp_profile_dirs *dirs, const struct mdp_profile_src *src,
		     struct mdp_profile *out, struct mdp_diags *d);

/* The profile format's own keys (the tunables' are the registry's). */
enum mdp_profile_key {
	MDP_PK_DESCRIPTION,
	MDP_PK_BUDGET,
	MDP_PK_RAID,
	MDP_PK_ARRAYS,
	MDP_PK_SERVICES,
	MDP_PK_MATCH,
	MDP_PK_ALL,
	MDP_PK_NAMES,
	MDP_PK_LEVELS,
	MDP_PK_UUIDS,
	MDP_PK_PAUSE,
	MDP_PK_NAME,
	MDP_PK_OPTIONAL,
	MDP_PK_ONLY_ON,
	MDP_PK_TIMEOUT,
	MDP_PK_EXTENDS,
	MDP_PK_AT_LEAST,
	MDP_PK_AT_MOST,
	MDP_PK_MEDIA,
	MDP_PK_GOAL,
	MDP_PK_GOAL_LATENCY,
	MDP_PK_MAINT,
	MDP_PK_MAINT_WINDOWS,
	MDP_PK_MAINT_HEAT,
	MDP_PK_MAINT_HOT_AT,
	MDP_PK_MAINT_COOL_BELOW,
	MDP_PK_MAINT_DEFER_TO,
	MDP_PK_GOAL_PERCENTILE,
	MDP_PK_MAINT_NOTIFY,
	MDP_PK_NOTIFY_COMMAND,
	MDP_PK_NOTIFY_EVENTS,
};
/* Its spelling, from the key table the loader reads with. */
const char *mdp_profile_key(enum mdp_profile_key k);

/*
 * Parse "32MiB", "384 sectors", "192KiB", "1GiB" into KiB. A bare number,
 * an unknown unit or an odd number of sectors is an error. -EINVAL with
 * *why set to a phrase that reads after the quoted text ("has no unit: use
 * KiB, MiB, GiB or sectors").
 */
int mdp_parse_size_kib(const char *s, uint64_t *kib, const char **why);

/* The key a bound is written with ("at_least", "at_most"), "" for exact. */
const char *mdp_bound_key(enum mdp_bound b);

#endif
