"""opver.list_plugins() and Interpreter.explain() give opver-run --json's
data, and a tflite_runtime script runs with only its import changed."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

import opver
import support


def opver_run(*args):
    # Without the sanitizer runtime tests/python-check may preload into
    # python3: an instrumented opver-run links its own.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    result = subprocess.run([support.OPVER_RUN, "--config", support.CONFIG,
                             "--json"] + list(args),
                            stdout=subprocess.PIPE, env=env, check=True)
    return json.loads(result.stdout)


class Info(unittest.TestCase):
    def test_list_plugins_is_opver_runs(self):
        plugins = opver.list_plugins(config=support.CONFIG)
        self.assertEqual(plugins, opver_run("--list-plugins")["plugins"])
        self.assertEqual([p["name"] for p in plugins], ["reference"])
        # What json.dumps writes reads back the same.
        self.assertEqual(json.loads(json.dumps(plugins)), plugins)

    def test_explain_is_opver_runs(self):
        for name, case in (("mlperf_ic_resnet_int8", "random_seed1"),
                           ("simple_add_model", "random_seed1")):
            path = support.model(name)
            directory = support.case_dir(name, case)
            inputs = sorted(f for f in os.listdir(directory)
                            if f.startswith("in"))
            args = [path]
            for f in inputs:
                args += ["-i", os.path.join(directory, f)]
            # With inputs opver-run runs the model, so its interpreter,
            # like the Interpreter's, has an arena.
            expected = opver_run("--explain", *args)
            del expected["outputs"]
            with opver.Interpreter(model_path=path,
                                   config=support.CONFIG) as it:
                self.assertEqual(it.explain(), expected)
                self.assertGreater(expected["memory"]["arena_bytes"], 0)


SCRIPT = textwrap.dedent("""\
    import sys
    import numpy as np
    from opver import Interpreter  # was: from tflite_runtime.interpreter import Interpreter

    interpreter = Interpreter(model_path=sys.argv[1], num_threads=2)
    interpreter.allocate_tensors()
    input_details = interpreter.get_input_details()
    output_details = interpreter.get_output_details()

    scale, zero_point = input_details[0]['quantization']
    x = np.fromfile(sys.argv[2], dtype=input_details[0]['dtype'])
    interpreter.set_tensor(input_details[0]['index'],
                           x.reshape(input_details[0]['shape']))
    interpreter.invoke()
    output = interpreter.get_tensor(output_details[0]['index'])[0]
    scale, zero_point = output_details[0]['quantization']
    scores = scale * (output.astype(np.float32) - zero_point)
    print(int(np.argmax(scores)))
    """)


class Script(unittest.TestCase):
    def test_tflite_runtime_script(self):
        """No config argument: the installed default plus
        OPVER_PLUGIN_PATH, here the build tree's reference plugin."""
        model = support.model("micro_speech_quantized")
        with tempfile.NamedTemporaryFile("w", suffix=".py",
                                         delete=False) as file:
            file.write(SCRIPT)
        self.addCleanup(os.unlink, file.name)
        env = dict(os.environ,
                   OPVER_PLUGIN_PATH=os.path.dirname(support.REFERENCE_PLUGIN))
        for case, label in (("yes", 2), ("no", 3)):
            result = subprocess.run(
                [sys.executable, file.name, model, os.path.join(
                    support.case_dir("micro_speech_quantized", case),
                    "in0.raw")],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                check=True)
            self.assertEqual(result.stdout.decode().strip(), str(label))
            # Warnings only (no installed plugin directory), no error.
            self.assertNotIn("error", result.stderr.decode())


if __name__ == "__main__":
    unittest.main()
