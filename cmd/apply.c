/*
 * apply, revert, recover: the mutating commands. main has taken the lock,
 * picked the service backend and finished any interrupted transaction
 * (their table flags); each does its job through src/txn and reports.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "json.h"
#include "render.h"
#include "watch.h"

static int apply_dry_run(struct cli *cli, const struct mdp_profile *p)
{
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	struct json j;
	size_t n;
	int rc;

	if (!(rc = cli_discover(cli, 0, &s)) && !(rc = cli_plan(cli, p, &s, &pl)) &&
	    !(rc = cli_preview_services(cli, p))) {
		n = mdp_plan_pending(&pl);
		if (cli->json) {
			cli_json_begin(cli, &j);
			render_dry_run_json(&j, p, &pl, &cli->tx.rep);
		} else if (cli_info(cli)) {
			render_plan_text(&pl, &s, cli_detail(cli));
			render_services_preview(&cli->tx.rep, cli_detail(cli));
			printf("\ndry run: %zu change%s would be made, nothing was touched\n", n,
			       n == 1 ? "" : "s");
		}
	}
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	return rc;
}

static void apply_notes(const struct cli *cli, const struct mdp_plan *pl)
{
	char line[256];

	for (size_t i = 0; i < pl->n_notes && cli_info(cli); i++) {
		render_plan_note(&pl->notes[i], line, sizeof(line));
		printf("note: %s\n", line);
	}
}

/* ---- apply --until-idle ------------------------------------------------------ */

/* One array's operation as seen from its first to its last look. */
struct op_seen {
	char name[MDP_NAME_MAX];
	char action[16];
	double t0, t1;          /* monotonic seconds */
	uint64_t d0, d1, total; /* sectors */
	unsigned decile;        /* last 10% step logged */
	bool ended;
	bool gone; /* ended because the array went away (stopped): not finished */
};

struct until {
	struct cli *cli;
	struct op_seen *ops;
	size_t n_ops;
	double start;
	bool log;  /* stdout is not a tty: syslog too (on the real root) */
	bool done; /* reverted: a last look only for the summary, no progress lines */
};

/* A line for people, and for syslog when nobody watches the terminal. */
static void until_say(const struct until *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void until_say(const struct until *u, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (cli_info(u->cli))
		printf("%s\n", line);
	fflush(stdout);
	if (u->log)
		syslog(LOG_INFO, "%s", line);
}

static struct op_seen *op_find(struct until *u, const struct mdp_array *a)
{
	struct op_seen *v;

	for (size_t i = 0; i < u->n_ops; i++)
		if (!strcmp(u->ops[i].name, a->name) && !strcmp(u->ops[i].action, a->sync_action))
			return &u->ops[i];
	if (!(v = realloc(u->ops, (u->n_ops + 1) * sizeof(*v))))
		return NULL;
	u->ops = v;
	v = &v[u->n_ops++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", a->name);
	snprintf(v->action, sizeof(v->action), "%s", a->sync_action);
	v->t0 = v->t1 = cli_mono_s();
	v->d0 = v->d1 = a->sync_done;
	v->total = a->sync_total;
	v->decile = a->permille / 100;
	return v;
}

/* A stopped array leaves /sys/block, or shows no md state on its way out. */
static bool array_gone(const struct mdp_array *a)
{
	return !a || !strcmp(a->array_state, "clear") || !strcmp(a->array_state, "inactive") ||
	       (!a->array_state[0] && !a->sync_action[0]);
}

/*
 * Note progress; log each 10% step. Operations no longer running have
 * ended: finished, unless their array goes away. mdadm --stop interrupts
 * the operation first (md shows idle) and removes the array just after, so
 * an ended operation whose array is gone at a later look (the last one
 * after the revert included) was stopped with it.
 */
static void until_track(struct until *u, const struct mdp_system *s)
{
	for (size_t i = 0; i < u->n_ops; i++) {
		struct op_seen *o = &u->ops[i];
		const struct mdp_array *a = mdp_system_array(s, o->name);
		if (o->gone)
			continue;
		o->gone = array_gone(a);
		if (o->ended)
			continue;
		o->ended = o->gone || strcmp(a->sync_action, o->action) || !mdp_watch_running(a);
		if (o->ended)
			o->t1 = cli_mono_s(); /* d1 stays the last progress seen */
	}
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		struct op_seen *o;
		if (!mdp_watch_running(a) || !a->has_progress || !(o = op_find(u, a)))
			continue;
		o->t1 = cli_mono_s();
		o->d1 = a->sync_done;
		o->total = a->sync_total;
		if (a->permille / 100 > o->decile && !u->done) {
			o->decile = a->permille / 100;
			until_say(u, "%s %s at %u.%u%%, %" PRIu64 " KiB/s", a->name, a->sync_action,
				  a->permille / 10, a->permille % 10, a->sync_speed);
		}
	}
}

static bool any_running(const struct mdp_system *s)
{
	for (size_t i = 0; i < s->n_arrays; i++)
		if (mdp_watch_running(&s->arrays[i]))
			return true;
	return false;
}

/* Look again: just what tells an operation and its progress. */
static int until_look(struct until *u, struct mdp_system *s)
{
	struct mdp_diags d;
	int err;

	mdp_system_free(s);
	mdp_diags_init(&d);
	/* the first discovery said what is wrong with the system; say it once */
	err = mdp_discover_some(&u->cli->root, MDP_SKIP_UUID | MDP_SKIP_MEMBERS, s, &d);
	mdp_diags_free(&d);
	if (!err)
		until_track(u, s);
	return err;
}

/*
 * Wait until no array is running an operation or a stop signal comes.
 * Returns the signal, or 0. The files watched are opened again after
 * every look, as status --watch does: an array stopped meanwhile is left
 * out (its attributes report an error to every poll), one started is in.
 */
static int until_wait(struct until *u, struct mdp_system *s)
{
	struct mdp_watch w = {.sfd = -1};
	sigset_t stop;
	int sig = 0, ev = 0, err;

	cli_stop_signals(&stop);
	while (any_running(s) && ev != MDP_WATCH_SIGNAL) {
		mdp_watch_close(&w);
		if ((err = mdp_watch_open(&u->cli->root, s, &stop, &w))) {
			cli_err(u->cli, "cannot watch md: %s; reverting now", strerror(-err));
			return 0;
		}
		ev = mdp_watch_wait(&w, (int)u->cli->interval_ms, &sig);
		if (ev < 0 || (ev != MDP_WATCH_SIGNAL && until_look(u, s))) {
			cli_err(u->cli, "cannot follow the operations: %s; reverting now",
				strerror(ev < 0 ? -ev : EIO));
			break;
		}
	}
	mdp_watch_close(&w);
	return ev == MDP_WATCH_SIGNAL ? sig : 0;
}

static void fmt_span(double secs, char *buf, size_t len)
{
	uint64_t s = secs > 0 ? (uint64_t)(secs + 0.5) : 0;

	if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 "h %" PRIu64 "m", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		snprintf(buf, len, "%" PRIu64 "m %" PRIu64 "s", s / 60, s % 60);
	else
		snprintf(buf, len, "%" PRIu64 "s", s);
}

/* Duration, then each operation seen with its average speed. */
static void until_summary(struct until *u, int sig)
{
	char span[32];

	fmt_span(cli_mono_s() - u->start, span, sizeof(span));
	if (sig)
		until_say(u, "stopped by %s after %s; reverted", cli_signal_name(sig), span);
	else
		until_say(u, "operations ended after %s; reverted", span);
	for (size_t i = 0; i < u->n_ops; i++) {
		const struct op_seen *o = &u->ops[i];
		double dt = o->t1 - o->t0;
		uint64_t d1 = o->ended && !o->gone ? o->total : o->d1; /* finished: all of it */
		uint64_t kib = d1 > o->d0 ? (d1 - o->d0) / 2 : 0;
		if (o->gone)
			until_say(u, "%s %s: stopped (array gone), average %" PRIu64 " KiB/s",
				  o->name, o->action, dt >= 1 ? (uint64_t)((double)kib / dt) : 0);
		else
			until_say(u, "%s %s: %s, average %" PRIu64 " KiB/s", o->name, o->action,
				  o->ended ? "finished" : "unfinished",
				  dt >= 1 ? (uint64_t)((double)kib / dt) : 0);
	}
}

/* After apply: watch, then hand the box back by reverting. */
static int until_idle(struct cli *cli, struct mdp_system *s)
{
	struct until u = {.cli = cli, .start = cli_mono_s()};
	char nm[1024];
	int sig, rc;

	if (!cli->interval_ms)
		cli->interval_ms = 5000;
	u.log = !isatty(STDOUT_FILENO) && mdp_root_is_real(&cli->root);
	if (u.log)
		openlog("mdprofile", LOG_PID, LOG_DAEMON);
	if (until_look(&u, s)) /* apply's discovery may have left progress out */
		cli_err(cli, "cannot follow the operations; reverting now");
	if (!any_running(s))
		until_say(&u,
			  "profile %s: no array resyncs, recovers, reshapes or checks now, "
			  "nothing to wait for (start the operation first); reverting",
			  render_safe(cli->profile.name, nm, sizeof(nm)));
	else
		until_say(&u,
			  "profile %s: watching until no array resyncs, recovers, reshapes or "
			  "checks; SIGINT, SIGTERM or SIGHUP reverts now",
			  render_safe(cli->profile.name, nm, sizeof(nm)));
	sig = until_wait(&u, s);
	mdp_txn_report_free(&cli->tx.rep);
	rc = cli_txn_result(cli, mdp_txn_revert(&cli->tx), "revert", NULL);
	if (rc == MDP_EXIT_OK) {
		/* One more look, quietly: an array being stopped may have gone meanwhile. */
		u.done = true;
		(void)until_look(&u, s);
		until_summary(&u, sig);
	} else if (u.log)
		syslog(LOG_ERR, "revert of profile %s failed (exit %d)",
		       render_safe(cli->profile.name, nm, sizeof(nm)), rc);
	free(u.ops);
	if (u.log)
		closelog();
	return rc;
}

/* Options that only make sense together, refused before anything changes. */
static int apply_opts_ok(struct cli *cli)
{
	if (cli->interval_ms && !cli->until_idle)
		cli_err(cli, "--interval applies to 'apply' only with --until-idle");
	else if (cli->until_idle && cli->dry_run)
		cli_err(cli, "--until-idle and --dry-run do not go together");
	else if (cli->until_idle && cli->json)
		cli_err(cli, "--until-idle reports as text (and to syslog), not --json");
	else
		return 0;
	return MDP_EXIT_USAGE;
}

static int do_apply(struct cli *cli)
{
	const struct mdp_profile *p = &cli->profile;
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	char nm[1024];
	int rc;

	if ((rc = apply_opts_ok(cli)) ||
	    (cli->until_idle && (rc = cli_refuse_over_active(cli, "apply --until-idle"))))
		return rc;
	if (cli->dry_run)
		return apply_dry_run(cli, p);
	cli->tx.until_idle = cli->until_idle;
	/* Only what the plan needs: on a big box discovery is most of apply's work. */
	if (!(rc = cli_discover(cli, mdp_plan_discover_skip(p), &s)) &&
	    !(rc = cli_plan(cli, p, &s, &pl))) {
		apply_notes(cli, &pl);
		if (cli_info(cli))
			render_dsm_speed_note(&s, &pl, "");
		rc = cli_txn_result(cli, mdp_txn_apply(&cli->tx, p, &pl), "apply", &pl);
		if (rc == MDP_EXIT_OK && cli_info(cli))
			printf(mdp_txn_report_changed(&cli->tx.rep)
				   ? "profile %s is active; 'mdprofile revert' restores the values "
				     "from before\n"
				   : "profile %s: already in sync, nothing changed\n",
			       render_safe(p->name, nm, sizeof(nm)));
		if (rc == MDP_EXIT_OK && cli->until_idle)
			rc = until_idle(cli, &s);
	}
	mdp_plan_free(&pl);
	mdp_system_free(&s);
	return rc;
}

const struct cmd cmd_apply = {"apply",
			      do_apply,
			      CMD_PROFILE | CMD_TXN | CMD_RECOVER,
			      OPT_DRY_RUN | OPT_NAME | OPT_UNTIL_IDLE | OPT_INTERVAL,
			      1,
			      1,
			      "apply [--dry-run | --until-idle [--interval S]] PROFILE",
			      "apply PROFILE transactionally (rolled back on any failure)"};

static int do_revert(struct cli *cli)
{
	return cli_txn_result(cli, mdp_txn_revert(&cli->tx), "revert", NULL);
}

const struct cmd cmd_revert = {
    "revert", do_revert, CMD_TXN,  0,
    0,        0,         "revert", "restore exactly the values from before the first apply"};

static int do_recover(struct cli *cli)
{
	bool did;
	int rc = cli_txn_result(cli, mdp_txn_recover(&cli->tx, &did), "recover", NULL);

	if (rc == MDP_EXIT_OK && !did && cli_info(cli))
		puts("nothing to recover");
	return rc;
}

const struct cmd cmd_recover = {
    "recover", do_recover, CMD_TXN,   0,
    0,         0,          "recover", "finish or undo an interrupted apply or revert"};
