/* SPDX-License-Identifier: GPL-2.0 */
/*
 * worker.h: inside one worker process. It owns struct bt_worker, the state
 * of the process that its looper and client threads share (passed to each
 * of them), and the interfaces between worker.c (set-up), slots.c (errors,
 * payload pattern, the futex slots), server.c (the loopers) and client.c (the
 * client threads).
 */
#ifndef BINDER_THROUGHPUT_WORKER_H
#define BINDER_THROUGHPUT_WORKER_H

#include <pthread.h>

#include "bt.h"

struct bt_worker {
	int fd;
	void *map;
	unsigned int id;
	bool client;
	pthread_barrier_t start;	/* the client threads and the worker, per round */
	pthread_barrier_t end;
	_Atomic bool quit;
	uint32_t handles[MAX_WORKERS];	/* of the other workers */
	_Atomic uint64_t *enomem;	/* --faults: BINDER_WRITE_READ -ENOMEM count */
	unsigned int spawned_loopers;
	pthread_mutex_t spawn_lock;
};

/* slots.c: count an error of worker @w; the first few are printed. */
void worker_error(const struct bt_worker *w, const char *fmt, ...) __printf(2, 3);

/* The payload of a request: a pattern derived from its header. */
uint64_t pattern_key(const struct msg_hdr *h);
void fill_pattern(uint8_t *p, size_t n, uint64_t key);
bool check_pattern(const uint8_t *p, size_t n, uint64_t key);

/* Sleep until slot @s has counted @target completions; count one. */
void slot_wait(unsigned int s, uint32_t target);
void slot_complete(unsigned int s);

/* server.c: start the first looper (BC_ENTER_LOOPER); false on failure. */
bool server_start(struct bt_worker *w);

/* client.c: start --threads client threads; false (counted) on failure. */
bool clients_start(struct bt_worker *w);

#endif /* BINDER_THROUGHPUT_WORKER_H */
