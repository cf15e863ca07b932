/*
 * hygiene.h - checks of a plugin file that no kernel comparison finds:
 * what it exports and imports, whether it loads, and whether loading and
 * unloading it again and again leaves anything behind.
 */
#ifndef OPVER_CONFORMANCE_HYGIENE_H
#define OPVER_CONFORMANCE_HYGIENE_H

#include "report.h"

/*
 * Checks the plugin file's hygiene and adds one result per check to
 * suite "hygiene": only opver_plugin_negotiate exported (ELF .dynsym; a
 * plugin exporting 1.x's opver_plugin_entry instead is named as built for
 * ABI 1.x), no undefined opver_* imports, loads through the public API
 * (negotiating; a refusal or decline fails it with the core's reason),
 * repeated runtime create/destroy (load, init, fini, unload) leaks no
 * heap, file descriptors or mappings, and a plugin init without fini is
 * named when the heap grows.  A file that is not ELF, is truncated or is hostile gives
 * failed checks, never a crash.  plugin_path borrowed for the call.
 */
void cf_check_hygiene(const char *plugin_path, cf_report *report);

#endif /* OPVER_CONFORMANCE_HYGIENE_H */
