// SPDX-License-Identifier: GPL-2.0
/*
 * sysstat: what the parent measures of the system around the rounds. It
 * owns the count of pages that binder's shrinker reclaimed (a tracepoint,
 * in the top-level trace buffer or a private tracefs instance), the
 * workers' binder memory from debugfs (--mem-stats), and the CPU times of
 * /proc/stat.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bt.h"

/*
 * Pages reclaimed by binder's shrinker: binder_alloc_free_page() fires
 * binder:binder_unmap_kernel_end once per page it takes away, and nothing
 * else does. Per CPU, a trace buffer's entries plus overrun (events
 * overwritten) count the events it took.
 *
 * When the event is already on in the top-level buffer (trace_event= on the
 * kernel command line, or enabled by the test plan while the system was
 * idle), the count is the difference over the run, for every binder process.
 * Otherwise a private tracefs instance records the event for our workers
 * only. Turning a tracepoint on or off patches kernel text (int3 and
 * text_poke): under QEMU TCG doing that while the site runs on another CPU
 * has oopsed ("Oops: int3" in ttwu_do_activate, from the sched_wakeup probe
 * that record-cmd adds), hence the boot-time option, and record-cmd and
 * record-tgid off in the instance.
 *
 * The event's system is "binder" for the in-tree driver (binder_linux) and
 * "binder_alloc_split" for the out-of-tree module of this project.
 */
static const char * const unmap_events[] = {
	"events/binder/binder_unmap_kernel_end",
	"events/binder_alloc_split/binder_unmap_kernel_end",
};
static const char *unmap_event;

static bool trace_global;
static long trace_base;
static char trace_dir[PATH_MAX];

static bool write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok;
}

static bool read_is_one(const char *path)
{
	char c = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == '1';
}

static long trace_events(const char *dir)
{
	char pattern[PATH_MAX + 32], line[128];
	long total = 0, v;
	glob_t g;
	size_t i;
	FILE *fp;

	snprintf(pattern, sizeof(pattern), "%s/per_cpu/cpu*/stats", dir);
	if (glob(pattern, 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc; i++) {
		fp = fopen(g.gl_pathv[i], "re");
		if (!fp)
			continue;
		while (fgets(line, sizeof(line), fp))
			if (sscanf(line, "entries: %ld", &v) == 1 ||
			    sscanf(line, "overrun: %ld", &v) == 1)
				total += v;
		fclose(fp);
	}
	globfree(&g);
	return total;
}

const char *trace_start(void)
{
	static const char * const bases[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[PATH_MAX + 64], filter[MAX_WORKERS * 24], *f = filter;
	unsigned int i, e;

	for (i = 0; i < 2; i++) {
		for (e = 0; e < ARRAY_SIZE(unmap_events); e++) {
			snprintf(path, sizeof(path), "%s/%s/enable", bases[i], unmap_events[e]);
			if (!access(path, F_OK))
				break;
		}
		if (e < ARRAY_SIZE(unmap_events))
			break;
	}
	if (i == 2)
		return "no binder tracepoints in tracefs";
	unmap_event = unmap_events[e];
	if (read_is_one(path)) {
		snprintf(trace_dir, sizeof(trace_dir), "%s", bases[i]);
		trace_global = true;
		trace_base = trace_events(trace_dir);
		if (trace_base < 0) {
			trace_dir[0] = 0;
			return "cannot read the per-CPU trace buffer stats";
		}
		return NULL;
	}
	snprintf(trace_dir, sizeof(trace_dir), "%s/instances/" PROG "_%d", bases[i], (int)getpid());
	if (mkdir(trace_dir, 0700)) {
		trace_dir[0] = 0;
		return "cannot create a tracefs instance";
	}
	snprintf(path, sizeof(path), "%s/options/record-cmd", trace_dir);
	write_str(path, "0");
	snprintf(path, sizeof(path), "%s/options/record-tgid", trace_dir);
	write_str(path, "0");
	for (i = 0; i < cfg->workers; i++)
		f += sprintf(f, "%sproc == %d", i ? " || " : "", (int)parent->worker_pids[i]);
	snprintf(path, sizeof(path), "%s/%s/filter", trace_dir, unmap_event);
	if (!write_str(path, filter))
		return "cannot set the event filter";
	snprintf(path, sizeof(path), "%s/%s/enable", trace_dir, unmap_event);
	if (!write_str(path, "1"))
		return "cannot enable binder_unmap_kernel_end";
	return NULL;
}

/* Events recorded since trace_start(), or -1. */
long trace_count(void)
{
	long n;

	if (!trace_dir[0])
		return -1;
	n = trace_events(trace_dir);
	return n < 0 ? -1 : n - trace_base;
}

/* The event's name, as "system/event". */
const char *trace_event(void)
{
	return unmap_event + strlen("events/");
}

const char *trace_source(void)
{
	return trace_global ? "boot-enabled, all binder processes" : "tracefs instance, workers";
}

void trace_stop(void)
{
	char path[PATH_MAX + 64];

	if (!trace_dir[0] || trace_global)
		return;
	snprintf(path, sizeof(path), "%s/%s/enable", trace_dir, unmap_event);
	write_str(path, "0");
	if (!rmdir(trace_dir))
		trace_dir[0] = 0;
}

/*
 * Binder memory of the workers from debugfs: the stats file has a section
 * per binder_proc ("proc PID") with "pages: active:lru:free" and
 * "pages high watermark: N". Installed pages are active + lru.
 */
static long mem_peak = -1, mem_high = -1;

static bool is_worker_pid(int pid)
{
	unsigned int i;

	for (i = 0; i < cfg->workers; i++)
		if (parent->worker_pids[i] == pid)
			return true;
	return false;
}

void mem_sample(void)
{
	long installed = 0, high = 0, a, l, f, h;
	bool ours = false, seen = false;
	char line[256];
	FILE *fp;
	int pid;

	fp = fopen(BINDER_STATS, "re");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "proc %d", &pid) == 1) {
			ours = is_worker_pid(pid);
		} else if (!ours) {
			continue;
		} else if (sscanf(line, " pages: %ld:%ld:%ld", &a, &l, &f) == 3) {
			installed += a + l;
			seen = true;
		} else if (sscanf(line, " pages high watermark: %ld", &h) == 1) {
			high += h;
		}
	}
	fclose(fp);
	if (!seen)
		return;
	if (installed > mem_peak)
		mem_peak = installed;
	if (high > mem_high)
		mem_high = high;
}

void mem_result(long *peak, long *high)
{
	*peak = mem_peak;
	*high = mem_high;
}

bool read_cpu(struct cpu_times *c)
{
	unsigned long long v[8] = { 0 };
	FILE *fp = fopen("/proc/stat", "re");
	int n;

	if (!fp)
		return false;
	n = fscanf(fp, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(fp);
	if (n < 4)
		return false;
	c->user = v[0] + v[1];
	c->system = v[2] + v[5] + v[6];
	c->idle = v[3] + v[4];
	c->total = c->user + c->system + c->idle + v[7];
	return true;
}
