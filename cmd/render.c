/* render: plans, reports and settings as text and JSON (render.h). */
#include "render.h"

#include "text.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *render_safe(const char *s, char *buf, size_t len)
{
	return mdp_text_safe(buf, len, s);
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

static void json_value(struct json *j, enum mdp_tunable t, const struct mdp_value *v)
{
	char tok[48];

	if (mdp_tunable_json(t, v, tok, sizeof(tok)))
		json_null(j);
	else
		json_raw(j, tok);
}

/* "target", "tunable", "path": how every JSON change names what it is about. */
static void json_target(struct json *j, enum mdp_tunable t, const char *dev)
{
	char path[128];

	json_kstr(j, "target", dev[0] ? dev : "dev.raid");
	json_kstr(j, "tunable", mdp_tunable_info(t)->key);
	json_kstr(j, "path", mdp_tunable_path(t, dev, path, sizeof(path)) ? NULL : path);
}

/* A bounded change: "bound" (at_least, at_most), "limit" (its value) and "kept". */
static void json_bound(struct json *j, const struct mdp_change *c)
{
	struct mdp_value v = {.kind = MDP_V_NUM, .num = c->limit};

	if (c->bound == MDP_B_EXACT)
		return;
	json_kstr(j, "bound", mdp_bound_key(c->bound));
	json_key(j, "limit");
	json_value(j, c->t, &v);
	json_kbool(j, "kept", c->kept);
}

/*
 * "kept": the values a floor or ceiling left as they were (nothing written),
 * only when there are any.
 */
static void json_kept(struct json *j, const struct mdp_plan *pl)
{
	bool any = false;

	for (size_t i = 0; pl && i < pl->n; i++)
		any |= pl->v[i].kept;
	if (!any)
		return;
	json_key(j, "kept");
	json_arr(j);
	for (size_t i = 0; i < pl->n; i++) {
		const struct mdp_change *c = &pl->v[i];
		if (!c->kept)
			continue;
		json_obj(j);
		json_target(j, c->t, c->dev);
		json_key(j, "value");
		json_value(j, c->t, &c->cur.val);
		json_kstr(j, "unit", mdp_tunable_info(c->t)->unit);
		json_bound(j, c);
		json_end(j);
	}
	json_end(j);
}

static void json_plan_notes(struct json *j, const struct mdp_plan *pl)
{
	char line[256];

	for (size_t i = 0; pl && i < pl->n_notes; i++) {
		render_plan_note(&pl->notes[i], line, sizeof(line));
		json_str(j, line);
	}
}

static void json_memory(struct json *j, const struct mdp_plan *pl)
{
	json_key(j, "memory");
	json_obj(j);
	json_ku64(j, "budget_bytes", pl->budget);
	json_ku64(j, "now_bytes", pl->mem_now);
	json_ku64(j, "after_bytes", pl->mem_after);
	json_key(j, "arrays");
	json_arr(j);
	for (size_t i = 0; i < pl->n_mem; i++) {
		json_obj(j);
		json_kstr(j, "array", pl->mem[i].dev);
		json_key(j, "disks");
		json_i64(j, pl->mem[i].disks);
		json_ku64(j, "now_bytes", pl->mem[i].now);
		json_ku64(j, "after_bytes", pl->mem[i].after);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

static void json_services(struct json *j, const struct mdp_txn_report *rep);

void render_diff_json(struct json *j, const char *profile, const struct mdp_plan *pl,
		      const struct mdp_txn_report *rep)
{
	json_obj(j);
	json_kstr(j, "profile", profile);
	json_key(j, "changes");
	json_arr(j);
	for (size_t i = 0; i < pl->n; i++) {
		const struct mdp_change *c = &pl->v[i];
		json_obj(j);
		json_target(j, c->t, c->dev);
		json_key(j, "current");
		if (c->cur.present)
			json_value(j, c->t, &c->cur.val);
		else
			json_null(j);
		json_key(j, "desired");
		json_value(j, c->t, &c->want);
		json_kstr(j, "unit", mdp_tunable_info(c->t)->unit);
		json_kbool(j, "pending", c->pending);
		json_kstr(j, "reason", c->reason);
		json_bound(j, c);
		json_end(j);
	}
	json_end(j);
	json_services(j, rep);
	json_key(j, "notes");
	json_arr(j);
	json_plan_notes(j, pl);
	json_end(j);
	json_memory(j, pl);
	json_ku64(j, "pending", mdp_plan_pending(pl));
	json_end(j);
}

/* ---- transaction reports ------------------------------------------------------ */

static const char *const svc_results[] = {
    [MDP_TXN_SVC_DONE] = "done",
    [MDP_TXN_SVC_NOT_RUNNING] = "not-running",
    [MDP_TXN_SVC_NOT_FOUND] = "not-found",
    [MDP_TXN_SVC_RUNNING] = "running",
    [MDP_TXN_SVC_REBOOTED] = "rebooted",
    [MDP_TXN_SVC_HELD] = "held",
    [MDP_TXN_SVC_WOULD_PAUSE] = "would-pause",
    [MDP_TXN_SVC_MISSING] = "missing",
    [MDP_TXN_SVC_PAUSED] = "paused",
    [MDP_TXN_SVC_UNKNOWN] = "unknown",
    [MDP_TXN_SVC_OTHER_PLATFORM] = "other-platform",
};

/* A previewed service's state and what apply would do with it. */
static const char *const svc_preview_text[] = {
    [MDP_TXN_SVC_NOT_RUNNING] = "stopped; left alone",
    [MDP_TXN_SVC_NOT_FOUND] = "not found (optional); skipped",
    [MDP_TXN_SVC_WOULD_PAUSE] = "running; would be paused",
    [MDP_TXN_SVC_MISSING] = "missing; apply refuses a profile that requires it",
    [MDP_TXN_SVC_PAUSED] = "paused by the active profile; stays paused",
    [MDP_TXN_SVC_UNKNOWN] = "state unknown (see the error)",
    [MDP_TXN_SVC_OTHER_PLATFORM] = "not for this platform (only_on); skipped",
};

/*
 * Entries for another service manager (only_on) are noise on this box: a Debian server's
 * diff of a shipped profile would list every DSM service. They are shown with -v.
 */
void render_services_preview(const struct mdp_txn_report *rep, bool detail)
{
	bool head = false;

	for (size_t i = 0; i < rep->n_services; i++) {
		const char *t = svc_preview_text[rep->services[i].result];
		if (!detail && rep->services[i].result == MDP_TXN_SVC_OTHER_PLATFORM)
			continue;
		if (!head)
			puts("\nservices");
		head = true;
		printf("  %s: %s\n", rep->services[i].name, t ? t : "?");
	}
}

/* The services an earlier boot brought back, for the stale-journal note. */
static void rebooted_services(const struct mdp_txn_report *rep, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < rep->n_services && n < len; i++)
		if (rep->services[i].result == MDP_TXN_SVC_REBOOTED)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      rep->services[i].name);
}

/* What a recover does: the overlay's removal when a base waits under it. */
static const char *undo_text(const struct mdp_txn_report *rep)
{
	for (size_t i = 0; i < rep->n_notes; i++)
		if (rep->notes[i].kind == MDP_TXN_NOTE_BACK_TO_BASE)
			return "removing it";
	return "restoring the baseline";
}

static void note_text(const struct mdp_txn_report *rep, const struct mdp_txn_note *n, char *buf,
		      size_t len)
{
	char names[512], prof[160];
	const char *profile = render_safe(n->profile, prof, sizeof(prof));
	const char *undo = undo_text(rep);

	switch (n->kind) {
	case MDP_TXN_NOTE_NOTHING_ACTIVE:
		snprintf(buf, len, "no profile is active; nothing to revert");
		break;
	case MDP_TXN_NOTE_REVERTING:
		snprintf(buf, len, "reverting profile %s", profile);
		break;
	case MDP_TXN_NOTE_INTERRUPTED_APPLY:
	case MDP_TXN_NOTE_INTERRUPTED_REVERT:
		snprintf(buf, len, "found an interrupted %s of profile %s: %s",
			 n->kind == MDP_TXN_NOTE_INTERRUPTED_APPLY ? "apply" : "revert", profile,
			 undo);
		break;
	case MDP_TXN_NOTE_WATCH_GONE:
		snprintf(buf, len, "%s of profile %s ended without reverting (killed?): %s",
			 n->by == MDP_BY_AUTO ? "mdprofile auto" : "apply --until-idle", profile,
			 undo);
		break;
	case MDP_TXN_NOTE_COMPARE_GONE:
		snprintf(buf, len,
			 "bench --compare under profile %s ended without reverting (killed?): %s",
			 profile, undo);
		break;
	case MDP_TXN_NOTE_PROBE_GONE:
		snprintf(buf, len, "explain --probe of %s ended without reverting (killed?): %s",
			 profile, undo);
		break;
	case MDP_TXN_NOTE_BACK_TO_BASE:
		snprintf(buf, len, "back to the base profile %s", profile);
		break;
	case MDP_TXN_NOTE_GONE:
		snprintf(buf, len,
			 "%s no longer exists: its values went with it, nothing to restore",
			 n->dev);
		break;
	case MDP_TXN_NOTE_PLAIN_VERBS:
		snprintf(buf, len,
			 "this DSM's service tool has no pause/resume by reason: services were "
			 "paused and resumed with the plain verbs, which can also start a service "
			 "DSM had stopped for its own reason");
		break;
	case MDP_TXN_NOTE_STALE:
		rebooted_services(rep, names, sizeof(names));
		snprintf(buf, len,
			 "cleared a journal from an earlier boot (profile %s): the reboot already "
			 "reset the kernel values%s%s%s",
			 profile, names[0] ? "\nservices it paused (" : "", names,
			 names[0] ? ") came back with the boot; nothing to resume" : "");
		break;
	}
}

/* A skipped service in words; NULL for those text output does not mention. */
static const char *svc_skip_text(const struct mdp_txn_service *sv, char *buf, size_t len)
{
	if (sv->result == MDP_TXN_SVC_NOT_FOUND)
		snprintf(buf, len, "optional service %s not found; skipped", sv->name);
	else if (sv->result == MDP_TXN_SVC_NOT_RUNNING)
		snprintf(buf, len, "service %s is not running; left alone", sv->name);
	else if (sv->result == MDP_TXN_SVC_HELD)
		snprintf(buf, len,
			 "service %s: released mdprofile's pause, but DSM keeps it stopped for a "
			 "reason of its own; left stopped",
			 sv->name);
	else
		return NULL;
	return buf;
}

/* "md2 stripe_cache_size: 256 -> 2048", with -v "  [/sys/block/md2/md/stripe_cache_size]". */
static void change_text(const struct mdp_txn_change *c, bool path, char *buf, size_t len)
{
	char name[96], a[48] = "?", b[48], file[128];

	mdp_tunable_target_name(c->t, c->dev, name, sizeof(name));
	if (c->have_before)
		mdp_tunable_show(c->t, &c->before, a, sizeof(a));
	mdp_tunable_show(c->t, &c->after, b, sizeof(b));
	if (path && !mdp_tunable_path(c->t, c->dev, file, sizeof(file)))
		snprintf(buf, len, "%s: %s -> %s  [%s]", name, a, b, file);
	else
		snprintf(buf, len, "%s: %s -> %s", name, a, b);
}

void render_report_text(const struct cli *cli, const struct mdp_txn_report *rep, bool ok)
{
	char line[1024];

	if (!cli_info(cli))
		return;
	for (size_t i = 0; i < rep->n_notes; i++) {
		note_text(rep, &rep->notes[i], line, sizeof(line));
		puts(line);
	}
	for (size_t i = 0; i < rep->n_services; i++)
		if (svc_skip_text(&rep->services[i], line, sizeof(line)))
			puts(line);
	if (!ok)
		return;
	for (size_t i = 0; i < rep->n_changes; i++) {
		change_text(&rep->changes[i], cli_detail(cli), line, sizeof(line));
		puts(line);
	}
	for (size_t i = 0; i < rep->n_services; i++)
		if (rep->services[i].result == MDP_TXN_SVC_DONE)
			printf("service %s: %s\n", rep->services[i].name,
			       rep->services[i].action == MDP_TXN_PAUSE ? "paused" : "resumed");
}

static void left_text(const struct mdp_txn_left *l, char *buf, size_t len)
{
	char name[96], val[48];

	if (l->is_service && l->paused)
		snprintf(buf, len, "service %s is still paused", l->svc);
	else if (l->is_service)
		snprintf(buf, len, "service %s was resumed and could not be paused again", l->svc);
	else if (mdp_tunable_target_name(l->t, l->dev, name, sizeof(name)), !l->have_value)
		snprintf(buf, len, "%s: its recorded value is unreadable", name);
	else if (mdp_tunable_show(l->t, &l->value, val, sizeof(val)))
		snprintf(buf, len, "%s is not back", name);
	else
		snprintf(buf, len, "%s is not back to %s", name, val);
}

static void fix_text(const struct cli *cli, const struct mdp_txn_left *l, char *buf, size_t len)
{
	const char *backend = cli->svc.ops ? cli->svc.ops->name : "none";

	if (l->fix[0])
		snprintf(buf, len, "%s", l->fix);
	else if (l->is_service && l->paused)
		snprintf(buf, len,
			 "start service %s with the service manager that paused it (the %s "
			 "backend has no command for it)",
			 l->svc, backend);
	else if (l->is_service)
		snprintf(buf, len, "stop service %s again if the operation still runs", l->svc);
	else
		snprintf(buf, len, "check the value by hand; mdprofile cannot tell what it was");
}

void render_left(struct cli *cli, const struct mdp_txn_report *rep)
{
	char line[1024];

	cli_err(cli, "rollback incomplete; these are left as they are:");
	for (size_t i = 0; i < rep->n_left; i++) {
		left_text(&rep->left[i], line, sizeof(line));
		cli_err(cli, "  %s", line);
	}
	cli_err(cli, "to restore them by hand, as root:");
	for (size_t i = 0; i < rep->n_left; i++) {
		fix_text(cli, &rep->left[i], line, sizeof(line));
		cli_err(cli, "  %s", line);
	}
}

static void json_change(struct json *j, const struct mdp_txn_change *c)
{
	json_obj(j);
	json_target(j, c->t, c->dev);
	json_key(j, "before");
	if (c->have_before)
		json_value(j, c->t, &c->before);
	else
		json_null(j);
	json_key(j, "after");
	json_value(j, c->t, &c->after);
	json_kstr(j, "unit", mdp_tunable_info(c->t)->unit);
	json_end(j);
}

static void json_left(struct json *j, const struct mdp_txn_left *l)
{
	char text[512];

	json_obj(j);
	if (l->is_service) {
		json_kstr(j, "service", l->svc);
		json_kstr(j, "state", l->paused ? "paused" : "resumed");
	} else {
		json_target(j, l->t, l->dev);
		json_key(j, "value");
		if (l->have_value)
			json_value(j, l->t, &l->value);
		else
			json_null(j);
		json_kstr(j, "unit", mdp_tunable_info(l->t)->unit);
	}
	left_text(l, text, sizeof(text));
	json_kstr(j, "message", text);
	json_kstr(j, "fix", l->fix[0] ? l->fix : NULL);
	json_end(j);
}

static void json_notes(struct json *j, const struct mdp_txn_report *rep)
{
	char line[1024];

	for (size_t i = 0; i < rep->n_notes; i++) {
		note_text(rep, &rep->notes[i], line, sizeof(line));
		/* The stale note's second sentence is the services list: JSON has them itself. */
		line[strcspn(line, "\n")] = '\0';
		json_str(j, line);
	}
}

/* "services": the report's (none when rep is NULL). */
static void json_services(struct json *j, const struct mdp_txn_report *rep)
{
	json_key(j, "services");
	json_arr(j);
	for (size_t i = 0; rep && i < rep->n_services; i++) {
		json_obj(j);
		json_kstr(j, "name", rep->services[i].name);
		json_kstr(j, "action",
			  rep->services[i].action == MDP_TXN_PAUSE ? "pause" : "resume");
		json_kstr(j, "result", svc_results[rep->services[i].result]);
		json_end(j);
	}
	json_end(j);
}

/* The fields every result object starts with. */
static void json_result_head(struct json *j, bool changed, const char *profile, const char *result,
			     bool dry_run)
{
	json_obj(j);
	json_kbool(j, "changed", changed);
	json_kstr(j, "profile", profile && profile[0] ? profile : NULL);
	json_kstr(j, "result", result);
	json_kbool(j, "dry_run", dry_run);
}

/* ... and end with: notes (the report's, then the plan's) and what is left. */
static void json_result_tail(struct json *j, const struct mdp_txn_report *rep,
			     const struct mdp_plan *pl)
{
	json_key(j, "notes");
	json_arr(j);
	if (rep)
		json_notes(j, rep);
	json_plan_notes(j, pl);
	json_end(j);
	json_kept(j, pl);
	json_key(j, "left");
	json_arr(j);
	for (size_t i = 0; rep && i < rep->n_left; i++)
		json_left(j, &rep->left[i]);
	json_end(j);
	json_end(j);
}

void render_report_json(struct json *j, const struct mdp_txn_report *rep, const char *result,
			const struct mdp_plan *pl)
{
	json_result_head(j, mdp_txn_report_changed(rep), rep->profile, result, false);
	json_key(j, "changes");
	json_arr(j);
	for (size_t i = 0; i < rep->n_changes; i++)
		json_change(j, &rep->changes[i]);
	json_end(j);
	json_services(j, rep);
	json_result_tail(j, rep, pl);
}

void render_noop_json(struct json *j, const char *note)
{
	json_result_head(j, false, NULL, "ok", false);
	json_key(j, "changes");
	json_arr(j);
	json_end(j);
	json_services(j, NULL);
	json_key(j, "notes");
	json_arr(j);
	json_str(j, note);
	json_end(j);
	json_key(j, "left");
	json_arr(j);
	json_end(j);
	json_end(j);
}

void render_dry_run_json(struct json *j, const struct mdp_profile *p, const struct mdp_plan *pl,
			 const struct mdp_txn_report *rep)
{
	json_result_head(j, mdp_plan_pending(pl) > 0, p->name, "ok", true);
	json_key(j, "changes");
	json_arr(j);
	for (size_t i = 0; i < pl->n; i++) {
		const struct mdp_change *c = &pl->v[i];
		struct mdp_txn_change tc = {.t = c->t,
					    .have_before = c->cur.present,
					    .before = c->cur.val,
					    .after = c->want};
		if (!c->pending)
			continue;
		snprintf(tc.dev, sizeof(tc.dev), "%s", c->dev);
		json_change(j, &tc);
	}
	json_end(j);
	json_services(j, rep);
	json_result_tail(j, NULL, pl);
}
