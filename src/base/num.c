/*
 * num: bounded decimal parsing (see num.h).
 *
 * Written out rather than built on strtoull, which skips leading spaces,
 * accepts a sign (and negates "-1" into UINT64_MAX), follows the locale
 * and reports overflow only through errno.
 */
#include "num.h"

#include <errno.h>
#include <string.h>

int mdp_num_lead(const char *s, size_t len, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	size_t i = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (!i)
		return -EINVAL;
	*out = v;
	if (end)
		*end = s + i;
	return 0;
}

int mdp_num_parse(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	size_t n;
	uint64_t v;

	if (!s)
		return -EINVAL;
	/* Junk decides before size: "99999999999999999999x" is not a number at all. */
	n = strspn(s, "0123456789");
	if (!n || s[n])
		return -EINVAL;
	if (mdp_num_lead(s, n, &v, NULL) || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}
