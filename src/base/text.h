/*
 * text: the one rule for outside text (sysfs values, file names, a tool's
 * output, profile text, the journal's profile name) on its way to people
 * and programs.
 *
 * On a terminal (mdp_text_safe): printable ASCII and valid UTF-8 from
 * U+00A0 up pass as they are; every other byte (C0 controls such as ESC
 * and newline, DEL, the C1 controls U+0080..U+009F, bytes that are not
 * valid UTF-8) is written \xHH, two lowercase hex digits, so ESC reads
 * \x1b and a stray 0xff reads \xff. Nothing can move the cursor, change
 * the title or start a line of its own.
 *
 * In JSON and Prometheus output (cmd/json.c, cmd/status_prom.c) the same
 * decoder (mdp_utf8_next) decides what is a character: a byte that is not
 * valid UTF-8 becomes U+FFFD (\ufffd in JSON), so documents are always
 * valid UTF-8.
 */
#ifndef MDP_TEXT_H
#define MDP_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The UTF-8 character at s (not at its NUL): its length, 1..4, with *cp
 * set; 0 when the byte at s starts no valid sequence (a stray
 * continuation byte, an overlong form, a surrogate, above U+10FFFF, cut
 * short).
 */
size_t mdp_utf8_next(const char *s, uint32_t *cp);

/*
 * The one rule on characters: whether code point cp passes as it is (not
 * a C0 control, DEL or a C1 control). The terminal, JSON and Prometheus
 * writers differ only in how they write one that does not.
 */
static inline int mdp_text_plain(uint32_t cp)
{
	return cp >= 0x20 && cp != 0x7f && (cp < 0x80 || cp >= 0xa0);
}

/*
 * s made safe for a terminal into buf (the rule above), NUL-terminated;
 * text that does not fit is cut at a character and ends "...". Returns buf.
 * len must be at least 8.
 */
const char *mdp_text_safe(char *buf, size_t len, const char *s);

/*
 * A list of names for a one-line message: "md2, md3, md4" while it fits
 * in its buffer, else summarised as "1000 arrays: md0..md999" (how many,
 * the first and the last), never cut in the middle of a name. Init with
 * the buffer, add each name in order, end with the plural noun; the
 * buffer holds the text (a list of none is ""). len must be at least 64.
 */
struct mdp_text_list {
	char *buf;
	size_t len, used, n;
	char first[64], last[64];
	bool over; /* a name did not fit: the summary */
};
void mdp_text_list_init(struct mdp_text_list *l, char *buf, size_t len);
void mdp_text_list_add(struct mdp_text_list *l, const char *name);
const char *mdp_text_list_end(struct mdp_text_list *l, const char *noun);

#endif
