/*
 * exec: fork/execve with a captured output and a time limit (see exec.h).
 *
 * Why each rule:
 * - No shell and a fixed directory list: a service name from a profile can
 *   never become shell syntax, and a PATH from the caller's environment
 *   (DSM's Task Scheduler gives a thin one) cannot change which tool runs.
 * - Descriptors above 2 are closed in the child: a service manager may
 *   start a daemon that lives on; it must not keep mdprofile's lock or
 *   journal descriptors (not all of which are O_CLOEXEC) open forever.
 * - The child leads its own process group, so a timeout kills the tool and
 *   whatever it started (sh -> sleep) at once.
 * - The pipe is polled together with waitpid(WNOHANG): a daemon started by
 *   the tool may hold the pipe open long after the tool itself exited, so
 *   EOF alone cannot mean "done".
 * - Under a root other than "/", the tree is whoever made it (a capture
 *   someone sent, extracted), yet mdprofile often runs as root, even for
 *   read-only commands (status runs mdadm): a tool there runs only when the
 *   caller named the tree for it, the tree holds no capture, and nobody but
 *   root or the caller can have changed the tool, its directories or the
 *   way to the tree (mdp_root_exec_trusted).
 */
#include "exec.h"
#include "clock.h"
#include "root_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Slice of a poll while waiting for the child: bounds the waitpid latency. */
#define EXEC_SLICE_MS 20

static const char *const exec_dirs[] = {
    "/usr/syno/sbin", "/usr/syno/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin",
};

/* Is sys a file we could execute? Under a fixture root, looked at beneath it. */
static bool exec_candidate(const struct mdp_root *r, const char *sys)
{
	struct stat st;
	int fd;
	bool ok;

	if (mdp_root_is_real(r))
		return !access(sys, X_OK) && !mdp_root_is_dir(r, sys);
	if ((fd = mdp_root_open(r, sys, O_PATH, 0)) < 0)
		return false;
	ok = !fstat(fd, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0111);
	close(fd);
	return ok;
}

/* The system path of the first prog in exec_dirs. */
static int exec_lookup(const struct mdp_root *r, const char *prog, char *sys, size_t len)
{
	if (!prog || !*prog || strchr(prog, '/'))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(exec_dirs) / sizeof(exec_dirs[0]); i++) {
		int n = snprintf(sys, len, "%s/%s", exec_dirs[i], prog);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		if (exec_candidate(r, sys))
			return 0;
	}
	return -ENOENT;
}

int mdp_exec_find(const struct mdp_root *r, const char *prog, char *path, size_t len)
{
	char sys[PATH_MAX];
	int err = exec_lookup(r, prog, sys, sizeof(sys));

	return err ? err : mdp_root_path(r, sys, path, len);
}

/* Discovery may want mdadm once per array: one refusal per file is enough. */
static void exec_refuse(struct mdp_diags *d, const char *path, const char *why)
{
	char msg[PATH_MAX + 160];

	snprintf(msg, sizeof(msg), "refusing to run it: %s", why);
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].file && !strcmp(d->v[i].file, path) && !strcmp(d->v[i].msg, msg))
			return;
	mdp_diags_add(d, path, 0, 0, "%s", msg);
}

/* The tool at sys may run: always on the real root, else when mdp_root_exec_trusted says so. */
static int exec_trust(const struct mdp_root *r, const char *sys, struct mdp_diags *d)
{
	char why[PATH_MAX + 128], path[PATH_MAX];
	int err;

	if (mdp_root_is_real(r) || !(err = mdp_root_exec_trusted(r, sys, why, sizeof(why))))
		return 0;
	if (err != -EPERM)
		snprintf(why, sizeof(why), "cannot check it: %s", mdp_root_strerror(-err));
	if (mdp_root_path(r, sys, path, sizeof(path)))
		snprintf(path, sizeof(path), "%s", sys);
	exec_refuse(d, path, why);
	return -EPERM;
}

void mdp_exec_first_line(const struct mdp_exec_result *res, char *buf, size_t cap)
{
	const char *p = res->out;
	size_t n = 0;

	if (cap == 0)
		return;
	while (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')
		p++;
	while (p[n] && p[n] != '\n' && p[n] != '\r' && n < cap - 1)
		n++;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

/* Child side: only async-signal-safe calls from here to execve. */
static void exec_close_from(int lowfd)
{
#ifdef SYS_close_range
	if (!syscall(SYS_close_range, (unsigned)lowfd, ~0u, 0u))
		return;
#endif
	long max = sysconf(_SC_OPEN_MAX);

	if (max < 0 || max > 65536)
		max = 65536;
	for (int fd = lowfd; fd < max; fd++)
		close(fd);
}

static void exec_child(int out_fd, const char *path, char *const argv[], char *const envp[])
{
	static const char msg[] = "mdprofile: cannot execute the program\n";
	static const int sigs[] = {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD};
	sigset_t none;
	int null;

	setpgid(0, 0);
	/* Ignored signals survive execve; the tool must see the defaults. */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	null = open("/dev/null", O_RDONLY);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
		_exit(127);
	exec_close_from(3);
	execve(path, argv, envp);
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(127);
	_exit(127);
}

/* Read what is there without blocking. Returns 1 at EOF, 0 when drained for now. */
static int exec_drain(int fd, struct mdp_exec_result *res)
{
	char tmp[1024];

	for (;;) {
		ssize_t n = read(fd, tmp, sizeof(tmp));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : 1;
		if (n == 0)
			return 1;
		size_t room = sizeof(res->out) - 1 - res->out_len;
		size_t take = (size_t)n < room ? (size_t)n : room;
		memcpy(res->out + res->out_len, tmp, take);
		res->out_len += take;
		res->out[res->out_len] = '\0';
		if (take < (size_t)n)
			res->truncated = true;
	}
}

static void exec_status(struct mdp_exec_result *res, int st)
{
	if (WIFEXITED(st)) {
		res->exit_code = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		res->term_sig = WTERMSIG(st);
	}
}

/* Kill the child's process group and reap the child. */
static void exec_kill(pid_t pid, int *st)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL); /* in case setpgid did not happen yet */
	while (waitpid(pid, st, 0) < 0 && errno == EINTR)
		;
}

/* Parent side: collect output until the child exits or the deadline passes. */
static int exec_wait(pid_t pid, int fd, unsigned timeout_ms, struct mdp_exec_result *res)
{
	int64_t deadline = timeout_ms ? mdp_mono_ms() + timeout_ms : 0;
	bool open_pipe = true;
	int st = 0;

	for (;;) {
		int64_t left = deadline ? deadline - mdp_mono_ms() : EXEC_SLICE_MS;
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		pid_t w;

		if (left <= 0) {
			exec_kill(pid, &st);
			exec_drain(fd, res);
			res->timed_out = true;
			exec_status(res, st);
			return -ETIMEDOUT;
		}
		if (left > EXEC_SLICE_MS)
			left = EXEC_SLICE_MS;
		if (poll(&pfd, open_pipe ? 1 : 0, (int)left) > 0 && exec_drain(fd, res))
			open_pipe = false;
		w = waitpid(pid, &st, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
	}
	if (open_pipe)
		exec_drain(fd, res);
	exec_status(res, st);
	return 0;
}

#define EXEC_ENVP (5 + MDP_EXEC_ENV_MAX)

/* The fixed environment, then extra's variables (NULL: none), at most MDP_EXEC_ENV_MAX. */
static int exec_env(const struct mdp_root *r, struct mdp_root_env *vars, const char *const extra[],
		    char *envp[EXEC_ENVP])
{
	size_t n = 0;

	envp[n++] = (char *)"PATH=" MDP_EXEC_PATH;
	envp[n++] = (char *)"LANG=C";
	n += mdp_root_env(r, vars, envp + n);
	for (size_t i = 0; extra && extra[i]; i++) {
		if (i == MDP_EXEC_ENV_MAX || !strchr(extra[i], '='))
			return -EINVAL;
		envp[n++] = (char *)extra[i];
	}
	envp[n] = NULL;
	return 0;
}

int mdp_exec_run(const struct mdp_root *r, const char *const argv[], unsigned timeout_ms,
		 struct mdp_exec_result *res, struct mdp_diags *d)
{
	return mdp_exec_run_watched(r, argv, timeout_ms, res, d, NULL);
}

bool mdp_exec_group_alive(long pgid)
{
	return pgid > 1 && (kill(-(pid_t)pgid, 0) == 0 || errno == EPERM);
}

/* "PID (COMM) STATE PPID PGRP ... STARTTIME": COMM may hold spaces and ')'. */
static int exec_stat_ident(char *stat, long pgid, uint64_t *start)
{
	char *p = strrchr(stat, ')'), *save = NULL, *tok, *end;
	unsigned long long v = 0, pgrp = 0;

	if (!p)
		return -EIO;
	tok = strtok_r(p + 1, " ", &save); /* field 3, the state */
	for (int field = 4; tok && field <= 22; field++) {
		if (!(tok = strtok_r(NULL, " ", &save)))
			break;
		errno = 0;
		v = strtoull(tok, &end, 10);
		if (errno || end == tok || *end)
			return -EIO;
		if (field == 5)
			pgrp = v;
	}
	if (!tok || !v)
		return -EIO;
	if (pgrp != (unsigned long long)pgid)
		return -ESRCH; /* that pid now leads no group, or another one */
	*start = (uint64_t)v;
	return 0;
}

int mdp_exec_group_ident(long pgid, struct mdp_exec_ident *id)
{
	struct mdp_root host;
	char path[64], stat[1024];
	ssize_t n;
	int err;

	if (pgid <= 1 || pgid > INT32_MAX)
		return -ESRCH;
	if ((err = mdp_root_init(&host, NULL)))
		return err;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pgid);
	n = mdp_root_read(&host, path, stat, sizeof(stat));
	err = n == -ENOENT ? -ESRCH : n < 0 ? (int)n : exec_stat_ident(stat, pgid, &id->start);
	if (!err) {
		n = mdp_root_read_value(&host, "/proc/sys/kernel/random/boot_id", id->boot,
					sizeof(id->boot));
		err = n < 0 ? (int)n : n < 8 ? -EIO : 0;
	}
	mdp_root_fini(&host);
	return err;
}

void mdp_exec_group_kill(long pgid)
{
	if (pgid > 1)
		kill(-(pid_t)pgid, SIGKILL);
}

/* Fork and run the program at path (a host path) with argv and the environment. */
static int exec_spawn(const struct mdp_root *r, const char *path, const char *const argv[],
		      const char *const extra[], unsigned timeout_ms, struct mdp_exec_result *res,
		      const struct mdp_exec_watch *w)
{
	struct mdp_root_env vars;
	char *envp[EXEC_ENVP];
	int fds[2], err;
	pid_t pid;

	if ((err = exec_env(r, &vars, extra, envp)))
		return err;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	if ((pid = fork()) < 0) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (pid == 0)
		exec_child(fds[1], path, (char *const *)argv, envp);
	setpgid(pid, pid); /* both sides: no window where a kill(-pid) misses */
	if (w && w->started)
		w->started(w->ctx, (long)pid);
	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	err = exec_wait(pid, fds[0], timeout_ms, res);
	close(fds[0]);
	return err;
}

int mdp_exec_run_watched(const struct mdp_root *r, const char *const argv[], unsigned timeout_ms,
			 struct mdp_exec_result *res, struct mdp_diags *d,
			 const struct mdp_exec_watch *w)
{
	char sys[PATH_MAX], path[PATH_MAX];
	int err;

	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	if (!argv || !argv[0])
		return -EINVAL;
	if ((err = exec_lookup(r, argv[0], sys, sizeof(sys))) || (err = exec_trust(r, sys, d)) ||
	    (err = mdp_root_path(r, sys, path, sizeof(path))))
		return err;
	return exec_spawn(r, path, argv, NULL, timeout_ms, res, w);
}

/* A program named by its path may run: nobody but root or the caller could change it. */
static int exec_named_trust(const struct mdp_root *r, const char *sys, struct mdp_diags *d)
{
	char why[PATH_MAX + 128], path[PATH_MAX];
	int err;

	if (!mdp_root_is_real(r))
		return exec_trust(r, sys, d);
	if (!(err = mdp_root_trusted(r, sys, why, sizeof(why))))
		return 0;
	if (err != -EPERM)
		return err;
	if (mdp_root_path(r, sys, path, sizeof(path)))
		snprintf(path, sizeof(path), "%s", sys);
	exec_refuse(d, path, why);
	return -EPERM;
}

int mdp_exec_run_env(const struct mdp_root *r, const char *const argv[], const char *const env[],
		     unsigned timeout_ms, struct mdp_exec_result *res, struct mdp_diags *d)
{
	char path[PATH_MAX];
	int err;

	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	if (!argv || !argv[0] || argv[0][0] != '/')
		return -EINVAL;
	if (!mdp_root_exists(r, argv[0]))
		return -ENOENT;
	if (!exec_candidate(r, argv[0]))
		return -EACCES;
	if ((err = exec_named_trust(r, argv[0], d)) ||
	    (err = mdp_root_path(r, argv[0], path, sizeof(path))))
		return err;
	return exec_spawn(r, path, argv, env, timeout_ms, res, NULL);
}
