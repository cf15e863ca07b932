/*
 * extra_exports.c - a valid plugin that also exports a helper function and
 * a table, as a plugin built without -fvisibility=hidden or an export list
 * does: the hygiene check names both.  It also exports a stand-in for the
 * ODR indicators gcc's AddressSanitizer adds, which the check ignores.
 */
#include "common.h"

OPVER_PLUGIN_EXPORT int extra_exports_helper(int value);
OPVER_PLUGIN_EXPORT const int extra_exports_table[4] = { 1, 2, 3, 4 };
OPVER_PLUGIN_EXPORT const char odr_indicator_stand_in
	__asm__("__odr_asan.stand_in") = 0;

OPVER_PLUGIN_EXPORT int extra_exports_helper(int value)
{
	return value + extra_exports_table[0];
}

static const opver_kernel add = {
	OPVER_KERNEL("add", ADD, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &add };

TEST_PLUGIN("extra_exports", kernels)
