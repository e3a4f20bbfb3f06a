/*
 * mdp-reader: the lab's foreground user, a client streaming from the array
 * (a share, Plex) that times each of its own reads.
 *
 *   mdp-reader DEV SECONDS INTERVAL_MS [BYTES]
 *
 * One O_DIRECT read of BYTES (default 65536) at a random aligned offset of
 * DEV every INTERVAL_MS, for SECONDS. Open loop, as a client is: a read
 * that takes longer than the interval delays the next one, it does not
 * skip it. O_DIRECT, so the page cache does not hide the disks. Prints one
 * line for the scenario to parse:
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
	fprintf(stderr, "usage: mdp-reader DEV SECONDS INTERVAL_MS [BYTES]\n");
	return 2;
}

int main(int argc, char **argv)
{
	uint64_t size = 0, rnd, bytes = 65536;
	double seconds, interval, t0, next, sum = 0, *lat;
	size_t n = 0;
	void *buf;
	int fd;

	if (argc < 4 || argc > 5)
		return usage();
	seconds = strtod(argv[2], NULL);
	interval = strtod(argv[3], NULL);
	if (argc == 5)
		bytes = strtoull(argv[4], NULL, 10);
	if (seconds <= 0 || interval < 0 || bytes < 4096 || bytes % 4096)
		return usage();
	if ((fd = open(argv[1], O_RDONLY | O_DIRECT | O_CLOEXEC)) < 0 ||
	    ioctl(fd, BLKGETSIZE64, &size) < 0) {
		fprintf(stderr, "mdp-reader: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (size < bytes * 2 || posix_memalign(&buf, 4096, bytes) ||
	    !(lat = malloc(sizeof(*lat) * MAX_SAMPLES))) {
		fprintf(stderr, "mdp-reader: %s: too small, or no memory\n", argv[1]);
		return 1;
	}
	rnd = (uint64_t)getpid() * 2654435761u + 1;
	t0 = next = now_ms();
	while (now_ms() - t0 < seconds * 1e3 && n < MAX_SAMPLES) {
		uint64_t off = next_rand(&rnd) % (size / bytes) * bytes;
		double a = now_ms(), d;
		if (pread(fd, buf, bytes, (off_t)off) != (ssize_t)bytes) {
			fprintf(stderr, "mdp-reader: %s: read at %" PRIu64 ": %s\n", argv[1], off,
				strerror(errno));
			return 1;
		}
		d = now_ms() - a;
		lat[n++] = d;
		sum += d;
		next += interval;
		if ((d = next - now_ms()) > 0) {
			struct timespec ts = {(time_t)(d / 1e3),
					      (long)((d - (double)(time_t)(d / 1e3) * 1e3) * 1e6)};
			nanosleep(&ts, NULL);
		}
	}
	qsort(lat, n, sizeof(*lat), cmp_double);
	printf("reads %zu mean_ms %.1f p95_ms %.1f p99_ms %.1f max_ms %.1f\n", n,
	       n ? sum / (double)n : 0.0, n ? lat[(n * 95) / 100] : 0.0, n ? lat[(n * 99) / 100] : 0.0,
	       n ? lat[n - 1] : 0.0);
	return 0;
}
