/*
 * maint_ckpt: a check's place as a file's text, whether it may resume on an array, and the
 * decision of each look (maint_ckpt.h). Pure.
 *
 * The file, one "key value" a line, every key once, in this order:
 *
 *   mdprofile-checkpoint 1
 *   uuid 0123456789abcdef0123456789abcdef
 *   action check
 *   position 123456
 *   total 262144
 *   level raid5
 *   raid_disks 4
 *   chunk_kib 512
 *   size_kib 786432
 *   saved 1765065600
 */
#include "maint_ckpt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mdp_base.h"

#define CKPT_HEAD "mdprofile-checkpoint 1"

enum { K_UUID, K_ACTION, K_POSITION, K_TOTAL, K_LEVEL, K_DISKS, K_CHUNK, K_SIZE, K_SAVED, K_N };
static const char *const keys[K_N] = {"uuid",       "action",    "position", "total", "level",
				      "raid_disks", "chunk_kib", "size_kib", "saved"};

static bool is_check(const char *action)
{
	return !strcmp(action, "check") || !strcmp(action, "repair");
}

int mdp_mckpt_take(const struct mdp_array *a, int64_t now, struct mdp_mckpt *c)
{
	if (!is_check(a->sync_action) || !a->has_progress || !a->sync_total ||
	    strlen(a->uuid) != 32 || a->raid_disks <= 0)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	memcpy(c->uuid, a->uuid, 33);
	snprintf(c->action, sizeof(c->action), "%.6s", a->sync_action);
	c->position = a->sync_done;
	c->total = a->sync_total;
	snprintf(c->level, sizeof(c->level), "%s", a->level_name);
	c->raid_disks = (unsigned)a->raid_disks;
	c->chunk_kib = a->chunk_kib > 0 ? (uint64_t)a->chunk_kib : 0;
	c->size_kib = a->size_kib;
	c->saved = now;
	return 0;
}

int mdp_mckpt_format(const struct mdp_mckpt *c, char *buf, size_t len)
{
	int n = snprintf(buf, len,
			 CKPT_HEAD "\nuuid %s\naction %s\nposition %" PRIu64 "\ntotal %" PRIu64
				   "\nlevel %s\nraid_disks %u\nchunk_kib %" PRIu64
				   "\nsize_kib %" PRIu64 "\nsaved %" PRId64 "\n",
			 c->uuid, c->action, c->position, c->total, c->level, c->raid_disks,
			 c->chunk_kib, c->size_kib, c->saved);

	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

/* One value into its field of c; false when it is not one. */
static bool ckpt_value(struct mdp_mckpt *c, int k, const char *v)
{
	uint64_t *nums[K_N] = {[K_POSITION] = &c->position,
			       [K_TOTAL] = &c->total,
			       [K_CHUNK] = &c->chunk_kib,
			       [K_SIZE] = &c->size_kib};
	uint64_t n;

	switch (k) {
	case K_UUID:
		return !mdp_ident_uuid_norm(v, c->uuid);
	case K_ACTION:
		if (!is_check(v))
			return false;
		snprintf(c->action, sizeof(c->action), "%s", v);
		return true;
	case K_LEVEL:
		if (!*v || strlen(v) >= sizeof(c->level))
			return false;
		snprintf(c->level, sizeof(c->level), "%s", v);
		return true;
	case K_DISKS:
		if (mdp_num_parse(v, 1, 4096, &n))
			return false;
		c->raid_disks = (unsigned)n;
		return true;
	case K_SAVED:
		if (mdp_num_parse(v, 0, INT64_MAX, &n))
			return false;
		c->saved = (int64_t)n;
		return true;
	default:
		return !mdp_num_parse(v, 0, UINT64_MAX, nums[k]);
	}
}

int mdp_mckpt_parse(const char *text, struct mdp_mckpt *c, char *why, size_t len)
{
	const char *p = text, *nl;
	char line[96];
	int k = -1;

	memset(c, 0, sizeof(*c));
	for (unsigned no = 1; *p; no++, p = nl + 1, k++) {
		size_t n, kl;
		if (!(nl = strchr(p, '\n')) || (n = (size_t)(nl - p)) >= sizeof(line)) {
			snprintf(why, len, "line %u: %s", no, nl ? "too long" : "not ended");
			return -EINVAL;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		if (k < 0 ? strcmp(line, CKPT_HEAD) != 0
			  : k >= K_N || (kl = strlen(keys[k]), strncmp(line, keys[k], kl)) ||
				line[kl] != ' ' || !ckpt_value(c, k, line + kl + 1)) {
			snprintf(why, len, "line %u: expected %s", no,
				 k < 0      ? "'" CKPT_HEAD "'"
				 : k >= K_N ? "the end"
					    : keys[k]);
			return -EINVAL;
		}
	}
	if (k < K_N || c->position > c->total) {
		snprintf(why, len, k < K_N ? "cut short: no %s" : "position past its total",
			 k < K_N ? keys[k < 0 ? 0 : k] : "");
		return -EINVAL;
	}
	return 0;
}

const char *mdp_mckpt_refused(const struct mdp_mckpt *c, const struct mdp_array *a, char *buf,
			      size_t len)
{
	uint64_t chunk = a->chunk_kib > 0 ? (uint64_t)a->chunk_kib : 0;

	if (strcmp(c->uuid, a->uuid))
		snprintf(buf, len, "it is another array's (UUID %s)", c->uuid);
	else if (strcmp(c->level, a->level_name))
		snprintf(buf, len, "%s has changed since (%s then, %s now)", a->name, c->level,
			 a->level_name);
	else if (a->raid_disks < 0 || c->raid_disks != (unsigned)a->raid_disks)
		snprintf(buf, len, "%s has changed since (%u raid disks then, %d now)", a->name,
			 c->raid_disks, a->raid_disks);
	else if (c->chunk_kib != chunk || c->size_kib != a->size_kib)
		snprintf(buf, len,
			 "%s has changed since (chunk %" PRIu64 " KiB and %" PRIu64
			 " KiB then, %" PRIu64 " and %" PRIu64 " now)",
			 a->name, c->chunk_kib, c->size_kib, chunk, a->size_kib);
	else
		return NULL;
	return buf;
}

enum mdp_mdo mdp_maint_decide(const struct mdp_maint *m, struct mdp_mtime now, bool hot,
			      bool deferred, enum mdp_mop op, enum mdp_mwhy *why)
{
	unsigned until;

	*why = !mdp_maint_window_at(m, now, &until) ? MDP_MW_WINDOW
	       : hot                                ? MDP_MW_HEAT
	       : deferred                           ? MDP_MW_DEFER
						    : MDP_MW_NONE;
	switch (op) {
	case MDP_MOP_CHECK:
		return *why ? MDP_MDO_PAUSE : MDP_MDO_NOTHING;
	case MDP_MOP_PAUSED:
		return *why ? MDP_MDO_NOTHING : MDP_MDO_RESUME;
	case MDP_MOP_REDUNDANCY:
		return *why ? MDP_MDO_SLOW : MDP_MDO_FULL;
	default:
		return MDP_MDO_NOTHING;
	}
}

const char *mdp_maint_why_name(enum mdp_mwhy w)
{
	static const char *const names[] = {"", "window", "heat", "deferred"};

	return (unsigned)w < sizeof(names) / sizeof(names[0]) ? names[w] : "";
}
