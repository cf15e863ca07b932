/*
 * model_tensors.c - decodes the model's buffers and tensors
 * (model_tensors.h).
 */
#include <stdlib.h>
#include <string.h>

#include "model_tensors.h"
#include "schema/opver_ids.h"

opver_status opver__model_read_buffers(opver__model_reader *r,
				       const opver__fb_table *model)
{
	opver__fb_vector buffers;
	opver_status status;

	status = opver__model_vector(r, model, MODEL_BUFFERS, "buffers", 4, &buffers);
	if (status != OPVER_OK)
		return status;
	r->buffers = opver__model_allocate(buffers.length, sizeof(*r->buffers));
	if (r->buffers == NULL)
		return opver__model_no_memory(r);
	r->num_buffers = buffers.length;
	for (uint32_t i = 0; i < buffers.length; i++) {
		opver__fb_table buffer;
		opver__fb_vector data;
		uint64_t offset, size;

		opver__model_where(r, "buffer %u", i);
		status = opver__model_element(r, &buffers, i, "buffer", &buffer);
		if (status != OPVER_OK)
			return status;
		if (!opver__fb_vector_field(&r->fb, &buffer, BUFFER_DATA,
					    "data", 1, &data) ||
		    !opver__fb_uint64(&r->fb, &buffer, BUFFER_OFFSET, "offset",
				      0, &offset) ||
		    !opver__fb_uint64(&r->fb, &buffer, BUFFER_SIZE, "size", 0,
				      &size))
			return opver__model_broken(r);
		status = opver__model_resolve_span(r, "data", &data, offset, size,
						   &r->buffers[i]);
		if (status != OPVER_OK)
			return status;
	}
	return OPVER_OK;
}

/* Number of elements of a shape, false on overflow. */
static bool count_elements(const int32_t *dims, int32_t rank, size_t *count)
{
	size_t n = 1;

	for (int32_t i = 0; i < rank; i++) {
		size_t dim = (size_t)dims[i];

		if (dim != 0 && n > SIZE_MAX / dim)
			return false;
		n *= dim;
	}
	*count = n;
	return true;
}

/* Copies the quantization parameters into owned arrays of tensor->quant. */
static opver_status read_quantization(opver__model_reader *r,
				      const opver__fb_table *quantization,
				      opver__graph_tensor *tensor)
{
	opver__fb_vector min, max, scale, zero_point;
	opver__fb_table details;
	uint8_t details_type;
	int32_t axis, count;
	float *scales = NULL;
	int64_t *zero_points = NULL;
	opver_status status;

	if (!opver__fb_union_field(&r->fb, quantization, QUANT_DETAILS_TYPE,
				   "details", &details_type, &details) ||
	    !opver__fb_int32(&r->fb, quantization, QUANT_DIMENSION,
			     "quantized_dimension", 0, &axis))
		return opver__model_broken(r);
	if (details_type != 0)
		return opver__model_unsupported(r, "custom quantization (details type %u) is not supported",
						details_type);
	status = opver__model_vector(r, quantization, QUANT_MIN, "min", 4, &min);
	if (status == OPVER_OK)
		status = opver__model_vector(r, quantization, QUANT_MAX, "max", 4,
					     &max);
	if (status == OPVER_OK)
		status = opver__model_vector(r, quantization, QUANT_SCALE, "scale", 4,
					     &scale);
	if (status == OPVER_OK)
		status = opver__model_vector(r, quantization, QUANT_ZERO_POINT,
					     "zero_point", 8, &zero_point);
	if (status != OPVER_OK)
		return status;
	/* No scale: not quantized (min and max alone are converter notes). */
	if (scale.length == 0)
		return OPVER_OK;
	count = (int32_t)scale.length;
	if (zero_point.length != 1 && zero_point.length != scale.length)
		return opver__model_invalid(r, "quantization has %d scales but %u zero points (need 1 or %d)",
					    count, zero_point.length, count);
	if (count == 1) {
		axis = 0;
	} else {
		/*
		 * person_detect quantizes 1-D bias tensors along dimension 3,
		 * the channel dimension of the conv they feed.  TFLite Micro
		 * runs it because the bias has one scale per element anyway;
		 * accept the same and give the only dimension there is.
		 */
		if (tensor->rank == 1 && axis >= 1 &&
		    tensor->dims[0] == count)
			axis = 0;
		if (axis < 0 || axis >= tensor->rank)
			return opver__model_invalid(r, "quantized_dimension %d is not a dimension of this rank-%d tensor",
						    axis, tensor->rank);
		if (tensor->dims[axis] != count)
			return opver__model_invalid(r, "%d per-channel scales for dimension %d, which has %d entries",
						    count, axis,
						    tensor->dims[axis]);
	}
	scales = opver__model_allocate((size_t)count, sizeof(*scales));
	zero_points = opver__model_allocate((size_t)count,
					    sizeof(*zero_points));
	if (scales == NULL || zero_points == NULL) {
		status = opver__model_no_memory(r);
		goto out;
	}
	if (!opver__fb_vector_float(&r->fb, &scale, "scale", scales) ||
	    !opver__fb_vector_int64(&r->fb, &zero_point, "zero_point",
				    zero_points)) {
		status = opver__model_broken(r);
		goto out;
	}
	/* One shared zero point is spread over every channel, so kernels
	 * can always index zero_point[channel]. */
	for (int32_t i = (int32_t)zero_point.length; i < count; i++)
		zero_points[i] = zero_points[0];
	tensor->quant.count = count;
	tensor->quant.scale = scales;
	tensor->quant.zero_point = zero_points;
	tensor->quant.axis = axis;
	return OPVER_OK;
out:
	free(scales);
	free(zero_points);
	return status;
}

/* The alignment loads of a type's elements need: their size, or for a
 * complex number that of its parts; 1 for types of no fixed size. */
static size_t type_alignment(opver_type type)
{
	size_t size = opver_type_size(type);

	if (type == OPVER_TYPE_COMPLEX64 || type == OPVER_TYPE_COMPLEX128)
		return size / 2;
	return size != 0 ? size : 1;
}

/* Points *data at an aligned copy of buffer `index`, made at most once per
 * buffer, so the copies never exceed the file's size. */
static opver_status aligned_copy(opver__model_reader *r, uint32_t index,
				 const uint8_t **data)
{
	const opver__model_span *buffer = &r->buffers[index];

	if (r->copies == NULL) {
		r->copies = opver__model_allocate(r->num_buffers,
						  sizeof(*r->copies));
		if (r->copies == NULL)
			return opver__model_no_memory(r);
	}
	if (r->copies[index] == NULL) {
		/* malloc aligns for every element type. */
		r->copies[index] = malloc(buffer->size);
		if (r->copies[index] == NULL)
			return opver__model_no_memory(r);
		memcpy(r->copies[index], buffer->data, buffer->size);
	}
	*data = r->copies[index];
	return OPVER_OK;
}

/*
 * Decodes tensor `index`; *buffer_index is the buffer it names.  Constant
 * data must be aligned for the tensor's elements, since kernels load them
 * in place as floats or int64s.  Writers align buffer data (the schema
 * forces 16 bytes on inline data), so constants stay in the mapping; but
 * published models exist whose int64 biases sit 4 bytes off (ML-zoo's
 * int16 DS-CNN, TFLite Micro's SEANet layers), which TFLite reads in place
 * all the same, so a misaligned buffer is copied once to an aligned place
 * rather than refused.  Offsets are checked in the file, whose bytes are
 * mapped or copied at an alignment above any element's
 * (OPVER__MODEL_ALIGNMENT).
 */
opver_status opver__model_read_tensor(opver__model_reader *r,
				      const opver__fb_vector *tensors,
				      uint32_t subgraph, uint32_t index,
				      opver__graph_tensor *tensor,
				      uint32_t *buffer_index)
{
	opver__fb_table table, quantization, sparsity;
	opver__fb_vector shape;
	int8_t type;
	uint32_t buffer;
	size_t elements, type_size, align, offset;
	const opver__model_span *data;
	opver_status status;

	*buffer_index = 0;
	opver__model_where(r, "tensor %u of subgraph %u", index, subgraph);
	status = opver__model_element(r, tensors, index, "tensor", &table);
	if (status == OPVER_OK)
		status = opver__model_vector(r, &table, TENSOR_SHAPE, "shape", 4,
					     &shape);
	if (status != OPVER_OK)
		return status;
	if (!opver__fb_int8(&r->fb, &table, TENSOR_TYPE, "type", 0, &type) ||
	    !opver__fb_uint32(&r->fb, &table, TENSOR_BUFFER, "buffer", 0,
			      &buffer) ||
	    !opver__fb_string_field(&r->fb, &table, TENSOR_NAME, "name",
				    &tensor->name, NULL) ||
	    !opver__fb_table_field(&r->fb, &table, TENSOR_QUANTIZATION,
				   "quantization", &quantization) ||
	    !opver__fb_bool(&r->fb, &table, TENSOR_IS_VARIABLE, "is_variable",
			    false, &tensor->is_variable) ||
	    !opver__fb_table_field(&r->fb, &table, TENSOR_SPARSITY, "sparsity",
				   &sparsity))
		return opver__model_broken(r);
	*buffer_index = buffer;
	if (tensor->name == NULL)
		tensor->name = "";
	if (sparsity.pos != 0)
		return opver__model_unsupported(r, "sparse tensors are not supported");
	if (type < 0 || type >= OPVER_TYPE_COUNT)
		return opver__model_invalid(r, "type %d is not a tensor type", type);
	tensor->type = (opver_type)type;

	tensor->dims = opver__model_allocate(shape.length,
					     sizeof(*tensor->dims));
	if (tensor->dims == NULL)
		return opver__model_no_memory(r);
	tensor->rank = (int32_t)shape.length;
	if (!opver__fb_vector_int32(&r->fb, &shape, "shape", tensor->dims))
		return opver__model_broken(r);
	for (int32_t i = 0; i < tensor->rank; i++)
		if (tensor->dims[i] < 0)
			return opver__model_invalid(r, "dimension %d is %d; sizes cannot be negative",
						    i, tensor->dims[i]);
	type_size = opver__element_size(tensor->type);
	if (!count_elements(tensor->dims, tensor->rank, &elements) ||
	    (type_size != 0 && elements > SIZE_MAX / type_size))
		return opver__model_invalid(r, "the shape's byte size overflows");
	tensor->bytes = elements * type_size;

	/* Buffer 0, and any empty buffer, means no constant data. */
	if (buffer >= r->num_buffers)
		return opver__model_invalid(r, "buffer %u out of range (model has %u buffers)",
					    buffer, r->num_buffers);
	data = &r->buffers[buffer];
	if (buffer != 0 && data->size != 0) {
		/* Types without a fixed element size take the buffer's. */
		if (type_size == 0)
			tensor->bytes = data->size;
		if (data->size != tensor->bytes)
			return opver__model_invalid(r, "buffer %u holds %zu bytes, but %zu %s elements need %zu",
				buffer, data->size, elements,
				opver_type_name(tensor->type), tensor->bytes);
		align = type_alignment(tensor->type);
		offset = (size_t)(data->data - r->fb.data);
		tensor->constant_data = data->data;
		if (offset % align != 0) {
			status = aligned_copy(r, buffer,
					      &tensor->constant_data);
			if (status != OPVER_OK)
				return status;
		}
	}
	tensor->has_quantization = quantization.pos != 0;
	if (quantization.pos != 0)
		return read_quantization(r, &quantization, tensor);
	return OPVER_OK;
}
