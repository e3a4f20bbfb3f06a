/* text: outside text made safe for terminals and documents (text.h). */
#include "text.h"

#include <stdio.h>
#include <string.h>

size_t mdp_utf8_next(const char *str, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t c, min;
	size_t n;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2, c = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3, c = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0; /* a continuation byte, 0xc0/0xc1 (overlong) or 0xf5.. */
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* the NUL included: cut short */
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* One character of s at buf (NULL: only count); returns the bytes it shows as, *in those read. */
static size_t safe_one(const char *s, char *buf, size_t *in)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t cp;
	size_t k = mdp_utf8_next(s, &cp);

	if (k && mdp_text_plain(cp)) {
		if (buf)
			memcpy(buf, s, k);
		*in = k;
		return k;
	}
	*in = k ? k : 1;
	for (size_t i = 0; buf && i < *in; i++) {
		unsigned char c = (unsigned char)s[i];
		buf[4 * i] = '\\';
		buf[4 * i + 1] = 'x';
		buf[4 * i + 2] = hex[c >> 4];
		buf[4 * i + 3] = hex[c & 15];
	}
	return 4 * *in;
}

const char *mdp_text_safe(char *buf, size_t len, const char *s)
{
	size_t n = 0, in, max = len - 1;
	const char *p;

	for (p = s; *p && n <= max; p += in)
		n += safe_one(p, NULL, &in);
	if (n > max)
		max -= 3; /* cut: room for "..." */
	n = 0;
	for (p = s; *p; p += in) {
		if (n + safe_one(p, NULL, &in) > max)
			break;
		n += safe_one(p, buf + n, &in);
	}
	if (*p) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

void mdp_text_list_init(struct mdp_text_list *l, char *buf, size_t len)
{
	memset(l, 0, sizeof(*l));
	l->buf = buf;
	l->len = len;
	buf[0] = '\0';
}

void mdp_text_list_add(struct mdp_text_list *l, const char *name)
{
	size_t need = strlen(name) + (l->n ? 2 : 0);

	if (!l->n++)
		snprintf(l->first, sizeof(l->first), "%s", name);
	snprintf(l->last, sizeof(l->last), "%s", name);
	if (l->over || l->used + need >= l->len) {
		l->over = true;
		return;
	}
	l->used += (size_t)snprintf(l->buf + l->used, l->len - l->used, "%s%s",
				    l->n > 1 ? ", " : "", name);
}

const char *mdp_text_list_end(struct mdp_text_list *l, const char *noun)
{
	if (l->over)
		snprintf(l->buf, l->len, "%zu %s: %s..%s", l->n, noun, l->first, l->last);
	return l->buf;
}
