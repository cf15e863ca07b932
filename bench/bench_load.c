/*
 * bench_load.c - startup and model-loading costs, each the median (with
 * min and max) of several runs:
 *   runtime    opver_runtime_create with the default config: config,
 *              plugin discovery and loading, registry (the resolver ready)
 *   model      opver_model_open: map and verify the file
 *   interpreter opver_interpreter_create: resolve, plan, prepare
 * and, for the model, how much heap opening it takes compared with the
 * file's size: weights stay in the mapping, so it must be far smaller.
 *
 *   bench_load RUNS MODEL.tflite
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "opver/opver.h"

static double now_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e3 + (double)now.tv_nsec / 1e6;
}

/* The bench measures; what the runtime reports is not its business. */
static void ignore_messages(void *user_data, opver_log_level level,
			    const char *message)
{
	(void)user_data;
	(void)level;
	(void)message;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void print_stats(const char *what, double *samples, int runs)
{
	qsort(samples, (size_t)runs, sizeof(*samples), compare_doubles);
	printf("%-12s median %8.3f ms   min %8.3f ms   max %8.3f ms   (%d runs)\n",
	       what, samples[runs / 2], samples[0], samples[runs - 1], runs);
}

int main(int argc, char **argv)
{
	double *runtime_ms, *model_ms, *interpreter_ms;
	int runs, interpreter_runs = 0;
	size_t plugins = 0;
	opver_runtime_options options;
	size_t heap_before, heap_after;
	struct stat file;

	if (argc != 3 || (runs = atoi(argv[1])) < 1 || stat(argv[2], &file) != 0) {
		fprintf(stderr, "usage: bench_load RUNS MODEL.tflite\n");
		return 2;
	}
	runtime_ms = calloc((size_t)runs, sizeof(double));
	model_ms = calloc((size_t)runs, sizeof(double));
	interpreter_ms = calloc((size_t)runs, sizeof(double));
	if (!runtime_ms || !model_ms || !interpreter_ms)
		return 1;
	opver_runtime_options_init(&options);
	options.log = ignore_messages;

	for (int r = 0; r < runs; r++) {
		opver_runtime *runtime;
		opver_model *model;
		opver_interpreter *it;
		double start = now_ms();

		if (opver_runtime_create(&options, &runtime) != OPVER_OK)
			return 1;
		runtime_ms[r] = now_ms() - start;
		plugins = opver_runtime_plugin_count(runtime);

		heap_before = mallinfo2().uordblks;
		start = now_ms();
		if (opver_model_open(runtime, argv[2], &model) != OPVER_OK)
			return 1;
		model_ms[r] = now_ms() - start;
		heap_after = mallinfo2().uordblks;

		start = now_ms();
		/* The model may need ops no plugin has yet: then there is no
		 * interpreter time to report. */
		if (opver_interpreter_create(runtime, model, &it) == OPVER_OK) {
			interpreter_ms[interpreter_runs++] = now_ms() - start;
			opver_interpreter_destroy(it);
		}
		opver_model_close(model);
		opver_runtime_destroy(runtime);
	}
	printf("model %s, %lld bytes, %zu plugin(s) with the default config\n",
	       argv[2], (long long)file.st_size, plugins);
	print_stats("runtime", runtime_ms, runs);
	print_stats("model", model_ms, runs);
	if (interpreter_runs > 0)
		print_stats("interpreter", interpreter_ms, interpreter_runs);
	else
		printf("interpreter  not created (the model needs ops no loaded plugin has)\n");
	printf("heap taken by opening the model: %zu bytes (%.1f%% of the file)\n",
	       heap_after - heap_before,
	       100.0 * (double)(heap_after - heap_before) / (double)file.st_size);
	free(runtime_ms);
	free(model_ms);
	free(interpreter_ms);
	return 0;
}
