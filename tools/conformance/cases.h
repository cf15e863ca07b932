/*
 * cases.h - the conformance cases: single-node models with seeded random
 * shapes, parameters, weights and inputs, one generator per op.
 *
 *   cf_rng        the seeded generator every random choice comes from
 *   cf_case       one case: the node's tensors, parameters and input
 *                 values, and a one-line text of its parameters
 *   cf_generator  an op's cases: a number of variants (the deterministic
 *                 choices: tensor types, the parameters that define op
 *                 versions, padding, activation), each filled in from a
 *                 cf_rng (shapes, strides, quantization, values)
 *
 * A generator does not choose the op version: the runner writes each case
 * at every version a plugin declares and keeps it where the core's
 * op-version rules (opver_node_info.required_version) allow it.  Shapes
 * are small (batch 1-2, spatial 1-9, channels 1-8) so that a whole run of
 * the reference plugin takes seconds, and quantization parameters keep
 * every rescale multiplier below 1 where TFLite requires it.
 */
#ifndef OPVER_CONFORMANCE_CASES_H
#define OPVER_CONFORMANCE_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/opver.h>

#include "model_builder.h"

/* splitmix64: small, fast, and the same sequence everywhere. */
typedef struct cf_rng {
	uint64_t state;
} cf_rng;

void cf_rng_seed(cf_rng *rng, uint64_t seed);
uint64_t cf_rng_next(cf_rng *rng);
/* Uniform in [lo, hi], both included; lo <= hi. */
int32_t cf_rng_int(cf_rng *rng, int32_t lo, int32_t hi);
/* Uniform in [lo, hi). */
float cf_rng_float(cf_rng *rng, float lo, float hi);
/* A seed mixed from several values: the same values, the same seed. */
uint64_t cf_seed_mix(uint64_t seed, uint64_t value);

/* UNIDIRECTIONAL_SEQUENCE_LSTM's 24 inputs, its output and the integer
 * LSTM's 5 intermediates. */
#define CF_MAX_TENSORS 30
#define CF_MAX_NODE_INPUTS 24
#define CF_MAX_INTERMEDIATES 5
/* A node's outputs past its first (SPLIT, SPLIT_V, UNPACK). */
#define CF_MAX_MORE_OUTPUTS 3
#define CF_MAX_NODE_OUTPUTS (1 + CF_MAX_MORE_OUTPUTS)
/* Allocations one case may own: data, values, scales and zero points. */
#define CF_MAX_BLOCKS (4 * CF_MAX_TENSORS)

/* The parameter struct of the case's op, as ops.h declares it. */
typedef union cf_params {
	opver_conv_params conv;
	opver_depthwise_conv_params depthwise;
	opver_pool_params pool;
	opver_fully_connected_params fully_connected;
	opver_softmax_params softmax;
	opver_add_params add;
	opver_mul_params mul;
	opver_reshape_params reshape;
	opver_sub_params sub;
	opver_div_params div;
	opver_leaky_relu_params leaky_relu;
	opver_gelu_params gelu;
	opver_reducer_params reducer;
	opver_arg_min_max_params arg;
	opver_gather_params gather;
	opver_shape_params shape;
	opver_space_depth_params space_depth;
	opver_concatenation_params concatenation;
	opver_mirror_pad_params mirror_pad;
	opver_split_params split;
	opver_pack_params pack;
	opver_unpack_params unpack;
	opver_squeeze_params squeeze;
	opver_strided_slice_params strided_slice;
	opver_resize_bilinear_params resize_bilinear;
	opver_resize_nearest_neighbor_params resize_nearest_neighbor;
	opver_transpose_conv_params transpose_conv;
	opver_l2_norm_params l2_norm;
	opver_batch_matmul_params batch_matmul;
	opver_cumsum_params cumsum;
	opver_svdf_params svdf;
	opver_sequence_rnn_params sequence_rnn;
	opver_sequence_lstm_params sequence_lstm;
	opver_one_hot_params one_hot;
	opver_local_response_norm_params local_response_norm;
} cf_params;

typedef struct cf_case {
	int32_t op;
	/* The model's tensors; their pointers point into `blocks`. */
	cf_tensor_desc tensors[CF_MAX_TENSORS];
	int32_t num_tensors;
	/* The node: inputs (tensor indices, -1 for an omitted one), its
	 * first output, and the outputs after it of ops that have several
	 * (cf_case_outputs() lists them all). */
	int32_t inputs[CF_MAX_NODE_INPUTS];
	int32_t num_inputs;
	int32_t output;
	int32_t more_outputs[CF_MAX_MORE_OUTPUTS];
	int32_t num_more_outputs;
	/* The node's intermediates (tensor indices), written as the
	 * operator's: tensors whose quantization the kernel reads. */
	int32_t intermediates[CF_MAX_INTERMEDIATES];
	int32_t num_intermediates;
	/* Written as the node's options when has_params. */
	bool has_params;
	cf_params params;
	/* For each tensor the graph takes as input (an input of the node
	 * without constant data), its values, by tensor index; NULL for the
	 * others.  They point into `blocks`. */
	void *values[CF_MAX_TENSORS];
	/* The parameters in one line, "padding=SAME stride=2x1 ...". */
	char params_text[192];
	/* A custom op's name (borrowed, static) and its options, the
	 * FlexBuffers map written as the node's custom_options (pointing
	 * into `blocks`); NULL and 0 for a builtin op. */
	const char *custom_name;
	const uint8_t *custom_options;
	size_t custom_options_size;
	/* What the case owns; cf_case_free() releases it. */
	void *blocks[CF_MAX_BLOCKS];
	int num_blocks;
} cf_case;

/* Empties a case for `op`.  Call before filling, and cf_case_free() after
 * use. */
void cf_case_init(cf_case *c, int32_t op);
void cf_case_free(cf_case *c);

/* The node's inputs that the graph takes as inputs (present, without
 * constant data), in node order, as tensor indices; returns how many. */
int32_t cf_case_graph_inputs(const cf_case *c,
			     int32_t inputs[CF_MAX_NODE_INPUTS]);

/*
 * The case as a model: one node of op `version`, its graph inputs those of
 * cf_case_graph_inputs() and its output the node's.  As cf_build_model():
 * the caller frees *bytes; false with a one-line reason in error.
 */
bool cf_case_model(const cf_case *c, int32_t version, uint8_t **bytes,
		   size_t *size, char *error, size_t error_size);

/*
 * As cf_case_model(), at the version the core's op-version rules require
 * of the node (*version), which a converter would write: `runtime`
 * (borrowed) answers, and must load a plugin that binds the node.
 */
bool cf_case_model_required(opver_runtime *runtime, const cf_case *c,
			    uint8_t **bytes, size_t *size, int32_t *version,
			    char *error, size_t error_size);

/* Zeroed memory the case owns, or NULL when out of memory (or out of
 * blocks). */
void *cf_case_alloc(cf_case *c, size_t bytes);

/* Adds a tensor of `type` and shape dims[0..rank-1] and returns its
 * index. */
int32_t cf_case_tensor(cf_case *c, opver_type type, int32_t rank,
		       const int32_t *dims);

/* Quantizes tensor t per tensor. */
bool cf_case_quantize(cf_case *c, int32_t t, float scale, int64_t zero_point);
/* Quantizes tensor t per tensor with a scale drawn from [scale_lo,
 * scale_hi) and then a zero point from [zero_lo, zero_hi]: draws in one
 * order, where two draws as arguments of one call would be made in an
 * order that differs between compilers (and so would the cases). */
bool cf_case_quantize_random(cf_case *c, int32_t t, cf_rng *rng,
			     float scale_lo, float scale_hi, int32_t zero_lo,
			     int32_t zero_hi);
/* Quantizes tensor t symmetrically per channel along `axis`: one scale per
 * slice, zero points 0. */
bool cf_case_quantize_per_channel(cf_case *c, int32_t t, int32_t axis,
				  const float *scales);

/*
 * Fills tensor t with uniform random values in [lo, hi] for FLOAT32 and
 * the signed integer types (integers), 0 or 1 for BOOL, and random bytes
 * for every other type of fixed size; as its constant data when
 * `constant`, else as the values the graph input is given.  False when
 * out of memory or the type has no fixed size.
 */
bool cf_case_fill(cf_case *c, int32_t t, cf_rng *rng, double lo, double hi,
		  bool constant);

/* Appends a node input (tensor index, -1 for omitted). */
void cf_case_input(cf_case *c, int32_t t);

/* Appends a node output after the first (`output`), for ops with
 * several. */
void cf_case_more_output(cf_case *c, int32_t t);

/* The node's outputs in order, `output` first, into outputs
 * (CF_MAX_NODE_OUTPUTS entries); returns how many. */
int32_t cf_case_outputs(const cf_case *c, int32_t *outputs);

/* Appends printf-formatted text to params_text, space-separated. */
void cf_case_param(cf_case *c, const char *format, ...) OPVER__PRINTF(2, 3);

/* Elements of a described tensor (1 for a scalar). */
size_t cf_tensor_elements(const cf_tensor_desc *t);

/* The values of tensor t: its constant data, or its values as a graph
 * input. */
void *cf_case_values(cf_case *c, int32_t t);

/*
 * Two inputs broadcast to one output, the binary ops' five patterns: one
 * shape, the second input a scalar, the second input the last dimension,
 * both ways ([N, 1, W, C] with [1, H, 1, C]), the first input the last
 * dimension.
 */
enum { CF_PATTERN_SAME, CF_PATTERN_SCALAR, CF_PATTERN_LAST,
       CF_PATTERN_MUTUAL, CF_PATTERN_FIRST_SMALL, CF_NUM_PATTERNS };
extern const char *const cf_pattern_names[CF_NUM_PATTERNS];

typedef struct cf_binary_shapes {
	int32_t rank[3];        /* input 1, input 2, output */
	int32_t dims[3][CF_MAX_RANK];
} cf_binary_shapes;

/* How large drawn shapes get: rank 1..max_rank (at most CF_MAX_RANK),
 * dimensions 1..dim_max up to rank 4 and 1..dim_max_above_4d above, the
 * both-ways pattern's 4-D dimensions 2..mutual_max. */
typedef struct cf_shape_limits {
	int32_t max_rank, dim_max, dim_max_above_4d, mutual_max;
} cf_shape_limits;

/* Shapes for `pattern` within `limits`.  The last dimension is at least 2,
 * so that the output has a first and a last element of its own. */
void cf_draw_binary_shapes(int32_t pattern, const cf_shape_limits *limits,
			   cf_rng *rng, cf_binary_shapes *s);

/* Output size of a convolution or pooling window along one axis, as TFLite
 * computes it; 0 when the window does not fit (VALID). */
int32_t cf_window_output(int32_t in, int32_t filter, int32_t stride,
			 int32_t dilation, opver_padding padding);

/* The padding TFLite puts before the first row or column (SAME; 0 with
 * VALID). */
int32_t cf_padding_before(int32_t in, int32_t filter, int32_t stride,
			  int32_t dilation, opver_padding padding);

/*
 * The first tap (ky, kx) of a window over the NHWC input `in` with which
 * an output reads inside it, and the offset of the pixel it reads in
 * batch 0 (channel 0).  The window's size is filter->dims[1] x dims[2]
 * (CONV_2D's and DEPTHWISE_CONV_2D's filters alike).  False when no output
 * reads the input: a dilated window over padding can miss it entirely,
 * and such outputs are their bias alone.
 */
bool cf_reading_pixel(const cf_tensor_desc *in, const cf_tensor_desc *filter,
		      int32_t stride_height, int32_t stride_width,
		      int32_t dilation_height, int32_t dilation_width,
		      opver_padding padding, int32_t *ky, int32_t *kx,
		      size_t *pixel);

/*
 * Float cases reach past both bounds of every clamp activation by giving
 * one output a term x * lead that outweighs all its others: this is the x
 * that makes the output at least 7 away from 0 in lead's direction.  rest:
 * the sum of the magnitudes of the output's other weights (their inputs
 * lie in [-1, 1]); bias: the magnitude of its bias; hybrid: the kernel
 * quantizes the input (at a step of x / 127 at most), so the other inputs
 * may be off by that much.
 */
float cf_dominant_input(float lead, float rest, float bias, bool hybrid);

/* Element i of a constant float32 or int8 weight tensor as a real number:
 * an int8 one times the scale of `channel` (per-channel) or its one
 * scale. */
float cf_weight(const cf_tensor_desc *w, size_t i, int32_t channel);
/* Sets element i of a constant float32 or int8 weight tensor the case
 * owns to 1 or -1 (float32), 127 or -127 (int8). */
void cf_set_lead_weight(cf_tensor_desc *w, size_t i, bool positive);

const char *cf_padding_name(opver_padding padding);
const char *cf_activation_name(opver_activation activation);

/* A clamp activation (NONE, RELU, RELU_N1_TO_1, RELU6) by index 0..3. */
opver_activation cf_activation(int32_t index);
#define CF_NUM_ACTIVATIONS 4

/*
 * Decodes `variant` of a generator whose kinds (tensor types, ...) grew
 * from `old_kinds` to `kinds`, with `per_kind` variants each: the first
 * old_kinds x per_kind variants decode as before the growth (kind =
 * variant % old_kinds, rest = variant / old_kinds) and the ones after
 * them give the added kinds, so that adding kinds keeps every earlier
 * case, and the golden recorded on it, as it was.
 */
static inline void cf_variant_split(int32_t variant, int32_t old_kinds,
				    int32_t kinds, int32_t per_kind,
				    int32_t *kind, int32_t *rest)
{
	const int32_t old_total = old_kinds * per_kind;

	if (variant < old_total) {
		*kind = variant % old_kinds;
		*rest = variant / old_kinds;
	} else {
		*kind = old_kinds + (variant - old_total) % (kinds - old_kinds);
		*rest = (variant - old_total) / (kinds - old_kinds);
	}
}

typedef struct cf_generator {
	int32_t op;
	int32_t num_variants;
	/* Fills the initialized case *c with variant 0..num_variants-1, its
	 * random choices drawn from rng.  False only when out of memory. */
	bool (*generate)(int32_t variant, cf_rng *rng, cf_case *c);
	/* With op OPVER_OP_CUSTOM, the custom op's name (static), which its
	 * cases carry too; NULL for a builtin op.  Custom ops have no
	 * TFLite release table: their cases are version 1, the version
	 * TFLite registers them at. */
	const char *custom_name;
} cf_generator;

/* The generator's op as cases, goldens and reports name it: the custom
 * op's name, or the builtin op's. */
const char *cf_generator_name(const cf_generator *g);

/* The generator whose cf_generator_name() is `name` (any case), or
 * NULL. */
const cf_generator *cf_generator_named(const char *name);

/* The seed of case (variant, repetition) of g in the run of `seed`: the
 * same whatever the version, and other generators' seeds stay as they
 * are when one is added. */
uint64_t cf_case_seed(uint64_t seed, const cf_generator *g, int32_t variant,
		      int32_t repetition);

/* Generator `index` of them all, in no particular order, or NULL past the
 * last: for walking every op that has cases. */
const cf_generator *cf_generator_at(size_t index);

/* The generator of builtin `op`, or NULL when there are no cases for
 * it. */
const cf_generator *cf_generator_for(int32_t op);

/* One per op, defined in cases_<family>.c. */
extern const cf_generator cf_add_cases;               /* elementwise */
extern const cf_generator cf_average_pool_2d_cases;   /* pool */
extern const cf_generator cf_batch_to_space_nd_cases; /* gather */
extern const cf_generator cf_broadcast_args_cases;    /* gather */
extern const cf_generator cf_broadcast_to_cases;      /* gather */
extern const cf_generator cf_cast_cases;              /* gather */
extern const cf_generator cf_depth_to_space_cases;    /* gather */
extern const cf_generator cf_embedding_lookup_cases;  /* gather */
extern const cf_generator cf_fill_cases;              /* gather */
extern const cf_generator cf_one_hot_cases;           /* gather */
extern const cf_generator cf_rank_cases;              /* gather */
extern const cf_generator cf_gather_cases;            /* gather */
extern const cf_generator cf_gather_nd_cases;         /* gather */
extern const cf_generator cf_shape_cases;             /* gather */
extern const cf_generator cf_space_to_batch_nd_cases; /* gather */
extern const cf_generator cf_space_to_depth_cases;    /* gather */
extern const cf_generator cf_tile_cases;              /* gather */
extern const cf_generator cf_zeros_like_cases;        /* gather */
extern const cf_generator cf_batch_matmul_cases;      /* batch_matmul */
extern const cf_generator cf_conv_2d_cases;           /* conv */
extern const cf_generator cf_depthwise_conv_2d_cases; /* depthwise_conv */
extern const cf_generator cf_detection_postprocess_cases; /* detection */
extern const cf_generator cf_dequantize_cases;        /* quantize */
extern const cf_generator cf_div_cases;               /* elementwise */
extern const cf_generator cf_equal_cases;             /* compare */
extern const cf_generator cf_not_equal_cases;         /* compare */
extern const cf_generator cf_less_cases;              /* compare */
extern const cf_generator cf_less_equal_cases;        /* compare */
extern const cf_generator cf_greater_cases;           /* compare */
extern const cf_generator cf_greater_equal_cases;     /* compare */
extern const cf_generator cf_logical_and_cases;       /* compare */
extern const cf_generator cf_logical_or_cases;        /* compare */
extern const cf_generator cf_logical_not_cases;       /* compare */
extern const cf_generator cf_select_cases;            /* compare */
extern const cf_generator cf_select_v2_cases;         /* compare */
extern const cf_generator cf_fully_connected_cases;   /* fully_connected */
extern const cf_generator cf_l2_normalization_cases;  /* batch_matmul */
extern const cf_generator cf_local_response_norm_cases; /* batch_matmul */
extern const cf_generator cf_l2_pool_2d_cases;        /* batch_matmul */
extern const cf_generator cf_max_pool_2d_cases;       /* pool */
extern const cf_generator cf_maximum_cases;           /* elementwise */
extern const cf_generator cf_minimum_cases;           /* elementwise */
extern const cf_generator cf_mul_cases;               /* elementwise */
extern const cf_generator cf_prelu_cases;             /* activation */
extern const cf_generator cf_quantize_cases;          /* quantize */
extern const cf_generator cf_leaky_relu_cases;        /* activation */
extern const cf_generator cf_hard_swish_cases;        /* activation */
extern const cf_generator cf_logistic_cases;          /* activation */
extern const cf_generator cf_log_softmax_cases;       /* log_softmax */
extern const cf_generator cf_tanh_cases;              /* activation */
extern const cf_generator cf_elu_cases;               /* activation */
extern const cf_generator cf_gelu_cases;              /* activation */
extern const cf_generator cf_relu_cases;              /* activation */
extern const cf_generator cf_relu6_cases;             /* activation */
extern const cf_generator cf_relu_n1_to_1_cases;      /* activation */
extern const cf_generator cf_relu_0_to_1_cases;       /* activation */
extern const cf_generator cf_reshape_cases;           /* reshape */
extern const cf_generator cf_resize_bilinear_cases;   /* resize */
extern const cf_generator cf_resize_nearest_neighbor_cases; /* resize */
extern const cf_generator cf_softmax_cases;           /* softmax */
extern const cf_generator cf_squared_difference_cases; /* elementwise */
extern const cf_generator cf_floor_div_cases; /* elementwise */
extern const cf_generator cf_floor_mod_cases; /* elementwise */
extern const cf_generator cf_pow_cases; /* elementwise */
extern const cf_generator cf_add_n_cases; /* elementwise */
extern const cf_generator cf_sub_cases;               /* elementwise */
extern const cf_generator cf_mean_cases;              /* reduce */
extern const cf_generator cf_sum_cases;               /* reduce */
extern const cf_generator cf_reduce_max_cases;        /* reduce */
extern const cf_generator cf_reduce_min_cases;        /* reduce */
extern const cf_generator cf_reduce_prod_cases;       /* reduce */
extern const cf_generator cf_reduce_any_cases;        /* reduce */
extern const cf_generator cf_reduce_all_cases;        /* reduce */
extern const cf_generator cf_arg_max_cases;           /* reduce */
extern const cf_generator cf_arg_min_cases;           /* reduce */
extern const cf_generator cf_cumsum_cases;            /* reduce */
extern const cf_generator cf_svdf_cases;              /* svdf */
extern const cf_generator cf_sequence_rnn_cases;      /* recurrent */
extern const cf_generator cf_sequence_lstm_cases;     /* recurrent */
extern const cf_generator cf_topk_v2_cases;           /* reduce */
/* unary */
extern const cf_generator cf_abs_cases;
extern const cf_generator cf_atan2_cases;
extern const cf_generator cf_ceil_cases;
extern const cf_generator cf_cos_cases;
extern const cf_generator cf_exp_cases;
extern const cf_generator cf_floor_cases;
extern const cf_generator cf_log_cases;
extern const cf_generator cf_neg_cases;
extern const cf_generator cf_round_cases;
extern const cf_generator cf_rsqrt_cases;
extern const cf_generator cf_sign_cases;
extern const cf_generator cf_sin_cases;
extern const cf_generator cf_sqrt_cases;
extern const cf_generator cf_square_cases;
/* movement */
extern const cf_generator cf_concatenation_cases;
extern const cf_generator cf_dynamic_update_slice_cases;
extern const cf_generator cf_expand_dims_cases;
extern const cf_generator cf_mirror_pad_cases;
extern const cf_generator cf_pack_cases;
extern const cf_generator cf_pad_cases;
extern const cf_generator cf_padv2_cases;
extern const cf_generator cf_reverse_v2_cases;
extern const cf_generator cf_slice_cases;
extern const cf_generator cf_split_cases;
extern const cf_generator cf_split_v_cases;
extern const cf_generator cf_squeeze_cases;
extern const cf_generator cf_strided_slice_cases;
extern const cf_generator cf_transpose_cases;
extern const cf_generator cf_unpack_cases;
extern const cf_generator cf_transpose_conv_cases;    /* transpose_conv */

#endif /* OPVER_CONFORMANCE_CASES_H */
