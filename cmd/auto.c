/*
 * auto and apply --until-idle: one watcher, two ways to start it.
 *
 * `mdprofile auto PROFILE` arms: it sleeps in poll() on /proc/mdstat and
 * each array's md/sync_action (md wakes both when an operation starts or
 * ends) and on the interval. When an operation of a watched kind starts on
 * an array the profile selects, it applies PROFILE (an overlay when a base
 * is active); while engaged it puts back, at most MDP_REASSERT_MAX times
 * each, values something else rewrote (DSM does at every storage-pool
 * operation); when every selected array has been idle for the debounce it
 * removes its layer. `apply --until-idle` is the same loop started engaged,
 * ending at its first release.
 *
 * The watcher holds the watcher lock for its whole life (one watcher per
 * machine; recover removes a watcher's layer only when that lock is free),
 * and the main lock only for each transaction, so `revert` from another
 * shell works at any time: the watcher sees its layer gone and leaves md
 * alone until the operation ends (held). SIGINT, SIGTERM and SIGHUP remove
 * an engaged layer and end the watcher with 0.
 *
 * The loop is src/watcher/watcher_loop.c's; this file wires it to the command line
 * and renders what it says: its lines through the watcher's log (wlog.h),
 * a progress bar on a terminal, errors, diagnostics and the transactions'
 * reports as every mutating command does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "commands.h"
#include "mdp_boot.h"
#include "status.h"
#include "watcher.h"
#include "mdp_watcher.h"
#include "wlog.h"

/* The watcher's screen: where its lines go, and whether a bar is on the last line. */
struct wt_ui {
	struct cli *cli;
	struct wlog *log;
	bool bar;
	const char *textfile; /* auto --textfile: the Prometheus status written there */
	double textfile_due;  /* monotonic seconds: when to write it next; 0 at the next look */
	struct mdp_diags_said textfile_said; /* what its writes said last, said once */
	bool dsm; /* engage, release and give-up go to DSM's Log Center, a release's news to
		     its notifications */
};

/*
 * auto --textfile's period: node_exporter reads the file at each scrape, 15 s
 * to 1 min. An engage, a release or a give-up (a notice or a warning) is
 * written at the look it happened in.
 */
#define WT_TEXTFILE_PERIOD_S 60.0

static void ui_bar_off(void *ctx)
{
	struct wt_ui *u = ctx;

	if (u->bar)
		fputs("\r\033[K", stdout);
	u->bar = false;
}

static void ui_line(void *ctx, int prio, const char *line)
{
	struct wt_ui *u = ctx;

	ui_bar_off(u);
	wlog_line(u->log, prio, cli_info(u->cli), line);
	if (prio <= LOG_NOTICE)
		u->textfile_due = 0;
}

/*
 * DSM: an engage, a release or a give-up as a Log Center entry, and a release
 * after operations it served ended as a notification too (mdp_boot_dsm_tell).
 * Not reaching them ends nothing: the line is in the log already.
 */
static void ui_tell(struct wt_ui *u, const char *text, bool notify)
{
	char line[1024], why[256], msg[512];
	struct mdp_diags d;
	int err;

	if (!u->dsm)
		return;
	snprintf(line, sizeof(line), "mdprofile: %s", text);
	mdp_diags_init(&d);
	err = mdp_boot_dsm_tell(&u->cli->root, line, notify, why, sizeof(why), &d);
	cli_print_diags(u->cli, &d);
	mdp_diags_free(&d);
	if (!err || err == -ENOENT || err == -EPERM)
		return; /* not DSM, or refused and said */
	snprintf(msg, sizeof(msg), "DSM's notification (%s) failed: %s", mdp_boot_dsm.notify,
		 err == -EIO && why[0] ? why : strerror(-err));
	ui_line(u, LOG_ERR, msg);
}

static void ui_event(void *ctx, enum mdp_wl_event ev, bool ended, const char *text)
{
	ui_tell(ctx, text, ev == MDP_WL_RELEASED && ended);
}

/*
 * DSM: a check's start, pause, resume or end (maintenance notify) as a Log Center entry; a
 * start and an end as a notification too.
 */
static void ui_news(void *ctx, const struct mdp_mnews *n)
{
	ui_tell(ctx, n->line, n->ev == MDP_MEV_START || n->ev == MDP_MEV_END);
}

static void ui_error(void *ctx, const char *msg)
{
	cli_err(((struct wt_ui *)ctx)->cli, "%s", msg);
}

static void ui_diags(void *ctx, struct mdp_diags *d)
{
	cli_print_diags(((struct wt_ui *)ctx)->cli, d);
}

static int ui_txn(void *ctx, struct mdp_txn_rc rc, const char *verb, const struct mdp_plan *pl)
{
	return cli_txn_result(((struct wt_ui *)ctx)->cli, rc, verb, pl);
}

/*
 * After each look: on a terminal, a's bar, ETA and speed on the last line.
 * A log file (stdout redirected) gets an engage's or a release's lines when
 * they happen, not when the next message or the exit flushes them.
 */
static void ui_looked(void *ctx, const struct mdp_array *a)
{
	struct wt_ui *u = ctx;
	struct mdp_status_array v;
	char eta[32] = "";
	int fill;

	if (u->textfile && cli_mono_s() >= u->textfile_due) {
		u->textfile_due =
		    cli_mono_s() + fault_minute_s(&u->cli->fault, WT_TEXTFILE_PERIOD_S);
		/* a failure is said (once while it stands); the watch goes on */
		(void)status_textfile_once(u->cli, u->textfile, &u->textfile_said);
	}
	if (a && u->log->sink == WLOG_TTY && cli_info(u->cli)) {
		fill = (int)(a->permille * 30 / 1000);
		mdp_status_array(NULL, a, &v);
		if (v.eta)
			status_fmt_eta(v.eta, eta, sizeof(eta));
		ui_bar_off(u);
		printf("%s %s [%.*s>%.*s] %u.%u%%, %" PRIu64 " KiB/s%s%s", a->name, a->sync_action,
		       fill, "==============================", 29 - fill,
		       ".............................", a->permille / 10, a->permille % 10,
		       a->sync_speed, eta[0] ? ", about " : "", eta);
		fflush(stdout);
		u->bar = true;
	}
	fflush(stdout);
}

/*
 * Run the watcher (once: apply --until-idle's) with its lines in log. An
 * exit code: the loop's failures are MDP_EXIT_FAILED.
 */
static int wt_run(struct cli *cli, struct wlog *log, bool once, unsigned kinds,
		  unsigned interval_ms, const char *textfile)
{
	struct wt_ui ui = {.cli = cli,
			   .log = log,
			   .textfile = textfile,
			   .dsm = mdp_boot_target_detect(&cli->root) == MDP_BOOT_DSM};
	sigset_t stop;
	struct mdp_wloop_cfg c = {
	    .root = &cli->root,
	    .tx = &cli->tx,
	    .lock = &cli->lock,
	    .wlock = &cli->watcher,
	    .p = &cli->profile,
	    .stop = &stop,
	    .once = once,
	    .kinds = kinds,
	    .interval_ms = interval_ms,
	    .steps = log->sink != WLOG_TTY,
	    .h = {.ctx = &ui,
		  .line = ui_line,
		  .error = ui_error,
		  .diags = ui_diags,
		  .txn_result = ui_txn,
		  .looked = ui_looked,
		  .bar_off = ui_bar_off,
		  .event = ui_event,
		  .news = ui_news},
	};
	int rc;

	cli_stop_signals(&stop);
	rc = mdp_wloop_run(&c);
	ui_bar_off(&ui);
	return rc < 0 ? MDP_EXIT_FAILED : rc;
}

int watcher_lock(struct cli *cli)
{
	struct mdp_lock *l = &cli->watcher;
	long holder = 0;
	int err = mdp_watcher_take(&cli->root, l, &holder, &cli->d);

	if (!err)
		return 0;
	if (err == -EPERM && cli->d.n)
		cli_print_diags(cli, &cli->d);
	else if (err == -EWOULDBLOCK)
		cli_err(cli,
			"another watcher (pid %ld, mdprofile auto or apply --until-idle) is "
			"running; one per machine: stop it first",
			holder);
	else
		cli_err(cli, "cannot take the lock %s: %s", MDP_WATCHER_LOCK,
			mdp_root_strerror(-err));
	return MDP_EXIT_FAILED;
}

int watcher_until_idle(struct cli *cli, struct wlog *log, unsigned interval_ms)
{
	return wt_run(cli, log, true, MDP_OP_ALL, interval_ms, NULL);
}

/* auto's options. */
struct auto_opts {
	const char *on;       /* --on KINDS: the operations that engage it */
	unsigned interval_ms; /* --interval; 0: 5 s */
	const char *textfile; /* --textfile FILE */
};

static const struct opt auto_opts[] = {
    /* A comma-separated list of the words: taken whole, offered word by word. */
    {.name = "on",
     .kind = OPTK_STRING,
     .off = offsetof(struct auto_opts, on),
     .metavar = "KINDS",
     .words = mdp_op_kind_words,
     .help = "the md operations it applies during, comma-separated: resync, recovery, reshape "
	     "(the default), check, repair"},
    OPT_INTERVAL("interval", struct auto_opts, interval_ms,
		 "seconds between looks besides md's events (default 5)"),
    OPT_NAMING("textfile", 0, "FILE", OPTV_FILE, struct auto_opts, textfile,
	       "write status --format prometheus to FILE at the start and every minute (for "
	       "node_exporter's textfile collector), replacing it whole"),
    CLI_OPT_NAME, /* the profile on stdin: the boot's pinned overlay */
};

static const struct opt_table auto_table = OPT_TABLE(auto_opts, struct auto_opts, NULL, NULL, NULL);

/* Before anything happens: --on's words, --textfile's place, and no --json. */
static int auto_check(struct cli *cli)
{
	const struct auto_opts *o = cli->opts;
	char why[PATH_MAX + 160];
	const char *bad;
	size_t bad_len;
	unsigned kinds;
	int err;

	if (o->on && mdp_op_kinds_parse(o->on, &kinds, &bad, &bad_len)) {
		cli_err(cli,
			"--on: '%.*s' is no md operation: give resync, recovery, reshape, "
			"check or repair, comma-separated",
			(int)bad_len, bad);
		return MDP_EXIT_USAGE;
	}
	if (cli->json) {
		cli_err(cli, "auto reports as text (and to syslog), not --json");
		return MDP_EXIT_USAGE;
	}
	if (o->textfile && (err = mdp_root_out_open(&cli->out, o->textfile, why, sizeof(why)))) {
		cli_err(cli, "--textfile %s: %s", o->textfile, *why ? why : strerror(-err));
		return MDP_EXIT_USAGE;
	}
	return 0;
}

static int do_auto(struct cli *cli)
{
	const struct auto_opts *o = cli->opts;
	const char *bad;
	size_t bad_len;
	unsigned kinds = MDP_OP_DEFAULT;
	struct wlog log;
	int rc;

	if (o->on)
		(void)mdp_op_kinds_parse(o->on, &kinds, &bad, &bad_len); /* auto_check's */
	if ((rc = watcher_lock(cli)))
		return rc;
	wlog_open(&log, mdp_root_is_real(&cli->root));
	rc = wt_run(cli, &log, false, kinds, o->interval_ms, o->textfile);
	wlog_close(&log);
	return rc;
}

const struct cmd cmd_auto = {
    .name = "auto",
    .fn = do_auto,
    .flags = CMD_PROFILE | CMD_TXN | CMD_RECOVER | CMD_MD | CMD_WATCHER,
    .opts = &auto_table,
    .min_args = 1,
    .max_args = 1,
    .args = "PROFILE",
    .summary = "watch md: apply PROFILE while a resync, recovery or reshape runs (--on: also "
	       "check, repair), keep its values, remove it when md is idle",
    .check = auto_check,
};
