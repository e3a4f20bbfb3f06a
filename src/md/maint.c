/*
 * maint: windows, heat and deferred jobs for checks and repairs (maint.h). Pure: no I/O,
 * no clock.
 *
 * Window arithmetic is in minutes of the week from Sunday 00:00 local time: a window on day
 * d covers [d * 1440 + start, + its length) modulo the week, so a window crossing midnight,
 * or Saturday into Sunday, needs no case of its own. A change of daylight saving time moves
 * the local clock, not these minutes: a window is judged by the local time at each look, so
 * an hour skipped or repeated makes the window an hour shorter or longer that night, as any
 * wall-clock schedule (cron) is.
 */
#include "maint.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mdp_base.h"

/* struct tm's order: 0 Sunday. */
static const char *const day_names[7] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

static int day_of(const char *s, size_t n)
{
	for (int d = 0; n == 3 && d < 7; d++)
		if (!strncmp(s, day_names[d], 3))
			return d;
	return -1;
}

/* Days a to b, wrapping past Saturday: Fri-Mon is Fri, Sat, Sun, Mon. */
static uint8_t day_range(int a, int b)
{
	uint8_t bits = 0;

	for (int d = a;; d = (d + 1) % 7) {
		bits |= (uint8_t)(1u << d);
		if (d == b)
			return bits;
	}
}

/* One item of DAYS: "Mon" or "Mon-Fri". */
static int day_item(const char *s, size_t n, uint8_t *bits)
{
	int a = day_of(s, n < 3 ? n : 3), b;

	if (n == 3 && a >= 0) {
		*bits |= (uint8_t)(1u << a);
		return 0;
	}
	if (n != 7 || a < 0 || s[3] != '-' || (b = day_of(s + 4, 3)) < 0)
		return -EINVAL;
	*bits |= day_range(a, b);
	return 0;
}

static int days_parse(const char *s, size_t n, uint8_t *bits, char *why, size_t len)
{
	char item[24], shown[48];

	for (size_t i = 0, j; i <= n; i = j + 1) {
		for (j = i; j < n && s[j] != ','; j++)
			;
		if (!day_item(s + i, j - i, bits))
			continue;
		snprintf(item, sizeof(item), "%.*s", (int)(j - i < 20 ? j - i : 20), s + i);
		snprintf(why, len,
			 "unknown day '%s': expected Mon, Tue, Wed, Thu, Fri, Sat or Sun, or a "
			 "range such as Mon-Fri",
			 mdp_text_safe(shown, sizeof(shown), item));
		return -EINVAL;
	}
	return 0;
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "HH:MM" at s into minutes; 24:00 only as an end. */
static int hhmm(const char *s, bool end, uint16_t *min)
{
	unsigned h, m;

	if (!digit(s[0]) || !digit(s[1]) || s[2] != ':' || !digit(s[3]) || !digit(s[4]))
		return -EINVAL;
	h = (unsigned)(s[0] - '0') * 10 + (unsigned)(s[1] - '0');
	m = (unsigned)(s[3] - '0') * 10 + (unsigned)(s[4] - '0');
	if (m > 59 || h > 24 || (h == 24 && (!end || m)))
		return -EINVAL;
	*min = (uint16_t)(h * 60 + m);
	return 0;
}

static int times_parse(const char *t, struct mdp_mwin *w, char *why, size_t len)
{
	char part[8];
	int bad;

	if (strlen(t) != 11 || t[5] != '-') {
		snprintf(why, len, "expected [DAYS ]HH:MM-HH:MM, as in Mon-Fri 01:00-07:00");
		return -EINVAL;
	}
	if ((bad = hhmm(t, false, &w->start) ? 0 : hhmm(t + 6, true, &w->end) ? 6 : -1) >= 0) {
		snprintf(part, sizeof(part), "%.5s", t + bad);
		snprintf(why, len,
			 "'%s' is not a time of day: hours 00 to 23 and minutes 00 to 59 (24:00 "
			 "only as an end)",
			 part);
		return -EINVAL;
	}
	if (w->start == w->end) {
		snprintf(why, len, "it ends as it starts: a whole day is 00:00-24:00");
		return -EINVAL;
	}
	return 0;
}

int mdp_mwin_parse(const char *s, struct mdp_mwin *w, char *why, size_t len)
{
	const char *sp = strchr(s, ' ');
	struct mdp_mwin v = {0};

	if (sp && days_parse(s, (size_t)(sp - s), &v.days, why, len))
		return -EINVAL;
	if (!sp)
		v.days = 0x7f;
	if (times_parse(sp ? sp + 1 : s, &v, why, len))
		return -EINVAL;
	*w = v;
	return 0;
}

/* Weekday of position i of the week counted from Monday, i taken modulo 7. */
static unsigned mon_day(unsigned i)
{
	return (i + 1) % 7;
}

/*
 * The days as runs, from the first run that starts on or after Monday ("Mon-Fri",
 * "Mon,Wed", "Fri-Mon"): a run over the weekend stays one run. Not for all seven days.
 */
static void days_text(uint8_t days, char *buf, size_t len)
{
	unsigned first = 0, i, j;
	size_t o = 0;

	buf[0] = '\0';
	while (first < 7 && !(days & 1u << mon_day(first) && !(days & 1u << mon_day(first + 6))))
		first++;
	for (i = first; i < first + 7; i = j + 1) {
		if (!(days & 1u << mon_day(i))) {
			j = i;
			continue;
		}
		for (j = i; j + 1 < first + 7 && days & 1u << mon_day(j + 1); j++)
			;
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s%s%s", o ? "," : "",
				      day_names[mon_day(i)], j > i ? "-" : "",
				      j > i ? day_names[mon_day(j)] : "");
	}
}

const char *mdp_mwin_text(const struct mdp_mwin *w, char *buf, size_t len)
{
	char days[40];

	days_text(w->days, days, sizeof(days));
	snprintf(buf, len, "%s%s%02u:%02u-%02u:%02u", w->days == 0x7f ? "" : days,
		 w->days == 0x7f ? "" : " ", w->start / 60u, w->start % 60u, w->end / 60u,
		 w->end % 60u);
	return buf;
}

static const char *const mev_names[MDP_MEV_COUNT] = {"start", "pause", "resume", "end"};

const char *mdp_mev_name(enum mdp_mev e)
{
	return (unsigned)e < MDP_MEV_COUNT ? mev_names[e] : "";
}

int mdp_mev_parse(const char *word)
{
	for (int e = 0; e < (int)MDP_MEV_COUNT; e++)
		if (!strcmp(word, mev_names[e]))
			return e;
	return -1;
}

const char *mdp_maint_cmd_check(const char *path)
{
	size_t n = strlen(path);

	if (path[0] != '/' || n < 2 || n > MDP_MAINT_CMD_MAX || path[n - 1] == '/')
		return "expected the absolute path of a program (at most 255 bytes)";
	for (size_t i = 0; i < n; i++)
		if (path[i] <= ' ' || path[i] > '~')
			return "a path of printable characters without spaces";
	if (strstr(path, "/./") || strstr(path, "/../") || strstr(path, "//") ||
	    (n >= 2 && !strcmp(path + n - 2, "/.")) || (n >= 3 && !strcmp(path + n - 3, "/..")))
		return "a path without '.', '..' or empty components";
	return NULL;
}

const char *mdp_maint_defer_check(const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(name, MDP_MAINT_SELFTEST))
		return NULL;
	if (!n || n > MDP_MAINT_COMM_MAX || name[0] == ' ' || name[n - 1] == ' ')
		goto bad;
	for (size_t i = 0; i < n; i++)
		if (name[i] < ' ' || name[i] > '~' || name[i] == '/')
			goto bad;
	return NULL;
bad:
	return "expected " MDP_MAINT_SELFTEST " or a process name as /proc/PID/comm shows it "
	       "(1 to 15 printable characters, no '/')";
}

static unsigned win_len(const struct mdp_mwin *w)
{
	return w->end > w->start ? (unsigned)(w->end - w->start)
				 : MDP_MAINT_DAY_MIN - w->start + w->end;
}

/* The minutes left of the longest window covering minute t of the week, 0 when none does. */
static unsigned left_at(const struct mdp_maint *m, unsigned t)
{
	unsigned best = 0;

	for (size_t i = 0; i < m->n_windows; i++) {
		const struct mdp_mwin *w = &m->windows[i];
		for (unsigned d = 0; d < 7; d++) {
			unsigned s = d * MDP_MAINT_DAY_MIN + w->start;
			unsigned off = (t + MDP_MAINT_WEEK_MIN - s) % MDP_MAINT_WEEK_MIN;
			if (w->days & 1u << d && off < win_len(w) && win_len(w) - off > best)
				best = win_len(w) - off;
		}
	}
	return best;
}

/* Minutes from t to the next start of a window (0: one starts at t). */
static unsigned next_start(const struct mdp_maint *m, unsigned t)
{
	unsigned best = MDP_MAINT_WEEK_MIN;

	for (size_t i = 0; i < m->n_windows; i++)
		for (unsigned d = 0; d < 7; d++) {
			unsigned s = d * MDP_MAINT_DAY_MIN + m->windows[i].start;
			unsigned to = (s + MDP_MAINT_WEEK_MIN - t) % MDP_MAINT_WEEK_MIN;
			if (m->windows[i].days & 1u << d && to < best)
				best = to;
		}
	return best;
}

bool mdp_maint_window_at(const struct mdp_maint *m, struct mdp_mtime now, unsigned *until)
{
	unsigned t = (now.wday % 7) * MDP_MAINT_DAY_MIN + now.min % MDP_MAINT_DAY_MIN;
	unsigned run = 0, left;

	if (!m->n_windows) {
		*until = MDP_MAINT_WEEK_MIN;
		return true;
	}
	while (run < MDP_MAINT_WEEK_MIN && (left = left_at(m, (t + run) % MDP_MAINT_WEEK_MIN)))
		run += left;
	if (!run) {
		*until = next_start(m, t);
		return false;
	}
	*until = run < MDP_MAINT_WEEK_MIN ? run : MDP_MAINT_WEEK_MIN;
	return true;
}

/* The minutes of the week inside the windows: each run counted once, to the week's end. */
static unsigned week_cover(const struct mdp_maint *m)
{
	unsigned t = 0, cover = 0, until = 0;

	while (t < MDP_MAINT_WEEK_MIN) {
		struct mdp_mtime at = {t / MDP_MAINT_DAY_MIN, t % MDP_MAINT_DAY_MIN};
		bool in = mdp_maint_window_at(m, at, &until);
		if (!until)
			return 0; /* cannot be: a run or a gap lasts a minute at least */
		if (in)
			cover += until < MDP_MAINT_WEEK_MIN - t ? until : MDP_MAINT_WEEK_MIN - t;
		t += until;
	}
	return cover;
}

int mdp_maint_finish(const struct mdp_maint *m, struct mdp_mtime now, unsigned sec, uint64_t work_s,
		     uint64_t *wall_s)
{
	const uint64_t week_s = MDP_MAINT_WEEK_MIN * 60ull;
	uint64_t cover_s = (uint64_t)week_cover(m) * 60, weeks, wall = 0, span;
	uint64_t p =
	    ((now.wday % 7) * MDP_MAINT_DAY_MIN + now.min % MDP_MAINT_DAY_MIN) * 60ull + sec % 60;
	unsigned until = 0;
	bool in;

	if (!m->n_windows || cover_s == week_s || !work_s) {
		*wall_s = work_s;
		return 0;
	}
	if (!cover_s)
		return -ENOENT;
	/* Whole weeks first, each a week of the clock for cover_s of work; then at most a week. */
	if (work_s > cover_s) {
		weeks = (work_s - 1) / cover_s;
		if (weeks > UINT64_MAX / week_s - 2)
			return -ERANGE;
		work_s -= weeks * cover_s;
		wall = weeks * week_s;
	}
	for (;;) {
		in = mdp_maint_window_at(m,
					 (struct mdp_mtime){(unsigned)(p / 60 / MDP_MAINT_DAY_MIN),
							    (unsigned)(p / 60 % MDP_MAINT_DAY_MIN)},
					 &until);
		span = (uint64_t)until * 60 - p % 60; /* to the run's end, or to the next start */
		if (in && work_s <= span)
			break;
		work_s -= in ? span : 0;
		wall += span;
		p = (p + span) % week_s;
	}
	*wall_s = wall + work_s;
	return 0;
}

bool mdp_maint_hot(const struct mdp_mheat *h, bool was_hot, int temp_c, bool known)
{
	if (!h->hot_at_c)
		return false;
	if (!known)
		return was_hot;
	if (temp_c >= (int)h->hot_at_c)
		return true;
	return temp_c < (int)h->cool_below_c ? false : was_hot;
}
