/* smart: see smart.h. */
#include "smart.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdp_base.h"
#include "smart_int.h"

#define EXIT_OPEN_FAILED  2   /* could not open the device, or it sleeps (-n standby) */
#define EXIT_DISK_FAILING 8   /* the health check says "DISK FAILING" */
#define EXIT_BELOW_THRESH 16  /* a pre-failure attribute at or below its threshold now */
#define LINE_MAX_SMART    256 /* a longer line is no line this parser reads */

/* A decimal number at s, thousands separators (NVMe's "1,024") skipped; -1 none. */
static int64_t number(const char *s)
{
	int64_t v = 0;
	bool any = false;

	s += strspn(s, " \t");
	for (; (*s >= '0' && *s <= '9') || (*s == ',' && any); s++) {
		if (*s == ',')
			continue;
		if (v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*s - '0');
		any = true;
	}
	return any ? v : -1;
}

/* The value after "key:" at the start of line l, or NULL. */
static const char *after(const char *l, const char *key)
{
	size_t n = strlen(key);

	return strncmp(l, key, n) ? NULL : l + n;
}

/* One row of the attribute table, its ID and its raw value's first number into *id, *raw:
 * "  5 Reallocated_Sector_Ct PO--CK 100 100 010 - 0" (-f brief) or the long table's
 * "194 Temperature_Celsius 0x0022 036 045 000 Old_age Always - 36 (Min/Max 21/45)". */
static bool attribute_raw(const char *l, int64_t *id, int64_t *raw)
{
	char tok[10][32];
	int n = 0, at;
	const char *p = l;

	while (n < 10) {
		size_t k;
		p += strspn(p, " \t");
		if (!*p)
			break;
		k = strcspn(p, " \t");
		snprintf(tok[n++], sizeof(tok[0]), "%.*s", (int)k, p);
		p += k;
	}
	if (n < 8 || (*id = number(tok[0])) < 1 || *id > 255 ||
	    strspn(tok[0], "0123456789") != strlen(tok[0]))
		return false;
	at = strncmp(tok[2], "0x", 2) ? 7 : 9; /* -f brief's FLAGS "PO--CK", or the long table's */
	return at < n && (*raw = number(tok[at])) >= 0;
}

static bool attribute(const char *l, struct mdp_smart *s)
{
	int64_t id, v;

	if (!attribute_raw(l, &id, &v))
		return false;
	if (id == 5)
		s->reallocated = v;
	else if (id == 197)
		s->pending = v;
	else if (id == 198)
		s->offline_unc = v;
	else if (id == 199)
		s->crc = v;
	return true;
}

/* Each line of text (len bytes) to fn, NUL-terminated; a line too long for the parser skipped.
 * Whether fn took any. */
static bool each_line(const char *text, size_t len, bool (*fn)(const char *l, void *ctx), void *ctx)
{
	char l[LINE_MAX_SMART];
	bool any = false;

	for (size_t i = 0; text && i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t k = nl ? (size_t)(nl - (text + i)) : len - i;
		if (k < sizeof(l)) {
			memcpy(l, text + i, k);
			l[k] = '\0';
			any |= fn(l, ctx);
		}
		i += k + 1;
	}
	return any;
}

static bool line(const char *l, void *ctx)
{
	struct mdp_smart *s = ctx;
	const char *v;

	if ((v = after(l, "SMART overall-health self-assessment test result:"))) {
		v += strspn(v, " \t");
		s->health = !strncmp(v, "PASSED", 6) ? MDP_SMART_PASSED : MDP_SMART_FAILED;
		return true;
	}
	if ((v = after(l, "SMART Health Status:"))) {
		v += strspn(v, " \t");
		s->health = !strncmp(v, "OK", 2) ? MDP_SMART_PASSED : MDP_SMART_FAILED;
		return true;
	}
	if ((v = after(l, "Critical Warning:"))) {
		char *end;
		unsigned long w = strtoul(v, &end, 16);
		if (end != v)
			s->nvme_warning = (int64_t)w;
		return end != v;
	}
	if ((v = after(l, "Media and Data Integrity Errors:")))
		return (s->nvme_media_errors = number(v)) >= 0;
	return attribute(l, s);
}

void mdp_smart_parse(const char *text, size_t len, int exit_status, struct mdp_smart *out)
{
	struct mdp_smart s = {.reallocated = -1,
			      .pending = -1,
			      .offline_unc = -1,
			      .crc = -1,
			      .nvme_warning = -1,
			      .nvme_media_errors = -1};
	bool any = each_line(text, len, line, &s);

	if (exit_status > 0 && (exit_status & EXIT_DISK_FAILING))
		s.health = MDP_SMART_FAILED, any = true;
	s.below_threshold = exit_status > 0 && (exit_status & EXIT_BELOW_THRESH);
	if (any)
		s.state = MDP_SMART_READ;
	else if (exit_status > 0 && (exit_status & EXIT_OPEN_FAILED) && text &&
		 (memmem(text, len, "STANDBY", 7) || memmem(text, len, "SLEEP", 5)))
		s.state = MDP_SMART_STANDBY;
	else
		s.state = MDP_SMART_UNAVAILABLE;
	*out = s;
}

bool mdp_smart_failing(const struct mdp_smart *s)
{
	return s->state == MDP_SMART_READ &&
	       (s->health == MDP_SMART_FAILED || s->below_threshold || s->pending > 0 ||
		s->offline_unc > 0 || s->nvme_warning > 0 || s->nvme_media_errors > 0);
}

void mdp_smart_describe(const struct mdp_smart *s, const char *disk, char *buf, size_t cap)
{
	static const struct {
		size_t off;
		const char *what;
	} counts[] = {
	    {offsetof(struct mdp_smart, pending), "sectors pending (197)"},
	    {offsetof(struct mdp_smart, offline_unc), "offline uncorrectable (198)"},
	    {offsetof(struct mdp_smart, reallocated), "reallocated (5)"},
	    {offsetof(struct mdp_smart, crc), "interface CRC errors (199: cable or backplane)"},
	    {offsetof(struct mdp_smart, nvme_media_errors), "media and data integrity errors"},
	};
	size_t o;

	o = (size_t)snprintf(buf, cap, "%s: SMART %s", disk,
			     s->health == MDP_SMART_FAILED   ? "FAILED"
			     : s->health == MDP_SMART_PASSED ? "PASSED"
							     : "health unread");
	if (s->below_threshold && o < cap)
		o +=
		    (size_t)snprintf(buf + o, cap - o, ", a pre-failure attribute below threshold");
	if (s->nvme_warning > 0 && o < cap)
		o += (size_t)snprintf(buf + o, cap - o, ", critical warning 0x%02llx",
				      (unsigned long long)s->nvme_warning);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		int64_t v = *(const int64_t *)(const void *)((const char *)s + counts[i].off);
		if (v > 0 && o < cap)
			o += (size_t)snprintf(buf + o, cap - o, ", %lld %s", (long long)v,
					      counts[i].what);
	}
}

int mdp_smart_run(const struct mdp_root *r, const char *disk, struct mdp_smart *out, char **text,
		  size_t *len, int *status, struct mdp_diags *d)
{
	char dev[64];
	const char *argv[] = {"smartctl", "-n", "standby", "-H", "-A", "-f", "brief", dev, NULL};
	struct mdp_exec_result *res;
	int err;

	*out = (struct mdp_smart){0};
	*text = NULL;
	*len = 0;
	*status = -1;
	if (snprintf(dev, sizeof(dev), "/dev/%s", disk) >= (int)sizeof(dev) || strchr(disk, '/'))
		return -EINVAL;
	if (!(res = malloc(sizeof(*res))))
		return -ENOMEM;
	err = mdp_exec_run(r, argv, MDP_SMART_TIMEOUT_MS, res, d);
	if (err && err != -ETIMEDOUT) {
		free(res);
		return err;
	}
	if (!(*text = malloc(res->out_len + 1))) {
		free(res);
		return -ENOMEM;
	}
	memcpy(*text, res->out, res->out_len + 1);
	*len = res->out_len;
	if (err == -ETIMEDOUT) {
		*out = (struct mdp_smart){.state = MDP_SMART_NO_ANSWER};
	} else {
		*status = res->exit_code;
		mdp_smart_parse(*text, *len, *status, out);
	}
	free(res);
	return 0;
}

/* ---- a disk's temperature (smart.h's facts) ----------------------------------------- */

#define TEMP_MAX_C 150 /* a larger raw value is no Celsius reading (a vendor's packed raw) */

struct temps {
	int64_t ata194, ata190, nvme; /* -1 not said */
};

static bool temp_line(const char *l, void *ctx)
{
	struct temps *t = ctx;
	const char *v;
	int64_t id, raw;

	if ((v = after(l, "Temperature:"))) {
		v += strspn(v, " \t");
		raw = number(v);
		if (raw >= 0 && !strncmp(v + strspn(v, "0123456789"), " Celsius", 8))
			t->nvme = raw;
		return true;
	}
	if (!attribute_raw(l, &id, &raw))
		return false;
	if (id == 194)
		t->ata194 = raw;
	else if (id == 190)
		t->ata190 = raw;
	return true;
}

int mdp_smart_temp_parse(const char *text, size_t len, int exit_status, int *temp_c)
{
	struct temps t = {-1, -1, -1};
	int64_t c;

	(void)each_line(text, len, temp_line, &t);
	c = t.ata194 >= 0 ? t.ata194 : t.ata190 >= 0 ? t.ata190 : t.nvme;
	if (c >= 0 && c <= TEMP_MAX_C) {
		*temp_c = (int)c;
		return 0;
	}
	if (exit_status > 0 && (exit_status & EXIT_OPEN_FAILED) && text &&
	    (memmem(text, len, "STANDBY", 7) || memmem(text, len, "SLEEP", 5)))
		return -EAGAIN;
	return -ENOENT;
}

/* ---- a running self-test (smart.h's facts) ------------------------------------------- */

#define ATA_TEST_STATUS  "Self-test execution status:"
#define NVME_TEST_STATUS "Self-test status:"
#define ATA_RUNNING      0xf /* the status byte's high nibble while a test runs */

/* A status line says it all: what an earlier one said goes. */
static void selftest_idle(struct mdp_selftest *t)
{
	t->state = MDP_SELFTEST_IDLE;
	t->left = -1;
	t->kind[0] = '\0';
}

/* The ATA status line: "(%4d)\tSelf-test routine in progress..." and the byte's tenths. */
static void ata_status(const char *v, struct mdp_selftest *t)
{
	int64_t b;

	v += strspn(v, " \t");
	selftest_idle(t);
	if (*v != '(' || (b = number(v + 1)) < 0 || b > 255)
		return;
	if ((b >> 4) == ATA_RUNNING && strstr(v, "in progress")) {
		t->state = MDP_SELFTEST_RUNNING;
		/* tenths left, 0 to 10; a drive's 11 to 15 means nothing: unknown */
		t->left = (b & 0xf) <= 10 ? (int)(b & 0xf) * 10 : -1;
	}
}

/* The NVMe status line: "Short self-test in progress (40% completed)", "No self-test ...". */
static void nvme_status(const char *v, struct mdp_selftest *t)
{
	static const struct {
		const char *says, *kind;
	} kinds[] = {{"Short self-test", "short"},
		     {"Extended self-test", "extended"},
		     {"Vendor specific self-test", "vendor specific"}};
	const char *p;
	int64_t done;

	v += strspn(v, " \t");
	selftest_idle(t);
	if (!strncmp(v, "No self-test", 12))
		return;
	t->state = MDP_SELFTEST_RUNNING; /* a known kind, or an operation the spec reserves */
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(v, kinds[i].says, strlen(kinds[i].says)))
			snprintf(t->kind, sizeof(t->kind), "%s", kinds[i].kind);
	if ((p = strrchr(v, '(')) && (done = number(p + 1)) >= 0 && done <= 100 &&
	    !strcmp(p + 1 + strspn(p + 1, "0123456789"), "% completed)"))
		t->left = 100 - (int)done;
}

static bool test_line(const char *l, void *ctx)
{
	struct mdp_selftest *t = ctx;
	const char *v;

	if ((v = after(l, ATA_TEST_STATUS)))
		ata_status(v, t);
	else if ((v = after(l, NVME_TEST_STATUS)))
		nvme_status(v, t);
	return v != NULL;
}

void mdp_smart_selftest_parse(const char *text, size_t len, int exit_status,
			      struct mdp_selftest *out)
{
	struct mdp_selftest t = {.left = -1};

	if (!each_line(text, len, test_line, &t) && exit_status > 0 &&
	    (exit_status & EXIT_OPEN_FAILED) && text &&
	    (memmem(text, len, "STANDBY", 7) || memmem(text, len, "SLEEP", 5)))
		t.state = MDP_SELFTEST_ASLEEP;
	*out = t;
}

void mdp_smart_selftest_describe(const struct mdp_selftest *t, const char *disk, char *buf,
				 size_t cap)
{
	char left[24] = "";

	if (t->left >= 0)
		snprintf(left, sizeof(left), ", %d%% left", t->left);
	snprintf(buf, cap, "%s: SMART %s%sself-test%s", disk, t->kind, t->kind[0] ? " " : "", left);
}

int mdp_smart_look_run(const struct mdp_root *r, const char *disk, mdp_smart_exec_fn *run,
		       unsigned ask, struct mdp_smart_look *out, struct mdp_diags *d)
{
	char dev[64];
	bool nvme = !strncmp(disk, "nvme", 4), test = ask & MDP_SMART_ASK_TEST;
	const char *argv[8] = {"smartctl", "-n", "standby"};
	size_t n = 3;
	mdp_smart_exec_fn *exec = run ? run : mdp_exec_run;
	struct mdp_exec_result *res;
	int err;

	*out = (struct mdp_smart_look){.test = {.left = -1}, .temp = -ENOENT};
	if (snprintf(dev, sizeof(dev), "/dev/%s", disk) >= (int)sizeof(dev) || strchr(disk, '/'))
		return -EINVAL;
	if (test && nvme)
		argv[n++] = "-l", argv[n++] = "selftest";
	else if (test)
		argv[n++] = "-c";
	if (ask & MDP_SMART_ASK_TEMP)
		argv[n++] = "-A";
	argv[n++] = dev;
	if (!(res = malloc(sizeof(*res))))
		return -ENOMEM;
	err = exec(r, argv, MDP_SMART_TIMEOUT_MS, res, d);
	if (!err && test)
		mdp_smart_selftest_parse(res->out, res->out_len, res->exit_code, &out->test);
	if (!err && (ask & MDP_SMART_ASK_TEMP))
		out->temp =
		    mdp_smart_temp_parse(res->out, res->out_len, res->exit_code, &out->temp_c);
	free(res);
	return err;
}
