"""The capture against what vLLM's offloading scheduler really does (issue 30): the config read from the wrapped
scheduler, not derived again; the settings revision 6 cannot say refused by name (the worker role refuses
nothing); routine paths recorded where vLLM takes them (flushes before the allocation they answer, deferral
reasons, the CPU manager's evictions, an abort during a load, a store from a table a preemption emptied, a reset
that preempts, requests first seen mid-stream); per-request controls; one folder per engine; files that roll;
memory flat in the run's length.

vLLM's offloading scheduler is stood in for by the members the capture reads of it (``config``, ``manager``,
``_req_status``, ``_chunks_being_loaded``), with the values and answers vLLM's code gives; the logs made are
audited by a real ``kvledger``.
"""

import gc
import json
import tempfile
import tracemalloc
import unittest
from pathlib import Path
from types import SimpleNamespace

from kvledger_capture import __version__
from kvledger_capture.connector import KvLedgerCaptureConnector, engine_folder
from kvledger_capture.records import Expander, Recorder
from kvledger_capture.translate import Translator
from kvledger_capture.writer import CaptureWriter

from . import support, vllm_kv_cache
from .vllm_api import KVConnectorRole
from .vllm_standins import (INNER, RecordedOffloadingConnector, StandInRequest, kv_cache_config, transfer_job,
                            vllm_config)


# --- vLLM's offloading scheduler, as far as the capture reads it ---------------------------------------------

class LookupResult:
    HIT = SimpleNamespace(name="HIT")
    HIT_PENDING = SimpleNamespace(name="HIT_PENDING")
    MISS = SimpleNamespace(name="MISS")


class CPUOffloadingManager:
    """``CPUOffloadingManager``'s members the capture reads: its block count, ``lookup`` and ``prepare_store``
    (which evicts to make room and says so in ``PrepareStoreOutput.evicted_keys``)."""

    def __init__(self, num_blocks):
        self._num_blocks = num_blocks
        self.pending = set()    # keys being written
        self.ready = set()
        self.evict_next = []    # keys the next prepare_store evicts

    def lookup(self, key, req_context):
        if key in self.pending:
            return LookupResult.HIT_PENDING
        return LookupResult.HIT if key in self.ready else LookupResult.MISS

    def prepare_store(self, keys, req_context):
        evicted, self.evict_next = self.evict_next, []
        self.pending.update(keys)
        return SimpleNamespace(keys_to_store=list(keys), store_spec=None, evicted_keys=evicted)


def offloading_scheduler(blocks_per_chunk=1, num_workers=1, offload_prompt_only=True, eagle=(False,),
                         num_blocks=4096, chunk_tokens=4):
    groups = tuple(SimpleNamespace(is_eagle_group=e, tokens_per_chunk=chunk_tokens, sliding_window_size_in_chunks=None)
                   for e in eagle)
    config = SimpleNamespace(blocks_per_chunk=blocks_per_chunk, num_workers=num_workers,
                             offload_prompt_only=offload_prompt_only, kv_group_configs=groups)
    return SimpleNamespace(config=config, manager=CPUOffloadingManager(num_blocks), _req_status={},
                           _chunks_being_loaded=set())


class OffloadingConnector(RecordedOffloadingConnector):
    """The recorded stand-in with vLLM's ``connector_scheduler`` in the scheduler role; ``SCHEDULER`` is the one
    the next construction gets."""

    SCHEDULER = None

    def __init__(self, vllm_config, role, kv_cache_config=None):
        super().__init__(vllm_config, role, kv_cache_config)
        self.connector_scheduler = OffloadingConnector.SCHEDULER if role == KVConnectorRole.SCHEDULER else None

    def build_connector_meta(self, scheduler_output):
        meta = self._answer("build_connector_meta")
        manager = self.connector_scheduler.manager
        for job in (getattr(meta, "store_jobs", None) or {}).values():  # vLLM prepares each store first
            manager.prepare_store([], SimpleNamespace(req_id=job.req_id))
        return meta


WRAPPING = "tests.test_capture_fixes:OffloadingConnector"


def capture(folder, scheduler, kv_config=None, block_size=4, role=KVConnectorRole.SCHEDULER, world_size=1, **extra):
    OffloadingConnector.SCHEDULER = scheduler
    config = vllm_config(block_size, world_size, extra=dict(
        {"kvledger_inner_connector": WRAPPING, "kvledger_capture_dir": str(folder), "cpu_bytes_to_use": 1 << 30},
        **extra))
    return KvLedgerCaptureConnector(config, role, kv_config or kv_cache_config(block_size=block_size))


def read(folder, name="vllm-events.jsonl"):
    return support.read_log(Path(folder) / name)


def audit(path):
    done = support.cli("audit", path, check=False)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


class ReadNotDerivedTest(unittest.TestCase):

    def test_the_config_is_the_wrapped_schedulers_and_the_producer_names_both_versions(self):
        scheduler = offloading_scheduler(blocks_per_chunk=4, num_workers=2, offload_prompt_only=True, num_blocks=3071)
        with tempfile.TemporaryDirectory() as tmp:
            # the extra config says other things: vLLM ignores num_cpu_blocks and max_offload_tokens there
            capture(tmp, scheduler, block_size=16, num_cpu_blocks=2048, max_offload_tokens=64).shutdown()
            first = read(tmp)[0]
            self.assertEqual((16, 4, 2, 3071, True, None), (first["gpuBlockSize"], first["blocksPerChunk"],
                             first["workers"], first["cpuCapacityChunks"], first["offloadPromptOnly"],
                             first["maxOffloadTokens"]))
            self.assertEqual("kvledger_capture %s / vLLM unknown" % __version__, first["producer"])
            config = json.loads((Path(tmp) / "commands.jsonl").read_text().splitlines()[0])["config"]
            self.assertNotIn("producer", config, "a scenario's config has no producer (section 2)")
            self.assertTrue(config["offloadPromptOnly"])

    def test_every_group_is_eagle_where_the_wrapped_scheduler_says_so(self):
        # vLLM without #52771: speculative decoding and no group annotated makes every group an EAGLE group
        scheduler = offloading_scheduler(eagle=(True,))
        with tempfile.TemporaryDirectory() as tmp:
            capture(tmp, scheduler).shutdown()
            self.assertEqual([{"kind": "FULL", "blockSize": 4, "eagle": True}], read(tmp)[0]["groups"])

    def test_without_the_wrapped_scheduler_the_extra_config_is_read_with_vllms_defaults(self):
        with tempfile.TemporaryDirectory() as tmp:
            capture(tmp, None, blocks_per_chunk=2).shutdown()
            first = read(tmp)[0]
            self.assertEqual(2, first["blocksPerChunk"])
            self.assertTrue(first["offloadPromptOnly"], "vLLM's offload_prompt_only defaults to True (#43797)")


class RefusalsTest(unittest.TestCase):

    def test_settings_revision_6_does_not_model_are_refused_naming_the_setting(self):
        for name, value in (("eviction_policy", "arc"), ("store_threshold", 2),
                            ("cache_policy_module_path", "my.policy"), ("enable_request_free_prefetch", True)):
            with self.subTest(setting=name), tempfile.TemporaryDirectory() as tmp, \
                    self.assertLogs("kvledger_capture", level="ERROR"):
                with self.assertRaises(ValueError) as refused:
                    capture(tmp, offloading_scheduler(), **{name: value})
                self.assertIn("%s=%r" % (name, value), str(refused.exception))
                self.assertIn("9.4", str(refused.exception))
        with tempfile.TemporaryDirectory() as tmp:  # what the contract models is taken
            capture(tmp, offloading_scheduler(), eviction_policy="lru", store_threshold=1).shutdown()
        tiering = offloading_scheduler()
        tiering.manager = SimpleNamespace(_num_blocks=10)  # a tiering spec's manager, not vLLM's CPU one
        with tempfile.TemporaryDirectory() as tmp, self.assertLogs("kvledger_capture", level="ERROR"):
            with self.assertRaises(ValueError) as refused:
                capture(tmp, tiering, spec_name="TieringOffloadingSpec")
            self.assertIn("spec_name='TieringOffloadingSpec'", str(refused.exception))

    def test_a_window_with_extra_retained_tokens_and_rswa_are_refused(self):
        class SlidingWindowSpec(vllm_kv_cache.SlidingWindowSpec):
            extra_retained_tokens = 2

        class RSWASpec(vllm_kv_cache.FullAttentionSpec):
            pass
        for spec, words in ((SlidingWindowSpec(block_size=4, sliding_window=8), "extra_retained_tokens"),
                            (RSWASpec(block_size=4), "RSWASpec")):
            config = vllm_kv_cache.KVCacheConfig(num_blocks=100, kv_cache_tensors=[], kv_cache_groups=[
                vllm_kv_cache.KVCacheGroupSpec(["a"], vllm_kv_cache.FullAttentionSpec(block_size=4)),
                vllm_kv_cache.KVCacheGroupSpec(["b"], spec)])
            with self.subTest(spec=words), tempfile.TemporaryDirectory() as tmp, \
                    self.assertLogs("kvledger_capture", level="ERROR"):
                with self.assertRaises(ValueError) as refused:
                    capture(tmp, offloading_scheduler(eagle=(False, False)), kv_config=config)
                self.assertIn(words, str(refused.exception))

    def test_a_hash_unit_other_than_the_groups_is_refused(self):
        scheduler = offloading_scheduler()
        scheduler.config.tokens_per_hash = 8   # --prefix-match-unit 8 over blocks of 4
        with tempfile.TemporaryDirectory() as tmp, self.assertLogs("kvledger_capture", level="ERROR"):
            with self.assertRaises(ValueError) as refused:
                capture(tmp, scheduler)
            self.assertIn("--prefix-match-unit", str(refused.exception))
        scheduler.config.tokens_per_hash = 4
        with tempfile.TemporaryDirectory() as tmp:
            capture(tmp, scheduler).shutdown()

    def test_the_worker_role_takes_uniform_type_specs_and_refuses_nothing(self):
        class UniformTypeKVCacheSpecs(vllm_kv_cache.KVCacheSpec):  # vLLM's name: layers of different page sizes
            def __init__(self, kv_cache_specs):
                self.kv_cache_specs = kv_cache_specs
                self.block_size = 4
        uniform = UniformTypeKVCacheSpecs({"a": vllm_kv_cache.FullAttentionSpec(block_size=4),
                                           "b": vllm_kv_cache.MLAAttentionSpec(block_size=4)})
        config = vllm_kv_cache.KVCacheConfig(num_blocks=100, kv_cache_tensors=[], kv_cache_groups=[
            vllm_kv_cache.KVCacheGroupSpec(["a", "b"], uniform)])
        with tempfile.TemporaryDirectory() as tmp:
            capture(tmp, None, kv_config=config, role=KVConnectorRole.WORKER, eviction_policy="arc").shutdown()
            self.assertFalse((Path(tmp) / "vllm-events.jsonl").exists(), "the worker role writes nothing")
            capture(tmp, offloading_scheduler(), kv_config=config).shutdown()  # the scheduler's spec, unwrapped
            self.assertNotIn("groups", read(tmp)[0])


def request(rid, prompt, computed=0, **more):
    out = {"request_id": rid, "prompt_token_ids": list(prompt), "num_computed_tokens": computed}
    out.update(more)
    return out


def hashes(n, salt=""):
    return ["%032x" % (hash((salt, i)) & (2 ** 128 - 1)) for i in range(n)]


def match(t, rid, prompt, hit=0, gpu=0, **more):
    r = request(rid, prompt, gpu, new_hashes=hashes(len(prompt) // 4, rid), **more)
    t.feed({"call": "get_num_new_matched_tokens", "request": r, "num_computed_tokens": gpu, "result": [hit, bool(hit)]})
    return r


def step(t, scheduled=(), tokens=None, stores=(), loads=(), flush=(), finished=(), preempted=(), evicted=(),
         deferred=()):
    t.feed({"call": "build_connector_meta", "scheduled": list(scheduled), "num_scheduled_tokens": dict(tokens or {}),
            "store_jobs": list(stores), "load_jobs": list(loads), "jobs_to_flush": list(flush),
            "finished_req_ids": list(finished), "preempted_req_ids": list(preempted), "evicted": list(evicted),
            "deferred": list(deferred)})


def finish(t, rid, prompt, computed, status="FINISHED_STOPPED"):
    t.feed({"call": "request_finished", "request": request(rid, prompt, computed, status=status),
            "result": [False, None]})


def done(t, *job_ids, invalid=()):
    t.feed({"call": "update_connector_output", "completed_jobs": {j: 1 for j in job_ids},
            "invalid_block_ids": list(invalid)})


def types(events):
    return [e["type"] for e in events]


class RoutinePathsTest(unittest.TestCase):

    def write(self, t, tmp):
        path = Path(tmp) / "vllm.jsonl"
        path.write_text("".join(json.dumps(e) + "\n" for e in t.events))
        return path

    def test_a_flush_answering_a_reallocation_goes_before_that_allocation_naming_its_blocks(self):
        t = Translator({"gpuBlockSize": 4, "offloadPromptOnly": True})
        a = match(t, "a", range(8))
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}], {"a": 8},
             stores=[{"job_id": 0, "req_id": "a", "block_ids": [1, 2]}])
        finish(t, "a", range(8), 8)   # its store still in flight: vLLM fences the store's blocks
        # the step after: b gets block 2, which that store reads, so vLLM flushes the store in this step
        b = match(t, "b", range(100, 108))
        step(t, [{"request": b, "new": True, "block_ids": [2, 3]}], {"b": 8},
             stores=[{"job_id": 1, "req_id": "b", "block_ids": [2, 3]}], flush=[0], finished=["a"])
        kinds = types(t.events)
        flush = kinds.index("FlushRequired")
        self.assertEqual("BlocksAllocated", kinds[flush + 1])
        self.assertEqual("b", t.events[flush + 1]["requestId"])
        self.assertEqual({"jobIds": [0], "blockIds": [2]},
                         {k: t.events[flush][k] for k in ("jobIds", "blockIds")}, "the reused block only")
        done(t, 0, 1)
        with tempfile.TemporaryDirectory() as tmp:
            code, out, err = audit(self.write(t, tmp))
            self.assertNotIn("REUSE_WITHOUT_FLUSH", out)
            self.assertNotIn("FLUSH_MISMATCH", out)
            self.assertEqual(0, code, out + err)

    def test_jobs_are_numbered_in_the_logs_order_so_the_run_of_the_commands_completes_the_same_jobs(self):
        # vLLM numbers a step's jobs as it builds them, here b's store before a's; the log writes a's first
        # (after a's TokensComputed). kvledger's run of the commands numbers them in the log's order, so the
        # commands and the log must name a's store 0 and b's 1, or the run completes the other store.
        t = Translator({"gpuBlockSize": 4, "offloadPromptOnly": False, "cpuCapacityChunks": 16})
        a = match(t, "a", range(8))
        b = match(t, "b", range(100, 108))
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}, {"request": b, "new": True, "block_ids": [3, 4]}],
             {"a": 8, "b": 8}, stores=[{"job_id": 0, "req_id": "b", "block_ids": [3, 4]},
                                       {"job_id": 1, "req_id": "a", "block_ids": [1, 2]}])
        scheduled = [(e["jobId"], e["requestId"]) for e in t.events if e["type"] == "StoreJobScheduled"]
        self.assertEqual([(0, "a"), (1, "b")], scheduled)
        done(t, 0)  # vLLM's job 0: b's store
        self.assertEqual({"cmd": "CompleteTransfer", "jobId": 1, "success": True}, t.commands[-1])
        self.assertEqual({"jobId": 1, "requestId": "b"},
                         {k: t.events[-2][k] for k in ("jobId", "requestId")}, "StoreJobCompleted of b's store")
        with tempfile.TemporaryDirectory() as tmp:
            log = self.write(t, tmp)
            commands = Path(tmp) / "commands.jsonl"
            commands.write_text("".join(json.dumps(line) + "\n" for line in [{"config": t.config}] + t.commands))
            run = Path(tmp) / "run.jsonl"
            support.cli("run", commands, "-o", run)
            diff = support.cli("diff", run, log, check=False)
            self.assertEqual(0, diff.returncode, diff.stdout.decode())

    def test_a_steps_requests_go_in_vllms_scheduling_order_the_order_of_its_offers(self):
        # vLLM's offloading scheduler makes a step's offers in num_scheduled_tokens' order (running requests
        # first); the scheduler output lists new requests first. Offers competing for the tier's room must meet
        # it in vLLM's order in the commands too.
        t = Translator({"gpuBlockSize": 4})
        a = match(t, "a", range(8))
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}], {"a": 4})
        b = match(t, "b", range(100, 108))
        step(t, [{"request": b, "new": True, "block_ids": [3, 4]}, {"request": a, "block_ids": []}], {"a": 4, "b": 8})
        computed = [c["requestId"] for c in t.commands if c["cmd"] == "ComputeTokens"]
        self.assertEqual(["a", "a", "b"], computed)

    def test_a_finish_time_offer_without_room_is_deferred_at_the_finish_like_its_store(self):
        t = Translator({"gpuBlockSize": 4, "offloadPromptOnly": False})
        a = match(t, "a", range(8))
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}], {"a": 8})
        finish(t, "a", range(8), 8)
        finished_at = types(t.events).index("RequestFinished")
        step(t, deferred=[("a", [h + "00000000" for h in a["new_hashes"]])], finished=["a"])
        self.assertEqual(["RequestFinished", "StoreDeferred"], types(t.events)[finished_at:finished_at + 2])

    def test_a_deferral_reason_is_read_from_the_wrapped_scheduler(self):
        scheduler = offloading_scheduler()
        key = b"\x01" * 16 + b"\x00\x00\x00\x00"
        scheduler.manager.pending.add(key)   # another request's store of this chunk is still being written
        req = StandInRequest("r", range(8), 4)
        scheduler._req_status["r"] = SimpleNamespace(
            transfer_jobs=set(), num_locally_computed_tokens=0, req_context=None,
            group_states=(SimpleNamespace(offload_keys=[key, b"\x02" * 20]),))
        record = Recorder(scheduler).matched(req, 0, (None, False))
        self.assertEqual("CHUNK_WRITE_IN_FLIGHT", record["deferral"])
        scheduler.manager.pending.clear()
        scheduler._chunks_being_loaded.add(key)
        self.assertEqual("CHUNK_BEING_LOADED", Recorder(scheduler).matched(req, 0, (None, False))["deferral"])
        scheduler._req_status["r"].transfer_jobs.add(3)
        self.assertEqual("TRANSFER_IN_FLIGHT", Recorder(scheduler).matched(req, 0, (None, False))["deferral"])
        t = Translator({"gpuBlockSize": 4})
        t.feed({"call": "get_num_new_matched_tokens", "request": request("r", range(8)), "num_computed_tokens": 0,
                "result": [None, False], "deferral": "CHUNK_WRITE_IN_FLIGHT"})
        self.assertEqual("CHUNK_WRITE_IN_FLIGHT", t.events[-1]["reason"])

    def test_the_cpu_managers_evictions_are_written_before_the_store_they_make_room_for(self):
        scheduler = offloading_scheduler(num_blocks=2)
        with tempfile.TemporaryDirectory() as tmp:
            connector = capture(tmp, scheduler)
            inner = connector._inner
            reqs = {}
            for n, rid in enumerate(("a", "b", "c")):
                reqs[rid] = req = StandInRequest(rid, range(10 * n, 10 * n + 4), 4)
                connector.on_new_request(req)
                inner.answer = (0, False)
                connector.get_num_new_matched_tokens(req, 0)
                # c's store needs the room of a's chunk: the CPU manager evicts it inside prepare_store
                if rid == "c":
                    a_hash = reqs["a"].block_hashes[0]
                    scheduler.manager.evict_next = [a_hash + b"\x00\x00\x00\x00"]
                inner.answer = SimpleNamespace(load_jobs={}, jobs_to_flush=set(),
                                               store_jobs={n: transfer_job(rid, [n + 1], True)})
                connector.build_connector_meta(SimpleNamespace(
                    scheduled_new_reqs=[SimpleNamespace(req_id=rid, block_ids=([n + 1],), prompt_token_ids=None)],
                    scheduled_cached_reqs=None, num_scheduled_tokens={rid: 4}, finished_req_ids=set(),
                    preempted_req_ids=set()))
                req.num_computed_tokens = 4
                connector.update_connector_output(SimpleNamespace(
                    kv_connector_worker_meta=SimpleNamespace(completed_jobs={n: 1})))
            connector.shutdown()
            events = read(tmp)
            evicted = [e for e in events if e["type"] == "ChunksEvicted"]
            self.assertEqual([[reqs["a"].block_hashes[0].hex()]], [e["keys"] for e in evicted],
                             "kvledger's key of a's chunk: the block hash, as its store named it")
            at = events.index(evicted[0])
            self.assertEqual(("StoreJobScheduled", "c"), (events[at + 1]["type"], events[at + 1]["requestId"]))
            stored = [e["keys"] for e in events if e["type"] == "StoreJobScheduled"]
            self.assertEqual(stored[0], evicted[0]["keys"])
            code, out, err = audit(Path(tmp) / "vllm-events.jsonl")
            self.assertEqual(0, code, out + err)

    def test_a_steps_store_completions_go_before_its_finishes_whose_stores_evict_what_they_made_ready(self):
        # vLLM: update_from_output hears b's finish, then the worker's completion of a's store; the next step's
        # metadata builds b's last store, for which the CPU manager evicts a's chunk that completion made ready.
        # The log writes b's store at its finish, so a's completion must go before that finish.
        t = Translator({"gpuBlockSize": 4, "cpuCapacityChunks": 2})
        a = match(t, "a", range(8))
        b = match(t, "b", range(100, 104))
        b_key = hashes(1, "b")[0] + "00000000"
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}, {"request": b, "new": True, "block_ids": [3]}],
             {"a": 8, "b": 4}, stores=[{"job_id": 0, "req_id": "a", "block_ids": [1, 2]}],
             deferred=[["b", [b_key]]])  # a's chunks being written fill the tier
        finish(t, "b", range(100, 104), 4)
        done(t, 0)
        a_last = hashes(2, "a")[1]
        step(t, finished=["b"], stores=[{"job_id": 1, "req_id": "b", "block_ids": [3]}],
             evicted=[["b", [a_last + "00000000"]]])
        t.release()
        kinds = [(e["type"], e.get("requestId", e.get("jobId"))) for e in t.events]
        self.assertLess(kinds.index(("StoreJobCompleted", "a")), kinds.index(("RequestFinished", "b")))
        self.assertEqual([("RequestFinished", "b"), ("ChunksEvicted", None), ("StoreJobScheduled", "b"),
                          ("BlocksReleased", "b")], kinds[-4:])
        self.assertEqual([e["seq"] for e in t.events], list(range(1, len(t.events) + 1)))
        commands = [(c["cmd"], c.get("requestId", c.get("jobId"))) for c in t.commands]
        self.assertLess(commands.index(("CompleteTransfer", 0)), commands.index(("FinishRequest", "b")),
                        "kvledger's run hears the completion before the finish too")
        with tempfile.TemporaryDirectory() as tmp:
            code, out, err = audit(self.write(t, tmp))
            self.assertNotIn("EVICTION_INVALID", out)
            self.assertNotIn("CHUNKS_STORED_MISMATCH", out)
            self.assertEqual(0, code, out + err)

    def test_each_eviction_goes_before_the_store_that_needs_the_room_in_the_logs_order(self):
        # vLLM builds the running request r's store first (the tier has room for its chunk), then the new request
        # n's (two chunks: the CPU manager evicts two); the log writes n's store first, where one victim makes
        # the room, and r's after it, which needs the other.
        t = Translator({"gpuBlockSize": 4, "cpuCapacityChunks": 3})
        a = match(t, "a", range(8))
        r = match(t, "r", range(50, 55))
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}, {"request": r, "new": True, "block_ids": [3, 4]}],
             {"a": 8, "r": 3}, stores=[{"job_id": 0, "req_id": "a", "block_ids": [1, 2]}])
        done(t, 0)
        n = match(t, "n", range(100, 108))
        a0, a1 = hashes(2, "a")
        step(t, [{"request": n, "new": True, "block_ids": [5, 6]},
                 {"request": request("r", range(50, 55), 3), "new": False, "block_ids": []}], {"n": 8, "r": 2},
             stores=[{"job_id": 1, "req_id": "r", "block_ids": [3]}, {"job_id": 2, "req_id": "n", "block_ids": [5, 6]}],
             evicted=[["n", [a1 + "00000000", a0 + "00000000"]]])
        t.release()
        tail = [(e["type"], e.get("requestId") or e.get("keys")) for e in t.events
                if e["type"] in ("ChunksEvicted", "StoreJobScheduled")][1:]
        self.assertEqual([("ChunksEvicted", [a1]), ("StoreJobScheduled", "n"), ("ChunksEvicted", [a0]),
                          ("StoreJobScheduled", "r")], tail)
        with tempfile.TemporaryDirectory() as tmp:
            code, out, err = audit(self.write(t, tmp))
            self.assertNotIn("EVICTION_INVALID", out)
            self.assertNotIn("TIER_OVER_CAPACITY", out)
            self.assertEqual(0, code, out + err)

    def test_a_victim_the_logs_tier_does_not_hold_makes_no_room_there(self):
        # f's final store names a's chunks A0, A1 and its own F2. vLLM builds it a step after f's finish, after
        # n's store, for which it evicts A0 (contract 7.11.5); f's store then writes A0 again. The log writes f's
        # store at the finish, where A0 is held, and A0's eviction after it: from then on vLLM's tier holds A0 and
        # the log's does not. When vLLM evicts A0 again, for m's store, that victim frees nothing in the log's tier:
        # the room m needs there comes from the victim after it, A1, written before m's store, not after it.
        t = Translator({"gpuBlockSize": 4, "cpuCapacityChunks": 4})
        a = match(t, "a", range(8))
        b = match(t, "b", range(100, 108))
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}, {"request": b, "new": True, "block_ids": [3, 4]}],
             {"a": 8, "b": 8}, stores=[{"job_id": 0, "req_id": "a", "block_ids": [1, 2]},
                                       {"job_id": 1, "req_id": "b", "block_ids": [3, 4]}])
        done(t, 0, 1)  # the tier is full: A0, A1, B0, B1
        a0, a1 = hashes(2, "a")
        b0, b1 = hashes(2, "b")
        f2 = hashes(3, "f")[2]
        f = request("f", range(12), new_hashes=[a0, a1, f2])
        t.feed({"call": "get_num_new_matched_tokens", "request": f, "num_computed_tokens": 0, "result": [0, False]})
        step(t, [{"request": f, "new": True, "block_ids": [5, 6, 7]}], {"f": 12},
             deferred=[["f", [f2 + "00000000"]]])
        finish(t, "f", range(12), 12)
        n = match(t, "n", range(200, 204))
        step(t, [{"request": n, "new": True, "block_ids": [8]}], {"n": 4}, finished=["f"],
             stores=[{"job_id": 2, "req_id": "n", "block_ids": [8]}, {"job_id": 3, "req_id": "f", "block_ids": [5, 6, 7]}],
             evicted=[["n", [a0 + "00000000"]], ["f", [b0 + "00000000", b1 + "00000000"]]])
        done(t, 2, 3)
        m = match(t, "m", range(300, 308))
        step(t, [{"request": m, "new": True, "block_ids": [9, 10]}], {"m": 8},
             stores=[{"job_id": 4, "req_id": "m", "block_ids": [9, 10]}],
             evicted=[["m", [a0 + "00000000", a1 + "00000000"]]])
        t.release()
        tail = [(e["type"], e.get("requestId") or e.get("keys")) for e in t.events
                if e["type"] in ("ChunksEvicted", "StoreJobScheduled")][2:]
        self.assertEqual([("ChunksEvicted", [b0]), ("StoreJobScheduled", "f"),  # at f's finish: room for F2
                          ("ChunksEvicted", [a0]), ("StoreJobScheduled", "n"),
                          ("ChunksEvicted", [b1]),  # the room vLLM made for A0, which the log's f does not store
                          ("ChunksEvicted", [a0, a1]), ("StoreJobScheduled", "m")], tail)
        with tempfile.TemporaryDirectory() as tmp:
            code, out, err = audit(self.write(t, tmp))
            self.assertNotIn("TIER_OVER_CAPACITY", out)

    def test_a_store_the_cpu_manager_has_no_room_for_is_deferred(self):
        t = Translator({"gpuBlockSize": 4})
        a = match(t, "a", range(8))
        keys = [h + "00000000" for h in hashes(2, "a")]
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}], {"a": 8}, deferred=[["a", keys]])
        self.assertEqual({"type": "StoreDeferred", "requestId": "a", "chunkIndices": [0, 1], "reason": "TIER_FULL"},
                         {k: t.events[-1][k] for k in ("type", "requestId", "chunkIndices", "reason")})

    def test_an_abort_during_a_load_releases_the_loads_blocks_when_the_load_ends(self):
        t = Translator({"gpuBlockSize": 4})
        a = match(t, "a", range(12))
        step(t, [{"request": a, "new": True, "block_ids": [1, 2, 3]}], {"a": 12},
             stores=[{"job_id": 0, "req_id": "a", "block_ids": [1, 2, 3]}])
        done(t, 0)
        b = match(t, "b", list(range(12)) + [99], hit=8, gpu=4)
        b["new_hashes"] = hashes(3, "a")
        t.feed({"call": "update_state_after_alloc", "request": b, "block_ids": [[1, 5, 6]], "num_external_tokens": 8})
        step(t, loads=[{"job_id": 1, "req_id": "b", "block_ids": [5, 6]}])
        finish(t, "b", list(range(12)) + [99], 4, status="FINISHED_ABORTED")
        released = [e for e in t.events if e["type"] == "BlocksReleased"]
        self.assertEqual([[1]], [e["blockIds"] for e in released], "only what the load does not write, at the abort")
        done(t, 1)
        self.assertEqual(["LoadJobCompleted", "BlocksReleased"], types(t.events[-2:]))
        self.assertEqual([5, 6], t.events[-1]["blockIds"])

    def test_a_store_from_a_table_a_preemption_emptied_is_recorded_as_vllm_makes_it(self):
        t = Translator({"gpuBlockSize": 4})
        a = match(t, "a", range(8))
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}], {"a": 4})
        step(t, preempted=["a"])
        finish(t, "a", range(8), 0)
        step(t, stores=[{"job_id": 0, "req_id": "a", "block_ids": [1, 2]}], finished=["a"])
        store = [e for e in t.events if e["type"] == "StoreJobScheduled"][0]
        self.assertEqual([0, 1], store["chunkIndices"], "never an empty store")
        self.assertEqual(hashes(2, "a"), store["keys"])

    def test_a_store_from_a_freed_window_block_keeps_its_chunk(self):
        t = Translator({"groups": [{"kind": "FULL", "blockSize": 4}, {"kind": "SLIDING_WINDOW", "blockSize": 4,
                                                                       "slidingWindow": 8}]})
        a = match(t, "a", range(16))
        step(t, [{"request": a, "new": True, "block_ids": [[1, 2, 3, 4], [11, 12, 13, 14]]}], {"a": 16})
        t.feed({"call": "remove_skipped_blocks", "request_id": "a", "group": 1, "block_ids": [11]})
        # vLLM still stores chunk 0 of the window group from freed block 11 (contract 7.11, departure 1)
        step(t, [{"request": a, "block_ids": []}], {"a": 0},
             stores=[{"job_id": 0, "req_id": "a", "block_ids": [[1, 2, 3, 4], [11, 12, 13, 14]]}])
        store = [e for e in t.events if e["type"] == "StoreJobScheduled"][0]
        self.assertEqual([[0, 1, 2, 3], [0, 1, 2, 3]], store["chunkIndices"])

    def test_a_window_block_freed_before_a_preemption_gets_its_own_flush_when_handed_out_again(self):
        # contract 7.10, "Preemption after a free": the preemption flushes the store, the free's fence outlives it
        t = Translator({"groups": [{"kind": "FULL", "blockSize": 4}, {"kind": "SLIDING_WINDOW", "blockSize": 4,
                                                                       "slidingWindow": 8}]})
        a = match(t, "a", range(16))
        step(t, [{"request": a, "new": True, "block_ids": [[1, 2, 3, 4], [11, 12, 13, 14]]}], {"a": 16},
             stores=[{"job_id": 0, "req_id": "a", "block_ids": [[1, 2, 3, 4], [11, 12, 13, 14]]}])
        t.feed({"call": "remove_skipped_blocks", "request_id": "a", "group": 1, "block_ids": [11]})
        b = match(t, "b", range(100, 104))
        step(t, [{"request": b, "new": True, "block_ids": [[5], [11]]}], {"b": 4}, flush=[0], preempted=["a"])
        done(t, 0)
        t.release()
        kinds = [(e["type"], e.get("requestId"), e.get("blockIds")) for e in t.events]
        at = kinds.index(("BlocksAllocated", "b", [[5], [11]]))
        self.assertEqual(("FlushRequired", None, [11]), kinds[at - 1])
        with tempfile.TemporaryDirectory() as tmp:
            code, out, err = audit(self.write(t, tmp))
            self.assertNotIn("REUSE_WITHOUT_FLUSH", out)
            self.assertNotIn("FLUSH_MISMATCH", out)

    def test_allocations_follow_vllms_scheduling_order_so_a_gpu_hit_shares_blocks_allocated_before_it(self):
        # vLLM schedules the resumed request a (waiting queue) before the new request b, which then hits the window
        # blocks a was given; the scheduler output lists b (new) before a (cached): the log must not
        t = Translator({"groups": [{"kind": "FULL", "blockSize": 4}, {"kind": "SLIDING_WINDOW", "blockSize": 4,
                                                                       "slidingWindow": 16}]})
        a = match(t, "a", range(12))
        step(t, [{"request": a, "new": True, "block_ids": [[1], [11]]}], {"a": 4})
        step(t, preempted=["a"])
        t.feed({"call": "get_num_new_matched_tokens", "request": request("a", range(12)), "num_computed_tokens": 0,
                "result": [0, False]})
        b = match(t, "b", list(range(8)) + [100, 101, 102, 103], gpu=8)
        step(t, [{"request": b, "new": True, "block_ids": [[21, 22, 24], [31, 32, 34]]},
                 {"request": request("a", range(12)), "new": False, "resumed": True,
                  "block_ids": [[21, 22, 23], [31, 32, 33]]}], {"a": 12, "b": 4})
        allocated = [e["requestId"] for e in t.events if e["type"] == "BlocksAllocated"]
        self.assertEqual(["a", "a", "b"], allocated)
        with tempfile.TemporaryDirectory() as tmp:
            done = support.cli("audit", "--rules", "safety", self.write(t, tmp), check=False)
            self.assertEqual(0, done.returncode, done.stdout.decode() + done.stderr.decode())

    def test_a_final_store_the_cpu_manager_has_no_room_for_is_deferred_at_the_finish(self):
        t = Translator({"gpuBlockSize": 4, "cpuCapacityChunks": 2})
        a = match(t, "a", range(8))
        keys = [h + "00000000" for h in hashes(2, "a")]
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}], {"a": 8}, deferred=[["a", keys]])
        finish(t, "a", range(8), 8)
        step(t, finished=["a"], deferred=[["a", keys]])  # vLLM builds the final store a step later: no room again
        t.release()
        kinds = [e["type"] for e in t.events]
        self.assertEqual(["RequestFinished", "StoreDeferred", "BlocksReleased"], kinds[-3:],
                         "the contract's order of a finish's events")
        with tempfile.TemporaryDirectory() as tmp:
            done = support.cli("audit", "--rules", "safety", self.write(t, tmp), check=False)
            self.assertEqual(0, done.returncode, done.stdout.decode() + done.stderr.decode())

    def test_a_failed_load_ends_the_request_or_frees_it_for_recomputation(self):
        t = Translator({"gpuBlockSize": 4})
        a = match(t, "a", range(8))
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}], {"a": 8})
        # kv_load_failure_policy=recompute, or reset_prefix_cache(reset_running_requests=True) without the
        # connector's reset: vLLM freed a's blocks and looks it up again from nothing
        match(t, "a", range(8))
        self.assertEqual(["RequestPreempted", "BlocksReleased", "PrefixMatched"], types(t.events[-3:]))
        self.assertNotIn("TokensRejected", types(t.events))
        step(t, [{"request": request("a", range(8)), "new": True, "block_ids": [5, 6]}], {"a": 8}, preempted=["a"])
        self.assertEqual(1, types(t.events).count("RequestPreempted"), "the step's report of that preemption")
        # policy fail: the request ends in error, which is no normal finish
        finish(t, "a", range(8), 0, status="FINISHED_ERROR")
        self.assertEqual("AbortRequest", t.commands[-1]["cmd"])

    def test_a_reset_that_preempts_running_requests_writes_the_preemptions_first(self):
        t = Translator({"gpuBlockSize": 4})
        a = match(t, "a", range(8))
        step(t, [{"request": a, "new": True, "block_ids": [1, 2]}], {"a": 8})
        t.feed({"call": "reset_cache", "preempted": ["a"]})
        self.assertEqual(["RequestPreempted", "BlocksReleased", "CacheReset"], types(t.events[-3:]))
        match(t, "a", range(8))   # matched again in the next schedule(), which reports the preemption
        step(t, preempted=["a"])
        self.assertEqual(1, types(t.events).count("RequestPreempted"))
        self.assertNotIn("TokensRejected", types(t.events))

    def test_a_request_first_seen_mid_stream_is_recorded_not_a_stopped_capture(self):
        t = Translator({"gpuBlockSize": 4})
        t.feed({"call": "remove_skipped_blocks", "request_id": "s", "group": 0, "block_ids": [4]})
        s = request("s", range(8), 8, new_hashes=hashes(2, "s"))
        step(t, [{"request": s, "resumed": False, "block_ids": [7, 8, 9]}], {"s": 4})
        self.assertEqual(["RequestRegistered", "PrefixMatched", "BlocksAllocated", "TokensComputed"],
                         types(t.events[1:]))
        self.assertEqual(8, t.events[2]["gpuHitTokens"])

    def test_per_request_controls_are_registered_as_vllm_applies_them(self):
        scheduler = offloading_scheduler()
        req = StandInRequest("r", range(8), 4)
        req.kv_transfer_params = {"max_offload_tokens": 4, "max_load_tokens": 0}
        req.skip_reading_prefix_cache = True
        # the snapshot's vLLM reads max_offload_tokens only (max_load_tokens came with #55885)
        scheduler._req_status["r"] = SimpleNamespace(max_offload_tokens=4)
        snap = Expander().expand({"request": Recorder(scheduler).snapshot(req)})["request"]
        self.assertEqual({"maxOffloadTokens": 4, "skipReadingPrefixCache": True}, snap["controls"])
        req.kv_transfer_params = {"max_offload_tokens": "4", "max_load_tokens": 8}  # vLLM ignores "4"
        self.assertEqual({"maxLoadTokens": 8, "skipReadingPrefixCache": True},
                         Expander().expand({"request": Recorder().snapshot(req)})["request"]["controls"])
        t = Translator({"gpuBlockSize": 4})
        t.feed({"call": "get_num_new_matched_tokens", "request": snap, "num_computed_tokens": 0, "result": [0, False]})
        self.assertEqual({"cmd": "RegisterRequest", "requestId": "r", "promptTokens": list(range(8)),
                          "maxOffloadTokens": 4, "skipReadingPrefixCache": True}, t.commands[0])
        self.assertEqual(["requestId", "promptLength", "promptTokens", "maxOffloadTokens", "skipReadingPrefixCache"],
                         [k for k in t.events[1] if k not in ("seq", "type", "step")])


class ProductionTest(unittest.TestCase):

    def test_each_data_parallel_engine_has_its_own_folder(self):
        config = vllm_config(4, extra={"kvledger_capture_dir": "cap"})
        self.assertEqual("cap", engine_folder(config.kv_transfer_config.kv_connector_extra_config, config))
        config.parallel_config.data_parallel_size = 2
        config.parallel_config.data_parallel_rank = 1
        self.assertEqual("cap/dp1", engine_folder(config.kv_transfer_config.kv_connector_extra_config, config))

    def run_requests(self, writer, first, count, prompt=64):
        """Requests through the capture's writer thread: matched, prefilled with a store, finished, stored."""
        job = first
        for i in range(first, first + count):
            rid = "r%d" % i
            r = request(rid, range(i, i + prompt), new_hashes=hashes(prompt // 16, rid))
            writer.put({"call": "get_num_new_matched_tokens", "request": r, "num_computed_tokens": 0,
                        "result": [0, False]})
            blocks = [4 * (i % 50) + k + 1 for k in range(4)]
            writer.put({"call": "build_connector_meta", "scheduled": [{"request": {"request_id": rid}, "new": True,
                        "block_ids": blocks}], "num_scheduled_tokens": {rid: prompt},
                        "store_jobs": [{"job_id": job, "req_id": rid, "block_ids": blocks}]})
            writer.put({"call": "request_finished", "request": {"request_id": rid, "status": "FINISHED_STOPPED",
                                                                 "new_tokens": [1], "num_computed_tokens": prompt},
                        "result": [False, None]})
            writer.put({"call": "build_connector_meta", "scheduled": [], "num_scheduled_tokens": {},
                        "finished_req_ids": [rid]})
            writer.put({"call": "update_connector_output", "completed_jobs": {job: 1}})
            job += 1

    def test_memory_stays_flat_over_100k_requests(self):
        # Traced over the last 10,000 of 100,000 requests (tracing all of them takes minutes): what a request
        # leaves behind shows as growth between 95,000 and 100,000.
        with tempfile.TemporaryDirectory() as tmp:
            writer = CaptureWriter(tmp, {"gpuBlockSize": 16})
            try:
                self.run_requests(writer, 0, 90_000, prompt=16)
                self._settle(writer)
                tracemalloc.start()
                self.run_requests(writer, 90_000, 5_000, prompt=16)
                self._settle(writer)
                gc.collect()
                after_95k = tracemalloc.get_traced_memory()[0]
                self.run_requests(writer, 95_000, 5_000, prompt=16)
                self._settle(writer)
                gc.collect()
                after_100k = tracemalloc.get_traced_memory()[0]
            finally:
                tracemalloc.stop()
                writer.close()
            self.assertIsNone(writer.error)
            growth = after_100k - after_95k
            # before: every event and request kept (about 49 KB a request, the review measured): 5,000 requests
            # of 16 tokens here added some 20 MB
            self.assertLess(growth, 500_000, "%d bytes more after 5,000 more requests" % growth)
            self.assertEqual(100_000, sum(1 for e in read(tmp) if e["type"] == "RequestFinished"))

    @staticmethod
    def _settle(writer):
        import time
        while not writer._queue.empty():
            time.sleep(0.05)
        time.sleep(0.2)

    def test_rolled_segments_are_one_log_to_kvledgers_tools_and_the_parts_one_scenario(self):
        with tempfile.TemporaryDirectory() as tmp:
            writer = CaptureWriter(tmp, {"gpuBlockSize": 16}, segment_bytes=4096)
            for first in range(0, 60, 10):
                self.run_requests(writer, first, 10)
                self._settle(writer)   # a segment rolls at the end of a write
            writer.close()
            segments = sorted((Path(tmp) / "vllm-events").iterdir())
            self.assertGreater(len(segments), 3)
            first_seqs = [int(p.name[len("segment-"):-len(".jsonl")]) for p in segments]
            self.assertEqual(1, first_seqs[0])
            for path, seq in zip(segments, first_seqs):
                self.assertEqual(seq, support.read_log(path)[0]["seq"], "a segment is named after its first seq")
            code, out, err = audit(Path(tmp) / "vllm-events")
            self.assertEqual(0, code, out + err)
            parts = sorted((Path(tmp) / "commands").iterdir())
            self.assertGreater(len(parts), 1)
            scenario = Path(tmp) / "commands.jsonl"
            scenario.write_text("".join(p.read_text() for p in parts))
            run = Path(tmp) / "run.jsonl"
            support.cli("run", scenario, "-o", run)
            self.assertEqual(60, sum(1 for e in support.read_log(run) if e["type"] == "RequestFinished"))


class PackagingTest(unittest.TestCase):

    def test_pip_installs_the_package_and_its_vllm_plugin_entry_point_into_a_fresh_venv(self):
        import shutil
        import subprocess
        import sys
        here = Path(__file__).resolve().parent.parent
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "src"
            shutil.copytree(here, source, ignore=shutil.ignore_patterns("tests", "benchmarks", "__pycache__", "build",
                                                                        "*.egg-info"))
            venv = Path(tmp) / "venv"
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=600)
            python = venv / "bin" / "python"
            # as a vLLM user installs it; pip takes setuptools (the only build requirement) from its index
            done = subprocess.run([str(python), "-m", "pip", "install", "-q", str(source)],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
            self.assertEqual(0, done.returncode, done.stdout.decode())
            probe = ("from importlib.metadata import entry_points, requires\n"
                     "ep, = [e for e in entry_points(group='vllm.general_plugins') if e.name == 'kvledger_capture']\n"
                     "print(ep.value, ep.load().__module__, requires('kvledger'))\n"
                     "import kvledger, kvledger_capture.connector\n")
            done = subprocess.run([str(python), "-c", probe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=300, cwd=tmp)
            self.assertEqual(0, done.returncode, done.stdout.decode())
            self.assertEqual("kvledger_capture.plugin:register kvledger_capture.plugin None",
                             done.stdout.decode().strip(), "the entry point vLLM loads, and no dependency")


if __name__ == "__main__":
    unittest.main()
