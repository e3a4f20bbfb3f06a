/*
 * diag: a growable list of positioned messages (see diag.h).
 */
#include "diag.h"
#include "text.h"
#include "grow.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mdp_diags_init(struct mdp_diags *d)
{
	memset(d, 0, sizeof(*d));
}

void mdp_diags_free(struct mdp_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].msg);
	}
	free(d->v);
	mdp_diags_init(d);
}

/* Messages quote file names, sysfs values and tools' output: one rule makes them safe (text.h). */
static char *safe_dup(const char *s)
{
	size_t len = 4 * strlen(s) + 8;
	char *b = malloc(len);

	return b ? (char *)mdp_text_safe(b, len, s) : NULL;
}

int mdp_diags_add(struct mdp_diags *d, const char *file, unsigned line, unsigned col,
		  const char *fmt, ...)
{
	struct mdp_diag g = {.line = line, .col = col};
	va_list ap;
	char *raw;
	int n;

	if (mdp_grow_cap(&d->v, d->n, &d->cap, sizeof(*d->v)))
		return -ENOMEM;
	va_start(ap, fmt);
	n = vasprintf(&raw, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	g.msg = safe_dup(raw);
	free(raw);
	if (!g.msg)
		return -ENOMEM;
	if (file && !(g.file = safe_dup(file))) {
		free(g.msg);
		return -ENOMEM;
	}
	d->v[d->n++] = g;
	return 0;
}

static int diag_cmp(const struct mdp_diag *a, const struct mdp_diag *b)
{
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	return 0;
}

void mdp_diags_sort(struct mdp_diags *d)
{
	/* Insertion sort: stable, and lists are short. */
	for (size_t i = 1; i < d->n; i++) {
		struct mdp_diag cur = d->v[i];
		size_t j = i;
		while (j > 0 && diag_cmp(&d->v[j - 1], &cur) > 0) {
			d->v[j] = d->v[j - 1];
			j--;
		}
		d->v[j] = cur;
	}
}

int mdp_diag_format(const struct mdp_diag *g, char *buf, size_t len)
{
	if (g->file && g->line && g->col)
		return snprintf(buf, len, "%s:%u:%u: %s", g->file, g->line, g->col, g->msg);
	if (g->file && g->line) /* a line-oriented file such as /proc/mdstat */
		return snprintf(buf, len, "%s:%u: %s", g->file, g->line, g->msg);
	if (g->file)
		return snprintf(buf, len, "%s: %s", g->file, g->msg);
	return snprintf(buf, len, "%s", g->msg);
}

/* FNV-1a, 64 bits, over s and its terminating NUL (so that "ab","c" and "a","bc" differ). */
static uint64_t fnv(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	} while (*s++);
	return h;
}

enum mdp_said mdp_diags_said(struct mdp_diags_said *s, const struct mdp_diags *d)
{
	uint64_t h = 0;
	char pos[32];

	if (d->n)
		h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < d->n; i++) {
		snprintf(pos, sizeof(pos), "%u:%u", d->v[i].line, d->v[i].col);
		h = fnv(fnv(fnv(h, d->v[i].file ? d->v[i].file : ""), pos), d->v[i].msg);
	}
	if (d->n && !h)
		h = 1; /* 0 is "nothing said" */
	if (h == s->digest)
		return MDP_SAID_SAME;
	s->digest = h;
	return h ? MDP_SAID_NEW : MDP_SAID_CLEARED;
}
