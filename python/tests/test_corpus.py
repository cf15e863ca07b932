"""Every case of the model corpus (cases.tsv) through opver.Interpreter,
output 0 checked as /work/shared/tools/check_case.py checks it."""
import csv
import os
import unittest

import numpy as np

import opver
import support


def check_output(check, got, expected):
    """The failed items of a cases.tsv check (empty when it holds)."""
    got = got.ravel().astype(np.float64)
    bad = []
    for item in check.split(";"):
        kind, _, arg = item.partition(":")
        if kind == "none":
            continue
        if kind == "argmax":
            if int(np.argmax(got)) != int(arg):
                bad.append("argmax %d, want %s" % (np.argmax(got), arg))
            continue
        if kind == "order":
            i, j = map(int, arg.split(">"))
            if not got[i] > got[j]:
                bad.append("out[%d] not > out[%d]" % (i, j))
            continue
        if expected is None or expected.size != got.size:
            bad.append("size %d, expected %s" % (
                got.size, None if expected is None else expected.size))
            continue
        expected = expected.ravel().astype(np.float64)
        diff = np.abs(got - expected)
        if kind == "exact" and np.any(diff != 0):
            bad.append("%d elements differ" % np.count_nonzero(diff))
        elif kind == "int" and diff.max() > int(arg):
            bad.append("max diff %d > %s" % (diff.max(), arg))
        elif kind == "float":
            atol, rtol = map(float, arg.split(":"))
            worst = (diff - (atol + rtol * np.abs(expected))).max()
            if worst > 0:
                bad.append("float diff exceeds atol %g rtol %g by %g"
                           % (atol, rtol, worst))
    return bad


def read_input(path, details):
    data = np.fromfile(path, dtype=details["dtype"])
    return data.reshape(details["shape"])


class Corpus(unittest.TestCase):
    def test_every_case_matches_its_golden(self):
        support.model("hello_world_float")
        with open(os.path.join(support.CORPUS, "cases.tsv")) as file:
            rows = list(csv.DictReader(file, delimiter="\t"))
        checked = 0
        for row in rows:
            # A "none" case only loads a model that needs a custom-op
            # plugin; test_errors covers it.
            if row["check"] == "none":
                continue
            with self.subTest(model=row["model"], case=row["case"]):
                self.run_case(row)
                checked += 1
        self.assertGreater(checked, 30)

    def run_case(self, row):
        directory = support.case_dir(row["model"], row["case"])
        with opver.Interpreter(model_path=support.model(row["model"]),
                               config=support.CONFIG) as interpreter:
            interpreter.allocate_tensors()
            inputs = interpreter.get_input_details()
            self.assertEqual(len(inputs), int(row["inputs"]))
            for k, details in enumerate(inputs):
                interpreter.set_tensor(details["index"], read_input(
                    os.path.join(directory, "in%d.raw" % k), details))
            interpreter.invoke()
            output = interpreter.get_output_details()[0]
            got = interpreter.get_tensor(output["index"])
        self.assertEqual(got.dtype, np.dtype(output["dtype"]))
        self.assertEqual(got.shape, tuple(output["shape"]))
        expected_path = os.path.join(directory, "expected0.raw")
        expected = (np.fromfile(expected_path, dtype=got.dtype)
                    if os.path.exists(expected_path) else None)
        self.assertEqual(check_output(row["check"], got, expected), [])


if __name__ == "__main__":
    unittest.main()
