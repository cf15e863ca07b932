/* no_entry.c - exports a misspelt entry point, neither
 * opver_plugin_negotiate nor 1.x's opver_plugin_entry. */
#include "common.h"

OPVER_PLUGIN_EXPORT int opver_plugin_negotiation(void);

OPVER_PLUGIN_EXPORT int opver_plugin_negotiation(void)
{
	return 0;
}
