// SPDX-License-Identifier: GPL-2.0
/*
 * slots: what a worker's loopers (server.c) and client threads (client.c)
 * share below worker.c: the worker's error count, the payload pattern, and
 * the futex slots that count completions across processes.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "worker.h"

void worker_error(const struct bt_worker *w, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Only the first few: a broken run can fail every transaction. */
	if (atomic_fetch_add(&shm->workers[w->id].errors, 1) < 5)
		say("worker %u: error: %s", w->id, msg);
}

/* ---- payload pattern ---- */

uint64_t pattern_key(const struct msg_hdr *h)
{
	return ((uint64_t)h->seq << 32 | h->slot) ^ ((uint64_t)h->round * 0xd6e8feb86659fd93ULL);
}

static uint64_t pattern_word(uint64_t key, size_t k)
{
	return key * 0x9e3779b97f4a7c15ULL + k * 0xbf58476d1ce4e5b9ULL;
}

void fill_pattern(uint8_t *p, size_t n, uint64_t key)
{
	size_t k, off;
	uint64_t w;

	for (k = 0, off = 0; off < n; k++, off += sizeof(w)) {
		w = pattern_word(key, k);
		memcpy(p + off, &w, n - off < sizeof(w) ? n - off : sizeof(w));
	}
}

bool check_pattern(const uint8_t *p, size_t n, uint64_t key)
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

void slot_wait(unsigned int s, uint32_t target)
{
	struct slot_state *st = &shm->slots[s];
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

void slot_complete(unsigned int s)
{
	struct slot_state *st = &shm->slots[s];
	uint32_t v = atomic_fetch_add(&st->done, 1) + 1;
	uint32_t w = atomic_load(&st->wait_for);

	if (w && v >= w)
		futex_wake_u32(&st->done);
}
