/* cli: helpers every command shares (cli.h). */
#include "cli.h"
#include "clock.h"
#include "render.h"
#include "grow.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void keep_error(struct cli *cli, const char *msg)
{
	if (mdp_grow(&cli->errors, cli->n_errors, sizeof(*cli->errors)))
		return;
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

void cli_print_usage(FILE *f, const struct cmd *c)
{
	static const char head[] = "usage: mdprofile [options] ";
	int indent = (int)(sizeof(head) - 1 + strlen(c->name) + 1);

	fputs(head, f);
	/* a usage of several lines: the next ones under the command's first option */
	for (const char *p = c->usage, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		fprintf(f, "%*s%.*s\n", p == c->usage ? 0 : indent, "",
			(int)(nl ? nl - p : (ptrdiff_t)strlen(p)), p);
		if (!nl)
			break;
		while (nl[1] == ' ')
			nl++;
	}
}

int cli_usage(const struct cmd *c)
{
	cli_print_usage(stderr, c);
	return MDP_EXIT_USAGE;
}

/* Larger than any profile the loader takes from a file. */
#define STDIN_MAX (1024 * 1024)

/*
 * "-": the profile text comes from stdin, as a boot script feeds its
 * pinned profile to apply. It has no file, so there is no ownership to
 * check; whoever can write to our stdin already runs us.
 */
static int load_stdin(struct cli *cli, struct mdp_profile *p, struct mdp_diags *d)
{
	char *buf = malloc(STDIN_MAX + 1);
	size_t n = 0, k;
	int err, e;

	if (!buf)
		return -ENOMEM;
	while (n <= STDIN_MAX && (k = fread(buf + n, 1, STDIN_MAX + 1 - n, stdin)) > 0)
		n += k;
	if (ferror(stdin)) {
		e = errno ? errno : EIO;
		err = -e;
		mdp_diags_add(d, MDP_STDIN_NAME, 0, 0, "cannot read the profile from stdin: %s",
			      strerror(e));
	} else if (n > STDIN_MAX) {
		err = -EFBIG;
		mdp_diags_add(d, MDP_STDIN_NAME, 0, 0,
			      "the profile on stdin is larger than %d bytes", STDIN_MAX);
	} else {
		err = mdp_profile_load_mem(
		    &cli->dirs, cli->stdin_name ? cli->stdin_name : MDP_STDIN_NAME, buf, n, p, d);
	}
	free(buf);
	return err;
}

const char *cli_take_name(void *opts, void *cli, const char *arg)
{
	(void)opts;
	if (!mdp_ident_profile_name_ok(arg))
		return "a profile name is letters, digits, '.', '_' and '-', not starting with '.' "
		       "or '-', at most 64";
	((struct cli *)cli)->stdin_name = arg;
	return NULL;
}

/*
 * A root-run tool must not take orders from a file others can edit: a
 * command that changes the system refuses it. One that only reads warns
 * and reads it anyway, so an owner can still look at such a profile.
 */
static bool perms_matter(const struct cli *cli)
{
	return geteuid() == 0 && mdp_root_is_real(&cli->root);
}

/* The refusals a command that only reads shrugs off, as warnings. */
static void perms_warn(struct cli *cli, const struct mdp_diags *w)
{
	static const char *const cuts[][2] = {
	    {"refusing profile: ", ""}, {"refusing profile directory: ", "profile directory: "}};
	char line[1024], *cut;

	for (size_t i = 0; i < w->n; i++) {
		mdp_diag_format(&w->v[i], line, sizeof(line));
		for (size_t k = 0; k < 2; k++) {
			size_t n = strlen(cuts[k][0]), m = strlen(cuts[k][1]);
			if (!(cut = strstr(line, cuts[k][0])))
				continue;
			memmove(cut + m, cut + n, strlen(cut + n) + 1);
			memcpy(cut, cuts[k][1], m);
		}
		cli_err(cli, "warning: %s; read anyway; apply refuses it", line);
	}
}

static int check_perms(struct cli *cli, const char *file, struct mdp_diags *d)
{
	struct mdp_diags w;

	if (!perms_matter(cli))
		return 0;
	if (cli->mutating)
		return mdp_profile_check_perms(file, d);
	mdp_diags_init(&w);
	if (mdp_profile_check_perms(file, &w))
		perms_warn(cli, &w);
	mdp_diags_free(&w);
	return 0;
}

/*
 * As root on the real root every file of the profile is checked on the
 * descriptor it is read from (mdp_profile_load_checked): nothing can be
 * swapped between the check and the read.
 */
static int load_file(struct cli *cli, const char *path, struct mdp_profile *p, struct mdp_diags *d)
{
	struct mdp_diags w;
	int err;

	if (!perms_matter(cli))
		return mdp_profile_load(&cli->dirs, path, p, d);
	mdp_diags_init(&w);
	err = mdp_profile_load_checked(&cli->dirs, path, p, d, cli->mutating ? NULL : &w);
	perms_warn(cli, &w);
	mdp_diags_free(&w);
	return err;
}

int cli_load_profile(struct cli *cli, const char *arg, struct mdp_profile *p)
{
	struct mdp_diags d;
	char path[PATH_MAX];
	int err;

	mdp_diags_init(&d);
	if (!strcmp(arg, "-")) {
		err = load_stdin(cli, p, &d);
		/* Its parents, if it extends any, are files: files[0] is stdin itself. */
		for (size_t i = 1; !err && i < p->n_files; i++)
			if ((err = check_perms(cli, p->files[i], &d)))
				mdp_profile_free(p);
		goto out;
	}
	err = mdp_profile_find(&cli->dirs, arg, path, sizeof(path), &d);
	/* Parents reached through extends are orders too: the loader checks each. */
	if (!err)
		err = load_file(cli, path, p, &d);
out:
	if (err && !d.n)
		mdp_diags_add(&d, arg, 0, 0, "cannot load profile: %s", strerror(-err));
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	return err ? MDP_EXIT_USAGE : 0;
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

int cli_preview_services(struct cli *cli, const struct mdp_profile *p)
{
	int err = mdp_txn_preview_services(&cli->tx, p);

	cli_print_diags(cli, &cli->d);
	mdp_diags_free(&cli->d);
	mdp_diags_init(&cli->d);
	if (err) {
		cli_err(cli, "cannot preview the services: %s", strerror(-err));
		return MDP_EXIT_FAILED;
	}
	return 0;
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

int cli_apply_quiet(struct cli *cli, struct mdp_profile *p)
{
	struct mdp_system s = {0};
	struct mdp_plan pl = {0};
	struct mdp_txn_rc t;
	int rc;

	if (!(rc = cli_discover(cli, mdp_plan_discover_skip(p), &s)) &&
	    !(rc = cli_plan(cli, p, &s, &pl))) {
		t = mdp_txn_apply(&cli->tx, p, &pl);
		rc = t.res != MDP_TXN_OK ? cli_txn_result(cli, t, "apply", &pl) : 0;
		mdp_txn_report_free(&cli->tx.rep);
	}
	mdp_plan_free(&pl);
	mdp_system_free(&s);
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
	return sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM";
}
