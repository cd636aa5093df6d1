// SPDX-License-Identifier: GPL-2.0-only
/*
 * modinfo of binder_alloc_split.ko: its version, the base of the series and
 * one "patch" line per patch applied. scripts/build-module.sh generates
 * bas_series.h, which defines BAS_VERSION and BAS_BASE and lists the patches
 * with BAS_PATCH("NNNN patch-id subject").
 */
#include <linux/module.h>

#define BAS_PATCH(p) MODULE_INFO(patch, p)
#include "bas_series.h"

MODULE_VERSION(BAS_VERSION);
MODULE_INFO(series_base, BAS_BASE);
