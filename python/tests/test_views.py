"""Views from tensor() never read freed memory: the calls that give a
viewed tensor new memory (invoke for a tensor shaped at invoke,
resize_tensor_input and allocate_tensors for every tensor) raise while
the view lives, as TFLite's, and run once it is gone; a tensor without
memory is refused rather than read or written.  Values are FILL's ones
and hello_world_float's rows run one at a time, not the code under test's
own output."""
import unittest

import numpy as np

import opver
import support


class ShapedAtInvoke(unittest.TestCase):
    """dynamic_chain: y = FILL(dims, 1.0) and z = RESHAPE(y, newshape),
    both shaped at invoke from the inputs' values."""

    def setUp(self):
        self.it = opver.Interpreter(
            model_path=support.test_model("dynamic_chain"),
            config=support.CONFIG)
        self.addCleanup(self.it.close)
        self.dims, self.newshape = (
            d["index"] for d in self.it.get_input_details())
        self.y, self.z = (d["index"] for d in self.it.get_output_details())

    def run_with(self, dims, count=None):
        self.it.set_tensor(self.dims, np.array(dims, np.int32))
        self.it.set_tensor(self.newshape, np.array(
            [dims[0] * dims[1] if count is None else count], np.int32))
        self.it.invoke()

    def test_a_view_across_invokes_stops_the_next_one(self):
        self.run_with([2, 3])
        view = self.it.tensor(self.y)()
        np.testing.assert_array_equal(view, np.ones((2, 3), np.float32))
        with self.assertRaisesRegex(
                RuntimeError, r"^invoke\(\): a numpy array from tensor\(\) "
                r"still views tensor 2 \('y'\), and its shape follows "
                r"from input values.*drop every such array"):
            self.run_with([100, 100])
        # Nothing ran: the view still reads the first invoke's ones.
        np.testing.assert_array_equal(view, np.ones((2, 3), np.float32))
        del view
        self.run_with([100, 100])
        np.testing.assert_array_equal(self.it.tensor(self.y)(),
                                      np.ones((100, 100), np.float32))

    def test_a_slice_holds_its_view(self):
        self.run_with([2, 3])
        part = self.it.tensor(self.z)()[2:]
        with self.assertRaisesRegex(RuntimeError, r"tensor 4 \('z'\)"):
            self.run_with([50, 50])
        np.testing.assert_array_equal(part, np.ones(4, np.float32))
        del part
        self.run_with([50, 50])
        self.assertEqual(self.it.get_tensor(self.z).shape, (2500,))

    def test_a_copy_does_not_stop_invoke(self):
        self.run_with([2, 3])
        copies = [self.it.get_tensor(self.y), self.it.tensor(self.y)().copy()]
        self.run_with([100, 100])
        for copy in copies:
            np.testing.assert_array_equal(copy, np.ones((2, 3), np.float32))

    def test_views_of_inputs_see_every_invoke(self):
        # Inputs keep their memory, so their views do not stop invoke.
        dims = self.it.tensor(self.dims)()
        newshape = self.it.tensor(self.newshape)()
        for shape in ([4, 5], [1, 2], [30, 40]):
            dims[...] = shape
            newshape[...] = shape[0] * shape[1]
            self.it.invoke()
            self.assertEqual(self.it.get_tensor(self.y).shape, tuple(shape))
            self.assertEqual(self.it.get_tensor(self.z).shape,
                             (shape[0] * shape[1],))

    def test_no_value_before_an_invoke_succeeds(self):
        for read in (self.it.get_tensor, lambda i: self.it.tensor(i)()):
            with self.assertRaisesRegex(
                    ValueError, r"^tensor 4 \('z'\) is shaped at invoke, "
                    r"from input values: it has no value until an invoke "
                    r"succeeds$"):
                read(self.z)
        # FILL refuses a dimension of -1: that invoke fails before any
        # tensor is shaped, and the first one's values are gone.
        self.run_with([2, 3])
        with self.assertRaisesRegex(opver.OpverError, "FILL"):
            self.run_with([-1, 3], count=6)
        for t in (self.y, self.z):
            with self.assertRaisesRegex(ValueError, "no value until"):
                self.it.get_tensor(t)


class Resized(unittest.TestCase):
    """hello_world_float, whose input has the shape signature [-1, 1]."""

    def setUp(self):
        self.it = opver.Interpreter(model_path=support.model(
            "hello_world_float"), config=support.CONFIG)
        self.addCleanup(self.it.close)
        (self.x,) = (d["index"] for d in self.it.get_input_details())
        (self.y,) = (d["index"] for d in self.it.get_output_details())

    def run_with(self, rows):
        self.it.set_tensor(self.x, np.array(rows, np.float32).reshape(-1, 1))
        self.it.invoke()
        return self.it.get_tensor(self.y)

    def test_a_view_across_resize_and_allocate_stops_them(self):
        alone = [self.run_with([x]) for x in (0.5, 1.5, 2.5)]
        view = self.it.tensor(self.y)()
        with self.assertRaisesRegex(
                RuntimeError, r"^resize_tensor_input\(\): a numpy array "
                r"from tensor\(\) still views tensor %d " % self.y):
            self.it.resize_tensor_input(self.x, [3, 1])
        # Refused before anything changed.
        self.assertEqual(self.it.get_input_details()[0]["shape"].tolist(),
                         [1, 1])
        np.testing.assert_array_equal(view, alone[2])
        del view
        self.it.resize_tensor_input(self.x, [3, 1])
        view = self.it.tensor(self.y)()
        with self.assertRaisesRegex(
                RuntimeError, r"^allocate_tensors\(\): .*since an input "
                r"was resized, allocating gives every tensor new memory"):
            self.it.allocate_tensors()
        np.testing.assert_array_equal(view, alone[2])
        del view
        self.it.allocate_tensors()
        np.testing.assert_array_equal(self.run_with([0.5, 1.5, 2.5]),
                                      np.concatenate(alone))
        view = self.it.tensor(self.y)()
        self.assertEqual(view.shape, (3, 1))
        np.testing.assert_array_equal(view, np.concatenate(alone))

    def test_the_same_shape_frees_nothing(self):
        view = self.it.tensor(self.y)()
        self.it.resize_tensor_input(self.x, [1, 1])
        self.it.allocate_tensors()
        self.run_with([1.5])
        np.testing.assert_array_equal(view, self.it.get_tensor(self.y))

    def test_a_resized_input_has_no_memory_until_allocated(self):
        self.it.resize_tensor_input(self.x, [3, 1])
        message = (r"^tensor %d \('serving_default_dense_input:0'\) has "
                   r"no memory since an input was resized: call "
                   r"allocate_tensors\(\) first$" % self.x)
        with self.assertRaisesRegex(ValueError, message):
            self.it.set_tensor(self.x, np.zeros((3, 1), np.float32))
        with self.assertRaisesRegex(ValueError, message):
            self.it.get_tensor(self.x)
        with self.assertRaisesRegex(ValueError, message):
            self.it.tensor(self.x)()
        self.it.allocate_tensors()
        self.it.set_tensor(self.x, np.zeros((3, 1), np.float32))


if __name__ == "__main__":
    unittest.main()
