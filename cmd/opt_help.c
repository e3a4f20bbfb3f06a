/* opt_help: usage synopses and option lists, from the option tables (opt.h). */
#include "opt.h"

#include <string.h>

/* The column of an option's help in a list, as in git's parse-options. */
#define HELP_COL 26

void opt_print_wrapped(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;
	bool first = true; /* on this line: the first word goes there whatever its length */

	while (*p) {
		size_t n = strcspn(p, " \n");
		if (!first && col + 1 + (int)n > OPT_HELP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			first = true;
		}
		fprintf(f, "%s%.*s", first ? "" : " ", (int)n, p);
		col += (first ? 0 : 1) + (int)n;
		first = false;
		p += n;
		if (*p == '\n' && p[1]) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			first = true;
		}
		p += strspn(p, " \n");
	}
	fputc('\n', f);
}

/* Whether t says options a and b exclude each other. */
static bool excludes(const struct opt_table *t, const struct opt *a, const struct opt *b)
{
	for (const struct opt_pair *x = t->excl; x && x->a; x++)
		if ((!strcmp(x->a, a->name) && !strcmp(x->b, b->name)) ||
		    (!strcmp(x->a, b->name) && !strcmp(x->b, a->name)))
			return true;
	return false;
}

/* What o requires in t (the first), or NULL. */
static const struct opt *required(const struct opt_table *t, const struct opt *o)
{
	for (const struct opt_pair *x = t->requires; x && x->a; x++)
		if (!strcmp(x->a, o->name))
			return opt_find(t, x->b);
	return NULL;
}

/* o as a synopsis shows it, "-o|--output FILE", and the options that need it, nested. */
static size_t one(const struct opt_table *t, const struct opt *o, char *buf, size_t len)
{
	size_t n = 0;

	if (o->letter)
		n += (size_t)snprintf(buf + n, len - n, "-%c|", o->letter);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "--%s%s%s", o->name, o->metavar ? " " : "",
				      o->metavar ? o->metavar : "");
	for (size_t i = 0; i < t->n && n < len; i++)
		if (required(t, &t->opt[i]) == o) {
			n += (size_t)snprintf(buf + n, len - n, " [");
			if (n < len)
				n += one(t, &t->opt[i], buf + n, len - n);
			if (n < len)
				n += (size_t)snprintf(buf + n, len - n, "]");
		}
	return n < len ? n : len - 1;
}

/*
 * One word of a synopsis at column *col: on this line when it fits, else on
 * the next, under the first option. A bracket of alternatives too long for
 * a line breaks before a " | ".
 */
static void word(FILE *f, const char *w, int *col, int indent)
{
	size_t n = strlen(w), cut = n;

	if (*col + 1 + (int)n > OPT_HELP_WIDTH && *col >= indent) {
		fprintf(f, "\n%*s", indent - 1, "");
		*col = indent - 1;
	}
	/* the last " | " that leaves a head that fits; none: the whole word */
	while (*col + 1 + (int)cut > OPT_HELP_WIDTH) {
		const char *bar = NULL;
		for (const char *p = w; (p = strstr(p, " | ")) && p - w < (ptrdiff_t)cut; p++)
			bar = p;
		if (!bar || bar == w)
			break;
		cut = (size_t)(bar - w);
	}
	fprintf(f, " %.*s", (int)cut, w);
	*col += 1 + (int)cut;
	if (cut < n) { /* the rest, "| ...", on a line of its own */
		fprintf(f, "\n%*s", indent - 1, "");
		*col = indent - 1;
		word(f, w + cut + 1, col, indent);
	}
}

void opt_print_synopsis(FILE *f, const char *head, const struct opt_table *t, const char *args)
{
	int indent = (int)strlen(head) + 1, col = indent - 1;
	uint64_t placed = 0;
	char buf[512];

	fputs(head, f);
	for (size_t i = 0; t && i < t->n && i < 64; i++) {
		uint64_t group = (uint64_t)1 << i;
		size_t n = 0;
		if (placed >> i & 1 || required(t, &t->opt[i]))
			continue;
		buf[n++] = '[';
		n += one(t, &t->opt[i], buf + n, sizeof(buf) - n);
		/* the later ones that exclude every one in the bracket so far */
		for (size_t j = i + 1; j < t->n && j < 64 && n < sizeof(buf) - 1; j++) {
			bool all = !(placed >> j & 1) && !required(t, &t->opt[j]);
			for (size_t k = i; all && k < j; k++)
				if (group >> k & 1 && !excludes(t, &t->opt[k], &t->opt[j]))
					all = false;
			if (!all)
				continue;
			group |= (uint64_t)1 << j;
			placed |= (uint64_t)1 << j;
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " | ");
			if (n < sizeof(buf) - 1)
				n += one(t, &t->opt[j], buf + n, sizeof(buf) - n);
		}
		placed |= (uint64_t)1 << i;
		snprintf(buf + n, sizeof(buf) - n, "]");
		word(f, buf, &col, indent);
	}
	if (args)
		word(f, args, &col, indent);
	fputc('\n', f);
}

void opt_print_list(FILE *f, const struct opt_table *t)
{
	for (size_t i = 0; t && i < t->n; i++) {
		const struct opt *o = &t->opt[i];
		int col;
		if (o->letter)
			col = fprintf(f, "  -%c, --%s", o->letter, o->name);
		else
			col = fprintf(f, "      --%s", o->name);
		if (o->metavar)
			col += fprintf(f, " %s", o->metavar);
		if (col > HELP_COL - 2) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%*s", HELP_COL - col, "");
		opt_print_wrapped(f, o->help ? o->help : "", HELP_COL, HELP_COL);
	}
}
