// SPDX-License-Identifier: GPL-2.0
/*
 * Latency statistics for binder_throughput (see stats.h).
 */
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void stats_sort(uint64_t *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_u64);
}

uint64_t stats_permille(const uint64_t *sorted, size_t n, unsigned int pm)
{
	size_t i;

	if (!n)
		return 0;
	if (pm > 1000)
		pm = 1000;
	/* n * pm cannot overflow for any sample count that fits in memory. */
	i = n * pm / 1000;
	if (i >= n)
		i = n - 1;
	return sorted[i];
}

static int cmp_wsample(const void *a, const void *b)
{
	uint64_t x = ((const struct stats_wsample *)a)->v;
	uint64_t y = ((const struct stats_wsample *)b)->v;

	return x < y ? -1 : x > y;
}

void stats_wsort(struct stats_wsample *s, size_t n)
{
	if (n > 1)
		qsort(s, n, sizeof(*s), cmp_wsample);
}

uint64_t stats_wpermille(const struct stats_wsample *sorted, size_t n, unsigned int pm)
{
	long double total = 0, target, cum = 0;
	size_t i;

	if (!n)
		return 0;
	if (pm > 1000)
		pm = 1000;
	for (i = 0; i < n; i++)
		total += sorted[i].w;
	/*
	 * The tolerance keeps equal weights on stats_permille()'s sample where
	 * the target falls on a boundary: the sums are not exact in binary.
	 */
	target = total * pm / 1000 + total * 1e-12L;
	for (i = 0; i < n - 1; i++) {
		cum += sorted[i].w;
		if (cum > target)
			break;
	}
	return sorted[i].v;
}

uint64_t stats_percentile(const uint64_t *sorted, size_t n, unsigned int pct)
{
	return stats_permille(sorted, n, pct > 100 ? 1000 : pct * 10);
}

void stats_summarize(const uint64_t *sorted, size_t n, struct stats_summary *s)
{
	long double sum = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += sorted[i];
	s->n = n;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->mean = (double)(sum / n);
	s->p50 = stats_percentile(sorted, n, 50);
	s->p90 = stats_percentile(sorted, n, 90);
	s->p95 = stats_percentile(sorted, n, 95);
	s->p99 = stats_percentile(sorted, n, 99);
	s->p999 = stats_permille(sorted, n, 999);
}

size_t stats_count_over(const uint64_t *v, size_t n, uint64_t limit)
{
	size_t i, over = 0;

	for (i = 0; i < n; i++)
		over += v[i] > limit;
	return over;
}

uint64_t stats_bucket_limit_us(unsigned int b)
{
	return 1ULL << b;
}

void stats_histogram(const uint64_t *v, size_t n, size_t hist[STATS_HIST_BUCKETS])
{
	unsigned int b;
	uint64_t us;
	size_t i;

	memset(hist, 0, STATS_HIST_BUCKETS * sizeof(hist[0]));
	for (i = 0; i < n; i++) {
		us = v[i] / 1000;
		b = 0;
		while (b < STATS_HIST_BUCKETS - 1 && us >= stats_bucket_limit_us(b))
			b++;
		hist[b]++;
	}
}

double stats_rate(uint64_t count, uint64_t ns)
{
	if (!ns)
		return 0;
	return (double)count * 1e9 / (double)ns;
}
