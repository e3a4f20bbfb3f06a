/*
 * discover_member: an array's members (md/dev-X or slaves/), their roles
 * and states (md/dev-X/state, else /proc/mdstat's flags) and the disks
 * holding them; each member disk's read-ahead and class, and each array's
 * class from its disks.
 */
#include "discover_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- members ------------------------------------------------------------- */

/* Does /sys/block/<disk>/<member> exist for disk = member minus its partition suffix? */
static bool guess_disk(const struct mdp_dwalk *w, const char *member, char *disk)
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
	mdp_dw_copy_str(disk, MDP_NAME_MAX, cand);
	return true;
}

/* The /sys/block entry holding member: itself for a whole disk, else its parent. */
static void find_disk(struct mdp_dwalk *w, const char *member, char *disk)
{
	char path[PATH_MAX];

	disk[0] = '\0';
	/* Kernel partition names: sda5 -> sda, nvme0n1p1 / sata1p5 -> nvme0n1 / sata1. */
	if (guess_disk(w, member, disk))
		return;
	snprintf(path, sizeof(path), SYS_BLOCK "/%s", member);
	if (mdp_root_is_dir(w->r, path)) {
		mdp_dw_copy_str(disk, MDP_NAME_MAX, member);
		return;
	}
	if (mdp_dw_list_blk(w))
		return;
	for (size_t i = 0; i < w->n_blk; i++) {
		int n = snprintf(path, sizeof(path), SYS_BLOCK "/%s/%s", w->blk[i], member);
		if (n > 0 && (size_t)n < sizeof(path) && mdp_root_is_dir(w->r, path) &&
		    mdp_dw_copy_str(disk, MDP_NAME_MAX, w->blk[i]))
			return;
	}
}

/* md/dev-X/state: "in_sync", "faulty", "spare,write_mostly", ... as md writes it. */
static void read_member_state(struct mdp_dwalk *w, const char *md, struct mdp_member *m)
{
	char attr[PATH_MAX], buf[64];

	snprintf(attr, sizeof(attr), "md/dev-%s/state", m->name);
	if (mdp_dw_read_attr(w, md, attr, buf, sizeof(buf)) < 0 ||
	    !mdp_dw_copy_str(m->state, sizeof(m->state), buf))
		m->state[0] = '\0';
}

/* md/dev-X/slot: the role number, "none" (spare) or "journal" -> -1. */
static int read_slot(struct mdp_dwalk *w, const char *md, const char *member)
{
	char attr[PATH_MAX], buf[32];
	uint64_t v;

	snprintf(attr, sizeof(attr), "md/dev-%s/slot", member);
	if (mdp_dw_read_attr(w, md, attr, buf, sizeof(buf)) < 0 || mdp_dw_lead_u64(buf, &v) ||
	    v > INT32_MAX)
		return -1;
	return (int)v;
}

static int add_member(struct mdp_dwalk *w, struct mdp_array *a, const char *name, bool slots)
{
	struct mdp_member *m;

	/* Names read from directories end up in paths: only plain device names pass. */
	if (!mdp_ident_kname_ok(name, strlen(name)))
		return 0;
	if (!(m = mdp_push(&a->members, &a->n_members, sizeof(*m))))
		return -ENOMEM;
	mdp_dw_copy_str(m->name, sizeof(m->name), name);
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

/* List /sys/block/<md>/<sub>: 0, -ENOENT when absent, else -errno (recorded as mdp_dw_read_sys). */
static int list_sub(struct mdp_dwalk *w, const char *md, const char *sub, char ***v, size_t *n)
{
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), SYS_BLOCK "/%s/%s", md, sub);
	if (!(err = mdp_root_list(w->r, path, v, n)) || mdp_dw_absent(err))
		return err ? -ENOENT : 0;
	return (int)mdp_dw_fail(w, path, err);
}

/* md/dev-* entries (they carry the role); the slaves/ directory otherwise. */
int mdp_dw_read_members(struct mdp_dwalk *w, struct mdp_array *a)
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

/* ---- member states ------------------------------------------------------- */

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

void mdp_dw_set_mstates(struct mdp_array *a, const struct mdp_mdstat_array *ms)
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

/* ---- disks and their classes --------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The class of a whole disk (discover.h): its name or device path, then queue/rotational. */
static enum mdp_media read_media(struct mdp_dwalk *w, const char *disk)
{
	char path[PATH_MAX], link[PATH_MAX], buf[16];
	bool linked;
	uint64_t v;
	int rot = -1;

	snprintf(path, sizeof(path), SYS_BLOCK "/%s", disk);
	linked = !mdp_root_readlink(w->r, path, link, sizeof(link));
	if (mdp_dw_read_attr(w, disk, "queue/rotational", buf, sizeof(buf)) >= 0 &&
	    !mdp_dw_lead_u64(buf, &v) && v <= 1)
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

int mdp_dw_read_disks(struct mdp_dwalk *w, struct mdp_system *s)
{
	struct mdp_dnames l = {0};
	int err = 0;

	for (size_t i = 0; i < s->n_arrays && !err; i++) {
		for (size_t j = 0; j < s->arrays[i].n_members && !err; j++) {
			if (s->arrays[i].members[j].disk[0])
				err = mdp_dw_names_add(&l, s->arrays[i].members[j].disk);
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
		mdp_dw_copy_str(dk->name, sizeof(dk->name), l.v[i]);
		mdp_dw_read_cur(w, MDP_T_MEMBER_READ_AHEAD_KB, dk->name, &dk->read_ahead);
		dk->media = read_media(w, dk->name);
	}
	mdp_dw_names_free(&l);
	if (!err)
		array_media(s);
	return err;
}
