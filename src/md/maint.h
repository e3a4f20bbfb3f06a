/*
 * maint: when a check or repair may run (issue 49). Pure: windows of the week in local time,
 * a heat rule with hysteresis and the jobs a check gives way to. No I/O and no clock: the
 * caller hands in the local time (struct mdp_mtime, what localtime_r makes of a time in the
 * box's own time zone) and the temperatures it read.
 *
 * A window is "[DAYS ]HH:MM-HH:MM": DAYS a comma-separated list of days (Mon, Tue, Wed, Thu,
 * Fri, Sat, Sun) or ranges of them (Mon-Fri; Fri-Mon wraps over the weekend), every day when
 * left out. The days are the days a window starts: "Fri 22:00-06:00" runs from Friday 22:00
 * to Saturday 06:00. 24:00 is only an end ("Sat-Sun 00:00-24:00": all weekend); a start
 * equal to its end is refused (a whole day is 00:00-24:00). Windows that touch or overlap
 * make one run.
 */
#ifndef MDP_MAINT_H
#define MDP_MAINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MDP_MAINT_DAY_MIN  1440u
#define MDP_MAINT_WEEK_MIN (7u * MDP_MAINT_DAY_MIN)
/* The most windows and deferred jobs a profile lists. */
#define MDP_MAINT_MAX_WINDOWS 32u
#define MDP_MAINT_MAX_DEFER   16u
/* Temperatures a heat rule may name, in degrees Celsius. */
#define MDP_MAINT_HEAT_MIN_C 20u
#define MDP_MAINT_HEAT_MAX_C 90u
/* The word in defer_to for a SMART self-test running on a member disk. */
#define MDP_MAINT_SELFTEST "smart-selftest"
/* The longest process name the kernel keeps (/proc/PID/comm, TASK_COMM_LEN - 1). */
#define MDP_MAINT_COMM_MAX 15u

struct mdp_mwin {
	uint8_t days;        /* bit d: the window starts on weekday d (0 Sunday, as in struct tm) */
	uint16_t start, end; /* minutes after midnight: start 0..1439, end 0..1440; end <= start:
				the next day */
};

/* hot_at_c 0: no heat rule. Hot at >= hot_at_c, cool again below cool_below_c. */
struct mdp_mheat {
	unsigned hot_at_c, cool_below_c;
};

/* What a watcher tells of a check or repair it looks after (notify:). */
enum mdp_mev { MDP_MEV_START, MDP_MEV_PAUSE, MDP_MEV_RESUME, MDP_MEV_END, MDP_MEV_COUNT };
#define MDP_MEV_ALL ((1u << MDP_MEV_COUNT) - 1u)
/* The longest notify command, a path. */
#define MDP_MAINT_CMD_MAX 255u

/* notify: set, the events told (bits of enum mdp_mev) and the command told them, if any. */
struct mdp_mnotify {
	bool set;
	unsigned on;
	char *command; /* an absolute path, NULL: the log (and DSM's notifications) alone */
};

/* A profile's maintenance: key (profile.h). No windows: any time. */
struct mdp_maint {
	struct mdp_mwin *windows;
	size_t n_windows;
	struct mdp_mheat heat;
	char **defer_to; /* MDP_MAINT_SELFTEST or process names */
	size_t n_defer;
	struct mdp_mnotify notify;
};

/*
 * A local time: the weekday (0 Sunday) and the minute of that day (0..1439). The caller
 * makes it with localtime_r from its wall clock, so in the box's own time zone (TZ, else
 * /etc/localtime, which libc reads on the real root whatever --root says: the windows are
 * the owner's hours on this box); the unit tests hand in minutes of the week directly.
 */
struct mdp_mtime {
	unsigned wday, min;
};

/*
 * One window's text into *w: 0, or -EINVAL with why (a phrase to follow "window 'TEXT': ")
 * in why[len].
 */
int mdp_mwin_parse(const char *s, struct mdp_mwin *w, char *why, size_t len);
/* The window as mdprofile writes it ("Mon-Fri 01:00-07:00"), for show; buf of 64 holds any. */
const char *mdp_mwin_text(const struct mdp_mwin *w, char *buf, size_t len);
/* The event's word (start, pause, resume, end); its enum from the word, -1 when none. */
const char *mdp_mev_name(enum mdp_mev e);
int mdp_mev_parse(const char *word);
/* NULL when path may be a notify command (an absolute path, printable, at most
 * MDP_MAINT_CMD_MAX bytes, no . or .. component), else why not. */
const char *mdp_maint_cmd_check(const char *path);
/* NULL when name may stand in defer_to, else why not. */
const char *mdp_maint_defer_check(const char *name);

/*
 * Whether now is inside a window (true without windows). *until gets the minutes to the end
 * of the run of windows now is in (MDP_MAINT_WEEK_MIN when they cover the whole week, and
 * without windows), or, outside, to the next window's start.
 */
bool mdp_maint_window_at(const struct mdp_maint *m, struct mdp_mtime now, unsigned *until);
/*
 * When a check with work_s seconds of work left at its pace ends if it runs only inside the
 * windows, from local time now, sec seconds into that minute (0..59): the seconds from now
 * to its end, the gaps between the windows included, into *wall_s. Without windows, or with
 * windows all week, the work itself. 0; -ENOENT when the windows hold no minute of the week
 * (it never ends); -ERANGE when the end is past what 64 bits of seconds hold. Local minutes
 * of the week: a change of daylight saving time on the way moves the end by that hour.
 */
int mdp_maint_finish(const struct mdp_maint *m, struct mdp_mtime now, unsigned sec, uint64_t work_s,
		     uint64_t *wall_s);
/* Heat with hysteresis: hot from hot_at_c up, cool again below cool_below_c; in between,
 * and with no reading (known false), as it was. */
bool mdp_maint_hot(const struct mdp_mheat *h, bool was_hot, int temp_c, bool known);

#endif
