"""The per-request controls of contract 9.1 through the client: the builders check them as the server does,
and a real ``kvledger serve`` applies them (both command forms)."""

import unittest

from kvledger import Ledger, commands as c, compact

from . import support


class BuildersTest(unittest.TestCase):

    def test_controls_are_sent_only_when_given(self):
        self.assertEqual({"cmd": "RegisterRequest", "requestId": "r", "promptTokens": [1]}, c.register("r", [1]))
        self.assertEqual({"cmd": "RegisterRequest", "requestId": "r", "promptTokens": [1], "maxOffloadTokens": 8,
                          "maxLoadTokens": 0, "skipReadingPrefixCache": False},
                         c.register("r", [1], max_offload_tokens=8, max_load_tokens=0, skip_reading_prefix_cache=False))

    def test_a_value_the_server_refuses_is_refused_here(self):
        for bad in (-1, 4.0, "8", True):
            with self.assertRaises(ValueError, msg=repr(bad)):
                c.register("r", [1], max_load_tokens=bad)
            with self.assertRaises(ValueError, msg=repr(bad)):
                c.register("r", [1], max_offload_tokens=bad)
        for bad in ("yes", 1, 0):
            with self.assertRaises(ValueError, msg=repr(bad)):
                c.register("r", [1], skip_reading_prefix_cache=bad)

    def test_compact_controls_take_the_positions_after_the_prompt(self):
        self.assertEqual(["RegisterRequest", "r", [1]], compact.register("r", [1]))
        self.assertEqual(["RegisterRequest", "r", [1], 8, 4], compact.register("r", [1], max_offload_tokens=8, max_load_tokens=4))
        # A later control without an earlier one has no position: the object form says it.
        self.assertEqual(c.register("r", [1], skip_reading_prefix_cache=True),
                         compact.register("r", [1], skip_reading_prefix_cache=True))
        with self.assertRaises(ValueError):
            compact.register("r", [1], max_load_tokens=-1)


class ServedControlsTest(unittest.TestCase):

    def test_the_server_applies_each_control_in_either_form(self):
        with Ledger.spawn(config={"gpuBlockSize": 4}, command=support.kvledger_command() + ["serve"]) as ledger:
            stored = ledger.step([c.register("a", range(1, 17), max_offload_tokens=8), c.allocate("a", [1, 2, 3, 4]),
                                  c.compute("a", 16)])
            self.assertEqual([[0, 1]], [job.chunk_indices for job in stored.store_jobs], "max_offload_tokens=8: two chunks")
            self.assertEqual(8, stored.events[0].max_offload_tokens)
            ledger.step([c.complete(stored.store_jobs[0].job_id)])
            for builders, suffix in ((c, "d"), (compact, "k")):
                result = ledger.step([
                    builders.register("skip" + suffix, range(1, 18), skip_reading_prefix_cache=True),
                    builders.match_prefix("skip" + suffix),
                    builders.register("cap" + suffix, range(1, 18), max_load_tokens=6),
                    builders.match_prefix("cap" + suffix),
                    builders.register("plain" + suffix, range(1, 18)),
                    builders.match_prefix("plain" + suffix)])
                matched = [(e.request_id, e.external_tokens) for e in result.events if e.type == "PrefixMatched"]
                self.assertEqual([("skip" + suffix, 0), ("cap" + suffix, 4), ("plain" + suffix, 8)], matched)
                self.assertEqual(True, result.events[0].skip_reading_prefix_cache)
            refused = ledger.step([{"cmd": "RegisterRequest", "requestId": "bad", "promptTokens": [1], "maxLoadTokens": None},
                                   ["RegisterRequest", "bad", [1], -1]])
            self.assertEqual(["INVALID_ARGUMENT", "INVALID_ARGUMENT"], [r.code for r in refused.rejections])


if __name__ == "__main__":
    unittest.main()
