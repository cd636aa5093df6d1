// SPDX-License-Identifier: GPL-2.0
/*
 * usage: context switches and CPU time per call, from getrusage(2). It owns
 * the samples (struct bt_usage), their differences and sums, the figures
 * per call, and their JSON keys and "# " line. Who samples what, and when,
 * is worker.c's (each worker process, RUSAGE_SELF), client.c's (the
 * --fifo-threads callers, RUSAGE_THREAD) and rounds.c's (the measured
 * rounds); usage.h says why getrusage() and not /proc.
 */
#define _GNU_SOURCE
#include <sys/resource.h>
#include <sys/time.h>

#include "usage.h"

void usage_from_rusage(struct bt_usage *u, const struct rusage *r)
{
	u->vcsw = (uint64_t)r->ru_nvcsw;
	u->ivcsw = (uint64_t)r->ru_nivcsw;
	u->cpu_us = (uint64_t)r->ru_utime.tv_sec * 1000000 + (uint64_t)r->ru_utime.tv_usec +
		    (uint64_t)r->ru_stime.tv_sec * 1000000 + (uint64_t)r->ru_stime.tv_usec;
}

int usage_now(int who, struct bt_usage *u)
{
	struct rusage r;

	if (getrusage(who, &r))
		return -1;
	usage_from_rusage(u, &r);
	return 0;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void usage_delta(struct bt_usage *d, const struct bt_usage *from, const struct bt_usage *to)
{
	d->vcsw = sub0(to->vcsw, from->vcsw);
	d->ivcsw = sub0(to->ivcsw, from->ivcsw);
	d->cpu_us = sub0(to->cpu_us, from->cpu_us);
}

void usage_add(struct bt_usage *acc, const struct bt_usage *d)
{
	acc->vcsw += d->vcsw;
	acc->ivcsw += d->ivcsw;
	acc->cpu_us += d->cpu_us;
}

void usage_split(struct bt_usage *client, struct bt_usage *server, const struct bt_usage *u0,
		 const struct bt_usage *u1, unsigned int workers, unsigned int first_client)
{
	struct bt_usage d;
	unsigned int i;

	for (i = 0; i < workers; i++) {
		usage_delta(&d, &u0[i], &u1[i]);
		usage_add(i < first_client ? server : client, &d);
	}
}

void usage_per_call(struct usage_per_call *pc, const struct bt_usage *u, bool valid,
		    unsigned long long calls)
{
	if (!valid || !calls) {
		pc->vcsw = pc->ivcsw = pc->cpu_us = -1;
		return;
	}
	pc->vcsw = (double)u->vcsw / calls;
	pc->ivcsw = (double)u->ivcsw / calls;
	pc->cpu_us = (double)u->cpu_us / calls;
}

/* @v with @prec decimals, or "-1" for a figure that is not there. */
static const char *num(char *buf, size_t len, double v, int prec)
{
	if (v < 0)
		snprintf(buf, len, "-1");
	else
		snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

void usage_json(FILE *fp, const struct usage_report *r)
{
	static const char * const who[3] = { "client", "server", "fifo" };
	const struct usage_per_call *pc[3] = { &r->client, &r->server, &r->fifo };
	char a[32], b[32], c[32];
	unsigned int i;

	for (i = 0; i < 3; i++)
		fprintf(fp, "  \"%s_vcsw_per_call\": %s,\n  \"%s_ivcsw_per_call\": %s,\n"
			"  \"%s_cpu_us_per_call\": %s%s\n",
			who[i], num(a, sizeof(a), pc[i]->vcsw, 4),
			who[i], num(b, sizeof(b), pc[i]->ivcsw, 4),
			who[i], num(c, sizeof(c), pc[i]->cpu_us, 3), i < 2 ? "," : "");
}

/* "NAME V voluntary, I involuntary, C us CPU" */
static int part(char *buf, size_t len, const char *name, const struct usage_per_call *pc)
{
	char a[32], b[32], c[32];

	return snprintf(buf, len, "%s %s voluntary, %s involuntary, %s us CPU", name,
			num(a, sizeof(a), pc->vcsw, 4), num(b, sizeof(b), pc->ivcsw, 4),
			num(c, sizeof(c), pc->cpu_us, 3));
}

void usage_line(char *buf, size_t len, const struct usage_report *r)
{
	size_t n;

	n = snprintf(buf, len, "context switches and CPU per call (getrusage): ");
	if (n < len)
		n += part(buf + n, len - n, "client", &r->client);
	if (n < len && r->server.vcsw >= 0)
		n += part(buf + n, len - n, "; server", &r->server);
	if (n < len && r->fifo.vcsw >= 0)
		part(buf + n, len - n, "; SCHED_FIFO callers", &r->fifo);
}
