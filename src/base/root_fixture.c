/*
 * root_fixture: the ops of a fixture root, standing in for the kernel.
 *
 * A fixture tree is plain files where the kernel has attributes. Most
 * attributes read back what was written, but md shows sync_speed_min/max
 * as "N (local)" or "N (system)", where N follows the dev.raid sysctl.
 * These ops store writes the way md renders them, and update the arrays
 * that follow the sysctl when it is written, so that a revert is byte for
 * byte on fixtures as on the kernel. mdp_root_init() picks this table for
 * every root other than "/", so the imitation is never on the real write
 * path; everything else goes to mdp_root_plain_ops.
 */
#include "root.h"
#include "num.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct mdp_root_ops *const plain = &mdp_root_plain_ops;

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* "system" -> "N (system)" with N from the sysctl, "77" -> "77 (local)". */
static int render_sync_speed(const struct mdp_root *r, const char *sys, const char *data, char *out,
			     size_t cap)
{
	const char *sysctl = ends_with(sys, "_min") ? "/proc/sys/dev/raid/speed_limit_min"
						    : "/proc/sys/dev/raid/speed_limit_max";
	char cur[32];
	const char *end;

	if (!strncmp(data, "system", 6)) {
		if (mdp_root_read_value(r, sysctl, cur, sizeof(cur)) <= 0)
			return -EINVAL;
		snprintf(out, cap, "%s (system)\n", cur);
		return 0;
	}
	uint64_t v;
	if (mdp_num_lead(data, SIZE_MAX, &v, &end) || (*end && *end != '\n'))
		return -EINVAL;
	snprintf(out, cap, "%" PRIu64 " (local)\n", v);
	return 0;
}

/* After a sysctl write, arrays following "system" show the new number. */
static void follow_sysctl(const struct mdp_root *r, const char *attr, const char *val)
{
	char **names;
	size_t n;

	if (mdp_root_list(r, "/sys/block", &names, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		char sys[PATH_MAX], cur[64], text[64];
		if (strncmp(names[i], "md", 2))
			continue; /* disks have no md/ directory */
		snprintf(sys, sizeof(sys), "/sys/block/%s/md/%s", names[i], attr);
		if (mdp_root_read_value(r, sys, cur, sizeof(cur)) <= 0 || !strstr(cur, "(system)"))
			continue;
		snprintf(text, sizeof(text), "%.*s (system)\n", (int)strcspn(val, "\n"), val);
		plain->write(plain, r, sys, text, strlen(text));
	}
	mdp_root_free_list(names, n);
}

static int fixture_write(const struct mdp_root_ops *self, const struct mdp_root *r, const char *sys,
			 const char *data, size_t len)
{
	char text[64];
	int err;

	(void)self;
	if (ends_with(sys, "/md/sync_speed_min") || ends_with(sys, "/md/sync_speed_max")) {
		if ((err = render_sync_speed(r, sys, data, text, sizeof(text))))
			return err;
		return plain->write(plain, r, sys, text, strlen(text));
	}
	if ((err = plain->write(plain, r, sys, data, len)))
		return err;
	if (!strcmp(sys, "/proc/sys/dev/raid/speed_limit_min"))
		follow_sysctl(r, "sync_speed_min", data);
	else if (!strcmp(sys, "/proc/sys/dev/raid/speed_limit_max"))
		follow_sysctl(r, "sync_speed_max", data);
	return 0;
}

static int fixture_fsync(const struct mdp_root_ops *self, const struct mdp_root *r, int fd)
{
	(void)self;
	return plain->fsync(plain, r, fd);
}

static int fixture_rename(const struct mdp_root_ops *self, const struct mdp_root *r,
			  const char *from, const char *to)
{
	(void)self;
	return plain->rename(plain, r, from, to);
}

const struct mdp_root_ops mdp_root_fixture_ops = {
    .write = fixture_write,
    .fsync = fixture_fsync,
    .rename = fixture_rename,
};
