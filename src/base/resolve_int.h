/*
 * resolve: open a path beneath a directory without ever leaving it.
 *
 * --root points mdprofile at a tree that stands in for "/". O_NOFOLLOW
 * guards only the last component: a directory symlink on the way (say
 * proc/sys/dev/raid -> /elsewhere) would send writes, the journal and the
 * lock out of the tree. Linux 5.6+ resolves beneath a directory itself
 * (openat2 with RESOLVE_BENEATH); DSM's kernels (3.10 to 5.10) mostly
 * cannot, so the same rules are kept by a component walk there. Both ways:
 *   - a symlink whose target is relative and stays beneath the directory
 *     is followed: sysfs's own links are like that, and cp -a keeps them;
 *   - an absolute target, or ".." climbing above the directory, is refused
 *     with -EXDEV (openat2's own answer), never re-targeted;
 *   - magic links (/proc/self/fd/N) are not followed.
 */
#ifndef MDP_RESOLVE_INT_H
#define MDP_RESOLVE_INT_H

#include <sys/types.h>

/*
 * openat(dirfd, rel, flags | O_CLOEXEC, mode) beneath dirfd: openat2 where
 * the kernel has it, else mdp_resolve_walk(). rel is relative ("" is dirfd
 * itself). Returns the fd or -errno; -EXDEV for a path that would escape.
 */
int mdp_resolve_open(int dirfd, const char *rel, int flags, mode_t mode);

/*
 * The same by hand, one component at a time with O_PATH | O_NOFOLLOW, for
 * kernels without openat2. Exported so that tests hold it to openat2's
 * answers on the same trees.
 */
int mdp_resolve_walk(int dirfd, const char *rel, int flags, mode_t mode);

#endif
