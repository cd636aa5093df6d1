// SPDX-License-Identifier: GPL-2.0
/*
 * binder_throughput: binderThroughputTest on the raw binder UAPI.
 *
 * The parent mounts a private binderfs, creates a fresh binder device through
 * binder-control and becomes its context manager. It forks the workers; each
 * opens the device, registers its node with the parent (CODE_ADD) and, once
 * all are registered, fetches a handle to every other worker (CODE_GET). A
 * worker runs a server (one looper plus up to --server-threads - 1 more that
 * the driver asks for, BINDER_SET_MAX_THREADS) and --threads client threads.
 *
 * Per round the parent releases the workers through pipes and times the round
 * until every worker reports back. Clients time each transaction:
 *   sync      BC_TRANSACTION to BR_REPLY (the server echoes the header)
 *   oneway    BC_TRANSACTION(TF_ONE_WAY) to BR_TRANSACTION_COMPLETE, at most
 *             --window calls not yet handled by the server (shared counter)
 *   pipeline  up to --window oneway calls in flight, each completed by a
 *             oneway callback transaction from the server to the client's
 *             worker; latency is send to callback
 * Every request carries a header (slot, sequence number, round) and a payload
 * pattern derived from them; servers check the pattern, clients check that
 * each reply or callback matches its request.
 *
 * --alloc-bench N runs no transactions: it maps a fresh device and asks the
 * module's <debugfs>/binder/alloc_bench (make bench's modules only, items 0,
 * 8 and 9) to run N kthreads of binder_alloc_new_buf + write +
 * binder_alloc_free_buf on that device's binder_alloc (--alloc-fifo: at nice
 * 19, beside one timed SCHED_FIFO kthread; --alloc-cold: first-touch
 * installs), and reports what the module measured.
 *
 * Output is KTAP: one test, diagnostics on "# " lines. Exit 0 pass, 1 fail,
 * 4 skip (not root, or no binder/binderfs), 2 bad command line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <linux/android/binder.h>
#include <linux/android/binderfs.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn __attribute__((noreturn))
#endif

#define PROG "binder_throughput"

#define KSFT_PASS 0
#define KSFT_FAIL 1
#define KSFT_SKIP 4
#define EXIT_USAGE 2

/* The driver maps at most SZ_4M per process; oneway calls get half of it. */
#define BINDER_MAP_SIZE (4UL << 20)
#define BINDER_ASYNC_SIZE (BINDER_MAP_SIZE / 2)
/* What the driver charges per buffer beyond the data (struct binder_buffer), rounded up. */
#define BUFFER_OVERHEAD 128

#define MAX_WORKERS 256
#define MAX_THREADS 64
#define MAX_SAMPLES (128UL * 1024 * 1024)

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

#define OUT_SIZE 16384
#define IN_SIZE 512

enum mode { MODE_SYNC, MODE_ONEWAY, MODE_PIPELINE, MODE_MIXED };
static const char * const mode_names[] = { "sync", "oneway", "pipeline", "mixed" };

struct opts {
	unsigned int workers;
	unsigned int iterations;
	unsigned int payload;
	bool pairs;
	bool training;
	unsigned long max_latency_us;
	const char *dump_file;
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
	const char *json_file;
	unsigned int timeout;
	unsigned int alloc_threads;	/* --alloc-bench: 0 = transactions */
	unsigned int alloc_ms;
	unsigned int alloc_max;
	bool alloc_shrink;
	bool alloc_fifo;
	bool alloc_cold;
};

static struct opts opt = {
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

/* --fifo-threads and --server-fifo: the clients' priority, and the loopers' one below it. */
#define FIFO_PRIO 50
#define SERVER_FIFO_PRIO (FIFO_PRIO - 1)
#define MAX_HOGS 64

#define ALLOC_BENCH_PATH "/sys/kernel/debug/binder/alloc_bench"
#define ALLOC_SAMPLES_PATH "/sys/kernel/debug/binder/alloc_bench_samples"

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

struct add_msg {
	uint32_t magic;
	uint32_t worker;
	struct flat_binder_object obj;
};

struct get_msg {
	uint32_t magic;
	uint32_t worker;
};

/* Per client slot, shared by all processes; one cache line each. */
struct slot_state {
	_Atomic uint32_t done;		/* oneway: handled by the server; pipeline: callbacks */
	_Atomic uint32_t wait_for;	/* the client sleeps until done reaches this */
	_Atomic uint32_t sent;		/* calls sent this round, for stuck_slots() */
	_Atomic uint32_t calls;		/* calls completed in the last round */
	char pad[48];
};

struct worker_state {
	_Atomic uint32_t errors;
	_Atomic uint32_t round;
};

/* MAP_SHARED memory, set up before the fork. */
struct shared {
	_Atomic uint32_t round;
	_Atomic uint32_t pressure_writes;
	_Atomic int pressure_errno;
	_Atomic int hog_errno;
	_Atomic uint64_t failed_txns;	/* --faults: transactions the driver failed */
	_Atomic uint64_t enomem;	/* --faults: BINDER_WRITE_READ -ENOMEM, retried */
	_Atomic uint32_t timed_running;	/* --nice-threads: timed threads still in the round */
	struct worker_state workers[MAX_WORKERS];
};

enum { MSG_READY = 1, MSG_ROUND = 2 };
struct done_msg {
	uint32_t worker;
	uint32_t kind;
	uint32_t errors;
};

/* Binder thread context: one per thread that talks to the driver. */
struct bctx {
	int fd;
	size_t out_len;
	size_t in_len;
	size_t in_pos;
	uint8_t out[OUT_SIZE];
	uint8_t in[IN_SIZE];
};

static struct shared *shm;
static struct slot_state *slots;
static uint64_t *samples;		/* current round: nslots * iterations */
static unsigned int nslots;
static pid_t parent_pid;

static char device_path[128];
static char mount_dir[64];
static bool mounted;
static pid_t worker_pids[MAX_WORKERS];
static pid_t pressure_pid;
static pid_t hog_pids[MAX_HOGS];
static int ctl_fds[MAX_WORKERS];
static int done_rd = -1;
static volatile sig_atomic_t stop_signal;	/* set by on_signal() */
static char trace_dir[PATH_MAX];
static FILE *dump_fp;
static FILE *json_fp;

/* Worker-side state. */
static unsigned int self_id;
static uint32_t handles[MAX_WORKERS];
static unsigned int spawned_loopers;
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;

static void say(const char *fmt, ...) __printf(1, 2);
static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* One write per line: workers and the parent share stdout. */
	fflush(stdout);
	if (write(STDOUT_FILENO, "# ", 2) < 0 || write(STDOUT_FILENO, line, n) < 0)
		return;
}

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

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ---- worker errors ---- */

static void worker_error(const char *fmt, ...) __printf(1, 2);
static void worker_error(const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Only the first few: a broken run can fail every transaction. */
	if (atomic_fetch_add(&shm->workers[self_id].errors, 1) < 5)
		say("worker %u: error: %s", self_id, msg);
}

/* ---- payload pattern ---- */

static uint64_t pattern_key(const struct msg_hdr *h)
{
	return ((uint64_t)h->seq << 32 | h->slot) ^ ((uint64_t)h->round * 0xd6e8feb86659fd93ULL);
}

static uint64_t pattern_word(uint64_t key, size_t k)
{
	return key * 0x9e3779b97f4a7c15ULL + k * 0xbf58476d1ce4e5b9ULL;
}

static void fill_pattern(uint8_t *p, size_t n, uint64_t key)
{
	size_t k, off;
	uint64_t w;

	for (k = 0, off = 0; off < n; k++, off += sizeof(w)) {
		w = pattern_word(key, k);
		memcpy(p + off, &w, n - off < sizeof(w) ? n - off : sizeof(w));
	}
}

static bool check_pattern(const uint8_t *p, size_t n, uint64_t key)
{
	size_t k, off;
	uint64_t w;

	for (k = 0, off = 0; off < n; k++, off += sizeof(w)) {
		w = pattern_word(key, k);
		if (memcmp(p + off, &w, n - off < sizeof(w) ? n - off : sizeof(w)))
			return false;
	}
	return true;
}

/* ---- futex wait on a shared slot counter ---- */

static void futex_wait_u32(_Atomic uint32_t *addr, uint32_t val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT, val, NULL, NULL, 0);
}

static void futex_wake_u32(_Atomic uint32_t *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Sleep until slot @s has counted @target completions. */
static void slot_wait(unsigned int s, uint32_t target)
{
	struct slot_state *st = &slots[s];
	uint32_t v;

	for (;;) {
		v = atomic_load(&st->done);
		if (v >= target)
			break;
		atomic_store(&st->wait_for, target);
		v = atomic_load(&st->done);
		if (v >= target)
			break;
		futex_wait_u32(&st->done, v);
	}
	atomic_store(&st->wait_for, 0);
}

static void slot_complete(unsigned int s)
{
	struct slot_state *st = &slots[s];
	uint32_t v = atomic_fetch_add(&st->done, 1) + 1;
	uint32_t w = atomic_load(&st->wait_for);

	if (w && v >= w)
		futex_wake_u32(&st->done);
}

/* ---- binder thread context ---- */

static void bx_put(struct bctx *b, const void *p, size_t n)
{
	if (b->out_len + n > sizeof(b->out))
		abort();	/* the callers size their commands */
	memcpy(b->out + b->out_len, p, n);
	b->out_len += n;
}

static void bx_cmd(struct bctx *b, uint32_t cmd)
{
	bx_put(b, &cmd, sizeof(cmd));
}

static void bx_cmd_ptr(struct bctx *b, uint32_t cmd, binder_uintptr_t ptr)
{
	bx_cmd(b, cmd);
	bx_put(b, &ptr, sizeof(ptr));
}

static void bx_cmd_u32(struct bctx *b, uint32_t cmd, uint32_t val)
{
	bx_cmd(b, cmd);
	bx_put(b, &val, sizeof(val));
}

static void bx_txn(struct bctx *b, uint32_t cmd, uint32_t handle, uint32_t code,
		   uint32_t flags, const void *data, size_t size,
		   const binder_size_t *offs, size_t noffs)
{
	struct binder_transaction_data tr;

	memset(&tr, 0, sizeof(tr));
	tr.target.handle = handle;
	tr.code = code;
	tr.flags = flags;
	tr.data_size = size;
	tr.offsets_size = noffs * sizeof(binder_size_t);
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)data;
	tr.data.ptr.offsets = (binder_uintptr_t)(uintptr_t)offs;
	bx_cmd(b, cmd);
	bx_put(b, &tr, sizeof(tr));
}

/*
 * Write what is queued and, when @rd, read into the (drained) input buffer.
 * Returns 0 or -errno.
 */
static int bx_talk(struct bctx *b, bool rd)
{
	struct binder_write_read bwr;
	size_t written = 0;

	do {
		memset(&bwr, 0, sizeof(bwr));
		bwr.write_size = b->out_len - written;
		bwr.write_buffer = (binder_uintptr_t)(uintptr_t)(b->out + written);
		if (rd) {
			bwr.read_size = sizeof(b->in);
			bwr.read_buffer = (binder_uintptr_t)(uintptr_t)b->in;
		}
		if (ioctl(b->fd, BINDER_WRITE_READ, &bwr) < 0) {
			/* --faults: an injected allocation failure; what was consumed stays so. */
			if (errno == ENOMEM && opt.faults)
				atomic_fetch_add(&shm->enomem, 1);
			else if (errno != EINTR && errno != EAGAIN)
				return -errno;
			if (stop_signal && getpid() == parent_pid)
				return -EINTR;
		}
		written += bwr.write_consumed;
		if (rd && bwr.read_consumed) {
			b->in_len = bwr.read_consumed;
			b->in_pos = 0;
			rd = false;
		}
	} while (written < b->out_len || rd);
	b->out_len = 0;
	return 0;
}

/*
 * The next return command and a pointer to its argument. Reads from the
 * driver (blocking) when the input is drained; queued commands go out first.
 */
static int bx_next(struct bctx *b, uint32_t *cmd, const void **arg)
{
	size_t size;
	int ret;

	if (b->in_pos >= b->in_len) {
		ret = bx_talk(b, true);
		if (ret)
			return ret;
	} else if (b->out_len) {
		ret = bx_talk(b, false);
		if (ret)
			return ret;
	}
	if (b->in_len - b->in_pos < sizeof(*cmd))
		return -EPROTO;
	memcpy(cmd, b->in + b->in_pos, sizeof(*cmd));
	size = _IOC_SIZE(*cmd);
	if (b->in_len - b->in_pos - sizeof(*cmd) < size)
		return -EPROTO;
	*arg = b->in + b->in_pos + sizeof(*cmd);
	b->in_pos += sizeof(*cmd) + size;
	return 0;
}

/*
 * Reference counting of our own node and loop housekeeping. Returns true
 * when @cmd was handled here.
 */
static bool bx_housekeeping(struct bctx *b, uint32_t cmd, const void *arg)
{
	struct binder_ptr_cookie pc;

	switch (cmd) {
	case BR_NOOP:
		return true;
	case BR_INCREFS:
	case BR_ACQUIRE:
		memcpy(&pc, arg, sizeof(pc));
		bx_cmd(b, cmd == BR_INCREFS ? BC_INCREFS_DONE : BC_ACQUIRE_DONE);
		bx_put(b, &pc, sizeof(pc));
		return true;
	case BR_RELEASE:
	case BR_DECREFS:
		return true;
	}
	return false;
}

static const char *br_name(uint32_t cmd)
{
	switch (cmd) {
	case BR_ERROR: return "BR_ERROR";
	case BR_DEAD_REPLY: return "BR_DEAD_REPLY";
	case BR_FAILED_REPLY: return "BR_FAILED_REPLY";
	case BR_FROZEN_REPLY: return "BR_FROZEN_REPLY";
	case BR_TRANSACTION: return "BR_TRANSACTION";
	case BR_REPLY: return "BR_REPLY";
	case BR_TRANSACTION_COMPLETE: return "BR_TRANSACTION_COMPLETE";
	case BR_SPAWN_LOOPER: return "BR_SPAWN_LOOPER";
	case BR_DEAD_BINDER: return "BR_DEAD_BINDER";
	}
	return "an unexpected return command";
}

/*
 * Wait for BR_TRANSACTION_COMPLETE (oneway, @tr NULL) or for the reply of a
 * synchronous transaction. Returns 0; 1 when the driver failed the
 * transaction (BR_FAILED_REPLY, BR_DEAD_REPLY, BR_FROZEN_REPLY, BR_ERROR); or
 * -1 on anything else. Both describe the problem in @err.
 */
static int bx_wait(struct bctx *b, struct binder_transaction_data *tr,
		   char *err, size_t errlen)
{
	const void *arg;
	uint32_t cmd;
	int ret;

	for (;;) {
		ret = bx_next(b, &cmd, &arg);
		if (ret) {
			snprintf(err, errlen, "BINDER_WRITE_READ: %s", strerror(-ret));
			return -1;
		}
		if (bx_housekeeping(b, cmd, arg))
			continue;
		if (cmd == BR_TRANSACTION_COMPLETE) {
			if (!tr)
				return 0;
			continue;
		}
		if (cmd == BR_REPLY && tr) {
			memcpy(tr, arg, sizeof(*tr));
			if (tr->flags & TF_STATUS_CODE) {
				snprintf(err, errlen, "reply with a status code");
				return -1;
			}
			return 0;
		}
		if (cmd == BR_ERROR) {
			int32_t e;

			memcpy(&e, arg, sizeof(e));
			snprintf(err, errlen, "BR_ERROR %d", e);
			return 1;
		}
		snprintf(err, errlen, "%s (0x%x) while waiting for %s", br_name(cmd), cmd,
			 tr ? "a reply" : "BR_TRANSACTION_COMPLETE");
		return cmd == BR_FAILED_REPLY || cmd == BR_DEAD_REPLY ||
		       cmd == BR_FROZEN_REPLY ? 1 : -1;
	}
}

static int binder_open_map(const char *path, void **map, char *err, size_t errlen)
{
	struct binder_version version = { 0 };
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "open %.200s: %s", path, strerror(errno));
		return -1;
	}
	if (ioctl(fd, BINDER_VERSION, &version) < 0 ||
	    version.protocol_version != BINDER_CURRENT_PROTOCOL_VERSION) {
		snprintf(err, errlen, "%.200s: binder protocol version %d, want %d", path,
			 version.protocol_version, BINDER_CURRENT_PROTOCOL_VERSION);
		close(fd);
		return -1;
	}
	*map = mmap(NULL, BINDER_MAP_SIZE, PROT_READ, MAP_PRIVATE | MAP_NORESERVE, fd, 0);
	if (*map == MAP_FAILED) {
		snprintf(err, errlen, "mmap %.200s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* ---- worker: server side ---- */

struct worker {
	int fd;
	void *map;
	unsigned int id;
	bool client;
	pthread_barrier_t start;
	pthread_barrier_t end;
	_Atomic bool quit;
};

static struct worker wk;

static bool is_client(unsigned int id)
{
	return !opt.pairs || id >= opt.workers / 2;
}

/*
 * Client threads whose calls are timed: all of them, or with --fifo-threads
 * the first F of each client worker; the --nice-threads ones after them are
 * background load that calls until the timed ones are done.
 */
static unsigned int timed_threads(void)
{
	return opt.fifo_threads ? opt.fifo_threads : opt.threads;
}

static bool slot_timed(unsigned int slot)
{
	return slot % opt.threads < timed_threads();
}

static void sleep_us(unsigned int us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static bool slot_valid(uint32_t slot)
{
	return slot < nslots && is_client(slot / opt.threads);
}

/* Check a request; returns false (and counts an error) when it is bad. */
static bool check_request(const struct binder_transaction_data *tr, struct msg_hdr *h)
{
	const uint8_t *data = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;

	if (tr->data_size < sizeof(*h)) {
		worker_error("request of %llu bytes, shorter than its header",
			     (unsigned long long)tr->data_size);
		memset(h, 0, sizeof(*h));
		return false;
	}
	memcpy(h, data, sizeof(*h));
	if (h->magic != MAGIC_REQ || !slot_valid(h->slot) ||
	    (opt.random_size ? h->size > opt.payload : h->size != opt.payload) ||
	    tr->data_size != sizeof(*h) + h->size) {
		worker_error("bad request header (magic 0x%x slot %u seq %u size %u, %llu bytes)",
			     h->magic, h->slot, h->seq, h->size,
			     (unsigned long long)tr->data_size);
		return false;
	}
	if (!check_pattern(data + sizeof(*h), h->size, pattern_key(h))) {
		worker_error("payload pattern mismatch: slot %u seq %u round %u",
			     h->slot, h->seq, h->round);
		return false;
	}
	return true;
}

static void handle_callback(const struct binder_transaction_data *tr)
{
	uint64_t t1 = now_ns();
	struct msg_hdr h;
	uint32_t round = atomic_load(&shm->round);
	uint64_t *sample;

	if (tr->data_size != sizeof(h)) {
		worker_error("callback of %llu bytes", (unsigned long long)tr->data_size);
		return;
	}
	memcpy(&h, (const void *)(uintptr_t)tr->data.ptr.buffer, sizeof(h));
	if (h.magic != MAGIC_CB || h.slot / opt.threads != wk.id || h.slot >= nslots ||
	    h.round != round || h.seq >= opt.iterations || h.status) {
		worker_error("callback does not match a request (magic 0x%x slot %u seq %u round %u status %u)",
			     h.magic, h.slot, h.seq, h.round, h.status);
		return;
	}
	sample = &samples[(size_t)h.slot * opt.iterations + h.seq];
	if (*sample) {
		worker_error("second callback for slot %u seq %u", h.slot, h.seq);
		return;
	}
	*sample = t1 > h.t0 ? t1 - h.t0 : 1;
	slot_complete(h.slot);
}

static void *looper_thread(void *arg);

static void spawn_looper(void)
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_mutex_lock(&spawn_lock);
	if (spawned_loopers + 1 < opt.server_threads) {
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &attr, looper_thread, (void *)(uintptr_t)BC_REGISTER_LOOPER))
			worker_error("cannot start a looper thread");
		else
			spawned_loopers++;
		pthread_attr_destroy(&attr);
	}
	pthread_mutex_unlock(&spawn_lock);
}

/* A server thread: BC_ENTER_LOOPER (the first) or BC_REGISTER_LOOPER. */
static void *looper_thread(void *arg)
{
	struct bctx *b = calloc(1, sizeof(*b));
	struct binder_transaction_data tr;
	struct msg_hdr h, out;
	const void *a;
	uint32_t cmd;
	bool ok;
	int ret;

	if (!b) {
		worker_error("out of memory");
		return NULL;
	}
	if (opt.server_fifo) {
		struct sched_param sp = { .sched_priority = SERVER_FIFO_PRIO };

		ret = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		if (ret)
			worker_error("--server-fifo: SCHED_FIFO priority %d: %s",
				     SERVER_FIFO_PRIO, strerror(ret));
	}
	b->fd = wk.fd;
	bx_cmd(b, (uint32_t)(uintptr_t)arg);
	for (;;) {
		ret = bx_next(b, &cmd, &a);
		if (ret) {
			worker_error("looper: BINDER_WRITE_READ: %s", strerror(-ret));
			break;
		}
		if (bx_housekeeping(b, cmd, a) || cmd == BR_TRANSACTION_COMPLETE)
			continue;
		if (cmd == BR_SPAWN_LOOPER) {
			spawn_looper();
			continue;
		}
		if (opt.faults && (cmd == BR_FAILED_REPLY || cmd == BR_ERROR)) {
			atomic_fetch_add(&shm->failed_txns, 1);
			continue;
		}
		if (cmd != BR_TRANSACTION) {
			worker_error("looper: %s (0x%x)", br_name(cmd), cmd);
			break;
		}
		memcpy(&tr, a, sizeof(tr));
		if (tr.target.ptr != NODE_COOKIE + wk.id) {
			worker_error("transaction for node 0x%llx",
				     (unsigned long long)tr.target.ptr);
			break;
		}
		if (tr.code == CODE_CALLBACK) {
			handle_callback(&tr);
			bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
			continue;
		}
		ok = check_request(&tr, &h);
		out = h;
		out.size = 0;
		out.status = !ok;
		switch (tr.code) {
		case CODE_SYNC:
			out.magic = MAGIC_REPLY;
			bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
			bx_txn(b, BC_REPLY, 0, 0, 0, &out, sizeof(out), NULL, 0);
			/* Send now: the reply must not wait for the next request. */
			ret = bx_talk(b, false);
			if (ret)
				worker_error("reply: BINDER_WRITE_READ: %s", strerror(-ret));
			break;
		case CODE_ONEWAY:
			bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
			if (ok)
				slot_complete(h.slot);
			break;
		case CODE_PIPE:
			bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
			if (!ok)
				break;
			if (h.slot / opt.threads == wk.id) {
				worker_error("pipeline request from our own client %u", h.slot);
				break;
			}
			out.magic = MAGIC_CB;
			bx_txn(b, BC_TRANSACTION, handles[h.slot / opt.threads], CODE_CALLBACK,
			       TF_ONE_WAY, &out, sizeof(out), NULL, 0);
			ret = bx_talk(b, false);
			if (ret)
				worker_error("callback: BINDER_WRITE_READ: %s", strerror(-ret));
			break;
		default:
			worker_error("unknown transaction code %u", tr.code);
			bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
			if (!(tr.flags & TF_ONE_WAY)) {
				out.status = 1;
				bx_txn(b, BC_REPLY, 0, 0, 0, &out, sizeof(out), NULL, 0);
				bx_talk(b, false);
			}
			break;
		}
	}
	free(b);
	return NULL;
}

/* ---- worker: client side ---- */

struct client {
	pthread_t thread;
	unsigned int index;
	unsigned int slot;
	uint64_t rng;
	struct bctx *b;
	uint8_t *msg;
};

/* xorshift64: cheap per-thread randomness */
static uint64_t client_rand(struct client *c)
{
	c->rng ^= c->rng << 13;
	c->rng ^= c->rng >> 7;
	c->rng ^= c->rng << 17;
	return c->rng;
}

static uint32_t client_target(struct client *c)
{
	unsigned int servers = opt.workers / 2, r;

	if (opt.pairs)
		return (wk.id - servers) % servers;
	/* a different other worker each call, as binderThroughputTest picks */
	r = client_rand(c) % (opt.workers - 1);
	return r >= wk.id ? r + 1 : r;
}

/*
 * A transaction the driver failed (bx_wait() returned 1): with --faults it is
 * counted and the round goes on; the call is then complete. Returns false
 * when the failure ends the round.
 */
static bool client_failed(struct client *c, uint32_t seq, uint32_t target, int ret,
			  const char *err)
{
	if (ret == 1 && opt.faults) {
		atomic_fetch_add(&shm->failed_txns, 1);
		return true;
	}
	worker_error("client %u seq %u to worker %u: %s", c->slot, seq, target, err);
	return false;
}

/*
 * One round: opt.iterations calls, or for a background thread (--nice-threads)
 * calls until the timed threads are done. Returns false after an error.
 */
static bool client_round(struct client *c, uint32_t round)
{
	bool background = !slot_timed(c->slot);
	struct msg_hdr *h = (struct msg_hdr *)c->msg, rh;
	uint64_t *out = &samples[(size_t)c->slot * opt.iterations];
	struct binder_transaction_data tr;
	binder_uintptr_t pending = 0;
	uint64_t t0, t1;
	uint32_t seq, target, payload;
	bool sync;
	char err[160];
	int ret;

	atomic_store(&slots[c->slot].done, 0);
	atomic_store(&slots[c->slot].sent, 0);
	atomic_store(&slots[c->slot].calls, 0);
	for (seq = 0; background ? atomic_load(&shm->timed_running) != 0 : seq < opt.iterations;
	     seq++) {
		target = client_target(c);
		if (opt.mode != MODE_SYNC && seq >= opt.window)
			slot_wait(c->slot, seq - opt.window + 1);
		payload = opt.random_size ? client_rand(c) % (opt.payload + 1) : opt.payload;
		sync = opt.mode == MODE_SYNC || (opt.mode == MODE_MIXED && client_rand(c) & 1);
		h->magic = MAGIC_REQ;
		h->slot = c->slot;
		h->seq = seq;
		h->round = round;
		h->size = payload;
		h->status = 0;
		fill_pattern(c->msg + sizeof(*h), payload, pattern_key(h));
		t0 = now_ns();
		h->t0 = t0;
		atomic_store(&slots[c->slot].sent, seq + 1);
		/* Like libbinder, the previous reply's buffer is freed with the next call. */
		if (pending)
			bx_cmd_ptr(c->b, BC_FREE_BUFFER, pending);
		pending = 0;
		if (sync) {
			bx_txn(c->b, BC_TRANSACTION, handles[target], CODE_SYNC, 0,
			       c->msg, sizeof(*h) + payload, NULL, 0);
			ret = bx_wait(c->b, &tr, err, sizeof(err));
			t1 = now_ns();
			if (!background)
				out[seq] = t1 - t0;
			/* mixed: the servers count oneway calls, the client its sync ones */
			if (opt.mode == MODE_MIXED)
				slot_complete(c->slot);
			if (ret) {
				if (client_failed(c, seq, target, ret, err))
					continue;
				return false;
			}
			pending = tr.data.ptr.buffer;
			if (tr.data_size != sizeof(rh)) {
				worker_error("client %u seq %u: reply of %llu bytes", c->slot, seq,
					     (unsigned long long)tr.data_size);
				break;
			}
			memcpy(&rh, (const void *)(uintptr_t)tr.data.ptr.buffer, sizeof(rh));
			if (rh.magic != MAGIC_REPLY || rh.slot != c->slot || rh.seq != seq ||
			    rh.round != round || rh.t0 != t0 || rh.status) {
				worker_error("client %u seq %u: reply does not match (magic 0x%x slot %u seq %u round %u status %u)",
					     c->slot, seq, rh.magic, rh.slot, rh.seq, rh.round,
					     rh.status);
				break;
			}
			/* --fifo-threads: a timed caller pauses between its calls. */
			if (opt.fifo_threads && !background && opt.fifo_sleep_us)
				sleep_us(opt.fifo_sleep_us);
		} else {
			bx_txn(c->b, BC_TRANSACTION, handles[target],
			       opt.mode == MODE_PIPELINE ? CODE_PIPE : CODE_ONEWAY, TF_ONE_WAY,
			       c->msg, sizeof(*h) + payload, NULL, 0);
			ret = bx_wait(c->b, NULL, err, sizeof(err));
			t1 = now_ns();
			if (opt.mode != MODE_PIPELINE)
				out[seq] = t1 - t0;
			if (ret) {
				/* Never delivered: no server will count it. */
				if (client_failed(c, seq, target, ret, err)) {
					slot_complete(c->slot);
					continue;
				}
				return false;
			}
		}
	}
	if (pending) {
		bx_cmd_ptr(c->b, BC_FREE_BUFFER, pending);
		if (bx_talk(c->b, false))
			worker_error("client %u: BC_FREE_BUFFER failed", c->slot);
	}
	atomic_store(&slots[c->slot].calls, seq);
	if (background)
		return true;
	if (seq < opt.iterations)
		return false;
	/* oneway, pipeline, mixed: the round ends when every call is complete. */
	if (opt.mode != MODE_SYNC)
		slot_wait(c->slot, opt.iterations);
	return true;
}

static void *client_thread(void *arg)
{
	struct client *c = arg;
	struct sched_param sp = { .sched_priority = FIFO_PRIO };
	bool fifo = opt.fifo || c->index < opt.fifo_threads;
	int e;

	if (fifo) {
		e = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		if (e)
			worker_error("%s: SCHED_FIFO priority %d: %s",
				     opt.fifo ? "--fifo" : "--fifo-threads", FIFO_PRIO, strerror(e));
	} else if (opt.nice_threads &&
		   setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), opt.nice)) {
		worker_error("--nice-threads: nice %d: %s", opt.nice, strerror(errno));
	}
	for (;;) {
		pthread_barrier_wait(&wk.start);
		if (atomic_load(&wk.quit))
			break;
		client_round(c, atomic_load(&shm->round));
		/* On every path, or the background threads would call forever. */
		if (opt.fifo_threads && slot_timed(c->slot))
			atomic_fetch_sub(&shm->timed_running, 1);
		pthread_barrier_wait(&wk.end);
	}
	return NULL;
}

/* ---- worker: setup and main loop ---- */

static void send_done(int fd, uint32_t kind)
{
	struct done_msg m = {
		.worker = wk.id,
		.kind = kind,
		.errors = atomic_load(&shm->workers[wk.id].errors),
	};

	if (write(fd, &m, sizeof(m)) != sizeof(m))
		_exit(KSFT_FAIL);
}

/* A synchronous transaction to the context manager (handle 0). */
static int call_manager(struct bctx *b, uint32_t code, const void *data, size_t size,
			const binder_size_t *offs, size_t noffs,
			struct binder_transaction_data *reply)
{
	char err[160];

	bx_txn(b, BC_TRANSACTION, 0, code, 0, data, size, offs, noffs);
	if (bx_wait(b, reply, err, sizeof(err))) {
		worker_error("%s: %s", code == CODE_ADD ? "registering" : "fetching handles", err);
		return -1;
	}
	return 0;
}

static int fetch_handles(struct bctx *b)
{
	struct get_msg get = { .magic = MAGIC_GET, .worker = wk.id };
	struct binder_transaction_data tr;
	const struct flat_binder_object *obj;
	const uint32_t *count;
	const uint8_t *data;
	unsigned int j;

	if (call_manager(b, CODE_GET, &get, sizeof(get), NULL, 0, &tr))
		return -1;
	data = (const uint8_t *)(uintptr_t)tr.data.ptr.buffer;
	count = (const uint32_t *)data;
	if (tr.data_size != 8 + opt.workers * sizeof(*obj) || count[0] != MAGIC_GET ||
	    count[1] != opt.workers) {
		worker_error("bad handle list (%llu bytes)", (unsigned long long)tr.data_size);
		return -1;
	}
	obj = (const struct flat_binder_object *)(data + 8);
	for (j = 0; j < opt.workers; j++) {
		if (j == wk.id) {
			/* The driver hands a node back to its owner as the node itself. */
			if (obj[j].hdr.type != BINDER_TYPE_BINDER ||
			    obj[j].binder != NODE_COOKIE + wk.id) {
				worker_error("own entry %u is not our node", j);
				return -1;
			}
			continue;
		}
		if (obj[j].hdr.type != BINDER_TYPE_HANDLE) {
			worker_error("entry %u: object type 0x%x, not a handle", j,
				     obj[j].hdr.type);
			return -1;
		}
		handles[j] = obj[j].handle;
		/* Keep the reference once the buffer that carried it is freed. */
		bx_cmd_u32(b, BC_INCREFS, handles[j]);
		bx_cmd_u32(b, BC_ACQUIRE, handles[j]);
	}
	bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
	return bx_talk(b, false) ? -1 : 0;
}

/*
 * --faults: from here on the kernel's fault injection (failslab,
 * fail_page_alloc with task-filter) may fail this worker's allocations: set
 * make-it-fail on each of its threads. Threads started later inherit it.
 */
static bool arm_faults(void)
{
	char path[PATH_MAX];
	bool ok = true;
	FILE *f;
	glob_t g;
	size_t i;

	if (glob("/proc/self/task/*", GLOB_NOSORT, NULL, &g)) {
		worker_error("--faults: no /proc/self/task");
		return false;
	}
	for (i = 0; i < g.gl_pathc && ok; i++) {
		snprintf(path, sizeof(path), "%s/make-it-fail", g.gl_pathv[i]);
		f = fopen(path, "w");
		if (!f || fputs("1", f) < 0 || fclose(f)) {
			worker_error("--faults: %s: %s", path, strerror(errno));
			ok = false;
		}
	}
	globfree(&g);
	return ok;
}

/*
 * --teardown: tear the worker down under its own threads, at a random time
 * within opt.teardown_ms of its setup: unmap its binder mapping or close its
 * binder fd while they transact, give them a moment to trip over it, exit.
 */
static void *teardown_thread(void *arg)
{
	uint64_t r = now_ns() ^ ((uint64_t)wk.id << 32);
	struct timespec ts;
	long ms;

	(void)arg;
	r ^= r << 13;
	r ^= r >> 7;
	r ^= r << 17;
	ms = r % opt.teardown_ms;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = ms % 1000 * 1000000L;
	nanosleep(&ts, NULL);
	if (r & (1ULL << 40)) {
		say("worker %u: teardown: munmap of the binder mapping after %ld ms", wk.id, ms);
		munmap(wk.map, BINDER_MAP_SIZE);
	} else {
		say("worker %u: teardown: close of the binder fd after %ld ms", wk.id, ms);
		close(wk.fd);
	}
	ts.tv_sec = 0;
	ts.tv_nsec = 200 * 1000000L;
	nanosleep(&ts, NULL);
	_exit(KSFT_FAIL);
}

static void __noreturn worker_main(unsigned int id, int ctl, int done_wr)
{
	struct add_msg add = { .magic = MAGIC_ADD, .worker = id };
	binder_size_t add_off = offsetof(struct add_msg, obj);
	struct binder_transaction_data tr;
	struct client *clients = NULL;
	uint32_t max_threads = opt.server_threads - 1;
	pthread_attr_t attr;
	pthread_t looper;
	struct bctx *b;
	char err[256];
	unsigned int t;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent_pid)
		_exit(KSFT_FAIL);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGHUP, SIG_IGN);
	self_id = id;
	wk.id = id;
	wk.client = is_client(id);

	b = calloc(1, sizeof(*b));
	if (!b)
		_exit(KSFT_FAIL);
	wk.fd = binder_open_map(device_path, &wk.map, err, sizeof(err));
	if (wk.fd < 0) {
		worker_error("%s", err);
		goto fail;
	}
	b->fd = wk.fd;
	if (ioctl(wk.fd, BINDER_SET_MAX_THREADS, &max_threads) < 0) {
		worker_error("BINDER_SET_MAX_THREADS %u: %s", max_threads, strerror(errno));
		goto fail;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&looper, &attr, looper_thread, (void *)(uintptr_t)BC_ENTER_LOOPER)) {
		worker_error("cannot start the looper thread");
		goto fail;
	}

	add.obj.hdr.type = BINDER_TYPE_BINDER;
	add.obj.binder = NODE_COOKIE + id;
	add.obj.cookie = NODE_COOKIE + id;
	if (call_manager(b, CODE_ADD, &add, sizeof(add), &add_off, 1, &tr))
		goto fail;
	bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
	if (bx_talk(b, false))
		goto fail;

	/* The parent says 'G' once every worker has registered. */
	if (read(ctl, &c, 1) != 1 || c != 'G')
		_exit(KSFT_FAIL);
	if (fetch_handles(b))
		goto fail;

	if (wk.client) {
		pthread_barrier_init(&wk.start, NULL, opt.threads + 1);
		pthread_barrier_init(&wk.end, NULL, opt.threads + 1);
		clients = calloc(opt.threads, sizeof(*clients));
		if (!clients)
			goto fail;
		for (t = 0; t < opt.threads; t++) {
			clients[t].index = t;
			clients[t].slot = id * opt.threads + t;
			clients[t].rng = 0x9e3779b97f4a7c15ULL * (clients[t].slot + 1);
			clients[t].b = calloc(1, sizeof(*clients[t].b));
			clients[t].msg = calloc(1, sizeof(struct msg_hdr) + opt.payload);
			if (!clients[t].b || !clients[t].msg)
				goto fail;
			clients[t].b->fd = wk.fd;
			if (pthread_create(&clients[t].thread, NULL, client_thread, &clients[t])) {
				worker_error("cannot start client thread %u", t);
				goto fail;
			}
		}
	}
	if (opt.faults && !arm_faults())
		goto fail;
	if (opt.teardown_ms && pthread_create(&looper, &attr, teardown_thread, NULL)) {
		worker_error("cannot start the teardown thread");
		goto fail;
	}
	send_done(done_wr, MSG_READY);

	/* 'R': run a round; 'Q' or the parent gone: exit. */
	while (read(ctl, &c, 1) == 1 && c == 'R') {
		if (wk.client) {
			pthread_barrier_wait(&wk.start);
			pthread_barrier_wait(&wk.end);
		}
		send_done(done_wr, MSG_ROUND);
	}
	_exit(KSFT_PASS);
fail:
	send_done(done_wr, MSG_READY);
	_exit(KSFT_FAIL);
}

/* ---- parent: cleanup, signals, children ---- */

static void trace_stop(void);
static void stop_pressure(void);
static void stop_hogs(void);

/* Kill and reap every child, remove what we created. Safe to call twice. */
static void cleanup(void)
{
	unsigned int i;

	for (i = 0; i < opt.workers; i++)
		if (worker_pids[i] > 0)
			kill(worker_pids[i], SIGKILL);
	stop_pressure();
	stop_hogs();
	for (i = 0; i < opt.workers; i++)
		if (worker_pids[i] > 0 && waitpid(worker_pids[i], NULL, 0) == worker_pids[i])
			worker_pids[i] = 0;
	trace_stop();
	if (mounted && !umount2(mount_dir, MNT_DETACH))
		mounted = false;
	if (mount_dir[0] && !mounted && !rmdir(mount_dir))
		mount_dir[0] = 0;
}

/*
 * A run that times out or is interrupted: the clients that are waiting for
 * completions (oneway, pipeline, mixed), before the workers are gone.
 */
static void stuck_slots(void)
{
	unsigned int s, shown = 0;
	uint32_t sent, done;

	if (!slots || opt.mode == MODE_SYNC)
		return;
	for (s = 0; s < nslots && shown < 8; s++) {
		sent = atomic_load(&slots[s].sent);
		done = atomic_load(&slots[s].done);
		if (!sent || done >= sent)
			continue;
		say("client %u: %u calls sent this round, %u complete", s, sent, done);
		shown++;
	}
}

static void __noreturn finish(int code, const char *reason)
{
	if (stop_signal)
		stuck_slots();
	cleanup();
	if (code == KSFT_PASS) {
		printf("ok 1 " PROG "\n");
	} else if (code == KSFT_SKIP) {
		printf("ok 1 " PROG " # SKIP %s\n", reason);
	} else {
		printf("# error: %s\n", reason);
		printf("not ok 1 " PROG "\n");
	}
	fflush(stdout);
	exit(code);
}

static void __noreturn __printf(1, 2) fail(const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	finish(KSFT_FAIL, reason);
}

static void on_signal(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: blocking calls return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Fail on a signal, the timeout, a child that died or a worker that reported an error. */
static void check_health(void)
{
	unsigned int i;
	int status;
	pid_t pid;

	if (stop_signal == SIGALRM)
		fail("timed out after %u s (--timeout)", opt.timeout);
	if (stop_signal)
		fail("interrupted by signal %d (%s)", stop_signal, strsignal(stop_signal));
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == pressure_pid) {
			pressure_pid = 0;
			fail("the drop_caches helper exited%s%s", shm->pressure_errno ? ": " : "",
			     shm->pressure_errno ? strerror(shm->pressure_errno) : "");
		}
		for (i = 0; i < opt.hogs; i++) {
			if (hog_pids[i] != pid)
				continue;
			hog_pids[i] = 0;
			fail("CPU hog %u exited%s%s", i, shm->hog_errno ? ": " : "",
			     shm->hog_errno ? strerror(shm->hog_errno) : "");
		}
		for (i = 0; i < opt.workers; i++) {
			if (worker_pids[i] != pid)
				continue;
			worker_pids[i] = 0;
			if (WIFSIGNALED(status))
				fail("worker %u (pid %d) killed by signal %d", i, pid,
				     WTERMSIG(status));
			fail("worker %u (pid %d) exited with %d", i, pid, WEXITSTATUS(status));
		}
	}
	for (i = 0; i < opt.workers; i++)
		if (atomic_load(&shm->workers[i].errors))
			fail("worker %u reported %u errors", i,
			     atomic_load(&shm->workers[i].errors));
}

/* ---- parent: binderfs and the context manager ---- */

static void setup_binderfs(void)
{
	struct binderfs_device dev;
	char ctl[sizeof(mount_dir) + 32];
	int fd;

	if (geteuid() != 0)
		finish(KSFT_SKIP, "not running as root");
	if (unshare(CLONE_NEWNS))
		fail("unshare(CLONE_NEWNS): %s", strerror(errno));
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		fail("making / private: %s", strerror(errno));
	snprintf(mount_dir, sizeof(mount_dir), "/tmp/" PROG "_XXXXXX");
	if (!mkdtemp(mount_dir)) {
		mount_dir[0] = 0;
		fail("mkdtemp in /tmp: %s", strerror(errno));
	}
	if (mount(NULL, mount_dir, "binder", 0, NULL)) {
		if (errno == ENODEV)
			finish(KSFT_SKIP, "no binderfs (CONFIG_ANDROID_BINDERFS and CONFIG_ANDROID_BINDER_IPC, or binder_linux.ko)");
		fail("mounting binderfs on %s: %s", mount_dir, strerror(errno));
	}
	mounted = true;
	snprintf(ctl, sizeof(ctl), "%s/binder-control", mount_dir);
	fd = open(ctl, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail("open %s: %s", ctl, strerror(errno));
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name), "bt%d", (int)getpid());
	if (ioctl(fd, BINDER_CTL_ADD, &dev))
		fail("BINDER_CTL_ADD %s: %s", dev.name, strerror(errno));
	close(fd);
	snprintf(device_path, sizeof(device_path), "%s/%.32s", mount_dir, dev.name);
}

/* Wait (interruptibly) until the binder fd has work for us. */
static void wait_binder(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		check_health();
		if (poll(&p, 1, 100) > 0)
			return;
	}
}

/* Serve one CODE_ADD or CODE_GET; returns the code. */
static uint32_t manager_serve(struct bctx *b, uint32_t *ref_handles, bool *have,
			      void *get_reply, binder_size_t *get_offs)
{
	struct binder_transaction_data tr;
	const void *arg;
	struct add_msg add;
	struct get_msg get;
	uint32_t cmd;
	size_t reply_size = 8 + opt.workers * sizeof(struct flat_binder_object);
	int ret;

	for (;;) {
		if (b->in_pos >= b->in_len)
			wait_binder(b->fd);
		ret = bx_next(b, &cmd, &arg);
		if (ret)
			fail("context manager: BINDER_WRITE_READ: %s", strerror(-ret));
		if (bx_housekeeping(b, cmd, arg) || cmd == BR_TRANSACTION_COMPLETE)
			continue;
		if (cmd != BR_TRANSACTION)
			fail("context manager: %s (0x%x)", br_name(cmd), cmd);
		break;
	}
	memcpy(&tr, arg, sizeof(tr));
	if (tr.code == CODE_ADD && tr.data_size == sizeof(add) &&
	    tr.offsets_size == sizeof(binder_size_t)) {
		memcpy(&add, (const void *)(uintptr_t)tr.data.ptr.buffer, sizeof(add));
		if (add.magic != MAGIC_ADD || add.worker >= opt.workers || have[add.worker] ||
		    add.obj.hdr.type != BINDER_TYPE_HANDLE ||
		    tr.sender_pid != worker_pids[add.worker])
			fail("context manager: bad registration (worker %u, pid %d)",
			     add.worker, tr.sender_pid);
		ref_handles[add.worker] = add.obj.handle;
		have[add.worker] = true;
		bx_cmd_u32(b, BC_INCREFS, add.obj.handle);
		bx_cmd_u32(b, BC_ACQUIRE, add.obj.handle);
		bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
		bx_txn(b, BC_REPLY, 0, 0, 0, NULL, 0, NULL, 0);
	} else if (tr.code == CODE_GET && tr.data_size == sizeof(get)) {
		memcpy(&get, (const void *)(uintptr_t)tr.data.ptr.buffer, sizeof(get));
		if (get.magic != MAGIC_GET || get.worker >= opt.workers)
			fail("context manager: bad handle request");
		bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
		bx_txn(b, BC_REPLY, 0, 0, 0, get_reply, reply_size, get_offs, opt.workers);
	} else {
		fail("context manager: unexpected transaction code %u (%llu bytes)", tr.code,
		     (unsigned long long)tr.data_size);
	}
	ret = bx_talk(b, false);
	if (ret)
		fail("context manager: reply: %s", strerror(-ret));
	return tr.code;
}

static void write_ctl(char c)
{
	unsigned int i;

	for (i = 0; i < opt.workers; i++)
		if (write(ctl_fds[i], &c, 1) != 1)
			fail("control pipe of worker %u: %s", i, strerror(errno));
}

/* Wait for one message from every worker; @tick runs every 50 ms meanwhile. */
static void wait_workers(uint32_t kind, void (*tick)(void))
{
	struct pollfd p = { .fd = done_rd, .events = POLLIN };
	struct done_msg m;
	unsigned int got = 0;
	ssize_t n;

	while (got < opt.workers) {
		check_health();
		if (poll(&p, 1, 50) <= 0) {
			if (tick)
				tick();
			continue;
		}
		n = read(done_rd, &m, sizeof(m));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(m))
			fail("status pipe: short read");
		if (m.kind != kind || m.worker >= opt.workers)
			fail("worker %u: out-of-step status message %u", m.worker, m.kind);
		if (m.errors)
			fail("worker %u reported %u errors", m.worker, m.errors);
		got++;
	}
	check_health();
}

static void start_workers(void)
{
	size_t reply_size = 8 + opt.workers * sizeof(struct flat_binder_object);
	uint32_t ref_handles[MAX_WORKERS];
	bool have[MAX_WORKERS] = { false };
	struct flat_binder_object *obj;
	binder_size_t *offs;
	unsigned int i, adds = 0, gets = 0;
	int ctl[2], done[2];
	struct bctx *b;
	uint32_t *get_reply;
	void *map;
	char err[256];
	pid_t pid;

	b = calloc(1, sizeof(*b));
	get_reply = calloc(1, reply_size);
	offs = calloc(opt.workers, sizeof(*offs));
	if (!b || !get_reply || !offs)
		fail("out of memory");
	b->fd = binder_open_map(device_path, &map, err, sizeof(err));
	if (b->fd < 0)
		fail("%s", err);
	if (ioctl(b->fd, BINDER_SET_CONTEXT_MGR, 0) < 0)
		fail("BINDER_SET_CONTEXT_MGR: %s", strerror(errno));
	bx_cmd(b, BC_ENTER_LOOPER);
	if (bx_talk(b, false))
		fail("BC_ENTER_LOOPER: %s", strerror(errno));

	if (pipe2(done, O_CLOEXEC))
		fail("pipe: %s", strerror(errno));
	done_rd = done[0];
	fflush(stdout);
	for (i = 0; i < opt.workers; i++) {
		if (pipe2(ctl, O_CLOEXEC))
			fail("pipe: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			fail("fork: %s", strerror(errno));
		if (!pid) {
			unsigned int j;

			close(ctl[1]);
			close(done[0]);
			close(b->fd);
			for (j = 0; j < i; j++)
				close(ctl_fds[j]);
			worker_main(i, ctl[0], done[1]);
		}
		close(ctl[0]);
		ctl_fds[i] = ctl[1];
		worker_pids[i] = pid;
		say("Created BinderWorker%u (pid %d)", i, pid);
	}
	close(done[1]);

	while (adds < opt.workers)
		adds += manager_serve(b, ref_handles, have, NULL, NULL) == CODE_ADD;
	get_reply[0] = MAGIC_GET;
	get_reply[1] = opt.workers;
	obj = (struct flat_binder_object *)(get_reply + 2);
	for (i = 0; i < opt.workers; i++) {
		obj[i].hdr.type = BINDER_TYPE_HANDLE;
		obj[i].handle = ref_handles[i];
		offs[i] = 8 + i * sizeof(*obj);
	}
	write_ctl('G');
	while (gets < opt.workers)
		gets += manager_serve(b, ref_handles, have, get_reply, offs) == CODE_GET;
	wait_workers(MSG_READY, NULL);
	free(get_reply);
	free(offs);
}

/* ---- parent: measurements of the system ---- */

/*
 * Pages reclaimed by binder's shrinker: binder_alloc_free_page() fires
 * binder:binder_unmap_kernel_end once per page it takes away, and nothing
 * else does. Per CPU, a trace buffer's entries plus overrun (events
 * overwritten) count the events it took.
 *
 * When the event is already on in the top-level buffer (trace_event= on the
 * kernel command line, or enabled by the test plan while the system was
 * idle), the count is the difference over the run, for every binder process.
 * Otherwise a private tracefs instance records the event for our workers
 * only. Turning a tracepoint on or off patches kernel text (int3 and
 * text_poke): under QEMU TCG doing that while the site runs on another CPU
 * has oopsed ("Oops: int3" in ttwu_do_activate, from the sched_wakeup probe
 * that record-cmd adds), hence the boot-time option, and record-cmd and
 * record-tgid off in the instance.
 */
/*
 * The event's system is "binder" for the in-tree driver (binder_linux) and
 * "binder_alloc_split" for the out-of-tree module of this project.
 */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
static const char * const unmap_events[] = {
	"events/binder/binder_unmap_kernel_end",
	"events/binder_alloc_split/binder_unmap_kernel_end",
};
static const char *unmap_event;

static bool trace_global;
static long trace_base;

static bool write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok;
}

static bool read_is_one(const char *path)
{
	char c = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == '1';
}

static long trace_events(const char *dir)
{
	char pattern[PATH_MAX + 32], line[128];
	long total = 0, v;
	glob_t g;
	size_t i;
	FILE *fp;

	snprintf(pattern, sizeof(pattern), "%s/per_cpu/cpu*/stats", dir);
	if (glob(pattern, 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc; i++) {
		fp = fopen(g.gl_pathv[i], "re");
		if (!fp)
			continue;
		while (fgets(line, sizeof(line), fp))
			if (sscanf(line, "entries: %ld", &v) == 1 ||
			    sscanf(line, "overrun: %ld", &v) == 1)
				total += v;
		fclose(fp);
	}
	globfree(&g);
	return total;
}

static const char *trace_start(void)
{
	static const char * const bases[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[PATH_MAX + 64], filter[MAX_WORKERS * 24], *f = filter;
	unsigned int i, e;

	for (i = 0; i < 2; i++) {
		for (e = 0; e < ARRAY_SIZE(unmap_events); e++) {
			snprintf(path, sizeof(path), "%s/%s/enable", bases[i], unmap_events[e]);
			if (!access(path, F_OK))
				break;
		}
		if (e < ARRAY_SIZE(unmap_events))
			break;
	}
	if (i == 2)
		return "no binder tracepoints in tracefs";
	unmap_event = unmap_events[e];
	if (read_is_one(path)) {
		snprintf(trace_dir, sizeof(trace_dir), "%s", bases[i]);
		trace_global = true;
		trace_base = trace_events(trace_dir);
		if (trace_base < 0) {
			trace_dir[0] = 0;
			return "cannot read the per-CPU trace buffer stats";
		}
		return NULL;
	}
	snprintf(trace_dir, sizeof(trace_dir), "%s/instances/" PROG "_%d", bases[i], (int)getpid());
	if (mkdir(trace_dir, 0700)) {
		trace_dir[0] = 0;
		return "cannot create a tracefs instance";
	}
	snprintf(path, sizeof(path), "%s/options/record-cmd", trace_dir);
	write_str(path, "0");
	snprintf(path, sizeof(path), "%s/options/record-tgid", trace_dir);
	write_str(path, "0");
	for (i = 0; i < opt.workers; i++)
		f += sprintf(f, "%sproc == %d", i ? " || " : "", (int)worker_pids[i]);
	snprintf(path, sizeof(path), "%s/%s/filter", trace_dir, unmap_event);
	if (!write_str(path, filter))
		return "cannot set the event filter";
	snprintf(path, sizeof(path), "%s/%s/enable", trace_dir, unmap_event);
	if (!write_str(path, "1"))
		return "cannot enable binder_unmap_kernel_end";
	return NULL;
}

/* Events recorded since trace_start(), or -1. */
static long trace_count(void)
{
	long n;

	if (!trace_dir[0])
		return -1;
	n = trace_events(trace_dir);
	return n < 0 ? -1 : n - trace_base;
}

static const char *trace_source(void)
{
	return trace_global ? "boot-enabled, all binder processes" : "tracefs instance, workers";
}

static void trace_stop(void)
{
	char path[PATH_MAX + 64];

	if (!trace_dir[0] || trace_global)
		return;
	snprintf(path, sizeof(path), "%s/%s/enable", trace_dir, unmap_event);
	write_str(path, "0");
	if (!rmdir(trace_dir))
		trace_dir[0] = 0;
}

/*
 * Binder memory of the workers from debugfs: the stats file has a section
 * per binder_proc ("proc PID") with "pages: active:lru:free" and
 * "pages high watermark: N". Installed pages are active + lru.
 */
#define BINDER_STATS "/sys/kernel/debug/binder/stats"
static long mem_peak = -1, mem_high = -1;

static bool is_worker_pid(int pid)
{
	unsigned int i;

	for (i = 0; i < opt.workers; i++)
		if (worker_pids[i] == pid)
			return true;
	return false;
}

static void sample_memory(void)
{
	long installed = 0, high = 0, a, l, f, h;
	bool ours = false, seen = false;
	char line[256];
	FILE *fp;
	int pid;

	fp = fopen(BINDER_STATS, "re");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "proc %d", &pid) == 1) {
			ours = is_worker_pid(pid);
		} else if (!ours) {
			continue;
		} else if (sscanf(line, " pages: %ld:%ld:%ld", &a, &l, &f) == 3) {
			installed += a + l;
			seen = true;
		} else if (sscanf(line, " pages high watermark: %ld", &h) == 1) {
			high += h;
		}
	}
	fclose(fp);
	if (!seen)
		return;
	if (installed > mem_peak)
		mem_peak = installed;
	if (high > mem_high)
		mem_high = high;
}

struct cpu_times {
	unsigned long long user, system, idle, total;
};

static bool read_cpu(struct cpu_times *c)
{
	unsigned long long v[8] = { 0 };
	FILE *fp = fopen("/proc/stat", "re");
	int n;

	if (!fp)
		return false;
	n = fscanf(fp, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(fp);
	if (n < 4)
		return false;
	c->user = v[0] + v[1];
	c->system = v[2] + v[5] + v[6];
	c->idle = v[3] + v[4];
	c->total = c->user + c->system + c->idle + v[7];
	return true;
}

/* --pressure: a child writes 2 to drop_caches in a loop. */
static void start_pressure(void)
{
	struct timespec ts = {
		.tv_sec = opt.pressure_ms / 1000,
		.tv_nsec = (opt.pressure_ms % 1000) * 1000000L,
	};
	pid_t pid;
	int fd;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid) {
		pressure_pid = pid;
		return;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent_pid)
		_exit(KSFT_FAIL);
	signal(SIGINT, SIG_IGN);
	for (;;) {
		fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "2", 1) != 1) {
			shm->pressure_errno = errno;
			_exit(KSFT_FAIL);
		}
		close(fd);
		atomic_fetch_add(&shm->pressure_writes, 1);
		if (opt.pressure_ms)
			nanosleep(&ts, NULL);
	}
}

static void stop_pressure(void)
{
	if (pressure_pid <= 0)
		return;
	kill(pressure_pid, SIGKILL);
	waitpid(pressure_pid, NULL, 0);
	pressure_pid = 0;
}

/*
 * --hogs: H children that spin during the measured rounds, at nice 0 or
 * SCHED_FIFO below the clients, so that lower-priority callers get preempted.
 */
static void start_hogs(void)
{
	struct sched_param sp = { .sched_priority = (int)opt.hog_prio };
	volatile unsigned long spin = 0;
	unsigned int i;
	pid_t pid;

	fflush(stdout);
	for (i = 0; i < opt.hogs; i++) {
		pid = fork();
		if (pid < 0)
			fail("fork: %s", strerror(errno));
		if (pid) {
			hog_pids[i] = pid;
			continue;
		}
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent_pid)
			_exit(KSFT_FAIL);
		signal(SIGINT, SIG_IGN);
		if (opt.hog_prio && sched_setscheduler(0, SCHED_FIFO, &sp)) {
			shm->hog_errno = errno;
			_exit(KSFT_FAIL);
		}
		for (;;)
			spin++;
	}
}

static void stop_hogs(void)
{
	unsigned int i;

	for (i = 0; i < opt.hogs; i++)
		if (hog_pids[i] > 0)
			kill(hog_pids[i], SIGKILL);
	for (i = 0; i < opt.hogs; i++)
		if (hog_pids[i] > 0 && waitpid(hog_pids[i], NULL, 0) == hog_pids[i])
			hog_pids[i] = 0;
}

/* ---- parent: rounds and results ---- */

enum round_kind { ROUND_TRAINING, ROUND_WARMUP, ROUND_MEASURED };

struct round_result {
	uint64_t ns;
	size_t n;
	struct stats_summary s;
};

static uint64_t *all_samples;	/* measured rounds, in the order taken */
static size_t all_n;
static unsigned long long background_calls;	/* --nice-threads, measured rounds */
static struct round_result *results;

static size_t samples_per_round(void)
{
	unsigned int clients = opt.pairs ? opt.workers - opt.workers / 2 : opt.workers;

	return (size_t)clients * timed_threads() * opt.iterations;
}

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
	if (!opt.mem_stats || opt.fifo_threads || t - last < MEM_SAMPLE_NS)
		return;
	last = t;
	sample_memory();
}

/* Run one round; its samples (sorted) go to @out. Returns the wall time. */
static uint64_t run_round(enum round_kind kind, uint32_t round, uint64_t *out)
{
	size_t per_slot = opt.iterations, n = 0;
	uint64_t t0, t1;
	unsigned int s;

	atomic_store(&shm->round, round);
	memset(samples, 0, (size_t)nslots * per_slot * sizeof(*samples));
	for (s = 0, n = 0; s < nslots; s++)
		if (is_client(s / opt.threads) && slot_timed(s))
			n++;
	atomic_store(&shm->timed_running, (uint32_t)n);
	n = 0;
	t0 = now_ns();
	write_ctl('R');
	wait_workers(MSG_ROUND, kind == ROUND_MEASURED ? tick_measured : NULL);
	t1 = now_ns();
	for (s = 0; s < nslots; s++) {
		if (!is_client(s / opt.threads))
			continue;
		if (!slot_timed(s)) {
			if (kind == ROUND_MEASURED)
				background_calls += atomic_load(&slots[s].calls);
			continue;
		}
		memcpy(out + n, samples + (size_t)s * per_slot, per_slot * sizeof(*out));
		n += per_slot;
	}
	for (s = 0; s < n; s++)
		if (!out[s])
			fail("round %u: a transaction left no sample", round);
	return t1 - t0;
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

static void print_summary(const char *prefix, const struct stats_summary *s)
{
	say("%saverage: %.3fms worst: %.3fms best: %.3fms", prefix, s->mean / 1e6, ms(s->max),
	    ms(s->min));
	say("%s50%%: %.3f 90%%: %.3f 95%%: %.3f 99%%: %.3f", prefix, ms(s->p50), ms(s->p90),
	    ms(s->p95), ms(s->p99));
}

static void write_json(const struct stats_summary *s, double rate, double cpu_busy,
		       long reclaimed, size_t over1, size_t over10, bool ok)
{
	unsigned int r;

	fprintf(json_fp, "{\n  \"mode\": \"%s\",\n  \"workers\": %u,\n  \"iterations\": %u,\n"
		"  \"payload\": %u,\n  \"pairs\": %s,\n  \"threads\": %u,\n"
		"  \"server_threads\": %u,\n  \"window\": %u,\n  \"warmup\": %u,\n"
		"  \"fifo\": %s,\n  \"fifo_threads\": %u,\n  \"fifo_sleep_us\": %u,\n"
		"  \"nice_threads\": %u,\n  \"nice\": %d,\n  \"server_fifo\": %s,\n"
		"  \"hogs\": %u,\n  \"hog_fifo_prio\": %u,\n"
		"  \"pressure_ms\": %d,\n  \"rounds\": [",
		mode_names[opt.mode], opt.workers, opt.iterations, opt.payload,
		opt.pairs ? "true" : "false", opt.threads, opt.server_threads, opt.window,
		opt.warmup, opt.fifo ? "true" : "false", opt.fifo_threads,
		opt.fifo_threads ? opt.fifo_sleep_us : 0, opt.nice_threads, opt.nice,
		opt.server_fifo ? "true" : "false", opt.hogs, opt.hog_prio,
		opt.pressure ? (int)opt.pressure_ms : -1);
	for (r = 0; r < opt.rounds; r++)
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
		"  \"enomem_retries\": %llu,\n  \"result\": \"%s\"\n}\n",
		s->n, rate, s->mean / 1e6, ms(s->max), ms(s->min), ms(s->p50), ms(s->p90),
		ms(s->p95), ms(s->p99), ms(s->p999), over1, over10, background_calls, cpu_busy,
		mem_peak, mem_high, reclaimed,
		atomic_load(&shm->pressure_writes),
		(unsigned long long)atomic_load(&shm->failed_txns),
		(unsigned long long)atomic_load(&shm->enomem), ok ? "ok" : "fail");
	if (fclose(json_fp))
		fail("--json: write failed: %s", strerror(errno));
	json_fp = NULL;
}

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

		if (!seen[i] && (m == 'a' || (m == 'f' && opt.alloc_fifo) ||
				 (m == 'c' && opt.alloc_cold)))
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
	if (threads != opt.alloc_threads || (opt.alloc_fifo && !nfs))
		fail("%s: %u kthreads%s, expected %u%s", ALLOC_SAMPLES_PATH, threads,
		     nfs ? " and a SCHED_FIFO one" : "", opt.alloc_threads,
		     opt.alloc_fifo ? " and a SCHED_FIFO one" : "");
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
	unsigned int i;

	fprintf(json_fp, "{\n  \"mode\": \"alloc\",\n  \"threads\": %u,\n  \"ms\": %u,\n"
		"  \"max_bytes\": %u,\n  \"shrink\": %s,\n  \"fifo\": %s,\n  \"cold\": %s,\n"
		"  \"hogs\": %u,\n  \"ops\": %llu,\n  \"seconds\": %.6f,\n"
		"  \"ops_per_sec\": %.1f,\n  \"errors\": %llu,\n"
		"  \"p50_ns\": %llu,\n  \"p90_ns\": %llu,\n  \"p99_ns\": %llu,\n"
		"  \"max_ns\": %llu,\n  \"shrinker_walks\": %llu,\n  \"pages_freed\": %llu,\n",
		opt.alloc_threads, opt.alloc_ms, opt.alloc_max,
		opt.alloc_shrink ? "true" : "false", opt.alloc_fifo ? "true" : "false",
		opt.alloc_cold ? "true" : "false", opt.hogs, v[AF_OPS], v[AF_NS] / 1e9,
		v[AF_OPS] * 1e9 / v[AF_NS], v[AF_ERRORS], v[AF_P50], v[AF_P90], v[AF_P99],
		v[AF_MAX], v[AF_WALKS], v[AF_FREED]);
	fprintf(json_fp, "  \"thread_ops\": [%s],\n", thread_ops);
	for (i = AF_SKIP_MMGET; i <= AF_SKIP_LOCK; i++)
		fprintf(json_fp, "  \"%s\": %llu,\n", alloc_fields[i].key, v[i]);
	if (opt.alloc_fifo)
		for (i = AF_FIFO_OPS; i <= AF_FIFO_OVER_1MS; i++)
			fprintf(json_fp, "  \"%s\": %llu,\n", alloc_fields[i].key, v[i]);
	if (opt.alloc_cold)
		fprintf(json_fp, "  \"cold_rounds\": %llu,\n  \"alloc_seconds\": %.6f,\n"
			"  \"installs\": %llu,\n  \"installs_per_sec\": %.1f,\n",
			v[AF_ROUNDS], v[AF_ALLOC_NS] / 1e9, v[AF_INSTALLS],
			v[AF_ALLOC_NS] ? v[AF_INSTALLS] * 1e9 / v[AF_ALLOC_NS] : 0.0);
	fprintf(json_fp, "  \"result\": \"%s\"\n}\n", v[AF_ERRORS] ? "fail" : "ok");
	if (fclose(json_fp))
		fail("--json: write failed: %s", strerror(errno));
	json_fp = NULL;
}

static void alloc_bench(void)
{
	unsigned long long v[AF_NR] = { 0 };
	char cmd[160], res[640], err[256], thread_ops[8 * 24];
	void *map;
	ssize_t n;
	int fd, dfd;

	fd = binder_open_map(device_path, &map, err, sizeof(err));
	if (fd < 0)
		fail("%s", err);
	dfd = open(ALLOC_BENCH_PATH, O_RDWR | O_CLOEXEC);
	if (dfd < 0) {
		if (errno == ENOENT)
			finish(KSFT_SKIP, "no " ALLOC_BENCH_PATH " (debugfs, and a module built for make bench)");
		fail("open %s: %s", ALLOC_BENCH_PATH, strerror(errno));
	}
	snprintf(cmd, sizeof(cmd), "fd=%d threads=%u ms=%u max=%u shrink=%d fifo=%d cold=%d",
		 fd, opt.alloc_threads, opt.alloc_ms, opt.alloc_max, opt.alloc_shrink,
		 opt.alloc_fifo, opt.alloc_cold);
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
	if (opt.alloc_fifo)
		say("SCHED_FIFO kthread: %llu ops; 50%%: %llu ns 99%%: %llu ns 99.9%%: %llu ns max: %llu ns; %llu over 1 ms",
		    v[AF_FIFO_OPS], v[AF_FIFO_P50], v[AF_FIFO_P99], v[AF_FIFO_P999],
		    v[AF_FIFO_MAX], v[AF_FIFO_OVER_1MS]);
	if (opt.alloc_cold)
		say("first-touch: %llu rounds, %llu pages installed in %.3f s of allocation (%.1f installs/s)",
		    v[AF_ROUNDS], v[AF_INSTALLS], v[AF_ALLOC_NS] / 1e9,
		    v[AF_ALLOC_NS] ? v[AF_INSTALLS] * 1e9 / v[AF_ALLOC_NS] : 0.0);
	if (json_fp)
		alloc_json(v, thread_ops);
	if (v[AF_ERRORS])
		fail("%llu allocations or writes failed", v[AF_ERRORS]);
	if (!v[AF_OPS])
		fail("no allocation completed in %u ms", opt.alloc_ms);
	if (opt.alloc_fifo && !v[AF_FIFO_OPS])
		fail("the SCHED_FIFO kthread completed no op in %u ms", opt.alloc_ms);
	if (opt.alloc_cold && !v[AF_INSTALLS])
		fail("no page was installed in %u ms", opt.alloc_ms);
}

static void run(void)
{
	size_t per_round = samples_per_round();
	uint64_t *train, total_ns = 0, max_ns = opt.max_latency_us * 1000ULL;
	size_t hist[STATS_HIST_BUCKETS], over, over1, over10, i;
	struct cpu_times c0, c1;
	struct stats_summary s;
	const char *trace_err;
	double rate, busy = -1;
	bool have_cpu;
	long reclaimed;
	unsigned int r;
	char line[512];
	int len;

	all_samples = malloc(per_round * opt.rounds * sizeof(*all_samples));
	train = malloc(per_round * sizeof(*train));
	results = calloc(opt.rounds, sizeof(*results));
	if (!all_samples || !train || !results)
		fail("out of memory for %zu samples", per_round * (opt.rounds + 1));

	trace_err = trace_start();
	if (opt.training) {
		say("Start training round");
		run_round(ROUND_TRAINING, 0, train);
		stats_sort(train, per_round);
		max_ns = 2 * train[per_round - 1];
		say("Max latency during training: %.3fms", ms(train[per_round - 1]));
		say("Completed training round");
	}
	for (r = 0; r < opt.warmup; r++) {
		run_round(ROUND_WARMUP, 1 + r, train);
		say("warmup %u/%u done", r + 1, opt.warmup);
	}
	if (opt.pressure)
		start_pressure();
	start_hogs();
	have_cpu = read_cpu(&c0);
	say("waiting for workers to complete");
	for (r = 0; r < opt.rounds; r++) {
		uint64_t *out = all_samples + all_n;

		results[r].ns = run_round(ROUND_MEASURED, 1 + opt.warmup + r, out);
		results[r].n = per_round;
		all_n += per_round;
		total_ns += results[r].ns;
		memcpy(train, out, per_round * sizeof(*train));
		stats_sort(train, per_round);
		stats_summarize(train, per_round, &results[r].s);
		say("round %u/%u: %zu transactions in %.3f s, %.1f per sec, average %.3fms 50%% %.3fms 99%% %.3fms worst %.3fms",
		    r + 1, opt.rounds, per_round,
		    results[r].ns / 1e9, stats_rate(per_round, results[r].ns),
		    results[r].s.mean / 1e6, ms(results[r].s.p50), ms(results[r].s.p99),
		    ms(results[r].s.max));
		if (opt.mem_stats)
			sample_memory();
	}
	if (have_cpu && read_cpu(&c1) && c1.total > c0.total) {
		double t = c1.total - c0.total;

		busy = 100.0 * (1 - (c1.idle - c0.idle) / t);
		say("cpu utilisation: %.1f%% busy (user %.1f%%, system %.1f%%) of %ld CPUs, /proc/stat",
		    busy, 100.0 * (c1.user - c0.user) / t, 100.0 * (c1.system - c0.system) / t,
		    sysconf(_SC_NPROCESSORS_ONLN));
	}
	stop_hogs();
	stop_pressure();
	reclaimed = trace_count();
	if (opt.pressure)
		say("pressure: %u writes of 2 to /proc/sys/vm/drop_caches every %u ms",
		    atomic_load(&shm->pressure_writes), opt.pressure_ms);
	if (reclaimed >= 0)
		say("reclaimed pages: %ld (binder shrinker, tracepoint %s, %s)",
		    reclaimed, unmap_event + strlen("events/"), trace_source());
	else
		say("reclaimed pages: unavailable (%s)", trace_err ? trace_err : "tracefs");
	if (opt.faults)
		say("failed transactions: %llu, BINDER_WRITE_READ -ENOMEM retried: %llu (--faults)",
		    (unsigned long long)atomic_load(&shm->failed_txns),
		    (unsigned long long)atomic_load(&shm->enomem));
	if (mem_peak >= 0)
		say("binder memory: peak %ld pages (%ld KiB) installed, high watermark %ld pages (sum over workers, %s)",
		    mem_peak,
		    mem_peak * (sysconf(_SC_PAGESIZE) / 1024), mem_high, BINDER_STATS);
	else if (opt.mem_stats)
		say("binder memory: unavailable (no worker in " BINDER_STATS ")");
	else
		say("binder memory: not sampled (--mem-stats samples it)");

	/* The workers are done: stop them before the (slow) sorting. */
	say("collecting results");
	say("killing workers");
	cleanup();

	if (dump_fp) {
		for (i = 0; i < all_n; i++)
			fprintf(dump_fp, "%llu\n", (unsigned long long)all_samples[i]);
		if (fclose(dump_fp))
			fail("-d: write failed: %s", strerror(errno));
		dump_fp = NULL;
	}
	stats_sort(all_samples, all_n);
	stats_summarize(all_samples, all_n, &s);
	rate = stats_rate(all_n, total_ns);
	say("iterations per sec: %.1f", rate);
	over = stats_count_over(all_samples, all_n, max_ns);
	if (over)
		say("%.4f%% of transactions took longer than estimated max latency. Consider setting -m to be higher than %llu microseconds",
		    100.0 * over / all_n, (unsigned long long)(all_samples[all_n - 1] / 1000));
	print_summary("", &s);
	over1 = stats_count_over(all_samples, all_n, 1000000);
	over10 = stats_count_over(all_samples, all_n, 10000000);
	if (opt.fifo_threads)
		say("SCHED_FIFO callers: %zu calls, %u us apart: 50%%: %.3f 99%%: %.3f 99.9%%: %.3f max: %.3f ms; over 1 ms: %zu, over 10 ms: %zu",
		    all_n, opt.fifo_sleep_us, ms(s.p50), ms(s.p99), ms(s.p999), ms(s.max),
		    over1, over10);
	if (opt.nice_threads)
		say("nice %d callers: %llu calls by %u threads per client worker (%.1f per sec)",
		    opt.nice, background_calls, opt.nice_threads,
		    stats_rate(background_calls, total_ns));
	if (opt.hogs)
		say("CPU hogs: %u at %s%u during the measured rounds", opt.hogs,
		    opt.hog_prio ? "SCHED_FIFO priority " : "nice ", opt.hog_prio);
	stats_histogram(all_samples, all_n, hist);
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
	if (json_fp)
		write_json(&s, rate, busy, reclaimed, over1, over10, true);
	free(train);
}

/* ---- command line ---- */

static void print_help(void)
{
	printf("usage: " PROG " [options]\n"
	       "binderThroughputTest on the raw binder UAPI, in a private binderfs.\n"
	       "  -w N                workers (default 2, at least 2)\n"
	       "  -i N                iterations per client thread and round (default 10000)\n"
	       "  -s N                payload bytes per call, after a 32-byte header (default 0)\n"
	       "  -p                  client/server pairs: workers [0,w/2) serve, the rest call\n"
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
	       "  --random-size       each call's payload is 0 to -s bytes, at random\n"
	       "  --mem-stats         sample binder's memory from its debugfs stats once a\n"
	       "                      second and at the end of each round (the read takes\n"
	       "                      binder's locks; --fifo-threads: at round ends only)\n"
	       "  --faults            for fault injection (make stress): once set up, every\n"
	       "                      worker thread sets /proc/.../make-it-fail; transactions\n"
	       "                      the driver fails (BR_FAILED_REPLY, BR_DEAD_REPLY,\n"
	       "                      BR_ERROR) and BINDER_WRITE_READ -ENOMEM are counted, not\n"
	       "                      errors, and the buffer space checks of -s are off; a\n"
	       "                      wrong payload or reply still fails (not with pipeline)\n"
	       "  --teardown MS       each worker, at a random time within MS ms of its\n"
	       "                      setup, unmaps its binder mapping or closes its binder\n"
	       "                      fd under its transacting threads and exits: the run\n"
	       "                      fails (make stress's teardown races)\n"
	       "  --json FILE         write the results as JSON\n"
	       "  --timeout S         give up after S seconds (default 0: never)\n"
	       "  --alloc-bench N     no transactions: the allocator microbenchmark of make\n"
	       "                      bench's modules (" ALLOC_BENCH_PATH "),\n"
	       "                      N kthreads (1-8) on one fresh device's binder_alloc\n"
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

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || v < min || v > max)
		usage_error("%s '%s': not a number from %lu to %lu", name, arg, min, max);
	return v;
}

static void parse_pressure(const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t kind = colon ? (size_t)(colon - arg) : strlen(arg);

	if (kind != strlen("drop_caches") || strncmp(arg, "drop_caches", kind))
		usage_error("--pressure '%s': unknown kind (want drop_caches[:interval_ms])", arg);
	opt.pressure = true;
	if (colon)
		opt.pressure_ms = parse_num("--pressure drop_caches:", colon + 1, 0, 60000);
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
	unsigned long long txn = ((sizeof(struct msg_hdr) + opt.payload + 7) & ~7ULL) +
				 BUFFER_OVERHEAD;
	unsigned long long small = sizeof(struct msg_hdr) + BUFFER_OVERHEAD;
	unsigned int servers = opt.pairs ? opt.workers / 2 : opt.workers;
	unsigned int clients = opt.pairs ? opt.workers - opt.workers / 2 : opt.workers;
	unsigned long long callers, need, limit;

	/* --faults: running out of buffer space is one more failure to count. */
	if (opt.faults)
		return;
	/* Client threads that can call one server at once. */
	if (opt.pairs)
		callers = (unsigned long long)(clients + servers - 1) / servers * opt.threads;
	else
		callers = (unsigned long long)(opt.workers - 1) * opt.threads;
	if (opt.mode == MODE_SYNC || opt.mode == MODE_MIXED) {
		limit = BINDER_MAP_SIZE;
		need = callers * txn + opt.threads * small;
		if (need > limit)
			usage_error("-s %u: payload over binder's buffer limit of %lu bytes (the 4 MiB mapping): %llu callers x %llu bytes",
				    opt.payload, BINDER_MAP_SIZE, callers, txn);
		if (opt.mode == MODE_SYNC)
			return;
	}
	limit = BINDER_ASYNC_SIZE;
	need = callers * opt.window * txn;
	if (opt.mode == MODE_PIPELINE && !opt.pairs)
		need += (unsigned long long)opt.threads * opt.window * small;
	if (need > limit)
		usage_error("-s %u: payload over binder's oneway buffer limit of %lu bytes (half the 4 MiB mapping): %llu callers x window %u x %llu bytes",
			    opt.payload, BINDER_ASYNC_SIZE, callers, opt.window, txn);
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
	opt.nice_threads = parse_num("--nice-threads", n, 1, MAX_THREADS);
	errno = 0;
	v = strtol(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || v < -20 || v > 19)
		usage_error("--nice-threads '%s': nice '%s' is not a number from -20 to 19", arg,
			    colon + 1);
	opt.nice = (int)v;
}

/* --hogs H[:fifo:P] */
static void parse_hogs(const char *arg)
{
	const char *colon = strchr(arg, ':');
	char n[16];

	opt.hog_prio = 0;
	if (!colon) {
		opt.hogs = parse_num("--hogs", arg, 1, MAX_HOGS);
		return;
	}
	if ((size_t)(colon - arg) >= sizeof(n) || strncmp(colon, ":fifo:", 6))
		usage_error("--hogs '%s': want H or H:fifo:PRIO", arg);
	memcpy(n, arg, colon - arg);
	n[colon - arg] = 0;
	opt.hogs = parse_num("--hogs", n, 1, MAX_HOGS);
	opt.hog_prio = parse_num("--hogs H:fifo:", colon + 6, 1, SERVER_FIFO_PRIO - 1);
}

static void parse_args(int argc, char **argv)
{
	enum { O_THREADS = 256, O_SERVER_THREADS, O_MODE, O_WINDOW, O_WARMUP, O_ROUNDS,
	       O_PRESSURE, O_FIFO, O_FIFO_THREADS, O_FIFO_SLEEP, O_NICE_THREADS, O_SERVER_FIFO,
	       O_HOGS, O_RANDOM_SIZE, O_FAULTS, O_TEARDOWN, O_JSON, O_TIMEOUT, O_ALLOC,
	       O_ALLOC_MS, O_ALLOC_MAX, O_ALLOC_SHRINK, O_ALLOC_FIFO, O_ALLOC_COLD,
	       O_MEM_STATS };
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
	int c, i;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:i:s:ptm:d:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			opt.workers = parse_num("-w", optarg, 1, MAX_WORKERS);
			break;
		case 'i':
			opt.iterations = parse_num("-i", optarg, 1, 100000000);
			break;
		case 's':
			opt.payload = parse_num("-s", optarg, 0, UINT_MAX / 2);
			break;
		case 'p':
			opt.pairs = true;
			break;
		case 't':
			opt.training = true;
			break;
		case 'm':
			opt.max_latency_us = parse_num("-m", optarg, 1, 1000000000);
			break;
		case 'd':
			opt.dump_file = optarg;
			break;
		case O_THREADS:
			opt.threads = parse_num("--threads", optarg, 1, MAX_THREADS);
			threads_set = true;
			break;
		case O_SERVER_THREADS:
			opt.server_threads = parse_num("--server-threads", optarg, 1, MAX_THREADS);
			break;
		case O_MODE:
			for (i = 0; i < 4; i++)
				if (!strcmp(optarg, mode_names[i]))
					break;
			if (i == 4)
				usage_error("--mode '%s': not sync, oneway, pipeline or mixed",
					    optarg);
			opt.mode = i;
			break;
		case O_WINDOW:
			opt.window = parse_num("--window", optarg, 1, 1024);
			window_set = true;
			break;
		case O_WARMUP:
			opt.warmup = parse_num("--warmup", optarg, 0, 1000);
			break;
		case O_ROUNDS:
			opt.rounds = parse_num("--rounds", optarg, 1, 1000);
			break;
		case O_PRESSURE:
			parse_pressure(optarg);
			break;
		case O_FIFO:
			opt.fifo = true;
			break;
		case O_FIFO_THREADS:
			opt.fifo_threads = parse_num("--fifo-threads", optarg, 1, MAX_THREADS);
			break;
		case O_FIFO_SLEEP:
			opt.fifo_sleep_us = parse_num("--fifo-sleep", optarg, 0, 1000000);
			sleep_set = true;
			break;
		case O_NICE_THREADS:
			parse_nice_threads(optarg);
			break;
		case O_SERVER_FIFO:
			opt.server_fifo = true;
			break;
		case O_HOGS:
			parse_hogs(optarg);
			break;
		case O_RANDOM_SIZE:
			opt.random_size = true;
			break;
		case O_MEM_STATS:
			opt.mem_stats = true;
			break;
		case O_FAULTS:
			opt.faults = true;
			break;
		case O_TEARDOWN:
			opt.teardown_ms = parse_num("--teardown", optarg, 1, 3600000);
			break;
		case O_JSON:
			opt.json_file = optarg;
			break;
		case O_TIMEOUT:
			opt.timeout = parse_num("--timeout", optarg, 0, 86400);
			break;
		case O_ALLOC:
			opt.alloc_threads = parse_num("--alloc-bench", optarg, 1, 8);
			break;
		case O_ALLOC_MS:
			opt.alloc_ms = parse_num("--alloc-ms", optarg, 1, 60000);
			alloc_opts = true;
			break;
		case O_ALLOC_MAX:
			/* The module's limit: 8 threads' buffers fit in half the mapping. */
			opt.alloc_max = parse_num("--alloc-max", optarg, 8, BINDER_MAP_SIZE / 16);
			alloc_opts = true;
			break;
		case O_ALLOC_SHRINK:
			opt.alloc_shrink = true;
			alloc_opts = true;
			break;
		case O_ALLOC_FIFO:
			opt.alloc_fifo = true;
			alloc_opts = true;
			break;
		case O_ALLOC_COLD:
			opt.alloc_cold = true;
			alloc_opts = true;
			break;
		case 'h':
			print_help();
			exit(0);
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
	if (alloc_opts && !opt.alloc_threads)
		usage_error("--alloc-ms, --alloc-max, --alloc-shrink, --alloc-fifo and --alloc-cold need --alloc-bench N");
	if (opt.alloc_cold && (opt.alloc_shrink || opt.alloc_fifo))
		usage_error("--alloc-cold: not with --alloc-shrink or --alloc-fifo (it reclaims every page itself)");
	if (opt.alloc_fifo && opt.alloc_threads > 7)
		usage_error("--alloc-bench %u --alloc-fifo: at most 7 (the SCHED_FIFO kthread is the 8th)",
			    opt.alloc_threads);
	if ((sleep_set || opt.nice_threads) && !opt.fifo_threads)
		usage_error("--fifo-sleep and --nice-threads need --fifo-threads F");
	if (opt.fifo_threads) {
		if (threads_set || opt.fifo)
			usage_error("--fifo-threads: not with --threads or --fifo (it sets the client threads)");
		if (opt.mode != MODE_SYNC)
			usage_error("--fifo-threads: only for --mode sync");
		if (opt.fifo_threads + opt.nice_threads > MAX_THREADS)
			usage_error("--fifo-threads %u and --nice-threads %u: more than %u client threads",
				    opt.fifo_threads, opt.nice_threads, MAX_THREADS);
		opt.threads = opt.fifo_threads + opt.nice_threads;
	}
	if (opt.hog_prio && opt.alloc_threads)
		usage_error("--hogs %u:fifo:%u: not with --alloc-bench (its hogs run at nice 0)",
			    opt.hogs, opt.hog_prio);
	if (opt.hog_prio && !opt.server_fifo)
		usage_error("--hogs %u:fifo:%u: needs --server-fifo (SCHED_OTHER servers would run only in the RT throttling share)",
			    opt.hogs, opt.hog_prio);
	if ((opt.fifo_threads || opt.server_fifo) && opt.alloc_threads)
		usage_error("--fifo-threads and --server-fifo: not with --alloc-bench (see --alloc-fifo)");
	if (opt.pairs && opt.workers < 2)
		usage_error("-p with -w %u: client/server pairs need at least 2 workers",
			    opt.workers);
	if (opt.workers < 2)
		usage_error("-w %u: need at least 2 workers (a worker does not call itself)",
			    opt.workers);
	if (window_set && opt.mode == MODE_SYNC)
		usage_error("--window %u: only for --mode oneway, pipeline or mixed", opt.window);
	if (opt.faults && opt.mode == MODE_PIPELINE)
		usage_error("--faults: not with --mode pipeline (a failed callback would never complete its call)");
	if ((opt.faults || opt.teardown_ms) && opt.alloc_threads)
		usage_error("--faults and --teardown: not with --alloc-bench");
	if (samples_per_round() * (opt.rounds + 1) > MAX_SAMPLES)
		usage_error("-i %u: %zu samples per round x %u rounds is too many (limit %lu)",
			    opt.iterations, samples_per_round(), opt.rounds, MAX_SAMPLES);
	check_payload();
	if (opt.dump_file)
		dump_fp = open_out("-d", opt.dump_file);
	if (opt.json_file)
		json_fp = open_out("--json", opt.json_file);
}

int main(int argc, char **argv)
{
	size_t shm_size;
	void *p;

	parse_args(argc, argv);
	parent_pid = getpid();
	printf("TAP version 13\n1..1\n");
	if (opt.alloc_threads) {
		say("alloc: %u kthreads%s, %u ms, buffers of %s%u bytes%s%s", opt.alloc_threads,
		    opt.alloc_fifo ? " at nice 19 and 1 SCHED_FIFO" : "", opt.alloc_ms,
		    opt.alloc_cold ? "" : "8 to ", opt.alloc_max,
		    opt.alloc_shrink ? ", freelist walker" : "",
		    opt.alloc_cold ? ", first-touch installs" : "");
		if (opt.hogs)
			say("CPU hogs: %u at nice 0 during the run", opt.hogs);
		install_signals();
		if (opt.timeout)
			alarm(opt.timeout);
		setup_binderfs();
		alloc_bench();
		finish(KSFT_PASS, NULL);
	}
	say("%s: %u workers%s, %u iterations, %s%u-byte payload, %u client and %u server threads, %u warmup and %u measured rounds%s%s%s%s%s",
	    mode_names[opt.mode], opt.workers,
	    opt.pairs ? " in pairs" : "", opt.iterations, opt.random_size ? "0 to " : "",
	    opt.payload, opt.threads, opt.server_threads, opt.warmup, opt.rounds,
	    opt.pressure ? ", drop_caches pressure" : "", opt.fifo ? ", SCHED_FIFO" : "",
	    opt.server_fifo ? ", SCHED_FIFO servers" : "", opt.hogs ? ", CPU hogs" : "",
	    opt.faults ? ", fault injection" : "");
	if (opt.fifo_threads)
		say("client threads per worker: %u SCHED_FIFO %d (timed, %u us apart), %u at nice %d (counted)",
		    opt.fifo_threads, FIFO_PRIO, opt.fifo_sleep_us, opt.nice_threads, opt.nice);
	install_signals();
	if (opt.timeout)
		alarm(opt.timeout);
	setup_binderfs();

	nslots = opt.workers * opt.threads;
	shm_size = sizeof(*shm) + nslots * sizeof(*slots) +
		   (size_t)nslots * opt.iterations * sizeof(*samples);
	p = mmap(NULL, shm_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		fail("mmap %zu bytes of shared memory: %s", shm_size, strerror(errno));
	shm = p;
	slots = (struct slot_state *)(shm + 1);
	samples = (uint64_t *)(slots + nslots);

	start_workers();
	run();
	finish(KSFT_PASS, NULL);
}
