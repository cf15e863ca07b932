"""What the tests share: the build tree's plugin and tools (from the
environment tests/python-check sets), a config loading the reference
plugin, and the model corpus."""
import atexit
import os
import tempfile
import unittest

REFERENCE_PLUGIN = os.environ.get("OPVER_TEST_REFERENCE_PLUGIN")
OPVER_RUN = os.environ.get("OPVER_TEST_OPVER_RUN")
CORPUS = os.environ.get("OPVER_MODEL_CORPUS")

if not REFERENCE_PLUGIN or not OPVER_RUN:
    raise RuntimeError("run through tests/python-check: it sets "
                       "OPVER_TEST_REFERENCE_PLUGIN and OPVER_TEST_OPVER_RUN")


def _write_config():
    fd, path = tempfile.mkstemp(prefix="opver-python-", suffix=".ini")
    with os.fdopen(fd, "w") as file:
        file.write("[plugin.reference]\nlibrary = %s\n" % REFERENCE_PLUGIN)
    atexit.register(os.unlink, path)
    return path


# Loads only the build tree's reference plugin.
CONFIG = _write_config()


def _corpus():
    """The corpus directory, skipping the test without one."""
    if not CORPUS:
        raise unittest.SkipTest("OPVER_MODEL_CORPUS is not set: corpus "
                                "tests skipped")
    return CORPUS


def model(name):
    """The path of corpus model NAME, skipping the test without a corpus."""
    return os.path.join(_corpus(), name + ".tflite")


def test_model(name):
    """The path of test model NAME built from tests/models/NAME.json in
    the build tree (abs_top_builddir, which make check sets)."""
    return os.path.join(os.environ["abs_top_builddir"], "tests", "models",
                        name + ".tflite")


def case_dir(model_name, case):
    """A corpus case's directory, skipping the test without a corpus."""
    return os.path.join(_corpus(), "cases", model_name, case)
