/*
 * root: every access mdprofile makes to the system goes through here.
 *
 * A root is a prefix ("" for the real system, or a fixture tree given with
 * --root / MDPROFILE_ROOT) plus a const ops table for the operations that
 * change things. No other module builds absolute system paths from a
 * prefix; they pass system paths such as
 * "/sys/block/md2/md/stripe_cache_size" and root maps them.
 *
 * Under a fixture root every path is resolved beneath the tree (see
 * resolve_int.h): a symlink that would lead out of it, absolute or by "..",
 * makes the access fail with -EXDEV instead of touching the host. Relative
 * links inside the tree (sysfs's own, as copied) are followed. On the real
 * root paths are opened as they are, so sysfs's links work as ever.
 *
 * The ops table is chosen by mdp_root_init(): plain syscalls on the real
 * root, and under a fixture root mdp_root_fixture_ops, which stands in for
 * the kernel (see root_fixture.c). Tests and the fault seam wrap the table
 * in place: a wrapper keeps the ops it replaced and calls them.
 */
#ifndef MDP_ROOT_H
#define MDP_ROOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct mdp_root;

/*
 * Each op gets its own table (self) so that a wrapper finds its state
 * around it (container_of) and chains to the table it wraps.
 */
struct mdp_root_ops {
	/* Write data to an existing file (sysfs/procfs attribute) at system path sys. */
	int (*write)(const struct mdp_root_ops *self, const struct mdp_root *r, const char *sys,
		     const char *data, size_t len);
	/* fsync an open fd (journal file or its directory). */
	int (*fsync)(const struct mdp_root_ops *self, const struct mdp_root *r, int fd);
	/* rename(2) of system path from to system path to. */
	int (*rename)(const struct mdp_root_ops *self, const struct mdp_root *r, const char *from,
		      const char *to);
};

/* Plain syscalls, the real root's ops: one write(2) per value, no create. */
extern const struct mdp_root_ops mdp_root_plain_ops;
/*
 * A fixture tree's ops: plain, except that md's sync_speed_min/max are
 * stored the way the kernel shows them ("N (local)" / "N (system)") and
 * follow the dev.raid sysctls, so a revert is byte for byte on fixtures
 * as on the kernel. Never used on the real root.
 */
extern const struct mdp_root_ops mdp_root_fixture_ops;

/*
 * The read-side layer of a root (mdp_root_layer): a tap that sees every
 * successful read, for a caller that records what it read (explain
 * --capture). sys is the system path asked for, data what the read
 * returned (len bytes: a file's contents up to what the caller read, or a
 * link's target when link is set). The tap cannot fail a read: a tap that
 * runs out of memory keeps that in its own state.
 */
struct mdp_root_tap {
	void (*fn)(const struct mdp_root_tap *self, const char *sys, const char *data, size_t len,
		   bool link);
};

struct mdp_root {
	char prefix[PATH_MAX]; /* "" for the real root, else absolute, no trailing '/' */
	int fd;                /* O_PATH descriptor of prefix; -1 on the real root */
	const struct mdp_root_ops *ops;
	/* the read-side layer (mdp_root_layer); NULL on a root mdp_root_init made */
	const struct mdp_root *fallback;
	const struct mdp_root_tap *tap;
	/* the caller named this tree for its programs to run (mdp_root_allow_exec) */
	bool exec_named;
};

/*
 * dir NULL, "" or "/" means the real root. dir must exist and be a
 * directory; it is held open until mdp_root_fini().
 */
int mdp_root_init(struct mdp_root *r, const char *dir);
/* Close what mdp_root_init() opened. r may be initialised again after. */
void mdp_root_fini(struct mdp_root *r);
bool mdp_root_is_real(const struct mdp_root *r);

/*
 * A layered view of own, for reading: out reads own's tree, and
 *  - with fallback, a path missing there (ENOENT, ENOTDIR) is read from
 *    fallback instead (itself a root with its own layer, if any): a tree
 *    that holds only what changed over a whole one, as explain's replay
 *    reads /.explain/1 over the first sample. A directory is listed as the
 *    union of both; exists and is_dir ask fallback when own says no;
 *  - with tap, every successful read, read_value, read_all and readlink
 *    (whichever tree served it) is shown to tap once.
 * mdp_root_read, read_value, read_all, readlink, exists, is_dir and list
 * honour the layer; everything else (path, open, write, mkdir, replace,
 * trusted) acts on own's tree alone. out shares own's descriptor: never
 * mdp_root_fini it, and finish with it before own. A layer own had is
 * replaced by this one; fallback and tap may be NULL.
 */
void mdp_root_layer(struct mdp_root *out, const struct mdp_root *own,
		    const struct mdp_root *fallback, const struct mdp_root_tap *tap);

/*
 * Map a system path ("/proc/mdstat") to the host path, for messages and for
 * paths handed to other programs. Opening it directly would bypass the
 * resolution beneath the root: use the functions below. -ENAMETOOLONG, -EINVAL.
 */
int mdp_root_path(const struct mdp_root *r, const char *sys, char *buf, size_t len);

/*
 * The box's time zone, as the C library's TZ takes it, into tz: on a fixture
 * tree, its /etc/localtime (":HOSTPATH", once it opens beneath the tree as a
 * regular file), so that a tree carries its box's zone, and UTC
 * (MDP_ROOT_ZONE_NONE) when it has none, as the C library takes a box
 * without one or with one it cannot read: never the caller's own zone. DSM
 * keeps its zone there too (struct mdp_boot_dsm). -ENOENT on the real root,
 * where the library reads TZ and /etc/localtime itself.
 */
#define MDP_ROOT_ZONE_NONE "UTC0"
int mdp_root_zone(const struct mdp_root *r, char *tz, size_t cap);

/* Read a whole small file into buf (NUL-terminated), trailing whitespace and newlines stripped.
 * Returns length or -errno. */
ssize_t mdp_root_read_value(const struct mdp_root *r, const char *sys, char *buf, size_t cap);
/* What mdp_root_read_all reads at most: a bigger file is -EFBIG ("File too large"). */
#define MDP_ROOT_READ_MAX ((size_t)1 << 27)
/* Read a file of any size up to MDP_ROOT_READ_MAX; *out malloc'd and NUL-terminated. */
int mdp_root_read_all(const struct mdp_root *r, const char *sys, char **out, size_t *len);
/*
 * Read fd to its end; *out malloc'd and NUL-terminated. A file that needs a buffer of more
 * than max bytes returns too_big (a -errno). fd stays open.
 */
int mdp_root_read_fd(int fd, size_t max, int too_big, char **out, size_t *len);
bool mdp_root_exists(const struct mdp_root *r, const char *sys);
bool mdp_root_is_dir(const struct mdp_root *r, const char *sys);

/* Sorted directory entries (no "." / ".."), each malloc'd; free with mdp_root_free_list. */
int mdp_root_list(const struct mdp_root *r, const char *sys_dir, char ***names, size_t *n);
void mdp_root_free_list(char **names, size_t n);
/* readlink(2) of a system path, NUL-terminated. */
int mdp_root_readlink(const struct mdp_root *r, const char *sys, char *buf, size_t cap);

/* Write a value to a kernel attribute through ops->write (value as given). */
int mdp_root_write(const struct mdp_root *r, const char *sys, const char *value);

/*
 * May mdprofile trust sys under this root (run it, or take orders from it)?
 * The file and every directory from the root down to it must be owned by
 * root or the caller, not writable by group or others, and none may be a
 * symlink, so that nobody else can change or swap it. 0, or -EPERM with
 * the reason in why ("group/world-writable (mode 0775)", or "/R/usr is a
 * symbolic link" when it is a directory on the way); another -errno when
 * a component cannot be examined.
 */
int mdp_root_trusted(const struct mdp_root *r, const char *sys, char *why, size_t cap);

/*
 * Programs in a tree. A --root tree is files someone made, and an explain
 * capture (extracted, a tree like any other) files someone sent: what the
 * tree holds is data, however its files are owned (extraction gives them
 * to whoever extracts them). A program in a tree therefore runs (exec.h,
 * the watcher's keeper) only when all of these hold:
 *  - the tree holds no capture: nothing at MDP_ROOT_CAPTURE_MARK, which
 *    every capture carries (.explain/elapsed_ms at least);
 *  - the caller named the tree in MDPROFILE_ROOT_EXEC (MDP_ROOT_EXEC_ENV),
 *    a ':'-separated list of directories: mdp_root_allow_exec(r, list)
 *    marks r when one of them is r's tree (the same device and inode).
 *    mdprofile's own tests name the trees they install fake tools in;
 *  - nobody but root or the caller can change the tree or the way to it:
 *    every directory from / down to the tree's top owned by root or the
 *    caller, the top writable by nobody else, those above it not
 *    writable by group or others unless sticky (/tmp), each opened
 *    without following a link; and beneath the top, the program and its
 *    directories as mdp_root_trusted says.
 * mdp_root_exec_trusted: 0 (always on the real root), or -EPERM with the
 * reason in why; another -errno when a component cannot be examined.
 * Programs run under a named tree get it named again (mdp_root_env), so
 * a fake that runs mdprofile in turn is trusted the same way.
 */
#define MDP_ROOT_EXEC_ENV     "MDPROFILE_ROOT_EXEC"
#define MDP_ROOT_CAPTURE_MARK "/.explain"
void mdp_root_allow_exec(struct mdp_root *r, const char *list);
int mdp_root_exec_trusted(const struct mdp_root *r, const char *sys, char *why, size_t cap);

/*
 * The environment a program run under r is told its root by: none on the
 * real root, else MDPROFILE_ROOT=PREFIX and, when r->exec_named,
 * MDPROFILE_ROOT_EXEC=PREFIX. Points env[0..n) into vars; returns n.
 */
struct mdp_root_env {
	char root[PATH_MAX + 32], exec[PATH_MAX + 32];
};
size_t mdp_root_env(const struct mdp_root *r, struct mdp_root_env *vars, char *env[2]);

/* strerror(err) for errors from this module: EXDEV says a link leads out of the root. */
const char *mdp_root_strerror(int err);

/* mkdir -p of a system path with mode for created components. */
int mdp_root_mkdir_p(const struct mdp_root *r, const char *sys, mode_t mode);
/* open(2) of a system path (O_CLOEXEC added). Returns fd or -errno. */
int mdp_root_open(const struct mdp_root *r, const char *sys, int flags, mode_t mode);
/* write(2) all of data to fd (an mdp_root_open one), again after EINTR; 0 or -errno. */
int mdp_root_write_all(int fd, const void *data, size_t len);
/* unlink(2) of a system path; -ENOENT is returned as is. */
int mdp_root_unlink(const struct mdp_root *r, const char *sys);
/*
 * Atomically replace a file: write a new temporary file beside it
 * (sys.tmp.RANDOM, created with O_EXCL|O_NOFOLLOW, so nothing planted there
 * is reused, followed or blocked on), fchmod it to mode exactly, fsync,
 * rename over sys, fsync the directory. Uses ops->fsync and ops->rename (so
 * tests can fail them). On failure the old file is untouched and the temp
 * file removed.
 */
int mdp_root_replace(const struct mdp_root *r, const char *sys, const void *data, size_t len,
		     mode_t mode);

/*
 * A file the user named on the command line (status --output, auto
 * --textfile, explain --capture): a path on the real system whatever the
 * root, relative to the working directory, replaced whole at each write.
 *
 * mdp_root_out_open opens its folder once, before anything is done, and
 * every write is made relative to that descriptor (a new file created
 * beside FILE with O_EXCL|O_NOFOLLOW, fsynced, renameat over FILE, the
 * folder fsynced), so that whoever can rename directories above it cannot
 * send a later write elsewhere. The folder's path is resolved once
 * (realpath: links the user named are followed), then opened from / one
 * directory at a time following no link. Refused, -EPERM with why:
 *  - a directory on the way that group or others can write, unless it is
 *    sticky (/tmp); a directory above the folder may be another user's
 *    (Debian's /var/lib/prometheus is the prometheus user's): that user
 *    can move the folders below it, not make a write leave the one opened;
 *  - the folder itself writable by group or others;
 *  - the folder owned by a user other than root and the caller, unless
 *    FILE is there and is that user's: the new file is then given to that
 *    user (owner and group as the old one's), so it stays theirs.
 * Also refused: a symbolic link, device, FIFO or socket at FILE (-EINVAL:
 * the new file would replace it, /dev/null or /dev/stdout, for every other
 * program), FILE naming a directory (-EISDIR), a folder that does not
 * exist (-ENOENT, -ENOTDIR). why says which ("its directory does not
 * exist"); empty for another -errno. A directory at FILE passes: the
 * rename fails on it.
 *
 * mdp_root_out_replace writes data as FILE's new content, mode exactly
 * mode; on failure the old file is left and no temporary remains.
 * mdp_root_out_close closes the folder (a zeroed or closed one: nothing).
 */
struct mdp_root_out {
	bool open;
	int dir; /* O_PATH descriptor of FILE's folder */
	char name[NAME_MAX + 1];
	bool give; /* the folder and FILE are another user's: the new file is theirs */
	uid_t uid;
	gid_t gid;
};
int mdp_root_out_open(struct mdp_root_out *o, const char *file, char *why, size_t cap);
int mdp_root_out_replace(const struct mdp_root_out *o, const void *data, size_t len, mode_t mode);
void mdp_root_out_close(struct mdp_root_out *o);

#endif
