/*
 * Unit tests of smart: smartctl's brief and long attribute tables, its
 * health lines (ATA, NVMe, SCSI), NVMe's warning and media errors with
 * thousands separators, the exit status's bits (failing, below threshold,
 * standby), what is no SMART at all (a virtio disk), the summary line, and
 * the real smartctl's answers from QEMU's emulated IDE and NVMe disks, a running
 * self-test, a disk's temperature (ATA 194/190, NVMe) and the one call that asks both.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "smart.h"
#include "smart_int.h"
#include "support.h"

#define HEAD                                                                                       \
	"smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0-13-amd64] (local build)\n"              \
	"Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n\n"

static void parse(const char *t, int status, struct mdp_smart *s)
{
	mdp_smart_parse(t, strlen(t), status, s);
}

/* s was read, with health h and raw counts of attributes 5, 197, 198, 199 (-1 unreported) */
static void expect_read(const struct mdp_smart *s, enum mdp_smart_health h, int64_t realloc,
			int64_t pending, int64_t unc, int64_t crc)
{
	assert_int_equal(s->state, MDP_SMART_READ);
	assert_int_equal(s->health, h);
	assert_int_equal(s->reallocated, realloc);
	assert_int_equal(s->pending, pending);
	assert_int_equal(s->offline_unc, unc);
	assert_int_equal(s->crc, crc);
}

/* s's summary line for disk is want */
static void expect_line(const struct mdp_smart *s, const char *disk, const char *want)
{
	char line[256];

	mdp_smart_describe(s, disk, line, sizeof(line));
	assert_string_equal(line, want);
}

static void test_ata_brief(void **state)
{
	struct mdp_smart s;

	(void)state;
	parse(HEAD
	      "=== START OF READ SMART DATA SECTION ===\n"
	      "SMART overall-health self-assessment test result: PASSED\n\n"
	      "SMART Attributes Data Structure revision number: 16\n"
	      "Vendor Specific SMART Attributes with Thresholds:\n"
	      "ID# ATTRIBUTE_NAME          FLAGS    VALUE WORST THRESH FAIL RAW_VALUE\n"
	      "  5 Reallocated_Sector_Ct   PO--CK   200   200   140    -    24\n"
	      "194 Temperature_Celsius     -O---K   118   105   000    -    34 (Min/Max 20/45)\n"
	      "197 Current_Pending_Sector  -O--CK   200   200   000    -    8\n"
	      "198 Offline_Uncorrectable   ----CK   100   253   000    -    0\n"
	      "199 UDMA_CRC_Error_Count    -O--CK   200   200   000    -    3\n"
	      "                            ||||||_ K auto-keep\n",
	      0, &s);
	expect_read(&s, MDP_SMART_PASSED, 24, 8, 0, 3);
	assert_int_equal(s.nvme_warning, -1);
	assert_true(mdp_smart_failing(&s)); /* pending sectors */
	expect_line(&s, "sdc",
		    "sdc: SMART PASSED, 8 sectors pending (197), 24 reallocated (5), 3 "
		    "interface CRC errors (199: cable or backplane)");
}

static void test_ata_long_failed(void **state)
{
	struct mdp_smart s;

	(void)state;
	/* the long table: the raw value is the 10th column; exit 8|16 */
	parse(HEAD "SMART overall-health self-assessment test result: FAILED!\n"
		   "Drive failure expected in less than 24 hours. SAVE ALL DATA.\n"
		   "ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  "
		   "WHEN_FAILED RAW_VALUE\n"
		   "  5 Reallocated_Sector_Ct   0x0033   001   001   005    Pre-fail  Always   "
		   "FAILING_NOW 4008\n"
		   "197 Current_Pending_Sector  0x0012   100   100   000    Old_age   Always       "
		   "-       0\n",
	      24, &s);
	expect_read(&s, MDP_SMART_FAILED, 4008, 0, -1, -1);
	assert_true(s.below_threshold);
	assert_true(mdp_smart_failing(&s));
	expect_line(&s, "sdb",
		    "sdb: SMART FAILED, a pre-failure attribute below threshold, 4008 "
		    "reallocated (5)");
}

static void test_healthy_is_not_failing(void **state)
{
	struct mdp_smart s;

	(void)state;
	parse(HEAD "SMART overall-health self-assessment test result: PASSED\n"
		   "  5 Reallocated_Sector_Ct   PO--CK   200   200   140    -    0\n"
		   "197 Current_Pending_Sector  -O--CK   200   200   000    -    0\n",
	      0, &s);
	expect_read(&s, MDP_SMART_PASSED, 0, 0, -1, -1);
	assert_false(mdp_smart_failing(&s));
	/* exit bit 8 alone says failing, whatever the text */
	parse(HEAD "SMART overall-health self-assessment test result: PASSED\n", 8, &s);
	assert_int_equal(s.health, MDP_SMART_FAILED);
	assert_true(mdp_smart_failing(&s));
	/* SCSI's line */
	parse(HEAD "SMART Health Status: OK\n", 0, &s);
	assert_int_equal(s.health, MDP_SMART_PASSED);
	parse(HEAD "SMART Health Status: FAILURE PREDICTION THRESHOLD EXCEEDED [asc=5d]\n", 0, &s);
	assert_int_equal(s.health, MDP_SMART_FAILED);
}

static void test_nvme(void **state)
{
	struct mdp_smart s;

	(void)state;
	parse(HEAD "=== START OF SMART DATA SECTION ===\n"
		   "SMART overall-health self-assessment test result: PASSED\n\n"
		   "SMART/Health Information (NVMe Log 0x02)\n"
		   "Critical Warning:                   0x00\n"
		   "Data Units Read:                    12,345,678 [6.32 TB]\n"
		   "Media and Data Integrity Errors:    1,024\n",
	      0, &s);
	assert_int_equal(s.state, MDP_SMART_READ);
	assert_int_equal(s.nvme_warning, 0);
	assert_int_equal(s.nvme_media_errors, 1024);
	assert_int_equal(s.reallocated, -1);
	assert_true(mdp_smart_failing(&s));
	parse(HEAD "SMART overall-health self-assessment test result: FAILED!\n"
		   "Critical Warning:                   0x04\n"
		   "Media and Data Integrity Errors:    0\n",
	      8, &s);
	assert_int_equal(s.nvme_warning, 4);
	expect_line(&s, "nvme0n1", "nvme0n1: SMART FAILED, critical warning 0x04");
}

/*
 * smartctl 7.3 on QEMU's ide-hd and nvme in the VM lab (96-smart, Debian 12's 6.1 kernel),
 * exactly as printed: the brief table with attributes 1-12 and 190 and none of 197-199,
 * and the NVMe log's every line.
 */
static void test_qemu_real(void **state)
{
	struct mdp_smart s;

	(void)state;
	parse("smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0-57-amd64] (local build)\n"
	      "Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n\n"
	      "=== START OF READ SMART DATA SECTION ===\n"
	      "SMART overall-health self-assessment test result: PASSED\n\n"
	      "SMART Attributes Data Structure revision number: 1\n"
	      "Vendor Specific SMART Attributes with Thresholds:\n"
	      "ID# ATTRIBUTE_NAME          FLAGS    VALUE WORST THRESH FAIL RAW_VALUE\n"
	      "  1 Raw_Read_Error_Rate     PO----   100   100   006    -    0\n"
	      "  3 Spin_Up_Time            PO----   100   100   000    -    16\n"
	      "  4 Start_Stop_Count        -O----   100   100   020    -    100\n"
	      "  5 Reallocated_Sector_Ct   PO----   100   100   036    -    0\n"
	      "  9 Power_On_Hours          PO----   100   100   000    -    1\n"
	      " 12 Power_Cycle_Count       PO----   100   100   000    -    0\n"
	      "190 Airflow_Temperature_Cel PO----   069   069   050    -    31 (Min/Max 31/31)\n"
	      "                            ||||||_ K auto-keep\n"
	      "                            |||||__ C event count\n"
	      "                            ||||___ R error rate\n"
	      "                            |||____ S speed/performance\n"
	      "                            ||_____ O updated online\n"
	      "                            |______ P prefailure warning\n\n",
	      0, &s);
	expect_read(&s, MDP_SMART_PASSED, 0, -1, -1, -1); /* 197-199 not emulated */
	assert_false(mdp_smart_failing(&s));
	expect_line(&s, "sda", "sda: SMART PASSED");
	parse("smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0-57-amd64] (local build)\n"
	      "Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n\n"
	      "=== START OF SMART DATA SECTION ===\n"
	      "SMART overall-health self-assessment test result: PASSED\n\n"
	      "SMART/Health Information (NVMe Log 0x02)\n"
	      "Critical Warning:                   0x00\n"
	      "Temperature:                        50 Celsius\n"
	      "Available Spare:                    0%\n"
	      "Available Spare Threshold:          0%\n"
	      "Percentage Used:                    0%\n"
	      "Data Units Read:                    1 [512 KB]\n"
	      "Data Units Written:                 0\n"
	      "Host Read Commands:                 3\n"
	      "Host Write Commands:                0\n"
	      "Controller Busy Time:               0\n"
	      "Power Cycles:                       0\n"
	      "Power On Hours:                     0\n"
	      "Unsafe Shutdowns:                   0\n"
	      "Media and Data Integrity Errors:    0\n"
	      "Error Information Log Entries:      0\n"
	      "Warning  Comp. Temperature Time:    0\n"
	      "Critical Comp. Temperature Time:    0\n\n",
	      0, &s);
	expect_read(&s, MDP_SMART_PASSED, -1, -1, -1, -1);
	assert_int_equal(s.nvme_warning, 0);
	assert_int_equal(s.nvme_media_errors, 0);
	assert_false(mdp_smart_failing(&s));
}

static void test_no_smart(void **state)
{
	struct mdp_smart s;

	(void)state;
	parse(HEAD "Device is in STANDBY mode, exit(2)\n", 2, &s);
	assert_int_equal(s.state, MDP_SMART_STANDBY);
	assert_false(mdp_smart_failing(&s));
	/* Debian's smartctl on a virtio disk, as run here (the VM lab's 96-smart: the same) */
	parse(HEAD "/dev/vda: Unable to detect device type\n"
		   "Please specify device type with the -d option.\n\n"
		   "Use smartctl -h to get a usage summary\n\n",
	      1, &s);
	assert_int_equal(s.state, MDP_SMART_UNAVAILABLE);
	assert_false(mdp_smart_failing(&s));
	/* the legend and other numbered lines that are no attribute rows */
	parse("  1 too few\n300 Bogus x 1 2 3 - 5\nID# x y z a b c d\n", 0, &s);
	assert_int_equal(s.state, MDP_SMART_UNAVAILABLE);
	mdp_smart_parse(NULL, 0, 0, &s);
	assert_int_equal(s.state, MDP_SMART_UNAVAILABLE);
	/* a line longer than the parser reads is skipped, not cut into a false row */
	{
		char big[600];
		memset(big, ' ', sizeof(big));
		memcpy(big + 500, "\n197 Current_Pending_Sector -O--CK 200 200 000 - 9\n", 52);
		big[552] = '\0';
		parse(big, 0, &s);
		assert_int_equal(s.pending, 9);
	}
}

/* ---- a running self-test ---- */

/* smartctl -c's General SMART Values on an ATA disk, the self-test status byte b and its
 * words as ataprint.cpp prints them. */
#define ATA_C(b, words)                                                                            \
	HEAD "=== START OF READ SMART DATA SECTION ===\n"                                          \
	     "General SMART Values:\n"                                                             \
	     "Offline data collection status:  (0x82)\tOffline data collection activity\n"         \
	     "\t\t\t\t\twas completed without error.\n"                                            \
	     "\t\t\t\t\tAuto Offline Data Collection: Enabled.\n"                                  \
	     "Self-test execution status:      (" b ")\t" words "\n"                               \
	     "Total time to complete Offline \n"                                                   \
	     "data collection: \t\t(  600) seconds.\n"                                             \
	     "Extended self-test routine\n"                                                        \
	     "recommended polling time: \t ( 587) minutes.\n"

static void test_parse(const char *t, int status, struct mdp_selftest *st)
{
	mdp_smart_selftest_parse(t, strlen(t), status, st);
}

static void expect_test(const struct mdp_selftest *st, enum mdp_selftest_state state,
			const char *kind, int left)
{
	assert_int_equal(st->state, state);
	assert_string_equal(st->kind, kind);
	assert_int_equal(st->left, left);
}

static void test_selftest_ata(void **state)
{
	struct mdp_selftest st;
	char line[80];

	(void)state;
	/* 0xf9: in progress, 90% left; 0xf3: 30% */
	test_parse(ATA_C(" 249", "Self-test routine in progress...\n\t\t\t\t\t90% of test "
				 "remaining."),
		   0, &st);
	expect_test(&st, MDP_SELFTEST_RUNNING, "", 90);
	mdp_smart_selftest_describe(&st, "sdb", line, sizeof(line));
	assert_string_equal(line, "sdb: SMART self-test, 90% left");
	test_parse(ATA_C(" 243", "Self-test routine in progress...\n\t\t\t\t\t30% of test "
				 "remaining."),
		   0, &st);
	expect_test(&st, MDP_SELFTEST_RUNNING, "", 30);
	/* 0xfe: running, its tenths out of range (a drive's own value): how far is unknown */
	test_parse(ATA_C(" 254", "Self-test routine in progress...\n\t\t\t\t\t140% of test "
				 "remaining."),
		   0, &st);
	expect_test(&st, MDP_SELFTEST_RUNNING, "", -1);
	/* the last test's ends: completed, aborted, interrupted, failed (read element) */
	test_parse(ATA_C("   0", "The previous self-test routine completed\n\t\t\t\t\twithout "
				 "error or no self-test has ever \n\t\t\t\t\tbeen run."),
		   0, &st);
	expect_test(&st, MDP_SELFTEST_IDLE, "", -1);
	test_parse(ATA_C("  16", "The self-test routine was aborted by\n\t\t\t\t\tthe host."), 0,
		   &st);
	expect_test(&st, MDP_SELFTEST_IDLE, "", -1);
	test_parse(ATA_C("  32", "The self-test routine was interrupted\n\t\t\t\t\tby the host "
				 "with a hard or soft reset."),
		   0, &st);
	expect_test(&st, MDP_SELFTEST_IDLE, "", -1);
	test_parse(ATA_C(" 116", "The previous self-test completed having\n\t\t\t\t\tthe read "
				 "element of the test failed."),
		   64, &st);
	expect_test(&st, MDP_SELFTEST_IDLE, "", -1);
	/* BUG_SAMSUNG3: 0xf0 kept after a test, said as completed */
	test_parse(ATA_C(" 240", "The previous self-test routine completed\n\t\t\t\t\twith "
				 "unknown result or self-test in\n\t\t\t\t\tprogress with less "
				 "than 10% remaining."),
		   0, &st);
	expect_test(&st, MDP_SELFTEST_IDLE, "", -1);
	/* asleep, left asleep (-n standby): no test */
	test_parse(HEAD "Device is in STANDBY mode, exit(2)\n", 2, &st);
	expect_test(&st, MDP_SELFTEST_ASLEEP, "", -1);
	test_parse(HEAD "Device is in SLEEP mode, exit(2)\n", 2, &st);
	expect_test(&st, MDP_SELFTEST_ASLEEP, "", -1);
}

/* smartctl -l selftest on an NVMe namespace, as nvmeprint.cpp prints it. */
#define NVME_L(status)                                                                             \
	HEAD                                                                                       \
	    "=== START OF SMART DATA SECTION ===\n"                                                \
	    "Self-test Log (NVMe Log 0x06, NSID 0xffffffff)\n"                                     \
	    "Self-test status: " status "\n"                                                       \
	    "Num  Test_Description  Status                       Power_on_Hours  Failing_LBA  "    \
	    "NSID Seg SCT Code\n"                                                                  \
	    " 0   Short             Completed without error                4321            -     " \
	    "    -   -   -    -\n\n"

static void test_selftest_nvme(void **state)
{
	struct mdp_selftest st;
	char line[80];

	(void)state;
	test_parse(NVME_L("No self-test in progress"), 0, &st);
	expect_test(&st, MDP_SELFTEST_IDLE, "", -1);
	test_parse(NVME_L("Short self-test in progress (40% completed)"), 0, &st);
	expect_test(&st, MDP_SELFTEST_RUNNING, "short", 60);
	test_parse(NVME_L("Extended self-test in progress (70% completed)"), 0, &st);
	expect_test(&st, MDP_SELFTEST_RUNNING, "extended", 30);
	mdp_smart_selftest_describe(&st, "nvme0n1", line, sizeof(line));
	assert_string_equal(line, "nvme0n1: SMART extended self-test, 30% left");
	test_parse(NVME_L("Vendor specific self-test in progress (0% completed)"), 0, &st);
	expect_test(&st, MDP_SELFTEST_RUNNING, "vendor specific", 100);
	/* an operation the spec reserves: some test runs */
	test_parse(NVME_L("Unknown status (0x5) (12% completed)"), 0, &st);
	expect_test(&st, MDP_SELFTEST_RUNNING, "", 88);
	mdp_smart_selftest_describe(&st, "nvme1n1", line, sizeof(line));
	assert_string_equal(line, "nvme1n1: SMART self-test, 88% left");
	/* a percent that is no percent: running, how far not said */
	test_parse(NVME_L("Extended self-test in progress (170% completed)"), 0, &st);
	expect_test(&st, MDP_SELFTEST_RUNNING, "extended", -1);
}

/* What says nothing of a test: no SMART, garbage, a status byte that is none, nothing. */
static void test_selftest_garbage(void **state)
{
	struct mdp_selftest st;

	(void)state;
	test_parse(HEAD "/dev/vda: Unable to detect device type\n", 1, &st);
	expect_test(&st, MDP_SELFTEST_UNREAD, "", -1);
	test_parse("Self-test routine in progress...\n90% of test remaining.\n", 0, &st);
	expect_test(&st, MDP_SELFTEST_UNREAD, "", -1);
	test_parse("Self-test execution status: (999)\tSelf-test routine in progress...\n", 0, &st);
	expect_test(&st, MDP_SELFTEST_IDLE, "", -1);
	test_parse("Self-test execution status: 249 in progress\n", 0, &st);
	expect_test(&st, MDP_SELFTEST_IDLE, "", -1);
	test_parse("STANDBY\n", 0, &st); /* not smartctl's exit 2 */
	expect_test(&st, MDP_SELFTEST_UNREAD, "", -1);
	mdp_smart_selftest_parse(NULL, 0, 2, &st);
	expect_test(&st, MDP_SELFTEST_UNREAD, "", -1);
}

/* ---- a disk's temperature (smartctl -A) ---- */

#define ATA_LONG_TABLE                                                                             \
	"ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED "  \
	"RAW_VALUE\n"                                                                              \
	"  9 Power_On_Hours          0x0032   054   054   000    Old_age   Always       -       "  \
	"34004\n"

static int temp_of(const char *t, int status)
{
	int c = -1000, err = mdp_smart_temp_parse(t, t ? strlen(t) : 0, status, &c);

	return err ? err : c;
}

static void test_temp(void **state)
{
	(void)state;
	/* ATA, the long table: 194's raw value's first number, its Min/Max beside it */
	assert_int_equal(
	    temp_of(HEAD ATA_LONG_TABLE
		    "190 Airflow_Temperature_Cel 0x0022   064   055   045    Old_age   "
		    "Always       -       36\n"
		    "194 Temperature_Celsius     0x0022   036   045   000    Old_age   "
		    "Always       -       38 (Min/Max 21/45)\n",
		    0),
	    38);
	/* 190 only */
	assert_int_equal(
	    temp_of(HEAD ATA_LONG_TABLE
		    "190 Airflow_Temperature_Cel 0x0022   064   055   045    Old_age   "
		    "Always       -       36 (Min/Max 24/45)\n",
		    0),
	    36);
	/* -f brief's table */
	assert_int_equal(temp_of(HEAD
				 "194 Temperature_Celsius     -O---K   118   105   000    -    "
				 "34\n",
				 0),
			 34);
	/* NVMe's composite temperature, not a sensor's or a threshold */
	assert_int_equal(temp_of(HEAD "Warning  Comp. Temp. Threshold:     70 Celsius\n"
				      "Temperature:                        41 Celsius\n"
				      "Temperature Sensor 1:               47 Celsius\n",
				 0),
			 41);
	/* asleep (-n standby: exit 2): unknown, not woken */
	assert_int_equal(temp_of(HEAD "Device is in STANDBY mode, exit(2)\n", 2), -EAGAIN);
	/* none: no SMART, NVMe without a sensor ("-"), a packed raw value, nothing */
	assert_int_equal(temp_of(HEAD "/dev/vda: Unable to detect device type\n", 1), -ENOENT);
	assert_int_equal(temp_of("Temperature:                        -\n", 0), -ENOENT);
	assert_int_equal(temp_of("194 Temperature_Celsius -O---K 100 100 000 - 171798691870\n", 0),
			 -ENOENT);
	assert_int_equal(temp_of(HEAD ATA_LONG_TABLE, 0), -ENOENT);
	assert_int_equal(temp_of(NULL, 2), -ENOENT);
}

/* The one smartctl call: what is asked of which kind of disk (the root carries the record). */
struct look_root {
	struct mdp_root r;
	char ran[128];
};

static int fake_exec(const struct mdp_root *r, const char *const argv[], unsigned timeout_ms,
		     struct mdp_exec_result *res, struct mdp_diags *d)
{
	char *ran = ((struct look_root *)(void *)(uintptr_t)r)->ran;
	size_t cap = sizeof(((struct look_root *)0)->ran);

	(void)timeout_ms;
	(void)d;
	ran[0] = '\0';
	for (size_t i = 0; argv[i]; i++)
		snprintf(ran + strlen(ran), cap - strlen(ran), "%s%s", i ? " " : "", argv[i]);
	memset(res, 0, sizeof(*res));
	snprintf(res->out, sizeof(res->out), "%s",
		 "Self-test status: No self-test in progress\n"
		 "Temperature:                        44 Celsius\n");
	res->out_len = strlen(res->out);
	return 0;
}

static void test_look_run(void **state)
{
	struct look_root lr = {0};
	const struct mdp_root *r = &lr.r;
	const char *ran = lr.ran;
	struct mdp_smart_look l;

	(void)state;
	assert_int_equal(mdp_smart_look_run(r, "nvme0n1", fake_exec,
					    MDP_SMART_ASK_TEST | MDP_SMART_ASK_TEMP, &l, NULL),
			 0);
	assert_string_equal(ran, "smartctl -n standby -l selftest -A /dev/nvme0n1");
	assert_int_equal(l.test.state, MDP_SELFTEST_IDLE);
	assert_int_equal(l.temp, 0);
	assert_int_equal(l.temp_c, 44);
	assert_int_equal(mdp_smart_look_run(r, "sdb", fake_exec, MDP_SMART_ASK_TEST, &l, NULL), 0);
	assert_string_equal(ran, "smartctl -n standby -c /dev/sdb");
	assert_int_equal(l.temp, -ENOENT); /* not asked */
	assert_int_equal(mdp_smart_look_run(r, "sdb", fake_exec, MDP_SMART_ASK_TEMP, &l, NULL), 0);
	assert_string_equal(ran, "smartctl -n standby -A /dev/sdb");
	assert_int_equal(l.test.state, MDP_SELFTEST_UNREAD); /* not asked */
	assert_int_equal(mdp_smart_look_run(r, "../sdb", fake_exec, MDP_SMART_ASK_TEMP, &l, NULL),
			 -EINVAL);
}

MDP_TEST_MAIN(test_ata_brief, test_ata_long_failed, test_healthy_is_not_failing, test_nvme,
	      test_qemu_real, test_no_smart, test_selftest_ata, test_selftest_nvme,
	      test_selftest_garbage, test_temp, test_look_run)
