/*
 * smart: a disk's health as smartctl (smartmontools) reports it, for
 * explain's member rule (issue 39: a failing disk named, so that no finding
 * recommends pushing it harder).
 *
 * explain runs `smartctl -n standby -H -A -f brief /dev/DISK` once per
 * member disk after its window, as root only, through exec (the tool found
 * on MDP_EXEC_PATH: Debian's smartmontools installs /usr/sbin/smartctl; DSM
 * ships its own build, which public DSM scripts call as /usr/bin/smartctl).
 * `-n standby` never spins a sleeping disk up; `-f brief` keeps the
 * attribute table inside exec's output buffer; -H and -A print no serial
 * number, so a capture stays fit to attach to a report.
 *
 * What is read, from smartctl's man page and its output (7.3 here; DSM's
 * 6.x prints the same lines):
 * - the health line: "SMART overall-health self-assessment test result:
 *   PASSED" (ATA, NVMe) or "FAILED!"; SCSI's "SMART Health Status: OK";
 * - ATA attributes by number, their raw value: 5 reallocated sectors,
 *   197 pending (unreadable, waiting for a write), 198 offline
 *   uncorrectable, 199 UDMA CRC errors (the cable or backplane). The brief
 *   table's raw value is its 8th column, the long table's its 10th;
 * - NVMe's "Critical Warning: 0x00" and "Media and Data Integrity Errors: 0";
 * - the exit status, a bit mask: 2 the device could not be opened or is in
 *   standby (-n), 8 "DISK FAILING", 16 a pre-failure attribute at or below
 *   its threshold now.
 */
#ifndef MDP_SMART_H
#define MDP_SMART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_base.h"

#define MDP_SMART_TIMEOUT_MS 5000 /* a disk that has not answered by then is noted */

enum mdp_smart_state {
	MDP_SMART_NOT_READ = 0, /* not asked: no smartctl, not root, a capture without it */
	MDP_SMART_READ,         /* health or attributes read */
	MDP_SMART_STANDBY,      /* asleep, left asleep (-n standby) */
	MDP_SMART_NO_ANSWER,    /* smartctl still ran after MDP_SMART_TIMEOUT_MS */
	MDP_SMART_UNAVAILABLE,  /* smartctl ran, no SMART data (a virtual disk, a bridge) */
};

enum mdp_smart_health {
	MDP_SMART_HEALTH_UNKNOWN = 0,
	MDP_SMART_PASSED,
	MDP_SMART_FAILED,
};

struct mdp_smart {
	enum mdp_smart_state state;
	enum mdp_smart_health health;
	bool below_threshold; /* exit bit 16: a pre-failure attribute fails now */
	/* raw values; -1 where the disk does not report it */
	int64_t reallocated, pending, offline_unc, crc;
	int64_t nvme_warning, nvme_media_errors;
};

/*
 * Parse smartctl's output (text, len bytes) and exit status into out.
 * Always fills out (state UNAVAILABLE when neither a health line nor an
 * attribute was found); never fails.
 */
void mdp_smart_parse(const char *text, size_t len, int exit_status, struct mdp_smart *out);

/* Does this disk's report say it is failing: health FAILED, an attribute
 * below threshold, pending or uncorrectable sectors, an NVMe warning or media errors? */
bool mdp_smart_failing(const struct mdp_smart *s);

/*
 * The one-line summary of s for disk ("sdc: SMART FAILED, 8 sectors pending,
 * 24 reallocated") into buf; what is zero or unreported is left out.
 */
void mdp_smart_describe(const struct mdp_smart *s, const char *disk, char *buf, size_t cap);

/*
 * Run smartctl on /dev/disk under root r (a fixture root runs its own
 * fake, as exec does). out gets the result; *text and *len what smartctl
 * printed (malloc'd, for a capture; NULL when it did not run) and *status
 * its exit status. -ENOENT when there is no smartctl, -ENOMEM; a refusal
 * or a tool that could not be started is a diag in d and -errno.
 */
int mdp_smart_run(const struct mdp_root *r, const char *disk, struct mdp_smart *out, char **text,
		  size_t *len, int *status, struct mdp_diags *d);

/*
 * A running self-test, for the watcher's defer_to smart-selftest (issue 49): a check and a
 * long self-test both read the whole disk and slow each other down. What smartctl prints
 * for it, from smartmontools' source (7.x; its lines are older than DSM's 6.x build):
 * - ATA, `smartctl -c` (src/ataprint.cpp, PrintSmartSelfExecStatus): a line
 *   "Self-test execution status:      (%4d)\t" with the self-test status byte in decimal,
 *   then its meaning; a high nibble of 15 is "Self-test routine in progress..." and the
 *   low nibble the tenths left, on the next line as "N0% of test remaining.". The others
 *   say the last test's end: 0 completed (or none ever ran), 1 aborted, 2 interrupted,
 *   3 to 8 completed with an error. Firmware with smartmontools' BUG_SAMSUNG3 keeps 0xf0
 *   after a test; smartctl then prints "The previous self-test routine completed" on that
 *   line, which is taken as no test. The byte does not say which test runs.
 * - NVMe, `smartctl -l selftest` (src/nvmeprint.cpp, print_self_test_log): a line
 *   "Self-test status: " then "No self-test in progress", "Short self-test in progress",
 *   "Extended self-test in progress", "Vendor specific self-test in progress" or
 *   "Unknown status (0xN)" (an operation the spec reserves), and while one runs
 *   " (N% completed)".
 * - `-n standby` (ATA): a disk asleep is not woken; smartctl prints "Device is in STANDBY
 *   mode, exit(2)" (SLEEP, STANDBY_Y) and exits 2. A disk asleep runs no test. NVMe
 *   ignores -n: reading its log spins nothing up.
 * The kind of disk is told by its name: nvmeXnY is NVMe, any other ATA (or a disk
 * smartctl answers -c for without the line: no test seen).
 */
enum mdp_selftest_state {
	MDP_SELFTEST_UNREAD = 0, /* no status line: no SMART, no answer, not asked */
	MDP_SELFTEST_IDLE,       /* none runs */
	MDP_SELFTEST_RUNNING,
	MDP_SELFTEST_ASLEEP, /* -n standby: asleep, left asleep, so none runs */
};

struct mdp_selftest {
	enum mdp_selftest_state state;
	char kind[16]; /* running: "short", "extended", "vendor specific"; "" not said (ATA) */
	int left;      /* running: the percent of the test left; -1 not said */
};

/* How a tool is run (exec.h's mdp_exec_run, or a test's). */
typedef int mdp_smart_exec_fn(const struct mdp_root *r, const char *const argv[],
			      unsigned timeout_ms, struct mdp_exec_result *res,
			      struct mdp_diags *d);

/*
 * A disk's temperature, for the watcher's heat rule where drivetemp (hwmon) has none (issue
 * 49), from smartctl's -A (smartmontools 7.x source):
 * - ATA (src/ataprint.cpp, the attribute table): attribute 194 Temperature_Celsius, else 190
 *   Airflow_Temperature_Cel; smartctl formats their raw value with the Celsius first, then
 *   what the drive keeps beside it: "36 (Min/Max 21/45)". The first number is read, from
 *   the long table (the raw value in the tenth column) or -f brief's (the eighth). A first
 *   number above 150 is a vendor's packed raw value, not read.
 * - NVMe (src/nvmeprint.cpp, the SMART/Health Information log): "Temperature:" then the
 *   composite temperature, "36 Celsius" ("-" when the controller has none).
 * - `-n standby`: an ATA disk asleep is left asleep (exit 2, as above); its temperature is
 *   then unknown, and a disk asleep is not hot.
 * smart_int.h's mdp_smart_temp_parse reads it.
 */

/* What the watcher asks smartctl of a disk, in one call: */
#define MDP_SMART_ASK_TEST 1u /* whether a self-test runs: -c (ATA), -l selftest (nvme*) */
#define MDP_SMART_ASK_TEMP 2u /* its temperature: -A */

struct mdp_smart_look {
	struct mdp_selftest test; /* MDP_SMART_ASK_TEST */
	int temp;                 /* MDP_SMART_ASK_TEMP: mdp_smart_temp_parse's answer */
	int temp_c;               /* temp 0: degrees Celsius */
};

/*
 * `smartctl -n standby [-c | -l selftest] [-A] /dev/disk`, as ask says, run with run (NULL:
 * mdp_exec_run) under r, read into out. 0 when smartctl answered (out may still be UNREAD,
 * temp -ENOENT); -ENOENT when there is no smartctl, -ETIMEDOUT after MDP_SMART_TIMEOUT_MS,
 * -EINVAL for a name that is no disk, else exec's -errno (d says why).
 */
int mdp_smart_look_run(const struct mdp_root *r, const char *disk, mdp_smart_exec_fn *run,
		       unsigned ask, struct mdp_smart_look *out, struct mdp_diags *d);

/* "sdb: SMART extended self-test, 30% left" (the kind and the percent when known). */
void mdp_smart_selftest_describe(const struct mdp_selftest *t, const char *disk, char *buf,
				 size_t cap);

#endif
