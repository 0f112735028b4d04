"""Round trip of a 256-request decode step from Python through ``kvledger serve``, against the step itself.

Drives the steady-state decode workload of the Java ``StepBenchmark`` (every request decodes one token a
step, takes a block every 16 tokens, stores each chunk it completes, the host completes last step's jobs,
a request that reaches its length finishes and a new one is prefilled). For every measured step it
records the Python round trip (encode the commands, send, server step, answer, decode it and read the
groups a host acts on) and the server's own times from the answer (``timing``): parsing the request, the
engine's step (what an in-process JVM host pays) and encoding the answer.

    python3 clients/python/benchmarks/roundtrip.py --jar infrastructure/cli/target/kvledger.jar
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from kvledger import Ledger, StepResult, commands as c, event_from_json  # noqa: E402
from kvledger.client import _decode, _encode  # noqa: E402

BLOCK_SIZE = 16
PROMPT = 64
OUTPUT = 256


class DecodeWorkload:
    """The same workload as the Java benchmark's DecodeWorkload, command for command."""

    def __init__(self, requests):
        self.requests = requests
        self.ids = [None] * requests
        self.known = [0] * requests
        self.blocks = [0] * requests
        self.generation = [0] * requests
        self.to_complete = []
        self.next_block = 0

    def warm_up(self):
        step = []
        for r in range(self.requests):
            self._start(r, step)
            for _ in range((r * OUTPUT) // self.requests):
                self._decode(r, step)
        return step

    def next_step(self):
        step = [c.complete(job) for job in self.to_complete]
        self.to_complete = []
        for r in range(self.requests):
            if self.known[r] >= PROMPT + OUTPUT:
                step.append(c.finish(self.ids[r], "LENGTH"))
                self.generation[r] += 1
                self._start(r, step)
            else:
                self._decode(r, step)
        return step

    def observe(self, result):
        self.to_complete.extend(job.job_id for job in result.store_jobs)
        self.to_complete.extend(job.job_id for job in result.load_jobs)

    def _start(self, r, step):
        g = self.generation[r]
        self.ids[r] = "req-%d-%d" % (r, g)
        self.known[r] = PROMPT
        self.blocks[r] = PROMPT // BLOCK_SIZE
        step.append(c.register(self.ids[r], [(t * 31 + r + g * 7) % 50000 for t in range(PROMPT)]))
        step.append(c.match_prefix(self.ids[r]))
        step.append(c.allocate(self.ids[r], self._new_blocks(self.blocks[r])))
        step.append(c.compute(self.ids[r], PROMPT))

    def _decode(self, r, step):
        if self.known[r] + 1 > self.blocks[r] * BLOCK_SIZE:
            step.append(c.allocate(self.ids[r], self._new_blocks(1)))
            self.blocks[r] += 1
        step.append(c.append(self.ids[r], [self.known[r] % 50000]))
        self.known[r] += 1
        step.append(c.compute(self.ids[r], 1))

    def _new_blocks(self, count):
        first = self.next_block
        self.next_block += count
        return list(range(first, first + count))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


def summary(name, micros):
    return "%-44s mean %8.1f us   p50 %8.1f us   p99 %8.1f us" % (
        name, statistics.fmean(micros), percentile(micros, 50), percentile(micros, 99))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jar", default=os.environ.get("KVLEDGER_JAR", "infrastructure/cli/target/kvledger.jar"))
    parser.add_argument("--requests", type=int, default=256)
    parser.add_argument("--warmup", type=int, default=3000, help="steps before measuring (JIT warm-up)")
    parser.add_argument("--steps", type=int, default=3000, help="steps measured")
    parser.add_argument("--transport", choices=("socket", "stdio"), default="socket")
    parser.add_argument("--events", choices=("all", "grouped"), default="all",
                        help="every event in the answer (the contract's log), or only the host's groups")
    parser.add_argument("--java-opts", default="-Xms1g -Xmx2g -XX:+UseParallelGC")
    args = parser.parse_args()

    java = ["java"] + args.java_opts.split() + ["-jar", args.jar]
    with tempfile.TemporaryDirectory() as tmp:
        server = None
        if args.transport == "socket":
            path = os.path.join(tmp, "kvledger.sock")
            server = subprocess.Popen(java + ["serve", "--socket", path], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            ledger = Ledger.connect(path, wait=120)
        else:
            ledger = Ledger.spawn(command=java + ["serve"])
        try:
            workload = DecodeWorkload(args.requests)
            workload.observe(ledger.step(workload.warm_up()))
            round_trips, steps, added, full_decode, encodes, decodes, waits = [], [], [], [], [], [], []
            commands = events = 0
            for i in range(args.warmup + args.steps):
                step = workload.next_step()
                # Ledger.step, phase by phase: encode, send and wait for the answer line, decode.
                start = time.perf_counter_ns()
                data = _encode({"step": step, "timing": True, "events": args.events}).encode("utf-8") + b"\n"
                encoded = time.perf_counter_ns()
                ledger._write(data)
                line = ledger._reader.readline()
                answered = time.perf_counter_ns()
                result = StepResult(_decode(line))
                # What a host reads every step: the jobs to submit, flushes, releases, rejections.
                result.store_jobs, result.load_jobs, result.flushes, result.releases, result.rejections  # noqa: B018
                end = time.perf_counter_ns()
                workload.observe(result)
                if i >= args.warmup:
                    t = result.timing
                    round_trips.append((end - start) / 1000.0)
                    encodes.append((encoded - start) / 1000.0)
                    waits.append((answered - encoded) / 1000.0)
                    decodes.append((end - answered) / 1000.0)
                    steps.append(t["stepNanos"] / 1000.0)
                    added.append((t["parseNanos"] + t["encodeNanos"]) / 1000.0)
                    commands += len(step)
                    events += len(result.raw_events)
                    if i % 10 == 0:
                        d0 = time.perf_counter_ns()
                        [event_from_json(e) for e in result.raw_events]
                        full_decode.append((time.perf_counter_ns() - d0) / 1000.0)
        finally:
            ledger.close()
            if server is not None:
                server.terminate()
                server.wait()
    n = args.steps
    print("%d requests, %s transport, events %s, %d measured steps after %d warm-up steps: %.0f commands a step,"
          " %.0f events answered" % (args.requests, args.transport, args.events, n, args.warmup, commands / n, events / n))
    print("load average %s" % " ".join("%.1f" % x for x in os.getloadavg()))
    print(summary("in-process step (engine, in the server)", steps))
    print(summary("server-added: parse request + encode answer", added))
    print(summary("Python round trip (encode..decode)", round_trips))
    print(summary("  Python: encode the step", encodes))
    print(summary("  send, server, answer line back (wall)", waits))
    print(summary("  Python: decode, read the host's groups", decodes))
    print(summary("(extra) every event into dataclasses", full_decode))
    print("server-added / in-process step: mean %.2f, p99 %.2f" % (
        statistics.fmean(added) / statistics.fmean(steps), percentile(added, 99) / percentile(steps, 99)))


if __name__ == "__main__":
    main()
