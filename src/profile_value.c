/*
 * profile_value: the small value parsers behind profile loading.
 *
 * Sizes, RAID levels, md UUIDs and service names are parsed here by hand
 * with full checks, because libcyaml's own number parsing accepts "12junk"
 * as 12. These functions only classify text; the loader turns their
 * verdicts into positioned diagnostics.
 */
#include "profile.h"

#include <errno.h>
#include <string.h>

static const struct {
	const char *name;
	enum mdp_level level;
} levels[] = {
    {"linear", MDP_LEVEL_LINEAR}, {"raid0", MDP_LEVEL_RAID0}, {"raid1", MDP_LEVEL_RAID1},
    {"raid4", MDP_LEVEL_RAID4},   {"raid5", MDP_LEVEL_RAID5}, {"raid6", MDP_LEVEL_RAID6},
    {"raid10", MDP_LEVEL_RAID10},
};

#define N_LEVELS (sizeof(levels) / sizeof(levels[0]))

enum mdp_level mdp_level_parse(const char *s)
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

const char *mdp_level_name(enum mdp_level l)
{
	for (size_t i = 0; i < N_LEVELS; i++)
		if (levels[i].level == l)
			return levels[i].name;
	return "unknown";
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const struct {
	const char *unit;
	uint64_t mult; /* KiB per unit; 0 marks 512-byte sectors */
} units[] = {
    {"KiB", 1}, {"MiB", 1024}, {"GiB", 1024 * 1024}, {"sectors", 0}, {"sector", 0},
};

#define UNIT_HINT "use KiB, MiB, GiB or sectors"

static int size_unit(const char *u, uint64_t n, uint64_t *kib, const char **why)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(u, units[i].unit))
			continue;
		if (!units[i].mult) {
			/* read_ahead_kb is whole KiB: an odd count cannot be honoured. */
			if (n % 2) {
				*why =
				    "is an odd number of sectors: sizes are whole KiB (2 sectors)";
				return -EINVAL;
			}
			*kib = n / 2;
			return 0;
		}
		if (n > UINT64_MAX / units[i].mult) {
			*why = "is too large";
			return -EINVAL;
		}
		*kib = n * units[i].mult;
		return 0;
	}
	*why = u[0] == '.' ? "is not a whole number: " UNIT_HINT " with a whole number"
			   : "has an unknown unit: " UNIT_HINT;
	return -EINVAL;
}

/*
 * The why strings are predicates that read after the quoted value, as in
 * "read_ahead '32' has no unit: use KiB, MiB, GiB or sectors".
 */
int mdp_parse_size_kib(const char *s, uint64_t *kib, const char **why)
{
	uint64_t n = 0;
	const char *p = s;

	if (!s || !*s) {
		*why = "is empty: " UNIT_HINT;
		return -EINVAL;
	}
	if (*p == '-') {
		*why = "is negative";
		return -EINVAL;
	}
	if (!is_digit(*p)) {
		*why = "is not a size: " UNIT_HINT;
		return -EINVAL;
	}
	for (; is_digit(*p); p++) {
		unsigned dg = (unsigned)(*p - '0');
		if (n > (UINT64_MAX - dg) / 10) {
			*why = "is too large";
			return -EINVAL;
		}
		n = n * 10 + dg;
	}
	while (*p == ' ')
		p++;
	if (!*p) {
		*why = "has no unit: " UNIT_HINT;
		return -EINVAL;
	}
	return size_unit(p, n, kib, why);
}

static int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * mdadm prints "a1b2c3d4:e5f6a7b8:...", blkid and md/uuid use dashes;
 * separators may sit anywhere between hex digits but not doubled, leading
 * or trailing, and one document uses one kind of separator.
 */
int mdp_uuid_normalize(const char *s, char out[33])
{
	char buf[33];
	size_t n = 0;
	char sep = 0;
	const char *p;

	if (!s)
		return -EINVAL;
	for (p = s; *p; p++) {
		int v = hex_val(*p);
		if (v >= 0) {
			if (n == 32)
				return -EINVAL;
			buf[n++] = "0123456789abcdef"[v];
			continue;
		}
		if ((*p != ':' && *p != '-') || p == s || !p[1] || hex_val(p[1]) < 0)
			return -EINVAL;
		if (sep && sep != *p)
			return -EINVAL;
		sep = *p;
	}
	if (n != 32)
		return -EINVAL;
	buf[32] = '\0';
	memcpy(out, buf, sizeof(buf));
	return 0;
}

static bool service_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
	       strchr("@._:-", c);
}

/*
 * Names end up as an argv element of synoservice/synosystemctl/systemctl,
 * never in a shell, but a strict alphabet keeps them from being read as
 * options or paths and keeps messages printable.
 */
const char *mdp_service_name_check(const char *name)
{
	size_t n;

	if (!name || !*name)
		return "a name is required";
	if (name[0] == '-')
		return "must not start with '-'";
	for (n = 0; name[n]; n++)
		if (!service_char_ok(name[n]))
			return "only letters, digits and @._:- are allowed";
	if (n > MDP_SERVICE_NAME_MAX)
		return "longer than 128 characters";
	return NULL;
}
