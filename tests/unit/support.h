/* support: helpers shared by the unit tests (tests/unit/support_*.c, linked into each). */
#ifndef MDP_TEST_SUPPORT_H
#define MDP_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <cmocka.h>

#include "discover.h"

/* Run a shell command made with printf-style fmt; the test fails unless it exits 0. */
void test_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The fixture tree tests/fixtures/NAME (below MDP_SRCDIR) as root r, discovered
 * into s leaving out skip (MDP_SKIP_*); the test fails when it cannot be.
 * Free with mdp_system_free and mdp_root_fini.
 */
void test_fixture_system(const char *name, unsigned skip, struct mdp_root *r, struct mdp_system *s);

/*
 * A stand-in process: argv run (execv) with its stdin a pipe (*in, its
 * write end: the process may block reading it), in a session of its own
 * when leader, with keep (>= 0) as its descriptor 9; returned once it wrote
 * a byte to stdout, so that it runs as argv says (a shell's "echo; read x").
 */
pid_t test_spawn(char *const argv[], bool leader, int keep, int *in);
/* Reap p (SIGTERM'd first when term): the test fails unless SIGTERM ended it; in closed. */
void test_reap(pid_t p, int in, bool term);
/* A pid that is no process: a child's, reaped. */
long test_dead_pid(void);
/* Hold the lock file path, text written into it, as another process would: its descriptor. */
int test_hold(const char *path, const char *text);

/* A struct mdp_builtin (profile.h) of a string literal: a built-in profile for a test. */
#define TEST_BUILTIN(name, text)                                                                   \
	{                                                                                          \
		name, text, sizeof(text) - 1                                                       \
	}

/*
 * Run the n test functions fns, named by names (their names as the macros below spell
 * them, separated by commas), as cmocka's group "tests": group_setup once first, setup
 * and teardown (either may be NULL) around each. Returns what cmocka returns: the
 * number of failed tests.
 */
int test_run(const char *names, const CMUnitTestFunction *fns, size_t n,
	     CMFixtureFunction group_setup, CMFixtureFunction setup, CMFixtureFunction teardown);

/*
 * A test program's main(): MDP_TEST_MAIN(test_a, test_b, ...) runs each test once, in
 * that order; MDP_TEST_MAIN_FX(group_setup, setup, teardown, test_a, ...) with fixtures.
 */
#define MDP_TEST_MAIN(...) MDP_TEST_MAIN_FX(NULL, NULL, NULL, __VA_ARGS__)
#define MDP_TEST_MAIN_FX(group_setup, setup, teardown, ...)                                        \
	int main(void)                                                                             \
	{                                                                                          \
		static const CMUnitTestFunction fns[] = {__VA_ARGS__};                             \
                                                                                                   \
		return test_run(#__VA_ARGS__, fns, sizeof(fns) / sizeof(fns[0]), group_setup,      \
				setup, teardown);                                                  \
	}

#endif
