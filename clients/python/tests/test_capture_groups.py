"""A hybrid model's KV cache groups in the capture: vLLM's ``kv_cache_config`` as the log's ``groups``, what the
contract cannot say refused by name, transfer specs split by ``group_sizes``, the null block as ``null``, and
the KV cache manager's ``remove_skipped_blocks`` heard as ``FreeWindowBlocks``. (The recorded hybrid runs, audited
and diffed by a real ``kvledger``: :mod:`tests.test_capture`.)"""

import json
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

from kvledger_capture import window_hook
from kvledger_capture.connector import KvLedgerCaptureConnector
from kvledger_capture.records import ids
from kvledger_capture.translate import Translator

from . import vllm_kv_cache
from .vllm_api import KVConnectorRole
from .vllm_standins import INNER, kv_cache_config, vllm_config

HYBRID = (("FullAttentionSpec", ["model.layers.0.self_attn", "model.layers.2.self_attn"]),
          ("SlidingWindowSpec", ["model.layers.1.self_attn", "model.layers.3.self_attn", "model.layers.5.self_attn"],
           {"sliding_window": 8}))


def _connector(folder, kv_config, role=KVConnectorRole.SCHEDULER, **extra):
    config = vllm_config(4, extra=dict({"kvledger_inner_connector": INNER, "kvledger_capture_dir": str(folder)}, **extra))
    return KvLedgerCaptureConnector(config, role, kv_config)


def _engine_configured(folder):
    with open(Path(folder) / "vllm-events.jsonl", encoding="utf-8") as f:
        return json.loads(f.readline())


class GroupConfigTest(unittest.TestCase):

    def test_each_kv_cache_group_is_a_group_of_the_config_and_of_engine_configured(self):
        with tempfile.TemporaryDirectory() as tmp:
            eagle = HYBRID + (("MLAAttentionSpec", ["drafter.layers.0.self_attn"], {"is_eagle_group": True}),)
            _connector(tmp, kv_cache_config(*eagle)).shutdown()
            first = _engine_configured(tmp)
            self.assertEqual([{"kind": "FULL", "blockSize": 4, "eagle": False},
                              {"kind": "SLIDING_WINDOW", "blockSize": 4, "slidingWindow": 8, "eagle": False},
                              {"kind": "FULL", "blockSize": 4, "eagle": True}], first["groups"])
            self.assertEqual(["seq", "type", "gpuBlockSize", "blocksPerChunk", "workers", "cpuCapacityChunks",
                              "releasePolicy", "maxOffloadTokens", "offloadPromptOnly", "groups", "producer", "step"],
                             list(first), "groups after offloadPromptOnly (contract 7.1), producer last (9.3); then the "
                             "capture's step")
            config = json.loads((Path(tmp) / "commands.jsonl").read_text().splitlines()[0])["config"]
            self.assertNotIn("gpuBlockSize", config, "groups together with gpuBlockSize is malformed (7.1)")
            self.assertEqual(first["groups"], config["groups"])

    def test_gpu_block_size_of_groups_of_different_block_sizes_is_their_lcm(self):
        with tempfile.TemporaryDirectory() as tmp:
            _connector(tmp, kv_cache_config(("FullAttentionSpec", ["a"], {"block_size": 12}),
                                            ("FullAttentionSpec", ["b"], {"block_size": 16}))).shutdown()
            first = _engine_configured(tmp)
            self.assertEqual(48, first["gpuBlockSize"])
            self.assertEqual([12, 16], [g["blockSize"] for g in first["groups"]])

    def test_one_full_group_is_the_log_of_revision_4_without_groups(self):
        with tempfile.TemporaryDirectory() as tmp:
            _connector(tmp, kv_cache_config()).shutdown()
            first = _engine_configured(tmp)
            self.assertNotIn("groups", first)
            self.assertEqual(4, first["gpuBlockSize"])

    def test_a_group_the_contract_has_no_kind_for_is_refused_naming_it_by_the_scheduler_role_only(self):
        for spec, options in (("MambaSpec", {}), ("ChunkedLocalAttentionSpec", {"attention_chunk_size": 8})):
            hybrid = HYBRID + ((spec, ["model.layers.4.mixer", "model.layers.6.mixer", "model.layers.8.mixer"], options),)
            with self.subTest(spec=spec), tempfile.TemporaryDirectory() as tmp, \
                    self.assertLogs("kvledger_capture", level="ERROR"):
                with self.assertRaises(ValueError) as refused:
                    _connector(tmp, kv_cache_config(*hybrid), KVConnectorRole.SCHEDULER)
                message = str(refused.exception)
                self.assertIn("KV cache group 2: %s, 3 layers (model.layers.4.mixer, model.layers.6.mixer, ...)"
                              % spec, message)
                self.assertIn("FULL (FullAttentionSpec) and SLIDING_WINDOW (SlidingWindowSpec) only", message)
            with self.subTest(spec=spec, role="worker"), tempfile.TemporaryDirectory() as tmp:
                # the worker role writes nothing, so it refuses nothing: the scheduler role stops the engine
                _connector(tmp, kv_cache_config(*hybrid), KVConnectorRole.WORKER).shutdown()

    def test_chunks_of_several_blocks_with_a_sliding_window_group_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp, self.assertLogs("kvledger_capture", level="ERROR"):
            with self.assertRaises(ValueError) as refused:
                _connector(tmp, kv_cache_config(*HYBRID), block_size=8)
            self.assertIn("blocksPerChunk 2", str(refused.exception))
        with tempfile.TemporaryDirectory() as tmp, self.assertLogs("kvledger_capture", level="ERROR"):
            with self.assertRaises(ValueError) as refused:
                _connector(tmp, kv_cache_config(("FullAttentionSpec", ["a"], {"block_size": 12}),
                                                ("FullAttentionSpec", ["b"], {"block_size": 16})), block_size=48)
            self.assertIn("one block size", str(refused.exception))


class GroupRecordsTest(unittest.TestCase):

    def test_a_transfer_spec_is_split_by_its_group_sizes(self):
        spec = SimpleNamespace(block_ids=[21, 22, 23, 31, 32], group_sizes=[3, 2], block_indices=[0, 1])
        self.assertEqual([[21, 22, 23], [31, 32]], ids(spec))
        self.assertEqual([[4], []], ids(SimpleNamespace(block_ids=[4], group_sizes=[1, 0])))
        self.assertEqual([[7, 8]], ids(SimpleNamespace(block_ids=[7, 8])), "no group_sizes: one group's")
        with self.assertRaises(ValueError):
            ids(SimpleNamespace(block_ids=[1, 2], group_sizes=[1, 2]))

    def test_the_null_block_is_null_in_a_table_and_each_group_has_its_list(self):
        t = Translator({"blocksPerChunk": 1, "groups": [{"kind": "FULL", "blockSize": 4},
                                                        {"kind": "SLIDING_WINDOW", "blockSize": 4, "slidingWindow": 8}]})
        request = {"request_id": "r", "prompt_token_ids": list(range(13)), "num_computed_tokens": 0,
                   "new_hashes": ["h0", "h1", "h2"]}
        t.feed({"call": "get_num_new_matched_tokens", "request": request, "num_computed_tokens": 0, "result": [12, True]})
        t.feed({"call": "update_state_after_alloc", "request": request, "num_external_tokens": 12,
                "block_ids": [[21, 22, 23, 24], [0, 31, 32, 33]]})
        t.feed({"call": "build_connector_meta", "num_scheduled_tokens": {},
                "load_jobs": [{"job_id": 0, "req_id": "r", "block_ids": [[21, 22, 23], [31, 32]]}]})
        t.release()
        by_type = {e["type"]: e for e in t.events}
        self.assertEqual([[0, 1, 2], [1, 2]], by_type["PrefixMatched"]["hitChunks"])
        self.assertEqual([[21, 22, 23, 24], [None, 31, 32, 33]], by_type["BlocksAllocated"]["blockIds"])
        load = by_type["LoadJobScheduled"]
        self.assertEqual([[0, 1, 2], [1, 2]], load["chunkIndices"])
        self.assertEqual([["h000000000", "h100000000", "h200000000"], ["h100000001", "h200000001"]], load["keys"])
        self.assertEqual([[21, 22, 23, 24], [None, 31, 32, 33]],
                         [c for c in t.commands if c["cmd"] == "AllocateBlocks"][0]["blockIds"])

    def test_a_window_free_nulls_the_entries_and_is_left_out_of_the_release(self):
        t = Translator({"groups": [{"kind": "FULL", "blockSize": 4},
                                   {"kind": "SLIDING_WINDOW", "blockSize": 4, "slidingWindow": 4}]})
        request = {"request_id": "r", "prompt_token_ids": list(range(8)), "num_computed_tokens": 0}
        t.feed({"call": "get_num_new_matched_tokens", "request": request, "num_computed_tokens": 0, "result": [0, False]})
        t.feed({"call": "build_connector_meta", "num_scheduled_tokens": {"r": 8},
                "scheduled": [{"request": request, "new": True, "block_ids": [[1, 2], [11, 12]]}]})
        t.feed({"call": "remove_skipped_blocks", "request_id": "r", "group": 1, "block_ids": [11]})
        t.feed({"call": "request_finished", "request": dict(request, status="FINISHED_STOPPED"), "result": [False, None]})
        self.assertEqual({"cmd": "FreeWindowBlocks", "requestId": "r", "blockIds": [[], [11]]},
                         [c for c in t.commands if c["cmd"] == "FreeWindowBlocks"][0])
        freed = [e for e in t.events if e["type"] == "WindowBlocksFreed"][0]
        self.assertEqual([[], [11]], freed["blockIds"])
        self.assertEqual([[1, 2], [12]], [e for e in t.events if e["type"] == "BlocksReleased"][0]["blockIds"])


class WindowHookTest(unittest.TestCase):
    """The capture hears vLLM's KV cache manager (the stand-in of :mod:`tests.vllm_kv_cache`) free window blocks."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.kv_config = kv_cache_config(*HYBRID)
        self.pool = vllm_kv_cache.BlockPool()
        self.full, self.sliding = vllm_kv_cache.managers(self.kv_config, self.pool)
        for manager, table in ((self.full, [1, 2, 3, 4]), (self.sliding, [11, 12, 13, 14])):
            manager.req_to_blocks["r"] = [self.pool.block(b) for b in table]

    def _freed(self, connector):
        connector.shutdown()
        with open(Path(self.tmp.name) / "commands.jsonl", encoding="utf-8") as f:
            return [json.loads(line)["blockIds"] for line in f if '"FreeWindowBlocks"' in line]

    def _running(self, connector):
        connector._writer.put({"call": "get_num_new_matched_tokens", "num_computed_tokens": 0, "result": [0, False],
                               "request": {"request_id": "r", "prompt_token_ids": list(range(16)),
                                           "num_computed_tokens": 0}})
        connector._writer.put({"call": "build_connector_meta", "num_scheduled_tokens": {"r": 16},
                               "scheduled": [{"request": {"request_id": "r"}, "new": True,
                                              "block_ids": [[1, 2, 3, 4], [11, 12, 13, 14]]}]})

    def test_the_blocks_vllm_frees_outside_the_window_are_recorded_per_group(self):
        connector = _connector(self.tmp.name, self.kv_config)
        self.assertTrue(hasattr(vllm_kv_cache.SlidingWindowManager.remove_skipped_blocks, "__kvledger_original__"))
        self.assertFalse(hasattr(vllm_kv_cache.FullAttentionManager.remove_skipped_blocks, "__kvledger_original__"),
                         "a manager that skips no token keeps vLLM's own method: nothing to hear, nothing to cost")
        connector.bind_gpu_block_pool(self.pool)
        self._running(connector)
        for manager in (self.full, self.sliding):   # the coordinator at 16 computed tokens, window 8
            manager.remove_skipped_blocks("r", 16)
        self.assertEqual([12, 11], self.pool.freed, "vLLM's own method ran: it freed 12 then 11")
        self.assertEqual([0, 0, 13, 14], [b.block_id for b in self.sliding.req_to_blocks["r"]])
        self.sliding.remove_skipped_blocks("r", 16)  # nothing more to free: nothing recorded
        self.assertEqual([[[], [11, 12]]], self._freed(connector))

    def test_another_engines_manager_and_a_closed_capture_are_not_heard(self):
        connector = _connector(self.tmp.name, self.kv_config)
        connector.bind_gpu_block_pool(vllm_kv_cache.BlockPool())   # this engine's pool is another one
        self._running(connector)
        self.sliding.remove_skipped_blocks("r", 16)
        self.assertEqual([], self._freed(connector))
        self.assertNotIn("remove_skipped_blocks", vars(vllm_kv_cache.SlidingWindowManager),
                         "the last capture closed gives vLLM its method back")
        self.assertFalse(hasattr(vllm_kv_cache.SlidingWindowManager.remove_skipped_blocks, "__kvledger_original__"))

    def test_a_model_of_one_full_attention_group_leaves_the_kv_cache_manager_alone(self):
        connector = _connector(self.tmp.name, kv_cache_config())
        self.assertFalse(hasattr(vllm_kv_cache.SingleTypeKVCacheManager.remove_skipped_blocks, "__kvledger_original__"))
        connector.shutdown()
        self.assertFalse(window_hook._listeners)


if __name__ == "__main__":
    unittest.main()
