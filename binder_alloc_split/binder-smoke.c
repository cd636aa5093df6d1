// SPDX-License-Identifier: GPL-2.0
/*
 * binder-smoke DEVICE: a transaction smoke test of a binder device. The
 * parent becomes the context manager and serves; a child opens the device
 * on its own and sends synchronous transactions of several sizes to handle
 * 0. The server checks each payload and replies with it inverted; the client
 * checks the reply. Exit status 0 when every payload arrived intact.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "binder_uapi.h"

#define MAP_BYTES (1024 * 1024)
#define ROUNDS 20
#define CODE_DATA 1
#define CODE_END 2
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const size_t sizes[] = { 1, 8, 100, 4095, 4096, 4097, 65536, 200000 };

static int fd;
static void *map;
static const char *who = "binder-smoke";

/* Exit with one line: what went wrong, and errno's meaning when it is set. */
static void die(const char *what)
{
	if (errno)
		fprintf(stderr, "%s: error: %s: %s\n", who, what, strerror(errno));
	else
		fprintf(stderr, "%s: error: %s\n", who, what);
	exit(1);
}

static unsigned char pattern(unsigned int seq, size_t size, size_t i)
{
	return (unsigned char)(seq * 31 + size + i * 7);
}

static void open_device(const char *path)
{
	char why[320];

	fd = bx_open(path, MAP_BYTES, &map, why, sizeof(why));
	if (fd < 0) {
		errno = 0;
		die(why);
	}
}

/* One BINDER_WRITE_READ: write len bytes of out, read into in. */
static size_t write_read(const void *out, size_t len, void *in, size_t size)
{
	size_t got = 0;
	int ret = bx_write_read(fd, out, len, in, size, &got);

	if (ret) {
		errno = -ret;
		die("BINDER_WRITE_READ failed");
	}
	return got;
}

/*
 * Read until a transaction or a reply arrives; copies its header to tr.
 * Returns BR_TRANSACTION or BR_REPLY.
 */
static __u32 wait_for(struct binder_transaction_data *tr)
{
	__u32 buf[128];
	const void *arg;
	size_t n, pos;
	__u32 cmd;

	for (;;) {
		n = write_read(NULL, 0, buf, sizeof(buf));
		for (pos = 0; bx_parse(buf, n, &pos, &cmd, &arg);) {
			switch (cmd) {
			case BR_NOOP:
			case BR_TRANSACTION_COMPLETE:
			case BR_SPAWN_LOOPER:
				break;
			case BR_TRANSACTION:
			case BR_REPLY:
				memcpy(tr, arg, sizeof(*tr));
				return cmd;
			default:
				errno = 0;
				die(bx_br_name(cmd) ?: "unexpected binder return command");
			}
		}
	}
}

static void check(const struct binder_transaction_data *tr, unsigned int seq,
		  size_t size, unsigned char mask)
{
	const unsigned char *p = (const unsigned char *)(uintptr_t)tr->data.ptr.buffer;
	size_t i;

	errno = 0;
	if (tr->data_size != size)
		die("payload size mismatch");
	for (i = 0; i < size; i++)
		if ((p[i] ^ mask) != pattern(seq, size, i))
			die("payload corrupted");
}

/*
 * One write: BC_FREE_BUFFER for old's buffer (unless old is NULL), then cmd
 * (BC_TRANSACTION to handle 0 or BC_REPLY) with size bytes of data, unless
 * cmd is 0.
 */
static void send(const struct binder_transaction_data *old, __u32 cmd,
		 __u32 code, const void *data, size_t size)
{
	static struct bctx b;
	int ret;

	bx_init(&b, fd);
	if (old)
		bx_cmd_ptr(&b, BC_FREE_BUFFER, old->data.ptr.buffer);
	if (cmd)
		bx_txn(&b, cmd, 0, code, 0, data, size, NULL, 0);
	ret = bx_flush(&b);
	if (ret) {
		errno = -ret;
		die("BINDER_WRITE_READ failed");
	}
}

static int serve(void)
{
	struct binder_transaction_data tr;
	static unsigned char reply[200000];
	unsigned int seq = 0;
	__u32 cmd = BC_ENTER_LOOPER;
	size_t i;

	who = "binder-smoke server";
	write_read(&cmd, sizeof(cmd), NULL, 0);
	for (;;) {
		errno = 0;
		if (wait_for(&tr) != BR_TRANSACTION)
			die("a reply where a transaction was expected");
		if (tr.code == CODE_END) {
			/* binder returns nothing into less than a transaction */
			__u32 buf[128];

			/* and read the BR_TRANSACTION_COMPLETE of this reply */
			send(&tr, BC_REPLY, 0, NULL, 0);
			write_read(NULL, 0, buf, sizeof(buf));
			return seq;
		}
		check(&tr, seq, tr.data_size, 0);
		for (i = 0; i < tr.data_size; i++)
			reply[i] = ~pattern(seq, tr.data_size, i);
		send(&tr, BC_REPLY, 0, reply, tr.data_size);
		seq++;
	}
}

static void send_all(const char *path)
{
	struct binder_transaction_data tr;
	static unsigned char data[200000];
	unsigned int seq = 0, r;
	size_t s, i, size;

	who = "binder-smoke client";
	open_device(path);
	for (r = 0; r < ROUNDS; r++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++, seq++) {
			size = sizes[s];
			for (i = 0; i < size; i++)
				data[i] = pattern(seq, size, i);
			send(seq ? &tr : NULL, BC_TRANSACTION, CODE_DATA, data, size);
			errno = 0;
			if (wait_for(&tr) != BR_REPLY)
				die("a transaction where a reply was expected");
			check(&tr, seq, size, 0xff);
		}
	}
	send(&tr, BC_TRANSACTION, CODE_END, NULL, 0);
	if (wait_for(&tr) != BR_REPLY)
		die("a transaction where the last reply was expected");
	send(&tr, 0, 0, NULL, 0);
	exit(0);
}

int main(int argc, char **argv)
{
	int status, served;
	pid_t pid;

	if (argc != 2) {
		fprintf(stderr, "usage: binder-smoke DEVICE\n");
		return 2;
	}
	open_device(argv[1]);
	errno = -bx_become_manager(fd, 0);
	if (errno)
		die("BINDER_SET_CONTEXT_MGR failed");
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		close(fd);
		send_all(argv[1]);
	}
	served = serve();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	printf("binder-smoke: %d transactions of %zu sizes (1 to 200000 bytes) verified\n",
	       served, ARRAY_SIZE(sizes));
	return served == ROUNDS * (int)ARRAY_SIZE(sizes) ? 0 : 1;
}
