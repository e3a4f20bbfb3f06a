/*
 * Unit tests of discovery against the fixture roots in tests/fixtures (see
 * mkroot.py there): the exact model of each, then each fallback (mdstat
 * progress, slaves/, meminfo without MemAvailable, 0.90 md/uuid) on a
 * scratch copy, and the superblock and value parsers on their own.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "discover.h"
#include "support.h"
#include "discover_int.h"

static void fixture_path(const char *name, char *buf, size_t len)
{
	const char *src = getenv("MDP_SRCDIR");

	snprintf(buf, len, "%s/tests/fixtures/%s", src ? src : ".", name);
}

static void discover_dir(const char *dir, struct mdp_system *s, struct mdp_diags *d)
{
	struct mdp_root r;

	assert_int_equal(mdp_root_init(&r, dir), 0);
	mdp_diags_init(d);
	assert_int_equal(mdp_discover(&r, s, d), 0);
}

static void discover_fixture(const char *name, struct mdp_system *s)
{
	char dir[PATH_MAX];
	struct mdp_diags d;

	fixture_path(name, dir, sizeof(dir));
	discover_dir(dir, s, &d);
	if (d.n)
		fail_msg("unexpected diagnostic: %s", d.v[0].msg);
	mdp_diags_free(&d);
}

static void assert_member(const struct mdp_array *a, size_t i, const char *name, const char *disk,
			  int slot)
{
	assert_true(i < a->n_members);
	assert_string_equal(a->members[i].name, name);
	assert_string_equal(a->members[i].disk, disk);
	assert_int_equal(a->members[i].slot, slot);
}

static void assert_cur(const struct mdp_cur *c, const char *raw, enum mdp_value_kind kind,
		       uint64_t num)
{
	if (!raw) {
		assert_false(c->present);
		return;
	}
	assert_true(c->present);
	assert_string_equal(c->raw, raw);
	assert_int_equal(c->val.kind, kind);
	assert_int_equal(c->val.num, num);
}

/* Tunables that never belong to an array are absent from its cur[]. */
static void assert_no_foreign(const struct mdp_array *a)
{
	assert_false(a->cur[MDP_T_SPEED_LIMIT_MIN].present);
	assert_false(a->cur[MDP_T_SPEED_LIMIT_MAX].present);
	assert_false(a->cur[MDP_T_MEMBER_READ_AHEAD_KB].present);
}

static void assert_raid1_tunables(const struct mdp_array *a, const char *smin, uint64_t nmin,
				  const char *ra, uint64_t nra)
{
	assert_cur(&a->cur[MDP_T_STRIPE_CACHE_SIZE], NULL, 0, 0);
	assert_cur(&a->cur[MDP_T_GROUP_THREAD_CNT], NULL, 0, 0);
	assert_cur(&a->cur[MDP_T_PREREAD_BYPASS], NULL, 0, 0);
	assert_cur(&a->cur[MDP_T_SYNC_SPEED_MIN], smin, MDP_V_SYSTEM, nmin);
	assert_cur(&a->cur[MDP_T_SYNC_SPEED_MAX], "200000 (system)", MDP_V_SYSTEM, 200000);
	assert_cur(&a->cur[MDP_T_READ_AHEAD_KB], ra, MDP_V_NUM, nra);
	assert_no_foreign(a);
}

static void assert_idle(const struct mdp_array *a, const char *state)
{
	assert_string_equal(a->array_state, state);
	assert_string_equal(a->sync_action, "idle");
	assert_false(a->has_progress);
	assert_int_equal(a->sync_speed, 0);
}

static void assert_disks(const struct mdp_system *s, const char *const *names, size_t n,
			 uint64_t ra)
{
	assert_int_equal(s->n_disks, n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(s->disks[i].name, names[i]);
		assert_cur(&s->disks[i].read_ahead, ra == 128 ? "128" : "?", MDP_V_NUM, ra);
	}
}

/* ---- ds-dsm6-reshape: the seed write-up's DiskStation ---------------------- */

static void check_dsm6_md0_md1(const struct mdp_system *s)
{
	const struct mdp_array *a = &s->arrays[0];
	static const char *const d[] = {"sda", "sdb", "sdc", "sdd"};
	char name[32];

	assert_string_equal(a->name, "md0");
	assert_int_equal(a->level, MDP_LEVEL_RAID1);
	assert_string_equal(a->level_name, "raid1");
	assert_int_equal(a->raid_disks, 4);
	assert_int_equal(a->n_members, 4);
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "%s1", d[i]);
		assert_member(a, (size_t)i, name, d[i], i);
	}
	assert_string_equal(a->uuid, "1d2c3b4a9e8f7a6b5c4d3e2f01f2e3d4"); /* 0.90 superblock */
	assert_string_equal(a->uuid_source, "superblock");
	assert_int_equal(a->size_kib, 2490176);
	assert_idle(a, "clean");
	assert_raid1_tunables(a, "10000 (system)", 10000, "128", 128);

	a = &s->arrays[1];
	assert_string_equal(a->name, "md1");
	assert_member(a, 3, "sdd2", "sdd", 3);
	assert_string_equal(a->uuid, "");
	assert_string_equal(a->uuid_source, "unknown");
	assert_int_equal(a->size_kib, 2097088);
}

static void assert_dsm_parity(const struct mdp_array *a)
{
	assert_int_equal(a->level, MDP_LEVEL_RAID5);
	assert_string_equal(a->level_name, "raid5");
	assert_string_equal(a->uuid_source, "superblock");
	assert_cur(&a->cur[MDP_T_STRIPE_CACHE_SIZE], "256", MDP_V_NUM, 256);
	assert_cur(&a->cur[MDP_T_GROUP_THREAD_CNT], "0", MDP_V_NUM, 0);
	assert_cur(&a->cur[MDP_T_PREREAD_BYPASS], "1", MDP_V_NUM, 1);
	assert_cur(&a->cur[MDP_T_READ_AHEAD_KB], "192", MDP_V_NUM, 192);
	assert_cur(&a->cur[MDP_T_SYNC_SPEED_MIN], "10000 (system)", MDP_V_SYSTEM, 10000);
	assert_no_foreign(a);
}

static void check_dsm6_md2_md3(const struct mdp_system *s)
{
	const struct mdp_array *a = &s->arrays[2];

	assert_string_equal(a->name, "md2");
	assert_dsm_parity(a);
	assert_int_equal(a->raid_disks, 4);
	/* mdstat shows sdc5[5] sdd5[4]: descriptor numbers, not roles */
	assert_member(a, 0, "sda5", "sda", 0);
	assert_member(a, 1, "sdb5", "sdb", 1);
	assert_member(a, 2, "sdc5", "sdc", 2);
	assert_member(a, 3, "sdd5", "sdd", 3);
	assert_string_equal(a->uuid, "6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d");
	assert_int_equal(a->size_kib, 5846049792ULL);
	assert_idle(a, "clean");

	a = &s->arrays[3];
	assert_string_equal(a->name, "md3");
	assert_dsm_parity(a);
	assert_int_equal(a->raid_disks, 3);
	assert_int_equal(a->n_members, 3);
	assert_member(a, 2, "sdd6", "sdd", 2);
	assert_string_equal(a->uuid, "f0e1d2c3b4a5968778695a4b3c2d1e0f");
	assert_string_equal(a->array_state, "active");
	assert_string_equal(a->sync_action, "reshape");
	assert_true(a->has_progress);
	assert_int_equal(a->sync_done, 2ULL * 491263360);
	assert_int_equal(a->sync_total, 2ULL * 1953494784);
	assert_int_equal(a->sync_speed, 4687);
	assert_false(a->no_sync_thread);
	assert_int_equal(a->size_kib, 1953494784);
}

static void test_dsm6_reshape(void **state)
{
	static const char *const disks[] = {"sda", "sdb", "sdc", "sdd"};
	struct mdp_system s;

	(void)state;
	discover_fixture("ds-dsm6-reshape", &s);
	assert_int_equal(s.n_arrays, 4);
	check_dsm6_md0_md1(&s);
	check_dsm6_md2_md3(&s);
	assert_disks(&s, disks, 4, 128);
	assert_cur(&s.global[MDP_T_SPEED_LIMIT_MIN], "10000", MDP_V_NUM, 10000);
	assert_cur(&s.global[MDP_T_SPEED_LIMIT_MAX], "200000", MDP_V_NUM, 200000);
	assert_false(s.global[MDP_T_STRIPE_CACHE_SIZE].present);
	assert_int_equal(s.mem_total_kib, 8061828);
	assert_int_equal(s.mem_avail_kib, 6918232);
	assert_string_equal(s.boot_id, "5e0c6b8a-3d1f-4c2e-9b7a-1f2e3d4c5b6a");
	assert_ptr_equal(mdp_system_array(&s, "md3"), &s.arrays[3]);
	assert_null(mdp_system_array(&s, "md4"));
	assert_ptr_equal(mdp_system_disk(&s, "sdc"), &s.disks[2]);
	assert_null(mdp_system_disk(&s, "sdc5"));
	mdp_system_free(&s);
}

/* ---- ds220j-dsm7 and dt-sata-dsm7: 512 MiB, two disks -------------------------- */

/*
 * The DS220j names its disks sda, sdb (partitions sda1); a device-tree
 * model the same box as sata1, sata2 (partitions sata1p1): one check for
 * both, with the disk names and the separator before the partition number.
 */
static void check_two_disk_dsm7(const char *fixture, const char *const disks[2], const char *sep)
{
	static const uint64_t sizes[] = {8388544, 2097088, 3902296384ULL};
	struct mdp_system s;
	char name[32];

	discover_fixture(fixture, &s);
	assert_int_equal(s.n_arrays, 3);
	for (size_t i = 0; i < 3; i++) {
		const struct mdp_array *a = &s.arrays[i];
		int part = i == 2 ? 5 : (int)i + 1;
		snprintf(name, sizeof(name), "md%zu", i);
		assert_string_equal(a->name, name);
		assert_int_equal(a->level, MDP_LEVEL_RAID1);
		assert_int_equal(a->raid_disks, 2);
		assert_int_equal(a->n_members, 2);
		for (int k = 0; k < 2; k++) {
			snprintf(name, sizeof(name), "%s%s%d", disks[k], sep, part);
			assert_member(a, (size_t)k, name, disks[k], k);
		}
		assert_int_equal(a->size_kib, sizes[i]);
		assert_idle(a, "clean");
		assert_raid1_tunables(a, "10000 (system)", 10000, "128", 128);
	}
	assert_string_equal(s.arrays[0].uuid_source, "unknown");
	/* the first member of md2 has no image: the superblock of the next one is used */
	assert_string_equal(s.arrays[2].uuid, "0a1b2c3d4e5f60718293a4b5c6d7e8f9");
	assert_string_equal(s.arrays[2].uuid_source, "superblock");
	assert_disks(&s, disks, 2, 128);
	assert_int_equal(s.mem_total_kib, 504724);
	assert_int_equal(s.mem_avail_kib, 236512);
	assert_cur(&s.global[MDP_T_SPEED_LIMIT_MIN], "10000", MDP_V_NUM, 10000);
	assert_string_equal(s.boot_id, "a3f5c7e9-1b2d-4f6a-8c0e-2d4b6f8a0c1e");
	mdp_system_free(&s);
}

static void test_ds220j(void **state)
{
	static const char *const disks[] = {"sda", "sdb"};

	(void)state;
	check_two_disk_dsm7("ds220j-dsm7", disks, "");
}

static void test_dt_sata(void **state)
{
	static const char *const disks[] = {"sata1", "sata2"};

	(void)state;
	check_two_disk_dsm7("dt-sata-dsm7", disks, "p");
}

/* ---- server-raid6-raid10: Debian, kernel 6.1, md/uuid ----------------------- */

static void check_server_md0(const struct mdp_array *a)
{
	char name[32];

	assert_string_equal(a->name, "md0");
	assert_int_equal(a->level, MDP_LEVEL_RAID6);
	assert_int_equal(a->raid_disks, 8);
	assert_int_equal(a->n_members, 8);
	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "sd%c", 'b' + i);
		assert_member(a, (size_t)i, name, name, i); /* whole disks */
	}
	assert_string_equal(a->uuid, "3f6c9a2e1b4d4e8f9a7c5d2e1f0b8c6a");
	assert_string_equal(a->uuid_source, "md/uuid");
	assert_int_equal(a->size_kib, 23441319936ULL);
	assert_idle(a, "clean");
	assert_cur(&a->cur[MDP_T_STRIPE_CACHE_SIZE], "8192", MDP_V_NUM, 8192);
	assert_cur(&a->cur[MDP_T_GROUP_THREAD_CNT], "4", MDP_V_NUM, 4);
	assert_cur(&a->cur[MDP_T_SYNC_SPEED_MIN], "50000 (local)", MDP_V_NUM, 50000);
	assert_cur(&a->cur[MDP_T_SYNC_SPEED_MAX], "200000 (system)", MDP_V_SYSTEM, 200000);
	assert_cur(&a->cur[MDP_T_READ_AHEAD_KB], "6144", MDP_V_NUM, 6144);
	assert_no_foreign(a);
}

static void check_server_md1(const struct mdp_array *a)
{
	char name[32], disk[32];

	assert_string_equal(a->name, "md1");
	assert_int_equal(a->level, MDP_LEVEL_RAID10);
	assert_string_equal(a->level_name, "raid10");
	assert_int_equal(a->n_members, 4);
	for (int i = 0; i < 4; i++) {
		snprintf(disk, sizeof(disk), "nvme%dn1", i);
		snprintf(name, sizeof(name), "nvme%dn1p1", i);
		assert_member(a, (size_t)i, name, disk, i);
	}
	assert_string_equal(a->uuid, "c0ffee0012344abc8def0123456789ab");
	assert_string_equal(a->uuid_source, "md/uuid");
	assert_string_equal(a->array_state, "active");
	assert_string_equal(a->sync_action, "check");
	assert_true(a->has_progress);
	assert_int_equal(a->sync_done, 2ULL * 431670272);
	assert_int_equal(a->sync_total, 2ULL * 1953258496);
	assert_int_equal(a->sync_speed, 876543);
	assert_raid1_tunables(a, "1000 (system)", 1000, "2048", 2048);
}

static void test_server(void **state)
{
	static const char *const disks[] = {"nvme0n1", "nvme1n1", "nvme2n1", "nvme3n1",
					    "sdb",     "sdc",     "sdd",     "sde",
					    "sdf",     "sdg",     "sdh",     "sdi"};
	struct mdp_system s;

	(void)state;
	discover_fixture("server-raid6-raid10", &s);
	assert_int_equal(s.n_arrays, 2);
	check_server_md0(&s.arrays[0]);
	check_server_md1(&s.arrays[1]);
	assert_disks(&s, disks, 12, 128);
	assert_cur(&s.global[MDP_T_SPEED_LIMIT_MIN], "1000", MDP_V_NUM, 1000);
	assert_cur(&s.global[MDP_T_SPEED_LIMIT_MAX], "200000", MDP_V_NUM, 200000);
	assert_int_equal(s.mem_total_kib, 32826420);
	assert_int_equal(s.mem_avail_kib, 29871544);
	assert_string_equal(s.boot_id, "0b9c8d7e-6f5a-4b3c-2d1e-0f9a8b7c6d5e");
	mdp_system_free(&s);
}

/* ---- fallbacks, on a scratch copy of a fixture ------------------------------ */

struct scratch {
	char dir[64];
	char root[PATH_MAX];
};

static void scratch_copy(struct scratch *sc, const char *fixture)
{
	char src[PATH_MAX], cmd[3 * PATH_MAX];

	strcpy(sc->dir, "/tmp/mdp-discover-XXXXXX");
	assert_non_null(mkdtemp(sc->dir));
	snprintf(sc->root, sizeof(sc->root), "%s/root", sc->dir);
	fixture_path(fixture, src, sizeof(src));
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", src, sc->root);
	assert_int_equal(system(cmd), 0);
}

static void scratch_done(struct scratch *sc)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sc->dir);
	assert_int_equal(system(cmd), 0);
}

static void scratch_run(struct scratch *sc, const char *shell)
{
	char cmd[PATH_MAX + 1024];

	snprintf(cmd, sizeof(cmd), "cd '%s' && %s", sc->root, shell);
	assert_int_equal(system(cmd), 0);
}

/*
 * The instant after mdadm --fail with no spare: md names a recovery at 0 of N
 * sectors while no thread works (md/sync_speed "none").
 */
static void test_no_sync_thread(void **state)
{
	struct scratch sc;
	struct mdp_system s;
	struct mdp_diags d;
	const struct mdp_array *a;

	(void)state;
	scratch_copy(&sc, "ds220j-dsm7");
	scratch_run(&sc, "echo recover > sys/block/md2/md/sync_action && "
			 "echo '0 / 258048' > sys/block/md2/md/sync_completed && "
			 "echo none > sys/block/md2/md/sync_speed");
	discover_dir(sc.root, &s, &d);
	a = mdp_system_array(&s, "md2");
	assert_non_null(a);
	assert_string_equal(a->sync_action, "recover");
	assert_true(a->has_progress);
	assert_true(a->no_sync_thread);
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_done(&sc);
}

static void test_fallbacks(void **state)
{
	struct scratch sc;
	struct mdp_system s;
	struct mdp_diags d;
	const struct mdp_array *a;

	(void)state;
	scratch_copy(&sc, "ds-dsm6-reshape");
	scratch_run(&sc, "rm sys/block/md3/md/sync_completed sys/block/md3/md/sync_speed && "
			 "rm -r sys/block/md2/md/dev-* && mv sys/block/md2 sys/block/md10 && "
			 "grep -v MemAvailable proc/meminfo > m && mv m proc/meminfo && "
			 "echo 0 > sys/block/md1/md/metadata_version && echo 0.90 > "
			 "sys/block/md1/md/metadata_version && "
			 "echo 4a3b2c1d-6b7a-8f9e-2f3e-4d5cd4e3f201 > sys/block/md1/md/uuid");
	discover_dir(sc.root, &s, &d);
	assert_int_equal(d.n, 0);
	assert_int_equal(s.n_arrays, 4);
	/* md10 sorts after md3 */
	assert_string_equal(s.arrays[2].name, "md3");
	assert_string_equal(s.arrays[3].name, "md10");
	a = &s.arrays[2];
	assert_true(a->has_progress); /* from /proc/mdstat, KiB blocks to sectors */
	assert_int_equal(a->sync_done, 2ULL * 491263360);
	assert_int_equal(a->sync_total, 2ULL * 1953494784);
	assert_int_equal(a->sync_speed, 4687);
	assert_false(a->no_sync_thread); /* mdstat's speed= says a thread works */
	a = &s.arrays[3];
	assert_int_equal(a->n_members, 4); /* from slaves/, roles unknown */
	assert_member(a, 0, "sda5", "sda", -1);
	assert_member(a, 3, "sdd5", "sdd", -1);
	/* 0.90 md/uuid holds host-endian words: shown the way mdadm prints them */
	assert_string_equal(s.arrays[1].uuid, "1d2c3b4a9e8f7a6b5c4d3e2f01f2e3d4");
	assert_string_equal(s.arrays[1].uuid_source, "md/uuid");
	assert_int_equal(s.mem_avail_kib, 412340 + 220104 + 6213656);
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_done(&sc);
}

/* Run cmd in the scratch root, then discover it without a diagnostic. */
static void rediscover(struct scratch *sc, const char *cmd, struct mdp_system *s)
{
	struct mdp_diags d;

	scratch_run(sc, cmd);
	discover_dir(sc->root, s, &d);
	assert_int_equal(d.n, 0);
	mdp_diags_free(&d);
}

/* "sda hdd, sdb nvme, ...": each disk and its class. */
static const char *disk_classes(const struct mdp_system *s, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->n_disks && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s", i ? ", " : "", s->disks[i].name,
				      mdp_ident_media_name(s->disks[i].media));
	return buf;
}

/*
 * Each disk's class: nvme by name or by its device link under an nvme
 * controller, else queue/rotational; an array's is its members' one class,
 * mixed, or unknown as soon as one member's is.
 */
static void test_media(void **state)
{
	struct scratch sc;
	struct mdp_system s;
	char buf[256];

	(void)state;
	discover_fixture("ssd-raid5-mixed", &s);
	assert_int_equal(mdp_system_disk(&s, "sda")->media, MDP_MEDIA_SSD);
	assert_int_equal(mdp_system_disk(&s, "sdf")->media, MDP_MEDIA_HDD);
	assert_int_equal(s.arrays[0].media, MDP_MEDIA_SSD);
	assert_int_equal(s.arrays[1].media, MDP_MEDIA_MIXED);
	assert_int_equal(s.arrays[1].media_bits, 1u << MDP_MEDIA_SSD | 1u << MDP_MEDIA_HDD);
	mdp_system_free(&s);
	discover_fixture("server-raid6-raid10", &s);
	assert_int_equal(s.arrays[0].media, MDP_MEDIA_HDD);
	assert_int_equal(s.arrays[1].media, MDP_MEDIA_NVME);
	mdp_system_free(&s);

	scratch_copy(&sc, "ds-dsm6-reshape");
	/* sdb an NVMe namespace by its device path; sdc's and sdd's class unreadable */
	rediscover(&sc,
		   "mkdir -p sys/devices/pci0000:00/0000:00:1d.0/nvme/nvme0 && "
		   "mv sys/block/sdb sys/devices/pci0000:00/0000:00:1d.0/nvme/nvme0/sdb && "
		   "ln -s ../devices/pci0000:00/0000:00:1d.0/nvme/nvme0/sdb sys/block/sdb && "
		   "echo 2 > sys/block/sdd/queue/rotational && rm sys/block/sdc/queue/rotational",
		   &s);
	assert_string_equal(disk_classes(&s, buf, sizeof(buf)),
			    "sda hdd, sdb nvme, sdc unknown, sdd unknown");
	assert_int_equal(s.arrays[3].media, MDP_MEDIA_UNKNOWN); /* md3: sda, sdb, sdd */
	assert_true(s.arrays[3].media_bits & 1u << MDP_MEDIA_UNKNOWN);
	mdp_system_free(&s);
	rediscover(&sc,
		   "echo 0 > sys/block/sdd/queue/rotational && "
		   "echo 1 > sys/block/sdc/queue/rotational",
		   &s);
	assert_int_equal(s.arrays[3].media, MDP_MEDIA_MIXED); /* hdd, nvme, ssd */
	assert_int_equal(s.arrays[3].media_bits,
			 1u << MDP_MEDIA_HDD | 1u << MDP_MEDIA_SSD | 1u << MDP_MEDIA_NVME);
	mdp_system_free(&s);
	scratch_done(&sc);
}

/* Discover the tree dir with its programs allowed to run when named (MDPROFILE_ROOT_EXEC). */
static void discover_named(const char *dir, const char *named, struct mdp_system *s,
			   struct mdp_diags *d)
{
	struct mdp_root r;

	assert_int_equal(mdp_root_init(&r, dir), 0);
	mdp_root_allow_exec(&r, named);
	mdp_diags_init(d);
	assert_int_equal(mdp_discover(&r, s, d), 0);
	mdp_root_fini(&r);
}

/*
 * Without md/uuid (DSM kernels), `mdadm --detail --export` comes before the
 * superblock; a fixture carries a fake mdadm under its root, which runs only
 * where the caller named the tree and the tree holds no capture. One that
 * fails falls through to the superblock.
 */
static void test_uuid_from_mdadm(void **state)
{
	struct scratch sc;
	struct mdp_system s;
	struct mdp_diags d;

	(void)state;
	scratch_copy(&sc, "ds-dsm6-reshape");
	scratch_run(&sc, "mkdir -p sbin && printf '%s\\n' '#!/bin/sh' "
			 "'[ \"$1 $2 $3\" = \"--detail --export /dev/md2\" ] || exit 1' "
			 "'echo MD_LEVEL=raid5' 'echo MD_UUID=00112233:44556677:8899aabb:ccddeeff' "
			 "> sbin/mdadm && chmod 755 . sbin sbin/mdadm");
	/* not named, or a capture: the superblock's UUID, mdadm refused */
	discover_named(sc.root, NULL, &s, &d);
	assert_string_equal(s.arrays[2].uuid_source, "superblock");
	assert_int_equal(d.n, 1);
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_run(&sc, "mkdir .explain");
	discover_named(sc.root, sc.root, &s, &d);
	assert_string_equal(s.arrays[2].uuid_source, "superblock");
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_run(&sc, "rmdir .explain");
	discover_named(sc.root, sc.root, &s, &d);
	assert_string_equal(s.arrays[2].name, "md2");
	assert_string_equal(s.arrays[2].uuid, "00112233445566778899aabbccddeeff");
	assert_string_equal(s.arrays[2].uuid_source, "mdadm");
	/* md3: the fake exits 1 -> the member superblock, as without mdadm */
	assert_string_equal(s.arrays[3].uuid_source, "superblock");
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_done(&sc);
}

/*
 * A FIFO where a member's device node should be (a --root tree is anyone's)
 * is skipped, not opened for ever: without a writer open() would block.
 * The same for a FIFO in place of a sysfs attribute (root.c reads).
 * The alarm turns a hang into a failure.
 */
static void test_member_fifo_does_not_hang(void **state)
{
	struct scratch sc;
	struct mdp_system s;
	struct mdp_diags d;

	(void)state;
	scratch_copy(&sc, "ds-dsm6-reshape");
	scratch_run(&sc, "rm dev/sda5 && mkfifo dev/sda5");
	alarm(10);
	discover_dir(sc.root, &s, &d);
	alarm(0);
	assert_string_equal(s.arrays[2].name, "md2");
	assert_string_equal(s.arrays[2].uuid_source, "unknown");
	assert_string_equal(s.arrays[0].uuid_source, "superblock"); /* sda1: a file */
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_done(&sc);

	/* Nor does one in place of a sysfs attribute: it reads as empty (a diag says so). */
	scratch_copy(&sc, "ds-dsm6-reshape");
	scratch_run(&sc, "rm sys/block/md2/md/stripe_cache_size && "
			 "mkfifo sys/block/md2/md/stripe_cache_size");
	alarm(10);
	discover_dir(sc.root, &s, &d);
	alarm(0);
	assert_true(d.n > 0);
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_done(&sc);
}

/* Skipping parts of the model reads fewer files and leaves the rest as is. */
static void test_discover_some(void **state)
{
	const unsigned skip = MDP_SKIP_PROGRESS | MDP_SKIP_UUID | MDP_SKIP_MEMBERS;
	struct mdp_system full, lean;
	struct mdp_diags d;
	struct mdp_root r;
	char dir[PATH_MAX];

	(void)state;
	fixture_path("ds-dsm6-reshape", dir, sizeof(dir));
	assert_int_equal(mdp_root_init(&r, dir), 0);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover(&r, &full, &d), 0);
	assert_int_equal(mdp_discover_some(&r, skip, &lean, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(lean.skipped, skip);
	assert_int_equal(lean.n_arrays, full.n_arrays);
	assert_int_equal(lean.n_disks, 0);
	for (size_t i = 0; i < full.n_arrays; i++) {
		const struct mdp_array *a = &full.arrays[i], *b = &lean.arrays[i];
		assert_string_equal(a->name, b->name);
		assert_int_equal(a->level, b->level);
		assert_int_equal(a->raid_disks, b->raid_disks);
		assert_string_equal(a->sync_action, b->sync_action);
		assert_int_equal(b->n_members, 0);
		assert_int_equal(b->media, MDP_MEDIA_UNKNOWN); /* no members, no class */
		assert_string_equal(b->uuid, "");
		assert_string_equal(b->uuid_source, "not read");
		assert_false(b->has_progress);
		for (int t = 0; t < MDP_T_COUNT; t++) {
			assert_int_equal(a->cur[t].present, b->cur[t].present);
			assert_string_equal(a->cur[t].raw, b->cur[t].raw);
		}
	}
	assert_string_equal(lean.global[MDP_T_SPEED_LIMIT_MIN].raw, "10000");
	assert_int_equal(lean.mem_total_kib, full.mem_total_kib);
	mdp_system_free(&full);
	mdp_system_free(&lean);
	mdp_diags_free(&d);
}

/* Mid-reshape md shows "new (old)" disk counts. */
static void test_raid_disks_reshape(void **state)
{
	struct scratch sc;
	struct mdp_system s;
	struct mdp_diags d;

	(void)state;
	scratch_copy(&sc, "ds-dsm6-reshape");
	scratch_run(&sc, "echo '4 (3)' > sys/block/md3/md/raid_disks");
	discover_dir(sc.root, &s, &d);
	assert_string_equal(s.arrays[3].name, "md3");
	assert_int_equal(s.arrays[3].raid_disks, 4);
	assert_int_equal(s.arrays[3].prev_raid_disks, 3);
	assert_int_equal(s.arrays[2].prev_raid_disks, 0);
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_done(&sc);
}

static void test_bad_values(void **state)
{
	struct scratch sc;
	struct mdp_system s;
	struct mdp_diags d;

	(void)state;
	scratch_copy(&sc, "server-raid6-raid10");
	scratch_run(&sc,
		    "echo lots > sys/block/md0/md/stripe_cache_size && "
		    "echo 'garbage here' > proc/mdstat && rm sys/block/md1/md/sync_completed "
		    "proc/sys/kernel/random/boot_id && echo 7 > sys/block/md0/md/raid_disks && "
		    "echo '8 (7)' > sys/block/md0/md/raid_disks");
	discover_dir(sc.root, &s, &d);
	/* mdstat's notes name the line: no Personalities line, then the garbage itself */
	assert_int_equal(d.n, 3);
	assert_string_equal(d.v[0].file, "/proc/mdstat");
	assert_int_equal(d.v[1].line, 1);
	assert_non_null(strstr(d.v[1].msg, "'garbage here'"));
	assert_non_null(strstr(d.v[2].msg, "stripe_cache_size"));
	assert_false(s.arrays[0].cur[MDP_T_STRIPE_CACHE_SIZE].present);
	assert_int_equal(s.arrays[0].raid_disks, 8);        /* "8 (7)" mid-reshape */
	assert_false(s.arrays[1].has_progress);             /* neither sysfs nor mdstat */
	assert_int_equal(s.arrays[1].size_kib, 1953258496); /* from /sys/block/md1/size */
	assert_string_equal(s.boot_id, "");
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_done(&sc);
}

/*
 * Without md/sync_action the operation comes from /proc/mdstat, in lean
 * runs as in full ones: apply plans the reshape rule as diff showed it.
 */
static void test_sync_action_from_mdstat(void **state)
{
	const unsigned skip = MDP_SKIP_PROGRESS | MDP_SKIP_UUID | MDP_SKIP_MEMBERS;
	struct scratch sc;
	struct mdp_system full, lean;
	struct mdp_diags d;
	struct mdp_root r;

	(void)state;
	scratch_copy(&sc, "ds-dsm6-reshape");
	scratch_run(&sc, "rm sys/block/md3/md/sync_action sys/block/md2/md/sync_action");
	assert_int_equal(mdp_root_init(&r, sc.root), 0);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover(&r, &full, &d), 0);
	assert_int_equal(mdp_discover_some(&r, skip, &lean, &d), 0);
	assert_int_equal(d.n, 0);
	assert_string_equal(full.arrays[3].sync_action, "reshape");
	assert_string_equal(lean.arrays[3].sync_action, "reshape");
	assert_true(full.arrays[3].has_progress); /* md/sync_completed is still there */
	/* md2 is idle: mdstat shows no operation, so nothing is made up */
	assert_string_equal(full.arrays[2].sync_action, "");
	assert_string_equal(lean.arrays[2].sync_action, "");
	mdp_system_free(&full);
	mdp_system_free(&lean);
	mdp_diags_free(&d);
	scratch_done(&sc);
}

/* md's truncated tenths of a percent (md.c status_resync), never rounded up. */
static void test_permille(void **state)
{
	(void)state;
	assert_int_equal(mdp_discover_permille(335544320, 3906516992ULL), 85); /* 8.589% */
	assert_int_equal(mdp_discover_permille(982526720, 3906989568ULL), 251);
	assert_int_equal(mdp_discover_permille(0, 3906989568ULL), 0);
	assert_int_equal(mdp_discover_permille(10, 0), 0);
	/* done == total reads 99.9% as md prints it before the operation is reaped */
	assert_int_equal(mdp_discover_permille(3906989568ULL, 3906989568ULL), 999);
	assert_int_equal(mdp_discover_permille(UINT64_MAX, UINT64_MAX / 2), 999); /* clamped */
}

/*
 * What status needs beyond planning: md/degraded, each member's
 * dev-X/state, a queued operation from /proc/mdstat and from
 * sync_completed's "delayed", md's own percent and ETA, and the parsed
 * mdstat kept for arrays sysfs does not have.
 */
static void test_health_and_queue(void **state)
{
	struct scratch sc;
	struct mdp_system s;
	struct mdp_diags d;

	(void)state;
	scratch_copy(&sc, "ds-dsm6-reshape");
	scratch_run(&sc,
		    "echo 1 > sys/block/md2/md/degraded && "
		    "echo faulty > sys/block/md2/md/dev-sdc5/state && "
		    "echo in_sync > sys/block/md2/md/dev-sda5/state && "
		    "echo resync > sys/block/md1/md/sync_action && "
		    "echo delayed > sys/block/md1/md/sync_completed && "
		    "printf 'md127 : inactive sdf[0](S)\\n      10 blocks super external:imsm\\n' "
		    ">> proc/mdstat");
	discover_dir(sc.root, &s, &d);
	assert_int_equal(d.n, 0);
	assert_int_equal(s.arrays[2].degraded, 1);
	assert_int_equal(s.arrays[0].degraded, -1); /* no md/degraded: unknown, not 0 */
	assert_string_equal(s.arrays[2].members[2].name, "sdc5");
	assert_string_equal(s.arrays[2].members[2].state, "faulty");
	assert_string_equal(s.arrays[2].members[0].state, "in_sync");
	assert_string_equal(s.arrays[2].members[1].state, ""); /* no state file */
	assert_string_equal(s.arrays[1].sync_queued, "DELAYED");
	assert_int_equal(s.arrays[3].permille, 251);
	assert_int_equal(s.arrays[3].kernel_eta_s, 311904); /* finish=5198.4min */
	assert_int_equal(s.mdstat.n, 5);
	assert_non_null(mdp_mdstat_find(&s.mdstat, "md127"));
	assert_null(mdp_system_array(&s, "md127")); /* never invented as a sysfs array */
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_done(&sc);
}

/*
 * Only a missing file is absence. One that exists and cannot be read (here
 * a directory where a value should be: EISDIR, readable as root; the CLI
 * test 42-unreadable covers EACCES as nobody) fails discovery and says
 * which file.
 */
static void test_unreadable_is_error(void **state)
{
	static const char *const cases[][2] = {
	    {"sys/block/md3/md/stripe_cache_size", "/sys/block/md3/md/stripe_cache_size"},
	    {"sys/block/md2/md/level", "/sys/block/md2/md/level"},
	    {"proc/sys/dev/raid/speed_limit_min", "/proc/sys/dev/raid/speed_limit_min"},
	    {"sys/block/md1/md/sync_action", "/sys/block/md1/md/sync_action"},
	};
	char cmd[256], want[160];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scratch sc;
		struct mdp_system s = {.n_arrays = 77};
		struct mdp_diags d;
		struct mdp_root r;

		scratch_copy(&sc, "ds-dsm6-reshape");
		snprintf(cmd, sizeof(cmd), "rm %s && mkdir %s", cases[i][0], cases[i][0]);
		scratch_run(&sc, cmd);
		assert_int_equal(mdp_root_init(&r, sc.root), 0);
		mdp_diags_init(&d);
		assert_int_equal(mdp_discover(&r, &s, &d), -EISDIR);
		assert_int_equal(s.n_arrays, 77); /* untouched on failure */
		assert_int_equal(d.n, 1);
		snprintf(want, sizeof(want), "cannot read %s: %s", cases[i][1], strerror(EISDIR));
		assert_string_equal(d.v[0].msg, want);
		mdp_diags_free(&d);
		scratch_done(&sc);
	}
}

/*
 * One array by name (explain's read): the same model as the whole run's, md's shape
 * attributes, 1 for a name sysfs does not show, and with MDP_SKIP_UNREADABLE a file that
 * cannot be read is left out and named instead of failing.
 */
static void test_discover_array(void **state)
{
	struct scratch sc;
	struct mdp_system s;
	struct mdp_diags d;
	struct mdp_array a;
	struct mdp_root r;
	const struct mdp_array *whole;

	(void)state;
	scratch_copy(&sc, "ds-dsm6-reshape");
	scratch_run(&sc, "cd sys/block/md3/md && echo 4294967296 >sync_max && echo 65536 "
			 ">chunk_size && mkdir -p bitmap && echo +8 >bitmap/location && echo 250 "
			 ">stripe_cache_active && echo 0 >suspend_hi && rm sync_speed_max && mkdir "
			 "sync_speed_max");
	assert_int_equal(mdp_root_init(&r, sc.root), 0);
	mdp_diags_init(&d);
	assert_int_equal(
	    mdp_discover_array(&r, NULL, "md3", MDP_SKIP_UUID | MDP_SKIP_UNREADABLE, &a, &d), 0);
	assert_string_equal(a.name, "md3");
	assert_string_equal(a.level_name, "raid5");
	assert_string_equal(a.sync_action, "reshape");
	assert_string_equal(a.sync_completed, "982526720 / 3906989568");
	assert_true(a.sync_speed_md);
	assert_int_equal(a.sync_speed, 4687);
	assert_string_equal(a.sync_max, "4294967296");
	assert_int_equal(a.chunk_kib, 64);
	assert_string_equal(a.bitmap, "+8");
	assert_int_equal(a.stripe_cache_active, 250);
	assert_int_equal(a.suspend_hi, 0);
	assert_true(a.cur[MDP_T_SYNC_SPEED_MIN].present);
	assert_false(a.cur[MDP_T_SYNC_SPEED_MAX].present);
	assert_string_equal(a.uuid_source, "not read");
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].file, "/sys/block/md3/md/sync_speed_max");
	assert_string_equal(d.v[0].msg, strerror(EISDIR));
	mdp_diags_free(&d);
	/* the whole run reads the same array alike (and fails on the unreadable file) */
	scratch_run(&sc, "rmdir sys/block/md3/md/sync_speed_max && echo '200000 (system)' "
			 ">sys/block/md3/md/sync_speed_max");
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover_some(&r, MDP_SKIP_UUID, &s, &d), 0);
	assert_non_null(whole = mdp_system_array(&s, "md3"));
	assert_int_equal(whole->n_members, a.n_members);
	for (size_t i = 0; i < a.n_members; i++)
		assert_string_equal(whole->members[i].state, a.members[i].state);
	assert_string_equal(whole->sync_max, a.sync_max);
	assert_int_equal(whole->raid_disks, a.raid_disks);
	free(a.members);
	/* without the skip bit the unreadable file fails the read */
	scratch_run(&sc, "rm sys/block/md3/md/stripe_cache_size && mkdir "
			 "sys/block/md3/md/stripe_cache_size");
	assert_int_equal(mdp_discover_array(&r, &s.mdstat, "md3", MDP_SKIP_UUID, &a, &d), -EISDIR);
	/* no such array in sysfs: 1, and a name that is no md device never reaches a path */
	assert_int_equal(mdp_discover_array(&r, &s.mdstat, "md9", MDP_SKIP_UUID, &a, &d), 1);
	assert_int_equal(mdp_discover_array(&r, &s.mdstat, "../md3", MDP_SKIP_UUID, &a, &d), 1);
	mdp_system_free(&s);
	mdp_diags_free(&d);
	mdp_root_fini(&r);
	scratch_done(&sc);
}

/* A disk count that does not parse is unknown (0), and said; so is MemTotal. */
static void test_unknown_counts(void **state)
{
	static const char *const bad[] = {"garbage", "4294967296", "-1"};
	char cmd[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct scratch sc;
		struct mdp_system s;
		struct mdp_diags d;

		scratch_copy(&sc, "ds-dsm6-reshape");
		snprintf(
		    cmd, sizeof(cmd),
		    "echo %s > sys/block/md2/md/raid_disks && grep -v MemTotal proc/meminfo "
		    "> m && echo 'MemTotal: 99999999999999999999 kB' >> m && mv m proc/meminfo",
		    bad[i]);
		scratch_run(&sc, cmd);
		discover_dir(sc.root, &s, &d);
		assert_int_equal(s.arrays[2].raid_disks, 0);
		assert_int_equal(s.arrays[3].raid_disks, 3);
		assert_int_equal(d.n, 1);
		assert_non_null(
		    strstr(d.v[0].msg, "/sys/block/md2/md/raid_disks: unexpected value"));
		assert_int_equal(s.mem_total_kib, 0);
		assert_int_equal(s.mem_avail_kib, 6918232);
		mdp_system_free(&s);
		mdp_diags_free(&d);
		scratch_done(&sc);
	}
}

static void test_no_sysfs(void **state)
{
	struct scratch sc;
	struct mdp_system s = {.n_arrays = 77};
	struct mdp_diags d;
	struct mdp_root r;

	(void)state;
	scratch_copy(&sc, "ds220j-dsm7");
	scratch_run(&sc, "rm -r sys");
	assert_int_equal(mdp_root_init(&r, sc.root), 0);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover(&r, &s, &d), -ENOENT);
	assert_int_equal(s.n_arrays, 77);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].msg, "/sys/block"));
	mdp_diags_free(&d);
	/* status may go without it: a note, and the arrays only mdstat lists */
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover_some(&r, MDP_SKIP_ABSENT_SYSFS, &s, &d), 0);
	assert_int_equal(s.n_arrays, 0);
	assert_true(s.mdstat.n > 0);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].msg, "/proc/mdstat"));
	mdp_system_free(&s);
	mdp_diags_free(&d);
	scratch_done(&sc);
}

/* The real root: libudev (or the walk) must work wherever the tests run. */
static void test_real_root(void **state)
{
	struct mdp_system s;
	struct mdp_diags d;
	struct mdp_root r;

	(void)state;
	assert_int_equal(mdp_root_init(&r, NULL), 0);
	mdp_diags_init(&d);
	assert_int_equal(mdp_discover(&r, &s, &d), 0);
	for (size_t i = 0; i < s.n_arrays; i++)
		assert_int_equal(strncmp(s.arrays[i].name, "md", 2), 0);
	assert_true(s.mem_total_kib > 0);
	mdp_system_free(&s);
	mdp_diags_free(&d);
}

/* ---- superblocks and values -------------------------------------------------- */

/*
 * A udev record counts only while it describes the array behind the name
 * now: level and disk count (either one mid-reshape) as sysfs shows them.
 */
static void test_udev_uuid(void **state)
{
	struct mdp_array a = {.level_name = "raid5", .raid_disks = 4};
	const char *u = "00112233:44556677:8899aabb:ccddeeff";
	char out[33] = "untouched";

	(void)state;
	assert_int_equal(mdp_discover_udev_uuid(u, "raid5", "4", &a, out, sizeof(out)), 0);
	assert_string_equal(out, "00112233445566778899aabbccddeeff");
	strcpy(out, "untouched");
	assert_int_equal(mdp_discover_udev_uuid(u, "raid5", NULL, &a, out, sizeof(out)), 0);
	assert_int_equal(mdp_discover_udev_uuid(NULL, "raid5", "4", &a, out, 33), -ENOENT);
	assert_int_equal(mdp_discover_udev_uuid(u, NULL, "4", &a, out, 33), -ENOENT);
	assert_int_equal(mdp_discover_udev_uuid(u, "raid6", "4", &a, out, 33), -ESTALE);
	assert_int_equal(mdp_discover_udev_uuid(u, "raid5", "3", &a, out, 33), -ESTALE);
	assert_int_equal(mdp_discover_udev_uuid(u, "raid5", "4x", &a, out, 33), -ESTALE);
	assert_int_equal(mdp_discover_udev_uuid(u, "raid5", "0", &a, out, 33), -ESTALE);
	assert_int_equal(mdp_discover_udev_uuid("0011", "raid5", "4", &a, out, 33), -EINVAL);
	assert_int_equal(mdp_discover_udev_uuid(u, "raid5", "4", &a, out, 32), -EINVAL);
	assert_string_equal(out, "00112233445566778899aabbccddeeff"); /* only on success */
	/* mid-reshape md shows "4 (3)"; a record from either side of it holds */
	a.prev_raid_disks = 3;
	assert_int_equal(mdp_discover_udev_uuid(u, "raid5", "3", &a, out, 33), 0);
	/* an unknown count never matches */
	a.raid_disks = a.prev_raid_disks = 0;
	assert_int_equal(mdp_discover_udev_uuid(u, "raid5", "4", &a, out, 33), -ESTALE);
}

static const unsigned char uuid16[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
					 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10};

static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* An image of size bytes with a v1 superblock at off (super_offset as given). */
static int image_v1(size_t size, size_t off, uint64_t super_offset)
{
	char path[] = "/tmp/mdp-sb-XXXXXX";
	/* room for the superblock even when the image written is shorter */
	unsigned char *img = calloc(1, size > off + 256 ? size : off + 256);
	int fd = mkstemp(path);

	assert_non_null(img);
	assert_true(fd >= 0);
	unlink(path);
	put_le(img + off, 0xa92b4efc, 4);
	put_le(img + off + 4, 1, 4);
	memcpy(img + off + 16, uuid16, 16);
	put_le(img + off + 144, super_offset, 8);
	assert_int_equal(write(fd, img, size), (ssize_t)size);
	free(img);
	return fd;
}

static void expect_sb(int fd, int err, const char *uuid)
{
	char out[33] = "untouched";

	assert_int_equal(mdp_discover_sb_uuid(fd, out, sizeof(out)), err);
	assert_string_equal(out, err ? "untouched" : uuid);
	close(fd);
}

static void test_superblocks(void **state)
{
	static const char want[] = "0123456789abcdeffedcba9876543210";
	char path[PATH_MAX];
	int fd;

	(void)state;
	expect_sb(image_v1(8192, 4096, 8), 0, want);          /* 1.2 */
	expect_sb(image_v1(8192, 0, 0), 0, want);             /* 1.1 */
	expect_sb(image_v1(20480 + 512, 12288, 24), 0, want); /* 1.0: end - 8K, 4K aligned */
	expect_sb(image_v1(8192, 4096, 0), -ENOENT, NULL);    /* super_offset disagrees */
	expect_sb(image_v1(8192, 4097, 8), -ENOENT, NULL);
	expect_sb(image_v1(100, 0, 0), -ENOENT, NULL); /* too small for any */
	/* 0.90 from the fixture: what `mdadm --examine` shows for it */
	fixture_path("ds-dsm6-reshape/dev/sda1", path, sizeof(path));
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	expect_sb(fd, 0, "1d2c3b4a9e8f7a6b5c4d3e2f01f2e3d4");
	fixture_path("ds-dsm6-reshape/dev/sda5", path, sizeof(path));
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	expect_sb(fd, 0, "6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d");
	fixture_path("ds-dsm6-reshape/proc/mdstat", path, sizeof(path));
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	expect_sb(fd, -ENOENT, NULL);
}

static void test_uuid_text(void **state)
{
	static const char exp[] = "MD_LEVEL=raid5\nMD_DEVICES=3\nMD_METADATA=1.2\n"
				  "MD_UUID=6A1B0C7D:2e3f4a5b:8c9d0e1f:2a3b4c5d\nMD_NAME=DS:2\n";
	char out[33];

	(void)state;
	assert_int_equal(
	    mdp_discover_uuid_norm("3f6c9a2e-1b4d-4e8f-9a7c-5d2e1f0b8c6a\n", out, sizeof(out)), 0);
	assert_string_equal(out, "3f6c9a2e1b4d4e8f9a7c5d2e1f0b8c6a");
	assert_int_equal(mdp_discover_uuid_norm("3f6c9a2e", out, sizeof(out)), -EINVAL);
	assert_int_equal(
	    mdp_discover_uuid_norm("3f6c9a2e1b4d4e8f9a7c5d2e1f0b8c6a00", out, sizeof(out)),
	    -EINVAL);
	assert_int_equal(
	    mdp_discover_uuid_norm("3f6c9a2e1b4d4e8f9a7c5d2e1f0b8c6g", out, sizeof(out)), -EINVAL);
	assert_int_equal(mdp_discover_uuid_norm("3f6c9a2e1b4d4e8f9a7c5d2e1f0b8c6a", out, 32),
			 -EINVAL);
	assert_int_equal(mdp_discover_mdadm_uuid(exp, strlen(exp), out, sizeof(out)), 0);
	assert_string_equal(out, "6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d");
	assert_int_equal(mdp_discover_mdadm_uuid(exp, 40, out, sizeof(out)), -ENOENT);
}

static void test_sync_completed(void **state)
{
	uint64_t done = 7, total = 7;

	(void)state;
	assert_int_equal(mdp_discover_parse_sync_completed("982526720 / 3906989568", &done, &total),
			 0);
	assert_int_equal(done, 982526720);
	assert_int_equal(total, 3906989568ULL);
	assert_int_equal(mdp_discover_parse_sync_completed("0 / 10\n", &done, &total), 0);
	assert_int_equal(done, 0);
	done = total = 7;
	assert_int_equal(mdp_discover_parse_sync_completed("none", &done, &total), -ENODATA);
	assert_int_equal(mdp_discover_parse_sync_completed("delayed\n", &done, &total), -ENODATA);
	assert_int_equal(mdp_discover_parse_sync_completed("12 /", &done, &total), -EINVAL);
	assert_int_equal(mdp_discover_parse_sync_completed("12 / 34x", &done, &total), -EINVAL);
	assert_int_equal(mdp_discover_parse_sync_completed("12/34", &done, &total), -EINVAL);
	assert_int_equal(mdp_discover_parse_sync_completed("", &done, &total), -EINVAL);
	assert_int_equal(
	    mdp_discover_parse_sync_completed("99999999999999999999 / 1", &done, &total), -EINVAL);
	assert_int_equal(done, 7);
	assert_int_equal(total, 7);
}

/* An array only /proc/mdstat lists, built as a sysfs one would be: the same words. */
static void from_mdstat(const char *text, bool dsm, struct mdp_array *a)
{
	struct mdp_system s = {.dsm = dsm};

	assert_int_equal(mdp_mdstat_parse(text, strlen(text), &s.mdstat, NULL), 0);
	assert_int_equal(s.mdstat.n, 1);
	assert_int_equal(mdp_discover_from_mdstat(&s, &s.mdstat.arrays[0], a), 0);
	mdp_mdstat_free(&s.mdstat);
}

static void test_from_mdstat(void **state)
{
	struct mdp_array a;

	(void)state;
	/* a [2/1] raid1 rebuilding its newest member: recover, spare_rebuilding, ETA counts */
	from_mdstat("Personalities : [raid1]\n"
		    "md4 : active (auto-read-only) raid1 sdh1[2] sdg1[0] sdx1[3](J)\n"
		    "      976630464 blocks super 1.2 [2/1] [U_]\n"
		    "      [==>..................]  recovery = 12.6% (123456000/976630464) "
		    "finish=71.1min speed=200000K/sec\n",
		    false, &a);
	assert_string_equal(a.sync_action, "recover");
	assert_string_equal(a.array_state, "read-auto");
	assert_int_equal(a.raid_disks, 2);
	assert_int_equal(a.degraded, 1);
	assert_true(a.has_progress);
	assert_int_equal(a.sync_total, 976630464ULL * 2);
	assert_int_equal(a.kernel_eta_s, 4266);
	assert_int_equal(a.n_members, 3);
	assert_string_equal(mdp_mstate_name(a.members[0].mstate), "spare_rebuilding");
	assert_string_equal(mdp_mstate_name(a.members[1].mstate), "in_sync");
	assert_string_equal(mdp_mstate_name(a.members[2].mstate), "journal");
	free(a.members);

	/* raid0 prints no [n/m]: its members are its raid disks */
	from_mdstat("md5 : active raid0 sdj1[1] sdi1[0]\n      100 blocks super 1.2 512k chunks\n",
		    false, &a);
	assert_int_equal(a.raid_disks, 2);
	assert_int_equal(a.degraded, -1);
	free(a.members);

	/*
	 * DSM's md0 with empty bays (0.90 prints no "super"); its (E) member
	 * failed but keeps its 'U' slot. Off DSM the '_' slots are missing disks.
	 */
	static const char md0[] = "md0 : active raid1 sata1p1[0] sata2p1[1] sata3p1[2](E)\n"
				  "      2490176 blocks [5/3] [UUU__]\n";
	from_mdstat(md0, true, &a);
	assert_int_equal(a.empty_bays, 2);
	assert_int_equal(a.degraded, 0);
	assert_string_equal(mdp_mstate_name(a.members[2].mstate), "failed");
	assert_true(a.members[2].disk_errors);
	free(a.members);
	from_mdstat(md0, false, &a);
	assert_int_equal(a.empty_bays, 0);
	assert_int_equal(a.degraded, 2);
	free(a.members);
	/* a faulty member holds a '_' slot: one bay empty, one disk missing */
	from_mdstat("md1 : active raid1 sda2[0] sdb2[1](F)\n      100 blocks [4/1] [U___]\n", true,
		    &a);
	assert_int_equal(a.empty_bays, 2);
	assert_int_equal(a.degraded, 1);
	free(a.members);
	/* the rule needs a 0.90 superblock and the name md0 or md1 */
	from_mdstat("md0 : active raid1 sda1[0]\n      100 blocks super 1.2 [2/1] [U_]\n", true,
		    &a);
	assert_int_equal(a.empty_bays, 0);
	free(a.members);
	from_mdstat("md2 : active raid1 sda1[0]\n      100 blocks [2/1] [U_]\n", true, &a);
	assert_int_equal(a.empty_bays, 0);
	free(a.members);
}

MDP_TEST_MAIN(test_dsm6_reshape, test_ds220j, test_dt_sata, test_no_sync_thread, test_server,
	      test_fallbacks, test_media, test_bad_values, test_uuid_from_mdadm, test_discover_some,
	      test_raid_disks_reshape, test_no_sysfs, test_real_root, test_superblocks,
	      test_uuid_text, test_sync_completed, test_sync_action_from_mdstat, test_permille,
	      test_health_and_queue, test_unreadable_is_error, test_discover_array,
	      test_unknown_counts, test_udev_uuid, test_member_fifo_does_not_hang, test_from_mdstat)
