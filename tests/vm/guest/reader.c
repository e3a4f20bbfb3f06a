/*
 * mdp-reader: the lab's foreground user, a client streaming from the array
 * (a share, Plex) that times each of its own reads.
 *
 *   mdp-reader DEV SECONDS INTERVAL_MS [BYTES [CLIENTS]]
 *
 * One O_DIRECT read of BYTES (default 65536) at a random aligned offset of
 * DEV every INTERVAL_MS, for SECONDS. Open loop, as a client is: a read
 * that takes longer than the interval delays the next one, it does not
 * skip it. O_DIRECT, so the page cache does not hide the disks. CLIENTS
 * (default 1) such readers at once, each a process of its own: a queue of
 * that depth (a database's, or many users'), the figures over all their
 * reads. Prints one line for the scenario to parse:
 *
 *   reads N mean_ms M p95_ms Q p99_ms P max_ms X
 *
 * Lab-only (tests/vm): built static with the lab's mdprofile, never installed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SAMPLES 200000

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int usage(void)
{
	fprintf(stderr, "usage: mdp-reader DEV SECONDS INTERVAL_MS [BYTES [CLIENTS]]\n");
	return 2;
}

struct job {
	int fd;
	uint64_t size, bytes;
	double seconds, interval;
};

/* One client: its read times into lat (at most max), their count returned; -1 on an error. */
static long client(const struct job *j, uint64_t seed, void *buf, double *lat, size_t max)
{
	uint64_t rnd = seed;
	double t0, next;
	size_t n = 0;

	t0 = next = now_ms();
	while (now_ms() - t0 < j->seconds * 1e3 && n < max) {
		uint64_t off = next_rand(&rnd) % (j->size / j->bytes) * j->bytes;
		double a = now_ms(), d;
		if (pread(j->fd, buf, j->bytes, (off_t)off) != (ssize_t)j->bytes) {
			fprintf(stderr, "mdp-reader: read at %" PRIu64 ": %s\n", off,
				strerror(errno));
			return -1;
		}
		d = now_ms() - a;
		lat[n++] = d;
		next += j->interval;
		if ((d = next - now_ms()) > 0) {
			struct timespec ts = {(time_t)(d / 1e3),
					      (long)((d - (double)(time_t)(d / 1e3) * 1e3) * 1e6)};
			nanosleep(&ts, NULL);
		}
	}
	return (long)n;
}

int main(int argc, char **argv)
{
	struct job j = {.bytes = 65536};
	unsigned long clients = 1;
	size_t n = 0, per;
	double sum = 0, *lat;
	long *counts;
	void *buf;

	if (argc < 4 || argc > 6)
		return usage();
	j.seconds = strtod(argv[2], NULL);
	j.interval = strtod(argv[3], NULL);
	if (argc >= 5)
		j.bytes = strtoull(argv[4], NULL, 10);
	if (argc == 6)
		clients = strtoul(argv[5], NULL, 10);
	if (j.seconds <= 0 || j.interval < 0 || j.bytes < 4096 || j.bytes % 4096 || !clients ||
	    clients > 64)
		return usage();
	if ((j.fd = open(argv[1], O_RDONLY | O_DIRECT | O_CLOEXEC)) < 0 ||
	    ioctl(j.fd, BLKGETSIZE64, &j.size) < 0) {
		fprintf(stderr, "mdp-reader: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	/* the clients' times and counts, in memory they share with this process */
	per = MAX_SAMPLES / clients;
	lat = mmap(NULL, sizeof(*lat) * MAX_SAMPLES + sizeof(*counts) * clients,
		   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (j.size < j.bytes * 2 || lat == MAP_FAILED || posix_memalign(&buf, 4096, j.bytes)) {
		fprintf(stderr, "mdp-reader: %s: too small, or no memory\n", argv[1]);
		return 1;
	}
	counts = (long *)(lat + MAX_SAMPLES);
	for (unsigned long c = 0; c < clients; c++) {
		pid_t pid = clients > 1 ? fork() : 0;
		if (pid < 0) {
			perror("mdp-reader: fork");
			return 1;
		}
		if (!pid) {
			counts[c] = client(&j, ((uint64_t)getpid() << 8 | c) * 2654435761u + 1, buf,
					   lat + c * per, per);
			if (clients > 1)
				_exit(counts[c] < 0);
		}
	}
	for (int st; clients > 1 && wait(&st) > 0;)
		;
	for (unsigned long c = 0; c < clients; c++) {
		if (counts[c] < 0)
			return 1;
		memmove(lat + n, lat + c * per, sizeof(*lat) * (size_t)counts[c]);
		n += (size_t)counts[c];
	}
	for (size_t i = 0; i < n; i++)
		sum += lat[i];
	qsort(lat, n, sizeof(*lat), cmp_double);
	printf("reads %zu mean_ms %.1f p95_ms %.1f p99_ms %.1f max_ms %.1f\n", n,
	       n ? sum / (double)n : 0.0, n ? lat[(n * 95) / 100] : 0.0,
	       n ? lat[(n * 99) / 100] : 0.0, n ? lat[n - 1] : 0.0);
	return 0;
}
