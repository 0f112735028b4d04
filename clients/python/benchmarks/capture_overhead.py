"""The capture's cost on vLLM's scheduler thread: vLLM's real ``Scheduler`` with its ``OffloadingConnector`` (CPU
offloading spec, LRU manager), once bare and once wrapped by ``KvLedgerCaptureConnector``, on the same 256-request
decode workload, measured in pairs, interleaved, in one run.

It needs vLLM importable (an installed vLLM, or a source snapshot on ``PYTHONPATH`` with the CPU platform; the
model's ``config.json`` of ``facebook/opt-125m`` in the Hugging Face cache, offline is fine) and this package::

    PYTHONPATH=VLLM_SRC:clients/python HF_HUB_OFFLINE=1 python3 clients/python/benchmarks/capture_overhead.py

The capture translates and writes in a child process (its default writer); in vLLM's process the scheduler's
thread copies what vLLM appended into records and queues them, and a sender thread pickles them down a pipe to
the child every few steps; the figures say how much CPU each took.

One step is ``schedule()``, the model's forward pass, then ``update_from_output()`` with one sampled token per
running request and every transfer of the step reported complete (copies are not what is measured). The forward
pass is ``--forward-ms`` of sleep: vLLM's engine core waits for its workers there with the GIL released (0: a
scheduler that never waits, the worst case, where any thread of the capture that wants the GIL takes it from
the scheduler's thread). Only ``schedule()`` and ``update_from_output()`` are timed. Each pair runs one step of
each engine, the order alternating; the first ``--warmup`` pairs are not counted. It prints the median step time
of each and the median of the per-pair ratios, the same for the scheduler thread's CPU time (less disturbed by
other processes on a shared machine than the wall time), and the CPU of the capture's sender thread and of its
writer process.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time


def build(capture_dir, requests, prompt_tokens, block_size):
    import torch
    from vllm.config import CacheConfig, DeviceConfig, KVTransferConfig, ModelConfig, SchedulerConfig, VllmConfig
    from vllm.v1.core.kv_cache_utils import resolve_kv_cache_block_sizes
    from vllm.v1.core.sched.scheduler import Scheduler
    from vllm.v1.kv_cache_interface import FullAttentionSpec, KVCacheConfig, KVCacheGroupSpec, KVCacheTensor
    from vllm.v1.structured_output import StructuredOutputManager

    num_blocks = requests * (prompt_tokens // block_size + 64)
    spec = FullAttentionSpec(block_size=block_size, num_kv_heads=1, head_size=64, dtype=torch.float16)
    kv_cache_config = KVCacheConfig(num_blocks=num_blocks, kv_cache_groups=[KVCacheGroupSpec(["layer0"], spec)],
                                    kv_cache_tensors=[KVCacheTensor(size=spec.page_size_bytes * num_blocks,
                                                                    shared_by=["layer0"])])
    model = ModelConfig(model="facebook/opt-125m", dtype="float16", seed=42)
    config = VllmConfig(
        scheduler_config=SchedulerConfig(max_num_seqs=requests, max_num_batched_tokens=requests * prompt_tokens,
                                         max_model_len=8192, enable_chunked_prefill=True,
                                         is_encoder_decoder=False),
        model_config=model,
        cache_config=CacheConfig(block_size=block_size, gpu_memory_utilization=0.9, cache_dtype="auto",
                                 enable_prefix_caching=True),
        device_config=DeviceConfig("cpu"))
    extra = {"cpu_bytes_to_use": 1 << 30, "offload_prompt_only": False}
    if capture_dir is None:
        transfer = KVTransferConfig(kv_connector="OffloadingConnector", kv_role="kv_both",
                                    kv_connector_extra_config=extra)
    else:
        extra["kvledger_capture_dir"] = capture_dir
        transfer = KVTransferConfig(kv_connector="KvLedgerCaptureConnector",
                                    kv_connector_module_path="kvledger_capture.connector", kv_role="kv_both",
                                    kv_connector_extra_config=extra)
    config.kv_transfer_config = transfer
    config.cache_config.num_gpu_blocks = num_blocks
    block, hash_block = resolve_kv_cache_block_sizes(kv_cache_config, config)
    return Scheduler(vllm_config=config, kv_cache_config=kv_cache_config, log_stats=False,
                     structured_output_manager=StructuredOutputManager(config), block_size=block,
                     hash_block_size=hash_block)


class Engine:

    def __init__(self, scheduler, requests, prompt_tokens, seed):
        import random

        from vllm import SamplingParams
        from vllm.utils.hashing import sha256
        from vllm.v1.core.kv_cache_utils import get_request_block_hasher, init_none_hash
        from vllm.v1.request import Request
        self.scheduler = scheduler
        rng = random.Random(seed)
        init_none_hash(sha256)
        hasher = get_request_block_hasher(scheduler.block_size, sha256)
        for i in range(requests):
            params = SamplingParams(max_tokens=100_000, ignore_eos=True)
            prompt = [rng.randint(1, 30000) for _ in range(prompt_tokens)]
            scheduler.add_request(Request(request_id="r%d" % i, prompt_token_ids=prompt, sampling_params=params,
                                          pooling_params=None, block_hasher=hasher))
        self.rng = rng

    def step(self, forward_seconds):
        """One scheduler step; returns its time on the scheduler's thread and that thread's CPU time (seconds), the
        forward pass left out."""
        from vllm.distributed.kv_transfer.kv_connector.v1.offloading.common import OffloadingWorkerMetadata
        from vllm.v1.outputs import KVConnectorOutput, ModelRunnerOutput
        s = self.scheduler
        cpu_start = time.thread_time()
        start = time.perf_counter()
        out = s.schedule()
        middle = time.perf_counter()
        cpu_middle = time.thread_time()
        if forward_seconds:
            time.sleep(forward_seconds)
        meta = out.kv_connector_metadata
        done = {j: 1 for j in list(getattr(meta, "store_jobs", {})) + list(getattr(meta, "load_jobs", {}))}
        req_ids = list(out.num_scheduled_tokens)
        sampled = []
        for rid in req_ids:
            req = s.requests[rid]
            sampled.append([self.rng.randint(1, 30000)] if req.num_computed_tokens + out.num_scheduled_tokens[rid]
                           >= req.num_tokens else [])
        output = ModelRunnerOutput(req_ids=req_ids, req_id_to_index={r: i for i, r in enumerate(req_ids)},
                                   sampled_token_ids=sampled, logprobs=None, prompt_logprobs_dict={},
                                   pooler_output=None, kv_connector_output=KVConnectorOutput(
                                       kv_connector_worker_meta=OffloadingWorkerMetadata(completed_jobs=done)))
        cpu_built = time.thread_time()
        built = time.perf_counter()
        s.update_from_output(out, output)
        end = time.perf_counter()
        cpu_end = time.thread_time()
        return (middle - start) + (end - built), (cpu_middle - cpu_start) + (cpu_end - cpu_built)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=256)
    parser.add_argument("--prompt-tokens", type=int, default=128)
    parser.add_argument("--block-size", type=int, default=16)
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--forward-ms", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bare = Engine(build(None, args.requests, args.prompt_tokens, args.block_size), args.requests,
                      args.prompt_tokens, 1)
        captured = Engine(build(os.path.join(folder, "capture"), args.requests, args.prompt_tokens,
                                args.block_size), args.requests, args.prompt_tokens, 1)
        times = {"bare": [], "capture": []}
        cpu = {"bare": [], "capture": []}
        ratios, cpu_ratios = [], []
        writer = captured.scheduler.connector._writer
        sender_clock = time.pthread_getcpuclockid(writer._thread.ident)  # its thread in vLLM's process
        child = getattr(writer, "_child", None)                          # and its process, if any
        sender_cpu = child_cpu = 0.0
        for pair in range(args.pairs + args.warmup):
            if pair == args.warmup:
                sender_cpu, child_cpu = time.clock_gettime(sender_clock), _process_cpu(child)
            order = (("bare", bare), ("capture", captured)) if pair % 2 == 0 else (("capture", captured), ("bare", bare))
            got = {name: engine.step(args.forward_ms / 1e3) for name, engine in order}
            if pair >= args.warmup:
                for name in got:
                    times[name].append(got[name][0])
                    cpu[name].append(got[name][1])
                ratios.append(got["capture"][0] / got["bare"][0])
                cpu_ratios.append(got["capture"][1] / got["bare"][1])
        running = len(captured.scheduler.running)
        while writer.queued_bytes():  # the writer process's backlog is its cost too
            time.sleep(0.05)
        time.sleep(0.5)
        sender_cpu = time.clock_gettime(sender_clock) - sender_cpu
        child_cpu = _process_cpu(child) - child_cpu
        captured.scheduler.connector.shutdown()
        events = os.path.getsize(os.path.join(folder, "capture", "vllm-events.jsonl"))
    bare_ms, capture_ms = statistics.median(times["bare"]) * 1e3, statistics.median(times["capture"]) * 1e3
    ratio = statistics.median(ratios)
    bare_cpu, capture_cpu = statistics.median(cpu["bare"]) * 1e3, statistics.median(cpu["capture"]) * 1e3
    cpu_ratio = statistics.median(cpu_ratios)
    print("vLLM %s, %d requests decoding (%d running at the end), forward pass %.1f ms, %d pairs after %d warm-up "
          "pairs" % (_vllm_version(), args.requests, running, args.forward_ms, args.pairs, args.warmup))
    print("median step: bare %.3f ms, with the capture %.3f ms; median ratio %.4f: the capture adds %.1f %%"
          % (bare_ms, capture_ms, ratio, (ratio - 1) * 100))
    print("the scheduler's thread's CPU a step (median): bare %.3f ms, with the capture %.3f ms; median ratio %.4f"
          % (bare_cpu, capture_cpu, cpu_ratio))
    print("captured log: %d bytes; the capture's thread in vLLM's process: %.3f ms of CPU a step; its writer "
          "process: %.3f ms a step" % (events, sender_cpu / args.pairs * 1e3, child_cpu / args.pairs * 1e3))
    return 0


def _process_cpu(child):
    """User and system CPU seconds of a child process so far (Linux /proc), 0 without one."""
    if child is None:
        return 0.0
    with open("/proc/%d/stat" % child.pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _vllm_version():
    from kvledger_capture.connector import producer
    return producer().split(" / vLLM ")[-1]


if __name__ == "__main__":
    sys.exit(main())
