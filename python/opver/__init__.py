"""opver: TensorFlow Lite models on opver's versioned kernel plugins, with
tflite_runtime's Python API.

    import opver as tflite          # was: import tflite_runtime.interpreter as tflite
    interpreter = tflite.Interpreter(model_path="model.tflite")

The package is pure Python over libopver through ctypes; OPVER_LIBRARY
names another libopver.so than the installed one (a build tree's).
"""
from ._native import OpverError, Status
from .interpreter import Interpreter, list_plugins

__all__ = ["Interpreter", "OpverError", "Status", "list_plugins"]
