/* clock: the one monotonic clock (see clock.h). */
#include "clock.h"

#include <stdio.h>
#include <time.h>

uint64_t mdp_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

size_t mdp_time_local(int64_t t, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;
	long off, h, m;
	size_t n;

	if (!cap || !localtime_r(&tt, &tm) || !(n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm)))
		return 0;
	off = tm.tm_gmtoff;
	h = (off < 0 ? -off : off) / 3600;
	m = (off < 0 ? -off : off) / 60 % 60;
	if (cap - n < sizeof("+00:00"))
		return 0;
	return n + (size_t)snprintf(buf + n, cap - n, "%c%02ld:%02ld", off < 0 ? '-' : '+', h, m);
}
