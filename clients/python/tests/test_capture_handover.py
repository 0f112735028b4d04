"""How the capture hands vLLM's calls over on the scheduler's thread (its cost there: docs/performance.md).

The step's running requests are copied in columns (:meth:`Recorder._running`): the translator must get exactly
the records the one-by-one copy gives, over many seeded workloads. A record never refers to a list vLLM changes
after the call. The writer process's pipe is written without blocking vLLM's thread, and what does not fit
(a writer process stopped by a real SIGSTOP here) reaches the files whole and in order.
"""

import enum
import json
import os
import random
import signal
import tempfile
import threading
import time
import unittest
from pathlib import Path
from types import SimpleNamespace

from kvledger_capture.connector import KvLedgerCaptureConnector
from kvledger_capture.records import Expander, Recorder
from kvledger_capture.writer import ProcessWriter, _json_lines

from .vllm_api import KVConnectorRole
from .vllm_standins import StandInBlocks, StandInRequest, kv_cache_config, vllm_config


class RequestStatus(enum.IntEnum):  # vLLM's: an enum, so the columns name it once for all
    WAITING = 0
    RUNNING = 1
    PREEMPTED = 2


class _Request:
    """vLLM's ``Request`` as the capture reads it: ``_all_token_ids`` behind ``num_tokens``, appended to."""

    def __init__(self, rid, prompt, status):
        self.request_id = rid
        self.prompt_token_ids = list(prompt)
        self._all_token_ids = list(prompt)
        self.block_hashes = [bytes([len(rid), i]) * 16 for i in range(len(prompt) // 4)]
        self.num_computed_tokens = 0
        self.status = status

    @property
    def num_tokens(self):
        return len(self._all_token_ids)


def _workload(seed, columns, steady=False):
    """The records of a seeded run of the scheduler-side calls, expanded as the writer process expands them;
    ``columns`` False copies the running requests one by one; ``steady``: the same requests in the same order
    for four steps out of five (arrivals and finishes only every fifth step), as a decoding batch runs."""
    rng = random.Random(seed)
    recorder = Recorder()
    if not columns:
        recorder._running = lambda cached: None
    expander = Expander()
    enum_status = seed % 3 != 0  # else a status that is no enum, as the stand-ins have
    live, out = {}, []
    for step in range(40):
        changes = not steady or step % 5 == 0
        for _ in range(rng.randint(0, 3) if changes else 0):  # arrivals
            rid = "r%d-%d" % (step, len(live))
            status = RequestStatus.WAITING if enum_status else SimpleNamespace(name="WAITING")
            request = live[rid] = _Request(rid, [rng.randint(1, 99) for _ in range(rng.randint(1, 12))], status)
            recorder.added(request)
            out.append(expander.expand(recorder.matched(request, 0, (0, False))))
        running = list(live.values())
        if not steady:
            rng.shuffle(running)
        for request in running:
            request.status = RequestStatus.RUNNING if enum_status else SimpleNamespace(name="RUNNING")
            if rng.random() < 0.1 and enum_status:
                request.status = RequestStatus.PREEMPTED  # one name each, not one for all
            grown = rng.choice([0, 1, 1, 1, 2, 5])
            request._all_token_ids.extend(rng.randint(1, 99) for _ in range(grown))
            while len(request.block_hashes) < request.num_tokens // 4:
                request.block_hashes.append(bytes([rng.randint(0, 255)]) * 8)
            request.num_computed_tokens = max(0, request.num_tokens - rng.choice([0, 1, 1, 3]))
        new = running[:rng.randint(0, min(2, len(running)))] if not steady else []
        cached = running[len(new):]
        entries = [rng.choice([None, None, ([rng.randint(1, 500)],), ([], [rng.randint(1, 500)]), ([],), ()])
                   for _ in cached]
        finished = set(rng.sample(sorted(live), min(len(live), rng.randint(0, 2) if changes else 0)))
        output = SimpleNamespace(
            scheduled_new_reqs=[SimpleNamespace(req_id=r.request_id, prompt_token_ids=r.prompt_token_ids,
                                                block_ids=([rng.randint(1, 500)],)) for r in new],
            scheduled_cached_reqs=SimpleNamespace(
                req_ids=[r.request_id for r in cached], new_block_ids=entries,
                resumed_req_ids={r.request_id for r in cached if rng.random() < 0.1}),
            num_scheduled_tokens={r.request_id: rng.randint(1, 4) for r in running},
            preempted_req_ids=set(), finished_req_ids=finished)
        meta = SimpleNamespace(load_jobs={}, store_jobs={}, jobs_to_flush=set())
        out.append(expander.expand(recorder.meta(output, meta)))
        for rid in finished:
            out.append(expander.expand(recorder.finished(live.pop(rid), (False, None))))
    return out


class RunningColumnsTest(unittest.TestCase):

    def test_the_columns_give_the_records_of_the_one_by_one_copy_over_many_seeds(self):
        for seed in range(60):
            with self.subTest(seed=seed):
                self.assertEqual(_workload(seed, columns=False), _workload(seed, columns=True))

    def test_a_steady_batch_reuses_the_last_steps_columns_and_gives_the_same_records(self):
        for seed in range(60):
            with self.subTest(seed=seed):
                self.assertEqual(_workload(seed, columns=False, steady=True), _workload(seed, columns=True, steady=True))

    def test_the_columns_are_what_a_decoding_step_takes(self):
        recorder = Recorder()
        requests = [_Request("r%d" % i, range(8), RequestStatus.RUNNING) for i in range(4)]
        for request in requests:
            recorder.added(request)
            recorder.snapshot(request)
            request._all_token_ids.append(7)
        cached = SimpleNamespace(req_ids=[r.request_id for r in requests], new_block_ids=[None, ([3],), None, None],
                                 resumed_req_ids=set())
        req_ids, statuses, computed, tokens, hashes, resumed, blocks = recorder._running(cached)
        self.assertEqual("RUNNING", statuses, "one name for all")
        self.assertEqual(([7, 7, 7, 7], None), tokens, "one token each, flat")
        self.assertEqual(([], []), hashes)
        self.assertEqual(([1], [([3],)]), blocks, "only the entries that are not None")

    def test_a_request_the_columns_cannot_copy_is_copied_one_by_one(self):
        recorder = Recorder()
        seen = _Request("seen", range(4), RequestStatus.RUNNING)
        recorder.added(seen)
        recorder.snapshot(seen)
        unseen = _Request("unseen", range(4), RequestStatus.RUNNING)
        recorder.added(unseen)
        self.assertIsNone(recorder._running(SimpleNamespace(req_ids=["seen", "unseen"], new_block_ids=[None, None])))
        record = Expander().expand(recorder.meta(SimpleNamespace(
            scheduled_new_reqs=[], num_scheduled_tokens={"seen": 1, "unseen": 4}, finished_req_ids=set(),
            scheduled_cached_reqs=SimpleNamespace(req_ids=["seen", "unseen"], new_block_ids=[None, None])), None))
        self.assertEqual(["seen", "unseen"], [e["request"]["request_id"] for e in record["scheduled"]])
        self.assertEqual(list(range(4)), record["scheduled"][1]["request"]["prompt_token_ids"])


class HandOverTest(unittest.TestCase):

    def _connector(self, folder, writer):
        config = vllm_config(4, extra={"kvledger_inner_connector": "tests.vllm_standins:RecordedOffloadingConnector",
                                       "kvledger_capture_dir": str(folder), "kvledger_capture_writer": writer})
        return KvLedgerCaptureConnector(config, KVConnectorRole.SCHEDULER, kv_cache_config())

    def test_a_record_never_refers_to_a_list_vllm_changes_after_the_call(self):
        for writer in ("process", "thread"):
            with self.subTest(writer=writer), tempfile.TemporaryDirectory() as tmp:
                connector = self._connector(Path(tmp), writer)
                request = StandInRequest("r", [1, 2, 3, 4], 4)
                connector._inner.answer = (0, False)
                connector.get_num_new_matched_tokens(request, 0)
                connector._inner.answer = None
                connector.update_state_after_alloc(request, StandInBlocks([]), 0)
                connector._inner.answer = SimpleNamespace(load_jobs={}, store_jobs={}, jobs_to_flush=set())
                connector.build_connector_meta(SimpleNamespace(
                    scheduled_new_reqs=[SimpleNamespace(req_id="r", prompt_token_ids=[1, 2, 3, 4], block_ids=([5],))],
                    scheduled_cached_reqs=SimpleNamespace(req_ids=[], new_block_ids=[]),
                    num_scheduled_tokens={"r": 4}, finished_req_ids=set()))
                request.num_computed_tokens = 4
                request.append([9])
                entry = ([6],)
                # vLLM's model runner takes a resumed request's new_block_ids as its table and extends it later
                connector.build_connector_meta(SimpleNamespace(
                    scheduled_new_reqs=[],
                    scheduled_cached_reqs=SimpleNamespace(req_ids=["r"], new_block_ids=[entry],
                                                          resumed_req_ids=set()),
                    num_scheduled_tokens={"r": 1}, finished_req_ids=set()))
                entry[0].extend([7, 8])
                connector.shutdown()
                allocated = [json.loads(line) for line in (Path(tmp) / "commands.jsonl").read_text().splitlines()
                             if '"AllocateBlocks"' in line]
                self.assertEqual([[5], [6]], [c["blockIds"] for c in allocated])


class JsonLinesTest(unittest.TestCase):

    def test_each_line_is_written_exactly_as_json_dumps_writes_it(self):
        rng = random.Random(5)
        alphabet = ["a", "\u00e9", "\u4e2d", "\U0001f600", "\"", "\\", "\n", "\x00", "/", " "]
        lines = []
        for seq in range(500):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
            lines.append({"seq": seq, "type": text, "keys": [text, None, True, False], "n": rng.randint(-2 ** 70, 2 ** 70),
                          "x": rng.uniform(-1e300, 1e300), "nested": {text: [[1, 2], {"k": 0.1}]}, "": []})
        self.assertEqual("".join(json.dumps(line) + "\n" for line in lines), _json_lines(lines))


class ProcessWriterPipeTest(unittest.TestCase):

    def test_a_stopped_writer_process_never_blocks_the_scheduler_and_gets_every_record_in_order(self):
        with tempfile.TemporaryDirectory() as tmp:
            writer = ProcessWriter(tmp, {"gpuBlockSize": 4})
            os.kill(writer._child.pid, signal.SIGSTOP)
            try:
                def steps():
                    for i in range(200):  # about 12 KB a record: the 1 MB pipe is full after about 90
                        writer.put({"call": "get_num_new_matched_tokens", "num_computed_tokens": 0, "result": [0, False],
                                    "request": {"request_id": "r%d" % i, "prompt_token_ids": list(range(4000))}})
                        writer.kick()
                scheduler = threading.Thread(target=steps)
                scheduler.start()
                scheduler.join(60)
                self.assertFalse(scheduler.is_alive(), "the scheduler's thread waited for the stopped writer process")
                self.assertGreater(writer.queued_bytes(), 0, "what the pipe had no room for waits for the sender")
            finally:
                os.kill(writer._child.pid, signal.SIGCONT)
            writer.close()
            self.assertIsNone(writer.error)
            commands = [json.loads(line) for line in (Path(tmp) / "commands.jsonl").read_text().splitlines()[1:]]
            self.assertEqual(["r%d" % i for i in range(200)],
                             [c["requestId"] for c in commands if c["cmd"] == "RegisterRequest"])

    def test_the_scheduler_thread_never_pickles_a_record(self):
        pickled_on = []

        class Record:  # pickles as a plain record, remembering which thread pickled it
            def __init__(self, i):
                self.i = i

            def __reduce__(self):
                pickled_on.append(threading.current_thread())
                return dict, ({"call": "get_num_new_matched_tokens", "num_computed_tokens": 0, "result": [0, False],
                               "request": {"request_id": "r%d" % self.i, "prompt_token_ids": [1, 2]}},)
        with tempfile.TemporaryDirectory() as tmp:
            writer = ProcessWriter(tmp, {"gpuBlockSize": 4})
            for i in range(3 * ProcessWriter.STEPS_PER_SEND + 1):
                writer.put(Record(i))
                writer.kick()
            writer.close()
            self.assertEqual(3 * ProcessWriter.STEPS_PER_SEND + 1, len(pickled_on))
            self.assertNotIn(threading.current_thread(), pickled_on)
            commands = [json.loads(line) for line in (Path(tmp) / "commands.jsonl").read_text().splitlines()[1:]]
            self.assertEqual(["r%d" % i for i in range(3 * ProcessWriter.STEPS_PER_SEND + 1)],
                             [c["requestId"] for c in commands if c["cmd"] == "RegisterRequest"])

    def test_records_no_step_followed_are_written_while_vllm_is_idle(self):
        with tempfile.TemporaryDirectory() as tmp:
            writer = ProcessWriter(tmp, {"gpuBlockSize": 4})
            try:
                writer.put({"call": "get_num_new_matched_tokens", "num_computed_tokens": 0, "result": [0, False],
                            "request": {"request_id": "idle", "prompt_token_ids": [1, 2]}})
                deadline = time.monotonic() + 60
                commands = Path(tmp) / "commands.jsonl"
                def written():
                    return commands.read_text() if commands.exists() else ""
                while '"idle"' not in written() and time.monotonic() < deadline:
                    time.sleep(0.05)
                self.assertIn('"RegisterRequest"', written(), "written with no kick and no close")
            finally:
                writer.close()


if __name__ == "__main__":
    unittest.main()
