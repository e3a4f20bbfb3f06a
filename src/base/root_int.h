/*
 * root_int: what root.c and root_trust.c share, and nothing outside root
 * uses (root.h is its door).
 */
#ifndef MDP_ROOT_INT_H
#define MDP_ROOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A new temporary file beside name in dfd, mode exactly mode (its name in tmp): fd, or -errno. */
int mdp_root_tmp_create(int dfd, const char *name, mode_t mode, char *tmp, size_t cap);

/* Only absolute system paths, never one that climbs out of the root by "..". */
bool mdp_root_sys_ok(const char *sys);

#endif /* MDP_ROOT_INT_H */
