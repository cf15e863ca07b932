"""opver.Interpreter's TFLite API: details, set_tensor, get_tensor, views,
lifetime and threads."""
import os
import unittest

import numpy as np

import opver
import support


def interpreter(name, **kwargs):
    return opver.Interpreter(model_path=support.model(name),
                             config=support.CONFIG, **kwargs)


def int8_input(name, case):
    return np.fromfile(os.path.join(support.case_dir(name, case), "in0.raw"),
                       dtype=np.int8)


class Details(unittest.TestCase):
    # Expected values were recorded from TensorFlow Lite itself
    # (tflite_ref.js --json: each tensor's id, name, dtype, shape,
    # shape_signature and quantization).
    def check(self, details, name, index, shape, signature, dtype,
              scale=None, zero_point=None):
        self.assertEqual(details["name"], name)
        self.assertEqual(details["index"], index)
        self.assertEqual(details["shape"].dtype, np.int32)
        self.assertEqual(details["shape"].tolist(), shape)
        self.assertEqual(details["shape_signature"].dtype, np.int32)
        self.assertEqual(details["shape_signature"].tolist(), signature)
        self.assertIs(details["dtype"], dtype)
        params = details["quantization_parameters"]
        self.assertEqual(params["scales"].dtype, np.float32)
        self.assertEqual(params["zero_points"].dtype, np.int32)
        self.assertEqual(params["quantized_dimension"], 0)
        self.assertEqual(details["sparsity_parameters"], {})
        if scale is None:
            self.assertEqual(details["quantization"], (0.0, 0))
            self.assertEqual(params["scales"].size, 0)
            self.assertEqual(params["zero_points"].size, 0)
            return
        self.assertEqual(details["quantization"], (scale, zero_point))
        self.assertIsInstance(details["quantization"][0], float)
        self.assertIsInstance(details["quantization"][1], int)
        self.assertEqual(params["scales"].tolist(), [scale])
        self.assertEqual(params["zero_points"].tolist(), [zero_point])

    def test_float_model(self):
        with interpreter("hello_world_float") as it:
            (i,) = it.get_input_details()
            (o,) = it.get_output_details()
        self.check(i, "serving_default_dense_input:0", 0, [1, 1], [-1, 1],
                   np.float32)
        self.check(o, "StatefulPartitionedCall:0", 9, [1, 1], [-1, 1],
                   np.float32)

    def test_int8_model(self):
        with interpreter("mlperf_kws_ref_model_int8") as it:
            (i,) = it.get_input_details()
            (o,) = it.get_output_details()
        self.check(i, "input_1", 0, [1, 49, 10, 1], [-1, 49, 10, 1],
                   np.int8, 0.5847029089927673, 83)
        self.check(o, "Identity", 34, [1, 12], [-1, 12], np.int8,
                   0.00390625, -128)

    def test_two_inputs(self):
        with interpreter("simple_add_model") as it:
            a, b = it.get_input_details()
            (o,) = it.get_output_details()
        self.check(a, "serving_default_input_1:0", 0, [1, 128, 128, 1],
                   [-1, 128, 128, 1], np.int8, 0.04072536528110504, -2)
        self.check(b, "serving_default_input_2:0", 1, [1, 128, 128, 1],
                   [-1, 128, 128, 1], np.int8, 0.04124561324715614, -1)
        self.check(o, "PartitionedCall:0", 2, [1, 128, 128, 1],
                   [-1, 128, 128, 1], np.int8, 0.05837741121649742, -3)

    def test_model_content_reports_the_same(self):
        path = support.model("mlperf_kws_ref_model_int8")
        with open(path, "rb") as file:
            content = bytearray(file.read())
        with interpreter("mlperf_kws_ref_model_int8") as a, \
                opver.Interpreter(model_content=content,
                                  config=support.CONFIG) as b:
            # The bytes are copied: changing them changes nothing.
            content[:] = bytes(len(content))
            for x, y in zip(a.get_input_details() + a.get_output_details(),
                            b.get_input_details() + b.get_output_details()):
                self.assertEqual(repr(x), repr(y))
            x = int8_input("mlperf_kws_ref_model_int8", "kws_input")
            index = a.get_input_details()[0]["index"]
            a.set_tensor(index, x.reshape(1, 49, 10, 1))
            b.set_tensor(index, x.reshape(1, 49, 10, 1))
            a.invoke()
            b.invoke()
            np.testing.assert_array_equal(a.get_tensor(34), b.get_tensor(34))
            self.assertEqual(b.explain()["model"], "<memory>")


class SetTensor(unittest.TestCase):
    def setUp(self):
        self.it = interpreter("hello_world_int8")
        self.addCleanup(self.it.close)

    def test_wrong_type(self):
        with self.assertRaisesRegex(
                ValueError, r"^Cannot set tensor: Got value of type FLOAT32 "
                r"but expected type INT8 for input 0, name: "
                r"serving_default_dense_input:0 $"):
            self.it.set_tensor(0, np.zeros((1, 1), np.float32))
        # A Python list is a float64 or int64 array, as in TFLite.
        with self.assertRaisesRegex(ValueError, "type INT64 but expected"):
            self.it.set_tensor(0, [[1]])

    def test_wrong_rank(self):
        with self.assertRaisesRegex(
                ValueError, r"^Cannot set tensor: Dimension mismatch\. Got 1 "
                r"but expected 2 for input 0\.$"):
            self.it.set_tensor(0, np.zeros((1,), np.int8))

    def test_wrong_dimension(self):
        with self.assertRaisesRegex(
                ValueError, r"^Cannot set tensor: Dimension mismatch\. Got 3 "
                r"but expected 1 for dimension 1 of input 0\.$"):
            self.it.set_tensor(0, np.zeros((1, 3), np.int8))

    def test_not_an_input_output_or_constant(self):
        # Tensor 7 is hello_world_int8's first layer's output.
        with self.assertRaisesRegex(
                ValueError, "Tensor 7 is not an input, output or constant"):
            self.it.get_tensor(7)
        with self.assertRaisesRegex(ValueError,
                                    "experimental_preserve_all_tensors"):
            self.it.get_tensor(-1)
        with self.assertRaises(ValueError):
            self.it.tensor("0")

    def test_non_contiguous_value_is_copied_in_order(self):
        it = interpreter("simple_add_model")
        self.addCleanup(it.close)
        values = np.arange(128 * 128, dtype=np.int8).reshape(128, 128)
        transposed = values.T.reshape(1, 128, 128, 1)
        it.set_tensor(0, transposed)
        np.testing.assert_array_equal(it.get_tensor(0), transposed)


class Views(unittest.TestCase):
    def test_output_view_sees_invoke(self):
        with interpreter("hello_world_int8") as it:
            output = it.tensor(9)
            view = output()
            for case in ("q-96", "q0"):
                it.set_tensor(0, int8_input("hello_world_int8", case)
                              .reshape(1, 1))
                it.invoke()
                self.assertEqual(view.tolist(), it.get_tensor(9).tolist())
                self.assertEqual(output().tolist(), view.tolist())
            self.assertEqual(view.shape, (1, 1))
            self.assertEqual(view.dtype, np.int8)

    def test_input_view_sets_the_input(self):
        with interpreter("hello_world_int8") as a, \
                interpreter("hello_world_int8") as b:
            x = int8_input("hello_world_int8", "q-63").reshape(1, 1)
            a.set_tensor(0, x)
            b.tensor(0)()[...] = x
            a.invoke()
            b.invoke()
            self.assertEqual(a.get_tensor(9).tolist(),
                             b.get_tensor(9).tolist())

    def test_get_tensor_is_a_copy(self):
        with interpreter("hello_world_int8") as it:
            it.set_tensor(0, np.full((1, 1), 5, np.int8))
            copy = it.get_tensor(0)
            it.set_tensor(0, np.full((1, 1), 7, np.int8))
            self.assertEqual(copy.tolist(), [[5]])
            self.assertEqual(it.get_tensor(0).tolist(), [[7]])

    def test_view_outlives_close(self):
        it = interpreter("hello_world_int8")
        it.set_tensor(0, np.full((1, 1), 3, np.int8))
        it.invoke()
        view = it.tensor(9)()
        value = it.get_tensor(9).tolist()
        it.close()
        # The view holds the C objects until it goes.
        self.assertEqual(view.tolist(), value)
        with self.assertRaisesRegex(ValueError, "closed"):
            it.get_tensor(9)
        del view


class Lifetime(unittest.TestCase):
    def test_closed_interpreter_refuses_calls(self):
        with interpreter("hello_world_float") as it:
            pass
        for call in (it.invoke, it.allocate_tensors, it.get_input_details,
                     it.explain):
            with self.assertRaisesRegex(ValueError, "closed"):
                call()
        it.close()  # twice is fine

    def test_many_interpreters_come_and_go(self):
        for _ in range(20):
            it = interpreter("hello_world_float")
            it.tensor(9)()
            del it

    def test_threads(self):
        x = np.fromfile(os.path.join(
            support.case_dir("mlperf_ic_resnet_int8", "random_seed1"),
            "in0.raw"), dtype=np.int8)
        outputs = []
        for threads in (None, 1, 2, -1):
            with interpreter("mlperf_ic_resnet_int8",
                             num_threads=threads) as it:
                details = it.get_input_details()[0]
                it.set_tensor(details["index"], x.reshape(details["shape"]))
                it.invoke()
                outputs.append(it.get_tensor(
                    it.get_output_details()[0]["index"]))
        for output in outputs[1:]:
            np.testing.assert_array_equal(output, outputs[0])

    def test_preserved_intermediates_are_each_layer(self):
        # hello_world_float is three dense layers, 1 -> 16 -> 16 -> 1, the
        # first two with RELU.  numpy recomputes each layer from the
        # model's weights (constants, readable by get_tensor) and the
        # layer before, as TFLite's FULLY_CONNECTED defines it.
        with interpreter("hello_world_float",
                         experimental_preserve_all_tensors=True) as it:
            names = {d["name"]: d["index"] for d in it.get_tensor_details()}
            self.assertEqual(len(names), 10)
            x = np.array([[1.25]], np.float32)
            it.set_tensor(0, x)
            it.invoke()
            layer = x
            for weights, bias, out, relu in (
                    ("dense/MatMul", "dense/BiasAdd/ReadVariableOp", 7,
                     True),
                    ("dense_1/MatMul", "dense_1/BiasAdd/ReadVariableOp", 8,
                     True),
                    ("dense_2/MatMul", "dense_2/BiasAdd/ReadVariableOp", 9,
                     False)):
                w = it.get_tensor(names["sequential/" + weights])
                b = it.get_tensor(names["sequential/" + bias])
                layer = layer @ w.T + b
                if relu:
                    layer = np.maximum(layer, 0)
                np.testing.assert_allclose(it.get_tensor(out), layer,
                                           rtol=1e-5, atol=1e-6)

    def test_bad_arguments(self):
        path = support.model("hello_world_float")
        for kwargs in ({}, {"model_path": path, "model_content": b"x"}):
            with self.assertRaisesRegex(ValueError, "exactly one"):
                opver.Interpreter(**kwargs)
        for threads in (0, -2, 1.5, True):
            with self.assertRaisesRegex(ValueError, "num_threads"):
                opver.Interpreter(model_path=path, num_threads=threads)


class Signatures(unittest.TestCase):
    # litert_mul_add_signature_def: signature "mul_add" maps x to tensor 1
    # and y to tensor 0, and output_0 to tensor 4 (flatc's JSON dump of the
    # file); the model computes x * 3 + y (its constant is 3, and its
    # golden case agrees: see test_corpus).
    def test_signature_list(self):
        with interpreter("litert_mul_add_signature_def") as it:
            self.assertEqual(it.get_signature_list(),
                             {"mul_add": {"inputs": ["x", "y"],
                                          "outputs": ["output_0"]}})

    def test_runner_runs_by_name(self):
        with interpreter("litert_mul_add_signature_def") as it:
            runner = it.get_signature_runner()
            self.assertEqual(runner.get_input_details()["x"]["index"], 1)
            self.assertEqual(runner.get_input_details()["y"]["index"], 0)
            self.assertEqual(runner.get_output_details()["output_0"]["index"],
                             4)
            x = np.array([2.0], np.float32)
            y = np.array([0.5], np.float32)
            out = runner(x=x, y=y)
            self.assertEqual(list(out), ["output_0"])
            np.testing.assert_array_equal(out["output_0"],
                                          np.array([6.5], np.float32))
            self.assertIsInstance(it.get_signature_runner("mul_add"),
                                  type(runner))

    # two_signatures (tests/models): "double" is x + x on subgraph 0,
    # "square" x * x on subgraph 1, float32[3] each.
    def test_runner_of_another_subgraph(self):
        path = support.test_model("two_signatures")
        with opver.Interpreter(model_path=path,
                               config=support.CONFIG) as it:
            x = np.array([1.0, -2.0, 3.0], np.float32)
            square = it.get_signature_runner("square")
            np.testing.assert_array_equal(
                square(x=x)["y"], np.array([1.0, 4.0, 9.0], np.float32))
            self.assertIs(it.get_signature_runner("square"), square)
            np.testing.assert_array_equal(
                it.get_signature_runner("double")(x=x)["y"],
                np.array([2.0, -4.0, 6.0], np.float32))

    def test_runner_refuses_bad_names(self):
        with interpreter("litert_mul_add_signature_def") as it:
            with self.assertRaisesRegex(ValueError, "Invalid signature_key"):
                it.get_signature_runner("other")
            runner = it.get_signature_runner("mul_add")
            with self.assertRaisesRegex(ValueError, "Invalid Input name"):
                runner(x=np.zeros(1, np.float32), z=np.zeros(1, np.float32))
            with self.assertRaisesRegex(ValueError, "Missing input"):
                runner(x=np.zeros(1, np.float32))

    def test_serving_default(self):
        # hello_world_float's: dense_input is tensor 0 (absent, the
        # default), dense_2 tensor 9, per flatc's dump.
        with interpreter("hello_world_float") as it:
            self.assertEqual(it.get_signature_list(),
                             {"serving_default": {"inputs": ["dense_input"],
                                                  "outputs": ["dense_2"]}})
            runner = it.get_signature_runner()
            out = runner(dense_input=np.array([[0.5]], np.float32))
            it.set_tensor(0, np.array([[0.5]], np.float32))
            it.invoke()
            np.testing.assert_array_equal(out["dense_2"], it.get_tensor(9))

    def test_model_without_signatures(self):
        with interpreter("micro_speech_quantized") as it:
            self.assertEqual(it.get_signature_list(), {})
            with self.assertRaisesRegex(ValueError, "0 SignatureDefs"):
                it.get_signature_runner()


class Variables(unittest.TestCase):
    # tests/models/svdf_state.json: a float SVDF whose state is a variable
    # tensor; outputs worked out by hand (tests/test_interpreter_variables.c).
    def step(self, it, x, y):
        it.set_tensor(0, np.array([x], np.float32))
        it.invoke()
        np.testing.assert_allclose(it.get_tensor(6), [y], rtol=1e-6)

    def test_reset_all_variables_restarts_the_state(self):
        with opver.Interpreter(model_path=support.test_model("svdf_state"),
                               config=support.CONFIG) as it:
            self.step(it, [1, 1], [300.25, 3.0])
            self.step(it, [2, 0], [230.25, 8.0])
            it.reset_all_variables()
            self.step(it, [1, 1], [300.25, 3.0])

    # tests/models/var_accumulate.json: a resource variable that a CALL_ONCE
    # subgraph sets to [1, 2, 3] and each invoke adds x to (values worked
    # out by hand and TFLite's, tests/test_resource_variables.c).
    def test_reset_all_variables_runs_call_once_again(self):
        with opver.Interpreter(model_path=support.test_model("var_accumulate"),
                               config=support.CONFIG) as it:
            x = np.array([[0.5, -1, 2]], np.float32)
            it.set_tensor(0, x)
            it.invoke()
            it.invoke()
            np.testing.assert_array_equal(it.get_tensor(3), [[2, 0, 7]])
            it.reset_all_variables()
            it.invoke()
            np.testing.assert_array_equal(it.get_tensor(3), [[1.5, 1, 5]])


if __name__ == "__main__":
    unittest.main()
