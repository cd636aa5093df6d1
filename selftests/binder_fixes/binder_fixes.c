// SPDX-License-Identifier: GPL-2.0
/*
 * binder_fixes: reproducers of two bugs of the upstream binder driver, one
 * TEST each, on the raw binder UAPI. Each fails on the unfixed driver and
 * passes with the fix of fixes/ named below.
 *
 * Every TEST makes its own binder devices with BINDER_CTL_ADD, on the
 * binderfs mounted at /dev/binderfs or, where there is none, on a binderfs
 * of its own (in a private mount namespace), and removes them when done.
 * The binder processes are children of the TEST; none outlives it.
 *
 * dead_node (fixes/dead-node-local-refs.patch): a transaction that fails
 * after its target process has died and released its nodes must not drop
 * the node's local strong reference a second time.
 *   target  the context manager of a fresh device, its node marked with a
 *           pointer value of our own (BINDER_SET_CONTEXT_MGR_EXT); it maps
 *           the device and waits to be killed.
 *   sender  takes a reference on handle 0, asks for its death notification
 *           and enters the looper. A second thread sends a sync call to
 *           handle 0 whose payload lies in a page registered with
 *           userfaultfd: it stops in the driver's copy of the payload, after
 *           binder_get_node_refs_for_txn() took its local strong reference.
 *           The sender then kills the target and waits for BR_DEAD_BINDER,
 *           which binder_node_release() sends once it has zeroed the node's
 *           local references, and only then fills the page: the transaction
 *           goes on, finds its target dead and fails with BR_DEAD_REPLY.
 *   Once both have exited, the node must leave <debugfs>/binder/state's
 *   "dead nodes:". Unfixed, it stays there for good with "ls -1".
 *
 * reply_alloc (fixes/failed-reply-alloc.patch): a caller must get an answer
 * when the reply to its call fails to allocate. For N = 1, 2, ... a server
 * (the context manager of a fresh device) takes a call from a client, sets
 * /proc/thread-self/fail-nth to N and sends BC_REPLY: the Nth fault point
 * of that BINDER_WRITE_READ fails (failslab, with GFP_KERNEL allocations
 * made eligible). The client must get BR_REPLY, BR_FAILED_REPLY or another
 * answer within HANG_MS. The loop ends at the first N at which no fault was
 * injected. Unfixed, the caller waits forever when the reply's own struct
 * binder_transaction is not allocated (N = 1).
 *
 * Both need root and <debugfs>/binder; dead_node needs userfaultfd
 * (CONFIG_USERFAULTFD), reply_alloc CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB
 * and CONFIG_FAULT_INJECTION_DEBUG_FS. Without them a TEST is skipped.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/android/binder.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "binder_uapi.h"

#define BINDERFS_DIR "/dev/binderfs"
#define DEBUGFS_DIR "/sys/kernel/debug"
#define BINDER_STATE DEBUGFS_DIR "/binder/state"
#define BINDER_TRANSACTIONS DEBUGFS_DIR "/binder/transactions"
#define FAILSLAB DEBUGFS_DIR "/failslab"
#define MAP_BYTES (128 * 1024)

/* How long a step may take before it counts as stuck, in ms. */
#define STEP_MS 5000
/* reply_alloc: how long the caller may wait for its answer, per fault point. */
#define HANG_MS 3000
/* reply_alloc: fault points tried at most, and the time for all of them. */
#define MAX_POINTS 32
#define REPLY_BUDGET_MS 20000
/* dead_node: how long the node may take to go once every process has gone. */
#define RELEASE_MS 8000

/* Exit codes of the children. */
#define CHILD_OK 0
#define CHILD_ERR 1
#define CHILD_SKIP KSFT_SKIP

/* ---- output, time ---- */

static const char *who = "binder_fixes";

static void __attribute__((format(printf, 1, 2))) diag(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "# %s: %s\n", who, line);
}

/* A return command's name in messages: "nothing" for none, its value for one without a name. */
static const char *br_name(uint32_t cmd)
{
	static char other[32];

	if (!cmd)
		return "nothing";
	if (bx_br_name(cmd))
		return bx_br_name(cmd);
	snprintf(other, sizeof(other), "BR 0x%x", cmd);
	return other;
}

/* ---- small file helpers ---- */

static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

/* binder's debugfs files: mounts debugfs if it is not; false if they are not there. */
static bool have_binder_debugfs(void)
{
	if (access(BINDER_STATE, R_OK) == 0)
		return true;
	mount("debugfs", DEBUGFS_DIR, "debugfs", 0, NULL);
	return access(BINDER_STATE, R_OK) == 0;
}

/* Print the lines of PATH that contain NEEDLE (all lines if NULL), at most MAX. */
static void show_lines(const char *path, const char *needle, int max)
{
	char line[512];
	FILE *f = fopen(path, "re");

	if (!f)
		return;
	while (max > 0 && fgets(line, sizeof(line), f)) {
		if (needle && !strstr(line, needle))
			continue;
		line[strcspn(line, "\n")] = '\0';
		diag("  %s", line);
		max--;
	}
	fclose(f);
}

/* ---- binder devices: BINDER_CTL_ADD on /dev/binderfs or on a binderfs of our own ---- */

static char binderfs[128];

/*
 * Find binder-control: that of /dev/binderfs if binderfs is mounted there,
 * else mount binderfs in a mount namespace of this process (the TEST's own
 * child, so it goes with it). Returns 0, -errno, or 1 when there is no binderfs.
 */
static int binderfs_setup(void)
{
	char why[320], ctl[sizeof(binderfs) + 32];
	int ret;

	if (binderfs[0])
		return 0;
	if (access(BINDERFS_DIR "/binder-control", F_OK) == 0) {
		snprintf(binderfs, sizeof(binderfs), "%s", BINDERFS_DIR);
		return 0;
	}
	ret = bx_binderfs_mount("binder_fixes", binderfs, sizeof(binderfs), why, sizeof(why));
	if (ret)
		return ret;
	snprintf(ctl, sizeof(ctl), "%s/binder-control", binderfs);
	return access(ctl, F_OK) ? -errno : 0;
}

/* Unmount and remove the binderfs of our own, if binderfs_setup() made one. */
static void binderfs_done(void)
{
	if (binderfs[0] && strcmp(binderfs, BINDERFS_DIR)) {
		umount2(binderfs, MNT_DETACH);
		rmdir(binderfs);
	}
	binderfs[0] = '\0';
}

/* A fresh device NAME-<pid>-<n>; its path in PATH. */
static int binder_dev_add(const char *name, int n, char *path, size_t len)
{
	char dev[64], why[320];

	snprintf(dev, sizeof(dev), "%s-%d-%d", name, (int)getpid(), n);
	return bx_binderfs_add(binderfs, dev, path, len, why, sizeof(why));
}

static void binder_dev_remove(const char *path)
{
	if (path[0] && unlink(path))
		diag("cannot remove %s: %s", path, strerror(errno));
}

/* ---- a binder device, opened and mapped (binder_uapi) ---- */

struct bfd {
	int fd;
	void *map;
};

static int binder_open(const char *path, struct bfd *b)
{
	char why[320];

	b->fd = bx_open(path, MAP_BYTES, &b->map, why, sizeof(why));
	return b->fd < 0 ? -errno : 0;
}

/* ---- processes ---- */

/* Children: die with the TEST, and never flush stdio buffers they inherited. */
static pid_t fork_child(void)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	return pid;
}

/* Wait up to MS for PID to exit; kill it if it does not. Its exit code, or -1. */
static int reap(pid_t pid, int ms)
{
	long long end = bx_now_ms() + ms;
	int status;

	if (pid <= 0)
		return -1;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		if (r < 0 && errno != EINTR)
			return -1;
		if (bx_now_ms() >= end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		usleep(10000);
	}
}

static void kill_reap(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		reap(pid, STEP_MS);
	}
}

/* Read exactly LEN bytes from FD within MS. */
static bool read_msg(int fd, void *msg, size_t len, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, ms) != 1)
		return false;
	return read(fd, msg, len) == (ssize_t)len;
}

/* ---- dead_node ---- */

/* The target: context manager with node PTR, mapped; tells READY, waits to be killed. */
static int dead_node_target(const char *dev, uint64_t ptr, int ready)
{
	struct bfd b;
	char c = 'R';
	int err;

	who = "dead_node target";
	err = binder_open(dev, &b);
	if (!err)
		err = bx_become_manager(b.fd, ptr);
	if (err) {
		diag("setting up %s: %s", dev, strerror(-err));
		return CHILD_ERR;
	}
	if (write(ready, &c, 1) != 1)
		return CHILD_ERR;
	for (;;)
		pause();
}

struct caller {
	int fd;
	const void *data;
	size_t size;
	uint32_t answer;
	int err;
};

/* The calling thread: a sync call to handle 0 with the payload at data. */
static void *dead_node_call(void *arg)
{
	struct caller *c = arg;
	struct bctx cmds;

	bx_init(&cmds, c->fd);
	bx_txn(&cmds, BC_TRANSACTION, 0, 1, 0, c->data, c->size, NULL, 0);
	c->err = bx_flush(&cmds);
	if (!c->err)
		c->answer = bx_wait_answer(c->fd, STEP_MS, NULL);
	return NULL;
}

#define DEATH_COOKIE 0xdeadc00c1e

/*
 * The sender (see the top of this file). CHILD_OK once its call was held
 * in the copy until the target's node was released, and then failed with
 * BR_DEAD_REPLY; CHILD_SKIP without userfaultfd.
 */
static int dead_node_sender(const char *dev, pid_t target)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	struct uffdio_copy copy;
	struct uffd_msg msg;
	struct caller call;
	struct bctx cmds;
	struct binder_handle_cookie hc;
	struct timespec ts;
	struct pollfd p;
	pthread_t thread;
	long page = sysconf(_SC_PAGESIZE);
	uint8_t buf[256];
	bool dead = false;
	long long end;
	struct bfd b;
	char *held, *src;
	int uffd, err;

	who = "dead_node sender";
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0) {
		diag("userfaultfd: %s (CONFIG_USERFAULTFD)", strerror(errno));
		return errno == ENOSYS ? CHILD_SKIP : CHILD_ERR;
	}
	if (ioctl(uffd, UFFDIO_API, &api)) {
		diag("UFFDIO_API: %s", strerror(errno));
		return CHILD_ERR;
	}
	held = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	src = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (held == MAP_FAILED || src == MAP_FAILED)
		return CHILD_ERR;
	memset(src, 0x5a, page);
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)held;
	reg.range.len = page;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		diag("UFFDIO_REGISTER: %s", strerror(errno));
		return CHILD_ERR;
	}

	err = binder_open(dev, &b);
	if (err) {
		diag("opening %s: %s", dev, strerror(-err));
		return CHILD_ERR;
	}
	/* A reference to the target's node, its death notification, and a looper for it. */
	bx_init(&cmds, b.fd);
	bx_cmd_u32(&cmds, BC_INCREFS, 0);
	bx_cmd_u32(&cmds, BC_ACQUIRE, 0);
	hc.handle = 0;
	hc.cookie = DEATH_COOKIE;
	bx_cmd(&cmds, BC_REQUEST_DEATH_NOTIFICATION);
	bx_put(&cmds, &hc, sizeof(hc));
	bx_cmd(&cmds, BC_ENTER_LOOPER);
	err = bx_flush(&cmds);
	if (err) {
		diag("taking a reference to handle 0: %s", strerror(-err));
		return CHILD_ERR;
	}

	/* The call, held in the copy of its payload. */
	memset(&call, 0, sizeof(call));
	call.fd = b.fd;
	call.data = held;
	call.size = 64;
	if (pthread_create(&thread, NULL, dead_node_call, &call))
		return CHILD_ERR;
	p.fd = uffd;
	p.events = POLLIN;
	if (poll(&p, 1, STEP_MS) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT ||
	    msg.arg.pagefault.address - (uintptr_t)held >= (unsigned long)page) {
		diag("the call did not stop in the copy of its payload (answer %s, error %d)",
		     br_name(call.answer), call.err);
		return CHILD_ERR;
	}
	diag("the call is held in the copy of its payload; killing the target");

	/* The target dies; its node is released once its binder file is. */
	kill(target, SIGKILL);
	end = bx_now_ms() + STEP_MS;
	while (!dead && bx_now_ms() < end) {
		size_t got = 0, pos = 0;
		const void *pl;
		uint32_t cmd;

		if (!bx_poll(b.fd, (int)(end - bx_now_ms())))
			break;
		if (bx_write_read(b.fd, NULL, 0, buf, sizeof(buf), &got))
			break;
		while (bx_parse(buf, got, &pos, &cmd, &pl)) {
			binder_uintptr_t cookie;

			if (cmd != BR_DEAD_BINDER)
				continue;
			memcpy(&cookie, pl, sizeof(cookie));
			dead = cookie == DEATH_COOKIE;
		}
	}
	if (!dead) {
		diag("no BR_DEAD_BINDER for the target's node within %d ms", STEP_MS);
		return CHILD_ERR;
	}
	diag("BR_DEAD_BINDER: the target's node is released; letting the call go on");

	/* Fill the page: the call goes on, and must find its target dead. */
	memset(&copy, 0, sizeof(copy));
	copy.dst = (uintptr_t)held;
	copy.src = (uintptr_t)src;
	copy.len = page;
	if (ioctl(uffd, UFFDIO_COPY, &copy)) {
		diag("UFFDIO_COPY: %s", strerror(errno));
		return CHILD_ERR;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += STEP_MS / 1000;
	if (pthread_timedjoin_np(thread, NULL, &ts)) {
		diag("the call did not return");
		return CHILD_ERR;
	}
	diag("the call's answer: %s", br_name(call.answer));
	if (call.err || call.answer != BR_DEAD_REPLY) {
		diag("expected BR_DEAD_REPLY (write error %d)", call.err);
		return CHILD_ERR;
	}
	bx_cmd_ptr(&cmds, BC_DEAD_BINDER_DONE, DEATH_COOKIE);
	bx_flush(&cmds);
	return CHILD_OK;
}

/* The dead nodes of <debugfs>/binder/state with pointer PTR: their count, lines in LINES. */
static int dead_nodes_with(uint64_t ptr, char *lines, size_t len)
{
	char line[512], want[32];
	bool in_dead = false;
	int n = 0;
	FILE *f = fopen(BINDER_STATE, "re");

	lines[0] = '\0';
	if (!f)
		return -1;
	snprintf(want, sizeof(want), " u%016llx ", (unsigned long long)ptr);
	while (fgets(line, sizeof(line), f)) {
		if (!strcmp(line, "dead nodes:\n")) {
			in_dead = true;
			continue;
		}
		if (line[0] != ' ')
			in_dead = false;
		if (in_dead && strstr(line, want)) {
			n++;
			strncat(lines, line, len - strlen(lines) - 1);
		}
	}
	fclose(f);
	return n;
}

TEST(dead_node)
{
	uint64_t ptr = 0xb1de000000000000ULL | ((uint64_t)getpid() << 8);
	char dev[PATH_MAX] = "", lines[2048];
	pid_t target, sender;
	int ready[2], rc, left = -1;
	long long end;
	char c = 0;

	if (geteuid() != 0)
		SKIP(return, "not root");
	if (!have_binder_debugfs())
		SKIP(return, "no %s (debugfs, binder)", BINDER_STATE);
	rc = binderfs_setup();
	if (rc == 1)
		SKIP(return, "no binderfs (CONFIG_ANDROID_BINDERFS, binder_linux.ko loaded?)");
	ASSERT_EQ(0, rc) TH_LOG("binderfs: %s", strerror(-rc));
	rc = binder_dev_add("bf-dead", 0, dev, sizeof(dev));
	ASSERT_EQ(0, rc) TH_LOG("BINDER_CTL_ADD: %s", strerror(-rc));
	ASSERT_EQ(0, pipe2(ready, O_CLOEXEC));

	target = fork_child();
	ASSERT_LE(0, target);
	if (target == 0)
		_exit(dead_node_target(dev, ptr, ready[1]));
	close(ready[1]);
	sender = -1;
	if (read_msg(ready[0], &c, 1, STEP_MS) && c == 'R') {
		sender = fork_child();
		if (sender == 0)
			_exit(dead_node_sender(dev, target));
	}
	rc = reap(sender, 4 * STEP_MS);
	kill_reap(target);
	close(ready[0]);
	binder_dev_remove(dev);
	binderfs_done();
	if (rc == CHILD_SKIP)
		SKIP(return, "no userfaultfd (CONFIG_USERFAULTFD)");
	ASSERT_EQ(CHILD_OK, rc) TH_LOG("the sequence could not be set up (target %s, sender exit %d)",
				       c == 'R' ? "ready" : "not ready", rc);

	/* Every process of the test is gone: the node must follow (binder releases in a work queue). */
	end = bx_now_ms() + RELEASE_MS;
	do {
		left = dead_nodes_with(ptr, lines, sizeof(lines));
		if (left == 0)
			break;
		usleep(100000);
	} while (bx_now_ms() < end);
	TH_LOG("dead nodes with u%016llx once every process exited (waiting up to %d ms): %d",
	       (unsigned long long)ptr, RELEASE_MS, left);
	for (char *save, *l = strtok_r(lines, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		TH_LOG("%s", l);
	EXPECT_EQ(0, left);
}

/* ---- reply_alloc ---- */

/* What the server reports: ready, then what its armed BC_REPLY did. */
struct server_msg {
	int stage;		/* 1: ready; 2: replied; -1: error */
	int reply_err;		/* BINDER_WRITE_READ of the BC_REPLY: 0 or -errno */
	unsigned int left;	/* fail-nth read back after it: 0 if the fault was injected */
	uint32_t own;		/* what the server got back for its reply */
	struct binder_extended_error ee;
};

struct client_msg {
	uint32_t answer;
	uint64_t value;
};

#define REQUEST 0x1234567890abcdefULL

static void server_report(int out, struct server_msg *m)
{
	if (write(out, m, sizeof(*m)) != sizeof(*m))
		_exit(CHILD_ERR);
}

/*
 * The server: context manager of DEV. Takes one call, frees its buffer, sets
 * its fail-nth to N and replies; reports to OUT, then stays until killed, for
 * its death would answer a stranded caller (BR_DEAD_REPLY).
 */
static int reply_server(const char *dev, unsigned int n, int out)
{
	struct server_msg m = { .stage = -1 };
	struct binder_transaction_data tr;
	struct bctx cmds;
	uint64_t reply = ~REQUEST;
	uint8_t buf[512];
	bool got_call = false;
	char text[32];
	struct bfd b;
	int nth, err;

	who = "reply_alloc server";
	err = binder_open(dev, &b);
	if (!err)
		err = bx_become_manager(b.fd, 0x5e7e000000000000ULL | getpid());
	bx_init(&cmds, b.fd);
	bx_cmd(&cmds, BC_ENTER_LOOPER);
	if (!err)
		err = bx_flush(&cmds);
	nth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (err || nth < 0) {
		diag("setting up: %s", strerror(err ? -err : errno));
		server_report(out, &m);
		return CHILD_ERR;
	}
	m.stage = 1;
	server_report(out, &m);

	/* The call. */
	while (!got_call && bx_poll(b.fd, STEP_MS)) {
		size_t got = 0, pos = 0;
		const void *p;
		uint32_t cmd;

		if (bx_write_read(b.fd, NULL, 0, buf, sizeof(buf), &got))
			break;
		while (bx_parse(buf, got, &pos, &cmd, &p)) {
			if (cmd == BR_TRANSACTION) {
				memcpy(&tr, p, sizeof(tr));
				got_call = true;
			}
		}
	}
	m.stage = -1;
	if (!got_call) {
		diag("no call came");
		server_report(out, &m);
		return CHILD_ERR;
	}
	bx_cmd_ptr(&cmds, BC_FREE_BUFFER, tr.data.ptr.buffer);
	if (bx_flush(&cmds)) {
		server_report(out, &m);
		return CHILD_ERR;
	}

	/* The reply, with its Nth fault point failing. */
	bx_txn(&cmds, BC_REPLY, 0, 1, 0, &reply, sizeof(reply), NULL, 0);
	snprintf(text, sizeof(text), "%u", n);
	if (pwrite(nth, text, strlen(text), 0) != (ssize_t)strlen(text)) {
		diag("writing fail-nth: %s", strerror(errno));
		server_report(out, &m);
		return CHILD_ERR;
	}
	m.reply_err = bx_flush(&cmds);
	memset(text, 0, sizeof(text));
	if (pread(nth, text, sizeof(text) - 1, 0) <= 0)
		text[0] = '?';
	m.left = strtoul(text, NULL, 10);
	if (m.left && pwrite(nth, "0", 1, 0) != 1)
		_exit(CHILD_ERR);

	/* What the server itself got back: BR_TRANSACTION_COMPLETE, or the error. */
	while (!m.own && bx_poll(b.fd, 1000)) {
		size_t got = 0, pos = 0;
		const void *p;
		uint32_t cmd;

		if (bx_write_read(b.fd, NULL, 0, buf, sizeof(buf), &got))
			break;
		while (bx_parse(buf, got, &pos, &cmd, &p))
			if (cmd != BR_NOOP && !m.own)
				m.own = cmd;
	}
	ioctl(b.fd, BINDER_GET_EXTENDED_ERROR, &m.ee);
	m.stage = 2;
	server_report(out, &m);
	for (;;)
		pause();
}

/* The client: one sync call to handle 0; reports the answer to OUT. */
static int reply_client(const char *dev, int out)
{
	struct binder_transaction_data tr;
	struct bctx cmds;
	uint64_t request = REQUEST;
	struct client_msg m = { 0 };
	struct bfd b;
	int err;

	who = "reply_alloc client";
	err = binder_open(dev, &b);
	if (err) {
		diag("opening %s: %s", dev, strerror(-err));
		return CHILD_ERR;
	}
	bx_init(&cmds, b.fd);
	bx_txn(&cmds, BC_TRANSACTION, 0, 1, 0, &request, sizeof(request), NULL, 0);
	err = bx_flush(&cmds);
	if (err) {
		diag("BC_TRANSACTION: %s", strerror(-err));
		return CHILD_ERR;
	}
	/* No time limit: the test waits HANG_MS for the answer, then kills us. */
	m.answer = bx_wait_answer(b.fd, -1, &tr);
	if (m.answer == BR_REPLY) {
		if (tr.data_size == sizeof(m.value))
			memcpy(&m.value, (void *)(uintptr_t)tr.data.ptr.buffer, sizeof(m.value));
		bx_cmd_ptr(&cmds, BC_FREE_BUFFER, tr.data.ptr.buffer);
		bx_flush(&cmds);
	}
	if (write(out, &m, sizeof(m)) != sizeof(m))
		return CHILD_ERR;
	return CHILD_OK;
}

enum point_result { POINT_ANSWERED, POINT_STRANDED, POINT_ERROR };

/*
 * One fault point: a fresh device, server and client; the server's reply
 * fails its Nth fault point. *INJECTED: whether a fault was injected.
 */
static enum point_result reply_point(unsigned int n, bool *injected)
{
	enum point_result res = POINT_ERROR;
	struct server_msg sm = { 0 };
	struct client_msg cm = { 0 };
	int sp[2] = { -1, -1 }, cp[2] = { -1, -1 };
	pid_t server = -1, client = -1;
	char dev[PATH_MAX] = "";
	int err;

	*injected = false;
	err = binder_dev_add("bf-reply", n, dev, sizeof(dev));
	if (err) {
		diag("fail-nth %u: BINDER_CTL_ADD: %s", n, strerror(-err));
		return POINT_ERROR;
	}
	if (pipe2(sp, O_CLOEXEC) || pipe2(cp, O_CLOEXEC))
		goto out;
	server = fork_child();
	if (server == 0)
		_exit(reply_server(dev, n, sp[1]));
	if (server < 0 || !read_msg(sp[0], &sm, sizeof(sm), STEP_MS) || sm.stage != 1) {
		diag("fail-nth %u: the server did not start", n);
		goto out;
	}
	client = fork_child();
	if (client == 0)
		_exit(reply_client(dev, cp[1]));
	if (client < 0 || !read_msg(sp[0], &sm, sizeof(sm), STEP_MS) || sm.stage != 2) {
		diag("fail-nth %u: the server did not reply", n);
		goto out;
	}
	*injected = sm.left == 0;
	diag("fail-nth %u: %s; the server's BC_REPLY: %s%s%s, extended error %s %d",
	     n, *injected ? "fault injected" : "no fault injected",
	     sm.reply_err ? strerror(-sm.reply_err) : "written", sm.own ? ", then " : "",
	     sm.own ? br_name(sm.own) : "", br_name(sm.ee.command), sm.ee.param);
	if (!read_msg(cp[0], &cm, sizeof(cm), HANG_MS)) {
		diag("fail-nth %u: the caller got no answer within %d ms; its call in binder's transactions:",
		     n, HANG_MS);
		show_lines(BINDER_TRANSACTIONS, "transaction ", 12);
		res = POINT_STRANDED;
		goto out;
	}
	diag("fail-nth %u: the caller's answer: %s%s", n, br_name(cm.answer),
	     cm.answer == BR_REPLY && cm.value != ~REQUEST ? " with the wrong data" : "");
	res = cm.answer == BR_REPLY && cm.value != ~REQUEST ? POINT_ERROR : POINT_ANSWERED;
out:
	kill_reap(client);
	kill_reap(server);
	for (int i = 0; i < 2; i++) {
		if (sp[i] >= 0)
			close(sp[i]);
		if (cp[i] >= 0)
			close(cp[i]);
	}
	binder_dev_remove(dev);
	return res;
}

/* The failslab knobs that reply_alloc changes, and their values before. */
static const char *const knobs[][2] = {
	{ FAILSLAB "/ignore-gfp-wait", "N" },	/* GFP_KERNEL allocations may fail */
	{ FAILSLAB "/verbose", "1" },		/* one line per fault, no stack dump */
};
static char saved[2][32];

TEST(reply_alloc)
{
	unsigned int n, stranded = 0, errors = 0, points = 0;
	bool injected = true, first_injected = false;
	long long end = bx_now_ms() + REPLY_BUDGET_MS;
	char stranded_at[256] = "";
	size_t i;
	int rc;

	who = "reply_alloc";
	if (geteuid() != 0)
		SKIP(return, "not root");
	if (access("/proc/thread-self/fail-nth", W_OK))
		SKIP(return, "no /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION)");
	if (!have_binder_debugfs())
		SKIP(return, "no %s (debugfs, binder)", BINDER_STATE);
	for (i = 0; i < 2; i++)
		if (read_text(knobs[i][0], saved[i], sizeof(saved[i])))
			SKIP(return, "no %s (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)", knobs[i][0]);
	rc = binderfs_setup();
	if (rc == 1)
		SKIP(return, "no binderfs (CONFIG_ANDROID_BINDERFS, binder_linux.ko loaded?)");
	ASSERT_EQ(0, rc) TH_LOG("binderfs: %s", strerror(-rc));
	for (i = 0, rc = 0; i < 2 && !rc; i++)
		rc = write_text(knobs[i][0], knobs[i][1]);
	if (rc) {
		while (i--)
			write_text(knobs[i][0], saved[i]);
		binderfs_done();
		ASSERT_EQ(0, rc) TH_LOG("writing the failslab knobs: %s", strerror(-rc));
	}

	for (n = 1; n <= MAX_POINTS && injected && bx_now_ms() < end; n++) {
		switch (reply_point(n, &injected)) {
		case POINT_ANSWERED:
			break;
		case POINT_STRANDED:
			stranded++;
			snprintf(stranded_at + strlen(stranded_at), sizeof(stranded_at) - strlen(stranded_at),
				 " %u", n);
			break;
		case POINT_ERROR:
			errors++;
			break;
		}
		if (n == 1)
			first_injected = injected;
		if (injected)
			points++;
	}
	for (i = 0; i < 2; i++)
		write_text(knobs[i][0], saved[i]);
	binderfs_done();

	TH_LOG("%u fault points of the reply tried, %u callers left without an answer%s%s",
	       points, stranded, stranded ? " at fail-nth" : "", stranded_at);
	if (!first_injected && !stranded && !errors)
		SKIP(return, "fail-nth 1 injected no fault into the reply: nothing tested");
	EXPECT_EQ(0U, stranded);
	EXPECT_EQ(0U, errors);
	EXPECT_FALSE(injected) TH_LOG("stopped before a round without a fault (time or MAX_POINTS)");
}

TEST_HARNESS_MAIN
