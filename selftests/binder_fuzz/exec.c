// SPDX-License-Identifier: GPL-2.0
/*
 * binder_fuzz executor: one process of a program. It opens the device, maps
 * an arena at a fixed address (so that the pointers it passes, and with them
 * the bytes of each call, are the same from run to run), then runs the calls
 * the parent names on its pipe, one at a time, answering each with its result
 * and, with kcov, the PCs it reached. --dry issues nothing; --trace prints
 * each syscall a call makes, with a hash of its argument bytes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/kcov.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "binder_uapi.h"
#include "binder_fuzz.h"

/* The arena: below 512 GiB, which every 64-bit layout has. */
#define ARENA_ADDR	0x4000000000UL
#define AR_WRITE	0x0		/* the write buffer */
#define AR_READ		0x1000		/* the read buffer */
#define READ_SIZE	1024
#define AR_SLOT		0x2000		/* per command: offsets, then ptr buffers at +PTRS */
#define SLOT		0x1000
#define PTRS		0x200
#define PTRBUF		512
#define AR_DATA		(AR_SLOT + BF_MAXCMD * SLOT)	/* per command: its data */
#define DSLOT		((4UL << 20) + 0x10000)
#define ARENA_SIZE	(AR_DATA + BF_MAXCMD * DSLOT)
#define BOGUS		0xdeadb000ULL	/* a buffer "received" when none was */
#define FNV0		0xcbf29ce484222325ULL

static struct {
	const struct bf_prog *pg;
	int p, fd, kcov;
	pid_t pids[BF_MAXPROC];
	uint8_t *ar, *map;
	uint64_t *cover;
	size_t maplen, dirty[BF_MAXCMD], nack;
	bool unmapped;
	uint64_t rx[8], cookie;		/* buffers and the cookie last received */
	int nrx;
	struct binder_ptr_cookie node;	/* of the last BR_INCREFS or BR_ACQUIRE */
	bool have_node;
	uint8_t acks[8 * (4 + sizeof(struct binder_ptr_cookie))];
} st;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return h;
}

static void __printf(1, 2) trace(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	if (!bf_opts.trace)
		return;
	n = snprintf(buf, sizeof(buf), "# trace p%d ", st.p);
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(1, buf, n) != n)
		return;
}

/* An ioctl on @arg of @size bytes, traced with the hash of @hashed (@arg but for pids). */
static int bioctl(unsigned long req, const char *name, void *arg, size_t size, const void *hashed)
{
	trace("ioctl %s arg=%zu bytes hash=%016llx", name, size,
	      (unsigned long long)fnv(FNV0, hashed, size));
	if (bf_opts.dry)
		return 0;
	return ioctl(st.fd, req, arg) < 0 ? -errno : 0;
}

static size_t put(uint8_t *w, uint32_t cmd, const void *arg, size_t n)
{
	memcpy(w, &cmd, sizeof(cmd));
	memcpy(w + sizeof(cmd), arg, n);
	return sizeof(cmd) + n;
}

/* The index of object @i's parent by @sel (a P_PAR or P_FPAR value). */
static uint64_t parent(const struct bf_cmd *c, int i, long long sel)
{
	if (sel == BF_SELF)
		return i;
	if (sel == BF_NOPAR)
		return 0;
	if (sel != BF_PREV)
		return sel;
	while (--i >= 0)
		if (c->obj[i].type == O_PTR)
			return i;
	return 0;
}

/* Object @i of @c at @at; a ptr object's buffer at @buf, its size added to *@sg. */
static size_t put_obj(const struct bf_cmd *c, int i, uint8_t *at, uint8_t *buf, size_t *sg)
{
	const struct bf_obj *o = &c->obj[i];
	const struct bf_op *op = &bf_objs[o->type];
	long long a = bf_num(op, o->v, 0), b = bf_num(op, o->v, 1), d = bf_num(op, o->v, 2);
	union {
		struct flat_binder_object fbo;
		struct binder_fd_object fd;
		struct binder_fd_array_object fda;
		struct binder_buffer_object bbo;
	} u;
	size_t size = sizeof(u.fbo);
	uint32_t fd = BF_FD_OK;

	memset(&u, 0, sizeof(u));
	u.fbo.hdr.type = op->code;
	switch (o->type) {
	case O_BINDER:
	case O_WBINDER:
		u.fbo.flags = b;
		u.fbo.binder = a;
		u.fbo.cookie = a << 4;
		break;
	case O_HANDLE:
	case O_WHANDLE:
		u.fbo.handle = a;
		break;
	case O_FD:
		u.fd.fd = a;
		break;
	case O_FDA:
		u.fda.num_fds = a;
		u.fda.parent = parent(c, i, b);
		u.fda.parent_offset = d;
		size = sizeof(u.fda);
		break;
	case O_PTR:
		/* Full of an open fd, for the fd arrays that point into it. */
		for (int j = 0; j < PTRBUF; j += sizeof(fd))
			memcpy(buf + j, &fd, sizeof(fd));
		u.bbo.buffer = (uintptr_t)buf;
		u.bbo.length = a;
		u.bbo.flags = b == BF_NOPAR ? 0 : BINDER_BUFFER_FLAG_HAS_PARENT;
		u.bbo.parent = parent(c, i, b);
		u.bbo.parent_offset = d;
		*sg += (a + 7) & ~7LL;
		size = sizeof(u.bbo);
		break;
	}
	memcpy(at, &u, size);
	return size;
}

/* A transaction or reply, as command @slot of its BINDER_WRITE_READ. */
static size_t put_txn(const struct bf_cmd *c, int slot, uint8_t *w)
{
	const struct bf_op *op = &bf_cmds[c->op];
	uint8_t *base = st.ar + AR_SLOT + slot * SLOT, *data = st.ar + AR_DATA + slot * DSLOT;
	long long size = bf_num(op, c->v, A_DATA), extra = bf_num(op, c->v, A_EXTRA);
	binder_size_t offs[BF_MAXOBJ + 1];
	struct binder_transaction_data_sg sg;
	struct binder_transaction_data *tr = &sg.transaction_data;
	size_t pos = 0, sgsize = 0, n = 0;
	int mode = c->v[A_OFFS];

	memset(data, 0, st.dirty[slot]);
	for (int i = 0; i < c->nobj; i++) {
		offs[n++] = pos;
		pos += put_obj(c, i, data + pos, base + PTRS + i * PTRBUF, &sgsize);
	}
	st.dirty[slot] = pos;
	if (size == BF_LAST)
		size = pos > 8 ? pos : 8;
	if (!n && (mode == OFFS_OOB || mode == OFFS_MIS))
		offs[n++] = 0;
	if (mode == OFFS_OOB)
		offs[n - 1] = size + 8;
	else if (mode == OFFS_MIS)
		offs[0] += 2;
	else if (mode == OFFS_DUP)
		offs[n] = n ? offs[n - 1] : 0, n++;
	memcpy(base, offs, n * sizeof(offs[0]));

	memset(&sg, 0, sizeof(sg));
	tr->target.handle = bf_num(op, c->v, A_H);
	tr->code = bf_num(op, c->v, A_CODE);
	tr->flags = (c->v[A_ONEWAY] ? TF_ONE_WAY : 0) | (c->v[A_FDS] ? TF_ACCEPT_FDS : 0) |
		    (c->v[A_CLEAR] ? TF_CLEAR_BUF : 0) | (c->v[A_UPDATE] ? TF_UPDATE_TXN : 0);
	tr->data_size = size;
	tr->offsets_size = mode == OFFS_NONE ? 0 : n * sizeof(offs[0]) + (mode == OFFS_ODD ? 4 : 0);
	tr->data.ptr.buffer = (uintptr_t)data;
	tr->data.ptr.offsets = mode == OFFS_BADPTR ? 0x10 : (uintptr_t)base;
	sg.buffers_size = extra == BF_LAST ? (long long)sgsize : extra;
	if (c->op == C_TXN_SG || c->op == C_REPLY_SG)
		return put(w, op->code, &sg, sizeof(sg));
	return put(w, op->code, tr, sizeof(*tr));
}

static size_t put_cmd(const struct bf_cmd *c, int slot, uint8_t *w)
{
	const struct bf_op *op = &bf_cmds[c->op];
	long long a = bf_num(op, c->v, 0), b = bf_num(op, c->v, 1);
	struct binder_handle_cookie hc;
	struct binder_ptr_cookie pc;
	uint64_t x = a;
	uint32_t h = a;

	switch (c->op) {
	case C_TXN:
	case C_REPLY:
	case C_TXN_SG:
	case C_REPLY_SG:
		return put_txn(c, slot, w);
	case C_FREE:
		if (a == BF_LAST || a == BF_FIRST)
			x = !st.nrx ? BOGUS : st.rx[a == BF_LAST ? st.nrx - 1 : 0];
		return put(w, op->code, &x, sizeof(x));
	case C_INCREFS:
	case C_ACQUIRE:
	case C_RELEASE:
	case C_DECREFS:
		return put(w, op->code, &h, sizeof(h));
	case C_INCREFS_DONE:
	case C_ACQUIRE_DONE:
		if (a == BF_LAST && st.have_node) {
			pc = st.node;
		} else {
			pc.ptr = a == BF_LAST ? 0x1000 : a;
			pc.cookie = pc.ptr << 4;
		}
		return put(w, op->code, &pc, sizeof(pc));
	case C_DEATH:
	case C_CLEAR_DEATH:
	case C_FREEZE_NOTIF:
	case C_CLEAR_FREEZE:
		memset(&hc, 0, sizeof(hc));
		hc.handle = a;
		hc.cookie = b;
		return put(w, op->code, &hc, sizeof(hc));
	case C_DEAD_DONE:
	case C_FREEZE_DONE:
		if (a == BF_LAST)
			x = st.cookie ? st.cookie : 0xd1;
		return put(w, op->code, &x, sizeof(x));
	case C_READ:
		return 0;
	}
	return put(w, op->code, &x, 0);	/* the loopers: no argument */
}

/* What came back: buffers to free, nodes to acknowledge (@ack), cookies. */
static void take(size_t len, bool ack)
{
	struct binder_transaction_data tr;
	const void *arg;
	size_t pos = 0;
	uint32_t cmd;

	while (bx_parse(st.ar + AR_READ, len, &pos, &cmd, &arg)) {
		switch (cmd) {
		case BR_TRANSACTION:
		case BR_TRANSACTION_SEC_CTX:
		case BR_REPLY:
			memcpy(&tr, arg, sizeof(tr));
			if (st.nrx == (int)ARRAY_SIZE(st.rx)) {
				st.nrx--;
				memmove(st.rx, st.rx + 1, st.nrx * sizeof(st.rx[0]));
			}
			st.rx[st.nrx++] = tr.data.ptr.buffer;
			break;
		case BR_INCREFS:
		case BR_ACQUIRE:
			memcpy(&st.node, arg, sizeof(st.node));
			st.have_node = true;
			if (ack && st.nack + 4 + sizeof(st.node) <= sizeof(st.acks))
				st.nack += put(st.acks + st.nack, cmd == BR_INCREFS ?
					       BC_INCREFS_DONE : BC_ACQUIRE_DONE,
					       &st.node, sizeof(st.node));
			break;
		case BR_DEAD_BINDER:
		case BF_BR_FROZEN_BINDER:
			memcpy(&st.cookie, arg, sizeof(st.cookie));
			break;
		}
	}
}

static int write_read(size_t wl, bool rd, bool ack)
{
	struct binder_write_read bwr = {
		.write_size = wl,
		.write_buffer = (uintptr_t)(st.ar + AR_WRITE),
		.read_size = rd ? READ_SIZE : 0,
		.read_buffer = (uintptr_t)(st.ar + AR_READ),
	};
	int ret = ioctl(st.fd, BINDER_WRITE_READ, &bwr) < 0 ? -errno : 0;

	take(bwr.read_consumed, ack);
	return ret;
}

static int run_wr(const struct bf_call *c)
{
	uint8_t *w = st.ar + AR_WRITE;
	bool rd = false, ack = false;
	size_t wl = 0;
	uint64_t h;
	int ret, i;

	memset(st.ar + AR_SLOT, 0, AR_DATA - AR_SLOT);
	for (i = 0; i < c->ncmd; i++) {
		rd |= c->cmd[i].op == C_READ;
		ack |= c->cmd[i].op == C_READ && c->cmd[i].v[0];
		wl += put_cmd(&c->cmd[i], i, w + wl);
	}
	if (bf_opts.trace) {
		/* The commands, their offsets and ptr buffers, and their data (zero past 4 KiB). */
		h = fnv(fnv(FNV0, w, wl), st.ar + AR_SLOT, AR_DATA - AR_SLOT);
		for (i = 0; i < BF_MAXCMD; i++)
			h = fnv(h, st.ar + AR_DATA + i * DSLOT, 4096);
		trace("ioctl BINDER_WRITE_READ write=%zu read=%d hash=%016llx", wl,
		      rd ? READ_SIZE : 0, (unsigned long long)h);
	}
	if (bf_opts.dry) {
#ifdef BINDER_FUZZ_PLANTED
		/* The planted bug: BC_FREE_BUFFER after the process's own munmap. */
		for (i = 0; i < c->ncmd; i++)
			if (c->cmd[i].op == C_FREE && st.unmapped)
				abort();
#endif
		return 0;
	}
	ret = write_read(wl, rd, ack);
	if (st.nack) {
		memcpy(w, st.acks, st.nack);
		trace("ioctl BINDER_WRITE_READ write=%zu read=0 acks", st.nack);
		wl = st.nack;
		st.nack = 0;
		write_read(wl, false, false);
	}
	return ret;
}

/*
 * flood: @n oneway transactions of 8 bytes to handle @h, 60 to a BINDER_WRITE_READ,
 * nothing read: what the oneway spam detection and free_async_space are about.
 */
static int run_flood(long long h, long long n)
{
	struct binder_transaction_data tr = {
		.target.handle = h,
		.code = 1,
		.flags = TF_ONE_WAY,
		.data_size = 8,
		.data.ptr.buffer = (uintptr_t)(st.ar + AR_DATA),
	};
	uint8_t *w = st.ar + AR_WRITE;
	uint32_t cmd = BC_TRANSACTION;
	size_t wl = 0;
	int ret = 0;

	trace("flood h=%lld n=%lld", h, n);
	if (bf_opts.dry)
		return 0;
	while (n-- > 0 && !ret) {
		memcpy(w + wl, &cmd, sizeof(cmd));
		memcpy(w + wl + sizeof(cmd), &tr, sizeof(tr));
		wl += sizeof(cmd) + sizeof(tr);
		if (wl + sizeof(cmd) + sizeof(tr) > AR_READ - AR_WRITE || !n) {
			ret = write_read(wl, false, false);
			wl = 0;
		}
	}
	return ret;
}

/* A call that is one ioctl: its argument is words a, b, d; or a alone, 64-bit. */
static int run_ioctl(const struct bf_call *c, long long a, long long b, long long d)
{
	const struct bf_op *op = &bf_kinds[c->kind];
	union {
		uint32_t w[8];
		int64_t wide;
		struct flat_binder_object fbo;
	} u, sym;

	memset(&u, 0, sizeof(u));
	if (c->kind == K_NODE_DEBUG || c->kind == K_IDLE_TIMEOUT) {
		u.wide = a;
	} else if (c->kind == K_CTXMGR_EXT) {
		u.fbo.hdr.type = BINDER_TYPE_BINDER;
		u.fbo.flags = b;
		u.fbo.binder = a;
		u.fbo.cookie = a << 4;
	} else {
		u.w[0] = a;
		u.w[1] = b;
		u.w[2] = d;
		if (c->kind == K_NODE_INFO) {	/* b: reserved1, which must be 0 */
			u.w[3] = b;
			u.w[1] = 0;
		}
	}
	/* Traced with the process's index for its pid, which differs from run to run. */
	sym = u;
	if (c->kind == K_FREEZE || c->kind == K_FROZEN_INFO)
		u.w[0] = a >= 0 && a < st.pg->nproc ? st.pids[a] : 0x3ffffff0;
	return bioctl(op->code, op->ioc, &u, _IOC_SIZE(op->code), &sym);
}

static int run_call(const struct bf_call *c)
{
	const struct bf_op *op = &bf_kinds[c->kind];
	long long a = bf_num(op, c->v, 0), b = bf_num(op, c->v, 1), d = bf_num(op, c->v, 2);
	size_t off = 0, len = st.maplen;
	void *m;
	int fd;

	switch (c->kind) {
	case K_OPEN:
		trace("open");
		fd = bf_opts.dry ? 0 : open(bf_opts.dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		if (!bf_opts.dry)
			st.fd = fd;	/* the one before stays open */
		return 0;
	case K_CLOSE:
		trace("close");
		fd = st.fd;
		st.fd = -1;
		return bf_opts.dry || !close(fd) ? 0 : -errno;
	case K_MMAP:
		trace("mmap len=%lld prot=%lld", a, b);
		m = bf_opts.dry ? NULL : mmap(NULL, a, b, MAP_PRIVATE | MAP_NORESERVE, st.fd, 0);
		if (m == MAP_FAILED)
			return -errno;	/* the last mapping stays the one munmap takes */
		st.map = m;
		st.maplen = a;
		return 0;
	case K_MUNMAP:
		if (a && len > 4096) {	/* head, tail, mid: a page */
			len = 4096;
			off = a == 1 ? 0 : a == 2 ? st.maplen - 4096 : (st.maplen / 2) & ~4095UL;
		}
		trace("munmap off=%zu len=%zu", off, len);
		st.unmapped = true;
		if (bf_opts.dry)
			return 0;
		if (!st.map || !len)
			return -EINVAL;
		if (munmap(st.map + off, len))
			return -errno;
		if (!a)
			st.map = NULL;
		return 0;
	case K_EXIT:
		trace("exit");
		return 0;
	case K_FLOOD:
		return run_flood(a, b);
	case K_WR:
		return run_wr(c);
	}
	return run_ioctl(c, a, b, d);
}

static void setup(void)
{
	int fd;

	st.ar = mmap((void *)ARENA_ADDR, ARENA_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
	if (st.ar == MAP_FAILED)
		st.ar = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (st.ar == MAP_FAILED)
		_exit(3);
	if (bf_opts.dry)
		return;
	st.fd = open(bf_opts.dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0 && fd != BF_FD_OK) {
		dup2(fd, BF_FD_OK);
		close(fd);
	}
	close(BF_FD_CLOSED);
	if (!bf_opts.kcov)
		return;
	fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	st.cover = MAP_FAILED;
	if (!ioctl(fd, KCOV_INIT_TRACE, BF_KCOV_WORDS))
		st.cover = mmap(NULL, BF_KCOV_WORDS * sizeof(uint64_t), PROT_READ | PROT_WRITE,
				MAP_SHARED, fd, 0);
	if (st.cover == MAP_FAILED)
		close(fd);
	else
		st.kcov = fd;
}

void bf_child(const struct bf_prog *pg, int p, int in, int out, uint64_t *pcs)
{
	struct rlimit no_core = { 0, 0 };
	const struct bf_call *c;
	struct bf_ans a;
	int32_t i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setrlimit(RLIMIT_CORE, &no_core);
	if (bf_opts.dry)
		prctl(PR_SET_DUMPABLE, 0);	/* no core dump helper for a planted crash */
	st.pg = pg;
	st.p = p;
	st.fd = -1;
	st.kcov = -1;
	setup();
	/* No signal handler: no EINTR; pipes pass these whole. */
	if (read(in, st.pids, sizeof(st.pids)) != sizeof(st.pids))
		_exit(0);
	while (read(in, &i, sizeof(i)) == sizeof(i) && i >= 0 && i < pg->ncall) {
		c = &pg->call[i];
		if (st.kcov >= 0) {
			__atomic_store_n(&st.cover[0], 0, __ATOMIC_RELAXED);
			ioctl(st.kcov, KCOV_ENABLE, KCOV_TRACE_PC);
		}
		a.call = i;
		a.ret = run_call(c);
		a.npc = 0;
		if (st.kcov >= 0) {
			ioctl(st.kcov, KCOV_DISABLE, 0);
			a.npc = __atomic_load_n(&st.cover[0], __ATOMIC_RELAXED);
			if (a.npc > BF_KCOV_WORDS - 1)
				a.npc = BF_KCOV_WORDS - 1;
			memcpy(pcs, st.cover + 1, a.npc * sizeof(uint64_t));
		}
		if (write(out, &a, sizeof(a)) != sizeof(a) || c->kind == K_EXIT)
			break;
	}
	_exit(0);
}
