/*
 * ident: the rules for the names and identities mdprofile handles.
 *
 * Device names, service names, profile names, RAID levels and md UUIDs
 * arrive from profiles, from the kernel (sysfs, /proc/mdstat), from mdadm
 * and from the journal. Each kind has one rule, here, so a name that one
 * module accepts is never refused by another, and no module reaches into
 * another's header for a helper.
 */
#ifndef MDP_IDENT_H
#define MDP_IDENT_H

#include <stdbool.h>
#include <stddef.h>

/* A block device name and its NUL fit here (the kernel's DISK_NAME_LEN). */
#define MDP_NAME_MAX 32

/*
 * A device mdprofile may write to, or a profile may name: [a-z][a-z0-9_]*,
 * shorter than MDP_NAME_MAX ("md2", "sda", "sata1", "nvme0n1"). The name
 * becomes part of a /sys path, so nothing that can bend a path passes.
 */
bool mdp_ident_dev_ok(const char *name);

/*
 * A block device name as the kernel shows it (len bytes, no NUL needed):
 * a letter, then letters, digits and _ . ! : - ("dm-3", "cciss!c0d0"),
 * shorter than MDP_NAME_MAX. Such names are read and shown, never written.
 */
bool mdp_ident_kname_ok(const char *s, size_t len);

enum mdp_level {
	MDP_LEVEL_UNKNOWN = 0,
	MDP_LEVEL_LINEAR,
	MDP_LEVEL_RAID0,
	MDP_LEVEL_RAID1,
	MDP_LEVEL_RAID4,
	MDP_LEVEL_RAID5,
	MDP_LEVEL_RAID6,
	MDP_LEVEL_RAID10,
};
/* "raid5" or "5" -> MDP_LEVEL_RAID5 (as md/level and mdadm --level spell them). */
enum mdp_level mdp_ident_level_parse(const char *s);
/* MDP_LEVEL_RAID5 -> "raid5"; "unknown" for anything else. */
const char *mdp_ident_level_name(enum mdp_level l);

/*
 * An md UUID in one of the forms tools print it: mdadm's four groups of 8
 * hex digits joined by ':' (a1b2c3d4:e5f6a7b8:c9d0e1f2:a3b4c5d6), the
 * 8-4-4-4-12 dashed form of md/uuid and blkid, or 32 plain hex digits.
 * Written to out as 32 lowercase hex digits and a NUL; -EINVAL for
 * anything else (out untouched).
 */
int mdp_ident_uuid_norm(const char *s, char out[33]);

#define MDP_SERVICE_NAME_MAX 128
/*
 * NULL when name may name a service: [A-Za-z0-9@._:-]+, no leading '-',
 * at most MDP_SERVICE_NAME_MAX characters, and for a "pkg:NAME" package
 * entry a NAME without ':' or a leading '-'. Otherwise why not, as a
 * phrase for "invalid service name 'X': <why>".
 */
const char *mdp_ident_service_check(const char *name);
/* NAME of a valid "pkg:NAME" entry; NULL for a service or a bad entry. */
const char *mdp_ident_service_pkg(const char *name);

/* A profile name (extends, lookup by name): [A-Za-z0-9._-], no leading '.' or '-', <= 64. */
bool mdp_ident_profile_name_ok(const char *name);
/* That rule, as a phrase for a message. */
#define MDP_IDENT_PROFILE_NAME_RULE                                                                \
	"a profile name is letters, digits, '.', '_' and '-', not starting with '.' or '-', "      \
	"at most 64"

/*
 * A disk's class, from its queue/rotational and its transport (discover_member.c):
 * nvme for an NVMe namespace, ssd for any other non-rotational disk, hdd
 * for a rotational one. An array's class is its members' one class, mixed
 * when they differ, unknown when any member's cannot be read.
 */
enum mdp_media {
	MDP_MEDIA_UNKNOWN = 0,
	MDP_MEDIA_HDD,
	MDP_MEDIA_SSD,
	MDP_MEDIA_NVME,
	MDP_MEDIA_MIXED, /* an array's members of different classes; never a disk's */
	MDP_MEDIA_COUNT
};
/* "hdd", "ssd", "nvme", "mixed", "unknown". */
const char *mdp_ident_media_name(enum mdp_media m);
/* The class a profile may name: hdd, ssd or nvme; MDP_MEDIA_UNKNOWN for any other word. */
enum mdp_media mdp_ident_media_parse(const char *s);
/* The names of the classes in bits (1u << enum mdp_media) into v (MDP_MEDIA_COUNT entries). */
size_t mdp_ident_media_words(unsigned bits, const char **v);
/*
 * A whole disk's class from its name, its device path (the link of
 * /sys/block/DISK or /sys/class/block/DISK; NULL unread) and its
 * queue/rotational (1, 0, or -1 unread): nvme for an NVMe namespace
 * ("nvme0n1", or a path through an nvme controller), else ssd or hdd by
 * rotational, unknown when that is unread. discover and explain use it.
 */
enum mdp_media mdp_ident_disk_media(const char *disk, const char *devpath, int rotational);
/* The words mdp_ident_media_parse takes, for messages: "hdd, ssd or nvme". */
#define MDP_IDENT_MEDIA_WORDS "hdd, ssd or nvme"

/*
 * The candidate a mistyped word most likely meant, for "did you mean": at
 * most two edits away, the same but for case, or one containing the other
 * ("read_ahead_kb" -> "read_ahead"). NULL when nothing is close.
 */
const char *mdp_ident_suggest(const char *word, const char *const *cands, size_t n);

#endif
