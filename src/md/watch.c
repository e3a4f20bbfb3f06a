/*
 * watch: one poll() over md's event files and the stop signals (see
 * watch.h).
 */
#include "watch.h"
#include "mdp_base.h"
#include "watch_int.h"

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

/*
 * Watch sys for array arr of the system (-1: /proc/mdstat), named name ("" for /proc/mdstat).
 * sysfs and procfs attributes are regular files; anything else in a tree is left out.
 */
static int add_file(const struct mdp_root *r, const char *sys, int arr, const char *name,
		    struct mdp_watch *w)
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
	snprintf(w->name[w->n], sizeof(w->name[w->n]), "%s", name);
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
	memmove(&w->name[i], &w->name[i + 1], (w->n - i - 1) * sizeof(*w->name));
	w->n--;
}

/* Room for the signalfd and n files (the caller's w->sfd kept); -ENOMEM. */
static int watch_alloc(struct mdp_watch *w, size_t n)
{
	w->fds = calloc(n + 1, sizeof(*w->fds));
	w->arr = calloc(n + 1, sizeof(*w->arr));
	w->name = calloc(n + 1, sizeof(*w->name));
	w->p = calloc(n + 2, sizeof(*w->p));
	return w->fds && w->arr && w->name && w->p ? 0 : -ENOMEM;
}

int mdp_watch_open(const struct mdp_root *r, const struct mdp_system *s, const sigset_t *sigs,
		   struct mdp_watch *out)
{
	struct mdp_watch w = {.sfd = -1};
	char path[PATH_MAX];
	int err;

	if ((err = watch_alloc(&w, s->n_arrays))) {
		mdp_watch_close(&w);
		return err;
	}
	if (sigs && (w.sfd = signalfd(-1, sigs, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
		err = -errno;
	if (!err)
		err = add_file(r, "/proc/mdstat", -1, "", &w);
	for (size_t i = 0; i < s->n_arrays && !err; i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/md/sync_action", s->arrays[i].name);
		err = add_file(r, path, (int)i, s->arrays[i].name, &w);
	}
	if (err) {
		mdp_watch_close(&w);
		return err;
	}
	*out = w;
	return 0;
}

/* Whether fd, open, is still the file at sys (a stopped array's next one is another). */
static bool same_file(const struct mdp_root *r, const char *sys, int fd)
{
	int at = mdp_root_open(r, sys, O_PATH, 0);
	struct stat a, b;
	bool same;

	if (at < 0)
		return false;
	same = !fstat(fd, &a) && !fstat(at, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	close(at);
	return same;
}

/* Move w's file named name to nw, as array arr's; false when w has none. */
static bool keep_file(struct mdp_watch *w, const char *name, int arr, struct mdp_watch *nw)
{
	for (size_t i = 0; i < w->n; i++) {
		if (w->fds[i] < 0 || strcmp(w->name[i], name))
			continue;
		nw->arr[nw->n] = arr;
		memcpy(nw->name[nw->n], w->name[i], sizeof(w->name[i]));
		nw->fds[nw->n++] = w->fds[i];
		w->fds[i] = -1;
		return true;
	}
	return false;
}

/* The index of the file named name in w, or w->n. */
static size_t find_file(const struct mdp_watch *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->fds[i] >= 0 && !strcmp(w->name[i], name))
			break;
	return i;
}

int mdp_watch_follow(const struct mdp_root *r, const struct mdp_system *s, struct mdp_watch *w)
{
	struct mdp_watch nw = {.sfd = w->sfd};
	char path[PATH_MAX];
	int err;

	if ((err = watch_alloc(&nw, s->n_arrays)))
		goto out;
	(void)keep_file(w, "", -1, &nw); /* /proc/mdstat, armed since it was last read */
	for (size_t k = 0; k < s->n_arrays && !err; k++) {
		const char *name = s->arrays[k].name;
		size_t i = find_file(w, name);
		snprintf(path, sizeof(path), "/sys/block/%s/md/sync_action", name);
		if (i < w->n && same_file(r, path, w->fds[i]))
			(void)keep_file(w, name, (int)k, &nw);
		else
			err = add_file(r, path, (int)k, name, &nw);
	}
out:
	if (err) { /* nothing watched: the caller stops */
		nw.sfd = -1;
		mdp_watch_close(&nw);
		mdp_watch_close(w);
		return err;
	}
	w->sfd = -1;        /* nw's now */
	mdp_watch_close(w); /* the files of arrays gone, or no longer the same */
	*w = nw;
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
		if (w->fds[i] >= 0)
			close(w->fds[i]);
	free(w->fds);
	free(w->arr);
	free(w->name);
	free(w->p);
	w->fds = NULL;
	w->arr = NULL;
	w->name = NULL;
	w->p = NULL;
	w->n = 0;
	w->sfd = -1;
}

int mdp_watch_next(const struct mdp_root *r, const struct mdp_system *s, struct mdp_watch *w,
		   int timeout_ms)
{
	int sig, err = w->p ? mdp_watch_follow(r, s, w) : mdp_watch_open(r, s, NULL, w);

	return err ? err : mdp_watch_wait(w, timeout_ms, &sig);
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

static int plain_follow(const struct mdp_watch_ops *self, const struct mdp_root *r,
			const struct mdp_system *s, struct mdp_watch *w)
{
	(void)self;
	return mdp_watch_follow(r, s, w);
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
    .follow = plain_follow,
    .wait = plain_wait,
    .wait_signal = plain_wait_signal,
    .read = plain_read,
    .close = plain_close,
};
