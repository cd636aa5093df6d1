// SPDX-License-Identifier: GPL-2.0
/*
 * results: what a run reports. It owns the binderThroughputTest-style text
 * of a transaction run ("iterations per sec", "average", the percentiles,
 * the histogram and the lines of the system measurements), the -d dump, the
 * --json file. The KTAP lines around them are ktap.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "bt.h"

static void print_summary(const char *prefix, const struct stats_summary *s)
{
	say("%saverage: %.3fms worst: %.3fms best: %.3fms", prefix, s->mean / 1e6, ms(s->max),
	    ms(s->min));
	say("%s50%%: %.3f 90%%: %.3f 95%%: %.3f 99%%: %.3f", prefix, ms(s->p50), ms(s->p90),
	    ms(s->p95), ms(s->p99));
}

static void write_json(const struct bt_totals *t, const struct stats_summary *s, double rate,
		       size_t over1, size_t over10, bool ok)
{
	const struct round_result *results = t->rounds;
	FILE *json_fp = cfg->json_fp;
	unsigned int r;

	fprintf(json_fp, "{\n  \"mode\": \"%s\",\n  \"workers\": %u,\n  \"iterations\": %u,\n"
		"  \"payload\": %u,\n  \"pairs\": %s,\n  \"threads\": %u,\n"
		"  \"server_threads\": %u,\n  \"window\": %u,\n  \"warmup\": %u,\n"
		"  \"fifo\": %s,\n  \"fifo_threads\": %u,\n  \"fifo_sleep_us\": %u,\n"
		"  \"nice_threads\": %u,\n  \"nice\": %d,\n  \"server_fifo\": %s,\n"
		"  \"hogs\": %u,\n  \"hog_fifo_prio\": %u,\n"
		"  \"pressure_ms\": %d,\n  \"rounds\": [",
		mode_names[cfg->mode], cfg->workers, cfg->iterations, cfg->payload,
		cfg->pairs ? "true" : "false", cfg->threads, cfg->server_threads, cfg->window,
		cfg->warmup, cfg->fifo ? "true" : "false", cfg->fifo_threads,
		cfg->fifo_threads ? cfg->fifo_sleep_us : 0, cfg->nice_threads, cfg->nice,
		cfg->server_fifo ? "true" : "false", cfg->hogs, cfg->hog_prio,
		cfg->pressure ? (int)cfg->pressure_ms : -1);
	for (r = 0; r < cfg->rounds; r++)
		fprintf(json_fp, "%s\n    {\"transactions\": %zu, \"seconds\": %.6f, \"per_sec\": %.1f, \"avg_ms\": %.6f, \"p50_ms\": %.6f, \"p99_ms\": %.6f, \"worst_ms\": %.6f}",
			r ? "," : "",
			results[r].n, results[r].ns / 1e9, stats_rate(results[r].n, results[r].ns),
			results[r].s.mean / 1e6, ms(results[r].s.p50), ms(results[r].s.p99),
			ms(results[r].s.max));
	fprintf(json_fp, "\n  ],\n  \"transactions\": %zu,\n  \"iterations_per_sec\": %.1f,\n"
		"  \"avg_ms\": %.6f,\n  \"worst_ms\": %.6f,\n  \"best_ms\": %.6f,\n"
		"  \"p50_ms\": %.6f,\n  \"p90_ms\": %.6f,\n  \"p95_ms\": %.6f,\n"
		"  \"p99_ms\": %.6f,\n  \"p999_ms\": %.6f,\n  \"over_1ms\": %zu,\n"
		"  \"over_10ms\": %zu,\n  \"background_calls\": %llu,\n"
		"  \"cpu_busy_pct\": %.1f,\n  \"binder_pages_peak\": %ld,\n"
		"  \"binder_pages_high_watermark\": %ld,\n  \"reclaimed_pages\": %ld,\n"
		"  \"drop_caches_writes\": %u,\n  \"failed_transactions\": %llu,\n"
		"  \"enomem_retries\": %llu,\n  \"result\": \"%s\",\n",
		s->n, rate, s->mean / 1e6, ms(s->max), ms(s->min), ms(s->p50), ms(s->p90),
		ms(s->p95), ms(s->p99), ms(s->p999), over1, over10, t->background_calls,
		t->cpu_busy, t->mem_peak, t->mem_high, t->reclaimed,
		atomic_load(&shm->pressure_writes),
		(unsigned long long)atomic_load(&shm->failed_txns),
		(unsigned long long)atomic_load(&shm->enomem), ok ? "ok" : "fail");
	/* Added last: the keys before them keep their order and format. */
	usage_json(json_fp, &t->usage);
	fprintf(json_fp, "}\n");
	if (fclose(json_fp))
		fail("--json: write failed: %s", strerror(errno));
}

/*
 * Context switches and CPU time per call over the measured rounds, from
 * getrusage(): the workers' (RUSAGE_SELF) over the calls of the measured
 * rounds, `transactions` in the JSON (with --fifo-threads the FIFO callers'
 * only, though the --nice-threads callers' work is in the workers' figures);
 * the --fifo-threads callers' own (RUSAGE_THREAD) over their own calls. -1:
 * no server figures without -p (every worker is a client, counted there),
 * no FIFO figures without --fifo-threads.
 */
static void report_usage(struct bt_totals *t)
{
	char line[400];

	usage_per_call(&t->usage.client, &t->client_usage, true, t->n);
	usage_per_call(&t->usage.server, &t->server_usage, cfg->pairs, t->n);
	usage_per_call(&t->usage.fifo, &t->fifo_usage, cfg->fifo_threads, t->fifo_calls);
	usage_line(line, sizeof(line), &t->usage);
	say("%s", line);
}

/*
 * The lines of the system measurements around the measured rounds: CPU
 * time, context switches and CPU per call, --pressure, reclaimed pages,
 * --faults, binder memory.
 */
void report_system(struct bt_totals *t)
{
	if (t->have_cpu && t->cpu1.total > t->cpu0.total) {
		double total = t->cpu1.total - t->cpu0.total;

		t->cpu_busy = 100.0 * (1 - (t->cpu1.idle - t->cpu0.idle) / total);
		say("cpu utilisation: %.1f%% busy (user %.1f%%, system %.1f%%) of %ld CPUs, /proc/stat",
		    t->cpu_busy, 100.0 * (t->cpu1.user - t->cpu0.user) / total,
		    100.0 * (t->cpu1.system - t->cpu0.system) / total,
		    sysconf(_SC_NPROCESSORS_ONLN));
	}
	report_usage(t);
	if (cfg->pressure)
		say("pressure: %u writes of 2 to /proc/sys/vm/drop_caches every %u ms",
		    atomic_load(&shm->pressure_writes), cfg->pressure_ms);
	if (t->reclaimed >= 0)
		say("reclaimed pages: %ld (binder shrinker, tracepoint %s, %s)",
		    t->reclaimed, trace_event(), trace_source());
	else
		say("reclaimed pages: unavailable (%s)", t->trace_err ? t->trace_err : "tracefs");
	if (cfg->faults)
		say("failed transactions: %llu, BINDER_WRITE_READ -ENOMEM retried: %llu (--faults)",
		    (unsigned long long)atomic_load(&shm->failed_txns),
		    (unsigned long long)atomic_load(&shm->enomem));
	mem_result(&t->mem_peak, &t->mem_high);
	if (t->mem_peak >= 0)
		say("binder memory: peak %ld pages (%ld KiB) installed, high watermark %ld pages (sum over workers, %s)",
		    t->mem_peak, t->mem_peak * (sysconf(_SC_PAGESIZE) / 1024), t->mem_high,
		    BINDER_STATS);
	else if (cfg->mem_stats)
		say("binder memory: unavailable (no worker in " BINDER_STATS ")");
	else
		say("binder memory: not sampled (--mem-stats samples it)");
}

/* "histogram: <1us: N <2us: N ... >=Xus: N", the empty buckets left out. */
static void print_histogram(const uint64_t *sorted, size_t n)
{
	size_t hist[STATS_HIST_BUCKETS], i;
	char line[512];
	int len;

	stats_histogram(sorted, n, hist);
	len = snprintf(line, sizeof(line), "histogram:");
	for (i = 0; i < STATS_HIST_BUCKETS && len < (int)sizeof(line) - 32; i++) {
		bool last = i == STATS_HIST_BUCKETS - 1;

		if (!hist[i])
			continue;
		len += snprintf(line + len, sizeof(line) - len, " %s%lluus: %zu",
				last ? ">=" : "<",
				(unsigned long long)stats_bucket_limit_us(last ? i - 1 : i),
				hist[i]);
	}
	say("%s", line);
}

/*
 * The latency figures over every measured sample, binderThroughputTest's
 * lines first; the -d dump (in the order taken) and the --json file.
 */
void report_latency(struct bt_totals *t)
{
	size_t over, over1, over10, i;
	struct stats_summary s;
	double rate;

	if (cfg->dump_fp) {
		for (i = 0; i < t->n; i++)
			fprintf(cfg->dump_fp, "%llu\n", (unsigned long long)t->samples[i]);
		if (fclose(cfg->dump_fp))
			fail("-d: write failed: %s", strerror(errno));
	}
	stats_sort(t->samples, t->n);
	stats_summarize(t->samples, t->n, &s);
	rate = stats_rate(t->n, t->ns);
	say("iterations per sec: %.1f", rate);
	over = stats_count_over(t->samples, t->n, t->max_ns);
	if (over)
		say("%.4f%% of transactions took longer than estimated max latency. Consider setting -m to be higher than %llu microseconds",
		    100.0 * over / t->n, (unsigned long long)(t->samples[t->n - 1] / 1000));
	print_summary("", &s);
	over1 = stats_count_over(t->samples, t->n, 1000000);
	over10 = stats_count_over(t->samples, t->n, 10000000);
	if (cfg->fifo_threads)
		say("SCHED_FIFO callers: %zu calls, %u us apart: 50%%: %.3f 99%%: %.3f 99.9%%: %.3f max: %.3f ms; over 1 ms: %zu, over 10 ms: %zu",
		    t->n, cfg->fifo_sleep_us, ms(s.p50), ms(s.p99), ms(s.p999), ms(s.max),
		    over1, over10);
	if (cfg->nice_threads)
		say("nice %d callers: %llu calls by %u threads per client worker (%.1f per sec)",
		    cfg->nice, t->background_calls, cfg->nice_threads,
		    stats_rate(t->background_calls, t->ns));
	if (cfg->hogs)
		say("CPU hogs: %u at %s%u during the measured rounds", cfg->hogs,
		    cfg->hog_prio ? "SCHED_FIFO priority " : "nice ", cfg->hog_prio);
	print_histogram(t->samples, t->n);
	if (cfg->json_fp)
		write_json(t, &s, rate, over1, over10, true);
}
