"""libopver through ctypes: the library, the structs of <opver/opver.h>,
the status enum, OpverError, and _Session, which owns a runtime, a model
and an interpreter and frees them once.

Every info struct is passed with its Python sizeof to the library's _sized
functions, so this binding reads only fields it declares, as a C program
built against these headers would (the append rule of <opver/common.h>).
"""
import ctypes
import enum
import os
import sys

# libopver's soname: OPVER_LT_VERSION in configure.ac is 2:0:0.
_SONAME = "libopver.so.2"


def _load_library():
    path = os.environ.get("OPVER_LIBRARY") or _SONAME
    try:
        return ctypes.CDLL(path)
    except OSError as error:
        raise ImportError(
            "opver: cannot load %s (%s): install libopver2, or set "
            "OPVER_LIBRARY to the path of libopver.so" % (path, error)
        ) from None


_lib = _load_library()

_c_str = ctypes.c_char_p
_LogFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, _c_str)

# Positions a kernel's type signature constrains (OPVER_SIGNATURE_INPUTS).
SIGNATURE_INPUTS = 4


class RuntimeOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("log_level", ctypes.c_int32),
        ("strict", ctypes.c_int32),
        ("strict_versions", ctypes.c_int32),
        ("threads", ctypes.c_uint32),
        ("config_path", _c_str),
        ("log", _LogFn),
        ("log_user_data", ctypes.c_void_p),
        ("config_text", _c_str),
        ("config_text_size", ctypes.c_size_t),
    ]


class InterpreterOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("inspect_only", ctypes.c_int32),
        ("threads", ctypes.c_uint32),
        ("profile", ctypes.c_int32),
        ("prepare_only", ctypes.c_int32),
        ("max_arena_bytes", ctypes.c_uint64),
        ("max_tensor_bytes", ctypes.c_uint64),
        ("trace", ctypes.c_void_p),
        ("trace_user_data", ctypes.c_void_p),
        ("preserve_intermediates", ctypes.c_int64),
        ("subgraph", ctypes.c_int64),
        ("max_loop_iterations", ctypes.c_uint64),
    ]


class KernelInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("op", ctypes.c_int32),
        ("min_version", ctypes.c_int32),
        ("max_version", ctypes.c_int32),
        ("priority", ctypes.c_int32),
        ("stateless", ctypes.c_int32),
        ("input_types", ctypes.c_uint32 * SIGNATURE_INPUTS),
        ("output_types", ctypes.c_uint32),
        ("name", _c_str),
        ("custom_name", _c_str),
    ]


class PluginInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("abi_major", ctypes.c_uint32),
        ("abi_minor", ctypes.c_uint32),
        ("min_abi_minor", ctypes.c_uint32),
        ("num_kernels", ctypes.c_uint32),
        ("num_delegate_ops", ctypes.c_uint32),
        ("file", _c_str),
        ("config_name", _c_str),
        ("name", _c_str),
        ("vendor", _c_str),
        ("version", _c_str),
        ("delegate_name", _c_str),
    ]


class DelegateOpInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("op", ctypes.c_int32),
        ("min_version", ctypes.c_int32),
        ("max_version", ctypes.c_int32),
        ("input_types", ctypes.c_uint32 * SIGNATURE_INPUTS),
        ("output_types", ctypes.c_uint32),
        ("custom_name", _c_str),
    ]


class NodeInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("index", ctypes.c_int32),
        ("op", ctypes.c_int32),
        ("version", ctypes.c_int32),
        ("required_version", ctypes.c_int32),
        ("resolved_version", ctypes.c_int32),
        ("num_inputs", ctypes.c_int32),
        ("fallback", ctypes.c_int32),
        ("partition", ctypes.c_int32),
        ("total_ns", ctypes.c_uint64),
        ("invocations", ctypes.c_uint64),
        ("custom_name", _c_str),
        ("version_reason", _c_str),
        ("input_types", ctypes.POINTER(ctypes.c_int32)),
        ("plugin", _c_str),
        ("kernel", _c_str),
        ("delegate", _c_str),
    ]


# Frozen in <opver/common.h>: embedded in opver_tensor.
class Quantization(ctypes.Structure):
    _fields_ = [
        ("count", ctypes.c_int32),
        ("axis", ctypes.c_int32),
        ("scale", ctypes.POINTER(ctypes.c_float)),
        ("zero_point", ctypes.POINTER(ctypes.c_int64)),
    ]


class SignatureInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("subgraph", ctypes.c_uint32),
        ("num_inputs", ctypes.c_uint32),
        ("num_outputs", ctypes.c_uint32),
        ("key", _c_str),
    ]


class Tensor(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("type", ctypes.c_int32),
        ("rank", ctypes.c_int32),
        ("is_constant", ctypes.c_uint8),
        ("dims", ctypes.POINTER(ctypes.c_int32)),
        ("data", ctypes.c_void_p),
        ("bytes", ctypes.c_size_t),
        ("quant", Quantization),
        ("name", _c_str),
    ]


def _declare(name, restype, *argtypes):
    function = getattr(_lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


_p = ctypes.c_void_p
_size = ctypes.c_size_t
_status = ctypes.c_int
_int32 = ctypes.c_int32
_pp = ctypes.POINTER(ctypes.c_void_p)

runtime_options_init = _declare("opver_runtime_options_init_sized", None,
                                ctypes.POINTER(RuntimeOptions), _size)
runtime_create = _declare("opver_runtime_create", _status,
                          ctypes.POINTER(RuntimeOptions), _pp)
runtime_destroy = _declare("opver_runtime_destroy", None, _p)
plugin_count = _declare("opver_runtime_plugin_count", _size, _p)
plugin_info = _declare("opver_runtime_plugin_info_sized", _status, _p, _size,
                       ctypes.POINTER(PluginInfo), _size)
kernel_info = _declare("opver_runtime_kernel_info_sized", _status, _p, _size,
                       _size, ctypes.POINTER(KernelInfo), _size)
delegate_op_info = _declare("opver_runtime_delegate_op_info_sized", _status,
                            _p, _size, _size, ctypes.POINTER(DelegateOpInfo),
                            _size)
model_open = _declare("opver_model_open", _status, _p, _c_str, _pp)
model_open_memory = _declare("opver_model_open_memory", _status, _p, _p,
                             _size, _pp)
model_close = _declare("opver_model_close", None, _p)
model_min_runtime_version = _declare("opver_model_min_runtime_version",
                                     _c_str, _p)
model_computed_runtime_version = _declare(
    "opver_model_computed_runtime_version", _c_str, _p)
signature_count = _declare("opver_model_signature_count", _size, _p)
signature_info = _declare("opver_model_signature_info_sized", _status, _p,
                          _size, ctypes.POINTER(SignatureInfo), _size)
signature_input = _declare("opver_model_signature_input", _status, _p, _size,
                           _size, ctypes.POINTER(_c_str),
                           ctypes.POINTER(_int32))
signature_output = _declare("opver_model_signature_output", _status, _p,
                            _size, _size, ctypes.POINTER(_c_str),
                            ctypes.POINTER(_int32))
interpreter_options_init = _declare(
    "opver_interpreter_options_init_sized", None,
    ctypes.POINTER(InterpreterOptions), _size)
interpreter_create = _declare("opver_interpreter_create_with_options",
                              _status, _p, _p,
                              ctypes.POINTER(InterpreterOptions), _pp)
interpreter_destroy = _declare("opver_interpreter_destroy", None, _p)
input_count = _declare("opver_interpreter_input_count", _size, _p)
output_count = _declare("opver_interpreter_output_count", _size, _p)
interpreter_input = _declare("opver_interpreter_input",
                             ctypes.POINTER(Tensor), _p, _size)
interpreter_output = _declare("opver_interpreter_output",
                              ctypes.POINTER(Tensor), _p, _size)
invoke = _declare("opver_interpreter_invoke", _status, _p)
reset_variables = _declare("opver_interpreter_reset_variables", _status, _p)
resize_input = _declare("opver_interpreter_resize_input", _status, _p, _size,
                        ctypes.POINTER(_int32), _int32)
allocate_tensors = _declare("opver_interpreter_allocate_tensors", _status,
                            _p)
tensor_count = _declare("opver_interpreter_tensor_count", _size, _p)
interpreter_tensor = _declare("opver_interpreter_tensor",
                              ctypes.POINTER(Tensor), _p, _size)
node_count = _declare("opver_interpreter_node_count", _size, _p)
node_info = _declare("opver_interpreter_node_info_sized", _status, _p, _size,
                     ctypes.POINTER(NodeInfo), _size)
interpreter_memory = _declare("opver_interpreter_memory", None, _p,
                              ctypes.POINTER(_size), ctypes.POINTER(_size))
_status_name = _declare("opver_status_name", _c_str, _status)
_status_message = _declare("opver_status_message", _c_str, _status)
_op_name = _declare("opver_op_name", _c_str, _int32)
_type_name = _declare("opver_type_name", _c_str, _int32)
_log_level_name = _declare("opver_log_level_name", _c_str, ctypes.c_int)


def text(value):
    """A borrowed C string as str; None stays None."""
    return None if value is None else value.decode("utf-8", "replace")


def op_name(op):
    return text(_op_name(op))


def type_name(type_):
    return text(_type_name(type_))


# Status codes are appended with the next value and "UNKNOWN" names no
# code: the enum is the library's own table.
def _status_table():
    names = {}
    value = 0
    while text(_status_name(value)) != "UNKNOWN":
        names[text(_status_name(value))] = value
        value += 1
    return names


Status = enum.IntEnum("Status", _status_table(), module=__name__)
Status.__doc__ = "opver_status: the name and number of a library status."


class OpverError(RuntimeError):
    """A failed libopver call.  .status is a Status (its .name and int
    value); .message is what the library reported, or the status's
    description when it reported nothing."""

    def __init__(self, status, message):
        self.status = Status(status)
        self.message = message
        super().__init__("%s (%s, %d)" % (message, self.status.name,
                                          int(self.status)))


class _Log:
    """The runtime's log callback: keeps the messages of the call under
    way, so that a failure raises them and a success shows them on
    stderr as the library's default logger would."""

    def __init__(self):
        self.messages = []
        # Kept alive with the runtime, which calls it until destroyed.
        self.callback = _LogFn(self._receive)

    def _receive(self, user_data, level, message):
        self.messages.append((level, text(message)))

    def check(self, status):
        messages, self.messages = self.messages, []
        if status != Status.OK:
            errors = [m for level, m in messages if level == 0]
            raise OpverError(status, "; ".join(errors) or
                             text(_status_message(status)))
        for level, message in messages:
            print("opver: %s: %s" % (text(_log_level_name(level)), message),
                  file=sys.stderr)


def _config_path(config):
    if config is None:
        return None
    return os.fsencode(config)


class _Session:
    """Owns a runtime and, once opened, a model and an interpreter; the
    C objects are freed once, by free() or when the last reference goes
    (tensor views hold one, so a view never outlives them; memory that
    moves while they live is _views.py's concern)."""

    def __init__(self, config=None):
        self.log = _Log()
        self.runtime = ctypes.c_void_p()
        self.model = ctypes.c_void_p()
        self.interpreter = ctypes.c_void_p()
        options = RuntimeOptions()
        runtime_options_init(ctypes.byref(options), ctypes.sizeof(options))
        options.config_path = _config_path(config)
        options.log = self.log.callback
        self.log.check(runtime_create(ctypes.byref(options),
                                      ctypes.byref(self.runtime)))

    def open_model(self, path=None, content=None):
        if path is not None:
            status = model_open(self.runtime, os.fsencode(path),
                                ctypes.byref(self.model))
        else:
            # content is bytes, which the library copies: borrowed for
            # the call.
            status = model_open_memory(self.runtime, content, len(content),
                                       ctypes.byref(self.model))
        self.log.check(status)

    def create_interpreter(self, threads=0, preserve_intermediates=False,
                           subgraph=0):
        options = InterpreterOptions()
        interpreter_options_init(ctypes.byref(options),
                                 ctypes.sizeof(options))
        options.threads = threads
        options.preserve_intermediates = 1 if preserve_intermediates else 0
        options.subgraph = subgraph
        self.log.check(interpreter_create(self.runtime, self.model,
                                          ctypes.byref(options),
                                          ctypes.byref(self.interpreter)))

    def free(self):
        # Interpreter, then model, then runtime, as opver.h requires.
        if self.interpreter:
            interpreter_destroy(self.interpreter)
            self.interpreter = ctypes.c_void_p()
        if self.model:
            model_close(self.model)
            self.model = ctypes.c_void_p()
        if self.runtime:
            runtime_destroy(self.runtime)
            self.runtime = ctypes.c_void_p()

    def __del__(self):
        # At interpreter exit the module's functions may already be gone.
        try:
            self.free()
        except Exception:
            pass
