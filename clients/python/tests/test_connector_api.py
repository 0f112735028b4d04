"""The capture connector against vLLM's connector API (the faithful stand-in of :mod:`tests.vllm_api`):
every member of ``KVConnectorBase_V1`` and ``SupportsHMA`` reaches the wrapped connector or is the
wrapper's own on purpose; the wrapper is ``SupportsHMA``; failures are logged once and leave readable files.
How a hybrid model's groups are recorded: :mod:`tests.test_capture_groups`."""

import inspect
import json
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

from kvledger_capture.connector import KvLedgerCaptureConnector

from .vllm_api import KVConnectorBase_V1, KVConnectorRole, SupportsHMA, public_members
from .vllm_standins import StandInBlocks, StandInRequest, kv_cache_config, vllm_config

MEMBERS = sorted(set(public_members(KVConnectorBase_V1)) | set(public_members(SupportsHMA)))


class _Answer:
    """A distinct value per member, so an answer can only have come from the spy."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "answer of %s" % self.name


def _spy_class():
    """A connector on the base whose every member records its call and answers its own value."""
    calls = []

    def method(name, static_kind):
        def call(self_or_cls, *args, **kwargs):
            calls.append((name, args, kwargs))
            return _Answer(name)
        return classmethod(call) if static_kind is classmethod else call

    body = {"calls": calls}
    for name in MEMBERS:
        static = inspect.getattr_static(KVConnectorBase_V1, name, None) or inspect.getattr_static(SupportsHMA, name)
        if isinstance(static, property):
            body[name] = property(lambda self, name=name: calls.append((name, (), {})) or _Answer(name))
        else:
            body[name] = method(name, classmethod if isinstance(static, classmethod) else None)

    def __init__(self, vllm_config, role, kv_cache_config=None):
        KVConnectorBase_V1.__init__(self, vllm_config, role, kv_cache_config)
    body["__init__"] = __init__
    return type("SpyConnector", (KVConnectorBase_V1, SupportsHMA), body)


def _arguments(name):
    """One distinct value per parameter of the base's member (keyword-only ones by name)."""
    static = inspect.getattr_static(KVConnectorBase_V1, name, None) or inspect.getattr_static(SupportsHMA, name)
    function = static.__func__ if isinstance(static, classmethod) else static
    params = list(inspect.signature(function).parameters.values())[1:]
    args = tuple(_Answer("arg %s.%s" % (name, p.name)) for p in params
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
    kwargs = {"extra": _Answer("kwarg")} if any(p.kind == p.VAR_KEYWORD for p in params) else {}
    return args, kwargs


class BaseConformanceTest(unittest.TestCase):

    def test_the_stand_in_has_the_members_of_vllms_base(self):
        # A few that the issue found answered by the base's defaults, and the two abstract sets.
        for name in ("bind_connector_metadata", "build_connector_worker_meta", "handle_preemptions",
                     "get_block_ids_with_load_errors", "has_pending_push_work", "bind_gpu_block_pool",
                     "on_new_request", "requires_kv_delivery", "prefer_cross_layer_blocks",
                     "build_kv_connector_stats", "build_prom_metrics", "request_finished_all_groups"):
            self.assertIn(name, MEMBERS)
        self.assertEqual({"start_load_kv", "wait_for_layer_load", "save_kv_layer", "wait_for_save",
                          "get_num_new_matched_tokens", "update_state_after_alloc", "build_connector_meta"},
                         set(KVConnectorBase_V1.__abstractmethods__))
        self.assertEqual({"request_finished_all_groups"}, set(SupportsHMA.__abstractmethods__))
        self.assertEqual(["request_finished_all_groups"], public_members(SupportsHMA), "vLLM's SupportsHMA: one member")

    def test_every_member_of_the_base_reaches_the_wrapped_connector_or_is_the_wrappers_own(self):
        spy = _spy_class()
        import tests.test_connector_api as here
        here.SpyConnector = spy
        config = vllm_config(4, extra={"kvledger_inner_connector": "tests.test_connector_api:SpyConnector"})
        wrapper = KvLedgerCaptureConnector(config, KVConnectorRole.WORKER, kv_cache_config())
        self.assertIsInstance(wrapper, KVConnectorBase_V1)
        own = KvLedgerCaptureConnector.OWN_MEMBERS
        for name in MEMBERS:
            with self.subTest(member=name):
                if name in own:
                    self.assertIn(name, vars(KVConnectorBase_V1), "an own member is one vLLM's base defines")
                    continue
                self.assertIn(name, vars(KvLedgerCaptureConnector), "defined by the wrapper, not left to the base")
                static = inspect.getattr_static(KVConnectorBase_V1, name, None) or inspect.getattr_static(SupportsHMA, name)
                del spy.calls[:]
                if isinstance(static, property):
                    answer, args, kwargs = getattr(wrapper, name), (), {}
                elif isinstance(static, classmethod):
                    args, kwargs = _arguments(name)
                    if name in ("get_required_kvcache_layout", "build_prom_metrics"):
                        args = (config,) + args[1:]
                    elif name == "requires_piecewise_for_cudagraph":
                        args = (config.kv_transfer_config.kv_connector_extra_config,)
                    answer = getattr(KvLedgerCaptureConnector, name)(*args, **kwargs)
                else:
                    args, kwargs = _arguments(name)
                    answer = getattr(wrapper, name)(*args, **kwargs)
                self.assertEqual([(name, args, kwargs)], spy.calls, "the call reached the wrapped connector as made")
                self.assertIsInstance(answer, _Answer)
                self.assertEqual(name, answer.name, "the wrapped connector's answer came back")
        self.assertEqual({"role"}, set(own), "only the role is the wrapper's own")
        self.assertIs(KVConnectorRole.WORKER, wrapper.role)

    def test_the_offloading_connectors_answers_not_the_bases(self):
        with tempfile.TemporaryDirectory() as tmp:
            config = vllm_config(4, extra={"kvledger_inner_connector": "tests.vllm_standins:RecordedOffloadingConnector",
                                           "kvledger_capture_dir": tmp})
            wrapper = KvLedgerCaptureConnector(config, KVConnectorRole.SCHEDULER, kv_cache_config())
            try:
                self.assertTrue(wrapper.prefer_cross_layer_blocks, "the offloading connector prefers cross-layer blocks")
                self.assertFalse(wrapper.requires_kv_delivery, "a cache: the base would say True for kv_both")
            finally:
                wrapper.shutdown()


class FailuresTest(unittest.TestCase):

    def _scheduler(self, folder, writer="process"):
        config = vllm_config(4, extra={"kvledger_inner_connector": "tests.vllm_standins:RecordedOffloadingConnector",
                                       "kvledger_capture_dir": str(folder), "kvledger_capture_writer": writer})
        return KvLedgerCaptureConnector(config, KVConnectorRole.SCHEDULER, kv_cache_config())

    def _drive(self, connector, first, count):
        for i in range(first, first + count):
            request = StandInRequest(str(i), [i, i + 1, i + 2, i + 3], 4)
            connector._inner.answer = (0, False)
            connector.get_num_new_matched_tokens(request, 0)
            connector._inner.answer = None
            connector.update_state_after_alloc(request, StandInBlocks([i]), 0)

    def test_a_translation_error_is_logged_once_with_the_seq_and_the_files_stay_readable(self):
        with tempfile.TemporaryDirectory() as tmp:
            connector = self._scheduler(Path(tmp))
            self._drive(connector, 0, 2)
            with self.assertLogs("kvledger_capture", level="ERROR") as logged:
                # A running request vLLM never showed the connector: the translator has no prompt for it.
                connector._inner.answer = SimpleNamespace(load_jobs={}, store_jobs={}, jobs_to_flush=set())
                connector.build_connector_meta(SimpleNamespace(
                    scheduled_new_reqs=[], num_scheduled_tokens={"ghost": 1}, finished_req_ids=set(),
                    scheduled_cached_reqs=SimpleNamespace(req_ids=["ghost"], new_block_ids=[([7],)])))
                self._drive(connector, 2, 3)   # later calls: ignored, never raised to the scheduler
                connector.shutdown()
            self.assertEqual(1, len(logged.records), logged.output)
            message = logged.records[0].getMessage()
            self.assertIn("build_connector_meta", message)
            self.assertIn("up to seq 5", message)
            self.assertIn("request ghost is first seen without its prompt", message)
            events = [json.loads(line) for line in (Path(tmp) / "vllm-events.jsonl").read_text().splitlines()]
            self.assertEqual(list(range(1, 6)), [e["seq"] for e in events], "whole records before the error")
            commands = [json.loads(line) for line in (Path(tmp) / "commands.jsonl").read_text().splitlines()]
            self.assertEqual(["RegisterRequest", "MatchPrefix"] * 2, [c["cmd"] for c in commands[1:]])

    def test_a_failure_at_the_first_record_is_logged_once_and_keeps_engine_configured(self):
        with tempfile.TemporaryDirectory() as tmp:
            connector = self._scheduler(Path(tmp))
            with self.assertLogs("kvledger_capture", level="ERROR") as logged:
                connector._inner.answer = SimpleNamespace(load_jobs={}, store_jobs={}, jobs_to_flush=set())
                connector.build_connector_meta(SimpleNamespace(
                    scheduled_new_reqs=[], num_scheduled_tokens={"ghost": 1}, finished_req_ids=set(),
                    scheduled_cached_reqs=SimpleNamespace(req_ids=["ghost"], new_block_ids=[([7],)])))
                connector.shutdown()
            self.assertEqual(1, len(logged.records), logged.output)
            self.assertIn("up to seq 1", logged.records[0].getMessage())
            events = [json.loads(line) for line in (Path(tmp) / "vllm-events.jsonl").read_text().splitlines()]
            self.assertEqual(["EngineConfigured"], [e["type"] for e in events])

    def test_a_write_failure_is_logged_once_and_the_scheduler_goes_on(self):
        with tempfile.TemporaryDirectory() as tmp:
            connector = self._scheduler(Path(tmp), writer="thread")  # its files are at hand in this process
            writer = connector._writer
            writer._events.close()
            writer._events = open("/dev/full", "w", encoding="utf-8")   # every write: ENOSPC
            with self.assertLogs("kvledger_capture", level="ERROR") as logged:
                self._drive(connector, 0, 3)
                connector.shutdown()
            self.assertEqual(1, len(logged.records), logged.output)
            self.assertIn("cannot write full", logged.records[0].getMessage())
            self.assertIn("No space left", logged.records[0].getMessage())

    def test_a_call_the_capture_cannot_copy_stops_it_not_the_scheduler(self):
        with tempfile.TemporaryDirectory() as tmp:
            connector = self._scheduler(Path(tmp))
            with self.assertLogs("kvledger_capture", level="ERROR") as logged:
                connector._inner.answer = (0, False)
                self.assertEqual((0, False), connector.get_num_new_matched_tokens(SimpleNamespace(request_id="x"), 0))
                connector.shutdown()
            self.assertEqual(1, len(logged.records))
            self.assertIn("cannot copy get_num_new_matched_tokens", logged.records[0].getMessage())


class HybridMemoryAllocatorTest(unittest.TestCase):

    def test_the_connector_is_hma_so_vllm_keeps_its_hybrid_kv_cache_manager(self):
        self.assertTrue(issubclass(KvLedgerCaptureConnector, SupportsHMA),
                        "without SupportsHMA vLLM turns the hybrid KV cache manager off: not the engine the user runs")
        self.assertEqual(set(), getattr(KvLedgerCaptureConnector, "__abstractmethods__", set()),
                         "every abstract member of the base and of SupportsHMA is defined")


if __name__ == "__main__":
    unittest.main()
