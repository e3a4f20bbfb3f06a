/*
 * exec: run a system tool the safe way, with a time limit.
 *
 * The services backends (and anything else that must run a tool such as
 * mdadm) go through here so that every child process is started the same
 * way: fork/execve, never a shell; the program found by absolute path in a
 * fixed list of directories resolved under the root, so a fixture root
 * carries its own fake tools; a fixed minimal environment; stdin from
 * /dev/null; stdout and stderr captured together (the first
 * MDP_EXEC_OUT_MAX - 1 bytes kept); no inherited descriptors; and a
 * timeout after which the child's whole process group is killed. A
 * descendant that left that group (setsid, a daemon's double fork)
 * survives the kill: that is how a service manager starts what it serves,
 * so it is accepted, not chased.
 *
 * Under a root other than "/" a tool runs only when the caller named the
 * tree in MDPROFILE_ROOT_EXEC, the tree holds no explain capture, and
 * nobody but root or the caller can have changed the tool, its directories
 * or the way to the tree (mdp_root_exec_trusted, root.h); a refusal is a
 * diagnostic naming the file and why.
 */
#ifndef MDP_EXEC_H
#define MDP_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "root.h"

#define MDP_EXEC_OUT_MAX 4096
/* The directories searched, in order, and the PATH given to the child. */
#define MDP_EXEC_PATH "/usr/syno/sbin:/usr/syno/bin:/usr/sbin:/usr/bin:/sbin:/bin"

struct mdp_exec_result {
	int exit_code;  /* 0..255 when the child exited, else -1 */
	int term_sig;   /* the signal that ended the child, else 0 */
	bool timed_out; /* killed by us after the timeout */
	bool truncated; /* more output than out could hold (the rest was read and dropped) */
	size_t out_len;
	char out[MDP_EXEC_OUT_MAX]; /* stdout and stderr interleaved, NUL-terminated */
};

/*
 * Run argv (argv[0] a bare program name, found with mdp_exec_find) and wait
 * at most timeout_ms (0 means no limit). The environment is PATH, LANG=C and,
 * under a fixture root, MDPROFILE_ROOT=<prefix> (and MDPROFILE_ROOT_EXEC=<prefix>:
 * mdp_root_env). Returns 0 when the child
 * ran and exited (look at res->exit_code), -ETIMEDOUT when it was killed
 * after the timeout (res filled, res->timed_out set), -ENOENT when the
 * program is not found, -EPERM when it was refused (the reason in d, once
 * per file), another -errno when it could not be started.
 */
int mdp_exec_run(const struct mdp_root *r, const char *const argv[], unsigned timeout_ms,
		 struct mdp_exec_result *res, struct mdp_diags *d);

/* The most variables a caller adds to a child's environment (mdp_exec_run_env). */
#define MDP_EXEC_ENV_MAX 16

/*
 * Run a program the caller names by its absolute path (argv[0]: a profile's notify command),
 * with env ("NAME=value", NULL-ended, at most MDP_EXEC_ENV_MAX) after exec's fixed
 * environment; otherwise as mdp_exec_run. The program and every directory to it must be
 * beyond change by anyone but root or the caller, on the real root too (mdp_root_trusted;
 * under a tree, mdp_root_exec_trusted): -EPERM with why in d. -ENOENT when it is not
 * there, -EACCES when it is not an executable file.
 */
int mdp_exec_run_env(const struct mdp_root *r, const char *const argv[], const char *const env[],
		     unsigned timeout_ms, struct mdp_exec_result *res, struct mdp_diags *d);

/*
 * Told the child's process group right after it starts, before the wait:
 * the transaction journals it, so a recover after mdprofile was killed can
 * tell whether the tool that outlived it still runs.
 */
struct mdp_exec_watch {
	void (*started)(void *ctx, long pgid);
	void *ctx;
};

/* mdp_exec_run, telling w (when not NULL) the child's process group. */
int mdp_exec_run_watched(const struct mdp_root *r, const char *const argv[], unsigned timeout_ms,
			 struct mdp_exec_result *res, struct mdp_diags *d,
			 const struct mdp_exec_watch *w);

/*
 * Who leads process group pgid: its start time (clock ticks after boot,
 * field 22 of /proc/PGID/stat) and the boot id. Read from the host's /proc
 * whatever the root, because the process is the host's: with the two, a
 * later process that got the same number (a reused pid, a journal from a
 * --root tree or another boot) is never taken for the tool mdprofile
 * started. -ESRCH when pgid leads no group (its leader is gone, or it
 * left), another -errno when /proc cannot tell.
 */
struct mdp_exec_ident {
	uint64_t start;
	char boot[40];
};
int mdp_exec_group_ident(long pgid, struct mdp_exec_ident *id);

/* Whether process group pgid still has a member (EPERM counts: it exists). */
bool mdp_exec_group_alive(long pgid);
/* SIGKILL process group pgid. */
void mdp_exec_group_kill(long pgid);

/* The first line of the output (at most cap - 1 bytes), "" when there is none. */
void mdp_exec_first_line(const struct mdp_exec_result *res, char *buf, size_t cap);

#endif
