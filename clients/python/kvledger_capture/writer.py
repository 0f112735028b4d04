"""The capture's writer thread: call records in, two JSON Lines files out, off the scheduler's thread.

A record the translator cannot take, or a write the disk refuses, stops the capture: it is logged once at
ERROR through vLLM's logger (the seq of vLLM's log it stopped after, the scheduler step and the reason), and
the files keep what was written before it, whole records only, so both stay readable prefixes
(``kvledger audit`` and ``kvledger run`` read them). The scheduler never sees the error.
"""

import json
import os
import queue
import threading

from .translate import Translator

try:  # vLLM's logger when vLLM is there: its format, its level, its handlers
    from vllm.logger import init_logger
except ImportError:  # pragma: no cover - depends on the environment
    from logging import getLogger as init_logger

logger = init_logger("kvledger_capture")

_STOP = object()


class CaptureWriter:
    """The queue and the writer thread; ``error`` is the first failure (None while the capture is whole)."""

    def __init__(self, folder, config):
        os.makedirs(folder, exist_ok=True)
        self.folder = folder
        self.translator = Translator(config)
        self.error = None
        self._queue = queue.SimpleQueue()
        self._commands = open(os.path.join(folder, "commands.jsonl"), "w", encoding="utf-8")
        self._events = open(os.path.join(folder, "vllm-events.jsonl"), "w", encoding="utf-8")
        self._written = [0, 0]       # lines of the translator's lists already in the files
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
            if self._queue.empty() and self.error is None:
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
            t.feed(record)
            self._kept = [len(t.commands), len(t.events)]
        except Exception as e:  # never let a capture problem reach the scheduler
            # Only whole records are written: what the failing one appended is taken back.
            del t.commands[self._kept[0]:]
            del t.events[self._kept[1]:]
            self._drain()
            if self.error is None:
                self._stop("%s: %s" % (type(e).__name__, e), record)

    def _drain(self):
        t = self.translator
        pending = [(self._commands, t.commands, len(t.commands), 0), (self._events, t.events, t.ready, 1)]
        for f, lines, end, i in pending:
            if self._written[i] >= end:
                continue
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

    def _stop(self, reason, record):
        t = self.translator
        self.error = reason
        call = " in %s" % record.get("call") if isinstance(record, dict) else ""
        written = t.events[self._written[1] - 1]["seq"] if self._written[1] else 0
        logger.error("kvledger capture stopped at scheduler step %d%s: %s; %s keeps vLLM's log up to seq %d "
                     "(whole records only, readable)", t.step, call, reason, self.folder, written)

    def close(self):
        """Writes what is queued and closes the files. Idempotent."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join()
