// SPDX-License-Identifier: GPL-2.0
/*
 * rounds: the run of a transaction benchmark, from the parent. It owns the
 * rounds (the training round of -t, --warmup, --rounds measured ones), the
 * collection of each round's samples from the shared memory, the system
 * measurements around the measured rounds (--pressure, --hogs, CPU time,
 * the workers' and the --fifo-threads callers' getrusage(), --mem-stats,
 * the reclaim count), and the hand-over of it all to results.c.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "bt.h"

enum round_kind { ROUND_TRAINING, ROUND_WARMUP, ROUND_MEASURED };

static unsigned long long background_calls;	/* --nice-threads, measured rounds */
/* --fifo-threads, measured rounds: the FIFO callers' getrusage() and their calls */
static struct bt_usage fifo_usage;
static unsigned long long fifo_calls;

/*
 * Reading the stats file costs about 20 ms under QEMU TCG (it walks every
 * binder_proc under binder's locks, the locks a benchmark measures): only
 * with --mem-stats, once a second during a round and at its end. The high
 * watermark is exact; the peak may miss a short spike.
 */
#define MEM_SAMPLE_NS 1000000000ULL

static void tick_measured(void)
{
	static uint64_t last;
	uint64_t t = now_ns();

	/*
	 * --fifo-threads measures waits on binder's locks, and the stats read
	 * takes them: read only at the end of each round, when no call runs.
	 */
	if (!cfg->mem_stats || cfg->fifo_threads || t - last < MEM_SAMPLE_NS)
		return;
	last = t;
	mem_sample();
}

/* Run one round; its samples (sorted) go to @out. Returns the wall time. */
static uint64_t run_round(enum round_kind kind, uint32_t round, uint64_t *out)
{
	size_t per_slot = cfg->iterations, n = 0;
	uint64_t t0, t1;
	unsigned int s;

	atomic_store(&shm->round, round);
	memset(shm->samples, 0, (size_t)shm->nslots * per_slot * sizeof(*shm->samples));
	for (s = 0, n = 0; s < shm->nslots; s++)
		if (is_client(s / cfg->threads) && slot_timed(s))
			n++;
	atomic_store(&shm->timed_running, (uint32_t)n);
	n = 0;
	t0 = now_ns();
	write_ctl('R');
	wait_workers(MSG_ROUND, kind == ROUND_MEASURED ? tick_measured : NULL);
	t1 = now_ns();
	for (s = 0; s < shm->nslots; s++) {
		if (!is_client(s / cfg->threads))
			continue;
		if (!slot_timed(s)) {
			if (kind == ROUND_MEASURED)
				background_calls += atomic_load(&shm->slots[s].calls);
			continue;
		}
		if (kind == ROUND_MEASURED && cfg->fifo_threads) {
			usage_add(&fifo_usage, &shm->slots[s].fifo_usage);
			fifo_calls += atomic_load(&shm->slots[s].calls);
		}
		memcpy(out + n, shm->samples + (size_t)s * per_slot, per_slot * sizeof(*out));
		n += per_slot;
	}
	for (s = 0; s < n; s++)
		if (!out[s])
			fail("round %u: a transaction left no sample", round);
	return t1 - t0;
}

/*
 * Every worker's getrusage(RUSAGE_SELF) now, into @u: between rounds, when
 * no call runs ('U', answered with MSG_USAGE).
 */
static void sample_workers(struct bt_usage *u)
{
	unsigned int i;

	write_ctl('U');
	wait_workers(MSG_USAGE, NULL);
	for (i = 0; i < cfg->workers; i++)
		u[i] = shm->workers[i].usage;
}

void run(void)
{
	static struct bt_usage u0[MAX_WORKERS], u1[MAX_WORKERS];
	size_t per_round = samples_per_round();
	struct bt_totals t = {
		.max_ns = cfg->max_latency_us * 1000ULL,
		.cpu_busy = -1,
	};
	uint64_t *train;
	unsigned int r;

	t.samples = malloc(per_round * cfg->rounds * sizeof(*t.samples));
	train = malloc(per_round * sizeof(*train));
	t.rounds = calloc(cfg->rounds, sizeof(*t.rounds));
	if (!t.samples || !train || !t.rounds)
		fail("out of memory for %zu samples", per_round * (cfg->rounds + 1));

	t.trace_err = trace_start();
	if (cfg->training) {
		say("Start training round");
		run_round(ROUND_TRAINING, 0, train);
		stats_sort(train, per_round);
		t.max_ns = 2 * train[per_round - 1];
		say("Max latency during training: %.3fms", ms(train[per_round - 1]));
		say("Completed training round");
	}
	for (r = 0; r < cfg->warmup; r++) {
		run_round(ROUND_WARMUP, 1 + r, train);
		say("warmup %u/%u done", r + 1, cfg->warmup);
	}
	if (cfg->pressure)
		start_pressure();
	start_hogs();
	t.have_cpu = read_cpu(&t.cpu0);
	sample_workers(u0);
	say("waiting for workers to complete");
	for (r = 0; r < cfg->rounds; r++) {
		struct round_result *res = &t.rounds[r];
		uint64_t *out = t.samples + t.n;

		res->ns = run_round(ROUND_MEASURED, 1 + cfg->warmup + r, out);
		res->n = per_round;
		t.n += per_round;
		t.ns += res->ns;
		memcpy(train, out, per_round * sizeof(*train));
		stats_sort(train, per_round);
		stats_summarize(train, per_round, &res->s);
		say("round %u/%u: %zu transactions in %.3f s, %.1f per sec, average %.3fms 50%% %.3fms 99%% %.3fms worst %.3fms",
		    r + 1, cfg->rounds, per_round, res->ns / 1e9, stats_rate(per_round, res->ns),
		    res->s.mean / 1e6, ms(res->s.p50), ms(res->s.p99), ms(res->s.max));
		if (cfg->mem_stats)
			mem_sample();
	}
	sample_workers(u1);
	if (t.have_cpu)
		t.have_cpu = read_cpu(&t.cpu1);
	stop_hogs();
	stop_pressure();
	t.reclaimed = trace_count();
	t.background_calls = background_calls;
	/*
	 * The calling workers' into client_usage, the serving ones' (-p) into
	 * server_usage; without -p every worker calls: all are clients.
	 */
	usage_split(&t.client_usage, &t.server_usage, u0, u1, cfg->workers,
		    cfg->pairs ? cfg->workers / 2 : 0);
	t.fifo_usage = fifo_usage;
	t.fifo_calls = fifo_calls;
	report_system(&t);

	/* The workers are done: stop them before the (slow) sorting. */
	say("collecting results");
	say("killing workers");
	cleanup();
	report_latency(&t);
	free(train);
}
