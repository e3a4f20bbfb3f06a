/*
 * plan: compute the ordered list of changes a profile asks for (plan.h).
 */
#include "plan.h"
#include "mdp_base.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_BYTES ((uint64_t)4096)

/* What the profile wants for one target, before ordering. */
struct want {
	const struct mdp_setting *s; /* NULL: profile does not mention it */
	unsigned rule;               /* 1-based index of the rule that set it */
	uint64_t num;                /* resolved number (auto computed), bound applied */
	uint64_t limit;              /* a bound's own value (auto computed) */
	bool kept;                   /* the bound keeps the current value (num is it) */
};

/* What the profile wants for one target device (or the globals), per tunable. */
struct target_want {
	struct want t[MDP_T_COUNT];
};

struct ctx {
	const struct mdp_profile *p;
	const struct mdp_system *s;
	struct mdp_plan *pl;
	struct mdp_diags *d;
	struct target_want *aw;    /* per array: the array-scope tunables */
	struct target_want *disk;  /* per disk: the disk-scope tunables */
	struct target_want global; /* the dev.raid sysctls */
};

static bool is_parity(enum mdp_level l)
{
	return l == MDP_LEVEL_RAID4 || l == MDP_LEVEL_RAID5 || l == MDP_LEVEL_RAID6;
}

static bool in_list(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* Criteria of different kinds must all hold; any entry of a list may match. */
static bool rule_matches(const struct mdp_match *m, const struct mdp_array *a)
{
	bool lv = false;

	if (m->all)
		return true;
	if (m->n_names && !in_list(m->names, m->n_names, a->name))
		return false;
	if (m->n_uuids && (!a->uuid[0] || !in_list(m->uuids, m->n_uuids, a->uuid)))
		return false;
	for (size_t i = 0; i < m->n_levels; i++)
		lv |= m->levels[i] == a->level;
	if (m->n_levels && !lv)
		return false;
	/* Every member of a class named; an unknown class matches nothing. */
	if (m->media && (!a->media_bits || a->media_bits & (1u << MDP_MEDIA_UNKNOWN) ||
			 a->media_bits & ~m->media))
		return false;
	return m->n_names || m->n_uuids || m->n_levels || m->media;
}

bool mdp_plan_selects(const struct mdp_profile *p, const struct mdp_array *a)
{
	if (!p->n_rules)
		return true;
	for (size_t i = 0; i < p->n_rules; i++)
		if (rule_matches(&p->rules[i].match, a))
			return true;
	return false;
}

static int note(struct ctx *c, const char *dev, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int note(struct ctx *c, const char *dev, const char *fmt, ...)
{
	struct mdp_plan *pl = c->pl;
	struct mdp_plan_note *nv;
	va_list ap;

	for (size_t i = 0; i < pl->n_notes; i++) {
		char text[sizeof(nv->text)];
		va_start(ap, fmt);
		vsnprintf(text, sizeof(text), fmt, ap);
		va_end(ap);
		if (!strcmp(pl->notes[i].dev, dev) && !strcmp(pl->notes[i].text, text))
			return 0; /* the same note from several rules: say it once */
	}
	if (!(nv = mdp_push(&pl->notes, &pl->n_notes, sizeof(*nv))))
		return -ENOMEM;
	snprintf(nv->dev, sizeof(nv->dev), "%s", dev);
	va_start(ap, fmt);
	vsnprintf(nv->text, sizeof(nv->text), fmt, ap);
	va_end(ap);
	return 0;
}

static size_t disk_index(const struct mdp_system *s, const char *name)
{
	for (size_t i = 0; i < s->n_disks; i++)
		if (!strcmp(s->disks[i].name, name))
			return i;
	return SIZE_MAX;
}

/* Member disks shared by several arrays get the largest value asked for. */
static void want_disks(struct ctx *c, const struct mdp_array *a, int t,
		       const struct mdp_setting *st, unsigned rule)
{
	for (size_t m = 0; m < a->n_members; m++) {
		size_t di = disk_index(c->s, a->members[m].disk);
		if (di == SIZE_MAX)
			continue;
		struct want *w = &c->disk[di].t[t];
		if (!w->s || st->num > w->num)
			*w = (struct want){.s = st, .rule = rule, .num = st->num};
	}
}

/* Why a's class is unknown: the first member whose disk or class is not known. */
static void media_unknown_why(const struct mdp_system *s, const struct mdp_array *a, char *buf,
			      size_t len)
{
	snprintf(buf, len, "its members were not read");
	for (size_t i = 0; i < a->n_members; i++) {
		const struct mdp_member *m = &a->members[i];
		const struct mdp_disk *dk = mdp_system_disk(s, m->disk);
		if (!m->disk[0]) {
			snprintf(buf, len, "the disk of %s is not found", m->name);
			return;
		}
		if (!dk || dk->media == MDP_MEDIA_UNKNOWN) {
			snprintf(buf, len, "%s has no queue/rotational of 0 or 1", m->disk);
			return;
		}
	}
}

/* A rule that selects by media passes over an array of unknown class: say so, once. */
static int note_media_unknown(struct ctx *c, const struct mdp_match *m, const struct mdp_array *a)
{
	char why[96];

	if (!m->media || (a->media_bits && !(a->media_bits & (1u << MDP_MEDIA_UNKNOWN))))
		return 0;
	media_unknown_why(c->s, a, why, sizeof(why));
	return note(c, a->name, "disk class unknown (%s): rules that select by %s leave it alone",
		    why, mdp_profile_key(MDP_PK_MEDIA));
}

static int apply_rules(struct ctx *c)
{
	for (size_t ai = 0; ai < c->s->n_arrays; ai++) {
		const struct mdp_array *a = &c->s->arrays[ai];
		for (size_t ri = 0; ri < c->p->n_rules; ri++) {
			const struct mdp_rule *r = &c->p->rules[ri];
			if (note_media_unknown(c, &r->match, a))
				return -ENOMEM;
			if (!rule_matches(&r->match, a))
				continue;
			for (int t = 0; t < MDP_T_COUNT; t++) {
				const struct mdp_setting *st = &r->set[t];
				if (st->kind == MDP_S_UNSET)
					continue;
				if (mdp_tunable_info(t)->scope == MDP_SCOPE_DISK)
					want_disks(c, a, t, st, (unsigned)ri + 1);
				else
					c->aw[ai].t[t] = (struct want){
					    .s = st, .rule = (unsigned)ri + 1, .num = st->num};
			}
		}
	}
	return 0;
}

/* Pages per stripe: one per device; mid-reshape md sizes for the larger geometry. */
static int stripe_disks(const struct mdp_array *a)
{
	return a->prev_raid_disks > a->raid_disks ? a->prev_raid_disks : a->raid_disks;
}

static uint64_t stripe_bytes(const struct mdp_array *a, uint64_t size)
{
	return PAGE_BYTES * (uint64_t)stripe_disks(a) * size;
}

uint64_t mdp_plan_stripe_bytes(const struct mdp_array *a, uint64_t pages)
{
	return stripe_bytes(a, pages);
}

/* MemTotal in bytes; 0 when /proc/meminfo gave none, 0, or more than 64 bits hold. */
static uint64_t mem_total_bytes(const struct mdp_system *s)
{
	return s->mem_total_kib <= UINT64_MAX / 1024 ? s->mem_total_kib * 1024 : 0;
}

static bool stripes_wanted(const struct ctx *c)
{
	for (size_t ai = 0; ai < c->s->n_arrays; ai++)
		if (c->aw[ai].t[MDP_T_STRIPE_CACHE_SIZE].s)
			return true;
	return false;
}

/*
 * A share of unknown RAM is no budget: a silent 0 would refuse every
 * stripe cache for a reason nobody could see, a wrapped one would allow
 * any. Only a budget given as a size still works.
 */
static int budget_unknown(struct ctx *c)
{
	const struct mdp_budget *b = &c->p->budget;

	if (b->kind == MDP_BUDGET_PERCENT)
		mdp_diags_add(c->d, b->pos.file, b->pos.line, b->pos.col,
			      "memory_budget %" PRIu64 "%%: RAM is unknown (/proc/meminfo has no "
			      "usable MemTotal); give the budget as a size such as 512MiB",
			      b->value);
	else
		mdp_diags_add(c->d, c->p->path, 0, 0,
			      "stripe_cache_size needs a memory budget and the default, %d%% of "
			      "RAM, is unknown (/proc/meminfo has no usable MemTotal); set "
			      "memory_budget to a size such as 512MiB",
			      MDP_DEFAULT_BUDGET_PERCENT);
	return -EINVAL;
}

static int budget_resolve(struct ctx *c)
{
	const struct mdp_budget *b = &c->p->budget;
	uint64_t total = mem_total_bytes(c->s);
	uint64_t pct = MDP_DEFAULT_BUDGET_PERCENT;

	char ram[32];

	if (b->kind == MDP_BUDGET_BYTES) {
		c->pl->budget = b->value;
		/* The profile's own size, exactly as pin writes it back. */
		if (b->value % 1024 == 0)
			mdp_show_kib(b->value / 1024, c->pl->budget_desc,
				     sizeof(c->pl->budget_desc));
		else
			mdp_show_mem(b->value, c->pl->budget_desc, sizeof(c->pl->budget_desc));
		return 0;
	}
	if (!total && stripes_wanted(c))
		return budget_unknown(c);
	if (b->kind == MDP_BUDGET_PERCENT)
		pct = b->value;
	c->pl->budget = total / 100 * pct;
	if (!total)
		snprintf(c->pl->budget_desc, sizeof(c->pl->budget_desc),
			 "%" PRIu64 "%% of unknown RAM", pct);
	else if (!mdp_show_mem(total, ram, sizeof(ram)))
		snprintf(c->pl->budget_desc, sizeof(c->pl->budget_desc),
			 "%" PRIu64 "%% of %s RAM%s", pct, ram,
			 b->kind == MDP_BUDGET_UNSET ? ", the default" : "");
	return 0;
}

/* Current stripe cache of an array, or 0 when it has none. */
static uint64_t stripe_now(const struct mdp_array *a)
{
	const struct mdp_cur *cu = &a->cur[MDP_T_STRIPE_CACHE_SIZE];

	return is_parity(a->level) && cu->present ? cu->val.num : 0;
}

/* Bytes of all stripe caches that are not `auto`, and the pages per auto page. */
static void stripe_fixed(struct ctx *c, uint64_t *fixed, uint64_t *auto_disks)
{
	*fixed = 0;
	*auto_disks = 0;
	for (size_t ai = 0; ai < c->s->n_arrays; ai++) {
		const struct mdp_array *a = &c->s->arrays[ai];
		const struct want *w = &c->aw[ai].t[MDP_T_STRIPE_CACHE_SIZE];
		if (!stripe_now(a))
			continue;
		if (w->s && w->s->kind == MDP_S_AUTO)
			*auto_disks += (uint64_t)stripe_disks(a);
		else
			*fixed += stripe_bytes(a, w->s ? w->num : stripe_now(a));
	}
}

/* Largest power of two in 256..32768 that fits the budget, 0 if none. */
static uint64_t stripe_auto_size(uint64_t budget, uint64_t fixed, uint64_t disks)
{
	uint64_t best = 0;

	for (uint64_t sz = 256; sz <= 32768; sz *= 2)
		if (fixed + PAGE_BYTES * disks * sz <= budget)
			best = sz;
	return best;
}

static int stripe_resolve_auto(struct ctx *c, uint64_t fixed, uint64_t auto_disks)
{
	uint64_t sz = auto_disks ? stripe_auto_size(c->pl->budget, fixed, auto_disks) : 0;

	for (size_t ai = 0; ai < c->s->n_arrays && auto_disks; ai++) {
		const struct mdp_array *a = &c->s->arrays[ai];
		struct want *w = &c->aw[ai].t[MDP_T_STRIPE_CACHE_SIZE];
		if (!stripe_now(a) || !w->s || w->s->kind != MDP_S_AUTO)
			continue;
		if (sz) {
			w->num = sz;
			continue;
		}
		if (note(c, a->name,
			 "stripe_cache_size auto: even 256 pages exceed the budget, "
			 "left as is"))
			return -ENOMEM;
		w->s = NULL;
	}
	return 0;
}

/* During a reshape md sized the cache for it; never shrink below that. */
static int stripe_keep_reshape(struct ctx *c)
{
	for (size_t ai = 0; ai < c->s->n_arrays; ai++) {
		const struct mdp_array *a = &c->s->arrays[ai];
		struct want *w = &c->aw[ai].t[MDP_T_STRIPE_CACHE_SIZE];
		if (!w->s || strcmp(a->sync_action, "reshape") || w->num >= stripe_now(a))
			continue;
		if (note(c, a->name,
			 "stripe_cache_size kept at %" PRIu64 ": a reshape is running "
			 "and needs at least what md set",
			 stripe_now(a)))
			return -ENOMEM;
		w->num = stripe_now(a);
	}
	return 0;
}

static int stripe_account(struct ctx *c)
{
	struct mdp_plan *pl = c->pl;

	pl->mem = calloc(c->s->n_arrays ? c->s->n_arrays : 1, sizeof(*pl->mem));
	if (!pl->mem)
		return -ENOMEM;
	for (size_t ai = 0; ai < c->s->n_arrays; ai++) {
		const struct mdp_array *a = &c->s->arrays[ai];
		const struct want *w = &c->aw[ai].t[MDP_T_STRIPE_CACHE_SIZE];
		struct mdp_plan_mem *m;
		if (!stripe_now(a))
			continue;
		m = &pl->mem[pl->n_mem++];
		snprintf(m->dev, sizeof(m->dev), "%s", a->name);
		m->disks = stripe_disks(a);
		m->now = stripe_bytes(a, stripe_now(a));
		m->after = stripe_bytes(a, w->s ? w->num : stripe_now(a));
		pl->mem_now += m->now;
		pl->mem_after += m->after;
	}
	return 0;
}

static int stripe_over_budget(struct ctx *c)
{
	struct mdp_plan *pl = c->pl;
	char list[512] = "", one[32], after[32], budget[32];
	size_t len = 0;

	if (pl->mem_after <= pl->budget || pl->mem_after <= pl->mem_now)
		return 0;
	for (size_t i = 0; i < pl->n_mem && len < sizeof(list); i++) {
		mdp_show_mem(pl->mem[i].after, one, sizeof(one));
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s %s", i ? ", " : "",
					pl->mem[i].dev, one);
	}
	mdp_show_mem(pl->mem_after, after, sizeof(after));
	mdp_show_mem(pl->budget, budget, sizeof(budget));
	mdp_diags_add(c->d, c->p->path, 0, 0,
		      "stripe caches would use %s (%s), above the memory budget of %s (%s)", after,
		      list, budget, pl->budget_desc);
	return -EINVAL;
}

/*
 * A floor never lowers and a ceiling never raises what the target has:
 * when the current value is beyond the bound it stays (kept), else the
 * bound's value is the one wanted. A value that follows the sysctl
 * ("system") is compared by the number md shows for it.
 */
static void bound_apply(struct want *w, const struct mdp_cur *cur)
{
	uint64_t now;

	if (!w->s || w->s->bound == MDP_B_EXACT || w->s->kind == MDP_S_SYSTEM)
		return;
	w->limit = w->num;
	if (!cur->present)
		return;
	now = cur->val.num;
	if (w->s->bound == MDP_B_AT_LEAST ? now > w->num : now < w->num) {
		w->num = now;
		w->kept = true;
	}
}

/* The bounds of every target's wants, once auto is resolved. */
static void bound_targets(struct ctx *c)
{
	for (int t = 0; t < MDP_T_COUNT; t++) {
		if (c->p->global[t].kind == MDP_S_UNSET)
			continue;
		c->global.t[t] = (struct want){.s = &c->p->global[t], .num = c->p->global[t].num};
		bound_apply(&c->global.t[t], &c->s->global[t]);
	}
	for (size_t ai = 0; ai < c->s->n_arrays; ai++)
		for (int t = 0; t < MDP_T_COUNT; t++)
			bound_apply(&c->aw[ai].t[t], &c->s->arrays[ai].cur[t]);
	for (size_t di = 0; di < c->s->n_disks; di++)
		for (int t = 0; t < MDP_T_COUNT; t++)
			if (mdp_tunable_info(t)->scope == MDP_SCOPE_DISK)
				bound_apply(&c->disk[di].t[t], &c->s->disks[di].read_ahead);
}

static int stripe_plan(struct ctx *c)
{
	uint64_t fixed, auto_disks;
	int err;

	if ((err = budget_resolve(c)))
		return err;
	stripe_fixed(c, &fixed, &auto_disks);
	if ((err = stripe_resolve_auto(c, fixed, auto_disks)))
		return err;
	bound_targets(c);
	if ((err = stripe_keep_reshape(c)) || (err = stripe_account(c)))
		return err;
	return stripe_over_budget(c);
}

/*
 * An array's own limit ("N (local)") overrides the sysctl: one below what
 * the profile sets globally holds the array under it unless the profile
 * sets the array's own value too. Named for every profile, so a local cap
 * never hides behind a faster profile.
 */
static int note_local_caps(struct ctx *c)
{
	static const struct {
		enum mdp_tunable own, global;
		const char *what;
	} pairs[] = {
	    {MDP_T_SYNC_SPEED_MAX, MDP_T_SPEED_LIMIT_MAX, "caps it below"},
	    {MDP_T_SYNC_SPEED_MIN, MDP_T_SPEED_LIMIT_MIN, "keeps its floor below"},
	};

	for (size_t ai = 0; ai < c->s->n_arrays; ai++) {
		const struct mdp_array *a = &c->s->arrays[ai];
		for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			const struct mdp_cur *own = &a->cur[pairs[i].own];
			const struct want *g = &c->global.t[pairs[i].global];
			const char *key = mdp_tunable_info(pairs[i].own)->key;
			if (!g->s || c->aw[ai].t[pairs[i].own].s || !own->present ||
			    own->val.kind != MDP_V_NUM || own->val.num >= g->num)
				continue;
			if (note(c, a->name,
				 "its own %s %" PRIu64 " (local) %s the profile's %s %" PRIu64
				 "; %s: system lifts it",
				 key, own->val.num, pairs[i].what,
				 mdp_tunable_info(pairs[i].global)->key, g->num, key))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Drop what cannot apply to an array, with a note saying why. */
static int skip_inapplicable(struct ctx *c)
{
	for (size_t ai = 0; ai < c->s->n_arrays; ai++) {
		const struct mdp_array *a = &c->s->arrays[ai];
		for (int t = 0; t < MDP_T_COUNT; t++) {
			struct want *w = &c->aw[ai].t[t];
			const struct mdp_tunable_info *ti = mdp_tunable_info(t);
			int err = 0;
			if (!w->s || ti->scope != MDP_SCOPE_ARRAY)
				continue;
			if (ti->parity_only && !is_parity(a->level))
				err =
				    note(c, a->name, "%s skipped: %s has no stripe cache", ti->key,
					 a->level_name[0] ? a->level_name : "this level");
			else if (!a->cur[t].present)
				err =
				    note(c, a->name,
					 "%s skipped: the kernel does not offer it here", ti->key);
			else if (t == MDP_T_STRIPE_CACHE_SIZE && !stripe_disks(a))
				/* Memory is pages x disks: without the count no budget holds. */
				err = note(
				    c, a->name,
				    "stripe_cache_size skipped: the number of disks is unknown "
				    "(md/raid_disks), so its memory cannot be counted");
			else
				continue;
			if (err)
				return err;
			w->s = NULL;
		}
	}
	return 0;
}

static int check_preread(struct ctx *c)
{
	int bad = 0;

	for (size_t ai = 0; ai < c->s->n_arrays; ai++) {
		const struct mdp_array *a = &c->s->arrays[ai];
		const struct want *pw = &c->aw[ai].t[MDP_T_PREREAD_BYPASS];
		const struct want *sw = &c->aw[ai].t[MDP_T_STRIPE_CACHE_SIZE];
		uint64_t stripes = sw->s ? sw->num : stripe_now(a);
		if (!pw->s || pw->num <= stripes)
			continue;
		mdp_diags_add(c->d, pw->s->pos.file, pw->s->pos.line, pw->s->pos.col,
			      "%s: preread_bypass_threshold %" PRIu64
			      " is above its stripe_cache_size %" PRIu64,
			      a->name, pw->num, stripes);
		bad = 1;
	}
	return bad ? -EINVAL : 0;
}

/* The number t ends at on a target: what is wanted, else what it has; false if unknown. */
static bool final_num(const struct want *w, const struct mdp_cur *cur, uint64_t *v)
{
	if (w->s && w->s->kind != MDP_S_SYSTEM)
		*v = w->num;
	else if (!w->s && cur->present && cur->val.kind == MDP_V_NUM)
		*v = cur->val.num;
	else
		return false;
	return true;
}

/*
 * A bound can leave a min above its max (a floor on the min keeps a higher
 * value than the max the profile sets): refused, as the loader refuses
 * such numbers when the profile alone shows them.
 */
static int check_pair(struct ctx *c, const char *dev, const struct want *w,
		      const struct mdp_cur *cur, enum mdp_tunable lo)
{
	enum mdp_tunable hi = mdp_tunable_info(lo)->partner;
	const struct want *wl = &w[lo], *wh = &w[hi];
	const struct mdp_setting *at = wl->kept || !wh->s ? wl->s : wh->s;
	uint64_t vl, vh;

	if (!(wl->kept || wh->kept) || !final_num(wl, &cur[lo], &vl) ||
	    !final_num(wh, &cur[hi], &vh) || vl <= vh)
		return 0;
	mdp_diags_add(c->d, at->pos.file, at->pos.line, at->pos.col,
		      "%s%s%s %" PRIu64 " would be above %s %" PRIu64
		      " (a bound keeps what the system has): change the bound or the other value",
		      dev, dev[0] ? ": " : "", mdp_tunable_info(lo)->key, vl,
		      mdp_tunable_info(hi)->key, vh);
	return -EINVAL;
}

static int check_bound_pairs(struct ctx *c)
{
	int bad = 0;

	for (int t = 0; t < MDP_T_COUNT; t++) {
		if (mdp_tunable_info(t)->pair != MDP_PAIR_MIN)
			continue;
		if (mdp_tunable_info(t)->scope == MDP_SCOPE_GLOBAL)
			bad |= check_pair(c, "", c->global.t, c->s->global, t);
		else if (mdp_tunable_info(t)->scope == MDP_SCOPE_ARRAY)
			for (size_t ai = 0; ai < c->s->n_arrays; ai++)
				bad |= check_pair(c, c->s->arrays[ai].name, c->aw[ai].t,
						  c->s->arrays[ai].cur, t);
	}
	return bad ? -EINVAL : 0;
}

static int add_change(struct ctx *c, enum mdp_tunable t, const char *dev, const struct mdp_cur *cur,
		      const struct want *w)
{
	struct mdp_plan *pl = c->pl;
	struct mdp_change *ch;
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	int err;

	if (mdp_grow(&pl->v, pl->n, sizeof(*ch)))
		return -ENOMEM;
	ch = &pl->v[pl->n];
	memset(ch, 0, sizeof(*ch));
	ch->t = t;
	snprintf(ch->dev, sizeof(ch->dev), "%s", dev);
	if ((err = mdp_tunable_path(t, dev, ch->path, sizeof(ch->path))))
		return err;
	ch->cur = *cur;
	ch->bound = w->s->bound;
	ch->limit = w->limit;
	ch->kept = w->kept;
	if (w->kept)
		ch->want = cur->val;
	else if (w->s->kind == MDP_S_SYSTEM)
		ch->want = (struct mdp_value){.kind = MDP_V_SYSTEM};
	else
		ch->want = (struct mdp_value){.kind = MDP_V_NUM, .num = w->num};
	if (w->rule)
		snprintf(ch->reason, sizeof(ch->reason), "rule %u (%s:%u)", w->rule,
			 w->s->pos.file ? w->s->pos.file : "?", w->s->pos.line);
	else
		snprintf(ch->reason, sizeof(ch->reason), "raid.%s", ti->key);
	ch->pending = !cur->present || !mdp_value_eq(&cur->val, &ch->want);
	pl->n++;
	return 0;
}

/* A min/max pair is written so that min never exceeds max in between. */
static bool max_first(const struct want *wmin, const struct want *wmax, const struct mdp_cur *cmax)
{
	if (!wmin->s || !wmax->s || wmin->s->kind != MDP_S_NUM)
		return false;
	return cmax->present && cmax->val.kind == MDP_V_NUM && wmin->num > cmax->val.num;
}

static int emit_pair(struct ctx *c, enum mdp_tunable tmin, enum mdp_tunable tmax, const char *dev,
		     const struct want *w, const struct mdp_cur *cur)
{
	enum mdp_tunable order[2] = {tmin, tmax};
	int err;

	if (max_first(&w[tmin], &w[tmax], &cur[tmax])) {
		order[0] = tmax;
		order[1] = tmin;
	}
	for (int i = 0; i < 2; i++)
		if (w[order[i]].s &&
		    (err = add_change(c, order[i], dev, &cur[order[i]], &w[order[i]])))
			return err;
	return 0;
}

/* The passes of a plan, in write order (enum mdp_phase). */
enum pass { P_FREE, P_GLOBAL, P_ARRAY, P_DISK, P_TAKE, P_BOUNDED, P_COUNT };

static enum pass pass_of(enum mdp_tunable t, const struct want *w, const struct mdp_cur *cur)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	uint64_t now = cur->present && cur->val.kind == MDP_V_NUM ? cur->val.num : 0;

	if (ti->phase == MDP_PHASE_MEMORY)
		return w->num > now ? P_TAKE : P_FREE;
	if (ti->phase == MDP_PHASE_BOUNDED)
		return P_BOUNDED;
	return (enum pass)(P_GLOBAL + (int)ti->scope);
}

/* A target that cannot take a write: no md driver, or no such attribute on the disk. */
static int note_absent(struct ctx *c, enum mdp_tunable t, const char *dev)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	const char *file = strrchr(ti->path, '/');

	if (ti->scope == MDP_SCOPE_GLOBAL)
		/* No md driver loaded: nothing to tune, and nothing a write could create. */
		return note(c, "", "dev.raid.%s skipped: md is not loaded (no %s)", ti->key,
			    ti->path);
	return note(c, dev, "%s skipped: no %s", ti->key, file ? file + 1 : ti->path);
}

/* The changes of one pass for one target: the tunables of scope sc on dev ("" for globals). */
static int emit_target(struct ctx *c, enum pass p, enum mdp_scope sc, const char *dev,
		       const struct want *wants, const struct mdp_cur *cur)
{
	struct want w[MDP_T_COUNT] = {0};
	int err;

	for (int t = 0; t < MDP_T_COUNT; t++) {
		if (mdp_tunable_info(t)->scope != sc || !wants[t].s ||
		    pass_of(t, &wants[t], &cur[t]) != p)
			continue;
		if (!cur[t].present) {
			if ((err = note_absent(c, t, dev)))
				return err;
			continue;
		}
		w[t] = wants[t];
	}
	for (int t = 0; t < MDP_T_COUNT; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info(t);
		if (ti->pair == MDP_PAIR_MIN)
			err = emit_pair(c, t, ti->partner, dev, w, cur);
		else if (ti->pair == MDP_PAIR_NONE && w[t].s)
			err = add_change(c, t, dev, &cur[t], &w[t]);
		else
			continue; /* a max goes with its min */
		if (err)
			return err;
	}
	return 0;
}

/* Discovery reads the disk-scope tunables into one field (struct mdp_disk). */
static void disk_cur(const struct mdp_disk *dk, struct mdp_cur cur[MDP_T_COUNT])
{
	for (int t = 0; t < MDP_T_COUNT; t++)
		cur[t] = mdp_tunable_info(t)->scope == MDP_SCOPE_DISK ? dk->read_ahead
								      : (struct mdp_cur){0};
}

static int emit_pass(struct ctx *c, enum pass p)
{
	struct mdp_cur dcur[MDP_T_COUNT];
	int err;

	if ((err = emit_target(c, p, MDP_SCOPE_GLOBAL, "", c->global.t, c->s->global)))
		return err;
	for (size_t ai = 0; ai < c->s->n_arrays; ai++)
		if ((err = emit_target(c, p, MDP_SCOPE_ARRAY, c->s->arrays[ai].name, c->aw[ai].t,
				       c->s->arrays[ai].cur)))
			return err;
	for (size_t di = 0; di < c->s->n_disks; di++) {
		disk_cur(&c->s->disks[di], dcur);
		if ((err = emit_target(c, p, MDP_SCOPE_DISK, c->s->disks[di].name, c->disk[di].t,
				       dcur)))
			return err;
	}
	return 0;
}

/* Every wanted target in the order its registry entry's phase and scope give. */
static int emit(struct ctx *c)
{
	int err;

	for (int p = 0; p < P_COUNT; p++)
		if ((err = emit_pass(c, (enum pass)p)))
			return err;
	return 0;
}

/* One of md's operations: never a word a tampered or odd sysfs made up. */
static bool md_op(const char *action)
{
	static const char *const ops[] = {"resync", "recover", "reshape", "check", "repair"};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(action, ops[i]))
			return true;
	return false;
}

/* The operations running now, with md's speed: apply journals them. */
static int note_ops(struct mdp_plan *pl, const struct mdp_system *s)
{
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		if (!md_op(a->sync_action))
			continue;
		if (!pl->ops && !(pl->ops = calloc(s->n_arrays, sizeof(*pl->ops))))
			return -ENOMEM;
		snprintf(pl->ops[pl->n_ops].dev, sizeof(pl->ops[0].dev), "%s", a->name);
		snprintf(pl->ops[pl->n_ops].action, sizeof(pl->ops[0].action), "%s",
			 a->sync_action);
		pl->ops[pl->n_ops++].kib_s = a->sync_speed;
	}
	return 0;
}

int mdp_plan_build(const struct mdp_profile *p, const struct mdp_system *s, struct mdp_plan *out,
		   struct mdp_diags *d)
{
	struct mdp_plan pl = {0};
	struct ctx c = {.p = p, .s = s, .pl = &pl, .d = d};
	int err = -ENOMEM;

	c.aw = calloc(s->n_arrays ? s->n_arrays : 1, sizeof(*c.aw));
	c.disk = calloc(s->n_disks ? s->n_disks : 1, sizeof(*c.disk));
	if (!c.aw || !c.disk)
		goto out;
	if ((err = apply_rules(&c)) || (err = skip_inapplicable(&c)) || (err = stripe_plan(&c)) ||
	    (err = check_preread(&c)) || (err = check_bound_pairs(&c)) ||
	    (err = note_local_caps(&c)) || (err = emit(&c)) || (err = note_ops(&pl, s)))
		goto out;
	*out = pl;
	memset(&pl, 0, sizeof(pl));
out:
	mdp_plan_free(&pl);
	free(c.aw);
	free(c.disk);
	return err;
}

unsigned mdp_plan_discover_skip(const struct mdp_profile *p)
{
	unsigned skip = MDP_SKIP_PROGRESS | MDP_SKIP_UUID | MDP_SKIP_MEMBERS;

	for (size_t i = 0; i < p->n_rules; i++) {
		/* The last way to a UUID is a member's superblock: members too. */
		if (p->rules[i].match.n_uuids)
			skip &= ~(unsigned)(MDP_SKIP_UUID | MDP_SKIP_MEMBERS);
		/* An array's class is its members' disks'. */
		if (p->rules[i].match.media)
			skip &= ~(unsigned)MDP_SKIP_MEMBERS;
		for (int t = 0; t < MDP_T_COUNT; t++)
			if (mdp_tunable_info(t)->scope == MDP_SCOPE_DISK &&
			    p->rules[i].set[t].kind != MDP_S_UNSET)
				skip &= ~(unsigned)MDP_SKIP_MEMBERS;
	}
	return skip;
}

size_t mdp_plan_pending(const struct mdp_plan *pl)
{
	size_t n = 0;

	for (size_t i = 0; i < pl->n; i++)
		n += pl->v[i].pending;
	return n;
}

void mdp_plan_free(struct mdp_plan *pl)
{
	free(pl->v);
	free(pl->notes);
	free(pl->mem);
	free(pl->ops);
	memset(pl, 0, sizeof(*pl));
}
