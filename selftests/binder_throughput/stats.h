/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency statistics for binder_throughput: exact percentiles over the
 * sorted samples, a log2 histogram, the over-threshold count and the rate.
 * All latencies are in nanoseconds.
 */
#ifndef BINDER_THROUGHPUT_STATS_H
#define BINDER_THROUGHPUT_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Buckets of stats_histogram(): [0, 1 us), [1, 2 us), [2, 4 us), ... */
#define STATS_HIST_BUCKETS 24

struct stats_summary {
	size_t n;
	uint64_t min;
	uint64_t max;
	double mean;
	uint64_t p50;
	uint64_t p90;
	uint64_t p95;
	uint64_t p99;
	uint64_t p999;		/* P99.9 */
};

/* Sort @n samples in place, ascending. */
void stats_sort(uint64_t *v, size_t n);

/*
 * The @pct percentile (0..100) of @n sorted samples: the sample at index
 * n * pct / 100, the last one for pct 100, as binderThroughputTest picks it.
 * 0 when n is 0.
 */
uint64_t stats_percentile(const uint64_t *sorted, size_t n, unsigned int pct);

/*
 * The same for a per-mille rank @pm (0..1000): the sample at index
 * n * pm / 1000, so 999 is P99.9.
 */
uint64_t stats_permille(const uint64_t *sorted, size_t n, unsigned int pm);

/*
 * A sample that stands for @w samples: a reservoir of k of a thread's n
 * latencies is pooled with other threads' with weight n / k each.
 */
struct stats_wsample {
	uint64_t v;
	double w;
};

/* Sort @n weighted samples in place, by value, ascending. */
void stats_wsort(struct stats_wsample *s, size_t n);

/*
 * The per-mille rank @pm (0..1000) of @n sorted weighted samples: the first
 * sample whose cumulative weight exceeds pm / 1000 of the total weight (the
 * last one for pm 1000). With equal weights it is the sample that
 * stats_permille() picks. 0 when n is 0.
 */
uint64_t stats_wpermille(const struct stats_wsample *sorted, size_t n, unsigned int pm);

/* Fill @s from @n sorted samples (all zero when n is 0). */
void stats_summarize(const uint64_t *sorted, size_t n, struct stats_summary *s);

/* Number of samples strictly above @limit. */
size_t stats_count_over(const uint64_t *v, size_t n, uint64_t limit);

/*
 * Count the samples into log2 microsecond buckets: bucket 0 holds
 * [0, 1000) ns, bucket b > 0 holds [1000 << (b - 1), 1000 << b) ns, and the
 * last bucket also holds everything above it.
 */
void stats_histogram(const uint64_t *v, size_t n, size_t hist[STATS_HIST_BUCKETS]);

/* Upper bound of histogram bucket @b in microseconds (1, 2, 4, ...). */
uint64_t stats_bucket_limit_us(unsigned int b);

/* @count events in @ns nanoseconds, per second (0 when ns is 0). */
double stats_rate(uint64_t count, uint64_t ns);

#endif /* BINDER_THROUGHPUT_STATS_H */
