/*
 * threadpool.c - the pthreadpool_parallelize_*() functions XNNPACK calls,
 * run on the interpreter's threads (see threadpool.h).  Every variant is
 * a grid of up to six dimensions whose last one or two are cut into
 * tiles (an untiled grid has tiles of one item); a parallel_for task runs
 * a run of consecutive tiles, a few tasks per thread, so uneven work
 * balances as the core hands tasks out.  Like
 * pthreadpool, the tasks run with denormals flushed when XNNPACK asks.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include <xnnpack.h>

#include "threadpool.h"

/* Only these functions leave the plugin (besides its entry point). */
#define XP_EXPORT __attribute__((visibility("default")))

#define GRID_DIMS 6

/* parallel_for tasks per thread an operator is cut into. */
#define TASKS_PER_THREAD 4

/* Which pthreadpool task signature a grid calls. */
typedef enum grid_kind {
	GRID_1D,
	GRID_1D_TILE_1D,
	GRID_2D,
	GRID_2D_TILE_1D,
	GRID_2D_TILE_2D,
	GRID_3D,
	GRID_3D_TILE_2D,
	GRID_4D,
	GRID_4D_TILE_2D,
	GRID_5D,
	GRID_5D_TILE_2D,
	GRID_6D_TILE_2D,
} grid_kind;

typedef struct grid {
	grid_kind kind;
	union {
		pthreadpool_task_1d_t d1;
		pthreadpool_task_1d_tile_1d_t d1t1;
		pthreadpool_task_2d_t d2;
		pthreadpool_task_2d_tile_1d_t d2t1;
		pthreadpool_task_2d_tile_2d_t d2t2;
		pthreadpool_task_3d_t d3;
		pthreadpool_task_3d_tile_2d_t d3t2;
		pthreadpool_task_4d_t d4;
		pthreadpool_task_4d_tile_2d_t d4t2;
		pthreadpool_task_5d_t d5;
		pthreadpool_task_5d_tile_2d_t d5t2;
		pthreadpool_task_6d_tile_2d_t d6t2;
	} fn;
	void *context;
	uint32_t dims;
	size_t range[GRID_DIMS];
	size_t tile[GRID_DIMS];         /* 1 for an untiled dimension */
	size_t tiles[GRID_DIMS];        /* tiles along each dimension */
	uint64_t count;                 /* tiles in all */
	uint64_t per_task;              /* tiles per parallel_for task */
	bool flush_denormals;
} grid;

/* The floating-point control state pthreadpool sets for
 * PTHREADPOOL_FLAG_DISABLE_DENORMALS: denormals read and written as
 * zero. */
#if defined(__SSE__) || defined(__x86_64__)
typedef unsigned int fp_state;

static fp_state flush_denormals(void)
{
	fp_state saved = _mm_getcsr();

	/* FTZ (bit 15) and DAZ (bit 6). */
	_mm_setcsr(saved | 0x8040u);
	return saved;
}

static void restore_fp(fp_state saved)
{
	_mm_setcsr(saved);
}
#elif defined(__aarch64__)
typedef uint64_t fp_state;

static fp_state flush_denormals(void)
{
	fp_state saved;

	__asm__ volatile("mrs %0, fpcr" : "=r"(saved));
	/* FZ (bit 24). */
	__asm__ volatile("msr fpcr, %0" : : "r"(saved | (1u << 24)));
	return saved;
}

static void restore_fp(fp_state saved)
{
	__asm__ volatile("msr fpcr, %0" : : "r"(saved));
}
#else
typedef int fp_state;

static fp_state flush_denormals(void)
{
	return 0;
}

static void restore_fp(fp_state saved)
{
	(void)saved;
}
#endif

/* Runs the tile at `at` (its first item along each dimension) of `size`
 * items along each. */
static void run_tile(const grid *g, const size_t *at, const size_t *size)
{
	switch (g->kind) {
	case GRID_1D:
		g->fn.d1(g->context, at[0]);
		break;
	case GRID_1D_TILE_1D:
		g->fn.d1t1(g->context, at[0], size[0]);
		break;
	case GRID_2D:
		g->fn.d2(g->context, at[0], at[1]);
		break;
	case GRID_2D_TILE_1D:
		g->fn.d2t1(g->context, at[0], at[1], size[1]);
		break;
	case GRID_2D_TILE_2D:
		g->fn.d2t2(g->context, at[0], at[1], size[0], size[1]);
		break;
	case GRID_3D:
		g->fn.d3(g->context, at[0], at[1], at[2]);
		break;
	case GRID_3D_TILE_2D:
		g->fn.d3t2(g->context, at[0], at[1], at[2], size[1], size[2]);
		break;
	case GRID_4D:
		g->fn.d4(g->context, at[0], at[1], at[2], at[3]);
		break;
	case GRID_4D_TILE_2D:
		g->fn.d4t2(g->context, at[0], at[1], at[2], at[3], size[2],
			   size[3]);
		break;
	case GRID_5D:
		g->fn.d5(g->context, at[0], at[1], at[2], at[3], at[4]);
		break;
	case GRID_5D_TILE_2D:
		g->fn.d5t2(g->context, at[0], at[1], at[2], at[3], at[4],
			   size[3], size[4]);
		break;
	case GRID_6D_TILE_2D:
		g->fn.d6t2(g->context, at[0], at[1], at[2], at[3], at[4], at[5],
			   size[4], size[5]);
		break;
	}
}

/* The items of the tile at `at` along dimension d: a tile, or what is
 * left at the end. */
static size_t tile_size(const grid *g, uint32_t d, size_t at)
{
	return g->range[d] - at < g->tile[d] ? g->range[d] - at : g->tile[d];
}

/* A parallel_for task: a run of per_task consecutive tiles, in row-major
 * order.  The first tile's position is divided out once and the others
 * stepped to: a division per tile and dimension took 2.4 % of
 * mlperf_ic_resnet_float's one-thread invoke (perf). */
static void run_tiles(void *arg, uint32_t task, uint32_t thread)
{
	const grid *g = arg;
	uint64_t first = (uint64_t)task * g->per_task;
	uint64_t end = g->count - first < g->per_task ? g->count :
						       first + g->per_task;
	size_t at[GRID_DIMS], size[GRID_DIMS];
	uint64_t rest = first;
	fp_state saved = 0;

	(void)thread;
	for (uint32_t d = g->dims; d-- > 0;) {
		at[d] = rest % g->tiles[d] * g->tile[d];
		size[d] = tile_size(g, d, at[d]);
		rest /= g->tiles[d];
	}
	if (g->flush_denormals)
		saved = flush_denormals();
	for (uint64_t tile = first; tile < end; tile++) {
		run_tile(g, at, size);
		/* Only the dimensions that moved get a new size. */
		for (uint32_t d = g->dims; d-- > 0;) {
			at[d] += g->tile[d];
			if (at[d] >= g->range[d])
				at[d] = 0;
			size[d] = tile_size(g, d, at[d]);
			if (at[d] != 0)
				break;
		}
	}
	if (g->flush_denormals)
		restore_fp(saved);
}

/* Set by every call XNNPACK makes into this file. */
static atomic_bool xnnpack_called_here;

static void called_here(void)
{
	atomic_store_explicit(&xnnpack_called_here, true,
			      memory_order_relaxed);
}

/*
 * One XNNPACK operator: its tiles on the pool's threads, inside a profile
 * event named for the operator.  Without a pool (or a callback in
 * progress) the tiles run on the calling thread.
 */
static void run_grid(struct pthreadpool *pool, grid *g, uint32_t flags)
{
	const opver_context *ctx = pool != NULL ? pool->ctx : NULL;
	uint32_t event = 0, tasks = 1;

	called_here();
	g->flush_denormals = (flags & PTHREADPOOL_FLAG_DISABLE_DENORMALS) != 0;
	g->count = 1;
	for (uint32_t d = 0; d < g->dims; d++) {
		if (g->range[d] == 0)
			return;
		g->tiles[d] = (g->range[d] - 1) / g->tile[d] + 1;
		g->count *= g->tiles[d];
	}
	/* Tasks of several tiles, each a call through parallel_for;
	 * TASKS_PER_THREAD per thread still balance uneven tiles.  The tiles
	 * per task round down, so there are at least as many tasks as asked:
	 * rounded up, 10 tiles for 8 tasks were 5 tasks of 2, split 3 to 2
	 * between two threads (6 tiles against 5; resnet_float's largest
	 * convolutions); now 10 tasks of 1.  No task starts past the last
	 * tile. */
	if (ctx != NULL && pool->threads > 1)
		tasks = g->count < (uint64_t)pool->threads * TASKS_PER_THREAD ?
				(uint32_t)g->count :
				pool->threads * TASKS_PER_THREAD;
	g->per_task = g->count / tasks;
	tasks = (uint32_t)((g->count - 1) / g->per_task + 1);
	if (ctx != NULL) {
		uint32_t op = pool->operator++;

		if (pool->num_names > 0)
			event = ctx->host->profile_begin(ctx,
				pool->names[op < pool->num_names ?
					    op : pool->num_names - 1]);
	}
	if (tasks > 1)
		ctx->host->parallel_for(ctx, run_tiles, g, tasks);
	else
		run_tiles(g, 0, 0);
	if (ctx != NULL)
		ctx->host->profile_end(ctx, event);
}

XP_EXPORT size_t pthreadpool_get_threads_count(pthreadpool_t pool)
{
	called_here();
	return pool != NULL && pool->threads > 0 ? pool->threads : 1;
}

XP_EXPORT void pthreadpool_parallelize_1d(pthreadpool_t pool,
	pthreadpool_task_1d_t fn, void *context, size_t range, uint32_t flags)
{
	grid g = { .kind = GRID_1D, .fn.d1 = fn, .context = context,
		   .dims = 1, .range = { range }, .tile = { 1 } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_1d_tile_1d(pthreadpool_t pool,
	pthreadpool_task_1d_tile_1d_t fn, void *context, size_t range,
	size_t tile, uint32_t flags)
{
	grid g = { .kind = GRID_1D_TILE_1D, .fn.d1t1 = fn,
		   .context = context, .dims = 1, .range = { range },
		   .tile = { tile } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_2d(pthreadpool_t pool,
	pthreadpool_task_2d_t fn, void *context, size_t range_i,
	size_t range_j, uint32_t flags)
{
	grid g = { .kind = GRID_2D, .fn.d2 = fn, .context = context,
		   .dims = 2, .range = { range_i, range_j },
		   .tile = { 1, 1 } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_2d_tile_1d(pthreadpool_t pool,
	pthreadpool_task_2d_tile_1d_t fn, void *context, size_t range_i,
	size_t range_j, size_t tile_j, uint32_t flags)
{
	grid g = { .kind = GRID_2D_TILE_1D, .fn.d2t1 = fn,
		   .context = context, .dims = 2,
		   .range = { range_i, range_j }, .tile = { 1, tile_j } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_2d_tile_2d(pthreadpool_t pool,
	pthreadpool_task_2d_tile_2d_t fn, void *context, size_t range_i,
	size_t range_j, size_t tile_i, size_t tile_j, uint32_t flags)
{
	grid g = { .kind = GRID_2D_TILE_2D, .fn.d2t2 = fn,
		   .context = context, .dims = 2,
		   .range = { range_i, range_j }, .tile = { tile_i, tile_j } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_3d(pthreadpool_t pool,
	pthreadpool_task_3d_t fn, void *context, size_t range_i,
	size_t range_j, size_t range_k, uint32_t flags)
{
	grid g = { .kind = GRID_3D, .fn.d3 = fn, .context = context,
		   .dims = 3, .range = { range_i, range_j, range_k },
		   .tile = { 1, 1, 1 } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_3d_tile_2d(pthreadpool_t pool,
	pthreadpool_task_3d_tile_2d_t fn, void *context, size_t range_i,
	size_t range_j, size_t range_k, size_t tile_j, size_t tile_k,
	uint32_t flags)
{
	grid g = { .kind = GRID_3D_TILE_2D, .fn.d3t2 = fn,
		   .context = context, .dims = 3,
		   .range = { range_i, range_j, range_k },
		   .tile = { 1, tile_j, tile_k } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_4d(pthreadpool_t pool,
	pthreadpool_task_4d_t fn, void *context, size_t range_i,
	size_t range_j, size_t range_k, size_t range_l, uint32_t flags)
{
	grid g = { .kind = GRID_4D, .fn.d4 = fn, .context = context,
		   .dims = 4, .range = { range_i, range_j, range_k, range_l },
		   .tile = { 1, 1, 1, 1 } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_4d_tile_2d(pthreadpool_t pool,
	pthreadpool_task_4d_tile_2d_t fn, void *context, size_t range_i,
	size_t range_j, size_t range_k, size_t range_l, size_t tile_k,
	size_t tile_l, uint32_t flags)
{
	grid g = { .kind = GRID_4D_TILE_2D, .fn.d4t2 = fn,
		   .context = context, .dims = 4,
		   .range = { range_i, range_j, range_k, range_l },
		   .tile = { 1, 1, tile_k, tile_l } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_5d(pthreadpool_t pool,
	pthreadpool_task_5d_t fn, void *context, size_t range_i,
	size_t range_j, size_t range_k, size_t range_l, size_t range_m,
	uint32_t flags)
{
	grid g = { .kind = GRID_5D, .fn.d5 = fn, .context = context,
		   .dims = 5,
		   .range = { range_i, range_j, range_k, range_l, range_m },
		   .tile = { 1, 1, 1, 1, 1 } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_5d_tile_2d(pthreadpool_t pool,
	pthreadpool_task_5d_tile_2d_t fn, void *context, size_t range_i,
	size_t range_j, size_t range_k, size_t range_l, size_t range_m,
	size_t tile_l, size_t tile_m, uint32_t flags)
{
	grid g = { .kind = GRID_5D_TILE_2D, .fn.d5t2 = fn,
		   .context = context, .dims = 5,
		   .range = { range_i, range_j, range_k, range_l, range_m },
		   .tile = { 1, 1, 1, tile_l, tile_m } };

	run_grid(pool, &g, flags);
}

XP_EXPORT void pthreadpool_parallelize_6d_tile_2d(pthreadpool_t pool,
	pthreadpool_task_6d_tile_2d_t fn, void *context, size_t range_i,
	size_t range_j, size_t range_k, size_t range_l, size_t range_m,
	size_t range_n, size_t tile_m, size_t tile_n, uint32_t flags)
{
	grid g = { .kind = GRID_6D_TILE_2D, .fn.d6t2 = fn,
		   .context = context, .dims = 6,
		   .range = { range_i, range_j, range_k, range_l, range_m,
			      range_n },
		   .tile = { 1, 1, 1, 1, tile_m, tile_n } };

	run_grid(pool, &g, flags);
}

/* Runs one small XNNPACK operator without a pool and records whether its
 * pthreadpool call came here. */
static bool served;

static void probe(void)
{
	float in[16] = { 0 }, out[16];
	xnn_operator_t op = NULL;

	atomic_store(&xnnpack_called_here, false);
	if (xnn_create_clamp_nc_f32(1, 1, 1, 0.0f, 1.0f, 0, &op) ==
		    xnn_status_success &&
	    xnn_setup_clamp_nc_f32(op, 1, in, out, NULL) ==
		    xnn_status_success &&
	    xnn_run_operator(op, NULL) == xnn_status_success)
		served = atomic_load(&xnnpack_called_here);
	xnn_delete_operator(op);
}

bool xp_pool_serves_xnnpack(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, probe);
	return served;
}
