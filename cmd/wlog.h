/*
 * The watcher's log (mdprofile auto, apply --until-idle): where its lines
 * go, decided once at its start from what stdout is.
 *
 *   a terminal      as they are (a progress bar beside them, in auto.c)
 *   the journal     systemd's stream (JOURNAL_STREAM names stdout): each of
 *                   the watcher's own lines with its priority, "<5>..."
 *                   (sd-daemon(3)); the journal keeps the time; no syslog
 *   anything else   a log file, a pipe: every line, the transaction's and
 *                   errors too, begins with its time in ISO 8601, the box's
 *                   local time with its offset as status --watch stamps its
 *                   lines ("2026-12-02T22:41:07+01:00 "); on the real root the
 *                   watcher's own lines also go to syslog, facility user,
 *                   engage, release and give-up at warning (DSM's syslog
 *                   keeps warning and above), progress at info
 *
 * Every line is out when it is written (line-buffered), not at the exit.
 * A line that cannot be written (the log's reader gone: SIGPIPE is
 * ignored; a full disk) ends nothing: from then on stdout is /dev/null and
 * on the real root the watcher's own lines go to syslog, with one that
 * says why; under --root they are dropped.
 */
#ifndef MDP_CMD_WLOG_H
#define MDP_CMD_WLOG_H

#include <stdbool.h>
#include <stdio.h>

enum wlog_sink { WLOG_TTY, WLOG_JOURNAL, WLOG_FILE };

struct wlog {
	enum wlog_sink sink;
	bool syslog; /* the watcher's own lines to syslog too */
	bool real;   /* the real root: syslog may be written */
	bool lost;   /* stdout could not be written: its lines are no longer shown */
	FILE *saved[2];
	FILE *stamped[2]; /* stdout and stderr with times, WLOG_FILE */
};

/* Look at stdout and set the log up; real: the real root (syslog only there). */
void wlog_open(struct wlog *l, bool real);
/* stdout and stderr as they were. */
void wlog_close(struct wlog *l);
/*
 * One of the watcher's lines (no newline) at a syslog priority: LOG_NOTICE
 * for what an owner must see later (engage, release, the summary),
 * LOG_WARNING for a give-up, LOG_ERR for a failure, LOG_INFO for progress.
 * shown: whether it goes to stdout (not under -q); syslog gets it anyway.
 */
void wlog_line(struct wlog *l, int prio, bool shown, const char *line);

#endif
