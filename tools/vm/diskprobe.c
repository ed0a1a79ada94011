/*
 * diskprobe: measures a disk from inside the guest, as a data sheet describes one (issue #38: the
 * seeking disk model is checked against the figures it was made from before anything rests on it).
 * All reads are O_DIRECT (the page cache must not answer), 4096-byte aligned.
 *
 *   diskprobe DEVICE SEQUENTIAL_MIB RANDOM_READS DISTANCE_REPEATS
 *
 * Prints one JSON object:
 *   sequential_mb_s      4 MiB reads from offset 0, SEQUENTIAL_MIB in all: the media rate
 *   random_qd1_ms        mean latency of RANDOM_READS 4 KiB reads at scattered offsets, one at a time
 *   random_qd32_iops     the same reads taken by 32 threads at once: what command queueing gains
 *   distance_ms          {fraction: mean ms}: a 4 KiB read at offset 0, then one at fraction x size;
 *                        the second's latency, DISTANCE_REPEATS times per fraction
 * Exits 1 on a failed read or bad arguments. Built with `gcc -static` on the host and shared with the
 * guest through 9p, as ratedread is.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <time.h>
#include <unistd.h>

#define SMALL 4096
/* Large enough that the guest's own turnaround between two reads (TCG: ~10 ms) is a small share. */
#define LARGE (4 * 1024 * 1024)
#define QUEUE 32

static int fd;
static uint64_t size;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *aligned(size_t bytes)
{
    void *p;
    if (posix_memalign(&p, SMALL, bytes) != 0) {
        perror("posix_memalign");
        exit(1);
    }
    return p;
}

/* One read; its latency in ms. */
static double timed_read(void *buf, size_t bytes, uint64_t offset)
{
    double t0 = now_ms();
    if (pread(fd, buf, bytes, (off_t)offset) != (ssize_t)bytes) {
        perror("pread");
        exit(1);
    }
    return now_ms() - t0;
}

/* xorshift64: the same scattered offsets on every run. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

static uint64_t scattered(uint64_t *state)
{
    return (next_random(state) % (size / SMALL)) * SMALL;
}

struct worker {
    pthread_t thread;
    int reads;
    uint64_t seed;
};

static void *read_scattered(void *arg)
{
    struct worker *w = arg;
    void *buf = aligned(SMALL);
    for (int i = 0; i < w->reads; i++)
        timed_read(buf, SMALL, scattered(&w->seed));
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: diskprobe DEVICE SEQUENTIAL_MIB RANDOM_READS DISTANCE_REPEATS\n");
        return 1;
    }
    int sequential_mib = atoi(argv[2]), random_reads = atoi(argv[3]), repeats = atoi(argv[4]);
    fd = open(argv[1], O_RDONLY | O_DIRECT);
    if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) != 0 || size < (uint64_t)sequential_mib * 1024 * 1024 + LARGE) {
        perror(argv[1]);
        return 1;
    }
    void *large = aligned(LARGE), *small = aligned(SMALL);

    double t0 = now_ms();
    int large_reads = sequential_mib * 1024 * 1024 / LARGE;
    for (int i = 0; i < large_reads; i++)
        timed_read(large, LARGE, (uint64_t)i * LARGE);
    double sequential = large_reads * (double)LARGE / 1e6 / ((now_ms() - t0) / 1e3);

    uint64_t state = 0x9e3779b97f4a7c15ull;
    double total = 0;
    for (int i = 0; i < random_reads; i++)
        total += timed_read(small, SMALL, scattered(&state));
    double qd1 = total / random_reads;

    struct worker workers[QUEUE];
    t0 = now_ms();
    for (int i = 0; i < QUEUE; i++) {
        workers[i].reads = random_reads / QUEUE > 0 ? random_reads / QUEUE : 1;
        workers[i].seed = 0x2545f4914f6cdd1dull * (uint64_t)(i + 1);
        pthread_create(&workers[i].thread, NULL, read_scattered, &workers[i]);
    }
    int taken = 0;
    for (int i = 0; i < QUEUE; i++) {
        pthread_join(workers[i].thread, NULL);
        taken += workers[i].reads;
    }
    double qd32 = taken / ((now_ms() - t0) / 1e3);

    static const double fractions[] = { 0.001, 0.01, 0.0625, 0.25, 0.5, 0.99 };
    printf("{\"sequential_mb_s\": %.3f, \"random_qd1_ms\": %.3f, \"random_qd32_iops\": %.3f, \"distance_ms\": {",
        sequential, qd1, qd32);
    for (size_t f = 0; f < sizeof fractions / sizeof fractions[0]; f++) {
        uint64_t far = ((uint64_t)(fractions[f] * (double)size) / SMALL) * SMALL;
        double sum = 0;
        for (int r = 0; r < repeats; r++) {
            timed_read(small, SMALL, 0);
            sum += timed_read(small, SMALL, far);
        }
        printf("%s\"%g\": %.3f", f ? ", " : "", fractions[f], sum / repeats);
    }
    printf("}}\n");
    return 0;
}
