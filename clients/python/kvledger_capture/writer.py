"""The capture's writer thread: call records in, two JSON Lines files out, off the scheduler's thread.

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

import json
import os
import queue
import threading

from .records import Expander
from .translate import Translator

try:  # vLLM's logger when vLLM is there: its format, its level, its handlers
    from vllm.logger import init_logger
except ImportError:  # pragma: no cover - depends on the environment
    from logging import getLogger as init_logger

logger = init_logger("kvledger_capture")

_STOP = object()


class CaptureWriter:
    """The queue and the writer thread; ``error`` is the first failure (None while the capture is whole)."""

    #: Events kept in memory at most before they are written, when the queue never runs empty.
    DRAIN_LINES = 4096

    def __init__(self, folder, config, producer=None, segment_bytes=0):
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
        self._thread = threading.Thread(target=self._run, name="kvledger-capture", daemon=True)
        self._thread.start()

    def put(self, record):
        if self.error is None:
            self._queue.put(record)

    def fail(self, reason):
        """Stops the capture for a reason found on the scheduler's thread (a call it could not copy)."""
        self._queue.put(("fail", reason))

    def _run(self):
        while True:
            record = self._queue.get()
            if record is _STOP:
                break
            if self.error is None:
                if isinstance(record, tuple):
                    self._drain()
                    if self.error is None:
                        self._stop(record[1], record=None)
                else:
                    self._feed(record)
            # written when the queue is idle, or every DRAIN_LINES lines when it never is (a writer behind)
            if self.error is None and (self._queue.empty() or len(self.translator.events) >= self.DRAIN_LINES):
                self._drain()
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
        for lines, end, i in ((t.commands, len(t.commands), 0), (t.events, t.ready, 1)):
            if self._written[i] >= end:
                continue
            if self._segment_bytes and not self._roll(i, lines[self._written[i]]):
                return
            f = self._events if i else self._commands
            text = "".join(json.dumps(line) + "\n" for line in lines[self._written[i]:end])
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
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join()
