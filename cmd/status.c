/*
 * status: arrays, the operation of each with progress, speed and ETA, and
 * the active profile; reads only. The model is src/status/status_model.h; its renderers
 * are status_text.c, status_json.c, status_prom.c (--format prometheus)
 * and status_watch.c (--watch); the ETA's and a profile's origin's words,
 * which others show too, are here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "json.h"
#include "render.h"
#include "status.h"

void status_profile_read(struct cli *cli, const struct mdp_system *s, struct mdp_status *ps)
{
	struct mdp_journal j;
	int err = cli_journal_read(cli, &j); /* says why on stderr when it cannot */

	mdp_status_read(&cli->root, s, &j, err, ps);
	ps->now = fault_now(&cli->fault, (int64_t)time(NULL)); /* a check's finish counts from it */
}

void status_fmt_eta(uint64_t s, char *buf, size_t len)
{
	if (s >= 86400)
		snprintf(buf, len, "%" PRIu64 "d %" PRIu64 "h", s / 86400, s % 86400 / 3600);
	else if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 "h %" PRIu64 "m", s / 3600, s % 3600 / 60);
	else
		snprintf(buf, len, "%" PRIu64 "m", (s + 59) / 60);
}

const char *status_origin_text(enum mdp_origin o)
{
	switch (o) {
	case MDP_BY_HAND:
		return "by hand";
	case MDP_BY_BOOT:
		return "at boot";
	case MDP_BY_ENABLE:
		return "by mdprofile enable";
	case MDP_BY_AUTO:
		return "by mdprofile auto";
	case MDP_BY_UNTIL_IDLE:
		return "by apply --until-idle";
	case MDP_BY_COMPARE:
		return "by bench --compare";
	case MDP_BY_PROBE:
		return "by explain --probe";
	default:
		return "by ?";
	}
}

/* status's options. */
struct status_opts {
	bool watch;           /* --watch: redraw on md events and every interval */
	unsigned interval_ms; /* --interval of --watch; 0: 5 s */
	const char *format;   /* --format: "text", "json" or "prometheus"; NULL: text */
	const char *output;   /* --output FILE: replaced by what stdout would show */
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
    OPT_NAMING("output", 'o', "FILE", OPTV_FILE, struct status_opts, output,
	       "write the look to FILE, replaced whole (a new file renamed over it)"),
};

static const struct opt_pair status_excl[] = {
    {"watch", "json", "--watch draws text; --json and --format take one look"},
    {"watch", "format", "--watch draws text; --json and --format take one look"},
    {"watch", "output", "--watch draws on the terminal; --output writes one look"},
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
	char why[PATH_MAX + 160];
	int err;

	if (cli->json && o->format && strcmp(o->format, "json")) {
		/* --json means one JSON document, whatever the command (issue 37) */
		cli_err(cli, "--json and --format %s: choose one", o->format);
		return MDP_EXIT_USAGE;
	}
	if (o->output && (err = mdp_root_out_open(&cli->out, o->output, why, sizeof(why)))) {
		cli_err(cli, "--output %s: %s", o->output, *why ? why : strerror(-err));
		return MDP_EXIT_USAGE;
	}
	return 0;
}

/*
 * --output: what the renderers print to stdout goes to a buffer (glibc's
 * stdout is a variable, as wlog.c uses), then replaces FILE whole, so that
 * node_exporter's textfile collector never reads half of it.
 */
struct status_out {
	FILE *saved, *mem;
	char *buf;
	size_t len;
};

static int out_begin(struct cli *cli, const char *file, struct status_out *out)
{
	memset(out, 0, sizeof(*out));
	fflush(stdout);
	if (!(out->mem = open_memstream(&out->buf, &out->len))) {
		cli_err(cli, "cannot write %s: %s", file, strerror(errno));
		return MDP_EXIT_FAILED;
	}
	out->saved = stdout;
	stdout = out->mem;
	return 0;
}

static int out_end(struct cli *cli, const char *file, struct status_out *out)
{
	int err = ferror(out->mem) ? -EIO : 0;

	stdout = out->saved;
	if (fclose(out->mem) && !err)
		err = -errno;
	if (!err)
		err = mdp_root_out_replace(&cli->out, out->buf, out->len, 0644);
	free(out->buf);
	if (!err)
		return MDP_EXIT_OK;
	cli_err(cli, "cannot write %s: %s", file, strerror(-err));
	return MDP_EXIT_FAILED;
}

static int do_status(struct cli *cli)
{
	struct mdp_system s = {0};
	struct mdp_status ps;
	struct status_out out = {0};
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
	if (((const struct status_opts *)cli->opts)->output &&
	    (rc = out_begin(cli, ((const struct status_opts *)cli->opts)->output, &out)))
		goto done;
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
	if (out.mem)
		rc = out_end(cli, ((const struct status_opts *)cli->opts)->output, &out);
done:
	mdp_status_free(&ps);
	mdp_system_free(&s);
	return rc;
}

/* The Prometheus status read afresh and written over FILE whole: an exit code, what failed said. */
static int status_textfile(struct cli *cli, const char *file)
{
	struct mdp_system s = {0};
	struct mdp_status ps;
	struct status_out out;
	int rc;

	if ((rc = cli_discover(cli, MDP_SKIP_ABSENT_SYSFS, &s)))
		return rc;
	status_profile_read(cli, &s, &ps);
	if (!(rc = out_begin(cli, file, &out))) {
		status_prom(&s, &ps);
		enable_status(cli, NULL, true);
		rc = out_end(cli, file, &out);
	}
	mdp_status_free(&ps);
	mdp_system_free(&s);
	return rc;
}

int status_textfile_once(struct cli *cli, const char *file, struct mdp_diags_said *said)
{
	struct mdp_diags held;
	char what[1200], nm[1024];
	int rc;

	mdp_diags_init(&held);
	cli->held = &held;
	rc = status_textfile(cli, file);
	cli->held = NULL;
	snprintf(what, sizeof(what), "--textfile %s", render_safe(file, nm, sizeof(nm)));
	cli_say_once(cli, &held, said, what);
	mdp_diags_free(&held);
	return rc;
}

const struct cmd cmd_status = {
    .name = "status",
    .fn = do_status,
    .opts = &status_table,
    .flags = CMD_MD,
    .summary = "arrays, RAID operations with progress and ETA, active profile",
    .check = status_opts_ok,
};
