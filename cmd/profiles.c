/*
 * list, show, check: the profile commands. They read profiles only; the
 * system is never touched.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "mdp_profile.h"
#include "render.h"

/* ---- list ------------------------------------------------------------------ */

/* The first line of a description, safe for a terminal. */
static const char *first_line(const char *text, char *buf, size_t len)
{
	char line[256];

	snprintf(line, sizeof(line), "%.*s", (int)strcspn(text, "\n"), text);
	return render_safe(line, buf, len);
}

/* One profile found: a JSON object, its name alone (-q), or a line (with its path: -v). */
static void list_one(struct cli *cli, struct json *j, const struct mdp_profile_entry *f)
{
	char safe[512];

	if (cli->json) {
		json_obj(j);
		json_kstr(j, "name", f->name);
		json_kstr(j, "path", f->path);
		json_kstr(j, "source", f->source);
		json_kbool(j, "valid", f->valid);
		json_kstr(j, "description", f->description);
		json_end(j);
	} else if (!cli_info(cli)) {
		printf("%s\n", f->name);
	} else {
		printf("%-16s %-10s %s%s", f->name, f->source,
		       first_line(f->description, safe, sizeof(safe)),
		       f->valid ? "" : "(invalid: see mdprofile check)");
		if (cli_detail(cli))
			printf("  [%s]", render_safe(f->path, safe, sizeof(safe)));
		putchar('\n');
	}
}

static int do_list(struct cli *cli)
{
	struct mdp_profile_list l;
	char safe[PATH_MAX];
	struct json j;
	int rc = MDP_EXIT_OK, err = mdp_profile_list(&cli->dirs, cli->dir_source, &l);

	/* apply NAME could never find them; their names may be anything a shell expands. */
	for (size_t i = 0; i < l.n_skipped; i++)
		cli_err(cli,
			"warning: %s: not a profile name (letters, digits, . _ -, "
			"at most 64): skipped",
			render_safe(l.skipped[i], safe, sizeof(safe)));
	if (err) {
		cli_err(cli, "out of memory while listing profiles");
		rc = MDP_EXIT_FAILED;
	} else if (!l.n) {
		cli_err(cli,
			"no profiles found: none built in and none in the profile directories");
		rc = MDP_EXIT_USAGE;
	} else {
		if (cli->json) {
			cli_json_begin(cli, &j);
			json_arr(&j);
		}
		for (size_t i = 0; i < l.n; i++)
			list_one(cli, &j, &l.v[i]);
		if (cli->json)
			json_end(&j);
	}
	mdp_profile_list_free(&l);
	return rc;
}

const struct cmd cmd_list = {
    .name = "list",
    .fn = do_list,
    .summary = "list the profiles that can be used",
};

/* ---- show ------------------------------------------------------------------ */

static void show_match(const struct mdp_match *m)
{
	const char *sep = "", *media[MDP_MEDIA_COUNT];

	if (m->all) {
		fputs("all", stdout);
		return;
	}
	if (m->n_names) {
		fputs("names", stdout);
		for (size_t i = 0; i < m->n_names; i++)
			printf("%s%s", i ? ", " : " ", m->names[i]);
		sep = "; ";
	}
	if (m->n_levels) {
		printf("%slevels", sep);
		for (size_t i = 0; i < m->n_levels; i++)
			printf("%s%s", i ? ", " : " ", mdp_ident_level_name(m->levels[i]));
		sep = "; ";
	}
	if (m->n_uuids) {
		printf("%suuids", sep);
		for (size_t i = 0; i < m->n_uuids; i++)
			printf("%s%s", i ? ", " : " ", m->uuids[i]);
		sep = "; ";
	}
	for (size_t i = 0, n = mdp_ident_media_words(m->media, media); i < n; i++)
		printf("%s%s%s%s", i ? ", " : sep, i ? "" : mdp_profile_key(MDP_PK_MEDIA),
		       i ? "" : " ", media[i]);
}

static void show_settings(const char *prefix, const struct mdp_setting *set, int from, int to)
{
	char buf[64];

	for (int t = from; t <= to; t++) {
		if (set[t].kind == MDP_S_UNSET)
			continue;
		render_setting(t, &set[t], buf, sizeof(buf));
		printf("%s%s: %s\n", prefix, mdp_tunable_info(t)->key, buf);
	}
}

/* maintenance.notify: start, end; command /usr/local/sbin/hook */
static void show_notify(const char *key, const struct mdp_mnotify *n)
{
	char buf[MDP_MAINT_CMD_MAX + 8];
	bool first = true;

	if (!n->set)
		return;
	printf("%s.%s:", key, mdp_profile_key(MDP_PK_MAINT_NOTIFY));
	for (int e = 0; e < (int)MDP_MEV_COUNT; e++)
		if (n->on & 1u << e) {
			printf("%s %s", first ? "" : ",", mdp_mev_name((enum mdp_mev)e));
			first = false;
		}
	if (n->command)
		printf("; %s %s", mdp_profile_key(MDP_PK_NOTIFY_COMMAND),
		       render_safe(n->command, buf, sizeof(buf)));
	putchar('\n');
}

/* maintenance.windows: Mon-Fri 01:00-07:00, ...; heat; defer_to: one line each that is set. */
static void show_maint(const struct mdp_maint *m)
{
	const char *key = mdp_profile_key(MDP_PK_MAINT);
	char buf[64];

	if (m->n_windows)
		printf("%s.%s:", key, mdp_profile_key(MDP_PK_MAINT_WINDOWS));
	for (size_t i = 0; i < m->n_windows; i++)
		printf("%s %s", i ? "," : "", mdp_mwin_text(&m->windows[i], buf, sizeof(buf)));
	if (m->n_windows)
		printf(" (local time)\n");
	if (m->heat.hot_at_c)
		printf("%s.%s: paused at %u C, resumed below %u C\n", key,
		       mdp_profile_key(MDP_PK_MAINT_HEAT), m->heat.hot_at_c, m->heat.cool_below_c);
	if (m->n_defer)
		printf("%s.%s:", key, mdp_profile_key(MDP_PK_MAINT_DEFER_TO));
	for (size_t i = 0; i < m->n_defer; i++)
		printf("%s %s", i ? "," : "", render_safe(m->defer_to[i], buf, sizeof(buf)));
	if (m->n_defer)
		putchar('\n');
	show_notify(key, &m->notify);
}

static void show_text(const struct mdp_profile *p)
{
	char buf[512];

	printf("name: %s\n", render_safe(p->name, buf, sizeof(buf)));
	printf("file: %s\n", render_safe(p->path, buf, sizeof(buf)));
	if (p->n_chain > 1) {
		fputs("extends:", stdout);
		for (size_t i = 1; i < p->n_chain; i++)
			printf(" %s", render_safe(p->chain[i], buf, sizeof(buf)));
		putchar('\n');
	}
	if (p->description)
		printf("description: %s\n", first_line(p->description, buf, sizeof(buf)));
	render_budget(&p->budget, buf, sizeof(buf));
	printf("memory_budget: %s\n", buf);
	if (p->goal.latency_ms)
		printf("%s.%s: %u ms\n", mdp_profile_key(MDP_PK_GOAL),
		       mdp_profile_key(MDP_PK_GOAL_LATENCY), p->goal.latency_ms);
	if (p->goal.latency_ms && p->goal.percentile)
		printf("%s.%s: %u (of the watcher's last %u timed reads)\n",
		       mdp_profile_key(MDP_PK_GOAL), mdp_profile_key(MDP_PK_GOAL_PERCENTILE),
		       p->goal.percentile, MDP_IOSTAT_WINDOW);
	if (p->maint.set)
		show_maint(&p->maint.m);
	show_settings("raid.", p->global, 0, MDP_T_COUNT - 1);
	for (size_t i = 0; i < p->n_rules; i++) {
		printf("array rule %zu: match ", i + 1);
		show_match(&p->rules[i].match);
		putchar('\n');
		show_settings("  ", p->rules[i].set, 0, MDP_T_COUNT - 1);
	}
	for (size_t i = 0; i < p->n_services; i++) {
		printf("pause service: %s%s", p->services[i].name,
		       p->services[i].optional ? " (optional)" : "");
		for (unsigned k = 0, n = 0; k < MDP_PLATFORM_COUNT; k++)
			if (p->services[i].only_on & 1u << k)
				printf("%s%s", n++ ? ", " : " (only on ", mdp_platform_name(k));
		if (p->services[i].only_on)
			putchar(')');
		if (p->services[i].timeout_s)
			printf(" (timeout %us)", p->services[i].timeout_s);
		putchar('\n');
	}
}

/* show --yaml: the profile pinned, with where it came from as a comment. */
static int show_yaml(struct cli *cli)
{
	const struct mdp_profile *p = &cli->profile;
	char safe[PATH_MAX + 64], *text;
	struct mdp_diags d;
	size_t len;
	int err;

	mdp_diags_init(&d);
	err = mdp_pin_write(p, &text, &len, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (err)
		return err == -EINVAL ? MDP_EXIT_USAGE : MDP_EXIT_FAILED;
	printf("# profile %s, ", render_safe(p->name, safe, sizeof(safe)));
	printf("pinned by 'mdprofile show --yaml' from %s\n",
	       render_safe(p->path, safe, sizeof(safe)));
	fwrite(text, 1, len, stdout);
	free(text);
	return MDP_EXIT_OK;
}

/* show's options. */
struct show_opts {
	bool yaml; /* --yaml: the profile pinned as one YAML file */
};

static const struct opt show_opts[] = {
    OPT_FLAG("yaml", 0, struct show_opts, yaml, "as one pinned file, extends flattened"),
};

static const struct opt_pair show_excl[] = {
    {"yaml", "json", NULL},
    {NULL, NULL, NULL},
};

static const struct opt_table show_table =
    OPT_TABLE(show_opts, struct show_opts, NULL, show_excl, NULL);

static int do_show(struct cli *cli)
{
	const struct show_opts *o = cli->opts;
	struct json j;

	if (o->yaml) /* not with --json: the table refuses it */
		return show_yaml(cli);
	if (cli->json) {
		cli_json_begin(cli, &j);
		render_profile_json(&j, &cli->profile);
	} else {
		show_text(&cli->profile);
	}
	return MDP_EXIT_OK;
}

const struct cmd cmd_show = {
    .name = "show",
    .fn = do_show,
    .flags = CMD_PROFILE,
    .opts = &show_table,
    .min_args = 1,
    .max_args = 1,
    .args = "PROFILE",
    .summary = "show a profile as resolved after extends",
};

/* ---- check ----------------------------------------------------------------- */

/* stdin holds one profile: "-" twice would check an empty second one. */
static int check_one_stdin(struct cli *cli)
{
	int n = 0;

	for (int i = 1; i < cli->argc; i++)
		n += !strcmp(cli->argv[i], "-");
	if (n > 1)
		cli_err(cli, "'-' (the profile on stdin) may be given only once");
	return n > 1 ? MDP_EXIT_USAGE : 0;
}

/* check's options: --name, of a profile on stdin (into cli). */
static const struct opt check_opts[] = {
    CLI_OPT_NAME,
};

static const struct opt_table check_table = OPT_TABLE_SHARED(check_opts);

static int do_check(struct cli *cli)
{
	int rc = check_one_stdin(cli);
	char safe[PATH_MAX + 64];
	struct json j;

	if (rc)
		return rc;

	if (cli->json) {
		cli_json_begin(cli, &j);
		json_arr(&j);
	}
	for (int i = 1; i < cli->argc; i++) {
		struct mdp_profile p;
		bool ok = !cli_load_profile(cli, cli->argv[i], &p);
		if (!ok)
			rc = MDP_EXIT_USAGE;
		if (cli->json) {
			json_obj(&j);
			json_kstr(&j, "profile", cli->argv[i]);
			json_kbool(&j, "valid", ok);
			json_end(&j);
		} else if (ok && cli_detail(cli)) {
			printf("%s: ok  ", render_safe(cli->argv[i], safe, sizeof(safe)));
			printf("[%s]\n", render_safe(p.path, safe, sizeof(safe)));
		} else if (ok && cli_info(cli)) {
			printf("%s: ok\n", render_safe(cli->argv[i], safe, sizeof(safe)));
		}
		if (ok)
			mdp_profile_free(&p);
	}
	if (cli->json)
		json_end(&j);
	return rc;
}

const struct cmd cmd_check = {
    .name = "check",
    .fn = do_check,
    .opts = &check_table,
    .min_args = 1,
    .max_args = -1,
    .args = "PROFILE...",
    .summary = "validate profiles without looking at the system",
};
