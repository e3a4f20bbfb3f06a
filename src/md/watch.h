/*
 * watch: wait for md to say that something changed, or for a stop
 * signal, or for a timeout, in one poll() and without spinning.
 *
 * md wakes pollers of /proc/mdstat on every array event (md_event_count:
 * a sync starting or ending, a disk failing, an array started or stopped)
 * and of md/sync_action whenever the action changes (sysfs_notify), with
 * POLLPRI|POLLERR; each must be read again to re-arm. The regular files of
 * a fixture tree never report POLLPRI, so there the timeout alone paces
 * the caller. A file that reports an error and can no longer be read (a
 * stopped array's attribute: kernfs says POLLERR at once, for ever) is
 * dropped from the set after the event it caused, so the wait never spins.
 * Stop signals come through a signalfd: the caller blocks them
 * first (mutating commands do once they hold the lock).
 *
 * md arms a file for the reader at its open and at each read (its event
 * count then): an event raised before a file is opened never wakes a poll
 * on it. A watcher that reads md's state again after an event therefore
 * keeps its files open across that read (mdp_watch_follow) instead of
 * opening them after it, where an event raised meanwhile would be lost.
 */
#ifndef MDP_WATCH_H
#define MDP_WATCH_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "discover.h"
#include "mdp_base.h"

struct mdp_watch {
	int sfd;  /* signalfd of the stop signals, -1 without */
	int *fds; /* /proc/mdstat, then each array's md/sync_action, as long as readable */
	int *arr; /* each file's array: its index in the system opened for, -1 /proc/mdstat */
	char (*name)[MDP_NAME_MAX]; /* each file's array's name, "" for /proc/mdstat */
	size_t n;
	struct pollfd *p; /* room for the signalfd and every file */
};

enum mdp_watch_event {
	MDP_WATCH_TIMEOUT = 0, /* the interval passed */
	MDP_WATCH_MD,          /* md reported an event: read the state again */
	MDP_WATCH_SIGNAL,      /* a stop signal arrived (and was consumed) */
};

/*
 * Follow the arrays of s (a discovery newer than w's): the files of arrays
 * w watches stay open as they are, so that an event md raised since they
 * were last read, during that discovery say, is still reported; the files
 * of arrays gone (or whose file is another now: stopped and started again)
 * are closed; new arrays' are opened. The signalfd and /proc/mdstat stay.
 * 0, or -errno with nothing watched (w closed).
 */
int mdp_watch_follow(const struct mdp_root *r, const struct mdp_system *s, struct mdp_watch *w);
void mdp_watch_close(struct mdp_watch *w);
/*
 * The next wait for md's events on the arrays of s, a discovery's, up to
 * timeout_ms, no signals (status --watch, between two redraws): the watch w
 * is opened at the first call ({.sfd = -1} before it) and follows s at the
 * next ones, its files kept open as the watcher keeps them, so that an event
 * md raised while s was read is not lost. mdp_watch_close(w) at the end.
 * MDP_WATCH_MD, MDP_WATCH_TIMEOUT, or -errno (w closed on a failed follow).
 */
int mdp_watch_next(const struct mdp_root *r, const struct mdp_system *s, struct mdp_watch *w,
		   int timeout_ms);

/*
 * What a watcher waits on, as a const ops table (root.h's style: each op
 * gets its own table, so that a test's stand-in finds its state around
 * it): its clock and the watch's open, follow, wait, wait_signal, read
 * and close, each as the function above of its name. mdp_watch_plain_ops is that: the functions
 * above and CLOCK_MONOTONIC (clock.h). A unit test gives its own, which
 * says when md raises an event, when a stop signal comes and what time it
 * is, so that it drives the watcher's loop turn by turn without a sleep.
 */
struct mdp_watch_ops {
	double (*now)(const struct mdp_watch_ops *self); /* monotonic seconds */
	int (*open)(const struct mdp_watch_ops *self, const struct mdp_root *r,
		    const struct mdp_system *s, const sigset_t *sigs, struct mdp_watch *w);
	int (*follow)(const struct mdp_watch_ops *self, const struct mdp_root *r,
		      const struct mdp_system *s, struct mdp_watch *w);
	int (*wait)(const struct mdp_watch_ops *self, struct mdp_watch *w, int timeout_ms,
		    int *signo);
	int (*wait_signal)(const struct mdp_watch_ops *self, struct mdp_watch *w, int timeout_ms,
			   int *signo);
	int (*read)(const struct mdp_watch_ops *self, const struct mdp_watch *w, size_t i,
		    char *buf, size_t len);
	void (*close)(const struct mdp_watch_ops *self, struct mdp_watch *w);
};
extern const struct mdp_watch_ops mdp_watch_plain_ops;
/*
 * Whether md is working on a: resync, recover, reshape, check or repair
 * under way. One only queued (DELAYED behind another array on the same
 * disks, PENDING until the first write) is not, nor idle or frozen.
 */
bool mdp_watch_running(const struct mdp_array *a);
/* The name of a stop signal: "SIGINT", "SIGHUP", else "SIGTERM". */
const char *mdp_watch_signal_name(int sig);

#endif
