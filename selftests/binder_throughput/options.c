// SPDX-License-Identifier: GPL-2.0
/*
 * options: the command line. It owns struct bt_config (the one instance,
 * written here only), --help, the parsing and range of every option, the
 * combinations that are refused, the payload limits of the 4 MiB mapping,
 * and the opening of the -d and --json files. A bad command line is one
 * "binder_throughput: error: ..." line on stderr and exit 2 (EXIT_USAGE).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bt.h"

const char * const mode_names[4] = { "sync", "oneway", "pipeline", "mixed" };

static struct bt_config config = {
	.workers = 2,
	.iterations = 10000,
	.max_latency_us = 50000,
	.threads = 1,
	.server_threads = 4,
	.mode = MODE_SYNC,
	.window = 8,
	.rounds = 1,
	.pressure_ms = 10,
	.fifo_sleep_us = 1000,
	.alloc_ms = 2000,
	.alloc_max = 8192,
};

const struct bt_config *const cfg = &config;

static void usage_error(const char *fmt, ...) __printf(1, 2) __noreturn;
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(EXIT_USAGE);
}

static void print_help(void)
{
	printf("usage: " PROG " [options]\n"
	       "binderThroughputTest on the raw binder UAPI, in a private binderfs.\n"
	       "  -w N                workers, 2 to 256 (default 2; a worker does not call\n"
	       "                      itself)\n"
	       "  -i N                iterations per client thread and round (default 10000)\n"
	       "  -s N                payload bytes per call, after a 32-byte header (default 0)\n"
	       "  -p                  client/server pairs: workers [0,w/2) serve, the rest call\n"
	       "                      (-w even)\n"
	       "  -t                  training round: max latency = 2 x its worst\n"
	       "  -m US               expected max latency in microseconds (default 50000)\n"
	       "  -d FILE             write the raw per-transaction ns samples, one a line\n"
	       "  --threads N         client threads per worker (default 1)\n"
	       "  --server-threads N  server threads per worker (default 4;\n"
	       "                      BINDER_SET_MAX_THREADS N-1 plus the main looper)\n"
	       "  --mode M            sync (default), oneway, pipeline, or mixed (each call\n"
	       "                      sync or oneway at random)\n"
	       "  --window K          oneway/pipeline/mixed: calls in flight per client\n"
	       "                      (default 8)\n"
	       "  --warmup R          unmeasured rounds first (default 0)\n"
	       "  --rounds R          measured rounds (default 1)\n"
	       "  --pressure drop_caches[:MS]\n"
	       "                      write 2 to /proc/sys/vm/drop_caches every MS ms\n"
	       "                      (default 10) during the measured rounds\n"
	       "  --fifo              client threads run SCHED_FIFO (priority 50)\n"
	       "  --fifo-threads F    F client threads per worker, SCHED_FIFO 50, time -i sync\n"
	       "                      calls each; the measured calls are theirs\n"
	       "  --fifo-sleep US     with --fifo-threads: pause between calls (default 1000)\n"
	       "  --nice-threads N:NICE\n"
	       "                      with --fifo-threads: N more client threads per worker at\n"
	       "                      nice NICE (-20 to 19), calling until the FIFO ones are\n"
	       "                      done; their calls are counted, not timed\n"
	       "  --server-fifo       server threads run SCHED_FIFO 49, below the clients\n"
	       "  --hogs H[:fifo:P]   H processes spin during the measured rounds, at nice 0\n"
	       "                      or SCHED_FIFO priority P (1-48, below the server)\n"
	       "  --random-size       each call's payload is 0 to -s bytes, at random (-s > 0)\n"
	       "  --mem-stats         sample binder's memory from its debugfs stats once a\n"
	       "                      second and at the end of each round (the read takes\n"
	       "                      binder's locks; --fifo-threads: at round ends only)\n"
	       "  --faults            for fault injection (make stress): once set up, every\n"
	       "                      worker thread sets /proc/.../make-it-fail; transactions\n"
	       "                      the driver fails (BR_FAILED_REPLY, BR_DEAD_REPLY,\n"
	       "                      BR_FROZEN_REPLY, BR_ERROR) and BINDER_WRITE_READ -ENOMEM\n"
	       "                      are counted, not errors, and the buffer space checks of\n"
	       "                      -s are off; a wrong payload or reply still fails (not\n"
	       "                      with pipeline)\n"
	       "  --teardown MS       each worker, at a random time within MS ms of its\n"
	       "                      setup, unmaps its binder mapping or closes its binder\n"
	       "                      fd under its transacting threads and exits: the run\n"
	       "                      fails (make stress's teardown races)\n"
	       "  --json FILE         write the results as JSON\n"
	       "  --timeout S         give up after S seconds (default 0: never)\n"
	       "  --alloc-bench N     no transactions: the allocator microbenchmark of make\n"
	       "                      bench's modules (" ALLOC_BENCH_PATH "),\n"
	       "                      N kthreads (1-8) on one fresh device's binder_alloc;\n"
	       "                      of the options above it takes only --hogs H, --json\n"
	       "                      and --timeout\n"
	       "  --alloc-ms MS       its duration (default 2000)\n"
	       "  --alloc-max BYTES   its largest buffer (default 8192; sizes are random)\n"
	       "  --alloc-shrink      plus a kthread that walks the freelist every ms\n"
	       "  --alloc-fifo        the N kthreads run at nice 19, and one more, SCHED_FIFO\n"
	       "                      50, times each of its ops, 1 ms apart (N at most 7;\n"
	       "                      with --hogs H: H nice 0 processes spin meanwhile)\n"
	       "  --alloc-cold        first-touch installs: in rounds, the kthreads allocate\n"
	       "                      and keep buffers of exactly --alloc-max bytes until they\n"
	       "                      hold half the mapping, then every page is reclaimed\n"
	       "  -h, --help          this text\n"
	       "Output is KTAP; exit 0 pass, 1 fail, 4 skip, 2 bad command line.\n");
}

static unsigned long parse_num(const char *name, const char *arg, unsigned long min,
			       unsigned long max)
{
	unsigned long v;
	char *end;

	/* Digits only: strtoul() would take leading blanks and a sign. */
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!isdigit((unsigned char)arg[0]) || *end || errno || v < min || v > max)
		usage_error("%s '%s': not a number from %lu to %lu", name, arg, min, max);
	return v;
}

static void parse_pressure(const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t kind = colon ? (size_t)(colon - arg) : strlen(arg);

	if (kind != strlen("drop_caches") || strncmp(arg, "drop_caches", kind))
		usage_error("--pressure '%s': unknown kind (want drop_caches[:interval_ms])", arg);
	config.pressure = true;
	if (colon)
		config.pressure_ms = parse_num("--pressure drop_caches:", colon + 1, 0, 60000);
}

static FILE *open_out(const char *name, const char *path)
{
	FILE *fp = fopen(path, "we");

	if (!fp)
		usage_error("%s %s: %s", name, path, strerror(errno));
	return fp;
}

/* Payload limits from the 4 MiB binder mapping: fail on what cannot fit. */
static void check_payload(void)
{
	unsigned long long txn = ((sizeof(struct msg_hdr) + config.payload + 7) & ~7ULL) +
				 BUFFER_OVERHEAD;
	unsigned long long small = sizeof(struct msg_hdr) + BUFFER_OVERHEAD;
	unsigned int servers = config.pairs ? config.workers / 2 : config.workers;
	unsigned int clients = config.pairs ? config.workers - config.workers / 2 : config.workers;
	unsigned long long callers, need, limit;

	/* --faults: running out of buffer space is one more failure to count. */
	if (config.faults)
		return;
	/* Client threads that can call one server at once. */
	if (config.pairs)
		callers = (unsigned long long)(clients + servers - 1) / servers * config.threads;
	else
		callers = (unsigned long long)(config.workers - 1) * config.threads;
	if (config.mode == MODE_SYNC || config.mode == MODE_MIXED) {
		limit = BINDER_MAP_SIZE;
		need = callers * txn + config.threads * small;
		if (need > limit)
			usage_error("-s %u: payload over binder's buffer limit of %lu bytes (the 4 MiB mapping): %llu callers x %llu bytes",
				    config.payload, BINDER_MAP_SIZE, callers, txn);
		if (config.mode == MODE_SYNC)
			return;
	}
	limit = BINDER_ASYNC_SIZE;
	need = callers * config.window * txn;
	if (config.mode == MODE_PIPELINE && !config.pairs)
		need += (unsigned long long)config.threads * config.window * small;
	if (need > limit)
		usage_error("-s %u: payload over binder's oneway buffer limit of %lu bytes (half the 4 MiB mapping): %llu callers x window %u x %llu bytes",
			    config.payload, BINDER_ASYNC_SIZE, callers, config.window, txn);
}

/* --nice-threads N:NICE */
static void parse_nice_threads(const char *arg)
{
	const char *colon = strchr(arg, ':');
	char n[16];
	long v;
	char *end;

	if (!colon || (size_t)(colon - arg) >= sizeof(n))
		usage_error("--nice-threads '%s': want N:NICE", arg);
	memcpy(n, arg, colon - arg);
	n[colon - arg] = 0;
	config.nice_threads = parse_num("--nice-threads", n, 1, MAX_THREADS);
	/* Digits, or '-' and digits. */
	errno = 0;
	v = strtol(colon + 1, &end, 10);
	if (!isdigit((unsigned char)colon[colon[1] == '-' ? 2 : 1]) || *end || errno || v < -20 ||
	    v > 19)
		usage_error("--nice-threads '%s': nice '%s' is not a number from -20 to 19", arg,
			    colon + 1);
	config.nice = (int)v;
}

/* --hogs H[:fifo:P] */
static void parse_hogs(const char *arg)
{
	const char *colon = strchr(arg, ':');
	char n[16];

	config.hog_prio = 0;
	if (!colon) {
		config.hogs = parse_num("--hogs", arg, 1, MAX_HOGS);
		return;
	}
	if ((size_t)(colon - arg) >= sizeof(n) || strncmp(colon, ":fifo:", 6))
		usage_error("--hogs '%s': want H or H:fifo:PRIO", arg);
	memcpy(n, arg, colon - arg);
	n[colon - arg] = 0;
	config.hogs = parse_num("--hogs", n, 1, MAX_HOGS);
	config.hog_prio = parse_num("--hogs H:fifo:", colon + 6, 1, SERVER_FIFO_PRIO - 1);
}

/*
 * --alloc-bench N makes no transactions: of the other options it takes only
 * --hogs H, --json and --timeout. @txn_opt: the last option it does not take.
 */
static void check_alloc_bench(const char *txn_opt)
{
	if (config.alloc_cold && (config.alloc_shrink || config.alloc_fifo))
		usage_error("--alloc-cold: not with --alloc-shrink or --alloc-fifo (it reclaims every page itself)");
	if (config.alloc_fifo && config.alloc_threads > 7)
		usage_error("--alloc-bench %u --alloc-fifo: at most 7 (the SCHED_FIFO kthread is the 8th)",
			    config.alloc_threads);
	if (config.hog_prio)
		usage_error("--hogs %u:fifo:%u: not with --alloc-bench (its hogs run at nice 0)",
			    config.hogs, config.hog_prio);
	if (config.fifo_threads || config.server_fifo)
		usage_error("--fifo-threads and --server-fifo: not with --alloc-bench (see --alloc-fifo)");
	if (config.faults || config.teardown_ms)
		usage_error("--faults and --teardown: not with --alloc-bench");
	if (txn_opt[0])
		usage_error("--alloc-bench: not with %s (an option of transaction runs)", txn_opt);
}

/* The combinations of a transaction run's options; sets the client threads. */
static void check_transactions(bool threads_set, bool window_set, bool sleep_set)
{
	if (config.pairs && config.workers % 2)
		usage_error("-p with -w %u: client/server pairs need an even number of workers",
			    config.workers);
	if (config.random_size && !config.payload)
		usage_error("--random-size: needs -s N, the largest payload (N > 0)");
	if ((sleep_set || config.nice_threads) && !config.fifo_threads)
		usage_error("--fifo-sleep and --nice-threads need --fifo-threads F");
	if (config.fifo_threads) {
		if (threads_set || config.fifo)
			usage_error("--fifo-threads: not with --threads or --fifo (it sets the client threads)");
		if (config.mode != MODE_SYNC)
			usage_error("--fifo-threads: only for --mode sync");
		if (config.fifo_threads + config.nice_threads > MAX_THREADS)
			usage_error("--fifo-threads %u and --nice-threads %u: more than %u client threads",
				    config.fifo_threads, config.nice_threads, MAX_THREADS);
		config.threads = config.fifo_threads + config.nice_threads;
	}
	if (config.hog_prio && !config.server_fifo)
		usage_error("--hogs %u:fifo:%u: needs --server-fifo (SCHED_OTHER servers would run only in the RT throttling share)",
			    config.hogs, config.hog_prio);
	if (window_set && config.mode == MODE_SYNC)
		usage_error("--window %u: only for --mode oneway, pipeline or mixed", config.window);
	if (config.faults && config.mode == MODE_PIPELINE)
		usage_error("--faults: not with --mode pipeline (a failed callback would never complete its call)");
	/* run() keeps the measured rounds' samples, and one round's more to sort. */
	if (samples_per_round() * (config.rounds + 1) > MAX_SAMPLES)
		usage_error("%zu latency samples per round (%u calling workers x %u timed threads x -i %u), kept for --rounds %u plus one round to sort: over the limit of %lu samples",
			    samples_per_round(), client_workers(), timed_threads(),
			    config.iterations, config.rounds, MAX_SAMPLES);
	check_payload();
}

/* The long options without a short one. */
enum {
	O_THREADS = 256, O_SERVER_THREADS, O_MODE, O_WINDOW, O_WARMUP, O_ROUNDS, O_PRESSURE,
	O_FIFO, O_FIFO_THREADS, O_FIFO_SLEEP, O_NICE_THREADS, O_SERVER_FIFO, O_HOGS,
	O_RANDOM_SIZE, O_FAULTS, O_TEARDOWN, O_JSON, O_TIMEOUT, O_ALLOC, O_ALLOC_MS,
	O_ALLOC_MAX, O_ALLOC_SHRINK, O_ALLOC_FIFO, O_ALLOC_COLD, O_MEM_STATS
};

/* The options that --alloc-bench takes; the others are for transaction runs. */
static bool alloc_bench_option(int c)
{
	switch (c) {
	case O_HOGS: case O_JSON: case O_TIMEOUT: case O_ALLOC: case O_ALLOC_MS:
	case O_ALLOC_MAX: case O_ALLOC_SHRINK: case O_ALLOC_FIFO: case O_ALLOC_COLD: case 'h':
		return true;
	}
	return false;
}

/* "-w" or "--mode": the option that getopt_long() returned as @c. */
static void option_name(int c, const struct option *longopts, char *buf, size_t len)
{
	const struct option *o;

	for (o = longopts; o->name; o++)
		if (o->val == c)
			break;
	if (o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", c);
}

void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "threads", required_argument, NULL, O_THREADS },
		{ "server-threads", required_argument, NULL, O_SERVER_THREADS },
		{ "mode", required_argument, NULL, O_MODE },
		{ "window", required_argument, NULL, O_WINDOW },
		{ "warmup", required_argument, NULL, O_WARMUP },
		{ "rounds", required_argument, NULL, O_ROUNDS },
		{ "pressure", required_argument, NULL, O_PRESSURE },
		{ "fifo", no_argument, NULL, O_FIFO },
		{ "fifo-threads", required_argument, NULL, O_FIFO_THREADS },
		{ "fifo-sleep", required_argument, NULL, O_FIFO_SLEEP },
		{ "nice-threads", required_argument, NULL, O_NICE_THREADS },
		{ "server-fifo", no_argument, NULL, O_SERVER_FIFO },
		{ "hogs", required_argument, NULL, O_HOGS },
		{ "random-size", no_argument, NULL, O_RANDOM_SIZE },
		{ "mem-stats", no_argument, NULL, O_MEM_STATS },
		{ "faults", no_argument, NULL, O_FAULTS },
		{ "teardown", required_argument, NULL, O_TEARDOWN },
		{ "json", required_argument, NULL, O_JSON },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "alloc-bench", required_argument, NULL, O_ALLOC },
		{ "alloc-ms", required_argument, NULL, O_ALLOC_MS },
		{ "alloc-max", required_argument, NULL, O_ALLOC_MAX },
		{ "alloc-shrink", no_argument, NULL, O_ALLOC_SHRINK },
		{ "alloc-fifo", no_argument, NULL, O_ALLOC_FIFO },
		{ "alloc-cold", no_argument, NULL, O_ALLOC_COLD },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool window_set = false, alloc_opts = false, threads_set = false, sleep_set = false;
	bool help = false;
	const char *dump_file = NULL, *json_file = NULL;
	char txn_opt[32] = "";	/* the last option of transaction runs */
	int c, i;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:i:s:ptm:d:h", longopts, NULL)) != -1) {
		if (c != ':' && c != '?' && !alloc_bench_option(c))
			option_name(c, longopts, txn_opt, sizeof(txn_opt));
		switch (c) {
		case 'w':
			config.workers = parse_num("-w", optarg, 2, MAX_WORKERS);
			break;
		case 'i':
			config.iterations = parse_num("-i", optarg, 1, 100000000);
			break;
		case 's':
			config.payload = parse_num("-s", optarg, 0, UINT_MAX / 2);
			break;
		case 'p':
			config.pairs = true;
			break;
		case 't':
			config.training = true;
			break;
		case 'm':
			config.max_latency_us = parse_num("-m", optarg, 1, 1000000000);
			break;
		case 'd':
			dump_file = optarg;
			break;
		case O_THREADS:
			config.threads = parse_num("--threads", optarg, 1, MAX_THREADS);
			threads_set = true;
			break;
		case O_SERVER_THREADS:
			config.server_threads = parse_num("--server-threads", optarg, 1, MAX_THREADS);
			break;
		case O_MODE:
			for (i = 0; i < 4; i++)
				if (!strcmp(optarg, mode_names[i]))
					break;
			if (i == 4)
				usage_error("--mode '%s': not sync, oneway, pipeline or mixed",
					    optarg);
			config.mode = i;
			break;
		case O_WINDOW:
			config.window = parse_num("--window", optarg, 1, 1024);
			window_set = true;
			break;
		case O_WARMUP:
			config.warmup = parse_num("--warmup", optarg, 0, 1000);
			break;
		case O_ROUNDS:
			config.rounds = parse_num("--rounds", optarg, 1, 1000);
			break;
		case O_PRESSURE:
			parse_pressure(optarg);
			break;
		case O_FIFO:
			config.fifo = true;
			break;
		case O_FIFO_THREADS:
			config.fifo_threads = parse_num("--fifo-threads", optarg, 1, MAX_THREADS);
			break;
		case O_FIFO_SLEEP:
			config.fifo_sleep_us = parse_num("--fifo-sleep", optarg, 0, 1000000);
			sleep_set = true;
			break;
		case O_NICE_THREADS:
			parse_nice_threads(optarg);
			break;
		case O_SERVER_FIFO:
			config.server_fifo = true;
			break;
		case O_HOGS:
			parse_hogs(optarg);
			break;
		case O_RANDOM_SIZE:
			config.random_size = true;
			break;
		case O_MEM_STATS:
			config.mem_stats = true;
			break;
		case O_FAULTS:
			config.faults = true;
			break;
		case O_TEARDOWN:
			config.teardown_ms = parse_num("--teardown", optarg, 1, 3600000);
			break;
		case O_JSON:
			json_file = optarg;
			break;
		case O_TIMEOUT:
			config.timeout = parse_num("--timeout", optarg, 0, 86400);
			break;
		case O_ALLOC:
			config.alloc_threads = parse_num("--alloc-bench", optarg, 1, 8);
			break;
		case O_ALLOC_MS:
			config.alloc_ms = parse_num("--alloc-ms", optarg, 1, 60000);
			alloc_opts = true;
			break;
		case O_ALLOC_MAX:
			/* The module's limit: 8 threads' buffers fit in half the mapping. */
			config.alloc_max = parse_num("--alloc-max", optarg, 8, BINDER_MAP_SIZE / 16);
			alloc_opts = true;
			break;
		case O_ALLOC_SHRINK:
			config.alloc_shrink = true;
			alloc_opts = true;
			break;
		case O_ALLOC_FIFO:
			config.alloc_fifo = true;
			alloc_opts = true;
			break;
		case O_ALLOC_COLD:
			config.alloc_cold = true;
			alloc_opts = true;
			break;
		case 'h':
			help = true;
			break;
		case ':':
			usage_error("%s: missing argument", argv[optind - 1]);
		default:
			if (optopt)
				usage_error("unknown option '-%c' (see --help)", optopt);
			usage_error("unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s' (see --help)", argv[optind]);
	if (help) {
		print_help();
		exit(0);
	}

	if (alloc_opts && !config.alloc_threads)
		usage_error("--alloc-ms, --alloc-max, --alloc-shrink, --alloc-fifo and --alloc-cold need --alloc-bench N");
	if (config.alloc_threads)
		check_alloc_bench(txn_opt);
	else
		check_transactions(threads_set, window_set, sleep_set);
	if (dump_file)
		config.dump_fp = open_out("-d", dump_file);
	if (json_file)
		config.json_fp = open_out("--json", json_file);
}
