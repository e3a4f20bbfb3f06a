/*
 * boot_install: boot persistence's files written and removed through the
 * root (--install, --uninstall), checked as mdprofile wrote them, and
 * boot-script's -o FILE (boot.h).
 */
#include "boot.h"
#include "boot_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int install_one(const struct mdp_root *r, const struct mdp_boot_file *f, struct mdp_diags *d)
{
	char dir[sizeof(f->sys)], why[256] = "";
	char *slash;
	int err;

	snprintf(dir, sizeof(dir), "%s", f->sys);
	if ((slash = strrchr(dir, '/')) && slash != dir)
		*slash = '\0';
	if ((err = mdp_root_mkdir_p(r, dir, 0755)) ||
	    (err = mdp_root_replace(r, f->sys, f->text, f->len, f->mode))) {
		mdp_diags_add(d, NULL, 0, 0, "cannot install the boot %s %s: %s", f->what, f->sys,
			      mdp_root_strerror(-err));
		return err;
	}
	/* Checked where it landed: what runs as root at boot must be root's alone. */
	if ((err = mdp_root_trusted(r, f->sys, why, sizeof(why)))) {
		mdp_root_unlink(r, f->sys);
		mdp_diags_add(d, NULL, 0, 0,
			      "refusing to install the boot %s %s: %s; others could change what "
			      "runs as root at boot",
			      f->what, f->sys, why[0] ? why : mdp_root_strerror(-err));
	}
	return err;
}

int mdp_boot_install(const struct mdp_root *r, struct mdp_boot_file *f, size_t n,
		     struct mdp_diags *d)
{
	int err = 0;

	for (size_t i = 0; i < n && !err; i++)
		f[i].done = !(err = install_one(r, &f[i], d));
	return err;
}

int mdp_boot_check_binary(const struct mdp_root *r, const char *binary, char *msg, size_t cap)
{
	char why[256] = "";
	int err = mdp_root_trusted(r, binary, why, sizeof(why));

	if (err == -ENOENT)
		snprintf(msg, cap,
			 "--binary %s: no such file; the boot script would fail at every boot",
			 binary);
	else if (err)
		snprintf(msg, cap,
			 "--binary %s: %s; others could change what the boot script runs as root",
			 binary, why[0] ? why : mdp_root_strerror(-err));
	return err;
}

/* What the last component of path is, not followed: 0 with *st, or -errno. */
static int lstat_at(const struct mdp_root *r, const char *path, struct stat *st)
{
	int fd = mdp_root_open(r, path, O_PATH | O_NOFOLLOW, 0), err;

	if (fd < 0)
		return fd;
	err = fstat(fd, st) ? -errno : 0;
	close(fd);
	return err;
}

/* Does the file at f->sys begin as mdprofile writes it (a regular file, not through a link)? */
static bool ours(const struct mdp_root *r, const struct mdp_boot_file *f)
{
	char buf[128];
	size_t want = strlen(f->head), got = 0;
	struct stat st;
	ssize_t k;
	int fd;

	fd = mdp_root_open(r, f->sys, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || want > sizeof(buf)) {
		close(fd);
		return false;
	}
	while (got < want &&
	       ((k = read(fd, buf + got, want - got)) > 0 || (k < 0 && errno == EINTR)))
		got += k > 0 ? (size_t)k : 0;
	close(fd);
	return got == want && !memcmp(buf, f->head, want);
}

int mdp_boot_uninstall(const struct mdp_root *r, struct mdp_boot_file *f, size_t n,
		       struct mdp_diags *d)
{
	struct stat st;
	int err = 0, e;

	for (size_t i = 0; i < n; i++) {
		f[i].done = false;
		if (lstat_at(r, f[i].sys, &st) == -ENOENT)
			continue;
		if (!ours(r, &f[i])) {
			mdp_diags_add(
			    d, NULL, 0, 0,
			    "not removing %s: it is not a boot %s mdprofile wrote (it does "
			    "not begin with mdprofile's header)",
			    f[i].sys, f[i].what);
			err = err ? err : -EPERM;
		} else if ((e = mdp_root_unlink(r, f[i].sys))) {
			mdp_diags_add(d, NULL, 0, 0, "cannot remove the boot %s %s: %s", f[i].what,
				      f[i].sys, mdp_root_strerror(-e));
			err = err ? err : e;
		} else {
			f[i].done = true;
		}
	}
	return err;
}

/* text without its "# generated: " line, the one that changes at every generation */
static void drop_generated(char *text)
{
	char *l = strstr(text, "\n# generated: "), *nl;

	if (l && (nl = strchr(l + 1, '\n')))
		memmove(l + 1, nl + 1, strlen(nl + 1) + 1);
}

int mdp_boot_file_intact(const struct mdp_root *r, const struct mdp_boot_file *f)
{
	struct stat st;
	char *have = NULL, *want;
	size_t len;
	int err, same;

	if ((err = lstat_at(r, f->sys, &st)))
		return err == -ENOENT ? -ENOENT : 0;
	if (!ours(r, f))
		return 0;
	if (!f->text)
		return 1;
	if (mdp_root_read_all(r, f->sys, &have, &len))
		return 0;
	if (!(want = strndup(f->text, f->len))) {
		free(have);
		return -ENOMEM;
	}
	drop_generated(have);
	drop_generated(want);
	same = !strcmp(have, want);
	free(have);
	free(want);
	return same;
}

/* ---- -o FILE -------------------------------------------------------------------------- */

/*
 * Why the directory dir (absolute, links resolved) is one others could
 * change: a directory on the way owned by someone else, or writable by
 * group/others without the sticky bit; the last one owned by someone else
 * or writable by group/others at all. 0, -EPERM with why, or -errno.
 */
static int out_dir_check(const struct mdp_root *r, const char *dir, char *why, size_t cap)
{
	char part[PATH_MAX];
	struct stat st;
	size_t n = strlen(dir);
	int fd, err;

	if (n >= sizeof(part))
		return -ENAMETOOLONG;
	/* "/", then each directory down to dir. */
	for (size_t i = 1; i <= n; i++) {
		bool last = i == n || (i == 1 && n == 1);
		if (i > 1 && !last && dir[i] != '/')
			continue;
		memcpy(part, dir, i);
		part[i] = '\0';
		if ((fd = mdp_root_open(r, part, O_PATH | O_NOFOLLOW | O_DIRECTORY, 0)) < 0)
			return fd;
		err = fstat(fd, &st) ? -errno : 0;
		close(fd);
		if (err)
			return err;
		if (st.st_uid != 0 && st.st_uid != geteuid()) {
			snprintf(why, cap, "directory %s is owned by uid %u", part,
				 (unsigned)st.st_uid);
			return -EPERM;
		}
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && (last || !(st.st_mode & S_ISVTX))) {
			snprintf(why, cap, "directory %s is group/world-writable (mode %04o)", part,
				 (unsigned)(st.st_mode & 07777));
			return -EPERM;
		}
	}
	return 0;
}

/* The directory holding path, links resolved, checked; the resolved path of it in real. */
static int out_place(const struct mdp_root *r, const char *path, char *real, size_t cap, char *why,
		     size_t wcap)
{
	char dir[PATH_MAX], rdir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int err;

	if (!slash || !slash[1] || (size_t)(slash - path) >= sizeof(dir))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash == path ? 1 : slash - path), path);
	if (!realpath(dir, rdir))
		return -errno;
	if ((err = out_dir_check(r, rdir, why, wcap)))
		return err;
	if ((size_t)snprintf(real, cap, "%s%s%s", rdir, strcmp(rdir, "/") ? "/" : "", slash + 1) >=
	    cap)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * Write into what path leads to as it is, as a shell's > would (a device,
 * a FIFO, /dev/stdout's pipe): never created, never renamed over.
 */
static int out_into(const struct mdp_root *r, const char *path, const char *text, size_t len)
{
	struct stat st;
	int fd, err;

	if ((fd = mdp_root_open(r, path, O_WRONLY | O_NOCTTY, 0)) < 0)
		return fd;
	err = fstat(fd, &st) ? -errno : S_ISREG(st.st_mode) ? -ESTALE : 0;
	if (!err)
		err = mdp_root_write_all(fd, text, len);
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int out_write(const struct mdp_root *r, const char *path, const char *text, size_t len,
		     char *shown, size_t cap, char *why, size_t wcap)
{
	char place[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int err;

	/* The place of path itself: others must not be able to swap what is there. */
	if ((err = out_place(r, path, place, sizeof(place), why, wcap)))
		return err;
	if ((err = lstat_at(r, place, &st)) && err != -ENOENT)
		return err;
	if (err || S_ISREG(st.st_mode)) /* new (created there) or a file: replaced */
		return mdp_root_replace(r, place, text, len, 0755);
	if (!S_ISLNK(st.st_mode))
		return out_into(r, path, text, len);
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(why, wcap, "it is a symbolic link owned by uid %u", (unsigned)st.st_uid);
		return -EPERM;
	}
	/*
	 * A link: what it points to. A link that does not resolve (dangling,
	 * or /dev/stdout -> /proc/self/fd/1 -> "pipe:[N]") is never created
	 * through nor replaced: it is opened for writing as it is.
	 */
	if (!realpath(path, real))
		return errno == ENOENT ? out_into(r, path, text, len) : -errno;
	snprintf(shown, cap, "%s", real);
	if ((err = lstat_at(r, real, &st)))
		return err;
	if (!S_ISREG(st.st_mode))
		return out_into(r, real, text, len);
	if ((err = out_place(r, real, place, sizeof(place), why, wcap)))
		return err;
	return mdp_root_replace(r, place, text, len, 0755);
}

int mdp_boot_write_out(const struct mdp_root *r, const char *path, const char *text, size_t len,
		       char *shown, size_t cap, struct mdp_diags *d)
{
	char why[PATH_MAX + 64] = "";
	int err;

	snprintf(shown, cap, "%s", path);
	err = out_write(r, path, text, len, shown, cap, why, sizeof(why));
	if (err == -EPERM && why[0])
		mdp_diags_add(d, NULL, 0, 0,
			      "refusing to write %s: %s; others could change what runs as root at "
			      "boot",
			      path, why);
	else if (err == -ESTALE)
		mdp_diags_add(d, NULL, 0, 0,
			      "refusing to write %s: a link that does not resolve leads to a "
			      "regular file",
			      path);
	else if (err)
		mdp_diags_add(d, NULL, 0, 0, "cannot write %s: %s", path, mdp_root_strerror(-err));
	return err == -ESTALE ? -EPERM : err;
}

int mdp_boot_install_script(const struct mdp_root *r, const struct mdp_profile *p,
			    const struct mdp_boot_opts *o, const char *script, size_t len,
			    struct mdp_boot_file *f, size_t *n, struct mdp_diags *d)
{
	int err = mdp_boot_files(p, o, script, len, f, n, d);

	return err ? err : mdp_boot_install(r, f, *n, d);
}

int mdp_boot_uninstall_named(const struct mdp_root *r, const char *name,
			     const struct mdp_boot_opts *o, struct mdp_boot_file *f, size_t *n,
			     struct mdp_diags *d)
{
	int err;

	*n = 0;
	if ((err = mdp_boot_paths(name, o, f, n, d)))
		return err;
	if (o->target == MDP_BOOT_SYSTEMD && mdp_boot_unit_enabled(r, name)) {
		mdp_boot_files_free(f, *n);
		*n = 0;
		return -EBUSY;
	}
	return mdp_boot_uninstall(r, f, *n, d);
}
