/*
 * cli: what every command shares. The CLI context (global options, the
 * profile directories, the loaded profile, the service backend, the lock
 * and the transaction of a mutating command), the command descriptor, and
 * helpers that call src/ and print its diagnostics.
 *
 * Commands are described by a table (cmd/mdprofile.c): main parses the
 * options, wherever they are on the line, then does the setup a command's
 * flags ask for, once, before calling it. A command's own options are a
 * table and a struct in its file (cmd/opt.h), read through cli->opts.
 * Command files export only their descriptors (commands.h) and include
 * cli.h, render.h and json.h; they never include each other.
 */
#ifndef MDP_CMD_CLI_H
#define MDP_CMD_CLI_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "mdp_base.h"
#include "mdp_md.h"
#include "mdp_txn.h"
#include "mdp_profile.h"
#include "fault.h"
#include "json.h"
#include "opt.h"

enum mdp_exit {
	MDP_EXIT_OK = 0,      /* success / in sync */
	MDP_EXIT_PENDING = 1, /* diff found changes or drift */
	MDP_EXIT_USAGE = 2,   /* usage or profile error, nothing touched */
	MDP_EXIT_FAILED = 3,  /* failure on the system, everything rolled back */
	MDP_EXIT_PARTIAL = 4, /* rollback incomplete */
	/* needs root, said before anything is read or touched: sysexits(3)'s EX_NOPERM */
	MDP_EXIT_NOPERM = 77,
};

/* What main sets up before a command runs. */
enum cmd_flags {
	CMD_PROFILE = 1 << 0,  /* argument 1 is a profile: loaded into cli->profile first */
	CMD_SERVICES = 1 << 1, /* pick the service backend (--services-backend or detected) */
	CMD_LOCK = 1 << 2,     /* hold the lock for the whole command */
	CMD_RECOVER = 1 << 3,  /* finish an interrupted transaction first */
	CMD_MD = 1 << 4,       /* md must be loaded: refused with one message (exit 3) if not */
	CMD_WATCHER = 1 << 5,  /* a watcher: recover leaves a gone watcher's pauses to it */
	CMD_TXN = CMD_SERVICES | CMD_LOCK,
};

#define CLI_ERRORS_KEPT 100

struct cli {
	/* global options */
	struct mdp_root root;
	struct mdp_profile_dirs dirs;
	const char *dir_source[4]; /* per dir, for list: "--profiles", "etc" or "shipped" */
	char dir_buf[3][PATH_MAX + 64];
	bool json;
	int verbose;                     /* -1 quiet, 0 normal, 1 verbose: see cli_info() */
	bool wait;                       /* --wait for the lock */
	const char *svc_force;           /* --services-backend */
	unsigned svc_timeout_ms;         /* --service-timeout, 0 = backend default */
	unsigned pkg_timeout_ms;         /* --package-timeout, 0 = backend default */
	const char *root_dir, *prof_dir; /* --root (or MDPROFILE_ROOT), --profiles */
	bool help, version;              /* -h/--help, --version */
	/* shared by the commands that load a profile (setup) */
	const char *stdin_name; /* --name: of the profile "-" (CLI_OPT_NAME) */
	bool mutating;          /* the command changes the system (it holds the lock) */
	/* the command's own options: its struct, of its table (struct cmd's opts) */
	void *opts;
	/* the command line after the command name (argv[0] is the name) */
	int argc;
	char **argv;
	/* set up by main from the command's flags */
	struct mdp_profile profile;
	bool have_profile;
	/* a second profile, loaded by a command's check (enable --auto OVERLAY) */
	struct mdp_profile overlay;
	bool have_overlay;
	struct mdp_svc_backend svc;
	struct mdp_lock lock;
	struct mdp_lock watcher; /* auto, apply --until-idle: held for the process's life */
	struct mdp_root_out out; /* --output, --textfile, --capture: its folder, from the check */
	struct mdp_diags d;      /* the transaction's diagnostics */
	struct mdp_txn tx;
	struct fault fault; /* MDPROFILE_FAULT test seam */
	/*
	 * the errors printed, for --json's error object when no document was
	 * written: the first CLI_ERRORS_KEPT, then only counted (a watcher runs
	 * for months)
	 */
	char *errors[CLI_ERRORS_KEPT];
	size_t n_errors, n_dropped;
	bool json_written;
	/* non-NULL: cli_err adds its messages here instead of printing them (cli_say_once) */
	struct mdp_diags *held;
};

struct cmd {
	const char *name;
	int (*fn)(struct cli *cli);
	unsigned flags;               /* enum cmd_flags */
	const struct opt_table *opts; /* its own options (cli->opts); NULL: none */
	int min_args, max_args;       /* after the name; max -1: any number */
	/* its arguments after the options in its synopsis ("PROFILE", "[ARRAY...]"); NULL: none */
	const char *args;
	/* what it does, one paragraph: help wraps it (the options' help is in their table) */
	const char *summary;
	/* NULL, or the flags setup uses after the options are read (apply --dry-run: no lock) */
	unsigned (*setup_flags)(const struct cli *cli, unsigned flags);
	/*
	 * NULL, or the command's own checks of its options and arguments, run
	 * before anything happens (no profile loaded, no lock, no recover): a
	 * refusal here is exit 2 with the system as it was.
	 */
	int (*check)(struct cli *cli);
};

/* --name NAME: of a profile read from stdin, for the commands that load one. */
const char *cli_take_name(void *opts, void *cli, const char *arg);
#define CLI_OPT_NAME                                                                               \
	OPT_CUSTOM(                                                                                \
	    "name", 0, "NAME", cli_take_name,                                                      \
	    "the name of a profile read from stdin (PROFILE '-'), in messages, the journal "       \
	    "and status; default stdin")

/*
 * -q and -v mean the same for every command (mdprofile(8), VERBOSITY):
 *   -q  errors, warnings and fix commands (stderr), and the data a command exists
 *       to show (list's names, show, status, bench's results, a script written to
 *       stdout, help); no confirmations, summaries, notes or hints: the exit code
 *       tells the result.
 *       all that, plus those confirmations, summaries, notes and hints.
 *   -v  all that, plus detail: the file behind each value or profile, the values
 *       already in sync, UUIDs and where they came from.
 * --json documents are the same at every level. cli_info: the text a plain run
 * adds to -q's; cli_detail: what -v adds.
 */
static inline bool cli_info(const struct cli *cli)
{
	return !cli->json && cli->verbose >= 0;
}

static inline bool cli_detail(const struct cli *cli)
{
	return !cli->json && cli->verbose > 0;
}

/* Print one error line "mdprofile: ..." to stderr (and keep it for --json's error object). */
void cli_err(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print every diag to stderr as "mdprofile: ...". */
void cli_print_diags(struct cli *cli, struct mdp_diags *d);
/*
 * Print what a repeated step (auto --textfile's write) said, held in d, only
 * when it is not what it said last time (said, mdp_diags_said): a problem
 * that stands is said once; when it clears, "WHAT: no problem now".
 */
void cli_say_once(struct cli *cli, struct mdp_diags *d, struct mdp_diags_said *said,
		  const char *what);
/* Print "usage: mdprofile ..." for c to stderr and return MDP_EXIT_USAGE. */
int cli_usage(const struct cmd *c);
/* The name of a profile read from stdin ("-") without --name, in its messages and the journal. */
#define MDP_STDIN_NAME "stdin"
/*
 * The profile directories into cli->dirs: user_dir (--profiles; NULL: none),
 * the system's under --root, the shipped ones, then the built-in profiles.
 */
void cli_setup_dirs(struct cli *cli, const char *user_dir);
/*
 * Times are the box's local time (clock.h): a fixture tree's zone is its own
 * /etc/localtime, UTC without one (mdp_root_zone), set once for the process
 * and the programs it runs; the real root's is the C library's (TZ, else
 * /etc/localtime).
 */
void cli_setup_zone(const struct cli *cli);
/*
 * Find and load a profile argument ("-": read it from stdin), with the ownership check when running
 * as root on the real root. Prints diags; returns 0 or MDP_EXIT_USAGE.
 */
int cli_load_profile(struct cli *cli, const char *arg, struct mdp_profile *p);
/* Discover the system (what skip leaves), print diags; 0 or MDP_EXIT_FAILED. */
int cli_discover(struct cli *cli, unsigned skip, struct mdp_system *s);
/* Build the plan, print diags; 0 or MDP_EXIT_USAGE. */
int cli_plan(struct cli *cli, const struct mdp_profile *p, const struct mdp_system *s,
	     struct mdp_plan *pl);
/* Read the journal for display, quietly; false when there is none or it is unreadable. */
bool cli_journal_peek(struct cli *cli, struct mdp_journal *j);
/* The same, with why not: 0, -ENOENT none, -EBADMSG unparsable, another -errno unreadable. */
int cli_journal_read(struct cli *cli, struct mdp_journal *j);
/*
 * For commands that end by reverting to the values from before mdprofile (apply
 * --until-idle, bench --compare): an active profile would be dropped without a word, so
 * refuse, saying why ("what ends by reverting"). 0, or MDP_EXIT_USAGE.
 */
int cli_refuse_over_active(struct cli *cli, const char *what);
/* Warn on stderr when a journal needs 'mdprofile recover'. */
void cli_warn_recover(struct cli *cli);
/*
 * Report a transaction's result (text or JSON, diagnostics on stderr) and
 * map it to the exit code. pl adds the plan's notes to the JSON (apply).
 */
int cli_txn_result(struct cli *cli, struct mdp_txn_rc rc, const char *verb,
		   const struct mdp_plan *pl);
/*
 * Apply p (mdp_apply, o's options), what discovery and the plan say printed
 * as they say it. 0 when the transaction ran (its result in a->rc, for
 * cli_txn_result; a dry run's preview in cli->tx.rep, its diagnostics
 * printed), else the exit code of the step that failed, said: 3 the system
 * unreadable, 2 the plan refused. Free a with mdp_applied_free.
 */
int cli_apply(struct cli *cli, const struct mdp_profile *p, const struct mdp_apply_opts *o,
	      struct mdp_applied *a);
/*
 * Apply the loaded profile p as the base, for origin (bench --compare, explain --probe), through
 * the same transaction as 'apply', with no report when it succeeds (a failure is reported as by
 * cli_txn_result); frees p. Returns an exit code.
 */
int cli_apply_quiet(struct cli *cli, struct mdp_profile *p, enum mdp_origin origin);
/*
 * Revert every layer, as bench --compare and explain --probe end whatever happened: 0, or the
 * failure reported as by cli_txn_result and its exit code.
 */
int cli_revert_quiet(struct cli *cli);
/* Seconds on the monotonic clock, for durations and rates. */
double cli_mono_s(void);
/* SIGINT, SIGTERM, SIGHUP: the signals that ask a mutating command to stop. */
void cli_stop_signals(sigset_t *set);
/*
 * Hold SIGINT, SIGTERM and SIGHUP pending (until exit) so that work under
 * way can stop cleanly between two steps; cli_stop_requested says which
 * one arrived (0: none), cli_signal_name names it.
 */
void cli_hold_stop_signals(void);
int cli_stop_requested(void);
const char *cli_signal_name(int sig);
/* Start a JSON document on stdout (marks that one was written). */
void cli_json_begin(struct cli *cli, struct json *j);

#endif
