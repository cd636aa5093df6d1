// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_bench: --alloc-bench N, the driver of the in-kernel allocator
 * microbenchmark of make bench's modules (bench/binder_alloc_bench.c). It
 * owns the command written to <debugfs>/binder/alloc_bench, the parsing of
 * the module's result line and of its samples (alloc_bench_samples), the
 * percentiles of those (weighted by each kthread's ops per sample), and the
 * run's lines and JSON.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bt.h"

/*
 * --alloc-bench: the allocator microbenchmark runs in the module, on the
 * binder_alloc of our own mapping of the fresh device. Its result is one
 * line of key=value fields (bench/binder_alloc_bench.c); alloc_fields names
 * those we read, and which modes have them, and the percentiles that we
 * compute from its samples (alloc_samples()).
 */
enum alloc_field {
	AF_OPS, AF_NS, AF_ERRORS, AF_WALKS, AF_FREED, AF_P50, AF_P90, AF_P99, AF_MAX,
	AF_SKIP_MMGET, AF_SKIP_MMAP, AF_SKIP_MUTEX, AF_SKIP_VMA, AF_SKIP_LOCK,
	AF_FIFO_OPS, AF_FIFO_P50, AF_FIFO_P99, AF_FIFO_P999, AF_FIFO_MAX, AF_FIFO_OVER_1MS,
	AF_ROUNDS, AF_ALLOC_NS, AF_INSTALLS, AF_NR
};

static const struct {
	const char *key;
	char mode;	/* 'a': always, 'f': --alloc-fifo, 'c': --alloc-cold; 's': ours */
} alloc_fields[AF_NR] = {
	[AF_OPS] = { "ops", 'a' }, [AF_NS] = { "ns", 'a' }, [AF_ERRORS] = { "errors", 'a' },
	[AF_WALKS] = { "walks", 'a' }, [AF_FREED] = { "freed", 'a' },
	[AF_P50] = { "p50_ns", 's' }, [AF_P90] = { "p90_ns", 's' },
	[AF_P99] = { "p99_ns", 's' }, [AF_MAX] = { "max_ns", 'a' },
	[AF_SKIP_MMGET] = { "skip_mmget", 'a' }, [AF_SKIP_MMAP] = { "skip_mmap", 'a' },
	[AF_SKIP_MUTEX] = { "skip_mutex", 'a' }, [AF_SKIP_VMA] = { "skip_vma", 'a' },
	[AF_SKIP_LOCK] = { "skip_lock", 'a' },
	[AF_FIFO_OPS] = { "fifo_ops", 'f' }, [AF_FIFO_P50] = { "fifo_p50_ns", 's' },
	[AF_FIFO_P99] = { "fifo_p99_ns", 's' }, [AF_FIFO_P999] = { "fifo_p999_ns", 's' },
	[AF_FIFO_MAX] = { "fifo_max_ns", 'f' }, [AF_FIFO_OVER_1MS] = { "fifo_over_1ms", 'f' },
	[AF_ROUNDS] = { "rounds", 'c' }, [AF_ALLOC_NS] = { "alloc_ns", 'c' },
	[AF_INSTALLS] = { "installs", 'c' },
};

/* Parse the module's result line into v[]; fails on a field missing or unknown. */
static void alloc_parse(char *res, unsigned long long *v)
{
	bool seen[AF_NR] = { false };
	char *tok, *save, *eq, *end;
	unsigned int i;

	for (tok = strtok_r(res, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		eq = strchr(tok, '=');
		for (i = 0; eq && i < AF_NR; i++)
			if (strlen(alloc_fields[i].key) == (size_t)(eq - tok) &&
			    !strncmp(tok, alloc_fields[i].key, eq - tok))
				break;
		if (!eq || i == AF_NR || seen[i] || alloc_fields[i].mode == 's')
			fail("%s: unexpected field '%.40s'", ALLOC_BENCH_PATH, tok);
		errno = 0;
		v[i] = strtoull(eq + 1, &end, 10);
		if (errno || eq[1] < '0' || eq[1] > '9' || *end)
			fail("%s: bad value in '%.40s'", ALLOC_BENCH_PATH, tok);
		seen[i] = true;
	}
	for (i = 0; i < AF_NR; i++) {
		char m = alloc_fields[i].mode;

		if (!seen[i] && (m == 'a' || (m == 'f' && cfg->alloc_fifo) ||
				 (m == 'c' && cfg->alloc_cold)))
			fail("%s: no %s in the result", ALLOC_BENCH_PATH, alloc_fields[i].key);
	}
	if (!v[AF_NS])
		fail("%s: the run took 0 ns", ALLOC_BENCH_PATH);
}

/*
 * The op times of the kthreads, from alloc_bench_samples: the N kthreads'
 * reservoirs are pooled with each sample weighted by its kthread's ops per
 * sample (a kthread that did more ops stands for more of them), the
 * SCHED_FIFO kthread's on their own. Writes the N kthreads' ops to
 * @thread_ops as "A, B, ...".
 */
static void alloc_samples(unsigned long long *v, char *thread_ops, size_t len)
{
	unsigned long long ops, max, x;
	struct stats_wsample *ws = NULL;
	unsigned int t, fifo, threads = 0;
	size_t lsz = 0, nws = 0, nfs = 0, n, k;
	char *line = NULL, *p, *end;
	uint64_t *fs = NULL;
	int off = 0;
	FILE *f;

	f = fopen(ALLOC_SAMPLES_PATH, "re");
	if (!f)
		fail("open %s: %s", ALLOC_SAMPLES_PATH, strerror(errno));
	thread_ops[0] = 0;
	while (getline(&line, &lsz, f) > 0) {
		if (sscanf(line, "thread=%u fifo=%u ops=%llu max_ns=%llu n=%zu", &t, &fifo, &ops,
			   &max, &n) != 5 || fifo > 1 || n > ops || (!n && ops))
			fail("%s: unexpected line '%.60s'", ALLOC_SAMPLES_PATH, line);
		if (getline(&line, &lsz, f) < 0)
			fail("%s: no samples for kthread %u", ALLOC_SAMPLES_PATH, t);
		if (fifo)
			fs = realloc(fs, (nfs + n + 1) * sizeof(*fs));
		else
			ws = realloc(ws, (nws + n + 1) * sizeof(*ws));
		if (fifo ? !fs : !ws)
			fail("out of memory for %zu samples", n);
		for (p = line, k = 0; k < n; k++, p = end) {
			errno = 0;
			x = strtoull(p, &end, 10);
			if (errno || end == p || (*end && *end != ' ' && *end != '\n'))
				fail("%s: kthread %u: sample %zu of %zu unreadable", ALLOC_SAMPLES_PATH,
				     t, k + 1, n);
			if (fifo)
				fs[nfs++] = x;
			else
				ws[nws++] = (struct stats_wsample){ .v = x, .w = (double)ops / n };
		}
		if (strspn(p, " \n") != strlen(p))
			fail("%s: kthread %u: more than %zu samples", ALLOC_SAMPLES_PATH, t, n);
		if (!fifo)
			off += snprintf(thread_ops + off, len - off, "%s%llu", threads++ ? ", " : "",
					ops);
	}
	free(line);
	fclose(f);
	if (threads != cfg->alloc_threads || (cfg->alloc_fifo && !nfs))
		fail("%s: %u kthreads%s, expected %u%s", ALLOC_SAMPLES_PATH, threads,
		     nfs ? " and a SCHED_FIFO one" : "", cfg->alloc_threads,
		     cfg->alloc_fifo ? " and a SCHED_FIFO one" : "");
	stats_wsort(ws, nws);
	v[AF_P50] = stats_wpermille(ws, nws, 500);
	v[AF_P90] = stats_wpermille(ws, nws, 900);
	v[AF_P99] = stats_wpermille(ws, nws, 990);
	stats_sort(fs, nfs);
	v[AF_FIFO_P50] = stats_permille(fs, nfs, 500);
	v[AF_FIFO_P99] = stats_permille(fs, nfs, 990);
	v[AF_FIFO_P999] = stats_permille(fs, nfs, 999);
	free(ws);
	free(fs);
}

static void alloc_json(const unsigned long long *v, const char *thread_ops)
{
	FILE *json_fp = cfg->json_fp;
	struct usage_report none;
	unsigned int i;

	fprintf(json_fp, "{\n  \"mode\": \"alloc\",\n  \"threads\": %u,\n  \"ms\": %u,\n"
		"  \"max_bytes\": %u,\n  \"shrink\": %s,\n  \"fifo\": %s,\n  \"cold\": %s,\n"
		"  \"hogs\": %u,\n  \"ops\": %llu,\n  \"seconds\": %.6f,\n"
		"  \"ops_per_sec\": %.1f,\n  \"errors\": %llu,\n"
		"  \"p50_ns\": %llu,\n  \"p90_ns\": %llu,\n  \"p99_ns\": %llu,\n"
		"  \"max_ns\": %llu,\n  \"shrinker_walks\": %llu,\n  \"pages_freed\": %llu,\n",
		cfg->alloc_threads, cfg->alloc_ms, cfg->alloc_max,
		cfg->alloc_shrink ? "true" : "false", cfg->alloc_fifo ? "true" : "false",
		cfg->alloc_cold ? "true" : "false", cfg->hogs, v[AF_OPS], v[AF_NS] / 1e9,
		v[AF_OPS] * 1e9 / v[AF_NS], v[AF_ERRORS], v[AF_P50], v[AF_P90], v[AF_P99],
		v[AF_MAX], v[AF_WALKS], v[AF_FREED]);
	fprintf(json_fp, "  \"thread_ops\": [%s],\n", thread_ops);
	for (i = AF_SKIP_MMGET; i <= AF_SKIP_LOCK; i++)
		fprintf(json_fp, "  \"%s\": %llu,\n", alloc_fields[i].key, v[i]);
	if (cfg->alloc_fifo)
		for (i = AF_FIFO_OPS; i <= AF_FIFO_OVER_1MS; i++)
			fprintf(json_fp, "  \"%s\": %llu,\n", alloc_fields[i].key, v[i]);
	if (cfg->alloc_cold)
		fprintf(json_fp, "  \"cold_rounds\": %llu,\n  \"alloc_seconds\": %.6f,\n"
			"  \"installs\": %llu,\n  \"installs_per_sec\": %.1f,\n",
			v[AF_ROUNDS], v[AF_ALLOC_NS] / 1e9, v[AF_INSTALLS],
			v[AF_ALLOC_NS] ? v[AF_INSTALLS] * 1e9 / v[AF_ALLOC_NS] : 0.0);
	fprintf(json_fp, "  \"result\": \"%s\",\n", v[AF_ERRORS] ? "fail" : "ok");
	/* The transaction runs' figures per call, last: no calls here, all -1. */
	usage_per_call(&none.client, NULL, false, 0);
	none.server = none.fifo = none.client;
	usage_json(json_fp, &none);
	fprintf(json_fp, "}\n");
	if (fclose(json_fp))
		fail("--json: write failed: %s", strerror(errno));
}

void alloc_bench(void)
{
	unsigned long long v[AF_NR] = { 0 };
	char cmd[160], res[640], err[256], thread_ops[8 * 24];
	void *map;
	ssize_t n;
	int fd, dfd;

	fd = bx_open(parent->device, BINDER_MAP_SIZE, &map, err, sizeof(err));
	if (fd < 0)
		fail("%s", err);
	dfd = open(ALLOC_BENCH_PATH, O_RDWR | O_CLOEXEC);
	if (dfd < 0) {
		if (errno == ENOENT)
			finish(KSFT_SKIP, "no " ALLOC_BENCH_PATH " (debugfs, and a module built for make bench)");
		fail("open %s: %s", ALLOC_BENCH_PATH, strerror(errno));
	}
	snprintf(cmd, sizeof(cmd), "fd=%d threads=%u ms=%u max=%u shrink=%d fifo=%d cold=%d",
		 fd, cfg->alloc_threads, cfg->alloc_ms, cfg->alloc_max, cfg->alloc_shrink,
		 cfg->alloc_fifo, cfg->alloc_cold);
	start_hogs();
	if (write(dfd, cmd, strlen(cmd)) < 0)
		fail("writing '%s' to %s: %s", cmd, ALLOC_BENCH_PATH, strerror(errno));
	stop_hogs();
	n = pread(dfd, res, sizeof(res) - 1, 0);
	if (n < 0)
		fail("reading %s: %s", ALLOC_BENCH_PATH, strerror(errno));
	res[n] = 0;
	alloc_parse(res, v);
	alloc_samples(v, thread_ops, sizeof(thread_ops));
	close(dfd);
	munmap(map, BINDER_MAP_SIZE);
	close(fd);
	say("alloc: %llu ops in %.3f s (%.1f ops/s), %llu errors; per op 50%%: %llu ns 90%%: %llu ns 99%%: %llu ns max: %llu ns; shrinker: %llu walks, %llu pages freed",
	    v[AF_OPS], v[AF_NS] / 1e9, v[AF_OPS] * 1e9 / v[AF_NS], v[AF_ERRORS], v[AF_P50],
	    v[AF_P90], v[AF_P99], v[AF_MAX], v[AF_WALKS], v[AF_FREED]);
	say("shrinker skips: %llu mm gone, %llu mmap_lock, %llu mutex, %llu not the binder VMA, %llu alloc->lock",
	    v[AF_SKIP_MMGET], v[AF_SKIP_MMAP], v[AF_SKIP_MUTEX], v[AF_SKIP_VMA],
	    v[AF_SKIP_LOCK]);
	if (cfg->alloc_fifo)
		say("SCHED_FIFO kthread: %llu ops; 50%%: %llu ns 99%%: %llu ns 99.9%%: %llu ns max: %llu ns; %llu over 1 ms",
		    v[AF_FIFO_OPS], v[AF_FIFO_P50], v[AF_FIFO_P99], v[AF_FIFO_P999],
		    v[AF_FIFO_MAX], v[AF_FIFO_OVER_1MS]);
	if (cfg->alloc_cold)
		say("first-touch: %llu rounds, %llu pages installed in %.3f s of allocation (%.1f installs/s)",
		    v[AF_ROUNDS], v[AF_INSTALLS], v[AF_ALLOC_NS] / 1e9,
		    v[AF_ALLOC_NS] ? v[AF_INSTALLS] * 1e9 / v[AF_ALLOC_NS] : 0.0);
	if (cfg->json_fp)
		alloc_json(v, thread_ops);
	if (v[AF_ERRORS])
		fail("%llu allocations or writes failed", v[AF_ERRORS]);
	if (!v[AF_OPS])
		fail("no allocation completed in %u ms", cfg->alloc_ms);
	if (cfg->alloc_fifo && !v[AF_FIFO_OPS])
		fail("the SCHED_FIFO kthread completed no op in %u ms", cfg->alloc_ms);
	if (cfg->alloc_cold && !v[AF_INSTALLS])
		fail("no page was installed in %u ms", cfg->alloc_ms);
}
