/*
 * profile_value: the small value parsers behind profile loading.
 *
 * Sizes are parsed here by hand with full checks. These functions only
 * classify text; the loader turns their verdicts into positioned
 * diagnostics.
 */
#include "profile.h"

#include <errno.h>
#include <string.h>

#include "num.h"

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
	const char *p;
	uint64_t n;
	int r;

	if (!s || !*s) {
		*why = "is empty: " UNIT_HINT;
		return -EINVAL;
	}
	if (*s == '-') {
		*why = "is negative";
		return -EINVAL;
	}
	r = mdp_num_lead(s, SIZE_MAX, &n, &p);
	if (r) {
		*why = r == -ERANGE ? "is too large" : "is not a size: " UNIT_HINT;
		return -EINVAL;
	}
	p += strspn(p, " ");
	if (!*p) {
		*why = "has no unit: " UNIT_HINT;
		return -EINVAL;
	}
	return size_unit(p, n, kib, why);
}
