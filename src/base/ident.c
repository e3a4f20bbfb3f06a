/*
 * ident: name, level and UUID rules (see ident.h).
 *
 * Character classes are spelt out in ASCII rather than with <ctype.h>,
 * whose answers depend on the locale.
 */
#include "ident.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

static bool is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static bool is_alpha(char c)
{
	return is_lower(c) || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool mdp_ident_dev_ok(const char *name)
{
	size_t n = 0;

	if (!name || !is_lower(name[0]))
		return false;
	for (; name[n]; n++)
		if (!is_lower(name[n]) && !is_digit(name[n]) && name[n] != '_')
			return false;
	return n < MDP_NAME_MAX;
}

bool mdp_ident_kname_ok(const char *s, size_t len)
{
	if (!s || !len || len >= MDP_NAME_MAX || !is_alpha(s[0]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!is_alpha(s[i]) && !is_digit(s[i]) && !strchr("_.!:-", s[i]))
			return false;
	return true;
}

static const struct {
	const char *name;
	enum mdp_level level;
} levels[] = {
    {"linear", MDP_LEVEL_LINEAR}, {"raid0", MDP_LEVEL_RAID0}, {"raid1", MDP_LEVEL_RAID1},
    {"raid4", MDP_LEVEL_RAID4},   {"raid5", MDP_LEVEL_RAID5}, {"raid6", MDP_LEVEL_RAID6},
    {"raid10", MDP_LEVEL_RAID10},
};

#define N_LEVELS (sizeof(levels) / sizeof(levels[0]))

enum mdp_level mdp_ident_level_parse(const char *s)
{
	if (!s)
		return MDP_LEVEL_UNKNOWN;
	for (size_t i = 0; i < N_LEVELS; i++) {
		const char *n = levels[i].name;
		/* "5" is accepted for "raid5", as mdadm --level does. */
		if (!strcmp(s, n) || (!strncmp(n, "raid", 4) && !strcmp(s, n + 4)))
			return levels[i].level;
	}
	return MDP_LEVEL_UNKNOWN;
}

const char *mdp_ident_level_name(enum mdp_level l)
{
	for (size_t i = 0; i < N_LEVELS; i++)
		if (levels[i].level == l)
			return levels[i].name;
	return "unknown";
}

static const char *const media_names[MDP_MEDIA_COUNT] = {
    [MDP_MEDIA_UNKNOWN] = "unknown", [MDP_MEDIA_HDD] = "hdd",     [MDP_MEDIA_SSD] = "ssd",
    [MDP_MEDIA_NVME] = "nvme",       [MDP_MEDIA_MIXED] = "mixed",
};

const char *mdp_ident_media_name(enum mdp_media m)
{
	return (unsigned)m < MDP_MEDIA_COUNT ? media_names[m] : media_names[MDP_MEDIA_UNKNOWN];
}

enum mdp_media mdp_ident_media_parse(const char *s)
{
	for (int m = MDP_MEDIA_HDD; s && m <= MDP_MEDIA_NVME; m++)
		if (!strcmp(s, media_names[m]))
			return (enum mdp_media)m;
	return MDP_MEDIA_UNKNOWN;
}

/* nvme<N>n<N>: the kernel's name of an NVMe namespace (nvme0n1, not nvme0). */
static bool nvme_name(const char *name)
{
	size_t a, b;

	if (strncmp(name, "nvme", 4))
		return false;
	a = 4 + strspn(name + 4, "0123456789");
	if (a == 4 || name[a] != 'n')
		return false;
	b = a + 1 + strspn(name + a + 1, "0123456789");
	return b > a + 1 && !name[b];
}

enum mdp_media mdp_ident_disk_media(const char *disk, const char *devpath, int rotational)
{
	if (nvme_name(disk) ||
	    (devpath && (strstr(devpath, "/nvme/") || strstr(devpath, "/nvme-subsystem/"))))
		return MDP_MEDIA_NVME;
	if (rotational < 0 || rotational > 1)
		return MDP_MEDIA_UNKNOWN;
	return rotational ? MDP_MEDIA_HDD : MDP_MEDIA_SSD;
}

size_t mdp_ident_media_words(unsigned bits, const char **v)
{
	size_t n = 0;

	for (int m = 0; m < MDP_MEDIA_COUNT; m++)
		if (bits & 1u << m)
			v[n++] = media_names[m];
	return n;
}

static int hex_val(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * 'x' is a hex digit, anything else itself. Only these three forms: a
 * separator anywhere else is more likely a typo than a UUID, and the JSON
 * Schema accepts exactly these.
 */
static const char *const uuid_forms[] = {
    "xxxxxxxx:xxxxxxxx:xxxxxxxx:xxxxxxxx",  /* mdadm --detail, MD_UUID= */
    "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", /* md/uuid, blkid */
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
};

static bool uuid_form(const char *s, const char *form, char *buf)
{
	size_t n = 0;

	for (; *form; s++, form++) {
		if (*form != 'x') {
			if (*s != *form)
				return false;
			continue;
		}
		if (hex_val(*s) < 0)
			return false;
		buf[n++] = "0123456789abcdef"[hex_val(*s)];
	}
	buf[n] = '\0';
	return !*s;
}

int mdp_ident_uuid_norm(const char *s, char out[33])
{
	char buf[33];

	for (size_t i = 0; s && i < sizeof(uuid_forms) / sizeof(uuid_forms[0]); i++) {
		if (uuid_form(s, uuid_forms[i], buf)) {
			memcpy(out, buf, sizeof(buf));
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * Names end up as an argv element of synoservice/synosystemctl/systemctl,
 * never in a shell, but a strict alphabet keeps them from being read as
 * options or paths and keeps messages printable.
 */
/* At least one letter or digit: "." and ".." would be read as paths (synopkg status ..). */
static bool has_alnum(const char *s)
{
	for (; *s; s++)
		if (is_alpha(*s) || is_digit(*s))
			return true;
	return false;
}

static const char *service_chars(const char *name)
{
	size_t n;

	if (!name || !*name)
		return "a name is required";
	if (name[0] == '-')
		return "must not start with '-'";
	for (n = 0; name[n]; n++)
		if (!is_alpha(name[n]) && !is_digit(name[n]) && !strchr("@._:-", name[n]))
			return "only letters, digits and @._:- are allowed";
	if (n > MDP_SERVICE_NAME_MAX)
		return "longer than 128 characters";
	if (!has_alnum(name))
		return "must contain a letter or digit";
	return NULL;
}

/* "pkg:NAME" is a DSM package: NAME becomes pkgctl-NAME or a synopkg argument. */
const char *mdp_ident_service_check(const char *name)
{
	const char *why = service_chars(name), *pkg;

	if (why || strncmp(name, "pkg:", 4))
		return why;
	pkg = name + 4;
	if (!*pkg)
		return "a package name is required after 'pkg:'";
	if (*pkg == '-')
		return "the package name after 'pkg:' must not start with '-'";
	if (strchr(pkg, ':'))
		return "the package name after 'pkg:' must not contain ':'";
	if (!has_alnum(pkg))
		return "the package name after 'pkg:' must contain a letter or digit";
	return NULL;
}

const char *mdp_ident_service_pkg(const char *name)
{
	if (!name || strncmp(name, "pkg:", 4) || mdp_ident_service_check(name))
		return NULL;
	return name + 4;
}

bool mdp_ident_profile_name_ok(const char *name)
{
	size_t n;

	if (!name)
		return false;
	n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-");
	return n && !name[n] && name[0] != '.' && name[0] != '-' && n <= 64;
}

/* Levenshtein distance, capped: names longer than 64 are never close. */
static unsigned ident_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[65], prev;

	if (la > 64 || lb > 64)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = prev + (a[i - 1] != b[j - 1]);
			unsigned del = row[j] + 1, ins = row[j - 1] + 1;
			prev = row[j];
			row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
	}
	return row[lb];
}

const char *mdp_ident_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	unsigned best_score = 3;

	for (size_t i = 0; i < n; i++) {
		const char *f = cands[i];
		unsigned score = ident_distance(word, f);
		size_t lk = strlen(word), lf = strlen(f);
		if (!strcasecmp(word, f))
			score = 0;
		else if (score > 2 && lk >= 4 && lf >= 4 && (strstr(word, f) || strstr(f, word)))
			score = 2;
		if (score < best_score && score < lf) {
			best = f;
			best_score = score;
		}
	}
	return best;
}
