/* fmt: value display helpers (fmt.h). */
#include "fmt.h"

#include <inttypes.h>
#include <stdio.h>

#include "plan.h"

void fmt_kib(uint64_t kib, char *buf, size_t len)
{
	if (kib >= 1024 * 1024 && kib % (1024 * 1024) == 0)
		snprintf(buf, len, "%" PRIu64 " GiB", kib / (1024 * 1024));
	else if (kib >= 1024 && kib % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 " MiB", kib / 1024);
	else
		snprintf(buf, len, "%" PRIu64 " KiB", kib);
}

void fmt_value(enum mdp_tunable t, const struct mdp_value *v, char *buf, size_t len)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);

	if (v->kind == MDP_V_SYSTEM)
		snprintf(buf, len, "system (%" PRIu64 ")", v->num);
	else if (t == MDP_T_READ_AHEAD_KB || t == MDP_T_MEMBER_READ_AHEAD_KB)
		fmt_kib(v->num, buf, len);
	else if (ti->unit[0] && t != MDP_T_STRIPE_CACHE_SIZE && t != MDP_T_PREREAD_BYPASS)
		snprintf(buf, len, "%" PRIu64 " %s", v->num, ti->unit);
	else
		snprintf(buf, len, "%" PRIu64, v->num);
}

void fmt_setting(enum mdp_tunable t, const struct mdp_setting *s, char *buf, size_t len)
{
	struct mdp_value v = {.kind = MDP_V_NUM, .num = s->num};

	if (s->kind == MDP_S_AUTO) {
		snprintf(buf, len, "auto");
		return;
	}
	if (s->kind == MDP_S_SYSTEM) {
		snprintf(buf, len, "system");
		return;
	}
	fmt_value(t, &v, buf, len);
}

void fmt_setting_json(const struct mdp_setting *s)
{
	if (s->kind == MDP_S_AUTO)
		fputs("\"auto\"", stdout);
	else if (s->kind == MDP_S_SYSTEM)
		fputs("\"system\"", stdout);
	else
		printf("%" PRIu64, s->num);
}

void fmt_budget(const struct mdp_budget *b, char *buf, size_t len)
{
	if (b->kind == MDP_BUDGET_PERCENT)
		snprintf(buf, len, "%" PRIu64 "%% of RAM", b->value);
	else if (b->kind == MDP_BUDGET_BYTES)
		fmt_kib(b->value / 1024, buf, len);
	else
		snprintf(buf, len, "%d%% of RAM (default)", MDP_DEFAULT_BUDGET_PERCENT);
}
