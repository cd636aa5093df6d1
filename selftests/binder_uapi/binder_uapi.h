/* SPDX-License-Identifier: GPL-2.0 */
/*
 * binder_uapi: the binder UAPI as the clients of these selftests speak it
 * (binder_throughput, binder_fixes, binder-smoke), and nothing else of
 * theirs. It owns opening and mapping a binder device, becoming the context
 * manager, the BINDER_WRITE_READ buffers of one thread (struct bctx),
 * queueing commands (BC_*), parsing return commands (BR_*), and waiting for
 * the outcome of one call. It includes no header of the clients'; it is
 * thread-safe as long as each thread has its own struct bctx.
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
 *
 * bx_talk() and bx_next() retry an interrupted or partial BINDER_WRITE_READ;
 * a reproducer that needs exactly one ioctl uses bx_flush() or
 * bx_write_read(), which retry nothing.
 */
#ifndef SELFTESTS_BINDER_UAPI_H
#define SELFTESTS_BINDER_UAPI_H

#include <linux/android/binder.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
 * Open @path, check the protocol version and map @map_bytes of it read-only
 * at *@map. Returns the fd, or -1 with the reason in @err and errno set
 * (EPROTO: another protocol version).
 */
int bx_open(const char *path, size_t map_bytes, void **map, char *err, size_t errlen);

/*
 * Become the context manager of @fd's device: BINDER_SET_CONTEXT_MGR when
 * @ptr is 0, else BINDER_SET_CONTEXT_MGR_EXT with a node of pointer and
 * cookie @ptr. Returns 0 or -errno.
 */
int bx_become_manager(int fd, binder_uintptr_t ptr);

/*
 * A binderfs of this process's own: unshare the mount namespace, make /
 * private, and mount binderfs on a fresh directory "TMP/@prefix_XXXXXX"
 * (TMP: $TMPDIR if writable, else /tmp, else Android's /data/local/tmp),
 * written to @dir. Returns 0; 1 when the kernel has no binderfs (ENODEV:
 * the directory removed again); or -errno, with what failed in @err. The
 * caller unmounts and removes @dir.
 */
int bx_binderfs_mount(const char *prefix, char *dir, size_t len, char *err, size_t errlen);

/*
 * BINDER_CTL_ADD of a device @name on the binderfs mounted at @dir; its path
 * in @path. Returns 0, or -errno with what failed in @err.
 */
int bx_binderfs_add(const char *dir, const char *name, char *path, size_t len,
		    char *err, size_t errlen);

/* An empty context for the thread that talks to @fd (@enomem, @stop unset). */
static inline void bx_init(struct bctx *b, int fd)
{
	memset(b, 0, sizeof(*b));
	b->fd = fd;
}

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
 * One BINDER_WRITE_READ of what is queued, nothing retried, and the queue
 * emptied. Returns 0, -errno, or -EPROTO when the driver did not consume
 * all of it.
 */
int bx_flush(struct bctx *b);

/*
 * One BINDER_WRITE_READ: writes @outlen bytes of @out (if any), reads into
 * @in (if any), *@got the bytes read. Nothing retried. Returns 0, -errno, or
 * -EPROTO when the driver did not consume all of @out.
 */
int bx_write_read(int fd, const void *out, size_t outlen, void *in, size_t inlen, size_t *got);

/* Whether @fd has work for this thread within @ms (poll). */
bool bx_poll(int fd, int ms);

/*
 * The return commands in a buffer read by bx_write_read(), one at a time:
 * the command at *@pos and its argument; *@pos moves past them. false at
 * the end.
 */
bool bx_parse(const void *buf, size_t len, size_t *pos, uint32_t *cmd, const void **arg);

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

/* The name of a return command, for messages; NULL when it has none here. */
const char *bx_br_name(uint32_t cmd);

/* Whether @cmd ends a call: its reply, or the driver's answer instead of one. */
bool bx_is_answer(uint32_t cmd);

/*
 * Wait for BR_TRANSACTION_COMPLETE (oneway, @tr NULL) or for the reply of a
 * synchronous transaction, copied to @tr. Returns 0; 1 when the driver
 * failed the transaction (BR_FAILED_REPLY, BR_DEAD_REPLY, BR_FROZEN_REPLY,
 * BR_ERROR); or -1 on anything else. Both describe the problem in @err.
 */
int bx_wait(struct bctx *b, struct binder_transaction_data *tr, char *err, size_t errlen);

/*
 * Read from @fd, nothing retried, until the answer to the calling thread's
 * call (see bx_is_answer()), for at most @ms (-1: no limit). Its BR_REPLY
 * data, if any, in *@tr. Returns that command, or 0 if none came.
 */
uint32_t bx_wait_answer(int fd, int ms, struct binder_transaction_data *tr);

/* CLOCK_MONOTONIC in milliseconds, for the time limits of the above. */
long long bx_now_ms(void);

#endif /* SELFTESTS_BINDER_UAPI_H */
