// SPDX-License-Identifier: GPL-2.0
/*
 * binder_uapi: one thread's conversation with the binder driver (see
 * binder_uapi.h): opening and mapping the device, BINDER_WRITE_READ, the
 * commands, one call and one reply. It includes no header of the clients'.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* unshare() */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/android/binderfs.h>
#include <sched.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include "binder_uapi.h"

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

const char *bx_br_name(uint32_t cmd)
{
	switch (cmd) {
	case BR_ERROR: return "BR_ERROR";
	case BR_OK: return "BR_OK";
	case BR_TRANSACTION: return "BR_TRANSACTION";
	case BR_REPLY: return "BR_REPLY";
	case BR_DEAD_REPLY: return "BR_DEAD_REPLY";
	case BR_TRANSACTION_COMPLETE: return "BR_TRANSACTION_COMPLETE";
	case BR_FAILED_REPLY: return "BR_FAILED_REPLY";
	case BR_FROZEN_REPLY: return "BR_FROZEN_REPLY";
	case BR_NOOP: return "BR_NOOP";
	case BR_SPAWN_LOOPER: return "BR_SPAWN_LOOPER";
	case BR_DEAD_BINDER: return "BR_DEAD_BINDER";
	case BR_INCREFS: return "BR_INCREFS";
	case BR_ACQUIRE: return "BR_ACQUIRE";
	case BR_RELEASE: return "BR_RELEASE";
	case BR_DECREFS: return "BR_DECREFS";
	}
	return NULL;
}

bool bx_is_answer(uint32_t cmd)
{
	switch (cmd) {
	case BR_REPLY:
	case BR_DEAD_REPLY:
	case BR_FAILED_REPLY:
	case BR_FROZEN_REPLY:
	case BR_ERROR:
		return true;
	}
	return false;
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
		snprintf(err, errlen, "%s (0x%x) while waiting for %s",
			 bx_br_name(cmd) ?: "an unexpected return command", cmd,
			 tr ? "a reply" : "BR_TRANSACTION_COMPLETE");
		return cmd == BR_FAILED_REPLY || cmd == BR_DEAD_REPLY ||
		       cmd == BR_FROZEN_REPLY ? 1 : -1;
	}
}

int bx_open(const char *path, size_t map_bytes, void **map, char *err, size_t errlen)
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
		errno = EPROTO;
		return -1;
	}
	*map = mmap(NULL, map_bytes, PROT_READ, MAP_PRIVATE | MAP_NORESERVE, fd, 0);
	if (*map == MAP_FAILED) {
		int e = errno;

		snprintf(err, errlen, "mmap %.200s: %s", path, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int bx_become_manager(int fd, binder_uintptr_t ptr)
{
	struct flat_binder_object fbo;

	if (!ptr)
		return ioctl(fd, BINDER_SET_CONTEXT_MGR, 0) ? -errno : 0;
	memset(&fbo, 0, sizeof(fbo));
	fbo.hdr.type = BINDER_TYPE_BINDER;
	fbo.binder = ptr;
	fbo.cookie = ptr;
	return ioctl(fd, BINDER_SET_CONTEXT_MGR_EXT, &fbo) ? -errno : 0;
}

int bx_binderfs_mount(const char *prefix, char *dir, size_t len, char *err, size_t errlen)
{
	const char *tmpdir;
	int e;

	if (unshare(CLONE_NEWNS)) {
		e = errno;
		snprintf(err, errlen, "unshare(CLONE_NEWNS): %s", strerror(e));
		return -e;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		e = errno;
		snprintf(err, errlen, "making / private: %s", strerror(e));
		return -e;
	}
	/* Android has no /tmp: $TMPDIR there (adb shell's is /data/local/tmp) */
	tmpdir = getenv("TMPDIR");
	if (!tmpdir || access(tmpdir, W_OK))
		tmpdir = access("/tmp", W_OK) && !access("/data/local/tmp", W_OK) ?
			 "/data/local/tmp" : "/tmp";
	snprintf(dir, len, "%s/%s_XXXXXX", tmpdir, prefix);
	if (!mkdtemp(dir)) {
		e = errno;
		dir[0] = '\0';
		snprintf(err, errlen, "mkdtemp in %.200s: %s", tmpdir, strerror(e));
		return -e;
	}
	if (mount(NULL, dir, "binder", 0, NULL)) {
		e = errno;
		snprintf(err, errlen, "mounting binderfs on %.200s: %s", dir, strerror(e));
		rmdir(dir);
		dir[0] = '\0';
		return e == ENODEV ? 1 : -e;
	}
	return 0;
}

int bx_binderfs_add(const char *dir, const char *name, char *path, size_t len,
		    char *err, size_t errlen)
{
	struct binderfs_device dev;
	char ctl[PATH_MAX];
	int fd, e = 0;

	snprintf(ctl, sizeof(ctl), "%s/binder-control", dir);
	fd = open(ctl, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "open %.200s: %s", ctl, strerror(e));
		return -e;
	}
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name), "%s", name);
	if (ioctl(fd, BINDER_CTL_ADD, &dev)) {
		e = errno;
		snprintf(err, errlen, "BINDER_CTL_ADD %s: %s", dev.name, strerror(e));
	}
	close(fd);
	if (!e)
		snprintf(path, len, "%s/%s", dir, dev.name);
	return -e;
}

int bx_write_read(int fd, const void *out, size_t outlen, void *in, size_t inlen, size_t *got)
{
	struct binder_write_read bwr;

	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (binder_uintptr_t)(uintptr_t)out;
	bwr.write_size = out ? outlen : 0;
	bwr.read_buffer = (binder_uintptr_t)(uintptr_t)in;
	bwr.read_size = in ? inlen : 0;
	if (ioctl(fd, BINDER_WRITE_READ, &bwr))
		return -errno;
	if (bwr.write_consumed != bwr.write_size)
		return -EPROTO;
	if (got)
		*got = bwr.read_consumed;
	return 0;
}

int bx_flush(struct bctx *b)
{
	int ret = bx_write_read(b->fd, b->out, b->out_len, NULL, 0, NULL);

	b->out_len = 0;
	return ret;
}

bool bx_poll(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

bool bx_parse(const void *buf, size_t len, size_t *pos, uint32_t *cmd, const void **arg)
{
	const uint8_t *p = buf;
	size_t size;

	if (*pos + sizeof(*cmd) > len)
		return false;
	memcpy(cmd, p + *pos, sizeof(*cmd));
	size = _IOC_SIZE(*cmd);
	if (*pos + sizeof(*cmd) + size > len)
		return false;
	*arg = p + *pos + sizeof(*cmd);
	*pos += sizeof(*cmd) + size;
	return true;
}

long long bx_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

uint32_t bx_wait_answer(int fd, int ms, struct binder_transaction_data *tr)
{
	long long end = bx_now_ms() + ms;
	uint8_t buf[512];

	for (;;) {
		size_t got = 0, pos = 0;
		const void *arg;
		uint32_t cmd;
		int left = ms < 0 ? -1 : (int)(end - bx_now_ms());

		if (ms >= 0 && (left <= 0 || !bx_poll(fd, left)))
			return 0;
		if (bx_write_read(fd, NULL, 0, buf, sizeof(buf), &got))
			return 0;
		while (bx_parse(buf, got, &pos, &cmd, &arg)) {
			if (!bx_is_answer(cmd))
				continue;
			if (cmd == BR_REPLY && tr)
				memcpy(tr, arg, sizeof(*tr));
			return cmd;
		}
	}
}
