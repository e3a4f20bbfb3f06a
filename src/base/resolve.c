/*
 * resolve: paths beneath a directory, by openat2 or by hand (see resolve_int.h).
 *
 * The walk keeps a stack of the directories it went through: ".." pops
 * one instead of looking ".." up, so it cannot climb above the starting
 * directory even if the tree is renamed under it, and a symlink's target
 * is spliced in front of what is left of the path, relative to the
 * directory that holds the link, as the kernel does.
 */
#include "resolve_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * Called through syscall(): a static glibc older than the kernel has no
 * wrapper. 437 on every architecture (the unified syscall table), and the
 * ABI below is spelt out because old kernel headers lack <linux/openat2.h>.
 */
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define MDP_RESOLVE_NO_MAGICLINKS 0x02
#define MDP_RESOLVE_BENEATH       0x08

struct mdp_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

/* openat2 answers EAGAIN when a rename raced the lookup; it is safe to retry. */
#define OPENAT2_TRIES 8
/* Directories held open at once by the walk; sysfs paths are a dozen deep. */
#define WALK_DEPTH 64
/* Symlinks followed per lookup, as the kernel's MAXSYMLINKS. */
#define WALK_LINKS 40

static int beneath_openat2(int dirfd, const char *rel, int flags, mode_t mode)
{
	struct mdp_open_how how = {
	    .flags = (uint64_t)(unsigned)(flags | O_CLOEXEC),
	    .mode = (flags & O_CREAT) ? mode : 0, /* openat2 refuses a stray mode */
	    .resolve = MDP_RESOLVE_BENEATH | MDP_RESOLVE_NO_MAGICLINKS,
	};

	for (int i = 0; i < OPENAT2_TRIES; i++) {
		long fd = syscall(SYS_openat2, dirfd, *rel ? rel : ".", &how, sizeof(how));
		if (fd >= 0)
			return (int)fd;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
	}
	return -EAGAIN;
}

int mdp_resolve_open(int dirfd, const char *rel, int flags, mode_t mode)
{
	int fd = beneath_openat2(dirfd, rel, flags, mode);

	/* ENOSYS before Linux 5.6; EPERM from a seccomp filter that predates it. */
	if (fd == -ENOSYS || fd == -EPERM)
		return mdp_resolve_walk(dirfd, rel, flags, mode);
	return fd;
}

/* ---- the walk ------------------------------------------------------------ */

struct walk {
	int fd[WALK_DEPTH]; /* fd[0] is the caller's and never closed */
	int depth;
	int links;
	size_t pos;          /* where the rest of path starts */
	char path[PATH_MAX]; /* what is left to resolve, from pos */
};

/* The next component into name: 1, or 0 at the end. *last: nothing follows it. */
static int walk_next(struct walk *w, char name[NAME_MAX + 1], bool *last)
{
	const char *p = w->path + w->pos;
	size_t n;

	while (*p == '/')
		p++;
	n = strcspn(p, "/");
	if (n == 0)
		return 0;
	if (n > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(name, p, n);
	name[n] = '\0';
	p += n;
	w->pos = (size_t)(p - w->path);
	while (*p == '/')
		p++;
	*last = *p == '\0';
	return 1;
}

/* name in the current directory is a symlink: put its target in front of the rest. */
static int walk_link(struct walk *w, const char *name)
{
	char target[PATH_MAX], rest[PATH_MAX];
	ssize_t n = readlinkat(w->fd[w->depth], name, target, sizeof(target));
	int k;

	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(target))
		return -ENAMETOOLONG;
	target[n] = '\0';
	if (target[0] == '/')
		return -EXDEV; /* the host's "/", outside the tree */
	if (++w->links > WALK_LINKS)
		return -ELOOP;
	memcpy(rest, w->path + w->pos, strlen(w->path + w->pos) + 1);
	k = snprintf(w->path, sizeof(w->path), "%s/%s", target, rest);
	if (k < 0 || (size_t)k >= sizeof(w->path))
		return -ENAMETOOLONG;
	w->pos = 0;
	return 0;
}

/* A component with more after it: a directory to enter, or a symlink to splice. */
static int walk_dir(struct walk *w, const char *name)
{
	struct stat st;
	int fd = openat(w->fd[w->depth], name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (S_ISLNK(st.st_mode))
		err = walk_link(w, name);
	else if (!S_ISDIR(st.st_mode))
		err = -ENOTDIR;
	else if (w->depth + 1 >= WALK_DEPTH)
		err = -ENAMETOOLONG;
	if (err || S_ISLNK(st.st_mode)) {
		close(fd);
		return err;
	}
	w->fd[++w->depth] = fd;
	return 0;
}

/*
 * The last component, opened as asked: 0 with *out set, 1 after splicing a
 * symlink. O_NOFOLLOW keeps the open from following a link by itself: it
 * fails with ELOOP (ENOTDIR with O_DIRECTORY), or O_PATH opens the link,
 * and then the link is spliced as any other, unless the caller said
 * O_NOFOLLOW too.
 */
static int walk_last(struct walk *w, const char *name, int flags, mode_t mode, int *out)
{
	bool follow = !(flags & O_NOFOLLOW);
	struct stat st;
	int fd, err, open_err = 0;

	fd = openat(w->fd[w->depth], name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		open_err = -errno;
	if (fd >= 0 && !(follow && (flags & O_PATH) && !fstat(fd, &st) && S_ISLNK(st.st_mode))) {
		*out = fd;
		return 0;
	}
	if (fd >= 0)
		close(fd);
	else if (!follow || (open_err != -ELOOP && open_err != -ENOTDIR))
		return open_err;
	err = walk_link(w, name);
	if (err == -EINVAL && open_err) /* not a symlink: the open's own answer */
		return open_err;
	return err ? err : 1;
}

/* One step of the walk: 0 to go on, 1 when *fd is the answer, or -errno. */
static int walk_step(struct walk *w, int flags, mode_t mode, int *fd)
{
	char name[NAME_MAX + 1];
	bool last = true;
	int k = walk_next(w, name, &last);

	if (k < 0)
		return k;
	if (k == 0)
		strcpy(name, "."); /* the path ended on a directory: open it */
	if (!strcmp(name, "..")) {
		if (w->depth == 0)
			return -EXDEV;
		close(w->fd[w->depth--]);
		strcpy(name, ".");
	}
	if (!last)
		return strcmp(name, ".") ? walk_dir(w, name) : 0;
	k = walk_last(w, name, flags, mode, fd);
	return k == 0 ? 1 : (k == 1 ? 0 : k);
}

int mdp_resolve_walk(int dirfd, const char *rel, int flags, mode_t mode)
{
	struct walk w = {.depth = 0};
	int fd = -1, k;

	if (strlen(rel) >= sizeof(w.path))
		return -ENAMETOOLONG;
	strcpy(w.path, rel);
	w.fd[0] = dirfd;
	while ((k = walk_step(&w, flags, mode, &fd)) == 0)
		;
	while (w.depth > 0)
		close(w.fd[w.depth--]);
	return k < 0 ? k : fd;
}
