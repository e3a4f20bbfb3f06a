/*
 * Unit tests of the /proc/mdstat parser: the four snapshots of the seed
 * write-up's DiskStation as they were printed, the kernel's other shapes
 * (inactive, read-only, delayed resync, failed members), malformed text,
 * and every fixture in tests/fixtures/mdstat/ (NN-name.txt) against its
 * expected parse (NN-name.expect, one line per array, then the notes).
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mdstat.h"

#include "diag.h"
#include "support.h"

#define MD3_HEAD                                                                                   \
	"Personalities : [linear] [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]\n"              \
	"md3 : active raid5 sdd6[2] sda6[0] sdb6[1]\n"                                             \
	"      1953494784 blocks super 1.2 level 5, 64k chunk, algorithm 2 [3/3] [UUU]\n"

static const char snap1[] =
    MD3_HEAD "      [=====>...............]  reshape = 25.1% (491263360/1953494784) "
	     "finish=5198.4min speed=4687K/sec\n"
	     "\n"
	     "md2 : active raid5 sdd5[4] sda5[0] sdc5[5] sdb5[1]\n"
	     "      5846049792 blocks super 1.2 level 5, 64k chunk, algorithm 2 [4/4] [UUUU]\n"
	     "\n"
	     "md1 : active raid1 sdd2[3] sda2[0] sdb2[1] sdc2[2]\n"
	     "      2097088 blocks [4/4] [UUUU]\n"
	     "\n"
	     "md0 : active raid1 sdd1[3] sda1[0] sdb1[1] sdc1[2]\n"
	     "      2490176 blocks [4/4] [UUUU]\n"
	     "\n"
	     "unused devices: <none>\n";

static const char snap2[] = MD3_HEAD "      [=====>...............]  reshape = 26.0% "
				     "(509001728/1953494784) finish=1338.0min speed=17992K/sec\n";

static const char snap3[] = MD3_HEAD "      [=====>...............]  reshape = 26.1% "
				     "(511295616/1953494784) finish=1001.1min speed=24008K/sec\n";

/* The last one was printed with trailing spaces after the personalities. */
static const char snap4[] =
    "Personalities : [linear] [raid0] [raid1] [raid10] [raid6] [raid5] [raid4] \n"
    "md3 : active raid5 sdd6[2] sda6[0] sdb6[1]\n"
    "      1953494784 blocks super 1.2 level 5, 64k chunk, algorithm 2 [3/3] [UUU]\n"
    "      [===================>.]  reshape = 95.9% (1874314432/1953494784) "
    "finish=20.1min speed=65521K/sec\n";

static struct mdp_mdstat parse_ok(const char *text)
{
	struct mdp_mdstat m = {0};

	assert_int_equal(mdp_mdstat_parse(text, strlen(text), &m, NULL), 0);
	assert_int_equal(m.notes, 0); /* every kernel shape parses without a note */
	return m;
}

static void assert_md3(const struct mdp_mdstat_array *a, uint64_t done, unsigned pm, double finish,
		       uint64_t speed)
{
	assert_string_equal(a->name, "md3");
	assert_string_equal(a->level, "raid5");
	assert_true(a->active);
	assert_int_equal(a->blocks, 1953494784);
	assert_int_equal(a->raid_disks, 3);
	assert_int_equal(a->working, 3);
	assert_string_equal(a->op, "reshape");
	assert_string_equal(a->op_state, "");
	assert_int_equal(a->done, done);
	assert_int_equal(a->total, 1953494784);
	assert_int_equal(a->permille, pm);
	assert_true(a->finish_min > finish - 0.01 && a->finish_min < finish + 0.01);
	assert_int_equal(a->speed_kib, speed);
	assert_int_equal(a->n_members, 3);
	assert_int_equal(a->n_members_all, 3);
	assert_string_equal(a->members[0].name, "sdd6");
	assert_string_equal(a->members[1].name, "sda6");
	assert_string_equal(a->members[2].name, "sdb6");
}

static void test_seed_snapshot1(void **state)
{
	struct mdp_mdstat m = parse_ok(snap1);
	const struct mdp_mdstat_array *a;

	(void)state;
	assert_int_equal(m.n, 4);
	assert_md3(&m.arrays[0], 491263360, 251, 5198.4, 4687);
	a = mdp_mdstat_find(&m, "md2");
	assert_non_null(a);
	assert_string_equal(a->level, "raid5");
	assert_int_equal(a->blocks, 5846049792ULL);
	assert_int_equal(a->raid_disks, 4);
	assert_int_equal(a->working, 4);
	assert_string_equal(a->op, "");
	assert_int_equal(a->n_members, 4);
	assert_string_equal(a->members[2].name, "sdc5");
	a = mdp_mdstat_find(&m, "md0");
	assert_non_null(a);
	assert_string_equal(a->level, "raid1");
	assert_int_equal(a->blocks, 2490176);
	assert_int_equal(a->raid_disks, 4);
	assert_string_equal(a->members[0].name, "sdd1");
	assert_int_equal(mdp_mdstat_find(&m, "md1")->blocks, 2097088);
	assert_null(mdp_mdstat_find(&m, "md4"));
	mdp_mdstat_free(&m);
}

static void test_seed_snapshots234(void **state)
{
	struct mdp_mdstat m;

	(void)state;
	m = parse_ok(snap2);
	assert_int_equal(m.n, 1);
	assert_md3(&m.arrays[0], 509001728, 260, 1338.0, 17992);
	mdp_mdstat_free(&m);
	m = parse_ok(snap3);
	assert_md3(&m.arrays[0], 511295616, 261, 1001.1, 24008);
	mdp_mdstat_free(&m);
	m = parse_ok(snap4);
	assert_md3(&m.arrays[0], 1874314432, 959, 20.1, 65521);
	mdp_mdstat_free(&m);
}

static void test_not_nul_terminated(void **state)
{
	size_t n = strlen(snap1);
	char *copy = malloc(n);
	struct mdp_mdstat m = {0};

	(void)state;
	assert_non_null(copy);
	memcpy(copy, snap1, n); /* ASan catches a read past the end */
	assert_int_equal(mdp_mdstat_parse(copy, n, &m, NULL), 0);
	assert_int_equal(m.n, 4);
	mdp_mdstat_free(&m);
	free(copy);
}

static void test_kernel_shapes(void **state)
{
	static const char text[] =
	    "Personalities : [raid1] [raid6] [raid5] [raid4] [raid10] \n"
	    "md127 : inactive sdx[0](S) sdy[1](S)\n"
	    "      3906764976 blocks super 1.2\n"
	    "       \n"
	    "md5 : active (auto-read-only) raid1 sdb1[1] sda1[0](F)\n"
	    "      1047552 blocks super 1.2 [2/1] [U_]\n"
	    "      \tresync=PENDING\n"
	    "      bitmap: 0/1 pages [0KB], 65536KB chunk\n"
	    "\n"
	    "md6 : active raid1 sdc1[1] sdd1[0]\n"
	    "      1047552 blocks super 1.2 [2/2] [UU]\n"
	    "      \tresync=DELAYED\n"
	    "\n"
	    "md7 : active raid10 nvme1n1p1[1] nvme0n1p1[0]\n"
	    "      1953258496 blocks super 1.2 512K chunks 2 near-copies [2/2] [UU]\n"
	    "      [>....................]  recovery =  0.5% (10240/1953258496) "
	    "finish=3.4min speed=10240K/sec\n"
	    "\n"
	    "md8 : active raid6 sde[1] sdf[0]\n"
	    "      10 blocks super 1.2 level 6, 512k chunk, algorithm 2 [4/2] [UU__]\n"
	    "      [====================>]  check =100.0% (10/10) finish=0.0min speed=1K/sec\n"
	    "\n"
	    "md9 : active linear sdg[0]\n"
	    "      1000 blocks super 1.2 0k rounding\n"
	    "      \n"
	    "unused devices: sdz <none>\n";
	struct mdp_mdstat m = parse_ok(text);
	const struct mdp_mdstat_array *a;

	(void)state;
	assert_int_equal(m.n, 6);
	a = &m.arrays[0];
	assert_string_equal(a->name, "md127");
	assert_false(a->active);
	assert_string_equal(a->level, "");
	assert_int_equal(a->blocks, 3906764976ULL);
	assert_int_equal(a->n_members, 2);
	assert_string_equal(a->members[1].name, "sdy");
	a = &m.arrays[1];
	assert_true(a->active);
	assert_string_equal(a->level, "raid1");
	assert_int_equal(a->working, 1);
	assert_string_equal(a->op, "resync");
	assert_string_equal(a->op_state, "PENDING");
	assert_string_equal(m.arrays[2].op_state, "DELAYED");
	a = &m.arrays[3];
	assert_string_equal(a->op, "recovery");
	assert_int_equal(a->permille, 5);
	assert_int_equal(a->done, 10240);
	a = &m.arrays[4];
	assert_string_equal(a->op, "check");
	assert_int_equal(a->permille, 1000);
	assert_int_equal(a->raid_disks, 4);
	assert_int_equal(a->working, 2);
	assert_string_equal(m.arrays[5].level, "linear");
	assert_int_equal(m.arrays[5].raid_disks, 0);
	mdp_mdstat_free(&m);
}

static void test_many_members(void **state)
{
	char text[4096];
	struct mdp_mdstat m;
	int n = snprintf(text, sizeof(text), "Personalities : [raid6]\nmd0 : active raid6");

	(void)state;
	for (int i = 0; i < 40; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, " sda%d[%d]%s", i, i,
			      i == 35 ? "(F)" : "");
	snprintf(text + n, sizeof(text) - (size_t)n, "\n      10 blocks [40/39] [%s_]\n",
		 "UUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUU");
	m = parse_ok(text);
	assert_int_equal(m.arrays[0].n_members, MDP_MDSTAT_MEMBERS);
	assert_int_equal(m.arrays[0].n_members_all, 40);
	assert_int_equal(m.arrays[0].n_faulty, 1); /* counted beyond the names kept */
	assert_int_equal(m.arrays[0].missing, 1);
	assert_string_equal(m.arrays[0].members[31].name, "sda31");
	assert_int_equal(m.arrays[0].raid_disks, 40);
	mdp_mdstat_free(&m);
}

/* Each bad text alone, then followed by a good array that must survive it. */
#define GOOD_TAIL "\nmd9 : active raid1 sdz1[0]\n      10 blocks super 1.2 [1/1] [U]\n"

static void check_bad(const char *bad, size_t len)
{
	char text[512];
	struct mdp_mdstat m = {0};
	struct mdp_diags d;
	const struct mdp_mdstat_array *a;

	mdp_diags_init(&d);
	assert_int_equal(mdp_mdstat_parse(bad, len, &m, &d), 0);
	if (!m.notes || d.n != m.notes)
		fail_msg("no note for malformed input: %s", bad);
	assert_string_equal(d.v[0].file, "/proc/mdstat");
	assert_true(d.v[0].line > 0);
	mdp_mdstat_free(&m);
	mdp_diags_free(&d);
	assert_true(len + sizeof(GOOD_TAIL) < sizeof(text));
	memcpy(text, bad, len);
	memcpy(text + len, GOOD_TAIL, sizeof(GOOD_TAIL));
	assert_int_equal(mdp_mdstat_parse(text, len + sizeof(GOOD_TAIL) - 1, &m, NULL), 0);
	a = mdp_mdstat_find(&m, "md9");
	if (!a || a->blocks != 10 || a->working != 1 || strcmp(a->members[0].name, "sdz1"))
		fail_msg("a malformed line cost the next array: %s", bad);
	mdp_mdstat_free(&m);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
	    /* the seed's first listing, flattened onto one line by the blog */
	    "cat /proc/mdstat Personalities : [raid1] md0 : active raid1 sdb1[1] sda1[0] "
	    "104320 blocks [2/2] [UU]",
	    "md0 : active raid1 sda1[0]\n",                     /* no personalities line */
	    "Personalities : [raid1]\n      10 blocks [2/2]\n", /* indented line first */
	    "Personalities : [raid1]\nmd0 active raid1 sda1[0]\n",
	    "Personalities : [raid1]\nmd0 : running raid1 sda1[0]\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[x]\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0](SS)\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0](X)\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0] stray\n",
	    "Personalities : [raid1]\nmd0 : inactive (read-only) sda1[0]\n",
	    "Personalities : [raid1]\nmd0 : active raid1 "
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa[0]\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      12x blocks\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      99999999999999999999999 "
	    "blocks\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      10 blocks [2/x] [UU]\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      10 blocks [2/2] [UX]\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      [==>..]  resync = 10.1% "
	    "finish=1.0min\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      [==>..]  resync = 101.0% "
	    "(1/2)\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      [==>..]  resync = 1.0% "
	    "(1/2) speed=12M/sec\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      [==x..]  resync = 1.0% "
	    "(1/2)\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      [==>..]  scrub = 1.0% "
	    "(1/2)\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      [==>..]  resync = 1.0% "
	    "(1/2) finish=1.xmin\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      resync=LATER\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\n      bitmap: x/1 pages\n",
	    "Personalities : [raid1]\nmd0 : active raid1 sda1[0]\nmd0 : active raid1 sdb1[0]\n",
	    "Personalities : [raid1]\ngarbage\n",
	};
	struct mdp_mdstat m = {.n = 12345};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check_bad(bad[i], strlen(bad[i]));
	check_bad("Personalities : []\nmd0 : act\0ive raid1\n", 38);
	assert_int_equal(mdp_mdstat_parse("", 0, &m, NULL), 0); /* empty: no arrays, no notes */
	assert_int_equal(m.n, 0);
	assert_int_equal(m.notes, 0);
	mdp_mdstat_free(&m);
	assert_int_equal(mdp_mdstat_parse(NULL, 0, &m, NULL), -EINVAL);
}

/* ---- the fixture corpus ---------------------------------------------------- */

static void dump_array(FILE *f, const struct mdp_mdstat_array *a)
{
	fprintf(f, "%s line=%u state=%s ro=%s level=%s blocks=%llu super=%s container=%d", a->name,
		a->line, a->state, a->ro, a->level, (unsigned long long)a->blocks, a->super,
		a->container);
	fprintf(f, " disks=%d/%d missing=%d op=%s op_state=%s done=%llu total=%llu permille=%u",
		a->raid_disks, a->working, a->missing, a->op, a->op_state,
		(unsigned long long)a->done, (unsigned long long)a->total, a->permille);
	fprintf(f, " finish=%.1f speed=%llu bitmap=%d/%llu/%llu members=", a->finish_min,
		(unsigned long long)a->speed_kib, a->bitmap, (unsigned long long)a->bitmap_pages,
		(unsigned long long)a->bitmap_pages_total);
	for (size_t i = 0; i < a->n_members; i++)
		fprintf(f, "%s%s[%d]%s%s%s%s%s%s", i ? "," : "", a->members[i].name,
			a->members[i].desc, a->members[i].flags & MDP_MS_WRITEMOSTLY ? "(W)" : "",
			a->members[i].flags & MDP_MS_JOURNAL ? "(J)" : "",
			a->members[i].flags & MDP_MS_FAULTY ? "(F)" : "",
			a->members[i].flags & MDP_MS_SPARE ? "(S)" : "",
			a->members[i].flags & MDP_MS_REPLACEMENT ? "(R)" : "",
			a->members[i].flags & MDP_MS_ERROR ? "(E)" : "");
	fprintf(f, " all=%zu faulty=%zu spare=%zu\n", a->n_members_all, a->n_faulty, a->n_spare);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = calloc(1, 65536);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, 65535, f);
	fclose(f);
	return buf;
}

/* The parse of one fixture, as text. */
static char *dump_fixture(const char *path)
{
	struct mdp_mdstat m;
	struct mdp_diags d;
	char *text, *out = NULL;
	size_t len, olen = 0;
	FILE *f = open_memstream(&out, &olen);

	text = slurp(path, &len);
	mdp_diags_init(&d);
	assert_int_equal(mdp_mdstat_parse(text, len, &m, &d), 0);
	for (size_t i = 0; i < m.n; i++)
		dump_array(f, &m.arrays[i]);
	for (size_t i = 0; i < d.n; i++)
		fprintf(f, "note %s:%u: %s\n", d.v[i].file, d.v[i].line, d.v[i].msg);
	fclose(f);
	mdp_mdstat_free(&m);
	mdp_diags_free(&d);
	free(text);
	return out;
}

static void check_fixture(const char *dir, const char *name)
{
	char path[2048], *got, *want;
	size_t n = strlen(name), len;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) - 8)
		fail_msg("fixture path too long");
	got = dump_fixture(path);
	snprintf(path + strlen(path) - 4, 8, ".expect");
	want = slurp(path, &len);
	if (strcmp(got, want))
		fail_msg("%.*s: parse differs from its .expect:\n--- got\n%s--- want\n%s", (int)n,
			 name, got, want);
	free(got);
	free(want);
}

static void test_fixtures(void **state)
{
	const char *src = getenv("MDP_SRCDIR");
	char dir[1024];
	struct dirent *e;
	DIR *dp;
	int n = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/mdstat", src ? src : ".");
	assert_non_null(dp = opendir(dir));
	while ((e = readdir(dp))) {
		size_t l = strlen(e->d_name);
		if (l > 4 && !strcmp(e->d_name + l - 4, ".txt")) {
			check_fixture(dir, e->d_name);
			n++;
		}
	}
	closedir(dp);
	assert_true(n >= 15);
}

MDP_TEST_MAIN(test_seed_snapshot1, test_seed_snapshots234, test_not_nul_terminated,
	      test_kernel_shapes, test_many_members, test_malformed, test_fixtures)
