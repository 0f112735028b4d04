"""Every shared example, and seeded simulated workloads, give through the Python client exactly the events
``kvledger run`` writes for them."""

import random
import tempfile
import unittest
from pathlib import Path

from kvledger import Ledger, event_from_json

from . import support


def drive(scenario_path, step_sizes):
    """Sends a scenario through a fresh spawned server in steps of the given sizes, cycling; the log back."""
    config, commands = support.read_scenario(scenario_path)
    with Ledger.spawn(config=config, command=support.serve_command()) as ledger:
        log = [ledger.hello.config.to_json()]
        i = 0
        turn = 0
        while i < len(commands):
            size = step_sizes[turn % len(step_sizes)]
            turn += 1
            chunk = commands[i:i + size]
            i += size
            result = ledger.step([c for _, c in chunk], lines=[n for n, _ in chunk])
            log.extend(result.raw_events)
            assert result.last_seq == log[-1]["seq"]
    return log


class ExamplesTest(unittest.TestCase):

    def test_every_example_gives_the_events_of_run(self):
        found = support.examples()
        self.assertGreaterEqual(len(found), 10, "the shared examples")
        with tempfile.TemporaryDirectory() as tmp:
            for scenario in found:
                with self.subTest(example=scenario.name):
                    expected = support.run_log(scenario, tmp)
                    served = drive(scenario, [3, 1, 7])
                    self.assertEqual(expected, served)
                    # The dataclasses carry every field: decoded and written back, each event is unchanged.
                    self.assertEqual(expected, [event_from_json(e).to_json() for e in served])

    def test_seeded_workloads_give_the_events_of_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            for seed in (7, 8):
                with self.subTest(seed=seed):
                    scenario = Path(tmp) / ("sim-%d.jsonl" % seed)
                    log = Path(tmp) / ("sim-%d.log.jsonl" % seed)
                    support.cli("simulate", "--requests", "60", "--seed", seed, "--scenario", scenario, "-o", log)
                    sizes = [random.Random(seed).randint(1, 300) for _ in range(5)]
                    served = drive(scenario, sizes)
                    expected = support.read_log(log)
                    self.assertEqual(len(expected), len(served))
                    self.assertEqual(expected, served)


if __name__ == "__main__":
    unittest.main()
