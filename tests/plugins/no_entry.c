/* no_entry.c - exports a misspelt entry point, not opver_plugin_entry. */
#include "common.h"

__attribute__((visibility("default"))) int opver_plugin_entry_point(void);

__attribute__((visibility("default"))) int opver_plugin_entry_point(void)
{
	return 0;
}
