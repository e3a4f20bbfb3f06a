/*
 * root: system paths under a prefix, resolved beneath it, and the
 * write/fsync/rename seam.
 *
 * mdprofile runs against the real system (prefix "") or a fixture tree
 * (--root DIR). This file is the only place that joins the two. Every
 * access opens through root_open(): open(2) as is on the real root, and
 * mdp_resolve_open() beneath the prefix's descriptor under a fixture, so
 * that no symlink in the tree can send a read, a write, the journal or the
 * lock out of it. Operations on a name (mkdir, unlink, rename, readlink)
 * resolve the directory that holds it the same way, then act on the name
 * with the *at() call. The mutating operations go through a const ops
 * table so that tests can fail or alter the k-th of them.
 */
#include "root.h"
#include "root_int.h"
#include "clock.h"
#include "resolve_int.h"
#include "grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int mdp_root_init(struct mdp_root *r, const char *dir)
{
	char real[PATH_MAX];
	int fd;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->ops = &mdp_root_plain_ops;
	if (!dir || !*dir || !strcmp(dir, "/"))
		return 0;
	if (!realpath(dir, real))
		return -errno;
	if ((fd = open(real, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if (!strcmp(real, "/") || strlen(real) >= sizeof(r->prefix)) {
		close(fd);
		return strcmp(real, "/") ? -ENAMETOOLONG : 0;
	}
	strcpy(r->prefix, real);
	r->fd = fd;
	r->ops = &mdp_root_fixture_ops;
	return 0;
}

void mdp_root_fini(struct mdp_root *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

bool mdp_root_is_real(const struct mdp_root *r)
{
	return r->prefix[0] == '\0';
}

void mdp_root_layer(struct mdp_root *out, const struct mdp_root *own,
		    const struct mdp_root *fallback, const struct mdp_root_tap *tap)
{
	*out = *own;
	out->fallback = fallback;
	out->tap = tap;
}

/* ---- the read-side layer: a path missing here is the fallback's; reads are tapped ---- */

static bool layer_missing(const struct mdp_root *r, ssize_t err)
{
	return r->fallback && (err == -ENOENT || err == -ENOTDIR);
}

static void layer_tap(const struct mdp_root *r, const char *sys, const char *data, size_t len,
		      bool link)
{
	if (r->tap)
		r->tap->fn(r->tap, sys, data, len, link);
}

bool mdp_root_sys_ok(const char *sys)
{
	size_t n;

	if (!sys || sys[0] != '/')
		return false;
	n = strlen(sys);
	return !strstr(sys, "/../") && !(n >= 3 && !strcmp(sys + n - 3, "/.."));
}

int mdp_root_path(const struct mdp_root *r, const char *sys, char *buf, size_t len)
{
	size_t pl, sl;

	if (!mdp_root_sys_ok(sys))
		return -EINVAL;
	/* Hot: every attribute read goes through here. */
	pl = strlen(r->prefix);
	sl = strlen(sys);
	if (pl + sl >= len)
		return -ENAMETOOLONG;
	memcpy(buf, r->prefix, pl);
	memcpy(buf + pl, sys, sl + 1);
	return 0;
}

/* open(2) of a system path, beneath the prefix under a fixture root. fd or -errno. */
static int root_open(const struct mdp_root *r, const char *sys, int flags, mode_t mode)
{
	int fd;

	if (!mdp_root_sys_ok(sys))
		return -EINVAL;
	if (!mdp_root_is_real(r))
		return mdp_resolve_open(r->fd, sys + 1, flags, mode);
	fd = open(sys, flags | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

/* Open the directory holding sys (flags O_PATH or O_RDONLY); *name is sys's last component. */
static int root_parent(const struct mdp_root *r, const char *sys, int flags, const char **name)
{
	char dir[PATH_MAX];
	const char *slash;
	size_t n;

	if (!mdp_root_sys_ok(sys))
		return -EINVAL;
	slash = strrchr(sys, '/');
	*name = slash + 1;
	if (!**name || !strcmp(*name, "."))
		return -EINVAL;
	n = slash == sys ? 1 : (size_t)(slash - sys);
	if (n >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, sys, n);
	dir[n] = '\0';
	return root_open(r, dir, flags | O_DIRECTORY, 0);
}

static ssize_t read_here(const struct mdp_root *r, const char *sys, char *buf, size_t cap)
{
	size_t got = 0;
	int fd, err;

	if (cap == 0)
		return -EINVAL;
	/* O_NONBLOCK: a FIFO planted in a --root tree reads as empty, never blocks. */
	if ((fd = root_open(r, sys, O_RDONLY | O_NONBLOCK, 0)) < 0)
		return fd;
	while (got < cap - 1) {
		ssize_t n = read(fd, buf + got, cap - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			close(fd);
			return err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		/*
		 * A sysfs attribute comes whole in one read, and a short read of
		 * a regular file is its end: skip the read that would return 0.
		 */
		if (got < cap - 1)
			break;
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

ssize_t mdp_root_read(const struct mdp_root *r, const char *sys, char *buf, size_t cap)
{
	ssize_t n = read_here(r, sys, buf, cap);

	if (layer_missing(r, n))
		n = mdp_root_read(r->fallback, sys, buf, cap);
	if (n >= 0)
		layer_tap(r, sys, buf, (size_t)n, false);
	return n;
}

ssize_t mdp_root_read_value(const struct mdp_root *r, const char *sys, char *buf, size_t cap)
{
	ssize_t n = mdp_root_read(r, sys, buf, cap);

	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return n;
}

int mdp_root_read_fd(int fd, size_t max, int too_big, char **out, size_t *len)
{
	size_t cap = 4096, got = 0;
	char *buf = malloc(cap), *nb;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (got + 1 >= cap) {
			if (cap * 2 > max) {
				free(buf);
				return too_big;
			}
			/* A byte buffer doubling up to max, not an array: realloc. */
			if (!(nb = realloc(buf, cap * 2))) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + got, cap - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			free(buf);
			return (int)n;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	*out = buf;
	if (len)
		*len = got;
	return 0;
}

static int read_all_here(const struct mdp_root *r, const char *sys, char **out, size_t *len)
{
	int fd, err;

	/* O_NONBLOCK: a FIFO planted in a --root tree reads as empty, never blocks. */
	if ((fd = root_open(r, sys, O_RDONLY | O_NONBLOCK, 0)) < 0)
		return fd;
	err = mdp_root_read_fd(fd, MDP_ROOT_READ_MAX, -EFBIG, out, len);
	close(fd);
	return err;
}

int mdp_root_read_all(const struct mdp_root *r, const char *sys, char **out, size_t *len)
{
	size_t n = 0;
	int err = read_all_here(r, sys, out, &n);

	if (layer_missing(r, err))
		err = mdp_root_read_all(r->fallback, sys, out, &n);
	if (err)
		return err;
	layer_tap(r, sys, *out, n, false);
	if (len)
		*len = n;
	return 0;
}

static int root_stat(const struct mdp_root *r, const char *sys, struct stat *st)
{
	int fd, err = 0;

	if (mdp_root_is_real(r) && mdp_root_sys_ok(sys))
		return stat(sys, st) ? -errno : 0;
	if ((fd = root_open(r, sys, O_PATH, 0)) < 0)
		return fd;
	if (fstat(fd, st))
		err = -errno;
	close(fd);
	return err;
}

static int layer_stat(const struct mdp_root *r, const char *sys, struct stat *st)
{
	int err = root_stat(r, sys, st);

	return layer_missing(r, err) ? layer_stat(r->fallback, sys, st) : err;
}

int mdp_root_zone(const struct mdp_root *r, char *tz, size_t cap)
{
	struct stat st;
	bool ok;
	int fd;

	if (mdp_root_is_real(r))
		return -ENOENT;
	if (cap < sizeof(MDP_ROOT_ZONE_NONE))
		return -ENAMETOOLONG;
	fd = mdp_root_open(r, "/etc/localtime", O_RDONLY | O_CLOEXEC, 0);
	ok = fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode);
	if (fd >= 0)
		close(fd);
	tz[0] = ':';
	if (!ok || mdp_root_path(r, "/etc/localtime", tz + 1, cap - 1) < 0)
		memcpy(tz, MDP_ROOT_ZONE_NONE, sizeof(MDP_ROOT_ZONE_NONE));
	return 0;
}

bool mdp_root_exists(const struct mdp_root *r, const char *sys)
{
	struct stat st;

	return layer_stat(r, sys, &st) == 0;
}

bool mdp_root_is_dir(const struct mdp_root *r, const char *sys)
{
	struct stat st;

	return layer_stat(r, sys, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void mdp_root_free_list(char **names, size_t n)
{
	mdp_strs_free(names, n);
}

static int list_here(const struct mdp_root *r, const char *sys_dir, char ***names, size_t *n)
{
	char **v = NULL;
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int fd, err;

	if ((fd = root_open(r, sys_dir, O_RDONLY | O_DIRECTORY, 0)) < 0)
		return fd;
	if (!(d = fdopendir(fd))) {
		err = -errno;
		close(fd);
		return err;
	}
	/* A failed readdir ends the loop too: errno tells it from the end (EOVERFLOW, EIO). */
	for (errno = 0; (de = readdir(d)); errno = 0) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (mdp_grow_cap(&v, cnt, &cap, sizeof(*v)))
			goto nomem;
		if (!(v[cnt] = strdup(de->d_name)))
			goto nomem;
		cnt++;
	}
	if (errno) {
		err = -errno;
		closedir(d);
		mdp_root_free_list(v, cnt);
		return err;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_names);
	*names = v;
	*n = cnt;
	return 0;
nomem:
	closedir(d);
	mdp_root_free_list(v, cnt);
	return -ENOMEM;
}

/* The union of two sorted lists, each name once, into *a (b's names moved or freed). */
static int list_union(char ***a, size_t *na, char **b, size_t nb)
{
	char **v;
	size_t n = 0, i = 0, j = 0;

	if (!nb) {
		free(b);
		return 0;
	}
	if (!(v = calloc(*na + nb, sizeof(*v)))) {
		mdp_root_free_list(b, nb);
		return -ENOMEM;
	}
	while (i < *na || j < nb) {
		int c = i == *na ? 1 : j == nb ? -1 : strcmp((*a)[i], b[j]);
		if (c <= 0)
			v[n++] = (*a)[i++];
		if (c == 0)
			free(b[j++]);
		else if (c > 0)
			v[n++] = b[j++];
	}
	free(*a);
	free(b);
	*a = v;
	*na = n;
	return 0;
}

int mdp_root_list(const struct mdp_root *r, const char *sys_dir, char ***names, size_t *n)
{
	char **more = NULL;
	size_t n_more = 0;
	int err = list_here(r, sys_dir, names, n);

	if (!r->fallback || (err && !layer_missing(r, err)))
		return err;
	if (err) /* not in this tree: the fallback's listing */
		return mdp_root_list(r->fallback, sys_dir, names, n);
	err = mdp_root_list(r->fallback, sys_dir, &more, &n_more);
	if (layer_missing(r, err))
		return 0;
	if (!err)
		err = list_union(names, n, more, n_more);
	if (err) {
		mdp_root_free_list(*names, *n);
		*names = NULL;
		*n = 0;
	}
	return err;
}

static int readlink_here(const struct mdp_root *r, const char *sys, char *buf, size_t cap)
{
	ssize_t n;
	int err;

	if (cap == 0)
		return -EINVAL;
	if (mdp_root_is_real(r) && mdp_root_sys_ok(sys)) {
		n = readlink(sys, buf, cap - 1); /* hot on the real root: one syscall */
		err = n < 0 ? -errno : 0;
	} else {
		const char *name;
		int dfd = root_parent(r, sys, O_PATH, &name);
		if (dfd < 0)
			return dfd;
		n = readlinkat(dfd, name, buf, cap - 1);
		err = n < 0 ? -errno : 0;
		close(dfd);
	}
	if (err)
		return err;
	buf[n] = '\0';
	return 0;
}

/* The link itself, never followed: the directory holding it is resolved beneath the root. */
int mdp_root_readlink(const struct mdp_root *r, const char *sys, char *buf, size_t cap)
{
	int err = readlink_here(r, sys, buf, cap);

	if (layer_missing(r, err))
		err = mdp_root_readlink(r->fallback, sys, buf, cap);
	if (!err)
		layer_tap(r, sys, buf, strlen(buf), true);
	return err;
}

int mdp_root_write(const struct mdp_root *r, const char *sys, const char *value)
{
	return r->ops->write(r->ops, r, sys, value, strlen(value));
}

static int mkdir_one(const struct mdp_root *r, const char *sys, mode_t mode)
{
	const char *name;
	int dfd = root_parent(r, sys, O_PATH, &name);
	int err = 0;

	if (dfd < 0)
		return dfd;
	if (mkdirat(dfd, name, mode) && errno != EEXIST)
		err = -errno;
	close(dfd);
	return err;
}

int mdp_root_mkdir_p(const struct mdp_root *r, const char *sys, mode_t mode)
{
	char part[PATH_MAX];
	size_t n;
	int fd, err;

	if (!mdp_root_sys_ok(sys))
		return -EINVAL;
	if ((n = strlen(sys)) >= sizeof(part))
		return -ENAMETOOLONG;
	for (size_t i = 1; i <= n; i++) {
		if ((sys[i] != '/' && sys[i] != '\0') || sys[i - 1] == '/')
			continue;
		memcpy(part, sys, i);
		part[i] = '\0';
		if ((err = mkdir_one(r, part, mode)))
			return err;
	}
	/* What exists must be a directory, and reached without leaving the root. */
	if ((fd = root_open(r, sys, O_PATH | O_DIRECTORY, 0)) < 0)
		return fd;
	close(fd);
	return 0;
}

int mdp_root_open(const struct mdp_root *r, const char *sys, int flags, mode_t mode)
{
	return root_open(r, sys, flags, mode);
}

int mdp_root_unlink(const struct mdp_root *r, const char *sys)
{
	const char *name;
	int dfd = root_parent(r, sys, O_PATH, &name);
	int err = 0;

	if (dfd < 0)
		return dfd;
	if (unlinkat(dfd, name, 0))
		err = -errno;
	close(dfd);
	return err;
}

int mdp_root_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * A name for a temporary file beside name: name.tmp.XXXXXXXXXXXX, the X's
 * random where the kernel gives randomness (getrandom: Linux 3.17, so not
 * DSM's 3.10), else drawn from the clock, the pid and the attempt. The
 * name need not be secret: it is created with O_EXCL, so a file, link or
 * FIFO someone planted under it is never opened, only skipped.
 */
static int tmp_name(const char *name, unsigned attempt, char *buf, size_t cap)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz234567";
	char rnd[12];
	uint64_t v = 0;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v)) {
		v = (mdp_mono_ns() << 20) ^ ((uint64_t)getpid() << 40) ^
		    ((uint64_t)attempt * 0x9e3779b97f4a7c15u);
	}
	for (size_t i = 0; i < sizeof(rnd); i++, v >>= 5)
		rnd[i] = digits[v & 31];
	if ((size_t)snprintf(buf, cap, "%s.tmp.%.12s", name, rnd) >= cap)
		return -ENAMETOOLONG;
	return 0;
}

int mdp_root_tmp_create(int dfd, const char *name, mode_t mode, char *tmp, size_t cap)
{
	int fd, err;

	for (unsigned attempt = 0; attempt < 100; attempt++) {
		if ((err = tmp_name(name, attempt, tmp, cap)))
			return err;
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return -errno;
		/* The mode asked for, not what the umask leaves of it. */
		if (fchmod(fd, mode)) {
			err = -errno;
			close(fd);
			unlinkat(dfd, tmp, 0);
			return err;
		}
		return fd;
	}
	return -EEXIST;
}

/* Write a new temporary file in the directory dfd, fsync it, rename it over sys. */
static int replace_in(const struct mdp_root *r, int dfd, const char *sys, const char *name,
		      const void *data, size_t len, mode_t mode)
{
	char tmp_sys[PATH_MAX], tmp[NAME_MAX + 1];
	int fd, err;

	if ((fd = mdp_root_tmp_create(dfd, name, mode, tmp, sizeof(tmp))) < 0)
		return fd;
	/* sys with its last component, name, replaced by tmp. */
	if ((size_t)snprintf(tmp_sys, sizeof(tmp_sys), "%.*s%s", (int)(name - sys), sys, tmp) >=
	    sizeof(tmp_sys))
		err = -ENAMETOOLONG;
	else
		err = mdp_root_write_all(fd, data, len);
	if (!err)
		err = r->ops->fsync(r->ops, r, fd);
	if (close(fd) && !err)
		err = -errno;
	if (!err)
		err = r->ops->rename(r->ops, r, tmp_sys, sys);
	if (err)
		unlinkat(dfd, tmp, 0);
	return err;
}

int mdp_root_replace(const struct mdp_root *r, const char *sys, const void *data, size_t len,
		     mode_t mode)
{
	const char *name;
	int dfd, err;

	/* O_RDONLY, not O_PATH: the directory is fsynced once the rename is done. */
	if ((dfd = root_parent(r, sys, O_RDONLY, &name)) < 0)
		return dfd;
	err = replace_in(r, dfd, sys, name, data, len, mode);
	if (!err)
		err = r->ops->fsync(r->ops, r, dfd);
	close(dfd);
	return err;
}

const char *mdp_root_strerror(int err)
{
	return err == EXDEV ? "a symbolic link leads out of the root" : strerror(err);
}

/* ---- plain ops ------------------------------------------------------------ */

static int plain_write(const struct mdp_root_ops *self, const struct mdp_root *r, const char *sys,
		       const char *data, size_t len)
{
	int fd = root_open(r, sys, O_WRONLY | O_TRUNC | O_NOFOLLOW, 0);
	ssize_t n;
	int err;

	(void)self;
	if (fd < 0)
		return fd;
	/* One write(2): sysfs takes a value per write and reports refusal there. */
	n = write(fd, data, len);
	err = n < 0 ? -errno : ((size_t)n != len ? -EIO : 0);
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int plain_fsync(const struct mdp_root_ops *self, const struct mdp_root *r, int fd)
{
	(void)self;
	(void)r;
	return fsync(fd) ? -errno : 0;
}

static int plain_rename(const struct mdp_root_ops *self, const struct mdp_root *r, const char *from,
			const char *to)
{
	const char *fname, *tname;
	int fdir, tdir, err = 0;

	(void)self;
	if ((fdir = root_parent(r, from, O_PATH, &fname)) < 0)
		return fdir;
	if ((tdir = root_parent(r, to, O_PATH, &tname)) < 0) {
		close(fdir);
		return tdir;
	}
	if (renameat(fdir, fname, tdir, tname))
		err = -errno;
	close(fdir);
	close(tdir);
	return err;
}

const struct mdp_root_ops mdp_root_plain_ops = {
    .write = plain_write,
    .fsync = plain_fsync,
    .rename = plain_rename,
};
