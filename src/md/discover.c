/*
 * discover: the live state as one model (see discover.h).
 *
 * Arrays are enumerated with libudev on the real root (unless built with
 * MDP_NO_UDEV for the static binary) and by a walk of /sys/block under a
 * fixture root; after that every value is read through root from the same
 * attribute files, so a fixture tree and a real kernel give the same model.
 *
 * Array identity matters more than names (md numbers change across
 * reboots), so the UUID is taken from the best source available: md/uuid
 * (Linux >= 5.9), then `mdadm --detail --export` (found under the root, so
 * a fixture can carry a fake one), then the
 * md superblock of a member read directly, else it stays unknown.
 */
#include "discover.h"
#include "mdp_base.h"
#include "mdstat.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MDP_NO_UDEV
#include <libudev.h>
#endif

#define SYS_BLOCK "/sys/block"

/* State of one discovery run; nothing here outlives mdp_discover(). */
struct walk {
	const struct mdp_root *r;
	struct mdp_diags *d;
	unsigned skip;            /* enum mdp_discover_skip */
	int err;                  /* first read error that is not absence: the run fails */
	bool mdstat_loaded;       /* read lazily: lean runs only need it without sync_action */
	struct mdp_mdstat mdstat; /* empty when /proc/mdstat is absent or unreadable */
	bool dsm;                 /* /etc.defaults/VERSION: DSM's system-array rule applies */
	bool blk_loaded;
	char **blk; /* /sys/block entries, for finding a partition's disk */
	size_t n_blk;
#ifndef MDP_NO_UDEV
	struct udev *udev; /* real root only: enumeration and the udev database */
#endif
};

struct names {
	char **v;
	size_t n, cap;
};

static int names_add(struct names *l, const char *s)
{
	if (mdp_grow_cap(&l->v, l->n, &l->cap, sizeof(*l->v)))
		return -ENOMEM;
	if (!(l->v[l->n] = strdup(s)))
		return -ENOMEM;
	l->n++;
	return 0;
}

static void names_free(struct names *l)
{
	mdp_root_free_list(l->v, l->n);
	memset(l, 0, sizeof(*l));
}

/* Copy s into a fixed field; false (and nothing copied) when it does not fit. */
static bool copy_str(char *dst, size_t cap, const char *s)
{
	size_t n = strlen(s);

	if (n >= cap)
		return false;
	memcpy(dst, s, n + 1);
	return true;
}

/*
 * Only a missing file is absence (raid1 has no stripe_cache_size, old
 * kernels no md/uuid); kernfs answers ENODEV for an attribute removed while
 * it is read, which is the array going away. Anything else (EACCES, EIO)
 * means the value exists and could not be read: planning without it would
 * take a present setting for a missing one.
 */
static bool absent(ssize_t err)
{
	return err == -ENOENT || err == -ENODEV;
}

/* A hard read error: reported with its file; the run fails with the first one. */
static ssize_t walk_fail(struct walk *w, const char *path, ssize_t err)
{
	if (w->skip & MDP_SKIP_UNREADABLE) {
		mdp_diags_add(w->d, path, 0, 0, "%s", mdp_root_strerror((int)-err));
		return err;
	}
	if (!w->err)
		w->err = (int)err;
	mdp_diags_add(w->d, NULL, 0, 0, "cannot read %s: %s", path, mdp_root_strerror((int)-err));
	return err;
}

/* Read a system file (stripped). Returns length, -ENOENT when absent, else -errno (recorded). */
static ssize_t read_sys(struct walk *w, const char *path, char *buf, size_t cap)
{
	ssize_t n = mdp_root_read_value(w->r, path, buf, cap);

	if (n >= 0)
		return n;
	return absent(n) ? -ENOENT : walk_fail(w, path, n);
}

/* Read /sys/block/<dev>/<attr>, as read_sys. */
static ssize_t read_attr(struct walk *w, const char *dev, const char *attr, char *buf, size_t cap)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), SYS_BLOCK "/%s/%s", dev, attr);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return read_sys(w, path, buf, cap);
}

/* Leading decimal number of text ("4 (3)" during a reshape gives 4). */
static int lead_u64(const char *text, uint64_t *out)
{
	const char *end;
	uint64_t v;

	if (mdp_num_lead(text, SIZE_MAX, &v, &end) || (*end && !strchr(" \n)", *end)))
		return -EINVAL;
	*out = v;
	return 0;
}

/* ---- enumeration ---------------------------------------------------------- */

/*
 * A candidate array: an mdN-like name. Whether it is a running array is
 * settled by reading md/level (read_array): a partition such as md0p1 or
 * a device without md/ has none, while an unreadable md/ is an error.
 */
static bool is_md_name(const char *name)
{
	return !strncmp(name, "md", 2) && mdp_ident_dev_ok(name);
}

/* The /sys/block listing, read once: the sysfs walk and find_disk need it. */
static int list_blk(struct walk *w)
{
	int err;

	if (w->blk_loaded)
		return 0;
	err = mdp_root_list(w->r, SYS_BLOCK, &w->blk, &w->n_blk);
	if (err == -ENOENT && (w->skip & MDP_SKIP_ABSENT_SYSFS)) {
		mdp_diags_add(w->d, NULL, 0, 0,
			      SYS_BLOCK " is not there: arrays as /proc/mdstat lists them");
		w->blk_loaded = true;
		return 0;
	}
	if (err) {
		mdp_diags_add(w->d, NULL, 0, 0, "cannot list " SYS_BLOCK ": %s",
			      mdp_root_strerror(-err));
		return err;
	}
	w->blk_loaded = true;
	return 0;
}

#ifndef MDP_NO_UDEV
/*
 * udev's view of block devices named md*: whole disks only (DEVTYPE), so
 * partitions of an array never show up as arrays.
 */
static int enum_udev(struct walk *w, struct names *out)
{
	struct udev_enumerate *e = udev_enumerate_new(w->udev);
	struct udev_list_entry *le;
	int err = -ENOMEM;

	if (!e)
		return err;
	if ((err = udev_enumerate_add_match_subsystem(e, "block")) ||
	    (err = udev_enumerate_add_match_sysname(e, "md*")) ||
	    (err = udev_enumerate_add_match_property(e, "DEVTYPE", "disk")) ||
	    (err = udev_enumerate_scan_devices(e)))
		goto out;
	udev_list_entry_foreach(le, udev_enumerate_get_list_entry(e))
	{
		const char *syspath = udev_list_entry_get_name(le);
		const char *base = syspath ? strrchr(syspath, '/') : NULL;
		if (base && is_md_name(base + 1) && (err = names_add(out, base + 1)))
			goto out;
	}
	err = 0;
out:
	udev_enumerate_unref(e);
	return err < 0 ? err : (err ? -EIO : 0);
}
#endif

static int enum_sysfs(struct walk *w, struct names *out)
{
	int err;

	if ((err = list_blk(w)))
		return err;
	for (size_t i = 0; i < w->n_blk; i++) {
		if (is_md_name(w->blk[i]) && (err = names_add(out, w->blk[i])))
			return err;
	}
	return 0;
}

/* md2 < md10: by number when both are mdN, numbered ones first, else by name. */
static int cmp_md(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;
	uint64_t na, nb;
	bool numa = !mdp_num_parse(a + 2, 0, UINT32_MAX, &na);
	bool numb = !mdp_num_parse(b + 2, 0, UINT32_MAX, &nb);

	if (numa && numb)
		return na < nb ? -1 : na > nb;
	if (numa != numb)
		return numa ? -1 : 1;
	return strcmp(a, b);
}

static int enumerate(struct walk *w, struct names *out)
{
	int err;

#ifndef MDP_NO_UDEV
	if (w->udev) {
		if ((err = enum_udev(w, out)))
			mdp_diags_add(w->d, NULL, 0, 0, "cannot enumerate md arrays: %s",
				      strerror(-err));
	} else
#endif
		err = enum_sysfs(w, out);
	if (err)
		return err;
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_md);
	return 0;
}

/* ---- members ------------------------------------------------------------- */

/* Does /sys/block/<disk>/<member> exist for disk = member minus its partition suffix? */
static bool guess_disk(const struct walk *w, const char *member, char *disk)
{
	char cand[MDP_NAME_MAX], path[PATH_MAX];
	size_t n = strlen(member);

	if (n >= sizeof(cand))
		return false;
	while (n > 0 && member[n - 1] >= '0' && member[n - 1] <= '9')
		n--;
	if (n == strlen(member) || n == 0)
		return false;
	/* "p" separates the partition number when the disk name ends in a digit. */
	if (n >= 2 && member[n - 1] == 'p' && member[n - 2] >= '0' && member[n - 2] <= '9')
		n--;
	memcpy(cand, member, n);
	cand[n] = '\0';
	snprintf(path, sizeof(path), SYS_BLOCK "/%s/%s", cand, member);
	if (!mdp_root_is_dir(w->r, path))
		return false;
	copy_str(disk, MDP_NAME_MAX, cand);
	return true;
}

/* The /sys/block entry holding member: itself for a whole disk, else its parent. */
static void find_disk(struct walk *w, const char *member, char *disk)
{
	char path[PATH_MAX];

	disk[0] = '\0';
	/* Kernel partition names: sda5 -> sda, nvme0n1p1 / sata1p5 -> nvme0n1 / sata1. */
	if (guess_disk(w, member, disk))
		return;
	snprintf(path, sizeof(path), SYS_BLOCK "/%s", member);
	if (mdp_root_is_dir(w->r, path)) {
		copy_str(disk, MDP_NAME_MAX, member);
		return;
	}
	if (list_blk(w))
		return;
	for (size_t i = 0; i < w->n_blk; i++) {
		int n = snprintf(path, sizeof(path), SYS_BLOCK "/%s/%s", w->blk[i], member);
		if (n > 0 && (size_t)n < sizeof(path) && mdp_root_is_dir(w->r, path) &&
		    copy_str(disk, MDP_NAME_MAX, w->blk[i]))
			return;
	}
}

/* md/dev-X/state: "in_sync", "faulty", "spare,write_mostly", ... as md writes it. */
static void read_member_state(struct walk *w, const char *md, struct mdp_member *m)
{
	char attr[PATH_MAX], buf[64];

	snprintf(attr, sizeof(attr), "md/dev-%s/state", m->name);
	if (read_attr(w, md, attr, buf, sizeof(buf)) < 0 ||
	    !copy_str(m->state, sizeof(m->state), buf))
		m->state[0] = '\0';
}

/* ---- DSM facts and member states --------------------------------------------- */

const struct mdp_discover_dsm mdp_discover_dsm = {
    .version_file = "/etc.defaults/VERSION",
    .system_arrays = {"md0", "md1"},
    .system_level = "raid1",
    .system_super = "0.90",
    .raid_setting = "/usr/syno/etc/raid_setting.conf",
    .speed_section = "ResyncSpeed",
    .presets = {{"resync_slower", 10000, 600000}, {"resync_faster", 300000, 600000}},
};

const char *mdp_mstate_name(enum mdp_mstate st)
{
	static const char *const names[] = {
	    [MDP_M_IN_SYNC] = "in_sync", [MDP_M_FAILED] = "failed",
	    [MDP_M_SPARE] = "spare",     [MDP_M_REBUILDING] = "spare_rebuilding",
	    [MDP_M_JOURNAL] = "journal",
	};

	return (unsigned)st < sizeof(names) / sizeof(names[0]) ? names[st] : "in_sync";
}

/* word is one of the comma-separated words of list ("spare,write_mostly"). */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p; p = strchr(p, ','), p = p ? p + 1 : NULL) {
		if (!strncmp(p, word, n) && (p[n] == ',' || p[n] == '\0' || p[n] == '\n'))
			return true;
	}
	return false;
}

/*
 * md/dev-X/state (md.c state_show): a member with a role that is not in
 * sync yet reads "spare" like one without a role; its slot tells them
 * apart, as mdadm does ("spare rebuilding").
 */
static enum mdp_mstate mstate_sysfs(const struct mdp_member *m)
{
	if (has_word(m->state, "faulty"))
		return MDP_M_FAILED;
	if (has_word(m->state, "journal"))
		return MDP_M_JOURNAL;
	if (has_word(m->state, "in_sync"))
		return MDP_M_IN_SYNC;
	if (has_word(m->state, "spare"))
		return m->slot >= 0 ? MDP_M_REBUILDING : MDP_M_SPARE;
	return MDP_M_IN_SYNC;
}

#define MS_NO_ROLE (MDP_MS_FAULTY | MDP_MS_SPARE | MDP_MS_JOURNAL | MDP_MS_REPLACEMENT)

/*
 * mdstat's flags (md.c md_seq_show): (F), (S), (J), (R); Synology's (E).
 * A member being rebuilt into a role carries no flag: when more members
 * hold roles than [n/m] counts working, the extra ones are being rebuilt,
 * and they are the newest, with the highest descriptor numbers (mdadm
 * gives an added disk the next one).
 */
static enum mdp_mstate mstate_mdstat(const struct mdp_mdstat_array *ms,
				     const struct mdp_mdstat_member *mb)
{
	size_t roles = 0, newer = 0;

	if (mb->flags & (MDP_MS_FAULTY | MDP_MS_ERROR))
		return MDP_M_FAILED;
	if (mb->flags & MDP_MS_JOURNAL)
		return MDP_M_JOURNAL;
	if (mb->flags & MDP_MS_SPARE)
		return MDP_M_SPARE;
	if (mb->flags & MDP_MS_REPLACEMENT)
		return MDP_M_REBUILDING;
	if (!ms->raid_disks || ms->n_members != ms->n_members_all)
		return MDP_M_IN_SYNC;
	for (size_t i = 0; i < ms->n_members; i++) {
		if (ms->members[i].flags & MS_NO_ROLE)
			continue;
		roles++;
		newer += ms->members[i].desc > mb->desc;
	}
	return roles > (size_t)ms->working && newer < roles - (size_t)ms->working ? MDP_M_REBUILDING
										  : MDP_M_IN_SYNC;
}

static const struct mdp_mdstat_member *mdstat_member(const struct mdp_mdstat_array *ms,
						     const char *name)
{
	for (size_t i = 0; ms && i < ms->n_members; i++) {
		if (!strcmp(ms->members[i].name, name))
			return &ms->members[i];
	}
	return NULL;
}

static void set_mstates(struct mdp_array *a, const struct mdp_mdstat_array *ms)
{
	for (size_t i = 0; i < a->n_members; i++) {
		struct mdp_member *m = &a->members[i];
		const struct mdp_mdstat_member *mb = mdstat_member(ms, m->name);
		m->disk_errors = mb && (mb->flags & MDP_MS_ERROR);
		if (m->state[0])
			m->mstate = m->disk_errors ? MDP_M_FAILED : mstate_sysfs(m);
		else
			m->mstate = mb ? mstate_mdstat(ms, mb) : MDP_M_IN_SYNC;
	}
}

/*
 * DSM's md0/md1 with empty bays (the DSM facts in discover.h): their '_'
 * slots that no failed or rebuilding member explains are empty bays, not
 * missing disks. missing is what md says is missing (-1 unknown).
 */
static void dsm_empty_bays(bool dsm, struct mdp_array *a, const char *super, int missing)
{
	const struct mdp_discover_dsm *f = &mdp_discover_dsm;
	int held = 0;

	if (!dsm || missing <= 0 || strcmp(a->level_name, f->system_level) ||
	    strcmp(super, f->system_super) ||
	    (strcmp(a->name, f->system_arrays[0]) && strcmp(a->name, f->system_arrays[1])))
		return;
	/* a faulty or rebuilding member holds one of the '_' slots; (E) keeps its 'U' */
	for (size_t i = 0; i < a->n_members; i++)
		held += (a->members[i].mstate == MDP_M_FAILED && !a->members[i].disk_errors) ||
			a->members[i].mstate == MDP_M_REBUILDING;
	if (held >= missing)
		return;
	a->empty_bays = missing - held;
	a->degraded = held;
}

static bool is_system_array(const struct mdp_array *a)
{
	return !strcmp(a->name, mdp_discover_dsm.system_arrays[0]) ||
	       !strcmp(a->name, mdp_discover_dsm.system_arrays[1]);
}

static bool has_disk(const struct mdp_array *a, const char *disk)
{
	for (size_t i = 0; i < a->n_members; i++)
		if (!strcmp(a->members[i].disk, disk))
			return true;
	return false;
}

/*
 * An empty bay leaves md0/md1's slot empty and no data array misses a disk;
 * a disk that failed leaves its slot empty there and in the data arrays it
 * held. So a data array missing k members, when fewer than k of md0's (or
 * md1's) disks are not among its own, misses a disk md0 lacks as well: that
 * many of md0's "empty bays" are a failed disk, and md0 is degraded.
 */
static void dsm_failed_disks(struct mdp_system *s)
{
	for (size_t i = 0; s->dsm && i < s->n_arrays; i++) {
		struct mdp_array *sys = &s->arrays[i];
		int failed = 0;
		if (!sys->empty_bays || !is_system_array(sys))
			continue;
		for (size_t k = 0; k < s->n_arrays; k++) {
			const struct mdp_array *a = &s->arrays[k];
			int elsewhere = 0;
			if (is_system_array(a) || a->degraded <= 0)
				continue;
			for (size_t m = 0; m < sys->n_members; m++)
				elsewhere += !has_disk(a, sys->members[m].disk);
			if (a->degraded - elsewhere > failed)
				failed = a->degraded - elsewhere;
		}
		if (failed > sys->empty_bays)
			failed = sys->empty_bays;
		sys->empty_bays -= failed;
		sys->degraded += failed;
	}
}

/* mdstat's header state in sysfs's words: (auto-read-only) is read-auto, as md/array_state. */
static const char *mdstat_state_word(const struct mdp_mdstat_array *ms)
{
	if (!strcmp(ms->ro, "auto-read-only"))
		return "read-auto";
	if (!strcmp(ms->ro, "read-only"))
		return "readonly";
	return ms->state;
}

/* mdstat's action in sysfs's words: "recovery" is md/sync_action's "recover". */
static const char *mdstat_op_word(const char *op)
{
	return strcmp(op, "recovery") ? op : "recover";
}

/* md/dev-X/slot: the role number, "none" (spare) or "journal" -> -1. */
static int read_slot(struct walk *w, const char *md, const char *member)
{
	char attr[PATH_MAX], buf[32];
	uint64_t v;

	snprintf(attr, sizeof(attr), "md/dev-%s/slot", member);
	if (read_attr(w, md, attr, buf, sizeof(buf)) < 0 || lead_u64(buf, &v) || v > INT32_MAX)
		return -1;
	return (int)v;
}

static int add_member(struct walk *w, struct mdp_array *a, const char *name, bool slots)
{
	struct mdp_member *m;

	/* Names read from directories end up in paths: only plain device names pass. */
	if (!mdp_ident_kname_ok(name, strlen(name)))
		return 0;
	if (!(m = mdp_push(&a->members, &a->n_members, sizeof(*m))))
		return -ENOMEM;
	copy_str(m->name, sizeof(m->name), name);
	m->slot = slots ? read_slot(w, a->name, name) : -1;
	if (slots)
		read_member_state(w, a->name, m);
	if (!(w->skip & MDP_SKIP_MEMBER_DISKS))
		find_disk(w, name, m->disk);
	return 0;
}

/* By role; spares and unknown roles last; then by name. */
static int cmp_member(const void *pa, const void *pb)
{
	const struct mdp_member *a = pa, *b = pb;
	unsigned sa = (unsigned)a->slot, sb = (unsigned)b->slot; /* -1 sorts last */

	if (sa != sb)
		return sa < sb ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* List /sys/block/<md>/<sub>: 0, -ENOENT when absent, else -errno (recorded as read_sys). */
static int list_sub(struct walk *w, const char *md, const char *sub, char ***v, size_t *n)
{
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), SYS_BLOCK "/%s/%s", md, sub);
	if (!(err = mdp_root_list(w->r, path, v, n)) || absent(err))
		return err ? -ENOENT : 0;
	return (int)walk_fail(w, path, err);
}

/* md/dev-* entries (they carry the role); the slaves/ directory otherwise. */
static int read_members(struct walk *w, struct mdp_array *a)
{
	char **v = NULL;
	size_t n = 0;
	int err = 0;

	if (!list_sub(w, a->name, "md", &v, &n)) {
		for (size_t i = 0; i < n && !err; i++) {
			if (!strncmp(v[i], "dev-", 4))
				err = add_member(w, a, v[i] + 4, true);
		}
		mdp_root_free_list(v, n);
	}
	if (!err && !a->n_members && !list_sub(w, a->name, "slaves", &v, &n)) {
		for (size_t i = 0; i < n && !err; i++)
			err = add_member(w, a, v[i], false);
		mdp_root_free_list(v, n);
	}
	if (!err && a->n_members > 1)
		qsort(a->members, a->n_members, sizeof(*a->members), cmp_member);
	return err;
}

/* ---- progress and size ----------------------------------------------------- */

int mdp_discover_parse_sync_completed(const char *text, uint64_t *done, uint64_t *total)
{
	uint64_t dn, tt;
	const char *p;

	if (!text)
		return -EINVAL;
	if (!strcmp(text, "none") || !strcmp(text, "none\n") || !strcmp(text, "delayed") ||
	    !strcmp(text, "delayed\n"))
		return -ENODATA;
	if (lead_u64(text, &dn) || !(p = strchr(text, ' ')) || strncmp(p, " / ", 3) ||
	    lead_u64(p + 3, &tt))
		return -EINVAL;
	p += 3 + strspn(p + 3, "0123456789");
	if (*p && strcmp(p, "\n"))
		return -EINVAL;
	*done = dn;
	*total = tt;
	return 0;
}

/*
 * /proc/mdstat, read once and only when needed: an unreadable one only
 * costs the fallback; a garbled one is reported.
 */
static const struct mdp_mdstat_array *mdstat_of(struct walk *w, const char *md)
{
	char *text;
	size_t len;

	if (!w->mdstat_loaded && !mdp_root_read_all(w->r, "/proc/mdstat", &text, &len)) {
		/* Lines it cannot read are notes; the arrays it can read still count. */
		if (mdp_mdstat_parse(text, len, &w->mdstat, w->d) == -ENOMEM)
			w->err = -ENOMEM;
		free(text);
	}
	w->mdstat_loaded = true;
	return mdp_mdstat_find(&w->mdstat, md);
}

unsigned mdp_discover_permille(uint64_t done, uint64_t total)
{
	unsigned scale = 10;
	uint64_t res;

	if (!total)
		return 0;
	if (done > total)
		done = total;
	/* md.c: pick scale so (done >> scale) * 1000 cannot overflow */
	while (total / 2 > (1ULL << (scale + 32)) && scale < 63)
		scale++;
	res = (done >> scale) * 1000 / ((total >> scale) + 1);
	return res > 1000 ? 1000 : (unsigned)res;
}

/* What md shows of an operation only in /proc/mdstat: its queue state and its own ETA. */
static void queue_from_mdstat(struct mdp_array *a, const struct mdp_mdstat_array *ms)
{
	if (!ms || !ms->op[0])
		return;
	copy_str(a->sync_queued, sizeof(a->sync_queued), ms->op_state);
	if (ms->finish_min > 0 && ms->finish_min < 1e9)
		a->kernel_eta_s = (uint64_t)(ms->finish_min * 60.0 + 0.5);
	if (!ms->op_state[0])
		a->permille = ms->permille; /* the kernel's own figure, as printed */
}

/* Progress from /proc/mdstat, which counts KiB blocks where sysfs counts sectors. */
static void progress_from_mdstat(struct mdp_array *a, const struct mdp_mdstat_array *ms)
{
	if (!ms || !ms->op[0] || !ms->total || ms->total > UINT64_MAX / 2)
		return;
	a->has_progress = true;
	a->sync_done = ms->done * 2;
	a->sync_total = ms->total * 2;
}

/*
 * The planner needs this one even when progress is skipped (reshape rule),
 * so lean and full runs take it the same way: md/sync_action, else the
 * operation /proc/mdstat shows. diff and apply then plan alike.
 */
static void read_sync_action(struct walk *w, struct mdp_array *a)
{
	const struct mdp_mdstat_array *ms;
	char buf[32];

	if (read_attr(w, a->name, "md/sync_action", buf, sizeof(buf)) >= 0) {
		copy_str(a->sync_action, sizeof(a->sync_action), buf);
		return;
	}
	if ((ms = mdstat_of(w, a->name)) && ms->op[0])
		copy_str(a->sync_action, sizeof(a->sync_action), mdstat_op_word(ms->op));
}

/* md's own speed of the running operation: md/sync_speed, else mdstat's speed=. */
static void read_speed(struct walk *w, struct mdp_array *a)
{
	const struct mdp_mdstat_array *ms;
	char buf[64];
	uint64_t v;

	if (read_attr(w, a->name, "md/sync_speed", buf, sizeof(buf)) >= 0) {
		if (!lead_u64(buf, &v)) {
			a->sync_speed = v;
			a->sync_speed_md = true;
		} else if (!strncmp(buf, "none", 4))
			a->no_sync_thread = true;
	} else if ((ms = mdstat_of(w, a->name)) && ms->op[0]) {
		a->sync_speed = ms->speed_kib;
	}
}

/* A number md shows in md/attr, or -1 when absent or not a number. */
static int64_t read_num(struct walk *w, const char *md, const char *attr)
{
	char buf[64];
	uint64_t v;

	if (read_attr(w, md, attr, buf, sizeof(buf)) < 0 || lead_u64(buf, &v) || v > INT64_MAX)
		return -1;
	return (int64_t)v;
}

/* Where the operation may go (sync_max, suspend_hi), the chunk, the stripe cache's use. */
static void read_shape(struct walk *w, struct mdp_array *a)
{
	char buf[64];

	if (read_attr(w, a->name, "md/sync_max", buf, sizeof(buf)) >= 0)
		copy_str(a->sync_max, sizeof(a->sync_max), buf);
	if (read_attr(w, a->name, "md/bitmap/location", buf, sizeof(buf)) >= 0)
		copy_str(a->bitmap, sizeof(a->bitmap), buf);
	if (read_attr(w, a->name, "md/reshape_position", buf, sizeof(buf)) >= 0)
		copy_str(a->reshape_position, sizeof(a->reshape_position), buf);
	a->stripe_cache_active = read_num(w, a->name, "md/stripe_cache_active");
	a->suspend_hi = read_num(w, a->name, "md/suspend_hi");
	if ((a->chunk_kib = read_num(w, a->name, "md/chunk_size")) > 0)
		a->chunk_kib /= 1024;
}

static void read_progress(struct walk *w, struct mdp_array *a)
{
	const struct mdp_mdstat_array *ms = mdstat_of(w, a->name);
	char buf[128];
	uint64_t v;
	int err = -ENOENT;

	if (read_attr(w, a->name, "md/array_state", buf, sizeof(buf)) >= 0)
		copy_str(a->array_state, sizeof(a->array_state), buf);
	else if (ms) /* an inactive array may have only md/level and md/raid_disks */
		copy_str(a->array_state, sizeof(a->array_state), mdstat_state_word(ms));
	read_sync_action(w, a);
	/* md/sync_action reads idle while mdstat says resync=PENDING (an auto-read-only array) */
	if (ms && ms->op[0] && ms->op_state[0] &&
	    (!a->sync_action[0] || !strcmp(a->sync_action, "idle")))
		copy_str(a->sync_action, sizeof(a->sync_action), mdstat_op_word(ms->op));
	if (read_attr(w, a->name, "md/sync_completed", buf, sizeof(buf)) >= 0) {
		copy_str(a->sync_completed, sizeof(a->sync_completed), buf);
		err = mdp_discover_parse_sync_completed(buf, &a->sync_done, &a->sync_total);
	}
	a->has_progress = err == 0;
	if (err && err != -ENODATA)
		progress_from_mdstat(a, ms);
	if (a->has_progress)
		a->permille = mdp_discover_permille(a->sync_done, a->sync_total);
	queue_from_mdstat(a, ms);
	if (err == -ENODATA && !strncmp(buf, "delayed", 7) && !a->sync_queued[0])
		copy_str(a->sync_queued, sizeof(a->sync_queued), "DELAYED");
	if (read_attr(w, a->name, "md/degraded", buf, sizeof(buf)) >= 0 && !lead_u64(buf, &v) &&
	    v <= INT32_MAX)
		a->degraded = (int)v;
	read_speed(w, a);
	if (ms && ms->blocks)
		a->size_kib = ms->blocks;
	else if (read_attr(w, a->name, "size", buf, sizeof(buf)) >= 0 && !lead_u64(buf, &v))
		a->size_kib = v / 2;
	read_shape(w, a);
}

/* ---- tunables -------------------------------------------------------------- */

static void read_cur(struct walk *w, enum mdp_tunable t, const char *dev, struct mdp_cur *c)
{
	char path[PATH_MAX], buf[128];
	struct mdp_value v;
	ssize_t n;

	memset(c, 0, sizeof(*c));
	if (mdp_tunable_path(t, dev, path, sizeof(path)))
		return;
	if ((n = read_sys(w, path, buf, sizeof(buf))) < 0)
		return; /* absent (stripe_cache_size on raid1, and so on) or recorded */
	if ((size_t)n >= sizeof(c->raw) || mdp_tunable_parse(t, buf, &v)) {
		mdp_diags_add(w->d, NULL, 0, 0, "%s: unexpected value '%.40s'", path, buf);
		return;
	}
	c->present = true;
	memcpy(c->raw, buf, (size_t)n + 1);
	c->val = v;
}

static void read_tunables(struct walk *w, struct mdp_cur *cur, enum mdp_scope scope,
			  const char *dev)
{
	for (int t = 0; t < MDP_T_COUNT; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info((enum mdp_tunable)t);
		if (ti && ti->scope == scope)
			read_cur(w, (enum mdp_tunable)t, dev, &cur[t]);
		else
			memset(&cur[t], 0, sizeof(cur[t]));
	}
}

/* ---- UUID ------------------------------------------------------------------ */

/* Kernel and mdadm UUIDs follow the same rule as profiles, after the trailing newline. */
int mdp_discover_uuid_norm(const char *text, char *out, size_t cap)
{
	char buf[64];
	size_t n;

	if (!text || cap < 33 || (n = strcspn(text, "\n")) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return mdp_ident_uuid_norm(buf, out);
}

int mdp_discover_mdadm_uuid(const char *text, size_t len, char *out, size_t cap)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n > 8 && n < 64 && !memcmp(p, "MD_UUID=", 8)) {
			char val[64];
			memcpy(val, p + 8, n - 8);
			val[n - 8] = '\0';
			return mdp_discover_uuid_norm(val, out, cap);
		}
		p = nl ? nl + 1 : end;
	}
	return -ENOENT;
}

/*
 * md/uuid prints the kernel's 16 uuid bytes in order. For 0.90 metadata the
 * kernel copied four host-endian words there, while mdadm prints each word
 * as a number; swap within words so both sources name the array the same.
 */
static void uuid_swap_words(char *hex)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (int wd = 0; wd < 4; wd++) {
		char *h = hex + wd * 8;
		for (int i = 0; i < 2; i++) {
			char a0 = h[i * 2], a1 = h[i * 2 + 1];
			h[i * 2] = h[6 - i * 2];
			h[i * 2 + 1] = h[7 - i * 2];
			h[6 - i * 2] = a0;
			h[7 - i * 2] = a1;
		}
	}
#else
	(void)hex;
#endif
}

static bool uuid_from_sysfs(struct walk *w, struct mdp_array *a)
{
	char buf[128], meta[32];

	if (read_attr(w, a->name, "md/uuid", buf, sizeof(buf)) < 0 ||
	    mdp_discover_uuid_norm(buf, a->uuid, sizeof(a->uuid)))
		return false;
	if (read_attr(w, a->name, "md/metadata_version", meta, sizeof(meta)) >= 0 &&
	    !strcmp(meta, "0.90"))
		uuid_swap_words(a->uuid);
	return true;
}

/*
 * The udev record is what the md rules imported from `mdadm --detail
 * --export` at the array's last add/change event. It is only believed
 * while it still describes the array behind this md number now: same level,
 * same disk count (either count mid-reshape). A record left behind by an
 * array that had this number before, or one written before a reshape
 * finished, falls through to the next source.
 */
int mdp_discover_udev_uuid(const char *uuid, const char *level, const char *devices,
			   const struct mdp_array *a, char *out, size_t cap)
{
	char hex[33];
	uint64_t n;

	if (!uuid || !level)
		return -ENOENT;
	if (strcmp(level, a->level_name))
		return -ESTALE;
	if (devices && (lead_u64(devices, &n) || !n ||
			(n != (uint64_t)a->raid_disks && n != (uint64_t)a->prev_raid_disks)))
		return -ESTALE;
	if (cap < sizeof(hex) || mdp_discover_uuid_norm(uuid, hex, sizeof(hex)))
		return -EINVAL;
	memcpy(out, hex, sizeof(hex));
	return 0;
}

#ifndef MDP_NO_UDEV
/* The array's udev record, if udev has one (is_initialized: udevd processed it). */
static bool uuid_from_udev(struct walk *w, struct mdp_array *a)
{
	struct udev_device *dev;
	int err = -ENOENT;

	if (!w->udev || !(dev = udev_device_new_from_subsystem_sysname(w->udev, "block", a->name)))
		return false;
	if (udev_device_get_is_initialized(dev) > 0)
		err = mdp_discover_udev_uuid(udev_device_get_property_value(dev, "MD_UUID"),
					     udev_device_get_property_value(dev, "MD_LEVEL"),
					     udev_device_get_property_value(dev, "MD_DEVICES"), a,
					     a->uuid, sizeof(a->uuid));
	udev_device_unref(dev);
	return err == 0;
}
#else
static bool uuid_from_udev(struct walk *w, struct mdp_array *a)
{
	(void)w;
	(void)a;
	return false;
}
#endif

#define MDADM_TIMEOUT_MS 10000

/* `mdadm --detail --export /dev/mdN` through exec: no shell, fixed paths, bounded time. */
static int uuid_from_mdadm(const struct mdp_root *r, const char *md, char *out, size_t cap,
			   struct mdp_diags *d)
{
	const char *argv[] = {"mdadm", "--detail", "--export", NULL, NULL};
	struct mdp_exec_result *res;
	char dev[64];
	int err;

	if ((size_t)snprintf(dev, sizeof(dev), "/dev/%s", md) >= sizeof(dev))
		return -ENAMETOOLONG;
	argv[3] = dev;
	if (!(res = malloc(sizeof(*res))))
		return -ENOMEM;
	err = mdp_exec_run(r, argv, MDADM_TIMEOUT_MS, res, d);
	if (!err && res->exit_code != 0)
		err = -EIO;
	if (!err)
		err = mdp_discover_mdadm_uuid(res->out, res->out_len, out, cap);
	free(res);
	return err;
}

static int pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got, off + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		got += (size_t)n;
	}
	return 0;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static uint32_t host32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#define MD_SB_MAGIC 0xa92b4efcu

static void hex_bytes(const unsigned char *b, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[i * 2] = digits[b[i] >> 4];
		out[i * 2 + 1] = digits[b[i] & 15];
	}
	out[n * 2] = '\0';
}

/*
 * v1.x at byte offset off: little-endian; the kernel also insists that
 * super_offset (byte 144, in sectors) names where it was found, which
 * keeps a stale or nested superblock from being taken for this one.
 */
static int sb1_at(int fd, off_t off, char *out)
{
	unsigned char sb[256];
	int err;

	if ((err = pread_full(fd, sb, sizeof(sb), off)))
		return err;
	if (le32(sb) != MD_SB_MAGIC || le32(sb + 4) != 1 || le64(sb + 144) != (uint64_t)off / 512)
		return -ENOENT;
	hex_bytes(sb + 16, 16, out);
	return 0;
}

/* 0.90: host-endian words; mdadm prints set_uuid0 (word 5) and words 13..15 as numbers. */
static int sb090_at(int fd, off_t off, char *out)
{
	unsigned char sb[64];
	static const int words[4] = {5, 13, 14, 15};
	int err;

	if ((err = pread_full(fd, sb, sizeof(sb), off)))
		return err;
	if (host32(sb) != MD_SB_MAGIC || host32(sb + 4) != 0 || host32(sb + 8) != 90)
		return -ENOENT;
	for (int i = 0; i < 4; i++)
		snprintf(out + i * 8, 9, "%08" PRIx32, host32(sb + words[i] * 4));
	return 0;
}

int mdp_discover_sb_uuid(int fd, char *out, size_t cap)
{
	char hex[33];
	off_t size = lseek(fd, 0, SEEK_END);

	if (cap < sizeof(hex))
		return -EINVAL;
	if (size < 0)
		return -errno;
	if ((size >= 4096 + 256 && !sb1_at(fd, 4096, hex)) || (size >= 256 && !sb1_at(fd, 0, hex)))
		goto found;
	/* 1.0: 8 KiB from the end, rounded down to 4 KiB */
	if (size >= 8192 && !sb1_at(fd, ((size - 8192) & ~(off_t)4095), hex))
		goto found;
	/* 0.90: the last 64 KiB-aligned 64 KiB block */
	if (size >= 65536 && !sb090_at(fd, (size & ~(off_t)65535) - 65536, hex))
		goto found;
	return -ENOENT;
found:
	memcpy(out, hex, sizeof(hex));
	return 0;
}

static bool uuid_from_superblock(const struct walk *w, struct mdp_array *a)
{
	char path[PATH_MAX];

	/* members are sorted by role, so active members are tried before spares */
	for (size_t i = 0; i < a->n_members; i++) {
		struct stat st;
		int fd, err;
		snprintf(path, sizeof(path), "/dev/%s", a->members[i].name);
		/*
		 * O_NONBLOCK: a FIFO (or a tty) at that name in a --root tree
		 * would block open() for ever. Only a block device (a regular
		 * file in a fixture tree) has a superblock to read.
		 */
		if ((fd = mdp_root_open(w->r, path, O_RDONLY | O_NOCTTY | O_NONBLOCK, 0)) < 0)
			continue;
		err = fstat(fd, &st) || !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))
			  ? -EINVAL
			  : mdp_discover_sb_uuid(fd, a->uuid, sizeof(a->uuid));
		close(fd);
		if (!err)
			return true;
	}
	return false;
}

/*
 * udev first where it runs: its record names the array exactly as mdadm
 * does on every kernel (no 0.90 word order to undo) and costs no process;
 * md/uuid where udev has no record (Linux >= 5.9); then mdadm, which is
 * what DSM's 3.10/4.4 kernels need; then a member's superblock.
 */
static void read_uuid(struct walk *w, struct mdp_array *a)
{
	if (uuid_from_udev(w, a)) {
		a->uuid_source = "udev";
	} else if (uuid_from_sysfs(w, a)) {
		a->uuid_source = "md/uuid";
	} else if (!uuid_from_mdadm(w->r, a->name, a->uuid, sizeof(a->uuid), w->d)) {
		a->uuid_source = "mdadm";
	} else if (uuid_from_superblock(w, a)) {
		a->uuid_source = "superblock";
	} else {
		a->uuid[0] = '\0';
		a->uuid_source = "unknown";
	}
}

/* ---- arrays ------------------------------------------------------------------ */

/*
 * "4" or, while a reshape changes the count, "4 (3)": new count, then the
 * old one. A count that does not parse stays 0 (unknown), said here; the
 * planner then leaves the stripe cache alone, as its memory is unknown.
 */
static void read_raid_disks(struct walk *w, struct mdp_array *a)
{
	char buf[64];
	const char *open;
	uint64_t v;

	if (read_attr(w, a->name, "md/raid_disks", buf, sizeof(buf)) < 0)
		return;
	if (!lead_u64(buf, &v) && v <= INT32_MAX)
		a->raid_disks = (int)v; /* 0 on an array not started: unknown too */
	else
		mdp_diags_add(w->d, NULL, 0, 0,
			      SYS_BLOCK "/%s/md/raid_disks: unexpected value '%.40s'", a->name,
			      buf);
	if ((open = strchr(buf, '(')) && !lead_u64(open + 1, &v) && v <= INT32_MAX)
		a->prev_raid_disks = (int)v;
}

/* DSM's md0/md1: their superblock version, and what md says is missing. */
static void dsm_rule(struct walk *w, struct mdp_array *a)
{
	const struct mdp_mdstat_array *ms = mdp_mdstat_find(&w->mdstat, a->name);
	char meta[32];
	int missing = a->degraded;

	if (read_attr(w, a->name, "md/metadata_version", meta, sizeof(meta)) < 0)
		meta[0] = '\0';
	if (missing < 0 && ms && ms->raid_disks)
		missing = ms->raid_disks - ms->working;
	dsm_empty_bays(true, a, meta, missing);
}

/* 0 read, 1 not an array or vanished (skip it), -errno. */
static int read_array(struct walk *w, const char *name, struct mdp_array *a)
{
	char buf[64], path[PATH_MAX];
	ssize_t n;
	int err;

	memset(a, 0, sizeof(*a));
	a->degraded = -1;
	a->stripe_cache_active = a->chunk_kib = a->suspend_hi = -1;
	copy_str(a->name, sizeof(a->name), name);
	if ((n = read_attr(w, name, "md/level", buf, sizeof(buf))) < 0) {
		/* md creates md/level with md/: an md/ without it is half there; say so */
		snprintf(path, sizeof(path), SYS_BLOCK "/%s/md", name);
		if (n == -ENOENT && mdp_root_is_dir(w->r, path))
			mdp_diags_add(w->d, NULL, 0, 0,
				      "%s/level: missing, so %s is not read from sysfs", path,
				      name);
		return 1;
	}
	copy_str(a->level_name, sizeof(a->level_name), buf);
	a->level = mdp_ident_level_parse(a->level_name);
	read_raid_disks(w, a);
	if (!(w->skip & MDP_SKIP_MEMBERS) && (err = read_members(w, a))) {
		free(a->members);
		return err;
	}
	if (w->skip & MDP_SKIP_PROGRESS) {
		read_sync_action(w, a);
		/* apply journals it: status shows the speed then and now */
		if (a->sync_action[0] && strcmp(a->sync_action, "idle"))
			read_speed(w, a);
	} else
		read_progress(w, a);
	set_mstates(a, w->mdstat_loaded ? mdp_mdstat_find(&w->mdstat, name) : NULL);
	if (w->dsm && !(w->skip & MDP_SKIP_PROGRESS))
		dsm_rule(w, a);
	if (w->skip & MDP_SKIP_UUID)
		a->uuid_source = "not read";
	else
		read_uuid(w, a);
	read_tunables(w, a->cur, MDP_SCOPE_ARRAY, name);
	return 0;
}

static int read_arrays(struct walk *w, const struct names *l, struct mdp_system *s)
{
	if (!l->n)
		return 0;
	if (!(s->arrays = calloc(l->n, sizeof(*s->arrays))))
		return -ENOMEM;
	for (size_t i = 0; i < l->n; i++) {
		int err = read_array(w, l->v[i], &s->arrays[s->n_arrays]);
		if (err < 0)
			return err;
		if (err == 0)
			s->n_arrays++;
	}
	return 0;
}

/* ---- disks, memory, boot ------------------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The class of a whole disk (discover.h): its name or device path, then queue/rotational. */
static enum mdp_media read_media(struct walk *w, const char *disk)
{
	char path[PATH_MAX], link[PATH_MAX], buf[16];
	bool linked;
	uint64_t v;
	int rot = -1;

	snprintf(path, sizeof(path), SYS_BLOCK "/%s", disk);
	linked = !mdp_root_readlink(w->r, path, link, sizeof(link));
	if (read_attr(w, disk, "queue/rotational", buf, sizeof(buf)) >= 0 && !lead_u64(buf, &v) &&
	    v <= 1)
		rot = (int)v;
	return mdp_ident_disk_media(disk, linked ? link : NULL, rot);
}

/* Each array's class from its members' disks (discover.h). */
static void array_media(struct mdp_system *s)
{
	for (size_t i = 0; i < s->n_arrays; i++) {
		struct mdp_array *a = &s->arrays[i];
		a->media_bits = a->n_members ? 0 : 1u << MDP_MEDIA_UNKNOWN;
		for (size_t j = 0; j < a->n_members; j++) {
			const struct mdp_disk *dk = mdp_system_disk(s, a->members[j].disk);
			a->media_bits |= 1u << (dk ? dk->media : MDP_MEDIA_UNKNOWN);
		}
		if (a->media_bits & 1u << MDP_MEDIA_UNKNOWN)
			a->media = MDP_MEDIA_UNKNOWN;
		else if (a->media_bits & (a->media_bits - 1))
			a->media = MDP_MEDIA_MIXED;
		else
			for (int m = MDP_MEDIA_HDD; m <= MDP_MEDIA_NVME; m++)
				if (a->media_bits == 1u << m)
					a->media = (enum mdp_media)m;
	}
}

static int read_disks(struct walk *w, struct mdp_system *s)
{
	struct names l = {0};
	int err = 0;

	for (size_t i = 0; i < s->n_arrays && !err; i++) {
		for (size_t j = 0; j < s->arrays[i].n_members && !err; j++) {
			if (s->arrays[i].members[j].disk[0])
				err = names_add(&l, s->arrays[i].members[j].disk);
		}
	}
	if (!err && l.n && !(s->disks = calloc(l.n, sizeof(*s->disks))))
		err = -ENOMEM;
	if (!err && l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_str);
	for (size_t i = 0; i < l.n && !err; i++) {
		struct mdp_disk *dk;
		if (i && !strcmp(l.v[i], l.v[i - 1]))
			continue;
		dk = &s->disks[s->n_disks++];
		copy_str(dk->name, sizeof(dk->name), l.v[i]);
		read_cur(w, MDP_T_MEMBER_READ_AHEAD_KB, dk->name, &dk->read_ahead);
		dk->media = read_media(w, dk->name);
	}
	names_free(&l);
	if (!err)
		array_media(s);
	return err;
}

/* The "Key:   12345 kB" value of /proc/meminfo; 0 when absent or not a number that fits. */
static uint64_t meminfo_kib(const char *text, const char *key)
{
	size_t kl = strlen(key);
	uint64_t v;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == ':') {
			const char *q = p + kl + 1;
			q += strspn(q, " \t");
			return lead_u64(q, &v) ? 0 : v;
		}
	}
	return 0;
}

/* MemAvailable exists since Linux 3.14; DSM's 3.10 needs the old estimate. */
static void read_meminfo(struct walk *w, struct mdp_system *s)
{
	char *text;

	if (mdp_root_read_all(w->r, "/proc/meminfo", &text, NULL))
		return;
	s->mem_total_kib = meminfo_kib(text, "MemTotal");
	s->mem_avail_kib = meminfo_kib(text, "MemAvailable");
	if (!s->mem_avail_kib)
		s->mem_avail_kib = meminfo_kib(text, "MemFree") + meminfo_kib(text, "Buffers") +
				   meminfo_kib(text, "Cached");
	free(text);
}

static void read_boot_id(struct walk *w, struct mdp_system *s)
{
	char buf[64];

	if (mdp_root_read_value(w->r, "/proc/sys/kernel/random/boot_id", buf, sizeof(buf)) < 0 ||
	    !copy_str(s->boot_id, sizeof(s->boot_id), buf))
		s->boot_id[0] = '\0';
}

/* raid0 and linear print no [n/m]: every member they list holds a role. */
static int mdstat_raid_disks(const struct mdp_mdstat_array *ms)
{
	if (ms->raid_disks || !ms->active ||
	    (strcmp(ms->level, "raid0") && strcmp(ms->level, "linear")))
		return ms->raid_disks;
	return (int)(ms->n_members_all - ms->n_spare);
}

int mdp_discover_from_mdstat(const struct mdp_system *s, const struct mdp_mdstat_array *ms,
			     struct mdp_array *out)
{
	struct mdp_array a = {.degraded = -1,
			      .uuid_source = "unknown",
			      .from_mdstat = true,
			      .stripe_cache_active = -1,
			      .chunk_kib = -1,
			      .suspend_hi = -1};

	if (ms->n_members && !(a.members = calloc(ms->n_members, sizeof(*a.members))))
		return -ENOMEM;
	copy_str(a.name, sizeof(a.name), ms->name);
	copy_str(a.level_name, sizeof(a.level_name), ms->level);
	a.level = mdp_ident_level_parse(a.level_name);
	a.raid_disks = mdstat_raid_disks(ms);
	copy_str(a.array_state, sizeof(a.array_state), mdstat_state_word(ms));
	copy_str(a.sync_action, sizeof(a.sync_action), ms->op[0] ? mdstat_op_word(ms->op) : "idle");
	copy_str(a.sync_queued, sizeof(a.sync_queued), ms->op_state);
	if (ms->op[0] && !ms->op_state[0]) {
		progress_from_mdstat(&a, ms);
		a.permille = ms->permille;
		a.sync_speed = ms->speed_kib;
		if (ms->finish_min > 0 && ms->finish_min < 1e9)
			a.kernel_eta_s = (uint64_t)(ms->finish_min * 60.0 + 0.5);
	}
	a.size_kib = ms->blocks;
	if (ms->raid_disks)
		a.degraded = ms->raid_disks - ms->working;
	for (size_t i = 0; i < ms->n_members; i++) {
		struct mdp_member *m = &a.members[a.n_members++];
		copy_str(m->name, sizeof(m->name), ms->members[i].name);
		m->slot = -1; /* mdstat shows descriptor numbers, not roles */
	}
	set_mstates(&a, ms);
	/* mdstat prints no "super" for 0.90 */
	dsm_empty_bays(s && s->dsm, &a, ms->super[0] ? ms->super : "0.90", a.degraded);
	*out = a;
	return 0;
}

/*
 * DSM's [ResyncSpeed] section of raid_setting.conf: key=value lines, the
 * value perhaps in double quotes. A missing file or section is no setting.
 */
static void dsm_speed_line(const char *line, struct mdp_dsm_speed *sp, uint64_t *mn, uint64_t *mx,
			   int *have)
{
	char key[32], val[32];
	const char *eq = strchr(line, '=');
	size_t kl, vl;

	if (!eq || (kl = strcspn(line, " \t=")) >= sizeof(key))
		return;
	memcpy(key, line, kl);
	key[kl] = '\0';
	eq += 1 + strspn(eq + 1, " \t\"");
	if ((vl = strcspn(eq, "\" \t\r\n")) >= sizeof(val))
		return;
	memcpy(val, eq, vl);
	val[vl] = '\0';
	if (!strcmp(key, "resync_speed_option"))
		copy_str(sp->option, sizeof(sp->option), val);
	else if (!strcmp(key, "min_resync_speed") && !mdp_num_parse(val, 0, UINT32_MAX, mn))
		*have |= 1;
	else if (!strcmp(key, "max_resync_speed") && !mdp_num_parse(val, 0, UINT32_MAX, mx))
		*have |= 2;
}

static void read_dsm_speed(struct walk *w, struct mdp_dsm_speed *sp)
{
	const struct mdp_discover_dsm *f = &mdp_discover_dsm;
	char *text, *save = NULL, sect[40];
	uint64_t mn = 0, mx = 0;
	int have = 0;
	bool in = false;

	if (mdp_root_read_all(w->r, f->raid_setting, &text, NULL))
		return;
	snprintf(sect, sizeof(sect), "[%s]", f->speed_section);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		l += strspn(l, " \t");
		if (*l == '[') {
			in = !strncmp(l, sect, strlen(sect));
		} else if (in && *l && *l != '#' && *l != ';') {
			sp->present = true;
			dsm_speed_line(l, sp, &mn, &mx, &have);
		}
	}
	free(text);
	for (size_t i = 0; i < 2 && sp->present; i++) {
		if (!strcmp(sp->option, f->presets[i].option)) {
			sp->known = true;
			sp->min = f->presets[i].min;
			sp->max = f->presets[i].max;
		}
	}
	if (sp->present && !sp->known && !strcmp(sp->option, "resync_manual") && have == 3) {
		sp->known = true;
		sp->min = mn;
		sp->max = mx;
	}
}

int mdp_discover(const struct mdp_root *r, struct mdp_system *out, struct mdp_diags *d)
{
	return mdp_discover_some(r, 0, out, d);
}

int mdp_discover_some(const struct mdp_root *r, unsigned skip, struct mdp_system *out,
		      struct mdp_diags *d)
{
	struct mdp_system s = {.skipped = skip};
	struct walk w = {.r = r, .d = d, .skip = skip};
	struct names l = {0};
	int err = 0;

#ifndef MDP_NO_UDEV
	if (mdp_root_is_real(r) && !(w.udev = udev_new()))
		err = -ENOMEM;
#endif
	s.dsm = w.dsm = mdp_root_exists(r, mdp_discover_dsm.version_file);
	if (s.dsm)
		read_dsm_speed(&w, &s.dsm_speed);
	if (!err && !(err = enumerate(&w, &l)) && !(err = read_arrays(&w, &l, &s)) &&
	    !(err = read_disks(&w, &s))) {
		dsm_failed_disks(&s);
		read_tunables(&w, s.global, MDP_SCOPE_GLOBAL, NULL);
		read_meminfo(&w, &s);
		read_boot_id(&w, &s);
		err = w.err;
	}
	if (err == -ENOMEM)
		mdp_diags_add(d, NULL, 0, 0, "out of memory while discovering arrays");
	names_free(&l);
	mdp_root_free_list(w.blk, w.n_blk);
	if (!err && !(skip & MDP_SKIP_PROGRESS)) {
		mdstat_of(&w, ""); /* status shows the arrays only mdstat knows */
		s.mdstat = w.mdstat;
		w.mdstat = (struct mdp_mdstat){0};
	}
	mdp_mdstat_free(&w.mdstat);
#ifndef MDP_NO_UDEV
	udev_unref(w.udev);
#endif
	if (err) {
		mdp_system_free(&s);
		return err;
	}
	*out = s;
	return 0;
}

int mdp_discover_array(const struct mdp_root *r, const struct mdp_mdstat *ms, const char *name,
		       unsigned skip, struct mdp_array *out, struct mdp_diags *d)
{
	struct walk w = {.r = r, .d = d, .skip = skip};
	int err = 0;

	if (ms) {
		w.mdstat = *ms; /* borrowed: never freed here */
		w.mdstat_loaded = true;
	}
#ifndef MDP_NO_UDEV
	if (mdp_root_is_real(r) && !(skip & MDP_SKIP_UUID) && !(w.udev = udev_new()))
		err = -ENOMEM;
#endif
	if (!err)
		err = is_md_name(name) ? read_array(&w, name, out) : 1;
	if (!err && w.err) {
		free(out->members);
		err = w.err;
	}
	if (!ms)
		mdp_mdstat_free(&w.mdstat);
	mdp_root_free_list(w.blk, w.n_blk);
#ifndef MDP_NO_UDEV
	udev_unref(w.udev);
#endif
	return err;
}

void mdp_discover_cur(const struct mdp_root *r, unsigned skip, enum mdp_tunable t, const char *dev,
		      struct mdp_cur *c, struct mdp_diags *d)
{
	struct walk w = {.r = r, .d = d, .skip = skip};

	read_cur(&w, t, dev, c);
}

void mdp_system_free(struct mdp_system *s)
{
	if (!s)
		return;
	mdp_mdstat_free(&s->mdstat);
	for (size_t i = 0; i < s->n_arrays; i++)
		free(s->arrays[i].members);
	free(s->arrays);
	free(s->disks);
	memset(s, 0, sizeof(*s));
}

const struct mdp_array *mdp_system_array(const struct mdp_system *s, const char *name)
{
	for (size_t i = 0; s && name && i < s->n_arrays; i++) {
		if (!strcmp(s->arrays[i].name, name))
			return &s->arrays[i];
	}
	return NULL;
}

const struct mdp_disk *mdp_system_disk(const struct mdp_system *s, const char *name)
{
	for (size_t i = 0; s && name && i < s->n_disks; i++) {
		if (!strcmp(s->disks[i].name, name))
			return &s->disks[i];
	}
	return NULL;
}
