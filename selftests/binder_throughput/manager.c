// SPDX-License-Identifier: GPL-2.0
/*
 * manager: the workers as the parent sees them. It owns the shared memory
 * (shm_map()), the fork of the workers, the parent's role as the device's
 * context manager (BINDER_SET_CONTEXT_MGR: it takes each worker's node,
 * CODE_ADD, and hands every worker the list of all, CODE_GET), and the
 * pipes that start each round ('R') or ask for the workers' getrusage()
 * ('U'), and report back (struct done_msg).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bt.h"

struct bt_shared *shm;

static int ctl_fds[MAX_WORKERS];	/* per worker: 'G', then 'R' per round */
static int done_rd = -1;		/* from all workers: struct done_msg */

/* The shared counters, the slots and the current round's samples. */
void shm_map(void)
{
	unsigned int nslots = cfg->workers * cfg->threads;
	size_t shm_size;
	void *p;

	shm_size = sizeof(*shm) + nslots * sizeof(*shm->slots) +
		   (size_t)nslots * cfg->iterations * sizeof(*shm->samples);
	p = mmap(NULL, shm_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		fail("mmap %zu bytes of shared memory: %s", shm_size, strerror(errno));
	shm = p;
	shm->nslots = nslots;
	shm->slots = (struct slot_state *)(shm + 1);
	shm->samples = (uint64_t *)(shm->slots + nslots);
}

/* Wait (interruptibly) until the binder fd has work for us. */
static void wait_binder(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		check_health();
		if (poll(&p, 1, 100) > 0)
			return;
	}
}

/* Serve one CODE_ADD or CODE_GET; returns the code. */
static uint32_t manager_serve(struct bctx *b, uint32_t *ref_handles, bool *have,
			      void *get_reply, binder_size_t *get_offs)
{
	struct binder_transaction_data tr;
	const void *arg;
	struct add_msg add;
	struct get_msg get;
	uint32_t cmd;
	size_t reply_size = 8 + cfg->workers * sizeof(struct flat_binder_object);
	int ret;

	for (;;) {
		if (b->in_pos >= b->in_len)
			wait_binder(b->fd);
		ret = bx_next(b, &cmd, &arg);
		if (ret)
			fail("context manager: BINDER_WRITE_READ: %s", strerror(-ret));
		if (bx_housekeeping(b, cmd, arg) || cmd == BR_TRANSACTION_COMPLETE)
			continue;
		if (cmd != BR_TRANSACTION)
			fail("context manager: %s (0x%x)", br_name(cmd), cmd);
		break;
	}
	memcpy(&tr, arg, sizeof(tr));
	if (tr.code == CODE_ADD && tr.data_size == sizeof(add) &&
	    tr.offsets_size == sizeof(binder_size_t)) {
		memcpy(&add, (const void *)(uintptr_t)tr.data.ptr.buffer, sizeof(add));
		if (add.magic != MAGIC_ADD || add.worker >= cfg->workers || have[add.worker] ||
		    add.obj.hdr.type != BINDER_TYPE_HANDLE ||
		    tr.sender_pid != parent->worker_pids[add.worker])
			fail("context manager: bad registration (worker %u, pid %d)",
			     add.worker, tr.sender_pid);
		ref_handles[add.worker] = add.obj.handle;
		have[add.worker] = true;
		bx_cmd_u32(b, BC_INCREFS, add.obj.handle);
		bx_cmd_u32(b, BC_ACQUIRE, add.obj.handle);
		bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
		bx_txn(b, BC_REPLY, 0, 0, 0, NULL, 0, NULL, 0);
	} else if (tr.code == CODE_GET && tr.data_size == sizeof(get)) {
		memcpy(&get, (const void *)(uintptr_t)tr.data.ptr.buffer, sizeof(get));
		if (get.magic != MAGIC_GET || get.worker >= cfg->workers)
			fail("context manager: bad handle request");
		bx_cmd_ptr(b, BC_FREE_BUFFER, tr.data.ptr.buffer);
		bx_txn(b, BC_REPLY, 0, 0, 0, get_reply, reply_size, get_offs, cfg->workers);
	} else {
		fail("context manager: unexpected transaction code %u (%llu bytes)", tr.code,
		     (unsigned long long)tr.data_size);
	}
	ret = bx_talk(b, false);
	if (ret)
		fail("context manager: reply: %s", strerror(-ret));
	return tr.code;
}

void write_ctl(char c)
{
	unsigned int i;

	for (i = 0; i < cfg->workers; i++)
		if (write(ctl_fds[i], &c, 1) != 1)
			fail("control pipe of worker %u: %s", i, strerror(errno));
}

/* Wait for one message from every worker; @tick runs every 50 ms meanwhile. */
void wait_workers(uint32_t kind, void (*tick)(void))
{
	struct pollfd p = { .fd = done_rd, .events = POLLIN };
	struct done_msg m;
	unsigned int got = 0;
	ssize_t n;

	while (got < cfg->workers) {
		check_health();
		if (poll(&p, 1, 50) <= 0) {
			if (tick)
				tick();
			continue;
		}
		n = read(done_rd, &m, sizeof(m));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(m))
			fail("status pipe: short read");
		if (m.kind != kind || m.worker >= cfg->workers)
			fail("worker %u: out-of-step status message %u", m.worker, m.kind);
		if (m.errors)
			fail("worker %u reported %u errors", m.worker, m.errors);
		got++;
	}
	check_health();
}

void start_workers(void)
{
	size_t reply_size = 8 + cfg->workers * sizeof(struct flat_binder_object);
	uint32_t ref_handles[MAX_WORKERS];
	bool have[MAX_WORKERS] = { false };
	struct flat_binder_object *obj;
	binder_size_t *offs;
	unsigned int i, adds = 0, gets = 0;
	int ctl[2], done[2];
	struct bctx *b;
	uint32_t *get_reply;
	void *map;
	char err[256];
	pid_t pid;

	b = calloc(1, sizeof(*b));
	get_reply = calloc(1, reply_size);
	offs = calloc(cfg->workers, sizeof(*offs));
	if (!b || !get_reply || !offs)
		fail("out of memory");
	b->fd = bx_open(parent->device, BINDER_MAP_SIZE, &map, err, sizeof(err));
	if (b->fd < 0)
		fail("%s", err);
	b->enomem = cfg->faults ? &shm->enomem : NULL;
	b->stop = &parent->stop_signal;		/* a signal ends the waits for the workers */
	if (ioctl(b->fd, BINDER_SET_CONTEXT_MGR, 0) < 0)
		fail("BINDER_SET_CONTEXT_MGR: %s", strerror(errno));
	bx_cmd(b, BC_ENTER_LOOPER);
	if (bx_talk(b, false))
		fail("BC_ENTER_LOOPER: %s", strerror(errno));

	if (pipe2(done, O_CLOEXEC))
		fail("pipe: %s", strerror(errno));
	done_rd = done[0];
	fflush(stdout);
	for (i = 0; i < cfg->workers; i++) {
		if (pipe2(ctl, O_CLOEXEC))
			fail("pipe: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			fail("fork: %s", strerror(errno));
		if (!pid) {
			unsigned int j;

			close(ctl[1]);
			close(done[0]);
			close(b->fd);
			for (j = 0; j < i; j++)
				close(ctl_fds[j]);
			worker_main(i, ctl[0], done[1]);
		}
		close(ctl[0]);
		ctl_fds[i] = ctl[1];
		parent->worker_pids[i] = pid;
		say("Created BinderWorker%u (pid %d)", i, pid);
	}
	close(done[1]);

	while (adds < cfg->workers)
		adds += manager_serve(b, ref_handles, have, NULL, NULL) == CODE_ADD;
	get_reply[0] = MAGIC_GET;
	get_reply[1] = cfg->workers;
	obj = (struct flat_binder_object *)(get_reply + 2);
	for (i = 0; i < cfg->workers; i++) {
		obj[i].hdr.type = BINDER_TYPE_HANDLE;
		obj[i].handle = ref_handles[i];
		offs[i] = 8 + i * sizeof(*obj);
	}
	write_ctl('G');
	while (gets < cfg->workers)
		gets += manager_serve(b, ref_handles, have, get_reply, offs) == CODE_GET;
	wait_workers(MSG_READY, NULL);
	free(get_reply);
	free(offs);
}
