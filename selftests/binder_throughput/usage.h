/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Context switches and CPU time from getrusage(2), and their figures per
 * call: the work of a transaction that a scheduler mechanism such as proxy
 * execution cannot remove. No binder here: test-usage.c tests it on the host.
 *
 * getrusage() reads the per-task counters that /proc shows (nvcsw and nivcsw
 * as voluntary_ctxt_switches and nonvoluntary_ctxt_switches in status, utime
 * and stime in stat), and for RUSAGE_SELF it sums them over every thread of
 * the process, including the threads that have exited (their counts are kept
 * in the signal struct), which the /proc files of the live tasks do not.
 */
#ifndef BINDER_THROUGHPUT_USAGE_H
#define BINDER_THROUGHPUT_USAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct rusage;

/* A getrusage() sample, or a difference of two. */
struct bt_usage {
	uint64_t vcsw;		/* ru_nvcsw: voluntary context switches */
	uint64_t ivcsw;		/* ru_nivcsw: involuntary context switches */
	uint64_t cpu_us;	/* ru_utime + ru_stime, in microseconds */
};

/* The fields of @r that we use. */
void usage_from_rusage(struct bt_usage *u, const struct rusage *r);

/* getrusage(@who) (RUSAGE_SELF or RUSAGE_THREAD) into @u; -1 and errno on failure. */
int usage_now(int who, struct bt_usage *u);

/* @d = @to - @from, field by field; a field that went down gives 0. */
void usage_delta(struct bt_usage *d, const struct bt_usage *from, const struct bt_usage *to);

/* @acc += @d */
void usage_add(struct bt_usage *acc, const struct bt_usage *d);

/*
 * The workers' differences from @u0 to @u1 (@workers each), summed by role:
 * workers [0, @first_client) into @server, the others into @client (with -p
 * @first_client is workers / 2, as is_client() has it; without -p 0: every
 * worker calls).
 */
void usage_split(struct bt_usage *client, struct bt_usage *server, const struct bt_usage *u0,
		 const struct bt_usage *u1, unsigned int workers, unsigned int first_client);

/* Per call: -1 each when not @valid or when @calls is 0. */
struct usage_per_call {
	double vcsw;
	double ivcsw;
	double cpu_us;
};

void usage_per_call(struct usage_per_call *pc, const struct bt_usage *u, bool valid,
		    unsigned long long calls);

/* The callers, the servers (-p only) and the --fifo-threads callers, per call. */
struct usage_report {
	struct usage_per_call client;
	struct usage_per_call server;
	struct usage_per_call fifo;
};

/*
 * The JSON keys, one a line as results.c writes them, the last one without
 * a comma: "  \"client_vcsw_per_call\": 2.0010,\n" ... fifo_cpu_us_per_call.
 * A figure that is not there is -1.
 */
void usage_json(FILE *fp, const struct usage_report *r);

/*
 * The text of the "# " line: "context switches and CPU per call
 * (getrusage): client V voluntary, I involuntary, C us CPU; server ...;
 * SCHED_FIFO callers ...", leaving out the server and SCHED_FIFO parts that
 * are not there (-1).
 */
void usage_line(char *buf, size_t len, const struct usage_report *r);

#endif /* BINDER_THROUGHPUT_USAGE_H */
