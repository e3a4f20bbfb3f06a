/*
 * test_profile: loading, inheriting and validating profiles.
 *
 * Runs from the repo root (MDP_SRCDIR) so that diagnostics name files the
 * way the command line would: tests/profiles/bad/NN-name.yaml. Each file
 * there with a .err beside it must produce exactly those lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pin.h"
#include "profile.h"
#include "profile_int.h"
#include "support.h"

#define BAD_DIR "tests/profiles/bad"

static const struct mdp_profile_dirs shipped = {.dirs = {"profiles"}, .n = 1};

static int setup_cwd(void **state)
{
	const char *src = getenv("MDP_SRCDIR");

	(void)state;
	if (src && chdir(src))
		return -1;
	return access("profiles/balanced.yaml", R_OK) ? -1 : 0;
}

/* All diags, one formatted line each, "\n"-terminated. */
static char *diags_text(const struct mdp_diags *d)
{
	size_t cap = 1, n = 0;
	char *out, line[2048];

	for (size_t i = 0; i < d->n; i++)
		cap += (size_t)mdp_diag_format(&d->v[i], line, sizeof(line)) + 1;
	out = calloc(1, cap);
	assert_non_null(out);
	for (size_t i = 0; i < d->n; i++) {
		mdp_diag_format(&d->v[i], line, sizeof(line));
		n += (size_t)snprintf(out + n, cap - n, "%s\n", line);
	}
	return out;
}

static int load_str(const char *text, struct mdp_profile *p, char **msgs)
{
	struct mdp_diags d;
	int r;

	mdp_diags_init(&d);
	r = mdp_profile_load_mem(NULL, "mem.yaml", text, strlen(text), p, &d);
	*msgs = diags_text(&d);
	mdp_diags_free(&d);
	return r;
}

static void expect_error(const char *text, const char *msgs)
{
	struct mdp_profile p;
	char *got;

	assert_int_equal(load_str(text, &p, &got), -EINVAL);
	assert_string_equal(got, msgs);
	free(got);
}

static void load_shipped(const char *name, struct mdp_profile *p)
{
	struct mdp_diags d;
	char path[256];
	char *msgs;

	mdp_diags_init(&d);
	snprintf(path, sizeof(path), "profiles/%s.yaml", name);
	if (mdp_profile_load(&shipped, path, p, &d)) {
		msgs = diags_text(&d);
		fail_msg("%s: %s", path, msgs);
	}
	assert_int_equal(d.n, 0);
	mdp_diags_free(&d);
}

static void assert_setting(const struct mdp_setting *s, enum mdp_setting_kind k, uint64_t num)
{
	assert_int_equal(s->kind, k);
	if (k == MDP_S_NUM)
		assert_int_equal(s->num, num);
	assert_non_null(s->pos.file);
	assert_true(s->pos.line > 0 && s->pos.col > 0);
}

/* A number with its bound (MDP_B_*), as assert_setting. */
static void assert_bounded(const struct mdp_setting *s, uint64_t num, enum mdp_bound b)
{
	assert_setting(s, MDP_S_NUM, num);
	assert_int_equal(s->bound, b);
}

static const struct mdp_rule *rule_setting(const struct mdp_profile *p, enum mdp_tunable t)
{
	const struct mdp_rule *last = NULL;

	for (size_t i = 0; i < p->n_rules; i++)
		if (p->rules[i].set[t].kind != MDP_S_UNSET)
			last = &p->rules[i];
	return last;
}

static bool has_service(const struct mdp_profile *p, const char *name, bool optional)
{
	for (size_t i = 0; i < p->n_services; i++)
		if (!strcmp(p->services[i].name, name))
			return p->services[i].optional == optional;
	return false;
}

static void test_reshape_fast(void **state)
{
	struct mdp_profile p;
	const struct mdp_rule *r;

	(void)state;
	load_shipped("reshape-fast", &p);
	assert_string_equal(p.name, "reshape-fast");
	assert_int_equal(p.n_chain, 1);
	assert_int_equal(p.budget.kind, MDP_BUDGET_PERCENT);
	assert_int_equal(p.budget.value, 25);
	/* Never slower than DSM's faster preset, never a lower limit (issue 38). */
	assert_bounded(&p.global[MDP_T_SPEED_LIMIT_MIN], 300000, MDP_B_AT_LEAST);
	assert_bounded(&p.global[MDP_T_SPEED_LIMIT_MAX], 2000000, MDP_B_AT_LEAST);
	/* every array's own limits back to the system's: a local cap is lifted */
	r = rule_setting(&p, MDP_T_SYNC_SPEED_MAX);
	assert_non_null(r);
	assert_true(r->match.all);
	assert_int_equal(r->set[MDP_T_SYNC_SPEED_MIN].kind, MDP_S_SYSTEM);
	assert_int_equal(r->set[MDP_T_SYNC_SPEED_MAX].kind, MDP_S_SYSTEM);
	r = rule_setting(&p, MDP_T_STRIPE_CACHE_SIZE);
	assert_non_null(r);
	assert_int_equal(r->set[MDP_T_STRIPE_CACHE_SIZE].kind, MDP_S_AUTO);
	assert_int_equal(r->set[MDP_T_STRIPE_CACHE_SIZE].bound, MDP_B_AT_LEAST);
	assert_false(r->match.all);
	assert_int_equal(r->match.n_levels, 3);
	r = rule_setting(&p, MDP_T_READ_AHEAD_KB);
	assert_bounded(&r->set[MDP_T_READ_AHEAD_KB], 32768, MDP_B_AT_LEAST);
	assert_true(has_service(&p, "synoindexd", true));
	assert_true(has_service(&p, "pkgctl-SynologyPhotos", true));
	assert_true(has_service(&p, "pkg-FileStation-thumbd", true));
	assert_false(has_service(&p, "scemd", false) || has_service(&p, "scemd", true));
	mdp_profile_free(&p);
}

static void test_balanced(void **state)
{
	struct mdp_profile p;

	(void)state;
	load_shipped("balanced", &p);
	assert_int_equal(p.budget.kind, MDP_BUDGET_PERCENT);
	assert_int_equal(p.budget.value, 10);
	assert_bounded(&p.global[MDP_T_SPEED_LIMIT_MIN], 50000, MDP_B_EXACT);
	assert_bounded(&p.global[MDP_T_SPEED_LIMIT_MAX], 200000, MDP_B_AT_LEAST);
	assert_bounded(&rule_setting(&p, MDP_T_STRIPE_CACHE_SIZE)->set[MDP_T_STRIPE_CACHE_SIZE],
		       2048, MDP_B_AT_LEAST);
	assert_setting(&rule_setting(&p, MDP_T_READ_AHEAD_KB)->set[MDP_T_READ_AHEAD_KB], MDP_S_NUM,
		       4096);
	assert_int_equal(p.n_services, 0);
	mdp_profile_free(&p);
}

static void test_low_ram_extends_balanced(void **state)
{
	struct mdp_profile p;

	(void)state;
	load_shipped("low-ram", &p);
	assert_int_equal(p.n_chain, 2);
	assert_string_equal(p.chain[0], "low-ram");
	assert_string_equal(p.chain[1], "balanced");
	assert_int_equal(p.n_files, 2);
	assert_string_equal(p.files[1], "profiles/balanced.yaml");
	/* Own budget wins; speed limits come from balanced, with its file. */
	assert_int_equal(p.budget.kind, MDP_BUDGET_BYTES);
	assert_int_equal(p.budget.value, 32 * 1024 * 1024);
	assert_setting(&p.global[MDP_T_SPEED_LIMIT_MIN], MDP_S_NUM, 50000);
	assert_string_equal(p.global[MDP_T_SPEED_LIMIT_MIN].pos.file, "profiles/balanced.yaml");
	assert_string_equal(p.description,
			    "Balanced for 512 MiB to 1 GiB of RAM; lowers caches to fit");
	/* balanced's two rules first, then low-ram's two, which win. */
	assert_int_equal(p.n_rules, 4);
	assert_int_equal(p.rules[0].set[MDP_T_STRIPE_CACHE_SIZE].kind, MDP_S_NUM);
	assert_string_equal(p.rules[0].pos.file, "profiles/balanced.yaml");
	assert_int_equal(
	    rule_setting(&p, MDP_T_STRIPE_CACHE_SIZE)->set[MDP_T_STRIPE_CACHE_SIZE].kind,
	    MDP_S_AUTO);
	assert_int_equal(rule_setting(&p, MDP_T_READ_AHEAD_KB)->set[MDP_T_READ_AHEAD_KB].num, 1024);
	assert_string_equal(p.rules[3].pos.file, "profiles/low-ram.yaml");
	assert_true(has_service(&p, "synoindexd", true));
	mdp_profile_free(&p);
}

static void test_kernel_defaults(void **state)
{
	struct mdp_profile p;
	const struct mdp_rule *r;

	(void)state;
	load_shipped("kernel-defaults", &p);
	assert_setting(&p.global[MDP_T_SPEED_LIMIT_MIN], MDP_S_NUM, 1000);
	assert_setting(&p.global[MDP_T_SPEED_LIMIT_MAX], MDP_S_NUM, 200000);
	assert_true(p.rules[0].match.all);
	assert_int_equal(p.rules[0].set[MDP_T_SYNC_SPEED_MIN].kind, MDP_S_SYSTEM);
	assert_int_equal(p.rules[0].set[MDP_T_SYNC_SPEED_MAX].kind, MDP_S_SYSTEM);
	r = rule_setting(&p, MDP_T_STRIPE_CACHE_SIZE);
	assert_setting(&r->set[MDP_T_STRIPE_CACHE_SIZE], MDP_S_NUM, 256);
	assert_setting(&r->set[MDP_T_GROUP_THREAD_CNT], MDP_S_NUM, 0);
	assert_setting(&r->set[MDP_T_PREREAD_BYPASS], MDP_S_NUM, 1);
	assert_null(rule_setting(&p, MDP_T_READ_AHEAD_KB));
	assert_int_equal(p.budget.kind, MDP_BUDGET_UNSET);
	mdp_profile_free(&p);
}

/* Every shipped profile loads cleanly and passes its own perms as root. */
static void test_all_shipped_load(void **state)
{
	DIR *dir = opendir("profiles");
	struct dirent *e;
	size_t n = 0;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir))) {
		size_t len = strlen(e->d_name);
		struct mdp_profile p;
		char name[256];
		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(len - 5), e->d_name);
		load_shipped(name, &p);
		assert_non_null(p.description);
		mdp_profile_free(&p);
		n++;
	}
	closedir(dir);
	assert_true(n >= 4);
}

/*
 * The profile keys of the tunables are the registry's: each loads in the
 * place its scope says and is misplaced in the other.
 */
static void test_every_registry_key(void **state)
{
	struct mdp_profile p;
	char text[256], want[256], *msgs;

	(void)state;
	for (int t = 0; t < MDP_T_COUNT; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info((enum mdp_tunable)t);
		bool global = ti->scope == MDP_SCOPE_GLOBAL;
		bool size = !strcmp(ti->unit, "KiB");
		uint64_t num = size ? 4 : ti->max; /* in every tunable's range */
		char v[32];
		const struct mdp_setting *set;

		snprintf(v, sizeof(v), "%" PRIu64 "%s", num, size ? "KiB" : "");
		snprintf(text, sizeof(text),
			 global ? "raid:\n  %s: %s\n" : "arrays:\n  - match: all\n    %s: %s\n",
			 ti->key, v);
		assert_int_equal(load_str(text, &p, &msgs), 0);
		free(msgs);
		set = global ? &p.global[t] : &p.rules[0].set[t];
		assert_int_equal(set->kind, MDP_S_NUM);
		assert_int_equal(set->num, num);
		mdp_profile_free(&p);

		snprintf(text, sizeof(text),
			 global ? "arrays:\n  - match: all\n    %s: %s\n" : "raid:\n  %s: %s\n",
			 ti->key, v);
		snprintf(want, sizeof(want), "mem.yaml:%s: misplaced key '%s': it belongs %s\n",
			 global ? "3:5" : "2:3", ti->key,
			 global ? "under 'raid'" : "in an entry of 'arrays'");
		expect_error(text, want);
	}
}

static void test_mem_forms(void **state)
{
	struct mdp_profile p;
	char *msgs;

	(void)state;
	assert_int_equal(load_str("description: \"x\"\n"
				  "memory_budget: 512MiB\n"
				  "arrays:\n"
				  "  - match: {names: [md2, md127], levels: [5, raid10, linear],\n"
				  "            uuids: [A1B2C3D4-E5F6-A7B8-C9D0-E1F2A3B4C5D6]}\n"
				  "    stripe_cache_size: 17\n"
				  "    preread_bypass_threshold: 17\n"
				  "    member_read_ahead: 65536 sectors\n"
				  "    read_ahead: 384sectors\n"
				  "    sync_speed_min: 1\n"
				  "    sync_speed_max: 2000000\n"
				  "services:\n"
				  "  pause: [a@b.service, 'x:y_z-1', {name: c}]\n",
				  &p, &msgs),
			 0);
	assert_string_equal(msgs, "");
	free(msgs);
	assert_string_equal(p.name, "mem");
	assert_int_equal(p.budget.value, 512ull << 20);
	assert_int_equal(p.rules[0].match.n_names, 2);
	assert_string_equal(p.rules[0].match.names[1], "md127");
	assert_int_equal(p.rules[0].match.levels[0], MDP_LEVEL_RAID5);
	assert_int_equal(p.rules[0].match.levels[2], MDP_LEVEL_LINEAR);
	assert_string_equal(p.rules[0].match.uuids[0], "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6");
	assert_int_equal(p.rules[0].set[MDP_T_MEMBER_READ_AHEAD_KB].num, 32768);
	assert_int_equal(p.rules[0].set[MDP_T_READ_AHEAD_KB].num, 192);
	assert_int_equal(p.rules[0].set[MDP_T_READ_AHEAD_KB].pos.line, 9);
	assert_int_equal(p.rules[0].set[MDP_T_READ_AHEAD_KB].pos.col, 17);
	assert_string_equal(p.rules[0].set[MDP_T_READ_AHEAD_KB].pos.file, "mem.yaml");
	assert_int_equal(p.n_services, 3);
	assert_string_equal(p.services[2].name, "c");
	assert_false(p.services[2].optional);
	mdp_profile_free(&p);
}

static void test_ranges(void **state)
{
	(void)state;
	expect_error("arrays:\n  - match: all\n    stripe_cache_size: 16\n",
		     "mem.yaml:3:24: stripe_cache_size 16 is out of range (17..32768)\n");
	expect_error("arrays:\n  - match: all\n    stripe_cache_size: 32769\n",
		     "mem.yaml:3:24: stripe_cache_size 32769 is out of range (17..32768)\n");
	expect_error("raid: {speed_limit_min: 0}\n",
		     "mem.yaml:1:25: speed_limit_min 0 is out of range (1..2000000)\n");
	expect_error("memory_budget: 0%\n", "mem.yaml:1:16: memory_budget 0% is out of range "
					    "(1%..90%)\n");
	expect_error("memory_budget: 0MiB\n",
		     "mem.yaml:1:16: memory_budget 0MiB is out of range: expected above 0\n");
}

static void test_did_you_mean(void **state)
{
	(void)state;
	expect_error("raid:\n  speed_limit_mit: 1\n",
		     "mem.yaml:2:3: unknown key 'speed_limit_mit' (did you mean "
		     "'speed_limit_min'?)\n");
	expect_error("arrays:\n  - match: all\n    read_ahead_kb: 4MiB\n",
		     "mem.yaml:3:5: unknown key 'read_ahead_kb' (did you mean 'read_ahead'?)\n");
	expect_error("arrays:\n  - match: {level: [raid5]}\n    read_ahead: 4MiB\n",
		     "mem.yaml:2:13: unknown key 'level' (did you mean 'levels'?)\n");
	/* "all" is only the shorthand, not a key of the mapping form. */
	expect_error(
	    "arrays:\n  - match: {all: true}\n    read_ahead: 4MiB\n",
	    "mem.yaml:2:13: unknown key 'all' (valid here: names, levels, uuids, media)\n");
	expect_error("Raid: {}\n", "mem.yaml:1:1: unknown key 'Raid' (did you mean 'raid'?)\n");
}

static void test_multiple_errors(void **state)
{
	(void)state;
	/* Value errors: all found in one pass, in file order. */
	expect_error("raid:\n  speed_limit_min: 1x\n  speed_limit_max: -1\n"
		     "arrays:\n  - match: {levels: [raid9]}\n    read_ahead: 3\n"
		     "services:\n  pause: [';x']\n",
		     "mem.yaml:2:20: trailing junk in '1x': expected a number\n"
		     "mem.yaml:3:20: speed_limit_max '-1' is negative: expected 1..2000000\n"
		     "mem.yaml:5:22: unknown raid level 'raid9': expected linear, raid0, raid1, "
		     "raid4, raid5, raid6 or raid10\n"
		     "mem.yaml:6:17: read_ahead '3' has no unit: use KiB, MiB, GiB or sectors\n"
		     "mem.yaml:8:11: invalid service name ';x': only letters, digits and @._:- are "
		     "allowed\n");
}

/* Nesting no profile needs stops the walk at once, however deep the text goes. */
static void test_deep_nesting(void **state)
{
	size_t n = 200000;
	char *text = malloc(n + 1);

	(void)state;
	assert_non_null(text);
	memset(text, '[', n);
	text[n] = '\0';
	expect_error(text, "mem.yaml:1:1: wrong type for the profile: expected a mapping, found a "
			   "list\n"
			   "mem.yaml:1:17: yaml nesting is too deep (more than 16 levels)\n");
	memcpy(text, "raid: ", 6);
	memset(text + 6, '{', 100);
	text[106] = '\0';
	/* A mapping as a key is refused, and what is inside it still stops at the cap. */
	expect_error(text, "mem.yaml:1:8: invalid key: expected a name\n"
			   "mem.yaml:1:22: yaml nesting is too deep (more than 16 levels)\n");
	free(text);
}

/* After 100 errors a file is not read further: one line says so. */
static void test_error_cap(void **state)
{
	struct mdp_profile p;
	struct mdp_diags d;
	char text[4096];
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 150; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "zzkey%d: 1\n", i);
	mdp_diags_init(&d);
	assert_int_equal(mdp_profile_load_mem(NULL, "mem.yaml", text, n, &p, &d), -EINVAL);
	assert_int_equal(d.n, 101);
	assert_int_equal(d.v[99].line, 100);
	assert_int_equal(d.v[100].line, 101);
	assert_string_equal(d.v[100].msg, "too many errors (more than 100): stopping here");
	mdp_diags_free(&d);
}

/* Package entries are checked when the profile is, not first at apply. */
static void test_package_names(void **state)
{
	(void)state;
	expect_error("services:\n  pause: ['pkg:', 'pkg:a:b', {name: 'pkg:-x'}, 'pkg:Ok']\n",
		     "mem.yaml:2:11: invalid service name 'pkg:': a package name is required "
		     "after 'pkg:'\n"
		     "mem.yaml:2:19: invalid service name 'pkg:a:b': the package name after "
		     "'pkg:' must not contain ':'\n"
		     "mem.yaml:2:37: invalid service name 'pkg:-x': the package name after "
		     "'pkg:' must not start with '-'\n");
}

/* A service entry's own timeout: whole seconds, 1..3600, as plain digits. */
static void test_service_timeout(void **state)
{
	const char *text =
	    "services:\n  pause:\n    - {name: a, timeout: 1}\n    - b\n"
	    "    - {name: 'pkg:P', optional: true, only_on: [dsm7], timeout: 3600}\n";
	struct mdp_profile p;
	char *msgs;

	(void)state;
	assert_int_equal(load_str(text, &p, &msgs), 0);
	assert_string_equal(msgs, "");
	free(msgs);
	assert_int_equal(p.n_services, 3);
	assert_int_equal(p.services[0].timeout_s, 1);
	assert_int_equal(p.services[1].timeout_s, 0); /* the backend's default */
	assert_int_equal(p.services[2].timeout_s, 3600);
	assert_true(p.services[2].optional);
	mdp_profile_free(&p);
	expect_error(
	    "services:\n  pause:\n    - {name: a, timeout: 0}\n"
	    "    - {name: b, timeout: 3601}\n    - {name: c, timeout: \"90\"}\n"
	    "    - {name: d, timeout: 090}\n    - {name: e, timeout: 1.5}\n"
	    "    - {name: f, timeout: +5}\n    - {name: g, timeout: -1}\n"
	    "    - {name: h, timeout: ninety}\n    - {name: i, timeout: 99999999999999999999}\n",
	    "mem.yaml:3:26: timeout 0 is out of range (1..3600)\n"
	    "mem.yaml:4:26: timeout 3601 is out of range (1..3600)\n"
	    "mem.yaml:5:26: timeout '90' is quoted, so yaml reads it as text: write 90 "
	    "without quotes\n"
	    "mem.yaml:6:26: timeout '090': leading zeros are ambiguous (octal in yaml 1.1); "
	    "write 90\n"
	    "mem.yaml:7:26: timeout '1.5' is not a plain decimal number: expected 1..3600 "
	    "seconds\n"
	    "mem.yaml:8:26: timeout '+5' is not a plain decimal number: write 5\n"
	    "mem.yaml:9:26: timeout '-1' is negative: expected 1..3600 seconds\n"
	    "mem.yaml:10:26: timeout 'ninety' is not a number: expected 1..3600 seconds\n"
	    "mem.yaml:11:26: timeout '99999999999999999999' is too large: expected "
	    "1..3600\n");
	/* A mapping's key, not the shorthand: a bare entry stays a name. */
	expect_error("services:\n  pause:\n    - {name: a, timeout: [1]}\n",
		     "mem.yaml:3:26: wrong type for 'timeout': expected a single value, found a "
		     "list\n");
}

/* extends: the child's entry wins whole, its timeout (or none) with it. */
static void test_service_timeout_extends(void **state)
{
	char dir[] = "/tmp/mdp-timeout-XXXXXX", path[64];
	const char *child = "extends: par\nservices:\n  pause:\n    - {name: a, timeout: 5}\n"
			    "    - b\n    - {name: d, timeout: 7}\n";
	struct mdp_profile_dirs dirs = {.n = 1};
	struct mdp_profile p;
	struct mdp_diags d;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/par.yaml", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("services:\n  pause:\n    - {name: a, timeout: 600}\n"
	      "    - {name: b, timeout: 600}\n    - {name: c, timeout: 600}\n",
	      f);
	assert_int_equal(fclose(f), 0);
	dirs.dirs[0] = dir;
	mdp_diags_init(&d);
	assert_int_equal(mdp_profile_load_mem(&dirs, "child", child, strlen(child), &p, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(p.n_services, 4);
	assert_string_equal(p.services[0].name, "a");
	assert_int_equal(p.services[0].timeout_s, 5);   /* the child's */
	assert_int_equal(p.services[1].timeout_s, 0);   /* the child's: none */
	assert_int_equal(p.services[2].timeout_s, 600); /* only the parent's */
	assert_int_equal(p.services[3].timeout_s, 7);
	mdp_profile_free(&p);
	mdp_diags_free(&d);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* text loaded, pinned (show --yaml, a boot script) and loaded back cleanly into back: the YAML. */
static char *pin_round_trip(const char *text, struct mdp_profile *back)
{
	struct mdp_profile p;
	struct mdp_diags d;
	char *out, *msgs;
	size_t len;

	assert_int_equal(load_str(text, &p, &msgs), 0);
	free(msgs);
	mdp_diags_init(&d);
	assert_int_equal(mdp_pin_write(&p, &out, &len, &d), 0);
	assert_int_equal(load_str(out, back, &msgs), 0);
	assert_string_equal(msgs, "");
	free(msgs);
	mdp_profile_free(&p);
	mdp_diags_free(&d);
	return out;
}

/* show --yaml writes the timeout, and what it writes loads back with it. */
static void test_service_timeout_pinned(void **state)
{
	struct mdp_profile back;
	char *out =
	    pin_round_trip("services:\n  pause:\n    - {name: a, timeout: 90}\n    - b\n", &back);

	(void)state;
	assert_non_null(strstr(out, "  - name: a\n    optional: false\n    timeout: 90\n"));
	assert_non_null(strstr(out, "  - name: b\n    optional: false\n"));
	assert_int_equal(back.services[0].timeout_s, 90);
	assert_int_equal(back.services[1].timeout_s, 0);
	mdp_profile_free(&back);
	free(out);
}

/* Every tunable may be a floor or a ceiling, in flow or block style, auto included. */
static void test_bounds_load(void **state)
{
	const char *text = "raid:\n"
			   "  speed_limit_min: {at_least: 100000}\n"
			   "  speed_limit_max:\n"
			   "    at_most: 600000\n"
			   "arrays:\n"
			   "  - match: all\n"
			   "    stripe_cache_size: {at_least: auto}\n"
			   "    read_ahead: {at_most: 4 MiB}\n"
			   "    sync_speed_min: 5000\n";
	const struct mdp_setting *s;
	struct mdp_profile p;
	char *msgs;

	(void)state;
	assert_int_equal(load_str(text, &p, &msgs), 0);
	assert_string_equal(msgs, "");
	s = &p.global[MDP_T_SPEED_LIMIT_MIN];
	assert_setting(s, MDP_S_NUM, 100000);
	assert_int_equal(s->bound, MDP_B_AT_LEAST);
	assert_int_equal(s->pos.line, 2);
	s = &p.global[MDP_T_SPEED_LIMIT_MAX];
	assert_setting(s, MDP_S_NUM, 600000);
	assert_int_equal(s->bound, MDP_B_AT_MOST);
	s = &p.rules[0].set[MDP_T_STRIPE_CACHE_SIZE];
	assert_setting(s, MDP_S_AUTO, 0);
	assert_int_equal(s->bound, MDP_B_AT_LEAST);
	s = &p.rules[0].set[MDP_T_READ_AHEAD_KB];
	assert_setting(s, MDP_S_NUM, 4096);
	assert_int_equal(s->bound, MDP_B_AT_MOST);
	assert_int_equal(p.rules[0].set[MDP_T_SYNC_SPEED_MIN].bound, MDP_B_EXACT);
	free(msgs);
	mdp_profile_free(&p);
}

/* A bad bound is an error at its line, worded as the plain value's. */
static void test_bounds_errors(void **state)
{
	(void)state;
	expect_error("raid:\n  speed_limit_max: {}\n",
		     "mem.yaml:2:20: empty mapping for speed_limit_max: expected a value, "
		     "{at_least: value} or {at_most: value}\n");
	expect_error("arrays:\n  - match: all\n    read_ahead: {at_least: 1MiB, at_most: 4MiB}\n",
		     "mem.yaml:3:34: read_ahead has both at_least and at_most: give one of them\n");
	expect_error("raid:\n  speed_limit_min: {minimum: 5}\n",
		     "mem.yaml:2:21: unknown key 'minimum' (valid here: at_least, at_most)\n");
	expect_error("raid:\n  speed_limit_min: {at_leest: 5}\n",
		     "mem.yaml:2:21: unknown key 'at_leest' (did you mean 'at_least'?)\n");
	expect_error("raid:\n  speed_limit_max: {at_least: 3000000}\n",
		     "mem.yaml:2:31: speed_limit_max 3000000 is out of range (1..2000000)\n");
	expect_error("arrays:\n  - match: all\n    read_ahead: {at_most: 4}\n",
		     "mem.yaml:3:27: read_ahead '4' has no unit: use KiB, MiB, GiB or sectors\n");
	expect_error("arrays:\n  - match: all\n    group_thread_cnt: {at_least: auto}\n",
		     "mem.yaml:3:34: group_thread_cnt 'auto' is not allowed: only "
		     "stripe_cache_size can be auto\n");
	expect_error("arrays:\n  - match: all\n    sync_speed_min: {at_least: system}\n",
		     "mem.yaml:3:32: sync_speed_min {at_least: system} is not allowed: system "
		     "has no number to compare; write system or a number\n");
	expect_error("raid:\n  speed_limit_min: {at_least: }\n",
		     "mem.yaml:2:31: missing value for 'at_least'\n");
	/* Sure to cross: a floor on the min above a ceiling (or a number) on the max. */
	expect_error("raid:\n  speed_limit_min: {at_least: 700000}\n"
		     "  speed_limit_max: {at_most: 600000}\n",
		     "mem.yaml:2:20: speed_limit_min at least 700000 is above speed_limit_max at "
		     "most 600000\n");
	expect_error("arrays:\n  - match: all\n    sync_speed_min: 700000\n"
		     "    sync_speed_max: {at_most: 600000}\n",
		     "mem.yaml:3:21: sync_speed_min 700000 is above sync_speed_max at most "
		     "600000\n");
}

/* Not sure to cross: a ceiling on the min or a floor on the max is left to the plan. */
static void test_bounds_may_cross(void **state)
{
	struct mdp_profile p;
	char *msgs;

	(void)state;
	assert_int_equal(load_str("raid:\n  speed_limit_min: {at_most: 700000}\n"
				  "  speed_limit_max: 600000\n",
				  &p, &msgs),
			 0);
	free(msgs);
	mdp_profile_free(&p);
	assert_int_equal(load_str("raid:\n  speed_limit_min: 700000\n"
				  "  speed_limit_max: {at_least: 600000}\n",
				  &p, &msgs),
			 0);
	free(msgs);
	mdp_profile_free(&p);
}

/* media: a list or one word of hdd, ssd, nvme; pinned as a list, loaded back the same. */
static void test_media_load(void **state)
{
	struct mdp_profile p, back;
	char *msgs, *out;

	(void)state;
	assert_int_equal(load_str("arrays:\n  - match: {media: [ssd, nvme], levels: [raid5]}\n"
				  "    sync_speed_min: system\n"
				  "  - match: {media: hdd}\n    sync_speed_min: system\n",
				  &p, &msgs),
			 0);
	assert_string_equal(msgs, "");
	assert_int_equal(p.rules[0].match.media, 1u << MDP_MEDIA_SSD | 1u << MDP_MEDIA_NVME);
	assert_int_equal(p.rules[0].match.n_levels, 1);
	assert_int_equal(p.rules[1].match.media, 1u << MDP_MEDIA_HDD);
	free(msgs);
	mdp_profile_free(&p);
	out = pin_round_trip("arrays:\n  - match: {media: nvme}\n    sync_speed_min: system\n",
			     &back);
	assert_non_null(strstr(out, "- match:\n    media:\n    - nvme\n"));
	assert_int_equal(back.rules[0].match.media, 1u << MDP_MEDIA_NVME);
	mdp_profile_free(&back);
	free(out);
	expect_error("arrays:\n  - match: {media: [hdd, ssd, nvm]}\n    sync_speed_min: system\n",
		     "mem.yaml:2:31: unknown disk class 'nvm' (did you mean 'nvme'?): expected "
		     "hdd, ssd or nvme\n");
	expect_error("arrays:\n  - match: {media: [\"1\"]}\n    sync_speed_min: system\n",
		     "mem.yaml:2:21: unknown disk class '1': expected hdd, ssd or nvme\n");
}

/* show --yaml (and boot's pinned profile) writes the bound, and it loads back with it. */
static void test_bounds_pinned(void **state)
{
	struct mdp_profile back;
	char *out =
	    pin_round_trip("raid:\n  speed_limit_max: {at_least: 600000}\n"
			   "arrays:\n  - match: all\n    stripe_cache_size: {at_least: auto}\n"
			   "    read_ahead: {at_most: 4MiB}\n",
			   &back);

	(void)state;
	assert_non_null(strstr(out, "raid:\n  speed_limit_max:\n    at_least: 600000\n"));
	assert_non_null(strstr(out, "  stripe_cache_size:\n    at_least: auto\n"));
	assert_non_null(strstr(out, "  read_ahead:\n    at_most: 4MiB\n"));
	assert_int_equal(back.global[MDP_T_SPEED_LIMIT_MAX].bound, MDP_B_AT_LEAST);
	assert_int_equal(back.rules[0].set[MDP_T_STRIPE_CACHE_SIZE].bound, MDP_B_AT_LEAST);
	assert_int_equal(back.rules[0].set[MDP_T_READ_AHEAD_KB].bound, MDP_B_AT_MOST);
	mdp_profile_free(&back);
	free(out);
}

static void test_out_untouched(void **state)
{
	struct mdp_profile p;
	unsigned char before[sizeof(p)];
	char *msgs;

	(void)state;
	memset(&p, 0xa5, sizeof(p));
	memcpy(before, &p, sizeof(p));
	assert_int_equal(load_str("raid: {speed_limit_min: x}\n", &p, &msgs), -EINVAL);
	free(msgs);
	assert_memory_equal(&p, before, sizeof(p));
}

static void test_extends_without_dirs(void **state)
{
	(void)state;
	expect_error("extends: balanced\n", "mem.yaml:1:10: profile 'balanced' not found (no "
					    "profile directories to look in)\n");
}

static void test_extends_through_dirs(void **state)
{
	const char *text = "extends: reshape-fast\nraid: {speed_limit_min: 200000}\n"
			   "services:\n  pause:\n    - synoindexd\n    - extra\n";
	struct mdp_profile p;
	struct mdp_diags d;

	(void)state;
	mdp_diags_init(&d);
	assert_int_equal(mdp_profile_load_mem(&shipped, "child", text, strlen(text), &p, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(p.global[MDP_T_SPEED_LIMIT_MIN].num, 200000);
	assert_int_equal(p.global[MDP_T_SPEED_LIMIT_MAX].num, 2000000);
	assert_string_equal(
	    p.description,
	    "Finish RAID resync, rebuild, reshape or scrub as fast as the disks allow");
	/* Union, parent order first; the child's optional=false wins. */
	assert_int_equal(p.n_services, 7);
	assert_string_equal(p.services[0].name, "synoindexd");
	assert_false(p.services[0].optional);
	assert_string_equal(p.services[0].pos.file, "child");
	assert_string_equal(p.services[6].name, "extra");
	mdp_profile_free(&p);
	mdp_diags_free(&d);
}

static void test_sizes(void **state)
{
	static const struct {
		const char *s;
		int r;
		uint64_t kib;
	} cases[] = {
	    {"32MiB", 0, 32768},
	    {"192KiB", 0, 192},
	    {"1GiB", 0, 1048576},
	    {"65536 sectors", 0, 32768},
	    {"384sectors", 0, 192},
	    {"2 sector", 0, 1},
	    {"0KiB", 0, 0},
	    {"32", -EINVAL, 0},
	    {"32MB", -EINVAL, 0},
	    {"32 mib", -EINVAL, 0},
	    {"385 sectors", -EINVAL, 0},
	    {"-1KiB", -EINVAL, 0},
	    {"", -EINVAL, 0},
	    {"MiB", -EINVAL, 0},
	    {"1.5MiB", -EINVAL, 0},
	    {"18446744073709551616KiB", -EINVAL, 0},
	    {"18014398509481984GiB", -EINVAL, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t kib = 7;
		const char *why = NULL;
		int r = mdp_parse_size_kib(cases[i].s, &kib, &why);
		if (r != cases[i].r)
			fail_msg("'%s': got %d", cases[i].s, r);
		if (!r)
			assert_int_equal(kib, cases[i].kib);
		else
			assert_non_null(why);
	}
}

/* mdp_profile_find finds NAME at WANT (left in PATH). */
static void found(const struct mdp_profile_dirs *dirs, const char *name, const char *want,
		  char *path, size_t size, struct mdp_diags *d)
{
	assert_int_equal(mdp_profile_find(dirs, name, path, size, d), 0);
	assert_string_equal(path, want);
}

static void test_find(void **state)
{
	struct mdp_diags d;
	char path[256], *msgs;

	(void)state;
	mdp_diags_init(&d);
	found(&shipped, "balanced", "profiles/balanced.yaml", path, sizeof(path), &d);
	found(&shipped, "my.yaml", "my.yaml", path, sizeof(path), &d);
	assert_int_equal(mdp_profile_find(&shipped, "./x", path, sizeof(path), &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(mdp_profile_find(&shipped, "nope", path, sizeof(path), &d), -ENOENT);
	msgs = diags_text(&d);
	assert_string_equal(msgs, "profile 'nope' not found (looked in profiles)\n");
	free(msgs);
	mdp_diags_free(&d);
}

/* Built-ins come after every dir; a file of the same name there wins. */
static const struct mdp_builtin test_builtins[] = {
    TEST_BUILTIN("base", "description: built-in base\nraid: {speed_limit_min: 1234}\n"),
    TEST_BUILTIN("child", "extends: base\n"),
    TEST_BUILTIN("balanced", "description: shadowed\n"),
    TEST_BUILTIN("loop-a", "extends: loop-b\n"),
    TEST_BUILTIN("loop-b", "extends: loop-a\n"),
};
static const struct mdp_profile_dirs with_builtins = {{"profiles"}, 1, test_builtins, 5};

static void test_builtin(void **state)
{
	struct mdp_profile p;
	struct mdp_diags d;
	char path[256], *msgs;

	(void)state;
	mdp_diags_init(&d);
	found(&with_builtins, "child", "built-in:child", path, sizeof(path), &d);
	assert_true(mdp_profile_is_builtin(path));
	assert_false(mdp_profile_is_builtin("built-in:x.yaml"));
	assert_false(mdp_profile_is_builtin("./built-in:x"));
	assert_int_equal(mdp_profile_check_perms(path, &d), 0);
	assert_int_equal(mdp_profile_load(&with_builtins, path, &p, &d), 0);
	assert_int_equal(d.n, 0);
	assert_string_equal(p.path, "built-in:child");
	assert_string_equal(p.chain[1], "base");
	assert_string_equal(p.description, "built-in base");
	assert_int_equal(p.global[MDP_T_SPEED_LIMIT_MIN].num, 1234);
	for (size_t i = 0; i < p.n_files; i++) /* the chain: built-ins, trusted as the binary */
		assert_int_equal(mdp_profile_check_perms(p.files[i], &d), 0);
	mdp_profile_free(&p);
	/* The file in profiles/ shadows the built-in of the same name. */
	found(&with_builtins, "balanced", "profiles/balanced.yaml", path, sizeof(path), &d);
	/* A cycle among built-ins is found by identity, as among files. */
	assert_int_equal(mdp_profile_load(&with_builtins, "built-in:loop-a", &p, &d), -EINVAL);
	assert_int_equal(mdp_profile_find(&with_builtins, "nope", path, sizeof(path), &d), -ENOENT);
	/* A path that only looks like a built-in is a file. */
	assert_int_equal(mdp_profile_load(&with_builtins, "built-in:x.yaml", &p, &d), -EINVAL);
	msgs = diags_text(&d);
	assert_string_equal(
	    msgs, "built-in:loop-b:1:10: extends cycle: loop-a -> loop-b -> loop-a\n"
		  "profile 'nope' not found (looked in profiles and the built-in profiles)\n"
		  "built-in:x.yaml: cannot open profile: No such file or directory\n");
	free(msgs);
	mdp_diags_free(&d);
}

static char *perms_msgs(const char *path, int want)
{
	struct mdp_diags d;
	char *msgs;

	mdp_diags_init(&d);
	assert_int_equal(mdp_profile_check_perms(path, &d), want);
	msgs = diags_text(&d);
	mdp_diags_free(&d);
	return msgs;
}

static void test_perms(void **state)
{
	char dir[] = "/tmp/mdp-perms-XXXXXX", file[64], link[64], want[256], *m;
	FILE *f;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0755), 0);
	snprintf(file, sizeof(file), "%s/p.yaml", dir);
	snprintf(link, sizeof(link), "%s/l.yaml", dir);
	f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(file, 0644), 0);
	m = perms_msgs(file, 0);
	assert_string_equal(m, "");
	free(m);

	assert_int_equal(chmod(file, 0666), 0);
	m = perms_msgs(file, -EPERM);
	snprintf(want, sizeof(want), "%s: refusing profile: group/world-writable (mode 0666)\n",
		 file);
	assert_string_equal(m, want);
	free(m);

	assert_int_equal(chmod(file, 0644), 0);
	assert_int_equal(chown(file, 1000, 1000), 0);
	m = perms_msgs(file, -EPERM);
	snprintf(want, sizeof(want), "%s: refusing profile: not owned by root (uid 1000)\n", file);
	assert_string_equal(m, want);
	free(m);
	assert_int_equal(chown(file, 0, 0), 0);

	assert_int_equal(symlink(file, link), 0);
	m = perms_msgs(link, -EPERM);
	snprintf(want, sizeof(want), "%s: refusing profile: it is a symbolic link\n", link);
	assert_string_equal(m, want);
	free(m);

	assert_int_equal(chmod(dir, 01777), 0);
	m = perms_msgs(file, -EPERM);
	snprintf(want, sizeof(want),
		 "%s: refusing profile directory: group/world-writable (mode 1777)\n", dir);
	assert_string_equal(m, want);
	free(m);

	unlink(link);
	unlink(file);
	rmdir(dir);
}

/*
 * mdp_profile_open: a command's profile by name or from text, and (as root)
 * the parents a text extends checked as its files are: a parent others
 * can write is refused, or only said with warn.
 */
static void test_open(void **state)
{
	char dir[] = "/tmp/mdp-open-XXXXXX", file[64];
	const char *text = "extends: parent\nraid: {speed_limit_min: 200000}\n";
	struct mdp_profile_dirs dirs = {{dir}, 1, NULL, 0};
	struct mdp_profile_src src = {.arg = "child"};
	struct mdp_profile p;
	struct mdp_diags d, w;
	char *m;
	FILE *f;

	(void)state;
	mdp_diags_init(&d);
	mdp_diags_init(&w);
	assert_int_equal(mdp_profile_open(&with_builtins, &src, &p, &d), 0);
	assert_string_equal(p.path, "built-in:child");
	mdp_profile_free(&p);
	src.arg = "nope";
	assert_int_equal(mdp_profile_open(&with_builtins, &src, &p, &d), -ENOENT);
	m = diags_text(&d);
	assert_non_null(strstr(m, "profile 'nope' not found"));
	free(m);
	mdp_diags_free(&d);
	mdp_diags_init(&d);
	if (geteuid() != 0)
		skip(); /* the rules are root's: files others own are refused */
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0755), 0);
	snprintf(file, sizeof(file), "%s/parent.yaml", dir);
	assert_non_null(f = fopen(file, "w"));
	fputs("raid: {speed_limit_max: 300000}\n", f);
	fclose(f);
	assert_int_equal(chmod(file, 0666), 0);
	src = (struct mdp_profile_src){.arg = "stdin", .text = text, .len = strlen(text)};
	assert_int_equal(mdp_profile_open(&dirs, &src, &p, &d), 0); /* not checked */
	assert_int_equal(p.global[MDP_T_SPEED_LIMIT_MAX].num, 300000);
	mdp_profile_free(&p);
	src.check = true;
	src.warn = &w;
	assert_int_equal(mdp_profile_open(&dirs, &src, &p, &d), 0);
	assert_int_equal(d.n, 0);
	m = diags_text(&w);
	assert_non_null(strstr(m, "refusing profile: group/world-writable (mode 0666)"));
	free(m);
	mdp_profile_free(&p);
	src.warn = NULL;
	assert_int_equal(mdp_profile_open(&dirs, &src, &p, &d), -EPERM);
	m = diags_text(&d);
	assert_non_null(strstr(m, "refusing profile: group/world-writable (mode 0666)"));
	free(m);
	unlink(file);
	rmdir(dir);
	mdp_diags_free(&w);
	mdp_diags_free(&d);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int check_bad(const char *name)
{
	static const struct mdp_profile_dirs dirs = {.dirs = {BAD_DIR "/parents"}, .n = 1};
	char yaml[512], err[512], *want, *got;
	struct mdp_profile p;
	struct mdp_diags d;
	int r, ok;

	snprintf(yaml, sizeof(yaml), BAD_DIR "/%s", name);
	snprintf(err, sizeof(err), BAD_DIR "/%.*s.err", (int)(strlen(name) - 5), name);
	want = read_text(err);
	if (!want)
		return -1; /* a helper file, not a case */
	mdp_diags_init(&d);
	r = mdp_profile_load(&dirs, yaml, &p, &d);
	if (!r)
		mdp_profile_free(&p);
	got = diags_text(&d);
	ok = r == -EINVAL && d.n > 0 && !strcmp(got, want);
	if (!ok)
		print_error("%s: r=%d\n--- want\n%s--- got\n%s", yaml, r, want, got);
	free(want);
	free(got);
	mdp_diags_free(&d);
	return ok;
}

static void test_bad_corpus(void **state)
{
	struct dirent **ents;
	int n, cases = 0, failed = 0;

	(void)state;
	n = scandir(BAD_DIR, &ents, NULL, by_name);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(ents[i]->d_name);
		if (len > 5 && !strcmp(ents[i]->d_name + len - 5, ".yaml")) {
			int ok = check_bad(ents[i]->d_name);
			cases += ok >= 0;
			failed += ok == 0;
		}
		free(ents[i]);
	}
	free(ents);
	assert_int_equal(failed, 0);
	assert_true(cases >= 30);
}

/* maintenance.notify (issue 49): the command and the events, all four when on is left out;
 * each wrong one said where it is. */
static void test_maint_notify(void **state)
{
	struct mdp_profile p;
	char *msgs;

	(void)state;
	assert_int_equal(load_str("maintenance:\n  notify: {command: /usr/local/sbin/md-news, "
				  "events: [end, start]}\n",
				  &p, &msgs),
			 0);
	assert_string_equal(msgs, "");
	free(msgs);
	assert_true(p.maint.m.notify.set);
	assert_string_equal(p.maint.m.notify.command, "/usr/local/sbin/md-news");
	assert_int_equal(p.maint.m.notify.on, 1u << MDP_MEV_START | 1u << MDP_MEV_END);
	mdp_profile_free(&p);
	assert_int_equal(load_str("maintenance:\n  notify: {events: [pause]}\n", &p, &msgs), 0);
	free(msgs);
	assert_null(p.maint.m.notify.command);
	assert_int_equal(p.maint.m.notify.on, 1u << MDP_MEV_PAUSE);
	mdp_profile_free(&p);
	assert_int_equal(load_str("maintenance:\n  notify: {command: /bin/true}\n", &p, &msgs), 0);
	free(msgs);
	assert_int_equal(p.maint.m.notify.on, MDP_MEV_ALL);
	mdp_profile_free(&p);
	expect_error(
	    "maintenance:\n  notify: {}\n",
	    "mem.yaml:2:11: empty notify: give command, events or both (events: [start, pause, "
	    "resume, end])\n");
	expect_error("maintenance:\n  notify:\n    command: hook.sh\n    events: [start, stop, "
		     "start, 1]\n",
		     "mem.yaml:3:14: command 'hook.sh': expected the absolute path of a program "
		     "(at most 255 bytes)\n"
		     "mem.yaml:4:21: event 'stop': expected start, pause, resume or end\n"
		     "mem.yaml:4:27: event 'start': listed twice\n"
		     "mem.yaml:4:34: events '1' is a number in yaml, not text: quote it\n");
	expect_error("maintenance:\n  notify: {command: /a/../b, events: []}\n",
		     "mem.yaml:2:21: command '/a/../b': a path without '.', '..' or empty "
		     "components\n"
		     "mem.yaml:2:38: empty 'events' list: remove it or give one or more of start, "
		     "pause, resume, end\n");
	expect_error("maintenance:\n  notify: {command: [/bin/x]}\n",
		     "mem.yaml:2:21: wrong type for 'command': expected a single value, found a "
		     "list\n");
}

MDP_TEST_MAIN_FX(setup_cwd, NULL, NULL, test_reshape_fast, test_balanced,
		 test_low_ram_extends_balanced, test_kernel_defaults, test_all_shipped_load,
		 test_every_registry_key, test_mem_forms, test_ranges, test_did_you_mean,
		 test_multiple_errors, test_package_names, test_service_timeout,
		 test_service_timeout_extends, test_service_timeout_pinned, test_deep_nesting,
		 test_error_cap, test_out_untouched, test_extends_without_dirs,
		 test_extends_through_dirs, test_sizes, test_find, test_builtin, test_perms,
		 test_open, test_bad_corpus, test_bounds_load, test_bounds_errors,
		 test_bounds_may_cross, test_bounds_pinned, test_media_load, test_maint_notify)
