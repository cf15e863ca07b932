/*
 * test_reference_atan2.c - the reference plugin's ATAN2 through the kernel
 * harness: the angles of points in each quadrant and on the axes, worked
 * out by hand in multiples of pi, the sign of zero choosing between pi and
 * -pi, float64, and the nodes it refuses (shapes that differ: TFLite does
 * not broadcast ATAN2; types that differ).
 */
#include <math.h>
#include <stdint.h>

#include <criterion/criterion.h>

#include "kernel_harness.h"

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

TestSuite(atan2, .init = setup, .fini = teardown);

#define PI_F 3.14159265f

static opver_node *atan2_node(opver_tensor *y, opver_tensor *x,
			      opver_tensor *out)
{
	return kh_node(&h, kh_kernel(&h, "atan2"), 1, NULL, 0,
		       KH_TENSORS(y, x), KH_TENSORS(out));
}

/* (x, y) = (1, 1), (-1, 1), (-1, -1), (1, -1): pi/4, 3pi/4, -3pi/4,
 * -pi/4; (0, 1) pi/2, (1, 0) 0, (-1, 0) pi, (-1, -0) -pi, (0, 0) 0. */
Test(atan2, each_quadrant_and_the_axes)
{
	const float y[] = { 1, 1, -1, -1, 1, 0, 0, -0.0f, 0 };
	const float x[] = { 1, -1, -1, 1, 0, 1, -1, -1, 0 };
	const float want[] = { PI_F / 4, 3 * PI_F / 4, -3 * PI_F / 4,
			       -PI_F / 4, PI_F / 2, 0, PI_F, -PI_F, 0 };
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 3), NULL);

	cr_assert_eq(kh_run(&h, atan2_node(kh_tensor(&h, "y",
						     OPVER_TYPE_FLOAT32,
						     KH_DIMS(3, 3), y),
					   kh_tensor(&h, "x",
						     OPVER_TYPE_FLOAT32,
						     KH_DIMS(3, 3), x),
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, want, 9);
}

/* float64 keeps double precision: atan2(1, sqrt(3)) is pi/6. */
Test(atan2, float64)
{
	const double y[] = { 1, -2 }, x[] = { sqrt(3.0), 0 };
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT64,
				      KH_DIMS(2), NULL);
	const double *got;

	cr_assert_eq(kh_run(&h, atan2_node(kh_tensor(&h, "y",
						     OPVER_TYPE_FLOAT64,
						     KH_DIMS(2), y),
					   kh_tensor(&h, "x",
						     OPVER_TYPE_FLOAT64,
						     KH_DIMS(2), x),
					   out)),
		     OPVER_OK, "%s", h.errors);
	got = out->data;
	cr_expect(fabs(got[0] - 0.52359877559829887) < 1e-15, "%.17g",
		  got[0]);
	cr_expect(fabs(got[1] + 1.5707963267948966) < 1e-15, "%.17g", got[1]);
}

Test(atan2, refuses_shapes_that_differ_and_other_types)
{
	opver_tensor *row = kh_tensor(&h, "y", OPVER_TYPE_FLOAT32, KH_DIMS(1, 2),
				      NULL);
	opver_tensor *column = kh_tensor(&h, "x", OPVER_TYPE_FLOAT32,
					 KH_DIMS(2, 1), NULL);
	opver_tensor *ints = kh_tensor(&h, "i", OPVER_TYPE_INT32, KH_DIMS(1, 2),
				       NULL);

	kh_expect_rejected(&h, atan2_node(row, column,
					  kh_tensor(&h, "out",
						    OPVER_TYPE_FLOAT32,
						    KH_DIMS(2, 2), NULL)),
			   OPVER_ERROR_INVALID_MODEL, "does not broadcast");
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, atan2_node(ints, ints, ints),
			   OPVER_ERROR_UNSUPPORTED, "y 'i' has type INT32");
}
