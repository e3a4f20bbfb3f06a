/*
 * explain's members family: the member disks, the disk a recovery writes,
 * the controllers and buses they hang on, SMART (explain_int.h). member
 * (failing, erroring, or slow against the others), rebuild-target,
 * controller (a shared link that is full, or busy members only one
 * controller has), disks at their limit, "no cause found" when none of the
 * rules found one, and the withdrawals a failing member, the disk rebuilt,
 * busy disks and a full controller make. The sampler's helpers that find a
 * disk's bus and its link's rate (explain.h) are here too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_int.h"

#define OUTLIER_UTIL  2.0  /* a member busier than 2x the others' median */
#define OUTLIER_AWAIT 3.0  /* or slower per request than 3x */
#define AWAIT_MIN_MS  10.0 /* and at least this slow per request */
#define AWAIT_MIN_IOS 20   /* requests needed before an await means anything */
#define BUS_FULL      0.6  /* members' traffic at 60 % of their shared link's data rate */

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
		else if (pci && !usb && usb_name(p, l)) /* the device nearest the host: the link */
			usb = p, usb_l = l;             /* that a hub's devices share */
		p = p[l] ? p + l + 1 : NULL;
	}
	if (usb)
		snprintf(bus, cap, "%.*s", (int)usb_l, usb);
	else if (pci)
		snprintf(bus, cap, "%.*s", (int)pci_l, pci);
}

void mdp_explain_bridge_of(const char *devpath, char *bridge, size_t cap)
{
	const char *p = devpath, *last = NULL, *up = NULL;
	size_t last_l = 0, up_l = 0;

	snprintf(bridge, cap, "%s", "");
	while (p && *p) {
		size_t l = strcspn(p, "/");
		if (pci_name(p, l))
			up = last, up_l = last_l, last = p, last_l = l;
		p = p[l] ? p + l + 1 : NULL;
	}
	if (up)
		snprintf(bridge, cap, "%.*s", (int)up_l, up);
}

void mdp_explain_port_of(const char *devpath, char *port, size_t cap)
{
	const char *p = devpath;
	bool pci = false;

	snprintf(port, cap, "%s", "");
	while (p && *p) {
		size_t l = strcspn(p, "/");
		if (pci_name(p, l))
			pci = true, port[0] = '\0';
		else if (pci && l > 3 && !strncmp(p, "ata", 3) &&
			 strspn(p + 3, "0123456789") == l - 3)
			snprintf(port, cap, "%.*s", (int)l, p);
		p = p[l] ? p + l + 1 : NULL;
	}
}

uint64_t mdp_explain_bus_rate(const char *bus, const char *speed, int64_t width, char *desc,
			      size_t cap)
{
	char *end;
	double v, enc, kib;

	snprintf(desc, cap, "%s", "");
	if (!bus || !speed || !(v = strtod(speed, &end), end > speed) || !(v > 0) || v > 1e6)
		return 0;
	if (!strncmp(bus, "ata", 3)) { /* a SATA link: Gb/s, 8b/10b */
		if (v > 64)
			return 0;
		kib = v * 1e9 * 0.8 / 8 / 1024;
		snprintf(desc, cap, "SATA %.1f Gb/s", v);
	} else if (strchr(bus, ':')) { /* PCIe: GT/s a lane, times the lanes */
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

/* What a shared controller or bus that binds costs nothing to say: no limit gets more through. */
static void rec_bus(struct mdp_xfinding *f, const struct mdp_xctx *c)
{
	mdp_xrec(
	    f, MDP_XR_NONE, NULL, NULL,
	    "none: the shared controller or link is the limit, nothing to gain from any limit or "
	    "profile; spread the disks over other ports or controllers");
	mdp_xgain(f, MDP_XG_ZERO, kib_of(c->speed));
}

/*
 * Two or more busy members (the member rule's outliers) behind one controller or bus that no
 * other member of the array uses: they wait on that controller, not on their own platters
 * (the same KiB/s as the others, requests held in the shared link). A controller finding
 * names them; false when they do not share one.
 */
static bool slow_behind_bus(struct mdp_xctx *c, const size_t *slow, size_t n_slow,
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
	f = mdp_xadd(c->r, MDP_XK_CONTROLLER);
	mdp_xev(
	    f,
	    "%s share %s%s%s and only they are busy: they wait on that controller, not on their "
	    "own disks",
	    names, bus, c->m[slow[0]]->bus_link[0] ? ", " : "", c->m[slow[0]]->bus_link);
	for (size_t k = 0; k < n_slow; k++)
		mdp_xev(f, "%s", why[slow[k]]);
	rec_bus(f, c);
	return true;
}

/*
 * The members busy or slow per request against the others (the disk being rebuilt is
 * compared with no one: it takes all the writes) into slow[], each one's figures in why[];
 * their count.
 */
static size_t outliers(const struct mdp_xctx *c, size_t *slow, char (*why)[MDP_X_TEXT])
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
static bool smart_evidence(struct mdp_xctx *c, struct mdp_xfinding **f)
{
	const struct mdp_xarray *a1 = c->a1;
	char line[MDP_X_TEXT], ok[MDP_X_TEXT];
	size_t o = 0, n_ok = 0;
	bool failing = false;

	for (size_t i = 0; i < a1->n_members; i++) {
		const struct mdp_smart *s = &a1->members[i].smart;
		if (mdp_smart_failing(s)) {
			*f = *f ? *f : mdp_xadd(c->r, MDP_XK_MEMBER);
			failing = true;
		}
	}
	for (size_t i = 0; i < a1->n_members; i++) {
		const struct mdp_xmember *m = &a1->members[i];
		const struct mdp_smart *s = &m->smart;
		if (s->state == MDP_SMART_NO_ANSWER && *f)
			mdp_xev(*f, "%s: smartctl gave no answer in %d s", m->disk,
				MDP_SMART_TIMEOUT_MS / 1000);
		if (s->state != MDP_SMART_READ)
			continue;
		if (mdp_smart_failing(s) || (*f && (s->reallocated > 0 || s->crc > 0))) {
			mdp_smart_describe(s, m->disk, line, sizeof(line));
			mdp_xev(*f, "%s", line);
		} else if (s->health == MDP_SMART_PASSED && o < sizeof(ok) - MDP_NAME_MAX - 2) {
			o += (size_t)snprintf(ok + o, sizeof(ok) - o, "%s%s", n_ok ? ", " : "",
					      m->disk);
			n_ok++;
		}
	}
	if (!*f && n_ok) {
		struct mdp_xfinding *g = mdp_xadd(c->r, MDP_XK_INFO);
		mdp_xev(g, "SMART (smartctl): %s %s, no pending or uncorrectable sectors", ok,
			n_ok > 1 ? "pass" : "passes");
		mdp_xrec(g, MDP_XR_NONE, NULL, NULL, "none");
	}
	return failing;
}

/* member: a member faulty or erroring, its disk's errors or timeouts growing in the window, one
 * busy or slow against the others, or its disk failing by SMART. */
bool mdp_xr_member(struct mdp_xctx *c)
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
			f = f ? f : mdp_xadd(c->r, MDP_XK_MEMBER);
			mdp_xev(f, "%s: state %s", m1->name,
				m1->state[0] ? m1->state : "faulty (mdstat)");
		}
		if (grew) {
			f = f ? f : mdp_xadd(c->r, MDP_XK_MEMBER);
			mdp_xev(f, "%s: md/dev-%s/errors %llu -> %llu", m1->name, m1->name,
				(unsigned long long)e0, (unsigned long long)m1->errors);
		}
		/* the disk's own error and timeout counters (SCSI layer) growing in the window */
		for (size_t j = 0; j < a0->n_members; j++) {
			const struct mdp_xmember *m0 = &a0->members[j];
			if (strcmp(m0->name, m1->name))
				continue;
			if (m0->ioerr >= 0 && m1->ioerr > m0->ioerr) {
				f = f ? f : mdp_xadd(c->r, MDP_XK_MEMBER);
				mdp_xev(f, "%s: device/ioerr_cnt %lld -> %lld (I/O errors)",
					m1->disk, (long long)m0->ioerr, (long long)m1->ioerr);
			}
			if (m0->iotmo >= 0 && m1->iotmo > m0->iotmo) {
				f = f ? f : mdp_xadd(c->r, MDP_XK_MEMBER);
				mdp_xev(f, "%s: device/iotmo_cnt %lld -> %lld (timeouts)", m1->disk,
					(long long)m0->iotmo, (long long)m1->iotmo);
			}
		}
	}
	n_slow = outliers(c, slow, why);
	if (n_slow && !slow_behind_bus(c, slow, n_slow, why))
		for (size_t k = 0; k < n_slow; k++) {
			f = f ? f : mdp_xadd(c->r, MDP_XK_MEMBER);
			mdp_xev(f, "%s", why[slow[k]]);
		}
	failing = smart_evidence(c, &f);
	if (f && failing)
		mdp_xrec(
		    f, MDP_XR_NONE, NULL, NULL,
		    "none: a failing member sets the speed and a higher limit pushes it harder; "
		    "back up first if the array is degraded, then replace that disk");
	else if (f)
		mdp_xrec(
		    f, MDP_XR_NONE, NULL, NULL,
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
bool mdp_xr_target(struct mdp_xctx *c)
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
		const struct mdp_xrate *d = &c->disk[i];
		double mu = median_without(util, n, n), ma = median_without(aw, n, n);
		bool slow_a = d->ios >= AWAIT_MIN_IOS && d->await >= AWAIT_MIN_MS &&
			      d->await >= OUTLIER_AWAIT * ma;
		bool slow_u = d->util >= OUTLIER_UTIL * mu && !c->foreign;
		struct mdp_xfinding *f;

		if (!c->target[i] || d->util < UTIL_BUSY || (!slow_a && !slow_u) ||
		    c->other_kib[i] >= c->foreign_thr)
			continue;
		f = mdp_xadd(c->r, MDP_XK_TARGET);
		mdp_xev(
		    f,
		    "%s (%s), the disk being rebuilt: %.0f%% busy, %.1f ms a request, writing %.0f "
		    "KiB/s",
		    c->m[i]->name, c->m[i]->disk, d->util, d->await, c->part[i].wr_kib_s);
		mdp_xev(f,
			"the members it is rebuilt from: median %.0f%% busy, %.1f ms a request, "
			"reading "
			"%.0f KiB/s each",
			mu, ma, median_without(rd, n, n));
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
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
static bool shared_slow(struct mdp_xctx *c);

bool mdp_xr_controller(struct mdp_xctx *c)
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
		f = mdp_xadd(c->r, MDP_XK_CONTROLLER);
		mdp_xev(f,
			"%s share %s (%s: %llu KiB/s of data): together %.0f KiB/s, %.0f%% of it",
			names, m->bus, m->bus_link, (unsigned long long)m->bus_kib, sum,
			100.0 * sum / (double)m->bus_kib);
		mdp_xev(
		    f,
		    "each of them moves %.0f KiB/s at most, under half the link: the link is full, "
		    "not the disks",
		    top);
		mdp_xutil_evidence(c, f);
		rec_bus(f, c);
		return true;
	}
	return shared_slow(c);
}

/* KiB/s a disk of its class streams at the least in sequence (a hard disk 100 MB/s and more on
 * its outer half, a SATA SSD 400 MB/s): a busy disk moving under half of it waits on something
 * else. NVMe drives are each their own PCI function, so none shares a link. */
#define HDD_STREAM_KIB 100000.0
#define SSD_STREAM_KIB 400000.0

static double class_kib(const struct mdp_xmember *m)
{
	return m->media == MDP_MEDIA_HDD   ? HDD_STREAM_KIB
	       : m->media == MDP_MEDIA_SSD ? SSD_STREAM_KIB
					   : 0;
}

/* Do members i and j share one link: one port multiplier (the same SATA port), one USB device
 * or one conventional PCI bus (whatever card each is on)? (Disks on one PCIe card each have
 * their own port: the card's link is the 60 % rule's.) */
static bool same_pci(const struct mdp_xmember *a, const struct mdp_xmember *b)
{
	return a->pci_bus[0] && !strcmp(a->pci_bus, b->pci_bus);
}

static bool same_link(const struct mdp_xctx *c, size_t i, size_t j)
{
	const struct mdp_xmember *a = c->m[i], *b = c->m[j];

	if (same_pci(a, b))
		return true;
	if (!a->bus[0] || strcmp(a->bus, b->bus))
		return false;
	return (a->port[0] && !strcmp(a->port, b->port)) || !strchr(a->bus, ':');
}

/* A conventional PCI bus's clock and width are not in sysfs: the common slot's 32 bits at
 * 33.33 MHz carry 133 MB/s for every card on it. */
#define PCI33_KIB 130208

/* The shared link in words (into w) and its data rate, for members i and j that share it. */
static uint64_t link_words(const struct mdp_xctx *c, size_t i, size_t j, char *w, size_t cap)
{
	const struct mdp_xmember *m = c->m[i];
	bool pmp = m->port[0] && !strcmp(m->port, c->m[j]->port);
	uint64_t kib = pmp ? m->port_kib : m->bus_kib;
	const char *what = pmp ? "one port multiplier on" : "USB device";

	if (same_pci(m, c->m[j])) {
		snprintf(w, cap,
			 "the conventional PCI bus behind bridge %s (its clock and width unread: "
			 "%d KiB/s of data if it is the common 32-bit 33 MHz one)",
			 m->pci_bus, PCI33_KIB);
		return PCI33_KIB;
	}
	if (kib)
		snprintf(w, cap, "%s %s (%s: %llu KiB/s of data)", what, pmp ? m->port : m->bus,
			 pmp ? m->port_link : m->bus_link, (unsigned long long)kib);
	else
		snprintf(w, cap, "%s %s (its link's rate unread)", what, pmp ? m->port : m->bus);
	return kib;
}

/* shared_slow's reading and advice: a link (USB, a port multiplier's port) or a PCI bus. */
static void shared_words(struct mdp_xctx *c, struct mdp_xfinding *f, const struct mdp_xmember *m,
			 double top, bool pci)
{
	mdp_xev(f,
		"each is %.0f%%+ busy yet moves %.0f KiB/s at most, under half of what a %s "
		"streams: they wait on the %s they share, not on their own media",
		UTIL_FREE, top, m->media == MDP_MEDIA_HDD ? "hard disk" : "SATA SSD",
		pci ? "bus" : "link");
	mdp_xutil_evidence(c, f);
	if (pci)
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
			 "none: no limit gets more through a shared bus; put the disks on the "
			 "board's own ports or a PCIe card and the sync can run at the disks' own "
			 "speed");
	else
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
			 "none: no limit gets more through a shared link; put the disks on "
			 "separate ports or controllers and the sync can run at the disks' own "
			 "speed");
}

/*
 * Members behind one USB device or port multiplier, every one busy (>= 80 %) yet each
 * streaming under half of what its class streams: they wait on the link they share (a
 * multi-bay enclosure's bridge caps far below its link's nominal rate), not on their own
 * platters. Their total is set against the link; separate ports are the remedy (issue 51).
 */
static bool shared_slow(struct mdp_xctx *c)
{
	for (size_t i = 0; c->util_known && i < c->n; i++) {
		size_t in[MDP_X_MEMBERS], k = 0, o = 0;
		double sum = 0, top = 0;
		bool first = true, slow = true;
		char names[MDP_X_TEXT], w[MDP_X_TEXT];
		struct mdp_xfinding *f;
		uint64_t kib;

		for (size_t j = 0; j < i; j++)
			first &= !same_link(c, j, i);
		for (size_t j = i; first && j < c->n; j++)
			if (j == i || same_link(c, i, j))
				in[k++] = j;
		for (size_t q = 0; q < k; q++) {
			const struct mdp_xrate *d = &c->disk[in[q]];
			slow &=
			    d->ok && d->util >= UTIL_FREE && d->kib_s < class_kib(c->m[in[q]]) / 2;
			sum += d->kib_s, top = d->kib_s > top ? d->kib_s : top;
			if (o < sizeof(names) - MDP_NAME_MAX - 2)
				o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s",
						      q ? ", " : "", c->m[in[q]]->disk);
		}
		if (k < 2 || !slow)
			continue;
		kib = link_words(c, i, in[1], w, sizeof(w));
		f = mdp_xadd(c->r, MDP_XK_CONTROLLER);
		if (kib)
			mdp_xev(f, "%s share %s: together %.0f KiB/s, %.0f%% of it", names, w, sum,
				100.0 * sum / (double)kib);
		else
			mdp_xev(f, "%s share %s: together %.0f KiB/s", names, w, sum);
		shared_words(c, f, c->m[i], top, same_pci(c->m[i], c->m[in[1]]));
		return true;
	}
	return false;
}

/* disks-at-limit: every member busy and rotational, no other I/O: nothing to gain. */
bool mdp_xr_disks(struct mdp_xctx *c)
{
	struct mdp_xfinding *f;

	if (!c->util_known || !c->n)
		return false;
	if (!c->all_rotational) {
		if (c->util_min >= UTIL_BUSY) {
			f = mdp_xadd(c->r, MDP_XK_INFO);
			mdp_xev(
			    f,
			    "members busy %.0f%%-%.0f%%, but not all rotational: busy time is no "
			    "limit for SSD and NVMe",
			    c->util_min, c->util_max);
			mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none");
		}
		return false;
	}
	if (c->util_min < UTIL_BUSY || c->foreign)
		return false;
	f = mdp_xadd(c->r, MDP_XK_DISKS_AT_LIMIT);
	mdp_xutil_evidence(c, f);
	mdp_xev(f, "%.0f KiB/s per member disk, other I/O under %.0f%% of it",
		c->n ? c->sync_kib / (double)c->n : 0, FOREIGN_SHARE * 100);
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none: the disks are at their limit, nothing to gain");
	mdp_xgain(f, MDP_XG_ZERO, kib_of(c->speed));
	return true;
}

/* Nothing found that binds (the table runs it only then): what to measure instead. */
bool mdp_xr_no_cause(struct mdp_xctx *c)
{
	struct mdp_xfinding *f = mdp_xadd(c->r, MDP_XK_INFO);

	mdp_xev(f, "no limit, shared disk, CPU, cache or request pattern found in this window");
	mdp_xutil_evidence(c, f);
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
		 "none: md's own request pattern may be the limit; measure a profile with "
		 "'mdprofile bench --op-only --compare'");
	return f != NULL;
}

/*
 * Issue 39's harm rule: while a failing or slow member stands, no finding speeds the sync (a
 * profile, sync_speed_min/max, and just as well worker threads or a larger stripe cache): it
 * pushes that disk harder and takes more from the users. Every recommendation a finding
 * makes speeds the sync, so all of them go.
 */
bool mdp_xw_member(struct mdp_xctx *c)
{
	return mdp_xwithdraw(
	    c->r, MDP_XK_MEMBER, false,
	    "none while a member is failing or slow: a higher limit or more threads push that "
	    "disk harder and take more from the users");
}

/* Nor while the disk being rebuilt sets the pace: nothing set makes it write faster. */
bool mdp_xw_target(struct mdp_xctx *c)
{
	return mdp_xwithdraw(
	    c->r, MDP_XK_TARGET, false,
	    "none while the disk being rebuilt is the limit: a higher limit or more threads "
	    "cannot make it write faster and take more from the users");
}

/* Disks at their limit leave nothing to tune: every other recommendation goes. */
bool mdp_xw_disks(struct mdp_xctx *c)
{
	return mdp_xwithdraw(c->r, MDP_XK_DISKS_AT_LIMIT, false,
			     "none: the disks are at their limit");
}

/* So does a full controller or link. */
bool mdp_xw_controller(struct mdp_xctx *c)
{
	return mdp_xwithdraw(c->r, MDP_XK_CONTROLLER, false,
			     "none: the shared controller or link is the limit, not this");
}

/*
 * The harm rule's check where explain could not make it: a recommendation that speeds the
 * sync still stands while SMART was not read for some member (not root, no smartctl, no
 * answer, a capture without it). Said once, on the first such finding: the disks to check
 * before acting on it, since a failing disk pushed harder can fail outright.
 */
bool mdp_xw_unchecked(struct mdp_xctx *c)
{
	const struct mdp_xarray *a = c->a1;
	char names[MDP_X_TEXT];
	size_t o = 0, k = 0;

	for (size_t i = 0; i < a->n_members && o < sizeof(names) - MDP_NAME_MAX - 2; i++)
		if (a->members[i].smart.state != MDP_SMART_READ && !a->members[i].faulty &&
		    !a->members[i].spare)
			o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", k++ ? ", " : "",
					      a->members[i].disk);
	for (size_t i = 0; k && i < c->r->n_findings; i++) {
		struct mdp_xfinding *f = &c->r->findings[i];
		if (f->rec != MDP_XR_SETTING && f->rec != MDP_XR_PROFILE)
			continue;
		mdp_xev(f,
			"check first: SMART was not read for %s%s (explain reads it as root with "
			"smartctl): 'smartctl -H' on each; a failing disk pushed harder can fail "
			"outright",
			c->stacked ? "the disks under " : "", names);
		return true;
	}
	return false;
}
