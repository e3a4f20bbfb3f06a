/*
 * discover_progress: an array's state and its operation (action, progress,
 * speed, queue, md's own ETA, size, shape) from md/'s files, else from
 * /proc/mdstat, read once per run; and an array only /proc/mdstat lists,
 * as the same model.
 */
#include "discover_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- mdstat in sysfs's words --------------------------------------------- */

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

/* ---- progress and size --------------------------------------------------- */

int mdp_discover_parse_sync_completed(const char *text, uint64_t *done, uint64_t *total)
{
	uint64_t dn, tt;
	const char *p;

	if (!text)
		return -EINVAL;
	if (!strcmp(text, "none") || !strcmp(text, "none\n") || !strcmp(text, "delayed") ||
	    !strcmp(text, "delayed\n"))
		return -ENODATA;
	if (mdp_dw_lead_u64(text, &dn) || !(p = strchr(text, ' ')) || strncmp(p, " / ", 3) ||
	    mdp_dw_lead_u64(p + 3, &tt))
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
const struct mdp_mdstat_array *mdp_dw_mdstat_of(struct mdp_dwalk *w, const char *md)
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
	mdp_dw_copy_str(a->sync_queued, sizeof(a->sync_queued), ms->op_state);
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
void mdp_dw_read_sync_action(struct mdp_dwalk *w, struct mdp_array *a)
{
	const struct mdp_mdstat_array *ms;
	char buf[32];

	if (mdp_dw_read_attr(w, a->name, "md/sync_action", buf, sizeof(buf)) >= 0) {
		mdp_dw_copy_str(a->sync_action, sizeof(a->sync_action), buf);
		return;
	}
	if ((ms = mdp_dw_mdstat_of(w, a->name)) && ms->op[0])
		mdp_dw_copy_str(a->sync_action, sizeof(a->sync_action), mdstat_op_word(ms->op));
}

/* md's own speed of the running operation: md/sync_speed, else mdstat's speed=. */
void mdp_dw_read_speed(struct mdp_dwalk *w, struct mdp_array *a)
{
	const struct mdp_mdstat_array *ms;
	char buf[64];
	uint64_t v;

	if (mdp_dw_read_attr(w, a->name, "md/sync_speed", buf, sizeof(buf)) >= 0) {
		if (!mdp_dw_lead_u64(buf, &v)) {
			a->sync_speed = v;
			a->sync_speed_md = true;
		} else if (!strncmp(buf, "none", 4))
			a->no_sync_thread = true;
	} else if ((ms = mdp_dw_mdstat_of(w, a->name)) && ms->op[0]) {
		a->sync_speed = ms->speed_kib;
	}
}

/* A number md shows in md/attr, or -1 when absent or not a number. */
static int64_t read_num(struct mdp_dwalk *w, const char *md, const char *attr)
{
	char buf[64];
	uint64_t v;

	if (mdp_dw_read_attr(w, md, attr, buf, sizeof(buf)) < 0 || mdp_dw_lead_u64(buf, &v) ||
	    v > INT64_MAX)
		return -1;
	return (int64_t)v;
}

/* Where the operation may go (sync_max, suspend_hi), the chunk, the stripe cache's use. */
static void read_shape(struct mdp_dwalk *w, struct mdp_array *a)
{
	char buf[64];

	if (mdp_dw_read_attr(w, a->name, "md/sync_max", buf, sizeof(buf)) >= 0)
		mdp_dw_copy_str(a->sync_max, sizeof(a->sync_max), buf);
	if (mdp_dw_read_attr(w, a->name, "md/bitmap/location", buf, sizeof(buf)) >= 0)
		mdp_dw_copy_str(a->bitmap, sizeof(a->bitmap), buf);
	if (mdp_dw_read_attr(w, a->name, "md/reshape_position", buf, sizeof(buf)) >= 0)
		mdp_dw_copy_str(a->reshape_position, sizeof(a->reshape_position), buf);
	a->stripe_cache_active = read_num(w, a->name, "md/stripe_cache_active");
	a->suspend_hi = read_num(w, a->name, "md/suspend_hi");
	if ((a->chunk_kib = read_num(w, a->name, "md/chunk_size")) > 0)
		a->chunk_kib /= 1024;
}

void mdp_dw_read_progress(struct mdp_dwalk *w, struct mdp_array *a)
{
	const struct mdp_mdstat_array *ms = mdp_dw_mdstat_of(w, a->name);
	char buf[128];
	uint64_t v;
	int err = -ENOENT;

	if (mdp_dw_read_attr(w, a->name, "md/array_state", buf, sizeof(buf)) >= 0)
		mdp_dw_copy_str(a->array_state, sizeof(a->array_state), buf);
	else if (ms) /* an inactive array may have only md/level and md/raid_disks */
		mdp_dw_copy_str(a->array_state, sizeof(a->array_state), mdstat_state_word(ms));
	mdp_dw_read_sync_action(w, a);
	/* md/sync_action reads idle while mdstat says resync=PENDING (an auto-read-only array) */
	if (ms && ms->op[0] && ms->op_state[0] &&
	    (!a->sync_action[0] || !strcmp(a->sync_action, "idle")))
		mdp_dw_copy_str(a->sync_action, sizeof(a->sync_action), mdstat_op_word(ms->op));
	if (mdp_dw_read_attr(w, a->name, "md/sync_completed", buf, sizeof(buf)) >= 0) {
		mdp_dw_copy_str(a->sync_completed, sizeof(a->sync_completed), buf);
		err = mdp_discover_parse_sync_completed(buf, &a->sync_done, &a->sync_total);
	}
	a->has_progress = err == 0;
	if (err && err != -ENODATA)
		progress_from_mdstat(a, ms);
	if (a->has_progress)
		a->permille = mdp_discover_permille(a->sync_done, a->sync_total);
	queue_from_mdstat(a, ms);
	if (err == -ENODATA && !strncmp(buf, "delayed", 7) && !a->sync_queued[0])
		mdp_dw_copy_str(a->sync_queued, sizeof(a->sync_queued), "DELAYED");
	if (mdp_dw_read_attr(w, a->name, "md/degraded", buf, sizeof(buf)) >= 0 &&
	    !mdp_dw_lead_u64(buf, &v) && v <= INT32_MAX)
		a->degraded = (int)v;
	mdp_dw_read_speed(w, a);
	if (ms && ms->blocks)
		a->size_kib = ms->blocks;
	else if (mdp_dw_read_attr(w, a->name, "size", buf, sizeof(buf)) >= 0 &&
		 !mdp_dw_lead_u64(buf, &v))
		a->size_kib = v / 2;
	read_shape(w, a);
}

/* ---- arrays only /proc/mdstat lists -------------------------------------- */

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
	mdp_dw_copy_str(a.name, sizeof(a.name), ms->name);
	mdp_dw_copy_str(a.level_name, sizeof(a.level_name), ms->level);
	a.level = mdp_ident_level_parse(a.level_name);
	a.raid_disks = mdstat_raid_disks(ms);
	mdp_dw_copy_str(a.array_state, sizeof(a.array_state), mdstat_state_word(ms));
	mdp_dw_copy_str(a.sync_action, sizeof(a.sync_action),
			ms->op[0] ? mdstat_op_word(ms->op) : "idle");
	mdp_dw_copy_str(a.sync_queued, sizeof(a.sync_queued), ms->op_state);
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
		mdp_dw_copy_str(m->name, sizeof(m->name), ms->members[i].name);
		m->slot = -1; /* mdstat shows descriptor numbers, not roles */
	}
	mdp_dw_set_mstates(&a, ms);
	/* mdstat prints no "super" for 0.90 */
	mdp_dw_dsm_empty_bays(s && s->dsm, &a, ms->super[0] ? ms->super : "0.90", a.degraded);
	*out = a;
	return 0;
}
