/*
 * grow: the one way an array grows by an element. vp is the address of
 * the array's pointer (struct x **), which is read and written whole
 * through memcpy, so any element type goes in without a cast. The size is
 * checked for overflow; when memory runs out nothing changes.
 */
#ifndef MDP_GROW_H
#define MDP_GROW_H

#include <stddef.h>

/* Room for element n after the n in *vp, each size bytes: 0 or -ENOMEM. */
int mdp_grow(void *vp, size_t n, size_t size);

/* A zeroed element appended to *vp, *n counted: its address, or NULL. */
void *mdp_push(void *vp, size_t *n, size_t size);

/*
 * Room for element n in *vp, which holds *cap elements: the capacity
 * doubles (16 first), so appending many elements costs amortised O(1)
 * each. For lists that can run to thousands (directory listings, capture
 * files, diskstats lines). 0 or -ENOMEM; *cap counts the room.
 */
int mdp_grow_cap(void *vp, size_t n, size_t *cap, size_t size);

/* Free the n strings of v (each malloc'd, NULL ones allowed) and v itself. */
void mdp_strs_free(char **v, size_t n);

#endif
