/* declines.c - a plugin whose entry point declines to load, as one would
 * on a machine without its hardware: the core reports the reason. */
#include "common.h"

OPVER_PLUGIN_ENTRY
{
	return negotiation->decline(negotiation,
				    "needs a device this machine lacks");
}
