/*
 * list, show, check: the profile commands. They read profiles only; the
 * system is never touched.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "fmt.h"

/* ---- list ------------------------------------------------------------------ */

static bool seen(char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of *.yaml in dir, sorted. */
static int dir_profiles(const char *dir, char ***out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t cnt = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return 0; /* a missing directory simply holds no profiles */
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char **nv;
		if (len <= 5 || strcmp(de->d_name + len - 5, ".yaml") || de->d_name[0] == '.')
			continue;
		if (!(nv = realloc(v, (cnt + 1) * sizeof(*v))))
			break;
		v = nv;
		if (!(v[cnt] = strndup(de->d_name, len - 5)))
			break;
		cnt++;
	}
	closedir(d);
	qsort(v, cnt, sizeof(*v), cmp_str);
	*out = v;
	*n = cnt;
	return 0;
}

static void list_one(struct cli *cli, const char *dir, const char *name, bool *first)
{
	struct mdp_profile p = {0};
	struct mdp_diags d;
	char path[4200];
	bool ok;

	snprintf(path, sizeof(path), "%s/%s.yaml", dir, name);
	mdp_diags_init(&d);
	ok = mdp_profile_load(&cli->dirs, path, &p, &d) == 0;
	mdp_diags_free(&d);
	const char *desc = ok && p.description ? p.description : "";
	if (cli->json) {
		printf("%s\n  {\"name\": ", *first ? "" : ",");
		json_str(name);
		printf(", \"path\": ");
		json_str(path);
		printf(", \"valid\": %s, \"description\": ", ok ? "true" : "false");
		json_str(desc);
		putchar('}');
	} else {
		int w = (int)strcspn(desc, "\n");
		printf("%-16s %.*s%s", name, w, desc, ok ? "" : "(invalid: see mdprofile check)");
		if (cli->verbose > 0)
			printf("  [%s]", path);
		putchar('\n');
	}
	*first = false;
	if (ok)
		mdp_profile_free(&p);
}

static int do_list(struct cli *cli, int argc, char **argv)
{
	char **all = NULL;
	size_t n_all = 0;
	bool first = true;

	(void)argv;
	if (argc != 1)
		return cli_usage(&cmd_list);
	if (cli->json)
		fputs("[", stdout);
	for (size_t i = 0; i < cli->dirs.n; i++) {
		char **names;
		size_t n;
		dir_profiles(cli->dirs.dirs[i], &names, &n);
		for (size_t j = 0; j < n; j++) {
			/* A name found earlier shadows later ones, as lookup does. */
			if (seen(all, n_all, names[j])) {
				free(names[j]);
				continue;
			}
			list_one(cli, cli->dirs.dirs[i], names[j], &first);
			char **nv = realloc(all, (n_all + 1) * sizeof(*all));
			if (!nv) {
				free(names[j]);
				continue;
			}
			all = nv;
			all[n_all++] = names[j];
		}
		free(names);
	}
	if (cli->json)
		fputs("\n]\n", stdout);
	for (size_t i = 0; i < n_all; i++)
		free(all[i]);
	free(all);
	return MDP_EXIT_OK;
}

const struct cmd cmd_list = {"list", do_list, "list", "list the profiles that can be used"};

/* ---- show ------------------------------------------------------------------ */

static void show_match(const struct mdp_match *m)
{
	if (m->all) {
		fputs("all", stdout);
		return;
	}
	const char *sep = "";
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
	}
}

static void show_text(const struct mdp_profile *p)
{
	char buf[64];

	printf("name: %s\nfile: %s\n", p->name, p->path);
	if (p->n_chain > 1) {
		fputs("extends:", stdout);
		for (size_t i = 1; i < p->n_chain; i++)
			printf(" %s", p->chain[i]);
		putchar('\n');
	}
	if (p->description)
		printf("description: %.*s\n", (int)strcspn(p->description, "\n"), p->description);
	fmt_budget(&p->budget, buf, sizeof(buf));
	printf("memory_budget: %s\n", buf);
	for (int t = MDP_T_SPEED_LIMIT_MIN; t <= MDP_T_SPEED_LIMIT_MAX; t++) {
		if (p->global[t].kind == MDP_S_UNSET)
			continue;
		fmt_setting(t, &p->global[t], buf, sizeof(buf));
		printf("raid.%s: %s\n", mdp_tunable_info(t)->key, buf);
	}
	for (size_t i = 0; i < p->n_rules; i++) {
		printf("array rule %zu: match ", i + 1);
		show_match(&p->rules[i].match);
		putchar('\n');
		for (int t = 0; t < MDP_T_COUNT; t++) {
			if (p->rules[i].set[t].kind == MDP_S_UNSET)
				continue;
			fmt_setting(t, &p->rules[i].set[t], buf, sizeof(buf));
			printf("  %s: %s\n", mdp_tunable_info(t)->key, buf);
		}
	}
	for (size_t i = 0; i < p->n_services; i++)
		printf("pause service: %s%s\n", p->services[i].name,
		       p->services[i].optional ? " (optional)" : "");
}

static void json_match(const struct mdp_match *m)
{
	printf("{\"all\": %s, \"names\": [", m->all ? "true" : "false");
	for (size_t i = 0; i < m->n_names; i++) {
		fputs(i ? ", " : "", stdout);
		json_str(m->names[i]);
	}
	fputs("], \"levels\": [", stdout);
	for (size_t i = 0; i < m->n_levels; i++) {
		fputs(i ? ", " : "", stdout);
		json_str(mdp_ident_level_name(m->levels[i]));
	}
	fputs("], \"uuids\": [", stdout);
	for (size_t i = 0; i < m->n_uuids; i++) {
		fputs(i ? ", " : "", stdout);
		json_str(m->uuids[i]);
	}
	fputs("]}", stdout);
}

static void json_settings(const struct mdp_setting *set, int from, int to)
{
	bool first = true;

	fputc('{', stdout);
	for (int t = from; t <= to; t++) {
		if (set[t].kind == MDP_S_UNSET)
			continue;
		printf("%s\"%s\": ", first ? "" : ", ", mdp_tunable_info(t)->key);
		fmt_setting_json(&set[t]);
		first = false;
	}
	fputc('}', stdout);
}

static void show_json(const struct mdp_profile *p)
{
	char buf[64];

	fputs("{\"name\": ", stdout);
	json_str(p->name);
	fputs(", \"path\": ", stdout);
	json_str(p->path);
	fputs(", \"chain\": [", stdout);
	for (size_t i = 0; i < p->n_chain; i++) {
		fputs(i ? ", " : "", stdout);
		json_str(p->chain[i]);
	}
	fputs("], \"description\": ", stdout);
	json_str(p->description ? p->description : "");
	fmt_budget(&p->budget, buf, sizeof(buf));
	fputs(", \"memory_budget\": ", stdout);
	json_str(buf);
	fputs(", \"raid\": ", stdout);
	json_settings(p->global, MDP_T_SPEED_LIMIT_MIN, MDP_T_SPEED_LIMIT_MAX);
	fputs(", \"arrays\": [", stdout);
	for (size_t i = 0; i < p->n_rules; i++) {
		printf("%s{\"match\": ", i ? ", " : "");
		json_match(&p->rules[i].match);
		fputs(", \"set\": ", stdout);
		json_settings(p->rules[i].set, MDP_T_STRIPE_CACHE_SIZE, MDP_T_COUNT - 1);
		fputc('}', stdout);
	}
	fputs("], \"services\": [", stdout);
	for (size_t i = 0; i < p->n_services; i++) {
		printf("%s{\"name\": ", i ? ", " : "");
		json_str(p->services[i].name);
		printf(", \"optional\": %s}", p->services[i].optional ? "true" : "false");
	}
	fputs("]}\n", stdout);
}

static int do_show(struct cli *cli, int argc, char **argv)
{
	struct mdp_profile p;
	int rc;

	if (argc != 2)
		return cli_usage(&cmd_show);
	if ((rc = cli_load_profile(cli, argv[1], &p)))
		return rc;
	if (cli->json)
		show_json(&p);
	else
		show_text(&p);
	mdp_profile_free(&p);
	return MDP_EXIT_OK;
}

const struct cmd cmd_show = {"show", do_show, "show PROFILE",
			     "show a profile as resolved after extends"};

/* ---- check ----------------------------------------------------------------- */

static int do_check(struct cli *cli, int argc, char **argv)
{
	int rc = MDP_EXIT_OK;

	if (argc < 2)
		return cli_usage(&cmd_check);
	for (int i = 1; i < argc; i++) {
		struct mdp_profile p;
		if (cli_load_profile(cli, argv[i], &p)) {
			rc = MDP_EXIT_USAGE;
			continue;
		}
		if (cli->verbose >= 0)
			printf("%s: ok\n", argv[i]);
		mdp_profile_free(&p);
	}
	return rc;
}

const struct cmd cmd_check = {"check", do_check, "check PROFILE...",
			      "validate profiles without looking at the system"};
