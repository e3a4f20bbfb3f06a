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

/*
 * A disk's temperature from what smartctl printed for -A (text, len bytes) and its exit
 * status (smart.h's facts): 0 and *temp_c, -EAGAIN asleep, -ENOENT none told.
 */
int mdp_smart_temp_parse(const char *text, size_t len, int exit_status, int *temp_c);

#endif
