/*
 * explain: the rules behind `mdprofile explain`, pure functions over two
 * samples (explain.h). The reasons for each threshold, and where this file
 * departs from the rules' first draft, are in docs/explain.md; the short
 * form is beside each rule below.
 *
 * How md paces a sync (md.c md_do_sync): below the effective minimum it
 * never waits; above the maximum it always sleeps; in between it waits
 * only when the array is "not idle" (other I/O on the member disks, or on
 * the md device itself from 6.16). What "waits" means changed: before 4.1
 * it slept until the 30 s average fell to the minimum (the speed sits at
 * the floor), from 4.1 it drains its in-flight I/O once per window (the
 * speed lands anywhere between), from 6.16 only when more than
 * sync_io_depth requests are in flight. So:
 *  - a speed near the minimum with other I/O present is the floor binding:
 *    raising the minimum lifts it, at most to the new minimum;
 *  - a speed near the maximum with idle disks is the ceiling binding;
 *  - a speed below the minimum means md is not throttling at all: neither
 *    limit binds, and no limit will help;
 *  - everything else (other I/O between the limits, CPU, stripe cache) has
 *    no arithmetic gain: the report says so and names the probe.
 */
#include "explain.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "grow.h"

#ifdef MDP_FAULT_SEAM
#include <assert.h>
/* Test builds check that a rule adds only the kinds of finding its table row says. */
#define assert_makes(cond) assert(cond)
#else
#define assert_makes(cond) ((void)0)
#endif

/* The shipped profiles explain may recommend, gentlest first; their limits are the caller's
 * (struct mdp_xprofiles, read from the profiles themselves). */
static const char *const shipped[] = {"balanced", "reshape-fast"};

#define CEIL_SHARE      0.9  /* speed >= 90 % of the max: the ceiling binds */
#define FLOOR_BAND      0.15 /* speed within 15 % of the min: the floor binds */
#define UTIL_BUSY       90.0 /* a disk this busy is at its limit (rotational only) */
#define UTIL_FREE       80.0 /* below this the disks have room (ceiling) */
#define FOREIGN_SHARE   0.05 /* other I/O below 5 % of the sync's is not competing */
#define FOREIGN_MIN_KIB 256  /* nor below 256 KiB/s (a trickle changed nothing, §3) */
#define SWAP_MIN_PAGES  16.0 /* pages/s of swap in+out that count as competing */
#define CPU_BUSY        0.9  /* a thread at 90 % of one CPU */
#define FINISH_S        1800 /* less than 30 min left: not worth tuning */
#define OUTLIER_UTIL    2.0  /* a member busier than 2x the others' median */
#define OUTLIER_AWAIT   3.0  /* or slower per request than 3x */
#define AWAIT_MIN_MS    10.0 /* and at least this slow per request */
#define AWAIT_MIN_IOS   20   /* requests needed before an await means anything */
#define USER_HZ         100.0
#define SKIP_RATIO      2.0  /* progress this far above md's own speed: chunks skipped */
#define RQ_SMALL        16.0 /* sectors a request (8 KiB) or fewer: tiny requests */
#define RQ_MERGED       0.05 /* under 5 % of requests merged: md's I/O does not merge */
#define RQ_MIN_IOS      100  /* requests a member needs in the window for the pattern */
#define BUS_FULL        0.6  /* members' traffic at 60 % of their shared link's data rate */
/* KiB/s: a maximum below this caps SSD and NVMe arrays, which rebuild at 1.0-1.4 GB/s a device
 * (issue 38: a 4-disk NVMe raid5 went from 207 to 1027 MB/s with the maximum at 3600000) */
#define NONROT_UNCAPPED 2000000
/* No md array syncs faster than this (KiB/s, about 1 TB/s, 1000 NVMe drives at their
 * limit): a faster figure comes from a broken sample or a forged capture and is no figure. */
#define SPEED_BOUND 1e9

const char *mdp_explain_kind_name(enum mdp_xkind k)
{
	static const char *const names[] = {
	    "waiting",    "stuck",          "finishing",       "member",         "rebuild-target",
	    "controller", "reshape-method", "ceiling",         "floor",          "competing-io",
	    "cpu",        "stripe-cache",   "request-pattern", "disks-at-limit", "goal",
	    "info",
	};
	_Static_assert(sizeof(names) / sizeof(names[0]) == MDP_XK_INFO + 1, "a name for each kind");
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "info";
}

const char *mdp_explain_gain_name(enum mdp_xgain g)
{
	switch (g) {
	case MDP_XG_UPPER:
		return "upper-bound";
	case MDP_XG_ROUGH:
		return "rough";
	case MDP_XG_ZERO:
		return "zero";
	default:
		return "unknown";
	}
}

bool mdp_explain_delta(uint64_t a, uint64_t b, uint64_t *out)
{
	if (b >= a) {
		*out = b - a;
		return true;
	}
	if (a <= UINT32_MAX && b <= UINT32_MAX) {
		*out = (UINT64_C(1) << 32) - a + b;
		return true;
	}
	return false;
}

/* ---- /proc/diskstats -------------------------------------------------------- */

/* A double as a KiB count: never a conversion C leaves undefined (negative, NaN, or beyond
 * uint64_t); callers bound their figures first, this is the last guard. */
static uint64_t kib_of(double v)
{
	if (!(v > 0))
		return 0;
	return v < 18446744073709549568.0 ? (uint64_t)v : UINT64_MAX;
}

static int parse_io_line(const char *line, size_t len, struct mdp_xio *io)
{
	char buf[512], *save = NULL, *tok;
	uint64_t v[20];
	unsigned n = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, line, len);
	buf[len] = '\0';
	memset(io, 0, sizeof(*io));
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (n >= 20)
			return -EINVAL;
		if (n == 2) {
			if (strlen(tok) >= sizeof(io->name))
				return -EINVAL;
			strcpy(io->name, tok);
			v[n++] = 0;
			continue;
		}
		if (mdp_num_parse(tok, 0, UINT64_MAX, &v[n]))
			return -EINVAL;
		n++;
	}
	if (n == 7) { /* kernels before 2.6.25 for partitions: ios and sectors only */
		io->rd_ios = v[3], io->rd_sect = v[4], io->wr_ios = v[5], io->wr_sect = v[6];
	} else if (n == 14 || n == 18 || n == 20) {
		io->rd_ios = v[3], io->rd_merges = v[4], io->rd_sect = v[5], io->rd_ms = v[6];
		io->wr_ios = v[7], io->wr_merges = v[8], io->wr_sect = v[9], io->wr_ms = v[10];
		io->inflight = v[11], io->io_ticks = v[12];
		io->full = true;
	} else {
		return -EINVAL;
	}
	io->field = n;
	io->present = true;
	return 0;
}

int mdp_explain_parse_diskstats(const char *text, size_t len, struct mdp_xio **out, size_t *n)
{
	struct mdp_xio *v = NULL, one;
	size_t cnt = 0, cap = 0;

	if (!text || !out || !n)
		return -EINVAL;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (text + i)) : len - i;
		if (!parse_io_line(text + i, l, &one)) {
			if (mdp_grow_cap(&v, cnt, &cap, sizeof(*v))) {
				free(v);
				return -ENOMEM;
			}
			v[cnt++] = one;
		}
		i += l + 1;
	}
	*out = v;
	*n = cnt;
	return 0;
}

static const struct mdp_xio *io_find(const struct mdp_xio *io, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(io[i].name, name))
			return &io[i];
	return NULL;
}

void mdp_explain_disk_of(const char *part, const struct mdp_xio *io, size_t n, char *disk,
			 size_t cap)
{
	char cand[MDP_NAME_MAX];
	size_t l = strlen(part);

	snprintf(disk, cap, "%s", part);
	if (l >= sizeof(cand) || io_find(io, n, part) == NULL)
		return;
	memcpy(cand, part, l + 1);
	while (l && cand[l - 1] >= '0' && cand[l - 1] <= '9')
		cand[--l] = '\0';
	if (!l || l == strlen(part))
		return;
	/* "nvme0n1p2", "sata1p5", "mmcblk0p1": a 'p' after a digit separates the number. */
	if (l >= 2 && cand[l - 1] == 'p' && cand[l - 2] >= '0' && cand[l - 2] <= '9') {
		cand[l - 1] = '\0';
		if (io_find(io, n, cand))
			snprintf(disk, cap, "%s", cand);
		return;
	}
	if (io_find(io, n, cand))
		snprintf(disk, cap, "%s", cand);
}

/* "0000:03:00.0": a PCI function's name (domain:bus:device.function, hex). */
static bool pci_name(const char *c, size_t l)
{
	static const char form[] = "xxxx:xx:xx.x";

	if (l != sizeof(form) - 1)
		return false;
	for (size_t i = 0; i < l; i++)
		if (form[i] == 'x' ? !strchr("0123456789abcdef", c[i]) || !c[i] : c[i] != form[i])
			return false;
	return true;
}

/* "2-1", "2-1.3": a USB device's name (bus-port[.port...]), no interface (':'). */
static bool usb_name(const char *c, size_t l)
{
	size_t d = strspn(c, "0123456789");

	return d && d < l && c[d] == '-' && strspn(c + d + 1, "0123456789.") == l - d - 1 &&
	       l > d + 1;
}

void mdp_explain_bus_of(const char *devpath, char *bus, size_t cap)
{
	const char *p = devpath, *pci = NULL, *usb = NULL;
	size_t pci_l = 0, usb_l = 0;

	snprintf(bus, cap, "%s", "");
	while (p && *p) {
		size_t l = strcspn(p, "/");
		if (pci_name(p, l))
			pci = p, pci_l = l, usb = NULL;
		else if (pci && usb_name(p, l))
			usb = p, usb_l = l;
		p = p[l] ? p + l + 1 : NULL;
	}
	if (usb)
		snprintf(bus, cap, "%.*s", (int)usb_l, usb);
	else if (pci)
		snprintf(bus, cap, "%.*s", (int)pci_l, pci);
}

uint64_t mdp_explain_bus_rate(const char *bus, const char *speed, int64_t width, char *desc,
			      size_t cap)
{
	char *end;
	double v, enc, kib;

	snprintf(desc, cap, "%s", "");
	if (!bus || !speed || !(v = strtod(speed, &end), end > speed) || !(v > 0) || v > 1e6)
		return 0;
	if (strchr(bus, ':')) { /* PCIe: GT/s a lane, times the lanes */
		if (width < 1 || width > 32 || v > 256)
			return 0;
		enc = v <= 5.0 ? 0.8 : 128.0 / 130.0;
		kib = v * 1e9 * enc / 8 / 1024 * (double)width;
		snprintf(desc, cap, "PCIe %.1f GT/s x%lld", v, (long long)width);
	} else { /* USB: Mb/s */
		enc = v <= 480 ? 1.0 : v <= 5000 ? 0.8 : 128.0 / 132.0;
		kib = v * 1e6 * enc / 8 / 1024;
		snprintf(desc, cap, "USB %g Mb/s", v);
	}
	return kib_of(kib);
}

unsigned mdp_explain_kver(const char *release)
{
	uint64_t maj, min;
	const char *end;

	if (!release || mdp_num_lead(release, SIZE_MAX, &maj, &end) || *end != '.' || maj > 99 ||
	    mdp_num_lead(end + 1, SIZE_MAX, &min, NULL) || min > 99)
		return 0;
	return (unsigned)(maj * 100 + min);
}

/* ---- per-array helpers --------------------------------------------------------- */

static const struct mdp_xarray *arr_find(const struct mdp_xsample *s, const char *name)
{
	for (size_t i = 0; s && i < s->n_arrays; i++)
		if (!strcmp(s->arrays[i].name, name))
			return &s->arrays[i];
	return NULL;
}

/* "recover" is md's verb; the report says "recovery" */
static const char *noun(const char *action)
{
	return !strcmp(action, "recover") ? "recovery" : action;
}

static bool running(const struct mdp_xarray *a)
{
	return a && a->action[0] && strcmp(a->action, "idle") && strcmp(a->action, "frozen");
}

/* What one disk did over the window. */
struct iorate {
	bool ok, full;
	double kib_s; /* read + written */
	double rd_kib_s, wr_kib_s;
	double ios;   /* requests completed */
	double util;  /* % of the window with I/O in flight */
	double await; /* ms per request */
};

static struct iorate io_rate(const struct mdp_xio *a, const struct mdp_xio *b, double dt)
{
	struct iorate r = {0};
	uint64_t rs, ws, ri, wi, rm, wm, t;

	if (!a->present || !b->present || !mdp_explain_delta(a->rd_sect, b->rd_sect, &rs) ||
	    !mdp_explain_delta(a->wr_sect, b->wr_sect, &ws) ||
	    !mdp_explain_delta(a->rd_ios, b->rd_ios, &ri) ||
	    !mdp_explain_delta(a->wr_ios, b->wr_ios, &wi))
		return r;
	r.ok = true;
	r.kib_s = (double)(rs + ws) / 2.0 / dt;
	r.rd_kib_s = (double)rs / 2.0 / dt;
	r.wr_kib_s = (double)ws / 2.0 / dt;
	r.ios = (double)(ri + wi);
	if (a->full && b->full && mdp_explain_delta(a->rd_ms, b->rd_ms, &rm) &&
	    mdp_explain_delta(a->wr_ms, b->wr_ms, &wm) &&
	    mdp_explain_delta(a->io_ticks, b->io_ticks, &t)) {
		r.full = true;
		r.util = (double)t / (dt * 1000.0) * 100.0;
		if (r.util > 100.0)
			r.util = 100.0;
		r.await = r.ios > 0 ? (double)(rm + wm) / r.ios : 0;
	}
	return r;
}

static struct mdp_xlimit eff_limit(const struct mdp_xlimit *arr, const struct mdp_xlimit *sys)
{
	if (arr->read)
		return *arr;
	return *sys;
}

static struct mdp_xfinding *add(struct mdp_xreport *r, enum mdp_xkind k)
{
	struct mdp_xfinding *f;

	if (r->n_findings == MDP_X_FINDINGS)
		return NULL;
	f = &r->findings[r->n_findings++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	return f;
}

static void ev(struct mdp_xfinding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ev(struct mdp_xfinding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f || f->n_evidence == MDP_X_EVIDENCE)
		return;
	va_start(ap, fmt);
	vsnprintf(f->evidence[f->n_evidence++], MDP_X_TEXT, fmt, ap);
	va_end(ap);
}

static void rec(struct mdp_xfinding *f, enum mdp_xrec kind, const char *name, const char *value,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void rec(struct mdp_xfinding *f, enum mdp_xrec kind, const char *name, const char *value,
		const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	f->rec = kind;
	snprintf(f->rec_name, sizeof(f->rec_name), "%s", name ? name : "");
	snprintf(f->rec_value, sizeof(f->rec_value), "%s", value ? value : "");
	va_start(ap, fmt);
	vsnprintf(f->rec_text, sizeof(f->rec_text), fmt, ap);
	va_end(ap);
}

/* f's gain: what the recommendation may bring (NULL, a full report: nothing). */
static void gain(struct mdp_xfinding *f, enum mdp_xgain g, uint64_t kib)
{
	if (!f)
		return;
	f->gain = g;
	f->gain_kib = kib;
}

static bool parity(const struct mdp_xarray *a)
{
	return !strcmp(a->level, "raid4") || !strcmp(a->level, "raid5") ||
	       !strcmp(a->level, "raid6");
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* The median of v[0..n) without v[skip]. */
static double median_without(const double *v, size_t n, size_t skip)
{
	double w[MDP_X_MEMBERS];
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (i != skip)
			w[k++] = v[i];
	if (!k)
		return 0;
	qsort(w, k, sizeof(w[0]), cmp_double);
	return k % 2 ? w[k / 2] : (w[k / 2 - 1] + w[k / 2]) / 2;
}

/* The state the whole analysis shares. */
struct ctx {
	const struct mdp_xsample *s0, *s1;
	const struct mdp_xarray *a0, *a1;
	double dt, speed;
	struct mdp_xreport *r;
	/* members in sync (not spare, not faulty) with their disks' rates */
	size_t n;
	const struct mdp_xmember *m[MDP_X_MEMBERS];
	bool target[MDP_X_MEMBERS]; /* being rebuilt: takes every write, no outlier */
	struct iorate disk[MDP_X_MEMBERS], part[MDP_X_MEMBERS];
	bool util_known, all_rotational;
	unsigned media_bits;  /* 1u << enum mdp_media of each member's disk */
	enum mdp_media media; /* the array's class: one class, mixed, unknown */
	bool nonrot;          /* every member SSD or NVMe */
	double util_max, util_min;
	/* other I/O */
	double md_kib, md_inflight, holder_kib, swap_pages, sync_kib;
	char holder_top[MDP_NAME_MAX];
	double holder_top_kib;
	double other_kib[MDP_X_MEMBERS]; /* per member: its disk's I/O that is not the member's */
	double foreign_thr;              /* KiB/s of other I/O that counts as competing */
	const struct mdp_xprofiles *pro; /* the shipped profiles as found, or NULL */
	bool foreign, foreign_known;
	bool stalled;  /* progress known not to have moved in the window (mdstat, sync_completed) */
	bool skipping; /* progress far above md's own speed with a bitmap: clean chunks skipped */
	unsigned kver; /* the kernel's release as 601 (mdp_explain_kver); 0 unknown */
};

static double md_view(const struct ctx *c);
static const struct mdp_xfinding *found(const struct mdp_xreport *r, enum mdp_xkind k);
static void util_evidence(struct ctx *c, struct mdp_xfinding *f);

static void gather_members(struct ctx *c)
{
	const struct mdp_xarray *a0 = c->a0, *a1 = c->a1;

	c->util_known = true;
	c->all_rotational = true;
	c->util_min = 1e9;
	for (size_t i = 0; i < a1->n_members && c->n < MDP_X_MEMBERS; i++) {
		const struct mdp_xmember *m1 = &a1->members[i], *m0 = NULL;
		for (size_t j = 0; j < a0->n_members; j++)
			if (!strcmp(a0->members[j].name, m1->name))
				m0 = &a0->members[j];
		if (!m0 || m1->spare || m1->faulty || strstr(m1->state, "faulty"))
			continue;
		c->m[c->n] = m1;
		/* md/dev-X/state lacks in_sync on the disk a recovery writes */
		c->target[c->n] = m1->state[0] && !strstr(m1->state, "in_sync");
		c->disk[c->n] = io_rate(&m0->whole, &m1->whole, c->dt);
		c->part[c->n] = io_rate(&m0->part, &m1->part, c->dt);
		if (!c->disk[c->n].full) {
			c->util_known = false;
		} else {
			if (c->disk[c->n].util > c->util_max)
				c->util_max = c->disk[c->n].util;
			if (c->disk[c->n].util < c->util_min)
				c->util_min = c->disk[c->n].util;
		}
		if (m1->rotational != 1)
			c->all_rotational = false;
		c->media_bits |= 1u << m1->media;
		c->n++;
	}
	if (!c->n)
		c->util_known = false, c->all_rotational = false;
	c->nonrot = c->n && !(c->media_bits & ~(1u << MDP_MEDIA_SSD | 1u << MDP_MEDIA_NVME));
	c->media = c->media_bits & 1u << MDP_MEDIA_UNKNOWN ? MDP_MEDIA_UNKNOWN
		   : c->media_bits & (c->media_bits - 1)   ? MDP_MEDIA_MIXED
							   : MDP_MEDIA_UNKNOWN;
	for (int k = MDP_MEDIA_HDD; k <= MDP_MEDIA_NVME; k++)
		if (c->media_bits == 1u << k)
			c->media = (enum mdp_media)k;
}

static void gather_foreign(struct ctx *c)
{
	struct iorate md = io_rate(&c->a0->io, &c->a1->io, c->dt);
	uint64_t d;

	c->foreign_known = md.ok;
	c->md_kib = md.ok ? md.kib_s : 0;
	c->md_inflight = (double)((c->a0->io.inflight + c->a1->io.inflight) / 2);
	for (size_t i = 0; i < c->n; i++) {
		double k;
		bool seen = false;
		if (!c->disk[i].ok || !c->part[i].ok) {
			c->foreign_known = false;
			continue;
		}
		c->sync_kib += c->part[i].kib_s;
		if (!strcmp(c->m[i]->disk, c->m[i]->name))
			continue;
		k = c->disk[i].kib_s - c->part[i].kib_s;
		c->other_kib[i] = k = k < 0 ? 0 : k;
		/* a disk holding two members counts once */
		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(c->m[j]->disk, c->m[i]->disk);
		if (seen)
			continue;
		c->holder_kib += k;
		if (k > c->holder_top_kib) {
			c->holder_top_kib = k;
			snprintf(c->holder_top, sizeof(c->holder_top), "%s", c->m[i]->disk);
		}
	}
	if (c->s0->vmstat_read && c->s1->vmstat_read &&
	    mdp_explain_delta(c->s0->pswpin, c->s1->pswpin, &d)) {
		uint64_t o = 0;
		mdp_explain_delta(c->s0->pswpout, c->s1->pswpout, &o);
		c->swap_pages = (double)(d + o) / c->dt;
	}
	/* per member disk, what is not the sync: compare with the sync's own traffic */
	{
		double per_disk = c->n ? c->sync_kib / (double)c->n : 0;
		double thr = per_disk * FOREIGN_SHARE;
		if (thr < FOREIGN_MIN_KIB)
			thr = FOREIGN_MIN_KIB;
		c->foreign_thr = thr;
		c->foreign =
		    c->md_kib >= thr || c->holder_top_kib >= thr || c->swap_pages >= SWAP_MIN_PAGES;
	}
}

static const char *limit_src(const struct mdp_xlimit *l)
{
	return l->local ? "local" : "system";
}

/* ---- the checks, in order ----------------------------------------------------------- */

/* Another array running on the same disks (for DELAYED). */
static const struct mdp_xarray *sharing(const struct mdp_xsample *s, const struct mdp_xarray *a)
{
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_xarray *o = &s->arrays[i];
		if (o == a || !running(o) || o->queued[0])
			continue;
		for (size_t j = 0; j < o->n_members; j++)
			for (size_t k = 0; k < a->n_members; k++)
				if (!strcmp(o->members[j].disk, a->members[k].disk))
					return o;
	}
	return NULL;
}

/* Where an md thread sleeps when nothing is wrong: idle (md_thread), paced (msleep, a
 * timeout), or running ("0"). Anywhere else, with no progress, is what md waits on. */
static bool wchan_normal(const char *w)
{
	static const char *const ok[] = {"",
					 "0",
					 "md_thread",
					 "msleep",
					 "schedule_timeout",
					 "schedule_hrtimeout_range",
					 "do_nanosleep"};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(w, ok[i]))
			return true;
	return false;
}

/* The share of one CPU thread i of a1 used over the window; -1 unknown. */
static double thread_share(const struct ctx *c, size_t i)
{
	uint64_t d;

	for (size_t j = 0; j < c->a0->n_threads; j++)
		if (c->a0->threads[j].pid == c->a1->threads[i].pid &&
		    mdp_explain_delta(c->a0->threads[j].ticks, c->a1->threads[i].ticks, &d))
			return (double)d / USER_HZ / c->dt;
	return -1;
}

/*
 * No progress in the window (mdstat's position and md/sync_completed both unchanged; md's own
 * sync_speed is a decaying 30 s average and stays above 0 for a while, so it is no test). With
 * an md thread busy or sleeping somewhere unusual, or the array blocked, md is stuck, not slow:
 * nothing mdprofile sets helps, and the report says what to collect.
 */
static bool stuck_finding(struct ctx *c)
{
	const struct mdp_xarray *a = c->a1;
	struct mdp_xfinding *f = add(c->r, MDP_XK_STUCK);
	const char *busy = NULL;
	bool sign = false;
	int pid = 0;

	ev(f,
	   "no progress in %.0f s: /proc/mdstat position %llu KiB and md/sync_completed (%s) "
	   "unchanged; md/sync_speed %lld is md's decaying 30 s average",
	   c->dt, (unsigned long long)a->done_kib,
	   a->sync_completed[0] ? a->sync_completed : "unread", (long long)a->sync_speed);
	for (size_t i = 0; i < a->n_threads; i++) {
		double sh = thread_share(c, i);
		const char *w = a->threads[i].wchan;
		if (sh >= CPU_BUSY || !wchan_normal(w)) {
			sign = true;
			busy = busy ? busy : a->threads[i].comm;
			pid = pid ? pid : a->threads[i].pid;
		}
		if (sh >= 0 || w[0])
			ev(f, "%s (pid %d): %.0f%% of a CPU, sleeping in %s", a->threads[i].comm,
			   a->threads[i].pid, sh >= 0 ? sh * 100 : 0, w[0] ? w : "(wchan unread)");
	}
	if (!strcmp(a->array_state, "write-pending") || !strcmp(a->array_state, "broken")) {
		sign = true;
		ev(f, "md/array_state %s: writes wait for md", a->array_state);
	}
	for (size_t i = 0; i < a->n_members; i++)
		if (a->members[i].bad_blocks > 0) {
			sign = true;
			ev(f, "md/dev-%s/bad_blocks: %lld entries", a->members[i].name,
			   (long long)a->members[i].bad_blocks);
		}
	if (!sign) {
		if (f)
			f->kind = MDP_XK_WAITING;
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: nothing shows what md waits on; collect the md threads' /proc/PID/wchan "
		    "and /proc/PID/stack (root) and dmesg");
		return true;
	}
	if (pid)
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: stuck, not slow, and no setting helps; collect /proc/%d/stack (root) "
		    "and "
		    "wchan of %s, and dmesg, and report them with the kernel version",
		    pid, busy);
	else
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: stuck, not slow, and no setting helps; collect the md threads' "
		    "/proc/PID/stack (root) and wchan, and dmesg");
	return true;
}

bool mdp_explain_reshape_held(const struct mdp_xarray *a)
{
	uint64_t pos;

	return (!a->action[0] || !strcmp(a->action, "idle")) && !a->queued[0] &&
	       !mdp_num_parse(a->reshape_position, 0, UINT64_MAX, &pos);
}

/* A reshape md holds (mdp_explain_reshape_held): what resumes it. */
static bool held_reshape(struct ctx *c)
{
	const struct mdp_xarray *a = c->a1;
	bool ro = !strcmp(a->array_state, "read-auto") || !strcmp(a->array_state, "readonly");
	struct mdp_xfinding *f = add(c->r, MDP_XK_WAITING);

	ev(f, "md/reshape_position %s: a reshape stands there unfinished; md/sync_action idle",
	   a->reshape_position);
	if (ro) {
		ev(f, "md/array_state %s: md resumes a reshape only once the array is writable",
		   a->array_state);
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: md resumes it at the first write ('mdadm --readwrite /dev/%s' "
		    "resumes it now)",
		    a->name);
	} else {
		ev(f, "md/array_state %s", a->array_state[0] ? a->array_state : "unread");
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: mdadm must continue it ('mdadm --grow --continue /dev/%s', with the "
		    "--backup-file it was started with, if any)",
		    a->name);
	}
	return true;
}

static bool mdp_xr_waiting(struct ctx *c)
{
	const struct mdp_xarray *a = c->a1;
	struct mdp_xfinding *f;
	uint64_t smax;

	if (!strcmp(a->queued, "DELAYED") || !strcmp(a->sync_completed, "delayed")) {
		const struct mdp_xarray *o = sharing(c->s1, a);
		f = add(c->r, MDP_XK_WAITING);
		ev(f, "/proc/mdstat: resync=DELAYED");
		if (o)
			ev(f,
			   "%s runs a %s on the same disks; md syncs arrays that share disks one "
			   "after the other",
			   o->name, noun(o->action));
		rec(f, MDP_XR_NONE, NULL, NULL, "none: it starts when %s finishes",
		    o ? o->name : "the other array");
		return true;
	}
	if (!strcmp(a->queued, "PENDING")) {
		f = add(c->r, MDP_XK_WAITING);
		ev(f, "/proc/mdstat: resync=PENDING, array_state %s",
		   a->array_state[0] ? a->array_state : "unread");
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: md starts it at the first write ('mdadm --readwrite /dev/%s' starts it "
		    "now)",
		    a->name);
		return true;
	}
	if (mdp_explain_reshape_held(a))
		return held_reshape(c);
	if (!strcmp(a->action, "frozen")) {
		f = add(c->r, MDP_XK_WAITING);
		ev(f, "md/sync_action: frozen");
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: something froze it on purpose (mdadm, a user)");
		return true;
	}
	if (running(a) && (c->speed == 0 || c->stalled) && a->have_progress &&
	    strcmp(a->sync_max, "max") && !mdp_num_parse(a->sync_max, 0, UINT64_MAX, &smax) &&
	    a->done_kib * 2 + 1024 >= smax) {
		f = add(c->r, MDP_XK_WAITING);
		ev(f, "md/sync_max: %s sectors, progress %llu sectors: parked at the limit",
		   a->sync_max, (unsigned long long)a->done_kib * 2);
		if (a->backup_file || a->suspend_hi > 0) {
			ev(f, "a reshape through a backup file moves sync_max itself");
			rec(f, MDP_XR_NONE, NULL, NULL, "none: mdadm steps it");
		} else {
			char n[64];
			snprintf(n, sizeof(n), "%s/sync_max", a->name);
			rec(f, MDP_XR_SETTING, n, "max",
			    "echo max > /sys/block/%s/md/sync_max, if nobody set it on purpose "
			    "(mdcheck "
			    "does)",
			    a->name);
		}
		return true;
	}
	return false;
}

/* No progress in the window, md below its maximum (above it md sleeps: the ceiling). */
static bool mdp_xr_stuck(struct ctx *c)
{
	const struct mdp_xarray *a = c->a1;

	if (running(a) && (c->stalled || (c->speed == 0 && c->r->speed_src != MDP_XS_NONE)) &&
	    md_view(c) < CEIL_SHARE * (double)(c->r->max.read ? c->r->max.kib : UINT64_MAX))
		return stuck_finding(c);
	return false;
}

static bool mdp_xr_finishing(struct ctx *c)
{
	struct mdp_xfinding *f;

	if (!c->r->eta_s || c->r->eta_s >= FINISH_S)
		return false;
	f = add(c->r, MDP_XK_FINISHING);
	ev(f, "%llu KiB per disk left at %.0f KiB/s: about %llu min",
	   (unsigned long long)(c->r->total_kib - c->r->done_kib), c->speed,
	   (unsigned long long)(c->r->eta_s + 59) / 60);
	rec(f, MDP_XR_NONE, NULL, NULL, "none: not worth tuning");
	return true;
}

/* What a shared controller or bus that binds costs nothing to say: no limit gets more through. */
static void rec_bus(struct mdp_xfinding *f, const struct ctx *c)
{
	rec(f, MDP_XR_NONE, NULL, NULL,
	    "none: the shared controller or link is the limit, nothing to gain from any limit or "
	    "profile; spread the disks over other ports or controllers");
	gain(f, MDP_XG_ZERO, kib_of(c->speed));
}

/*
 * Two or more busy members (the member rule's outliers) behind one controller or bus that no
 * other member of the array uses: they wait on that controller, not on their own platters
 * (the same KiB/s as the others, requests held in the shared link). A controller finding
 * names them; false when they do not share one.
 */
static bool slow_behind_bus(struct ctx *c, const size_t *slow, size_t n_slow,
			    const char (*why)[MDP_X_TEXT])
{
	const char *bus = c->m[slow[0]]->bus;
	struct mdp_xfinding *f;
	char names[MDP_X_TEXT];
	size_t o = 0, in = 0;

	if (n_slow < 2 || !bus[0])
		return false;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->m[i]->bus, bus))
			in++;
	for (size_t k = 1; k < n_slow; k++)
		if (strcmp(c->m[slow[k]]->bus, bus))
			return false;
	if (in != n_slow)
		return false;
	for (size_t k = 0; k < n_slow && o < sizeof(names) - MDP_NAME_MAX - 2; k++)
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", k ? ", " : "",
				      c->m[slow[k]]->disk);
	f = add(c->r, MDP_XK_CONTROLLER);
	ev(f,
	   "%s share %s%s%s and only they are busy: they wait on that controller, not on their "
	   "own disks",
	   names, bus, c->m[slow[0]]->bus_link[0] ? ", " : "", c->m[slow[0]]->bus_link);
	for (size_t k = 0; k < n_slow; k++)
		ev(f, "%s", why[slow[k]]);
	rec_bus(f, c);
	return true;
}

/*
 * The members busy or slow per request against the others (the disk being rebuilt is
 * compared with no one: it takes all the writes) into slow[], each one's figures in why[];
 * their count.
 */
static size_t outliers(const struct ctx *c, size_t *slow, char (*why)[MDP_X_TEXT])
{
	double util[MDP_X_MEMBERS], aw[MDP_X_MEMBERS];
	size_t idx[MDP_X_MEMBERS], n = 0, n_slow = 0;

	for (size_t i = 0; c->util_known && i < c->n; i++)
		if (!c->target[i])
			util[n] = c->disk[i].util, aw[n] = c->disk[i].await, idx[n++] = i;
	for (size_t k = 0; n >= 2 && k < n; k++) {
		size_t i = idx[k];
		double mu = median_without(util, n, k), ma = median_without(aw, n, k);
		bool slow_u = util[k] >= UTIL_BUSY && util[k] >= OUTLIER_UTIL * mu;
		bool slow_a = c->disk[i].ios >= AWAIT_MIN_IOS && aw[k] >= AWAIT_MIN_MS &&
			      aw[k] >= OUTLIER_AWAIT * ma;
		/* busy with another partition's I/O: shared, not failing (competing-io) */
		if ((!slow_u && !slow_a) || c->other_kib[i] >= c->foreign_thr)
			continue;
		slow[n_slow++] = i;
		snprintf(
		    why[i], MDP_X_TEXT,
		    "%s (%s): %.0f%% busy, %.1f ms a request; the others' median %.0f%%, %.1f ms",
		    c->m[i]->name, c->m[i]->disk, util[k], aw[k], mu, ma);
	}
	return n_slow;
}

/*
 * The members' SMART (read once, after the window, issue 39). A disk smartctl calls failing
 * (health FAILED, a pre-failure attribute below threshold, pending or uncorrectable sectors, an
 * NVMe warning or media errors) makes or joins the member finding; beside a member finding,
 * every disk's remaining counts (reallocated, CRC errors) and those that did not answer are
 * evidence too; with none, one note says SMART was read and showed nothing. Whether a failing
 * disk was found.
 */
static bool smart_evidence(struct ctx *c, struct mdp_xfinding **f)
{
	const struct mdp_xarray *a1 = c->a1;
	char line[MDP_X_TEXT], ok[MDP_X_TEXT];
	size_t o = 0, n_ok = 0;
	bool failing = false;

	for (size_t i = 0; i < a1->n_members; i++) {
		const struct mdp_smart *s = &a1->members[i].smart;
		if (mdp_smart_failing(s)) {
			*f = *f ? *f : add(c->r, MDP_XK_MEMBER);
			failing = true;
		}
	}
	for (size_t i = 0; i < a1->n_members; i++) {
		const struct mdp_xmember *m = &a1->members[i];
		const struct mdp_smart *s = &m->smart;
		if (s->state == MDP_SMART_NO_ANSWER && *f)
			ev(*f, "%s: smartctl gave no answer in %d s", m->disk,
			   MDP_SMART_TIMEOUT_MS / 1000);
		if (s->state != MDP_SMART_READ)
			continue;
		if (mdp_smart_failing(s) || (*f && (s->reallocated > 0 || s->crc > 0))) {
			mdp_smart_describe(s, m->disk, line, sizeof(line));
			ev(*f, "%s", line);
		} else if (s->health == MDP_SMART_PASSED && o < sizeof(ok) - MDP_NAME_MAX - 2) {
			o += (size_t)snprintf(ok + o, sizeof(ok) - o, "%s%s", n_ok ? ", " : "",
					      m->disk);
			n_ok++;
		}
	}
	if (!*f && n_ok) {
		struct mdp_xfinding *g = add(c->r, MDP_XK_INFO);
		ev(g, "SMART (smartctl): %s %s, no pending or uncorrectable sectors", ok,
		   n_ok > 1 ? "pass" : "passes");
		rec(g, MDP_XR_NONE, NULL, NULL, "none");
	}
	return failing;
}

static bool mdp_xr_member(struct ctx *c)
{
	const struct mdp_xarray *a0 = c->a0, *a1 = c->a1;
	size_t slow[MDP_X_MEMBERS], n_slow;
	char why[MDP_X_MEMBERS][MDP_X_TEXT];
	struct mdp_xfinding *f = NULL;
	bool failing;

	for (size_t i = 0; i < a1->n_members; i++) {
		const struct mdp_xmember *m1 = &a1->members[i];
		uint64_t e0 = 0, d = 0;
		bool grew = false;
		for (size_t j = 0; j < a0->n_members; j++)
			if (!strcmp(a0->members[j].name, m1->name) && a0->members[j].errors_read) {
				e0 = a0->members[j].errors;
				grew =
				    m1->errors_read && mdp_explain_delta(e0, m1->errors, &d) && d;
			}
		if (m1->faulty || strstr(m1->state, "faulty") || strstr(m1->state, "write_error") ||
		    strstr(m1->state, "want_replacement")) {
			f = f ? f : add(c->r, MDP_XK_MEMBER);
			ev(f, "%s: state %s", m1->name,
			   m1->state[0] ? m1->state : "faulty (mdstat)");
		}
		if (grew) {
			f = f ? f : add(c->r, MDP_XK_MEMBER);
			ev(f, "%s: md/dev-%s/errors %llu -> %llu", m1->name, m1->name,
			   (unsigned long long)e0, (unsigned long long)m1->errors);
		}
		/* the disk's own error and timeout counters (SCSI layer) growing in the window */
		for (size_t j = 0; j < a0->n_members; j++) {
			const struct mdp_xmember *m0 = &a0->members[j];
			if (strcmp(m0->name, m1->name))
				continue;
			if (m0->ioerr >= 0 && m1->ioerr > m0->ioerr) {
				f = f ? f : add(c->r, MDP_XK_MEMBER);
				ev(f, "%s: device/ioerr_cnt %lld -> %lld (I/O errors)", m1->disk,
				   (long long)m0->ioerr, (long long)m1->ioerr);
			}
			if (m0->iotmo >= 0 && m1->iotmo > m0->iotmo) {
				f = f ? f : add(c->r, MDP_XK_MEMBER);
				ev(f, "%s: device/iotmo_cnt %lld -> %lld (timeouts)", m1->disk,
				   (long long)m0->iotmo, (long long)m1->iotmo);
			}
		}
	}
	n_slow = outliers(c, slow, why);
	if (n_slow && !slow_behind_bus(c, slow, n_slow, why))
		for (size_t k = 0; k < n_slow; k++) {
			f = f ? f : add(c->r, MDP_XK_MEMBER);
			ev(f, "%s", why[slow[k]]);
		}
	failing = smart_evidence(c, &f);
	if (f && failing)
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: a failing member sets the speed and a higher limit pushes it harder; "
		    "back up first if the array is degraded, then replace that disk");
	else if (f)
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: the slowest member sets the speed; check its SMART data and cable, back "
		    "up "
		    "first if the array is degraded");
	return f != NULL;
}

/*
 * The disk a recovery writes (md/dev-X/state without in_sync) is compared with no one in the
 * member rule: it takes every write, so it is busier than the disks it is rebuilt from. It has
 * its own rule: busy (>= 90 %) and slow per request (>= 3x the readers' median, at least 10 ms
 * and 20 requests), or busy at twice their median with no other I/O that could explain it.
 * Then its writes set the pace (a DM-SMR disk stalls for seconds a request; a slow or failing
 * new disk, a slow link): no limit makes them faster.
 */
static bool mdp_xr_target(struct ctx *c)
{
	double util[MDP_X_MEMBERS], aw[MDP_X_MEMBERS], rd[MDP_X_MEMBERS];
	size_t n = 0;
	bool made = false;

	for (size_t i = 0; c->util_known && i < c->n; i++)
		if (!c->target[i])
			util[n] = c->disk[i].util, aw[n] = c->disk[i].await,
			rd[n++] = c->part[i].rd_kib_s;
	if (!n)
		return false;
	for (size_t i = 0; i < c->n; i++) {
		const struct iorate *d = &c->disk[i];
		double mu = median_without(util, n, n), ma = median_without(aw, n, n);
		bool slow_a = d->ios >= AWAIT_MIN_IOS && d->await >= AWAIT_MIN_MS &&
			      d->await >= OUTLIER_AWAIT * ma;
		bool slow_u = d->util >= OUTLIER_UTIL * mu && !c->foreign;
		struct mdp_xfinding *f;

		if (!c->target[i] || d->util < UTIL_BUSY || (!slow_a && !slow_u) ||
		    c->other_kib[i] >= c->foreign_thr)
			continue;
		f = add(c->r, MDP_XK_TARGET);
		ev(f,
		   "%s (%s), the disk being rebuilt: %.0f%% busy, %.1f ms a request, writing %.0f "
		   "KiB/s",
		   c->m[i]->name, c->m[i]->disk, d->util, d->await, c->part[i].wr_kib_s);
		ev(f,
		   "the members it is rebuilt from: median %.0f%% busy, %.1f ms a request, reading "
		   "%.0f KiB/s each",
		   mu, ma, median_without(rd, n, n));
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: the new disk's writes set the pace and no limit makes them faster; "
		    "check "
		    "that it is no DM-SMR model, its SMART data and its link speed");
		made = true;
	}
	return made;
}

/*
 * Members behind one controller or bus whose own link sysfs states (a PCIe card's lanes, a USB
 * enclosure's speed): their traffic together at >= 60 % of that link's data rate (protocol
 * overhead takes much of the rest) while no one of them moves half of it: the link is full,
 * not the disks, and no limit gets more through it. Not beside a controller finding the member
 * rule made (slow_behind_bus): those members are not counted twice (the rule table).
 */
static bool mdp_xr_controller(struct ctx *c)
{
	struct mdp_xfinding *f;

	for (size_t i = 0; i < c->n; i++) {
		const struct mdp_xmember *m = c->m[i];
		double sum = 0, top = 0;
		char names[MDP_X_TEXT];
		size_t k = 0, o = 0;
		bool first = true;

		for (size_t j = 0; j < i; j++)
			first &= strcmp(c->m[j]->bus, m->bus) != 0;
		if (!first || !m->bus[0] || !m->bus_kib)
			continue;
		for (size_t j = i; j < c->n; j++) {
			if (strcmp(c->m[j]->bus, m->bus) || !c->disk[j].ok)
				continue;
			sum += c->disk[j].kib_s, k++;
			top = c->disk[j].kib_s > top ? c->disk[j].kib_s : top;
			if (o < sizeof(names) - MDP_NAME_MAX - 2)
				o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s",
						      k > 1 ? ", " : "", c->m[j]->disk);
		}
		if (k < 2 || sum < BUS_FULL * (double)m->bus_kib || top >= (double)m->bus_kib / 2)
			continue;
		f = add(c->r, MDP_XK_CONTROLLER);
		ev(f, "%s share %s (%s: %llu KiB/s of data): together %.0f KiB/s, %.0f%% of it",
		   names, m->bus, m->bus_link, (unsigned long long)m->bus_kib, sum,
		   100.0 * sum / (double)m->bus_kib);
		ev(f,
		   "each of them moves %.0f KiB/s at most, under half the link: the link is full, "
		   "not the disks",
		   top);
		util_evidence(c, f);
		rec_bus(f, c);
		return true;
	}
	return false;
}

static bool mdp_xr_reshape(struct ctx *c)
{
	const struct mdp_xarray *a = c->a1;
	struct mdp_xfinding *f;
	bool moved = false, same = false;

	if (strcmp(a->action, "reshape"))
		return false;
	for (size_t i = 0; i < a->n_members; i++) {
		if (a->members[i].offset < 0 || a->members[i].new_offset < 0)
			continue;
		if (a->members[i].offset != a->members[i].new_offset)
			moved = true;
		else
			same = true;
	}
	/* mdadm's link outlives a killed mdadm: a moving data offset says the reshape needs
	 * no copy, whatever /run still holds; stepping (suspend_hi) is seen in md itself */
	if (a->suspend_hi > 0 || (a->backup_file && !moved)) {
		f = add(c->r, MDP_XK_RESHAPE_METHOD);
		if (a->backup_file)
			ev(f,
			   "/run/mdadm/backup_file-%s: mdadm copies each section to a backup file "
			   "first",
			   a->name);
		if (a->suspend_hi > 0)
			ev(f, "md/suspend_hi %lld, md/sync_max %s: mdadm steps the reshape",
			   (long long)a->suspend_hi, a->sync_max);
		if (same && !moved)
			ev(f, "md/dev-*/new_offset equals offset: the data offset does not move");
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: the backup copy sets the pace, no limit or cache changes it; next time "
		    "reshape without a backup file (mdadm 3.3+, room for a new data offset)");
		return true;
	}
	if (moved) {
		f = add(c->r, MDP_XK_INFO);
		ev(f, "md/dev-*/new_offset differs from offset: the reshape moves the data offset "
		      "(no backup copy)");
		if (a->backup_file)
			ev(f,
			   "/run/mdadm/backup_file-%s is left from an earlier reshape: not in use",
			   a->name);
		rec(f, MDP_XR_NONE, NULL, NULL, "none");
	}
	return false;
}

const char *mdp_explain_profile(size_t i)
{
	return i < sizeof(shipped) / sizeof(shipped[0]) ? shipped[i] : NULL;
}

/* Whether apply would refuse shipped profile p here; if so f's evidence says why. */
static bool refused(const struct ctx *c, struct mdp_xfinding *f, const char *p)
{
	for (size_t i = 0; c->pro && i < c->pro->n; i++)
		if (c->pro->v[i].refused && !strcmp(c->pro->v[i].name, p)) {
			ev(f, "%s: apply refuses it on this box (%s)", p, c->pro->v[i].why);
			return true;
		}
	return false;
}

/* The array's class in words: "nvme", "ssd", "ssd and nvme" (mixed, all non-rotational). */
static const char *class_word(const struct ctx *c)
{
	return c->nonrot && c->media == MDP_MEDIA_MIXED ? "ssd and nvme"
							: mdp_ident_media_name(c->media);
}

/*
 * The minimum profile p gives this array: what a rule selecting its disks' class sets on it
 * (reshape-fast's own for SSD and NVMe arrays), else the profile's sysctl; 0 when none.
 * *by_class: the class rule's; *kept: at_least (a higher minimum the box has stays).
 */
static uint64_t min_of(const struct ctx *c, const struct mdp_xprofile *p, bool *by_class,
		       bool *kept)
{
	uint64_t v = 0;
	bool fl = false;

	/* an array of several classes gets a class rule's only if it names them all */
	for (int k = 0; c->media_bits && k < MDP_MEDIA_COUNT; k++) {
		if (!(c->media_bits & 1u << k))
			continue;
		if (!p->class_min[k]) {
			v = 0;
			break;
		}
		if (!v || p->class_min[k] < v)
			v = p->class_min[k], fl = p->class_min_floor[k];
	}
	*by_class = v != 0;
	*kept = v ? fl : p->min_floor;
	return v ? v : p->min;
}

static const struct mdp_xprofile *profile_named(const struct ctx *c, const char *name)
{
	for (size_t i = 0; c->pro && i < c->pro->n; i++)
		if (!strcmp(c->pro->v[i].name, name))
			return &c->pro->v[i];
	return NULL;
}

/*
 * The maximum in force once profile name is applied: its own, or the box's where the
 * profile sets none or keeps a higher one (at_least); 0 when the box's is not known.
 */
static uint64_t max_after(const struct ctx *c, const char *name)
{
	uint64_t box = c->r->max.read ? c->r->max.kib : 0;
	const struct mdp_xprofile *p = profile_named(c, name);

	if (!p || !p->max)
		return box;
	return p->max_floor && box > p->max ? box : p->max;
}

/*
 * Would profile name cap this SSD or NVMe array (issue 38)? They rebuild at 1.0-1.4 GB/s a
 * device, so a maximum in force below NONROT_UNCAPPED after it, or a fixed minimum below the
 * one the array has (md then throttles it further under load), holds them back. If so, f's
 * evidence says so with the profile's own figure. Hard disks: never.
 */
static bool caps(const struct ctx *c, struct mdp_xfinding *f, const char *name)
{
	const struct mdp_xprofile *p = profile_named(c, name);
	uint64_t mx = max_after(c, name), mn;
	bool by_class, kept;

	if (!c->nonrot || !p)
		return false;
	if (mx && mx < NONROT_UNCAPPED) {
		ev(f, "%s: would cap this %s array (maximum %llu KiB/s in force after it)", name,
		   class_word(c), (unsigned long long)mx);
		return true;
	}
	mn = min_of(c, p, &by_class, &kept);
	if (mn && !kept && c->r->min.read && mn < c->r->min.kib) {
		ev(f, "%s: would lower this %s array's minimum from %llu to %llu KiB/s", name,
		   class_word(c), (unsigned long long)c->r->min.kib, (unsigned long long)mn);
		return true;
	}
	return false;
}

/* Profile name does not fit here: apply would refuse it, or it would cap the array. */
static bool unfit(const struct ctx *c, struct mdp_xfinding *f, const char *name)
{
	return refused(c, f, name) || caps(c, f, name);
}

/* reshape-fast as f's recommendation (text); none (why) where it does not fit. */
static void rec_fast(const struct ctx *c, struct mdp_xfinding *f, const char *none,
		     const char *text)
{
	if (unfit(c, f, "reshape-fast"))
		rec(f, MDP_XR_NONE, NULL, NULL, "%s", none);
	else
		rec(f, MDP_XR_PROFILE, "reshape-fast", NULL, "%s", text);
}

/* The first shipped profile that fits whose limit is above have (by at least half again);
 * *val its limit for this array, *by_class: a disk-class rule's minimum. */
static const char *profile_above(const struct ctx *c, struct mdp_xfinding *f, uint64_t have,
				 bool want_max, uint64_t *val, bool *by_class)
{
	bool cls = false, kept;

	for (size_t i = 0; c->pro && i < c->pro->n; i++) {
		const struct mdp_xprofile *p = &c->pro->v[i];
		uint64_t v = want_max ? p->max : min_of(c, p, &cls, &kept);
		if (v && v >= have + have / 2 && !unfit(c, f, p->name)) {
			*val = v;
			if (by_class)
				*by_class = !want_max && cls;
			return p->name;
		}
	}
	return NULL;
}

/* The highest maximum a shipped profile sets, as the profiles say it; 0 when none does. */
static uint64_t shipped_max(const struct ctx *c)
{
	uint64_t v = 0;

	for (size_t i = 0; c->pro && i < c->pro->n; i++)
		v = c->pro->v[i].max > v ? c->pro->v[i].max : v;
	return v;
}

/*
 * The speed md itself compares with its limits: its own 30 s average (md/sync_speed) of the
 * sectors it issued, when read; the window's progress otherwise. Right after a maximum is
 * lowered the window shows md asleep (near 0) while its average still exceeds the maximum:
 * the ceiling binds all the same. And chunks a bitmap lets md skip count in the progress but
 * not in md's average: progress far above it is skipping, not speed at the maximum.
 */
static double md_view(const struct ctx *c)
{
	if (c->a1->sync_speed >= 0 && (double)c->a1->sync_speed <= SPEED_BOUND)
		return (double)c->a1->sync_speed;
	return c->speed;
}

static void util_evidence(struct ctx *c, struct mdp_xfinding *f)
{
	char buf[MDP_X_TEXT];
	size_t o = 0;

	if (!c->util_known) {
		ev(f, "disk utilisation: unknown (no full /proc/diskstats lines for the members)");
		return;
	}
	o += (size_t)snprintf(buf, sizeof(buf), "disks busy:");
	for (size_t i = 0; i < c->n && o < sizeof(buf) - 24; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, " %s %.0f%%%s", c->m[i]->disk,
				      c->disk[i].util, c->m[i]->rotational == 0 ? " (ssd)" : "");
	ev(f, "%s", buf);
}

/*
 * The array's own limit as a setting: its name (mdN/sync_speed_max or _min) in n and v in
 * val; an own (local) limit is evidence, since a profile's sysctl does not reach it.
 */
static void own_limit(const struct ctx *c, struct mdp_xfinding *f, bool is_max, bool local,
		      uint64_t v, char (*n)[64], char (*val)[32])
{
	const char *k = is_max ? "max" : "min";

	snprintf(*n, sizeof(*n), "%s/sync_speed_%s", c->a1->name, k);
	snprintf(*val, sizeof(*val), "%llu", (unsigned long long)v);
	if (local)
		ev(f,
		   "the array's own %s (local) overrides dev.raid.speed_limit_%s: a profile's "
		   "sysctl does not lift it",
		   is_max ? "maximum" : "minimum", k);
}

static bool mdp_xr_ceiling(struct ctx *c)
{
	const struct mdp_xlimit *mx = &c->r->max;
	struct mdp_xfinding *f;
	uint64_t v = 0;
	const char *p;
	char n[64];

	if (!mx->read || md_view(c) < CEIL_SHARE * (double)mx->kib)
		return false;
	if (c->util_known && c->util_max >= UTIL_FREE)
		return false;
	f = add(c->r, MDP_XK_CEILING);
	ev(f, "speed %.0f KiB/s, maximum %llu (%s): md sleeps above it", c->speed,
	   (unsigned long long)mx->kib, limit_src(mx));
	if (md_view(c) > c->speed + 1)
		ev(f,
		   "md/sync_speed %lld: md's own 30 s average, the figure md compares with the "
		   "maximum, is still above it, so md sleeps until it falls",
		   (long long)c->a1->sync_speed);
	util_evidence(c, f);
	p = profile_above(c, f, mx->kib, true, &v, NULL);
	if (mx->local || !p) {
		/* SSD and NVMe: a number that caps none of them, from the profiles where one
		 * sets more; "system" only where the sysctl caps none either */
		bool number =
		    !mx->local ||
		    (c->nonrot && (!c->s1->sys_max.read || c->s1->sys_max.kib < NONROT_UNCAPPED));
		char val[32];
		v = mx->kib * 2;
		if (c->nonrot) {
			v = shipped_max(c) > v ? shipped_max(c) : v;
			v = v < NONROT_UNCAPPED ? NONROT_UNCAPPED : v;
		}
		own_limit(c, f, true, mx->local, v, &n, &val);
		if (!number)
			rec(f, MDP_XR_SETTING, n, "system",
			    "echo system > /sys/block/%s/md/sync_speed_max (or a higher number)",
			    c->a1->name);
		else if (mx->local)
			rec(f, MDP_XR_SETTING, n, val, "echo %s > /sys/block/%s/md/sync_speed_max",
			    val, c->a1->name);
		else
			rec(f, MDP_XR_SETTING, n, val, "raise /sys/block/%s/md/sync_speed_max",
			    c->a1->name);
		if (!number && c->s1->sys_max.read && c->s1->sys_max.kib > mx->kib)
			v = c->s1->sys_max.kib;
	} else {
		rec(f, MDP_XR_PROFILE, p, NULL, "apply %s (maximum %llu KiB/s)", p,
		    (unsigned long long)v);
	}
	if (c->util_known && c->util_max >= 10 && md_view(c) <= c->speed + 1) {
		double to = c->speed * UTIL_BUSY / c->util_max;
		gain(f, MDP_XG_ROUGH, kib_of(to < (double)v ? to : (double)v));
	}
	return true;
}

static void foreign_evidence(struct ctx *c, struct mdp_xfinding *f)
{
	if (c->md_kib >= 1 || c->md_inflight >= 1)
		ev(f, "%s itself: %.0f KiB/s of other reads and writes, %.0f in flight",
		   c->a1->name, c->md_kib, c->md_inflight);
	if (c->holder_top_kib >= 1)
		ev(f,
		   "other partitions of the member disks: %.0f KiB/s in all, most on %s "
		   "(%.0f KiB/s)",
		   c->holder_kib, c->holder_top, c->holder_top_kib);
	if (c->swap_pages >= 1)
		ev(f, "swap: %.0f pages/s in and out (/proc/vmstat)", c->swap_pages);
}

static bool scrub(const struct ctx *c)
{
	return !strcmp(c->a1->action, "check") || !strcmp(c->a1->action, "repair");
}

/* A scrub competing with other I/O: pause or reschedule it, before any profile (issue 39). */
static void rec_scrub(const struct ctx *c, struct mdp_xfinding *f)
{
	rec(f, MDP_XR_NONE, NULL, NULL,
	    "none: stop the scrub (echo idle > /sys/block/%s/md/sync_action) and run it when the "
	    "box is quiet (mdcheck --continue resumes it); a higher minimum takes the disks from "
	    "the users",
	    c->a1->name);
}

/* What a higher minimum costs: the competing I/O's measured share of the member disks. */
static void tradeoff(const struct ctx *c, struct mdp_xfinding *f)
{
	double other = c->md_kib + c->holder_kib, all = other + c->sync_kib;

	if (other < 1 || all <= 0)
		return;
	ev(f,
	   "trade-off: the other I/O (%.0f KiB/s, %.0f%% of the member disks' traffic now) loses "
	   "disk time to a higher minimum: md stops yielding to it below the minimum",
	   other, 100.0 * other / all);
}

static bool mdp_xr_floor(struct ctx *c)
{
	const struct mdp_xlimit *mn = &c->r->min;
	struct mdp_xfinding *f;
	bool by_class = false;
	uint64_t v = 0;
	const char *p;

	if (!mn->read || !c->foreign || md_view(c) < (1 - FLOOR_BAND) * (double)mn->kib ||
	    md_view(c) > (1 + FLOOR_BAND) * (double)mn->kib)
		return false;
	f = add(c->r, MDP_XK_FLOOR);
	ev(f, "speed %.0f KiB/s, minimum %llu (%s): md throttles to it while other I/O runs",
	   md_view(c), (unsigned long long)mn->kib, limit_src(mn));
	foreign_evidence(c, f);
	if (scrub(c)) {
		rec_scrub(c, f);
		return true;
	}
	tradeoff(c, f);
	p = profile_above(c, f, mn->kib, false, &v, &by_class);
	if (mn->local || !p) {
		char n[64], val[32];
		v = p ? v : mn->kib * 2;
		own_limit(c, f, false, mn->local, v, &n, &val);
		rec(f, MDP_XR_SETTING, n, val, "echo %s > /sys/block/%s/md/sync_speed_min", val,
		    c->a1->name);
	} else {
		rec(f, MDP_XR_PROFILE, p, NULL, "apply %s (minimum %llu KiB/s%s%s%s)", p,
		    (unsigned long long)v, by_class ? " on " : "", by_class ? class_word(c) : "",
		    by_class ? " arrays" : "");
	}
	if (mn->local || !p) {
		if (c->r->max.read && v > c->r->max.kib)
			v = c->r->max.kib;
	} else {
		uint64_t mx = max_after(c, p);
		if (mx && v > mx)
			v = mx;
	}
	gain(f, MDP_XG_UPPER, v);
	return true;
}

static bool mdp_xr_competing(struct ctx *c)
{
	struct mdp_xfinding *f;
	uint64_t v = 0;
	const char *p;

	if (!c->foreign)
		return false;
	f = add(c->r, MDP_XK_COMPETING_IO);
	foreign_evidence(c, f);
	if (found(c->r, MDP_XK_FLOOR)) {
		rec(f, MDP_XR_NONE, NULL, NULL, "none beyond the floor's");
		return true;
	}
	if (c->r->min.read && md_view(c) < (1 - FLOOR_BAND) * (double)c->r->min.kib) {
		ev(f, "speed below the minimum %llu: md is not throttling, the disks are shared",
		   (unsigned long long)c->r->min.kib);
		tradeoff(c, f);
		rec_fast(c, f, "none: pause the competing work by hand",
			 "pause the competing work: apply reshape-fast (it pauses the indexers on "
			 "DSM); the gain cannot be computed, measure it with 'mdprofile bench "
			 "--op-only --compare reshape-fast'");
		return true;
	}
	/* A scrub has nothing to restore: a higher minimum would only take the disks from
	 * the users it now yields to (issue 39). */
	if (scrub(c)) {
		rec_scrub(c, f);
		return true;
	}
	p = profile_above(c, f, c->r->min.kib > kib_of(c->speed) ? c->r->min.kib : kib_of(c->speed),
			  false, &v, NULL);
	if (p)
		tradeoff(c, f);
	if (p)
		rec(f, MDP_XR_PROFILE, p, NULL,
		    "apply %s: a minimum above the speed stops md's throttle; the gain cannot be "
		    "computed, measure it with 'mdprofile bench --op-only --compare %s'",
		    p, p);
	else
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: no shipped profile's minimum is well above this speed");
	return true;
}

static bool mdp_xr_cpu(struct ctx *c)
{
	const struct mdp_xarray *a1 = c->a1;
	struct mdp_xfinding *f = NULL;
	uint64_t d, di;

	for (size_t i = 0; i < a1->n_threads; i++) {
		double share = thread_share(c, i);
		if (share < CPU_BUSY)
			continue;
		f = f ? f : add(c->r, MDP_XK_CPU);
		ev(f, "%s: %.0f%% of a CPU (/proc/%d/stat)", a1->threads[i].comm, share * 100,
		   a1->threads[i].pid);
	}
	if (c->s0->stat_read && c->s1->stat_read &&
	    mdp_explain_delta(c->s0->cpu_total, c->s1->cpu_total, &d) && d &&
	    mdp_explain_delta(c->s0->cpu_idle, c->s1->cpu_idle, &di) &&
	    (double)di < 0.1 * (double)d) {
		f = f ? f : add(c->r, MDP_XK_CPU);
		ev(f, "all CPUs: %.0f%% idle (/proc/stat)", 100.0 * (double)di / (double)d);
	}
	if (!f)
		return false;
	if (parity(a1) && a1->group_threads == 0) {
		char n[64];
		snprintf(n, sizeof(n), "%s/group_thread_cnt", a1->name);
		rec(f, MDP_XR_SETTING, n, "4",
		    "spread stripe work over 4 threads; the gain cannot be computed, measure it "
		    "with "
		    "'mdprofile bench --op-only --compare' and a profile that sets it");
	} else {
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none: no limit helps a CPU-bound sync; stop "
		    "CPU-heavy packages meanwhile");
	}
	return true;
}

static bool mdp_xr_stripe(struct ctx *c)
{
	const struct mdp_xarray *a0 = c->a0, *a1 = c->a1;
	unsigned kver = c->kver;
	struct mdp_xfinding *f;

	if (!parity(a1) || a1->stripe_size <= 0)
		return false;
	/* md refuses to reshape unless the cache holds 4 stripes per page of a chunk
	 * (raid5.c check_reshape: (chunk / STRIPE_SIZE) * 4 <= max_nr_stripes); a page is 4 KiB. */
	if (!strcmp(a1->action, "reshape") && a1->chunk_kib > 0 &&
	    a1->stripe_size < a1->chunk_kib / 4 * 4) {
		char n[64], v[32];
		f = add(c->r, MDP_XK_STRIPE_CACHE);
		ev(f, "stripe_cache_size %lld, a reshape of %lld KiB chunks needs at least %lld",
		   (long long)a1->stripe_size, (long long)a1->chunk_kib, (long long)a1->chunk_kib);
		snprintf(n, sizeof(n), "%s/stripe_cache_size", a1->name);
		snprintf(v, sizeof(v), "%lld", (long long)a1->chunk_kib * 2);
		rec(f, MDP_XR_SETTING, n, v, "raise it; the gain cannot be computed");
		return true;
	}
	if (a0->stripe_active < 0 || a1->stripe_active < 0 ||
	    (double)a0->stripe_active < 0.9 * (double)a0->stripe_size ||
	    (double)a1->stripe_active < 0.9 * (double)a1->stripe_size)
		return false;
	if (kver >= 401) { /* the cache grows by itself when a request finds no free stripe */
		f = add(c->r, MDP_XK_INFO);
		ev(f,
		   "stripe_cache_active %lld of stripe_cache_size %lld: kernel %u.%u grows the "
		   "cache "
		   "itself, so a full cache is not a limit here",
		   (long long)a1->stripe_active, (long long)a1->stripe_size, kver / 100,
		   kver % 100);
		rec(f, MDP_XR_NONE, NULL, NULL, "none");
		return false;
	}
	f = add(c->r, MDP_XK_STRIPE_CACHE);
	ev(f, "stripe_cache_active %lld -> %lld of stripe_cache_size %lld: full in both samples",
	   (long long)a0->stripe_active, (long long)a1->stripe_active, (long long)a1->stripe_size);
	ev(f,
	   kver ? "kernel %u.%u: the cache does not grow by itself before 4.1"
		: "kernel release unknown%.0u%.0u: the cache may not grow by itself",
	   kver / 100, kver % 100);
	rec_fast(
	    c, f, "none: no shipped profile fits this box",
	    "apply reshape-fast (a stripe cache sized to memory); the gain cannot be computed, "
	    "measure it with 'mdprofile bench --op-only --compare reshape-fast'");
	return true;
}

/*
 * md's sync I/O reaching the members in tiny requests that do not merge (a kernel or block
 * layer behaviour: 4 KiB stripe I/O, C06's avgrq-sz 8) while the disks are far from busy:
 * the disks wait per request. No limit changes the request size; the numbers are the news.
 */
static bool mdp_xr_requests(struct ctx *c)
{
	struct mdp_xfinding *f = NULL;
	double sect = 0, ios = 0, merged = 0;
	size_t n = 0;

	if (!c->util_known || !c->n || c->util_max >= UTIL_FREE || c->foreign)
		return false;
	for (size_t i = 0; i < c->n; i++) {
		const struct mdp_xio *p0 = NULL, *p1 = &c->m[i]->part;
		uint64_t rs, ws, ri, wi, rm = 0, wm = 0;
		for (size_t j = 0; j < c->a0->n_members; j++)
			if (!strcmp(c->a0->members[j].name, c->m[i]->name))
				p0 = &c->a0->members[j].part;
		if (!p0 || !p0->full || !p1->full ||
		    !mdp_explain_delta(p0->rd_sect, p1->rd_sect, &rs) ||
		    !mdp_explain_delta(p0->wr_sect, p1->wr_sect, &ws) ||
		    !mdp_explain_delta(p0->rd_ios, p1->rd_ios, &ri) ||
		    !mdp_explain_delta(p0->wr_ios, p1->wr_ios, &wi) ||
		    !mdp_explain_delta(p0->rd_merges, p1->rd_merges, &rm) ||
		    !mdp_explain_delta(p0->wr_merges, p1->wr_merges, &wm))
			return false;
		if (ri + wi < RQ_MIN_IOS)
			return false;
		sect += (double)(rs + ws), ios += (double)(ri + wi), merged += (double)(rm + wm);
		n++;
	}
	if (!n || sect / ios > RQ_SMALL || merged > RQ_MERGED * (ios + merged))
		return false;
	f = add(c->r, MDP_XK_REQUEST_PATTERN);
	ev(f,
	   "the members got %.1f sectors (%.1f KiB) a request, %.0f requests/s each, %.0f of "
	   "%.0f merged (/proc/diskstats)",
	   sect / ios, sect / ios / 2, ios / (double)n / c->dt, merged, ios + merged);
	util_evidence(c, f);
	rec(f, MDP_XR_NONE, NULL, NULL,
	    "none: md's sync I/O arrives in tiny unmerged requests and the disks wait per "
	    "request; no limit changes that; report it with the kernel version and "
	    "queue/scheduler");
	return true;
}

static bool mdp_xr_disks(struct ctx *c)
{
	struct mdp_xfinding *f;

	if (!c->util_known || !c->n)
		return false;
	if (!c->all_rotational) {
		if (c->util_min >= UTIL_BUSY) {
			f = add(c->r, MDP_XK_INFO);
			ev(f,
			   "members busy %.0f%%-%.0f%%, but not all rotational: busy time is no "
			   "limit for SSD and NVMe",
			   c->util_min, c->util_max);
			rec(f, MDP_XR_NONE, NULL, NULL, "none");
		}
		return false;
	}
	if (c->util_min < UTIL_BUSY || c->foreign)
		return false;
	f = add(c->r, MDP_XK_DISKS_AT_LIMIT);
	util_evidence(c, f);
	ev(f, "%.0f KiB/s per member disk, other I/O under %.0f%% of it",
	   c->n ? c->sync_kib / (double)c->n : 0, FOREIGN_SHARE * 100);
	rec(f, MDP_XR_NONE, NULL, NULL, "none: the disks are at their limit, nothing to gain");
	gain(f, MDP_XG_ZERO, kib_of(c->speed));
	return true;
}

/* Nothing found that binds (the table runs it only then): what to measure instead. */
static bool mdp_xr_no_cause(struct ctx *c)
{
	struct mdp_xfinding *f = add(c->r, MDP_XK_INFO);

	ev(f, "no limit, shared disk, CPU, cache or request pattern found in this window");
	util_evidence(c, f);
	rec(f, MDP_XR_NONE, NULL, NULL,
	    "none: md's own request pattern may be the limit; measure a profile with "
	    "'mdprofile bench --op-only --compare'");
	return f != NULL;
}

static bool mdp_xr_info(struct ctx *c)
{
	const struct mdp_xarray *a = c->a1;
	struct mdp_xfinding *f = NULL;

	if (!strcmp(a->action, "resync") && !strcmp(a->bitmap, "none")) {
		f = add(c->r, MDP_XK_INFO);
		ev(f,
		   "md/bitmap/location: none; a resync after an unclean shutdown covers the whole "
		   "device");
		rec(f, MDP_XR_NONE, NULL, NULL,
		    "none now; next time: mdadm --grow --bitmap=internal /dev/%s", a->name);
	}
	if (!c->kver && c->s1->release[0] == '\0') {
		f = add(c->r, MDP_XK_INFO);
		ev(f, "kernel release unreadable: the pacing rule is not known");
		rec(f, MDP_XR_NONE, NULL, NULL, "none");
	}
	return f != NULL;
}

static const char *rule_of(const struct mdp_xsample *s, unsigned kver)
{
	if (s->sync_io_depth)
		return "depth";
	if (!kver)
		return "unknown";
	return kver >= 401 ? "drain" : "sleep";
}

/* md/sync_completed "done / total" (sectors): the done figure; false for "none", "delayed". */
static bool sc_done(const char *sc, uint64_t *done)
{
	const char *end;

	return !mdp_num_lead(sc, SIZE_MAX, done, &end) && !strncmp(end, " / ", 3);
}

static void progress(struct ctx *c)
{
	const struct mdp_xarray *a0 = c->a0, *a1 = c->a1;
	struct mdp_xreport *r = c->r;

	if (a1->have_progress) {
		r->done_kib = a1->done_kib;
		r->total_kib = a1->total_kib;
	}
	/* Progress that jumps past the array's size, or faster than any array, is no figure. */
	if (a0->have_progress && a1->have_progress && a0->total_kib == a1->total_kib &&
	    a1->done_kib > a0->done_kib && a1->done_kib - a0->done_kib <= a1->total_kib &&
	    running(a0) && (double)(a1->done_kib - a0->done_kib) / c->dt <= SPEED_BOUND) {
		c->speed = (double)(a1->done_kib - a0->done_kib) / c->dt;
		r->speed_src = MDP_XS_MDSTAT;
	} else if (a1->sync_speed >= 0 && (double)a1->sync_speed <= SPEED_BOUND) {
		c->speed = (double)a1->sync_speed;
		r->speed_src = MDP_XS_MD;
	}
	/* no progress: mdstat's position and md/sync_completed (where it reads "a / b") both
	 * unchanged; md's sync_speed decays for 30 s and is no test of it */
	if (running(a0) && running(a1) && a0->have_progress && a1->have_progress &&
	    a0->total_kib == a1->total_kib && a0->done_kib == a1->done_kib) {
		uint64_t s0, s1;
		c->stalled = !sc_done(a0->sync_completed, &s0) ||
			     !sc_done(a1->sync_completed, &s1) || s0 == s1;
	}
	/* a bitmap lets md skip clean chunks: they count in the progress, not in md's speed */
	c->skipping = r->speed_src == MDP_XS_MDSTAT && a1->bitmap[0] &&
		      strcmp(a1->bitmap, "none") && a1->sync_speed >= 0 &&
		      c->speed > SKIP_RATIO * (double)a1->sync_speed + 1000;
	r->speed_kib = kib_of(c->speed + 0.5);
	if (c->speed >= 1 && r->total_kib > r->done_kib && !c->stalled)
		r->eta_s = kib_of((double)(r->total_kib - r->done_kib) / c->speed);
}

/*
 * A position that did not move while the members did sync I/O is coarse, not stuck: a
 * reshape steps a chunk (times the data disks) at a time, so a slow one can sit on one
 * mdstat figure for longer than the window. The members' own traffic beyond what the md
 * device's users explain (their writes cost up to 4x on parity arrays) says md works.
 */
static bool mdp_xr_moving(struct ctx *c)
{
	struct mdp_xfinding *f;
	double per;

	if (!c->stalled || !c->foreign_known || !c->n)
		return false;
	per = c->sync_kib / (double)c->n;
	if (per < 4 * c->md_kib / (double)c->n + 64)
		return false;
	c->stalled = false;
	if (c->speed >= 1 && c->r->total_kib > c->r->done_kib)
		c->r->eta_s = kib_of((double)(c->r->total_kib - c->r->done_kib) / c->speed);
	f = add(c->r, MDP_XK_INFO);
	ev(f,
	   "the position did not move in %.0f s, but the members did %.0f KiB/s of I/O each: md "
	   "is working, its position moves in coarse steps",
	   c->dt, per);
	rec(f, MDP_XR_NONE, NULL, NULL, "none");
	return true;
}

static void binds(struct ctx *c)
{
	const struct mdp_xreport *r = c->r;

	if (!r->min.read || !r->max.read)
		c->r->binds = "";
	else if (md_view(c) >= CEIL_SHARE * (double)r->max.kib)
		c->r->binds = "max";
	else if (md_view(c) < (1 - FLOOR_BAND) * (double)r->min.kib)
		c->r->binds = "below-min";
	else if (md_view(c) <= (1 + FLOOR_BAND) * (double)r->min.kib)
		c->r->binds = "min";
	else
		c->r->binds = "between";
}

/* An array that appeared, disappeared or is idle: true when there is nothing more to check. */
static bool not_running(struct ctx *c, const char *name)
{
	struct mdp_xreport *out = c->r;
	struct mdp_xfinding *f;

	if (!c->a0 || !c->a1) { /* assembled or stopped between the samples */
		f = add(out, MDP_XK_INFO);
		snprintf(out->action, sizeof(out->action), "none");
		ev(f, "%s %s between the samples", name, c->a1 ? "appeared" : "disappeared");
		rec(f, MDP_XR_NONE, NULL, NULL, "none");
		return true;
	}
	if (running(c->a1) || c->a1->queued[0] || !strcmp(c->a1->action, "frozen") ||
	    mdp_explain_reshape_held(c->a1))
		return false;
	snprintf(out->action, sizeof(out->action), "none");
	if (running(c->a0)) {
		f = add(out, MDP_XK_INFO);
		ev(f, "the %s ended between the samples", noun(c->a0->action));
		rec(f, MDP_XR_NONE, NULL, NULL, "none");
	}
	return true;
}

/* What the window itself says about the speed's source. */
static bool mdp_xr_window(struct ctx *c)
{
	struct mdp_xfinding *f = NULL;

	if (running(c->a1) && !running(c->a0)) {
		f = add(c->r, MDP_XK_INFO);
		ev(f, "the %s started between the samples: the speed is md's own 30 s average",
		   noun(c->a1->action));
		rec(f, MDP_XR_NONE, NULL, NULL, "none");
	}
	if (c->r->speed_src == MDP_XS_MD && running(c->a0) && c->a1->have_progress) {
		f = add(c->r, MDP_XK_INFO);
		ev(f,
		   "/proc/mdstat progress did not move in %.0f s; speed from md/sync_speed "
		   "(md's 30 s average)",
		   c->dt);
		rec(f, MDP_XR_NONE, NULL, NULL, "none");
	}
	return f != NULL;
}

/* Progress far above md's own speed with a bitmap: clean chunks skipped, not speed. */
static bool mdp_xr_skipping(struct ctx *c)
{
	struct mdp_xfinding *f;

	if (!c->skipping)
		return false;
	f = add(c->r, MDP_XK_INFO);
	ev(f,
	   "progress %.0f KiB/s, md's own speed %lld KiB/s (md/sync_speed) with bitmap %s: md "
	   "skips the chunks the bitmap marks clean, and compares its limits with its own figure",
	   c->speed, (long long)c->a1->sync_speed, c->a1->bitmap);
	rec(f, MDP_XR_NONE, NULL, NULL, "none: skipping clean chunks is not slow");
	return true;
}

/* Does f's recommendation raise a speed limit (a profile, or sync_speed_min/max)? */
static bool raises_limit(const struct mdp_xfinding *f)
{
	size_t l = strlen(f->rec_name);

	if (f->rec == MDP_XR_PROFILE)
		return true;
	return f->rec == MDP_XR_SETTING && l >= 15 &&
	       (!strcmp(f->rec_name + l - 15, "/sync_speed_min") ||
		!strcmp(f->rec_name + l - 15, "/sync_speed_max"));
}

/* The finding of kind k, or NULL. */
static const struct mdp_xfinding *found(const struct mdp_xreport *r, enum mdp_xkind k)
{
	for (size_t i = 0; i < r->n_findings; i++)
		if (r->findings[i].kind == k)
			return &r->findings[i];
	return NULL;
}

/* Withdraw the recommendations of the findings other than kind k (those raising a limit only,
 * when limits_only): the finding k stands, and they would contradict or harm it. Whether it
 * stands. */
static bool withdraw(struct mdp_xreport *r, enum mdp_xkind k, bool limits_only, const char *why)
{
	if (!found(r, k))
		return false;
	for (size_t i = 0; i < r->n_findings; i++) {
		struct mdp_xfinding *f = &r->findings[i];
		if (f->kind == k || f->rec == MDP_XR_NONE || (limits_only && !raises_limit(f)))
			continue;
		rec(f, MDP_XR_NONE, NULL, NULL, "%s", why);
		f->gain = MDP_XG_UNKNOWN;
		f->gain_kib = 0;
	}
	return true;
}

/*
 * One report, one direction (issue 39): while a failing or slow member stands, nothing
 * raises a limit (it pushes that disk harder and takes more from the users); less than 30
 * minutes left, a backup-bound reshape and disks at their limit leave nothing to tune, and
 * the other findings stay as evidence without a recommendation. The first of these that
 * withdraws a recommendation gives its reason (the rule table's order).
 */

/* A scrub yielding to users: stopping or rescheduling it comes before more speed. */
static bool mdp_xw_scrub(struct ctx *c)
{
	return scrub(c) && c->foreign &&
	       withdraw(c->r, MDP_XK_COMPETING_IO, true,
			"none while users' I/O competes with the scrub: stop it and run it when "
			"the box is quiet, before any faster limit");
}

static bool mdp_xw_member(struct ctx *c)
{
	return withdraw(c->r, MDP_XK_MEMBER, true,
			"none while a member is failing or slow: a higher limit pushes that disk "
			"harder and takes more from the users");
}

static bool mdp_xw_target(struct ctx *c)
{
	return withdraw(
	    c->r, MDP_XK_TARGET, true,
	    "none while the disk being rebuilt is the limit: a higher limit cannot make "
	    "it write faster and takes more from the users");
}

static bool mdp_xw_finishing(struct ctx *c)
{
	return withdraw(c->r, MDP_XK_FINISHING, false,
			"none: less than 30 minutes left, not worth tuning");
}

static bool mdp_xw_reshape(struct ctx *c)
{
	return withdraw(c->r, MDP_XK_RESHAPE_METHOD, false,
			"none: the backup copy sets the reshape's pace, not this");
}

static bool mdp_xw_disks(struct ctx *c)
{
	return withdraw(c->r, MDP_XK_DISKS_AT_LIMIT, false, "none: the disks are at their limit");
}

static bool mdp_xw_controller(struct ctx *c)
{
	return withdraw(c->r, MDP_XK_CONTROLLER, false,
			"none: the shared controller or link is the limit, not this");
}

void mdp_explain_goal(struct mdp_xreport *r, unsigned goal_ms, uint64_t min_kib,
		      const struct mdp_goal_sample *in, enum mdp_io_source src)
{
	struct mdp_xfinding *f, g;
	bool first = !r->n_findings ||
		     (r->findings[0].kind != MDP_XK_WAITING && r->findings[0].kind != MDP_XK_STUCK);

	if (!(f = add(r, MDP_XK_GOAL)))
		return;
	if (in->kind == MDP_GOAL_LATENCY)
		ev(f,
		   "the watcher steers %s's minimum by a latency goal of %u ms: now %" PRIu64
		   " KiB/s, the shares' requests at %" PRIu64 ".%" PRIu64
		   " ms at its last look (%s)",
		   r->array, goal_ms, min_kib, in->latency_us / 1000, in->latency_us % 1000 / 100,
		   mdp_io_source_text(src));
	else
		ev(f,
		   "the watcher steers %s's minimum by a latency goal of %u ms: now %" PRIu64
		   " KiB/s, %s",
		   r->array, goal_ms, min_kib,
		   in->kind == MDP_GOAL_IDLE ? "no foreground I/O at its last look"
					     : "not measured yet");
	rec(f, MDP_XR_NONE, NULL, NULL,
	    "none: the goal trades the rebuild's speed for the shares'; a larger goal in the "
	    "profile "
	    "lets it run faster");
	withdraw(
	    r, MDP_XK_GOAL, true,
	    "none while a latency goal steers the minimum: a higher one would take what the goal "
	    "keeps for the shares");
	if (first && r->n_findings > 1) {
		g = r->findings[r->n_findings - 1];
		memmove(&r->findings[1], &r->findings[0], (r->n_findings - 1) * sizeof(g));
		r->findings[0] = g;
	}
}

/* ---- the rule table ------------------------------------------------------------------ */

/* Where a rule's function is (the rule families). */
enum mdp_xfamily {
	MDP_XF_PROGRESS, /* the operation's progress and what it waits on */
	MDP_XF_MEMBERS,  /* member disks, the disk being rebuilt, buses, SMART */
	MDP_XF_LIMITS,   /* md's minimum and maximum, other I/O, the shipped profiles */
	MDP_XF_CPU,      /* CPU, stripe cache, request pattern */
	MDP_XF_COUNT
};

/* When a rule runs (the driver, walk()). */
enum mdp_xphase {
	MDP_XP_NOTE,     /* always: what the window itself shows */
	MDP_XP_STOP,     /* the first that fires ends the analysis: the next phases do not run */
	MDP_XP_SPEED,    /* the causes of the speed, unless a stop rule fired (but see beside) */
	MDP_XP_WITHDRAW, /* one report, one direction, unless a stop rule fired */
	MDP_XP_CLOSE,    /* always: the last notes */
};

/* enum mdp_xkind as a bit, for a rule's sets of kinds. */
#define MDP_XKIND(k) (1u << (k))
_Static_assert(MDP_XK_INFO < 32, "a bit for each kind");
/* Every kind but info: a cause of the speed. */
#define MDP_XCAUSES ((MDP_XKIND(MDP_XK_INFO + 1) - 1) & ~MDP_XKIND(MDP_XK_INFO))

struct mdp_xrule {
	const char *name; /* docs/explain.md's word for it */
	enum mdp_xfamily family;
	enum mdp_xphase phase;
	bool (*check)(struct ctx *c); /* true: it fired (its finding made, or one withdrawn) */
	unsigned makes;               /* the kinds of finding it may add (checked in test builds) */
	unsigned unless;              /* not run while a finding of these kinds stands */
	unsigned beside;   /* a speed rule that runs after a stop too, beside these kinds */
	const char *after; /* rules that must come before it, by name, space-separated */
	const char *why;   /* why: what it reads of them (after, unless, beside) */
};

#define K(k) MDP_XKIND(MDP_XK_##k)

/*
 * Every rule, in the order the driver runs them. The findings come out in this order (the
 * binding one first: docs/explain.md's list of the checks), info lines after them in the
 * same order; a report holds MDP_X_FINDINGS, so a rule late in the table is the one left out
 * of a full report. Beyond that, a rule reads what earlier ones left: in the ctx (moving
 * clears the stall) or in the report (the kinds found: unless, beside; a withdrawal acts on
 * the findings made before it, and of two withdrawals the first gives its reason). Those
 * constraints are after, unless and beside, each with its why; tests/unit/test_explain_rules.c
 * fails when the order breaks one. mdp_explain_goal() comes after the whole table: the
 * caller adds the watcher's goal to the report, and its withdrawal comes last.
 */
static const struct mdp_xrule rules[] = {
    {"window", MDP_XF_PROGRESS, MDP_XP_NOTE, mdp_xr_window, .makes = K(INFO)},
    {"moving", MDP_XF_PROGRESS, MDP_XP_NOTE, mdp_xr_moving, .makes = K(INFO)},
    {"waiting", MDP_XF_PROGRESS, MDP_XP_STOP, mdp_xr_waiting, .makes = K(WAITING),
     .after = "moving",
     .why = "progress parked at md/sync_max is read as stalled: moving clears a stall that is "
	    "only a position moving in coarse steps"},
    {"stuck", MDP_XF_PROGRESS, MDP_XP_STOP, mdp_xr_stuck, .makes = K(STUCK) | K(WAITING),
     .after = "moving waiting",
     .why = "an operation delayed, pending, held, frozen or parked makes no progress either: it "
	    "waits, it is not stuck; and a position moving in coarse steps is not stalled"},
    {"finishing", MDP_XF_PROGRESS, MDP_XP_SPEED, mdp_xr_finishing, .makes = K(FINISHING),
     .after = "moving", .why = "moving gives a position moving in coarse steps its ETA back"},
    {"member", MDP_XF_MEMBERS, MDP_XP_SPEED, mdp_xr_member,
     .makes = K(MEMBER) | K(CONTROLLER) | K(INFO), .beside = K(STUCK),
     .why = "member health is said beside a stuck array too (a failing disk can hang md)"},
    {"rebuild-target", MDP_XF_MEMBERS, MDP_XP_SPEED, mdp_xr_target, .makes = K(TARGET)},
    {"controller", MDP_XF_MEMBERS, MDP_XP_SPEED, mdp_xr_controller, .makes = K(CONTROLLER),
     .unless = K(CONTROLLER),
     .why = "busy members behind one bus are already a controller finding (member): not "
	    "counted twice"},
    {"reshape-method", MDP_XF_PROGRESS, MDP_XP_SPEED, mdp_xr_reshape,
     .makes = K(RESHAPE_METHOD) | K(INFO)},
    {"skipping", MDP_XF_PROGRESS, MDP_XP_SPEED, mdp_xr_skipping, .makes = K(INFO)},
    {"ceiling", MDP_XF_LIMITS, MDP_XP_SPEED, mdp_xr_ceiling, .makes = K(CEILING)},
    {"floor", MDP_XF_LIMITS, MDP_XP_SPEED, mdp_xr_floor, .makes = K(FLOOR)},
    {"competing-io", MDP_XF_LIMITS, MDP_XP_SPEED, mdp_xr_competing, .makes = K(COMPETING_IO),
     .after = "floor",
     .why = "beside a floor finding it recommends nothing beyond the floor's: one "
	    "recommendation for the same other I/O"},
    {"cpu", MDP_XF_CPU, MDP_XP_SPEED, mdp_xr_cpu, .makes = K(CPU)},
    {"stripe-cache", MDP_XF_CPU, MDP_XP_SPEED, mdp_xr_stripe, .makes = K(STRIPE_CACHE) | K(INFO)},
    {"request-pattern", MDP_XF_CPU, MDP_XP_SPEED, mdp_xr_requests, .makes = K(REQUEST_PATTERN)},
    {"disks-at-limit", MDP_XF_MEMBERS, MDP_XP_SPEED, mdp_xr_disks,
     .makes = K(DISKS_AT_LIMIT) | K(INFO), .unless = K(CONTROLLER),
     .why = "behind a full controller or link the disks are busy waiting on it, not at their "
	    "own limit"},
    {"no-cause", MDP_XF_MEMBERS, MDP_XP_SPEED, mdp_xr_no_cause, .makes = K(INFO),
     .unless = MDP_XCAUSES, .why = "it says that no rule found a cause"},
    /* withdrawals: the harm rules, then those that leave nothing to tune */
    {"withdraw-for-scrub", MDP_XF_LIMITS, MDP_XP_WITHDRAW, mdp_xw_scrub, .makes = 0},
    {"withdraw-for-member", MDP_XF_MEMBERS, MDP_XP_WITHDRAW, mdp_xw_member,
     .after = "withdraw-for-scrub",
     .why = "a scrub that competes with the users is stopped first: its reason is said first"},
    {"withdraw-for-rebuild-target", MDP_XF_MEMBERS, MDP_XP_WITHDRAW, mdp_xw_target,
     .after = "withdraw-for-member",
     .why = "a failing member is the harm to name before the disk being rebuilt"},
    {"withdraw-for-finishing", MDP_XF_PROGRESS, MDP_XP_WITHDRAW, mdp_xw_finishing,
     .after = "withdraw-for-scrub withdraw-for-member withdraw-for-rebuild-target",
     .why = "a higher limit that would harm says so, not merely 'not worth tuning'"},
    {"withdraw-for-reshape-method", MDP_XF_PROGRESS, MDP_XP_WITHDRAW, mdp_xw_reshape,
     .after = "withdraw-for-finishing",
     .why = "less than 30 minutes left is said before the backup copy's pace"},
    {"withdraw-for-disks-at-limit", MDP_XF_MEMBERS, MDP_XP_WITHDRAW, mdp_xw_disks,
     .after = "withdraw-for-finishing withdraw-for-reshape-method",
     .why = "the operation's own end and pace are said before the disks' limit"},
    {"withdraw-for-controller", MDP_XF_MEMBERS, MDP_XP_WITHDRAW, mdp_xw_controller,
     .after = "withdraw-for-finishing withdraw-for-reshape-method",
     .why = "the operation's own end and pace are said before the controller's limit"},
    {"info", MDP_XF_PROGRESS, MDP_XP_CLOSE, mdp_xr_info, .makes = K(INFO)},
};

#undef K

/* The kinds of r's findings, as MDP_XKIND bits. */
static unsigned kinds(const struct mdp_xreport *r)
{
	unsigned k = 0;

	for (size_t i = 0; i < r->n_findings; i++)
		k |= MDP_XKIND(r->findings[i].kind);
	return k;
}

/* Does rule x run now, with findings of kinds k and a stop rule fired or not? */
static bool runs(const struct mdp_xrule *x, unsigned k, bool stopped)
{
	if (k & x->unless)
		return false;
	if (!stopped || x->phase == MDP_XP_NOTE || x->phase == MDP_XP_CLOSE)
		return true;
	return x->phase == MDP_XP_SPEED && (k & x->beside);
}

/* The rules in the table's order. */
static void walk(struct ctx *c)
{
	bool stopped = false;

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct mdp_xrule *x = &rules[i];
		size_t before = c->r->n_findings;
		bool fired;

		if (!runs(x, kinds(c->r), stopped))
			continue;
		fired = x->check(c);
		for (size_t j = before; j < c->r->n_findings; j++)
			assert_makes(x->makes & MDP_XKIND(c->r->findings[j].kind));
		stopped |= fired && x->phase == MDP_XP_STOP;
	}
}

/* The binding finding first: the checks' order, then what is only noted. */
static void order_findings(struct mdp_xreport *out)
{
	struct mdp_xfinding tmp[MDP_X_FINDINGS];
	size_t k = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < out->n_findings; i++)
			if ((out->findings[i].kind == MDP_XK_INFO) == (pass == 1))
				tmp[k++] = out->findings[i];
	memcpy(out->findings, tmp, k * sizeof(tmp[0]));
}

int mdp_explain_array(const struct mdp_xsample *s0, const struct mdp_xsample *s1, double dt,
		      const char *name, const struct mdp_xprofiles *pro, struct mdp_xreport *out)
{
	struct ctx c = {.s0 = s0, .s1 = s1, .dt = dt, .r = out, .pro = pro};

	if (!(dt > 0))
		return -EINVAL;
	c.a0 = arr_find(s0, name);
	c.a1 = arr_find(s1, name);
	if (!c.a0 && !c.a1)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	snprintf(out->array, sizeof(out->array), "%s", name);
	out->window_s = dt;
	out->binds = "";
	c.kver = mdp_explain_kver(s1->release);
	out->rule = rule_of(s1, c.kver);
	if (c.a0 && c.a1) {
		out->min = eff_limit(&c.a1->min, &s1->sys_min);
		out->max = eff_limit(&c.a1->max, &s1->sys_max);
	}
	if (not_running(&c, name))
		return 0;
	/* a queued operation is a resync md has not started (mdstat's resync=DELAYED/PENDING) */
	snprintf(out->action, sizeof(out->action), "%s",
		 c.a1->queued[0]                  ? "resync"
		 : mdp_explain_reshape_held(c.a1) ? "reshape"
						  : c.a1->action);
	progress(&c);
	binds(&c);
	gather_members(&c);
	gather_foreign(&c);
	walk(&c);
	order_findings(out);
	return 0;
}

bool mdp_explain_recommends(const struct mdp_xreport *r)
{
	for (size_t i = 0; i < r->n_findings; i++)
		if (r->findings[i].rec != MDP_XR_NONE)
			return true;
	return false;
}
