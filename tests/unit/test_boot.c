/*
 * Unit tests of boot (boot scripts, their files, install and uninstall) and
 * of pin's mdp_pin_uuids, against the fixture roots in tests/fixtures.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "boot.h"
#include "pin.h"
#include "support.h"
#include "discover_int.h"
#include "boot_int.h"

#define U2 "6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d" /* md2 of ds-dsm6-reshape */
#define U3 "f0e1d2c3b4a5968778695a4b3c2d1e0f" /* md3 */

struct sys {
	struct mdp_root r;
	struct mdp_system s;
};

static void fixture_dir(const char *name, char *buf, size_t len)
{
	const char *src = getenv("MDP_SRCDIR");

	snprintf(buf, len, "%s/tests/fixtures/%s", src ? src : ".", name);
}

static void load_sys(struct sys *x, const char *dir)
{
	struct mdp_diags d;

	assert_int_equal(mdp_root_init(&x->r, dir), 0);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover(&x->r, &x->s, &d), 0);
	mdp_diags_free(&d);
}

static void load_fixture(struct sys *x, const char *name)
{
	char dir[4096];

	fixture_dir(name, dir, sizeof(dir));
	load_sys(x, dir);
}

static void free_sys(struct sys *x)
{
	mdp_system_free(&x->s);
	mdp_root_fini(&x->r);
}

static void load(const char *text, struct mdp_profile *p)
{
	struct mdp_diags d;

	mdp_diags_init(&d);
	assert_int_equal(mdp_profile_load_mem(NULL, "t", text, strlen(text), p, &d), 0);
	mdp_diags_free(&d);
}

static const struct mdp_boot_opts opts = {
    .target = MDP_BOOT_DSM,
    .binary = "/volume1/@mdprofile/mdprofile",
    .wait_arrays = 120,
    .recheck_after = 120,
    .version = "test",
    .when = 0,
};

/* ---- mdp_pin_uuids ---------------------------------------------------------------- */

/* The profile text loaded into p and pinned to ds-dsm6-reshape; mdp_pin_uuids's result. */
static int pin(const char *text, struct mdp_profile *p, struct mdp_diags *d)
{
	struct sys x;
	int r;

	load_fixture(&x, "ds-dsm6-reshape");
	load(text, p);
	mdp_diags_init(d);
	r = mdp_pin_uuids(p, &x.s, d);
	free_sys(&x);
	return r;
}

static void test_pin_names_to_uuids(void **state)
{
	struct mdp_profile p;
	struct mdp_diags d;

	(void)state;
	assert_int_equal(
	    pin("arrays:\n"
		"  - match: {names: [md3, md2, md2], levels: [raid5]}\n    read_ahead: 1MiB\n"
		"  - match: {names: [md2, md3], uuids: [\"" U2
		"\", \"00000000000000000000000000000001\"]}\n"
		"    read_ahead: 2MiB\n"
		"  - match: all\n    read_ahead: 4MiB\n",
		&p, &d),
	    0);
	assert_int_equal(d.n, 0);
	/* Names become their UUIDs, once each; the levels stay. */
	assert_int_equal(p.rules[0].match.n_names, 0);
	assert_int_equal(p.rules[0].match.n_uuids, 2);
	assert_string_equal(p.rules[0].match.uuids[0], U3);
	assert_string_equal(p.rules[0].match.uuids[1], U2);
	assert_int_equal(p.rules[0].match.n_levels, 1);
	/* With UUIDs of its own, both held: only md2's is left. */
	assert_int_equal(p.rules[1].match.n_uuids, 1);
	assert_string_equal(p.rules[1].match.uuids[0], U2);
	assert_true(p.rules[2].match.all);
	mdp_diags_free(&d);
	mdp_profile_free(&p);
}

static void test_pin_refuses_unpinnable(void **state)
{
	struct mdp_profile p;
	struct mdp_diags d;

	(void)state;
	/* md9 is not there, md1 has no known UUID, the fourth rule would match nothing. */
	assert_int_equal(pin("arrays:\n"
			     "  - match: {names: [md2]}\n    read_ahead: 1MiB\n"
			     "  - match: {names: [md9]}\n    read_ahead: 1MiB\n"
			     "  - match: {names: [md1]}\n    read_ahead: 1MiB\n"
			     "  - match: {names: [md2], uuids: [\"" U3
			     "\"]}\n    read_ahead: 1MiB\n",
			     &p, &d),
			 -EINVAL);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.v[0].line, 4);
	assert_non_null(strstr(d.v[0].msg, "md9, which is not on this system"));
	assert_non_null(strstr(d.v[1].msg, "md1, whose UUID is unknown"));
	assert_non_null(strstr(d.v[2].msg, "rule 4 matches no array here"));
	/* Nothing was rewritten, not even the rule that could be. */
	assert_int_equal(p.rules[0].match.n_names, 1);
	assert_int_equal(p.rules[0].match.n_uuids, 0);
	mdp_diags_free(&d);
	mdp_profile_free(&p);
}

/* ---- scripts ----------------------------------------------------------------------- */

static char *script(const char *profile, const struct mdp_boot_opts *o, int want,
		    struct mdp_diags *d)
{
	struct mdp_profile p;
	struct sys x;
	char *text = NULL;
	size_t len = 0;

	load_fixture(&x, "ds-dsm6-reshape");
	load(profile, &p);
	assert_int_equal(mdp_boot_script(&p, &x.s, o, &text, &len, d), want);
	if (!want)
		assert_int_equal(strlen(text), len);
	mdp_profile_free(&p);
	free_sys(&x);
	return text;
}

static void test_script_carries_pinned_profile(void **state)
{
	struct mdp_diags d;
	char *s;

	(void)state;
	mdp_diags_init(&d);
	s = script("arrays:\n  - match: {names: [md2]}\n    read_ahead: 1MiB\n"
		   "services:\n  pause: [synoindexd]\n",
		   &opts, 0, &d);
	assert_int_equal(strncmp(s, "#!/bin/sh\n", 10), 0);
	assert_non_null(strstr(s, "\nmdp='/volume1/@mdprofile/mdprofile'\n"));
	assert_non_null(strstr(s, "\nuuids='" U2 "'\n"));
	assert_non_null(strstr(s, "# arrays:    " U2 " (md2 when generated)\n"));
	assert_non_null(strstr(s, "\tcat <<'MDPROFILE_PINNED_PROFILE'\n---\narrays:\n"));
	assert_non_null(strstr(s, "    uuids:\n    - " U2 "\n"));
	/* No services without --with-services; and the dsm script runs main. */
	assert_null(strstr(s, "synoindexd"));
	assert_string_equal(s + strlen(s) - 6, "\nmain\n");
	free(s);
	struct mdp_boot_opts o = opts;
	o.with_services = true;
	o.target = MDP_BOOT_RCD;
	s = script("services:\n  pause: [synoindexd]\n", &o, 0, &d);
	assert_non_null(strstr(s, "  - name: synoindexd\n"));
	assert_non_null(strstr(s, "\ncase ${1:-start} in\n"));
	assert_int_equal(d.n, 0);
	free(s);
	mdp_diags_free(&d);
}

static void test_script_refuses_injection(void **state)
{
	static const char *const bad[] = {"/v/$(reboot)", "/v/it's", "/v/`id`",           "/v/a\nb",
					  "/v/a b",       "/v/a\\b", "relative/mdprofile"};
	struct mdp_boot_opts o = opts;
	struct mdp_diags d;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mdp_diags_init(&d);
		o.binary = bad[i];
		assert_null(script("description: x\n", &o, -EINVAL, &d));
		assert_int_equal(d.n, 1);
		assert_null(strchr(d.v[0].msg, '\n'));
		mdp_diags_free(&d);
	}
}

/* ---- files, install, uninstall ---------------------------------------------------- */

/* What a script begins with: --uninstall removes no file that does not. */
static const char head[] = "#!/bin/sh\n# mdprofile boot script (target test): ...\n";

static void files_of(const char *profile, enum mdp_boot_target t, bool texts,
		     struct mdp_boot_file *f, size_t *n)
{
	struct mdp_boot_opts o = opts;
	struct mdp_profile p;
	struct mdp_diags d;

	o.target = t;
	assert_int_equal(pin(profile, &p, &d), 0);
	if (texts)
		assert_int_equal(mdp_boot_files(&p, &o, head, strlen(head), f, n, &d), 0);
	else
		assert_int_equal(mdp_boot_paths(p.name, &o, f, n, &d), 0);
	mdp_diags_free(&d);
	mdp_profile_free(&p);
}

static void test_files_per_target(void **state)
{
	static const char two[] = "arrays:\n  - match: {names: [md2, md3]}\n    read_ahead: 1MiB\n";
	struct mdp_boot_file f[MDP_BOOT_FILES];
	size_t n;

	(void)state;
	files_of(two, MDP_BOOT_DSM, true, f, &n);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].sys, "/volume1/@mdprofile/mdprofile-t.sh");
	assert_int_equal(f[0].mode, 0755);
	mdp_boot_files_free(f, n);
	files_of(two, MDP_BOOT_RCD, true, f, &n);
	assert_string_equal(f[0].sys, "/usr/local/etc/rc.d/mdprofile-t.sh");
	mdp_boot_files_free(f, n);
	files_of(two, MDP_BOOT_SYSTEMD, true, f, &n);
	assert_int_equal(n, 3);
	assert_string_equal(f[0].sys, "/usr/local/lib/mdprofile/mdprofile-t.sh");
	assert_string_equal(f[1].sys, "/etc/systemd/system/mdprofile-t.service");
	assert_int_equal(f[1].mode, 0644);
	assert_non_null(strstr(f[1].text, "\nType=oneshot\nRemainAfterExit=yes\n"
					  "ExecStart=/usr/local/lib/mdprofile/mdprofile-t.sh "
					  "start\nTimeoutStartSec=540\n"));
	assert_string_equal(f[2].sys, "/etc/udev/rules.d/90-mdprofile-t.rules");
	/* udev has mdadm's MD_UUID: groups of 8, colons between; one line per UUID. */
	assert_non_null(strstr(f[2].text, "ENV{MD_UUID}==\"6a1b0c7d:2e3f4a5b:8c9d0e1f:2a3b4c5d\""));
	assert_non_null(strstr(f[2].text, "ENV{MD_UUID}==\"f0e1d2c3:b4a59687:78695a4b:3c2d1e0f\""));
	mdp_boot_files_free(f, n);
	/* Nothing pinned, no rule; --uninstall still looks for one. */
	files_of("arrays:\n  - match: all\n    read_ahead: 1MiB\n", MDP_BOOT_SYSTEMD, true, f, &n);
	assert_int_equal(n, 2);
	mdp_boot_files_free(f, n);
	files_of("description: x\n", MDP_BOOT_SYSTEMD, false, f, &n);
	assert_int_equal(n, 3);
	assert_null(f[0].text);
	mdp_boot_files_free(f, n);
}

static void test_install_uninstall(void **state)
{
	struct mdp_boot_file f[MDP_BOOT_FILES];
	char tmpl[] = "/tmp/mdp-boot-XXXXXX", src[4096], path[sizeof(f[0].sys) + 64];
	struct mdp_diags d;
	struct sys x;
	struct stat st;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	fixture_dir("server-raid6-raid10", src, sizeof(src));
	test_sh("cp -a '%s/.' '%s'", src, tmpl);
	load_sys(&x, tmpl);
	assert_int_equal(mdp_boot_target_detect(&x.r), MDP_BOOT_SYSTEMD);
	files_of("arrays:\n  - match: {names: [md2]}\n    read_ahead: 1MiB\n", MDP_BOOT_SYSTEMD,
		 true, f, &n);
	mdp_diags_init(&d);
	assert_int_equal(mdp_boot_install(&x.r, f, n, &d), 0);
	for (size_t i = 0; i < n; i++) {
		assert_true(f[i].done);
		snprintf(path, sizeof(path), "%s%.4000s", tmpl, f[i].sys);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 07777, f[i].mode);
	}
	assert_false(mdp_boot_unit_enabled(&x.r, "t"));
	/* By the name: refused, nothing removed, while the unit is enabled. */
	{
		struct mdp_boot_opts o = {.target = MDP_BOOT_SYSTEMD,
					  .binary = "/usr/local/sbin/mdprofile"};
		struct mdp_boot_file g[MDP_BOOT_FILES];
		size_t m;

		test_sh("mkdir -p '%s/etc/systemd/system/multi-user.target.wants' && touch "
			"'%s/etc/systemd/system/multi-user.target.wants/mdprofile-t.service'",
			tmpl, tmpl);
		assert_int_equal(mdp_boot_uninstall_named(&x.r, "t", &o, g, &m, &d), -EBUSY);
		assert_int_equal(m, 0);
		snprintf(path, sizeof(path), "%s%.4000s", tmpl, f[0].sys);
		assert_int_equal(stat(path, &st), 0);
		test_sh("rm '%s/etc/systemd/system/multi-user.target.wants/mdprofile-t.service'",
			tmpl);
	}
	assert_int_equal(mdp_boot_uninstall(&x.r, f, n, &d), 0);
	for (size_t i = 0; i < n; i++) {
		assert_true(f[i].done);
		snprintf(path, sizeof(path), "%s%.4000s", tmpl, f[i].sys);
		assert_int_not_equal(stat(path, &st), 0);
	}
	/* A directory others can write to: refused, and the file is gone again. */
	snprintf(path, sizeof(path), "%s/usr/local/lib/mdprofile", tmpl);
	assert_int_equal(chmod(path, 0777), 0);
	assert_int_equal(mdp_boot_install(&x.r, f, n, &d), -EPERM);
	assert_false(f[0].done);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].msg, "group/world-writable (mode 0777)"));
	snprintf(path, sizeof(path), "%s%.4000s", tmpl, f[0].sys);
	assert_int_not_equal(stat(path, &st), 0);
	mdp_diags_free(&d);
	mdp_boot_files_free(f, n);
	free_sys(&x);
	test_sh("rm -rf '%s'", tmpl);
}

/*
 * The unit stays active once run, so a stray 'systemctl start' does not
 * apply the profile again; the udev rule restarts it once per assembly of
 * a pinned array (a mark in udev's database), never on a later change
 * event of a running array: the end of a reshape or 'udevadm trigger'
 * would otherwise undo a revert.
 */
static void test_unit_and_rule_once_per_assembly(void **state)
{
	static const char one[] = "arrays:\n  - match: {names: [md2]}\n    read_ahead: 1MiB\n";
	struct mdp_boot_file f[MDP_BOOT_FILES];
	const char *l, *run;
	size_t n;

	(void)state;
	files_of(one, MDP_BOOT_SYSTEMD, true, f, &n);
	assert_int_equal(n, 3);
	assert_non_null(strstr(f[1].text, "\nRemainAfterExit=yes\n"));
	/* Every line that starts the unit is guarded by the mark, and sets it. */
	assert_non_null(strstr(f[2].text,
			       "\nIMPORT{db}=\"MDPROFILE_SEEN_t\"\n"
			       "ENV{MDPROFILE_SEEN_t}==\"1\", GOTO=\"MDPROFILE_SEEN_t_end\"\n"));
	assert_non_null(
	    strstr(f[2].text,
		   "\nATTR{md/array_state}==\"|clear|inactive\", GOTO=\"MDPROFILE_SEEN_t_end\"\n"));
	run = strstr(f[2].text, "RUN+=");
	assert_non_null(run);
	assert_true(run > strstr(f[2].text, "IMPORT{db}"));
	for (l = f[2].text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, "ENV{MD_UUID}", 12))
			assert_int_equal(
			    strncmp(l,
				    "ENV{MD_UUID}==\"6a1b0c7d:2e3f4a5b:8c9d0e1f:2a3b4c5d\", "
				    "ENV{MDPROFILE_SEEN_t}=\"1\", RUN+=\"/bin/systemctl "
				    "--no-block restart mdprofile-t.service\"\n",
				    120),
			    0);
	assert_null(strstr(f[2].text, "ACTION==\"add|change\""));
	l = "\nLABEL=\"MDPROFILE_SEEN_t_end\"\n";
	assert_string_equal(f[2].text + strlen(f[2].text) - strlen(l), l);
	mdp_boot_files_free(f, n);
}

/* The mark is one per profile: names that differ only in '-', '.', '_' get their own. */
static void test_rule_mark_per_profile(void **state)
{
	static const char *const names[] = {"a-b", "a.b", "a_b", "a__2Db"};
	static const char *const marks[] = {"MDPROFILE_SEEN_a_2Db", "MDPROFILE_SEEN_a_2Eb",
					    "MDPROFILE_SEEN_a__b", "MDPROFILE_SEEN_a____2Db"};
	struct mdp_boot_file f[MDP_BOOT_FILES];
	struct mdp_boot_opts o = opts;
	struct mdp_profile p;
	struct mdp_diags d;
	char want[128];
	size_t n;

	(void)state;
	o.target = MDP_BOOT_SYSTEMD;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(
		    pin("arrays:\n  - match: {names: [md2]}\n    read_ahead: 1MiB\n", &p, &d), 0);
		free(p.name);
		assert_non_null(p.name = strdup(names[i]));
		assert_int_equal(mdp_boot_files(&p, &o, head, strlen(head), f, &n, &d), 0);
		snprintf(want, sizeof(want), "\nIMPORT{db}=\"%s\"\n", marks[i]);
		assert_non_null(strstr(f[2].text, want));
		mdp_boot_files_free(f, n);
		mdp_diags_free(&d);
		mdp_profile_free(&p);
	}
}

/* A name 'apply --name' refuses would make the script fail at every boot: refused here. */
static void test_name_rule_of_apply(void **state)
{
	static const char *const bad[] = {
	    "fast+safe", "nas@home",
	    "a=b",       ".x",
	    "-x",        "a1234567890123456789012345678901234567890123456789012345678901234"};
	struct mdp_boot_file f[MDP_BOOT_FILES];
	struct mdp_boot_opts o = opts;
	struct mdp_profile p;
	struct mdp_diags d;
	struct sys x;
	char *text = NULL;
	size_t len, n;

	(void)state;
	load_fixture(&x, "ds-dsm6-reshape");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		load("description: x\n", &p);
		free(p.name);
		assert_non_null(p.name = strdup(bad[i]));
		mdp_diags_init(&d);
		assert_int_equal(mdp_boot_script(&p, &x.s, &o, &text, &len, &d), -EINVAL);
		assert_int_equal(d.n, 1);
		assert_non_null(strstr(d.v[0].msg, "a profile name is letters, digits"));
		assert_int_equal(mdp_boot_paths(bad[i], &o, f, &n, &d), -EINVAL);
		assert_int_equal(n, 0);
		mdp_diags_free(&d);
		mdp_profile_free(&p);
	}
	free_sys(&x);
}

/* --uninstall removes only what mdprofile wrote: a file without its header stays, a link too. */
static void test_uninstall_only_ours(void **state)
{
	struct mdp_boot_file f[MDP_BOOT_FILES];
	char tmpl[] = "/tmp/mdp-boot-XXXXXX";
	struct mdp_boot_opts o = opts;
	struct mdp_root r;
	struct mdp_diags d;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	test_sh("mkdir -p '%s/usr/local/etc/rc.d' && cd '%s/usr/local/etc/rc.d' && "
		"echo 'owner s own' >mdprofile-mine.sh && echo '#!/bin/sh' >elsewhere && "
		"ln -s elsewhere mdprofile-link.sh",
		tmpl, tmpl);
	assert_int_equal(mdp_root_init(&r, tmpl), 0);
	o.target = MDP_BOOT_RCD;
	mdp_diags_init(&d);
	assert_int_equal(mdp_boot_paths("mine", &o, f, &n, &d), 0);
	assert_int_equal(mdp_boot_uninstall(&r, f, n, &d), -EPERM);
	assert_false(f[0].done);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].msg, "not removing /usr/local/etc/rc.d/mdprofile-mine.sh: "));
	assert_int_equal(mdp_boot_paths("link", &o, f, &n, &d), 0);
	assert_int_equal(mdp_boot_uninstall(&r, f, n, &d), -EPERM);
	test_sh(
	    "cd '%s/usr/local/etc/rc.d' && test -f mdprofile-mine.sh && test -L mdprofile-link.sh "
	    "&& test -f elsewhere",
	    tmpl);
	/* Absent: nothing to do, no error. */
	assert_int_equal(mdp_boot_paths("gone", &o, f, &n, &d), 0);
	assert_int_equal(mdp_boot_uninstall(&r, f, n, &d), 0);
	assert_false(f[0].done);
	mdp_diags_free(&d);
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", tmpl);
}

/* The binary the script runs as root must exist and be root's alone. */
static void test_binary_checked(void **state)
{
	char tmpl[] = "/tmp/mdp-boot-XXXXXX", msg[512];
	struct mdp_root r;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	test_sh("cd '%s' && mkdir -p v/ok v/ww && touch v/ok/mdprofile v/ww/mdprofile && "
		"chmod 0755 . v v/ok v/ok/mdprofile v/ww/mdprofile && chmod 0777 v/ww",
		tmpl);
	assert_int_equal(mdp_root_init(&r, tmpl), 0);
	assert_int_equal(mdp_boot_check_binary(&r, "/v/ok/mdprofile", msg, sizeof(msg)), 0);
	assert_int_equal(mdp_boot_check_binary(&r, "/v/no/mdprofile", msg, sizeof(msg)), -ENOENT);
	assert_string_equal(msg,
			    "--binary /v/no/mdprofile: no such file; the boot script would fail "
			    "at every boot");
	assert_int_equal(mdp_boot_check_binary(&r, "/v/ww/mdprofile", msg, sizeof(msg)), -EPERM);
	assert_non_null(strstr(msg, "is group/world-writable (mode 0777); others could change"));
	test_sh("chmod 0755 '%s/v/ww' && chmod 0666 '%s/v/ww/mdprofile'", tmpl, tmpl);
	assert_int_equal(mdp_boot_check_binary(&r, "/v/ww/mdprofile", msg, sizeof(msg)), -EPERM);
	if (geteuid() == 0) {
		test_sh("chmod 0755 '%s/v/ww/mdprofile' && chown 65534 '%s/v/ww/mdprofile'", tmpl,
			tmpl);
		assert_int_equal(mdp_boot_check_binary(&r, "/v/ww/mdprofile", msg, sizeof(msg)),
				 -EPERM);
		assert_non_null(strstr(msg, "not owned by root or the caller (uid 65534)"));
	}
	mdp_root_fini(&r);
	test_sh("rm -rf '%s'", tmpl);
}

static void test_targets(void **state)
{
	enum mdp_boot_target t;
	struct sys x;

	(void)state;
	for (int i = 0; i < MDP_BOOT_COUNT; i++) {
		assert_int_equal(mdp_boot_target_parse(mdp_boot_target_name(i), &t), 0);
		assert_int_equal(t, i);
	}
	assert_int_equal(mdp_boot_target_parse("upstart", &t), -EINVAL);
	assert_null(mdp_boot_target_name(MDP_BOOT_COUNT));
	load_fixture(&x, "ds220j-dsm7");
	assert_int_equal(mdp_boot_target_detect(&x.r), MDP_BOOT_DSM);
	free_sys(&x);
}

MDP_TEST_MAIN(test_pin_names_to_uuids, test_pin_refuses_unpinnable,
	      test_script_carries_pinned_profile, test_script_refuses_injection,
	      test_files_per_target, test_install_uninstall, test_unit_and_rule_once_per_assembly,
	      test_rule_mark_per_profile, test_name_rule_of_apply, test_uninstall_only_ours,
	      test_binary_checked, test_targets)
