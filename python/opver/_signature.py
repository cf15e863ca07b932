"""The model's SignatureDefs (opver_model_signature_*), and TFLite's
SignatureRunner over them: named inputs in, named outputs out."""
import ctypes

from . import _native


def read(session):
    """Every signature of the session's model, in file order, as
    (key, subgraph, [(input name, tensor)], [(output name, tensor)])."""
    signatures = []
    for s in range(_native.signature_count(session.model)):
        info = _native.SignatureInfo()
        _native.signature_info(session.model, s, ctypes.byref(info),
                               ctypes.sizeof(info))
        name = ctypes.c_char_p()
        tensor = ctypes.c_int32()
        lists = []
        for count, entry in ((info.num_inputs, _native.signature_input),
                             (info.num_outputs, _native.signature_output)):
            items = []
            for i in range(count):
                entry(session.model, s, i, ctypes.byref(name),
                      ctypes.byref(tensor))
                items.append((_native.text(name.value), tensor.value))
            lists.append(items)
        signatures.append((_native.text(info.key), info.subgraph,
                           lists[0], lists[1]))
    return signatures


class SignatureRunner:
    """TFLite's SignatureRunner: runner(x=..., y=...) sets the named inputs,
    invokes the model and returns {output name: array}.  It shares its
    Interpreter's tensors, as TFLite's does."""

    def __init__(self, interpreter, key, inputs, outputs):
        self._interpreter = interpreter
        self._key = key
        self._inputs = dict(inputs)
        self._outputs = dict(outputs)

    def get_input_details(self):
        return {name: self._interpreter._details(tensor)
                for name, tensor in self._inputs.items()}

    def get_output_details(self):
        return {name: self._interpreter._details(tensor)
                for name, tensor in self._outputs.items()}

    def allocate_tensors(self):
        """Nothing to do, as for the Interpreter."""
        self._interpreter.allocate_tensors()

    def __call__(self, **kwargs):
        unknown = set(kwargs) - set(self._inputs)
        if unknown:
            raise ValueError("Invalid Input name (%s) for SignatureDef %s"
                             % (", ".join(sorted(unknown)), self._key))
        missing = set(self._inputs) - set(kwargs)
        if missing:
            raise ValueError("Missing input(s) %s for SignatureDef %s"
                             % (", ".join(sorted(missing)), self._key))
        for name, value in kwargs.items():
            self._interpreter.set_tensor(self._inputs[name], value)
        self._interpreter.invoke()
        return {name: self._interpreter.get_tensor(tensor)
                for name, tensor in self._outputs.items()}
