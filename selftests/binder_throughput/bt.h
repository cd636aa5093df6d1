/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bt.h: what binder_throughput's units share. It owns the parsed options
 * (struct bt_config), the memory shared with the workers (struct
 * bt_shared), what the parent set up for its children (struct bt_parent),
 * the messages the processes exchange, the limits, and each unit's entry
 * points.
 *
 * Shared state: every unit reaches the run's state through three pointers
 * declared here, each set once before the first fork and never reassigned:
 *	cfg	the options (options.c; read-only once parsed),
 *	shm	the MAP_SHARED counters, slots and samples (manager.c; NULL
 *		with --alloc-bench, which has no workers),
 *	parent	the device, the worker pids, the parent's pid and the signal
 *		that stops the run (env.c).
 * Passing them down instead would add an argument to almost every function,
 * the loopers and client threads and the cleanup on every exit path among
 * them. Anything else at file scope is private to its unit.
 */
#ifndef BINDER_THROUGHPUT_BT_H
#define BINDER_THROUGHPUT_BT_H

/*
 * KTAP output and exit codes (KSFT_PASS, KSFT_FAIL, KSFT_SKIP), and
 * __printf and __noreturn: the kernel's kselftest.h in a kernel tree or
 * with KSFT=, our stand-in with the same output otherwise
 * (../binder_uapi/ksft.mk).
 */
#include "kselftest.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "binder_uapi.h"
#include "stats.h"
#include "usage.h"

#define PROG "binder_throughput"

/*
 * A bad command line: one "binder_throughput: error: ..." line on stderr,
 * nothing on stdout, exit 2. kselftest.h names 2 KSFT_XFAIL, but a run
 * with a bad command line never started: the kselftest runner runs us
 * without arguments, and our scripts treat every non-zero exit as a failure.
 */
#define EXIT_USAGE 2

/* What the driver charges per buffer beyond the data (struct binder_buffer), rounded up. */
#define BUFFER_OVERHEAD 128

#define MAX_WORKERS 256
#define MAX_THREADS 64
#define MAX_HOGS 64
#define MAX_SAMPLES (128UL * 1024 * 1024)

/* --fifo-threads and --server-fifo: the clients' priority, and the loopers' one below it. */
#define FIFO_PRIO 50
#define SERVER_FIFO_PRIO (FIFO_PRIO - 1)

#define ALLOC_BENCH_PATH "/sys/kernel/debug/binder/alloc_bench"
#define ALLOC_SAMPLES_PATH "/sys/kernel/debug/binder/alloc_bench_samples"
#define BINDER_STATS "/sys/kernel/debug/binder/stats"

enum mode { MODE_SYNC, MODE_ONEWAY, MODE_PIPELINE, MODE_MIXED };
extern const char * const mode_names[4];

/* The command line, parsed and checked (options.c). */
struct bt_config {
	unsigned int workers;
	unsigned int iterations;
	unsigned int payload;
	bool pairs;
	bool training;
	unsigned long max_latency_us;
	unsigned int threads;
	unsigned int server_threads;
	enum mode mode;
	unsigned int window;
	unsigned int warmup;
	unsigned int rounds;
	bool pressure;
	unsigned int pressure_ms;
	bool fifo;
	unsigned int fifo_threads;	/* --fifo-threads: 0 = off */
	unsigned int fifo_sleep_us;
	unsigned int nice_threads;	/* --nice-threads N:NICE */
	int nice;
	bool server_fifo;
	unsigned int hogs;
	unsigned int hog_prio;		/* --hogs H:fifo:P; 0 = nice 0 */
	bool random_size;
	bool mem_stats;
	bool faults;
	unsigned int teardown_ms;	/* --teardown: 0 = off */
	unsigned int timeout;
	unsigned int alloc_threads;	/* --alloc-bench: 0 = transactions */
	unsigned int alloc_ms;
	unsigned int alloc_max;
	bool alloc_shrink;
	bool alloc_fifo;
	bool alloc_cold;
	/* -d and --json, opened while parsing: a bad path is a command line error. */
	FILE *dump_fp;
	FILE *json_fp;
};

extern const struct bt_config *const cfg;

/* ---- messages ---- */

#define CODE_ADD	1
#define CODE_GET	2
#define CODE_SYNC	3
#define CODE_ONEWAY	4
#define CODE_PIPE	5
#define CODE_CALLBACK	6

#define MAGIC_ADD	0x62744164
#define MAGIC_GET	0x62744765
#define MAGIC_REQ	0x62745271
#define MAGIC_REPLY	0x62745270
#define MAGIC_CB	0x62744362

#define NODE_COOKIE	0x62740000UL

/* The header of every request, reply and callback. */
struct msg_hdr {
	uint32_t magic;
	uint32_t slot;		/* client thread: worker * threads + thread */
	uint32_t seq;
	uint32_t round;
	uint32_t size;		/* payload bytes after the header */
	uint32_t status;	/* replies and callbacks: 0, or 1 for a bad request */
	uint64_t t0;		/* pipeline: send time, echoed in the callback */
};

/* A worker registers its node with the context manager (CODE_ADD)... */
struct add_msg {
	uint32_t magic;
	uint32_t worker;
	struct flat_binder_object obj;
};

/* ...and asks it for every worker's handle (CODE_GET). */
struct get_msg {
	uint32_t magic;
	uint32_t worker;
};

/*
 * Worker to parent, on the status pipe: set up (MSG_READY), a round done
 * (MSG_ROUND, for 'R'), its getrusage() sample is in struct worker_state
 * (MSG_USAGE, for 'U').
 */
enum { MSG_READY = 1, MSG_ROUND = 2, MSG_USAGE = 3 };
struct done_msg {
	uint32_t worker;
	uint32_t kind;
	uint32_t errors;
};

/* ---- the shared memory ---- */

/* Per client slot, shared by all processes; one cache line each. */
struct slot_state {
	_Atomic uint32_t done;		/* oneway: handled by a server; pipeline: callbacks */
	_Atomic uint32_t wait_for;	/* the client sleeps until done reaches this */
	_Atomic uint32_t sent;		/* calls sent this round, for stuck_slots() */
	_Atomic uint32_t calls;		/* calls completed in the last round */
	struct bt_usage fifo_usage;	/* --fifo-threads: the thread's, the last round */
	char pad[24];
};
_Static_assert(sizeof(struct slot_state) == 64, "struct slot_state: one cache line");

struct worker_state {
	_Atomic uint32_t errors;
	_Atomic uint32_t round;
	struct bt_usage usage;		/* getrusage(RUSAGE_SELF) at the last 'U' */
};

/*
 * MAP_SHARED memory, set up before the fork (shm_map()): this header, then
 * nslots slots, then the current round's samples (nslots * iterations).
 * The mapping has the same address in every process, so do the pointers.
 */
struct bt_shared {
	_Atomic uint32_t round;
	_Atomic uint32_t pressure_writes;
	_Atomic int pressure_errno;
	_Atomic int hog_errno;
	_Atomic uint64_t failed_txns;	/* --faults: transactions the driver failed */
	_Atomic uint64_t enomem;	/* --faults: BINDER_WRITE_READ -ENOMEM, retried */
	_Atomic uint32_t timed_running;	/* --nice-threads: timed threads still calling */
	unsigned int nslots;		/* workers * threads */
	struct slot_state *slots;
	uint64_t *samples;
	struct worker_state workers[MAX_WORKERS];
};

extern struct bt_shared *shm;

/* ---- the parent's set-up ---- */

struct bt_parent {
	pid_t pid;
	char device[128];		/* the fresh binder device in our binderfs */
	pid_t worker_pids[MAX_WORKERS];	/* start_workers(); 0 once reaped */
	volatile sig_atomic_t stop_signal;	/* set by the signal handler */
};

extern struct bt_parent *const parent;

/* ---- helpers ---- */

/* A "# " diagnostic line, one write(): workers and the parent share stdout (ktap.c). */
void say(const char *fmt, ...) __printf(1, 2);

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A return command's name in messages; "%s (0x%x)" gives its value too. */
static inline const char *br_name(uint32_t cmd)
{
	return bx_br_name(cmd) ?: "an unexpected return command";
}

static inline double ms(uint64_t ns)
{
	return ns / 1e6;
}

static inline bool is_client(unsigned int id)
{
	return !cfg->pairs || id >= cfg->workers / 2;
}

/*
 * Client threads whose calls are timed: all of them, or with --fifo-threads
 * the first F of each client worker; the --nice-threads ones after them are
 * background load that calls until the timed ones are done.
 */
static inline unsigned int timed_threads(void)
{
	return cfg->fifo_threads ? cfg->fifo_threads : cfg->threads;
}

static inline bool slot_timed(unsigned int slot)
{
	return slot % cfg->threads < timed_threads();
}

/* Workers that make calls: all, or the second half with -p. */
static inline unsigned int client_workers(void)
{
	return cfg->pairs ? cfg->workers - cfg->workers / 2 : cfg->workers;
}

static inline size_t samples_per_round(void)
{
	return (size_t)client_workers() * timed_threads() * cfg->iterations;
}

/* ---- options.c ---- */

void parse_args(int argc, char **argv);

/* ---- env.c: binderfs, signals, children, cleanup ---- */

void install_signals(void);
void setup_binderfs(void);
void check_health(void);
void start_pressure(void);
void stop_pressure(void);
void start_hogs(void);
void stop_hogs(void);
void cleanup(void);
/* Clean up, print the KTAP result and exit with @code (KSFT_*). */
void finish(int code, const char *reason) __noreturn;
void fail(const char *fmt, ...) __printf(1, 2) __noreturn;

/* ---- manager.c: the context manager and the workers, from the parent ---- */

void shm_map(void);
void start_workers(void);
void write_ctl(char c);
void wait_workers(uint32_t kind, void (*tick)(void));

/* ---- worker.c: a worker process ---- */

void worker_main(unsigned int id, int ctl, int done_wr) __noreturn;

/* ---- sysstat.c: tracing, binder memory, CPU time ---- */

const char *trace_start(void);
long trace_count(void);
const char *trace_event(void);
const char *trace_source(void);
void trace_stop(void);
void mem_sample(void);
void mem_result(long *peak, long *high);

struct cpu_times {
	unsigned long long user, system, idle, total;
};

bool read_cpu(struct cpu_times *c);

/* ---- rounds.c ---- */

void run(void);

/* ---- results.c: text and JSON ---- */

struct round_result {
	uint64_t ns;
	size_t n;
	struct stats_summary s;
};

/* What the measured rounds gave, for the report. */
struct bt_totals {
	struct round_result *rounds;	/* cfg->rounds of them */
	uint64_t *samples;		/* every measured sample, in the order taken */
	size_t n;
	uint64_t ns;			/* wall time of the measured rounds */
	uint64_t max_ns;		/* -m, or twice the training round's worst */
	unsigned long long background_calls;	/* --nice-threads */
	bool have_cpu;
	struct cpu_times cpu0, cpu1;
	double cpu_busy;		/* report_system(); -1: unknown */
	long reclaimed;			/* -1: unknown */
	const char *trace_err;
	long mem_peak, mem_high;	/* report_system(); -1: not sampled */
	/*
	 * getrusage() over the measured rounds: of the calling workers, of the
	 * serving ones (-p only: without it every worker is a client), and of
	 * the --fifo-threads callers over their own calls (fifo_calls).
	 */
	struct bt_usage client_usage, server_usage, fifo_usage;
	unsigned long long fifo_calls;
	struct usage_report usage;	/* report_system(): per call */
};

void report_system(struct bt_totals *t);
void report_latency(struct bt_totals *t);

/* ---- ktap.c: "TAP version 13", "1..1"; the result line, the totals, exit ---- */

void ktap_begin(void);
void ktap_end(int code, const char *reason) __noreturn;

/* ---- alloc_bench.c ---- */

void alloc_bench(void);

#endif /* BINDER_THROUGHPUT_BT_H */
