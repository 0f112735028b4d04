"""The capture's writer: call records in, two JSON Lines files out, off the scheduler's thread.

:class:`ProcessWriter` (what the connector uses) translates and writes in a child process, so that work never
holds vLLM's GIL: in vLLM's process the scheduler's thread queues each call's record (already copied,
:mod:`kvledger_capture.records`) and a sender thread pickles several steps' records down a pipe in one frame. :class:`CaptureWriter` does the
same in a thread of the calling process (the child runs one; the tests use it directly).

A record the translator cannot take, or a write the disk refuses, stops the capture: it is logged once at
ERROR through vLLM's logger (the seq of vLLM's log it stopped after, the scheduler step and the reason), and
the files keep what was written before it, whole records only, so both stay readable prefixes
(``kvledger audit`` and ``kvledger run`` read them). The scheduler never sees the error.

Lines written are dropped from memory. With ``segment_bytes`` the files roll: vLLM's log is a store directory
``vllm-events/`` of segments ``segment-<first seq, 20 digits>.jsonl`` (the layout kvledger's log tools read as
one log: seq runs on across segments, the first begins with ``EngineConfigured``), and the scenario is
``commands/commands-<part, 6 digits>.jsonl``, the first beginning with the config line (``cat`` them in
order for ``kvledger run``). A segment is closed once it holds ``segment_bytes`` or more, at a write's end.
"""

import collections
import fcntl
import json
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading

from .records import Expander
from .translate import Translator

if "vllm" in sys.modules:  # vLLM's logger in vLLM's process: its format, its level, its handlers (never
    from vllm.logger import init_logger  # imported by the writer's child process, which reports to its parent)
else:
    from logging import getLogger as init_logger

logger = init_logger("kvledger_capture")

_STOP = object()


class CaptureWriter:
    """The queue and the writer thread; ``error`` is the first failure (None while the capture is whole)."""

    #: Events kept in memory at most before they are written, when the queue never runs empty.
    DRAIN_LINES = 4096

    def __init__(self, folder, config, producer=None, segment_bytes=0, threaded=True):
        os.makedirs(folder, exist_ok=True)
        self.folder = folder
        self.translator = Translator(config, producer=producer)
        self._expander = Expander()
        self.error = None
        self._queue = queue.SimpleQueue()
        self._segment_bytes = int(segment_bytes or 0)
        self._parts = 0
        self._seq_written = 0        # the seq of the last line of vLLM's log written
        if self._segment_bytes:
            for sub in ("commands", "vllm-events"):
                os.makedirs(os.path.join(folder, sub), exist_ok=True)
            self._commands = self._open("commands", "commands-%06d.jsonl" % 1)
            self._events = self._open("vllm-events", "segment-%020d.jsonl" % 1)
        else:
            self._commands = open(os.path.join(folder, "commands.jsonl"), "w", encoding="utf-8")
            self._events = open(os.path.join(folder, "vllm-events.jsonl"), "w", encoding="utf-8")
        self._written = [0, 0]       # lines of the translator's lists already in the files (and dropped)
        # lengths of those lists after the last record translated whole (EngineConfigured is the first)
        self._kept = [len(self.translator.commands), len(self.translator.events)]
        self._commands.write(json.dumps({"config": self.translator.config}) + "\n")
        self._drain()
        self._thread = None
        if threaded:
            self._thread = threading.Thread(target=self._run, name="kvledger-capture", daemon=True)
            self._thread.start()

    def put(self, record):
        if self.error is None:
            if self._thread is not None:  # vLLM's process: a record refers to none of vLLM's lists once handed over
                record = pickle.loads(pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL))
            self._queue.put(record)

    def fail(self, reason):
        """Stops the capture for a reason found on the scheduler's thread (a call it could not copy)."""
        self._queue.put(("fail", reason))

    def _run(self):
        while True:
            record = self._queue.get()
            if record is _STOP:
                break
            self.handle(record)
            # written when the queue is idle, or every DRAIN_LINES lines when it never is (a writer behind)
            if self.error is None and (self._queue.empty() or len(self.translator.events) >= self.DRAIN_LINES):
                self._drain()
        self.finish()

    def handle(self, record):
        """One record: translated, or a failure found before it (``("fail", reason)``) that stops the capture."""
        if self.error is None:
            if isinstance(record, tuple):
                self._drain()
                if self.error is None:
                    self._stop(record[1], record=None)
            else:
                self._feed(record)

    def finish(self):
        """Writes what is left and closes the files."""
        if self.error is None:
            self.translator.release()
            self._drain()
        for f in (self._commands, self._events):
            try:
                f.close()
            except OSError:
                pass

    def _feed(self, record):
        t = self.translator
        try:
            t.feed(self._expander.expand(record))
            self._kept = [len(t.commands), len(t.events)]
        except Exception as e:  # never let a capture problem reach the scheduler
            # Only whole records are written: what the failing one appended is taken back.
            del t.commands[self._kept[0]:]
            del t.events[self._kept[1]:]
            self._kept = [len(t.commands), len(t.events)]
            self._drain()
            if self.error is None:
                self._stop("%s: %s" % (type(e).__name__, e), record)

    def _drain(self):
        t = self.translator
        for lines, end, i in ((t.commands, t.commands_ready, 0), (t.events, t.ready, 1)):
            if self._written[i] >= end:
                continue
            if self._segment_bytes and not self._roll(i, lines[self._written[i]]):
                return
            f = self._events if i else self._commands
            text = _json_lines(lines[self._written[i]:end])
            start = f.tell()
            try:
                f.write(text)
                f.flush()
            except OSError as e:
                try:  # cut a partly written block back to the last whole line
                    f.seek(start)
                    f.truncate()
                except (OSError, ValueError):
                    pass
                self._stop("cannot write %s: %s" % (os.path.basename(f.name), e), record=None)
                return
            self._written[i] = end
            if i == 1:
                self._seq_written = lines[end - 1]["seq"]
        # what is in the files leaves memory
        t.forget_written(self._written[0], self._written[1])
        self._kept = [self._kept[0] - self._written[0], self._kept[1] - self._written[1]]
        self._written = [0, 0]

    def _open(self, sub, name):
        return open(os.path.join(self.folder, sub, name), "w", encoding="utf-8")

    def _roll(self, i, first_line):
        """Before a write: closes a full segment (or scenario part) and begins the next, named after the seq of
        the first line it will hold (the scenario's parts are numbered). False when that fails (stopped)."""
        f = self._events if i else self._commands
        try:
            if f.tell() < self._segment_bytes:
                return True
            f.close()
            if i:
                self._events = self._open("vllm-events", "segment-%020d.jsonl" % first_line["seq"])
            else:
                self._parts += 1
                self._commands = self._open("commands", "commands-%06d.jsonl" % (self._parts + 1))
            return True
        except OSError as e:
            self._stop("cannot roll %s: %s" % (os.path.basename(f.name), e), record=None)
            return False

    def _stop(self, reason, record):
        t = self.translator
        self.error = reason
        call = " in %s" % record.get("call") if isinstance(record, dict) else ""
        written = self._seq_written
        logger.error("kvledger capture stopped at scheduler step %d%s: %s; %s keeps vLLM's log up to seq %d "
                     "(whole records only, readable)", t.step, call, reason, self.folder, written)

    def close(self):
        """Writes what is queued and closes the files. Idempotent."""
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join()


class ProcessWriter:
    """The writer in a child process (``python -m kvledger_capture.writer``): the records pickled down a pipe
    here, the translation and the files there. ``error`` is the first failure the child reported (None while
    the capture is whole); each is logged here once, at ERROR, through vLLM's logger.

    The scheduler's thread only appends each call's record (plain data it copied at the call, referring to no
    list vLLM changes afterwards: :mod:`kvledger_capture.records`) to a queue. The sender thread pickles them
    and writes them to the pipe, blocking (the GIL released) while the writer process is behind: every
    :attr:`STEPS_PER_SEND` steps (:meth:`kick`) in one frame, at the latest every :attr:`IDLE_SECONDS` (vLLM
    idle, or slow steps), and at :meth:`close`. So the scheduler's thread neither pickles nor writes, and the
    sender takes the GIL once for several steps."""

    #: Seconds the sender waits at most before it sends what is queued (vLLM idle, or slow steps).
    IDLE_SECONDS = 0.05
    #: Steps whose records go to the writer process in one frame (a few tens of KB at 256 running requests).
    STEPS_PER_SEND = 8
    #: The pipe's buffer asked for (Linux; unprivileged processes may have up to /proc/sys/fs/pipe-max-size).
    PIPE_BYTES = 1 << 20

    def __init__(self, folder, config, producer=None, segment_bytes=0):
        os.makedirs(folder, exist_ok=True)  # a folder vLLM cannot write stops vLLM's start, as before
        self.folder = folder
        self.error = None
        self._records = collections.deque()  # appended on the scheduler's thread, taken by the sender
        self._writing = 0                    # bytes of the frame the sender is writing (the pipe may be full)
        self._wake = threading.Event()
        self._kicks = 0
        self._closing = False
        env = dict(os.environ)
        package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        self._child = subprocess.Popen([sys.executable, "-m", "kvledger_capture.writer"], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, env=env, bufsize=0)
        self._pipe = self._child.stdin.fileno()
        try:
            fcntl.fcntl(self._pipe, fcntl.F_SETPIPE_SZ, self.PIPE_BYTES)
        except (AttributeError, OSError):  # not Linux, or above the system's limit: the default pipe
            pass
        _write_all(self._pipe, _frame((folder, config, producer, segment_bytes)))
        self._reader = threading.Thread(target=self._read, name="kvledger-capture-reports", daemon=True)
        self._reader.start()
        self._thread = threading.Thread(target=self._run, name="kvledger-capture", daemon=True)
        self._thread.start()

    def put(self, record):
        if self.error is None:
            self._records.append(record)

    def fail(self, reason):
        self._records.append(("fail", reason))

    def kick(self):
        """A step's metadata is built: every :attr:`STEPS_PER_SEND` steps the sender sends the records."""
        self._kicks += 1
        if self._kicks % self.STEPS_PER_SEND == 0 and self._records:
            self._wake.set()

    def queued_bytes(self):
        """Nonzero while records wait for the writer process: the bytes of the frame the sender is writing, and
        one for each record it has not pickled yet."""
        return self._writing + len(self._records)

    def _send_records(self):
        """On the sender's thread: the records put so far, pickled in one frame and written to the pipe."""
        records = []
        take = self._records.popleft
        try:
            while True:
                records.append(take())
        except IndexError:
            pass
        if not records or self.error is not None:
            return
        try:
            frame = _frame(records)
        except Exception as e:  # a record that does not pickle: the child stops, logging it
            calls = ", ".join(sorted({r.get("call", "?") for r in records if isinstance(r, dict)}))
            frame = _frame([("fail", "cannot hand %s over to the writer process: %s: %s"
                             % (calls or "a call", type(e).__name__, e))])
        self._writing = len(frame)
        try:
            _write_all(self._pipe, frame)
        except OSError as e:
            self._gone(e)
        finally:
            self._writing = 0

    def _gone(self, e):
        self._records.clear()
        self._report("kvledger capture stopped: its writer process is gone (%s); %s keeps what it wrote (whole "
                     "records only, readable)" % (e, self.folder))

    def _run(self):
        while True:
            self._wake.wait(self.IDLE_SECONDS)
            self._wake.clear()
            closing = self._closing
            self._send_records()
            if closing:
                break
        try:
            self._child.stdin.close()  # the writer process reads to its end, writes and closes the files
        except OSError:
            pass

    def _read(self):
        for line in self._child.stdout:
            message = line.decode("utf-8", "replace").rstrip("\n")
            if message:
                self._report(message)
        code = self._child.wait()
        if code != 0 and self.error is None:
            self._report("kvledger capture stopped: its writer process exited with %d; %s keeps what it wrote"
                         % (code, self.folder))

    def _report(self, message):
        if self.error is None:
            self.error = message
            logger.error("%s", message)

    def close(self):
        """Sends what is queued, lets the child write it and close the files, and waits for it. Idempotent."""
        if self._thread.is_alive():
            self._closing = True
            self._wake.set()
            self._thread.join()
        self._reader.join()


def _plain_encoder():
    """``json.dumps``'s own C encoder with ``json.dumps``'s defaults, made once rather than once a line (the
    writer's largest cost after the translation); ``check_circular`` off, which changes no output for the
    translator's lines (plain dicts, lists, strings and numbers, no cycle). None without the C accelerator."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    d = json.encoder.JSONEncoder()
    try:
        encoder = make(None, d.default, json.encoder.encode_basestring_ascii, d.indent, d.key_separator,
                       d.item_separator, d.sort_keys, d.skipkeys, d.allow_nan)
        sample = {"seq": 1, "a": [1, None, "\u00e9\"x", 2.5, True], "b": {"c": []}}
        if "".join(encoder(sample, 0)) != json.dumps(sample):
            return None
    except (TypeError, ValueError):  # another Python's C encoder takes other arguments
        return None
    return encoder


_ENCODER = _plain_encoder()


def _json_lines(lines):
    """The lines as JSON Lines, each exactly as ``json.dumps`` writes it."""
    if _ENCODER is None:
        return "".join(json.dumps(line) + "\n" for line in lines)
    chunks = []
    for line in lines:
        chunks.extend(_ENCODER(line, 0))
        chunks.append("\n")
    return "".join(chunks)


def _frame(obj):
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return struct.pack("<I", len(data)) + data


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _child_main():
    """The writer process: frames of pickled records on stdin (the first: folder, config, producer, segment
    size), the files written here; each failure is one line on stdout for the parent to log."""
    import logging
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.propagate = False
    stream = sys.stdin.buffer

    def frames():
        while True:
            head = stream.read(4)
            if len(head) < 4:
                return
            (size,) = struct.unpack("<I", head)
            yield pickle.loads(stream.read(size))
    received = frames()
    first = next(received, None)
    if first is None:
        return 0
    folder, config, producer, segment_bytes = first
    writer = CaptureWriter(folder, config, producer=producer, segment_bytes=segment_bytes, threaded=False)
    for batch in received:
        for record in batch:
            writer.handle(record)
        if writer.error is None:
            writer._drain()
        sys.stdout.flush()
    writer.finish()
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_child_main())
