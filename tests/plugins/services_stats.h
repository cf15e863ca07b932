/*
 * services_stats.h - what the services and holding_delegate test plugins
 * saw of the host services, exported as "services_stats" so a test can
 * check it (runtime_fixture.h's fixture_symbol).
 */
#ifndef OPVER_TEST_PLUGIN_SERVICES_STATS_H
#define OPVER_TEST_PLUGIN_SERVICES_STATS_H

#include <stdint.h>

/* The most threads the plugins track. */
#define SERVICES_MAX_THREADS 8

typedef struct services_counters {
	/* services.so */
	int prepares;
	int invokes;
	/* thread_count in the last invoke, and which thread indices ran
	 * parallel_for tasks then. */
	uint32_t thread_count;
	int threads_used[SERVICES_MAX_THREADS];
	/* Tasks run in the last invoke (each must run once). */
	int tasks_run;
	/* request_scratch called from invoke: what it returned. */
	int late_request_status;
	/* holding_delegate.so: copy_from_handle calls per tensor index, and
	 * copy_to_device calls. */
	int copies_from_handle[16];
	int copies_to_device;
	int partition_nodes[4][4];
	int partition_sizes[4];
	/* Per partition: inputs buffer_handle said the delegate holds. */
	int held_inputs[4];
	int partitions;
} services_counters;

#define SERVICES_STATS_SYMBOL "services_stats"

#endif /* OPVER_TEST_PLUGIN_SERVICES_STATS_H */
