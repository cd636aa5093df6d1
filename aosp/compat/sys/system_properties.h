/* SPDX-License-Identifier: GPL-2.0 */
/* All that libcutils' <cutils/properties.h> needs of bionic's header, on glibc. */
#ifndef BAS_AOSP_SYSTEM_PROPERTIES_H
#define BAS_AOSP_SYSTEM_PROPERTIES_H
#define PROP_VALUE_MAX 92
#endif
