// SPDX-License-Identifier: GPL-2.0
/*
 * server: the server side of a worker. It owns the looper threads (the
 * first enters the looper, BC_ENTER_LOOPER; the driver asks for up to
 * --server-threads - 1 more with BR_SPAWN_LOOPER), the check of every
 * request against its header and payload pattern, the replies (sync), the
 * completion count (oneway), the callbacks (pipeline), and the handling of
 * the callbacks this worker's own clients get.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "worker.h"

static bool slot_valid(uint32_t slot)
{
	return slot < shm->nslots && is_client(slot / cfg->threads);
}

/* Check a request; returns false (and counts an error) when it is bad. */
static bool check_request(const struct bt_worker *w, const struct binder_transaction_data *tr,
			  struct msg_hdr *h)
{
	const uint8_t *data = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;

	if (tr->data_size < sizeof(*h)) {
		worker_error(w, "request of %llu bytes, shorter than its header",
			     (unsigned long long)tr->data_size);
		memset(h, 0, sizeof(*h));
		return false;
	}
	memcpy(h, data, sizeof(*h));
	if (h->magic != MAGIC_REQ || !slot_valid(h->slot) ||
	    (cfg->random_size ? h->size > cfg->payload : h->size != cfg->payload) ||
	    tr->data_size != sizeof(*h) + h->size) {
		worker_error(w, "bad request header (magic 0x%x slot %u seq %u size %u, %llu bytes)",
			     h->magic, h->slot, h->seq, h->size,
			     (unsigned long long)tr->data_size);
		return false;
	}
	if (!check_pattern(data + sizeof(*h), h->size, pattern_key(h))) {
		worker_error(w, "payload pattern mismatch: slot %u seq %u round %u",
			     h->slot, h->seq, h->round);
		return false;
	}
	return true;
}

static void handle_callback(const struct bt_worker *w, const struct binder_transaction_data *tr)
{
	uint64_t t1 = now_ns();
	struct msg_hdr h;
	uint32_t round = atomic_load(&shm->round);
	uint64_t *sample;

	if (tr->data_size != sizeof(h)) {
		worker_error(w, "callback of %llu bytes", (unsigned long long)tr->data_size);
		return;
	}
	memcpy(&h, (const void *)(uintptr_t)tr->data.ptr.buffer, sizeof(h));
	if (h.magic != MAGIC_CB || h.slot / cfg->threads != w->id || h.slot >= shm->nslots ||
	    h.round != round || h.seq >= cfg->iterations || h.status) {
		worker_error(w, "callback does not match a request (magic 0x%x slot %u seq %u round %u status %u)",
			     h.magic, h.slot, h.seq, h.round, h.status);
		return;
	}
	sample = &shm->samples[(size_t)h.slot * cfg->iterations + h.seq];
	if (*sample) {
		worker_error(w, "second callback for slot %u seq %u", h.slot, h.seq);
		return;
	}
	*sample = t1 > h.t0 ? t1 - h.t0 : 1;
	slot_complete(h.slot);
}

static void *looper_register(void *arg);

/* BR_SPAWN_LOOPER: one more looper, up to --server-threads in all. */
static void spawn_looper(struct bt_worker *w)
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_mutex_lock(&w->spawn_lock);
	if (w->spawned_loopers + 1 < cfg->server_threads) {
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &attr, looper_register, w))
			worker_error(w, "cannot start a looper thread");
		else
			w->spawned_loopers++;
		pthread_attr_destroy(&attr);
	}
	pthread_mutex_unlock(&w->spawn_lock);
}

/* A server thread: @enter is BC_ENTER_LOOPER (the first) or BC_REGISTER_LOOPER. */
static void looper(struct bt_worker *w, uint32_t enter)
{
	struct bctx *b = calloc(1, sizeof(*b));
	struct binder_transaction_data tr;
	struct msg_hdr h, out;
	const void *a;
	uint32_t cmd;
	bool ok;
	int ret;

	if (!b) {
		worker_error(w, "out of memory");
		return;
	}
	if (cfg->server_fifo) {
		struct sched_param sp = { .sched_priority = SERVER_FIFO_PRIO };

		ret = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		if (ret)
			worker_error(w, "--server-fifo: SCHED_FIFO priority %d: %s",
				     SERVER_FIFO_PRIO, strerror(ret));
	}
	b->fd = w->fd;
	b->enomem = w->enomem;
	bx_cmd(b, enter);
	for (;;) {
		ret = bx_next(b, &cmd, &a);
		if (ret) {
			worker_error(w, "looper: BINDER_WRITE_READ: %s", strerror(-ret));
			break;
		}
		if (bx_housekeeping(b, cmd, a) || cmd == BR_TRANSACTION_COMPLETE)
			continue;
		if (cmd == BR_SPAWN_LOOPER) {
			spawn_looper(w);
			continue;
		}
		if (cfg->faults && (cmd == BR_FAILED_REPLY || cmd == BR_ERROR)) {
			atomic_fetch_add(&shm->failed_txns, 1);
			continue;
		}
		if (cmd != BR_TRANSACTION) {
			worker_error(w, "looper: %s (0x%x)", br_name(cmd), cmd);
			break;
		}
		memcpy(&tr, a, sizeof(tr));
		if (tr.target.ptr != NODE_COOKIE + w->id) {
			worker_error(w, "transaction for node 0x%llx",
				     (unsigned long long)tr.target.ptr);
			break;
		}
		if (tr.code == CODE_CALLBACK) {
			handle_callback(w, &tr);
			bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
			continue;
		}
		ok = check_request(w, &tr, &h);
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
				worker_error(w, "reply: BINDER_WRITE_READ: %s", strerror(-ret));
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
			if (h.slot / cfg->threads == w->id) {
				worker_error(w, "pipeline request from our own client %u", h.slot);
				break;
			}
			out.magic = MAGIC_CB;
			bx_txn(b, BC_TRANSACTION, w->handles[h.slot / cfg->threads], CODE_CALLBACK,
			       TF_ONE_WAY, &out, sizeof(out), NULL, 0);
			ret = bx_talk(b, false);
			if (ret)
				worker_error(w, "callback: BINDER_WRITE_READ: %s", strerror(-ret));
			break;
		default:
			worker_error(w, "unknown transaction code %u", tr.code);
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
}

static void *looper_enter(void *arg)
{
	looper(arg, BC_ENTER_LOOPER);
	return NULL;
}

static void *looper_register(void *arg)
{
	looper(arg, BC_REGISTER_LOOPER);
	return NULL;
}

bool server_start(struct bt_worker *w)
{
	pthread_attr_t attr;
	pthread_t t;
	bool ok;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ok = !pthread_create(&t, &attr, looper_enter, w);
	if (!ok)
		worker_error(w, "cannot start the looper thread");
	pthread_attr_destroy(&attr);
	return ok;
}
