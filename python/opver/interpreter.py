"""opver.Interpreter: TensorFlow Lite's Python Interpreter over libopver, so
that a tflite_runtime script runs with only its import changed."""
import ctypes
import os

import numpy as np

from . import _info
from . import _model
from . import _native
from . import _signature
from . import _views

# numpy's type for each opver_type name, as tflite_runtime reports dtypes.
_DTYPES = {
    "FLOAT32": np.float32,
    "FLOAT16": np.float16,
    "FLOAT64": np.float64,
    "INT8": np.int8,
    "INT16": np.int16,
    "INT32": np.int32,
    "INT64": np.int64,
    "UINT8": np.uint8,
    "UINT16": np.uint16,
    "UINT32": np.uint32,
    "UINT64": np.uint64,
    "BOOL": np.bool_,
    "COMPLEX64": np.complex64,
    "COMPLEX128": np.complex128,
}
_TYPE_NAMES = {np.dtype(dtype): name for name, dtype in _DTYPES.items()}


def _type_of(dtype):
    """The opver type name of a numpy dtype, or its own name."""
    return _TYPE_NAMES.get(np.dtype(dtype), str(np.dtype(dtype)).upper())


class Interpreter:
    """A model bound to opver's kernels, with TFLite's Python API.

    model_path or model_content (bytes) gives the model; config is the
    path of an opver.ini (None: the installed config, as opver-run
    without --config); num_threads sets the interpreter's thread pool
    (None or -1: the config's).  Tensors are named by the model's tensor
    indices, as in TFLite.  The model's inputs, outputs and constants are
    always reachable; its intermediate tensors only with
    experimental_preserve_all_tensors=True, as in TFLite, since otherwise
    opver's arena reuses their memory.  Failures raise OpverError, with the
    library's message and status.
    """

    def __init__(self, model_path=None, model_content=None, config=None,
                 num_threads=None, experimental_preserve_all_tensors=False,
                 _subgraph=0):
        if (model_path is None) == (model_content is None):
            raise ValueError("Interpreter needs exactly one of model_path "
                             "and model_content")
        if num_threads is not None and (
                not isinstance(num_threads, int) or
                isinstance(num_threads, bool)):
            raise ValueError("type of num_threads should be int")
        if num_threads is not None and num_threads < 1 and num_threads != -1:
            raise ValueError("num_threads should be >= 1, or -1 for the "
                             "config's")
        if model_content is not None:
            model_content = bytes(model_content)
        self._model_name = (os.fspath(model_path) if model_path is not None
                            else "<memory>")
        self._session = None
        session = _native._Session(config)
        session.open_model(model_path, model_content)
        # Read after libopver verified the model.
        graph = _model.read_indices(model_path, model_content, _subgraph)
        session.create_interpreter(
            num_threads if num_threads and num_threads > 0 else 0,
            experimental_preserve_all_tensors, _subgraph)
        # What an interpreter of another signature's subgraph is made of.
        self._arguments = dict(
            model_path=model_path, model_content=model_content,
            config=config, num_threads=num_threads,
            experimental_preserve_all_tensors=(
                experimental_preserve_all_tensors))
        self._runners = {}
        self._session = session
        self._graph = graph
        self._signatures = _signature.read(session)
        # Borrowed from the interpreter: dropped with the session.
        inputs = [_native.interpreter_input(session.interpreter, i)
                  for i in range(_native.input_count(session.interpreter))]
        outputs = [_native.interpreter_output(session.interpreter, i)
                   for i in range(_native.output_count(session.interpreter))]
        if len(inputs) != len(graph.inputs) or \
                len(outputs) != len(graph.outputs):
            raise _native.OpverError(
                _native.Status.ERROR_INVALID_MODEL,
                "%s: %d inputs and %d outputs, but libopver has %d and %d"
                % (self._model_name, len(graph.inputs), len(graph.outputs),
                   len(inputs), len(outputs)))
        self._tensors = {}
        for index in range(_native.tensor_count(session.interpreter)):
            tensor = _native.interpreter_tensor(session.interpreter, index)
            if experimental_preserve_all_tensors or \
                    tensor.contents.is_constant:
                self._tensors[index] = tensor
        self._tensors.update(zip(graph.outputs, outputs))
        self._tensors.update(zip(graph.inputs, inputs))
        self._views = _views.Views()
        # Whether an input was resized since the last allocation: the
        # next allocate_tensors() then gives every tensor new memory.
        self._resized = False
        self._shaped_at_invoke = set()
        self._note_shaped_at_invoke()

    def _note_shaped_at_invoke(self):
        """After an allocation, notes the tensors shaped at invoke from
        input values (TFLite's dynamic tensors): they alone have no data
        until the first invoke (opver.h), and each invoke may give them
        new memory; every other tensor keeps its memory until the next
        allocation.  A union: once shaped at invoke, always treated so."""
        self._shaped_at_invoke.update(
            index for index, tensor in self._tensors.items()
            if not tensor.contents.data)

    # Lifetime: the session frees the C objects once, when its last
    # reference goes: at close() (CPython frees at once) unless numpy
    # views from tensor() still hold it, then with the last view.  The
    # memory that moves while the session lives is _views' concern.
    def close(self):
        """Frees the interpreter, model and runtime (when no view from
        tensor() still needs them).  Later calls raise ValueError."""
        for runner in getattr(self, "_runners", {}).values():
            runner._interpreter.close()
        self._runners = {}
        self._session = None
        self._tensors = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def _live(self):
        if self._session is None:
            raise ValueError("the Interpreter is closed")
        return self._session

    def _tensor(self, tensor_index):
        self._live()
        if isinstance(tensor_index, bool) or not isinstance(
                tensor_index, (int, np.integer)):
            raise ValueError("tensor index must be an int, got %r"
                             % (tensor_index,))
        tensor = self._tensors.get(int(tensor_index))
        if tensor is None:
            raise ValueError(
                "Tensor %d is not an input, output or constant of the "
                "model: create the Interpreter with "
                "experimental_preserve_all_tensors=True to read "
                "intermediate tensors (inputs %s, outputs %s)"
                % (tensor_index, self._graph.inputs, self._graph.outputs))
        return tensor.contents

    @staticmethod
    def _dtype(tensor):
        name = _native.type_name(tensor.type)
        if name not in _DTYPES:
            raise ValueError("tensor '%s' has type %s, which opver's Python "
                             "binding does not map to numpy"
                             % (_native.text(tensor.name), name))
        return _DTYPES[name]

    @staticmethod
    def _shape(tensor):
        return tuple(tensor.dims[i] for i in range(tensor.rank))

    def _details(self, tensor_index):
        t = self._tensor(tensor_index)
        shape = self._shape(t)
        signature = self._graph.shape_signatures.get(tensor_index)
        q = t.quant
        scales = np.array([q.scale[i] for i in range(q.count)],
                          dtype=np.float32)
        zero_points = np.array([q.zero_point[i] for i in range(q.count)],
                               dtype=np.int32)
        # TFLite's legacy pair is set for per-tensor quantization only.
        if q.count == 1:
            quantization = (float(scales[0]), int(zero_points[0]))
        else:
            quantization = (0.0, 0)
        return {
            "name": _native.text(t.name),
            "index": tensor_index,
            "shape": np.array(shape, dtype=np.int32),
            "shape_signature": np.array(
                signature if signature is not None else shape,
                dtype=np.int32),
            "dtype": self._dtype(t),
            "quantization": quantization,
            "quantization_parameters": {
                "scales": scales,
                "zero_points": zero_points,
                "quantized_dimension": q.axis if q.count > 0 else 0,
            },
            "sparsity_parameters": {},
        }

    def allocate_tensors(self):
        """After resize_tensor_input(), prepares every node again with the
        new shapes and gives every tensor new memory, as TFLite's;
        otherwise nothing to do (opver allocates when the Interpreter is
        created).  So after a resize it raises RuntimeError, changing
        nothing, while an array from tensor() is alive (see tensor())."""
        session = self._live()
        if self._resized:
            self._views.ensure_none(
                "allocate_tensors()", "since an input was resized, "
                "allocating gives every tensor new memory")
        session.log.check(_native.allocate_tensors(session.interpreter))
        if self._resized:
            self._resized = False
            self._note_shaped_at_invoke()

    def get_input_details(self):
        return [self._details(i) for i in self._graph.inputs]

    def get_output_details(self):
        return [self._details(i) for i in self._graph.outputs]

    def get_tensor_details(self):
        """The details of every tensor get_tensor() can read, by index."""
        return [self._details(i) for i in sorted(self._tensors)]

    def set_tensor(self, tensor_index, value):
        """Copies value into the tensor; its dtype and shape must be the
        tensor's (ValueError otherwise, as TFLite's), and it must have
        memory (ValueError between resize_tensor_input() and
        allocate_tensors())."""
        t = self._memory(tensor_index)
        dtype = self._dtype(t)
        array = np.ascontiguousarray(value)
        if array.dtype != np.dtype(dtype):
            raise ValueError(
                "Cannot set tensor: Got value of type %s but expected type "
                "%s for input %d, name: %s "
                % (_type_of(array.dtype), _native.type_name(t.type),
                   tensor_index, _native.text(t.name)))
        shape = self._shape(t)
        if array.ndim != len(shape):
            raise ValueError(
                "Cannot set tensor: Dimension mismatch. Got %d but expected "
                "%d for input %d." % (array.ndim, len(shape), tensor_index))
        for i, (got, want) in enumerate(zip(array.shape, shape)):
            if got != want:
                raise ValueError(
                    "Cannot set tensor: Dimension mismatch. Got %d but "
                    "expected %d for dimension %d of input %d."
                    % (got, want, i, tensor_index))
        if t.bytes > 0:
            ctypes.memmove(t.data, array.ctypes.data, t.bytes)

    def _memory(self, tensor_index):
        """The tensor, refused (ValueError) while it has no memory to
        read or write: one shaped at invoke before an invoke succeeded,
        an input resized since the last allocation."""
        t = self._tensor(tensor_index)
        if t.bytes == 0 or t.data:
            return t
        if int(tensor_index) in self._shaped_at_invoke:
            raise ValueError(
                "tensor %d ('%s') is shaped at invoke, from input values: "
                "it has no value until an invoke succeeds"
                % (tensor_index, _native.text(t.name)))
        raise ValueError(
            "tensor %d ('%s') has no memory since an input was resized: "
            "call allocate_tensors() first"
            % (tensor_index, _native.text(t.name)))

    def _array(self, tensor_index, views=None):
        """The tensor's memory as a numpy array (no copy), tracked by
        views when given."""
        t = self._memory(tensor_index)
        dtype = self._dtype(t)
        shape = self._shape(t)
        if t.bytes == 0:
            return np.empty(shape, dtype=dtype)
        view = _views.View(self._session, int(tensor_index),
                           _native.text(t.name), t.data, shape, dtype)
        return views.array(view) if views is not None else np.asarray(view)

    def get_tensor(self, tensor_index):
        """A copy of the tensor's value: ValueError while it has none (a
        tensor shaped at invoke before an invoke succeeded, an input
        resized and not yet allocated)."""
        return self._array(tensor_index).copy()

    def tensor(self, tensor_index):
        """A function returning a numpy view of the tensor's memory, as
        TFLite's: no copy, so it sees what invoke writes and writing it
        sets an input.  The view keeps the C objects alive, past close();
        the function itself does not.

        Some calls give tensors new memory: allocate_tensors() after
        resize_tensor_input() every tensor, and invoke() a tensor shaped
        at invoke from input values (TFLite's dynamic tensors: RESHAPE to
        a computed shape, FILL).  As TFLite's, those calls, and
        resize_tensor_input() itself, raise RuntimeError and change
        nothing while an array from this function that they would leave
        reading freed memory is alive: drop it and call the function
        again afterwards, or keep a copy.  Views are never silently
        copies instead: a copy would no longer see invoke nor set an
        input, and a view taken before a resize cannot become one after.
        Unlike TFLite's, invoke() runs while views of tensors whose memory
        it keeps are alive (any tensor of a model of fixed shapes), so
        such a view sees every invoke."""
        self._tensor(tensor_index)
        return lambda: self._array(tensor_index, self._views)

    def invoke(self):
        """Runs the model; RuntimeError, running nothing, while an array
        from tensor() views a tensor shaped at invoke (see tensor())."""
        session = self._live()
        self._views.ensure_none(
            "invoke()", "its shape follows from input values, so invoke "
            "may give it new memory", self._shaped_at_invoke)
        session.log.check(_native.invoke(session.interpreter))

    def reset_all_variables(self):
        """Sets the model's variable tensors (the state of SVDF, LSTM and
        RNN layers, kept from one invoke to the next) back to zeros, as
        TFLite's; unlike TFLite's, also forgets the values of resource
        variables and runs CALL_ONCE subgraphs again at the next invoke,
        so the model starts over as a new interpreter would."""
        session = self._live()
        session.log.check(_native.reset_variables(session.interpreter))

    def explain(self):
        """How each node is bound and why its version: the document
        opver-run --explain --json writes for a model it runs."""
        return _info.explain(self._live(), self._model_name)

    def resize_tensor_input(self, input_index, tensor_size, strict=False):
        """Gives the input whose tensor index is input_index (as in
        get_input_details()) the shape tensor_size, as TFLite's: call
        allocate_tensors() before set_tensor() and invoke().  With strict,
        only the dimensions shape_signature marks -1 may change.
        ValueError for a tensor that is not an input, or a shape strict
        refuses; OpverError for a shape libopver refuses; RuntimeError
        for a new shape while an array from tensor() is alive, since the
        allocation after it gives every tensor new memory (see
        tensor())."""
        session = self._live()
        if isinstance(input_index, bool) or not isinstance(
                input_index, (int, np.integer)) or \
                int(input_index) not in self._graph.inputs:
            raise ValueError("Tensor %r is not an input of the model "
                             "(inputs %s)" % (input_index,
                                              self._graph.inputs))
        dims = [int(d) for d in np.asarray(tensor_size).reshape(-1)]
        old = self._shape(self._tensor(input_index))
        if strict:
            signature = self._graph.shape_signatures.get(int(input_index),
                                                         old)
            if len(dims) != len(signature) or any(
                    s != -1 and d != s for d, s in zip(dims, signature)):
                raise ValueError(
                    "resize_tensor_input(strict=True): input %d has the "
                    "shape signature %s; only its -1 dimensions may change, "
                    "not to %s" % (input_index, list(signature), dims))
        # libopver changes nothing for the shape the input has.
        changes = tuple(dims) != old
        if changes:
            self._views.ensure_none(
                "resize_tensor_input()", "the allocate_tensors() a new "
                "shape needs gives every tensor new memory")
        position = self._graph.inputs.index(int(input_index))
        array = (ctypes.c_int32 * max(len(dims), 1))(*dims)
        session.log.check(_native.resize_input(
            session.interpreter, position, array, len(dims)))
        self._resized = self._resized or changes

    def get_signature_list(self):
        """{key: {"inputs": [names], "outputs": [names]}} for each of the
        model's SignatureDefs, as TFLite's."""
        self._live()
        return {key: {"inputs": [name for name, _ in inputs],
                      "outputs": [name for name, _ in outputs]}
                for key, _, inputs, outputs in self._signatures}

    def get_signature_runner(self, signature_key=None):
        """The SignatureRunner of signature_key, or of the model's only
        signature when it is None.  ValueError for an unknown key, as
        TFLite's.  A signature of another subgraph than the first runs
        on an interpreter of its own, made once and closed with this
        one."""
        self._live()
        if signature_key is None:
            if len(self._signatures) != 1:
                raise ValueError(
                    "SignatureDef signature_key is None and the model has "
                    "%d SignatureDefs: name one of %s"
                    % (len(self._signatures),
                       [key for key, _, _, _ in self._signatures]))
            signature_key = self._signatures[0][0]
        for key, subgraph, inputs, outputs in self._signatures:
            if key != signature_key:
                continue
            if subgraph == 0:
                return _signature.SignatureRunner(self, key, inputs,
                                                  outputs)
            if key not in self._runners:
                self._runners[key] = _signature.SignatureRunner(
                    Interpreter(_subgraph=subgraph, **self._arguments),
                    key, inputs, outputs)
            return self._runners[key]
        raise ValueError("Invalid signature_key provided: %s"
                         % (signature_key,))


def list_plugins(config=None):
    """Every loaded plugin with its kernels and delegate claims: the
    "plugins" array of opver-run --list-plugins --json."""
    session = _native._Session(config)
    try:
        return _info.plugins(session)
    finally:
        session.free()
