/*
 * clock: the one monotonic clock. Deadlines, waits, rates and benchmark
 * times all read CLOCK_MONOTONIC through here, so none of them moves when
 * the wall clock is set.
 */
#ifndef MDP_CLOCK_H
#define MDP_CLOCK_H

#include <stdint.h>

/* Nanoseconds on CLOCK_MONOTONIC (from an unspecified start). */
uint64_t mdp_mono_ns(void);

/* The same in milliseconds. */
static inline int64_t mdp_mono_ms(void)
{
	return (int64_t)(mdp_mono_ns() / 1000000u);
}

#endif
