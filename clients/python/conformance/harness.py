"""Drives vLLM's real scheduler, KV cache manager and offloading connector, wrapped by the capture, through
seeded workloads, and audits every captured log with kvledger.

Opt-in: it needs a vLLM source snapshot on ``PYTHONPATH`` and the environment ``setup_env.sh`` builds
(docs/vllm-conformance.md). One workload is one engine: vLLM's ``Scheduler`` (or ``AsyncScheduler``) built
as vLLM's own offloading-connector unit tests build it, whose connector is the capture
(``KvLedgerCaptureConnector``) wrapping vLLM's ``OffloadingConnector`` with vLLM's CPU offloading spec (its
``CPUOffloadingManager``, LRU); and a worker-role capture connector in front of the same kind of
``OffloadingConnector``, whose copies :mod:`conformance.sim_spec` simulates. Each step goes as in vLLM's
engine core and model runner: ``schedule()``; the worker connector's ``handle_preemptions``,
``bind_connector_metadata``, ``start_load_kv``, ``get_finished``, ``build_connector_worker_meta``,
``clear_connector_metadata``; a ``ModelRunnerOutput`` with one sampled token per request whose prefill is
done and the worker's ``KVConnectorOutput``; ``update_from_output`` (one step late under asynchronous
scheduling). Requests arrive over time, share prefixes (hits on the GPU and loads from the CPU tier),
are aborted at random (with loads and stores in flight), are preempted when the GPU blocks run out and
finish by EOS or length.

Usage::

    python -m conformance.harness --workloads 240 --out /tmp/conformance [--jar kvledger.jar]
                                  [--shapes plain,async,...] [--record DIR]

Per workload it writes the capture folder and ``verdict.json``; at the end ``summary.json`` (findings by
code, by class, by shape; the kinds of each diff's first difference, ``verdict.first_difference``). Exit 1
when a workload has a safety finding that is not a known one of vLLM, a diff whose first difference is not
named, or the harness itself failed.
"""

import argparse
import collections
import json
import mmap
import os
import random
import re
import shutil
import subprocess
import sys
import time
import traceback

from conformance import verdict as judging

EOS = 50256  # vLLM's test utilities' EOS_TOKEN_ID

SHAPES = ("plain", "async", "hybrid_swa", "eagle", "chunked", "controls", "async_hybrid")


# ------------------------------------------------------------------------------------------------------------
# one workload


class Workload:
    """The parameters of one seeded workload."""

    def __init__(self, seed, shape):
        rng = random.Random(seed * 7919 + SHAPES.index(shape))
        self.seed, self.shape = seed, shape
        self.async_scheduling = shape in ("async", "async_hybrid") or (shape == "controls" and rng.random() < 0.5)
        self.block_size = rng.choice((4, 8))
        self.blocks_per_chunk = rng.choice((2, 3)) if shape == "chunked" else 1
        self.groups = {"hybrid_swa": "swa", "async_hybrid": "swa", "eagle": "eagle"}.get(shape, "full")
        self.sliding_window = self.block_size * rng.choice((2, 3, 4))
        self.num_gpu_blocks = rng.randint(48, 120)
        self.cpu_chunks = rng.randint(12, 64)
        self.max_num_seqs = rng.choice((4, 8, 12))
        self.max_batched = rng.choice((32, 64, 128))
        self.num_requests = rng.randint(50, 70)
        self.offload_prompt_only = rng.random() < 0.5
        self.abort_rate = rng.choice((0.0, 0.02, 0.05))
        self.completion_share = rng.choice((0.3, 0.6, 0.9))
        self.controls = shape == "controls"
        self.reset_every = rng.choice((0, 0, 40, 60)) if shape == "plain" else 0


def _vllm():
    """vLLM's modules the harness uses (imported late: importing vLLM takes tens of seconds)."""
    import torch
    from vllm import SamplingParams
    from vllm.config import (CacheConfig, DeviceConfig, KVEventsConfig, KVTransferConfig, ModelConfig,
                             SchedulerConfig, VllmConfig, set_current_vllm_config)
    from vllm.distributed.kv_transfer.kv_connector.v1 import KVConnectorRole
    from vllm.distributed.kv_transfer.kv_connector.v1.offloading.common import OffloadingWorkerMetadata
    from vllm.forward_context import ForwardContext
    from vllm.utils.hashing import sha256
    from vllm.v1.core.kv_cache_utils import get_request_block_hasher, init_none_hash, resolve_kv_cache_block_sizes
    from vllm.v1.core.sched.async_scheduler import AsyncScheduler
    from vllm.v1.core.sched.scheduler import Scheduler
    from vllm.v1.kv_cache_interface import (FullAttentionSpec, KVCacheConfig, KVCacheGroupSpec, KVCacheTensor,
                                            SlidingWindowSpec)
    from vllm.v1.outputs import KVConnectorOutput, ModelRunnerOutput
    from vllm.v1.request import Request, RequestStatus
    from vllm.v1.structured_output import StructuredOutputManager
    return dict(locals())


def create_vllm_config(v, block_size, max_num_seqs, max_num_batched_tokens):
    """The config vLLM's connector unit tests build (tests/v1/kv_connector/unit/utils.py): the model its test
    utilities name, from the local Hugging Face cache, on the CPU, prefix caching on, the hybrid manager on."""
    model_config = v["ModelConfig"](model="facebook/opt-125m", trust_remote_code=True, dtype="float16", seed=42)
    return v["VllmConfig"](
        scheduler_config=v["SchedulerConfig"](max_num_seqs=max_num_seqs, max_num_batched_tokens=max_num_batched_tokens,
                                              max_model_len=10000, enable_chunked_prefill=True,
                                              is_encoder_decoder=model_config.is_encoder_decoder,
                                              disable_hybrid_kv_cache_manager=False),
        model_config=model_config,
        cache_config=v["CacheConfig"](block_size=block_size, gpu_memory_utilization=0.9, cache_dtype="auto",
                                      enable_prefix_caching=True),
        device_config=v["DeviceConfig"]("cpu"))


def kv_cache_groups(v, w):
    torch = v["torch"]
    full = v["FullAttentionSpec"](block_size=w.block_size, num_kv_heads=1, head_size=1, dtype=torch.float32)
    groups = [v["KVCacheGroupSpec"](["layer0"], full)]
    if w.groups == "swa":
        groups.append(v["KVCacheGroupSpec"](["layer1"], v["SlidingWindowSpec"](
            block_size=w.block_size, num_kv_heads=1, head_size=1, dtype=torch.float32,
            sliding_window=w.sliding_window)))
    elif w.groups == "eagle":
        eagle = v["FullAttentionSpec"](block_size=w.block_size, num_kv_heads=2, head_size=1, dtype=torch.float32)
        groups = [v["KVCacheGroupSpec"](["layer0"], full, is_eagle_group=False),
                  v["KVCacheGroupSpec"](["layer1"], eagle, is_eagle_group=True)]
    return groups


class Engine:
    """One engine: the scheduler with the capture as its connector, and a worker-role capture connector."""

    def __init__(self, v, w, folder):
        self.v, self.w = v, w
        groups = kv_cache_groups(v, w)
        tensors = [v["KVCacheTensor"](size=g.kv_cache_spec.page_size_bytes * w.num_gpu_blocks, shared_by=[layer])
                   for g in groups for layer in g.layer_names]
        kv_cache_config = v["KVCacheConfig"](num_blocks=w.num_gpu_blocks, kv_cache_tensors=tensors,
                                             kv_cache_groups=groups)
        vllm_config = create_vllm_config(v, w.block_size, w.max_num_seqs, w.max_batched)
        vllm_config.scheduler_config.async_scheduling = w.async_scheduling
        # vLLM's CPU spec: capacity = cpu_bytes_to_use // round_up(bytes per block * workers * F, page size)
        per_chunk = sum(t.size for t in tensors) // w.num_gpu_blocks * w.blocks_per_chunk
        aligned = -(-per_chunk // mmap.PAGESIZE) * mmap.PAGESIZE
        extra = {"spec_name": "SimulatedCPUOffloadingSpec", "spec_module_path": "conformance.sim_spec",
                 "cpu_bytes_to_use": w.cpu_chunks * aligned,
                 "offload_prompt_only": w.offload_prompt_only,
                 "kvledger_capture_dir": folder,
                 "kvledger_cpu_capacity_chunks": w.cpu_chunks}
        if w.blocks_per_chunk > 1:
            extra["block_size"] = w.block_size * w.blocks_per_chunk
        if "conformance.recording" in sys.modules and sys.modules["conformance.recording"].installed():
            extra["kvledger_capture_writer"] = "thread"  # the recording's hooks are in this process
        vllm_config.kv_transfer_config = v["KVTransferConfig"](
            kv_connector="KvLedgerCaptureConnector", kv_connector_module_path="kvledger_capture.connector",
            kv_role="kv_both", kv_connector_extra_config=extra)
        # KV events on (the null publisher): vLLM's CPU manager reports its evictions only then.
        vllm_config.kv_events_config = v["KVEventsConfig"](enable_kv_cache_events=True, publisher="null")
        vllm_config.cache_config.num_gpu_blocks = w.num_gpu_blocks
        block_size, hash_block_size = v["resolve_kv_cache_block_sizes"](kv_cache_config, vllm_config)
        cls = v["AsyncScheduler"] if w.async_scheduling else v["Scheduler"]
        self.scheduler = cls(vllm_config=vllm_config, kv_cache_config=kv_cache_config, log_stats=True,
                             structured_output_manager=v["StructuredOutputManager"](vllm_config),
                             block_size=block_size, hash_block_size=hash_block_size)
        self.capture = self.scheduler.connector
        assert type(self.capture).__name__ == "KvLedgerCaptureConnector", type(self.capture)
        self.inner_scheduler = self.capture._inner.connector_scheduler
        manager = self.inner_scheduler.manager
        assert manager._num_blocks == w.cpu_chunks, (manager._num_blocks, w.cpu_chunks)
        from kvledger_capture.connector import KvLedgerCaptureConnector
        self.worker = KvLedgerCaptureConnector(vllm_config, v["KVConnectorRole"].WORKER, kv_cache_config)
        torch = v["torch"]
        kv_caches = {layer: torch.empty(w.num_gpu_blocks, 2, g.kv_cache_spec.block_size, g.kv_cache_spec.num_kv_heads,
                                        g.kv_cache_spec.head_size, dtype=g.kv_cache_spec.dtype)
                     for g in groups for layer in g.layer_names}
        with v["set_current_vllm_config"](vllm_config):
            self.worker.register_kv_caches(kv_caches)
        self.copies = self.worker._inner.connector_worker.spec.get_worker(None)
        v["init_none_hash"](v["sha256"])
        self.hasher = v["get_request_block_hasher"](hash_block_size, v["sha256"])
        self.ctx = v["ForwardContext"](no_compile_layers={}, attn_metadata={}, slot_mapping={})
        self.pending_output = None

    def add(self, rid, prompt, max_tokens, kv_transfer_params=None, skip_reading=False):
        v = self.v
        params = v["SamplingParams"](max_tokens=max_tokens, skip_reading_prefix_cache=skip_reading or None)
        params.update_from_generation_config({}, EOS)
        req = v["Request"](request_id=rid, prompt_token_ids=prompt, sampling_params=params, pooling_params=None,
                           block_hasher=self.hasher)
        if kv_transfer_params is not None:
            req.kv_transfer_params = kv_transfer_params
        self.scheduler.add_request(req)

    def abort(self, rid):
        self.scheduler.finish_requests(rid, self.v["RequestStatus"].FINISHED_ABORTED)

    def busy(self):
        s = self.scheduler
        return bool(s.requests or self.inner_scheduler._jobs or s.finished_req_ids or self.pending_output)

    def step(self, rng):
        v, w, s, worker = self.v, self.w, self.scheduler, self.worker
        out = s.schedule()
        preempted = len(out.preempted_req_ids or ())
        meta = out.kv_connector_metadata
        worker.handle_preemptions(meta)
        worker.bind_connector_metadata(meta)
        worker.start_load_kv(self.ctx)
        worker.wait_for_save()
        self.copies.complete(rng, w.completion_share)
        sending, recving = worker.get_finished(out.finished_req_ids)
        worker_meta = worker.build_connector_worker_meta() or v["OffloadingWorkerMetadata"]()
        worker.clear_connector_metadata()
        req_ids = list(out.num_scheduled_tokens)
        sampled = []
        for rid in req_ids:
            req = s.requests.get(rid)
            done_prefill = req is not None and req.num_computed_tokens >= req.num_tokens
            sampled.append([EOS if rng.random() < 0.06 else rng.randint(1, 30000)] if done_prefill else [])
        output = v["ModelRunnerOutput"](
            req_ids=req_ids, req_id_to_index={r: i for i, r in enumerate(req_ids)}, sampled_token_ids=sampled,
            logprobs=None, prompt_logprobs_dict={}, pooler_output=None,
            kv_connector_output=v["KVConnectorOutput"](finished_sending=sending or None,
                                                       finished_recving=recving or None,
                                                       kv_connector_worker_meta=worker_meta))
        if w.async_scheduling:
            if self.pending_output is not None:
                s.update_from_output(*self.pending_output)
            self.pending_output = (out, output)
        else:
            s.update_from_output(out, output)
        return preempted

    def drain_async(self):
        if self.pending_output is not None:
            out = self.pending_output
            self.pending_output = None
            self.scheduler.update_from_output(*out)

    def close(self):
        self.capture.shutdown()
        self.worker.shutdown()


def make_prompts(rng, w):
    """Prompts that share prefixes: about two thirds start with one of a few common prefixes."""
    prefixes = [[rng.randint(1, 30000) for _ in range(rng.randint(w.block_size, 6 * w.block_size))]
                for _ in range(rng.randint(3, 6))]
    prompts = []
    for _ in range(w.num_requests):
        tail = [rng.randint(1, 30000) for _ in range(rng.randint(1, 4 * w.block_size))]
        prompts.append((rng.choice(prefixes) + tail) if rng.random() < 0.67 else tail + tail)
    return prompts


def run_workload(v, w, folder, max_steps=6000):
    """Runs one workload; returns facts about the run (steps, aborts, preemptions, ...)."""
    rng = random.Random(w.seed)
    os.makedirs(folder, exist_ok=True)
    engine = Engine(v, w, folder)
    facts = collections.Counter()
    prompts = make_prompts(rng, w)
    next_req = 0
    steps = 0
    try:
        while next_req < len(prompts) or engine.busy():
            for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
                if next_req < len(prompts):
                    params, skip = None, False
                    if w.controls:
                        roll = rng.random()
                        if roll < 0.3:
                            params = {"max_offload_tokens": rng.choice((0, w.block_size, 3 * w.block_size,
                                                                        w.block_size * w.blocks_per_chunk * 2))}
                            facts["max_offload_tokens"] += 1
                        elif roll < 0.5:
                            skip = True
                            facts["skip_reading_prefix_cache"] += 1
                    engine.add(str(next_req), prompts[next_req], rng.randint(1, 24), params, skip)
                    next_req += 1
            live = [r for r in engine.scheduler.requests]
            if live and rng.random() < w.abort_rate:
                engine.abort(rng.choice(live))
                facts["aborts"] += 1
            if w.reset_every and steps and steps % w.reset_every == 0:
                # as a weight update does: running requests preempted, the connector's tier reset too
                facts["resets"] += int(bool(engine.scheduler.reset_prefix_cache(reset_running_requests=True,
                                                                                reset_connector=True)))
            if not engine.scheduler.requests and not engine.scheduler.finished_req_ids and \
                    not engine.inner_scheduler._jobs and engine.pending_output:
                engine.drain_async()
                continue
            facts["preemptions"] += engine.step(rng)
            steps += 1
            if steps >= max_steps:
                raise RuntimeError("workload did not finish in %d steps" % max_steps)
        engine.drain_async()
    finally:
        engine.close()
    facts["steps"] = steps
    facts["requests"] = len(prompts)
    error = engine.capture._writer.error if engine.capture._writer else None
    return dict(facts), error


def incident_54193(v, folder):
    """vllm#54193 on vLLM's real scheduler: one request of 7 prompt tokens (blocks of 4, one block a chunk,
    every token offloaded) samples one token and finishes by length. Its KV covers 7 tokens (c = 7), but the
    store vLLM makes at the finish covers num_tokens = 8: chunk 1 with the sampled token's slot, which no
    forward pass wrote."""
    w = Workload(1, "plain")
    w.async_scheduling, w.block_size, w.blocks_per_chunk, w.groups = False, 4, 1, "full"
    w.num_gpu_blocks, w.cpu_chunks, w.max_num_seqs, w.max_batched = 16, 16, 4, 64
    w.offload_prompt_only, w.completion_share = False, 1.0
    rng = random.Random(54193)
    engine = Engine(v, w, folder)
    try:
        engine.add("r", [11, 12, 13, 14, 15, 16, 17], max_tokens=1)
        while engine.busy():
            engine.step(rng)
    finally:
        engine.close()


SCENARIOS = {"vllm_54193": incident_54193}


# ------------------------------------------------------------------------------------------------------------
# the jar


class Jar:
    """The kvledger command line, all commands in one JVM (:file:`KvLedgerBatch.java`, a single-file source
    program on the jar): a JVM per audit would cost more than the workload itself."""

    def __init__(self, path):
        self.path = path
        self.rules_safety = None
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "KvLedgerBatch.java")
        self._process = subprocess.Popen(
            ["java", "-XX:+UseSerialGC", "-Ddisable-axoniq-console-message=true", "-cp", path, source],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def _run(self, *args):
        p = self._process
        p.stdin.write(("\t".join(str(a) for a in args) + "\n").encode())
        p.stdin.flush()
        header = p.stdout.readline().decode().split()
        if len(header) != 4 or header[0] != "EXIT":
            raise RuntimeError("the kvledger batch JVM stopped (exit %s)" % p.poll())
        code, n_out, n_err = (int(x) for x in header[1:])
        out, err = p.stdout.read(n_out), p.stdout.read(n_err)
        return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")

    def close(self):
        self._process.stdin.close()
        self._process.wait()

    def audit(self, log):
        code, out, err = self._run("audit", log)
        findings = judging.parse(out)
        safety = None
        if self.rules_safety is not False:
            scode, sout, serr = self._run("audit", "--rules", "safety", log)
            if scode == 2 and "--rules" in (serr + sout):
                self.rules_safety = False
            else:
                # the jar knows the classes (revision 6): its word wins over contract 9.2's table read here
                self.rules_safety = True
                safety = [line for line in sout.splitlines() if line.startswith("seq ")]
                flagged = {(f["seq"], f["code"]) for f in judging.parse("\n".join(safety))}
                for f in findings:
                    f["class"] = "safety" if (f["seq"], f["code"]) in flagged else "policy"
        return code, findings, safety, err

    def diff(self, commands, captured, workdir):
        own = os.path.join(workdir, "kvledger-run.jsonl")
        code, out, err = self._run("run", commands, "-o", own)
        if code == 2:
            return None, "run failed: " + (err or out).strip()[:500]
        code, out, err = self._run("diff", own, captured)
        return code, (out + err).strip()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workloads", type=int, default=len(SHAPES))
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--out", required=True)
    ap.add_argument("--jar", default=os.environ.get("KVLEDGER_JAR"))
    ap.add_argument("--record", help="also write each workload's capture records here (fixtures for the replay)")
    ap.add_argument("--requests", type=int, help="requests per workload (default: 50 to 70, seeded)")
    ap.add_argument("--keep", action="store_true", help="keep the capture folders of clean workloads")
    ap.add_argument("--scenario", choices=sorted(SCENARIOS),
                    help="run one named scenario into --out (its capture folder) instead of workloads")
    ap.add_argument("--rejudge", action="store_true",
                    help="judge the findings of the run in --out again (no vLLM; with the jar, each diff is redone "
                         "from the folder's two logs and its first difference named again); writes "
                         "summary-rejudged.json")
    args = ap.parse_args(argv)
    if args.rejudge:
        jar = Jar(args.jar) if args.jar and os.path.exists(args.jar) else None
        try:
            summary = rejudge(args.out, jar)
        finally:
            if jar:
                jar.close()
        print(json.dumps(summary, default=dict, sort_keys=True, indent=1))
        return 1 if summary["unexplained_safety"] or summary["harness_failed"] or summary["diff_unnamed"] else 0
    if args.scenario:
        SCENARIOS[args.scenario](_vllm(), args.out)
        print("captured %s into %s" % (args.scenario, args.out))
        return 0
    shapes = args.shapes.split(",")
    if args.record:
        from conformance import recording
        recording.install(args.record)
    t0 = time.time()
    v = _vllm()
    print("vLLM imported in %.0f s" % (time.time() - t0), flush=True)
    from conformance import base_check
    drift = base_check.compare()
    print("stand-in base against vLLM's: %s" % ("same members and signatures" if not drift else "; ".join(drift)),
          flush=True)
    jar = Jar(args.jar) if args.jar else None
    summary = new_summary(drift)
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.workloads):
        shape = shapes[i % len(shapes)]
        seed = args.first_seed + i
        w = Workload(seed, shape)
        if args.requests:
            w.num_requests = args.requests
        name = "%s-%04d" % (shape, seed)
        folder = os.path.join(args.out, name)
        shutil.rmtree(folder, ignore_errors=True)
        verdict = {"workload": name, "params": dict(vars(w))}
        try:
            if args.record:
                recording.start(name, w)
            started = time.time()
            facts, error = run_workload(v, w, folder)
            facts["seconds_vllm"] = round(time.time() - started, 1)
            if args.record:
                recording.stop()
        except Exception:
            verdict["harness_error"] = traceback.format_exc()
            summary["harness_failed"].append(name)
            print("%s: HARNESS FAILED\n%s" % (name, verdict["harness_error"]), flush=True)
            _write(folder, verdict)
            continue
        verdict["facts"] = facts
        summary["workloads"] += 1
        summary["requests"] += facts.get("requests", 0)
        summary["steps"] += facts.get("steps", 0)
        summary["facts"].update({k: v_ for k, v_ in facts.items() if k not in ("requests", "steps", "seconds_vllm")})
        if error:
            verdict["capture_stopped"] = error
            summary["capture_stopped"].append(name)
        line = "%s: %d requests, %d steps (%.1f s)" % (name, facts["requests"], facts["steps"], facts["seconds_vllm"])
        if jar:
            started = time.time()
            log = os.path.join(folder, "vllm-events.jsonl")
            code, findings, safety, err = jar.audit(log)
            unexplained = judging.judge(findings, judging.read_events(log))
            own = [f for f in findings if f["vllm"]]
            verdict.update(audit_exit=code, findings=findings, rules_safety=safety, audit_stderr=err[-2000:])
            dcode, dtext = jar.diff(os.path.join(folder, "commands.jsonl"), log, folder)
            verdict.update(diff_exit=dcode, diff=dtext[:3000])
            if dcode in (0, 1):
                verdict["diff_first"] = judging.first_difference(
                    dcode, dtext, judging.read_events(os.path.join(folder, "kvledger-run.jsonl")),
                    judging.read_events(log), findings)
            else:
                verdict["diff_first"] = {"kinds": [], "unnamed": [dtext[:300]]}
            tally(summary, shape, name, verdict)
            first = verdict["diff_first"]
            line += ", audit: %d findings (%d safety: %d vLLM's own, %d unexplained), diff: %s" % (
                len(findings), sum(f["class"] == "safety" for f in findings), len(own), len(unexplained),
                ", ".join(first["kinds"] + (["UNNAMED " + "; ".join(first["unnamed"])] if first["unnamed"] else [])))
            line += " (%.1f s)" % (time.time() - started)
            if code == 2:
                line += ", AUDIT REFUSED THE LOG: " + err.strip()[:300]
        print(line + (", CAPTURE STOPPED: " + error if error else ""), flush=True)
        _write(folder, verdict)
        if args.record and jar:
            recording.expect(name, verdict)
        clean = jar and not verdict.get("findings") and verdict.get("diff_exit") == 0 and not error
        if clean and not args.keep:
            for f in ("commands.jsonl", "vllm-events.jsonl", "kvledger-run.jsonl"):
                try:
                    os.remove(os.path.join(folder, f))
                except OSError:
                    pass
    summary["jar_rules_safety"] = jar.rules_safety if jar else None
    if jar:
        jar.close()
    summary["seconds"] = round(time.time() - t0)
    with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, sort_keys=True, default=dict)
    print(json.dumps({k: summary[k] for k in ("workloads", "requests", "by_class", "by_code", "vllm_own", "departures",
                                              "cascades", "unexplained_by_code", "diff", "diff_kinds",
                                              "diff_unnamed", "capture_stopped", "harness_failed")},
                     default=dict, sort_keys=True))
    failed = summary["harness_failed"] or summary["unexplained_safety"] or summary["capture_stopped"] or drift or \
        summary["diff_unnamed"]
    return 1 if failed else 0


def new_summary(drift):
    return {"workloads": 0, "requests": 0, "steps": 0, "by_code": collections.Counter(),
            "by_class": collections.Counter(), "by_shape": {}, "vllm_own": collections.Counter(),
            "capture_stopped": [], "harness_failed": [], "departures": collections.Counter(),
            "cascades": collections.Counter(), "unexplained_by_code": collections.Counter(),
            "unexplained_safety": [], "diff": collections.Counter(), "facts": collections.Counter(),
            "diff_kinds": collections.Counter(), "diff_unnamed": [],
            "base_drift": drift}


def tally(summary, shape, name, verdict):
    """Adds one audited workload's findings (judged) to the summary."""
    findings = verdict.get("findings", [])
    unexplained = False
    for f in findings:
        summary["by_code"][f["code"]] += 1
        summary["by_class"][f["class"]] += 1
        if f.get("vllm"):
            summary["vllm_own"]["%s (%s)" % (f["vllm"], f["code"])] += 1
        elif f.get("departure"):
            summary["departures"][f["departure"]] += 1
        elif f.get("cascade"):
            summary["cascades"][f["code"]] += 1
        elif f["class"] == "safety":
            summary["unexplained_by_code"][f["code"]] += 1
            unexplained = True
    summary["by_shape"].setdefault(shape, collections.Counter()).update(f["code"] for f in findings)
    dcode = verdict.get("diff_exit")
    summary["diff"]["agree" if dcode == 0 else "differ" if dcode == 1 else "failed"] += 1
    first = verdict.get("diff_first")
    if first is not None:  # the first difference's kinds (judging.DIFF_KINDS); one not named fails the harness
        summary["diff_kinds"].update(first["kinds"])
        if first["unnamed"]:
            summary["diff_unnamed"].append("%s: %s" % (name, "; ".join(first["unnamed"])))
    if unexplained:
        summary["unexplained_safety"].append(name)


def rejudge(out, jar=None):
    """Judges the findings of a finished run again (after verdict.py learned something); writes
    ``summary-rejudged.json``. With ``jar``, each folder's diff of ``kvledger-run.jsonl`` and the capture is redone
    (``verdict.json`` keeps only its first 3000 characters) and its first difference named again."""
    summary = new_summary(None)
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name, "verdict.json")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            verdict = json.load(f)
        if "harness_error" in verdict:
            summary["harness_failed"].append(name)
            continue
        facts = verdict["facts"]
        summary["workloads"] += 1
        summary["requests"] += facts.get("requests", 0)
        summary["steps"] += facts.get("steps", 0)
        if verdict.get("capture_stopped"):
            summary["capture_stopped"].append(name)
        log = os.path.join(out, name, "vllm-events.jsonl")
        findings = [{k: f[k] for k in ("seq", "code", "request", "reason", "class")} for f in verdict["findings"]]
        judging.judge(findings, judging.read_events(log) if os.path.exists(log) else [])
        verdict["findings"] = findings
        own = os.path.join(out, name, "kvledger-run.jsonl")
        if jar and os.path.exists(log) and os.path.exists(own):
            dcode, dout, derr = jar._run("diff", own, log)
            if dcode in (0, 1):
                verdict["diff_first"] = judging.first_difference(
                    dcode, (dout + derr).strip(), judging.read_events(own), judging.read_events(log), findings)
        tally(summary, verdict["params"]["shape"], name, verdict)
    with open(os.path.join(out, "summary-rejudged.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, sort_keys=True, default=dict)
    return summary


def _write(folder, verdict):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "verdict.json"), "w", encoding="utf-8") as f:
        json.dump(verdict, f, indent=1, default=str)


if __name__ == "__main__":
    sys.exit(main())
