/*
 * test_xnnpack_tiles.c - the XNNPACK plugin's pthreadpool functions
 * (plugins/xnnpack/threadpool.c), called in the built plugin as XNNPACK
 * calls them, on a host whose parallel_for runs the tasks in order: every
 * item of the grid is covered by exactly one tile, each tile of the size
 * pthreadpool gives it, for grid sizes that do and do not divide into the
 * tiles and tasks, and for one to four threads.  Built when configure
 * found XNNPACK.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <string.h>

#include "threadpool.h"

#define MAX_I 70
#define MAX_J 40
#define MAX_K 9

/* How often each item was covered. */
static int covered[MAX_I][MAX_J][MAX_K];
static size_t range[3], tile[3];
static int bad_sizes;

static void cover(size_t i, size_t j, size_t k, size_t size_i, size_t size_j,
		  size_t size_k)
{
	const size_t at[3] = { i, j, k }, size[3] = { size_i, size_j, size_k };

	/* A tile is `tile` items, or what is left at the grid's end. */
	for (int d = 0; d < 3; d++)
		if (at[d] % tile[d] != 0 ||
		    size[d] != (range[d] - at[d] < tile[d] ? range[d] - at[d] :
							     tile[d]))
			bad_sizes++;
	for (size_t x = i; x < i + size_i && x < MAX_I; x++)
		for (size_t y = j; y < j + size_j && y < MAX_J; y++)
			for (size_t z = k; z < k + size_k && z < MAX_K; z++)
				covered[x][y][z]++;
}

static void task_2d_tile_2d(void *context, size_t i, size_t j, size_t size_i,
			    size_t size_j)
{
	(void)context;
	cover(i, j, 0, size_i, size_j, 1);
}

static void task_3d_tile_2d(void *context, size_t i, size_t j, size_t k,
			    size_t size_j, size_t size_k)
{
	(void)context;
	cover(i, j, k, 1, size_j, size_k);
}

/* The host: tasks in order, on the thread numbers the pool has; the
 * last parallel_for's task count. */
static uint32_t host_threads, host_tasks;

static void serial_parallel_for(const opver_context *ctx, opver_task_fn fn,
				void *arg, uint32_t count)
{
	(void)ctx;
	host_tasks = count;
	for (uint32_t task = 0; task < count; task++)
		fn(arg, task, task % host_threads);
}

static void no_profile_end(const opver_context *ctx, uint32_t handle)
{
	(void)ctx;
	(void)handle;
}

static void *plugin;

static void *plugin_function(const char *name)
{
	void *fn;

	if (plugin == NULL)
		plugin = dlopen(XNNPACK_PLUGIN, RTLD_NOW | RTLD_LOCAL);
	cr_assert_not_null(plugin, "%s", dlerror());
	fn = dlsym(plugin, name);
	cr_assert_not_null(fn, "%s", name);
	return fn;
}

/* Clears the record and gives a pool of `threads` on that host. */
static struct pthreadpool start(uint32_t threads, const size_t *ranges,
				const size_t *tiles, opver_context *ctx,
				opver_host *host)
{
	memset(covered, 0, sizeof(covered));
	bad_sizes = 0;
	memcpy(range, ranges, sizeof(range));
	memcpy(tile, tiles, sizeof(tile));
	memset(host, 0, sizeof(*host));
	host->struct_size = sizeof(*host);
	host->parallel_for = serial_parallel_for;
	host->profile_end = no_profile_end;
	*ctx = (opver_context){ .struct_size = sizeof(*ctx), .host = host };
	host_threads = threads;
	return (struct pthreadpool){ .ctx = ctx, .threads = threads };
}

static void assert_covered_once(void)
{
	cr_assert_eq(bad_sizes, 0, "tiles of the wrong place or size");
	for (size_t x = 0; x < range[0]; x++)
		for (size_t y = 0; y < range[1]; y++)
			for (size_t z = 0; z < range[2]; z++)
				cr_assert_eq(covered[x][y][z], 1,
					     "item %zu,%zu,%zu of %zu,%zu,%zu covered %d times",
					     x, y, z, range[0], range[1],
					     range[2], covered[x][y][z]);
}

Test(xnnpack_tiles, every_item_of_a_2d_tiled_grid_is_covered_once)
{
	void (*parallelize)(pthreadpool_t, pthreadpool_task_2d_tile_2d_t,
			    void *, size_t, size_t, size_t, size_t, uint32_t) =
		(void (*)(pthreadpool_t, pthreadpool_task_2d_tile_2d_t, void *,
			  size_t, size_t, size_t, size_t, uint32_t))
			plugin_function("pthreadpool_parallelize_2d_tile_2d");
	opver_context ctx;
	opver_host host;

	/* 10 tiles of 7 rows in 8 tasks of 2 on two threads: the tasks
	 * past the last tile must run none. */
	for (uint32_t threads = 1; threads <= 4; threads++)
		for (size_t rows = 1; rows <= MAX_I; rows++)
			for (size_t cols = 1; cols <= MAX_J; cols += 13) {
				struct pthreadpool pool = start(threads,
					(size_t[]){ rows, cols, 1 },
					(size_t[]){ 7, 16, 1 }, &ctx, &host);

				parallelize(&pool, task_2d_tile_2d, NULL, rows,
					    cols, 7, 16, 0);
				assert_covered_once();
			}
}

Test(xnnpack_tiles, every_item_of_a_3d_grid_is_covered_once_across_rows)
{
	void (*parallelize)(pthreadpool_t, pthreadpool_task_3d_tile_2d_t,
			    void *, size_t, size_t, size_t, size_t, size_t,
			    uint32_t) =
		(void (*)(pthreadpool_t, pthreadpool_task_3d_tile_2d_t, void *,
			  size_t, size_t, size_t, size_t, size_t, uint32_t))
			plugin_function("pthreadpool_parallelize_3d_tile_2d");
	opver_context ctx;
	opver_host host;

	/* Tasks that start and end mid-row step across rows and planes. */
	for (uint32_t threads = 1; threads <= 4; threads++)
		for (size_t planes = 1; planes <= 5; planes++)
			for (size_t rows = 1; rows <= MAX_J; rows += 3) {
				struct pthreadpool pool = start(threads,
					(size_t[]){ planes, rows, MAX_K },
					(size_t[]){ 1, 3, 4 }, &ctx, &host);

				parallelize(&pool, task_3d_tile_2d, NULL,
					    planes, rows, MAX_K, 3, 4, 0);
				assert_covered_once();
			}
}

/* Each thread is asked for 4 tasks (or one per tile when fewer), the
 * tiles per task rounding down: 10 row tiles on two threads are 10 tasks
 * of one, which two threads split 5 to 5 (rounded up, 5 tasks of 2 split
 * 3 to 2: 6 tiles against 5 on resnet_float's largest convolutions). */
Test(xnnpack_tiles, an_operator_is_cut_into_four_tasks_a_thread_or_more)
{
	void (*parallelize)(pthreadpool_t, pthreadpool_task_2d_tile_2d_t,
			    void *, size_t, size_t, size_t, size_t, uint32_t) =
		(void (*)(pthreadpool_t, pthreadpool_task_2d_tile_2d_t, void *,
			  size_t, size_t, size_t, size_t, uint32_t))
			plugin_function("pthreadpool_parallelize_2d_tile_2d");
	opver_context ctx;
	opver_host host;

	for (size_t tiles = 2; tiles <= MAX_I / 7; tiles++) {
		struct pthreadpool pool = start(2, (size_t[]){ 7 * tiles, 16, 1 },
						(size_t[]){ 7, 16, 1 }, &ctx,
						&host);

		host_tasks = 0;
		parallelize(&pool, task_2d_tile_2d, NULL, 7 * tiles, 16, 7, 16,
			    0);
		assert_covered_once();
		cr_expect_geq(host_tasks, tiles < 8 ? tiles : 8,
			      "%zu tiles on two threads: %u tasks", tiles,
			      host_tasks);
	}
}
