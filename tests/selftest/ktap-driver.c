// SPDX-License-Identifier: GPL-2.0
/*
 * ktap-driver: binder_throughput's KTAP lines for one outcome, with no
 * binder: "ktap-driver pass|fail|skip [REASON]" prints the plan and the
 * result through selftests/binder_throughput/ktap.c, and exits as the test
 * would. test-ktap.sh builds it against our stand-in for kselftest.h
 * (selftests/binder_uapi/standalone) and against a kernel tree's, and
 * compares the two.
 */
#include <stdio.h>
#include <string.h>

#include "bt.h"

int main(int argc, char **argv)
{
	const char *reason = argc > 2 ? argv[2] : "why";
	int code;

	if (argc < 2 || argc > 3)
		return EXIT_USAGE;
	if (!strcmp(argv[1], "pass"))
		code = KSFT_PASS;
	else if (!strcmp(argv[1], "fail"))
		code = KSFT_FAIL;
	else if (!strcmp(argv[1], "skip"))
		code = KSFT_SKIP;
	else
		return EXIT_USAGE;
	ktap_begin();
	ktap_end(code, reason);
}
