/* SPDX-License-Identifier: GPL-2.0 */
/*
 * binder_proto: the binder UAPI as binder_throughput speaks it, and nothing
 * else of the test. It owns opening and mapping a binder device, the
 * BINDER_WRITE_READ buffers of one thread (struct bctx), queueing commands
 * (BC_*), parsing return commands (BR_*), and waiting for the outcome of one
 * call: its BR_TRANSACTION_COMPLETE, or its BR_REPLY. It includes no header
 * of binder_throughput's.
 *
 * A call, as a client makes it:
 *
 *	bx_txn(b, BC_TRANSACTION, handle, code, 0, data, size, NULL, 0);
 *	ret = bx_wait(b, &reply, err, sizeof(err));
 *	...
 *	bx_cmd_ptr(b, BC_FREE_BUFFER, reply.data.ptr.buffer);
 *
 * and the reply, as a server loop makes it after bx_next() returned
 * BR_TRANSACTION:
 *
 *	bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
 *	bx_txn(b, BC_REPLY, 0, 0, 0, data, size, NULL, 0);
 *	bx_talk(b, false);
 */
#ifndef BINDER_THROUGHPUT_PROTO_H
#define BINDER_THROUGHPUT_PROTO_H

#include <linux/android/binder.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The driver maps at most SZ_4M per process; oneway calls get half of it. */
#define BINDER_MAP_SIZE (4UL << 20)
#define BINDER_ASYNC_SIZE (BINDER_MAP_SIZE / 2)

#define BX_OUT_SIZE 16384
#define BX_IN_SIZE 512

/* Binder thread context: one per thread that talks to the driver. */
struct bctx {
	int fd;
	size_t out_len;
	size_t in_len;
	size_t in_pos;
	/*
	 * Set by the owner, both optional. @enomem: a BINDER_WRITE_READ that
	 * fails with ENOMEM (fault injection) is counted there and retried
	 * instead of failing. @stop: an interrupted BINDER_WRITE_READ returns
	 * -EINTR once *stop is non-zero, instead of being retried.
	 */
	_Atomic uint64_t *enomem;
	volatile sig_atomic_t *stop;
	uint8_t out[BX_OUT_SIZE];
	uint8_t in[BX_IN_SIZE];
};

/*
 * Open @path, check the protocol version and map BINDER_MAP_SIZE of it
 * read-only at *@map. Returns the fd, or -1 with the reason in @err.
 */
int binder_open_map(const char *path, void **map, char *err, size_t errlen);

/* Queue @n bytes, a command, a command and its pointer or u32 argument. */
void bx_put(struct bctx *b, const void *p, size_t n);
void bx_cmd(struct bctx *b, uint32_t cmd);
void bx_cmd_ptr(struct bctx *b, uint32_t cmd, binder_uintptr_t ptr);
void bx_cmd_u32(struct bctx *b, uint32_t cmd, uint32_t val);

/*
 * Queue @cmd (BC_TRANSACTION or BC_REPLY) with a binder_transaction_data
 * for @handle pointing at @size bytes of @data and @noffs object offsets.
 */
void bx_txn(struct bctx *b, uint32_t cmd, uint32_t handle, uint32_t code, uint32_t flags,
	    const void *data, size_t size, const binder_size_t *offs, size_t noffs);

/*
 * Write what is queued and, when @rd, read into the (drained) input buffer.
 * Returns 0 or -errno.
 */
int bx_talk(struct bctx *b, bool rd);

/*
 * The next return command and a pointer to its argument. Reads from the
 * driver (blocking) when the input is drained; queued commands go out first.
 * Returns 0 or -errno.
 */
int bx_next(struct bctx *b, uint32_t *cmd, const void **arg);

/*
 * Reference counting of our own node and loop housekeeping (BR_NOOP,
 * BR_INCREFS, BR_ACQUIRE, BR_RELEASE, BR_DECREFS). Returns true when @cmd
 * was handled here.
 */
bool bx_housekeeping(struct bctx *b, uint32_t cmd, const void *arg);

/* The name of a return command, for messages. */
const char *br_name(uint32_t cmd);

/*
 * Wait for BR_TRANSACTION_COMPLETE (oneway, @tr NULL) or for the reply of a
 * synchronous transaction, copied to @tr. Returns 0; 1 when the driver
 * failed the transaction (BR_FAILED_REPLY, BR_DEAD_REPLY, BR_FROZEN_REPLY,
 * BR_ERROR); or -1 on anything else. Both describe the problem in @err.
 */
int bx_wait(struct bctx *b, struct binder_transaction_data *tr, char *err, size_t errlen);

#endif /* BINDER_THROUGHPUT_PROTO_H */
