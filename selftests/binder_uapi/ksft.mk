# SPDX-License-Identifier: GPL-2.0
# ksft.mk: where these selftests find kselftest.h, the one way for all of them; their
# Makefiles include it. The first that applies:
#   - in a kernel tree (../lib.mk is there): the tree's tools/testing/selftests, "..";
#   - KSFT=DIR: a Linux tree's tools/testing/selftests (kselftest.h, kselftest_harness.h);
#   - else ../binder_uapi/standalone: our stand-in for kselftest.h alone (no harness).
# Sources then #include "kselftest.h" or "kselftest_harness.h".
ifneq ($(wildcard ../lib.mk),)
KSFT_INC := ..
else ifneq ($(KSFT),)
KSFT_INC := $(KSFT)
else
KSFT_INC := ../binder_uapi/standalone
endif
CFLAGS += -I$(KSFT_INC)
