"""The Python module over the built libmemsim: models and traces in, dicts out, the same
figures as the CLI; generators; per-step breakdowns; numpy arrays; errors."""
import json
import os
import subprocess
import sys
import unittest

if os.environ.get("MEMSIM_SANITIZED") == "1":
    print("1..0 # SKIP a sanitized libmemsim cannot be loaded into python (the sanitizer runtime)")
    sys.exit(77)
try:
    import numpy as np
except ImportError:  # scripts/setup.sh installs python3-numpy
    print(f"1..0 # SKIP numpy is not installed for {sys.executable}")
    sys.exit(77)

import memsim

SRC = os.environ.get("MEMSIM_SRCDIR", ".")
CLI = os.environ.get("MEMSIM_CLI")


class TestMemsim(unittest.TestCase):
    def test_figure_3_3_from_numpy(self):
        m = memsim.Model.load(os.path.join(SRC, "models/textbook-dmm.json"))
        t = memsim.Trace.from_steps(8, [("read", "shared", np.array([7, 5, 15, 0, 10, 11, 12, 9]))])
        r = m.run(t)
        self.assertEqual(r["time_units"], 7)
        self.assertEqual(r["requests"], 8)

    def test_same_as_the_cli(self):
        model, trace = os.path.join(SRC, "models/h200.json"), os.path.join(SRC, "traces/simple/transpose-padded.json")
        r = memsim.Model.load(model).run(memsim.Trace.load(trace))
        if CLI:
            cli = json.loads(subprocess.run([CLI, "run", model, trace, "--json"], capture_output=True, check=True).stdout)
            self.assertEqual(r, cli)
        self.assertGreater(r["predicted_ns"], 0)

    def test_generator_and_per_step(self):
        m = memsim.Model.from_dict({"model": "async-hmm", "width": 32, "dmms": 4, "shared_latency": 2, "global_latency": 40})
        r = m.run(memsim.Trace.generate("sat", "2r1w", n=256, tile_threads=128), per_step=True)
        self.assertEqual(len(r["per_step"]), r["steps"])
        self.assertEqual(sum(s.get("stages", 0) for s in r["per_step"]), r["stages"])
        one = m.run(memsim.Trace.generate("sat", "2r1w", n=256, tile_threads=128), threads=1)
        self.assertEqual(one["time_units"], r["time_units"])

    def test_errors_carry_memsims_message(self):
        with self.assertRaisesRegex(memsim.Error, "width"):
            memsim.Model.from_dict({"model": "dmm", "latency": 5})
        with self.assertRaisesRegex(memsim.Error, "unknown algorithm"):
            memsim.Trace.generate("sat", "3r3w", n=64)
        with self.assertRaisesRegex(memsim.Error, "cannot open"):
            memsim.Trace.load("/nonexistent.json")
        with self.assertRaisesRegex(memsim.Error, "3 addresses for 4 threads"):
            memsim.Trace.from_steps(4, [("read", "global", [0, 1, 2])])
        m = memsim.Model.load(os.path.join(SRC, "models/textbook-umm.json"))
        t = memsim.Trace.from_steps(4, [("read", "global", [0, 1, 2, 3])])
        m.run(t)
        with self.assertRaisesRegex(memsim.Error, "already run"):
            m.run(t)

    def test_measurements(self):
        recs = memsim.load_measurements(os.path.join(SRC, "traces/measured/h100/simple.json"))
        self.assertTrue(all(r["workload"] == "simple" for r in recs))
        self.assertGreater(len(recs), 10)


if __name__ == "__main__":
    unittest.main(verbosity=2)
