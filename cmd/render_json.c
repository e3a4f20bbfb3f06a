/*
 * render_json: plans and transaction reports as JSON (render.h,
 * docs/output.md): diff's plan, and the result object of apply, its
 * dry run, revert and recover.
 */
#include "render.h"

#include <stdio.h>
#include <string.h>

/* V as the registry writes it, or null (no value: V is NULL). */
static void json_value(struct json *j, enum mdp_tunable t, const struct mdp_value *v)
{
	char tok[48];

	if (!v || mdp_tunable_json(t, v, tok, sizeof(tok)))
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
		json_value(j, c->t, c->cur.present ? &c->cur.val : NULL);
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

static void json_change(struct json *j, const struct mdp_txn_change *c)
{
	json_obj(j);
	json_target(j, c->t, c->dev);
	json_key(j, "before");
	json_value(j, c->t, c->have_before ? &c->before : NULL);
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
		json_value(j, l->t, l->have_value ? &l->value : NULL);
		json_kstr(j, "unit", mdp_tunable_info(l->t)->unit);
	}
	render_left_text(l, text, sizeof(text));
	json_kstr(j, "message", text);
	json_kstr(j, "fix", l->fix[0] ? l->fix : NULL);
	json_end(j);
}

static void json_notes(struct json *j, const struct mdp_txn_report *rep)
{
	char line[1024];

	for (size_t i = 0; i < rep->n_notes; i++) {
		render_note(rep, &rep->notes[i], line, sizeof(line));
		/* The stale note's second sentence is the services list: JSON has them itself. */
		line[strcspn(line, "\n")] = '\0';
		json_str(j, line);
	}
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

void render_budget_json(struct json *j, const struct mdp_budget *b)
{
	json_obj(j);
	json_key(j, "percent");
	if (b->kind == MDP_BUDGET_BYTES)
		json_null(j);
	else
		json_u64(j, b->kind == MDP_BUDGET_PERCENT ? b->value : MDP_DEFAULT_BUDGET_PERCENT);
	json_key(j, "bytes");
	if (b->kind == MDP_BUDGET_BYTES)
		json_u64(j, b->value);
	else
		json_null(j);
	json_kbool(j, "default", b->kind == MDP_BUDGET_UNSET);
	json_end(j);
}

/* --json and a failure before any document: the errors as one object on stdout. */
void render_error_json(struct cli *cli, int rc)
{
	struct json j;

	if (!cli->json || cli->json_written || rc < MDP_EXIT_USAGE)
		return;
	cli_json_begin(cli, &j);
	json_obj(&j);
	json_key(&j, "error");
	json_obj(&j);
	json_key(&j, "exit");
	json_i64(&j, rc);
	json_key(&j, "messages");
	json_arr(&j);
	for (size_t i = 0; i < cli->n_errors; i++)
		json_str(&j, cli->errors[i]);
	if (cli->n_dropped) {
		char more[64];
		snprintf(more, sizeof(more), "and %zu more, on stderr", cli->n_dropped);
		json_str(&j, more);
	}
	json_end(&j);
	json_end(&j);
	json_end(&j);
}
