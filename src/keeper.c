/* The watcher's processes: see keeper.h. */
#include "keeper.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "journal.h"

/* The environment the keeper starts with: the script sets its own PATH. */
#define KEEPER_PATH "PATH=/usr/sbin:/usr/bin:/sbin:/bin"

int mdp_keeper_start(const struct mdp_root *r, const char *script, long *pid, struct mdp_diags *d)
{
	char host[PATH_MAX], txt[32], why[PATH_MAX + 128];
	char *argv[] = {"/bin/sh", host, "keep-auto", NULL};
	char *envp[6] = {KEEPER_PATH, "LANG=C", "LC_ALL=C"};
	struct mdp_root_env vars;
	int logfd, nul, err, n;
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
	p = fork();
	if (p == 0) {
		sigset_t none;
		/* what the caller blocked or ignored is not the keeper's to inherit */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		/* a session of its own: a DSM task's process group is killed when the task ends */
		if (setsid() < 0 || dup2(nul, 0) < 0 || dup2(logfd, 1) < 0 || dup2(logfd, 2) < 0)
			_exit(126);
		execve(argv[0], argv, envp);
		_exit(127);
	}
	err = p < 0 ? -errno : 0;
	close(nul);
	close(logfd);
	if (err) {
		mdp_diags_add(d, NULL, 0, 0, "cannot start the watcher: %s", strerror(-err));
		return err;
	}
	*pid = (long)p;
	n = snprintf(txt, sizeof(txt), "%ld\n", *pid);
	if ((err = mdp_root_replace(r, MDP_BOOT_AUTO_PID, txt, (size_t)n, 0644)))
		mdp_diags_add(d, NULL, 0, 0, "cannot keep the watcher's pid in %s: %s",
			      MDP_BOOT_AUTO_PID, mdp_root_strerror(-err));
	return 0;
}

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
	size_t n = cmdline(pid, buf, sizeof(buf));
	int prog = n ? arg_at(buf, n, 0, "mdprofile", true) : -1;

	return prog >= 0 && arg_at(buf, n, prog + 1, "auto", false) > prog;
}

/* The script's keeper: SCRIPT (its host path) then keep-auto. */
static bool is_keeper(long pid, const char *host)
{
	char buf[4096];
	size_t n = cmdline(pid, buf, sizeof(buf));
	int s = n ? arg_at(buf, n, 0, host, false) : -1;

	return s >= 0 && arg_at(buf, n, s + 1, "keep-auto", false) == s + 1;
}

void mdp_keeper_stop(const struct mdp_root *r, const char *script, struct mdp_keeper_stop *st)
{
	char buf[32], host[PATH_MAX];
	struct mdp_wstate ws;
	long pid;

	st->keeper = st->watcher = 0;
	if (script && !mdp_root_path(r, script, host, sizeof(host)) &&
	    mdp_root_read_value(r, MDP_BOOT_AUTO_PID, buf, sizeof(buf)) > 0 &&
	    (pid = strtol(buf, NULL, 10)) > 1) {
		(void)mdp_root_unlink(r, MDP_BOOT_AUTO_PID);
		/* first, so that it does not start the watcher again */
		if (is_keeper(pid, host) && !kill((pid_t)pid, SIGTERM))
			st->keeper = pid;
	}
	/* The state file names the watcher only while it holds the watcher lock. */
	if (mdp_watcher_probe(r) == 1 && !mdp_wstate_load(r, &ws) && ws.mode == MDP_BY_AUTO &&
	    ws.pid > 1 && is_watcher(ws.pid) && !kill((pid_t)ws.pid, SIGTERM))
		st->watcher = ws.pid;
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

bool mdp_keeper_wait_gone(const struct mdp_root *r, unsigned ms)
{
	for (unsigned t = 0;; t += 50) {
		if (mdp_watcher_probe(r) != 1)
			return true;
		if (t >= ms)
			return false;
		nap_ms(50);
	}
}

long mdp_keeper_wait_armed(const struct mdp_root *r, long keeper, unsigned ms)
{
	struct mdp_wstate ws;

	for (unsigned t = 0;; t += 50) {
		if (mdp_watcher_probe(r) == 1 && !mdp_wstate_load(r, &ws) && ws.mode == MDP_BY_AUTO)
			return ws.pid;
		if (keeper > 0 && waitpid((pid_t)keeper, NULL, WNOHANG) == (pid_t)keeper)
			return -1;
		if (t >= ms)
			return 0;
		nap_ms(50);
	}
}
