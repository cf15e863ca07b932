/* elements.c - the checks of shape-giving inputs that elements.h declares. */
#include <stdio.h>

#include "elements.h"
#include "node_checks.h"

opver_status ref_expect_vector(const opver_context *ctx, const char *role,
			       const opver_tensor *tensor, uint32_t types,
			       int32_t count)
{
	opver_status status = ref_expect_type_in(ctx, role, tensor, types);

	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, role, tensor, 1);
	if (status == OPVER_OK && tensor->dims[0] != count) {
		OPVER_REPORT(ctx, "%s '%s' has %d entries; it must have %d",
			     role, tensor->name, (int)tensor->dims[0],
			     (int)count);
		status = OPVER_ERROR_INVALID_MODEL;
	}
	return status;
}

opver_status ref_expect_shape_values(const opver_context *ctx,
				     const char *role,
				     const opver_tensor *shape,
				     const int32_t *want, int32_t count,
				     const opver_tensor *output)
{
	for (int32_t i = 0; i < count; i++) {
		int64_t value = ref_integer_at(shape, (size_t)i);

		if (value == want[i])
			continue;
		OPVER_REPORT(ctx,
			     "%s '%s' gives %lld at entry %d; output '%s' needs %d there",
			     role, shape->name, (long long)value, (int)i,
			     output->name, (int)want[i]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

opver_status ref_shape_from_values(const opver_context *ctx,
				   const opver_node *node,
				   const opver_tensor *shape, int32_t count)
{
	ref_dims dims = { 0 };

	if (!shape->is_constant)
		return OPVER_OK;
	for (int32_t i = 0; i < count; i++) {
		const int64_t value = ref_integer_at(shape, (size_t)i);

		if (value < 0 || value > INT32_MAX)
			return OPVER_OK;
		ref_dims_push(&dims, (int32_t)value);
	}
	return ref_shape_dims(ctx, node, 0, &dims, "its shape input gives");
}

opver_status ref_shape_at_invoke(const opver_context *ctx,
				 const opver_node *node, const char *role,
				 const opver_tensor *shape, int32_t count)
{
	ref_dims dims = { 0 };
	char source[96];

	for (int32_t i = 0; i < count; i++) {
		const int64_t value = ref_integer_at(shape, (size_t)i);

		if (value < 0 || value > INT32_MAX) {
			OPVER_REPORT(ctx,
				     "%s '%s' gives %lld at entry %d; a dimension is 0 to %d",
				     role, shape->name, (long long)value,
				     (int)i, (int)INT32_MAX);
			return OPVER_ERROR_INVALID_ARGUMENT;
		}
		ref_dims_push(&dims, (int32_t)value);
	}
	snprintf(source, sizeof(source), "%s '%s' gives", role, shape->name);
	return ref_shape_dims_at_invoke(ctx, node, 0, &dims, source);
}
