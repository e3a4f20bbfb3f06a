/*
 * explain_sample: one sample of the files explain reads, through root,
 * recorded for --capture, and a capture's replay (explain_sample.h).
 */
#include "explain_sample.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mdp_md.h"
#include "mdp_base.h"
#include "explain_int.h"

static int cap_add(struct mdp_xcap *c, int sample, const char *path, const char *data, size_t len,
		   bool link)
{
	struct mdp_xcap_file *f;

	if (mdp_grow_cap(&c->v, c->n, &c->cap, sizeof(*c->v)))
		return -ENOMEM;
	f = &c->v[c->n];
	f->sample = sample;
	f->link = link;
	f->len = len;
	f->path = strdup(path);
	f->data = malloc(len + 1);
	if (!f->path || !f->data) {
		free(f->path);
		free(f->data);
		return -ENOMEM;
	}
	memcpy(f->data, data, len);
	f->data[len] = '\0';
	c->n++;
	return 0;
}

int mdp_xcap_add(struct mdp_xcap *c, int sample, const char *path, const char *data, size_t len)
{
	return cap_add(c, sample, path, data, len, false);
}

void mdp_xcap_free(struct mdp_xcap *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].data);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/*
 * What one sample reads through: the replay's second tree over the first
 * (root.h's fallback), and, for the capture, the same with every read
 * recorded (the tap). discover reads md's model through rec; explain's own
 * reads go through rec too, except a process's comm, which is only recorded
 * when it is one of md's threads.
 */
struct xread {
	struct mdp_root_tap tap; /* first: the tap finds its xread */
	const struct mdp_xsrc *s;
	int err; /* the capture's: out of memory */
	struct mdp_root view, rec;
};

static void tap_read(const struct mdp_root_tap *t, const char *sys, const char *data, size_t len,
		     bool link)
{
	struct xread *x = (struct xread *)t;

	if (x->s->cap && !x->err)
		x->err = cap_add(x->s->cap, x->s->sample, sys, data, len, link);
}

static void xread_init(struct xread *x, const struct mdp_xsrc *s)
{
	const struct mdp_root *own = s->overlay ? s->overlay : s->root;
	const struct mdp_root *fallback = s->overlay ? s->root : NULL;

	x->tap.fn = tap_read;
	x->s = s;
	x->err = 0;
	mdp_root_layer(&x->view, own, fallback, NULL);
	mdp_root_layer(&x->rec, own, fallback, &x->tap);
}

static void note_unreadable(const struct mdp_xsrc *s, const char *path, const char *why)
{
	if (!s->unreadable)
		return;
	for (size_t i = 0; i < s->unreadable->n; i++)
		if (s->unreadable->v[i].file && !strcmp(s->unreadable->v[i].file, path))
			return;
	mdp_diags_add(s->unreadable, path, 0, 0, "%s", why);
}

/* What discover could not read (its diags with a file; the rest are notes on values). */
static void note_diags(const struct mdp_xsrc *s, const struct mdp_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].file)
			note_unreadable(s, d->v[i].file, d->v[i].msg);
}

/*
 * Read path whole: 0 with *out (malloc'd), -ENOENT absent, other -errno
 * noted as unreadable. Recorded for the capture.
 */
static int rd(struct xread *x, const char *path, char **out, size_t *len)
{
	int err = mdp_root_read_all(&x->rec, path, out, len);

	if (err && err != -ENOENT && err != -ENOTDIR)
		note_unreadable(x->s, path, mdp_root_strerror(-err));
	return err;
}

/* A one-line attribute, trailing whitespace stripped, into buf. */
static int rd_val(struct xread *x, const char *path, char *buf, size_t cap)
{
	char *t;
	size_t len;
	int err = rd(x, path, &t, &len);

	if (err) {
		buf[0] = '\0';
		return err;
	}
	while (len && (t[len - 1] == '\n' || t[len - 1] == ' ' || t[len - 1] == '\t'))
		t[--len] = '\0';
	snprintf(buf, cap, "%s", t);
	free(t);
	return 0;
}

/* A symbolic link's target (never followed), recorded for the capture as a link. */
static int rd_link(struct xread *x, const char *path, char *buf, size_t cap)
{
	int err = mdp_root_readlink(&x->rec, path, buf, cap);

	if (err && err != -ENOENT && err != -ENOTDIR && err != -EINVAL)
		note_unreadable(x->s, path, mdp_root_strerror(-err));
	return err;
}

static int64_t rd_num(struct xread *x, const char *path)
{
	char buf[64];
	uint64_t v;

	if (rd_val(x, path, buf, sizeof(buf)) || mdp_num_lead(buf, SIZE_MAX, &v, NULL) ||
	    v > INT64_MAX)
		return -1;
	return (int64_t)v;
}

/* A counter as the kernel prints it: decimal, or hex with 0x (device/ioerr_cnt). -1 unread. */
static int64_t rd_count(struct xread *x, const char *path)
{
	char buf[64], *end;
	unsigned long long v;

	if (rd_val(x, path, buf, sizeof(buf)) || !buf[0])
		return -1;
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || end == buf || *end || v > INT64_MAX)
		return -1;
	return (int64_t)v;
}

/* Entries in md/dev-X/bad_blocks ("sector length" a line). -1 unread. */
static int64_t rd_lines(struct xread *x, const char *path)
{
	char *t;
	size_t len;
	int64_t n = 0;

	if (rd(x, path, &t, &len))
		return -1;
	for (size_t i = 0; i < len; i++)
		if (t[i] == '\n' && i && t[i - 1] != '\n')
			n++;
	if (len && t[len - 1] != '\n')
		n++;
	free(t);
	return n;
}

static const struct mdp_xio *io_of(const struct mdp_xio *io, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(io[i].name, name))
			return &io[i];
	return NULL;
}

/*
 * A controller that states no PCIe link (m->bus, its current_link_speed unread) behind a
 * bridge that is a legacy PCI bridge (class 0x060401: subtractive decode, which only a
 * conventional PCI bridge does) or that states a link of its own (a PCIe-to-PCI bridge: the
 * kernel states links, so the controller has none): it sits on that bridge's conventional PCI
 * bus, shared by every card on it. On a root bus nothing tells a PCI card from a chipset's own
 * controller, so nothing is set.
 */
static void read_pci_bus(struct xread *x, struct mdp_xmember *m, const char *link)
{
	char p[PATH_MAX], bridge[sizeof(m->pci_bus)], v[64];

	mdp_explain_bridge_of(link, bridge, sizeof(bridge));
	if (!bridge[0])
		return;
	snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/class", bridge);
	if (rd_val(x, p, v, sizeof(v)) || strcmp(v, "0x060401")) {
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/current_link_speed", bridge);
		if (rd_val(x, p, v, sizeof(v)) || !v[0])
			return;
	}
	snprintf(m->pci_bus, sizeof(m->pci_bus), "%s", bridge);
}

/*
 * The controller or bus the member's disk hangs on (from link, its /sys/class/block link) and the
 * data rate of that controller's own link where sysfs states it (a PCIe function's link, a USB
 * device's speed), and its SATA port with that port's link rate: explain's shared-controller
 * rule.
 */
static void read_bus(struct xread *x, struct mdp_xmember *m, const char *link)
{
	char p[PATH_MAX], speed[64];
	int64_t width = 0;

	mdp_explain_bus_of(link, m->bus, sizeof(m->bus));
	if (!m->bus[0])
		return;
	mdp_explain_port_of(link, m->port, sizeof(m->port));
	if (m->port[0]) { /* a port multiplier's disks share the port's link */
		snprintf(p, sizeof(p), "/sys/class/ata_link/link%s/sata_spd", m->port + 3);
		if (!rd_val(x, p, speed, sizeof(speed)))
			m->port_kib = mdp_explain_bus_rate(m->port, speed, 0, m->port_link,
							   sizeof(m->port_link));
	}
	if (strchr(m->bus, ':')) {
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/current_link_width", m->bus);
		width = rd_num(x, p);
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/current_link_speed", m->bus);
	} else {
		snprintf(p, sizeof(p), "/sys/bus/usb/devices/%s/speed", m->bus);
	}
	if (!rd_val(x, p, speed, sizeof(speed)))
		m->bus_kib =
		    mdp_explain_bus_rate(m->bus, speed, width, m->bus_link, sizeof(m->bus_link));
	else if (strchr(m->bus, ':'))
		read_pci_bus(x, m, link);
}

/* What explain reads of a member beside md's model: its counters, offsets, disk and bus. */
static void read_member(struct xread *x, const char *md, struct mdp_xmember *m,
			const struct mdp_xio *io, size_t n_io)
{
	char p[PATH_MAX], buf[64], link[PATH_MAX];
	bool linked;
	const struct mdp_xio *xi;
	int64_t v;

	mdp_explain_disk_of(m->name, io, n_io, m->disk, sizeof(m->disk));
	snprintf(p, sizeof(p), "/sys/block/%s/md/dev-%s/errors", md, m->name);
	v = rd_num(x, p);
	m->errors_read = v >= 0;
	m->errors = v >= 0 ? (uint64_t)v : 0;
	snprintf(p, sizeof(p), "/sys/block/%s/md/dev-%s/offset", md, m->name);
	m->offset = rd_num(x, p);
	snprintf(p, sizeof(p), "/sys/block/%s/md/dev-%s/new_offset", md, m->name);
	m->new_offset = rd_num(x, p);
	snprintf(p, sizeof(p), "/sys/block/%s/md/dev-%s/bad_blocks", md, m->name);
	m->bad_blocks = rd_lines(x, p);
	snprintf(p, sizeof(p), "/sys/block/%s/device/ioerr_cnt", m->disk);
	m->ioerr = rd_count(x, p);
	snprintf(p, sizeof(p), "/sys/block/%s/device/iotmo_cnt", m->disk);
	m->iotmo = rd_count(x, p);
	snprintf(p, sizeof(p), "/sys/block/%s/queue/rotational", m->disk);
	m->rotational = rd_val(x, p, buf, sizeof(buf)) ? -1 : !strcmp(buf, "1");
	snprintf(p, sizeof(p), "/sys/class/block/%s", m->disk);
	linked = !rd_link(x, p, link, sizeof(link));
	if (linked)
		read_bus(x, m, link);
	m->media = mdp_ident_disk_media(m->disk, linked ? link : NULL, m->rotational);
	if ((xi = io_of(io, n_io, m->name)))
		m->part = *xi;
	if ((xi = io_of(io, n_io, m->disk)))
		m->whole = *xi;
}

/* A speed limit from discover's reading: "1000 (system)", "50000 (local)", the sysctl's "1000". */
static void limit_of(const struct mdp_cur *c, struct mdp_xlimit *l)
{
	memset(l, 0, sizeof(*l));
	if (!c->present)
		return;
	l->read = true;
	l->kib = c->val.num;
	l->local = strstr(c->raw, "(local)") != NULL;
}

static int64_t cur_num(const struct mdp_cur *c)
{
	return c->present && c->val.num <= INT64_MAX ? (int64_t)c->val.num : -1;
}

static const struct mdp_member *member_of(const struct mdp_array *m, const char *name)
{
	for (size_t i = 0; i < m->n_members; i++)
		if (!strcmp(m->members[i].name, name))
			return &m->members[i];
	return NULL;
}

/* md's model of the array (discover's) as explain holds it. */
static void model_of(const struct mdp_array *m, const struct mdp_mdstat_array *ma,
		     struct mdp_xarray *a)
{
	snprintf(a->name, sizeof(a->name), "%s", ma->name);
	snprintf(a->level, sizeof(a->level), "%.15s", m->level_name[0] ? m->level_name : ma->level);
	snprintf(a->action, sizeof(a->action), "%s", m->sync_action[0] ? m->sync_action : "idle");
	/*
	 * md shows "idle" in sync_action while mdstat names a running reshape on some
	 * kernels: explain takes mdstat's word for what runs (status shows sysfs's)
	 */
	if (!strcmp(a->action, "idle") && ma->op[0] && !ma->op_state[0])
		snprintf(a->action, sizeof(a->action), "%s",
			 strcmp(ma->op, "recovery") ? ma->op : "recover");
	snprintf(a->queued, sizeof(a->queued), "%s", m->sync_queued);
	snprintf(a->array_state, sizeof(a->array_state), "%s", m->array_state);
	snprintf(a->sync_completed, sizeof(a->sync_completed), "%s", m->sync_completed);
	snprintf(a->sync_max, sizeof(a->sync_max), "%s", m->sync_max[0] ? m->sync_max : "max");
	a->sync_speed =
	    m->sync_speed_md && m->sync_speed <= INT64_MAX ? (int64_t)m->sync_speed : -1;
	limit_of(&m->cur[MDP_T_SYNC_SPEED_MIN], &a->min);
	limit_of(&m->cur[MDP_T_SYNC_SPEED_MAX], &a->max);
	a->stripe_size = cur_num(&m->cur[MDP_T_STRIPE_CACHE_SIZE]);
	a->group_threads = cur_num(&m->cur[MDP_T_GROUP_THREAD_CNT]);
	a->stripe_active = m->stripe_cache_active;
	a->chunk_kib = m->chunk_kib;
	a->suspend_hi = m->suspend_hi;
	a->degraded = m->degraded;
	snprintf(a->bitmap, sizeof(a->bitmap), "%s", m->bitmap);
	snprintf(a->reshape_position, sizeof(a->reshape_position), "%s", m->reshape_position);
	/* mdstat's position in KiB a device, which explain sets beside md/sync_completed */
	a->have_progress = ma->total > 0;
	a->done_kib = ma->done;
	a->total_kib = ma->total;
	for (size_t i = 0; i < ma->n_members && a->n_members < MDP_X_MEMBERS; i++) {
		struct mdp_xmember *xm = &a->members[a->n_members++];
		const struct mdp_member *mm = member_of(m, ma->members[i].name);
		snprintf(xm->name, sizeof(xm->name), "%s", ma->members[i].name);
		snprintf(xm->state, sizeof(xm->state), "%s", mm ? mm->state : "");
		xm->spare = ma->members[i].flags & MDP_MS_SPARE;
		xm->faulty = ma->members[i].flags & MDP_MS_FAULTY;
	}
}

/*
 * What explain has discover read: no UUID (no /dev, no mdadm), unreadable files noted, no
 * disk lookup (a member's disk comes from /proc/diskstats).
 */
#define X_SKIP (MDP_SKIP_UUID | MDP_SKIP_UNREADABLE | MDP_SKIP_MEMBER_DISKS)

/* mdadm's backup file of a reshape: a link or a file, recorded as it is. */
static int read_backup(struct xread *x, struct mdp_xarray *a)
{
	char p[PATH_MAX], b[PATH_MAX];
	int n;

	snprintf(p, sizeof(p), "/run/mdadm/backup_file-%s", a->name);
	n = mdp_root_readlink(&x->view, p, b, sizeof(b));
	if (n < 0 && !mdp_root_exists(&x->view, p))
		return 0;
	a->backup_file = true;
	if (x->s->cap &&
	    cap_add(x->s->cap, x->s->sample, p, n >= 0 ? b : "", n >= 0 ? strlen(b) : 0, n >= 0))
		return -ENOMEM;
	return 0;
}

static int read_array(struct xread *x, const struct mdp_mdstat *ms,
		      const struct mdp_mdstat_array *ma, struct mdp_xarray *a,
		      const struct mdp_xio *io, size_t n_io)
{
	struct mdp_diags d;
	struct mdp_array m;
	const struct mdp_xio *xi;
	int err;

	mdp_diags_init(&d);
	err = mdp_discover_array(&x->rec, ms, ma->name, X_SKIP, &m, &d);
	if (err == 1)
		err = mdp_discover_from_mdstat(NULL, ma, &m);
	note_diags(x->s, &d);
	mdp_diags_free(&d);
	if (err)
		return err;
	model_of(&m, ma, a);
	free(m.members);
	if ((err = read_backup(x, a)))
		return err;
	if ((xi = io_of(io, n_io, a->name)))
		a->io = *xi;
	for (size_t i = 0; i < a->n_members; i++)
		read_member(x, a->name, &a->members[i], io, n_io);
	return 0;
}

/* md's kernel threads: /proc/PID/comm "md3_raid5", "md3_resync", ... */
/* The array an md thread's comm ("md2_raid5", "md2_resync") belongs to, or NULL. */
static struct mdp_xarray *thread_array(struct mdp_xsample *out, const char *comm)
{
	for (size_t j = 0; j < out->n_arrays; j++) {
		size_t ml = strlen(out->arrays[j].name);
		if (!strncmp(comm, out->arrays[j].name, ml) && comm[ml] == '_')
			return &out->arrays[j];
	}
	return NULL;
}

/*
 * Process pid's CPU ticks from /proc/PID/stat into a's threads. Its comm is
 * read unrecorded: only md's own threads go into a capture. 0, or -errno of a capture.
 */
static int read_thread(struct xread *x, const char *pid_s, uint64_t pid, struct mdp_xsample *out)
{
	char p[64], comm[64], *st, *end, *q2;
	struct mdp_xarray *a;
	uint64_t ut, stt;
	const char *q;
	size_t len;
	int err;

	snprintf(p, sizeof(p), "/proc/%s/comm", pid_s);
	if (mdp_root_read_value(&x->view, p, comm, sizeof(comm)) < 0 || strncmp(comm, "md", 2))
		return 0;
	if (!(a = thread_array(out, comm)) || a->n_threads == MDP_X_THREADS)
		return 0;
	if (x->s->cap && (err = cap_add(x->s->cap, x->s->sample, p, comm, strlen(comm), false)))
		return err;
	snprintf(p, sizeof(p), "/proc/%s/stat", pid_s);
	if (rd(x, p, &st, &len))
		return 0;
	/* fields after ") ": state is field 3; utime and stime are 14 and 15 */
	q = strrchr(st, ')');
	for (int f = 2; q && f < 14; f++)
		q = strchr(q + 1, ' ');
	if (q && (ut = strtoull(q + 1, &end, 10), *end == ' ') &&
	    (stt = strtoull(end + 1, &end, 10), *end == ' ' || *end == '\n')) {
		struct mdp_xthread *t = &a->threads[a->n_threads++];
		snprintf(t->comm, sizeof(t->comm), "%.19s", comm);
		t->pid = (int)pid;
		t->ticks = ut + stt;
		t->start = -1;
		/* cutime, cstime, priority, nice, num_threads, itrealvalue, then starttime (22) */
		for (int f = 15; end && f < 21; f++)
			end = strchr(end + 1, ' ');
		if (end && (ut = strtoull(end + 1, &q2, 10), q2 > end + 1) && ut <= INT64_MAX)
			t->start = (int64_t)ut;
		snprintf(p, sizeof(p), "/proc/%s/wchan", pid_s);
		rd_val(x, p, t->wchan, sizeof(t->wchan));
	}
	free(st);
	return 0;
}

/* /proc listed through the layer: a replay's second sample adds its own processes. */
static int read_threads(struct xread *x, struct mdp_xsample *out)
{
	char **names = NULL;
	size_t n = 0;
	int err = mdp_root_list(&x->view, "/proc", &names, &n);

	if (err) {
		if (err != -ENOENT)
			note_unreadable(x->s, "/proc", mdp_root_strerror(-err));
		return err == -ENOMEM ? err : 0;
	}
	for (size_t i = 0; i < out->n_arrays; i++)
		out->arrays[i].threads_read = true;
	for (size_t i = 0; i < n && !err; i++) {
		uint64_t pid;
		if (!mdp_num_parse(names[i], 1, INT32_MAX, &pid))
			err = read_thread(x, names[i], pid, out);
	}
	mdp_root_free_list(names, n);
	return err;
}

static void read_proc_misc(struct xread *x, struct mdp_xsample *out)
{
	char *t, *l;
	size_t len;

	if (!rd(x, "/proc/vmstat", &t, &len)) {
		for (l = t; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
			if (!strncmp(l, "pswpin ", 7))
				out->pswpin = strtoull(l + 7, NULL, 10), out->vmstat_read = true;
			else if (!strncmp(l, "pswpout ", 8))
				out->pswpout = strtoull(l + 8, NULL, 10);
		}
		free(t);
	}
	if (!rd(x, "/proc/stat", &t, &len)) {
		for (l = t; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
			if (!strncmp(l, "cpu ", 4)) {
				char *p = l + 4, *end;
				for (int f = 0; f < 8; f++) {
					uint64_t v = strtoull(p, &end, 10);
					if (end == p)
						break;
					out->cpu_total += v;
					if (f == 3 || f == 4)
						out->cpu_idle += v;
					p = end;
				}
				out->stat_read = true;
			} else if (!strncmp(l, "cpu", 3) && l[3] >= '0' && l[3] <= '9') {
				out->ncpu++;
			}
		}
		free(t);
	}
}

/* The dev.raid sysctls as discover reads them. */
static void read_sysctls(struct xread *x, struct mdp_xsample *out)
{
	struct mdp_diags d;
	struct mdp_cur c;
	char b[32];

	mdp_diags_init(&d);
	mdp_discover_cur(&x->rec, X_SKIP, MDP_T_SPEED_LIMIT_MIN, NULL, &c, &d);
	limit_of(&c, &out->sys_min);
	mdp_discover_cur(&x->rec, X_SKIP, MDP_T_SPEED_LIMIT_MAX, NULL, &c, &d);
	limit_of(&c, &out->sys_max);
	note_diags(x->s, &d);
	mdp_diags_free(&d);
	out->sync_io_depth = !rd_val(x, "/proc/sys/dev/raid/sync_io_depth", b, sizeof(b));
}

static int sample(struct xread *x, struct mdp_xsample *out)
{
	struct mdp_mdstat ms;
	struct mdp_xio *io = NULL;
	size_t len, n_io = 0;
	char *t;
	int err;

	if ((err = rd(x, "/proc/mdstat", &t, &len))) {
		if (err == -ENOENT)
			note_unreadable(x->s, "/proc/mdstat", mdp_root_strerror(-err));
		return err;
	}
	err = mdp_mdstat_parse(t, len, &ms, NULL);
	free(t);
	if (err)
		return err;
	if (!rd(x, "/proc/diskstats", &t, &len)) {
		err = mdp_explain_parse_diskstats(t, len, &io, &n_io);
		free(t);
	}
	read_sysctls(x, out);
	rd_val(x, "/proc/sys/kernel/osrelease", out->release, sizeof(out->release));
	read_proc_misc(x, out);
	if (!err && ms.n && !(out->arrays = calloc(ms.n, sizeof(*out->arrays))))
		err = -ENOMEM;
	for (size_t i = 0; !err && i < ms.n; i++) {
		if (!ms.arrays[i].active)
			continue;
		err = read_array(x, &ms, &ms.arrays[i], &out->arrays[out->n_arrays++], io, n_io);
	}
	if (!err)
		err = read_threads(x, out);
	mdp_mdstat_free(&ms);
	free(io);
	return err;
}

int mdp_explain_sample(const struct mdp_xsrc *s, struct mdp_xsample *out)
{
	struct xread x;
	int err;

	memset(out, 0, sizeof(*out));
	xread_init(&x, s);
	err = sample(&x, out);
	if (!err)
		err = x.err;
	if (err)
		mdp_explain_sample_free(out);
	return err;
}

void mdp_explain_sample_free(struct mdp_xsample *s)
{
	free(s->arrays);
	memset(s, 0, sizeof(*s));
}

/* ---- capture: ustar ------------------------------------------------------------ */

/*
 * One ustar entry of type '0' (a regular file of n bytes of data), '2' (a symbolic link to
 * data: a target beyond ustar's 100 bytes, as sysfs device paths often are, goes first into a
 * pax header's linkpath, which GNU tar, bsdtar and busybox read) or 'x' (that pax header).
 */
static int tar_entry(char **buf, size_t *len, size_t *cap, const char *name, const char *data,
		     size_t n, char type)
{
	bool link = type == '2';
	char h[512];
	size_t need = 512 + (n + 511) / 512 * 512, nl = strlen(name), split = 0;
	unsigned sum = 0;

	memset(h, 0, sizeof(h));
	if (nl > 100) { /* ustar: prefix (155) '/' name (100) */
		for (size_t i = nl - 1; i > 0; i--)
			if (name[i] == '/' && nl - i - 1 <= 100 && i <= 155) {
				split = i;
				break;
			}
		if (!split)
			return -ENAMETOOLONG;
		memcpy(h + 345, name, split);
		memcpy(h, name + split + 1, nl - split - 1);
	} else {
		memcpy(h, name, nl);
	}
	if (link) {
		if (n > 100) {
			char rec[PATH_MAX + 32];
			size_t l = n + 11, d = 1; /* " linkpath=" and the newline */
			int err;
			if (n > PATH_MAX)
				return -ENAMETOOLONG;
			while (snprintf(NULL, 0, "%zu", l + d) > (int)d)
				d++;
			snprintf(rec, sizeof(rec), "%zu linkpath=%.*s\n", l + d, (int)n, data);
			if ((err = tar_entry(buf, len, cap, "PaxHeader/link", rec, l + d, 'x')))
				return err;
		}
		memcpy(h + 157, data, n > 100 ? 100 : n); /* linkname */
		n = 0;
		need = 512;
	}
	snprintf(h + 100, 8, "%07o", link ? 0777 : 0644);
	snprintf(h + 108, 8, "%07o", 0);
	snprintf(h + 116, 8, "%07o", 0);
	snprintf(h + 124, 12, "%011llo", (unsigned long long)n);
	snprintf(h + 136, 12, "%011llo", (unsigned long long)time(NULL));
	h[156] = type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < 512; i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	if (*len + need + 1024 > *cap) {
		size_t nc = (*len + need + 1024) * 2;
		/* Bytes by whole tar entries (data read under root's cap), doubling: realloc. */
		char *nb = realloc(*buf, nc);
		if (!nb)
			return -ENOMEM;
		*buf = nb, *cap = nc;
	}
	memcpy(*buf + *len, h, 512);
	memcpy(*buf + *len + 512, data, n);
	memset(*buf + *len + 512 + n, 0, need - 512 - n);
	*len += need;
	return 0;
}

int mdp_xcap_tar(const struct mdp_xcap *c, uint64_t elapsed_ms, char **out, size_t *olen)
{
	char *buf = NULL, name[PATH_MAX + 16], ms[32];
	size_t len = 0, cap = 0;
	int err = 0;

	for (size_t i = 0; !err && i < c->n; i++) {
		const struct mdp_xcap_file *f = &c->v[i];
		bool dup = false;
		/* a file read twice in one sample (a retry) is stored once, as first read */
		for (size_t j = 0; j < i; j++)
			dup |= c->v[j].sample == f->sample && !strcmp(c->v[j].path, f->path);
		if (dup)
			continue;
		snprintf(name, sizeof(name), "%s%s", f->sample ? ".explain/1/" : "", f->path + 1);
		err = tar_entry(&buf, &len, &cap, name, f->data, f->len, f->link ? '2' : '0');
	}
	snprintf(ms, sizeof(ms), "%llu\n", (unsigned long long)elapsed_ms);
	if (!err)
		err = tar_entry(&buf, &len, &cap, ".explain/elapsed_ms", ms, strlen(ms), '0');
	if (err) {
		free(buf);
		return err;
	}
	memset(buf + len, 0, 1024); /* two zero blocks end the archive */
	*out = buf;
	*olen = len + 1024;
	return 0;
}

/* ---- replay --------------------------------------------------------------------- */

int mdp_xcap_write(const struct mdp_xcap *c, uint64_t elapsed_ms, const struct mdp_root_out *file)
{
	char *tar = NULL;
	size_t len = 0;
	int err;

	if (!(err = mdp_xcap_tar(c, elapsed_ms, &tar, &len)))
		err = mdp_root_out_replace(file, tar, len, 0644);
	free(tar);
	return err;
}

bool mdp_explain_is_replay(const struct mdp_root *r)
{
	return !mdp_root_is_real(r) && mdp_root_is_dir(r, "/.explain/1");
}

int mdp_explain_replay_open(const struct mdp_root *r, struct mdp_root *second, uint64_t *elapsed_ms)
{
	char p[PATH_MAX], buf[32];
	ssize_t n;
	int err;

	if ((n = mdp_root_read_value(r, "/.explain/elapsed_ms", buf, sizeof(buf))) < 0)
		return (int)n;
	if ((err = mdp_num_parse(buf, 1, UINT32_MAX, elapsed_ms)))
		return err;
	if (mdp_root_path(r, "/.explain/1", p, sizeof(p)))
		return -ENAMETOOLONG;
	return mdp_root_init(second, p);
}

int mdp_explain_replay_sample(const struct mdp_root *r, unsigned n, struct mdp_root *out)
{
	char rel[32], p[PATH_MAX];

	snprintf(rel, sizeof(rel), "/.explain/%u", n);
	if (!mdp_root_is_dir(r, rel))
		return -ENOENT;
	if (mdp_root_path(r, rel, p, sizeof(p)))
		return -ENAMETOOLONG;
	return mdp_root_init(out, p);
}
