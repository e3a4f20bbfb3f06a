/*
 * render_report: a transaction's report as text (render.h): what a
 * service preview shows, the notes of apply, revert and recover, skipped
 * services, the changes made, and what an incomplete rollback left.
 */
#include "render.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

/* A check mdprofile paused, let go by revert, disable or recover. */
static void check_note(const struct mdp_txn_note *n, char *buf, size_t len)
{
	int at = snprintf(buf, len, "%s: the %s mdprofile paused at sector %" PRIu64, n->dev,
			  n->action, n->position);

	if (at < 0 || (size_t)at >= len)
		return;
	snprintf(buf + at, len - (size_t)at, "%s",
		 n->kind == MDP_TXN_NOTE_CHECK_RESUMED ? " resumed from there"
		 : n->kind == MDP_TXN_NOTE_CHECK_FORGOTTEN
		     ? " could not be resumed: its place forgotten (md/sync_min 0), as md was"
		     : " could not be resumed: left idle at its place, which DSM's own scrub "
		       "keeps (mdprofile never resets it on DSM); run the data scrubbing again "
		       "in Storage Manager");
}

void render_note(const struct mdp_txn_report *rep, const struct mdp_txn_note *n, char *buf,
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
	case MDP_TXN_NOTE_CHECK_RESUMED:
	case MDP_TXN_NOTE_CHECK_FORGOTTEN:
	case MDP_TXN_NOTE_CHECK_LEFT:
		check_note(n, buf, len);
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
		render_note(rep, &rep->notes[i], line, sizeof(line));
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

void render_left_text(const struct mdp_txn_left *l, char *buf, size_t len)
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
		render_left_text(&rep->left[i], line, sizeof(line));
		cli_err(cli, "  %s", line);
	}
	cli_err(cli, "to restore them by hand, as root:");
	for (size_t i = 0; i < rep->n_left; i++) {
		fix_text(cli, &rep->left[i], line, sizeof(line));
		cli_err(cli, "  %s", line);
	}
}
