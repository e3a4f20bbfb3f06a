/* render: settings and plans as text, DSM's speed setting (render.h). */
#include "render.h"

#include "mdp_base.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

const char *render_safe(const char *s, char *buf, size_t len)
{
	return mdp_text_safe(buf, len, s);
}

/* One line of t (n bytes, no newline) from column col: wrapped at spaces, its own spacing kept. */
static void say_line(const char *t, size_t n, int col, int indent)
{
	size_t lead = strspn(t, " ");

	while (n > OPT_HELP_WIDTH - (size_t)col) {
		size_t cut = OPT_HELP_WIDTH - (size_t)col, end;
		/* the last space that leaves the line within the width; else a long word whole */
		while (cut > lead && t[cut] != ' ')
			cut--;
		if (cut <= lead) {
			size_t from = OPT_HELP_WIDTH - (size_t)col;
			const char *sp = memchr(t + from, ' ', n - from);
			if (!sp)
				break;
			cut = (size_t)(sp - t);
		}
		for (end = cut; end > 0 && t[end - 1] == ' '; end--)
			;
		printf("%.*s\n", (int)end, t);
		while (cut < n && t[cut] == ' ')
			cut++;
		t += cut, n -= cut;
		if (!n)
			return;
		printf("%*s", indent, "");
		col = indent, lead = 0;
	}
	printf("%.*s\n", (int)n, t);
}

void render_say(int indent, const char *fmt, ...)
{
	va_list ap;
	char *text = NULL, *p;
	int col = 0;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (!text)
		return;
	for (p = text; *p == '\n'; p++)
		putchar('\n');
	/* a newline inside starts a continuation line too */
	for (;;) {
		size_t n = strcspn(p, "\n");
		say_line(p, n, col, indent);
		if (!p[n] || !p[n + 1])
			break;
		p += n + 1;
		printf("%*s", indent, "");
		col = indent;
	}
	free(text);
}

const char *render_word(const struct render_word *t, const char *word, const char *other)
{
	for (; t->word; t++)
		if (!strcmp(t->word, word))
			return t->text;
	return other;
}

/* ---- settings ---------------------------------------------------------------- */

/* "at least " before a floor's value, "at most " before a ceiling's. */
static const char *bound_words(enum mdp_bound b)
{
	if (b == MDP_B_AT_LEAST)
		return "at least ";
	return b == MDP_B_AT_MOST ? "at most " : "";
}

void render_setting(enum mdp_tunable t, const struct mdp_setting *s, char *buf, size_t len)
{
	struct mdp_value v = {.kind = MDP_V_NUM, .num = s->num};
	const char *bw = bound_words(s->bound);
	char val[48];

	if (s->kind == MDP_S_AUTO)
		snprintf(val, sizeof(val), "auto");
	else if (s->kind == MDP_S_SYSTEM)
		snprintf(val, sizeof(val), "system");
	else if (mdp_tunable_show(t, &v, val, sizeof(val)))
		snprintf(val, sizeof(val), "?");
	snprintf(buf, len, "%s%s", bw, val);
}

/* A plain value as itself; a bound as {"at_least": value} or {"at_most": value}. */
void render_setting_json(struct json *j, enum mdp_tunable t, const struct mdp_setting *s)
{
	(void)t;
	if (s->bound != MDP_B_EXACT) {
		json_obj(j);
		json_key(j, mdp_bound_key(s->bound));
	}
	if (s->kind == MDP_S_AUTO)
		json_str(j, "auto");
	else if (s->kind == MDP_S_SYSTEM)
		json_str(j, "system");
	else
		json_u64(j, s->num);
	if (s->bound != MDP_B_EXACT)
		json_end(j);
}

void render_budget(const struct mdp_budget *b, char *buf, size_t len)
{
	if (b->kind == MDP_BUDGET_PERCENT)
		snprintf(buf, len, "%" PRIu64 "%% of RAM", b->value);
	else if (b->kind == MDP_BUDGET_BYTES)
		mdp_show_kib(b->value / 1024, buf, len);
	else
		snprintf(buf, len, "%d%% of RAM (default)", MDP_DEFAULT_BUDGET_PERCENT);
}

void render_plan_note(const struct mdp_plan_note *n, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", n->dev, n->dev[0] ? ": " : "", n->text);
}

/* ---- plans ------------------------------------------------------------------- */

static const struct mdp_plan_mem *plan_mem(const struct mdp_plan *pl, const char *dev)
{
	for (size_t i = 0; i < pl->n_mem; i++)
		if (!strcmp(pl->mem[i].dev, dev))
			return &pl->mem[i];
	return NULL;
}

static void array_header(const struct mdp_system *s, const char *dev)
{
	const struct mdp_array *a = mdp_system_array(s, dev);

	if (!a) {
		printf("\n%s\n", dev);
		return;
	}
	printf("\n%s (%s, %d disks", a->name, a->level_name, a->raid_disks);
	if (strcmp(a->sync_action, "idle") && a->sync_action[0]) {
		printf(", %s", a->sync_action);
		if (a->has_progress && a->sync_total)
			printf(" %.1f%%", (double)a->sync_done * 100.0 / (double)a->sync_total);
	}
	puts(")");
}

static const char *section_key(const struct mdp_change *c)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(c->t);

	if (ti->scope == MDP_SCOPE_GLOBAL)
		return "";
	if (ti->scope == MDP_SCOPE_DISK)
		return "#disks";
	return c->dev;
}

static void section_header(const struct mdp_system *s, const struct mdp_change *c)
{
	const char *key = section_key(c);

	if (!key[0])
		puts("\ndev.raid");
	else if (key[0] == '#')
		puts("\nmember disks");
	else
		array_header(s, c->dev);
}

void render_kept(const struct mdp_change *c, char *buf, size_t len)
{
	struct mdp_value v = {.kind = MDP_V_NUM, .num = c->limit};
	char lim[48];

	if (mdp_tunable_show(c->t, &v, lim, sizeof(lim)))
		snprintf(lim, sizeof(lim), "?");
	snprintf(buf, len, "kept: already %s than %s",
		 c->bound == MDP_B_AT_LEAST ? "higher" : "lower", lim);
}

/* A value a floor or ceiling keeps: what it is and why nothing is written. */
static void kept_line(const char *label, const char *cur, const struct mdp_change *c)
{
	char why[96];

	render_kept(c, why, sizeof(why));
	printf("  %-26s %16s (%s)\n", label, cur, why);
}

static void change_line(const struct mdp_plan *pl, const struct mdp_change *c)
{
	char cur[48] = "(missing)", want[48], label[64], now[32], after[32];
	const struct mdp_tunable_info *ti = mdp_tunable_info(c->t);
	const struct mdp_plan_mem *m = plan_mem(pl, c->dev);

	if (c->cur.present)
		mdp_tunable_show(c->t, &c->cur.val, cur, sizeof(cur));
	mdp_tunable_show(c->t, &c->want, want, sizeof(want));
	if (ti->scope == MDP_SCOPE_DISK)
		snprintf(label, sizeof(label), "%s read_ahead", c->dev);
	else
		snprintf(label, sizeof(label), "%s", ti->key);
	if (c->kept) {
		kept_line(label, cur, c);
		return;
	}
	printf("  %-26s %16s %s %s", label, cur, c->pending ? "->" : "==", want);
	if (c->t == MDP_T_STRIPE_CACHE_SIZE && m) {
		mdp_show_mem(m->now, now, sizeof(now));
		mdp_show_mem(m->after, after, sizeof(after));
		if (c->pending)
			printf("   (%s -> %s)", now, after);
		else
			printf("   (%s)", now);
	}
	putchar('\n');
}

/* The changes of one section (plan order within it); false if none. */
static bool print_section(const struct mdp_plan *pl, const struct mdp_system *s, const char *key,
			  bool all)
{
	bool any = false;

	for (size_t i = 0; i < pl->n; i++) {
		const struct mdp_change *c = &pl->v[i];
		if ((!c->pending && !c->kept && !all) || strcmp(section_key(c), key))
			continue;
		if (!any)
			section_header(s, c);
		any = true;
		change_line(pl, c);
	}
	return any;
}

void render_plan_text(const struct mdp_plan *pl, const struct mdp_system *s, bool all)
{
	char line[256];

	/* Apply order is for safety; people read by target: sysctls, arrays, disks. */
	print_section(pl, s, "", all);
	for (size_t i = 0; i < s->n_arrays; i++)
		print_section(pl, s, s->arrays[i].name, all);
	print_section(pl, s, "#disks", all);
	if (pl->n_notes)
		puts("\nnotes");
	for (size_t i = 0; i < pl->n_notes; i++) {
		render_plan_note(&pl->notes[i], line, sizeof(line));
		printf("  %s\n", line);
	}
	render_dsm_speed_note(s, pl, "\n");
}

void render_plan_mem(const struct mdp_plan *pl)
{
	char now[32], after[32], budget[32];

	if (!pl->n_mem)
		return;
	mdp_show_mem(pl->mem_now, now, sizeof(now));
	mdp_show_mem(pl->mem_after, after, sizeof(after));
	mdp_show_mem(pl->budget, budget, sizeof(budget));
	printf("\nstripe cache memory: %s now, %s after; budget %s (%s)\n", now, after, budget,
	       pl->budget_desc);
}

void render_goal_note(const struct mdp_profile *p, const char *lead)
{
	char pct[32] = "";

	if (!p->goal.latency_ms)
		return;
	if (p->goal.percentile)
		snprintf(pct, sizeof(pct), " at the %uth percentile", p->goal.percentile);
	printf("%snote: its goal (foreground latency %u ms%s) acts under 'mdprofile auto' and "
	       "'apply --until-idle': they steer each syncing array's md/sync_speed_min up to "
	       "the profile's minimum and, with it at its floor, its md/sync_speed_max\n",
	       lead, p->goal.latency_ms, pct);
}

bool render_dsm_speed(const struct mdp_system *s, char *buf, size_t len)
{
	const struct mdp_dsm_speed *sp = &s->dsm_speed;
	char opt[64];

	if (!sp->present)
		return false;
	render_safe(sp->option[0] ? sp->option : "(no resync_speed_option)", opt, sizeof(opt));
	if (sp->known)
		snprintf(buf, len, "%s, %" PRIu64 " / %" PRIu64 " KiB/s", opt, sp->min, sp->max);
	else
		snprintf(buf, len, "%s", opt);
	return true;
}

void render_dsm_speed_note(const struct mdp_system *s, const struct mdp_plan *pl, const char *lead)
{
	char dsm[96], line[320];
	bool speed = false;

	for (size_t i = 0; pl && i < pl->n; i++)
		speed |= pl->v[i].t == MDP_T_SPEED_LIMIT_MIN || pl->v[i].t == MDP_T_SPEED_LIMIT_MAX;
	if (!speed || !render_dsm_speed(s, dsm, sizeof(dsm)))
		return;
	snprintf(line, sizeof(line),
		 "DSM writes its own RAID resync speed setting (%s) to speed_limit_min/max at "
		 "every boot and whenever that setting changes in Storage Manager",
		 dsm);
	printf("%snote: %s\n", lead, line);
}
