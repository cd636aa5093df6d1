// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of selftests/binder_throughput/stats.c, printing KTAP
 * result lines. Built and run by test-stats.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#include "host-tap.h"
#include "stats.h"

int main(void)
{
	uint64_t v[100], one[1] = { 42 }, shuffled[7] = { 9, 3, 7, 1, 5, 3, 8 };
	uint64_t lat[6] = { 0, 999, 1000, 1999, 3000, 5000000000ULL };
	static uint64_t big[1000];
	size_t hist[STATS_HIST_BUCKETS], total = 0;
	struct stats_summary s;
	unsigned int i;

	for (i = 0; i < 100; i++)
		v[i] = 100 - i;		/* 100 .. 1, reversed */
	stats_sort(v, 100);
	check(v[0] == 1 && v[99] == 100, "sort: ascending");
	stats_summarize(v, 100, &s);
	check(s.n == 100 && s.min == 1 && s.max == 100, "summary: n, best, worst");
	check(s.mean == 50.5, "summary: exact mean of 1..100");
	/* index n * p / 100: 50 -> v[50] = 51, 99 -> v[99] = 100 */
	check(s.p50 == 51 && s.p90 == 91 && s.p95 == 96 && s.p99 == 100,
	      "percentiles of 1..100 at index n*p/100");
	check(stats_percentile(v, 100, 100) == 100 && stats_percentile(v, 100, 0) == 1,
	      "percentile 0 and 100 are best and worst");
	/* 1000 samples 1..1000: P99.9 at index 999, P99.8 at 998 */
	for (i = 0; i < 1000; i++)
		big[i] = i + 1;
	stats_summarize(big, 1000, &s);
	check(s.p999 == 1000 && stats_permille(big, 1000, 998) == 999 &&
	      stats_permille(big, 1000, 500) == s.p50, "per-mille ranks at index n*pm/1000");
	stats_summarize(v, 100, &s);
	check(s.p999 == 100 && stats_permille(v, 100, 990) == s.p99,
	      "P99.9 of 100 samples is the worst; per-mille 990 is P99");

	stats_summarize(one, 1, &s);
	check(s.p50 == 42 && s.p99 == 42 && s.min == 42 && s.max == 42,
	      "one sample: every percentile is that sample");
	stats_summarize(NULL, 0, &s);
	check(s.n == 0 && s.p99 == 0 && s.mean == 0, "no samples: all zero");

	stats_sort(shuffled, 7);
	check(shuffled[0] == 1 && shuffled[1] == 3 && shuffled[2] == 3 &&
	      shuffled[3] == 5 && shuffled[6] == 9, "sort: duplicates, odd count");
	check(stats_percentile(shuffled, 7, 50) == 5, "median of 7 at index 3");

	check(stats_count_over(lat, 6, 1999) == 2, "count over a limit is strict");

	stats_histogram(lat, 6, hist);
	for (i = 0; i < STATS_HIST_BUCKETS; i++)
		total += hist[i];
	check(total == 6, "histogram: every sample counted once");
	check(hist[0] == 2 && hist[1] == 2 && hist[2] == 1,
	      "histogram: [0,1us) [1,2us) [2,4us) boundaries");
	check(hist[STATS_HIST_BUCKETS - 1] == 1, "histogram: 5 s lands in the last bucket");

	/*
	 * Weighted ranks. Equal weights pick stats_permille()'s sample for
	 * every n up to 300 and every per-mille rank.
	 */
	{
		static struct stats_wsample ws[300];
		static uint64_t plain[300];
		unsigned int n, pm, same = 1;

		for (n = 1; n <= 300; n++) {
			for (i = 0; i < n; i++) {
				plain[i] = i * 7 % n;
				ws[i] = (struct stats_wsample){ .v = plain[i], .w = 2.5 };
			}
			stats_sort(plain, n);
			stats_wsort(ws, n);
			for (pm = 0; pm <= 1000; pm++)
				same &= stats_wpermille(ws, n, pm) == stats_permille(plain, n, pm);
		}
		check(same, "weighted ranks with equal weights are stats_permille()'s");
		/*
		 * Two threads' reservoirs of 100 samples each: thread A (1..100)
		 * did 4x the ops of thread B (1001..1100), so its samples weigh 4.
		 * Total 500: the median is where the cumulative weight passes
		 * 250, A's 63rd sample; P99 passes 495, B's 96th. Pooled without
		 * weights they are B's 1st (index 100) and B's 99th (index 198).
		 */
		for (i = 0; i < 100; i++) {
			ws[i] = (struct stats_wsample){ .v = 1001 + i, .w = 1 };
			ws[100 + i] = (struct stats_wsample){ .v = 1 + i, .w = 4 };
			plain[i] = 1001 + i;
			plain[100 + i] = 1 + i;
		}
		stats_wsort(ws, 200);
		stats_sort(plain, 200);
		check(stats_wpermille(ws, 200, 500) == 63 && stats_wpermille(ws, 200, 990) == 1096,
		      "weighted ranks: a thread with 4x the ops weighs 4x");
		check(stats_permille(plain, 200, 500) == 1001 && stats_permille(plain, 200, 990) == 1099,
		      "the same samples pooled without weights");
		check(stats_wpermille(ws, 200, 1000) == 1100 && stats_wpermille(ws, 200, 0) == 1 &&
		      stats_wpermille(ws, 0, 500) == 0, "weighted ranks 0 and 1000; no samples: 0");
	}

	check(stats_rate(10000, 2000000000ULL) == 5000.0, "rate: 10000 in 2 s is 5000/s");
	check(stats_rate(5, 0) == 0, "rate: zero time gives 0");

	return tap_done("stats");
}
