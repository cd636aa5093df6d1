// SPDX-License-Identifier: GPL-2.0
/*
 * binder_fuzz: options, the run loop (the processes of each program, their
 * pipes and time limits, the PCs seen, the corpus), the minimiser and the
 * KTAP report. See README.md.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/kcov.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "binder_uapi.h"
#include "binder_fuzz.h"
#include "kselftest.h"

#define CALL_MS		10000	/* a call that takes longer is counted and left behind */
#define SETTLE_MS	30000	/* binder's deferred release of a program's processes, at most */
#define STATS_PATH	"/sys/kernel/debug/binder/stats"
#define CORPUS_MAX	512
#define KCOV_PATH	"/sys/kernel/debug/kcov"
#define TRIES		3	/* runs of a candidate before the minimiser gives it up */

struct bf_opts bf_opts;

static struct {
	uint64_t seed, mseed;
	bool have_seed, have_mseed, print, minimise, quiet, kcov_on, kcov_off, kmsg;
	unsigned long long nprog;
	double secs;
	const char *file, *corpus_dir;
	int nproc, maxcalls;
} o = { .maxcalls = BF_DEFCALLS };

static struct {
	unsigned long long progs, calls, timeouts, skipped, crashes, unsettled;
} stats;

struct result {
	bool crash;
	int sig, proc;
	unsigned long newpcs;
};

static uint64_t *pcs;		/* BF_MAXPROC slots of BF_KCOV_WORDS, shared with the children */
static uint64_t *pcset;		/* the PCs seen: open addressing, 0 empty */
static size_t pccap, npcs;
static struct bf_prog *corpus;
static int ncorpus, nadded;
static char mnt[PATH_MAX], devpath[PATH_MAX];
static int kmsg_fd = -1;	/* -L */

static void __noreturn __printf(1, 2) die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("binder_fuzz: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(KSFT_FAIL);
}

static void help(void)
{
	printf("usage: binder_fuzz [-d DEV] [-s SEED] [-n PROGRAMS] [-t SECONDS] [-c DIR] [-k|-K]\n"
	       "         [-q] [-L] [-P PROCS] [-l CALLS] [--dry] [--trace] [-r FILE [-m MSEED]]\n"
	       "       binder_fuzz -p -s SEED | -p -r FILE [-m MSEED]    print a program\n"
	       "       binder_fuzz -M -s SEED | -M -r FILE [--dry]       minimise a crashing one\n"
	       "See README.md.\n");
}

static unsigned long long num(const char *s, const char *opt)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *s == '-' || *end || errno)
		die("%s: '%s' is not a number", opt, s);
	return v;
}

static struct bf_prog file;	/* -r */

static void load(struct bf_prog *pg)
{
	char err[512];
	FILE *f = fopen(o.file, "r");

	if (!f)
		die("-r %s: %s", o.file, strerror(errno));
	if (bf_parse(f, o.file, pg, err, sizeof(err)))
		die("%s", err);
	fclose(f);
}

static bool pc_add(uint64_t pc)
{
	size_t i, old = pccap;
	uint64_t *prev = pcset;

	if (npcs * 2 >= pccap) {
		pccap = pccap ? pccap * 2 : 1 << 14;
		pcset = calloc(pccap, sizeof(*pcset));
		if (!pcset)
			die("out of memory for %zu PCs", npcs);
		npcs = 0;
		for (i = 0; i < old; i++)
			if (prev[i])
				pc_add(prev[i]);
		free(prev);
	}
	for (i = (pc * 0x9e3779b97f4a7c15ULL) >> 40 & (pccap - 1); pcset[i];
	     i = (i + 1) & (pccap - 1))
		if (pcset[i] == pc)
			return false;
	pcset[i] = pc;
	npcs++;
	return true;
}

static void note(struct result *r, int p, int status, bool killed)
{
	if (!WIFSIGNALED(status) || (killed && WTERMSIG(status) == SIGKILL))
		return;
	r->crash = true;
	r->sig = WTERMSIG(status);
	r->proc = p;
}

enum { ASK_OK, ASK_TIMEOUT, ASK_DIED };

/* Call @i by process @p: told on @cmd, answered on @ans within CALL_MS. */
static int ask(int i, int p, int cmd, int ans, struct result *r)
{
	struct pollfd pfd = { .fd = ans, .events = POLLIN };
	long long end = bx_now_ms() + CALL_MS;
	struct bf_ans a;
	int32_t m = i;
	ssize_t n;

	if (write(cmd, &m, sizeof(m)) != sizeof(m))
		return ASK_DIED;
	for (;;) {
		long long left = end - bx_now_ms();

		n = poll(&pfd, 1, left > 0 ? left : 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ASK_TIMEOUT;
		n = read(ans, &a, sizeof(a));
		if (n <= 0)
			return ASK_DIED;
		if (n == sizeof(a) && a.call == i)
			break;
	}
	for (uint32_t k = 0; k < a.npc && k < BF_KCOV_WORDS; k++)
		r->newpcs += pc_add(pcs[(size_t)p * BF_KCOV_WORDS + k]);
	return ASK_OK;
}

/* Binder's live procs, debugfs stats' "proc: active N"; -1 when it cannot be read. */
static int procs_alive(void)
{
	FILE *f = fopen(STATS_PATH, "r");
	char line[256];
	int n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "proc: active %d", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * Wait until binder has released the processes of the program just reaped:
 * binder_release() only queues the release (the context manager, nodes,
 * buffers and pages go in binder_deferred_release(), on a workqueue), and
 * the next program must not meet what is left of this one, nor a splat of
 * that release be pinned on it. Counted when it takes over SETTLE_MS.
 */
static void settle(int before)
{
	long long end = bx_now_ms() + SETTLE_MS;
	int n;

	if (before < 0)
		return;
	while ((n = procs_alive()) > before && bx_now_ms() < end)
		usleep(5000);
	if (n > before)
		stats.unsettled++;
}

/*
 * Run @pg once; every process of it is killed and reaped, and binder has
 * released them, on return. -errno: fork failed.
 */
static int run_prog(const struct bf_prog *pg, struct result *r)
{
	pid_t pid[BF_MAXPROC] = { 0 };
	int cmd[BF_MAXPROC], ans[BF_MAXPROC], c[2], a[2], p, i, n = 0, ret = 0, status;
	bool done[BF_MAXPROC] = { false }, reaped[BF_MAXPROC] = { false };
	int before = bf_opts.dry ? -1 : procs_alive();

	memset(r, 0, sizeof(*r));
	fflush(stdout);
	fflush(stderr);
	for (; n < pg->nproc; n++) {
		if (pipe2(c, O_CLOEXEC))
			break;
		if (pipe2(a, O_CLOEXEC)) {
			close(c[0]);
			close(c[1]);
			break;
		}
		pid[n] = fork();
		if (!pid[n]) {
			for (i = 0; i < n; i++) {
				close(cmd[i]);
				close(ans[i]);
			}
			close(c[1]);
			close(a[0]);
			bf_child(pg, n, c[0], a[1], pcs + (size_t)n * BF_KCOV_WORDS);
		}
		close(c[0]);
		close(a[1]);
		cmd[n] = c[1];
		ans[n] = a[0];
		if (pid[n] < 0) {
			close(cmd[n]);
			close(ans[n]);
			break;
		}
	}
	if (n < pg->nproc) {
		ret = -errno;
		goto out;
	}
	for (p = 0; p < n; p++)
		if (write(cmd[p], pid, sizeof(pid)) != sizeof(pid))
			done[p] = true;
	for (i = 0; i < pg->ncall; i++) {
		p = pg->call[i].proc;
		if (done[p]) {
			stats.skipped++;
			continue;
		}
		switch (ask(i, p, cmd[p], ans[p], r)) {
		case ASK_OK:
			stats.calls++;
			done[p] = pg->call[i].kind == K_EXIT;
			break;
		case ASK_TIMEOUT:
			stats.timeouts++;
			done[p] = true;
			break;
		case ASK_DIED:
			done[p] = true;
			reaped[p] = true;
			if (waitpid(pid[p], &status, 0) == pid[p])
				note(r, p, status, false);
		}
	}
out:
	for (p = 0; p < n; p++) {
		if (!reaped[p]) {
			if (waitpid(pid[p], &status, WNOHANG) == pid[p]) {
				note(r, p, status, false);
			} else {
				kill(pid[p], SIGKILL);
				if (waitpid(pid[p], &status, 0) == pid[p])
					note(r, p, status, true);
			}
		}
		close(cmd[p]);
		close(ans[p]);
	}
	settle(before);
	errno = -ret;
	return ret;
}

/* A line of the log: on stdout if @out, and with -L in the kernel log, before what it causes. */
static void __printf(2, 3) say(bool out, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "binder_fuzz: ");
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	if (out)
		fputs(buf + n, stdout);
	/* One record per line. */
	if (kmsg_fd >= 0 && write(kmsg_fd, buf, strlen(buf)) < 0)
		ksft_print_msg("-L: writing to /dev/kmsg: %s\n", strerror(errno));
}

static void add_corpus(const struct bf_prog *pg)
{
	static char text[BF_TEXT];
	char path[PATH_MAX], *line, *s = text;
	int k = nadded++ % CORPUS_MAX;
	FILE *f;

	if (!corpus)
		corpus = calloc(CORPUS_MAX, sizeof(*corpus));
	if (!corpus)
		die("out of memory for the corpus");
	corpus[k] = *pg;
	if (ncorpus < CORPUS_MAX)
		ncorpus++;
	bf_print(pg, text, sizeof(text));
	if (o.corpus_dir) {
		snprintf(path, sizeof(path), "%s/%d.prog", o.corpus_dir, k);
		f = fopen(path, "w");
		if (!f || fputs(text, f) < 0 || fclose(f))
			ksft_print_msg("corpus: cannot write %s: %s\n", path, strerror(errno));
	}
	say(true, "# corpus %d:\n", k);
	while ((line = strsep(&s, "\n")) && *line)
		say(true, "# | %s\n", line);
}

/* Whether /dev/kmsg, read from where @fd stood, has a kernel splat. */
static bool kmsg_splat(int fd)
{
	/* The main patterns of qemu/check-log.sh, which judges make fuzz's logs. */
	static const char *const splats[] = {
		"BUG:", "WARNING:", "KASAN:", "Oops", "kernel BUG", "general protection fault",
		"possible circular locking", "inconsistent lock state", "possible recursive locking",
		"suspicious RCU usage", "bad unlock balance", "blocked for more than",
		"sleeping function called from invalid context", "UBSAN", "unreferenced object",
		"kmemleak", "list_add corruption", "list_del corruption", "Kernel panic",
	};
	char rec[8192];
	ssize_t n;
	bool hit = false;

	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(splats); i++)
			hit |= !!strstr(rec, splats[i]);
	}
	return hit;
}

static bool reproduces(const struct bf_prog *pg)
{
	struct result r;
	bool splat;
	int fd;

	for (int t = 0; t < TRIES; t++) {
		fd = bf_opts.dry ? -1 : open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			lseek(fd, 0, SEEK_END);
		if (run_prog(pg, &r))
			die("fork: %s", strerror(errno));
		splat = fd >= 0 && kmsg_splat(fd);
		if (fd >= 0)
			close(fd);
		if (r.crash || splat)
			return true;
	}
	return false;
}

/* Drop calls, then commands, one at a time, while the program still reproduces. */
static int minimise(struct bf_prog *pg)
{
	static struct bf_prog c;
	static char text[BF_TEXT];
	int before = pg->ncall, i, j;
	bool changed;

	if (!reproduces(pg)) {
		fprintf(stderr, "binder_fuzz: error: the program does not reproduce (%d runs)\n",
			TRIES);
		return KSFT_FAIL;
	}
	do {
		changed = false;
		for (i = pg->ncall - 1; i >= 0; i--) {
			c = *pg;
			c.ncall--;
			memmove(&c.call[i], &c.call[i + 1], (c.ncall - i) * sizeof(c.call[0]));
			if (reproduces(&c)) {
				*pg = c;
				changed = true;
			}
		}
		for (i = 0; i < pg->ncall; i++) {
			for (j = pg->call[i].ncmd - 1; j >= 0 && pg->call[i].ncmd > 1; j--) {
				struct bf_call *k = &c.call[i];
				size_t rest;

				c = *pg;
				rest = --k->ncmd - j;
				memmove(&k->cmd[j], &k->cmd[j + 1], rest * sizeof(k->cmd[0]));
				if (reproduces(&c)) {
					*pg = c;
					changed = true;
				}
			}
		}
	} while (changed);
	if (!reproduces(pg)) {
		fprintf(stderr, "binder_fuzz: error: the minimised program no longer reproduces (%d runs)\n",
			TRIES);
		return KSFT_FAIL;
	}
	bf_print(pg, text, sizeof(text));
	fputs(text, stdout);
	fprintf(stderr, "binder_fuzz: minimised %d calls to %d\n", before, pg->ncall);
	return KSFT_PASS;
}

/* The device and kcov, unless --dry. Returns 0, or -1 with why in @err. */
static int setup(char *err, size_t len)
{
	struct binder_version ver = { 0 };
	int fd, ret;

	pcs = mmap(NULL, BF_MAXPROC * BF_KCOV_WORDS * sizeof(uint64_t), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pcs == MAP_FAILED) {
		snprintf(err, len, "mmap of the PC area: %s", strerror(errno));
		return -1;
	}
	if (bf_opts.dry)
		return 0;
	if (!bf_opts.dev) {
		ret = bx_binderfs_mount("binder_fuzz", mnt, sizeof(mnt), err, len);
		if (ret == 1)
			snprintf(err, len, "no binderfs in this kernel, and no -d");
		if (ret)
			return -1;
		if (bx_binderfs_add(mnt, "fuzz", devpath, sizeof(devpath), err, len))
			return -1;
		bf_opts.dev = devpath;
	}
	fd = open(bf_opts.dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BINDER_VERSION, &ver) ||
	    ver.protocol_version != BINDER_CURRENT_PROTOCOL_VERSION) {
		snprintf(err, len, "cannot use the device %s: %s", bf_opts.dev,
			 fd < 0 ? strerror(errno) : "no binder protocol version 8");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (o.kmsg) {
		kmsg_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
		if (kmsg_fd < 0) {
			snprintf(err, len, "-L: /dev/kmsg: %s", strerror(errno));
			return -1;
		}
	}
	if (o.kcov_off)
		return 0;
	fd = open(KCOV_PATH, O_RDWR | O_CLOEXEC);
	bf_opts.kcov = fd >= 0 && !ioctl(fd, KCOV_INIT_TRACE, BF_KCOV_WORDS);
	if (!bf_opts.kcov && o.kcov_on) {
		snprintf(err, len, "kcov (-k): %s: %s", KCOV_PATH, strerror(errno));
		return -1;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

static void teardown(void)
{
	if (!mnt[0])
		return;
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
}

static void next_prog(struct bf_prog *pg, unsigned long long n, uint64_t *rng)
{
	uint64_t s;
	int k;

	if (o.file) {
		*pg = file;
		if (o.have_mseed)
			bf_mutate(pg, o.mseed, o.maxcalls);
		say(!o.quiet, "# prog %llu file %s%s\n", n, o.file, o.have_mseed ? " mutated" : "");
	} else if (n && ncorpus && bf_next(rng) % 2) {
		k = bf_next(rng) % ncorpus;
		s = bf_next(rng);
		*pg = corpus[k];
		bf_mutate(pg, s, o.maxcalls);
		say(!o.quiet, "# prog %llu mutant of corpus %d seed 0x%llx\n", n, k,
		    (unsigned long long)s);
	} else {
		s = n ? bf_next(rng) : o.seed;
		bf_gen(pg, s, o.nproc, o.maxcalls);
		say(!o.quiet, "# prog %llu seed 0x%llx\n", n, (unsigned long long)s);
	}
}

/* The fuzzer itself failed: "not ok", with why. */
static void __noreturn __printf(1, 2) fail(const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	teardown();
	fprintf(stderr, "binder_fuzz: error: %s\n", why);
	ksft_print_msg("error: %s\n", why);
	ksft_test_result_fail("binder_fuzz\n");
	ksft_exit_fail();
}

static int fuzz(void)
{
	uint64_t rng = o.seed ^ 0x6a09e667f3bcc909ULL;
	long long start = bx_now_ms();
	static struct bf_prog pg;
	struct result r;
	char err[512];
	double secs;

	ksft_print_header();
	ksft_set_plan(1);
	if (setup(err, sizeof(err)))
		fail("%s", err);
	ksft_print_msg("seed 0x%llx, device %s, procs %s, calls %d, kcov %s\n",
		       (unsigned long long)o.seed, bf_opts.dry ? "none (dry)" : bf_opts.dev,
		       o.nproc ? (char []){ '0' + o.nproc, 0 } : "2-4", o.maxcalls,
		       bf_opts.kcov ? "on" : "off");
	for (unsigned long long n = 0; !o.nprog || n < o.nprog; n++) {
		if (o.secs > 0 && bx_now_ms() - start >= o.secs * 1000)
			break;
		next_prog(&pg, n, &rng);
		if (run_prog(&pg, &r))
			fail("fork: %s", strerror(errno));
		stats.progs++;
		if (r.crash) {
			stats.crashes++;
			ksft_print_msg("killed: program %llu, p%d, by signal %d (%s)\n", n, r.proc,
				       r.sig, strsignal(r.sig));
		}
		if (r.newpcs)
			add_corpus(&pg);
	}
	teardown();
	secs = (bx_now_ms() - start) / 1000.0;
	ksft_print_msg("programs run: %llu\n", stats.progs);
	ksft_print_msg("calls run: %llu (skipped after an exit or a timeout: %llu)\n",
		       stats.calls, stats.skipped);
	ksft_print_msg("calls timed out: %llu\n", stats.timeouts);
	ksft_print_msg("programs per second: %.1f\n", secs > 0 ? stats.progs / secs : 0.0);
	ksft_print_msg("processes killed by a signal: %llu\n", stats.crashes);
	ksft_print_msg("programs whose release took over %d s: %llu\n", SETTLE_MS / 1000,
		       stats.unsettled);
	ksft_print_msg("corpus size: %d\n", ncorpus);
	if (bf_opts.kcov)
		ksft_print_msg("binder PCs reached: %zu\n", npcs);
	else
		ksft_print_msg("kcov: not available%s\n", bf_opts.dry ? " (dry)" :
			       o.kcov_off ? " (-K)" : "");
	ksft_test_result_pass("binder_fuzz\n");
	ksft_exit_pass();
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry", no_argument, NULL, 'D' },
		{ "trace", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct {
		int c;
		bool *on;
	} flags[] = {
		{ 'k', &o.kcov_on }, { 'K', &o.kcov_off }, { 'q', &o.quiet }, { 'L', &o.kmsg },
		{ 'p', &o.print }, { 'M', &o.minimise }, { 'D', &bf_opts.dry }, { 'T', &bf_opts.trace },
	};
	static struct bf_prog pg;
	static char text[BF_TEXT];
	char *end;
	int c, i;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:s:n:t:c:kKqLpr:m:MP:l:h", longopts, NULL)) != -1) {
		for (i = 0; i < (int)ARRAY_SIZE(flags) && flags[i].c != c; i++)
			;
		if (i < (int)ARRAY_SIZE(flags)) {
			*flags[i].on = true;
			continue;
		}
		switch (c) {
		case 'd':
			bf_opts.dev = optarg;
			break;
		case 's':
			o.seed = num(optarg, "-s");
			o.have_seed = true;
			break;
		case 'n':
			o.nprog = num(optarg, "-n");
			if (!o.nprog)
				die("-n: run at least 1 program");
			break;
		case 't':
			o.secs = strtod(optarg, &end);
			if (end == optarg || *end || !(o.secs > 0))
				die("-t: '%s' is not a number of seconds", optarg);
			break;
		case 'c':
			o.corpus_dir = optarg;
			break;
		case 'r':
			o.file = optarg;
			break;
		case 'm':
			o.mseed = num(optarg, "-m");
			o.have_mseed = true;
			break;
		case 'P':
			o.nproc = num(optarg, "-P") > BF_MAXPROC ? 0 : num(optarg, "-P");
			if (o.nproc < 2)
				die("-P: 2..%d processes, not %s", BF_MAXPROC, optarg);
			break;
		case 'l':
			o.maxcalls = num(optarg, "-l") > BF_MAXCALL ? 0 : num(optarg, "-l");
			if (o.maxcalls < 1)
				die("-l: 1..%d calls, not %s", BF_MAXCALL, optarg);
			break;
		case 'h':
			help();
			return 0;
		case ':':
			die("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt)
				die("unknown option '-%c'", optopt);
			die("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die("unexpected argument '%s'", argv[optind]);
	if (o.have_mseed && !o.file)
		die("-m needs -r: it mutates a program file");
	if (o.kcov_on && (o.kcov_off || bf_opts.dry))
		die("-k needs kcov, which -K and --dry turn off");
	if (o.print && o.minimise)
		die("-p and -M exclude each other");
	if ((o.print || o.minimise) && !o.file && !o.have_seed)
		die("%s needs a program: -s SEED or -r FILE", o.print ? "-p" : "-M");
	if (!o.have_seed)
		o.seed = (uint64_t)time(NULL) << 20 ^ (uint64_t)getpid();
	if (!o.nprog && !o.secs)
		o.nprog = o.file ? 1 : 100;
	signal(SIGPIPE, SIG_IGN);

	if (o.corpus_dir && access(o.corpus_dir, W_OK | X_OK))
		die("-c %s: not a directory this process can write to: %s", o.corpus_dir,
		    strerror(errno));
	if (o.file)
		load(&file);
	if (o.print || o.minimise) {
		if (o.file)
			pg = file;
		else
			bf_gen(&pg, o.seed, o.nproc, o.maxcalls);
		if (o.have_mseed)
			bf_mutate(&pg, o.mseed, o.maxcalls);
	}
	if (o.print) {
		bf_print(&pg, text, sizeof(text));
		fputs(text, stdout);
		return 0;
	}
	if (o.minimise) {
		bf_opts.trace = false;
		if (setup(text, sizeof(text))) {
			teardown();
			die("%s", text);
		}
		c = minimise(&pg);
		teardown();
		return c;
	}
	return fuzz();
}
