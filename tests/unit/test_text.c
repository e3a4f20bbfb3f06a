/*
 * Unit tests of the one rule for outside text (text.h): what UTF-8 is, and
 * how a sysfs value, file name or tool answer reads on a terminal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "text.h"
#include "support.h"

static void test_utf8(void **state)
{
	static const struct {
		const char *s;
		size_t len;
		uint32_t cp;
	} cases[] = {
	    {"a", 1, 'a'},
	    {"\x1b", 1, 0x1b},
	    {"\xc3\xa9", 2, 0xe9},            /* é */
	    {"\xe2\x82\xac", 3, 0x20ac},      /* € */
	    {"\xf0\x9f\x98\x80", 4, 0x1f600}, /* an emoji */
	    {"\xc2\x9b", 2, 0x9b},            /* C1 CSI: UTF-8, shown escaped */
	    {"\xff", 0, 0},
	    {"\x80", 0, 0},             /* a continuation byte alone */
	    {"\xc0\xaf", 0, 0},         /* overlong '/' */
	    {"\xe0\x80\xaf", 0, 0},     /* overlong, three bytes */
	    {"\xed\xa0\x80", 0, 0},     /* a surrogate */
	    {"\xf4\x90\x80\x80", 0, 0}, /* above U+10FFFF */
	    {"\xe2\x82", 0, 0},         /* cut short by the NUL */
	};
	uint32_t cp;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cp = 0;
		assert_int_equal(mdp_utf8_next(cases[i].s, &cp), cases[i].len);
		if (cases[i].len)
			assert_int_equal(cp, cases[i].cp);
	}
}

static void test_safe(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(mdp_text_safe(buf, sizeof(buf), "clean"), "clean");
	assert_string_equal(mdp_text_safe(buf, sizeof(buf), "caf\xc3\xa9"), "caf\xc3\xa9");
	assert_string_equal(mdp_text_safe(buf, sizeof(buf), "a\x1b]0;t\x07z"), "a\\x1b]0;t\\x07z");
	assert_string_equal(mdp_text_safe(buf, sizeof(buf), "a\nb\tc\x7f"), "a\\x0ab\\x09c\\x7f");
	assert_string_equal(mdp_text_safe(buf, sizeof(buf),
					  "x\xc2\x9b"
					  "2J"),
			    "x\\xc2\\x9b2J");
	assert_string_equal(mdp_text_safe(buf, sizeof(buf), "\xff\xfe"), "\\xff\\xfe");
	assert_string_equal(mdp_text_safe(buf, sizeof(buf), ""), "");
	/* Exactly full: no cut. One more: cut at a character, "..." at the end. */
	assert_string_equal(mdp_text_safe(buf, 8, "abcdefg"), "abcdefg");
	assert_string_equal(mdp_text_safe(buf, 8, "abcdefgh"), "abcd...");
	assert_string_equal(mdp_text_safe(buf, 8,
					  "ab\x1b"
					  "cdefgh"),
			    "ab...");
	assert_string_equal(mdp_text_safe(buf, 8,
					  "a\xe2\x82\xac\xe2\x82\xac"
					  "b"),
			    "a\xe2\x82\xac...");
}

/* A list that fits is the names; one that does not is how many, the first and the last. */
static void test_list(void **state)
{
	struct mdp_text_list l;
	char buf[64], name[16];

	(void)state;
	mdp_text_list_init(&l, buf, sizeof(buf));
	assert_string_equal(mdp_text_list_end(&l, "arrays"), "");
	mdp_text_list_init(&l, buf, sizeof(buf));
	mdp_text_list_add(&l, "md2");
	mdp_text_list_add(&l, "md3");
	assert_string_equal(mdp_text_list_end(&l, "arrays"), "md2, md3");
	mdp_text_list_init(&l, buf, sizeof(buf));
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "md%d", i);
		mdp_text_list_add(&l, name);
	}
	assert_string_equal(mdp_text_list_end(&l, "arrays"), "1000 arrays: md0..md999");
	/* 63 characters fit: 12 names of 4 and their 11 separators make 70 */
	mdp_text_list_init(&l, buf, sizeof(buf));
	for (int i = 10; i < 22; i++) {
		snprintf(name, sizeof(name), "md%d", i);
		mdp_text_list_add(&l, name);
	}
	assert_string_equal(mdp_text_list_end(&l, "arrays"), "12 arrays: md10..md21");
}

MDP_TEST_MAIN(test_utf8, test_safe, test_list)
