/*
 * watch_int: the room's functions its own files (and their unit tests) share,
 * kept off its door (tools/rooms.sh).
 */
#ifndef MDP_WATCH_INT_H
#define MDP_WATCH_INT_H

#include "watch.h"

/*
 * Open the files to watch for the arrays of s, and a signalfd for sigs
 * (which the caller has blocked; NULL: no signals). Files that are absent
 * are left out. 0 or -errno.
 */
int mdp_watch_open(const struct mdp_root *r, const struct mdp_system *s, const sigset_t *sigs,
		   struct mdp_watch *w);

/*
 * Read watched file i again from its start into buf (NUL-terminated,
 * trailing blanks dropped as mdp_root_read_value does): one pread on the
 * open file, which on sysfs also re-arms its event. The cheap look of a
 * watcher between two discoveries. 0 or -errno.
 */
int mdp_watch_read(const struct mdp_watch *w, size_t i, char *buf, size_t len);

/*
 * Wait up to timeout_ms (-1: no limit). Files that have become unreadable
 * leave the set (n shrinks). Returns an enum mdp_watch_event,
 * with *signo set for MDP_WATCH_SIGNAL, or -errno.
 */
int mdp_watch_wait(struct mdp_watch *w, int timeout_ms, int *signo);

/*
 * Wait up to timeout_ms for a stop signal alone: md's files are not
 * polled, so that an event md raises meanwhile stays for the next
 * mdp_watch_wait (a watcher waiting for the main lock). MDP_WATCH_SIGNAL
 * with *signo set, MDP_WATCH_TIMEOUT, or -errno.
 */
int mdp_watch_wait_signal(struct mdp_watch *w, int timeout_ms, int *signo);

#endif /* MDP_WATCH_INT_H */
