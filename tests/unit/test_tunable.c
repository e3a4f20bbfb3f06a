/*
 * test_tunable: the registry's one display formatter. Every command shows
 * values through it, so a value reads the same in diff, apply, revert,
 * status and show; these pin what it says.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tunable.h"
#include "support.h"

static void show_is(enum mdp_tunable t, enum mdp_value_kind kind, uint64_t num, const char *want)
{
	struct mdp_value v = {kind, num};
	char buf[48];

	assert_int_equal(mdp_tunable_show(t, &v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

static void test_show(void **state)
{
	(void)state;
	show_is(MDP_T_READ_AHEAD_KB, MDP_V_NUM, 192, "192 KiB");
	show_is(MDP_T_READ_AHEAD_KB, MDP_V_NUM, 32768, "32 MiB");
	show_is(MDP_T_READ_AHEAD_KB, MDP_V_NUM, 1048576, "1 GiB");
	show_is(MDP_T_READ_AHEAD_KB, MDP_V_NUM, 1536, "1536 KiB"); /* not exact in MiB */
	show_is(MDP_T_READ_AHEAD_KB, MDP_V_NUM, 0, "0 KiB");
	show_is(MDP_T_MEMBER_READ_AHEAD_KB, MDP_V_NUM, 4096, "4 MiB");
	show_is(MDP_T_SPEED_LIMIT_MIN, MDP_V_NUM, 100000, "100000 KiB/s");
	show_is(MDP_T_SYNC_SPEED_MAX, MDP_V_NUM, 5000, "5000 KiB/s");
	show_is(MDP_T_STRIPE_CACHE_SIZE, MDP_V_NUM, 4096, "4096");
	show_is(MDP_T_GROUP_THREAD_CNT, MDP_V_NUM, 4, "4");
	show_is(MDP_T_PREREAD_BYPASS, MDP_V_NUM, 1, "1");
	/* As read from the kernel it carries its number; as desired it does not. */
	show_is(MDP_T_SYNC_SPEED_MIN, MDP_V_SYSTEM, 10000, "system (10000)");
	show_is(MDP_T_SYNC_SPEED_MIN, MDP_V_SYSTEM, 0, "system");
}

static void test_json_and_names(void **state)
{
	struct mdp_value v = {MDP_V_NUM, 32768};
	char buf[48];

	(void)state;
	/* Programs get the bare number in the registry's unit. */
	assert_int_equal(mdp_tunable_json(MDP_T_READ_AHEAD_KB, &v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "32768");
	v.kind = MDP_V_SYSTEM;
	assert_int_equal(mdp_tunable_json(MDP_T_SYNC_SPEED_MIN, &v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "\"system\"");
	assert_string_equal(mdp_tunable_info(MDP_T_READ_AHEAD_KB)->unit, "KiB");
	assert_string_equal(mdp_tunable_info(MDP_T_GROUP_THREAD_CNT)->unit, "threads");
	assert_int_equal(mdp_tunable_target_name(MDP_T_SPEED_LIMIT_MAX, "", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "dev.raid.speed_limit_max");
	assert_int_equal(mdp_tunable_target_name(MDP_T_STRIPE_CACHE_SIZE, "md2", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "md2 stripe_cache_size");
	assert_int_equal(
	    mdp_tunable_target_name(MDP_T_MEMBER_READ_AHEAD_KB, "sata1", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sata1 read_ahead");
	/* Too small a buffer is an error, never a silently cut value. */
	assert_int_equal(
	    mdp_tunable_show(MDP_T_SPEED_LIMIT_MIN, &(struct mdp_value){MDP_V_NUM, 100000}, buf, 6),
	    -ENAMETOOLONG);
}

/* The file at path (from the repo root, MDP_SRCDIR), NUL-terminated. */
static char *slurp(const char *path)
{
	const char *src = getenv("MDP_SRCDIR");
	char full[4096];
	char *buf = malloc(1 << 20);
	size_t n;
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", src ? src : ".", path);
	assert_non_null(buf);
	f = fopen(full, "r");
	if (!f)
		fail_msg("cannot open %s", full);
	n = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void has(const char *text, const char *file, const char *what, const char *key)
{
	if (!strstr(text, what))
		fail_msg("%s has no entry for tunable %s (looked for '%s')", file, key, what);
}

/* Whether some ".It Ic a , b" line of the manual names key. */
static bool man_names(const char *man, const char *key)
{
	size_t len = strlen(key);

	for (const char *l = strstr(man, ".It Ic "); l; l = strstr(l + 1, ".It Ic ")) {
		const char *end = strchr(l, '\n');
		for (const char *w = l + 7; w && w < end; w = strpbrk(w, " ,")) {
			w += strspn(w, " ,");
			if (!strncmp(w, key, len) && (w[len] == '\n' || strchr(" ,", w[len])))
				return true;
		}
	}
	return false;
}

/* Whether a row of docs/output.md's unit table names `key` and then `unit`. */
static bool unit_row(const char *out, const char *key, const char *unit)
{
	char k[96], u[96];

	snprintf(k, sizeof(k), "`%s`", key);
	snprintf(u, sizeof(u), "| `%s`", unit);
	for (const char *l = strstr(out, k); l; l = strstr(l + 1, k)) {
		const char *end = strchr(l, '\n'), *at = strstr(l, u);
		if (at && (!end || at < end) && strchr(" |", at[strlen(u)]))
			return true;
	}
	return false;
}

/*
 * Every registry entry has its documentation: a key under .It Ic in the
 * profile format's manual, a row in docs/output.md's unit table, a
 * property in the committed JSON Schema. A tunable added to the registry
 * alone fails here instead of going out unexplained.
 */
static void test_every_tunable_documented(void **state)
{
	char *man = slurp("man/mdprofile.yaml.5");
	char *out = slurp("docs/output.md");
	char *schema = slurp("schema/profile.schema.json");
	char want[128];

	(void)state;
	for (int t = 0; t < MDP_T_COUNT; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info(t);
		if (!man_names(man, ti->key))
			fail_msg("man/mdprofile.yaml.5 has no .It Ic entry for tunable %s",
				 ti->key);
		if (!unit_row(out, ti->key, ti->unit))
			fail_msg("docs/output.md has no row for tunable %s with unit `%s`", ti->key,
				 ti->unit);
		snprintf(want, sizeof(want), "\"%s\": {", ti->key);
		has(schema, "schema/profile.schema.json", want, ti->key);
	}
	free(man);
	free(out);
	free(schema);
}

/*
 * Every registry unit has its Prometheus metric: the tunable's unit is in
 * src/md/tunable.c's unit table (status --format prometheus writes one metric
 * per unit of it and leaves a tunable of any other unit out), and
 * docs/output.md names the metric's suffix.
 */
static void test_every_unit_has_a_metric(void **state)
{
	char *out = slurp("docs/output.md");
	const struct mdp_unit *u;
	char want[96];

	(void)state;
	for (int t = 0; t < MDP_T_COUNT; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info(t);
		if (!(u = mdp_tunable_unit(t)))
			fail_msg("tunable %s: unit `%s` is not in src/md/tunable.c's unit_table[], so "
				 "status --format prometheus has no metric for it",
				 ti->key, ti->unit);
		assert_string_equal(u->name, ti->unit);
		assert_true(u->prom_suffix && *u->prom_suffix && u->prom_help && *u->prom_help);
		assert_true(u->prom_factor >= 1);
	}
	for (size_t i = 0; (u = mdp_unit(i)); i++) {
		char full[96];
		snprintf(want, sizeof(want), "`..._%s`", u->prom_suffix);
		snprintf(full, sizeof(full), "`mdprofile_tunable_%s`", u->prom_suffix);
		if (!strstr(out, want) && !strstr(out, full))
			fail_msg(
			    "docs/output.md does not name the metric of unit %s (looked for '%s')",
			    u->name, want);
	}
	free(out);
}

MDP_TEST_MAIN(test_show, test_json_and_names, test_every_tunable_documented,
	      test_every_unit_has_a_metric)
