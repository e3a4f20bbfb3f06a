/*
 * What status shows of enable: the profile enabled at every boot, how,
 * and whether each piece it installed is intact (src/boot/enable.h builds the
 * model), as text, in status's JSON object ("enabled"), or as Prometheus
 * metrics.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "mdp_boot.h"
#include "json.h"
#include "render.h"

static void status_enabled_text(const struct mdp_boot_record *rec, const struct mdp_enable_piece *p,
				size_t n, const struct mdp_enable_boot *boot)
{
	char a[PATH_MAX + 64], b[PATH_MAX + 64], verdict[256];

	mdp_enable_verdict(p, n, boot, verdict, sizeof(verdict));
	render_say(2, "\nenabled: profile %s at every boot, target %s%s%s: %s",
		   render_safe(rec->profile, a, sizeof(a)), mdp_boot_target_name(rec->target),
		   rec->auto_profile[0] ? ", watcher: " : "",
		   rec->auto_profile[0] ? render_safe(rec->auto_profile, b, sizeof(b)) : "",
		   verdict);
	/* each piece's name in a column, what is said of it wrapped under it */
	for (size_t i = 0; i < n; i++)
		render_say(15, "  %-12s %s: %s%s%s%s%s", p[i].what,
			   render_safe(p[i].where, a, sizeof(a)),
			   strcmp(p[i].state, "not running") ? p[i].state : "NOT running",
			   p[i].note[0] ? " " : "", p[i].note, p[i].hint[0] ? "; " : "",
			   render_safe(p[i].hint, b, sizeof(b)));
}

/* "boot": the boot script running now, null when it does not. */
static void status_boot_json(struct json *j, const struct mdp_enable_boot *b)
{
	json_key(j, "boot");
	if (!b->pid) {
		json_null(j);
		return;
	}
	json_obj(j);
	json_ku64(j, "pid", (uint64_t)b->pid);
	json_kstr(j, "step", b->step);
	json_key(j, "until_epoch_s");
	if (b->until)
		json_i64(j, b->until);
	else
		json_null(j);
	json_end(j);
}

static void status_enabled_json(struct json *j, const struct mdp_boot_record *rec,
				const struct mdp_enable_piece *p, size_t n,
				const struct mdp_enable_boot *boot)
{
	json_key(j, "enabled");
	json_obj(j);
	json_kstr(j, "profile", rec->profile);
	json_kstr(j, "auto", rec->auto_profile[0] ? rec->auto_profile : NULL);
	json_kstr(j, "target", mdp_boot_target_name(rec->target));
	json_kstr(j, "binary", rec->binary);
	json_kbool(j, "intact", mdp_enable_intact(p, n));
	json_key(j, "pieces");
	json_arr(j);
	for (size_t i = 0; i < n; i++) {
		json_obj(j);
		json_kstr(j, "what", p[i].what);
		json_kstr(j, "where", p[i].where);
		json_kstr(j, "state", p[i].state);
		json_end(j);
	}
	json_end(j);
	status_boot_json(j, boot);
	json_end(j);
}

static void status_enabled_prom(const struct mdp_boot_record *rec, const struct mdp_enable_piece *p,
				size_t n)
{
	char a[256], b[PATH_MAX + 64];

	printf("# HELP mdprofile_enabled 1 while a profile is enabled at boot (mdprofile enable)\n"
	       "# TYPE mdprofile_enabled gauge\n");
	/* The values are a boot script's safe set: nothing to escape. */
	printf("mdprofile_enabled{profile=\"%s\",target=\"%s\",auto=\"%s\"} 1\n",
	       render_safe(rec->profile, a, sizeof(a)), mdp_boot_target_name(rec->target),
	       render_safe(rec->auto_profile, b, sizeof(b)));
	printf("# HELP mdprofile_enabled_intact 1 when every piece enable installed is in place, "
	       "the watcher running\n"
	       "# TYPE mdprofile_enabled_intact gauge\n"
	       "mdprofile_enabled_intact %d\n",
	       mdp_enable_intact(p, n));
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].what, "watcher") && strcmp(p[i].state, "unknown"))
			printf("# HELP mdprofile_watcher_running 1 while the watcher enable --auto "
			       "set up runs\n"
			       "# TYPE mdprofile_watcher_running gauge\n"
			       "mdprofile_watcher_running %d\n",
			       !strcmp(p[i].state, "running"));
}

/*
 * For status: what is enabled, how, and whether its pieces are intact, in
 * the format asked (j: inside status's JSON object, as "enabled"); nothing
 * when nothing is.
 */
void enable_status(struct cli *cli, struct json *j, bool prom)
{
	struct mdp_boot_record rec;
	struct mdp_enable_piece p[MDP_ENABLE_PIECES];
	struct mdp_enable_boot boot;
	struct mdp_diags d;
	size_t n = 0;
	bool have;

	mdp_diags_init(&d);
	have = !mdp_boot_record_read(&cli->root, &rec, &d);
	mdp_diags_free(&d);
	/* Nothing enabled, nothing said: status reads as it did before enable existed. */
	if (!have)
		return;
	n = mdp_enable_pieces(&cli->root, &rec, p, MDP_ENABLE_PIECES);
	mdp_enable_boot_look(&cli->root, &rec, &boot);
	if (j)
		status_enabled_json(j, &rec, p, n, &boot);
	else if (prom)
		status_enabled_prom(&rec, p, n);
	else
		status_enabled_text(&rec, p, n, &boot);
}
