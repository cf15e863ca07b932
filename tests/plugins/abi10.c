/*
 * abi10.c - a plugin as a vendor built it against opver's ABI 1.0 headers:
 * it exports 1.0's entry point, opver_plugin_entry(void), and not
 * opver_plugin_negotiate, and its descriptor begins as 1.0's did, with
 * uint16_t abi_major = 1 and abi_minor = 0, then struct_size.  A 2.0 core
 * refuses it, naming both versions.  This file does not use 2.0's
 * plugin.h: the 1.0 declarations it needs are written out here.
 */
#include <stdint.h>

/* The first fields of the ABI 1.0 descriptor; a 1.0 plugin's went on
 * with its name, vendor, version, init/fini, kernels and delegate. */
typedef struct abi10_plugin {
	uint16_t abi_major;
	uint16_t abi_minor;
	uint32_t struct_size;
	const char *name;
} abi10_plugin;

__attribute__((visibility("default"))) const abi10_plugin *
opver_plugin_entry(void);

static const abi10_plugin plugin = {
	.abi_major = 1,
	.abi_minor = 0,
	.struct_size = sizeof(abi10_plugin),
	.name = "abi10",
};

__attribute__((visibility("default"))) const abi10_plugin *
opver_plugin_entry(void)
{
	return &plugin;
}
