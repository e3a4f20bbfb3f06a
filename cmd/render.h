/*
 * render: how plans, transaction reports and profile settings read, as
 * text for people and as JSON for programs. Values are shown by the
 * tunable registry's one formatter (mdp_tunable_show / mdp_tunable_json),
 * so every command shows a value the same way. All prose is made here:
 * render.c (settings, plans, DSM's speed setting), render_report.c (a
 * transaction's report as text), render_json.c (plans and reports as JSON).
 */
#ifndef MDP_CMD_RENDER_H
#define MDP_CMD_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "json.h"

/* Outside text (descriptions, names, sysfs values) for a terminal: mdp_text_safe's rule (text.h).
 */
const char *render_safe(const char *s, char *buf, size_t len);

/*
 * One line of prose to stdout, wrapped within 80 columns: its leading spaces
 * (and newlines) printed as they are, its continuation lines indented by
 * indent. status's lines and help's keep to a terminal's width.
 */
void render_say(int indent, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A word md or mdprofile prints and the text it is shown as. */
struct render_word {
	const char *word, *text;
};
/* The text of WORD in the NULL-ended table T; OTHER when it is not there. */
const char *render_word(const struct render_word *t, const char *word, const char *other);
/* Why a bound left c as it is: "kept: already higher than 500000 KiB/s". */
void render_kept(const struct mdp_change *c, char *buf, size_t len);
/* A profile setting: the registry's display, or "auto" / "system". */
void render_setting(enum mdp_tunable t, const struct mdp_setting *s, char *buf, size_t len);
void render_setting_json(struct json *j, enum mdp_tunable t, const struct mdp_setting *s);
/* "25% of RAM", "512 MiB", "25% of RAM (default)". */
void render_budget(const struct mdp_budget *b, char *buf, size_t len);
/*
 * The budget as JSON: {"percent": 25, "bytes": null, "default": true}, the
 * form not used null (show --json's memory_budget).
 */
void render_budget_json(struct json *j, const struct mdp_budget *b);
/* show --json's object for a loaded profile (cmd/profiles_json.c). */
void render_profile_json(struct json *j, const struct mdp_profile *p);
/* "md2: stripe_cache_size does not apply" from a plan note. */
void render_plan_note(const struct mdp_plan_note *n, char *buf, size_t len);

/* A plan grouped by target: sysctls, arrays, member disks; all = include those in sync. */
void render_plan_text(const struct mdp_plan *pl, const struct mdp_system *s, bool all);
/* "stripe cache memory: ..." when the plan has stripe caches. */
void render_plan_mem(const struct mdp_plan *pl);
/*
 * DSM's resync speed setting (raid_setting.conf [ResyncSpeed], discover.h)
 * as "resync_slower, 10000 / 600000 KiB/s" in buf: false without one.
 */
bool render_dsm_speed(const struct mdp_system *s, char *buf, size_t len);
/*
 * diff and apply: on DSM, when the plan sets a speed limit, "note: DSM
 * writes its own setting ..." after lead ("\n" or "").
 */
void render_dsm_speed_note(const struct mdp_system *s, const struct mdp_plan *pl, const char *lead);
/*
 * diff and apply of a profile with a goal: "note: its goal ... acts under
 * 'mdprofile auto' and 'apply --until-idle' ..." after lead ("\n" or "");
 * nothing without one.
 */
void render_goal_note(const struct mdp_profile *p, const char *lead);
/* diff --json: the plan with current and desired values, notes and memory; services from
 * mdp_txn_preview_services (rep NULL: none). */
void render_diff_json(struct json *j, const char *profile, const struct mdp_plan *pl,
		      const struct mdp_txn_report *rep);
/* diff and apply --dry-run as text: each service of the preview and what apply would do. */
void render_services_preview(const struct mdp_txn_report *rep, bool detail);

/* A transaction's report as text: notes, skipped services; on success the changes. */
void render_report_text(const struct cli *cli, const struct mdp_txn_report *rep, bool ok);
/* Exit 4: what is left and how to restore it, on stderr. */
void render_left(struct cli *cli, const struct mdp_txn_report *rep);
/*
 * One of the report's notes in buf ("reverting profile P", ...); a stale
 * journal's note has a second line, the services the boot brought back.
 */
void render_note(const struct mdp_txn_report *rep, const struct mdp_txn_note *n, char *buf,
		 size_t len);
/* What an incomplete rollback left of one target or service: "md2 stripe_cache_size is not
   back to 256". */
void render_left_text(const struct mdp_txn_left *l, char *buf, size_t len);
/*
 * The result object shared by apply, apply --dry-run, revert and recover
 * (docs/output.md). pl, when given, adds the plan's notes (apply).
 */
/* --json and a failure before any document: the errors as one object on stdout. */
void render_error_json(struct cli *cli, int rc);
void render_report_json(struct json *j, const struct mdp_txn_report *rep, const char *result,
			const struct mdp_plan *pl);
/* The result object of a command that found nothing to do, with NOTE (disable with nothing
 * enabled): revert's shape, nothing changed. */
void render_noop_json(struct json *j, const char *note);
/* apply --dry-run --json: the same shape, changes as planned, services as previewed. */
void render_dry_run_json(struct json *j, const struct mdp_profile *p, const struct mdp_plan *pl,
			 const struct mdp_txn_report *rep);

#endif
