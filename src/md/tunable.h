/*
 * tunable: the fixed registry of everything mdprofile may ever write.
 *
 * A write target is (tunable, device). The path comes from the template
 * here and the device name from discovery, never from profile text, and
 * device names are checked against a strict pattern, so no profile can
 * make mdprofile write anywhere else.
 */
#ifndef MDP_TUNABLE_H
#define MDP_TUNABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mdp_tunable {
	MDP_T_SPEED_LIMIT_MIN,      /* /proc/sys/dev/raid/speed_limit_min, KiB/s */
	MDP_T_SPEED_LIMIT_MAX,      /* /proc/sys/dev/raid/speed_limit_max, KiB/s */
	MDP_T_STRIPE_CACHE_SIZE,    /* md/stripe_cache_size, pages per member (raid4/5/6) */
	MDP_T_SYNC_SPEED_MIN,       /* md/sync_speed_min, KiB/s or "system" */
	MDP_T_SYNC_SPEED_MAX,       /* md/sync_speed_max, KiB/s or "system" */
	MDP_T_READ_AHEAD_KB,        /* /sys/block/mdN/queue/read_ahead_kb */
	MDP_T_GROUP_THREAD_CNT,     /* md/group_thread_cnt (raid4/5/6) */
	MDP_T_PREREAD_BYPASS,       /* md/preread_bypass_threshold (raid4/5/6) */
	MDP_T_MEMBER_READ_AHEAD_KB, /* /sys/block/<member disk>/queue/read_ahead_kb */
	MDP_T_COUNT
};

enum mdp_scope { MDP_SCOPE_GLOBAL, MDP_SCOPE_ARRAY, MDP_SCOPE_DISK };

/* How a value is shown to people; programs always get the bare number and the unit. */
enum mdp_show {
	MDP_SHOW_COUNT, /* "4096": the unit is implied by the name (pages, stripes, threads) */
	MDP_SHOW_RATE,  /* "100000 KiB/s" */
	MDP_SHOW_SIZE,  /* a size in KiB, in the largest exact unit: "192 KiB", "32 MiB" */
};

/*
 * When the planner writes a tunable (plan.c). A plan writes, in this order:
 * what frees memory (memory tunables that shrink), the globals, each array's
 * tunables, each disk's, what takes memory (memory tunables that grow), and
 * last what a memory tunable bounds.
 */
enum mdp_phase {
	MDP_PHASE_SCOPE,   /* with the others of its scope */
	MDP_PHASE_MEMORY,  /* holds memory: lowered first, raised after the scopes */
	MDP_PHASE_BOUNDED, /* bounded by a memory tunable: after every memory tunable grew */
};

/* Two tunables whose values the kernel keeps as min <= max: written so that they never cross. */
enum mdp_pair { MDP_PAIR_NONE, MDP_PAIR_MIN, MDP_PAIR_MAX };

struct mdp_tunable_info {
	const char *key;  /* profile key, e.g. "stripe_cache_size" */
	const char *path; /* global: the path; array/disk: relative to /sys/block/<dev>/ */
	enum mdp_scope scope;
	uint64_t min, max;  /* accepted range of the number */
	bool allows_system; /* "system" accepted (sync_speed_min/max) */
	bool parity_only;   /* raid4/5/6 only */
	const char *unit;   /* named once per value: "KiB/s", "pages", "KiB", "threads" */
	enum mdp_show show; /* how people read it (mdp_tunable_show) */
	enum mdp_phase phase;
	enum mdp_pair pair;
	enum mdp_tunable partner; /* the other of the pair, when pair is not MDP_PAIR_NONE */
	const char *doc;          /* one paragraph for people: the schema's description */
};

/*
 * A unit a tunable's value is counted in (mdp_tunable_info's unit names one),
 * with what status --format prometheus makes of it: the metric's suffix in the
 * base unit Prometheus wants (bytes, seconds) and the factor to it.
 */
struct mdp_unit {
	const char *name;        /* "KiB/s", as the registry's unit spells it */
	const char *prom_suffix; /* "bytes_per_second": mdprofile_tunable_<suffix> */
	uint64_t prom_factor;    /* the value times this is in the suffix's unit */
	const char *prom_help;   /* what the metric holds, for its HELP line */
};

enum mdp_value_kind { MDP_V_NUM, MDP_V_SYSTEM };

/*
 * A tunable's value. For MDP_V_SYSTEM ("follow the dev.raid sysctl"), num is
 * the effective value as the kernel showed it, or 0 for a desired value,
 * whose number is not known until the kernel applies it.
 */
struct mdp_value {
	enum mdp_value_kind kind;
	uint64_t num;
};

const struct mdp_tunable_info *mdp_tunable_info(enum mdp_tunable t);
/*
 * The units tunables are counted in, NULL after the last: every unit of the
 * registry is one of them (test_tunable checks), so Prometheus has a metric for it.
 */
const struct mdp_unit *mdp_unit(size_t i);
/* The unit of t from that table, NULL if the registry names one it does not have. */
const struct mdp_unit *mdp_tunable_unit(enum mdp_tunable t);
/*
 * System path of (t, dev). -EINVAL for a device name mdp_ident_dev_ok()
 * refuses or a missing/extra dev.
 */
int mdp_tunable_path(enum mdp_tunable t, const char *dev, char *buf, size_t len);
/*
 * Parse what the kernel shows when reading t ("256\n", "1000 (system)\n").
 * -EINVAL when the text is not such a value.
 */
int mdp_tunable_parse(enum mdp_tunable t, const char *text, struct mdp_value *out);
/* Text to write to set v ("4096\n", "system\n"). */
int mdp_tunable_format(enum mdp_tunable t, const struct mdp_value *v, char *buf, size_t len);
/*
 * The one display formatter, used by every command: "4096", "100000 KiB/s",
 * "32 MiB", "system (10000)" (as read) or "system" (desired).
 */
int mdp_tunable_show(enum mdp_tunable t, const struct mdp_value *v, char *buf, size_t len);
/* The same value as a JSON token: the bare number in the tunable's unit, or "system". */
int mdp_tunable_json(enum mdp_tunable t, const struct mdp_value *v, char *buf, size_t len);
/* A size in KiB in the largest exact unit: "192 KiB", "32 MiB", "2 GiB". */
int mdp_show_kib(uint64_t kib, char *buf, size_t len);
/*
 * A memory figure in bytes (stripe cache memory, budgets, RAM): rounded down
 * to whole MiB (to whole KiB under 1 MiB), then mdp_show_kib's ladder:
 * "896 MiB", "2 GiB", "512 KiB". Approximate by design; exact sizes use
 * mdp_show_kib.
 */
int mdp_show_mem(uint64_t bytes, char *buf, size_t len);
/*
 * The ladder behind it, for the YAML writer too ("32MiB"): *kib divided
 * down to the largest unit that holds it exactly, whose name is returned.
 */
const char *mdp_kib_unit(uint64_t *kib);
/* Where people read a target: "dev.raid.speed_limit_min", "md2 stripe_cache_size", "sda
 * read_ahead". */
int mdp_tunable_target_name(enum mdp_tunable t, const char *dev, char *buf, size_t len);
/* Whether a read-back value satisfies the requested one. */
bool mdp_value_eq(const struct mdp_value *a, const struct mdp_value *b);

#endif
