// SPDX-License-Identifier: GPL-2.0
/*
 * env: what the parent sets up around the workers and takes down again. It
 * owns struct bt_parent, the private binderfs and its fresh device, the
 * signals that stop a run (SIGINT, SIGTERM, SIGHUP, --timeout's SIGALRM),
 * the watch over the children (check_health()), the --pressure and --hogs
 * children, and the cleanup on every exit path (finish(), fail()), with the
 * clients still waiting for completions when a signal ended the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bt.h"

static struct bt_parent the_parent;
struct bt_parent *const parent = &the_parent;

static char mount_dir[64];
static bool mounted;
static pid_t pressure_pid;
static pid_t hog_pids[MAX_HOGS];

/* ---- the end of a run ---- */

/* Kill and reap every child, remove what we created. Safe to call twice. */
void cleanup(void)
{
	unsigned int i;

	for (i = 0; i < cfg->workers; i++)
		if (parent->worker_pids[i] > 0)
			kill(parent->worker_pids[i], SIGKILL);
	stop_pressure();
	stop_hogs();
	for (i = 0; i < cfg->workers; i++) {
		pid_t pid = parent->worker_pids[i];

		if (pid > 0 && waitpid(pid, NULL, 0) == pid)
			parent->worker_pids[i] = 0;
	}
	trace_stop();
	if (mounted && !umount2(mount_dir, MNT_DETACH))
		mounted = false;
	if (mount_dir[0] && !mounted && !rmdir(mount_dir))
		mount_dir[0] = 0;
}

/*
 * In the parent, for a run that times out or is interrupted: the clients
 * that are waiting for completions (oneway, pipeline, mixed), before the
 * workers are gone.
 */
static void stuck_slots(void)
{
	unsigned int s, shown = 0;
	uint32_t sent, done;

	if (!shm || cfg->mode == MODE_SYNC)
		return;
	for (s = 0; s < shm->nslots && shown < 8; s++) {
		sent = atomic_load(&shm->slots[s].sent);
		done = atomic_load(&shm->slots[s].done);
		if (!sent || done >= sent)
			continue;
		say("client %u: %u calls sent this round, %u complete", s, sent, done);
		shown++;
	}
}

void finish(int code, const char *reason)
{
	if (parent->stop_signal)
		stuck_slots();
	cleanup();
	ktap_end(code, reason);
}

void fail(const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	finish(KSFT_FAIL, reason);
}

/* ---- signals and the children ---- */

static void on_signal(int sig)
{
	if (!parent->stop_signal)
		parent->stop_signal = sig;
}

void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: blocking calls return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Fail on a signal, the timeout, a child that died or a worker that reported an error. */
void check_health(void)
{
	unsigned int i;
	int status;
	pid_t pid;

	if (parent->stop_signal == SIGALRM)
		fail("timed out after %u s (--timeout)", cfg->timeout);
	if (parent->stop_signal)
		fail("interrupted by signal %d (%s)", parent->stop_signal,
		     strsignal(parent->stop_signal));
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == pressure_pid) {
			pressure_pid = 0;
			fail("the drop_caches helper exited%s%s", shm->pressure_errno ? ": " : "",
			     shm->pressure_errno ? strerror(shm->pressure_errno) : "");
		}
		for (i = 0; i < cfg->hogs; i++) {
			if (hog_pids[i] != pid)
				continue;
			hog_pids[i] = 0;
			fail("CPU hog %u exited%s%s", i, shm->hog_errno ? ": " : "",
			     shm->hog_errno ? strerror(shm->hog_errno) : "");
		}
		for (i = 0; i < cfg->workers; i++) {
			if (parent->worker_pids[i] != pid)
				continue;
			parent->worker_pids[i] = 0;
			if (WIFSIGNALED(status))
				fail("worker %u (pid %d) killed by signal %d", i, pid,
				     WTERMSIG(status));
			fail("worker %u (pid %d) exited with %d", i, pid, WEXITSTATUS(status));
		}
	}
	for (i = 0; i < cfg->workers; i++)
		if (atomic_load(&shm->workers[i].errors))
			fail("worker %u reported %u errors", i,
			     atomic_load(&shm->workers[i].errors));
}

/* ---- binderfs ---- */

void setup_binderfs(void)
{
	char err[320], name[32];
	int ret;

	if (geteuid() != 0)
		finish(KSFT_SKIP, "not running as root");
	ret = bx_binderfs_mount(PROG, mount_dir, sizeof(mount_dir), err, sizeof(err));
	if (ret == 1)
		finish(KSFT_SKIP, "no binderfs (CONFIG_ANDROID_BINDERFS and CONFIG_ANDROID_BINDER_IPC, or binder_linux.ko)");
	if (ret)
		fail("%s", err);
	mounted = true;
	snprintf(name, sizeof(name), "bt%d", (int)getpid());
	if (bx_binderfs_add(mount_dir, name, parent->device, sizeof(parent->device),
			    err, sizeof(err)))
		fail("%s", err);
}

/* ---- --pressure and --hogs ---- */

/* --pressure: a child writes 2 to drop_caches in a loop. */
void start_pressure(void)
{
	struct timespec ts = {
		.tv_sec = cfg->pressure_ms / 1000,
		.tv_nsec = (cfg->pressure_ms % 1000) * 1000000L,
	};
	pid_t pid;
	int fd;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid) {
		pressure_pid = pid;
		return;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent->pid)
		_exit(KSFT_FAIL);
	signal(SIGINT, SIG_IGN);
	for (;;) {
		fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "2", 1) != 1) {
			shm->pressure_errno = errno;
			_exit(KSFT_FAIL);
		}
		close(fd);
		atomic_fetch_add(&shm->pressure_writes, 1);
		if (cfg->pressure_ms)
			nanosleep(&ts, NULL);
	}
}

void stop_pressure(void)
{
	if (pressure_pid <= 0)
		return;
	kill(pressure_pid, SIGKILL);
	waitpid(pressure_pid, NULL, 0);
	pressure_pid = 0;
}

/*
 * --hogs: H children that spin during the measured rounds, at nice 0 or
 * SCHED_FIFO below the clients, so that lower-priority callers get preempted.
 */
void start_hogs(void)
{
	struct sched_param sp = { .sched_priority = (int)cfg->hog_prio };
	volatile unsigned long spin = 0;
	unsigned int i;
	pid_t pid;

	fflush(stdout);
	for (i = 0; i < cfg->hogs; i++) {
		pid = fork();
		if (pid < 0)
			fail("fork: %s", strerror(errno));
		if (pid) {
			hog_pids[i] = pid;
			continue;
		}
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent->pid)
			_exit(KSFT_FAIL);
		signal(SIGINT, SIG_IGN);
		if (cfg->hog_prio && sched_setscheduler(0, SCHED_FIFO, &sp)) {
			shm->hog_errno = errno;
			_exit(KSFT_FAIL);
		}
		for (;;)
			spin++;
	}
}

void stop_hogs(void)
{
	unsigned int i;

	for (i = 0; i < cfg->hogs; i++)
		if (hog_pids[i] > 0)
			kill(hog_pids[i], SIGKILL);
	for (i = 0; i < cfg->hogs; i++)
		if (hog_pids[i] > 0 && waitpid(hog_pids[i], NULL, 0) == hog_pids[i])
			hog_pids[i] = 0;
}
