/*
 * Unit tests of maint: the windows' text, whether a minute of the week is inside them and
 * how long until that changes, against a minute-by-minute reference over whole weeks; the
 * heat rule's hysteresis over temperature series; a check's place as the file's text and
 * back, what refuses it, and the decision of a look for every operation and reason.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "maint.h"
#include "maint_ckpt.h"
#include "support.h"

enum { SUN, MON, TUE, WED, THU, FRI, SAT };

static struct mdp_mwin win(const char *s)
{
	struct mdp_mwin w;
	char why[160];

	if (mdp_mwin_parse(s, &w, why, sizeof(why)))
		fail_msg("%s: %s", s, why);
	return w;
}

static void test_parse(void **state)
{
	static const struct {
		const char *in, *out;
		uint8_t days;
		unsigned start, end;
	} ok[] = {
	    {"Mon-Fri 01:00-07:00", NULL, 0x3e, 60, 420},
	    {"Sat-Sun 00:00-24:00", NULL, 0x41, 0, 1440},
	    {"Sat,Sun 00:00-24:00", "Sat-Sun 00:00-24:00", 0x41, 0, 1440},
	    {"22:00-06:00", NULL, 0x7f, 1320, 360},
	    {"Fri-Mon 23:30-00:15", NULL, 0x63, 1410, 15},
	    {"Mon,Wed,Fri 02:00-03:00", "Mon,Wed,Fri 02:00-03:00", 0x2a, 120, 180},
	    {"Mon-Mon 00:00-00:01", "Mon 00:00-00:01", 0x02, 0, 1},
	    {"Sun-Sat 12:00-13:00", "12:00-13:00", 0x7f, 720, 780},
	    {"Tue,Mon 23:59-24:00", "Mon-Tue 23:59-24:00", 0x06, 1439, 1440},
	    {"Mon 12:00-00:00", NULL, 0x02, 720, 0}, /* to midnight, as 24:00 */
	};
	static const struct {
		const char *in, *why;
	} bad[] = {
	    {"Mnd-Fri 01:00-07:00", "unknown day 'Mnd-Fri'"},
	    {"mon 01:00-07:00", "unknown day 'mon'"},
	    {"Mon, 01:00-07:00", "unknown day ''"},
	    {"Mon-Fri-Sat 01:00-07:00", "unknown day 'Mon-Fri-Sat'"},
	    {"Mon 24:00-02:00", "'24:00' is not a time of day"},
	    {"Mon 01:00-24:01", "'24:01' is not a time of day"},
	    {"Mon 01:60-02:00", "'01:60' is not a time of day"},
	    {"Mon 1:00-2:00", "expected [DAYS ]HH:MM-HH:MM"},
	    {"Mon-Fri", "expected [DAYS ]HH:MM-HH:MM"},
	    {"", "expected [DAYS ]HH:MM-HH:MM"},
	    {"01:00-07:00 ", "unknown day '01:00-07:00'"},
	    {"Mon 03:00-03:00", "it ends as it starts"},
	    {"00:00-00:00", "it ends as it starts"},
	};
	struct mdp_mwin w, before = {.days = 9, .start = 9, .end = 9};
	char why[160], buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		w = win(ok[i].in);
		assert_int_equal(w.days, ok[i].days);
		assert_int_equal(w.start, ok[i].start);
		assert_int_equal(w.end, ok[i].end);
		assert_string_equal(mdp_mwin_text(&w, buf, sizeof(buf)),
				    ok[i].out ? ok[i].out : ok[i].in);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		w = before;
		assert_int_equal(mdp_mwin_parse(bad[i].in, &w, why, sizeof(why)), -EINVAL);
		if (!strstr(why, bad[i].why))
			fail_msg("'%s': said '%s', wanted '%s'", bad[i].in, why, bad[i].why);
		/* untouched (field by field: the padding after days is never written) */
		assert_int_equal(w.days, before.days);
		assert_int_equal(w.start, before.start);
		assert_int_equal(w.end, before.end);
	}
}

static void test_defer_names(void **state)
{
	(void)state;
	assert_null(mdp_maint_defer_check(MDP_MAINT_SELFTEST));
	assert_null(mdp_maint_defer_check("rsync"));
	assert_null(mdp_maint_defer_check("Plex Media Serv"));
	assert_null(mdp_maint_defer_check("0123456789abcde"));
	assert_non_null(mdp_maint_defer_check("0123456789abcdef"));
	assert_non_null(mdp_maint_defer_check(""));
	assert_non_null(mdp_maint_defer_check("bin/rsync"));
	assert_non_null(mdp_maint_defer_check(" rsync"));
	assert_non_null(mdp_maint_defer_check("rsync "));
	assert_non_null(mdp_maint_defer_check("rs\tync"));
	assert_non_null(mdp_maint_defer_check("r\xc3\xa9sync"));
}

/* The reference: each minute of the week, covered or not, one window-day at a time. */
static void cover_of(const struct mdp_maint *m, bool *cover)
{
	memset(cover, 0, MDP_MAINT_WEEK_MIN * sizeof(*cover));
	for (size_t i = 0; i < m->n_windows; i++) {
		const struct mdp_mwin *w = &m->windows[i];
		unsigned len =
		    w->end > w->start ? (unsigned)(w->end - w->start) : 1440u - w->start + w->end;
		for (unsigned d = 0; d < 7; d++)
			for (unsigned k = 0; w->days & 1u << d && k < len; k++)
				cover[(d * 1440u + w->start + k) % MDP_MAINT_WEEK_MIN] = true;
	}
}

/* Every minute of a week: inside as the reference says, and until the minutes it counts. */
static void check_week(const char *const *texts, size_t n)
{
	static bool cover[MDP_MAINT_WEEK_MIN];
	struct mdp_mwin w[8];
	struct mdp_maint m = {.windows = w, .n_windows = n};

	for (size_t i = 0; i < n; i++)
		w[i] = win(texts[i]);
	cover_of(&m, cover);
	for (unsigned t = 0; t < MDP_MAINT_WEEK_MIN; t++) {
		struct mdp_mtime now = {.wday = t / 1440u, .min = t % 1440u};
		unsigned until = 0, k = 0;
		bool in = mdp_maint_window_at(&m, now, &until);

		while (k < MDP_MAINT_WEEK_MIN && cover[(t + k) % MDP_MAINT_WEEK_MIN] == cover[t])
			k++;
		if (in != cover[t] || until != k)
			fail_msg("%s...: day %u %02u:%02u: inside %d until %u, wanted %d and %u",
				 texts[0], now.wday, now.min / 60, now.min % 60, in, until,
				 cover[t], k);
	}
}

static void test_window_weeks(void **state)
{
	static const char *const nights[] = {"Mon-Fri 01:00-07:00", "Sat-Sun 00:00-24:00"};
	static const char *const midnight[] = {"22:00-06:00"};
	static const char *const weekend[] = {"Fri-Mon 23:30-00:15", "Wed 12:00-12:01"};
	static const char *const touching[] = {"Sat 23:00-24:00", "Sun 00:00-01:00",
					       "Sun 00:30-02:00"};
	static const char *const always[] = {"00:00-24:00"};
	static const char *const nearly[] = {"00:00-24:00", "Mon 00:00-00:01"};
	static const char *const sunday_end[] = {"Sun 23:00-01:00"};
	static const char *const to_midnight[] = {"Sat 12:00-00:00", "Sun 00:00-01:00"};

	(void)state;
	check_week(nights, 2);
	check_week(midnight, 1);
	check_week(weekend, 2);
	check_week(touching, 3);
	check_week(always, 1);
	check_week(nearly, 2);
	check_week(sunday_end, 1);
	check_week(to_midnight, 2);
}

static void test_window_points(void **state)
{
	struct mdp_mwin w[] = {win("Mon-Fri 01:00-07:00"), win("Sat-Sun 00:00-24:00")};
	struct mdp_maint m = {.windows = w, .n_windows = 2}, none = {0};
	unsigned until;

	(void)state;
	assert_true(mdp_maint_window_at(&m, (struct mdp_mtime){FRI, 6 * 60 + 59}, &until));
	assert_int_equal(until, 1);
	assert_false(mdp_maint_window_at(&m, (struct mdp_mtime){FRI, 7 * 60}, &until));
	assert_int_equal(until, 17 * 60); /* Saturday 00:00 */
	/* Saturday and Sunday are one run, up to Monday 00:00. */
	assert_true(mdp_maint_window_at(&m, (struct mdp_mtime){SAT, 0}, &until));
	assert_int_equal(until, 2 * 1440);
	assert_false(mdp_maint_window_at(&m, (struct mdp_mtime){MON, 30}, &until));
	assert_int_equal(until, 30);
	/* Out-of-range input wraps rather than reads past the week. */
	assert_true(mdp_maint_window_at(&m, (struct mdp_mtime){7 + MON, 1440 + 60}, &until));
	assert_int_equal(until, 6 * 60);
	/* No windows: always inside, for a week. */
	assert_true(mdp_maint_window_at(&none, (struct mdp_mtime){TUE, 0}, &until));
	assert_int_equal(until, MDP_MAINT_WEEK_MIN);
}

/* The reference finish: minute by minute from t, work minutes done only inside the cover. */
static unsigned long finish_ref(const bool *cover, unsigned t, unsigned long work)
{
	unsigned long wall = 0;

	for (; work; wall++, t = (t + 1) % MDP_MAINT_WEEK_MIN)
		work -= cover[t];
	return wall;
}

/* Starts all over the week and works from a minute to two weeks, against the reference. */
static void check_finish(const char *const *texts, size_t n)
{
	static bool cover[MDP_MAINT_WEEK_MIN];
	static const unsigned long works[] = {1, 59, 361, 4679, 9000};
	struct mdp_mwin w[8];
	struct mdp_maint m = {.windows = w, .n_windows = n};
	uint64_t wall;

	for (size_t i = 0; i < n; i++)
		w[i] = win(texts[i]);
	cover_of(&m, cover);
	for (unsigned t = 0; t < MDP_MAINT_WEEK_MIN; t += 331)
		for (size_t k = 0; k < sizeof(works) / sizeof(works[0]); k++) {
			struct mdp_mtime now = {.wday = t / 1440u, .min = t % 1440u};
			unsigned long want = finish_ref(cover, t, works[k]);
			assert_int_equal(mdp_maint_finish(&m, now, 0, works[k] * 60, &wall), 0);
			if (wall != want * 60)
				fail_msg(
				    "%s...: day %u %02u:%02u, %lu min of work: %llu s, wanted %lu",
				    texts[0], now.wday, now.min / 60, now.min % 60, works[k],
				    (unsigned long long)wall, want * 60);
		}
}

/* mdp_maint_finish's wall seconds from (day, HH:MM, sec) for work seconds. */
static uint64_t finish_at(const struct mdp_maint *m, unsigned day, unsigned hhmm, unsigned sec,
			  uint64_t work)
{
	uint64_t wall = 0;

	assert_int_equal(mdp_maint_finish(m, (struct mdp_mtime){day, hhmm / 100 * 60 + hhmm % 100},
					  sec, work, &wall),
			 0);
	return wall;
}

static void test_finish(void **state)
{
	static const char *const nights[] = {"Mon-Fri 01:00-07:00", "Sat-Sun 00:00-24:00"};
	static const char *const midnight[] = {"22:00-06:00"};
	static const char *const week_end[] = {"Sat 23:00-01:00", "Wed 12:00-12:01"};
	static const char *const nearly[] = {"00:00-24:00", "Mon 00:00-00:01"};
	struct mdp_mwin w[] = {win("Mon-Fri 01:00-07:00"), win("Sat-Sun 00:00-24:00")};
	struct mdp_mwin wrap[] = {win("22:00-06:00")}, sat[] = {win("Sat 23:00-01:00")};
	struct mdp_mwin nodays = {.days = 0, .start = 60, .end = 120};
	struct mdp_maint m = {.windows = w, .n_windows = 2}, none = {0};
	struct mdp_maint mw = {.windows = wrap, .n_windows = 1},
			 ms = {.windows = sat, .n_windows = 1};
	struct mdp_maint empty = {.windows = &nodays, .n_windows = 1};
	uint64_t wall = 7;
	const uint64_t h = 3600;

	(void)state;
	/* Running in its window, with time to spare: the work itself. */
	assert_int_equal(finish_at(&m, MON, 200, 0, 3 * h), 3 * h);
	/* Monday 06:00, 3 h: 1 h to 07:00, 18 h to Tuesday 01:00, 2 h more. */
	assert_int_equal(finish_at(&m, MON, 600, 0, 3 * h), 21 * h);
	/* Paused outside, Monday 12:00: 13 h to Tuesday 01:00, then its 90 minutes. */
	assert_int_equal(finish_at(&m, MON, 1200, 0, 90 * 60), 13 * h + 90 * 60);
	/* Friday 06:30, 2 h: half an hour, 17 h to Saturday 00:00, 90 minutes. */
	assert_int_equal(finish_at(&m, FRI, 630, 0, 2 * h), 19 * h);
	/* The seconds count: 30 s of Monday's window left, then Tuesday's. */
	assert_int_equal(finish_at(&m, MON, 659, 30, 60), 30 + 18 * h + 30);
	/* Whole weeks: 78 h of window a week; 200 h from Monday 01:00 ends two weeks later on
	   Saturday 14:00. */
	assert_int_equal(finish_at(&m, MON, 100, 0, 200 * h), 2 * 168 * h + 133 * h);
	/* Exactly a week's window time from Monday 01:00 ends Sunday 24:00, not a week later. */
	assert_int_equal(finish_at(&m, MON, 100, 0, 78 * h), 167 * h);
	/* Wrapping midnight: Tuesday 23:00, 10 h: 7 h to 06:00, 16 h, 3 h. */
	assert_int_equal(finish_at(&mw, TUE, 2300, 0, 10 * h), 26 * h);
	/* Saturday into Sunday, the week's end: 90 min, six days 22 h, 90 min. */
	assert_int_equal(finish_at(&ms, SAT, 2330, 0, 3 * h), 3 * h + 166 * h);
	/* No work: done now, in a window or not. */
	assert_int_equal(finish_at(&m, MON, 1200, 0, 0), 0);
	/* No windows, or windows all week: the work itself. */
	assert_int_equal(finish_at(&none, TUE, 1200, 0, 5 * h), 5 * h);
	assert_int_equal(
	    finish_at(&(struct mdp_maint){.windows = (struct mdp_mwin[]){win("00:00-24:00")},
					  .n_windows = 1},
		      TUE, 1200, 0, 500 * h),
	    500 * h);
	/* No window in the next week (nor ever): it never ends. */
	assert_int_equal(mdp_maint_finish(&empty, (struct mdp_mtime){MON, 0}, 0, h, &wall),
			 -ENOENT);
	assert_int_equal(wall, 7);
	assert_int_equal(mdp_maint_finish(&m, (struct mdp_mtime){MON, 0}, 0, UINT64_MAX, &wall),
			 -ERANGE);
	/* Against the minute-by-minute reference. */
	check_finish(nights, 2);
	check_finish(midnight, 1);
	check_finish(week_end, 2);
	check_finish(nearly, 2);
}

static void test_heat_series(void **state)
{
	static const struct {
		int temp;
		bool known, hot;
	} s[] = {
	    {40, true, false}, {49, true, false}, {50, true, true},  {55, true, true},
	    {49, true, true},  {46, true, true},  {0, false, true},  {45, true, true},
	    {44, true, false}, {0, false, false}, {49, true, false}, {50, true, true},
	    {-5, true, false}, {90, true, true},  {44, true, false},
	};
	const struct mdp_mheat h = {.hot_at_c = 50, .cool_below_c = 45};
	const struct mdp_mheat edge = {.hot_at_c = 50, .cool_below_c = 50};
	const struct mdp_mheat off = {0};
	bool hot = false;

	(void)state;
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		hot = mdp_maint_hot(&h, hot, s[i].temp, s[i].known);
		if (hot != s[i].hot)
			fail_msg("step %zu (%d C): hot %d", i, s[i].temp, hot);
	}
	/* No gap: hot at 50, cool at 49. */
	assert_true(mdp_maint_hot(&edge, false, 50, true));
	assert_false(mdp_maint_hot(&edge, true, 49, true));
	/* No rule: never hot, whatever it was. */
	assert_false(mdp_maint_hot(&off, true, 80, true));
}

static struct mdp_array md2_checking(void)
{
	struct mdp_array a = {
	    .name = "md2",
	    .level_name = "raid5",
	    .raid_disks = 4,
	    .uuid = "0123456789abcdef0123456789abcdef",
	    .sync_action = "check",
	    .has_progress = true,
	    .sync_done = 123456,
	    .sync_total = 262144,
	    .size_kib = 393216,
	    .chunk_kib = 512,
	};
	return a;
}

static void test_ckpt_text(void **state)
{
	static const char text[] = "mdprofile-checkpoint 1\n"
				   "uuid 0123456789abcdef0123456789abcdef\n"
				   "action check\n"
				   "position 123456\n"
				   "total 262144\n"
				   "level raid5\n"
				   "raid_disks 4\n"
				   "chunk_kib 512\n"
				   "size_kib 393216\n"
				   "saved 1765065600\n";
	struct mdp_array a = md2_checking();
	struct mdp_mckpt c, back;
	char buf[MDP_MAINT_CKPT_MAX], why[96];

	(void)state;
	assert_int_equal(mdp_mckpt_take(&a, 1765065600, &c), 0);
	assert_int_equal(mdp_mckpt_format(&c, buf, sizeof(buf)), 0);
	assert_string_equal(buf, text);
	assert_int_equal(mdp_mckpt_parse(buf, &back, why, sizeof(why)), 0);
	assert_memory_equal(&c, &back, sizeof(c));
	assert_int_equal(mdp_mckpt_format(&c, buf, 40), -ENOSPC);
	/* Only a check or repair with its progress has a place. */
	strcpy(a.sync_action, "resync");
	assert_int_equal(mdp_mckpt_take(&a, 0, &c), -EINVAL);
	a = md2_checking();
	a.uuid[0] = '\0';
	assert_int_equal(mdp_mckpt_take(&a, 0, &c), -EINVAL);
}

/* text with line `line` (1 the head) replaced by with, or cut there (with NULL). */
static void ckpt_bad(unsigned line, const char *with, const char *want)
{
	static const char *const lines[] = {"mdprofile-checkpoint 1",
					    "uuid 0123456789abcdef0123456789abcdef",
					    "action repair",
					    "position 5",
					    "total 10",
					    "level raid6",
					    "raid_disks 5",
					    "chunk_kib 64",
					    "size_kib 1024",
					    "saved 0"};
	char text[MDP_MAINT_CKPT_MAX] = "", why[96] = "";
	struct mdp_mckpt c;

	for (unsigned i = 0; i < 10 && (with || i + 1 < line); i++) {
		strcat(text, i + 1 == line ? with : lines[i]);
		strcat(text, "\n");
	}
	assert_int_equal(mdp_mckpt_parse(text, &c, why, sizeof(why)), -EINVAL);
	if (strcmp(why, want))
		fail_msg("line %u '%s': said '%s', wanted '%s'", line, with ? with : "(cut)", why,
			 want);
}

static void test_ckpt_parse_refusals(void **state)
{
	char text[MDP_MAINT_CKPT_MAX], why[96];
	struct mdp_mckpt c;

	(void)state;
	ckpt_bad(1, "mdprofile-checkpoint 2", "line 1: expected 'mdprofile-checkpoint 1'");
	ckpt_bad(2, "uuid 0123", "line 2: expected uuid");
	ckpt_bad(3, "action resync", "line 3: expected action");
	ckpt_bad(4, "total 10", "line 4: expected position");
	ckpt_bad(4, "position -1", "line 4: expected position");
	ckpt_bad(4, "position 11", "position past its total");
	ckpt_bad(4, "position  5", "line 4: expected position");
	ckpt_bad(7, "raid_disks 0", "line 7: expected raid_disks");
	ckpt_bad(6, "level ", "line 6: expected level");
	ckpt_bad(6, NULL, "cut short: no level");
	ckpt_bad(1, NULL, "cut short: no uuid");
	assert_int_equal(mdp_mckpt_parse("mdprofile-checkpoint 1", &c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "line 1: not ended");
	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 2] = '\n';
	text[sizeof(text) - 1] = '\0';
	assert_int_equal(mdp_mckpt_parse(text, &c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "line 1: too long");
	snprintf(text, sizeof(text),
		 "mdprofile-checkpoint 1\nuuid 0123456789abcdef0123456789abcdef\naction "
		 "check\nposition 1\ntotal 2\nlevel raid1\nraid_disks 2\nchunk_kib 0\nsize_kib "
		 "8\nsaved 1\nmore 1\n");
	assert_int_equal(mdp_mckpt_parse(text, &c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "line 11: expected the end");
}

static void test_ckpt_refused(void **state)
{
	struct mdp_array a = md2_checking(), now;
	struct mdp_mckpt c;
	char buf[160];

	(void)state;
	assert_int_equal(mdp_mckpt_take(&a, 0, &c), 0);
	now = a;
	strcpy(now.sync_action, "idle");
	assert_null(mdp_mckpt_refused(&c, &now, buf, sizeof(buf)));
	now.uuid[31] = '0';
	assert_string_equal(mdp_mckpt_refused(&c, &now, buf, sizeof(buf)),
			    "it is another array's (UUID 0123456789abcdef0123456789abcdef)");
	now = a;
	now.raid_disks = 5;
	assert_string_equal(mdp_mckpt_refused(&c, &now, buf, sizeof(buf)),
			    "md2 has changed since (4 raid disks then, 5 now)");
	now = a;
	strcpy(now.level_name, "raid6");
	assert_string_equal(mdp_mckpt_refused(&c, &now, buf, sizeof(buf)),
			    "md2 has changed since (raid5 then, raid6 now)");
	now = a;
	now.size_kib *= 2;
	assert_string_equal(mdp_mckpt_refused(&c, &now, buf, sizeof(buf)),
			    "md2 has changed since (chunk 512 KiB and 393216 KiB then, 512 and "
			    "786432 now)");
}

static void test_decide(void **state)
{
	struct mdp_mwin w[] = {win("Mon-Fri 01:00-07:00")};
	struct mdp_maint m = {.windows = w, .n_windows = 1};
	const struct mdp_mtime in = {MON, 120}, out = {MON, 8 * 60};
	static const struct {
		bool inside, hot, deferred;
		enum mdp_mop op;
		enum mdp_mdo want;
		enum mdp_mwhy why;
	} t[] = {
	    {true, false, false, MDP_MOP_CHECK, MDP_MDO_NOTHING, MDP_MW_NONE},
	    {false, false, false, MDP_MOP_CHECK, MDP_MDO_PAUSE, MDP_MW_WINDOW},
	    {true, true, false, MDP_MOP_CHECK, MDP_MDO_PAUSE, MDP_MW_HEAT},
	    {true, false, true, MDP_MOP_CHECK, MDP_MDO_PAUSE, MDP_MW_DEFER},
	    {false, true, true, MDP_MOP_CHECK, MDP_MDO_PAUSE, MDP_MW_WINDOW},
	    {true, true, true, MDP_MOP_CHECK, MDP_MDO_PAUSE, MDP_MW_HEAT},
	    {true, false, false, MDP_MOP_PAUSED, MDP_MDO_RESUME, MDP_MW_NONE},
	    {false, false, false, MDP_MOP_PAUSED, MDP_MDO_NOTHING, MDP_MW_WINDOW},
	    {true, true, false, MDP_MOP_PAUSED, MDP_MDO_NOTHING, MDP_MW_HEAT},
	    {true, false, false, MDP_MOP_REDUNDANCY, MDP_MDO_FULL, MDP_MW_NONE},
	    {false, false, false, MDP_MOP_REDUNDANCY, MDP_MDO_SLOW, MDP_MW_WINDOW},
	    {true, true, false, MDP_MOP_REDUNDANCY, MDP_MDO_SLOW, MDP_MW_HEAT},
	    {false, true, true, MDP_MOP_NONE, MDP_MDO_NOTHING, MDP_MW_WINDOW},
	};
	enum mdp_mwhy why;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		enum mdp_mdo d = mdp_maint_decide(&m, t[i].inside ? in : out, t[i].hot,
						  t[i].deferred, t[i].op, &why);
		if (d != t[i].want || why != t[i].why)
			fail_msg("row %zu: %d (%s), wanted %d (%s)", i, d, mdp_maint_why_name(why),
				 t[i].want, mdp_maint_why_name(t[i].why));
	}
	assert_string_equal(mdp_maint_why_name(MDP_MW_DEFER), "deferred");
	assert_string_equal(mdp_maint_why_name((enum mdp_mwhy)9), "");
}

MDP_TEST_MAIN(test_parse, test_defer_names, test_window_weeks, test_window_points, test_finish,
	      test_heat_series, test_ckpt_text, test_ckpt_parse_refusals, test_ckpt_refused,
	      test_decide)
