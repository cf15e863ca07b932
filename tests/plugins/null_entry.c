/* null_entry.c - the entry point returns NULL instead of a descriptor. */
#include "common.h"

OPVER_PLUGIN_ENTRY
{
	return NULL;
}
