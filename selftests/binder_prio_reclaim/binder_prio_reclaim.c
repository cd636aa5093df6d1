// SPDX-License-Identifier: GPL-2.0
/*
 * binder_prio_reclaim: the latency of binder calls per scheduling class while
 * binder's shrinker reclaims the pages of their buffers.
 *
 * One server process, the context manager of a binder device of its own
 * (a fresh binderfs device, or -d), runs --loopers looper threads and hands
 * out one node. Client threads in one process, in classes of a scheduling
 * policy and priority (--classes: SCHED_FIFO 99 and 1, nice -20 and 19 by
 * default), each make --calls synchronous calls to that node by its handle,
 * as an app calls a service (--handle0: to the context manager instead,
 * which takes binder's context_mgr_node_lock on every call), with payload
 * sizes drawn from a seeded log-uniform distribution (--sizes). Meanwhile
 * a reclaimer thread at nice 0 writes binder's shrinker debugfs "scan" file
 * (CONFIG_SHRINKER_DEBUG), or 2 to drop_caches, every --reclaim period.
 *
 * A call's time runs from its BC_TRANSACTION to its BR_REPLY: the payload
 * is filled before, the reply's buffer freed after. Each thread makes one
 * untimed call first. The server checks each payload against a pattern.
 *
 * Each class is one KTAP result: ok when every one of its calls got the
 * reply that matches its request, with its figures as diagnostics (calls,
 * average, P99, P99.9, max, calls over 1 ms and 10 ms) and a machine-readable
 * "# result class=... key=value..." line; the reclaimer is one more result
 * when it runs. Latency is never a pass criterion.
 *
 * Exit: 0 all passed, 1 a failure, 4 skipped (no binderfs, no binder
 * shrinker in debugfs, no CAP_SYS_NICE), 2 a bad command line, with one
 * "binder_prio_reclaim: error: ..." line on stderr.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "binder_uapi.h"
#include "kselftest.h"

#define PROG "binder_prio_reclaim"
#define EXIT_USAGE 2
#define MAX_CLASSES 8
#define MAX_THREADS 256
#define MAX_SHRINKERS 8
#define MAX_SAMPLES (64ul << 20)	/* latencies kept, 8 bytes each */

#define CODE_GET 1		/* to the context manager: the node */
#define CODE_CALL 2		/* a timed call */
#define NODE_PTR 0x5000
#define NODE_COOKIE 0x6000
#define MAGIC_REQ 0x52455131u
#define MAGIC_REPLY 0x52504c31u

struct class {
	char name[16];
	int policy;		/* SCHED_FIFO or SCHED_OTHER */
	int prio;		/* FIFO priority, or nice */
	unsigned int threads;
};

static struct {
	const char *device;
	unsigned int loopers;
	struct class classes[MAX_CLASSES];
	unsigned int nclasses;
	unsigned long calls;
	unsigned long min_size, max_size;
	unsigned long seed;
	enum { RECLAIM_NONE, RECLAIM_SHRINKER, RECLAIM_DROP_CACHES } reclaim;
	unsigned long period_ms;
	unsigned long scan_pages;
	const char *debugfs;
	bool handle0;
	unsigned long timeout;
} opt = {
	.loopers = 4,
	.calls = 2000,
	.min_size = 16,
	.max_size = 32768,
	.seed = 1,
	.reclaim = RECLAIM_SHRINKER,
	.period_ms = 10,
	.scan_pages = 65536,
	.debugfs = "/sys/kernel/debug",
	.timeout = 540,		/* under settings' 600 s */
};

/* The request's header; the payload after it is a pattern of seq and size. */
struct req {
	uint32_t magic;
	uint32_t thread;
	uint32_t seq;
	uint32_t size;
};

struct reply {
	uint32_t magic;
	uint32_t seq;
	uint32_t status;	/* 0: the request was as sent */
};

struct client {
	pthread_t tid;
	unsigned int index;
	const struct class *class;
	int fd;
	uint32_t handle;
	uint64_t *ns;		/* one latency per completed call */
	unsigned long done;
	unsigned long errors;
	char err[160];
};

static pid_t server_pid;
static unsigned int failures;	/* results not ok */
static pthread_barrier_t start_barrier;
static uint8_t *pat;		/* the payload pattern, max_size bytes */
/* What SIGALRM prints: every result not ok (fail_lines()) */
static char alarm_msg[MAX_CLASSES * 64 + 128];

static void __attribute__((format(printf, 1, 2), noreturn)) usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

static void usage(void)
{
	printf("usage: " PROG " [options]\n"
	       "  -d, --device PATH     a binder device (default: a binderfs device of its own)\n"
	       "  -l, --loopers N       server looper threads, 1 to 64 (default 4)\n"
	       "  -c, --classes LIST    client classes, CLASS:THREADS,... with CLASS fifoP\n"
	       "                        (SCHED_FIFO, P 1 to 99) or niceN (N -20 to 19); 1 to %d\n"
	       "                        classes, %d threads in all\n"
	       "                        (default fifo99:2,fifo1:2,nice-20:2,nice19:2)\n"
	       "  -n, --calls N         calls per client thread, 1 to 10000000, %lu in all\n"
	       "                        (default 2000)\n"
	       "  -s, --sizes MIN:MAX   payload bytes, log-uniform, 16 to 262144, threads x MAX\n"
	       "                        at most 2 MiB (default 16:32768)\n"
	       "      --seed S          the sizes' seed (default 1)\n"
	       "  -r, --reclaim MODE    shrinker[:MS] (binder's shrinker debugfs scan file),\n"
	       "                        drop_caches[:MS] or none; MS 1 to 60000 (default shrinker:10)\n"
	       "      --scan-pages N    pages per scan write, 1 to 16777216 (default 65536)\n"
	       "      --debugfs DIR     where debugfs is (default /sys/kernel/debug)\n"
	       "      --handle0         call the context manager (handle 0), not a node\n"
	       "  -t, --timeout S       give up after S seconds, 0: never (default 540)\n"
	       "  -h, --help            this help\n", MAX_CLASSES, MAX_THREADS, MAX_SAMPLES);
}

/* @arg as a number from @min to @max: digits only. */
static unsigned long number(const char *name, const char *arg, unsigned long min,
			    unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *arg < '0' || *arg > '9' || *end || errno || v < min || v > max)
		usage_error("%s '%s': not a number from %lu to %lu", name, arg, min, max);
	return v;
}

/* A signed number from @min to @max: an optional '-', then digits. */
static long snumber(const char *name, const char *arg, long min, long max)
{
	bool neg = arg[0] == '-';
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg + neg, &end, 10);
	if (!arg[neg] || arg[neg] < '0' || arg[neg] > '9' || *end || errno ||
	    v > (unsigned long)LONG_MAX || (neg ? -(long)v < min : (long)v > max))
		usage_error("%s '%s': not a number from %ld to %ld", name, arg, min, max);
	return neg ? -(long)v : (long)v;
}

static void parse_classes(const char *arg)
{
	char *list = strdup(arg), *rest = list, *item, *colon;
	unsigned int total = 0, i;

	if (!list)
		usage_error("out of memory");
	opt.nclasses = 0;
	while ((item = strsep(&rest, ","))) {
		struct class *c;

		if (opt.nclasses == MAX_CLASSES)
			usage_error("--classes '%s': more than %d classes", arg, MAX_CLASSES);
		c = &opt.classes[opt.nclasses];
		colon = strchr(item, ':');
		if (!colon)
			usage_error("--classes '%s': '%s' is not CLASS:THREADS", arg, item);
		*colon = '\0';
		if (!strncmp(item, "fifo", 4)) {
			c->policy = SCHED_FIFO;
			c->prio = snumber("--classes fifo priority", item + 4, 1, 99);
		} else if (!strncmp(item, "nice", 4)) {
			c->policy = SCHED_OTHER;
			c->prio = snumber("--classes nice", item + 4, -20, 19);
		} else {
			usage_error("--classes '%s': unknown class '%s' (want fifoP or niceN)",
				    arg, item);
		}
		/* fifo099 is fifo99 */
		snprintf(c->name, sizeof(c->name), "%s%d",
			 c->policy == SCHED_FIFO ? "fifo" : "nice", c->prio);
		for (i = 0; i < opt.nclasses; i++)
			if (!strcmp(opt.classes[i].name, c->name))
				usage_error("--classes '%s': class %s twice", arg, c->name);
		c->threads = number("--classes threads", colon + 1, 1, MAX_THREADS);
		total += c->threads;
		opt.nclasses++;
	}
	if (total > MAX_THREADS)
		usage_error("--classes '%s': %u threads, over %d", arg, total, MAX_THREADS);
	free(list);
}

static void parse_reclaim(const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	opt.period_ms = 10;
	if (len == 8 && !strncmp(arg, "shrinker", len))
		opt.reclaim = RECLAIM_SHRINKER;
	else if (len == 11 && !strncmp(arg, "drop_caches", len))
		opt.reclaim = RECLAIM_DROP_CACHES;
	else if (!strcmp(arg, "none"))
		opt.reclaim = RECLAIM_NONE, opt.period_ms = 0;
	else
		usage_error("--reclaim '%s': unknown mode (want shrinker[:MS], drop_caches[:MS] or none)",
			    arg);
	if (colon)
		opt.period_ms = number("--reclaim period", colon + 1, 1, 60000);
}

static void parse_sizes(const char *arg)
{
	char buf[64], *colon;

	snprintf(buf, sizeof(buf), "%s", arg);
	colon = strchr(buf, ':');
	if (!colon)
		usage_error("--sizes '%s': want MIN:MAX", arg);
	*colon = '\0';
	opt.min_size = number("--sizes MIN", buf, sizeof(struct req), 262144);
	opt.max_size = number("--sizes MAX", colon + 1, sizeof(struct req), 262144);
	if (opt.min_size > opt.max_size)
		usage_error("--sizes '%s': MIN over MAX", arg);
}

static void parse_options(int argc, char **argv)
{
	unsigned long n;
	int i;

	parse_classes("fifo99:2,fifo1:2,nice-20:2,nice19:2");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = true;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			if (argc > 2)
				usage_error("unexpected argument '%s' (see --help)",
					    argv[i == 1 ? 2 : 1]);
			usage();
			exit(0);
		}
		if (!strcmp(a, "--handle0")) {
			opt.handle0 = true;
			continue;
		}
		if (a[0] != '-')
			usage_error("unexpected argument '%s' (see --help)", a);
		if (!v && strcmp(a, "--handle0"))
			usage_error("%s: needs a value (see --help)", a);
		if (!strcmp(a, "-d") || !strcmp(a, "--device"))
			opt.device = v;
		else if (!strcmp(a, "-l") || !strcmp(a, "--loopers"))
			opt.loopers = number(a, v, 1, 64);
		else if (!strcmp(a, "-c") || !strcmp(a, "--classes"))
			parse_classes(v);
		else if (!strcmp(a, "-n") || !strcmp(a, "--calls"))
			opt.calls = number(a, v, 1, 10000000);
		else if (!strcmp(a, "-s") || !strcmp(a, "--sizes"))
			parse_sizes(v);
		else if (!strcmp(a, "--seed"))
			opt.seed = number(a, v, 0, ULONG_MAX);
		else if (!strcmp(a, "-r") || !strcmp(a, "--reclaim"))
			parse_reclaim(v);
		else if (!strcmp(a, "--scan-pages"))
			opt.scan_pages = number(a, v, 1, 16777216);
		else if (!strcmp(a, "--debugfs"))
			opt.debugfs = v;
		else if (!strcmp(a, "-t") || !strcmp(a, "--timeout"))
			opt.timeout = number(a, v, 0, 86400);
		else
			takes = false;
		if (!takes)
			usage_error("unknown option '%s' (see --help)", a);
		i++;
	}
	for (i = 0, n = 0; i < (int)opt.nclasses; i++)
		n += opt.classes[i].threads;
	/* Every thread's request in the server's mapping at once must fit */
	if (n * opt.max_size > BINDER_MAP_SIZE / 2)
		usage_error("--classes and --sizes: %lu threads x %lu bytes, over 2 MiB of the server's 4 MiB binder mapping",
			    n, opt.max_size);
	if (n * opt.calls > MAX_SAMPLES)
		usage_error("--classes and --calls: %lu threads x %lu calls, over %lu",
			    n, opt.calls, MAX_SAMPLES);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* The payload after the header: a pattern that the server compares. */
static void make_pattern(void)
{
	size_t i;

	pat = malloc(opt.max_size);
	if (!pat) {
		fprintf(stderr, PROG ": out of memory\n");
		exit(KSFT_FAIL);
	}
	for (i = 0; i < opt.max_size; i++)
		pat[i] = (uint8_t)(i * 7 + (i >> 8));
}

/* ---- the server: the context manager, --loopers threads, one node ---- */

static bool request_ok(const struct binder_transaction_data *tr, struct req *h)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;

	if (tr->data_size < sizeof(*h))
		return false;
	memcpy(h, p, sizeof(*h));
	return h->magic == MAGIC_REQ && h->size == tr->data_size && h->size <= opt.max_size &&
	       !memcmp(p + sizeof(*h), pat + sizeof(*h), h->size - sizeof(*h));
}

static void *looper(void *arg)
{
	struct bctx *b = calloc(1, sizeof(*b));
	struct binder_transaction_data tr;
	struct flat_binder_object obj;
	binder_size_t off = 0;
	const void *a;
	struct req h = { 0 };
	struct reply r;
	uint32_t cmd;
	int ret;

	if (!b) {
		fprintf(stderr, "# server: out of memory\n");
		_exit(KSFT_FAIL);
	}
	bx_init(b, (int)(intptr_t)arg);
	bx_cmd(b, BC_ENTER_LOOPER);
	for (;;) {
		ret = bx_next(b, &cmd, &a);
		if (ret) {
			fprintf(stderr, "# server: BINDER_WRITE_READ: %s\n", strerror(-ret));
			_exit(KSFT_FAIL);
		}
		if (bx_housekeeping(b, cmd, a) || cmd == BR_TRANSACTION_COMPLETE)
			continue;
		if (cmd != BR_TRANSACTION) {
			fprintf(stderr, "# server: unexpected %s (0x%x)\n",
				bx_br_name(cmd) ?: "return command", cmd);
			continue;
		}
		memcpy(&tr, a, sizeof(tr));
		bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
		if (tr.code == CODE_GET && tr.target.ptr == 0) {
			memset(&obj, 0, sizeof(obj));
			obj.hdr.type = BINDER_TYPE_BINDER;
			obj.binder = NODE_PTR;
			obj.cookie = NODE_COOKIE;
			bx_txn(b, BC_REPLY, 0, 0, 0, &obj, sizeof(obj), &off, 1);
		} else {
			r.magic = MAGIC_REPLY;
			r.status = !(tr.code == CODE_CALL &&
				     tr.target.ptr == (opt.handle0 ? 0 : NODE_PTR) &&
				     request_ok(&tr, &h));
			r.seq = r.status ? 0 : h.seq;
			bx_txn(b, BC_REPLY, 0, 0, 0, &r, sizeof(r), NULL, 0);
		}
		/* A reply that fails shows as that call's error */
		ret = bx_talk(b, false);
		if (ret)
			fprintf(stderr, "# server: reply: %s\n", strerror(-ret));
	}
	return NULL;
}

/* The server process; reports its setup through @ready (a byte: 0 ok). */
static void __attribute__((noreturn)) server_main(int ready)
{
	char err[256], ok = 1;
	pthread_t t;
	unsigned int i;
	void *map;
	int fd;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = bx_open(opt.device, BINDER_MAP_SIZE, &map, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "# server: %s\n", err);
	} else if (ioctl(fd, BINDER_SET_CONTEXT_MGR, 0) < 0) {
		fprintf(stderr, "# server: BINDER_SET_CONTEXT_MGR: %s\n", strerror(errno));
	} else {
		ok = 0;
		for (i = 0; i < opt.loopers && !ok; i++)
			if (pthread_create(&t, NULL, looper, (void *)(intptr_t)fd)) {
				fprintf(stderr, "# server: cannot start a looper\n");
				ok = 1;
			}
	}
	if (write(ready, &ok, 1) != 1 || ok)
		_exit(KSFT_FAIL);
	for (;;)
		pause();
}

/* ---- the clients ---- */

/* xorshift64*: the sizes, from --seed and the thread's index (splitmix64). */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static uint64_t rnd_seed(uint64_t seed, unsigned int index)
{
	uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (z ^ (z >> 31)) | 1;	/* never 0, xorshift's fixed point */
}

static unsigned int log2_floor(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

/*
 * A size from MIN to MAX, about log-uniform: a power of two 2^k from MIN's
 * to MAX's, then a value uniform in 2^k..2^(k+1)-1 cut to MIN..MAX.
 */
static size_t draw_size(uint64_t *s)
{
	unsigned int lo = log2_floor(opt.min_size), hi = log2_floor(opt.max_size);
	unsigned int k = lo + rnd(s) % (hi - lo + 1);
	uint64_t a = 1ull << k, b = (2ull << k) - 1;

	if (a < opt.min_size)
		a = opt.min_size;
	if (b > opt.max_size)
		b = opt.max_size;
	return a + rnd(s) % (b - a + 1);
}

static int set_class(const struct class *c)
{
	struct sched_param sp = { .sched_priority = c->policy == SCHED_FIFO ? c->prio : 0 };
	int ret;

	ret = pthread_setschedparam(pthread_self(), c->policy, &sp);
	if (ret)
		return ret;
	if (c->policy != SCHED_FIFO &&
	    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), c->prio))
		return errno;
	return 0;
}

/*
 * One call of @size bytes; its time (BC_TRANSACTION to BR_REPLY) in *@ns.
 * Returns 0, or -1 with the reason in c->err.
 */
static int call(struct client *c, struct bctx *b, uint8_t *buf, uint32_t seq, size_t size,
		uint64_t *ns)
{
	struct binder_transaction_data tr;
	struct req *h = (struct req *)buf;
	struct reply r;
	char err[128];
	uint64_t t0;
	int ret;

	h->magic = MAGIC_REQ;
	h->thread = c->index;
	h->seq = seq;
	h->size = size;
	bx_txn(b, BC_TRANSACTION, c->handle, CODE_CALL, 0, buf, size, NULL, 0);
	t0 = now_ns();
	ret = bx_wait(b, &tr, err, sizeof(err));
	*ns = now_ns() - t0;
	if (ret) {
		snprintf(c->err, sizeof(c->err), "call %u: %s", seq, err);
		return -1;
	}
	ret = tr.data_size == sizeof(r);
	if (ret)
		memcpy(&r, (const void *)(uintptr_t)tr.data.ptr.buffer, sizeof(r));
	/* The free goes out now, outside the next call's time */
	bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
	if (bx_talk(b, false)) {
		snprintf(c->err, sizeof(c->err), "BC_FREE_BUFFER: %s", strerror(errno));
		return -1;
	}
	if (!ret || r.magic != MAGIC_REPLY || r.status || r.seq != seq) {
		snprintf(c->err, sizeof(c->err), "call %u: %s", seq,
			 !ret ? "reply of the wrong size" :
			 r.status ? "the server saw a bad request" : "a reply not to this call");
		return -1;
	}
	return 0;
}

static void *client_main(void *arg)
{
	struct client *c = arg;
	uint64_t s = rnd_seed(opt.seed, c->index), ns;
	struct bctx *b = calloc(1, sizeof(*b));
	uint8_t *buf = malloc(opt.max_size);
	unsigned long i;
	int ret;

	ret = set_class(c->class);
	if (b && buf && !ret) {
		bx_init(b, c->fd);
		memcpy(buf, pat, opt.max_size);
		/* Untimed: the driver's binder_thread, the buffer's first touch */
		if (call(c, b, buf, UINT32_MAX, opt.min_size, &ns))
			c->errors++;
	} else {
		snprintf(c->err, sizeof(c->err), "%s", ret ? strerror(ret) : "out of memory");
		c->errors++;
	}
	pthread_barrier_wait(&start_barrier);
	for (i = 0; i < opt.calls && !c->errors; i++) {
		if (call(c, b, buf, i, draw_size(&s), &ns)) {
			c->errors++;
			break;
		}
		c->ns[c->done++] = ns;
	}
	free(b);
	free(buf);
	return NULL;
}

/* Get the node's handle from the context manager (CODE_GET), and a strong ref on it. */
static int get_node(int fd, uint32_t *handle, char *err, size_t len)
{
	struct bctx *b = calloc(1, sizeof(*b));
	struct binder_transaction_data tr;
	struct flat_binder_object obj;
	int ret = -1;

	if (!b) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	bx_init(b, fd);
	bx_txn(b, BC_TRANSACTION, 0, CODE_GET, 0, NULL, 0, NULL, 0);
	if (bx_wait(b, &tr, err, len))
		goto out;
	if (tr.data_size != sizeof(obj) || tr.offsets_size != sizeof(binder_size_t)) {
		snprintf(err, len, "the node's reply has %llu bytes",
			 (unsigned long long)tr.data_size);
		goto out;
	}
	memcpy(&obj, (const void *)(uintptr_t)tr.data.ptr.buffer, sizeof(obj));
	if (obj.hdr.type != BINDER_TYPE_HANDLE || !obj.handle) {
		snprintf(err, len, "the reply holds no handle (type 0x%x)", obj.hdr.type);
		goto out;
	}
	*handle = obj.handle;
	/* Ours once the reply's buffer, which holds a ref, is freed. */
	bx_cmd_u32(b, BC_INCREFS, obj.handle);
	bx_cmd_u32(b, BC_ACQUIRE, obj.handle);
	bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
	ret = bx_talk(b, false);
	if (ret)
		snprintf(err, len, "BC_ACQUIRE: %s", strerror(-ret));
out:
	free(b);
	return ret;
}

/* ---- the reclaimer ---- */

static char scan_paths[MAX_SHRINKERS][PATH_MAX];
static unsigned int nshrinkers;

/*
 * The scan files of binder's shrinkers: <debugfs>/shrinker/android-binder-ID/scan
 * (not binderfs's superblock shrinker, sb-binder-ID).
 */
static void find_shrinkers(void)
{
	char dir[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/shrinker", opt.debugfs);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d)) && nshrinkers < MAX_SHRINKERS)
		if (!strncmp(e->d_name, "android-binder-", 15))
			snprintf(scan_paths[nshrinkers++], PATH_MAX, "%.3800s/%.200s/scan", dir,
				 e->d_name);
	closedir(d);
}

/* The pages on binder's freelist as @scan's shrinker counts them: its count file. */
static unsigned long freelist_pages(const char *scan)
{
	char path[PATH_MAX], line[512], *p, *end;
	unsigned long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%.*s/count", (int)(strrchr(scan, '/') - scan), scan);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		/* "<memcg inode> <count of node 0> <count of node 1>..." */
		strtoul(line, &p, 10);
		for (;;) {
			unsigned long v = strtoul(p, &end, 10);

			if (end == p)
				break;
			n += v;
			p = end;
		}
	}
	fclose(f);
	return n;
}

struct reclaimer {
	unsigned long scans, errors, pages_before, pages_after;
	char err[160];
};

/* The reclaimer's stop: main sets @done under @lock and signals @cond */
static pthread_mutex_t reclaim_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reclaim_cond;
static bool reclaim_done;

/* One scan: every binder shrinker's scan file, or drop_caches. */
static void reclaim_once(struct reclaimer *r, const char *cmd)
{
	unsigned int i;
	int fd;

	for (i = 0; i < (opt.reclaim == RECLAIM_SHRINKER ? nshrinkers : 1); i++) {
		const char *path = opt.reclaim == RECLAIM_SHRINKER ? scan_paths[i] :
				   "/proc/sys/vm/drop_caches";
		const char *what = opt.reclaim == RECLAIM_SHRINKER ? cmd : "2";

		if (opt.reclaim == RECLAIM_SHRINKER)
			r->pages_before += freelist_pages(path);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, what, strlen(what)) != (ssize_t)strlen(what)) {
			if (!r->errors++)
				snprintf(r->err, sizeof(r->err), "%s: %s", path, strerror(errno));
		}
		if (fd >= 0)
			close(fd);
		if (opt.reclaim == RECLAIM_SHRINKER)
			r->pages_after += freelist_pages(path);
	}
	r->scans++;
}

/* Scan at once, then on every period's deadline until main stops it. */
static void *reclaimer_main(void *arg)
{
	struct reclaimer *r = arg;
	struct timespec next;
	char cmd[64];
	bool done;

	snprintf(cmd, sizeof(cmd), "0 0 %lu", opt.scan_pages);
	pthread_barrier_wait(&start_barrier);
	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&reclaim_lock);
	do {
		pthread_mutex_unlock(&reclaim_lock);
		reclaim_once(r, cmd);
		next.tv_nsec += (opt.period_ms % 1000) * 1000000;
		next.tv_sec += opt.period_ms / 1000 + next.tv_nsec / 1000000000;
		next.tv_nsec %= 1000000000;
		pthread_mutex_lock(&reclaim_lock);
		while (!reclaim_done &&
		       pthread_cond_timedwait(&reclaim_cond, &reclaim_lock, &next) != ETIMEDOUT)
			;
		done = reclaim_done;
	} while (!done);
	pthread_mutex_unlock(&reclaim_lock);
	return NULL;
}

static void reclaimer_stop(pthread_t t)
{
	pthread_mutex_lock(&reclaim_lock);
	reclaim_done = true;
	pthread_cond_signal(&reclaim_cond);
	pthread_mutex_unlock(&reclaim_lock);
	pthread_join(t, NULL);
}

/* ---- results ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile @p (per mille) of @n sorted values. */
static uint64_t rank(const uint64_t *v, size_t n, unsigned int p)
{
	size_t k = (n * p + 999) / 1000;

	return v[k ? k - 1 : 0];
}

static void report_class(const struct class *c, struct client *clients, unsigned int nclients)
{
	unsigned long calls = 0, errors = 0, over1 = 0, over10 = 0, want = 0;
	uint64_t *all, sum = 0, p99 = 0, p999 = 0, max = 0;
	const char *why = NULL;
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < nclients; i++)
		if (clients[i].class == c) {
			calls += clients[i].done;
			errors += clients[i].errors;
			want += opt.calls;
			if (clients[i].errors && !why)
				why = clients[i].err;
		}
	all = malloc((calls ?: 1) * sizeof(*all));
	if (!all) {
		ksft_test_result_code(KSFT_FAIL, c->name, "out of memory");
		failures++;
		return;
	}
	for (i = 0; i < nclients; i++)
		if (clients[i].class == c) {
			memcpy(all + n, clients[i].ns, clients[i].done * sizeof(*all));
			n += clients[i].done;
		}
	qsort(all, n, sizeof(*all), cmp_u64);
	for (i = 0; i < n; i++) {
		sum += all[i];
		over1 += all[i] > 1000000;
		over10 += all[i] > 10000000;
	}
	if (n) {
		p99 = rank(all, n, 990);
		p999 = rank(all, n, 999);
		max = all[n - 1];
	}
	ksft_print_msg("%s: %lu calls by %u threads, average %.3f ms, P99 %.3f ms, P99.9 %.3f ms, max %.3f ms, %lu over 1 ms, %lu over 10 ms\n",
		       c->name, calls, c->threads, n ? sum / 1e6 / n : 0.0, p99 / 1e6,
		       p999 / 1e6, max / 1e6, over1, over10);
	ksft_print_msg("result class=%s threads=%u calls=%lu errors=%lu avg_ns=%llu p99_ns=%llu p999_ns=%llu max_ns=%llu over_1ms=%lu over_10ms=%lu\n",
		       c->name, c->threads, calls, errors,
		       (unsigned long long)(n ? sum / n : 0), (unsigned long long)p99,
		       (unsigned long long)p999, (unsigned long long)max, over1, over10);
	if (why)
		ksft_print_msg("%s: %s\n", c->name, why);
	if (!errors && calls == want) {
		ksft_test_result_code(KSFT_PASS, c->name, NULL);
	} else {
		ksft_test_result_code(KSFT_FAIL, c->name, "%lu of %lu calls, %lu errors",
				      calls, want, errors);
		failures++;
	}
	free(all);
}

/* ---- setup ---- */

static char binderfs[PATH_MAX], devpath[PATH_MAX];

static void cleanup(void)
{
	if (server_pid > 0) {
		kill(server_pid, SIGKILL);
		waitpid(server_pid, NULL, 0);
		server_pid = 0;
	}
	if (devpath[0])
		unlink(devpath);
	if (binderfs[0]) {
		umount2(binderfs, MNT_DETACH);
		rmdir(binderfs);
	}
}

/* Every planned result, not ok for @why, into @buf. */
static void fail_lines(char *buf, size_t len, const char *why)
{
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < opt.nclasses && n < len; i++)
		n += snprintf(buf + n, len - n, "not ok %u %s # %s\n", i + 1,
			      opt.classes[i].name, why);
	if (opt.reclaim != RECLAIM_NONE && n < len)
		snprintf(buf + n, len - n, "not ok %u reclaimer # %s\n", i + 1, why);
}

static void on_alarm(int sig)
{
	(void)sig;
	if (server_pid > 0)
		kill(server_pid, SIGKILL);
	if (write(STDOUT_FILENO, alarm_msg, strlen(alarm_msg)) < 0)
		_exit(KSFT_FAIL);
	_exit(KSFT_FAIL);
}

/* Every planned result with @code for @why; then exit with @code. */
static void __attribute__((noreturn)) end_all(int code, const char *why)
{
	unsigned int i;

	alarm(0);
	if (code != KSFT_SKIP)
		ksft_print_msg("%s\n", why);
	for (i = 0; i < opt.nclasses; i++)
		ksft_test_result_code(code, opt.classes[i].name, "%s", why);
	if (opt.reclaim != RECLAIM_NONE)
		ksft_test_result_code(code, "reclaimer", "%s", why);
	ksft_print_cnts();
	cleanup();
	exit(code);
}

/* What this system cannot do: every result a SKIP, exit 4. */
static void __attribute__((noreturn)) skip_all(const char *why)
{
	end_all(KSFT_SKIP, why);
}

/* The run could not be made: every result not ok, exit 1. */
static void __attribute__((noreturn)) fail_all(const char *why)
{
	end_all(KSFT_FAIL, why);
}

/* Whether this process may use each class: tried on the main thread, then undone. */
static bool may_use_classes(void)
{
	struct sched_param sp = { .sched_priority = 0 };
	unsigned int i;
	bool ok = true;

	for (i = 0; i < opt.nclasses && ok; i++)
		ok = !set_class(&opt.classes[i]);
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 0);
	return ok;
}

static const char *reclaim_name(void)
{
	return opt.reclaim == RECLAIM_SHRINKER ? "shrinker" :
	       opt.reclaim == RECLAIM_DROP_CACHES ? "drop_caches" : "none";
}

int main(int argc, char **argv)
{
	struct reclaimer rec = { 0 };
	struct client *clients;
	pthread_condattr_t ca;
	pthread_t reclaimer;
	unsigned int i, j, n = 0;
	char err[320], ok;
	uint32_t handle = 0;
	int ready[2], fd, ret;
	bool own_ns = false;
	uint64_t t0, elapsed;
	void *map;

	parse_options(argc, argv);
	/* The kernel's kselftest.h leaves stdout buffered: a line at a time */
	setvbuf(stdout, NULL, _IOLBF, 0);
	make_pattern();
	ksft_print_header();
	ksft_set_plan(opt.nclasses + (opt.reclaim != RECLAIM_NONE));
	if (opt.reclaim == RECLAIM_NONE)
		snprintf(err, sizeof(err), "no reclaim");
	else
		snprintf(err, sizeof(err), "reclaim by %s every %lu ms", reclaim_name(),
			 opt.period_ms);
	ksft_print_msg(PROG ": %u loopers, %lu calls per thread, sizes %lu to %lu bytes (seed %lu), %s, calls to %s, %ld CPUs\n",
		       opt.loopers, opt.calls, opt.min_size, opt.max_size, opt.seed, err,
		       opt.handle0 ? "handle 0" : "a node", sysconf(_SC_NPROCESSORS_ONLN));

	if (!may_use_classes())
		skip_all("cannot set every class's scheduling (CAP_SYS_NICE)");
	if (!opt.device) {
		ret = bx_binderfs_mount(PROG, binderfs, sizeof(binderfs), err, sizeof(err));
		if (ret == 1)
			skip_all("no binderfs in this kernel");
		if (ret < 0)
			skip_all(err);
		own_ns = true;
		snprintf(err, sizeof(err), PROG "-%d", (int)getpid());
		if (bx_binderfs_add(binderfs, err, devpath, sizeof(devpath), err, sizeof(err)))
			skip_all(err);
		opt.device = devpath;
	}
	if (opt.reclaim == RECLAIM_SHRINKER) {
		find_shrinkers();
		/* debugfs unmounted (Android): mount it, in our own namespace only. */
		if (!nshrinkers && own_ns && !mount("debugfs", opt.debugfs, "debugfs", 0, NULL))
			find_shrinkers();
		if (!nshrinkers) {
			snprintf(err, sizeof(err),
				 "no binder shrinker in %.200s/shrinker (CONFIG_SHRINKER_DEBUG, debugfs)",
				 opt.debugfs);
			skip_all(err);
		}
		for (i = 0; i < nshrinkers; i++)
			ksft_print_msg("reclaimer: %s\n", scan_paths[i]);
	}

	fail_lines(alarm_msg, sizeof(alarm_msg), "timed out after --timeout seconds");
	if (opt.timeout) {
		signal(SIGALRM, on_alarm);
		alarm(opt.timeout);
	}
	if (pipe2(ready, O_CLOEXEC))
		fail_all("pipe2 failed");
	fflush(stdout);
	server_pid = fork();
	if (server_pid < 0)
		fail_all("fork failed");
	if (!server_pid) {
		close(ready[0]);
		server_main(ready[1]);
	}
	close(ready[1]);
	if (read(ready[0], &ok, 1) != 1 || ok)
		fail_all("the server did not start");
	close(ready[0]);

	fd = bx_open(opt.device, BINDER_MAP_SIZE, &map, err, sizeof(err));
	if (fd < 0 || (!opt.handle0 && get_node(fd, &handle, err, sizeof(err))))
		fail_all(err);
	for (i = 0; i < opt.nclasses; i++)
		n += opt.classes[i].threads;
	clients = calloc(n, sizeof(*clients));
	if (!clients)
		fail_all("out of memory");
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&reclaim_cond, &ca);
	pthread_barrier_init(&start_barrier, NULL, n + 1 + (opt.reclaim != RECLAIM_NONE));
	n = 0;
	for (i = 0; i < opt.nclasses; i++)
		for (j = 0; j < opt.classes[i].threads; j++, n++) {
			struct client *c = &clients[n];

			c->index = n;
			c->class = &opt.classes[i];
			c->fd = fd;
			c->handle = handle;
			c->ns = malloc(opt.calls * sizeof(*c->ns));
			/* Threads already started wait at the barrier: exit, not return */
			if (!c->ns || pthread_create(&c->tid, NULL, client_main, c))
				fail_all("cannot start a client thread");
		}
	if (opt.reclaim != RECLAIM_NONE &&
	    pthread_create(&reclaimer, NULL, reclaimer_main, &rec))
		fail_all("cannot start the reclaimer");
	pthread_barrier_wait(&start_barrier);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		pthread_join(clients[i].tid, NULL);
	elapsed = now_ns() - t0;
	if (opt.reclaim != RECLAIM_NONE)
		reclaimer_stop(reclaimer);
	alarm(0);

	ksft_print_msg("the calls took %.3f s\n", elapsed / 1e9);
	for (i = 0; i < opt.nclasses; i++)
		report_class(&opt.classes[i], clients, n);
	if (opt.reclaim != RECLAIM_NONE) {
		/* The freelist is binder's, system-wide: every process's free pages */
		ksft_print_msg("reclaimer: %lu scans, one per %.1f ms, %lu failed; binder's freelist (all processes) summed over the scans: %lu pages before, %lu after\n",
			       rec.scans, rec.scans ? elapsed / 1e6 / rec.scans : 0.0, rec.errors,
			       rec.pages_before, rec.pages_after);
		ksft_print_msg("result class=reclaimer mode=%s period_ms=%lu scans=%lu errors=%lu elapsed_ns=%llu freelist_before_sum=%lu freelist_after_sum=%lu\n",
			       reclaim_name(), opt.period_ms, rec.scans, rec.errors,
			       (unsigned long long)elapsed, rec.pages_before, rec.pages_after);
		if (rec.errors)
			ksft_print_msg("reclaimer: %s\n", rec.err);
		failures += rec.errors > 0;
		ksft_test_result_code(rec.errors ? KSFT_FAIL : KSFT_PASS, "reclaimer", NULL);
	}
	cleanup();
	ksft_print_cnts();
	return failures ? KSFT_FAIL : KSFT_PASS;
}
