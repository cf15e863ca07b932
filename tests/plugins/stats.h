/*
 * stats.h - counters the interpreter and delegate test plugins export, so
 * a test can see which callbacks the core made.  A test reaches them with
 * dlopen(path, RTLD_NOLOAD) and dlsym("test_stats") on the loaded plugin.
 */
#ifndef OPVER_TEST_PLUGIN_STATS_H
#define OPVER_TEST_PLUGIN_STATS_H

typedef struct test_counters {
	int kernel_inits;
	int kernel_frees;
	int prepares;
	int invokes;
	int claims;
	int partition_inits;
	int partition_frees;
	int partition_invokes;
	int copies_to_device;
	int copies_from_device;
	/* Node count of each partition initialized, in order. */
	int partition_sizes[8];
	/* Delegate bind_memory calls; those that found a partition tensor
	 * without memory; invokes whose tensors were not where the last
	 * bind_memory saw them. */
	int memory_binds;
	int binds_without_memory;
	int invokes_off_bound_memory;
	/* Partition frees that found the table their prepare kept in
	 * persistent memory overwritten (delegate.c, `keep = table`). */
	int tables_lost;
} test_counters;

#define TEST_STATS_SYMBOL "test_stats"

#endif /* OPVER_TEST_PLUGIN_STATS_H */
