/*
 * test_case_ranges.c - the conformance cases reach past both bounds of
 * every clamp activation: a kernel clamping RELU6 at 5, or RELU_N1_TO_1
 * at 0.9, must give a wrong output in some element of every case that
 * applies the clamp.  Computes the float FULLY_CONNECTED cases' outputs
 * before activation here, straight from their definition (hybrid weights
 * dequantized), for every variant and many seeds.  ADD and MUL are proved
 * by tests/plugins/wrong_relu6 in test_conformance.c.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "conformance/cases.h"

#define SEEDS 50

/* The smallest and largest output of a float or hybrid FULLY_CONNECTED
 * case before its activation. */
static void fc_range(const cf_case *c, float *lo, float *hi)
{
	const cf_tensor_desc *in = &c->tensors[c->inputs[0]];
	const cf_tensor_desc *w = &c->tensors[c->inputs[1]];
	const float *x = c->values[c->inputs[0]];
	const float *bias = c->num_inputs > 2 && c->inputs[2] >= 0 ?
				    c->tensors[c->inputs[2]].data :
				    NULL;
	int32_t units = w->dims[0], depth = w->dims[1], rows = 1;

	for (int32_t d = 0; d + 1 < in->rank; d++)
		rows *= in->dims[d];
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int32_t r = 0; r < rows; r++) {
		for (int32_t u = 0; u < units; u++) {
			float sum = bias != NULL ? bias[u] : 0;

			for (int32_t d = 0; d < depth; d++) {
				size_t i = (size_t)u * (size_t)depth + (size_t)d;
				float weight =
					w->type == OPVER_TYPE_FLOAT32 ?
						((const float *)w->data)[i] :
						(float)((const int8_t *)w->data)[i] *
							w->scales[w->num_scales > 1 ? u : 0];

				sum += x[r * depth + d] * weight;
			}
			*lo = fminf(*lo, sum);
			*hi = fmaxf(*hi, sum);
		}
	}
}

Test(case_ranges, float_fully_connected_outputs_pass_every_clamp_bound)
{
	const cf_generator *g = cf_generator_for(OPVER_OP_FULLY_CONNECTED);
	int checked = 0;

	cr_assert_not_null(g);
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		for (int32_t variant = 0; variant < g->num_variants; variant++) {
			cf_case c;
			cf_rng rng;
			float lo, hi;

			cf_rng_seed(&rng, cf_seed_mix(seed, (uint64_t)variant));
			cf_case_init(&c, g->op);
			cr_assert(g->generate(variant, &rng, &c));
			if (c.tensors[c.inputs[0]].type != OPVER_TYPE_FLOAT32) {
				cf_case_free(&c);
				continue;
			}
			fc_range(&c, &lo, &hi);
			cr_assert(lo < -1 && hi > 6,
				  "seed %llu variant %d (%s): outputs in [%g, %g]",
				  (unsigned long long)seed, variant,
				  c.params_text, lo, hi);
			checked++;
			cf_case_free(&c);
		}
	}
	cr_assert_gt(checked, 0);
}
