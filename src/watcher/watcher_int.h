/*
 * watcher_int: what watcher_loop.c and watcher_look.c share, and nothing
 * outside the watcher uses.
 */
#ifndef MDP_WATCHER_INT_H
#define MDP_WATCHER_INT_H

#include "watcher_loop.h"

#include <syslog.h>

/* The loop's clock (monotonic seconds): the wait source's, a test's own. */
double mdp_wl_now(const struct mdp_wloop *w);
/* A line for people, with its priority for the journal and syslog. */
void mdp_wl_log(struct mdp_wloop *w, int prio, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define wl_say(w, ...)  mdp_wl_log(w, LOG_INFO, __VA_ARGS__)
#define wl_note(w, ...) mdp_wl_log(w, LOG_NOTICE, __VA_ARGS__)
/* Whether the loop acts on array a: every array for until-idle, the profile's for auto. */
bool mdp_wl_selected(const struct mdp_wloop *w, const struct mdp_array *a);
/* A selected array running a watched operation, for the bar and the summary. */
bool mdp_wl_watched(const struct mdp_wloop *w, const struct mdp_array *a);
/* Whether a selected array runs a watched operation; the first one named in w->busy. */
bool mdp_wl_busy(struct mdp_wloop *w, const struct mdp_system *s);

#endif /* MDP_WATCHER_INT_H */
