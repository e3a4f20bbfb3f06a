/*
 * Unit tests of the name, level and UUID rules every module shares:
 * what a profile may name, what the kernel may show, and the UUID forms
 * mdadm, md/uuid and blkid print.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ident.h"
#include "support.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Each of good passes ok, each of bad and NULL fails, and max 'a's is the longest. */
static void expect_rule(bool (*ok)(const char *), const char *const *good, size_t ngood,
			const char *const *bad, size_t nbad, size_t max)
{
	char name[256];

	for (size_t i = 0; i < ngood; i++)
		if (!ok(good[i]))
			fail_msg("'%s' was refused", good[i]);
	for (size_t i = 0; i < nbad; i++)
		if (ok(bad[i]))
			fail_msg("'%s' was accepted", bad[i]);
	assert_false(ok(NULL));
	memset(name, 'a', max + 1);
	name[max + 1] = '\0';
	assert_false(ok(name));
	name[max] = '\0';
	assert_true(ok(name));
}

static void test_dev(void **state)
{
	static const char *const good[] = {"md2", "md127", "sda", "sata1", "nvme0n1", "md_d0"};
	static const char *const bad[] = {"", "Md2", "1md", "md-2", "md/2", "../x", "md 2", "_md"};

	(void)state;
	expect_rule(mdp_ident_dev_ok, good, N(good), bad, N(bad), MDP_NAME_MAX - 1);
}

static bool kname_ok(const char *name)
{
	return mdp_ident_kname_ok(name, name ? strlen(name) : 0);
}

static void test_kname(void **state)
{
	static const char *const good[] = {"sda5",      "dm-3", "cciss!c0d0",
					   "nvme0n1p1", "Sda",  "raid5"};
	static const char *const bad[] = {"", ".x", "-x", "1x", "a/b", "a b", "a\n", "!x"};

	(void)state;
	expect_rule(kname_ok, good, N(good), bad, N(bad), MDP_NAME_MAX - 1);
	/* A span of a longer line: only len bytes count. */
	assert_true(mdp_ident_kname_ok("sdd6[2]", 4));
	assert_false(mdp_ident_kname_ok("sdd6[2]", 5));
}

static void test_levels(void **state)
{
	(void)state;
	assert_int_equal(mdp_ident_level_parse("raid6"), MDP_LEVEL_RAID6);
	assert_int_equal(mdp_ident_level_parse("10"), MDP_LEVEL_RAID10);
	assert_int_equal(mdp_ident_level_parse("0"), MDP_LEVEL_RAID0);
	assert_int_equal(mdp_ident_level_parse("linear"), MDP_LEVEL_LINEAR);
	assert_int_equal(mdp_ident_level_parse("raid"), MDP_LEVEL_UNKNOWN);
	assert_int_equal(mdp_ident_level_parse("7"), MDP_LEVEL_UNKNOWN);
	assert_int_equal(mdp_ident_level_parse("05"), MDP_LEVEL_UNKNOWN);
	assert_int_equal(mdp_ident_level_parse("RAID5"), MDP_LEVEL_UNKNOWN);
	assert_int_equal(mdp_ident_level_parse(""), MDP_LEVEL_UNKNOWN);
	assert_int_equal(mdp_ident_level_parse(NULL), MDP_LEVEL_UNKNOWN);
	assert_string_equal(mdp_ident_level_name(MDP_LEVEL_RAID0), "raid0");
	assert_string_equal(mdp_ident_level_name(MDP_LEVEL_UNKNOWN), "unknown");
}

static void test_uuid(void **state)
{
	static const char *const good[] = {
	    "a1b2c3d4:e5f6a7b8:c9d0e1f2:a3b4c5d6",
	    "A1B2C3D4-E5F6-A7B8-C9D0-E1F2A3B4C5D6",
	    "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
	};
	/* Separators anywhere but where a tool prints them are refused. */
	static const char *const bad[] = {
	    "a1b2c3d4:e5f6a7b8:c9d0e1f2:a3b4c5d",
	    "a1b2c3d4::e5f6a7b8c9d0e1f2a3b4c5d6",
	    ":a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
	    "a1b2c3d4:e5f6a7b8-c9d0e1f2:a3b4c5d6",
	    "a1b2c3d4e5f6a7b8:c9d0e1f2a3b4c5d6",
	    "a1-b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
	    "a1b2c3d4-e5f6a7b8-c9d0e1f2-a3b4c5d6",
	    "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6\n",
	    "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6a",
	    "g1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
	    "",
	};
	char out[33] = "untouched";

	(void)state;
	for (size_t i = 0; i < N(bad); i++)
		if (mdp_ident_uuid_norm(bad[i], out) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i]);
	assert_int_equal(mdp_ident_uuid_norm(NULL, out), -EINVAL);
	assert_string_equal(out, "untouched");
	for (size_t i = 0; i < N(good); i++) {
		assert_int_equal(mdp_ident_uuid_norm(good[i], out), 0);
		assert_string_equal(out, "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6");
	}
}

static bool service_ok(const char *name)
{
	return !mdp_ident_service_check(name);
}

static void test_service(void **state)
{
	static const char *const good[] = {"pkgctl-SynologyPhotos", "getty@tty1.service",
					   "pkg:SynologyPhotos", "a_b.c-d:e@f"};
	static const char *const bad[] = {"-x", "a/b", "", "a\nb", "a;b", "pkg:", "pkg:a:b"};

	(void)state;
	expect_rule(service_ok, good, N(good), bad, N(bad), MDP_SERVICE_NAME_MAX);
	assert_string_equal(mdp_ident_service_check("pkg:"),
			    "a package name is required after 'pkg:'");
	assert_string_equal(mdp_ident_service_check("pkg:a:b"),
			    "the package name after 'pkg:' must not contain ':'");
	assert_string_equal(mdp_ident_service_check("pkg:-x"),
			    "the package name after 'pkg:' must not start with '-'");
	assert_string_equal(mdp_ident_service_pkg("pkg:SynologyPhotos"), "SynologyPhotos");
	assert_null(mdp_ident_service_pkg("synoindexd"));
	assert_null(mdp_ident_service_pkg("pkg:"));
	assert_null(mdp_ident_service_pkg("pkg:a:b"));
}

/* "." and ".." reach synopkg/systemctl as paths: a name needs a letter or digit. */
static void test_service_not_a_path(void **state)
{
	static const char *const bad[] = {".", "..", "pkg:.", "pkg:..", "...", "@", "pkg:_-"};

	(void)state;
	for (size_t i = 0; i < N(bad); i++)
		if (service_ok(bad[i]))
			fail_msg("'%s' was accepted", bad[i]);
	assert_string_equal(mdp_ident_service_check(".."), "must contain a letter or digit");
	assert_string_equal(mdp_ident_service_check("pkg:.."),
			    "the package name after 'pkg:' must contain a letter or digit");
	assert_null(mdp_ident_service_pkg("pkg:.."));
	assert_null(mdp_ident_service_check("a."));
	assert_null(mdp_ident_service_check("pkg:x.."));
}

static void test_profile_name(void **state)
{
	static const char *const good[] = {"balanced", "reshape-fast", "a.b_c", "_x", "0"};
	static const char *const bad[] = {"", ".x", "-x", "a/b", "a b", "x.yaml\n", "\xc3\xa9"};

	(void)state;
	expect_rule(mdp_ident_profile_name_ok, good, N(good), bad, N(bad), 64);
}

static void test_suggest(void **state)
{
	static const char *const names[] = {
	    "status", "list", "reshape-fast", "read_ahead", "stripe_cache_size", "x"};
	const size_t n = sizeof(names) / sizeof(names[0]);

	(void)state;
	assert_string_equal(mdp_ident_suggest("stauts", names, n), "status");
	assert_string_equal(mdp_ident_suggest("LIST", names, n), "list");
	assert_string_equal(mdp_ident_suggest("reshape-fsat", names, n), "reshape-fast");
	assert_string_equal(mdp_ident_suggest("read_ahead_kb", names, n), "read_ahead");
	assert_string_equal(mdp_ident_suggest("strip_cache_size", names, n), "stripe_cache_size");
	assert_null(mdp_ident_suggest("frobnicate", names, n));
	/* Never a one-letter name for anything: two edits turn any word of three into it. */
	assert_null(mdp_ident_suggest("y", names, n));
	assert_null(mdp_ident_suggest("stauts", names, 0));
}

/* The classes a profile may name; mixed and unknown are an array's, never a selector's. */
static void test_media(void **state)
{
	static const struct {
		const char *word;
		enum mdp_media want;
	} v[] = {
	    {"hdd", MDP_MEDIA_HDD},         {"ssd", MDP_MEDIA_SSD},
	    {"nvme", MDP_MEDIA_NVME},       {"mixed", MDP_MEDIA_UNKNOWN},
	    {"unknown", MDP_MEDIA_UNKNOWN}, {"HDD", MDP_MEDIA_UNKNOWN},
	    {NULL, MDP_MEDIA_UNKNOWN},
	};

	static const char *const names[] = {"unknown", "hdd", "ssd", "nvme", "mixed", "unknown"};
	const char *w[MDP_MEDIA_COUNT];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_int_equal(mdp_ident_media_parse(v[i].word), v[i].want);
	for (int m = 0; m <= MDP_MEDIA_COUNT; m++)
		assert_string_equal(mdp_ident_media_name((enum mdp_media)m), names[m]);
	assert_int_equal(mdp_ident_media_words(1u << MDP_MEDIA_NVME | 1u << MDP_MEDIA_HDD, w), 2);
	assert_string_equal(w[0], "hdd");
	assert_string_equal(w[1], "nvme");
	assert_int_equal(mdp_ident_media_words(0, w), 0);
}

/* A disk's class: NVMe by name or device path, else by queue/rotational (discover, explain). */
static void test_disk_media(void **state)
{
	(void)state;
	assert_int_equal(mdp_ident_disk_media("nvme0n1", NULL, 0), MDP_MEDIA_NVME);
	assert_int_equal(mdp_ident_disk_media("nvme0", NULL, 0), MDP_MEDIA_SSD);
	assert_int_equal(
	    mdp_ident_disk_media("sdb", "../../devices/pci0000:00/0000:00:1d.0/nvme/nvme1/sdb", 0),
	    MDP_MEDIA_NVME);
	assert_int_equal(mdp_ident_disk_media("sda", "../devices/pci0000:00/ata1/block/sda", 1),
			 MDP_MEDIA_HDD);
	assert_int_equal(mdp_ident_disk_media("sda", NULL, 0), MDP_MEDIA_SSD);
	assert_int_equal(mdp_ident_disk_media("sda", NULL, -1), MDP_MEDIA_UNKNOWN);
}

MDP_TEST_MAIN(test_dev, test_kname, test_media, test_levels, test_uuid, test_service,
	      test_service_not_a_path, test_profile_name, test_suggest, test_disk_media)
