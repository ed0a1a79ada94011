/*
 * ratedread: the competing load of `make bench-rebuild` (tools/vm/benchRebuild.ts). Reads BLOCK_KIB
 * blocks at scattered aligned offsets of DEVICE with O_DIRECT (the page cache must not hide the disks)
 * at a fixed rate, whatever each read's latency: read i is due at start + i * interval and taken by
 * one of THREADS threads (so up to THREADS reads are in flight, like the clients of a file server);
 * a late read is issued at once. Each read's latency is its pread() time.
 *
 *   ratedread DEVICE RATE_KB_S BLOCK_KIB MAX_SECONDS
 *
 * SIGUSR1 starts the measured window (the statistics so far are dropped); SIGTERM, SIGINT or
 * MAX_SECONDS end it and print one line:
 *   ratedread reads=N bytes=B seconds=S latency_mean_ms=M latency_p95_ms=P latency_max_ms=X
 * Exits 1 on a failed read or bad arguments (the benchmark is then broken, not just slow).
 * Built with `gcc -static` on the host and shared with the guest through 9p.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_SAMPLES (1 << 20)
#define THREADS 64

static volatile sig_atomic_t window_reset, stop;

/* Shared by the readers, under `lock`. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int fd, done;
static size_t block, n;
static uint64_t blocks, stride, next_read, bytes;
static double start, window, interval, *lat;
static const char *failure;

static void on_usr1(int sig) { (void)sig; window_reset = 1; }
static void on_stop(int sig) { (void)sig; stop = 1; }

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Read i takes block i x stride mod blocks, the stride the golden section of the device (coprime
 * to blocks): each read lands far from the last, as a random one would, yet any run of reads
 * covers the device evenly, so every md member serves the same share of them within a
 * benchmark's window, as tools/vm/rebuildLimit.ts assumes. A seeded pseudo-random sequence gave
 * one member (vdc) 5-20% more of the reads than another over the window, the same member every
 * run, and it queued at its QEMU limit while its peers hardly did (README, issue #14).
 */
static uint64_t gcd(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint64_t golden_stride(uint64_t count) {
    uint64_t s = (uint64_t)(count * 0.6180339887498949);
    if (s == 0) s = 1;
    while (gcd(s, count) != 1) s++;
    return s;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void sleep_until(double t) {
    double d = t - now_s();
    if (d <= 0) return;
    struct timespec ts = { (time_t)d, (long)((d - (time_t)d) * 1e9) };
    nanosleep(&ts, NULL); /* a signal cuts it short: the loop checks the flags and the clock again */
}

static void report(const double *lat, size_t n, uint64_t bytes, double seconds) {
    double sum = 0, max = 0;
    for (size_t i = 0; i < n; i++) {
        sum += lat[i];
        if (lat[i] > max) max = lat[i];
    }
    double *sorted = malloc((n ? n : 1) * sizeof *sorted);
    memcpy(sorted, lat, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_double);
    double p95 = n ? sorted[(size_t)(0.95 * (n - 1))] : 0;
    printf("ratedread reads=%zu bytes=%llu seconds=%.3f latency_mean_ms=%.3f latency_p95_ms=%.3f latency_max_ms=%.3f\n",
           n, (unsigned long long)bytes, seconds, n ? 1000 * sum / n : 0, 1000 * p95, 1000 * max);
    free(sorted);
}


/* One reader: takes the next due read, waits for its time, reads, records. */
static void *reader(void *arg) {
    void *buf;
    (void)arg;
    if (posix_memalign(&buf, 4096, block)) {
        pthread_mutex_lock(&lock);
        done = 1;
        failure = "out of memory";
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&lock);
        int finished = done;
        uint64_t i = next_read++;
        double due = start + i * interval;
        off_t offset = (off_t)((i % blocks) * stride % blocks) * block;
        pthread_mutex_unlock(&lock);
        if (finished) break;
        sleep_until(due);
        double t0 = now_s();
        ssize_t got = pread(fd, buf, block, offset);
        double t1 = now_s();
        pthread_mutex_lock(&lock);
        if (got != (ssize_t)block && !done) {
            done = 1;
            failure = got < 0 ? strerror(errno) : "short read";
        } else if (t0 >= window && !done) {
            if (n < MAX_SAMPLES) lat[n++] = t1 - t0;
            bytes += block;
        }
        pthread_mutex_unlock(&lock);
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: ratedread DEVICE RATE_KB_S BLOCK_KIB MAX_SECONDS\n");
        return 1;
    }
    double rate_kbs = atof(argv[2]), max_seconds = atof(argv[4]);
    block = (size_t)atoi(argv[3]) * 1024;
    if (rate_kbs <= 0 || block == 0 || max_seconds <= 0) {
        fprintf(stderr, "ratedread: rate, block and time must be positive\n");
        return 1;
    }
    fd = open(argv[1], O_RDONLY | O_DIRECT);
    off_t end = fd < 0 ? -1 : lseek(fd, 0, SEEK_END); /* a block device's size, too */
    if (end < (off_t)block) {
        fprintf(stderr, "ratedread: %s: %s\n", argv[1], end < 0 ? strerror(errno) : "smaller than a block");
        return 1;
    }
    lat = malloc(MAX_SAMPLES * sizeof *lat);
    if (!lat) return 1;
    blocks = (uint64_t)end / block;
    stride = golden_stride(blocks);
    interval = block / (rate_kbs * 1000);
    start = window = now_s();

    /* The readers block the signals: the main thread alone takes them, between its naps. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, reader, NULL);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    struct sigaction sa = { 0 };
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    sa.sa_handler = on_stop;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    while (!stop && now_s() - start < max_seconds) {
        sleep_until(now_s() + 0.05);
        pthread_mutex_lock(&lock);
        if (window_reset) {
            window_reset = 0;
            window = now_s();
            n = 0;
            bytes = 0;
        }
        int failed = done;
        pthread_mutex_unlock(&lock);
        if (failed) break;
    }
    pthread_mutex_lock(&lock);
    done = 1;
    double seconds = now_s() - window;
    size_t count = n;
    uint64_t measured = bytes;
    pthread_mutex_unlock(&lock);
    if (failure) {
        fprintf(stderr, "ratedread: read failed: %s\n", failure);
        return 1;
    }
    report(lat, count, measured, seconds);
    /* Readers still waiting for a read are not joined: exiting ends them. */
    return 0;
}
