/*
 * root_int: what root.c and root_trust.c share, and nothing outside root
 * uses (root.h is its door).
 */
#ifndef MDP_ROOT_INT_H
#define MDP_ROOT_INT_H

#include "exec.h"
#include "root.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A new temporary file beside name in dfd, mode exactly mode (its name in tmp): fd, or -errno. */
int mdp_root_tmp_create(int dfd, const char *name, mode_t mode, char *tmp, size_t cap);

/* Only absolute system paths, never one that climbs out of the root by "..". */
bool mdp_root_sys_ok(const char *sys);

/*
 * Find prog (a bare name, no '/') in MDP_EXEC_PATH under the root. path
 * gets the host path to execute. -ENOENT when none is executable, -EINVAL
 * for a name with a '/'. It does not judge trust: mdp_exec_run does.
 */
int mdp_exec_find(const struct mdp_root *r, const char *prog, char *path, size_t len);

/* Read a whole small file into buf (NUL-terminated). Returns length or -errno. */
ssize_t mdp_root_read(const struct mdp_root *r, const char *sys, char *buf, size_t cap);

#endif /* MDP_ROOT_INT_H */
