/* null_entry.c - the entry point returns NULL without declining. */
#include "common.h"

OPVER_PLUGIN_ENTRY
{
	return NULL;
}
