/*
 * watch: one poll() over md's event files and the stop signals (see
 * watch.h).
 */
#include "watch.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Read the file to its end: md re-arms POLLPRI only for a reader that has
 * seen the change. false when it cannot be read: a stopped array's
 * attribute (kernfs answers ENODEV, and POLLERR to every poll for ever).
 */
static bool drain(int fd)
{
	char buf[4096];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		;
	return n == 0;
}

/* sysfs and procfs attributes are regular files; anything else in a tree is left out. */
static int add_file(const struct mdp_root *r, const char *sys, int arr, struct mdp_watch *w)
{
	int fd = mdp_root_open(r, sys, O_RDONLY | O_NONBLOCK, 0);
	struct stat st;

	/* ENODEV: the array was stopped between discovery and now */
	if (fd == -ENOENT || fd == -ENODEV)
		return 0;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !drain(fd)) { /* drain arms it */
		close(fd);
		return 0;
	}
	w->arr[w->n] = arr;
	w->fds[w->n++] = fd;
	return 0;
}

/* Stop watching file i: it will never report anything but an error again. */
static void drop_file(struct mdp_watch *w, size_t i, bool open)
{
	if (open)
		close(w->fds[i]);
	memmove(&w->fds[i], &w->fds[i + 1], (w->n - i - 1) * sizeof(*w->fds));
	memmove(&w->arr[i], &w->arr[i + 1], (w->n - i - 1) * sizeof(*w->arr));
	w->n--;
}

int mdp_watch_open(const struct mdp_root *r, const struct mdp_system *s, const sigset_t *sigs,
		   struct mdp_watch *out)
{
	struct mdp_watch w = {.sfd = -1};
	char path[PATH_MAX];
	int err = 0;

	w.fds = calloc(s->n_arrays + 1, sizeof(*w.fds));
	w.arr = calloc(s->n_arrays + 1, sizeof(*w.arr));
	w.p = calloc(s->n_arrays + 2, sizeof(*w.p));
	if (!w.fds || !w.arr || !w.p) {
		mdp_watch_close(&w);
		return -ENOMEM;
	}
	if (sigs && (w.sfd = signalfd(-1, sigs, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
		err = -errno;
	if (!err)
		err = add_file(r, "/proc/mdstat", -1, &w);
	for (size_t i = 0; i < s->n_arrays && !err; i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/md/sync_action", s->arrays[i].name);
		err = add_file(r, path, (int)i, &w);
	}
	if (err) {
		mdp_watch_close(&w);
		return err;
	}
	*out = w;
	return 0;
}

/* The signal a signalfd has for us, or 0. */
static int take_signal(int sfd)
{
	struct signalfd_siginfo si;

	if (read(sfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return 0;
	return (int)si.ssi_signo;
}

int mdp_watch_wait(struct mdp_watch *w, int timeout_ms, int *signo)
{
	struct pollfd *p = w->p;
	size_t n = 0;
	int rc;

	if (w->sfd >= 0)
		p[n++] = (struct pollfd){.fd = w->sfd, .events = POLLIN};
	for (size_t i = 0; i < w->n; i++)
		p[n++] = (struct pollfd){.fd = w->fds[i], .events = POLLPRI};
	if ((rc = poll(p, n, timeout_ms)) < 0)
		return errno == EINTR ? MDP_WATCH_MD : -errno;
	if (rc == 0)
		return MDP_WATCH_TIMEOUT;
	if (w->sfd >= 0 && (p[0].revents & POLLIN) && (*signo = take_signal(w->sfd)))
		return MDP_WATCH_SIGNAL;
	/*
	 * Backwards, so that dropping file k leaves the indexes below it as
	 * they were. A file that reports an error and cannot be read, or is no
	 * longer open (POLLNVAL), would wake every poll at once: it goes. The
	 * caller looks again (this event) and sees what changed.
	 */
	for (size_t i = w->n; i-- > 0;) {
		short rev = p[i + (w->sfd >= 0)].revents;
		if (rev & POLLNVAL)
			drop_file(w, i, false);
		else if ((rev & (POLLPRI | POLLERR | POLLHUP)) && !drain(w->fds[i]))
			drop_file(w, i, true);
	}
	return MDP_WATCH_MD;
}

int mdp_watch_wait_signal(struct mdp_watch *w, int timeout_ms, int *signo)
{
	struct pollfd p = {.fd = w->sfd, .events = POLLIN};
	int rc;

	if ((rc = poll(&p, w->sfd >= 0, timeout_ms)) < 0)
		return errno == EINTR ? MDP_WATCH_TIMEOUT : -errno;
	if (rc && (p.revents & POLLIN) && (*signo = take_signal(w->sfd)))
		return MDP_WATCH_SIGNAL;
	return MDP_WATCH_TIMEOUT;
}

int mdp_watch_read(const struct mdp_watch *w, size_t i, char *buf, size_t len)
{
	ssize_t n;

	if (i >= w->n || !len)
		return -EINVAL;
	do
		n = pread(w->fds[i], buf, len - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	/* as mdp_root_read_value: what discovery compares is the same word */
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = '\0';
	return 0;
}

bool mdp_watch_running(const struct mdp_array *a)
{
	static const char *const ops[] = {"resync", "recover", "reshape", "check", "repair"};

	if (a->sync_queued[0] || a->no_sync_thread)
		return false;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(a->sync_action, ops[i]))
			return true;
	return false;
}

const char *mdp_watch_signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM";
}

void mdp_watch_close(struct mdp_watch *w)
{
	if (w->sfd >= 0)
		close(w->sfd);
	for (size_t i = 0; i < w->n; i++)
		close(w->fds[i]);
	free(w->fds);
	free(w->arr);
	free(w->p);
	w->fds = NULL;
	w->arr = NULL;
	w->p = NULL;
	w->n = 0;
	w->sfd = -1;
}

/* ---- the plain ops: the functions above, CLOCK_MONOTONIC --------------------------- */

static double plain_now(const struct mdp_watch_ops *self)
{
	(void)self;
	return (double)mdp_mono_ns() / 1e9;
}

static int plain_open(const struct mdp_watch_ops *self, const struct mdp_root *r,
		      const struct mdp_system *s, const sigset_t *sigs, struct mdp_watch *w)
{
	(void)self;
	return mdp_watch_open(r, s, sigs, w);
}

static int plain_wait(const struct mdp_watch_ops *self, struct mdp_watch *w, int timeout_ms,
		      int *signo)
{
	(void)self;
	return mdp_watch_wait(w, timeout_ms, signo);
}

static int plain_wait_signal(const struct mdp_watch_ops *self, struct mdp_watch *w, int timeout_ms,
			     int *signo)
{
	(void)self;
	return mdp_watch_wait_signal(w, timeout_ms, signo);
}

static int plain_read(const struct mdp_watch_ops *self, const struct mdp_watch *w, size_t i,
		      char *buf, size_t len)
{
	(void)self;
	return mdp_watch_read(w, i, buf, len);
}

static void plain_close(const struct mdp_watch_ops *self, struct mdp_watch *w)
{
	(void)self;
	mdp_watch_close(w);
}

const struct mdp_watch_ops mdp_watch_plain_ops = {
    .now = plain_now,
    .open = plain_open,
    .wait = plain_wait,
    .wait_signal = plain_wait_signal,
    .read = plain_read,
    .close = plain_close,
};
