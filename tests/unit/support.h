/* support: helpers shared by the unit tests (tests/unit/support_*.c, linked into each). */
#ifndef MDP_TEST_SUPPORT_H
#define MDP_TEST_SUPPORT_H

/* Run a shell command made with printf-style fmt; the test fails unless it exits 0. */
void test_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
