/*
 * num: the one bounded decimal parser, in the spirit of OpenBSD strtonum.
 *
 * Every number mdprofile takes from outside (profiles, sysfs and procfs
 * values, /proc/mdstat, version files) goes through here, so each reader
 * has the same rules: ASCII decimal digits only, no sign, no spaces, no
 * locale, no base prefixes, and overflow is an error that never wraps.
 * Leading zeros are accepted: the kernel never prints them, and the
 * profile loader refuses them itself with a message about YAML octal.
 */
#ifndef MDP_NUM_H
#define MDP_NUM_H

#include <stddef.h>
#include <stdint.h>

/*
 * The whole of s as a number in min..max. 0, -EINVAL when s is not
 * entirely decimal digits (empty, a sign, a space, junk) or -ERANGE when
 * it is outside min..max (including beyond UINT64_MAX). *out is written
 * only on success.
 */
int mdp_num_parse(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * The decimal digits at the start of s, reading at most len bytes (a
 * NUL-terminated s may pass SIZE_MAX: the NUL stops it). For kernel text
 * such as "1000 (system)" or "4 (3)": 0 with *out and *end (just after
 * the last digit), -EINVAL when s does not start with a digit, -ERANGE
 * on overflow. Outputs are written only on success; end may be NULL.
 */
int mdp_num_lead(const char *s, size_t len, uint64_t *out, const char **end);

#endif
