/* iostat: an array's foreground latency from the block layer's counters (iostat.h). */
#include "iostat.h"
#include "num.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *mdp_io_source_key(enum mdp_io_source s)
{
	return s == MDP_IO_MD ? "md" : s == MDP_IO_MEMBERS ? "members" : "none";
}

int mdp_iostat_parse(const char *text, struct mdp_io_count *c)
{
	uint64_t f[8];
	const char *p = text, *end;

	for (size_t i = 0; i < 8; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (mdp_num_lead(p, SIZE_MAX, &f[i], &end) ||
		    (*end != ' ' && *end != '\t' && *end != '\n' && *end))
			return -EINVAL;
		p = end;
	}
	c->ios = f[0] + f[4];
	c->ticks_ms = f[3] + f[7];
	return 0;
}

static bool read_count(const struct mdp_root *r, const char *path, struct mdp_io_count *c)
{
	char buf[512];

	return mdp_root_read_value(r, path, buf, sizeof(buf)) > 0 && !mdp_iostat_parse(buf, c);
}

void mdp_iostat_read(const struct mdp_root *r, const struct mdp_array *a, struct mdp_io_snap *out)
{
	char path[3 * MDP_NAME_MAX + 32];
	struct mdp_io_count c;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "/sys/block/%s/stat", a->name);
	out->have_md = read_count(r, path, &out->md);
	out->have_members = a->n_members > 0;
	for (size_t i = 0; i < a->n_members && out->have_members; i++) {
		const struct mdp_member *m = &a->members[i];
		if (!strcmp(m->name, m->disk))
			snprintf(path, sizeof(path), "/sys/block/%s/stat", m->disk);
		else
			snprintf(path, sizeof(path), "/sys/block/%s/%s/stat", m->disk, m->name);
		if ((out->have_members = read_count(r, path, &c))) {
			out->members.ios += c.ios;
			out->members.ticks_ms += c.ticks_ms;
		}
	}
}

/* The counters' growth from b to a, false when one went back (a reset, a new device). */
static bool delta(const struct mdp_io_count *b, const struct mdp_io_count *a,
		  struct mdp_io_count *d)
{
	if (a->ios < b->ios || a->ticks_ms < b->ticks_ms)
		return false;
	d->ios = a->ios - b->ios;
	d->ticks_ms = a->ticks_ms - b->ticks_ms;
	return true;
}

static struct mdp_goal_sample per_request(const struct mdp_io_count *d)
{
	return (struct mdp_goal_sample){.kind = MDP_GOAL_LATENCY,
					.latency_us = d->ticks_ms * 1000 / d->ios};
}

void mdp_iostat_latency(const struct mdp_io_snap *before, const struct mdp_io_snap *now,
			bool *md_timed, struct mdp_goal_sample *out, enum mdp_io_source *src)
{
	struct mdp_io_count md, mem;

	*out = (struct mdp_goal_sample){.kind = MDP_GOAL_UNKNOWN};
	*src = MDP_IO_NONE;
	if (!before->have_md || !now->have_md || !delta(&before->md, &now->md, &md))
		return;
	if (!md.ios) {
		out->kind = MDP_GOAL_IDLE;
		return;
	}
	if (md.ticks_ms)
		*md_timed = true;
	if (*md_timed) {
		*out = per_request(&md);
		*src = MDP_IO_MD;
	} else if (before->have_members && now->have_members &&
		   delta(&before->members, &now->members, &mem) && mem.ios) {
		*out = per_request(&mem);
		*src = MDP_IO_MEMBERS;
	}
}
