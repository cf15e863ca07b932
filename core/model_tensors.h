/*
 * model_tensors.h - the model's buffers and tensors: shapes, byte sizes,
 * constant data (aligned) and quantization, checked as they are decoded.
 */
#ifndef OPVER_CORE_MODEL_TENSORS_H
#define OPVER_CORE_MODEL_TENSORS_H

#include "model_fields.h"

/* Reads the model's buffers into r->buffers (owned by r). */
opver_status opver__model_read_buffers(opver__model_reader *r,
				       const opver__fb_table *model);

/*
 * Decodes tensor `index` of `subgraph` into *tensor, which then owns its
 * dims and quantization arrays (opver__graph_free() releases them), and
 * whose constant data points into the file or into r->copies;
 * *buffer_index is the buffer it names.
 */
opver_status opver__model_read_tensor(opver__model_reader *r,
				      const opver__fb_vector *tensors,
				      uint32_t subgraph, uint32_t index,
				      opver__graph_tensor *tensor,
				      uint32_t *buffer_index);

#endif /* OPVER_CORE_MODEL_TENSORS_H */
