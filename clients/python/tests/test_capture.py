"""The capture connector on recorded vLLM call sequences: the captured scenario runs through kvledger,
the captured vLLM log is audited, and ``kvledger diff`` finds the first step where they disagree."""

import json
import tempfile
import threading
import unittest
from pathlib import Path

from kvledger_capture.translate import Translator

from . import support
from .vllm_replay import replay

CALLS = Path(__file__).resolve().parent / "vllm_calls"


class CapturedSequencesTest(unittest.TestCase):

    def test_every_recorded_sequence_replays_audits_and_diffs_as_expected(self):
        sequences = sorted(CALLS.glob("*.jsonl"))
        self.assertGreaterEqual(len(sequences), 12)
        for calls in sequences:
            with self.subTest(sequence=calls.name), tempfile.TemporaryDirectory() as tmp:
                expect = json.loads(calls.with_suffix(".expect.json").read_text())
                capture = Path(tmp) / "capture"
                _, worker = replay(calls, capture)
                if "worker_flushed" in expect:
                    self.assertEqual(expect["worker_flushed"], worker._inner.flushed,
                                     "jobs_to_flush reached the worker's offloading connector (handle_preemptions)")
                commands, vllm_log = capture / "commands.jsonl", capture / "vllm-events.jsonl"
                run_log = Path(tmp) / "run.jsonl"
                support.cli("run", commands, "-o", run_log)
                events = support.read_log(run_log)
                rejections = sorted({e["code"] for e in events if e["type"] == "CommandRejected"})
                self.assertEqual(sorted(expect["run_rejections"]), rejections)

                audit = support.cli("audit", vllm_log, check=False)
                self.assertEqual(expect["audit_exit"], audit.returncode, audit.stdout.decode() + audit.stderr.decode())
                codes = sorted({line.split()[2] for line in audit.stdout.decode().splitlines() if line.startswith("seq ")})
                self.assertEqual(sorted(expect["audit_codes"]), codes)

                diff = support.cli("diff", run_log, vllm_log, check=False)
                text = diff.stdout.decode()
                self.assertEqual(expect["diff_exit"], diff.returncode, text + diff.stderr.decode())
                for fragment in expect["diff_contains"]:
                    self.assertIn(fragment, text)

                # The captured vLLM log is a log of the contract: seq from 1, EngineConfigured first.
                captured = support.read_log(vllm_log)
                self.assertEqual("EngineConfigured", captured[0]["type"])
                self.assertEqual(list(range(1, len(captured) + 1)), [e["seq"] for e in captured])
                self.assertEqual(expect.get("groups"), captured[0].get("groups"), "the KV cache groups, as vLLM has them")
                if "window_frees" in expect:
                    self.assertEqual(expect["window_frees"],
                                     [e["blockIds"] for e in captured if e["type"] == "WindowBlocksFreed"])

    def test_without_the_kv_cache_managers_frees_a_recycled_window_block_is_still_held(self):
        # The same hybrid run, the capture deaf to remove_skipped_blocks: block 11 goes to request q while
        # request 0's sliding-window table still holds it, as far as the log can tell.
        with tempfile.TemporaryDirectory() as tmp:
            capture = Path(tmp) / "capture"
            replay(CALLS / "hybrid_full_and_sliding_window.jsonl", capture, window_frees=False)
            events = support.read_log(capture / "vllm-events.jsonl")
            self.assertNotIn("WindowBlocksFreed", [e["type"] for e in events])
            audit = support.cli("audit", capture / "vllm-events.jsonl", check=False)
            self.assertEqual(1, audit.returncode, audit.stderr.decode())
            self.assertIn("BLOCK_STILL_HELD", audit.stdout.decode())

    def test_a_hybrid_models_finish_reaches_the_offloading_connector_with_every_groups_blocks(self):
        with tempfile.TemporaryDirectory() as tmp:
            scheduler, _ = replay(CALLS / "hybrid_full_and_sliding_window.jsonl", Path(tmp) / "c")
            inner = scheduler._inner
            self.assertNotIn("request_finished", inner.calls, "vLLM calls an HMA connector's all-groups finish only")
            self.assertEqual(4, inner.calls.count("request_finished_all_groups"))
            # The KV cache manager's tables at the finish: the freed window entries are its null block (0).
            self.assertEqual(([1, 2, 3, 4, 5], [0, 0, 13, 14, 15]), inner.finished_block_ids["0"])


class ConnectorTest(unittest.TestCase):

    def test_the_connector_returns_what_vllm_decided_and_writes_off_the_scheduler_thread(self):
        with tempfile.TemporaryDirectory() as tmp:
            connector, worker = replay(CALLS / "prefix_hit_load_two_workers.jsonl", Path(tmp) / "c")
            writer = connector._writer
            self.assertNotEqual(threading.current_thread(), writer._thread)
            self.assertFalse(writer._thread.is_alive(), "shutdown drained the queue and stopped the writer")
            scenario = support.read_log(Path(tmp) / "c" / "commands.jsonl")
            self.assertEqual({"gpuBlockSize": 4, "blocksPerChunk": 1, "workers": 2, "cpuCapacityChunks": 100,
                              "releasePolicy": "FENCE"}, scenario[0]["config"])
            inner = connector._inner
            self.assertIn("build_connector_meta", inner.calls)
            self.assertEqual(5, len(worker._inner.seen_metadata), "each step's metadata reached the worker's connector")

    def test_a_delayed_free_releases_at_finished_sending(self):
        t = Translator({"gpuBlockSize": 4})
        request = {"request_id": "a", "prompt_token_ids": [1, 2, 3, 4], "num_computed_tokens": 0}
        t.feed({"call": "get_num_new_matched_tokens", "request": request, "num_computed_tokens": 0, "result": [0, False]})
        t.feed({"call": "build_connector_meta", "scheduled": [{"request": request, "new": True, "block_ids": [9]}],
                "num_scheduled_tokens": {"a": 4}, "store_jobs": [{"job_id": 0, "req_id": "a", "block_ids": [9]}]})
        t.feed({"call": "request_finished", "request": dict(request, status="FINISHED_STOPPED", num_computed_tokens=4),
                "result": [True, None]})
        self.assertNotIn("BlocksReleased", [e["type"] for e in t.events], "vLLM delays the free")
        t.feed({"call": "update_connector_output", "completed_jobs": {0: 1}, "finished_sending": ["a"]})
        # the step's store completion goes before its finish (vLLM builds any last store after both)
        self.assertEqual(["StoreJobCompleted", "ChunksStored", "RequestFinished", "BlocksReleased"],
                         [e["type"] for e in t.events[-4:]])
        self.assertEqual([9], t.events[-1]["blockIds"])


if __name__ == "__main__":
    unittest.main()
