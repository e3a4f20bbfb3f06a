/* cli: helpers every command shares (cli.h). */
#include "cli.h"
#include "mdp_md.h"
#include "mdp_base.h"
#include "render.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void keep_error(struct cli *cli, const char *msg)
{
	if (cli->n_errors >= CLI_ERRORS_KEPT) {
		cli->n_dropped++;
		return;
	}
	if ((cli->errors[cli->n_errors] = strdup(msg)))
		cli->n_errors++;
}

void cli_err(struct cli *cli, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (cli->held) {
		(void)mdp_diags_add(cli->held, NULL, 0, 0, "%s", msg);
		return;
	}
	fprintf(stderr, "mdprofile: %s\n", msg);
	keep_error(cli, msg);
}

void cli_print_diags(struct cli *cli, struct mdp_diags *d)
{
	char line[1024];

	mdp_diags_sort(d);
	for (size_t i = 0; i < d->n; i++) {
		mdp_diag_format(&d->v[i], line, sizeof(line));
		cli_err(cli, "%s", line);
	}
}

void cli_say_once(struct cli *cli, struct mdp_diags *d, struct mdp_diags_said *said,
		  const char *what)
{
	switch (mdp_diags_said(said, d)) {
	case MDP_SAID_NEW:
		for (size_t i = 0; i < d->n; i++)
			cli_err(cli, "%s", d->v[i].msg);
		break;
	case MDP_SAID_CLEARED:
		fprintf(stderr, "mdprofile: %s: no problem now\n", what);
		break;
	case MDP_SAID_SAME:
		break;
	}
}

int cli_discover(struct cli *cli, unsigned skip, struct mdp_system *s)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_discover_some(&cli->root, skip, s, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (err) {
		cli_err(cli, "cannot read the system state: %s", mdp_root_strerror(-err));
		return MDP_EXIT_FAILED;
	}
	return 0;
}

int cli_plan(struct cli *cli, const struct mdp_profile *p, const struct mdp_system *s,
	     struct mdp_plan *pl)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_plan_build(p, s, pl, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (err && err != -EINVAL)
		cli_err(cli, "cannot plan: %s", strerror(-err));
	return err ? MDP_EXIT_USAGE : 0;
}

int cli_refuse_over_active(struct cli *cli, const char *what)
{
	struct mdp_journal j;
	char nm[1024];
	bool active;

	if (!cli_journal_peek(cli, &j))
		return 0;
	active = j.state == MDP_J_ACTIVE;
	if (active)
		cli_err(cli,
			"profile %s is active; revert it first: %s ends by reverting to the values "
			"from before mdprofile, which would drop it",
			render_safe(j.profile, nm, sizeof(nm)), what);
	mdp_journal_free(&j);
	return active ? MDP_EXIT_USAGE : 0;
}

bool cli_journal_peek(struct cli *cli, struct mdp_journal *j)
{
	return cli_journal_read(cli, j) == 0;
}

int cli_journal_read(struct cli *cli, struct mdp_journal *j)
{
	struct mdp_diags d;
	bool said;
	int err;

	mdp_diags_init(&d);
	err = mdp_journal_load(&cli->root, j, &d);
	/* A state directory others can write: the reason, as a warning (status only reads). */
	said = err == -EPERM && d.n > 0;
	for (size_t i = 0; said && i < d.n; i++) {
		char line[1024];
		mdp_diag_format(&d.v[i], line, sizeof(line));
		cli_err(cli, "warning: %s", line);
	}
	mdp_diags_free(&d);
	/* An unparsable one is cli_warn_recover's to report; anything else is said here. */
	if (err && err != -ENOENT && err != -EBADMSG && !said)
		cli_err(cli, "warning: cannot read the journal %s: %s", MDP_JOURNAL,
			strerror(-err));
	return err;
}

void cli_warn_recover(struct cli *cli)
{
	if (mdp_txn_needs_recover(&cli->root))
		cli_err(cli, "warning: an interrupted or stale transaction was found; run "
			     "'mdprofile recover'");
}

double cli_mono_s(void)
{
	return (double)mdp_mono_ns() / 1e9;
}

void cli_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

void cli_json_begin(struct cli *cli, struct json *j)
{
	cli->json_written = true;
	json_init(j, stdout);
}

static const char *result_name(enum mdp_txn_result res)
{
	return res == MDP_TXN_OK        ? "ok"
	       : res == MDP_TXN_FAILED  ? "rolled-back"
	       : res == MDP_TXN_PARTIAL ? "rollback-incomplete"
					: "error";
}

/* An error before anything changed: its exit code, said when the diags did not say it. */
static int txn_error_exit(struct cli *cli, int err, const char *verb)
{
	switch (err) {
	case -EINVAL:
	case -EBUSY: /* a layer rule refused it (txn.c's apply_layer): the diag says why */
		return MDP_EXIT_USAGE; /* the diags said why; nothing was touched */
	case -EBADMSG:
	case -EPERM:
		return MDP_EXIT_FAILED; /* journal unreadable or untrusted: the diag says what to do
					 */
	default:
		cli_err(cli, "%s failed: %s", verb, strerror(-err));
		return MDP_EXIT_FAILED;
	}
}

int cli_txn_result(struct cli *cli, struct mdp_txn_rc rc, const char *verb,
		   const struct mdp_plan *pl)
{
	const struct mdp_txn_report *rep = &cli->tx.rep;
	struct json j;

	if (cli->json) {
		cli_json_begin(cli, &j);
		render_report_json(&j, rep, result_name(rc.res), pl);
	} else {
		render_report_text(cli, rep, rc.res == MDP_TXN_OK);
	}
	cli_print_diags(cli, &cli->d);
	mdp_diags_free(&cli->d);
	mdp_diags_init(&cli->d);
	switch (rc.res) {
	case MDP_TXN_OK:
		return MDP_EXIT_OK;
	case MDP_TXN_FAILED:
		cli_err(cli, "%s failed; every change was rolled back", verb);
		return MDP_EXIT_FAILED;
	case MDP_TXN_PARTIAL:
		render_left(cli, rep);
		return MDP_EXIT_PARTIAL;
	case MDP_TXN_ERROR:
		break;
	}
	return txn_error_exit(cli, rc.err, verb);
}

static void apply_diags(void *ctx, struct mdp_diags *d)
{
	cli_print_diags(ctx, d);
}

int cli_apply(struct cli *cli, const struct mdp_profile *p, const struct mdp_apply_opts *o,
	      struct mdp_applied *a)
{
	struct mdp_apply_opts own = *o;
	int err;

	own.diags = apply_diags;
	own.ctx = cli;
	mdp_apply(&cli->tx, p, &own, a);
	if (a->step == MDP_APPLY_DISCOVER)
		return MDP_EXIT_FAILED;
	if (a->step == MDP_APPLY_PLAN)
		return MDP_EXIT_USAGE;
	if (!o->dry_run)
		return 0;
	/* the preview's own diagnostics: states that could not be read */
	cli_print_diags(cli, &cli->d);
	mdp_diags_free(&cli->d);
	mdp_diags_init(&cli->d);
	if ((err = a->rc.err))
		cli_err(cli, "cannot preview the services: %s", strerror(-err));
	return err ? MDP_EXIT_FAILED : 0;
}

int cli_revert_quiet(struct cli *cli)
{
	struct mdp_txn_rc t = mdp_txn_revert(&cli->tx, true);
	int rc = t.res == MDP_TXN_OK ? 0 : cli_txn_result(cli, t, "revert", NULL);

	mdp_txn_report_free(&cli->tx.rep);
	return rc;
}

int cli_apply_quiet(struct cli *cli, struct mdp_profile *p, enum mdp_origin origin)
{
	const struct mdp_apply_opts o = {.origin = origin, .as_base = true, .lean = true};
	struct mdp_applied a;
	int rc;

	if (!(rc = cli_apply(cli, p, &o, &a)) && a.rc.res != MDP_TXN_OK)
		rc = cli_txn_result(cli, a.rc, "apply", &a.plan);
	mdp_txn_report_free(&cli->tx.rep);
	mdp_applied_free(&a);
	mdp_profile_free(p);
	return rc;
}

void cli_hold_stop_signals(void)
{
	sigset_t stop;

	cli_stop_signals(&stop);
	sigprocmask(SIG_BLOCK, &stop, NULL);
}

int cli_stop_requested(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	sigset_t pending;

	if (sigpending(&pending))
		return 0;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigismember(&pending, sigs[i]) == 1)
			return sigs[i];
	return 0;
}

const char *cli_signal_name(int sig)
{
	return mdp_watch_signal_name(sig);
}

void cli_setup_zone(const struct cli *cli)
{
	char tz[PATH_MAX + 2];

	if (!mdp_root_zone(&cli->root, tz, sizeof(tz)) && !setenv("TZ", tz, 1))
		tzset();
}
