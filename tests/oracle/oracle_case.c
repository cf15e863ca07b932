/*
 * oracle_case.c - oracle cases (oracle_case.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_case.h"

size_t oracle_tensor_bytes(const cf_tensor_desc *t)
{
	size_t bytes = opver_type_size(t->type);

	for (int32_t d = 0; d < t->rank; d++)
		bytes *= (size_t)t->dims[d];
	return bytes;
}

opver_runtime *oracle_runtime(const char *path)
{
	opver_runtime_options options;
	opver_runtime *runtime = NULL;
	char config[4200];
	int length;

	length = snprintf(config, sizeof(config),
			  "[plugin.reference]\nlibrary = %s\n", path);
	if (length < 0 || (size_t)length >= sizeof(config))
		return NULL;
	opver_runtime_options_init(&options);
	options.config_text = config;
	options.config_text_size = (size_t)length;
	if (opver_runtime_create(&options, &runtime) != OPVER_OK)
		return NULL;
	return runtime;
}

bool oracle_case_make(opver_runtime *runtime, const cf_generator *g,
		      int32_t variant, int32_t repetition, oracle_case *k,
		      char *error, size_t error_size)
{
	int32_t graph_inputs[CF_MAX_NODE_INPUTS], num_graph_inputs;
	uint64_t seed = cf_case_seed(ORACLE_SEED, g, variant, repetition);
	cf_rng rng;

	memset(k, 0, sizeof(*k));
	cf_case_init(&k->c, g->op);
	snprintf(k->name, sizeof(k->name), "%d-%d", (int)variant,
		 (int)repetition);
	cf_rng_seed(&rng, seed);
	if (!g->generate(variant, &rng, &k->c)) {
		snprintf(error, error_size, "out of memory generating the case");
		return false;
	}
	if (!cf_case_model_required(runtime, &k->c, &k->model,
				    &k->model_size, &k->version, error,
				    error_size))
		return false;
	k->fingerprint = oracle_fingerprint(ORACLE_FINGERPRINT_INIT, k->model, k->model_size);
	num_graph_inputs = cf_case_graph_inputs(&k->c, graph_inputs);
	for (int32_t i = 0; i < num_graph_inputs; i++) {
		int32_t t = graph_inputs[i];

		k->fingerprint = oracle_fingerprint(k->fingerprint, k->c.values[t],
				       oracle_tensor_bytes(&k->c.tensors[t]));
	}
	return true;
}

void oracle_case_free(oracle_case *k)
{
	cf_case_free(&k->c);
	free(k->model);
	k->model = NULL;
}

