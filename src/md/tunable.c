/*
 * tunable: the registry of write targets (see tunable.h).
 *
 * Ranges follow drivers/md: stripe_cache_size 17..32768 (raid5_set_cache_size),
 * group_thread_cnt 0..8192, speeds are KiB/s per device (int in the kernel).
 */
#include "tunable.h"
#include "mdp_base.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* A rate in KiB/s per device (int in the kernel), with its partner limit. */
#define SPEED(pair_, partner_)                                                                     \
	.min = 1, .max = 2000000, .unit = "KiB/s", .show = MDP_SHOW_RATE, .pair = (pair_),         \
	.partner = (partner_)

// clang-format off
static const struct mdp_tunable_info infos[MDP_T_COUNT] = {
	[MDP_T_SPEED_LIMIT_MIN] = {.key = "speed_limit_min",
	    .path = "/proc/sys/dev/raid/speed_limit_min", .scope = MDP_SCOPE_GLOBAL,
	    SPEED(MDP_PAIR_MIN, MDP_T_SPEED_LIMIT_MAX),
	    .doc = "KiB/s per device a resync/rebuild/reshape keeps even when the array sees "
		   "other I/O (/proc/sys/dev/raid/speed_limit_min). Kernel default 1000, DSM "
		   "10000."},
	[MDP_T_SPEED_LIMIT_MAX] = {.key = "speed_limit_max",
	    .path = "/proc/sys/dev/raid/speed_limit_max", .scope = MDP_SCOPE_GLOBAL,
	    SPEED(MDP_PAIR_MAX, MDP_T_SPEED_LIMIT_MIN),
	    .doc = "KiB/s per device a sync never exceeds (/proc/sys/dev/raid/speed_limit_max). "
		   "Kernel default 200000."},
	[MDP_T_STRIPE_CACHE_SIZE] = {.key = "stripe_cache_size", .path = "md/stripe_cache_size",
	    .scope = MDP_SCOPE_ARRAY, .min = 17, .max = 32768, .parity_only = true, .unit = "pages",
	    .show = MDP_SHOW_COUNT, .phase = MDP_PHASE_MEMORY,
	    .doc = "md/stripe_cache_size (raid4/5/6): pages per member disk, 17..32768, or auto "
		   "(the largest that fits memory_budget). Memory: 4 KiB x member disks x size."},
	[MDP_T_SYNC_SPEED_MIN] = {.key = "sync_speed_min", .path = "md/sync_speed_min",
	    .scope = MDP_SCOPE_ARRAY, .allows_system = true,
	    SPEED(MDP_PAIR_MIN, MDP_T_SYNC_SPEED_MAX),
	    .doc = "md/sync_speed_min: KiB/s for this array, or system to follow speed_limit_min."},
	[MDP_T_SYNC_SPEED_MAX] = {.key = "sync_speed_max", .path = "md/sync_speed_max",
	    .scope = MDP_SCOPE_ARRAY, .allows_system = true,
	    SPEED(MDP_PAIR_MAX, MDP_T_SYNC_SPEED_MIN),
	    .doc = "md/sync_speed_max: KiB/s for this array, or system to follow speed_limit_max."},
	[MDP_T_READ_AHEAD_KB] = {.key = "read_ahead", .path = "queue/read_ahead_kb",
	    .scope = MDP_SCOPE_ARRAY, .min = 0, .max = 1048576, .unit = "KiB",
	    .show = MDP_SHOW_SIZE,
	    .doc = "Read-ahead of the md device (queue/read_ahead_kb), 0..1GiB. blockdev --setra "
		   "65536 is 65536 sectors = 32MiB."},
	[MDP_T_GROUP_THREAD_CNT] = {.key = "group_thread_cnt", .path = "md/group_thread_cnt",
	    .scope = MDP_SCOPE_ARRAY, .min = 0, .max = 8192, .parity_only = true, .unit = "threads",
	    .show = MDP_SHOW_COUNT,
	    .doc = "md/group_thread_cnt (raid4/5/6): worker threads, 0..8192. Changing it briefly "
		   "suspends the array."},
	[MDP_T_PREREAD_BYPASS] = {.key = "preread_bypass_threshold",
	    .path = "md/preread_bypass_threshold", .scope = MDP_SCOPE_ARRAY, .min = 0, .max = 32768,
	    .parity_only = true, .unit = "stripes", .show = MDP_SHOW_COUNT,
	    .phase = MDP_PHASE_BOUNDED,
	    .doc = "md/preread_bypass_threshold (raid4/5/6): 0..stripe_cache_size."},
	[MDP_T_MEMBER_READ_AHEAD_KB] = {.key = "member_read_ahead", .path = "queue/read_ahead_kb",
	    .scope = MDP_SCOPE_DISK, .min = 0, .max = 1048576, .unit = "KiB", .show = MDP_SHOW_SIZE,
	    .doc = "Read-ahead of each member disk (queue/read_ahead_kb of the disk), 0..1GiB."},
};
// clang-format on
#undef SPEED

const struct mdp_tunable_info *mdp_tunable_info(enum mdp_tunable t)
{
	if ((unsigned)t >= MDP_T_COUNT)
		return NULL;
	return &infos[t];
}

/* Each unit of infos[] once, with its metric (a unit not here fails test_tunable). */
static const struct mdp_unit unit_table[] = {
    {"KiB/s", "bytes_per_second", 1024, "a speed limit (md counts KiB/s per device)"},
    {"KiB", "bytes", 1024, "a read-ahead"},
    {"pages", "pages", 1, "a stripe cache, in pages per member disk"},
    {"stripes", "stripes", 1, "a preread bypass threshold, in stripes"},
    {"threads", "threads", 1, "a group thread count"},
};

const struct mdp_unit *mdp_unit(size_t i)
{
	return i < sizeof(unit_table) / sizeof(unit_table[0]) ? &unit_table[i] : NULL;
}

const struct mdp_unit *mdp_tunable_unit(enum mdp_tunable t)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);

	for (size_t i = 0; ti && i < sizeof(unit_table) / sizeof(unit_table[0]); i++)
		if (!strcmp(ti->unit, unit_table[i].name))
			return &unit_table[i];
	return NULL;
}

int mdp_tunable_path(enum mdp_tunable t, const char *dev, char *buf, size_t len)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	int n;

	if (!ti)
		return -EINVAL;
	if (ti->scope == MDP_SCOPE_GLOBAL) {
		if (dev && *dev)
			return -EINVAL;
		n = snprintf(buf, len, "%s", ti->path);
	} else {
		if (!mdp_ident_dev_ok(dev))
			return -EINVAL;
		n = snprintf(buf, len, "/sys/block/%s/%s", dev, ti->path);
	}
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int mdp_tunable_parse(enum mdp_tunable t, const char *text, struct mdp_value *out)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	struct mdp_value v = {.kind = MDP_V_NUM};
	const char *end;

	if (!ti || !text)
		return -EINVAL;
	while (*text == ' ')
		text++;
	if (mdp_num_lead(text, SIZE_MAX, &v.num, &end))
		return -EINVAL;
	end += strspn(end, " \t\n");
	if (ti->allows_system && *end == '(') {
		/* md renders sync_speed_min/max as "N (local)" or "N (system)". */
		if (!strcmp(end, "(system)") || !strncmp(end, "(system)\n", 9))
			v.kind = MDP_V_SYSTEM;
		else if (strcmp(end, "(local)") && strncmp(end, "(local)\n", 8))
			return -EINVAL;
	} else if (*end) {
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int mdp_tunable_format(enum mdp_tunable t, const struct mdp_value *v, char *buf, size_t len)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	int n;

	if (!ti || (v->kind == MDP_V_SYSTEM && !ti->allows_system))
		return -EINVAL;
	if (v->kind == MDP_V_SYSTEM)
		n = snprintf(buf, len, "system\n");
	else
		n = snprintf(buf, len, "%" PRIu64 "\n", v->num);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

static int fit(int n, size_t len)
{
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

const char *mdp_kib_unit(uint64_t *kib)
{
	static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
	size_t u = 0;

	while (u + 1 < sizeof(units) / sizeof(units[0]) && *kib >= 1024 && *kib % 1024 == 0) {
		*kib /= 1024;
		u++;
	}
	return units[u];
}

int mdp_show_kib(uint64_t kib, char *buf, size_t len)
{
	const char *unit = mdp_kib_unit(&kib);

	return fit(snprintf(buf, len, "%" PRIu64 " %s", kib, unit), len);
}

int mdp_show_mem(uint64_t bytes, char *buf, size_t len)
{
	uint64_t kib = bytes / 1024;

	return mdp_show_kib(kib >= 1024 ? kib / 1024 * 1024 : kib, buf, len);
}

int mdp_tunable_show(enum mdp_tunable t, const struct mdp_value *v, char *buf, size_t len)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);

	if (!ti)
		return -EINVAL;
	if (v->kind == MDP_V_SYSTEM && v->num)
		return fit(snprintf(buf, len, "system (%" PRIu64 ")", v->num), len);
	if (v->kind == MDP_V_SYSTEM)
		return fit(snprintf(buf, len, "system"), len);
	if (ti->show == MDP_SHOW_SIZE)
		return mdp_show_kib(v->num, buf, len);
	if (ti->show == MDP_SHOW_RATE)
		return fit(snprintf(buf, len, "%" PRIu64 " %s", v->num, ti->unit), len);
	return fit(snprintf(buf, len, "%" PRIu64, v->num), len);
}

int mdp_tunable_json(enum mdp_tunable t, const struct mdp_value *v, char *buf, size_t len)
{
	if (!mdp_tunable_info(t))
		return -EINVAL;
	if (v->kind == MDP_V_SYSTEM)
		return fit(snprintf(buf, len, "\"system\""), len);
	return fit(snprintf(buf, len, "%" PRIu64, v->num), len);
}

int mdp_tunable_target_name(enum mdp_tunable t, const char *dev, char *buf, size_t len)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);

	if (!ti)
		return -EINVAL;
	if (ti->scope == MDP_SCOPE_GLOBAL)
		return fit(snprintf(buf, len, "dev.raid.%s", ti->key), len);
	if (ti->scope == MDP_SCOPE_DISK)
		return fit(snprintf(buf, len, "%s read_ahead", dev), len);
	return fit(snprintf(buf, len, "%s %s", dev, ti->key), len);
}

bool mdp_value_eq(const struct mdp_value *a, const struct mdp_value *b)
{
	if (a->kind != b->kind)
		return false;
	/* "system" follows the global sysctl; its number is not part of the request. */
	return a->kind == MDP_V_SYSTEM || a->num == b->num;
}
