/* json: streaming JSON writer (json.h). */
#include "json.h"

#include <inttypes.h>

#include "mdp_base.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->key = false;
}

/* Before any key or value: the comma that separates it from the previous one. */
static void sep(struct json *j)
{
	if (j->key) {
		j->key = false;
		return;
	}
	if (!j->first[j->depth])
		fputs(", ", j->f);
	j->first[j->depth] = false;
}

static void open_level(struct json *j, char open, char close)
{
	sep(j);
	fputc(open, j->f);
	/* Deeper than any document mdprofile writes: keep writing, flat. */
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
	j->close[j->depth] = close;
}

void json_obj(struct json *j)
{
	open_level(j, '{', '}');
}

void json_arr(struct json *j)
{
	open_level(j, '[', ']');
}

void json_end(struct json *j)
{
	if (j->depth == 0)
		return;
	fputc(j->close[j->depth--], j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

/* Escaped; a byte that is not UTF-8 becomes U+FFFD, as everywhere (text.h). */
static void put_string(FILE *f, const char *s)
{
	uint32_t cp;
	size_t k;

	fputc('"', f);
	for (; *s; s += k ? k : 1) {
		k = mdp_utf8_next(s, &cp);
		if (!k)
			fputs("\\ufffd", f);
		else if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (!mdp_text_plain(cp))
			fprintf(f, "\\u%04x", (unsigned)cp);
		else
			fwrite(s, 1, k, f);
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *k)
{
	sep(j);
	put_string(j->f, k);
	fputs(": ", j->f);
	j->key = true;
}

void json_str(struct json *j, const char *s)
{
	sep(j);
	put_string(j->f, s);
}

void json_u64(struct json *j, uint64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, int64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRId64, v);
}

void json_f1(struct json *j, double v)
{
	sep(j);
	fprintf(j->f, "%.1f", v);
}

static void json_bool(struct json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	sep(j);
	fputs("null", j->f);
}

void json_raw(struct json *j, const char *token)
{
	sep(j);
	fputs(token, j->f);
}

void json_kstr(struct json *j, const char *k, const char *s)
{
	json_key(j, k);
	if (s)
		json_str(j, s);
	else
		json_null(j);
}

void json_ku64(struct json *j, const char *k, uint64_t v)
{
	json_key(j, k);
	json_u64(j, v);
}

void json_kbool(struct json *j, const char *k, bool v)
{
	json_key(j, k);
	json_bool(j, v);
}
