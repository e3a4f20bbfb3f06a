/*
 * status: arrays, the operation of each with progress, speed and ETA, and
 * the active profile; reads only. The model is src/status_model.h; its renderers
 * are status_text.c, status_json.c, status_prom.c (--format prometheus)
 * and status_watch.c (--watch).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "status.h"

void status_profile_read(struct cli *cli, const struct mdp_system *s, struct mdp_status *ps)
{
	struct mdp_journal j;
	int err = cli_journal_read(cli, &j); /* says why on stderr when it cannot */

	mdp_status_read(&cli->root, s, &j, err, ps);
}

/* status's options. */
struct status_opts {
	bool watch;           /* --watch: redraw on md events and every interval */
	unsigned interval_ms; /* --interval of --watch; 0: 5 s */
	const char *format;   /* --format: "text", "json" or "prometheus"; NULL: text */
};

/* --format json is --json too. */
static const char *take_format(void *opts, void *cli, const char *arg)
{
	if (strcmp(arg, "text") && strcmp(arg, "json") && strcmp(arg, "prometheus"))
		return "expected text, json or prometheus";
	((struct status_opts *)opts)->format = arg;
	((struct cli *)cli)->json = !strcmp(arg, "json") || ((struct cli *)cli)->json;
	return NULL;
}

static const struct opt status_opts[] = {
    OPT_FLAG("watch", 0, struct status_opts, watch, "redraw on md's events and every --interval"),
    OPT_INTERVAL("interval", struct status_opts, interval_ms,
		 "redraw every S seconds as well (default 5)"),
    OPT_CUSTOM("format", 0, "text|json|prometheus", take_format,
	       "one look as text, as JSON (--json) or in the node exporter's textfile format"),
};

static const struct opt_pair status_excl[] = {
    {"watch", "json", "--watch draws text; --json and --format take one look"},
    {"watch", "format", "--watch draws text; --json and --format take one look"},
    {NULL, NULL, NULL},
};

static const struct opt_pair status_requires[] = {
    {"interval", "watch", NULL},
    {NULL, NULL, NULL},
};

static const struct opt_table status_table =
    OPT_TABLE(status_opts, struct status_opts, NULL, status_excl, status_requires);

static bool status_prom_asked(const struct cli *cli)
{
	const struct status_opts *o = cli->opts;

	return o->format && !strcmp(o->format, "prometheus");
}

/* --json and a --format other than json (the table refuses the pairs that never go together). */
static int status_opts_ok(struct cli *cli)
{
	const struct status_opts *o = cli->opts;

	if (cli->json && o->format && strcmp(o->format, "json")) {
		/* --json means one JSON document, whatever the command (issue 37) */
		cli_err(cli, "--json and --format %s: choose one", o->format);
		return MDP_EXIT_USAGE;
	}
	return 0;
}

static int do_status(struct cli *cli)
{
	struct mdp_system s = {0};
	struct mdp_status ps;
	struct json j;
	int rc;

	if ((rc = cli_discover(cli, MDP_SKIP_ABSENT_SYSFS, &s)))
		return rc;
	if (((const struct status_opts *)cli->opts)->watch) {
		rc = status_watch(cli, &s, ((const struct status_opts *)cli->opts)->interval_ms);
		mdp_system_free(&s);
		return rc;
	}
	status_profile_read(cli, &s, &ps);
	cli_warn_recover(cli);
	if (status_prom_asked(cli)) {
		status_prom(&s, &ps);
	} else if (cli->json) {
		cli_json_begin(cli, &j);
		status_json(cli, &j, &s, &ps);
	} else {
		status_text(&s, &ps, cli_detail(cli));
	}
	if (!cli->json)
		enable_status(cli, NULL, status_prom_asked(cli)); /* enabled at boot: enable.c */
	mdp_status_free(&ps);
	mdp_system_free(&s);
	return MDP_EXIT_OK;
}

const struct cmd cmd_status = {
    .name = "status",
    .fn = do_status,
    .opts = &status_table,
    .summary = "arrays, RAID operations with progress and ETA, active profile",
    .check = status_opts_ok,
};
