/*
 * oldkernel: run a command as if on Linux 3.10, the oldest kernel DSM runs
 * (armv7 alpine and armada38x): every x86_64 system call added after 3.10
 * (renameat2 and later, numbers above finit_module's 313) fails with ENOSYS,
 * as it would there. The static binaries must still work: their own
 * fallbacks (openat2, close_range) and glibc's (statx, getrandom, rseq,
 * clone3, the 64-bit time calls) are what run. A seccomp filter does it,
 * inherited by the command and everything it starts.
 *
 *   oldkernel COMMAND [ARGS...]
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* The last x86_64 system call Linux 3.10 has (finit_module, 3.8). */
#define LAST_3_10 313
/* x32 calls carry this bit; a 3.10 kernel has x32 too, so leave them alone. */
#define X32_BIT 0x40000000u

int main(int argc, char **argv)
{
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, X32_BIT, 1, 0),
	    BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, LAST_3_10, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
	};
	struct sock_fprog prog = {.len = sizeof(f) / sizeof(f[0]), .filter = f};

	if (argc < 2) {
		fputs("usage: oldkernel COMMAND [ARGS...]\n", stderr);
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "oldkernel: cannot install the seccomp filter: %s\n",
			strerror(errno));
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "oldkernel: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
