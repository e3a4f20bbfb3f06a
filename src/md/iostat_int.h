/* iostat_int: what iostat's files share (iostat.c, iostat_share.c). */
#ifndef MDP_IOSTAT_INT_H
#define MDP_IOSTAT_INT_H

#include "iostat.h"

/* One stat file's counters into c: false when it cannot be read or parsed. */
bool mdp_iostat_read_count(const struct mdp_root *r, const char *path, struct mdp_io_count *c);

/*
 * Parse one stat file's text into c. -EINVAL when it has fewer than the
 * eight fields used or one is not a number.
 */
int mdp_iostat_parse(const char *text, struct mdp_io_count *c);

#endif
