/*
 * root: system paths under a prefix, and the write/fsync/rename seam.
 *
 * mdprofile runs against the real system (prefix "") or a fixture tree
 * (--root DIR). This file is the only place that joins the two. The
 * mutating operations go through a const ops table so that tests can fail
 * or alter the k-th of them (see struct mdp_root_ops).
 */
#include "root.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mdp_root_init(struct mdp_root *r, const char *dir)
{
	char real[PATH_MAX];
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->ops = &mdp_root_default_ops;
	if (!dir || !*dir || !strcmp(dir, "/"))
		return 0;
	if (!realpath(dir, real))
		return -errno;
	if (stat(real, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (!strcmp(real, "/"))
		return 0;
	if (strlen(real) >= sizeof(r->prefix))
		return -ENAMETOOLONG;
	strcpy(r->prefix, real);
	return 0;
}

bool mdp_root_is_real(const struct mdp_root *r)
{
	return r->prefix[0] == '\0';
}

int mdp_root_path(const struct mdp_root *r, const char *sys, char *buf, size_t len)
{
	size_t pl, sl;

	/* Only absolute system paths, never one that climbs out of the root. */
	if (!sys || sys[0] != '/' || strstr(sys, "/../") ||
	    (strlen(sys) >= 3 && !strcmp(sys + strlen(sys) - 3, "/..")))
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

ssize_t mdp_root_read(const struct mdp_root *r, const char *sys, char *buf, size_t cap)
{
	char path[PATH_MAX];
	size_t got = 0;
	int fd, err;

	if (cap == 0)
		return -EINVAL;
	if ((err = mdp_root_path(r, sys, path, sizeof(path))))
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
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

ssize_t mdp_root_read_value(const struct mdp_root *r, const char *sys, char *buf, size_t cap)
{
	ssize_t n = mdp_root_read(r, sys, buf, cap);

	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return n;
}

int mdp_root_read_all(const struct mdp_root *r, const char *sys, char **out, size_t *len)
{
	char path[PATH_MAX];
	size_t cap = 4096, got = 0;
	char *buf;
	int fd, err;

	if ((err = mdp_root_path(r, sys, path, sizeof(path))))
		return err;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (!(buf = malloc(cap))) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n;
		if (got + 1 >= cap) {
			char *nb = cap > (1u << 26) ? NULL : realloc(buf, cap * 2);
			if (!nb) {
				err = -ENOMEM;
				goto fail;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + got, cap - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto fail;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*out = buf;
	if (len)
		*len = got;
	return 0;
fail:
	close(fd);
	free(buf);
	return err;
}

static int root_stat(const struct mdp_root *r, const char *sys, struct stat *st)
{
	char path[PATH_MAX];

	if (mdp_root_path(r, sys, path, sizeof(path)))
		return -1;
	return stat(path, st);
}

bool mdp_root_exists(const struct mdp_root *r, const char *sys)
{
	struct stat st;

	return root_stat(r, sys, &st) == 0;
}

bool mdp_root_is_dir(const struct mdp_root *r, const char *sys)
{
	struct stat st;

	return root_stat(r, sys, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void mdp_root_free_list(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int mdp_root_list(const struct mdp_root *r, const char *sys_dir, char ***names, size_t *n)
{
	char path[PATH_MAX];
	char **v = NULL;
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int err;

	if ((err = mdp_root_path(r, sys_dir, path, sizeof(path))))
		return err;
	if (!(d = opendir(path)))
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (cnt == cap) {
			char **nv = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		if (!(v[cnt] = strdup(de->d_name)))
			goto nomem;
		cnt++;
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

int mdp_root_readlink(const struct mdp_root *r, const char *sys, char *buf, size_t cap)
{
	char path[PATH_MAX];
	ssize_t n;
	int err;

	if ((err = mdp_root_path(r, sys, path, sizeof(path))))
		return err;
	n = readlink(path, buf, cap - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

int mdp_root_write(const struct mdp_root *r, const char *sys, const char *value)
{
	char path[PATH_MAX];
	int err;

	if ((err = mdp_root_path(r, sys, path, sizeof(path))))
		return err;
	return r->ops->write(r, path, value, strlen(value));
}

int mdp_root_mkdir_p(const struct mdp_root *r, const char *sys, mode_t mode)
{
	char path[PATH_MAX];
	size_t skip = strlen(r->prefix);
	int err;

	if ((err = mdp_root_path(r, sys, path, sizeof(path))))
		return err;
	for (char *p = path + skip + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(path, mode) && errno != EEXIST)
			return -errno;
		*p = c;
		if (!c)
			break;
	}
	return mdp_root_is_dir(r, sys) ? 0 : -ENOTDIR;
}

int mdp_root_open(const struct mdp_root *r, const char *sys, int flags, mode_t mode)
{
	char path[PATH_MAX];
	int err, fd;

	if ((err = mdp_root_path(r, sys, path, sizeof(path))))
		return err;
	fd = open(path, flags | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

int mdp_root_unlink(const struct mdp_root *r, const char *sys)
{
	char path[PATH_MAX];
	int err;

	if ((err = mdp_root_path(r, sys, path, sizeof(path))))
		return err;
	return unlink(path) ? -errno : 0;
}

static int write_all(int fd, const void *data, size_t len)
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

static int fsync_dir_of(const struct mdp_root *r, const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int fd, err;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if ((fd = open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	err = r->ops->fsync(r, fd);
	close(fd);
	return err;
}

int mdp_root_replace(const struct mdp_root *r, const char *sys, const void *data, size_t len,
		     mode_t mode)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	int fd, err;

	if ((err = mdp_root_path(r, sys, path, sizeof(path))))
		return err;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	err = write_all(fd, data, len);
	if (!err)
		err = r->ops->fsync(r, fd);
	if (close(fd) && !err)
		err = -errno;
	if (!err)
		err = r->ops->rename(r, tmp, path);
	if (err) {
		unlink(tmp);
		return err;
	}
	return fsync_dir_of(r, path);
}

/* ---- default ops ---------------------------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static int raw_write(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	/* One write(2): sysfs takes a value per write and reports refusal there. */
	ssize_t n = write(fd, data, len);
	err = n < 0 ? -errno : ((size_t)n != len ? -EIO : 0);
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/*
 * A fixture tree stands in for md, which shows sync_speed_min/max as
 * "N (local)" or "N (system)" where N follows the sysctl. Render writes
 * the same way so a revert is byte-for-byte on fixtures as on the kernel.
 */
static int fixture_sync_speed(const struct mdp_root *r, const char *path, const char *data,
			      char *out, size_t cap)
{
	const char *sysctl = ends_with(path, "_min") ? "/proc/sys/dev/raid/speed_limit_min"
						     : "/proc/sys/dev/raid/speed_limit_max";
	char cur[32];
	char *end;

	if (!strncmp(data, "system", 6)) {
		if (mdp_root_read_value(r, sysctl, cur, sizeof(cur)) <= 0)
			return -EINVAL;
		snprintf(out, cap, "%s (system)\n", cur);
		return 0;
	}
	unsigned long v = strtoul(data, &end, 10);
	if (end == data || (*end && *end != '\n'))
		return -EINVAL;
	snprintf(out, cap, "%lu (local)\n", v);
	return 0;
}

/* After a sysctl write, arrays following "system" show the new number. */
static void fixture_follow_sysctl(const struct mdp_root *r, const char *attr, const char *val)
{
	char **names;
	size_t n;

	if (mdp_root_list(r, "/sys/block", &names, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		char sys[PATH_MAX], cur[64], path[PATH_MAX], text[64];
		if (strncmp(names[i], "md", 2))
			continue; /* disks have no md/ directory */
		snprintf(sys, sizeof(sys), "/sys/block/%s/md/%s", names[i], attr);
		if (mdp_root_read_value(r, sys, cur, sizeof(cur)) <= 0 || !strstr(cur, "(system)"))
			continue;
		if (mdp_root_path(r, sys, path, sizeof(path)))
			continue;
		snprintf(text, sizeof(text), "%.*s (system)\n", (int)strcspn(val, "\n"), val);
		raw_write(path, text, strlen(text));
	}
	mdp_root_free_list(names, n);
}

static int default_write(const struct mdp_root *r, const char *path, const char *data, size_t len)
{
	char text[64];
	int err;

	if (mdp_root_is_real(r))
		return raw_write(path, data, len);
	if (ends_with(path, "/md/sync_speed_min") || ends_with(path, "/md/sync_speed_max")) {
		if ((err = fixture_sync_speed(r, path, data, text, sizeof(text))))
			return err;
		return raw_write(path, text, strlen(text));
	}
	if ((err = raw_write(path, data, len)))
		return err;
	if (ends_with(path, "/proc/sys/dev/raid/speed_limit_min"))
		fixture_follow_sysctl(r, "sync_speed_min", data);
	else if (ends_with(path, "/proc/sys/dev/raid/speed_limit_max"))
		fixture_follow_sysctl(r, "sync_speed_max", data);
	return 0;
}

static int default_fsync(const struct mdp_root *r, int fd)
{
	(void)r;
	return fsync(fd) ? -errno : 0;
}

static int default_rename(const struct mdp_root *r, const char *from, const char *to)
{
	(void)r;
	return rename(from, to) ? -errno : 0;
}

const struct mdp_root_ops mdp_root_default_ops = {
    .write = default_write,
    .fsync = default_fsync,
    .rename = default_rename,
};
