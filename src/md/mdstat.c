/*
 * mdstat: a parser for /proc/mdstat (see mdstat.h).
 *
 * The text is what drivers/md/md.c md_seq_show() prints, the same shape
 * from Linux 3.10 to 6.x:
 *
 *   Personalities : [raid1] [raid6] [raid5] [raid4]
 *   md3 : active raid5 sdd6[2] sda6[0] sdb6[1](S)
 *         1953494784 blocks super 1.2 level 5, 64k chunk, algorithm 2 [3/3] [UUU]
 *         [=====>...............]  reshape = 25.1% (491263360/1953494784) finish=5198.4min ...
 *         bitmap: 0/15 pages [0KB], 65536KB chunk
 *
 *   unused devices: <none>
 *
 * The header's state is "active", "inactive" or (5.4+) "broken", then
 * " (read-only)" or " (auto-read-only)" and the personality; members carry
 * (W)(J)(F)(S)(R). After the blocks line comes the personality's own
 * status ([n/m] [UU_]), then a progress line, "\tresync=DELAYED" (PENDING,
 * REMOTE) or nothing, then an optional bitmap line.
 *
 * Synology's md (DSM, published kernel source) differs in three ways: a
 * member with disk errors carries (E); a queued line names the action
 * ("recovery=DELAYED", "check=PENDING") and may say "reshape=CLEANING UP";
 * and there is a [raidF1] personality. Its progress line is upstream's.
 *
 * It is outside input (and fuzzed), so every line is bounded by the length
 * given, every number is checked for overflow, and nothing assumes a NUL.
 * A line that does not parse is skipped with a note naming its number; a
 * detail line is parsed into a copy of its array, so a bad one changes
 * nothing, and a bad header drops only its own array.
 */
#include "mdstat.h"
#include "mdp_base.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MDSTAT "/proc/mdstat"

/* A bounded view of one line; p advances as tokens are taken. */
struct span {
	const char *p, *end;
};

/* The parse in progress. */
struct pstate {
	struct mdp_mdstat m;
	size_t cap;
	struct mdp_mdstat_array *cur; /* the array detail lines belong to, or NULL */
	bool skipping;                /* in the lines of an array skipped with a note */
	bool seen_pers;
	unsigned line;
	bool oom;
	struct mdp_diags *d;
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

static size_t span_len(const struct span *t)
{
	return (size_t)(t->end - t->p);
}

static bool tok_eq(const struct span *t, const char *lit)
{
	size_t n = strlen(lit);

	return span_len(t) == n && !memcmp(t->p, lit, n);
}

static bool take_lit(struct span *s, const char *lit)
{
	size_t n = strlen(lit);

	if (span_len(s) < n || memcmp(s->p, lit, n))
		return false;
	s->p += n;
	return true;
}

/* Decimal digits to u64; at least one digit, overflow is an error. */
static int take_u64(struct span *s, uint64_t *out)
{
	return mdp_num_lead(s->p, span_len(s), out, &s->p) ? -EINVAL : 0;
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
	size_t n = span_len(t);

	if (n == 0 || n >= cap)
		return -EINVAL;
	memcpy(buf, t->p, n);
	buf[n] = '\0';
	return 0;
}

/* Block device names as the kernel prints them: sda5, nvme0n1p1, dm-3, cciss!c0d0. */
static bool name_ok(const struct span *t)
{
	return mdp_ident_kname_ok(t->p, span_len(t));
}

/* A note about the current line: what, then at most 40 bytes of the text skipped. */
static void note(struct pstate *ps, const char *what, const struct span *t)
{
	int n = t ? (int)(span_len(t) > 40 ? 40 : span_len(t)) : 0;

	ps->m.notes++;
	if (!ps->d)
		return;
	if (t)
		mdp_diags_add(ps->d, MDSTAT, ps->line, 0, "%s '%.*s', skipped", what, n, t->p);
	else
		mdp_diags_add(ps->d, MDSTAT, ps->line, 0, "%s", what);
}

/* A header we cannot read: its array and the lines below it are skipped. */
static void skip_array(struct pstate *ps, const char *what, const struct span *t)
{
	note(ps, what, t);
	ps->skipping = true;
}

/* ---- the header: "md3 : active (auto-read-only) raid5 sdd6[2] sda6[0](F)" -- */

static int take_flags(struct span *s, unsigned *flags)
{
	static const char codes[] = "FSWJRE";

	while (s->p < s->end) {
		const char *c;
		if (span_len(s) < 3 || s->p[0] != '(' || s->p[2] != ')' ||
		    !(c = memchr(codes, s->p[1], sizeof(codes) - 1)))
			return -EINVAL;
		*flags |= 1u << (c - codes);
		s->p += 3;
	}
	return 0;
}

static int parse_member(const struct span *t, struct mdp_mdstat_array *a)
{
	struct mdp_mdstat_member mb = {.flags = 0};
	struct span s = *t, name = {t->p, t->p};

	while (name.end < t->end && *name.end != '[')
		name.end++;
	if (!name_ok(&name) || copy_tok(&name, mb.name, sizeof(mb.name)))
		return -EINVAL;
	s.p = name.end;
	if (!take_lit(&s, "[") || take_int(&s, &mb.desc) || !take_lit(&s, "]") ||
	    take_flags(&s, &mb.flags))
		return -EINVAL;
	if (a->n_members < MDP_MDSTAT_MEMBERS)
		a->members[a->n_members++] = mb;
	a->n_members_all++;
	a->n_faulty += (mb.flags & MDP_MS_FAULTY) != 0;
	a->n_spare += (mb.flags & MDP_MS_SPARE) != 0;
	return 0;
}

static int parse_state(const struct span *t, struct mdp_mdstat_array *a)
{
	if (!tok_eq(t, "active") && !tok_eq(t, "inactive") && !tok_eq(t, "broken"))
		return -EINVAL;
	a->active = !tok_eq(t, "inactive");
	return copy_tok(t, a->state, sizeof(a->state));
}

/* One word after the state: "(read-only)", a level, or a member. */
static int parse_header_word(const struct span *t, struct mdp_mdstat_array *a)
{
	bool before_members = !a->n_members_all && !a->level[0];

	if (memchr(t->p, '[', span_len(t)))
		return parse_member(t, a);
	if (before_members && a->active && !a->ro[0] &&
	    (tok_eq(t, "(read-only)") || tok_eq(t, "(auto-read-only)"))) {
		memcpy(a->ro, t->p + 1, span_len(t) - 2);
		return 0;
	}
	if (before_members && name_ok(t))
		return copy_tok(t, a->level, sizeof(a->level));
	return -EINVAL;
}

static void parse_header(struct pstate *ps, struct span s)
{
	struct mdp_mdstat_array a = {.line = ps->line};
	struct span t, name, line;

	ps->cur = NULL;
	line = s;
	if (!next_tok(&s, &name) || !name_ok(&name) || copy_tok(&name, a.name, sizeof(a.name)))
		return skip_array(ps, "unknown line", &line);
	if (!next_tok(&s, &t) || !tok_eq(&t, ":") || !next_tok(&s, &t))
		return skip_array(ps, "unknown line", &line);
	if (parse_state(&t, &a))
		return skip_array(ps, "unknown array state", &t);
	while (next_tok(&s, &t)) {
		if (parse_header_word(&t, &a))
			return skip_array(ps, "unknown word in an array's header", &t);
	}
	if (mdp_mdstat_find(&ps->m, a.name))
		return skip_array(ps, "array listed twice", &name);
	ps->skipping = false;
	if (mdp_grow_cap(&ps->m.arrays, ps->m.n, &ps->cap, sizeof(*ps->m.arrays))) {
		ps->oom = true;
		return;
	}
	ps->m.arrays[ps->m.n] = a;
	ps->cur = &ps->m.arrays[ps->m.n++];
}

/* ---- detail lines ---------------------------------------------------------- */

/* "[4/3]": raid disks / working ones. */
static bool parse_counts(const struct span *t, struct mdp_mdstat_array *a)
{
	struct span s = *t;
	int d, w;

	if (!take_lit(&s, "[") || take_int(&s, &d) || !take_lit(&s, "/") || take_int(&s, &w) ||
	    !take_lit(&s, "]") || s.p != s.end)
		return false;
	a->raid_disks = d;
	a->working = w;
	return true;
}

/* "[UU_U]": one letter per raid disk, '_' where none works. */
static bool parse_health(const struct span *t, struct mdp_mdstat_array *a)
{
	int missing = 0;

	if (span_len(t) < 3 || t->end[-1] != ']')
		return false;
	for (const char *c = t->p + 1; c < t->end - 1; c++) {
		if (*c != 'U' && *c != '_')
			return false;
		missing += *c == '_';
	}
	a->missing = missing;
	return true;
}

/* "super 1.2", "super external:imsm", "super external:/md127/0", "super non-persistent" */
static int parse_super(struct span *s, struct mdp_mdstat_array *a)
{
	struct span t;

	if (!next_tok(s, &t) || copy_tok(&t, a->super, sizeof(a->super)))
		return -EINVAL;
	a->container = take_lit(&t, "external:") && t.p < t.end && *t.p != '/' && *t.p != '-';
	return 0;
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
		if (tok_eq(&t, "super")) {
			if (parse_super(&s, a))
				return -EINVAL;
		} else if (*t.p == '[' && memchr(t.p, '/', span_len(&t))) {
			if (!parse_counts(&t, a))
				return -EINVAL;
		} else if (*t.p == '[' && !parse_health(&t, a)) {
			return -EINVAL;
		}
	}
	return 0;
}

static bool is_op(const struct span *t)
{
	return tok_eq(t, "resync") || tok_eq(t, "recovery") || tok_eq(t, "reshape") ||
	       tok_eq(t, "check") || tok_eq(t, "repair");
}

/* "= 25.1%" (the kernel prints %3u.%u, truncated, so "=100.0%" has no space). */
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
		frac = (uint64_t)(*s->p++ - '0');
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
		} else {
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
		if (span_len(&t) < 2 || t.end[-1] != ']')
			return -EINVAL;
		for (const char *c = t.p + 1; c < t.end - 1; c++) {
			if (*c != '=' && *c != '>' && *c != '.')
				return -EINVAL;
		}
		if (!next_tok(&s, &t))
			return -EINVAL;
	}
	if (!is_op(&t) || copy_tok(&t, a->op, sizeof(a->op)))
		return -EINVAL;
	a->op_state[0] = '\0';
	if (parse_percent(&s, &a->permille))
		return -EINVAL;
	return parse_progress_fields(s, a);
}

/* The action word before '=' of a queued line ("resync", or Synology's "recovery", ...). */
static bool queued_op(struct span *t, struct span *op)
{
	op->p = t->p;
	op->end = memchr(t->p, '=', span_len(t));
	if (!op->end || !is_op(op))
		return false;
	t->p = op->end + 1;
	return true;
}

/*
 * "resync=DELAYED", "resync=PENDING", "resync=REMOTE": queued, no numbers
 * yet. Synology's md prints the action instead of "resync"
 * ("recovery=DELAYED", "check=PENDING") and has "reshape=CLEANING UP".
 */
static int parse_queued(struct span rest, const struct span *first, struct mdp_mdstat_array *a)
{
	struct span t = *first, op, up;

	if (!queued_op(&t, &op))
		return -EINVAL;
	if (tok_eq(&t, "CLEANING")) {
		if (!next_tok(&rest, &up) || !tok_eq(&up, "UP") || next_tok(&rest, &up))
			return -EINVAL;
		copy_tok(&op, a->op, sizeof(a->op));
		strcpy(a->op_state, "CLEANING UP");
		return 0;
	}
	if (!(tok_eq(&t, "DELAYED") || tok_eq(&t, "PENDING") || tok_eq(&t, "REMOTE")) ||
	    next_tok(&rest, &up))
		return -EINVAL;
	copy_tok(&op, a->op, sizeof(a->op));
	return copy_tok(&t, a->op_state, sizeof(a->op_state));
}

/* "bitmap: 0/15 pages [0KB], 65536KB chunk[, file: /path]" */
static int parse_bitmap(struct span s, struct mdp_mdstat_array *a)
{
	struct span t;

	if (!next_tok(&s, &t) || take_u64(&t, &a->bitmap_pages) || !take_lit(&t, "/") ||
	    take_u64(&t, &a->bitmap_pages_total) || t.p != t.end)
		return -EINVAL;
	if (!next_tok(&s, &t) || !tok_eq(&t, "pages"))
		return -EINVAL;
	a->bitmap = true;
	return 0;
}

static int parse_detail_into(struct span s, struct mdp_mdstat_array *a)
{
	struct span rest = s, first;

	if (!next_tok(&rest, &first))
		return 0;
	if (is_digit(*first.p))
		return parse_blocks(s, a);
	if (*first.p == '[' || is_op(&first))
		return parse_progress(rest, &first, a);
	if (memchr(first.p, '=', span_len(&first)))
		return parse_queued(rest, &first, a);
	if (tok_eq(&first, "bitmap:"))
		return parse_bitmap(rest, a);
	return -EINVAL;
}

/* A detail line, parsed into a copy so a bad one leaves the array as it was. */
static void parse_detail(struct pstate *ps, struct span s)
{
	struct mdp_mdstat_array tmp;
	struct span t = s, first;

	if (!next_tok(&t, &first))
		return; /* blank: the kernel ends inactive arrays with one */
	if (!ps->cur) {
		t.p = first.p;
		if (!ps->skipping) /* else it belongs to an array already skipped with a note */
			note(ps, "a line outside any array", &t);
		return;
	}
	tmp = *ps->cur;
	if (parse_detail_into(s, &tmp)) {
		t.p = first.p;
		return note(ps, "unknown line", &t);
	}
	*ps->cur = tmp;
}

static void parse_line(struct pstate *ps, struct span s)
{
	struct span t = s, tok;

	if (!next_tok(&t, &tok))
		return;
	if (is_ws(*s.p) || is_digit(*s.p)) /* some tools print the blocks line flush left */
		return parse_detail(ps, s);
	if (tok_eq(&tok, "Personalities") || tok_eq(&tok, "unused")) {
		ps->seen_pers = true; /* "unused devices: <none>" ends the arrays */
		ps->cur = NULL;
		ps->skipping = false;
		return;
	}
	if (!ps->seen_pers) {
		ps->seen_pers = true; /* said once: the arrays below still count */
		note(ps, "no 'Personalities' line before the arrays (read them anyway)", NULL);
	}
	parse_header(ps, s);
}

int mdp_mdstat_parse(const char *text, size_t len, struct mdp_mdstat *out, struct mdp_diags *d)
{
	struct pstate ps = {.d = d};
	const char *p, *end;

	if (!text || !out)
		return -EINVAL;
	p = text;
	end = text + len;
	while (p < end && !ps.oom) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct span line = {p, nl ? nl : end};
		ps.line++;
		if (memchr(line.p, '\0', span_len(&line)))
			note(&ps, "a NUL byte in the line, skipped", NULL);
		else
			parse_line(&ps, line);
		p = nl ? nl + 1 : end;
	}
	if (ps.oom) {
		mdp_mdstat_free(&ps.m);
		return -ENOMEM;
	}
	*out = ps.m;
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
