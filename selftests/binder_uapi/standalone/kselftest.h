/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What binder_throughput uses of the kernel's tools/testing/selftests/
 * kselftest.h, for a build with no kernel tree (ksft.mk picks it then).
 * Written for this test, not taken from the kernel: the same names, exit
 * codes and output (KTAP: "TAP version 13", "1..N", "ok N ...",
 * "not ok N ...", "# ..." diagnostics, the "# Totals: ..." line), so that
 * both builds print the same lines for the same run; tests/selftest/
 * test-ktap.sh compares them.
 *
 * Like the kernel's, the counters are static: only one translation unit
 * (results.c) prints the plan and the results.
 */
#ifndef SELFTESTS_BINDER_UAPI_STANDALONE_KSELFTEST_H
#define SELFTESTS_BINDER_UAPI_STANDALONE_KSELFTEST_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Exit codes, as the kselftest runner reads them. */
#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_XFAIL	2
#define KSFT_XPASS	3
#define KSFT_SKIP	4

#ifndef __noreturn
#define __noreturn __attribute__((__noreturn__))
#endif
#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static struct {
	unsigned int pass, fail, xfail, xpass, skip, error;
} ksft_counts;
static unsigned int ksft_planned;

static inline unsigned int ksft_test_num(void)
{
	return ksft_counts.pass + ksft_counts.fail + ksft_counts.xfail + ksft_counts.xpass +
	       ksft_counts.skip + ksft_counts.error;
}

/* The version line (none when a runner nests us: KSFT_TAP_LEVEL). */
static inline void ksft_print_header(void)
{
	/* One line at a time: children fork with nothing buffered. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!getenv("KSFT_TAP_LEVEL"))
		printf("TAP version 13\n");
}

static inline void ksft_set_plan(unsigned int plan)
{
	ksft_planned = plan;
	printf("1..%u\n", plan);
}

static inline void ksft_vprint(const char *prefix, const char *fmt, va_list ap)
{
	int e = errno;

	fputs(prefix, stdout);
	errno = e;	/* for a %m in @fmt */
	vprintf(fmt, ap);
}

static inline __printf(1, 2) void ksft_print_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ksft_vprint("# ", fmt, ap);
	va_end(ap);
}

/* "ok N " and @fmt, which ends the line. */
static inline __printf(1, 2) void ksft_test_result_pass(const char *fmt, ...)
{
	char prefix[32];
	va_list ap;

	ksft_counts.pass++;
	snprintf(prefix, sizeof(prefix), "ok %u ", ksft_test_num());
	va_start(ap, fmt);
	ksft_vprint(prefix, fmt, ap);
	va_end(ap);
}

/* "not ok N " and @fmt, which ends the line. */
static inline __printf(1, 2) void ksft_test_result_fail(const char *fmt, ...)
{
	char prefix[32];
	va_list ap;

	ksft_counts.fail++;
	snprintf(prefix, sizeof(prefix), "not ok %u ", ksft_test_num());
	va_start(ap, fmt);
	ksft_vprint(prefix, fmt, ap);
	va_end(ap);
}

/*
 * One whole result line for @name from a KSFT_* code: "ok N NAME", with
 * " # SKIP ", " # XFAIL " or " # XPASS " and @fmt after it, or "not ok N
 * NAME" for anything else; without a directive, @fmt follows " #  ".
 */
static inline __printf(3, 4) void ksft_test_result_code(int code, const char *name,
							const char *fmt, ...)
{
	const char *result = "ok", *directive = "";
	va_list ap;
	int e = errno;

	switch (code) {
	case KSFT_PASS:
		ksft_counts.pass++;
		break;
	case KSFT_SKIP:
		ksft_counts.skip++;
		directive = " # SKIP ";
		break;
	case KSFT_XFAIL:
		ksft_counts.xfail++;
		directive = " # XFAIL ";
		break;
	case KSFT_XPASS:
		ksft_counts.xpass++;
		directive = " # XPASS ";
		break;
	default:
		ksft_counts.fail++;
		result = "not ok";
		break;
	}
	if (!*directive && fmt)
		directive = " #  ";
	printf("%s %u %s%s", result, ksft_test_num(), name, directive);
	if (fmt) {
		errno = e;
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	putchar('\n');
}

/* The closing diagnostics: skips, a plan not kept, the totals. */
static inline void ksft_print_cnts(void)
{
	if (ksft_counts.skip)
		printf("# %u skipped test(s) detected. Consider enabling relevant config options to improve coverage.\n",
		       ksft_counts.skip);
	if (ksft_planned != ksft_test_num())
		printf("# Planned tests != run tests (%u != %u)\n", ksft_planned,
		       ksft_test_num());
	printf("# Totals: pass:%u fail:%u xfail:%u xpass:%u skip:%u error:%u\n",
	       ksft_counts.pass, ksft_counts.fail, ksft_counts.xfail, ksft_counts.xpass,
	       ksft_counts.skip, ksft_counts.error);
}

static inline __noreturn void ksft_exit_pass(void)
{
	ksft_print_cnts();
	exit(KSFT_PASS);
}

static inline __noreturn void ksft_exit_fail(void)
{
	ksft_print_cnts();
	exit(KSFT_FAIL);
}

#endif /* SELFTESTS_BINDER_UAPI_STANDALONE_KSELFTEST_H */
