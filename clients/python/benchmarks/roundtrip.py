"""Round trip of a 256-request decode step from Python through ``kvledger serve``, against the step itself.

Drives the steady-state decode workload of the Java ``StepBenchmark`` (every request decodes one token a
step, takes a block every 16 tokens, stores each chunk it completes, the host completes last step's jobs,
a request that reaches its length finishes and a new one is prefilled). For every measured step it
records the Python round trip (encode the commands, send, server step, answer, decode it and read the
groups a host acts on) and the server's own times from the answer (``timing``): parsing the request, the
engine's step (what an in-process JVM host pays) and encoding the answer.

    python3 clients/python/benchmarks/roundtrip.py --jar infrastructure/cli/target/kvledger.jar \
        [--commands compact] [--events grouped]

``--compare`` runs two servers side by side, a step on one then a step on the other, so both see the same
machine: "before" is the client as it was (command dicts, a cycle-checking encoder, every event answered),
"after" is what a host on the critical path uses now (compact commands, ``events: grouped``).

``--server NAME[@SPIN]=JAR[,JAVA_OPTS]`` (repeated) interleaves servers the same way, each with compact
commands and the grouped answer: two jars (a build before a change and after it), two JVM settings, or the
client's polling (``Ledger.connect(spin=...)``) off and on. Each report ends with where the slowest 1% of
round trips went: Python's encode, the engine's step, the server's parse and encode, the wait between the
processes (the wait less the server's own times: transport and each side's wake-up), Python's decode, and
Python's own collections within the round trip.
"""

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from kvledger import Ledger, StepResult, commands, compact, event_from_json  # noqa: E402
from kvledger.client import DEFAULT_SPIN, _decode, _encode  # noqa: E402

BLOCK_SIZE = 16
PROMPT = 64
OUTPUT = 256

_ENCODE_BEFORE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode   # the client's earlier encoder


class DecodeWorkload:
    """The same workload as the Java benchmark's DecodeWorkload, command for command."""

    def __init__(self, requests, builders=commands):
        self.requests = requests
        self.c = builders
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
        step = [self.c.complete(job) for job in self.to_complete]
        self.to_complete = []
        for r in range(self.requests):
            if self.known[r] >= PROMPT + OUTPUT:
                step.append(self.c.finish(self.ids[r], "LENGTH"))
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
        step.append(self.c.register(self.ids[r], [(t * 31 + r + g * 7) % 50000 for t in range(PROMPT)]))
        step.append(self.c.match_prefix(self.ids[r]))
        step.append(self.c.allocate(self.ids[r], self._new_blocks(self.blocks[r])))
        step.append(self.c.compute(self.ids[r], PROMPT))

    def _decode(self, r, step):
        if self.known[r] + 1 > self.blocks[r] * BLOCK_SIZE:
            step.append(self.c.allocate(self.ids[r], self._new_blocks(1)))
            self.blocks[r] += 1
        step.append(self.c.append(self.ids[r], [self.known[r] % 50000]))
        self.known[r] += 1
        step.append(self.c.compute(self.ids[r], 1))

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


class PythonGcClock:
    """Python's own collections, timed through ``gc.callbacks``: how much of a step they took."""

    def __init__(self):
        self.total = 0
        self._start = 0
        gc.callbacks.append(self._callback)

    def _callback(self, phase, info):
        if phase == "start":
            self._start = time.perf_counter_ns()
        else:
            self.total += time.perf_counter_ns() - self._start


GC_CLOCK = PythonGcClock()


def tail(times):
    """Where the slowest 1% of round trips went: each part's mean over those steps, against its median."""
    cut = percentile(times["round"], 99)
    slow = [i for i, r in enumerate(times["round"]) if r >= cut]
    parts = ("encode", "step", "added", "gap", "decode", "pygc")
    return "  the slowest 1%% (%d steps, >= %.0f us), mean us: %s" % (len(slow), cut, ", ".join(
        "%s %.0f (p50 %.0f)" % (k, statistics.fmean(times[k][i] for i in slow), percentile(times[k], 50))
        for k in parts))


class Measured:
    """One server and its workload; ``step()`` runs and times one step."""

    def __init__(self, args, java, tmp, name, builders, events, encode, spin=None):
        self.events, self.encode, self.name = events, encode, name
        path = os.path.join(tmp, name + ".sock")
        self.server = None
        if args.transport == "socket":
            self.server = subprocess.Popen(java + ["serve", "--socket", path], stdin=subprocess.DEVNULL,
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.ledger = Ledger.connect(path, wait=120, spin=args.spin if spin is None else spin)
        else:
            self.ledger = Ledger.spawn(command=java + ["serve"])
        self.workload = DecodeWorkload(args.requests, builders)
        self.workload.observe(self.ledger.step(self.workload.warm_up()))
        self.times = {k: [] for k in ("round", "encode", "wait", "decode", "step", "added", "gap", "pygc", "full")}
        self.commands = self.answered = 0

    def step(self, measured, full_decode):
        step = self.workload.next_step()
        # Ledger.step, phase by phase: encode, send and wait for the answer line, decode.
        gc_before = GC_CLOCK.total
        start = time.perf_counter_ns()
        data = self.encode({"step": step, "timing": True, "events": self.events}).encode("utf-8") + b"\n"
        encoded = time.perf_counter_ns()
        self.ledger._write(data)
        line = self.ledger._reader.readline()
        answered = time.perf_counter_ns()
        result = StepResult(_decode(line))
        # What a host reads every step: the jobs to submit, flushes, releases, rejections.
        result.store_jobs, result.load_jobs, result.flushes, result.releases, result.rejections  # noqa: B018
        end = time.perf_counter_ns()
        self.workload.observe(result)
        if measured:
            t, times = result.timing, self.times
            times["round"].append((end - start) / 1000.0)
            times["encode"].append((encoded - start) / 1000.0)
            times["pygc"].append((GC_CLOCK.total - gc_before) / 1000.0)
            times["wait"].append((answered - encoded) / 1000.0)
            times["decode"].append((end - answered) / 1000.0)
            times["step"].append(t["stepNanos"] / 1000.0)
            times["added"].append((t["parseNanos"] + t["encodeNanos"]) / 1000.0)
            # The wait less the server's own work: the transport both ways and each side's wake-up.
            times["gap"].append((answered - encoded - t["parseNanos"] - t["stepNanos"] - t["encodeNanos"]) / 1000.0)
            self.commands += len(step)
            self.answered += len(result.raw_events)
            if full_decode:
                d0 = time.perf_counter_ns()
                [event_from_json(e) for e in result.raw_events]
                times["full"].append((time.perf_counter_ns() - d0) / 1000.0)

    def close(self):
        self.ledger.close()
        if self.server is not None:
            self.server.terminate()
            self.server.wait()

    def report(self, args):
        n, times = args.steps, self.times
        print("%s: %d requests, %s transport, events %s, %d measured steps after %d warm-up steps: %.0f commands"
              " a step, %.0f events answered" % (self.name, args.requests, args.transport, self.events, n, args.warmup,
                                                 self.commands / n, self.answered / n))
        print(summary("in-process step (engine, in the server)", times["step"]))
        print(summary("server-added: parse request + encode answer", times["added"]))
        print(summary("Python round trip (encode..decode)", times["round"]))
        print(summary("  Python: encode the step", times["encode"]))
        print(summary("  send, server, answer line back (wall)", times["wait"]))
        print(summary("  Python: decode, read the host's groups", times["decode"]))
        print(summary("    of it between the processes (wait - server)", times["gap"]))
        print(summary("  of the round trip, Python's own collections", times["pygc"]))
        reader = self.ledger._reader
        if hasattr(reader, "polled"):
            print("  answers found polling: %d, slept for: %d" % (reader.polled, reader.slept))
        if times["full"]:
            print(summary("(extra) every event into dataclasses", times["full"]))
        print(tail(times))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jar", default=os.environ.get("KVLEDGER_JAR", "infrastructure/cli/target/kvledger.jar"))
    parser.add_argument("--requests", type=int, default=256)
    parser.add_argument("--warmup", type=int, default=3000, help="steps before measuring (JIT warm-up)")
    parser.add_argument("--steps", type=int, default=3000, help="steps measured")
    parser.add_argument("--transport", choices=("socket", "stdio"), default="socket")
    parser.add_argument("--events", choices=("all", "grouped"), default="all",
                        help="every event in the answer (the contract's log), or only the host's groups")
    parser.add_argument("--commands", choices=("dicts", "compact"), default="dicts",
                        help="commands as objects (kvledger.commands) or compact arrays (kvledger.compact)")
    parser.add_argument("--compare", action="store_true", help="before and after, side by side (see above)")
    parser.add_argument("--java-opts", default="-Xms1g -Xmx2g -XX:+UseParallelGC")
    parser.add_argument("--spin", type=float, default=DEFAULT_SPIN,
                        help="seconds the client polls for an answer before it sleeps (Ledger.connect's spin)")
    parser.add_argument("--server", action="append", metavar="NAME[@SPIN]=JAR[,JAVA_OPTS]", default=[],
                        help="servers side by side, a step on each in turn, each with compact commands and the"
                             " grouped answer (repeat; JAVA_OPTS space-separated; SPIN the client's, in seconds)")
    args = parser.parse_args()

    java = ["java"] + args.java_opts.split() + ["-jar", args.jar]
    with tempfile.TemporaryDirectory() as tmp:
        if args.server:
            runs = []
            for spec in args.server:
                name, _, rest = spec.partition("=")
                jar, _, opts = rest.partition(",")
                name, _, spin = name.partition("@")
                runs.append(Measured(args, ["java"] + opts.split() + ["-jar", jar], tmp, name, compact, "grouped",
                                     _encode, float(spin) if spin else None))
        elif args.compare:
            runs = [Measured(args, java, tmp, "before", commands, "all", _ENCODE_BEFORE),
                    Measured(args, java, tmp, "after", compact, "grouped", _encode)]
        else:
            builders = compact if args.commands == "compact" else commands
            runs = [Measured(args, java, tmp, "%s/%s" % (args.commands, args.events), builders, args.events, _encode)]
        try:
            for i in range(args.warmup + args.steps):
                for run in runs:
                    run.step(i >= args.warmup, i % 10 == 0)
        finally:
            for run in runs:
                run.close()
    print("load average %s" % " ".join("%.1f" % x for x in os.getloadavg()))
    for run in runs:
        run.report(args)
    if len(runs) > 1:
        first = runs[0].times["round"]
        for run in runs[1:]:
            other = run.times["round"]
            print("round trip %s / %s: p50 %.2f, p99 %.2f" % (run.name, runs[0].name,
                  percentile(other, 50) / percentile(first, 50), percentile(other, 99) / percentile(first, 99)))


if __name__ == "__main__":
    main()
