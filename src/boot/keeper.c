/* The watcher's processes: see keeper.h. */
#include "keeper.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "mdp_base.h"
#include "boot_int.h"

/* The environment the keeper starts with: the script sets its own PATH. */
#define KEEPER_PATH "PATH=/usr/sbin:/usr/bin:/sbin:/bin"

/* The child's side of mdp_keeper_start: never returns. */
__attribute__((noreturn)) static void keeper_exec(char *const argv[], char *const envp[], int nul,
						  int logfd)
{
	sigset_t none;

	/* what the caller blocked or ignored is not the keeper's to inherit */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	/* a log reader gone is no reason to die: ignored, as the script does too */
	signal(SIGPIPE, SIG_IGN);
	/* a session of its own: a DSM task's process group is killed when the task ends */
	if (setsid() < 0 || dup2(nul, 0) < 0 || dup2(logfd, 1) < 0 || dup2(logfd, 2) < 0)
		_exit(126);
	execve(argv[0], argv, envp);
	_exit(127);
}

int mdp_keeper_start(const struct mdp_root *r, const char *script, long *pid, struct mdp_diags *d)
{
	char host[PATH_MAX], why[PATH_MAX + 128];
	char *argv[] = {"/bin/sh", host, "keep-auto", NULL};
	char *envp[6] = {KEEPER_PATH, "LANG=C", "LC_ALL=C"};
	struct mdp_root_env vars;
	int logfd, nul, err;
	pid_t p;

	*pid = 0;
	if ((err = mdp_root_path(r, script, host, sizeof(host))))
		return err;
	/* the script runs the binary it names: a tree's programs, as exec.h runs them */
	if ((err = mdp_root_exec_trusted(r, script, why, sizeof(why)))) {
		mdp_diags_add(d, host, 0, 0, "refusing to start the watcher: %s",
			      err == -EPERM ? why : mdp_root_strerror(-err));
		return err;
	}
	envp[3 + mdp_root_env(r, &vars, envp + 3)] = NULL;
	(void)mdp_root_mkdir_p(r, "/var/log", 0755);
	logfd =
	    mdp_root_open(r, MDP_BOOT_AUTO_LOG,
			  O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0640);
	if (logfd < 0) {
		mdp_diags_add(d, NULL, 0, 0, "cannot open the watcher's log %s: %s",
			      MDP_BOOT_AUTO_LOG, mdp_root_strerror(-logfd));
		return logfd;
	}
	if ((nul = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		err = -errno;
		close(logfd);
		return err;
	}
	if ((p = fork()) == 0)
		keeper_exec(argv, envp, nul, logfd);
	err = p < 0 ? -errno : 0;
	close(nul);
	close(logfd);
	if (err) {
		mdp_diags_add(d, NULL, 0, 0, "cannot start the watcher: %s", strerror(-err));
		return err;
	}
	*pid = (long)p;
	return 0;
}

/* ---- processes ---------------------------------------------------------------------- */

/* /proc/PID/cmdline (this host's: a process is one whatever the root): its bytes, or 0. */
static size_t cmdline(long pid, char *buf, size_t cap)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return (size_t)n;
}

/* Is arg, NUL-separated in buf (n bytes), at or after from? Its index, else -1. */
static int arg_at(const char *buf, size_t n, int from, const char *arg, bool base)
{
	int i = 0;

	for (size_t k = 0; k < n; k += strlen(buf + k) + 1, i++) {
		const char *a = buf + k, *slash = strrchr(a, '/');
		if (i < from)
			continue;
		if (base ? !strncmp(slash ? slash + 1 : a, arg, strlen(arg)) : !strcmp(a, arg))
			return i;
	}
	return -1;
}

/* An mdprofile's `auto`: a program named mdprofile* (or run by a wrapper), then auto. */
static bool is_watcher(long pid)
{
	char buf[4096];
	size_t n = pid > 1 ? cmdline(pid, buf, sizeof(buf)) : 0;
	int prog = n ? arg_at(buf, n, 0, "mdprofile", true) : -1;

	return prog >= 0 && arg_at(buf, n, prog + 1, "auto", false) > prog;
}

/* The script's keeper: SCRIPT (its host path) then keep-auto. */
static bool is_keeper(long pid, const char *host)
{
	char buf[4096];
	size_t n = pid > 1 ? cmdline(pid, buf, sizeof(buf)) : 0;
	int s = n ? arg_at(buf, n, 0, host, false) : -1;

	return s >= 0 && arg_at(buf, n, s + 1, "keep-auto", false) == s + 1;
}

/* /proc/PID/stat's state letter and session: 0, or -errno when there is no such process. */
static int proc_stat(long pid, char *state, long *sid)
{
	char path[64], buf[1024], *p;
	long ppid, pgrp;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -ESRCH;
	buf[n] = '\0';
	/* after the command's name, which may hold spaces and parentheses */
	if (!(p = strrchr(buf, ')')) ||
	    sscanf(p + 1, " %c %ld %ld %ld", state, &ppid, &pgrp, sid) != 4)
		return -EINVAL;
	return 0;
}

/* Does pid run (a zombie has ended: its parent has not reaped it yet)? */
static bool alive(long pid)
{
	char state;
	long sid;

	return pid > 1 && !proc_stat(pid, &state, &sid) && state != 'Z' && state != 'X';
}

/* ---- the locks, as they are seen ---------------------------------------------------- */

/* The pid a lock file begins with, 0 none. */
static long lock_pid(const char *text)
{
	uint64_t v;

	return mdp_num_lead(text, strlen(text), &v, NULL) || v < 2 || v > INT32_MAX ? 0 : (long)v;
}

void mdp_keeper_look(const struct mdp_root *r, const char *script, struct mdp_keeper *k)
{
	char text[128], host[PATH_MAX], *at, *nl;
	uint64_t t;

	memset(k, 0, sizeof(*k));
	if ((k->held = mdp_lock_seen(r, MDP_BOOT_AUTO_LOCK, text, sizeof(text))) != 1)
		return;
	k->pid = lock_pid(text);
	if (script && (mdp_root_path(r, script, host, sizeof(host)) || !is_keeper(k->pid, host)))
		k->pid = 0;
	if ((nl = strchr(text, '\n')))
		*nl = '\0';
	if ((at = strstr(text, " restart ")) && !mdp_num_parse(at + 9, 1, INT64_MAX, &t))
		k->restart = (int64_t)t;
}

/* The boot script: SCRIPT (its host path) as the shell's operand, then nothing or start. */
static bool is_boot(long pid, const char *host)
{
	char buf[4096];
	size_t n = pid > 1 ? cmdline(pid, buf, sizeof(buf)) : 0;
	int s = n ? arg_at(buf, n, 1, host, false) : -1, args = 0;

	for (size_t k = 0; k < n; k += strlen(buf + k) + 1)
		args++;
	return s >= 1 &&
	       (args == s + 1 || (args == s + 2 && arg_at(buf, n, s + 1, "start", false) == s + 1));
}

void mdp_keeper_boot(const struct mdp_root *r, const char *script, struct mdp_enable_boot *b)
{
	char host[PATH_MAX], step[16];
	char *text = NULL;
	size_t len;
	long long until = 0;
	long pid;

	memset(b, 0, sizeof(*b));
	if (mdp_root_read_all(r, MDP_BOOT_MARK, &text, &len))
		return;
	pid = lock_pid(text);
	if (sscanf(text, "%*s %15s %lld", step, &until) >= 1 && pid && alive(pid) &&
	    !mdp_root_path(r, script, host, sizeof(host)) && is_boot(pid, host)) {
		b->pid = pid;
		snprintf(b->step, sizeof(b->step), "%s", step);
		b->until = until > 0 ? (int64_t)until : 0;
	}
	free(text);
}

void mdp_keeper_watcher(const struct mdp_root *r, struct mdp_keeper_watcher *w)
{
	struct mdp_wstate ws;
	char text[64];
	long hint;
	bool st;

	memset(w, 0, sizeof(*w));
	w->mode = MDP_BY_COUNT;
	if ((w->held = mdp_lock_seen(r, MDP_WATCHER_LOCK, text, sizeof(text))) != 1)
		return;
	/* the holder wrote its pid into the lock: the state file is believed for that pid */
	hint = lock_pid(text);
	st = !mdp_wstate_load(r, &ws) && (!hint || ws.pid == hint) && alive(ws.pid);
	if (st && ws.mode == MDP_BY_AUTO && is_watcher(ws.pid)) {
		w->pid = ws.pid;
		return;
	}
	w->holder = st ? ws.pid : hint;
	w->mode = st ? ws.mode : MDP_BY_COUNT;
}

/* ---- stopping ----------------------------------------------------------------------- */

static void stopped(struct mdp_keeper_stop *st, long pid)
{
	for (size_t i = 0; i < st->n_keeper; i++)
		if (st->keeper[i] == pid)
			return;
	if (st->n_keeper < MDP_KEEPER_MAX && !kill((pid_t)pid, SIGTERM))
		st->keeper[st->n_keeper++] = pid;
}

/* Every session leader whose command line is host's keeper, SIGTERM'd into st. */
static void stop_leaders(const char *host, struct mdp_keeper_stop *st)
{
	DIR *dir = opendir("/proc");
	struct dirent *e;
	uint64_t v;
	long sid;
	char state;

	if (!dir)
		return;
	while ((e = readdir(dir)))
		if (!mdp_num_parse(e->d_name, 2, INT32_MAX, &v) &&
		    !proc_stat((long)v, &state, &sid) && sid == (long)v && state != 'Z' &&
		    is_keeper((long)v, host))
			stopped(st, (long)v);
	closedir(dir);
}

void mdp_keeper_stop_keepers(const struct mdp_root *r, const char *script,
			     struct mdp_keeper_stop *st)
{
	char buf[32], host[PATH_MAX];
	struct mdp_keeper k;

	if (!script || mdp_root_path(r, script, host, sizeof(host)))
		return;
	/* first, so that none starts the watcher again */
	mdp_keeper_look(r, script, &k);
	if (k.pid)
		stopped(st, k.pid);
	if (mdp_root_read_value(r, MDP_BOOT_AUTO_PID, buf, sizeof(buf)) > 0 &&
	    is_keeper(lock_pid(buf), host))
		stopped(st, lock_pid(buf));
	(void)mdp_root_unlink(r, MDP_BOOT_AUTO_PID);
	stop_leaders(host, st);
}

void mdp_keeper_stop(const struct mdp_root *r, const char *script, struct mdp_keeper_stop *st)
{
	struct mdp_keeper_watcher w;

	memset(st, 0, sizeof(*st));
	/* seen first: a keeper stops its watcher too, which may then be gone when signalled */
	mdp_keeper_watcher(r, &w);
	mdp_keeper_stop_keepers(r, script, st);
	if (w.pid && (!kill((pid_t)w.pid, SIGTERM) || errno == ESRCH))
		st->watcher = w.pid;
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static bool all_gone(const struct mdp_root *r, const struct mdp_keeper_stop *st)
{
	char text[128];

	if (st->watcher && alive(st->watcher))
		return false;
	for (size_t i = 0; i < st->n_keeper; i++)
		if (alive(st->keeper[i]))
			return false;
	/* the lock goes with the last process that has it open */
	return !st->n_keeper || mdp_lock_seen(r, MDP_BOOT_AUTO_LOCK, text, sizeof(text)) != 1;
}

bool mdp_keeper_wait_gone(const struct mdp_root *r, const struct mdp_keeper_stop *st, unsigned ms)
{
	for (unsigned t = 0;; t += 50) {
		if (all_gone(r, st))
			return true;
		if (t >= ms)
			return false;
		nap_ms(50);
	}
}

long mdp_keeper_wait_armed(const struct mdp_root *r, long keeper, unsigned ms)
{
	struct mdp_keeper_watcher w;
	struct mdp_keeper k;
	pid_t end;

	for (unsigned t = 0;; t += 50) {
		mdp_keeper_watcher(r, &w);
		if (w.pid)
			return w.pid;
		/* ours ended: it found another keeper's lock (that one is waited for), or failed */
		if (keeper > 0 && ((end = waitpid((pid_t)keeper, NULL, WNOHANG)) == (pid_t)keeper ||
				   (end < 0 && errno == ECHILD)))
			keeper = 0;
		mdp_keeper_look(r, NULL, &k);
		if ((keeper <= 0 && k.held != 1) || (k.held == 1 && k.restart))
			return -1;
		if (t >= ms)
			return 0;
		nap_ms(50);
	}
}
