/*
 * cmd: the command layer. Thin: parse arguments, call src/, print, map the
 * result to an exit code. Each subcommand lives in its own file and exports
 * one descriptor; mdprofile.c holds the table.
 */
#ifndef MDP_CMD_H
#define MDP_CMD_H

#include <stdbool.h>
#include <limits.h>
#include <stdio.h>

#include "diag.h"
#include "profile.h"
#include "root.h"
#include "fault.h"

enum mdp_exit {
	MDP_EXIT_OK = 0,      /* success / in sync */
	MDP_EXIT_PENDING = 1, /* diff found changes or drift */
	MDP_EXIT_USAGE = 2,   /* usage or profile error, nothing touched */
	MDP_EXIT_FAILED = 3,  /* failure on the system, everything rolled back */
	MDP_EXIT_PARTIAL = 4, /* rollback incomplete */
};

struct cli {
	struct mdp_root root;
	struct mdp_profile_dirs dirs;
	char dir_buf[3][PATH_MAX + 64];
	bool json;
	int verbose;             /* -1 quiet, 0 normal, 1 verbose */
	bool wait;               /* --wait for the lock */
	const char *svc_force;   /* --services-backend */
	unsigned svc_timeout_ms; /* --service-timeout, 0 = backend default */
	struct fault fault;      /* MDPROFILE_FAULT test seam */
};

struct cmd {
	const char *name;
	int (*fn)(struct cli *cli, int argc, char **argv);
	const char *usage;
	const char *help;
};

extern const struct cmd cmd_list, cmd_show, cmd_check, cmd_diff, cmd_apply, cmd_revert, cmd_recover,
    cmd_status;

/* Print every diag to stderr as "mdprofile: ...". */
void cli_print_diags(struct mdp_diags *d);
/* Print one error line "mdprofile: ..." to stderr. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "usage: mdprofile ..." for c to stderr and return MDP_EXIT_USAGE. */
int cli_usage(const struct cmd *c);
/*
 * Find and load a profile argument, with the ownership check when running
 * as root on the real root. Prints diags; returns 0 or MDP_EXIT_USAGE.
 */
int cli_load_profile(struct cli *cli, const char *arg, struct mdp_profile *p);
/* Flush stdout and report a write error (full disk, closed pipe) as failure. */
int cli_finish(int code);

/* JSON output helpers (stdout). */
void json_str(const char *s);

#endif
