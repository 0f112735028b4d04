"""Recordings of vLLM's real scheduler, replayed without vLLM: through the capture's translator and the audit.

Each ``vllm_recordings/*.records.jsonl`` is one workload of the conformance harness (``conformance/harness.py``
with ``--record``: vLLM's ``Scheduler`` or ``AsyncScheduler``, its ``KVCacheManager`` and ``OffloadingConnector``
with the CPU manager, wrapped by the capture): its first line the engine config the capture derived from vLLM's,
then every call record the scheduler-role capture copied out of vLLM, in order (:mod:`kvledger_capture.records`).
Replayed here through :class:`~kvledger_capture.translate.Translator` into the two files the capture writes,
the vLLM log is audited by the jar and the scenario run and diffed against it. Each ``.expect.json`` says what the
audit must show of it: the findings that are vLLM's own (vllm#54193: the final store at a finish includes the
last sampled token, whose KV slot no forward pass wrote), and the safety codes the capture's known faults still
give (``known_capture_faults``; each is a finding of the harness, docs/vllm-conformance.md): any other safety
finding fails.
"""

import json
import tempfile
import unittest
from pathlib import Path

from conformance import verdict
from kvledger_capture.translate import Translator

from . import support

RECORDINGS = Path(__file__).resolve().parent / "vllm_recordings"


def translate(recording, folder):
    """The capture's two files for a recording, as its writer thread writes them."""
    with open(recording, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    t = Translator(lines[0]["config"])
    for line in lines[1:]:
        t.feed(line["record"])
    t.release()
    folder.mkdir(parents=True, exist_ok=True)
    commands, events = folder / "commands.jsonl", folder / "vllm-events.jsonl"
    with open(commands, "w", encoding="utf-8") as f:
        f.write(json.dumps({"config": t.config}) + "\n")
        f.writelines(json.dumps(c) + "\n" for c in t.commands)
    with open(events, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(e) + "\n" for e in t.events[:t.ready])
    return commands, events, lines[0]


class VllmRecordingsTest(unittest.TestCase):

    def test_every_shape_of_the_harness_is_recorded(self):
        shapes = {json.loads(p.with_name(p.name.replace(".records.jsonl", ".expect.json")).read_text())["shape"]
                  for p in RECORDINGS.glob("*.records.jsonl")}
        self.assertEqual({"plain", "async", "hybrid_swa", "eagle", "chunked", "controls", "async_hybrid"}, shapes)

    def test_each_recording_audits_with_no_safety_finding_but_vllms_own_and_the_known_ones(self):
        recordings = sorted(RECORDINGS.glob("*.records.jsonl"))
        self.assertGreaterEqual(len(recordings), 7)
        for recording in recordings:
            expect = json.loads(recording.with_name(recording.name.replace(".records.jsonl", ".expect.json"))
                                .read_text())
            with self.subTest(recording=recording.name), tempfile.TemporaryDirectory() as tmp:
                commands, log, first = translate(recording, Path(tmp))
                events = support.read_log(log)
                self.assertEqual("EngineConfigured", events[0]["type"])
                self.assertEqual(list(range(1, len(events) + 1)), [e["seq"] for e in events])
                self.assertGreaterEqual(len({e["requestId"] for e in events if e["type"] == "RequestRegistered"}),
                                        expect.get("min_requests", 50))

                audit = support.cli("audit", log, check=False)
                out = audit.stdout.decode()
                self.assertIn(audit.returncode, (0, 1), out + audit.stderr.decode())
                findings = verdict.parse(out)
                unexplained = verdict.judge(findings, events)
                own = sorted({f["request"] for f in findings if f["vllm"] == "vllm#54193" and f["request"]}, key=int)
                self.assertEqual(expect["vllm#54193"], own,
                                 "the requests whose final store vLLM made past the computed KV (vllm#54193)")
                unknown = sorted({f["code"] for f in unexplained} - set(expect["known_capture_faults"]))
                self.assertEqual([], unknown, "safety findings that are neither vLLM's own nor a known fault: %s" % [
                    "seq %d %s %s" % (f["seq"], f["code"], f["reason"]) for f in unexplained
                    if f["code"] in unknown][:5])
                gone = sorted(set(expect["known_capture_faults"]) - {f["code"] for f in unexplained})
                self.assertEqual([], gone, "known capture faults this recording no longer shows: off its list")

                if expect["shape"] == "controls":  # one scenario run by kvledger and diffed, to keep the suite short
                    run_log = Path(tmp) / "run.jsonl"
                    support.cli("run", commands, "-o", run_log)
                    diff = support.cli("diff", run_log, log, check=False)
                    self.assertIn(diff.returncode, (0, 1), diff.stdout.decode() + diff.stderr.decode())

    def test_vllms_final_store_past_the_computed_kv_is_a_safety_finding_of_that_request(self):
        # plain: request 1 of the recording ends with a store of num_tokens tokens (vllm#54193).
        recording = next(p for p in sorted(RECORDINGS.glob("*.records.jsonl"))
                         if json.loads(p.with_name(p.name.replace(".records.jsonl", ".expect.json")).read_text())
                         ["vllm#54193"])
        with tempfile.TemporaryDirectory() as tmp:
            _, log, _ = translate(recording, Path(tmp))
            audit = support.cli("audit", log, check=False)
            self.assertEqual(1, audit.returncode)
            findings = [f for f in verdict.parse(audit.stdout.decode()) if f["code"] == "STORE_BEYOND_BOUND"]
            self.assertTrue(findings)
            self.assertTrue(all(f["class"] == "safety" for f in findings), findings)
            self.assertTrue(any(verdict.vllm_own(f) == "vllm#54193" for f in findings), findings)


def _logs(run_tail, vllm_tail):
    """Two logs of the same commands: a's store of two chunks, done, then each log's own tail (steps 1 and 2)."""
    def log(prefix, tail):
        head = [{"type": "EngineConfigured"},
                {"type": "TokensComputed", "requestId": "a", "numComputedTokens": 8},
                {"type": "StoreJobScheduled", "jobId": 0, "requestId": "a", "chunkIndices": [0, 1],
                 "keys": [prefix + "0", prefix + "1"], "blockIds": [1, 2]},
                {"type": "StoreJobCompleted", "jobId": 0, "requestId": "a", "success": True},
                {"type": "ChunksStored", "keys": [prefix + "0", prefix + "1"]},
                {"type": "TokensComputed", "requestId": "b", "numComputedTokens": 8}]
        events = head + [dict(e, keys=[prefix + k for k in e["keys"]]) if "keys" in e else e for e in tail]
        for i, e in enumerate(events):
            e.update(seq=i + 1, step=1 if i < 6 else 2)
        return events

    def text(events):
        return "\n".join("    %sseq %d %s" % ("  then " if e["type"] not in ("TokensComputed",) else "", e["seq"],
                                                e["type"]) for e in events[5:])

    run, vllm = log("r", run_tail), log("v", vllm_tail)
    diff = "first disagreement at unit 5 (scheduler step 2 of the capture)\n  run.jsonl:\n%s\n  vllm-events.jsonl:\n%s" % (
        text(run), text(vllm))
    return diff, run, vllm


def _step_logs(head, run_tail, vllm_tail):
    """Two logs that agree on ``head`` (step 1) and part in step 2 (``run_tail`` kvledger's run, ``vllm_tail`` vLLM's
    log), with the diff's text of that step; a grouped engine (a full-attention group and a sliding-window one)."""
    config = {"type": "EngineConfigured", "gpuBlockSize": 4, "blocksPerChunk": 1, "cpuCapacityChunks": 5,
              "groups": [{"kind": "FULL", "blockSize": 4}, {"kind": "SLIDING_WINDOW", "blockSize": 4,
                                                                "slidingWindow": 8}]}
    head = [dict(config, **head[0])] + head[1:] if head and head[0]["type"] == "EngineConfigured" else [config] + head
    run, vllm = [dict(e) for e in head + run_tail], [dict(e) for e in head + vllm_tail]
    for events in (run, vllm):
        for i, e in enumerate(events):
            e.update(seq=i + 1, step=1 if i < len(head) else 2)
    text = lambda events: "\n".join("    seq %d %s x" % (e["seq"], e["type"]) for e in events[len(head):])
    diff = "first disagreement at unit 4 (scheduler step 2 of the capture)\n  run.jsonl:\n%s\n" \
           "  vllm-events.jsonl:\n%s" % (text(run), text(vllm))
    return diff, run, vllm


class VerdictTest(unittest.TestCase):
    """The harness's reading of audit lines (contract 9.2's classes, vLLM's own fault, 7.11's departures) and of
    the diff's first difference."""

    def test_a_first_difference_of_evictions_only_is_the_eviction_order(self):
        diff, run, vllm = _logs([{"type": "ChunksEvicted", "keys": ["0", "1"]}],
                                [{"type": "ChunksEvicted", "keys": ["1", "0"]}])
        first = verdict.first_difference(1, diff, run, vllm, [])
        self.assertEqual((["eviction order"], []), (first["kinds"], first["unnamed"]))

    def test_a_store_only_vllm_makes_is_unnamed_unless_the_audit_names_it_vllms_own(self):
        store = {"type": "StoreJobScheduled", "jobId": 1, "requestId": "b", "chunkIndices": [1], "keys": ["b1"],
                 "blockIds": [4]}
        diff, run, vllm = _logs([{"type": "ChunksEvicted", "keys": ["0"]}],
                                [{"type": "ChunksEvicted", "keys": ["1"]}, store])
        first = verdict.first_difference(1, diff, run, vllm, [])
        # a store no kind explains, and the evictions beside it are not only an order then
        self.assertEqual({"vllm seq 8 StoreJobScheduled", "vllm seq 7 ChunksEvicted", "kvledger seq 7 ChunksEvicted"},
                         set(first["unnamed"]))
        own = {"seq": 8, "code": "STORE_BEYOND_BOUND", "vllm": "vllm#54193", "departure": None}
        first = verdict.first_difference(1, diff, run, vllm, [own])
        self.assertEqual((["eviction order", "vllm#54193"], []), (first["kinds"], first["unnamed"]))

    def test_a_flush_of_the_same_jobs_naming_more_of_their_blocks_is_the_flush_blocks_policy(self):
        diff, run, vllm = _logs([{"type": "FlushRequired", "jobIds": [0], "blockIds": [2]}],
                                [{"type": "FlushRequired", "jobIds": [0], "blockIds": [1, 2]}])
        first = verdict.first_difference(1, diff, run, vllm, [])
        self.assertEqual((["flush blocks"], []), (first["kinds"], first["unnamed"]))
        diff, run, vllm = _logs([{"type": "FlushRequired", "jobIds": [0], "blockIds": [2]}],
                                [{"type": "FlushRequired", "jobIds": [0], "blockIds": [1]}])
        self.assertEqual([], verdict.first_difference(1, diff, run, vllm, [])["kinds"], "the block handed out unflushed")

    def test_a_flush_vllm_makes_for_a_hit_sharing_a_held_window_block_is_7_11_1_and_after_its_free_is_not(self):
        # async_hybrid-0070 of the harness: request 1's GPU-prefix hit (24 tokens) shares blocks 7 and 8 of the
        # window group, sources of request 0's store (job 0) that request 0 still holds; vLLM flushes job 0
        def logs(owner_frees, hit_tokens=24):
            head = [{"type": "EngineConfigured", "groups": [{"kind": "FULL", "blockSize": 8},
                                                             {"kind": "SLIDING_WINDOW", "blockSize": 8}]},
                    {"type": "BlocksAllocated", "requestId": "0", "blockIds": [[1, 2, 3, 4], [6, 7, 8, 9]]},
                    {"type": "StoreJobScheduled", "jobId": 0, "requestId": "0", "chunkIndices": [[0, 1, 2, 3]] * 2,
                     "keys": [["f0", "f1", "f2", "f3"], ["w0", "w1", "w2", "w3"]], "blockIds": [[1, 2, 3, 4], [6, 7, 8, 9]]}]
            head += [{"type": "WindowBlocksFreed", "requestId": "0", "blockIds": [[], [6, 7, 8]]}] if owner_frees else []
            head += [{"type": "PrefixMatched", "requestId": "1", "gpuHitTokens": hit_tokens, "externalTokens": 0,
                      "hitChunks": [[], []]}]
            allocation = {"type": "BlocksAllocated", "requestId": "1", "blockIds": [[1, 2, 3, 11], [None, 7, 8, 13]]}
            flush = {"type": "FlushRequired", "jobIds": [0], "blockIds": [1, 2, 3, 7, 8]}
            run, vllm = head + [allocation], head + [flush, allocation]
            for events in (run, vllm):
                for i, e in enumerate(events):
                    e.update(seq=i + 1, step=1 if i < len(head) else 2)
            run, vllm = [dict(e) for e in run], [dict(e) for e in vllm]
            text = lambda events: "\n".join("    seq %d %s x" % (e["seq"], e["type"]) for e in events[len(head):])
            diff = "first disagreement at unit 4 (scheduler step 2 of the capture)\n  run.jsonl:\n%s\n" \
                   "  vllm-events.jsonl:\n%s" % (text(run), text(vllm))
            return verdict.first_difference(1, diff, run, vllm, [])
        first = logs(owner_frees=False)
        self.assertEqual((["7.11.1"], []), (first["kinds"], first["unnamed"]))
        freed = logs(owner_frees=True)
        self.assertEqual(([], ["vllm seq 6 FlushRequired"]), (freed["kinds"], freed["unnamed"]), "the rules fence it too")
        no_hit = logs(owner_frees=False, hit_tokens=8)
        self.assertEqual([], no_hit["kinds"], "the hit holds no window block of the store")

    def test_a_final_offer_vllm_defers_where_the_rules_store_one_chunk_less_within_the_computed_kv_is_vllm_54193(self):
        # async-0205 of the harness: request 3 finished with 24 tokens of which 23 computed; vLLM's final offer names
        # chunk 5 (tokens 20 to 23) too and has no room for six chunks; the rules store five, evicting for them
        def first(vllm_chunks, rule_chunks):
            finish = {"type": "RequestFinished", "requestId": "b", "reason": "LENGTH"}
            diff, run, vllm = _logs(
                [finish, {"type": "ChunksEvicted", "keys": ["0"]},
                 {"type": "StoreJobScheduled", "jobId": 1, "requestId": "b", "chunkIndices": rule_chunks,
                  "keys": ["b%d" % c for c in rule_chunks], "blockIds": [5 + c for c in rule_chunks]}],
                [finish, {"type": "StoreDeferred", "requestId": "b", "chunkIndices": vllm_chunks, "reason": "TIER_FULL"}])
            for events in (run, vllm):
                events[0].update(gpuBlockSize=4, blocksPerChunk=1)  # b computed 8 tokens: chunks 0 and 1
            return verdict.first_difference(1, diff, run, vllm, [])
        named = first([0, 1, 2], [0, 1])
        self.assertEqual((["eviction order", "vllm#54193"], []), (named["kinds"], named["unnamed"]))
        within = first([0, 1], [0])
        self.assertEqual([], within["kinds"], "chunk 1 lies within the computed tokens: no vllm#54193 there")
        two_more = first([0, 1, 2], [0])
        self.assertEqual([], two_more["kinds"], "two chunks more is not the one chunk of vllm#54193")

    def test_the_rules_side_of_a_store_vllm_makes_otherwise_takes_the_kind_vllms_side_has(self):
        # async_hybrid-0035 of the harness: vLLM's store of request b from freed window blocks (7.11.1, the audit
        # names it) and the rules' store of the same request without them
        def first(rule_chunks):
            diff, run, vllm = _logs(
                [{"type": "StoreJobScheduled", "jobId": 1, "requestId": "b", "chunkIndices": rule_chunks,
                  "keys": ["b%d" % c for c in rule_chunks], "blockIds": [5 + c for c in rule_chunks]}],
                [{"type": "StoreJobScheduled", "jobId": 1, "requestId": "b", "chunkIndices": [0, 1, 2],
                  "keys": ["b0", "b1", "b2"], "blockIds": [5, 6, 7]}])
            departure = {"seq": 7, "code": "STORE_BEYOND_ALLOCATED", "vllm": None, "departure": "7.11.1 (a store "
                         "from a freed sliding-window block)"}
            return verdict.first_difference(1, diff, run, vllm, [departure])
        named = first([1, 2])
        self.assertEqual((["7.11.1"], []), (named["kinds"], named["unnamed"]))
        other = first([1, 2, 3])
        self.assertEqual(["kvledger seq 7 StoreJobScheduled"], other["unnamed"], "chunk 3 is none vLLM's store names")

    def test_a_store_of_chunks_the_rules_evicted_in_the_step_and_vllm_did_not_is_the_eviction_order(self):
        # async_hybrid-0077 and eagle-0081 of the harness: the rules evict request a's chunk 0 for a store of the step
        # where vLLM evicts chunk 1, and then store chunk 0 again for request c, which shares a's prefix; vLLM's tier
        # still holds it, so vLLM's store of c leaves it out (or vLLM makes none)
        def first(rule_evicts, vllm_evicts, rule_chunks=(0, 1), vllm_chunks=(1,)):
            def store(chunks):
                return [{"type": "StoreJobScheduled", "jobId": 1, "requestId": "c", "chunkIndices": list(chunks),
                         "keys": ["0" if c == 0 else "c%d" % c for c in chunks], "blockIds": [7 + c for c in chunks]}]
            diff, run, vllm = _logs([{"type": "ChunksEvicted", "keys": rule_evicts}] + store(rule_chunks),
                                    [{"type": "ChunksEvicted", "keys": vllm_evicts}] + (store(vllm_chunks)
                                                                                        if vllm_chunks else []))
            return verdict.first_difference(1, diff, run, vllm, [])
        named = first(["0"], ["1"])
        self.assertEqual((["eviction order"], []), (named["kinds"], named["unnamed"]))
        none = first(["0"], ["1"], rule_chunks=(0,), vllm_chunks=())
        self.assertEqual((["eviction order"], []), (none["kinds"], none["unnamed"]), "vLLM makes no store at all")
        kept = first(["1"], ["1"])
        self.assertIn("kvledger seq 8 StoreJobScheduled", kept["unnamed"], "the rules did not evict chunk 0 in the step")
        both = first(["0"], ["0", "1"])
        self.assertIn("vllm seq 8 StoreJobScheduled", both["unnamed"], "vLLM evicted chunk 0 too and does not store it")

    def test_an_offer_vllm_makes_without_window_chunks_a_hit_of_the_step_shares_is_7_11_1(self):
        # async_hybrid-0091 and hybrid_swa-0192 of the harness: request 1 freed window block 20 (chunk 0) and still
        # holds 21 and 22, which request 2's GPU-prefix hit of the step shares; vLLM zeroes their ids in request 1's
        # pending positions and offers freed chunk 0, the rules offer chunks 1 to 3
        def first(hit_tokens=12, vllm_window=(0, 3), store=False):
            head = [{"type": "EngineConfigured"},
                    {"type": "BlocksAllocated", "requestId": "1", "blockIds": [[10, 11, 12, 13], [20, 21, 22, 23]]},
                    {"type": "WindowBlocksFreed", "requestId": "1", "blockIds": [[], [20]]},
                    {"type": "PrefixMatched", "requestId": "2", "gpuHitTokens": hit_tokens, "externalTokens": 0,
                     "hitChunks": [[], []]}]
            allocation = {"type": "BlocksAllocated", "requestId": "2", "blockIds": [[10, 11, 12, 30],
                                                                                  [None, 21, 22, 31]]}
            def deferral(window):  # or its store (async_hybrid-0320), of chunks the tier lacks
                if not store:
                    return {"type": "StoreDeferred", "requestId": "1", "chunkIndices": [[0, 1, 2, 3], list(window)],
                            "reason": "TIER_FULL"}
                return {"type": "StoreJobScheduled", "jobId": 0, "requestId": "1",
                        "chunkIndices": [[0, 1, 2, 3], list(window)],
                        "keys": [["f%d" % c for c in range(4)], ["w%d" % c for c in window]],
                        "blockIds": [[10, 11, 12, 13], [20 + c for c in window]]}
            diff, run, vllm = _step_logs(head, [deferral((1, 2, 3)), allocation],
                                         [deferral(vllm_window), allocation])
            return verdict.first_difference(1, diff, run, vllm, [])
        named = first()
        self.assertEqual((["7.11.1"], []), (named["kinds"], named["unnamed"]))
        no_hit = first(hit_tokens=4)
        self.assertEqual([], no_hit["kinds"], "the hit shares none of request 1's window blocks")
        unshared = first(vllm_window=(0,))
        self.assertEqual([], unshared["kinds"], "block 23 of chunk 3 is none the hit shares")
        stored = first(store=True)
        self.assertEqual((["7.11.1"], []), (stored["kinds"], stored["unnamed"]))
        self.assertEqual([], first(store=True, hit_tokens=4)["kinds"], "the hit shares none of request 1's window blocks")

    def test_an_offer_the_rules_defer_for_the_room_their_side_of_a_7_11_1_store_took_is_7_11_1(self):
        # async_hybrid-0049 of the harness: vLLM defers request 1's offer of six chunks (window chunks 0 and 1 from
        # blocks the log freed, 7.11.1), the rules store four; then vLLM stores request 3's four chunks in a tier of
        # five, where the rules' tier lacks the room their store of request 1 took
        def first(capacity=5, freed=True):
            head = [{"type": "EngineConfigured", "cpuCapacityChunks": capacity},
                    {"type": "BlocksAllocated", "requestId": "1", "blockIds": [[1, 2, 3], [4, 5, 6]]}]
            head += [{"type": "WindowBlocksFreed", "requestId": "1", "blockIds": [[], [4, 5]]}] if freed else []
            allocation = {"type": "BlocksAllocated", "requestId": "3", "blockIds": [[7, 8], [9, 10]]}
            store = lambda rid, chunks, blocks: {
                "type": "StoreJobScheduled", "jobId": 0, "requestId": rid, "chunkIndices": chunks,
                "keys": [["%s-%d-%d" % (rid, g, c) for c in cs] for g, cs in enumerate(chunks)], "blockIds": blocks}
            run = [store("1", [[0, 1, 2], [2]], [[1, 2, 3], [6]]), allocation,
                   {"type": "StoreDeferred", "requestId": "3", "chunkIndices": [[0, 1], [0, 1]], "reason": "TIER_FULL"}]
            vllm = [{"type": "StoreDeferred", "requestId": "1", "chunkIndices": [[0, 1, 2], [0, 1, 2]],
                     "reason": "TIER_FULL"}, allocation, store("3", [[0, 1], [0, 1]], [[7, 8], [9, 10]])]
            diff, run, vllm = _step_logs(head, run, vllm)
            return verdict.first_difference(1, diff, run, vllm, [])
        named = first()
        self.assertEqual((["7.11.1"], []), (named["kinds"], named["unnamed"]))
        roomy = first(capacity=9)
        self.assertEqual({"vllm seq 6 StoreJobScheduled", "kvledger seq 6 StoreDeferred"}, set(roomy["unnamed"]),
                         "a tier of nine has the room for both: the rules' deferral is not that room")
        held = first(freed=False)
        self.assertIn("kvledger seq 5 StoreDeferred", held["unnamed"], "request 1's store is no 7.11.1 one (no free, "
                      "one event less)")

    def test_a_lookup_vllm_defers_for_a_chunk_being_written_where_the_rules_answer_is_7_11_2(self):
        diff, run, vllm = _logs(
            [{"type": "PrefixMatched", "requestId": "c", "gpuHitTokens": 0, "externalTokens": 0, "hitChunks": []}],
            [{"type": "PrefixMatchDeferred", "requestId": "c", "gpuHitTokens": 0, "reason": "CHUNK_WRITE_IN_FLIGHT"}])
        first = verdict.first_difference(1, diff, run, vllm, [])
        self.assertEqual((["7.11.2"], []), (first["kinds"], first["unnamed"]))
        agree = verdict.first_difference(0, "the logs agree: 7 units", run, run, [])
        self.assertEqual(["agree"], agree["kinds"])

    def test_classes_follow_the_contracts_table_and_its_three_mixed_codes(self):
        self.assertEqual("safety", verdict.classify("TIER_OVER_CAPACITY", "the tier holds 44 chunks"))
        self.assertEqual("policy", verdict.classify("EVICTION_NOT_LRU", "x"))
        self.assertEqual("policy", verdict.classify("MATCH_MISMATCH", "the rules give PrefixMatched ..."))
        self.assertEqual("safety", verdict.classify("MATCH_MISMATCH", "a hit for a request whose "
                                                                       "skipReadingPrefixCache is true"))
        self.assertEqual("policy", verdict.classify("STORE_BEYOND_BOUND", "past the request's maxOffloadTokens"))

    def test_a_finish_store_one_token_past_the_computed_kv_is_vllm_54193_and_nothing_else_is(self):
        line = ("seq 29 STORE_BEYOND_BOUND request 1: job 5 stores chunks [2] (up to token 24) past the token bound "
                "O=23 of request 1 (FINISHED), where c=23, n=24")
        finding, = verdict.parse(line)
        self.assertEqual(("1", "safety", "vllm#54193"), (finding["request"], finding["class"],
                                                         verdict.vllm_own(finding)))
        running = line.replace("(FINISHED), where c=23", "(RUNNING), where c=23")
        self.assertIsNone(verdict.vllm_own(verdict.parse(running)[0]))
        two_short = line.replace("c=23, n=24", "c=22, n=24")
        self.assertIsNone(verdict.vllm_own(verdict.parse(two_short)[0]))

    def test_a_store_from_a_freed_window_block_is_departure_1_and_from_a_held_one_is_not(self):
        events = [{"seq": 1, "type": "WindowBlocksFreed", "requestId": "4", "blockIds": [[], [41, 2]]},
                  {"seq": 2, "type": "StoreJobScheduled", "requestId": "4", "blockIds": [[9, 10], [2, 45]]},
                  {"seq": 3, "type": "StoreJobScheduled", "requestId": "4", "blockIds": [[11], [46]]}]
        finding, = verdict.parse("seq 2 STORE_SLICE_MISMATCH request 4: job 8 names 1 chunks ...")
        self.assertIn("7.11.1", verdict.departure(finding, events))
        finding, = verdict.parse("seq 3 STORE_SLICE_MISMATCH request 4: job 9 names ...")
        self.assertIsNone(verdict.departure(finding, events))

    def test_a_store_of_a_request_finished_while_preempted_is_vllms_and_one_after_its_resumption_is_not(self):
        # async-0135 of the harness: request 17 preempted, then finished by a step's late output; vLLM's final store
        # reads the block its preemption freed
        events = [{"seq": 643, "type": "RequestPreempted", "requestId": "17"},
                  {"seq": 644, "type": "BlocksReleased", "requestId": "17", "blockIds": [18, 2, 35]},
                  {"seq": 669, "type": "RequestFinished", "requestId": "17", "reason": "STOPPED"},
                  {"seq": 671, "type": "StoreJobScheduled", "requestId": "17", "blockIds": [35]}]
        lines = ("seq 671 STORE_BEYOND_BOUND request 17: job 42 stores chunks [2] (up to token 24) past the token bound "
                 "O=0 of request 17 (FINISHED, retired: no blocks, no jobs), where c=0 (the state keeps no tokens for "
                 "it)\nseq 671 STORE_BEYOND_ALLOCATED request 17: job 42 reads blocks [35], but request 17 (FINISHED, "
                 "retired: no blocks, no jobs) holds no blocks")
        eviction = ("seq 670 EVICTION_INVALID: the log shows ChunksEvicted {keys=[9a86432d...]}, which the rules do "
                    "not give here: no store of this command needs the room\n")
        findings = verdict.parse(eviction + lines)
        self.assertEqual([], verdict.judge(findings, events))
        self.assertEqual([verdict.PREEMPTED_FINISH] * 3, [f["vllm"] for f in findings], "the store and its room")
        resumed = events[:2] + [{"seq": 650, "type": "BlocksAllocated", "requestId": "17", "blockIds": [35]}] + events[2:]
        findings = verdict.parse(lines)
        self.assertEqual(2, len(verdict.judge(findings, resumed)), "a store after the resumption is not explained")

    def test_the_eviction_for_a_chunk_stored_again_after_a_shorter_reload_is_departure_7(self):
        # eagle-0165 of the harness: request 52's chunk 2, stored before its preemption and evicted since, stored
        # again after a reload of chunk 1 only; vLLM evicts for it where the rules make no store
        lines = ("seq 1781 EVICTION_INVALID: the log shows ChunksEvicted {keys=[fe75e893.../g1]}, which the rules do "
                 "not give here: no store of this command needs the room\n"
                 "seq 1782 DUPLICATE_STORE request 52: job 148 stores chunks [2] of group 0, which request 52 already "
                 "stored since the last reset")
        findings = verdict.parse(lines)
        self.assertEqual([], verdict.judge(findings, []))
        self.assertEqual(verdict.RESTORE, findings[0]["departure"])
        alone = verdict.parse(lines.splitlines()[0])
        self.assertEqual(1, len(verdict.judge(alone, [])), "an eviction no store of the log needs stays a finding")


    def test_a_tier_finding_after_a_final_store_vllm_built_a_step_later_is_departure_5_and_without_it_is_not(self):
        # request 3's final store at its finish in step 7; vLLM built it in step 8, after request 5's store
        def log(other_store_step):
            return [{"seq": 1, "type": "RequestFinished", "requestId": "3", "step": 7},
                    {"seq": 2, "type": "StoreJobScheduled", "jobId": 8, "requestId": "3", "step": 7},
                    {"seq": 3, "type": "ChunksEvicted", "step": 8},
                    {"seq": 4, "type": "StoreJobScheduled", "jobId": 9, "requestId": "5", "step": other_store_step},
                    {"seq": 5, "type": "ChunksEvicted", "step": 11},
                    {"seq": 6, "type": "StoreJobScheduled", "jobId": 10, "requestId": "5", "step": 11}]
        lines = ("seq 3 EVICTION_INVALID request -: the log shows ChunksEvicted {keys=[1b92fb48...]}, which the "
                 "rules do not give here: no store of this command needs the room\n"
                 "seq 5 EVICTION_INVALID request -: the log shows ChunksEvicted {keys=[ce68d326...]}, which the "
                 "rules do not give here: no store of this command needs the room")
        findings = verdict.parse(lines)
        unexplained = verdict.judge(findings, log(other_store_step=8))
        self.assertEqual([verdict.LATE_FINAL_STORE, None], [f["departure"] for f in findings])
        self.assertEqual([5], [f["seq"] for f in unexplained], "step 11 is past the window (steps 8 and 9)")
        findings = verdict.parse(lines)  # no other store in the step vLLM builds the final one in: no such departure
        self.assertEqual([3, 5], [f["seq"] for f in verdict.judge(findings, log(other_store_step=10))])

    def test_an_eviction_while_vllm_holds_chunks_of_a_final_store_it_stored_again_is_departure_5(self):
        # async_hybrid-0126 of the harness: f's final store, at its finish in step 5, names a0 (held: a stored it)
        # and f2; vLLM built it in step 6, after n's store, which evicted a0, so f's store wrote a0 again. From then
        # on vLLM's tier holds a0 and the log's does not, until vLLM evicts a0 again (step 10).
        def log(evicted_in_step=6, a_stored=True):
            return [{"seq": 1, "type": "StoreJobScheduled", "jobId": 0, "requestId": "a",
                     "keys": ["a0"] if a_stored else ["a9"], "step": 1},
                    {"seq": 2, "type": "RequestFinished", "requestId": "f", "step": 5},
                    {"seq": 3, "type": "StoreJobScheduled", "jobId": 1, "requestId": "f", "keys": ["a0", "f2"],
                     "step": 5},
                    {"seq": 4, "type": "ChunksEvicted", "keys": ["a0"], "step": evicted_in_step},
                    {"seq": 5, "type": "StoreJobScheduled", "jobId": 2, "requestId": "n", "keys": ["n0"], "step": 6},
                    {"seq": 6, "type": "ChunksEvicted", "keys": ["b0"], "step": 8},
                    {"seq": 7, "type": "ChunksEvicted", "keys": ["a0"], "step": 10},
                    {"seq": 8, "type": "ChunksEvicted", "keys": ["c0"], "step": 11}]
        lines = "\n".join("seq %d EVICTION_INVALID request -: the log shows ChunksEvicted {keys=[%s...]}, which the "
                          "rules do not give here: no store of this command needs the room" % (seq, key)
                          for seq, key in ((6, "b0"), (7, "a0"), (8, "c0")))
        findings = verdict.parse(lines)
        self.assertEqual([8], [f["seq"] for f in verdict.judge(findings, log())], "after a0's second eviction: none")
        self.assertEqual([verdict.RESTORED_FINAL_STORE] * 2 + [None], [f["departure"] for f in findings])
        for near_miss in (log(evicted_in_step=7), log(a_stored=False)):
            # a0 evicted after vLLM built f's store (step 7), or not held at f's store (f's store wrote it): the
            # tiers agree, and the three stay findings
            self.assertEqual([6, 7, 8], [f["seq"] for f in verdict.judge(verdict.parse(lines), near_miss)])
        two = lines.replace("keys=[b0...]", "keys=[b0..., b1...]")
        self.assertEqual([6, 8], [f["seq"] for f in verdict.judge(verdict.parse(two), log())],
                         "two victims more than the rules give, where vLLM's tier holds one chunk more than the log's")

    def test_an_eviction_for_chunks_of_freed_window_blocks_only_vllm_stores_is_departure_1(self):
        # async_hybrid-0112 of the harness: request 56's store names two chunks of group 1 from window blocks the
        # log freed for it (7.11.1); the rules store six chunks, vLLM eight, and evicts two more for them
        events = [{"seq": 5, "type": "WindowBlocksFreed", "requestId": "56", "blockIds": [[], [92, 24]]},
                  {"seq": 11, "type": "StoreJobScheduled", "jobId": 104, "requestId": "56",
                   "blockIds": [[19, 7, 49, 40], [92, 24, 3, 53]]}]
        store = ("seq 11 STORE_BEYOND_ALLOCATED request 56: job 104 reads block 92 for chunk 2 of group 1, but that "
                 "entry of the table is null (freed or never backed)")

        def eviction(extra):
            log_keys = ["k%d..." % i for i in range(6 + extra)]
            return ("seq 10 EVICTION_INVALID request -: the rules give ChunksEvicted {keys=[%s]}, the log shows "
                    "ChunksEvicted {keys=[%s]}: an eviction takes only ready, unpinned chunks outside the offer, and "
                    "no more than it needs\n" % (", ".join(log_keys[:6]), ", ".join(log_keys)))
        findings = verdict.parse(eviction(2) + store)
        self.assertEqual([], verdict.judge(findings, events))
        self.assertEqual(verdict.FREED_WINDOW_ROOM, findings[0]["departure"])
        self.assertEqual([10], [f["seq"] for f in verdict.judge(verdict.parse(eviction(3) + store), events)],
                         "a third victim more than the two freed chunks need")
        held = [dict(events[0], blockIds=[[], [7]]), events[1]]
        self.assertEqual([10, 11], [f["seq"] for f in verdict.judge(verdict.parse(eviction(2) + store), held)],
                         "no chunk from a freed block: no such departure, for the store or its room")

if __name__ == "__main__":
    unittest.main()
