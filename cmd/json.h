/*
 * json: a small streaming JSON writer for --json output. It keeps track
 * of nesting and commas itself, so no command writes a separator by hand,
 * and escapes every string (control characters included) so text taken
 * from files cannot break the document.
 *
 * Output is one line per document: {"a": 1, "b": [true, null]} and a
 * newline at the end of the outermost value.
 */
#ifndef MDP_CMD_JSON_H
#define MDP_CMD_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* nothing written yet at this level */
	char close[JSON_MAX_DEPTH]; /* '}' or ']' for each open level */
	bool key;                   /* a key was just written: no comma before the value */
};

void json_init(struct json *j, FILE *f);
void json_obj(struct json *j); /* { */
void json_arr(struct json *j); /* [ */
void json_end(struct json *j); /* } or ]; a newline after the outermost */
void json_key(struct json *j, const char *k);
void json_str(struct json *j, const char *s);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
/* A measurement, one decimal: 512.3 */
void json_f1(struct json *j, double v);
void json_null(struct json *j);
/* A token already in JSON form (a number or a quoted string from the tunable registry). */
void json_raw(struct json *j, const char *token);
/* Shorthands for "key": value. */
void json_kstr(struct json *j, const char *k, const char *s); /* NULL writes null */
void json_ku64(struct json *j, const char *k, uint64_t v);
void json_kbool(struct json *j, const char *k, bool v);

#endif
