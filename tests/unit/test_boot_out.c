/*
 * test_boot_out: boot-script's -o FILE (mdp_boot_write_out) on the real root, in a folder of
 * its own under /tmp: a new or regular file replaced whole at mode 0755, a link to a file
 * replacing the file, a link that does not resolve written into as it is (a pipe, as
 * /dev/stdout is) and never created through, and every place others could swap what is
 * written refused before anything is: the folder holding it or one on the way writable by
 * others, either owned by someone else, a link someone else owns.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "boot.h"
#include "support.h"

#define SCRIPT "#!/bin/sh\n# mdprofile's boot script\necho applied\n"

struct out {
	char dir[64];
	struct mdp_root r;
	struct mdp_diags d;
	char shown[PATH_MAX];
};

static int out_setup(void **state)
{
	struct out *o = calloc(1, sizeof(*o));

	if (!o)
		return -1;
	snprintf(o->dir, sizeof(o->dir), "/tmp/mdp-bout-XXXXXX");
	if (!mkdtemp(o->dir) || mdp_root_init(&o->r, NULL)) {
		free(o);
		return -1;
	}
	mdp_diags_init(&o->d);
	*state = o;
	return 0;
}

static int out_teardown(void **state)
{
	struct out *o = *state;

	mdp_diags_free(&o->d);
	mdp_root_fini(&o->r);
	test_sh("rm -rf '%s'", o->dir);
	free(o);
	return 0;
}

/* Write SCRIPT to the folder's name: what mdp_boot_write_out returns (diags in o->d). */
static int write_out(struct out *o, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	mdp_diags_free(&o->d);
	mdp_diags_init(&o->d);
	return mdp_boot_write_out(&o->r, path, SCRIPT, strlen(SCRIPT), o->shown, sizeof(o->shown),
				  &o->d);
}

/* The folder's file name holds want. */
static void expect_text(const struct out *o, const char *name, const char *want)
{
	char path[PATH_MAX], buf[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	assert_non_null(f = fopen(path, "r"));
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	assert_string_equal(buf, want);
}

/* The one diagnostic is before, the folder, after. */
static void expect_diag(const struct out *o, const char *before, const char *after)
{
	char want[512];

	snprintf(want, sizeof(want), "%s%s%s", before, o->dir, after);
	assert_int_equal(o->d.n, 1);
	assert_string_equal(o->d.v[0].msg, want);
}

static mode_t mode_of(const struct out *o, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode;
}

/* A new file and a regular one: written whole at 0755, nothing left beside. */
static void test_new_and_regular(void **state)
{
	struct out *o = *state;
	char want[PATH_MAX];

	assert_int_equal(write_out(o, "boot.sh"), 0);
	snprintf(want, sizeof(want), "%s/boot.sh", o->dir);
	assert_string_equal(o->shown, want);
	expect_text(o, "boot.sh", SCRIPT);
	assert_int_equal(mode_of(o, "boot.sh") & 07777, 0755);
	test_sh("printf 'old\\n' >'%s/old.sh' && chmod 0600 '%s/old.sh'", o->dir, o->dir);
	assert_int_equal(write_out(o, "old.sh"), 0);
	expect_text(o, "old.sh", SCRIPT);
	assert_int_equal(mode_of(o, "old.sh") & 07777, 0755);
	assert_int_equal(o->d.n, 0);
	test_sh("cd '%s' && [ \"$(ls -A | tr '\\n' ' ')\" = 'boot.sh old.sh ' ]", o->dir);
	/* no file name, or no folder to hold it */
	assert_int_equal(write_out(o, ""), -EINVAL);
	expect_diag(o, "cannot write ", "/: Invalid argument");
	assert_int_equal(write_out(o, "none/boot.sh"), -ENOENT);
	expect_diag(o, "cannot write ", "/none/boot.sh: No such file or directory");
}

/* A link to a file: the file replaced, the link kept, shown the file. */
static void test_link_to_file(void **state)
{
	struct out *o = *state;
	char want[PATH_MAX], buf[256] = "";
	int fd;

	test_sh("cd '%s' && mkdir sub && echo old >sub/target.sh && ln -s sub/target.sh link.sh",
		o->dir);
	assert_int_equal(write_out(o, "link.sh"), 0);
	snprintf(want, sizeof(want), "%s/sub/target.sh", o->dir);
	assert_string_equal(o->shown, want);
	assert_true(S_ISLNK(mode_of(o, "link.sh")));
	expect_text(o, "sub/target.sh", SCRIPT);
	assert_int_equal(mode_of(o, "sub/target.sh") & 07777, 0755);
	/* a link to a FIFO (as to a device): written into, the FIFO left as it is; its reader
	 * opened first, so that the write does not wait (never /dev/null: a bug here would
	 * replace it) */
	test_sh("cd '%s' && mkfifo sub/fifo && ln -s sub/fifo fifo.sh", o->dir);
	snprintf(want, sizeof(want), "%s/sub/fifo", o->dir);
	assert_true((fd = open(want, O_RDONLY | O_NONBLOCK)) >= 0);
	assert_int_equal(write_out(o, "fifo.sh"), 0);
	assert_string_equal(o->shown, want);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), strlen(SCRIPT));
	assert_string_equal(buf, SCRIPT);
	close(fd);
	assert_true(S_ISFIFO(mode_of(o, "sub/fifo")));
}

/* A link that does not resolve: a pipe's /proc/self/fd/N gets the script, nothing else. */
static void test_unresolved_links(void **state)
{
	struct out *o = *state;
	char want[PATH_MAX], buf[256] = "", path[PATH_MAX];
	int p[2], fd;

	assert_int_equal(pipe(p), 0);
	test_sh("ln -s /proc/self/fd/%d '%s/stdout'", p[1], o->dir);
	assert_int_equal(write_out(o, "stdout"), 0);
	snprintf(want, sizeof(want), "%s/stdout", o->dir);
	assert_string_equal(o->shown, want);
	close(p[1]);
	assert_int_equal(read(p[0], buf, sizeof(buf) - 1), strlen(SCRIPT));
	assert_string_equal(buf, SCRIPT);
	close(p[0]);
	assert_true(S_ISLNK(mode_of(o, "stdout")));

	/* dangling: not created through */
	test_sh("ln -s nothere '%s/dangling'", o->dir);
	assert_int_equal(write_out(o, "dangling"), -ENOENT);
	expect_diag(o, "cannot write ", "/dangling: No such file or directory");
	test_sh("[ -L '%s/dangling' ] && [ ! -e '%s/nothere' ]", o->dir, o->dir);

	/* one that leads to a regular file all the same (a deleted file's descriptor) */
	snprintf(path, sizeof(path), "%s/deleted", o->dir);
	assert_true((fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) >= 0);
	assert_int_equal(unlink(path), 0);
	test_sh("ln -s /proc/self/fd/%d '%s/gone'", fd, o->dir);
	assert_int_equal(write_out(o, "gone"), -EPERM);
	expect_diag(o, "refusing to write ",
		    "/gone: a link that does not resolve leads to a regular file");
	assert_int_equal(lseek(fd, 0, SEEK_END), 0);
	close(fd);
}

/* Folders others can write: the one holding the file at all, one on the way unless sticky. */
static void test_writable_folders(void **state)
{
	struct out *o = *state;
	char want[512];

	test_sh("cd '%s' && mkdir ww ws wg && chmod 0777 ww && chmod 1777 ws && chmod 0775 wg",
		o->dir);
	assert_int_equal(write_out(o, "ww/boot.sh"), -EPERM);
	assert_int_equal(o->d.n, 1);
	snprintf(want, sizeof(want),
		 "refusing to write %s/ww/boot.sh: directory %s/ww is group/world-writable (mode "
		 "0777); others could change what runs as root at boot",
		 o->dir, o->dir);
	assert_string_equal(o->d.v[0].msg, want);
	assert_int_equal(write_out(o, "ws/boot.sh"), -EPERM);
	assert_non_null(strstr(o->d.v[0].msg, "/ws is group/world-writable (mode 1777)"));
	assert_int_equal(write_out(o, "wg/boot.sh"), -EPERM);
	assert_non_null(strstr(o->d.v[0].msg, "/wg is group/world-writable (mode 0775)"));
	test_sh("cd '%s' && [ -z \"$(ls -A ww)$(ls -A ws)$(ls -A wg)\" ]", o->dir);

	/* on the way: sticky passes, not sticky is refused */
	test_sh("cd '%s' && mkdir ws/sub ww/sub && chmod 0755 ws/sub ww/sub", o->dir);
	assert_int_equal(write_out(o, "ws/sub/boot.sh"), 0);
	expect_text(o, "ws/sub/boot.sh", SCRIPT);
	assert_int_equal(write_out(o, "ww/sub/boot.sh"), -EPERM);
	assert_non_null(strstr(o->d.v[0].msg, "/ww is group/world-writable (mode 0777)"));
	test_sh("[ ! -e '%s/ww/sub/boot.sh' ]", o->dir);

	/* a link in a safe folder to a file in an unsafe one: refused, the file kept */
	test_sh("cd '%s' && echo secret >ww/shadow && ln -s ww/shadow to-ww.sh", o->dir);
	assert_int_equal(write_out(o, "to-ww.sh"), -EPERM);
	assert_non_null(strstr(o->d.v[0].msg, "/ww is group/world-writable (mode 0777)"));
	expect_text(o, "ww/shadow", "secret\n");
}

/* Someone else's: a folder on the way, or the link itself (as root only). */
static void test_owned_by_others(void **state)
{
	struct out *o = *state;

	if (geteuid() != 0)
		skip();
	test_sh("cd '%s' && mkdir theirs && chown 65534 theirs && echo secret >shadow && "
		"ln -s shadow their.sh && chown -h 65534 their.sh",
		o->dir);
	assert_int_equal(write_out(o, "theirs/boot.sh"), -EPERM);
	assert_non_null(strstr(o->d.v[0].msg, "/theirs is owned by uid 65534; others could"));
	assert_int_equal(write_out(o, "their.sh"), -EPERM);
	expect_diag(o, "refusing to write ",
		    "/their.sh: it is a symbolic link owned by uid 65534; others could change what "
		    "runs as root at boot");
	expect_text(o, "shadow", "secret\n");
}

MDP_TEST_MAIN_FX(NULL, out_setup, out_teardown, test_new_and_regular, test_link_to_file,
		 test_unresolved_links, test_writable_folders, test_owned_by_others)
