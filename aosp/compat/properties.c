// SPDX-License-Identifier: GPL-2.0
/*
 * property_get() for libbinder on glibc: there is no Android property service, so every
 * property reads as its default (libcutils' own properties.cpp needs bionic's).
 */
#include <string.h>
#include <sys/system_properties.h>

int property_get(const char *key, char *value, const char *default_value)
{
	size_t len = 0;

	(void)key;
	if (default_value) {
		len = strnlen(default_value, PROP_VALUE_MAX - 1);
		memcpy(value, default_value, len);
	}
	value[len] = '\0';
	return len;
}
