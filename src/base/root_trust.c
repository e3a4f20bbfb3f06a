/*
 * root_trust: what a tree or a host folder may be trusted with (see root.h): the
 * chain of directories to a folder on the host, walked on descriptors without
 * following a link; whether a tree's programs may run (named by the caller, no
 * capture in it, the whole path owned by root or the caller); the folder of a file
 * the user named for output, opened once and written into by name; and
 * mdp_root_trusted, the rule for a file in a tree that is to be run or believed.
 */
#include "root.h"
#include "root_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
/* ---- a chain of directories on the host ----------------------------------- */

/*
 * Why the directory path (len bytes of it, st its stat) is one others could change:
 * owned by another user than root and the caller (when owner), writable by group or
 * others (allowed with the sticky bit when sticky). 0, or -EPERM with why.
 */
static int dir_judge(const char *path, size_t len, const struct stat *st, bool owner, bool sticky,
		     char *why, size_t cap)
{
	int n = len ? (int)len : 1;

	if (owner && st->st_uid != 0 && st->st_uid != geteuid())
		snprintf(why, cap, "directory %.*s is owned by uid %u", n, len ? path : "/",
			 (unsigned)st->st_uid);
	else if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(sticky && (st->st_mode & S_ISVTX)))
		snprintf(why, cap, "directory %.*s is group/world-writable (mode %04o)", n,
			 len ? path : "/", (unsigned)(st->st_mode & 07777));
	else
		return 0;
	return -EPERM;
}

/* From the directory *cur (its stat st) to its entry name, never following a link. */
static int chain_step(int *cur, const char *dir, size_t end, const char *name, struct stat *st,
		      char *why, size_t cap)
{
	int fd = openat(*cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	close(*cur);
	*cur = fd;
	if (fd < 0)
		return -errno;
	if (fstat(fd, st))
		return -errno;
	if (S_ISLNK(st->st_mode)) {
		snprintf(why, cap, "%.*s is a symbolic link", (int)end, dir);
		return -EPERM;
	}
	return S_ISDIR(st->st_mode) ? 0 : -ENOTDIR;
}

/*
 * Open the absolute host directory dir from "/", a component at a time, following no
 * link: *fd (O_PATH) and its stat *st. Every directory above the last is judged by
 * dir_judge (sticky allowed; owners: owned by root or the caller); the last is the
 * caller's to judge. 0, -EPERM with why, or -errno.
 */
static int chain_open(const char *dir, bool owners, int *fd, struct stat *st, char *why, size_t cap)
{
	char name[NAME_MAX + 1];
	size_t at = 0, i = 0;
	int cur, err = 0;

	if (dir[0] != '/')
		return -EINVAL;
	if ((cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(cur, st))
		err = -errno;
	while (!err) {
		i += strspn(dir + i, "/");
		if (!dir[i])
			break;
		size_t end = i + strcspn(dir + i, "/");
		if (end - i > NAME_MAX) {
			err = -ENAMETOOLONG;
			break;
		}
		if ((err = dir_judge(dir, at, st, owners, true, why, cap)))
			break;
		memcpy(name, dir + i, end - i);
		name[end - i] = '\0';
		err = chain_step(&cur, dir, end, name, st, why, cap);
		at = i = end;
	}
	if (err) {
		if (cur >= 0)
			close(cur);
		return err;
	}
	*fd = cur;
	return 0;
}

/* ---- programs in a tree ------------------------------------------------------ */

/* Is the directory at path (followed as the caller wrote it) r's tree? */
static bool names_tree(const struct stat *top, const char *path, size_t len)
{
	char p[PATH_MAX];
	struct stat st;

	if (!len || len >= sizeof(p))
		return false;
	memcpy(p, path, len);
	p[len] = '\0';
	return !stat(p, &st) && S_ISDIR(st.st_mode) && st.st_dev == top->st_dev &&
	       st.st_ino == top->st_ino;
}

void mdp_root_allow_exec(struct mdp_root *r, const char *list)
{
	struct stat top;

	r->exec_named = false;
	if (mdp_root_is_real(r) || !list || fstat(r->fd, &top))
		return;
	for (const char *p = list; !r->exec_named; p++) {
		size_t n = strcspn(p, ":");
		r->exec_named = names_tree(&top, p, n);
		p += n;
		if (!*p)
			break;
	}
}

/* Nobody but root or the caller can change the tree's top or the way to it. */
static int tree_trusted(const struct mdp_root *r, char *why, size_t cap)
{
	struct stat st, top;
	int fd, err;

	if ((err = chain_open(r->prefix, true, &fd, &st, why, cap)))
		return err;
	close(fd);
	if ((err = dir_judge(r->prefix, strlen(r->prefix), &st, true, false, why, cap)))
		return err;
	if (fstat(r->fd, &top))
		return -errno;
	if (st.st_dev != top.st_dev || st.st_ino != top.st_ino) {
		snprintf(why, cap, "%s is another directory than the tree opened", r->prefix);
		return -EPERM;
	}
	return 0;
}

int mdp_root_exec_trusted(const struct mdp_root *r, const char *sys, char *why, size_t cap)
{
	struct stat st;
	int err;

	if (mdp_root_is_real(r))
		return 0;
	if (!fstatat(r->fd, &MDP_ROOT_CAPTURE_MARK[1], &st, AT_SYMLINK_NOFOLLOW) ||
	    errno != ENOENT) {
		snprintf(why, cap,
			 "the tree holds an explain capture (%s), and a capture's programs never "
			 "run",
			 MDP_ROOT_CAPTURE_MARK);
		return -EPERM;
	}
	if (!r->exec_named) {
		snprintf(why, cap,
			 "a --root tree's programs run only when " MDP_ROOT_EXEC_ENV " names the "
			 "tree");
		return -EPERM;
	}
	if ((err = tree_trusted(r, why, cap)))
		return err;
	return mdp_root_trusted(r, sys, why, cap);
}

size_t mdp_root_env(const struct mdp_root *r, struct mdp_root_env *vars, char *env[2])
{
	size_t n = 0;

	if (mdp_root_is_real(r))
		return 0;
	snprintf(vars->root, sizeof(vars->root), "MDPROFILE_ROOT=%s", r->prefix);
	env[n++] = vars->root;
	if (r->exec_named) {
		snprintf(vars->exec, sizeof(vars->exec), MDP_ROOT_EXEC_ENV "=%s", r->prefix);
		env[n++] = vars->exec;
	}
	return n;
}

/* ---- a file the user named ------------------------------------------------ */

/* file's folder as written ("." when none) into dir, and its name; -EISDIR, -ENAMETOOLONG. */
static int out_split(const char *file, char *dir, size_t cap, const char **name)
{
	const char *slash = strrchr(file, '/');

	*name = slash ? slash + 1 : file;
	if (!**name || !strcmp(*name, ".") || !strcmp(*name, ".."))
		return -EISDIR;
	if (strlen(*name) > NAME_MAX)
		return -ENAMETOOLONG;
	if (!slash)
		snprintf(dir, cap, ".");
	else if ((size_t)(slash - file) >= cap)
		return -ENAMETOOLONG;
	else
		snprintf(dir, cap, "%.*s", (int)(slash == file ? 1 : slash - file), file);
	return 0;
}

/* The folder o->dir (its path and stat): may FILE be replaced there, and as whose? */
static int out_judge(struct mdp_root_out *o, const char *path, const struct stat *st, char *why,
		     size_t cap)
{
	struct stat f;
	int err;

	/*
	 * Sticky (/tmp) is as good: the new file is made O_EXCL under a name nobody can guess and
	 * renamed over FILE, and once there only its owner (root) can rename or remove it.
	 */
	if ((err = dir_judge(path, strlen(path), st, false, true, why, cap)))
		return err;
	if (st->st_uid == 0 || st->st_uid == geteuid())
		return 0;
	if (!fstatat(o->dir, o->name, &f, AT_SYMLINK_NOFOLLOW) && S_ISREG(f.st_mode) &&
	    f.st_uid == st->st_uid) {
		o->give = true;
		o->uid = f.st_uid;
		o->gid = f.st_gid;
		return 0;
	}
	snprintf(why, cap,
		 "directory %s is owned by uid %u: mdprofile replaces a file in another user's "
		 "directory only when that user owns the file",
		 path, (unsigned)st->st_uid);
	return -EPERM;
}

/* What is at FILE: nothing, a file or a directory passes; what the new file would replace not. */
static int out_target(const struct mdp_root_out *o, char *why, size_t cap)
{
	struct stat st;

	if (fstatat(o->dir, o->name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
		return 0; /* a directory fails at the rename, leaving nothing behind */
	/* The new file would replace the link itself: /dev/stdout, say, for every program. */
	snprintf(why, cap, "it is a %s, which the new file would replace%s",
		 S_ISLNK(st.st_mode)    ? "symbolic link"
		 : S_ISCHR(st.st_mode)  ? "character device"
		 : S_ISBLK(st.st_mode)  ? "block device"
		 : S_ISFIFO(st.st_mode) ? "FIFO"
					: "socket",
		 S_ISLNK(st.st_mode) ? " (name the file it leads to)" : "");
	return -EINVAL;
}

int mdp_root_out_open(struct mdp_root_out *o, const char *file, char *why, size_t cap)
{
	char dir[PATH_MAX], rdir[PATH_MAX];
	const char *name;
	struct stat st;
	int err;

	memset(o, 0, sizeof(*o));
	o->dir = -1;
	*why = '\0';
	if (!(err = out_split(file, dir, sizeof(dir), &name)) && !realpath(dir, rdir))
		err = -errno;
	if (err == -ENOENT || err == -ENOTDIR)
		snprintf(why, cap, "its directory does not exist");
	else if (err == -EISDIR)
		snprintf(why, cap, "it names a directory, not a file");
	if (err || (err = chain_open(rdir, false, &o->dir, &st, why, cap)))
		return err;
	snprintf(o->name, sizeof(o->name), "%s", name);
	if ((err = out_judge(o, rdir, &st, why, cap)) || (err = out_target(o, why, cap))) {
		close(o->dir);
		o->dir = -1;
		return err;
	}
	o->open = true;
	return 0;
}

void mdp_root_out_close(struct mdp_root_out *o)
{
	if (o->open)
		close(o->dir);
	o->open = false;
	o->dir = -1;
}

/* The new file fd (tmp in the folder) filled, given away if need be, flushed. */
static int out_fill(const struct mdp_root_out *o, int fd, const void *data, size_t len)
{
	int err = mdp_root_write_all(fd, data, len);

	if (!err && o->give && fchown(fd, o->uid, o->gid))
		err = -errno;
	if (!err && fsync(fd))
		err = -errno;
	return err;
}

int mdp_root_out_replace(const struct mdp_root_out *o, const void *data, size_t len, mode_t mode)
{
	char tmp[NAME_MAX + 1];
	int fd, dfd, err;

	if (!o->open)
		return -EBADF;
	if ((fd = mdp_root_tmp_create(o->dir, o->name, mode, tmp, sizeof(tmp))) < 0)
		return fd;
	err = out_fill(o, fd, data, len);
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(o->dir, tmp, o->dir, o->name))
		err = -errno;
	if (err) {
		unlinkat(o->dir, tmp, 0);
		return err;
	}
	/* O_PATH cannot be fsynced: the folder itself, opened again through it. */
	if ((dfd = openat(o->dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	err = fsync(dfd) ? -errno : 0;
	close(dfd);
	return err;
}

/* ---- trust ---------------------------------------------------------------- */

/* Why the component of sys ending at end (st, last or a directory) is not trusted; 0 if it is. */
static int distrust(const struct mdp_root *r, const char *sys, size_t end, const struct stat *st,
		    bool last, char *why, size_t cap)
{
	char dir[PATH_MAX + 16] = "";

	if (!last)
		snprintf(dir, sizeof(dir), "directory %s%.*s is ", r->prefix, (int)end, sys);
	if (S_ISLNK(st->st_mode))
		snprintf(why, cap, "%s%.*s is a symbolic link", last ? "it" : r->prefix,
			 last ? 0 : (int)end, sys);
	else if (!last && !S_ISDIR(st->st_mode))
		return -ENOTDIR;
	else if (last && !S_ISREG(st->st_mode))
		snprintf(why, cap, "not a regular file");
	else if (st->st_uid != 0 && st->st_uid != geteuid())
		snprintf(why, cap, "%snot owned by root or the caller (uid %u)", dir,
			 (unsigned)st->st_uid);
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, cap, "%sgroup/world-writable (mode %04o)", dir,
			 (unsigned)(st->st_mode & 07777));
	else
		return 0;
	return -EPERM;
}

/* Step from dir to the component of sys at [start, end), never following a link. */
static int trust_step(const struct mdp_root *r, const char *sys, size_t start, size_t end, int *dir,
		      char *why, size_t cap)
{
	char name[NAME_MAX + 1];
	struct stat st;
	int fd, err;

	if (end - start > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(name, sys + start, end - start);
	name[end - start] = '\0';
	if (!strcmp(name, "."))
		return -EINVAL;
	if ((fd = openat(*dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -errno;
	err = fstat(fd, &st) ? -errno : 0;
	if (!err)
		err =
		    distrust(r, sys, end, &st, sys[end + strspn(sys + end, "/")] == '\0', why, cap);
	close(*dir);
	*dir = fd;
	return err;
}

int mdp_root_trusted(const struct mdp_root *r, const char *sys, char *why, size_t cap)
{
	size_t i = 0;
	int dir, err = 0;

	if (!mdp_root_sys_ok(sys))
		return -EINVAL;
	dir = mdp_root_is_real(r) ? open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)
				  : fcntl(r->fd, F_DUPFD_CLOEXEC, 0);
	if (dir < 0)
		return -errno;
	while (!err) {
		i += strspn(sys + i, "/");
		if (!sys[i])
			break;
		size_t end = i + strcspn(sys + i, "/");
		err = trust_step(r, sys, i, end, &dir, why, cap);
		i = end;
	}
	close(dir);
	return err;
}
