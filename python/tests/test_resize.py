"""resize_tensor_input() and allocate_tensors(), as TFLite's: a batch gives,
row for row, what batch 1 gives for the same rows (run first: an
independent reference); refused shapes raise with libopver's reason."""
import os
import unittest

import numpy as np

import opver
import support


def interpreter(name):
    return opver.Interpreter(model_path=support.model(name),
                             config=support.CONFIG)


def run(it, value):
    (i,) = it.get_input_details()
    (o,) = it.get_output_details()
    it.set_tensor(i["index"], value)
    it.invoke()
    return it.get_tensor(o["index"])


class Resize(unittest.TestCase):
    def test_batch_rows_match_batch_one(self):
        rows = [np.fromfile(os.path.join(
                    support.case_dir("mlperf_ic_resnet_float", case),
                    "in0.raw"), dtype=np.float32).reshape(1, 32, 32, 3)
                for case in ("random_seed1", "ic_input_u8f32")]
        with interpreter("mlperf_ic_resnet_float") as it:
            alone = [run(it, row) for row in rows]
            index = it.get_input_details()[0]["index"]
            it.resize_tensor_input(index, [2, 32, 32, 3])
            it.allocate_tensors()
            self.assertEqual(it.get_input_details()[0]["shape"].tolist(),
                             [2, 32, 32, 3])
            self.assertEqual(it.get_output_details()[0]["shape"].tolist(),
                             [2, 10])
            batch = run(it, np.concatenate(rows))
            self.assertEqual(batch.shape, (2, 10))
            for r in range(2):
                np.testing.assert_array_equal(batch[r], alone[r][0])
            it.resize_tensor_input(index, [1, 32, 32, 3])
            it.allocate_tensors()
            np.testing.assert_array_equal(run(it, rows[1]), alone[1])

    def test_strict_changes_only_the_signatures_minus_one(self):
        # hello_world_float's input has the shape signature [-1, 1].
        with interpreter("hello_world_float") as it:
            index = it.get_input_details()[0]["index"]
            alone = [run(it, np.array([[x]], np.float32))
                     for x in (0.5, 1.5, 2.5)]
            it.resize_tensor_input(index, [3, 1], strict=True)
            it.allocate_tensors()
            got = run(it, np.array([[0.5], [1.5], [2.5]], np.float32))
            np.testing.assert_array_equal(got, np.concatenate(alone))
            with self.assertRaisesRegex(ValueError, "shape signature"):
                it.resize_tensor_input(index, [3, 2], strict=True)

    def test_refused_shapes_raise_with_the_reason(self):
        with interpreter("mlperf_ic_resnet_float") as it:
            index = it.get_input_details()[0]["index"]
            with self.assertRaisesRegex(opver.OpverError,
                                        "every dimension must be at least 1"):
                it.resize_tensor_input(index, [0, 32, 32, 3])
            with self.assertRaisesRegex(ValueError, "not an input"):
                it.resize_tensor_input(index + 1000, [1, 32, 32, 3])
            it.resize_tensor_input(index, [1, 32, 32, 4])
            with self.assertRaisesRegex(opver.OpverError,
                                        "allocate_tensors"):
                it.invoke()
            with self.assertRaisesRegex(opver.OpverError,
                                        r"node 0 \(CONV_2D") as caught:
                it.allocate_tensors()
            self.assertEqual(caught.exception.status.name,
                             "ERROR_INVALID_ARGUMENT")
            it.resize_tensor_input(index, [1, 32, 32, 3])
            it.allocate_tensors()
            it.invoke()


class DynamicOutputs(unittest.TestCase):
    def test_an_output_shaped_by_values_reads_at_its_new_shape(self):
        # dynamic_reshape: y = RESHAPE(x, [rows, 6 / rows]), z = y summed
        # along axis 1; TFLite gives z [6, 15] for rows 2, [3, 7, 11]
        # for rows 3.
        with opver.Interpreter(model_path=support.test_model(
                "dynamic_reshape"), config=support.CONFIG) as it:
            x, rows = it.get_input_details()
            y, z = it.get_output_details()
            it.set_tensor(x["index"], np.arange(1, 7, dtype=np.float32))
            for n, sums in ((2, [6, 15]), (3, [3, 7, 11])):
                it.set_tensor(rows["index"], np.array([n], np.int32))
                it.invoke()
                self.assertEqual(it.get_tensor(y["index"]).shape,
                                 (n, 6 // n))
                np.testing.assert_array_equal(it.get_tensor(z["index"]),
                                              np.array(sums, np.float32))


if __name__ == "__main__":
    unittest.main()
