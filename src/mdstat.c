/*
 * mdstat: a parser for /proc/mdstat (see mdstat.h).
 *
 * The text is what drivers/md/md.c md_seq_show() prints:
 *
 *   Personalities : [raid1] [raid6] [raid5] [raid4]
 *   md3 : active raid5 sdd6[2] sda6[0] sdb6[1]
 *         1953494784 blocks super 1.2 level 5, 64k chunk, algorithm 2 [3/3] [UUU]
 *         [=====>...............]  reshape = 25.1% (491263360/1953494784) finish=5198.4min ...
 *         bitmap: 0/15 pages [0KB], 65536KB chunk
 *
 *   unused devices: <none>
 *
 * It is outside input (and fuzzed), so every line is bounded by the length
 * given, every number is checked for overflow, and nothing assumes a NUL.
 * Top-level lines must be one of the three known kinds; indented lines we
 * do not know (a future kernel's additions) are skipped, but a line we do
 * know with bad content makes the whole text -EINVAL.
 */
#include "mdstat.h"
#include "num.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A bounded view of one line; p advances as tokens are taken. */
struct span {
	const char *p, *end;
};

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void skip_ws(struct span *s)
{
	while (s->p < s->end && is_ws(*s->p))
		s->p++;
}

/* Next whitespace-separated token as a span; false at end of line. */
static bool next_tok(struct span *s, struct span *tok)
{
	skip_ws(s);
	if (s->p >= s->end)
		return false;
	tok->p = s->p;
	while (s->p < s->end && !is_ws(*s->p))
		s->p++;
	tok->end = s->p;
	return true;
}

static bool tok_eq(const struct span *t, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(t->end - t->p) == n && !memcmp(t->p, lit, n);
}

static bool take_lit(struct span *s, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n))
		return false;
	s->p += n;
	return true;
}

/* Decimal digits to u64; at least one digit, overflow is an error. */
static int take_u64(struct span *s, uint64_t *out)
{
	return mdp_num_lead(s->p, (size_t)(s->end - s->p), out, &s->p) ? -EINVAL : 0;
}

static int take_int(struct span *s, int *out)
{
	uint64_t v;

	if (take_u64(s, &v) || v > 1000000)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* Copy a token into a fixed buffer; too long is an error, never a truncation. */
static int copy_tok(const struct span *t, char *buf, size_t cap)
{
	size_t n = (size_t)(t->end - t->p);

	if (n == 0 || n >= cap)
		return -EINVAL;
	memcpy(buf, t->p, n);
	buf[n] = '\0';
	return 0;
}

/* Block device names as the kernel prints them: sda5, nvme0n1p1, dm-3, cciss!c0d0. */
static bool name_ok(const struct span *t)
{
	return mdp_ident_kname_ok(t->p, (size_t)(t->end - t->p));
}

/* "sdd6[2]" optionally followed by flags "(S)", "(F)", "(W)", "(J)", "(R)". */
static int parse_member(const struct span *t, struct mdp_mdstat_array *a)
{
	struct span s = *t, name = {t->p, t->p};
	int desc;

	while (name.end < t->end && *name.end != '[')
		name.end++;
	if (!name_ok(&name))
		return -EINVAL;
	s.p = name.end;
	if (!take_lit(&s, "[") || take_int(&s, &desc) || !take_lit(&s, "]"))
		return -EINVAL;
	while (s.p < s.end) {
		if (s.end - s.p < 3 || s.p[0] != '(' || s.p[2] != ')')
			return -EINVAL;
		s.p += 3;
	}
	if (a->n_members < sizeof(a->members) / sizeof(a->members[0])) {
		if (copy_tok(&name, a->members[a->n_members], MDP_NAME_MAX))
			return -EINVAL;
		a->n_members++;
	}
	a->n_members_all++;
	return 0;
}

/* "md3 : active (auto-read-only) raid5 sdd6[2] sda6[0]" or "md4 : inactive sdb[0](S)" */
static int parse_header(struct span s, struct mdp_mdstat_array *a)
{
	struct span t;

	memset(a, 0, sizeof(*a));
	if (!next_tok(&s, &t) || !name_ok(&t) || copy_tok(&t, a->name, sizeof(a->name)))
		return -EINVAL;
	if (!next_tok(&s, &t) || !tok_eq(&t, ":") || !next_tok(&s, &t))
		return -EINVAL;
	if (tok_eq(&t, "active"))
		a->active = true;
	else if (!tok_eq(&t, "inactive"))
		return -EINVAL;
	while (next_tok(&s, &t)) {
		bool paren = *t.p == '(' && t.end[-1] == ')';
		if (memchr(t.p, '[', (size_t)(t.end - t.p))) {
			if (parse_member(&t, a))
				return -EINVAL;
		} else if (a->active && paren && !a->level[0] && !a->n_members_all) {
			continue; /* (read-only), (auto-read-only) */
		} else if (a->active && !a->level[0] && !a->n_members_all && name_ok(&t)) {
			if (copy_tok(&t, a->level, sizeof(a->level)))
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

/* "[4/3]": raid disks / working ones. */
static bool parse_counts(const struct span *t, int *disks, int *working)
{
	struct span s = *t;
	int d, w;

	if (!take_lit(&s, "[") || take_int(&s, &d) || !take_lit(&s, "/") || take_int(&s, &w) ||
	    !take_lit(&s, "]") || s.p != s.end)
		return false;
	*disks = d;
	*working = w;
	return true;
}

/* "5846049792 blocks super 1.2 level 5, 64k chunk, algorithm 2 [4/4] [UUUU]" */
static int parse_blocks(struct span s, struct mdp_mdstat_array *a)
{
	struct span t;

	if (!next_tok(&s, &t) || take_u64(&t, &a->blocks) || t.p != t.end)
		return -EINVAL;
	if (!next_tok(&s, &t) || !tok_eq(&t, "blocks"))
		return -EINVAL;
	while (next_tok(&s, &t)) {
		if (*t.p == '[' && memchr(t.p, '/', (size_t)(t.end - t.p)) &&
		    !parse_counts(&t, &a->raid_disks, &a->working))
			return -EINVAL;
	}
	return 0;
}

static bool is_op(const struct span *t)
{
	return tok_eq(t, "resync") || tok_eq(t, "recovery") || tok_eq(t, "reshape") ||
	       tok_eq(t, "check") || tok_eq(t, "repair");
}

/* "= 25.1%" (the kernel prints %3u, so "=100.0%" has no space). */
static int parse_percent(struct span *s, unsigned *permille)
{
	uint64_t whole, frac = 0;

	skip_ws(s);
	if (!take_lit(s, "="))
		return -EINVAL;
	skip_ws(s);
	if (take_u64(s, &whole) || whole > 100)
		return -EINVAL;
	if (take_lit(s, ".")) {
		if (s->p >= s->end || !is_digit(*s->p))
			return -EINVAL;
		frac = (uint64_t)(*s->p - '0');
		while (s->p < s->end && is_digit(*s->p))
			s->p++;
	}
	if (!take_lit(s, "%") || whole * 10 + frac > 1000)
		return -EINVAL;
	*permille = (unsigned)(whole * 10 + frac);
	return 0;
}

/* "5198.4min" */
static int parse_minutes(struct span *s, double *out)
{
	uint64_t whole, frac = 0;
	double scale = 1;

	if (take_u64(s, &whole))
		return -EINVAL;
	if (take_lit(s, ".")) {
		for (; s->p < s->end && is_digit(*s->p); s->p++) {
			if (scale < 1e15) {
				frac = frac * 10 + (uint64_t)(*s->p - '0');
				scale *= 10;
			}
		}
	}
	if (!take_lit(s, "min") || s->p != s->end)
		return -EINVAL;
	*out = (double)whole + (double)frac / scale;
	return 0;
}

/* The fields after the percentage: (done/total) finish=..min speed=..K/sec */
static int parse_progress_fields(struct span s, struct mdp_mdstat_array *a)
{
	struct span t;
	bool counts = false;

	while (next_tok(&s, &t)) {
		if (take_lit(&t, "(")) {
			if (take_u64(&t, &a->done) || !take_lit(&t, "/") ||
			    take_u64(&t, &a->total) || !take_lit(&t, ")") || t.p != t.end)
				return -EINVAL;
			counts = true;
		} else if (take_lit(&t, "finish=")) {
			if (parse_minutes(&t, &a->finish_min))
				return -EINVAL;
		} else if (take_lit(&t, "speed=")) {
			if (take_u64(&t, &a->speed_kib) || !take_lit(&t, "K/sec") || t.p != t.end)
				return -EINVAL;
		}
	}
	return counts ? 0 : -EINVAL;
}

/* "[=====>......]  reshape = 25.1% (491263360/1953494784) finish=... speed=..." */
static int parse_progress(struct span s, const struct span *first, struct mdp_mdstat_array *a)
{
	struct span t = *first;

	if (*t.p == '[') {
		for (const char *c = t.p + 1; c < t.end - 1; c++) {
			if (*c != '=' && *c != '>' && *c != '.')
				return -EINVAL;
		}
		if (t.end - t.p < 2 || t.end[-1] != ']' || !next_tok(&s, &t))
			return -EINVAL;
	}
	if (!is_op(&t) || copy_tok(&t, a->op, sizeof(a->op)))
		return -EINVAL;
	if (parse_percent(&s, &a->permille))
		return -EINVAL;
	return parse_progress_fields(s, a);
}

/* "resync=DELAYED", "resync=PENDING", "resync=REMOTE": queued, no numbers yet. */
static int parse_queued(const struct span *first, struct mdp_mdstat_array *a)
{
	struct span t = *first;

	if (!take_lit(&t, "resync=") || t.p == t.end)
		return -EINVAL;
	strcpy(a->op, "resync");
	return copy_tok(&t, a->op_state, sizeof(a->op_state));
}

static int parse_indented(struct span s, struct mdp_mdstat_array *a)
{
	struct span rest = s, first;

	if (!next_tok(&rest, &first))
		return 0; /* blank */
	if (is_digit(*first.p))
		return parse_blocks(s, a);
	if (*first.p == '[' && first.end - first.p >= 2 &&
	    (first.p[1] == '=' || first.p[1] == '>' || first.p[1] == '.'))
		return parse_progress(rest, &first, a);
	if (is_op(&first))
		return parse_progress(rest, &first, a);
	if (first.end - first.p > 7 && !memcmp(first.p, "resync=", 7))
		return parse_queued(&first, a);
	return 0; /* bitmap: ..., or something newer than us */
}

static int grow(struct mdp_mdstat *m, size_t *cap)
{
	struct mdp_mdstat_array *v;
	size_t n = *cap ? *cap * 2 : 8;

	if (!(v = realloc(m->arrays, n * sizeof(*v))))
		return -ENOMEM;
	m->arrays = v;
	*cap = n;
	return 0;
}

/* One line; *seen_pers tracks the mandatory "Personalities" first line. */
static int parse_line(struct span s, struct mdp_mdstat *m, size_t *cap, bool *seen_pers)
{
	struct span t = s, tok;
	int err;

	if (s.p < s.end && is_ws(*s.p)) {
		if (!next_tok(&t, &tok))
			return 0;
		if (!m->n)
			return -EINVAL;
		return parse_indented(s, &m->arrays[m->n - 1]);
	}
	if (s.p == s.end)
		return 0;
	if (take_lit(&t, "Personalities :")) {
		*seen_pers = true;
		return 0;
	}
	if (!*seen_pers)
		return -EINVAL;
	if (take_lit(&t, "unused devices:"))
		return 0;
	if (m->n == *cap && (err = grow(m, cap)))
		return err;
	if ((err = parse_header(s, &m->arrays[m->n])))
		return err;
	m->n++;
	return 0;
}

int mdp_mdstat_parse(const char *text, size_t len, struct mdp_mdstat *out)
{
	struct mdp_mdstat m = {0};
	const char *p, *end;
	bool seen_pers = false;
	size_t cap = 0;
	int err = 0;

	if (!text || !out)
		return -EINVAL;
	p = text;
	end = text + len;
	if (memchr(text, '\0', len))
		return -EINVAL;
	while (p < end && !err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct span line = {p, nl ? nl : end};
		err = parse_line(line, &m, &cap, &seen_pers);
		p = nl ? nl + 1 : end;
	}
	if (!err && !seen_pers)
		err = -EINVAL;
	if (err) {
		mdp_mdstat_free(&m);
		return err;
	}
	*out = m;
	return 0;
}

void mdp_mdstat_free(struct mdp_mdstat *m)
{
	if (!m)
		return;
	free(m->arrays);
	m->arrays = NULL;
	m->n = 0;
}

const struct mdp_mdstat_array *mdp_mdstat_find(const struct mdp_mdstat *m, const char *name)
{
	for (size_t i = 0; m && i < m->n; i++) {
		if (!strcmp(m->arrays[i].name, name))
			return &m->arrays[i];
	}
	return NULL;
}
