/*
 * volbench: volume throughput without the page-cache trap (volbench.h).
 *
 * Why each step: the write clock stops after fdatasync, as dd's
 * conv=fdatasync does, so the figure is the disks' and not the page
 * cache's. The read either bypasses the cache (O_DIRECT, opened anew for
 * each run) or starts from a file whose pages were dropped and then
 * checked with mincore(): posix_fadvise is only advice, and tmpfs keeps
 * every page whatever it is told. No global drop_caches: on a NAS that
 * serves clients it evicts everything they had, for one measurement.
 */
#include "volbench.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "mdp_base.h"

#define WINDOW ((uint64_t)64 << 20) /* mincore() window: 32-bit NAS boxes map little */

/*
 * The default size for a directory with free_bytes free: 10% of it, at
 * most 2 GiB, in whole MiB. 0 when that is under 1 MiB.
 */
static uint64_t default_size(uint64_t free_bytes)
{
	uint64_t s = free_bytes / 10;

	if (s > MDP_VB_MAX_SIZE)
		s = MDP_VB_MAX_SIZE;
	return s / MDP_VB_CHUNK * MDP_VB_CHUNK;
}

double mdp_vb_mbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 1e3 / (double)ns : 0.0;
}

void mdp_vb_free(struct mdp_vb *b)
{
	free(b->v);
	b->v = NULL;
	b->n = 0;
}

/* ---- finding the volume ------------------------------------------------------ */

/* /proc/mounts writes a space in a path as \040 (and tab, newline, backslash alike). */
static void unescape_mount(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/*
 * Device-mapper layers stack: SHR is LVM over md, and DSM 7 puts a second
 * layer on top (cachedev_N over vgN-volume_N over md2, md3). Slaves are
 * followed down through any dm-N, to this depth (a loop in a fixture tree
 * ends there too).
 */
#define DM_DEPTH 8

/* dm-N has an md array under it, through any number of dm layers. */
static bool dm_on_md(const struct mdp_root *r, const char *dm, int depth)
{
	char path[96], **names;
	size_t n;
	bool md = false;

	if (depth >= DM_DEPTH)
		return false;
	snprintf(path, sizeof(path), "/sys/block/%s/slaves", dm);
	if (mdp_root_list(r, path, &names, &n))
		return false;
	for (size_t i = 0; i < n && !md; i++) {
		if (!mdp_ident_kname_ok(names[i], strlen(names[i])))
			continue;
		md = !strncmp(names[i], "md", 2) ||
		     (!strncmp(names[i], "dm-", 3) && dm_on_md(r, names[i], depth + 1));
	}
	mdp_root_free_list(names, n);
	return md;
}

/* The dm-N whose dm/name is name (/dev/mapper/NAME) is on md. */
static bool mapper_on_md(const struct mdp_root *r, const char *name)
{
	char path[96], got[128], **blk;
	size_t n;
	bool md = false;

	if (mdp_root_list(r, "/sys/block", &blk, &n))
		return false;
	for (size_t i = 0; i < n && !md; i++) {
		if (strncmp(blk[i], "dm-", 3) || !mdp_ident_kname_ok(blk[i], strlen(blk[i])))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dm/name", blk[i]);
		if (mdp_root_read_value(r, path, got, sizeof(got)) > 0 && !strcmp(got, name))
			md = dm_on_md(r, blk[i], 0);
	}
	mdp_root_free_list(blk, n);
	return md;
}

/*
 * /dev/VG/LV (DSM 6's /dev/vg1000/lv): LVM's device-mapper name is VG-LV
 * with each '-' inside either name doubled.
 */
static bool lvm_on_md(const struct mdp_root *r, const char *dev)
{
	const char *vg = dev + 5, *lv = strchr(vg, '/');
	char name[128];
	size_t o = 0;

	if (!lv || strchr(lv + 1, '/') || lv == vg || !lv[1])
		return false;
	for (const char *p = vg; *p && o + 3 < sizeof(name); p++) {
		if (p == lv) {
			name[o++] = '-';
			continue;
		}
		if (*p == '-')
			name[o++] = '-';
		name[o++] = *p;
	}
	if (o + 3 >= sizeof(name))
		return false;
	name[o] = '\0';
	return mapper_on_md(r, name);
}

static bool on_md(const struct mdp_root *r, const char *dev)
{
	const char *base = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;

	if (!strncmp(dev, "/dev/md", 7))
		return true; /* /dev/md2, /dev/md/data */
	if (!strncmp(dev, "/dev/dm-", 8) && mdp_ident_kname_ok(base, strlen(base)))
		return dm_on_md(r, base, 0);
	if (!strncmp(dev, "/dev/mapper/", 12) && !strchr(base, '.'))
		return mapper_on_md(r, base);
	if (!strncmp(dev, "/dev/", 5) && !strchr(dev, '.'))
		return lvm_on_md(r, dev);
	return false;
}

int mdp_vb_find_volume(const struct mdp_root *r, char *sys, size_t syslen, char *host,
		       size_t hostlen, struct mdp_diags *d)
{
	char *text, *save = NULL, *line, found[4096] = "";
	int err = mdp_root_read_all(r, "/proc/mounts", &text, NULL);

	if (err) {
		mdp_diags_add(d, "/proc/mounts", 0, 0, "cannot read it: %s",
			      mdp_root_strerror(-err));
		return err;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *dev = strtok(line, " "), *mnt = strtok(NULL, " ");
		if (!dev || !mnt || !on_md(r, dev))
			continue;
		unescape_mount(mnt);
		/* /volume1 first, then the first other volume; "/" (DSM's md0) only as a last
		 * resort */
		if (!found[0] || (!strcmp(mnt, "/volume1") && strcmp(found, "/volume1")) ||
		    (!strcmp(found, "/") && strcmp(mnt, "/")))
			snprintf(found, sizeof(found), "%s", mnt);
	}
	free(text);
	if (!found[0]) {
		mdp_diags_add(d, NULL, 0, 0,
			      "no mounted filesystem on an md array was found in /proc/mounts; "
			      "give one with --path DIR");
		return -ENOENT;
	}
	if ((size_t)snprintf(sys, syslen, "%s", found) >= syslen)
		return -ENAMETOOLONG;
	return mdp_root_path(r, found, host, hostlen);
}

/* ---- one run ----------------------------------------------------------------- */

struct io {
	struct mdp_vb *b;
	int dirfd;
	struct stat written; /* the test file as created: the read must open this one */
	char *buf;
	struct mdp_diags *d;
};

static bool stop(struct io *io)
{
	int sig = io->b->stop_requested ? io->b->stop_requested() : 0;

	if (sig)
		io->b->stop_signal = sig;
	return sig != 0;
}

static void tick(struct io *io, bool read, uint64_t done, uint64_t t0)
{
	const struct mdp_vb_progress *p = io->b->progress;
	struct mdp_vb_tick t = {read, io->b->n + 1, done, 0};

	if (!p || !p->fn)
		return;
	t.ns = mdp_mono_ns() - t0;
	p->fn(p->arg, io->b, &t);
}

static int fail(struct io *io, const char *what, int err)
{
	mdp_diags_add(io->d, NULL, 0, 0, "%s/%s: %s failed: %s", io->b->dir, io->b->file, what,
		      strerror(-err));
	return err;
}

/* Write size bytes and flush them to the disks. 1 when stopped. */
static int write_file(struct io *io, int fd, uint64_t *ns)
{
	uint64_t t0 = mdp_mono_ns();

	for (uint64_t done = 0; done < io->b->size;) {
		ssize_t w = write(fd, io->buf, MDP_VB_CHUNK);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return fail(io, "write", w < 0 ? -errno : -ENOSPC);
		done += (uint64_t)w;
		if (stop(io))
			return 1;
		tick(io, false, done, t0);
	}
	if (fdatasync(fd))
		return fail(io, "fdatasync", -errno);
	*ns = mdp_mono_ns() - t0;
	return 0;
}

/* Pages of fd's first size bytes still in the page cache. */
static uint64_t resident(int fd, uint64_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *vec = malloc(WINDOW / 4096 + 1);
	uint64_t n = 0;

	if (!vec || page <= 0)
		goto out;
	for (uint64_t off = 0; off < size; off += WINDOW) {
		size_t len = size - off < WINDOW ? (size_t)(size - off) : (size_t)WINDOW;
		void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
		if (m == MAP_FAILED) {
			n = size; /* cannot tell: count it as cached */
			break;
		}
		if (!mincore(m, len, vec))
			for (size_t i = 0; i < (len + (size_t)page - 1) / (size_t)page; i++)
				n += vec[i] & 1;
		munmap(m, len);
	}
out:
	free(vec);
	return n * (uint64_t)(page > 0 ? page : 4096);
}

/* tmpfs and ramfs are the page cache: nothing is ever read from a disk there. */
static bool in_ram(int fd)
{
	struct statfs sf;

	return !fstatfs(fd, &sf) &&
	       ((unsigned long)sf.f_type == TMPFS_MAGIC || (unsigned long)sf.f_type == RAMFS_MAGIC);
}

/*
 * The file at our name is the one written: never block on what someone put
 * there instead (a FIFO), never measure another file. fd is closed if not.
 */
static int same_file(struct io *io, int fd)
{
	struct stat st;
	int fl;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_dev != io->written.st_dev ||
	    st.st_ino != io->written.st_ino) {
		close(fd);
		mdp_diags_add(io->d, NULL, 0, 0,
			      "%s/%s: the test file was replaced while it was written (someone who "
			      "can write %s); give a --path only you can write",
			      io->b->dir, io->b->file, io->b->dir);
		return -EPERM;
	}
	/* Ours: from here an ordinary blocking read (O_DIRECT stays). */
	if ((fl = fcntl(fd, F_GETFL)) >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

#define READ_FLAGS (O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)

/* Open the file for a read that does not come from the cache, when it can. */
static int open_cold(struct io *io)
{
	int fd = openat(io->dirfd, io->b->file, READ_FLAGS | O_DIRECT);

	/* Linux 6.6+ accepts O_DIRECT on tmpfs, and still reads RAM. */
	if (fd >= 0 && (fd = same_file(io, fd)) < 0)
		return fd;
	if (fd >= 0 && in_ram(fd)) {
		io->b->method = MDP_VB_CACHED;
		return fd;
	}
	if (fd >= 0) {
		io->b->method = MDP_VB_DIRECT;
		return fd;
	}
	if (errno != EINVAL)
		return fail(io, "open", -errno);
	if ((fd = openat(io->dirfd, io->b->file, READ_FLAGS)) < 0)
		return fail(io, "open", -errno);
	if ((fd = same_file(io, fd)) < 0)
		return fd;
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	/* A hundredth left over is noise; more means the cache kept the file. */
	io->b->method =
	    resident(fd, io->b->size) > io->b->size / 100 ? MDP_VB_CACHED : MDP_VB_DROPPED;
	return fd;
}

static int read_file(struct io *io, uint64_t *ns)
{
	uint64_t t0, done = 0;
	int fd = open_cold(io), err = 0;

	if (fd < 0)
		return fd;
	t0 = mdp_mono_ns();
	while (done < io->b->size) {
		ssize_t r = read(fd, io->buf, MDP_VB_CHUNK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = fail(io, "read", r < 0 ? -errno : -EIO);
			break;
		}
		done += (uint64_t)r;
		if (stop(io)) {
			err = 1;
			break;
		}
		tick(io, true, done, t0);
	}
	if (!err)
		*ns = mdp_mono_ns() - t0;
	close(fd);
	return err;
}

static int run_one(struct io *io, struct mdp_vb_run *run)
{
	int fd = openat(io->dirfd, io->b->file,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int err;

	struct stat st;

	if (fd < 0)
		return fail(io, "create", -errno);
	if (fstat(fd, &io->written)) {
		err = fail(io, "fstat", -errno);
		close(fd);
		unlinkat(io->dirfd, io->b->file, 0);
		return err;
	}
	err = write_file(io, fd, &run->write_ns);
	if (close(fd) && !err)
		err = fail(io, "close", -errno);
	if (!err)
		err = read_file(io, &run->read_ns);
	/* Whatever happened, the file goes; only ours, not what took its name. */
	if (!fstatat(io->dirfd, io->b->file, &st, AT_SYMLINK_NOFOLLOW) &&
	    st.st_dev == io->written.st_dev && st.st_ino == io->written.st_ino)
		unlinkat(io->dirfd, io->b->file, 0);
	return err;
}

/* ---- the benchmark ------------------------------------------------------------- */

static int check_space(struct mdp_vb *b, int dirfd, struct mdp_diags *d)
{
	struct statvfs sv;
	uint64_t margin;

	if (fstatvfs(dirfd, &sv))
		return -errno;
	b->free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (!b->size)
		b->size = default_size(b->free_bytes);
	margin =
	    b->free_bytes / 100 > MDP_VB_MARGIN_BYTES ? b->free_bytes / 100 : MDP_VB_MARGIN_BYTES;
	if (b->size < MDP_VB_MIN_SIZE || b->size > b->free_bytes ||
	    b->free_bytes - b->size < margin) {
		mdp_diags_add(d, NULL, 0, 0,
			      "%s: %llu MiB free; a test of %llu MiB needs %llu MiB more to spare "
			      "(give a smaller --size)",
			      b->dir, (unsigned long long)(b->free_bytes >> 20),
			      (unsigned long long)(b->size >> 20),
			      (unsigned long long)(margin >> 20));
		return -ENOSPC;
	}
	return 0;
}

static void fill(char *buf)
{
	uint64_t x = 0x9e3779b97f4a7c15u;

	/* Not zeros: a filesystem that compresses or dedups would write nothing. */
	for (size_t i = 0; i < MDP_VB_CHUNK; i += sizeof(x)) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(buf + i, &x, sizeof(x));
	}
}

/* Beneath the root when the directory came from its tree; as given for --path. */
static int open_dir(struct mdp_vb *b, struct mdp_diags *d)
{
	struct stat st;
	int fd;

	if (b->root && b->sys_dir)
		fd = mdp_root_open(b->root, b->sys_dir, O_RDONLY | O_DIRECTORY, 0);
	else if ((fd = open(b->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		fd = -errno;
	if (fd < 0) {
		mdp_diags_add(d, NULL, 0, 0, "%s: %s", b->dir,
			      fd == -ENOTDIR ? "not a directory (give the directory of a "
					       "mounted volume, never a device)"
					     : mdp_root_strerror(-fd));
		return fd;
	}
	if (fstat(fd, &st)) {
		close(fd);
		return -EIO;
	}
	b->dev = st.st_dev;
	/*
	 * Where others can rename our file away and put theirs in its place (group/world
	 * writable and not sticky, or owned by someone who could make it so), nothing is
	 * written: the same rule as for every other file mdprofile writes as root.
	 */
	if (((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) ||
	    (st.st_uid != 0 && st.st_uid != geteuid())) {
		mdp_diags_add(d, NULL, 0, 0,
			      "%s: others can write this directory or own it, so they could swap "
			      "the test file; give --path a directory only you can write (chmod "
			      "go-w, or a subdirectory of your own)",
			      b->dir);
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* A test file of ours left by a run that was killed: its process is gone. */
static bool stale_name(const char *name, pid_t *pid)
{
	static const char pfx[] = ".mdprofile-bench.";
	char *end;
	long v;

	if (strncmp(name, pfx, sizeof(pfx) - 1) || !name[sizeof(pfx) - 1])
		return false;
	errno = 0;
	v = strtol(name + sizeof(pfx) - 1, &end, 10);
	if (*end || errno || v <= 0 || v > INT32_MAX)
		return false;
	*pid = (pid_t)v;
	/* our own pid: not created yet, so an earlier process's */
	return *pid == getpid() || (kill(*pid, 0) && errno == ESRCH);
}

static void remove_stale(struct mdp_vb *b, int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	struct stat st;
	pid_t pid;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(dir)))
		if (stale_name(e->d_name, &pid) &&
		    !fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
		    st.st_uid == geteuid() && !unlinkat(dirfd, e->d_name, 0)) {
			b->stale_removed++;
			b->stale_bytes += (uint64_t)st.st_size;
		}
	closedir(dir);
}

int mdp_vb_run(struct mdp_vb *b, struct mdp_diags *d)
{
	struct io io = {.b = b, .d = d};
	void *buf = NULL;
	int err;

	b->n = 0;
	b->stop_signal = 0;
	b->size = (b->size + MDP_VB_CHUNK - 1) / MDP_VB_CHUNK * MDP_VB_CHUNK;
	snprintf(b->file, sizeof(b->file), ".mdprofile-bench.%ld", (long)getpid());
	b->stale_removed = 0;
	b->stale_bytes = 0;
	if ((io.dirfd = open_dir(b, d)) < 0)
		return io.dirfd;
	remove_stale(b, io.dirfd);
	if ((err = check_space(b, io.dirfd, d)))
		goto out;
	err = -ENOMEM;
	if (posix_memalign(&buf, 4096, MDP_VB_CHUNK) || !(b->v = calloc(b->runs, sizeof(*b->v))))
		goto out;
	io.buf = buf;
	fill(io.buf);
	for (err = 0; b->n < b->runs && !err; b->n++)
		err = run_one(&io, &b->v[b->n]);
	if (err > 0) { /* stopped: the run under way does not count */
		b->n--;
		err = 0;
	}
out:
	free(buf);
	close(io.dirfd);
	return err;
}
