/* support: helpers shared by the unit tests (tests/unit/support_*.c, linked into each). */
#ifndef MDP_TEST_SUPPORT_H
#define MDP_TEST_SUPPORT_H

#include "discover.h"

/* Run a shell command made with printf-style fmt; the test fails unless it exits 0. */
void test_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The fixture tree tests/fixtures/NAME (below MDP_SRCDIR) as root r, discovered
 * into s leaving out skip (MDP_SKIP_*); the test fails when it cannot be.
 * Free with mdp_system_free and mdp_root_fini.
 */
void test_fixture_system(const char *name, unsigned skip, struct mdp_root *r, struct mdp_system *s);

#endif
