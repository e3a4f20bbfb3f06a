/*
 * tunable: the registry of write targets (see tunable.h).
 *
 * Ranges follow drivers/md: stripe_cache_size 17..32768 (raid5_set_cache_size),
 * group_thread_cnt 0..8192, speeds are KiB/s per device (int in the kernel).
 */
#include "tunable.h"
#include "ident.h"
#include "num.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const struct mdp_tunable_info infos[MDP_T_COUNT] = {
    [MDP_T_SPEED_LIMIT_MIN] = {"speed_limit_min", "/proc/sys/dev/raid/speed_limit_min",
			       MDP_SCOPE_GLOBAL, 1, 2000000, false, false, "KiB/s", MDP_SHOW_RATE},
    [MDP_T_SPEED_LIMIT_MAX] = {"speed_limit_max", "/proc/sys/dev/raid/speed_limit_max",
			       MDP_SCOPE_GLOBAL, 1, 2000000, false, false, "KiB/s", MDP_SHOW_RATE},
    [MDP_T_STRIPE_CACHE_SIZE] = {"stripe_cache_size", "md/stripe_cache_size", MDP_SCOPE_ARRAY, 17,
				 32768, false, true, "pages", MDP_SHOW_COUNT},
    [MDP_T_SYNC_SPEED_MIN] = {"sync_speed_min", "md/sync_speed_min", MDP_SCOPE_ARRAY, 1, 2000000,
			      true, false, "KiB/s", MDP_SHOW_RATE},
    [MDP_T_SYNC_SPEED_MAX] = {"sync_speed_max", "md/sync_speed_max", MDP_SCOPE_ARRAY, 1, 2000000,
			      true, false, "KiB/s", MDP_SHOW_RATE},
    [MDP_T_READ_AHEAD_KB] = {"read_ahead", "queue/read_ahead_kb", MDP_SCOPE_ARRAY, 0, 1048576,
			     false, false, "KiB", MDP_SHOW_SIZE},
    [MDP_T_GROUP_THREAD_CNT] = {"group_thread_cnt", "md/group_thread_cnt", MDP_SCOPE_ARRAY, 0, 8192,
				false, true, "threads", MDP_SHOW_COUNT},
    [MDP_T_PREREAD_BYPASS] = {"preread_bypass_threshold", "md/preread_bypass_threshold",
			      MDP_SCOPE_ARRAY, 0, 32768, false, true, "stripes", MDP_SHOW_COUNT},
    [MDP_T_MEMBER_READ_AHEAD_KB] = {"member_read_ahead", "queue/read_ahead_kb", MDP_SCOPE_DISK, 0,
				    1048576, false, false, "KiB", MDP_SHOW_SIZE},
};

const struct mdp_tunable_info *mdp_tunable_info(enum mdp_tunable t)
{
	if ((unsigned)t >= MDP_T_COUNT)
		return NULL;
	return &infos[t];
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

int mdp_show_kib(uint64_t kib, char *buf, size_t len)
{
	static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
	size_t u = 0;

	while (u + 1 < sizeof(units) / sizeof(units[0]) && kib >= 1024 && kib % 1024 == 0) {
		kib /= 1024;
		u++;
	}
	return fit(snprintf(buf, len, "%" PRIu64 " %s", kib, units[u]), len);
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
