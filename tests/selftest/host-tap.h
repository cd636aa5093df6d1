/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TAP lines of the host-side C tests of binder_throughput's units
 * (test-stats.c, test-usage.c): check() prints one result line per
 * condition, tap_done() the totals and the plan, and gives the exit code.
 */
#ifndef HOST_TAP_H
#define HOST_TAP_H

#include <stdio.h>

static int n_test, n_fail;

static void check(int cond, const char *what)
{
	n_test++;
	if (cond) {
		printf("ok %d %s\n", n_test, what);
	} else {
		printf("not ok %d %s\n", n_test, what);
		n_fail++;
	}
}

/* "# NAME: N tests, N failed", the plan; 1 if anything failed */
static int tap_done(const char *name)
{
	printf("# %s: %d tests, %d failed\n", name, n_test, n_fail);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}

#endif /* HOST_TAP_H */
