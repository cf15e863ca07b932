/* model.c - opver_model: a mapped, verified model file. */
#include <stdlib.h>

#include "model_reader.h"
#include "runtime.h"

struct opver_model {
	opver__model_file file;
};

OPVER_API opver_status opver_model_open(opver_runtime *runtime,
					const char *path, opver_model **out)
{
	opver_model *model;
	opver_status status;

	*out = NULL;
	model = calloc(1, sizeof(*model));
	if (model == NULL)
		return OPVER_ERROR_NOMEM;
	status = opver__model_file_open(path, &runtime->reporter, &model->file);
	if (status != OPVER_OK) {
		free(model);
		return status;
	}
	*out = model;
	return OPVER_OK;
}

OPVER_API void opver_model_close(opver_model *model)
{
	if (model == NULL)
		return;
	opver__model_file_close(&model->file);
	free(model);
}

OPVER_API const char *opver_model_min_runtime_version(const opver_model *model)
{
	return model->file.graph.min_runtime_version;
}

const opver__graph *opver__model_graph(const opver_model *model)
{
	return &model->file.graph;
}
