/* iostat_share: the foreground beside an array, on its disks (iostat.h). */
#include "iostat_int.h"
#include "mdp_base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool on_disk(const struct mdp_array *a, const char *disk)
{
	for (size_t i = 0; i < a->n_members; i++)
		if (!strcmp(a->members[i].disk, disk))
			return true;
	return false;
}

/* Is name a member of some array of s? */
static bool md_member(const struct mdp_system *s, const char *name)
{
	for (size_t i = 0; i < s->n_arrays; i++)
		for (size_t j = 0; j < s->arrays[i].n_members; j++)
			if (!strcmp(s->arrays[i].members[j].name, name))
				return true;
	return false;
}

/* disk after the others in shares ("sda,sdb"), when it fits. */
static void share_add(char *shares, const char *disk)
{
	size_t have = strlen(shares), len = strlen(disk);

	if (have + (have > 0) + len >= MDP_IO_SHARES_MAX)
		return;
	if (have)
		shares[have++] = ',';
	memcpy(shares + have, disk, len + 1);
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* a's member disks, each once, sorted: *disks (n of them) points into a; NULL when none. */
static int disks_of(const struct mdp_array *a, const char ***disks, size_t *n)
{
	*n = 0;
	if (!(*disks = calloc(a->n_members + 1, sizeof(**disks))))
		return -ENOMEM;
	for (size_t i = 0; i < a->n_members; i++) {
		bool seen = !a->members[i].disk[0];
		for (size_t k = 0; k < *n && !seen; k++)
			seen = !strcmp((*disks)[k], a->members[i].disk);
		if (!seen)
			(*disks)[(*n)++] = a->members[i].disk;
	}
	qsort(*disks, *n, sizeof(**disks), cmp_str);
	return 0;
}

/* b, when it has a member on one of disks: a peer in *out. 0 or -ENOMEM. */
static int add_array(const char **disks, size_t nd, const struct mdp_array *b,
		     struct mdp_io_peer **out, size_t *n)
{
	struct mdp_io_peer *p = NULL;

	for (size_t k = 0; k < nd; k++) {
		if (!on_disk(b, disks[k]))
			continue;
		if (!p && !(p = mdp_push(out, n, sizeof(*p))))
			return -ENOMEM;
		share_add(p->shares, disks[k]);
	}
	if (p) {
		p->kind = MDP_PEER_ARRAY;
		snprintf(p->name, sizeof(p->name), "%s", b->name);
	}
	return 0;
}

/* The partitions of disk that no array uses: peers in *out. 0 or -ENOMEM. */
static int add_parts(const struct mdp_root *r, const struct mdp_system *s, const char *disk,
		     struct mdp_io_peer **out, size_t *n)
{
	char dir[MDP_NAME_MAX + 16], path[2 * MDP_NAME_MAX + 32], **names = NULL;
	size_t k = 0;
	int err = 0;

	snprintf(dir, sizeof(dir), "/sys/block/%s", disk);
	if (mdp_root_list(r, dir, &names, &k))
		return 0;
	for (size_t i = 0; i < k && !err; i++) {
		struct mdp_io_peer *p;
		snprintf(path, sizeof(path), "%s/%s/partition", dir, names[i]);
		if (!mdp_ident_dev_ok(names[i]) || strlen(names[i]) >= MDP_NAME_MAX ||
		    md_member(s, names[i]) || !mdp_root_exists(r, path))
			continue;
		if (!(p = mdp_push(out, n, sizeof(*p)))) {
			err = -ENOMEM;
			break;
		}
		p->kind = MDP_PEER_PART;
		snprintf(p->name, sizeof(p->name), "%s", names[i]);
		snprintf(p->disk, sizeof(p->disk), "%s", disk);
		snprintf(p->shares, sizeof(p->shares), "%s", disk);
	}
	mdp_root_free_list(names, k);
	return err;
}

int mdp_iostat_peers(const struct mdp_root *r, const struct mdp_system *s,
		     const struct mdp_array *a, struct mdp_io_peer **out, size_t *n)
{
	const char **disks;
	size_t nd;
	int err;

	*out = NULL;
	*n = 0;
	if ((err = disks_of(a, &disks, &nd)))
		return err;
	for (size_t i = 0; i < s->n_arrays && !err; i++)
		if (strcmp(s->arrays[i].name, a->name))
			err = add_array(disks, nd, &s->arrays[i], out, n);
	for (size_t k = 0; k < nd && !err; k++)
		err = add_parts(r, s, disks[k], out, n);
	free(disks);
	if (err) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return err;
}

void mdp_iostat_read_peer(const struct mdp_root *r, const struct mdp_system *s,
			  const struct mdp_io_peer *p, struct mdp_io_snap *out)
{
	char path[2 * MDP_NAME_MAX + 32];

	memset(out, 0, sizeof(*out));
	if (p->kind == MDP_PEER_PART) {
		snprintf(path, sizeof(path), "/sys/block/%s/%s/stat", p->disk, p->name);
		out->have_md = mdp_iostat_read_count(r, path, &out->md);
		return;
	}
	for (size_t i = 0; i < s->n_arrays; i++)
		if (!strcmp(s->arrays[i].name, p->name))
			mdp_iostat_read(r, &s->arrays[i], out);
}

void mdp_iostat_peer_latency(const struct mdp_io_peer *p, const struct mdp_io_snap *before,
			     const struct mdp_io_snap *now, bool *md_timed,
			     struct mdp_goal_sample *out, enum mdp_io_source *src)
{
	if (p->kind == MDP_PEER_PART)
		*md_timed = true; /* a partition's counters always time its requests */
	mdp_iostat_latency(before, now, md_timed, out, src);
	if (p->kind == MDP_PEER_PART && *src == MDP_IO_MD)
		*src = MDP_IO_PART;
}

void mdp_iostat_shares_text(const char *shares, char *buf, size_t len)
{
	size_t at = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (const char *c = shares; *c;) {
		size_t k = strcspn(c, ",");
		if (at + (at ? 2 : 0) + k >= len)
			break; /* whole names only */
		at += (size_t)snprintf(buf + at, len - at, "%s%.*s", at ? ", " : "", (int)k, c);
		c += k + (c[k] == ',');
	}
}
