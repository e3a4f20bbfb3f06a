/* The watcher's log: see wlog.h. */
/* fopencookie: _GNU_SOURCE, which the build defines */
#include "wlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "mdp_base.h"

/* systemd connects stdout to the journal and says so: JOURNAL_STREAM is "DEV:INODE" of it. */
static bool to_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	return js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && !fstat(STDOUT_FILENO, &st) &&
	       (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

/* "2026-12-02T22:41:07+01:00 ": the box's local time, as status --watch stamps its lines. */
static size_t stamp(char *buf, size_t cap)
{
	size_t n = mdp_time_local((int64_t)time(NULL), buf, cap - 1);

	if (n)
		buf[n++] = ' ', buf[n] = '\0';
	return n;
}

static bool write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t k = write(fd, p, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		len -= (size_t)k;
	}
	return true;
}

/* The cookie of a stamped stream: its descriptor, and whether a line begins next. */
struct stamped {
	int fd;
	bool bol;
};

static ssize_t stamped_write(void *cookie, const char *buf, size_t len)
{
	struct stamped *s = cookie;
	char ts[48];
	size_t done = 0;

	while (done < len) {
		const char *nl = memchr(buf + done, '\n', len - done);
		size_t part = nl ? (size_t)(nl - (buf + done)) + 1 : len - done;
		size_t n;
		/* a bar's "\r\033[K" is for terminals, which get no stamps */
		if (s->bol && (n = stamp(ts, sizeof(ts))) && !write_all(s->fd, ts, n))
			return done ? (ssize_t)done : -1;
		if (!write_all(s->fd, buf + done, part))
			return done ? (ssize_t)done : -1;
		s->bol = nl != NULL;
		done += part;
	}
	return (ssize_t)len;
}

static int stamped_close(void *cookie)
{
	free(cookie);
	return 0;
}

static FILE *stamped_open(int fd)
{
	cookie_io_functions_t io = {.write = stamped_write, .close = stamped_close};
	struct stamped *s = malloc(sizeof(*s));
	FILE *f;

	if (!s)
		return NULL;
	s->fd = fd;
	s->bol = true;
	if (!(f = fopencookie(s, "w", io))) {
		free(s);
		return NULL;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

void wlog_open(struct wlog *l, bool real)
{
	memset(l, 0, sizeof(*l));
	l->real = real;
	fflush(stdout);
	fflush(stderr);
	if (isatty(STDOUT_FILENO)) {
		l->sink = WLOG_TTY;
	} else if (to_journal()) {
		l->sink = WLOG_JOURNAL;
		setvbuf(stdout, NULL, _IOLBF, 0);
	} else {
		l->sink = WLOG_FILE;
		l->syslog = real;
		l->saved[0] = stdout;
		l->saved[1] = stderr;
		/* glibc's stdout and stderr are variables; without the stamps, plain lines */
		if ((l->stamped[0] = stamped_open(STDOUT_FILENO)))
			stdout = l->stamped[0];
		else
			setvbuf(stdout, NULL, _IOLBF, 0);
		if ((l->stamped[1] = stamped_open(STDERR_FILENO)))
			stderr = l->stamped[1];
	}
	if (l->syslog)
		openlog("mdprofile", LOG_PID, LOG_USER);
}

void wlog_close(struct wlog *l)
{
	for (int i = 0; i < 2; i++)
		if (l->stamped[i]) {
			fclose(l->stamped[i]);
			l->stamped[i] = NULL;
		}
	if (l->saved[0])
		stdout = l->saved[0];
	if (l->saved[1])
		stderr = l->saved[1];
	l->saved[0] = l->saved[1] = NULL;
	if (l->syslog)
		closelog();
	l->syslog = false;
}

/*
 * stdout cannot be written (err): its reader went away (a closed pipe:
 * SIGPIPE is ignored) or its disk is full. The watcher goes on: stdout,
 * and stderr when it is the same file, go to /dev/null; on the real root
 * its own lines go to syslog from now on, with a line that says why.
 */
static void wlog_lost(struct wlog *l, int err)
{
	int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
	struct stat o, e;
	bool both = !fstat(STDOUT_FILENO, &o) && !fstat(STDERR_FILENO, &e) &&
		    o.st_dev == e.st_dev && o.st_ino == e.st_ino;

	if (nul >= 0) {
		if (dup2(nul, STDOUT_FILENO) < 0 || (both && dup2(nul, STDERR_FILENO) < 0))
			(void)0; /* the next write fails again and comes back here */
		close(nul);
	}
	clearerr(stdout);
	if (both)
		clearerr(stderr);
	l->lost = true;
	if (!l->real)
		return;
	if (!l->syslog)
		openlog("mdprofile", LOG_PID, LOG_USER);
	l->syslog = true;
	syslog(LOG_WARNING,
	       "the watcher's log (its stdout) cannot be written (%s): its lines go "
	       "to syslog only from now on",
	       strerror(err));
}

void wlog_line(struct wlog *l, int prio, bool shown, const char *line)
{
	if (l->sink == WLOG_JOURNAL && !l->lost)
		printf("<%d>%s\n", prio, line);
	else if (shown && !l->lost)
		printf("%s\n", line);
	errno = 0;
	if ((fflush(stdout) || ferror(stdout)) && !l->lost)
		wlog_lost(l, errno ? errno : EIO);
	/* DSM's syslog keeps warning and above: what an owner must find later is sent so */
	if (l->syslog)
		syslog(prio <= LOG_WARNING  ? prio
		       : prio == LOG_NOTICE ? LOG_WARNING
					    : LOG_INFO,
		       "%s", line);
}
