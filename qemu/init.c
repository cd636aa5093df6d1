// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the binder-alloc-split test guests. Built static on the host
 * (gcc -static -O2) by qemu/mkinitramfs.sh.
 *
 * Phases, one function each, in the order main() calls them: console, file
 * systems, log level, clocksource wait, kmemleak clear, test plan, kmemleak
 * scan, verdict, reboot. The test plan is a shell script run with busybox sh:
 * /tests/run, or the path given with bas.run=PATH on the kernel command line.
 * Its exit status is the verdict. The results go to a device of their own
 * (RESULT_PORT: x86_64's second UART, arm64's virtio console), which the
 * host wires to a file: the plan gets it as file descriptor 3 and writes
 * its KTAP there (qemu/guest-lib.sh), and the last line is the verdict
 * ("bas-verdict: success" or "bas-verdict: failure: REASON").
 * reboot(RB_AUTOBOOT) then ends QEMU (-no-reboot).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define KMEMLEAK "/sys/kernel/debug/kmemleak"
#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/current_clocksource"
#define TSC_WAIT_SECONDS 60

/*
 * The result channel, kept apart from the console so that no kernel message
 * can forge a verdict or break a result line (qemu/qemu-run.sh wires it):
 * on x86_64 the second
 * UART (QEMU's second -serial), on arm64 the virtio console (the virt
 * machine's one UART is the console).
 */
#ifdef __aarch64__
#define RESULT_PORT "/dev/hvc0"
#else
#define RESULT_PORT "/dev/ttyS1"
#endif

static char failure[512];

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("[init] ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
}

/* Record the first failure; later ones are only printed. */
static void fail(const char *fmt, ...)
{
	char msg[sizeof(failure)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say("FAIL: %s", msg);
	if (!failure[0])
		snprintf(failure, sizeof(failure), "%s", msg);
}

static void finish(void);

/* A broken guest setup: no point going on. */
static void fatal(const char *what)
{
	fail("%s: %s", what, strerror(errno));
	finish();
}

static bool write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok;
}

/* Read up to len - 1 bytes of path into buf; returns the length or -1. */
static ssize_t read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static void ensure_console(void)
{
	int fd = open("/dev/console", O_RDWR);

	if (fd < 0)
		return; /* the kernel's console fds, if any, stay */
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static void print_banner(void)
{
	struct utsname u;

	if (uname(&u) == 0)
		say("%s %s %s %s", u.sysname, u.release, u.version, u.machine);
}

static void mount_one(const char *source, const char *target, const char *type, bool required)
{
	mkdir(target, 0755);
	if (mount(source, target, type, 0, NULL) && errno != EBUSY) {
		if (required)
			fatal(target);
		say("optional mount %s (%s) failed: %s", target, type, strerror(errno));
	}
}

static void mount_filesystems(void)
{
	mount_one("devtmpfs", "/dev", "devtmpfs", true);
	mount_one("proc", "/proc", "proc", true);
	mount_one("sysfs", "/sys", "sysfs", true);
	mount_one("tmpfs", "/tmp", "tmpfs", true);
	mount_one("tmpfs", "/run", "tmpfs", true);
	mount_one("debugfs", "/sys/kernel/debug", "debugfs", false);
	mount_one("tracefs", "/sys/kernel/tracing", "tracefs", false);
}

static void enable_logging(void)
{
	/* Everything to the console: the host scans the log for splats. */
	if (!write_file("/proc/sys/kernel/printk", "8\n"))
		say("cannot set the printk level: %s", strerror(errno));
	/* drop_caches prints a line per write unless bit 4 was written once. */
	write_file("/proc/sys/vm/drop_caches", "4\n");
}

/*
 * x86_64: tsc-early turns into tsc a few seconds after boot; measurements need
 * tsc. arm64's architected timer is the clocksource from the start.
 */
static void wait_for_tsc(void)
{
	char cs[64] = "";
#ifdef __x86_64__
	int i;

	for (i = 0; i < TSC_WAIT_SECONDS * 10; i++) {
		if (read_file(CLOCKSOURCE, cs, sizeof(cs)) > 0) {
			cs[strcspn(cs, "\n")] = '\0';
			if (!strcmp(cs, "tsc"))
				break;
		}
		usleep(100 * 1000);
	}
	say("clocksource: %s (after %d.%d s)", cs[0] ? cs : "unknown", i / 10, i % 10);
#else
	read_file(CLOCKSOURCE, cs, sizeof(cs));
	cs[strcspn(cs, "\n")] = '\0';
	say("clocksource: %s", cs[0] ? cs : "unknown");
#endif
}

static bool have_kmemleak(void)
{
	return access(KMEMLEAK, F_OK) == 0;
}

static void clear_leaks(void)
{
	if (have_kmemleak() && !write_file(KMEMLEAK, "clear"))
		say("kmemleak clear failed: %s", strerror(errno));
}

/* The value of NAME= on the kernel command line, or NULL. */
static const char *cmdline_value(const char *name)
{
	static char cmdline[4096];
	size_t len = strlen(name);
	char *tok, *save;

	if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return NULL;
	for (tok = strtok_r(cmdline, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!strncmp(tok, name, len) && tok[len] == '=')
			return tok + len + 1;
	return NULL;
}

static void launch_tests(void)
{
	const char *plan = cmdline_value("bas.run");
	int status;
	pid_t pid;

	if (!plan)
		plan = "/tests/run";
	if (access(plan, R_OK)) {
		fail("no test plan: %s: %s", plan, strerror(errno));
		return;
	}
	say("running %s", plan);
	pid = fork();
	if (pid < 0)
		fatal("fork");
	if (pid == 0) {
		char *const envp[] = { "PATH=/bin:/sbin:/tests", "HOME=/", "TERM=dumb", NULL };
		int fd = open(RESULT_PORT, O_WRONLY | O_NOCTTY);

		/* The plan's results, on fd 3 (dup2 clears close-on-exec). */
		if (fd < 0)
			say("cannot open " RESULT_PORT " for the plan: %s", strerror(errno));
		if (fd >= 0 && fd != 3) {
			dup2(fd, 3);
			close(fd);
		}
		chdir("/");
		execle("/bin/busybox", "sh", plan, (char *)NULL, envp);
		perror("exec /bin/busybox");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		fatal("waitpid");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		say("%s passed", plan);
	else if (WIFEXITED(status))
		fail("%s exited with %d", plan, WEXITSTATUS(status));
	else
		fail("%s killed by signal %d", plan, WTERMSIG(status));
}

static void check_leaks(void)
{
	char report[4096];
	ssize_t n;

	if (!have_kmemleak())
		return;
	/* Objects younger than about 5 s are never reported: let them age. */
	say("kmemleak: scanning");
	sleep(6);
	if (!write_file(KMEMLEAK, "scan") || !write_file(KMEMLEAK, "scan")) {
		fail("kmemleak scan failed: %s", strerror(errno));
		return;
	}
	n = read_file(KMEMLEAK, report, sizeof(report));
	if (n > 0) {
		fputs(report, stdout);
		fail("kmemleak reported leaks");
	} else {
		say("kmemleak: no leaks");
	}
}

static int open_result_port(void)
{
	return open(RESULT_PORT, O_WRONLY | O_NOCTTY | O_CLOEXEC);
}

static void finish(void)
{
	char line[sizeof(failure) + 32];
	int fd;

	if (failure[0])
		snprintf(line, sizeof(line), "bas-verdict: failure: %s\n", failure);
	else
		snprintf(line, sizeof(line), "bas-verdict: success\n");
	say("verdict: %.*s", (int)strlen(line) - 1, line);
	fd = open_result_port();
	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		say("cannot write the verdict to " RESULT_PORT);
	if (fd >= 0) {
		/* Out of the UART before the reboot, even if a process of the plan still holds it. */
		tcdrain(fd);
		close(fd);
	}
	sync();
	reboot(RB_AUTOBOOT); /* with QEMU's -no-reboot, QEMU exits */
	say("reboot failed: %s", strerror(errno));
	for (;;)
		pause();
}

int main(void)
{
	ensure_console();
	print_banner();
	mount_filesystems();
	enable_logging();
	wait_for_tsc();
	clear_leaks();
	launch_tests();
	check_leaks();
	finish();
	return 0;
}
