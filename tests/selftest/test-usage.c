// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of selftests/binder_throughput/usage.c, printing KTAP
 * result lines: the getrusage() fields it takes, differences and sums, the
 * figures per call and their -1 cases, the JSON keys and the "# " line, and
 * getrusage() itself (RUSAGE_THREAD is the calling thread's; RUSAGE_SELF
 * counts a thread that has exited). Built and run by test-usage.sh;
 * "test-usage json" prints a JSON object ending in usage_json()'s keys, as
 * results.c writes them, for test-usage.sh to parse.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "host-tap.h"
#include "usage.h"

static bool same(const struct bt_usage *u, uint64_t vcsw, uint64_t ivcsw, uint64_t cpu_us)
{
	return u->vcsw == vcsw && u->ivcsw == ivcsw && u->cpu_us == cpu_us;
}

static bool per_call_is(const struct usage_per_call *pc, double vcsw, double ivcsw, double cpu)
{
	return pc->vcsw == vcsw && pc->ivcsw == ivcsw && pc->cpu_us == cpu;
}

/* What usage_json() wrote for @r. */
static char *json_of(const struct usage_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return NULL;
	usage_json(fp, r);
	fclose(fp);
	return buf;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Burn @ms of this thread's CPU time, whatever else runs. */
static void spin_ms(unsigned int ms)
{
	uint64_t end = thread_cpu_ns() + ms * 1000000ULL;

	/* clock_gettime() is the work: the loop cannot be optimised away. */
	while (thread_cpu_ns() < end)
		;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* A thread that runs 60 ms of CPU and sleeps 3 times, then exits. */
static void *worker_thread(void *arg)
{
	unsigned int i;

	(void)arg;
	for (i = 0; i < 3; i++) {
		spin_ms(20);
		sleep_ms(1);
	}
	return NULL;
}

static void test_getrusage(void)
{
	struct bt_usage t0, t1, s0, s1, d, td;
	pthread_t th;

	check(!usage_now(RUSAGE_THREAD, &t0), "getrusage(RUSAGE_THREAD) works");
	spin_ms(30);
	sleep_ms(1);
	usage_now(RUSAGE_THREAD, &t1);
	usage_delta(&d, &t0, &t1);
	check(d.cpu_us >= 25000 && d.cpu_us < 10000000,
	      "RUSAGE_THREAD: 30 ms of CPU counted (utime + stime)");
	check(d.vcsw >= 1, "RUSAGE_THREAD: a nanosleep() is a voluntary switch");

	/* A thread that exits still counts in RUSAGE_SELF, not in this thread's. */
	usage_now(RUSAGE_SELF, &s0);
	usage_now(RUSAGE_THREAD, &t0);
	if (pthread_create(&th, NULL, worker_thread, NULL)) {
		check(0, "pthread_create");
		return;
	}
	pthread_join(th, NULL);
	usage_now(RUSAGE_THREAD, &t1);
	check(!usage_now(RUSAGE_SELF, &s1), "getrusage(RUSAGE_SELF) works");
	usage_delta(&d, &s0, &s1);
	usage_delta(&td, &t0, &t1);
	check(d.cpu_us >= 50000, "RUSAGE_SELF: an exited thread's 60 ms of CPU counted");
	check(d.vcsw >= 3, "RUSAGE_SELF: an exited thread's 3 sleeps counted");
	check(td.cpu_us < 40000, "RUSAGE_THREAD: another thread's CPU is not this thread's");
}

static void test_arithmetic(void)
{
	struct rusage r = { 0 };
	struct bt_usage u, a = { 10, 2, 1000 }, b = { 25, 2, 4500 }, d, acc = { 1, 1, 1 };
	struct bt_usage start = { 100, 10, 10000 }, end = { 160, 13, 16000 }, paused = { 20, 1, 500 };
	struct usage_per_call pc;

	r.ru_nvcsw = 7;
	r.ru_nivcsw = 3;
	r.ru_utime.tv_sec = 1;
	r.ru_utime.tv_usec = 999999;
	r.ru_stime.tv_sec = 2;
	r.ru_stime.tv_usec = 1;
	usage_from_rusage(&u, &r);
	check(same(&u, 7, 3, 4000000),
	      "from rusage: nvcsw, nivcsw, utime + stime in microseconds");

	usage_delta(&d, &a, &b);
	check(same(&d, 15, 0, 3500), "delta: field by field");
	usage_delta(&d, &b, &a);
	check(same(&d, 0, 0, 0), "delta: a field that went down gives 0, not a wrap");
	usage_add(&acc, &b);
	usage_add(&acc, &a);
	check(same(&acc, 36, 5, 5501), "add: field by field");

	/* A --fifo-threads caller: (end - start) less its pauses (client.c). */
	usage_delta(&d, &start, &end);
	usage_delta(&d, &paused, &d);
	check(same(&d, 40, 2, 5500), "FIFO caller: the round less its pauses");

	{
		/* Workers' samples before and after: worker i moves by i + 1 each. */
		struct bt_usage u0[4], u1[4], cl = { 0 }, sv = { 0 };
		unsigned int i;

		for (i = 0; i < 4; i++) {
			u0[i] = (struct bt_usage){ 100 * i, 10 * i, 1000 * i };
			u1[i] = (struct bt_usage){ 100 * i + i + 1, 10 * i + i + 1,
						   1000 * i + 10 * (i + 1) };
		}
		usage_split(&cl, &sv, u0, u1, 4, 2);
		check(same(&sv, 3, 3, 30) && same(&cl, 7, 7, 70),
		      "split, -p -w 4: workers 0 and 1 serve, 2 and 3 call");
		cl = sv = (struct bt_usage){ 0 };
		usage_split(&cl, &sv, u0, u1, 4, 0);
		check(same(&sv, 0, 0, 0) && same(&cl, 10, 10, 100),
		      "split, no -p: every worker is a client");
		cl = sv = (struct bt_usage){ 0 };
		usage_split(&cl, &sv, u0, u1, 3, 1);
		check(same(&sv, 1, 1, 10) && same(&cl, 5, 5, 50),
		      "split: only the first @workers samples");
	}

	u = (struct bt_usage){ 2500, 30, 51000 };
	usage_per_call(&pc, &u, true, 1000);
	check(per_call_is(&pc, 2.5, 0.03, 51.0), "per call: each sum over the calls");
	usage_per_call(&pc, &u, true, 0);
	check(per_call_is(&pc, -1, -1, -1), "per call: no calls gives -1, no division by zero");
	usage_per_call(&pc, &u, false, 1000);
	check(per_call_is(&pc, -1, -1, -1), "per call: a figure that is not there is -1");
	usage_per_call(&pc, NULL, false, 0);
	check(per_call_is(&pc, -1, -1, -1), "per call: not there, no sample needed");
	u = (struct bt_usage){ 0, 0, 0 };
	usage_per_call(&pc, &u, true, 5);
	check(per_call_is(&pc, 0, 0, 0), "per call: zero counts are 0, not -1");
}

static const struct usage_report sample = {
	.client = { 2.5, 0.03, 51.0 },
	.server = { -1, -1, -1 },
	.fifo = { 1.00006, 0, 8.2216 },
};

static void test_output(void)
{
	struct usage_report all = sample, client_only = sample;
	char line[400], *j, *l;
	bool ok;

	j = json_of(&sample);
	ok = j && !strcmp(j,
			   "  \"client_vcsw_per_call\": 2.5000,\n"
			   "  \"client_ivcsw_per_call\": 0.0300,\n"
			   "  \"client_cpu_us_per_call\": 51.000,\n"
			   "  \"server_vcsw_per_call\": -1,\n"
			   "  \"server_ivcsw_per_call\": -1,\n"
			   "  \"server_cpu_us_per_call\": -1,\n"
			   "  \"fifo_vcsw_per_call\": 1.0001,\n"
			   "  \"fifo_ivcsw_per_call\": 0.0000,\n"
			   "  \"fifo_cpu_us_per_call\": 8.222\n");
	check(ok, "JSON: the nine keys in order, numbers, -1 where absent, no comma after the last");
	for (l = j ? strtok(j, "\n") : NULL; !ok && l; l = strtok(NULL, "\n"))
		printf("# got: %s\n", l);
	free(j);

	all.server = (struct usage_per_call){ 1, 0.5, 12.25 };
	usage_line(line, sizeof(line), &all);
	check(!strcmp(line, "context switches and CPU per call (getrusage): client 2.5000 voluntary, 0.0300 involuntary, 51.000 us CPU; server 1.0000 voluntary, 0.5000 involuntary, 12.250 us CPU; SCHED_FIFO callers 1.0001 voluntary, 0.0000 involuntary, 8.222 us CPU"),
	      "line: client, server and SCHED_FIFO callers");
	printf("# %s\n", line);
	client_only.fifo = client_only.server;
	usage_line(line, sizeof(line), &client_only);
	check(!strcmp(line, "context switches and CPU per call (getrusage): client 2.5000 voluntary, 0.0300 involuntary, 51.000 us CPU"),
	      "line: without -p and --fifo-threads, the client figures only");
	printf("# %s\n", line);
	usage_line(line, 40, &all);
	check(strlen(line) == 39, "line: cut to the buffer");
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "json")) {
		printf("{\n  \"transactions\": 1000,\n  \"result\": \"ok\",\n");
		usage_json(stdout, &sample);
		printf("}\n");
		return 0;
	}
	test_arithmetic();
	test_output();
	test_getrusage();
	return tap_done("usage");
}
