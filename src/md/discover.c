/*
 * discover: the live state as one model (see discover.h); discover_int.h
 * lists the files it is split into and what they share.
 *
 * This file is the run: a walk's reads and the rule that only a missing
 * file is absence, an array read whole, and the entry points. Arrays are
 * enumerated (discover_enum.c) with libudev on the real root, unless built
 * with MDP_NO_UDEV for the static binary, and by a walk of /sys/block
 * under a fixture root; after that every value is read through root from
 * the same attribute files, so a fixture tree and a real kernel give the
 * same model.
 */
#include "discover_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MDP_NO_UDEV
#include <libudev.h>
#endif

/* ---- the walk ------------------------------------------------------------ */

int mdp_dw_names_add(struct mdp_dnames *l, const char *s)
{
	if (mdp_grow_cap(&l->v, l->n, &l->cap, sizeof(*l->v)))
		return -ENOMEM;
	if (!(l->v[l->n] = strdup(s)))
		return -ENOMEM;
	l->n++;
	return 0;
}

void mdp_dw_names_free(struct mdp_dnames *l)
{
	mdp_root_free_list(l->v, l->n);
	memset(l, 0, sizeof(*l));
}

bool mdp_dw_copy_str(char *dst, size_t cap, const char *s)
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
bool mdp_dw_absent(ssize_t err)
{
	return err == -ENOENT || err == -ENODEV;
}

/* A hard read error: reported with its file; the run fails with the first one. */
ssize_t mdp_dw_fail(struct mdp_dwalk *w, const char *path, ssize_t err)
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
ssize_t mdp_dw_read_sys(struct mdp_dwalk *w, const char *path, char *buf, size_t cap)
{
	ssize_t n = mdp_root_read_value(w->r, path, buf, cap);

	if (n >= 0)
		return n;
	return mdp_dw_absent(n) ? -ENOENT : mdp_dw_fail(w, path, n);
}

/* Read /sys/block/<dev>/<attr>, as mdp_dw_read_sys. */
ssize_t mdp_dw_read_attr(struct mdp_dwalk *w, const char *dev, const char *attr, char *buf,
			 size_t cap)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), SYS_BLOCK "/%s/%s", dev, attr);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return mdp_dw_read_sys(w, path, buf, cap);
}

/* Leading decimal number of text ("4 (3)" during a reshape gives 4). */
int mdp_dw_lead_u64(const char *text, uint64_t *out)
{
	const char *end;
	uint64_t v;

	if (mdp_num_lead(text, SIZE_MAX, &v, &end) || (*end && !strchr(" \n)", *end)))
		return -EINVAL;
	*out = v;
	return 0;
}

/* ---- arrays -------------------------------------------------------------- */

/*
 * "4" or, while a reshape changes the count, "4 (3)": new count, then the
 * old one. A count that does not parse stays 0 (unknown), said here; the
 * planner then leaves the stripe cache alone, as its memory is unknown.
 */
static void read_raid_disks(struct mdp_dwalk *w, struct mdp_array *a)
{
	char buf[64];
	const char *open;
	uint64_t v;

	if (mdp_dw_read_attr(w, a->name, "md/raid_disks", buf, sizeof(buf)) < 0)
		return;
	if (!mdp_dw_lead_u64(buf, &v) && v <= INT32_MAX)
		a->raid_disks = (int)v; /* 0 on an array not started: unknown too */
	else
		mdp_diags_add(w->d, NULL, 0, 0,
			      SYS_BLOCK "/%s/md/raid_disks: unexpected value '%.40s'", a->name,
			      buf);
	if ((open = strchr(buf, '(')) && !mdp_dw_lead_u64(open + 1, &v) && v <= INT32_MAX)
		a->prev_raid_disks = (int)v;
}

/* 0 read, 1 not an array or vanished (skip it), -errno. */
static int read_array(struct mdp_dwalk *w, const char *name, struct mdp_array *a)
{
	char buf[64], path[PATH_MAX];
	ssize_t n;
	int err;

	memset(a, 0, sizeof(*a));
	a->degraded = -1;
	a->stripe_cache_active = a->chunk_kib = a->suspend_hi = -1;
	mdp_dw_copy_str(a->name, sizeof(a->name), name);
	if ((n = mdp_dw_read_attr(w, name, "md/level", buf, sizeof(buf))) < 0) {
		/* md creates md/level with md/: an md/ without it is half there; say so */
		snprintf(path, sizeof(path), SYS_BLOCK "/%s/md", name);
		if (n == -ENOENT && mdp_root_is_dir(w->r, path))
			mdp_diags_add(w->d, NULL, 0, 0,
				      "%s/level: missing, so %s is not read from sysfs", path,
				      name);
		return 1;
	}
	mdp_dw_copy_str(a->level_name, sizeof(a->level_name), buf);
	a->level = mdp_ident_level_parse(a->level_name);
	read_raid_disks(w, a);
	if (!(w->skip & MDP_SKIP_MEMBERS) && (err = mdp_dw_read_members(w, a))) {
		free(a->members);
		return err;
	}
	if (w->skip & MDP_SKIP_PROGRESS) {
		mdp_dw_read_sync_action(w, a);
		/* apply journals it: status shows the speed then and now */
		if (a->sync_action[0] && strcmp(a->sync_action, "idle"))
			mdp_dw_read_speed(w, a);
	} else
		mdp_dw_read_progress(w, a);
	mdp_dw_set_mstates(a, w->mdstat_loaded ? mdp_mdstat_find(&w->mdstat, name) : NULL);
	if (w->dsm && !(w->skip & MDP_SKIP_PROGRESS))
		mdp_dw_dsm_rule(w, a);
	if (w->skip & MDP_SKIP_UUID)
		a->uuid_source = "not read";
	else
		mdp_dw_read_uuid(w, a);
	mdp_dw_read_tunables(w, a->cur, MDP_SCOPE_ARRAY, name);
	return 0;
}

static int read_arrays(struct mdp_dwalk *w, const struct mdp_dnames *l, struct mdp_system *s)
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

/* ---- the entry points ---------------------------------------------------- */

int mdp_discover(const struct mdp_root *r, struct mdp_system *out, struct mdp_diags *d)
{
	return mdp_discover_some(r, 0, out, d);
}

int mdp_discover_some(const struct mdp_root *r, unsigned skip, struct mdp_system *out,
		      struct mdp_diags *d)
{
	struct mdp_system s = {.skipped = skip};
	struct mdp_dwalk w = {.r = r, .d = d, .skip = skip};
	struct mdp_dnames l = {0};
	int err = 0;

#ifndef MDP_NO_UDEV
	if (mdp_root_is_real(r) && !(w.udev = udev_new()))
		err = -ENOMEM;
#endif
	s.dsm = w.dsm = mdp_root_exists(r, mdp_discover_dsm.version_file);
	if (s.dsm)
		mdp_dw_read_dsm_speed(&w, &s.dsm_speed);
	if (!err && !(err = mdp_dw_enumerate(&w, &l)) && !(err = read_arrays(&w, &l, &s)) &&
	    !(err = mdp_dw_read_disks(&w, &s))) {
		mdp_dw_dsm_failed_disks(&s);
		mdp_dw_read_tunables(&w, s.global, MDP_SCOPE_GLOBAL, NULL);
		mdp_dw_read_meminfo(&w, &s);
		mdp_dw_read_boot_id(&w, &s);
		err = w.err;
	}
	if (err == -ENOMEM)
		mdp_diags_add(d, NULL, 0, 0, "out of memory while discovering arrays");
	mdp_dw_names_free(&l);
	mdp_root_free_list(w.blk, w.n_blk);
	if (!err && !(skip & MDP_SKIP_PROGRESS)) {
		mdp_dw_mdstat_of(&w, ""); /* status shows the arrays only mdstat knows */
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
	struct mdp_dwalk w = {.r = r, .d = d, .skip = skip};
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
		err = mdp_dw_is_md_name(name) ? read_array(&w, name, out) : 1;
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
	struct mdp_dwalk w = {.r = r, .d = d, .skip = skip};

	mdp_dw_read_cur(&w, t, dev, c);
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

int mdp_md_loaded(const struct mdp_root *r, struct mdp_diags *d)
{
	if (mdp_root_exists(r, "/proc/mdstat") || mdp_root_exists(r, "/proc/sys/dev/raid"))
		return 0;
	mdp_diags_add(d, NULL, 0, 0,
		      "md is not loaded (no /proc/mdstat): no md RAID here, or its driver is not "
		      "loaded yet (modprobe md_mod)");
	return -ENOENT;
}
