"""Failures are OpverError with the library's status and message."""
import os
import tempfile
import unittest

import opver
import support


class Errors(unittest.TestCase):
    def test_status_enum_is_the_librarys(self):
        self.assertEqual(opver.Status.OK, 0)
        self.assertEqual(opver.Status.ERROR_UNRESOLVED, 8)
        self.assertEqual(opver.Status(10).name, "ERROR_MODEL_REJECTED")
        self.assertTrue(issubclass(opver.OpverError, RuntimeError))

    def test_missing_file(self):
        with self.assertRaises(opver.OpverError) as caught:
            opver.Interpreter(model_path="/nonexistent/model.tflite",
                              config=support.CONFIG)
        error = caught.exception
        self.assertIs(error.status, opver.Status.ERROR_IO)
        self.assertEqual(int(error.status), 4)
        self.assertIn("/nonexistent/model.tflite", error.message)
        self.assertIn("(ERROR_IO, 4)", str(error))

    def test_malformed_content(self):
        with self.assertRaises(opver.OpverError) as caught:
            opver.Interpreter(model_content=b"not a model at all",
                              config=support.CONFIG)
        self.assertIs(caught.exception.status,
                      opver.Status.ERROR_INVALID_MODEL)
        self.assertIn("<memory>", caught.exception.message)

    def test_empty_content(self):
        with self.assertRaises(opver.OpverError) as caught:
            opver.Interpreter(model_content=b"", config=support.CONFIG)
        self.assertIs(caught.exception.status,
                      opver.Status.ERROR_INVALID_MODEL)

    def test_unresolved_custom_op(self):
        # Its custom op comes only from a test plugin this config lacks.
        with self.assertRaises(opver.OpverError) as caught:
            opver.Interpreter(
                model_path=support.model("litert_test_model_versioned_ops"),
                config=support.CONFIG)
        self.assertIs(caught.exception.status, opver.Status.ERROR_UNRESOLVED)
        self.assertIn("needs testing_op version 2", caught.exception.message)

    def test_bad_config(self):
        fd, path = tempfile.mkstemp(suffix=".ini")
        with os.fdopen(fd, "w") as file:
            file.write("no_such_key = 1\n")
        self.addCleanup(os.unlink, path)
        with self.assertRaises(opver.OpverError) as caught:
            opver.list_plugins(config=path)
        self.assertIs(caught.exception.status, opver.Status.ERROR_CONFIG)
        self.assertIn("no_such_key", caught.exception.message)


if __name__ == "__main__":
    unittest.main()
