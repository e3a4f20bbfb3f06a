/*
 * discover_uuid: an array's UUID. Identity matters more than names (md
 * numbers change across reboots), so it comes from the best source there
 * is, in the order mdp_dw_read_uuid() at the end gives and says why. The
 * parsers of each source's text are exported for tests and fuzzing.
 */
#include "discover_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MDP_NO_UDEV
#include <libudev.h>
#endif

/* Kernel and mdadm UUIDs follow the same rule as profiles, after the trailing newline. */
int mdp_discover_uuid_norm(const char *text, char *out, size_t cap)
{
	char buf[64];
	size_t n;

	if (!text || cap < 33 || (n = strcspn(text, "\n")) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return mdp_ident_uuid_norm(buf, out);
}

int mdp_discover_mdadm_uuid(const char *text, size_t len, char *out, size_t cap)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n > 8 && n < 64 && !memcmp(p, "MD_UUID=", 8)) {
			char val[64];
			memcpy(val, p + 8, n - 8);
			val[n - 8] = '\0';
			return mdp_discover_uuid_norm(val, out, cap);
		}
		p = nl ? nl + 1 : end;
	}
	return -ENOENT;
}

/*
 * md/uuid prints the kernel's 16 uuid bytes in order. For 0.90 metadata the
 * kernel copied four host-endian words there, while mdadm prints each word
 * as a number; swap within words so both sources name the array the same.
 */
static void uuid_swap_words(char *hex)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (int wd = 0; wd < 4; wd++) {
		char *h = hex + wd * 8;
		for (int i = 0; i < 2; i++) {
			char a0 = h[i * 2], a1 = h[i * 2 + 1];
			h[i * 2] = h[6 - i * 2];
			h[i * 2 + 1] = h[7 - i * 2];
			h[6 - i * 2] = a0;
			h[7 - i * 2] = a1;
		}
	}
#else
	(void)hex;
#endif
}

static bool uuid_from_sysfs(struct mdp_dwalk *w, struct mdp_array *a)
{
	char buf[128], meta[32];

	if (mdp_dw_read_attr(w, a->name, "md/uuid", buf, sizeof(buf)) < 0 ||
	    mdp_discover_uuid_norm(buf, a->uuid, sizeof(a->uuid)))
		return false;
	if (mdp_dw_read_attr(w, a->name, "md/metadata_version", meta, sizeof(meta)) >= 0 &&
	    !strcmp(meta, "0.90"))
		uuid_swap_words(a->uuid);
	return true;
}

/*
 * The udev record is what the md rules imported from `mdadm --detail
 * --export` at the array's last add/change event. It is only believed
 * while it still describes the array behind this md number now: same level,
 * same disk count (either count mid-reshape). A record left behind by an
 * array that had this number before, or one written before a reshape
 * finished, falls through to the next source.
 */
int mdp_discover_udev_uuid(const char *uuid, const char *level, const char *devices,
			   const struct mdp_array *a, char *out, size_t cap)
{
	char hex[33];
	uint64_t n;

	if (!uuid || !level)
		return -ENOENT;
	if (strcmp(level, a->level_name))
		return -ESTALE;
	if (devices && (mdp_dw_lead_u64(devices, &n) || !n ||
			(n != (uint64_t)a->raid_disks && n != (uint64_t)a->prev_raid_disks)))
		return -ESTALE;
	if (cap < sizeof(hex) || mdp_discover_uuid_norm(uuid, hex, sizeof(hex)))
		return -EINVAL;
	memcpy(out, hex, sizeof(hex));
	return 0;
}

#ifndef MDP_NO_UDEV
/* The array's udev record, if udev has one (is_initialized: udevd processed it). */
static bool uuid_from_udev(struct mdp_dwalk *w, struct mdp_array *a)
{
	struct udev_device *dev;
	int err = -ENOENT;

	if (!w->udev || !(dev = udev_device_new_from_subsystem_sysname(w->udev, "block", a->name)))
		return false;
	if (udev_device_get_is_initialized(dev) > 0)
		err = mdp_discover_udev_uuid(udev_device_get_property_value(dev, "MD_UUID"),
					     udev_device_get_property_value(dev, "MD_LEVEL"),
					     udev_device_get_property_value(dev, "MD_DEVICES"), a,
					     a->uuid, sizeof(a->uuid));
	udev_device_unref(dev);
	return err == 0;
}
#else
static bool uuid_from_udev(struct mdp_dwalk *w, struct mdp_array *a)
{
	(void)w;
	(void)a;
	return false;
}
#endif

#define MDADM_TIMEOUT_MS 10000

/* `mdadm --detail --export /dev/mdN` through exec: no shell, fixed paths, bounded time. */
static int uuid_from_mdadm(const struct mdp_root *r, const char *md, char *out, size_t cap,
			   struct mdp_diags *d)
{
	const char *argv[] = {"mdadm", "--detail", "--export", NULL, NULL};
	struct mdp_exec_result *res;
	char dev[64];
	int err;

	if ((size_t)snprintf(dev, sizeof(dev), "/dev/%s", md) >= sizeof(dev))
		return -ENAMETOOLONG;
	argv[3] = dev;
	if (!(res = malloc(sizeof(*res))))
		return -ENOMEM;
	err = mdp_exec_run(r, argv, MDADM_TIMEOUT_MS, res, d);
	if (!err && res->exit_code != 0)
		err = -EIO;
	if (!err)
		err = mdp_discover_mdadm_uuid(res->out, res->out_len, out, cap);
	free(res);
	return err;
}

static int pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got, off + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		got += (size_t)n;
	}
	return 0;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static uint32_t host32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#define MD_SB_MAGIC 0xa92b4efcu

static void hex_bytes(const unsigned char *b, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[i * 2] = digits[b[i] >> 4];
		out[i * 2 + 1] = digits[b[i] & 15];
	}
	out[n * 2] = '\0';
}

/*
 * v1.x at byte offset off: little-endian; the kernel also insists that
 * super_offset (byte 144, in sectors) names where it was found, which
 * keeps a stale or nested superblock from being taken for this one.
 */
static int sb1_at(int fd, off_t off, char *out)
{
	unsigned char sb[256];
	int err;

	if ((err = pread_full(fd, sb, sizeof(sb), off)))
		return err;
	if (le32(sb) != MD_SB_MAGIC || le32(sb + 4) != 1 || le64(sb + 144) != (uint64_t)off / 512)
		return -ENOENT;
	hex_bytes(sb + 16, 16, out);
	return 0;
}

/* 0.90: host-endian words; mdadm prints set_uuid0 (word 5) and words 13..15 as numbers. */
static int sb090_at(int fd, off_t off, char *out)
{
	unsigned char sb[64];
	static const int words[4] = {5, 13, 14, 15};
	int err;

	if ((err = pread_full(fd, sb, sizeof(sb), off)))
		return err;
	if (host32(sb) != MD_SB_MAGIC || host32(sb + 4) != 0 || host32(sb + 8) != 90)
		return -ENOENT;
	for (int i = 0; i < 4; i++)
		snprintf(out + i * 8, 9, "%08" PRIx32, host32(sb + words[i] * 4));
	return 0;
}

int mdp_discover_sb_uuid(int fd, char *out, size_t cap)
{
	char hex[33];
	off_t size = lseek(fd, 0, SEEK_END);

	if (cap < sizeof(hex))
		return -EINVAL;
	if (size < 0)
		return -errno;
	if ((size >= 4096 + 256 && !sb1_at(fd, 4096, hex)) || (size >= 256 && !sb1_at(fd, 0, hex)))
		goto found;
	/* 1.0: 8 KiB from the end, rounded down to 4 KiB */
	if (size >= 8192 && !sb1_at(fd, ((size - 8192) & ~(off_t)4095), hex))
		goto found;
	/* 0.90: the last 64 KiB-aligned 64 KiB block */
	if (size >= 65536 && !sb090_at(fd, (size & ~(off_t)65535) - 65536, hex))
		goto found;
	return -ENOENT;
found:
	memcpy(out, hex, sizeof(hex));
	return 0;
}

static bool uuid_from_superblock(const struct mdp_dwalk *w, struct mdp_array *a)
{
	char path[PATH_MAX];

	/* members are sorted by role, so active members are tried before spares */
	for (size_t i = 0; i < a->n_members; i++) {
		struct stat st;
		int fd, err;
		snprintf(path, sizeof(path), "/dev/%s", a->members[i].name);
		/*
		 * O_NONBLOCK: a FIFO (or a tty) at that name in a --root tree
		 * would block open() for ever. Only a block device (a regular
		 * file in a fixture tree) has a superblock to read.
		 */
		if ((fd = mdp_root_open(w->r, path, O_RDONLY | O_NOCTTY | O_NONBLOCK, 0)) < 0)
			continue;
		err = fstat(fd, &st) || !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))
			  ? -EINVAL
			  : mdp_discover_sb_uuid(fd, a->uuid, sizeof(a->uuid));
		close(fd);
		if (!err)
			return true;
	}
	return false;
}

/*
 * udev first where it runs: its record names the array exactly as mdadm
 * does on every kernel (no 0.90 word order to undo) and costs no process;
 * md/uuid where udev has no record (Linux >= 5.9); then mdadm, which is
 * what DSM's 3.10/4.4 kernels need; then a member's superblock.
 */
void mdp_dw_read_uuid(struct mdp_dwalk *w, struct mdp_array *a)
{
	if (uuid_from_udev(w, a)) {
		a->uuid_source = "udev";
	} else if (uuid_from_sysfs(w, a)) {
		a->uuid_source = "md/uuid";
	} else if (!uuid_from_mdadm(w->r, a->name, a->uuid, sizeof(a->uuid), w->d)) {
		a->uuid_source = "mdadm";
	} else if (uuid_from_superblock(w, a)) {
		a->uuid_source = "superblock";
	} else {
		a->uuid[0] = '\0';
		a->uuid_source = "unknown";
	}
}
