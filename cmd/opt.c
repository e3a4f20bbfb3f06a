/* opt: option tables and the command line's parser (opt.h). */
#include "opt.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdp_base.h"
#include "mdp_profile.h"

/* getopt_long's values: short options are their letter, long ones OPT_LONG + index. */
#define OPT_LONG 256

const struct opt *opt_find(const struct opt_table *t, const char *name)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (!strcmp(t->opt[i].name, name))
			return &t->opt[i];
	return NULL;
}

/* Seconds with up to three decimals, 0.1..3600 ("5", "0.5"), into milliseconds. */
static int parse_interval(const char *s, unsigned *ms)
{
	const char *dot = strchr(s, '.');
	char whole[8];
	uint64_t w = 0, f = 0;
	size_t nf = dot ? strlen(dot + 1) : 0;

	if ((dot ? (size_t)(dot - s) : strlen(s)) >= sizeof(whole) || (dot && (nf < 1 || nf > 3)))
		return -EINVAL;
	snprintf(whole, sizeof(whole), "%.*s", (int)(dot ? dot - s : (long)strlen(s)), s);
	if (mdp_num_parse(whole, 0, 3600, &w) || (dot && mdp_num_parse(dot + 1, 0, 999, &f)))
		return -EINVAL;
	for (size_t i = nf; i < 3; i++)
		f *= 10;
	if (w * 1000 + f < 100 || w * 1000 + f > 3600000)
		return -EINVAL;
	*ms = (unsigned)(w * 1000 + f);
	return 0;
}

/* Every option of every table once, by name (the first table's wins). */
static int collect(struct opt_scan *s, const struct opt_table *const *tables, size_t n_tables)
{
	size_t n = 0;

	for (size_t t = 0; t < n_tables; t++)
		n += tables[t] ? tables[t]->n : 0;
	if (!(s->all = calloc(n + 1, sizeof(*s->all))))
		return -ENOMEM;
	for (size_t t = 0; t < n_tables; t++)
		for (size_t i = 0; tables[t] && i < tables[t]->n; i++) {
			const struct opt *o = &tables[t]->opt[i];
			size_t j = 0;
			while (j < s->n_all && strcmp(s->all[j]->name, o->name))
				j++;
			if (j == s->n_all)
				s->all[s->n_all++] = o;
		}
	return 0;
}

/* getopt_long's tables from s->all: "-:" first, so positionals come back in order. */
static int getopt_tables(const struct opt_scan *s, struct option **longs, char **shorts)
{
	char *p;

	*longs = calloc(s->n_all + 1, sizeof(**longs));
	*shorts = p = calloc(2 * s->n_all + 3, 1);
	if (!*longs || !*shorts)
		return -ENOMEM;
	*p++ = '-';
	*p++ = ':';
	for (size_t i = 0; i < s->n_all; i++) {
		const struct opt *o = s->all[i];
		(*longs)[i] = (struct option){o->name, o->metavar ? required_argument : no_argument,
					      NULL, OPT_LONG + (int)i};
		if (o->letter) {
			*p++ = o->letter;
			if (o->metavar)
				*p++ = ':';
		}
	}
	return 0;
}

/*
 * "--ver" that getopt_long refused: ambiguous when several long names begin
 * so (getopt takes a prefix of one); their names, "--verbose or --version",
 * in buf.
 */
static bool ambiguous(const struct opt_scan *s, const char *word, char *buf, size_t len)
{
	size_t wl, n = 0, k = 0, hits = 0;

	if (strncmp(word, "--", 2))
		return false;
	word += 2;
	wl = strcspn(word, "=");
	for (size_t i = 0; i < s->n_all; i++)
		hits += !strncmp(s->all[i]->name, word, wl);
	if (hits < 2)
		return false;
	buf[0] = '\0';
	for (size_t i = 0; i < s->n_all && n < len; i++)
		if (!strncmp(s->all[i]->name, word, wl))
			n += (size_t)snprintf(buf + n, len - n, "%s--%s",
					      !k++        ? ""
					      : k == hits ? " or "
							  : ", ",
					      s->all[i]->name);
	return true;
}

/* The first getopt error, said in its place: everything before it is still taken. */
static void scan_error(struct opt_scan *s, int opt, const char *word)
{
	char names[256];

	if (s->err[0])
		return;
	if (opt == '?' && ambiguous(s, word, names, sizeof(names)))
		snprintf(s->err, sizeof(s->err), "option '%s' is ambiguous: %s", word, names);
	else if (opt == ':')
		snprintf(s->err, sizeof(s->err),
			 "option '%s' needs an argument (see mdprofile --help)", word);
	else if (optopt > 0 && optopt < OPT_LONG)
		snprintf(s->err, sizeof(s->err), "unknown option '-%c' (see mdprofile --help)",
			 optopt);
	else
		snprintf(s->err, sizeof(s->err), "unknown option '%s' (see mdprofile --help)",
			 word);
	s->ev[s->n_ev++] = (struct opt_event){-1, NULL};
}

static int letter_index(const struct opt_scan *s, int c)
{
	for (size_t i = 0; i < s->n_all; i++)
		if (s->all[i]->letter == c)
			return (int)i;
	return -1;
}

int opt_scan(struct opt_scan *s, int argc, char **argv, const struct opt_table *const *tables,
	     size_t n_tables)
{
	struct option *longs = NULL;
	char *shorts = NULL;
	int opt, rc;

	memset(s, 0, sizeof(*s));
	if ((rc = collect(s, tables, n_tables)) || (rc = getopt_tables(s, &longs, &shorts)))
		goto out;
	s->pos = calloc((size_t)argc + 1, sizeof(*s->pos));
	s->ev = calloc((size_t)argc + 1, sizeof(*s->ev));
	if (!s->pos || !s->ev) {
		rc = -ENOMEM;
		goto out;
	}
	opterr = 0; /* our own messages, with our name rather than argv[0] */
	optind = 0; /* from the start, whatever read a line before */
	while ((opt = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (opt == 1)
			s->pos[s->n_pos++] = optarg;
		else if (opt == '?' || opt == ':')
			scan_error(s, opt, argv[optind - 1]);
		else if (opt >= OPT_LONG)
			s->ev[s->n_ev++] = (struct opt_event){opt - OPT_LONG, optarg};
		else
			s->ev[s->n_ev++] = (struct opt_event){letter_index(s, opt), optarg};
	}
	while (optind < argc)
		s->pos[s->n_pos++] = argv[optind++];
out:
	free(longs);
	free(shorts);
	return rc;
}

/* What a refused value of o should have been: the message after "--NAME 'ARG': ". */
static void expected(const struct opt *o, char *buf, size_t len)
{
	size_t n = 0;

	if (o->kind == OPTK_SECONDS || o->kind == OPTK_NUMBER) {
		snprintf(buf, len, "expected %s, %llu..%llu", o->what ? o->what : "seconds",
			 (unsigned long long)o->min, (unsigned long long)o->max);
	} else if (o->kind == OPTK_INTERVAL) {
		snprintf(buf, len, "expected seconds, 0.1..3600");
	} else if (o->kind == OPTK_SIZE) {
		snprintf(buf, len, "expected %s", o->what);
	} else {
		n = (size_t)snprintf(buf, len, "expected");
		for (size_t i = 0; o->words[i] && n < len; i++) {
			const char *sep = !i ? " " : o->words[i + 1] ? ", " : " or ";
			n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, o->words[i]);
		}
	}
}

/* Take arg into base per o; NULL, or the message of a refused value. */
static const char *take_one(const struct opt *o, void *base, void *gbase, const char *arg,
			    char *buf, size_t len)
{
	void *p = (char *)base + o->off;
	const char *why;
	uint64_t v;

	switch (o->kind) {
	case OPTK_FLAG:
		*(bool *)p = true;
		return NULL;
	case OPTK_STRING:
		*(const char **)p = arg;
		return NULL;
	case OPTK_SECONDS:
	case OPTK_NUMBER:
		if (mdp_num_parse(arg, o->min, o->max, &v))
			break;
		*(unsigned *)p = (unsigned)v * (o->scale ? o->scale : 1);
		return NULL;
	case OPTK_INTERVAL:
		if (parse_interval(arg, p))
			break;
		return NULL;
	case OPTK_SIZE:
		if (mdp_parse_size_kib(arg, &v, &why) || v < o->min || v > o->max)
			break;
		*(uint64_t *)p = v * 1024;
		return NULL;
	case OPTK_CHOICE:
		for (size_t i = 0; o->words[i]; i++)
			if (!strcmp(arg, o->words[i])) {
				*(const char **)p = arg;
				return NULL;
			}
		break;
	case OPTK_CUSTOM:
		return o->take(base, gbase, arg);
	}
	expected(o, buf, len);
	return buf;
}

/* The index of o in t's entries, for scan->seen. */
static unsigned entry_index(const struct opt_table *t, const struct opt *o)
{
	return (unsigned)(o - t->opt);
}

int opt_take(struct opt_scan *s, const struct opt_table *global, void *gbase,
	     const struct opt_table *own, void *obase)
{
	char buf[256];

	for (size_t e = 0; e < s->n_ev; e++) {
		const struct opt *o;
		const char *why, *name;
		int t;

		if (s->ev[e].i < 0)
			return -EINVAL; /* s->err says what */
		name = s->all[s->ev[e].i]->name;
		t = opt_find(global, name) ? 0 : 1;
		if (!(o = opt_find(t ? own : global, name))) {
			if (!s->foreign)
				s->foreign = name;
			continue;
		}
		if ((why = take_one(o, t ? obase : gbase, gbase, s->ev[e].arg, buf, sizeof(buf)))) {
			snprintf(s->err, sizeof(s->err), "--%s '%s': %s", o->name, s->ev[e].arg,
				 why);
			return -EINVAL;
		}
		s->seen[t] |= (uint64_t)1 << (entry_index(t ? own : global, o) & 63);
	}
	return 0;
}

/* Whether the option named name was given: in t (seen[1]) or, else, in global (seen[0]). */
static bool given(const struct opt_table *t, const struct opt_table *global, const uint64_t seen[2],
		  const char *name)
{
	const struct opt *o = opt_find(t, name);

	if (o && t != global)
		return seen[1] >> entry_index(t, o) & 1;
	o = opt_find(global, name);
	return o && seen[0] >> entry_index(global, o) & 1;
}

bool opt_rule_broken(const struct opt_table *t, const struct opt_table *global, const char *cmd,
		     const uint64_t seen[2], char *err, size_t len)
{
	for (const struct opt_pair *x = t ? t->excl : NULL; x && x->a; x++) {
		if (!given(t, global, seen, x->a) || !given(t, global, seen, x->b))
			continue;
		if (x->msg)
			snprintf(err, len, "%s", x->msg);
		else
			snprintf(err, len, "--%s and --%s: choose one", x->a, x->b);
		return true;
	}
	for (const struct opt_pair *x = t ? t->requires : NULL; x && x->a; x++) {
		if (!given(t, global, seen, x->a) || given(t, global, seen, x->b))
			continue;
		if (x->msg)
			snprintf(err, len, "%s", x->msg);
		else
			snprintf(err, len, "--%s applies to '%s' only with --%s", x->a, cmd, x->b);
		return true;
	}
	return false;
}

void opt_scan_free(struct opt_scan *s)
{
	free(s->pos);
	free(s->all);
	free(s->ev);
	memset(s, 0, sizeof(*s));
}
