// SPDX-License-Identifier: GPL-2.0
/*
 * binder_proto: one thread's conversation with the binder driver (see
 * binder_proto.h): opening and mapping the device, BINDER_WRITE_READ, the
 * commands, one call and one reply. It includes no header of ours but its
 * own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "binder_proto.h"

void bx_put(struct bctx *b, const void *p, size_t n)
{
	if (b->out_len + n > sizeof(b->out))
		abort();	/* the callers size their commands */
	memcpy(b->out + b->out_len, p, n);
	b->out_len += n;
}

void bx_cmd(struct bctx *b, uint32_t cmd)
{
	bx_put(b, &cmd, sizeof(cmd));
}

void bx_cmd_ptr(struct bctx *b, uint32_t cmd, binder_uintptr_t ptr)
{
	bx_cmd(b, cmd);
	bx_put(b, &ptr, sizeof(ptr));
}

void bx_cmd_u32(struct bctx *b, uint32_t cmd, uint32_t val)
{
	bx_cmd(b, cmd);
	bx_put(b, &val, sizeof(val));
}

void bx_txn(struct bctx *b, uint32_t cmd, uint32_t handle, uint32_t code,
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

int bx_talk(struct bctx *b, bool rd)
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
			/* An injected allocation failure; what was consumed stays so. */
			if (errno == ENOMEM && b->enomem)
				atomic_fetch_add(b->enomem, 1);
			else if (errno != EINTR && errno != EAGAIN)
				return -errno;
			if (b->stop && *b->stop)
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

int bx_next(struct bctx *b, uint32_t *cmd, const void **arg)
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

bool bx_housekeeping(struct bctx *b, uint32_t cmd, const void *arg)
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

const char *br_name(uint32_t cmd)
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

int bx_wait(struct bctx *b, struct binder_transaction_data *tr,
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

int binder_open_map(const char *path, void **map, char *err, size_t errlen)
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

