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

#endif
