/* support_proc: stand-in processes and locks held for tests (see support.h). */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"

pid_t test_spawn(char *const argv[], bool leader, int keep, int *in)
{
	int ready[2], inp[2];
	char c;
	pid_t p;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(inp), 0);
	if ((p = fork()) == 0) {
		if ((leader && setsid() < 0) || dup2(inp[0], 0) < 0 || dup2(ready[1], 1) < 0 ||
		    (keep >= 0 && dup2(keep, 9) < 0))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	assert_true(p > 0);
	close(ready[1]);
	close(inp[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	*in = inp[1];
	return p;
}

void test_reap(pid_t p, int in, bool term)
{
	int st;

	if (term)
		kill(p, SIGTERM);
	assert_int_equal(waitpid(p, &st, 0), p);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGTERM);
	close(in);
}

int test_hold(const char *path, const char *text)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	return fd;
}

long test_dead_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	assert_int_equal(waitpid(p, NULL, 0), p);
	return (long)p;
}
