/*
 * profile_value: the value rules behind profile loading.
 *
 * Sizes are parsed here with full checks. The YAML typing below is why a
 * profile means the same to mdprofile, to YAML 1.1 tools (PyYAML, the
 * JSON Schema check) and to YAML 1.2 tools (editors): a plain scalar that
 * either version reads as a number, a boolean, null or a date is not text,
 * and a number is only ever plain decimal digits. These functions only
 * classify; the loader turns their verdicts into positioned diagnostics.
 */
#include "profile.h"
#include "profile_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mdp_base.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool mdp_all_digits(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n && !s[n];
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

/* ---- YAML plain scalar types -------------------------------------------- */

/*
 * The implicit types of YAML 1.1 and of the YAML 1.2 core schema, as POSIX
 * EREs. For 1.1 these are PyYAML's (also Ruby's): the y/n booleans of the
 * 1.1 type repository are left out, as they are there, so that services
 * and arrays may still be called y or n.
 */
static const struct {
	const char *what;
	unsigned versions;
	const char *chars; /* every character the pattern can match: others rule it out */
	const char *re;
} yaml_types[] = {
    {"a number", MDP_YAML_11, "-+0123456789abcdefABCDEFx_:",
     "^[-+]?(0b[01_]+|0[0-7_]+|0|[1-9][0-9_]*|0x[0-9a-fA-F_]+|[1-9][0-9_]*(:[0-5]?[0-9])+)$"},
    {"a number", MDP_YAML_11, "-+0123456789_.eE:infINFaA",
     "^([-+]?[0-9][0-9_]*\\.[0-9_]*([eE][-+][0-9]+)?|\\.[0-9][0-9_]*([eE][-+][0-9]+)?|"
     "[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN))$"},
    {"a number", MDP_YAML_12, "-+0123456789oxabcdefABCDEF",
     "^([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"},
    {"a number", MDP_YAML_12, "-+0123456789.eEinfINFaA",
     "^([-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)|"
     "\\.(nan|NaN|NAN))$"},
    {"a boolean", MDP_YAML_11 | MDP_YAML_12, "trueTRUEfalsFALS",
     "^(true|True|TRUE|false|False|FALSE)$"},
    {"a boolean", MDP_YAML_11, "yesYESnoNOfF", "^(yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF)$"},
    {"null", MDP_YAML_11 | MDP_YAML_12, "~nulNUL", "^(~|null|Null|NULL)?$"},
    {"a date", MDP_YAML_11, "0123456789-Tt \t:.Z+",
     "^([0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt]|[ \t]+)[0-9]{1,2}:"
     "[0-9]{2}:[0-9]{2}(\\.[0-9]*)?([ \t]*(Z|[-+][0-9]{1,2}(:[0-9]{2})?))?)$"},
    {"special", MDP_YAML_11, "=<", "^(=|<<)$"},
};

#define N_TYPES (sizeof(yaml_types) / sizeof(yaml_types[0]))

int mdp_yaml_types_init(struct mdp_yaml_types *y)
{
	_Static_assert(N_TYPES <= sizeof(y->re) / sizeof(y->re[0]), "room for every type");
	y->compiled = 0;
	y->oom = false;
	return 0;
}

void mdp_yaml_types_free(struct mdp_yaml_types *y)
{
	for (size_t i = 0; i < N_TYPES; i++)
		if (y->compiled & 1u << i)
			regfree(&y->re[i]);
	y->compiled = 0;
}

/* Whether s is of type i: its characters first, the pattern (compiled now) only then. */
static bool is_type(struct mdp_yaml_types *y, size_t i, const char *s, size_t len)
{
	if (strspn(s, yaml_types[i].chars) != len)
		return false;
	if (!(y->compiled & 1u << i)) {
		if (regcomp(&y->re[i], yaml_types[i].re, REG_EXTENDED | REG_NOSUB)) {
			y->oom = true;
			return false;
		}
		y->compiled |= 1u << i;
	}
	return regexec(&y->re[i], s, 0, NULL, 0) == 0;
}

const char *mdp_yaml_type(struct mdp_yaml_types *y, const char *s, unsigned *versions)
{
	const char *what = NULL;
	size_t len = strlen(s);
	unsigned v = 0;

	/* Every type above is short or all digits: long text is text. */
	if (len > 256 && !mdp_all_digits(s))
		return NULL;
	/* The common case, a plain decimal without leading zero, is a number to both. */
	if (len && mdp_all_digits(s) && (s[0] != '0' || len == 1)) {
		*versions = MDP_YAML_11 | MDP_YAML_12;
		return "a number";
	}
	for (size_t i = 0; i < N_TYPES; i++) {
		if (!is_type(y, i, s, len))
			continue;
		if (!what || !strcmp(what, yaml_types[i].what)) {
			what = yaml_types[i].what;
			v |= yaml_types[i].versions;
		}
	}
	if (what)
		*versions = v;
	return what;
}

static bool parse_base(const char *s, int base, uint64_t *v)
{
	char *end;

	/* strtoull would also take spaces and a sign: the first digit must be one. */
	if (!*s || !(is_digit(*s) || (base == 16 && strchr("abcdefABCDEF", *s))))
		return false;
	errno = 0;
	*v = strtoull(s, &end, base);
	return !*end && !errno;
}

bool mdp_yaml_int_value(const char *s, uint64_t *v)
{
	char buf[64], *end;
	size_t n = 0;
	double d;

	for (; *s && n < sizeof(buf) - 1; s++)
		if (*s != '_')
			buf[n++] = *s;
	if (*s)
		return false;
	buf[n] = '\0';
	s = buf[0] == '+' ? buf + 1 : buf;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'o' || s[1] == 'b'))
		return parse_base(s + 2, s[1] == 'x' ? 16 : s[1] == 'o' ? 8 : 2, v);
	if (mdp_all_digits(s))
		return !mdp_num_lead(s, SIZE_MAX, v, NULL);
	if (!is_digit(*s) && *s != '.')
		return false;
	d = strtod(s, &end);
	/* Up to 2^53 every integer is exact in a double; NaN fails both tests. */
	if (*end || !(d >= 0 && d <= 9007199254740992.0) || (double)(uint64_t)d != d)
		return false;
	*v = (uint64_t)d;
	return true;
}
