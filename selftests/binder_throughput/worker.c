// SPDX-License-Identifier: GPL-2.0
/*
 * worker: one worker process, from the fork to its exit. It owns the
 * worker's set-up (open and map the device, start the looper, register with
 * the context manager, fetch the other workers' handles, start the client
 * threads), the round loop driven by the parent's control pipe and the
 * getrusage() samples it asks for and make stress's hooks (--faults,
 * --teardown). The loopers are in server.c, the client threads in client.c,
 * what both use in slots.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "worker.h"

/* The worker of this process: one per process, its threads get a pointer. */
static struct bt_worker wk = { .spawn_lock = PTHREAD_MUTEX_INITIALIZER };

/* ---- set-up ---- */

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

/*
 * This process's context switches and CPU time so far, for the parent (in
 * struct worker_state): RUSAGE_SELF sums every thread of the process, the
 * client threads, the loopers and this one, those that have exited too
 * (usage.h). The parent takes the difference over the measured rounds.
 */
static void sample_usage(void)
{
	if (usage_now(RUSAGE_SELF, &shm->workers[wk.id].usage))
		worker_error(&wk, "getrusage(RUSAGE_SELF): %s", strerror(errno));
}

/* A synchronous transaction to the context manager (handle 0). */
static int call_manager(struct bctx *b, uint32_t code, const void *data, size_t size,
			const binder_size_t *offs, size_t noffs,
			struct binder_transaction_data *reply)
{
	char err[160];

	bx_txn(b, BC_TRANSACTION, 0, code, 0, data, size, offs, noffs);
	if (bx_wait(b, reply, err, sizeof(err))) {
		worker_error(&wk, "%s: %s", code == CODE_ADD ? "registering" : "fetching handles",
			     err);
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
	if (tr.data_size != 8 + cfg->workers * sizeof(*obj) || count[0] != MAGIC_GET ||
	    count[1] != cfg->workers) {
		worker_error(&wk, "bad handle list (%llu bytes)", (unsigned long long)tr.data_size);
		return -1;
	}
	obj = (const struct flat_binder_object *)(data + 8);
	for (j = 0; j < cfg->workers; j++) {
		if (j == wk.id) {
			/* The driver hands a node back to its owner as the node itself. */
			if (obj[j].hdr.type != BINDER_TYPE_BINDER ||
			    obj[j].binder != NODE_COOKIE + wk.id) {
				worker_error(&wk, "own entry %u is not our node", j);
				return -1;
			}
			continue;
		}
		if (obj[j].hdr.type != BINDER_TYPE_HANDLE) {
			worker_error(&wk, "entry %u: object type 0x%x, not a handle", j,
				     obj[j].hdr.type);
			return -1;
		}
		wk.handles[j] = obj[j].handle;
		/* Keep the reference once the buffer that carried it is freed. */
		bx_cmd_u32(b, BC_INCREFS, wk.handles[j]);
		bx_cmd_u32(b, BC_ACQUIRE, wk.handles[j]);
	}
	bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
	return bx_talk(b, false) ? -1 : 0;
}

/* ---- make stress: --faults and --teardown ---- */

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
		worker_error(&wk, "--faults: no /proc/self/task");
		return false;
	}
	for (i = 0; i < g.gl_pathc && ok; i++) {
		snprintf(path, sizeof(path), "%s/make-it-fail", g.gl_pathv[i]);
		f = fopen(path, "w");
		if (!f || fputs("1", f) < 0 || fclose(f)) {
			worker_error(&wk, "--faults: %s: %s", path, strerror(errno));
			ok = false;
		}
	}
	globfree(&g);
	return ok;
}

/*
 * --teardown: tear the worker down under its own threads, at a random time
 * within cfg->teardown_ms of its setup: unmap its binder mapping or close its
 * binder fd while they transact, give them a moment to trip over it, exit.
 */
static void *teardown_thread(void *arg)
{
	uint64_t r = now_ns() ^ ((uint64_t)wk.id << 32);
	struct timespec ts;
	long after_ms;

	(void)arg;
	r ^= r << 13;
	r ^= r >> 7;
	r ^= r << 17;
	after_ms = r % cfg->teardown_ms;
	ts.tv_sec = after_ms / 1000;
	ts.tv_nsec = after_ms % 1000 * 1000000L;
	nanosleep(&ts, NULL);
	if (r & (1ULL << 40)) {
		say("worker %u: teardown: munmap of the binder mapping after %ld ms", wk.id, after_ms);
		munmap(wk.map, BINDER_MAP_SIZE);
	} else {
		say("worker %u: teardown: close of the binder fd after %ld ms", wk.id, after_ms);
		close(wk.fd);
	}
	ts.tv_sec = 0;
	ts.tv_nsec = 200 * 1000000L;
	nanosleep(&ts, NULL);
	_exit(KSFT_FAIL);
}

void worker_main(unsigned int id, int ctl, int done_wr)
{
	struct add_msg add = { .magic = MAGIC_ADD, .worker = id };
	binder_size_t add_off = offsetof(struct add_msg, obj);
	struct binder_transaction_data tr;
	uint32_t max_threads = cfg->server_threads - 1;
	pthread_attr_t attr;
	pthread_t thread;
	struct bctx *b;
	char err[256];
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent->pid)
		_exit(KSFT_FAIL);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGHUP, SIG_IGN);
	wk.id = id;
	wk.client = is_client(id);
	/* --faults: an injected ENOMEM of BINDER_WRITE_READ is counted and retried. */
	wk.enomem = cfg->faults ? &shm->enomem : NULL;

	b = calloc(1, sizeof(*b));
	if (!b)
		_exit(KSFT_FAIL);
	wk.fd = bx_open(parent->device, BINDER_MAP_SIZE, &wk.map, err, sizeof(err));
	if (wk.fd < 0) {
		worker_error(&wk, "%s", err);
		goto fail;
	}
	b->fd = wk.fd;
	b->enomem = wk.enomem;
	if (ioctl(wk.fd, BINDER_SET_MAX_THREADS, &max_threads) < 0) {
		worker_error(&wk, "BINDER_SET_MAX_THREADS %u: %s", max_threads, strerror(errno));
		goto fail;
	}
	if (!server_start(&wk))
		goto fail;

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

	if (wk.client && !clients_start(&wk))
		goto fail;
	if (cfg->faults && !arm_faults())
		goto fail;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (cfg->teardown_ms && pthread_create(&thread, &attr, teardown_thread, NULL)) {
		worker_error(&wk, "cannot start the teardown thread");
		goto fail;
	}
	send_done(done_wr, MSG_READY);

	/*
	 * 'R': run a round; 'U': sample getrusage() for the parent, which asks
	 * before the first measured round and after the last one, when no call
	 * runs; 'Q' or the parent gone: exit.
	 */
	while (read(ctl, &c, 1) == 1) {
		if (c == 'U') {
			sample_usage();
			send_done(done_wr, MSG_USAGE);
			continue;
		}
		if (c != 'R')
			break;
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
