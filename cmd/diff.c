/*
 * diff: what a profile would change on this system, current -> desired.
 * Exit 0 in sync, 1 changes pending, 2 profile error, 3 system unreadable.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "diff.h"
#include "discover.h"
#include "fmt.h"
#include "plan.h"

#define MIB ((uint64_t)1 << 20)

int cli_discover(struct cli *cli, struct mdp_system *s)
{
	return cli_discover_some(cli, 0, s);
}

int cli_discover_some(struct cli *cli, unsigned skip, struct mdp_system *s)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_discover_some(&cli->root, skip, s, &d);
	cli_print_diags(&d);
	mdp_diags_free(&d);
	if (err) {
		cli_err("cannot read the system state: %s", mdp_root_strerror(-err));
		return MDP_EXIT_FAILED;
	}
	return 0;
}

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

static void section_header(const struct mdp_system *s, const struct mdp_change *c)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(c->t);

	if (ti->scope == MDP_SCOPE_GLOBAL)
		puts("\ndev.raid");
	else if (ti->scope == MDP_SCOPE_DISK)
		puts("\nmember disks");
	else
		array_header(s, c->dev);
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

static void change_line(const struct mdp_plan *pl, const struct mdp_change *c)
{
	char cur[48] = "(missing)", want[48], label[64];
	const struct mdp_tunable_info *ti = mdp_tunable_info(c->t);
	struct mdp_value w = c->want;

	if (c->cur.present)
		fmt_value(c->t, &c->cur.val, cur, sizeof(cur));
	if (w.kind == MDP_V_SYSTEM) {
		snprintf(want, sizeof(want), "system");
	} else {
		fmt_value(c->t, &w, want, sizeof(want));
	}
	if (ti->scope == MDP_SCOPE_DISK)
		snprintf(label, sizeof(label), "%s %s", c->dev, "read_ahead");
	else
		snprintf(label, sizeof(label), "%s", ti->key);
	printf("  %-26s %16s %s %s", label, cur, c->pending ? "->" : "==", want);
	const struct mdp_plan_mem *m = plan_mem(pl, c->dev);
	if (c->t == MDP_T_STRIPE_CACHE_SIZE && m)
		printf("   (%" PRIu64 " MiB -> %" PRIu64 " MiB)", m->now / MIB, m->after / MIB);
	putchar('\n');
}

/* Print the changes of one section (plan order within it); false if none. */
static bool print_section(const struct mdp_plan *pl, const struct mdp_system *s, const char *key,
			  bool all)
{
	bool any = false;

	for (size_t i = 0; i < pl->n; i++) {
		const struct mdp_change *c = &pl->v[i];
		if ((!c->pending && !all) || strcmp(section_key(c), key))
			continue;
		if (!any)
			section_header(s, c);
		any = true;
		change_line(pl, c);
	}
	return any;
}

void diff_print_text(const struct mdp_plan *pl, const struct mdp_system *s, bool all)
{
	/* Apply order is for safety; people read by target: sysctls, arrays, disks. */
	print_section(pl, s, "", all);
	for (size_t i = 0; i < s->n_arrays; i++)
		print_section(pl, s, s->arrays[i].name, all);
	print_section(pl, s, "#disks", all);
	if (pl->n_notes) {
		puts("\nnotes");
		for (size_t i = 0; i < pl->n_notes; i++)
			printf("  %s%s%s\n", pl->notes[i].dev, pl->notes[i].dev[0] ? ": " : "",
			       pl->notes[i].text);
	}
}

static void diff_print_mem(const struct mdp_plan *pl)
{
	if (!pl->n_mem)
		return;
	printf("\nstripe cache memory: %" PRIu64 " MiB now, %" PRIu64 " MiB after; "
	       "budget %" PRIu64 " MiB (%s)\n",
	       pl->mem_now / MIB, pl->mem_after / MIB, pl->budget / MIB, pl->budget_desc);
}

static void json_value(enum mdp_tunable t, const struct mdp_value *v)
{
	(void)t;
	if (v->kind == MDP_V_SYSTEM)
		fputs("\"system\"", stdout);
	else
		printf("%" PRIu64, v->num);
}

void diff_print_json(const struct mdp_profile *p, const struct mdp_plan *pl)
{
	fputs("{\"profile\": ", stdout);
	json_str(p ? p->name : "");
	fputs(", \"changes\": [", stdout);
	for (size_t i = 0; i < pl->n; i++) {
		const struct mdp_change *c = &pl->v[i];
		printf("%s\n  {\"target\": ", i ? "," : "");
		json_str(c->dev[0] ? c->dev : "dev.raid");
		fputs(", \"tunable\": ", stdout);
		json_str(mdp_tunable_info(c->t)->key);
		fputs(", \"path\": ", stdout);
		json_str(c->path);
		fputs(", \"current\": ", stdout);
		if (c->cur.present)
			json_value(c->t, &c->cur.val);
		else
			fputs("null", stdout);
		fputs(", \"desired\": ", stdout);
		json_value(c->t, &c->want);
		printf(", \"pending\": %s, \"reason\": ", c->pending ? "true" : "false");
		json_str(c->reason);
		fputc('}', stdout);
	}
	fputs("],\n \"notes\": [", stdout);
	for (size_t i = 0; i < pl->n_notes; i++) {
		fputs(i ? ", " : "", stdout);
		char line[256];
		snprintf(line, sizeof(line), "%s%s%s", pl->notes[i].dev,
			 pl->notes[i].dev[0] ? ": " : "", pl->notes[i].text);
		json_str(line);
	}
	printf("],\n \"memory\": {\"budget_bytes\": %" PRIu64 ", \"now_bytes\": %" PRIu64
	       ", \"after_bytes\": %" PRIu64 ", \"arrays\": [",
	       pl->budget, pl->mem_now, pl->mem_after);
	for (size_t i = 0; i < pl->n_mem; i++) {
		printf("%s{\"array\": ", i ? ", " : "");
		json_str(pl->mem[i].dev);
		printf(", \"disks\": %d, \"now_bytes\": %" PRIu64 ", \"after_bytes\": %" PRIu64 "}",
		       pl->mem[i].disks, pl->mem[i].now, pl->mem[i].after);
	}
	printf("]},\n \"pending\": %zu}\n", mdp_plan_pending(pl));
}

int cli_plan(struct cli *cli, const struct mdp_profile *p, const struct mdp_system *s,
	     struct mdp_plan *pl)
{
	struct mdp_diags d;
	int err;

	(void)cli;
	mdp_diags_init(&d);
	err = mdp_plan_build(p, s, pl, &d);
	cli_print_diags(&d);
	mdp_diags_free(&d);
	if (err && err != -EINVAL)
		cli_err("cannot plan: %s", strerror(-err));
	return err ? MDP_EXIT_USAGE : 0;
}

static int diff_profile(struct cli *cli, const char *arg)
{
	struct mdp_profile p;
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	int rc;

	if ((rc = cli_load_profile(cli, arg, &p)))
		return rc;
	cli_warn_recover(cli);
	if ((rc = cli_discover(cli, &s)) || (rc = cli_plan(cli, &p, &s, &pl)))
		goto out;
	size_t pending = mdp_plan_pending(&pl);
	if (cli->json) {
		diff_print_json(&p, &pl);
	} else {
		printf("profile %s (%s)\n", p.name, p.path);
		diff_print_text(&pl, &s, cli->verbose > 0);
		diff_print_mem(&pl);
		if (pending)
			printf("\n%zu change%s pending\n", pending, pending == 1 ? "" : "s");
		else
			puts("\nin sync: nothing to change");
	}
	rc = pending ? MDP_EXIT_PENDING : MDP_EXIT_OK;
out:
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	mdp_profile_free(&p);
	return rc;
}

static int do_diff(struct cli *cli, int argc, char **argv)
{
	if (argc == 2)
		return diff_profile(cli, argv[1]);
	if (argc == 1)
		return diff_drift(cli);
	return cli_usage(&cmd_diff);
}

const struct cmd cmd_diff = {"diff", do_diff, "diff [PROFILE]",
			     "show what PROFILE would change (no PROFILE: drift from the active "
			     "one)"};
