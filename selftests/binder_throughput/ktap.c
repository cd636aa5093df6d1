// SPDX-License-Identifier: GPL-2.0
/*
 * ktap: the KTAP plan and the result line of the run, and its exit code,
 * through kselftest.h (the kernel's, or our stand-in: see
 * ../binder_uapi/ksft.mk). The one unit that calls kselftest.h's reporting
 * functions: its counters are static, one set per unit. The "# " lines in
 * between are say()'s, which every unit calls.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "bt.h"

void say(const char *fmt, ...)
{
	char line[2 + 512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line + 2, sizeof(line) - 3, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 4)
		n = sizeof(line) - 4;
	line[0] = '#';
	line[1] = ' ';
	line[2 + n++] = '\n';
	/* One write per line: workers and the parent share stdout. */
	fflush(stdout);
	if (write(STDOUT_FILENO, line, 2 + n) < 0)
		return;
}

void ktap_begin(void)
{
	ksft_print_header();
	ksft_set_plan(1);
}

/*
 * The result line and the totals, and exit with @code. A skip keeps the
 * test's name in its line ("ok 1 binder_throughput # SKIP why"), which
 * ksft_exit_skip() would leave out ("ok 1 # SKIP why").
 */
void ktap_end(int code, const char *reason)
{
	switch (code) {
	case KSFT_PASS:
		ksft_test_result_pass("%s\n", PROG);
		ksft_exit_pass();
	case KSFT_SKIP:
		ksft_test_result_code(KSFT_SKIP, PROG, "%s", reason);
		ksft_print_cnts();
		exit(KSFT_SKIP);
	default:
		ksft_print_msg("error: %s\n", reason);
		ksft_test_result_fail("%s\n", PROG);
		ksft_exit_fail();
	}
}
