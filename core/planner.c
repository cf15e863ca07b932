/* planner.c - lifetimes of activation tensors and their arena offsets. */
#include <stdlib.h>

#include "planner.h"

static void extend(opver__lifetime *lifetime, int32_t step)
{
	if (lifetime->first > step)
		lifetime->first = step;
	if (lifetime->last < step)
		lifetime->last = step;
}

void opver__graph_lifetimes(const opver__graph *graph,
			    const int32_t *node_step, int32_t num_steps,
			    opver__lifetime *lifetimes)
{
	int32_t end = num_steps > 0 ? num_steps - 1 : 0;

	for (int32_t t = 0; t < graph->num_tensors; t++) {
		lifetimes[t].bytes = 0;
		lifetimes[t].first = INT32_MAX;
		lifetimes[t].last = -1;
	}
	for (int32_t n = 0; n < graph->num_nodes; n++) {
		const opver__graph_node *node = &graph->nodes[n];
		int32_t step = node_step != NULL ? node_step[n] : n;

		for (int32_t i = 0; i < node->num_inputs; i++)
			if (node->inputs[i] >= 0)
				extend(&lifetimes[node->inputs[i]], step);
		for (int32_t i = 0; i < node->num_outputs; i++)
			extend(&lifetimes[node->outputs[i]], step);
	}
	/* Inputs are never overwritten, so invoke can run again on them. */
	for (int32_t i = 0; i < graph->num_inputs; i++) {
		extend(&lifetimes[graph->inputs[i]], 0);
		extend(&lifetimes[graph->inputs[i]], end);
	}
	for (int32_t i = 0; i < graph->num_outputs; i++)
		extend(&lifetimes[graph->outputs[i]], end);
	for (int32_t t = 0; t < graph->num_tensors; t++) {
		const opver__graph_tensor *tensor = &graph->tensors[t];

		if (tensor->constant_data != NULL || lifetimes[t].last < 0)
			continue;
		/* State persists across invokes: the whole run. */
		if (tensor->is_variable) {
			lifetimes[t].first = 0;
			lifetimes[t].last = end;
		}
		lifetimes[t].bytes = tensor->bytes;
	}
}

void opver__preserve_lifetimes(opver__lifetime *lifetimes, size_t count,
			       int32_t num_steps)
{
	int32_t end = num_steps > 0 ? num_steps - 1 : 0;

	/* A tensor no step touches (last -1) stays out of the arena. */
	for (size_t t = 0; t < count; t++)
		if (lifetimes[t].last >= 0 && lifetimes[t].last < end)
			lifetimes[t].last = end;
}

static size_t align_up(size_t bytes)
{
	return (bytes + OPVER__ARENA_ALIGNMENT - 1) /
	       OPVER__ARENA_ALIGNMENT * OPVER__ARENA_ALIGNMENT;
}

/* A tensor waiting to be placed, with the keys it is sorted by. */
typedef struct placement {
	size_t tensor;
	size_t bytes;       /* aligned */
	int32_t first;
} placement;

/* Largest first; equal sizes by earlier start, then index, so plans are
 * reproducible. */
static int compare_placements(const void *pa, const void *pb)
{
	const placement *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return (a->tensor > b->tensor) - (a->tensor < b->tensor);
}

static bool lifetimes_meet(const opver__lifetime *a, const opver__lifetime *b)
{
	return a->first <= b->last && b->first <= a->last;
}

opver_status opver__plan_arena(const opver__lifetime *lifetimes, size_t count,
			       size_t *offsets, size_t *arena_bytes,
			       size_t *naive_bytes)
{
	placement *order;
	size_t placed = 0, arena = 0, naive = 0;

	*arena_bytes = 0;
	*naive_bytes = 0;
	order = malloc((count ? count : 1) * sizeof(*order));
	if (order == NULL)
		return OPVER_ERROR_NOMEM;
	for (size_t t = 0; t < count; t++) {
		offsets[t] = SIZE_MAX;
		if (lifetimes[t].bytes == 0)
			continue;
		/* First fit never ends past the sum of the sizes, so once that
		 * sum fits in a size_t no offset below can overflow. */
		if (lifetimes[t].bytes > SIZE_MAX - OPVER__ARENA_ALIGNMENT ||
		    __builtin_add_overflow(naive, align_up(lifetimes[t].bytes),
					   &naive)) {
			free(order);
			return OPVER_ERROR_NOMEM;
		}
		order[placed].tensor = t;
		order[placed].bytes = align_up(lifetimes[t].bytes);
		order[placed].first = lifetimes[t].first;
		placed++;
	}
	qsort(order, placed, sizeof(*order), compare_placements);

	for (size_t i = 0; i < placed; i++) {
		const opver__lifetime *lifetime = &lifetimes[order[i].tensor];
		size_t offset = 0;
		bool moved = true;

		/* Jump past every placed block that is alive at the same time
		 * and overlaps [offset, offset + bytes); offsets only grow, so
		 * the first offset no block pushes is the lowest that fits. */
		while (moved) {
			moved = false;
			for (size_t j = 0; j < i; j++) {
				size_t start = offsets[order[j].tensor];
				size_t end = start + order[j].bytes;

				if (lifetimes_meet(lifetime,
						   &lifetimes[order[j].tensor]) &&
				    offset < end &&
				    start < offset + order[i].bytes) {
					offset = end;
					moved = true;
				}
			}
		}
		offsets[order[i].tensor] = offset;
		if (arena < offset + order[i].bytes)
			arena = offset + order[i].bytes;
	}
	free(order);
	*arena_bytes = arena;
	*naive_bytes = naive;
	return OPVER_OK;
}
