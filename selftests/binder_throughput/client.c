// SPDX-License-Identifier: GPL-2.0
/*
 * client: the client threads of a worker (--threads per worker, or
 * --fifo-threads and --nice-threads). It owns the calls of one round in
 * each mode (sync, oneway, pipeline, mixed), their timing into the shared
 * samples, the check of every reply against its request, the --window
 * limit of calls in flight, and each thread's scheduling class.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "worker.h"

struct client {
	struct bt_worker *w;
	pthread_t thread;
	unsigned int index;
	unsigned int slot;
	uint64_t rng;
	struct bctx *b;
	uint8_t *msg;
};

static void sleep_us(unsigned int us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

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
	unsigned int servers = cfg->workers / 2, r;

	if (cfg->pairs)
		return (c->w->id - servers) % servers;
	/* a different other worker each call, as binderThroughputTest picks */
	r = client_rand(c) % (cfg->workers - 1);
	return r >= c->w->id ? r + 1 : r;
}

/*
 * A transaction the driver failed (bx_wait() returned 1): with --faults it is
 * counted and the round goes on; the call is then complete. Returns false
 * when the failure ends the round.
 */
static bool client_failed(struct client *c, uint32_t seq, uint32_t target, int ret,
			  const char *err)
{
	if (ret == 1 && cfg->faults) {
		atomic_fetch_add(&shm->failed_txns, 1);
		return true;
	}
	worker_error(c->w, "client %u seq %u to worker %u: %s", c->slot, seq, target, err);
	return false;
}

/* RUSAGE_THREAD: the calling thread's own context switches and CPU time. */
static void thread_usage(struct client *c, struct bt_usage *u)
{
	if (usage_now(RUSAGE_THREAD, u)) {
		memset(u, 0, sizeof(*u));
		worker_error(c->w, "client %u: getrusage(RUSAGE_THREAD): %s", c->slot,
			     strerror(errno));
	}
}

/*
 * One round: cfg->iterations calls, or for a background thread (--nice-threads)
 * calls until the timed threads are done. Returns false after an error.
 *
 * A --fifo-threads caller also measures its own context switches and CPU
 * time over its calls (RUSAGE_THREAD), into its slot's fifo_usage: from the
 * start of its first call to the end of its last, less its --fifo-sleep
 * pauses (each is a voluntary switch of no call's making).
 */
static bool client_round(struct client *c, uint32_t round)
{
	bool background = !slot_timed(c->slot);
	bool fifo_usage = cfg->fifo_threads && !background;
	struct bt_usage u0 = { 0 }, u1, u2, paused = { 0 }, d;
	struct msg_hdr *h = (struct msg_hdr *)c->msg, rh;
	uint64_t *out = &shm->samples[(size_t)c->slot * cfg->iterations];
	struct binder_transaction_data tr;
	binder_uintptr_t pending = 0;
	uint64_t t0, t1;
	uint32_t seq, target, payload;
	bool sync;
	char err[160];
	int ret;

	atomic_store(&shm->slots[c->slot].done, 0);
	atomic_store(&shm->slots[c->slot].sent, 0);
	atomic_store(&shm->slots[c->slot].calls, 0);
	memset(&shm->slots[c->slot].fifo_usage, 0, sizeof(shm->slots[c->slot].fifo_usage));
	if (fifo_usage)
		thread_usage(c, &u0);
	for (seq = 0; background ? atomic_load(&shm->timed_running) != 0 : seq < cfg->iterations;
	     seq++) {
		target = client_target(c);
		if (cfg->mode != MODE_SYNC && seq >= cfg->window)
			slot_wait(c->slot, seq - cfg->window + 1);
		payload = cfg->random_size ? client_rand(c) % (cfg->payload + 1) : cfg->payload;
		sync = cfg->mode == MODE_SYNC || (cfg->mode == MODE_MIXED && client_rand(c) & 1);
		h->magic = MAGIC_REQ;
		h->slot = c->slot;
		h->seq = seq;
		h->round = round;
		h->size = payload;
		h->status = 0;
		fill_pattern(c->msg + sizeof(*h), payload, pattern_key(h));
		t0 = now_ns();
		h->t0 = t0;
		atomic_store(&shm->slots[c->slot].sent, seq + 1);
		/* Like libbinder, the previous reply's buffer is freed with the next call. */
		if (pending)
			bx_cmd_ptr(c->b, BC_FREE_BUFFER, pending);
		pending = 0;
		if (sync) {
			bx_txn(c->b, BC_TRANSACTION, c->w->handles[target], CODE_SYNC, 0,
			       c->msg, sizeof(*h) + payload, NULL, 0);
			ret = bx_wait(c->b, &tr, err, sizeof(err));
			t1 = now_ns();
			if (!background)
				out[seq] = t1 - t0;
			/* mixed: the servers count oneway calls, the client its sync ones */
			if (cfg->mode == MODE_MIXED)
				slot_complete(c->slot);
			if (ret) {
				if (client_failed(c, seq, target, ret, err))
					continue;
				return false;
			}
			pending = tr.data.ptr.buffer;
			if (tr.data_size != sizeof(rh)) {
				worker_error(c->w, "client %u seq %u: reply of %llu bytes", c->slot, seq,
					     (unsigned long long)tr.data_size);
				break;
			}
			memcpy(&rh, (const void *)(uintptr_t)tr.data.ptr.buffer, sizeof(rh));
			if (rh.magic != MAGIC_REPLY || rh.slot != c->slot || rh.seq != seq ||
			    rh.round != round || rh.t0 != t0 || rh.status) {
				worker_error(c->w, "client %u seq %u: reply does not match (magic 0x%x slot %u seq %u round %u status %u)",
					     c->slot, seq, rh.magic, rh.slot, rh.seq, rh.round,
					     rh.status);
				break;
			}
			/* --fifo-threads: a timed caller pauses between its calls. */
			if (fifo_usage && cfg->fifo_sleep_us) {
				thread_usage(c, &u1);
				sleep_us(cfg->fifo_sleep_us);
				thread_usage(c, &u2);
				usage_delta(&d, &u1, &u2);
				usage_add(&paused, &d);
			}
		} else {
			bx_txn(c->b, BC_TRANSACTION, c->w->handles[target],
			       cfg->mode == MODE_PIPELINE ? CODE_PIPE : CODE_ONEWAY, TF_ONE_WAY,
			       c->msg, sizeof(*h) + payload, NULL, 0);
			ret = bx_wait(c->b, NULL, err, sizeof(err));
			t1 = now_ns();
			if (cfg->mode != MODE_PIPELINE)
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
			worker_error(c->w, "client %u: BC_FREE_BUFFER failed", c->slot);
	}
	if (fifo_usage) {
		thread_usage(c, &u1);
		usage_delta(&d, &u0, &u1);
		usage_delta(&shm->slots[c->slot].fifo_usage, &paused, &d);
	}
	atomic_store(&shm->slots[c->slot].calls, seq);
	if (background)
		return true;
	if (seq < cfg->iterations)
		return false;
	/* oneway, pipeline, mixed: the round ends when every call is complete. */
	if (cfg->mode != MODE_SYNC)
		slot_wait(c->slot, cfg->iterations);
	return true;
}

static void *client_thread(void *arg)
{
	struct client *c = arg;
	struct sched_param sp = { .sched_priority = FIFO_PRIO };
	bool fifo = cfg->fifo || c->index < cfg->fifo_threads;
	int e;

	if (fifo) {
		e = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		if (e)
			worker_error(c->w, "%s: SCHED_FIFO priority %d: %s",
				     cfg->fifo ? "--fifo" : "--fifo-threads", FIFO_PRIO, strerror(e));
	} else if (cfg->nice_threads &&
		   setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), cfg->nice)) {
		worker_error(c->w, "--nice-threads: nice %d: %s", cfg->nice, strerror(errno));
	}
	for (;;) {
		pthread_barrier_wait(&c->w->start);
		if (atomic_load(&c->w->quit))
			break;
		client_round(c, atomic_load(&shm->round));
		/* On every path, or the background threads would call forever. */
		if (cfg->fifo_threads && slot_timed(c->slot))
			atomic_fetch_sub(&shm->timed_running, 1);
		pthread_barrier_wait(&c->w->end);
	}
	return NULL;
}

bool clients_start(struct bt_worker *w)
{
	struct client *clients;
	unsigned int t;

	pthread_barrier_init(&w->start, NULL, cfg->threads + 1);
	pthread_barrier_init(&w->end, NULL, cfg->threads + 1);
	clients = calloc(cfg->threads, sizeof(*clients));
	if (!clients)
		return false;
	for (t = 0; t < cfg->threads; t++) {
		clients[t].w = w;
		clients[t].index = t;
		clients[t].slot = w->id * cfg->threads + t;
		clients[t].rng = 0x9e3779b97f4a7c15ULL * (clients[t].slot + 1);
		clients[t].b = calloc(1, sizeof(*clients[t].b));
		clients[t].msg = calloc(1, sizeof(struct msg_hdr) + cfg->payload);
		if (!clients[t].b || !clients[t].msg)
			return false;
		clients[t].b->fd = w->fd;
		clients[t].b->enomem = w->enomem;
		if (pthread_create(&clients[t].thread, NULL, client_thread, &clients[t])) {
			worker_error(w, "cannot start client thread %u", t);
			return false;
		}
	}
	return true;
}
