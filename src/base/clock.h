/*
 * clock: the one monotonic clock. Deadlines, waits, rates and benchmark
 * times all read CLOCK_MONOTONIC through here, so none of them moves when
 * the wall clock is set.
 */
#ifndef MDP_CLOCK_H
#define MDP_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Nanoseconds on CLOCK_MONOTONIC (from an unspecified start). */
uint64_t mdp_mono_ns(void);

/* The same in milliseconds. */
static inline int64_t mdp_mono_ms(void)
{
	return (int64_t)(mdp_mono_ns() / 1000000u);
}

/*
 * Wall-clock time t (seconds since the epoch) as people on this box read it:
 * the process's local zone (cmd/ sets it once from the root, mdp_root_zone),
 * ISO 8601 with the zone's offset, "2026-12-07T09:15:00+01:00" (UTC:
 * "+00:00"). The length written, 0 when it does not fit or t is not a time.
 */
size_t mdp_time_local(int64_t t, char *buf, size_t cap);

#endif
