/* smart's parts for its own file and its unit tests (smart.h). */
#ifndef MDP_SMART_INT_H
#define MDP_SMART_INT_H

#include <stddef.h>

#include "smart.h"

/*
 * Parse what smartctl printed (text, len bytes) for -c or -l selftest, and its exit status,
 * into out (smart.h's facts). Always fills out; never fails.
 */
void mdp_smart_selftest_parse(const char *text, size_t len, int exit_status,
			      struct mdp_selftest *out);

#endif
